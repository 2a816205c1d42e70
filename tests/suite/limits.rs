//! Linear everywhere again, nothing lost on a bad stderr (issue 47): every
//! case runs the binary and failed before its fix. Time is measured as
//! counted work (`linear.rs`) or here by inputs over 1 MiB run under a
//! timeout; memory under `ulimit -v`.

use crate::common::{run_sh, scratch, Run};
use std::path::Path;

/// A call in Hermes markup.
const CALL: &str = r#"<tool_call>{"name":"get_weather","arguments":{"city":"Lima"}}</tool_call>"#;

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write scratch file");
    p.display().to_string()
}

fn records(r: &Run) -> Vec<serde_json::Value> {
    r.out()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

/// A diagnostic that cannot be written (stderr on a full device) is
/// dropped: no panic (exit 101), and every record still reaches stdout.
#[test]
fn a_full_stderr_loses_no_records_and_does_not_panic() {
    let dir = scratch("full-stderr");
    let ok = write(&dir, "ok.txt", CALL.as_bytes());
    let bad = write(
        &dir,
        "bad.txt",
        br#"<tool_call>{"name":"get_weather","arguments":{"city":5}}</tool_call>"#,
    );
    let cases: [(&str, i32, usize); 4] = [
        // two unreadable inputs before a good one
        ("$TC parse nope1 nope2 OK 2>/dev/full", 2, 1),
        // a diagnostic for an invalid call, records for both
        (
            "$TC validate --tools fixtures/turns/tools.json OK BAD 2>/dev/full",
            1,
            2,
        ),
        // the final error of a run
        ("$TC validate OK 2>/dev/full", 2, 0),
        // -v logs
        ("$TC parse -v OK 2>/dev/full", 0, 1),
    ];
    for (script, code, n) in cases {
        let script = script.replace("OK", &ok).replace("BAD", &bad);
        let r = run_sh(&script, 60);
        assert_eq!(r.code, code, "{script}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{script}: {}", r.stderr);
        assert_eq!(records(&r).len(), n, "{script}: {}", r.out());
    }
}

/// A reader of stderr that went away (a pipe whose reading end is
/// closed): the run completes and its stdout is whole.
#[test]
fn a_closed_stderr_pipe_loses_no_records() {
    use std::process::Stdio;
    let dir = scratch("closed-stderr");
    let ok = write(&dir, "ok.txt", CALL.as_bytes());
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let out = crate::common::toolcall()
        .args(["parse", "nope1", "nope2", &ok])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(writer)
        .output()
        .expect("run toolcall");
    assert_eq!(out.status.code(), Some(2));
    let got = String::from_utf8_lossy(&out.stdout);
    assert_eq!(got.lines().count(), 1, "{got}");
}

/// Harmony call bodies that open a JSON value and never close it, one
/// after another: each body ends at the next harmony header, so 1.3 MB
/// takes a fraction of a second (it took minutes) and every header is a
/// call start.
#[test]
fn unclosed_harmony_bodies_end_at_the_next_header() {
    let unit = "<|start|>assistant<|channel|>commentary to=functions.f<|message|>{";
    let doc = unit.repeat(20_000);
    assert!(doc.len() > 1 << 20);
    let dir = scratch("harmony-bodies");
    let f = write(&dir, "h.txt", doc.as_bytes());
    let r = run_sh(&format!("$TC parse {f} | wc -l"), 30);
    assert_eq!(r.out().trim(), "20000", "{}", r.stderr);
}

/// A long run of name bytes (a minified blob with no break) at the start
/// of a document: `stream` holds no more than its buffer (it held the
/// whole run, 85 MB for 40 MB), `parse` finds nothing. Its time is counted
/// in `linear::long_name_runs_after_every_opener_cost_linear_work`.
#[test]
fn a_long_run_of_name_bytes_is_not_held() {
    let dir = scratch("name-run");
    let f = dir.join("x.txt");
    std::fs::write(&f, vec![b'x'; 48 << 20]).expect("write");
    let f = f.display();
    let r = run_sh(
        &format!(
            "ulimit -v 100000; $TC stream --max-buffer 1048576 <{f} | wc -c; $TC parse {f}; echo $?"
        ),
        120,
    );
    let out = r.out();
    let got: Vec<&str> = out.split_whitespace().collect();
    assert_eq!(got.len(), 2, "{out} {}", r.stderr);
    assert!(
        got[0].parse::<u64>().is_ok_and(|n| n > 48 << 20),
        "{got:?} {}",
        r.stderr
    );
    assert_eq!(got[1], "1", "{}", r.stderr);
}

/// `validate --input messages` without tools: a call with no name (a
/// `null`, a number, a string or an empty object in `tool_calls`) is
/// TLP-001, not a valid call named ""; a message field of the wrong type
/// is a TLP-008 error, not silence.
#[test]
fn conversation_calls_and_fields_of_the_wrong_type_are_errors() {
    let dir = scratch("wrong-types");
    let calls = write(
        &dir,
        "calls.json",
        br#"{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[null,1,"x",{}]}]}"#,
    );
    let r = run_sh(&format!("$TC validate --input messages {calls}"), 60);
    let recs = records(&r);
    assert_eq!(recs.len(), 4, "{}", r.out());
    for rec in &recs {
        assert_eq!(rec["valid"], false, "{rec}");
        assert_eq!(rec["errors"][0]["code"], "TLP-001", "{rec}");
    }
    assert_eq!(r.code, 1, "{}", r.stderr);
    let fields = write(
        &dir,
        "fields.json",
        br#"{"messages":[{"role":"assistant","content":5},{"role":["assistant"],"content":"x"},{"role":"assistant","tool_calls":"notalist"}]}"#,
    );
    let r = run_sh(&format!("$TC validate --input messages {fields}"), 60);
    let recs = records(&r);
    let codes: Vec<&str> = recs
        .iter()
        .map(|r| r["errors"][0]["code"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(codes, ["TLP-008"; 3], "{}", r.out());
    assert!(r.out().contains("/messages/1/role"), "{}", r.out());
    assert_ne!(r.code, 0, "{}", r.stderr);
}

/// The README's bless loop for your own golden files, run as written
/// under `set -euo pipefail`: a file with no call must not stop it (it
/// stopped silently at the first one), and every expected file is
/// written. The README names the test target that exists.
#[test]
fn the_readme_bless_loop_runs_under_set_euo_pipefail() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README");
    let line = readme
        .lines()
        .find(|l| {
            l.starts_with("for f in golden/*.txt; do toolcall parse") && l.contains(".expected\"")
        })
        .expect("the bless loop in the README");
    assert!(
        !readme.contains("--test\ngolden") && !readme.contains("--test golden"),
        "the README names a test target that does not exist"
    );
    let dir = scratch("bless-loop");
    let golden = dir.join("golden");
    std::fs::create_dir_all(&golden).expect("golden dir");
    write(&golden, "a-prose.txt", b"No tool needed: the answer is 4.");
    write(&golden, "b-call.txt", CALL.as_bytes());
    let bin = Path::new(env!("CARGO_BIN_EXE_toolcall"))
        .parent()
        .expect("bin dir");
    let out = std::process::Command::new("bash")
        .args(["-euo", "pipefail", "-c", line])
        .current_dir(&dir)
        .env(
            "PATH",
            format!(
                "{}:{}",
                bin.display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .output()
        .expect("bash");
    assert!(out.status.success(), "{out:?}");
    let blessed = std::fs::read_to_string(golden.join("b-call.expected")).expect("b-call.expected");
    assert_eq!(blessed.lines().count(), 1, "{blessed}");
}

/// `parse --input messages` on a conversation that is not UTF-8 says so,
/// with where (it read "not a conversation").
#[test]
fn a_conversation_that_is_not_utf8_says_so() {
    let dir = scratch("not-utf8");
    let f = write(
        &dir,
        "c.json",
        b"{\"messages\":[{\"role\":\"assistant\",\"content\":\"\xff\xfe hi\"}]}",
    );
    let r = run_sh(&format!("$TC parse --input messages {f}"), 60);
    let recs = records(&r);
    assert_eq!(recs.len(), 1, "{}", r.out());
    let msg = recs[0]["message"].as_str().unwrap_or("");
    assert!(
        msg.contains("not UTF-8") && msg.contains("offset 44"),
        "{msg}"
    );
}
