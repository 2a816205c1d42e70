//! Bounds, bad input and newcomer frictions (issue 36): every case runs the
//! binary and failed before its fix.

use crate::common;

use crate::common::{run_binary, scratch, Run};
use std::path::Path;

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write scratch file");
    p.display().to_string()
}

fn lines(r: &Run) -> Vec<serde_json::Value> {
    r.out()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

// ----- 1. a bad line in a records file ---------------------------------------

/// Two `parse` records, as a file.
fn two_records(dir: &Path) -> Vec<String> {
    let reply = write(
        dir,
        "reply.txt",
        br#"<tool_call>{"name":"f","arguments":{"a":1}}</tool_call>
<tool_call>{"name":"g","arguments":{}}</tool_call>"#,
    );
    let r = run_binary(&["parse", &reply], None, None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.out().lines().map(str::to_string).collect()
}

const TOOLS: &str =
    r#"[{"name":"f","parameters":{"type":"object"}},{"name":"g","parameters":{"type":"object"}}]"#;

#[test]
fn a_bad_line_among_records_is_reported_and_the_rest_judged() {
    let dir = scratch("bad-record-line");
    let recs = two_records(&dir);
    let tools = write(&dir, "tools.json", TOOLS.as_bytes());
    let deep = format!(
        r#"{{"type":"tool_call","name":"f","arguments":{{"a":{}{}}}}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let cases = [
        // an interrupted parse: the last line cut
        (
            "cut",
            format!("{}\n{}\n{}", recs[0], recs[1], &recs[0][..50]),
            3,
        ),
        (
            "garbage",
            format!("{}\ngarbage here\n{}\n", recs[0], recs[1]),
            2,
        ),
        ("deep", format!("{}\n{deep}\n{}\n", recs[0], recs[1]), 2),
        // the bad line first
        (
            "first",
            format!("{}\n{}\n{}\n", &recs[0][..40], recs[0], recs[1]),
            1,
        ),
    ];
    for (case, text, bad) in cases {
        let file = write(&dir, &format!("{case}.ndjson"), text.as_bytes());
        let r = run_binary(&["validate", "--tools", &tools, &file], None, None);
        let recs = lines(&r);
        let names: Vec<_> = recs
            .iter()
            .map(|v| v["name"].as_str().unwrap_or(""))
            .collect();
        assert_eq!(recs.len(), 3, "{case}: {names:?}\n{}", r.stderr);
        assert!(
            names.contains(&"f") && names.contains(&"g"),
            "{case}: {names:?}"
        );
        let broken: Vec<_> = recs.iter().filter(|v| v["valid"] == false).collect();
        assert_eq!(broken.len(), 1, "{case}");
        assert_eq!(broken[0]["errors"][0]["code"], "TLP-008", "{case}");
        assert_eq!(broken[0]["line"], bad, "{case}");
        assert_eq!(
            r.code, 1,
            "{case}: a bad line is a broken call\n{}",
            r.stderr
        );
        assert!(
            r.stderr.contains(&format!("line {bad} is not a record")),
            "{case}: {}",
            r.stderr
        );

        let r = run_binary(
            &[
                "exec",
                "--tools",
                &tools,
                "--bind",
                "f=true",
                "--bind",
                "g=true",
                "--approve",
                "yes",
                &file,
            ],
            None,
            None,
        );
        let results = lines(&r);
        assert_eq!(
            results.len(),
            2,
            "{case}: the good records run\n{}",
            r.stderr
        );
        assert!(
            results.iter().all(|v| v["status"] == "completed"),
            "{case}: {results:?}"
        );
        assert!(r.stderr.contains("TLP-008"), "{case}: {}", r.stderr);
        assert_eq!(r.code, 2, "{case}: the input was not read whole");
    }
}

#[test]
fn model_text_is_still_model_text() {
    // prose with a JSON line is not a records file
    let dir = scratch("not-records");
    let tools = write(&dir, "tools.json", TOOLS.as_bytes());
    let text = "Let me look.\n{\"type\":\"tool_call\",\"name\":\"f\",\"arguments\":{}}\n";
    let file = write(&dir, "prose.txt", text.as_bytes());
    let r = run_binary(&["validate", "--tools", &tools, &file], None, None);
    assert!(!r.stderr.contains("is not a record"), "{}", r.stderr);
}

// ----- 2. numbers are range-checked -----------------------------------------

#[test]
fn every_number_flag_has_a_range_and_a_clear_error() {
    let dir = scratch("number-ranges");
    let tools = write(&dir, "tools.json", TOOLS.as_bytes());
    let huge = "18446744073709551615";
    let cases: [(&[&str], &str, &str); 11] = [
        (
            &["exec", "--tools", &tools, "--tool-timeout", huge],
            "--tool-timeout",
            "5..=86400",
        ),
        (
            &["exec", "--tools", &tools, "--approval-timeout", huge],
            "--approval-timeout",
            "1..=86400",
        ),
        (
            &["exec", "--tools", &tools, "--max-output", huge],
            "--max-output",
            "1..=16777216",
        ),
        (
            &["exec", "--tools", &tools, "--max-parallel", "11"],
            "--max-parallel",
            "1..=10",
        ),
        (
            &[
                "loop",
                "--model-cmd",
                "true",
                "--request-timeout",
                huge,
                "hi",
            ],
            "--request-timeout",
            "5..=604800",
        ),
        (
            &["loop", "--model-cmd", "true", "--delay", huge, "hi"],
            "--delay",
            "0..=3600000",
        ),
        (
            &["loop", "--model-cmd", "true", "--result-cap", huge, "hi"],
            "--result-cap",
            "100..=4194304",
        ),
        (
            &["loop", "--model-cmd", "true", "--attach-max", huge, "hi"],
            "--attach-max",
            "1..=16777216",
        ),
        (
            &[
                "loop",
                "--model-cmd",
                "true",
                "--max-iterations",
                "101",
                "hi",
            ],
            "--max-iterations",
            "1..=100",
        ),
        (
            &["stream", "--think-window", huge],
            "--think-window",
            "0..=4294967296",
        ),
        (
            &["parse", "-q", "-c"],
            "--quiet",
            "cannot be used with '--count'",
        ),
    ];
    for (args, flag, range) in cases {
        let r = run_binary(args, Some(b""), None);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains(flag) && r.stderr.contains(range),
            "{args:?}: {}",
            r.stderr
        );
        assert!(!r.stderr.contains("panicked"), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn config_file_numbers_are_range_checked_too() {
    let dir = scratch("config-ranges");
    let tools = write(&dir, "tools.json", TOOLS.as_bytes());
    for key in [
        "tool_timeout_s",
        "request_timeout_s",
        "approval_timeout_s",
        "iteration_delay_ms",
    ] {
        write(
            &dir,
            ".toolcall.json5",
            format!("{{ {key}: 99999999999 }}").as_bytes(),
        );
        let r = run_binary(&["exec", "--tools", &tools, "-"], Some(b""), Some(&dir));
        assert_eq!(r.code, 2, "{key}: {}", r.stderr);
        assert!(
            r.stderr.contains(key) && r.stderr.contains("is not an integer from"),
            "{key}: {}",
            r.stderr
        );
    }
}

#[test]
fn the_request_timeout_covers_the_delay() {
    let dir = scratch("delay-timeout");
    // a model that always calls a tool, a tool that succeeds at once
    write(
        &dir,
        "tools.json",
        br#"[{"name":"f","parameters":{"type":"object"},"x-toolcall":{"exec":["true"]}}]"#,
    );
    write(
        &dir,
        "model.sh",
        b"cat >/dev/null; echo '<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>'\n",
    );
    let r = common::run_sh(
        &format!(
            "cd '{}' && \"$TC\" loop --model-cmd 'sh model.sh' --tools tools.json --approve yes \
             --request-timeout 5 --tool-timeout 5 --delay 3600000 hi",
            dir.display()
        ),
        60,
    );
    assert_eq!(
        r.code, 124,
        "an hour's --delay ends at the 5 s request timeout: {}",
        r.stderr
    );
    assert!(r.out().contains("request_timeout"), "{}", r.out());
}

// ----- 3. size limits everywhere ---------------------------------------------

#[test]
fn render_tools_honours_max_tools_size() {
    let dir = scratch("render-tools-size");
    // 17 MiB: over the 16 MiB default
    let mut big = String::from("[");
    let tool = r#"{"name":"f","description":"DESCRIPTION","parameters":{"type":"object"}},"#;
    let desc = "d".repeat(4096);
    let one = tool.replace("DESCRIPTION", &desc);
    while big.len() < 17 << 20 {
        big.push_str(&one);
    }
    big.push_str(r#"{"name":"g","parameters":{"type":"object"}}]"#);
    let file = write(&dir, "big-tools.json", big.as_bytes());
    let r = run_binary(
        &["render", "tools", "--family", "hermes", &file],
        None,
        None,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--max-tools-size"), "{}", r.stderr);
    assert!(r.stdout.is_empty());
    // and the flag sets it
    let small = write(&dir, "tools.json", TOOLS.as_bytes());
    let r = run_binary(
        &[
            "render",
            "tools",
            "--family",
            "hermes",
            "--max-tools-size",
            "50",
            &small,
        ],
        None,
        None,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--max-tools-size"), "{}", r.stderr);
    let r = run_binary(
        &["render", "tools", "--family", "hermes", &small],
        None,
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// An SSE stream whose first `data:` line is longer than --max-buffer:
/// that line is a TLP-007 error, the rest of the stream is decoded.
#[test]
fn an_sse_stream_with_a_first_line_over_the_window_is_still_sse() {
    let dir = scratch("sse-long-first-line");
    let big = "x".repeat(1200 << 10);
    let openai = [
        serde_json::json!({"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":big}}]}),
        serde_json::json!({"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]}}]}),
        serde_json::json!({"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}),
    ];
    let llama = [
        serde_json::json!({"index":0,"content":big,"stop":false,"id_slot":0,"tokens_predicted":1}),
        serde_json::json!({"index":0,"content":"<tool_call>{\"name\":\"f\",\"arguments\":{\"a\":1}}</tool_call>","stop":false,"id_slot":0,"tokens_predicted":2}),
        serde_json::json!({"index":0,"content":"","stop":true,"id_slot":0,"tokens_predicted":3}),
    ];
    for (kind, events) in [("openai", openai), ("llama-server", llama)] {
        let mut sse: String = events.iter().map(|e| format!("data: {e}\n\n")).collect();
        if kind == "openai" {
            sse.push_str("data: [DONE]\n\n");
        }
        let file = write(&dir, &format!("{kind}.sse"), sse.as_bytes());
        for cmd in ["parse", "stream"] {
            let r = run_binary(&[cmd, &file], None, None);
            let recs = lines(&r);
            let calls: Vec<_> = recs.iter().filter(|v| v["type"] == "tool_call").collect();
            assert_eq!(calls.len(), 1, "{kind} {cmd}: {}", r.stderr);
            assert_eq!(calls[0]["name"], "f");
            assert!(recs.iter().any(|v| v["code"] == "TLP-007"), "{kind} {cmd}");
            if cmd == "stream" {
                let done = recs.last().expect("done");
                assert_eq!(done["input"], kind, "{kind}");
            }
        }
    }
}

// ----- 4. streamed fragments with ever-new indices ---------------------------

/// Counts calls and errors; keeps nothing.
#[derive(Default)]
struct Count {
    calls: usize,
    errors: usize,
}

impl toolcall::Sink for Count {
    fn event(&mut self, ev: toolcall::Event<'_>) {
        match ev {
            toolcall::Event::ToolCall(_) => self.calls += 1,
            toolcall::Event::Error(_) => self.errors += 1,
            _ => {}
        }
    }
}

/// An endless OpenAI stream whose every fragment opens a new call index
/// (never finished): the calls dropped at --max-buffer leave only bounded
/// keys behind, so the open calls and what is held stay bounded whatever
/// the stream's length (before: every dropped call stayed open, 156 MB at
/// 200k fragments).
#[test]
fn ever_new_fragment_indices_hold_bounded_state() {
    use toolcall::wire::{InputKind, WireConfig, WireEngine};
    let max = 64 << 10;
    let wire = WireConfig {
        input: InputKind::OpenAi,
        max_buffer: max,
    };
    let mut engine = WireEngine::new(toolcall::Config::default(), wire);
    let mut sink = Count::default();
    let (mut peak_open, mut peak_keys, mut peak_held) = (0, 0, 0);
    let mut line = String::new();
    for k in 0..200_000u64 {
        line.clear();
        line.push_str(&format!(
            "data: {{\"object\":\"chat.completion.chunk\",\"choices\":[{{\"index\":0,\"delta\":{{\"tool_calls\":[{{\"index\":{k},\"id\":\"call_{k}\",\"type\":\"function\",\"function\":{{\"name\":\"f\",\"arguments\":\"{{\\\"a\\\":\"}}}}]}}}}]}}\n\n"
        ));
        engine.feed(line.as_bytes(), &mut sink);
        // and a later fragment of an older call (dropped or not)
        if k % 7 == 0 && k > 5000 {
            let old = k - 5000;
            let more = format!(
                "data: {{\"object\":\"chat.completion.chunk\",\"choices\":[{{\"index\":0,\"delta\":{{\"tool_calls\":[{{\"index\":{old},\"function\":{{\"arguments\":\"1}}\"}}}}]}}}}]}}\n\n"
            );
            engine.feed(more.as_bytes(), &mut sink);
        }
        let (open, keys) = engine.open_calls();
        peak_open = peak_open.max(open);
        peak_keys = peak_keys.max(keys);
        peak_held = peak_held.max(engine.held());
    }
    eprintln!("open calls at most {peak_open}, dropped keys {peak_keys}, held {peak_held}");
    // each open call is charged at least 64 bytes against --max-buffer
    assert!(peak_open <= max / 64 + 1, "{peak_open} calls open");
    assert!(
        peak_keys <= toolcall::wire::accumulate::DROPPED_KEYS / 64,
        "{peak_keys} keys"
    );
    assert!(peak_held <= max + (1 << 16), "held {peak_held}");
    assert!(
        sink.errors > 100_000,
        "the dropped calls are reported: {}",
        sink.errors
    );
    engine.finish(&mut sink);
    let (open, _) = engine.open_calls();
    assert_eq!(open, 0, "finished calls leave nothing behind");
}

// ----- 5. model names as people type them ------------------------------------

#[test]
fn ollama_and_hugging_face_model_names_are_known() {
    let call = br#"<tool_call>{"name":"f","arguments":{}}</tool_call>"#;
    for name in [
        "llama3.2",
        "llama3.1:8b",
        "phi4-mini",
        "granite3.3",
        "hermes3",
        "meta-llama/Llama-3.2-3B-Instruct",
        "Qwen/Qwen3-8B",
        "qwen3-coder:30b",
        "NousResearch/Hermes-3-Llama-3.1-8B",
    ] {
        let r = run_binary(&["parse", "--model", name], Some(call), None);
        assert_ne!(r.code, 2, "{name}: {}", r.stderr);
        assert!(!r.stderr.contains("unknown model"), "{name}: {}", r.stderr);
    }
    // Hermes markup under a Hermes model: found, in that format
    for name in ["hermes3", "Hermes-3-Llama-3.1-8B", "granite3.3:8b"] {
        let r = run_binary(&["parse", "--model", name], Some(call), None);
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
    }
    // an unknown name is a usage error, with no false read failure
    let r = run_binary(&["parse", "--model", "nosuch-model"], Some(call), None);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("unknown model 'nosuch-model'"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("could not be read"), "{}", r.stderr);
}

// ----- 6. the README's golden loop under pipefail -----------------------------

/// The README's golden-file loop, run as GitHub Actions runs a step
/// (`bash -eo pipefail`) over a corpus with a document that has no call:
/// it passes when the outputs match and fails on a diff.
#[test]
fn the_readme_golden_loop_works_under_pipefail() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README");
    let start = readme
        .find("# Golden files in CI")
        .expect("the golden loop in the README");
    let block: String = readme[start..]
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(block.contains("for f in golden/*.txt"), "{block}");
    let dir = scratch("golden-pipefail");
    let golden = dir.join("golden");
    std::fs::create_dir_all(&golden).expect("golden dir");
    write(
        &golden,
        "call.txt",
        br#"<tool_call>{"name":"f","arguments":{}}</tool_call>"#,
    );
    write(&golden, "prose.txt", b"No tool needed: the answer is 4.");
    let bin = Path::new(env!("CARGO_BIN_EXE_toolcall"))
        .parent()
        .expect("bin dir");
    let run = |dir: &Path| {
        std::process::Command::new("bash")
            .args(["-eo", "pipefail", "-c", &block])
            .current_dir(dir)
            .env(
                "PATH",
                format!(
                    "{}:{}",
                    bin.display(),
                    std::env::var("PATH").unwrap_or_default()
                ),
            )
            .output()
            .expect("bash")
    };
    for name in ["call", "prose"] {
        let out = run_binary(
            &["parse"],
            Some(&std::fs::read(golden.join(format!("{name}.txt"))).expect("read")),
            None,
        );
        std::fs::write(golden.join(format!("{name}.expected")), &out.stdout).expect("expected");
    }
    let out = run(&dir);
    assert!(
        out.status.success(),
        "the loop fails on a document with no call: {out:?}"
    );
    // a real difference still fails
    std::fs::write(golden.join("call.expected"), b"{}\n").expect("w");
    let out = run(&dir);
    assert!(!out.status.success(), "a diff must fail the loop");
}

// ----- 7. polish ---------------------------------------------------------------

#[test]
fn a_directory_given_to_stream_or_repair_is_named_plainly() {
    let dir = scratch("dir-input");
    let d = dir.display().to_string();
    for cmd in ["stream", "repair"] {
        let r = run_binary(&[cmd, &d], None, None);
        assert_eq!(r.code, 2, "{cmd}: {}", r.stderr);
        assert_eq!(
            r.stderr.trim_end(),
            format!("toolcall: {d}: is a directory"),
            "{cmd}"
        );
    }
}

#[test]
fn repair_messages_start_with_toolcall() {
    let r = run_binary(&["repair"], Some(b"not json at all\n"), None);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.starts_with("toolcall: -:1:1: error[TLP-003]"),
        "{}",
        r.stderr
    );
}

#[test]
fn the_binary_prints_its_own_completions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (shell, file) in [
        ("bash", "toolcall.bash"),
        ("zsh", "_toolcall"),
        ("fish", "toolcall.fish"),
    ] {
        let r = run_binary(&["completions", shell], None, None);
        assert_eq!(r.code, 0, "{shell}: {}", r.stderr);
        let shipped = std::fs::read(root.join("completions").join(file)).expect("completions");
        assert_eq!(
            r.stdout, shipped,
            "{shell}: differs from completions/{file}"
        );
    }
    let r = run_binary(&["completions", "nosh"], None, None);
    assert_eq!(r.code, 2);
}

// ----- issue 34, fault 9: what a run reads, holds and starts is bounded ----

/// Runs the binary in `dir` under a time limit (killed after 20 s) and an
/// address-space limit (4 GB), so a run without bounds fails the test
/// instead of the machine.
fn run_bounded(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut all = vec![
        "-c",
        "ulimit -v 4000000 2>/dev/null; exec \"$@\"",
        "sh",
        "timeout",
        "-s",
        "KILL",
        "20",
        env!("CARGO_BIN_EXE_toolcall"),
    ];
    all.extend_from_slice(args);
    let mut cmd = std::process::Command::new("sh");
    cmd.args(&all).current_dir(dir);
    let out = match stdin {
        Some(bytes) => {
            use std::io::Write;
            let mut child = cmd
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("spawn");
            let mut w = child.stdin.take().expect("stdin");
            let bytes = bytes.to_vec();
            std::thread::spawn(move || {
                let _ = w.write_all(&bytes);
            });
            child.wait_with_output().expect("wait")
        }
        None => cmd
            .stdin(std::process::Stdio::null())
            .output()
            .expect("run"),
    };
    Run {
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// A tools file with `t` (safe, prints its input) and `slow` (safe,
/// notes each run in `runs.txt`, then waits a tenth of a second).
fn run_tools(dir: &Path) -> String {
    write(
        dir,
        "tools.json",
        br#"[{"name":"t","parameters":{"type":"object"},"x-toolcall":{"risk":"safe","exec":"cat"}},
            {"name":"slow","parameters":{"type":"object"},"x-toolcall":{"risk":"safe",
             "exec":["sh","-c","echo x >> runs.txt; sleep 0.1; echo ok"]}}]"#,
    )
}

fn calls_of(name: &str, n: usize) -> String {
    (0..n)
        .map(|k| {
            format!("<tool_call>{{\"name\":\"{name}\",\"arguments\":{{\"k\":{k}}}}}</tool_call>\n")
        })
        .collect()
}

#[test]
fn a_reply_without_end_stops_at_max_reply_with_complete() {
    let dir = scratch("max-reply");
    let r = run_bounded(
        &dir,
        &[
            "loop",
            "--no-tools",
            "--max-reply",
            "100000",
            "--model-cmd",
            "cat >/dev/null; yes",
            "hi",
        ],
        None,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    let recs = lines(&r);
    let last = recs.last().expect("records");
    assert_eq!(last["type"], "complete");
    assert_eq!(last["stop_reason"], "error");
    let err = recs
        .iter()
        .find(|v| v["type"] == "agent_error")
        .expect("agent_error");
    assert!(
        err["error"]
            .as_str()
            .unwrap_or("")
            .contains("--max-reply (100000 bytes)"),
        "{err}"
    );
    // what was kept is the bound, not more
    let text: usize = recs
        .iter()
        .filter(|v| v["type"] == "text")
        .map(|v| v["text"].as_str().map_or(0, str::len))
        .sum();
    assert!(text <= 100_000, "{text} bytes of text");
}

#[test]
fn side_inputs_are_read_under_max_input() {
    let dir = scratch("side-inputs");
    let big = write(&dir, "big.txt", &vec![b'a'; 5000]);
    let history = write(&dir, "history.ndjson", &vec![b' '; 5000]);
    let model = [
        "--no-tools",
        "--model-cmd",
        "cat >/dev/null; echo ok",
        "--max-input",
        "1000",
    ];
    let system = format!("@{big}");
    let cases: [&[&str]; 4] = [
        &["--attach", "/dev/zero", "hi"],
        &["--system", &system, "hi"],
        &["--history", &history, "hi"],
        &["-"],
    ];
    for extra in cases {
        let mut args = vec!["loop"];
        args.extend_from_slice(&model);
        args.extend_from_slice(extra);
        let r = run_bounded(&dir, &args, Some(&[b'm'; 5000]));
        assert_eq!(r.code, 2, "{extra:?}: {}", r.stderr);
        assert!(
            r.stderr.contains("larger than --max-input (1000 bytes)"),
            "{extra:?}: {}",
            r.stderr
        );
        assert!(r.stdout.is_empty(), "{extra:?}");
    }
    // the same under the bound runs
    let r = run_bounded(
        &dir,
        &[
            "loop",
            "--no-tools",
            "--model-cmd",
            "cat >/dev/null; echo ok",
            "--max-input",
            "10000",
            "--attach",
            &big,
            "hi",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // state files have their own bound (4 MiB)
    let tools = run_tools(&dir);
    let perms = dir.join("perms.json");
    std::fs::write(&perms, vec![b' '; (4 << 20) + 1]).expect("perms");
    let r = run_bounded(
        &dir,
        &["exec", "--tools", &tools, "--permissions", "perms.json"],
        Some(calls_of("t", 1).as_bytes()),
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("larger than 4194304 bytes"),
        "{}",
        r.stderr
    );
}

#[test]
fn max_tool_runs_bounds_a_reply_and_a_loop() {
    let dir = scratch("max-tool-runs");
    let tools = run_tools(&dir);
    let r = run_bounded(
        &dir,
        &[
            "exec",
            "--tools",
            &tools,
            "--no-timestamps",
            "--max-tool-runs",
            "3",
        ],
        Some(calls_of("t", 10).as_bytes()),
    );
    let recs = lines(&r);
    let st: Vec<&str> = recs.iter().filter_map(|v| v["status"].as_str()).collect();
    assert_eq!(
        st.iter().filter(|s| **s == "completed").count(),
        3,
        "{st:?}"
    );
    assert_eq!(st.iter().filter(|s| **s == "skipped").count(), 7, "{st:?}");
    assert!(recs[9]["error"]
        .as_str()
        .unwrap_or("")
        .contains("--max-tool-runs"));
    assert_eq!(r.code, 1);
    // a loop whose model asks for four calls every time: five runs in all
    let reply = write(&dir, "reply.txt", calls_of("t", 4).as_bytes());
    let model = format!("cat >/dev/null; cat {reply}");
    let r = run_bounded(
        &dir,
        &[
            "loop",
            "--tools",
            &tools,
            "--delay",
            "0",
            "--max-iterations",
            "5",
            "--max-tool-runs",
            "5",
            "--model-cmd",
            &model,
            "go",
        ],
        None,
    );
    let recs = lines(&r);
    let done = recs.last().expect("records");
    assert_eq!(done["type"], "complete");
    assert_eq!(done["tool_calls_executed"], 5, "{done}");
}

/// `exec` writes each result as soon as it is known and stops starting
/// tools when a write fails: quietly for a closed pipe, with a message for
/// a full disk. Before, all twenty tools ran whatever became of stdout.
#[test]
fn exec_stops_starting_tools_once_its_output_is_gone() {
    use std::io::Read;
    let dir = scratch("output-gone");
    let tools = run_tools(&dir);
    let input = dir.join("calls.txt");
    std::fs::write(&input, calls_of("slow", 20)).expect("calls");
    let runs = || {
        std::fs::read_to_string(dir.join("runs.txt"))
            .unwrap_or_default()
            .lines()
            .count()
    };
    let exec = |stdout: std::process::Stdio| {
        std::process::Command::new(env!("CARGO_BIN_EXE_toolcall"))
            .args(["exec", "--tools", &tools, "--max-parallel", "1"])
            .arg(&input)
            .current_dir(&dir)
            .stdin(std::process::Stdio::null())
            .stdout(stdout)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn")
    };
    // a full disk
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let out = exec(full.into()).wait_with_output().expect("wait");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("writing the results"), "{err}");
    assert!(runs() <= 3, "{} tools ran", runs());
    // `| head -1`: read one line, close the pipe
    let _ = std::fs::remove_file(dir.join("runs.txt"));
    let mut child = exec(std::process::Stdio::piped());
    let mut stdout = child.stdout.take().expect("stdout");
    let mut first = Vec::new();
    let mut byte = [0u8; 1];
    while stdout.read(&mut byte).unwrap_or(0) == 1 && byte[0] != b'\n' {
        first.push(byte[0]);
    }
    drop(stdout);
    let out = child.wait_with_output().expect("wait");
    assert!(String::from_utf8_lossy(&first).contains("tool_result"));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(runs() <= 4, "{} tools ran", runs());
}

/// `exec` with a stdout that is `/dev/null` runs its tools and exits 0,
/// however `/dev/null` was opened: write-only (`> /dev/null`), read-write
/// (`1<> /dev/null`, what Python's `subprocess.DEVNULL` and daemons hand a
/// child) or closed before the start (`>&-`, which the Rust runtime reopens
/// read-write on `/dev/null`). The three cannot be told apart honestly, so
/// none is refused (a refusal broke callers that only want the effect).
#[test]
fn exec_with_stdout_on_dev_null_runs_its_tools() {
    let dir = scratch("stdout-devnull");
    let tools = run_tools(&dir);
    std::fs::write(dir.join("calls.txt"), calls_of("slow", 3)).expect("calls");
    let bin = env!("CARGO_BIN_EXE_toolcall");
    for redirect in ["> /dev/null", "1<> /dev/null", ">&-"] {
        let _ = std::fs::remove_file(dir.join("runs.txt"));
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "exec \"$0\" exec --tools \"$1\" calls.txt {redirect}"
            ))
            .args([bin, tools.as_str()])
            .current_dir(&dir)
            .output()
            .expect("sh");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{redirect}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let runs = std::fs::read_to_string(dir.join("runs.txt")).unwrap_or_default();
        assert_eq!(runs.lines().count(), 3, "{redirect}");
    }
}
