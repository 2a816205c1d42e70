//! Hostile input (issue 17): no hang, no unbounded memory, no lost records,
//! no terminal injection. Every case runs the binary; a case that guards a
//! hang runs under a timeout, one that guards memory also under `ulimit -v`
//! (see `common::run_sh`).

use crate::common;

use crate::common::{run_binary, run_sh, scratch, Run};
use std::path::Path;
use std::process::{Command, Stdio};

/// A call in Hermes markup, as a model writes it.
const CALL: &str = r#"<tool_call>{"name":"f","arguments":{}}</tool_call>"#;

/// Virtual memory (KiB) for a case that must not hold its input: a few
/// hundred MB, against tens of MB of input or an endless one.
const SMALL_VM: u64 = 600_000;

fn records(r: &Run) -> Vec<serde_json::Value> {
    r.out()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

fn of_type<'a>(recs: &'a [serde_json::Value], t: &str) -> Vec<&'a serde_json::Value> {
    recs.iter().filter(|r| r["type"] == t).collect()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write scratch file");
    p.display().to_string()
}

/// Bytes no terminal should get from toolcall's stderr: C0 controls other
/// than tab and newline, DEL.
fn assert_terminal_safe(stderr: &str) {
    for c in stderr.chars() {
        assert!(
            !(c.is_control() && c != '\n' && c != '\t'),
            "raw control {c:?} on stderr: {stderr:?}"
        );
    }
}

// ----- 1. wire input ---------------------------------------------------------

fn ollama_line(content: &str) -> String {
    serde_json::json!({"model": "qwen3", "message": {"role": "assistant", "content": content}, "done": false})
        .to_string()
}

fn ollama_call_line() -> String {
    r#"{"model":"qwen3","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"g","arguments":{"a":1}}}]},"done":false}"#.to_string()
}

const OLLAMA_DONE: &str =
    r#"{"model":"qwen3","message":{"content":""},"done":true,"done_reason":"stop"}"#;

#[test]
fn wire_ollama_garbage_line_is_reported_and_decoding_resyncs() {
    for bad in [
        r#"{"model":"qwen3","message":{"content":"x"#, // cut mid-line
        r#"{ garbage"#,
        r#"[1, 2"#,
        "not json at all",
    ] {
        let input = format!(
            "{}\n{bad}\n{}\n{OLLAMA_DONE}\n",
            ollama_line("hi"),
            ollama_call_line()
        );
        for args in [&["parse"][..], &["stream", "--chunk-size", "7"]] {
            let r = run_binary(args, Some(input.as_bytes()), None);
            let recs = records(&r);
            let calls = of_type(&recs, "tool_call");
            assert_eq!(calls.len(), 1, "{bad:?} {args:?}: {}", r.out());
            assert_eq!(calls[0]["name"], "g");
            let errors = of_type(&recs, "error");
            assert_eq!(
                errors.len(),
                1,
                "{bad:?}: one error, for the bad line: {}",
                r.out()
            );
            assert_eq!(errors[0]["line"], 2);
            assert_eq!(r.code, 0, "{bad:?} {args:?}");
            if args[0] == "stream" {
                let done = of_type(&recs, "done");
                assert_eq!(done[0]["truncated"], false, "the final event was not lost");
                assert_eq!(done[0]["finish_reason"], "stop");
            }
        }
    }
}

#[test]
fn wire_pretty_printed_json_still_joins_lines() {
    let value: serde_json::Value = serde_json::from_str(&ollama_call_line()).expect("json");
    let pretty = serde_json::to_string_pretty(&value).expect("pretty");
    let input = format!("{pretty}\n{OLLAMA_DONE}\n");
    let r = run_binary(
        &["parse", "--input", "ollama"],
        Some(input.as_bytes()),
        None,
    );
    assert_eq!(of_type(&records(&r), "tool_call").len(), 1, "{}", r.out());
    assert!(of_type(&records(&r), "error").is_empty(), "{}", r.out());
}

fn sse_with(end: &str) -> String {
    let chunk = serde_json::json!({"choices":[{"index":0,"delta":{"content": CALL}}]});
    let fin = serde_json::json!({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]});
    format!("data: {chunk}{end}{end}data: {fin}{end}{end}data: [DONE]{end}{end}")
}

#[test]
fn wire_sse_cr_lf_and_crlf_line_ends() {
    for end in ["\r", "\n", "\r\n"] {
        let input = sse_with(end);
        for input_kind in ["auto", "openai"] {
            for chunk in ["1", "2", "65536"] {
                let r = run_binary(
                    &["stream", "--input", input_kind, "--chunk-size", chunk],
                    Some(input.as_bytes()),
                    None,
                );
                let recs = records(&r);
                assert_eq!(
                    of_type(&recs, "tool_call").len(),
                    1,
                    "{end:?} {input_kind} {chunk}: {}",
                    r.out()
                );
                assert!(of_type(&recs, "error").is_empty(), "{end:?}: {}", r.out());
                let done = of_type(&recs, "done");
                assert_eq!(done[0]["input"], "openai");
                assert_eq!(done[0]["truncated"], false);
            }
        }
    }
}

#[test]
fn wire_auto_detection_with_first_line_over_1mib() {
    let big = "x".repeat((1 << 20) + 4096);
    let input = format!(
        "{}\n{}\n{OLLAMA_DONE}\n",
        ollama_line(&big),
        ollama_call_line()
    );
    let r = run_binary(&["stream"], Some(input.as_bytes()), None);
    let recs = records(&r);
    assert_eq!(of_type(&recs, "done")[0]["input"], "ollama", "{}", r.stderr);
    assert_eq!(of_type(&recs, "tool_call").len(), 1);
    let errors = of_type(&recs, "error");
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0]["code"], "TLP-007");
    let msg = errors[0]["message"].as_str().unwrap_or_default();
    assert!(
        msg.contains("--max-buffer"),
        "names the flag that applies: {msg}"
    );
    assert_eq!(r.code, 0);
}

#[test]
fn wire_ollama_server_error_is_reported_exit_2_after_records() {
    let input = format!(
        "{}\n{{\"error\":\"model runner crashed\"}}\n",
        ollama_call_line()
    );
    for cmd in ["parse", "stream", "split"] {
        let r = run_binary(&[cmd], Some(input.as_bytes()), None);
        assert_eq!(r.code, 2, "{cmd}: {}", r.stderr);
        assert!(
            r.stderr.contains("server error: model runner crashed"),
            "{cmd}: {}",
            r.stderr
        );
        assert!(
            r.out().contains("\"g\""),
            "{cmd}: the call before it is written"
        );
    }
}

#[test]
fn wire_sse_event_error_is_reported_exit_2_after_records() {
    let chunk = serde_json::json!({"choices":[{"index":0,"delta":{"content": CALL}}]});
    let input = format!(
        "data: {chunk}\n\nevent: error\ndata: {{\"message\":\"overloaded\",\"type\":\"server_error\"}}\n\n"
    );
    let r = run_binary(&["parse"], Some(input.as_bytes()), None);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("overloaded"), "{}", r.stderr);
    let recs = records(&r);
    assert_eq!(of_type(&recs, "tool_call").len(), 1);
    assert!(of_type(&recs, "error").iter().any(|e| e["message"]
        .as_str()
        .is_some_and(|m| m.contains("overloaded"))));
}

// ----- 2. directories --------------------------------------------------------

#[test]
fn walk_symlink_loops_are_not_followed() {
    let d = scratch("walk-loops");
    write(&d, "a.txt", CALL.as_bytes());
    std::fs::create_dir(d.join("sub")).expect("mkdir");
    std::os::unix::fs::symlink(".", d.join("loop1")).expect("symlink");
    std::os::unix::fs::symlink("..", d.join("sub/loop2")).expect("symlink");
    let script = format!("ulimit -v {SMALL_VM}; \"$TC\" parse -c '{}'", d.display());
    let r = run_sh(&script, 20);
    assert_eq!(r.out().trim(), format!("{}:1", d.join("a.txt").display()));
    let r = run_sh(&format!("{script} -L"), 20);
    assert_eq!(r.code, 0, "-L detects the loops: {}", r.stderr);
}

#[test]
fn walk_symlink_out_of_the_tree_is_not_read_without_l() {
    let d = scratch("walk-link-out");
    let outside = scratch("walk-link-target");
    write(&outside, "secret.txt", CALL.as_bytes());
    std::os::unix::fs::symlink(outside.join("secret.txt"), d.join("link.txt")).expect("symlink");
    let r = run_binary(&["parse", &d.display().to_string()], None, None);
    assert_eq!(r.code, 1, "{}", r.out());
    assert!(r.stdout.is_empty());
    let r = run_binary(&["parse", "-L", &d.display().to_string()], None, None);
    assert_eq!(r.code, 0);
}

#[test]
fn walk_fifo_in_a_directory_is_skipped_with_a_note() {
    let d = scratch("walk-fifo");
    write(&d, "a.txt", CALL.as_bytes());
    let fifo = d.join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    let dir = d.display().to_string();
    for args in [
        vec!["parse", "-c", &dir],
        vec!["parse", "-c", "-j2", &dir],
        vec!["split", &dir],
        vec![
            "validate",
            "--tools",
            "fixtures/validate/tools/openai-chat.json",
            "--no-strict",
            &dir,
        ],
    ] {
        let script = format!("\"$TC\" {}", args.join(" "));
        let r = run_sh(&script, 20);
        assert!(
            r.stderr.contains("pipe: not a regular file"),
            "{args:?}: {}",
            r.stderr
        );
    }
}

#[test]
fn walk_binary_files_are_skipped_unless_a() {
    let d = scratch("walk-binary");
    write(&d, "bin.dat", format!("\0\x01{CALL}").as_bytes());
    let dir = d.display().to_string();
    let r = run_binary(&["parse", "-c", &dir], None, None);
    assert!(r.stdout.is_empty(), "{}", r.out());
    assert!(r.stderr.contains("binary file"), "{}", r.stderr);
    let r = run_binary(&["parse", "-c", "-a", &dir], None, None);
    assert_eq!(r.out().trim(), format!("{}:1", d.join("bin.dat").display()));
}

#[test]
fn walk_hidden_ignore_and_glob_rules() {
    let d = scratch("walk-rules");
    write(&d, "a.txt", CALL.as_bytes());
    write(&d, "b.log", CALL.as_bytes());
    write(&d, ".hidden.txt", CALL.as_bytes());
    write(&d, "ignored.txt", CALL.as_bytes());
    write(&d, ".ignore", b"ignored.txt\n");
    let dir = d.display().to_string();
    let names = |args: &[&str]| -> Vec<String> {
        let r = run_binary(args, None, None);
        let mut v: Vec<String> = r
            .out()
            .lines()
            .filter_map(|l| l.rsplit_once(':'))
            .filter_map(|(p, _)| {
                Path::new(p)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(names(&["parse", "-c", &dir]), ["a.txt", "b.log"]);
    assert_eq!(
        names(&["parse", "-c", "--hidden", &dir]),
        [".hidden.txt", ".ignore", "a.txt", "b.log"]
    );
    assert_eq!(
        names(&["parse", "-c", "--no-ignore", &dir]),
        ["a.txt", "b.log", "ignored.txt"]
    );
    assert_eq!(names(&["parse", "-c", "-g", "*.log", &dir]), ["b.log"]);
    assert_eq!(names(&["parse", "-c", "-g", "!*.log", &dir]), ["a.txt"]);
}

#[test]
fn walk_proc_self_fd_does_not_read_its_own_stdout() {
    if !Path::new("/proc/self/fd").exists() {
        return;
    }
    for args in ["", "-L"] {
        let r = run_sh(&format!("\"$TC\" parse {args} /proc/self/fd | cat"), 20);
        assert_eq!(r.code, 0, "{args}: cat's status: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args}: {}", r.out());
    }
}

// ----- 3. unbounded input ----------------------------------------------------

#[test]
fn stdin_endless_parse_q_stops_at_the_first_call() {
    let r = run_sh(
        &format!("ulimit -v {SMALL_VM}; yes '{CALL}' | \"$TC\" parse -q; echo \"exit $?\""),
        20,
    );
    assert_eq!(r.out().trim(), "exit 0", "{}", r.stderr);
}

#[test]
fn stdin_endless_parse_m1_stops_after_one_call() {
    let r = run_sh(
        &format!("ulimit -v {SMALL_VM}; yes '{CALL}' | \"$TC\" parse -m1; echo \"exit $?\""),
        20,
    );
    let out = r.out();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}\n{}", r.stderr);
    assert!(lines[0].contains("\"tool_call\""));
    assert_eq!(lines[1], "exit 0");
}

/// A body that never closes before its closing tag (`{"name":"f",` then
/// `</tool_call>`, or the next `[TOOL_CALLS]`) ends there: each such block
/// is decided where it ends, not held (and scanned again) to the end of
/// the input. 50 000 of them, over 1 MiB together, were once held as one
/// undecided block: one `TLP-007` error and not one call, after minutes of
/// quadratic scanning.
#[test]
fn broken_bodies_end_at_their_closing_tags() {
    let n = 50_000;
    // the last mistral body is cut off by the end of input: an error
    for (unit, cut) in [
        (r#"<tool_call>{"name":"f",</tool_call>"#, 0),
        (r#"[TOOL_CALLS]{"name":"f","#, 1),
    ] {
        let doc = unit.repeat(n);
        assert!(doc.len() > 1 << 20);
        for sub in ["parse", "stream"] {
            let r = run_binary(&[sub], Some(doc.as_bytes()), None);
            assert_eq!(r.code, 0, "{unit} {sub}: {}", r.stderr);
            let recs = records(&r);
            let calls = of_type(&recs, "tool_call");
            assert_eq!(calls.len(), n - cut, "{unit} {sub}");
            assert_eq!(of_type(&recs, "error").len(), cut, "{unit} {sub}");
            let (k, last) = (unit.len(), n - 2);
            assert_eq!(
                calls[last]["span"],
                serde_json::json!([last * k, (last + 1) * k])
            );
            assert_eq!(calls[last]["name"], "f");
        }
    }
}

/// The same for Python bodies in a wrapper (Llama 4's `<|python_start|>`,
/// LFM2, OLMo 3, ...): a body whose `(` never closed ends at its closing
/// tag met outside a string, so every block is decided where it stands (it
/// was held to the end of input and each later block scanned again:
/// quadratic, 8 000 blocks took 7 s). A tag inside a string is part of it.
#[test]
fn broken_python_bodies_end_at_their_closing_tags() {
    let n = 30_000;
    let unit = "<|python_start|>[f(a=1, <|python_end|>";
    let doc = format!(
        "{}{}",
        unit.repeat(n),
        r#"<|python_start|>[g(a="x <|python_end|> y")]<|python_end|>"#
    );
    assert!(doc.len() > 1 << 20);
    for sub in ["parse", "stream"] {
        let r = run_binary(&[sub], Some(doc.as_bytes()), None);
        assert_eq!(r.code, 0, "{sub}: {}", r.stderr);
        let recs = records(&r);
        let errors = of_type(&recs, "error");
        assert_eq!(errors.len(), n, "{sub}");
        let k = unit.len();
        assert_eq!(
            errors[n - 1]["span"],
            serde_json::json!([(n - 1) * k, n * k])
        );
        let calls = of_type(&recs, "tool_call");
        assert_eq!(calls.len(), 1, "{sub}");
        assert_eq!(calls[0]["arguments"]["a"], "x <|python_end|> y");
    }
}

/// JSON's grammar allows `\ud800`, half a surrogate pair, which no string
/// can hold: it is read as U+FFFD (an `invalid_escape` repair), a pair is
/// one character, and the call is kept (it was once a `TLP-003` error).
#[test]
fn lone_surrogate_escapes_become_replacement_characters() {
    let doc = r#"<tool_call>{"name":"f","arguments":{"x":"\ud800 \ud83d\ude00 \udc00","y":"\\ud800"}}</tool_call>"#;
    let r = run_binary(&["parse"], Some(doc.as_bytes()), None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let recs = records(&r);
    let calls = of_type(&recs, "tool_call");
    assert_eq!(calls.len(), 1, "{}", r.out());
    assert_eq!(calls[0]["arguments"]["x"], "\u{fffd} \u{1f600} \u{fffd}");
    assert_eq!(calls[0]["arguments"]["y"], "\\ud800");
    let kinds: Vec<&str> = calls[0]["repairs"]
        .as_array()
        .map(|a| a.iter().filter_map(|k| k["kind"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(kinds, ["invalid_escape", "invalid_escape"], "{}", r.out());
}

#[test]
fn stdin_parse_memory_is_bounded_by_the_largest_document() {
    // 20 MB of calls on stdin: records go out as they are found
    let r = run_sh(
        &format!("ulimit -v {SMALL_VM}; yes '{CALL}' | head -n 400000 | \"$TC\" parse | wc -l"),
        60,
    );
    assert_eq!(r.out().trim(), "400000", "{}", r.stderr);
}

#[test]
fn lines_longer_than_max_buffer_are_skipped_without_holding_them() {
    for mode in ["--lines", "--field .content"] {
        let json = serde_json::json!({ "content": CALL }).to_string();
        let script = format!(
            "ulimit -v {SMALL_VM}; \
             {{ head -c 200000000 /dev/zero | tr '\\0' a; echo; printf '%s\\n' '{CALL}' '{json}'; }} \
             | \"$TC\" parse {mode} --max-buffer 1000 --no-config"
        );
        let r = run_sh(&script, 60);
        assert_eq!(r.code, 2, "{mode}: {}", r.stderr);
        assert!(
            r.stderr
                .contains("-:1: line longer than --max-buffer (1000 bytes)"),
            "{mode}: {}",
            r.stderr
        );
        let calls = of_type(&records(&r), "tool_call").len();
        assert!(
            calls >= 1,
            "{mode}: the lines after it are read: {}",
            r.out()
        );
    }
}

#[test]
fn dev_zero_into_split_validate_repair_is_a_size_error() {
    for cmd in [
        "split",
        "validate --tools fixtures/validate/tools/openai-chat.json",
        "repair",
        "parse --tools fixtures/validate/tools/openai-chat.json",
    ] {
        let r = run_sh(&format!("ulimit -v 1500000; \"$TC\" {cmd} < /dev/zero"), 60);
        assert_eq!(r.code, 2, "{cmd}: {}", r.stderr);
        assert!(
            r.stderr
                .contains("larger than --max-input (268435456 bytes)"),
            "{cmd}: {}",
            r.stderr
        );
    }
    let r = run_sh("\"$TC\" split --max-input 1000 < /dev/zero", 20);
    assert!(
        r.stderr.contains("--max-input (1000 bytes)"),
        "{}",
        r.stderr
    );
}

#[test]
fn tools_file_over_max_tools_size_is_refused() {
    let d = scratch("tools-size");
    let mut big = b"[".to_vec();
    big.extend(std::iter::repeat_n(b' ', 5000));
    big.extend(b"]");
    let tools = write(&d, "tools.json", &big);
    let r = run_binary(
        &[
            "validate",
            "--tools",
            &tools,
            "--max-tools-size",
            "4096",
            "fixtures/hermes/basic.txt",
        ],
        None,
        None,
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("larger than --max-tools-size (4096 bytes)"),
        "{}",
        r.stderr
    );
    let r = run_binary(
        &["parse", "--tools", &tools, "fixtures/hermes/basic.txt"],
        None,
        None,
    );
    assert_ne!(r.code, 2, "within the default limit: {}", r.stderr);
}

// ----- 4. flag and config values ---------------------------------------------

#[test]
fn numeric_flags_are_range_checked_at_parse_time() {
    for args in [
        &["stream", "--chunk-size", "18446744073709551615"][..],
        &["stream", "--chunk-size", "1000000000000"],
        &["stream", "--chunk-size", "0"],
        &["parse", "--max-buffer", "0"],
        &["parse", "--max-buffer", "99999999999999"],
        &["parse", "--max-block", "0"],
        &["parse", "--max-input", "0"],
        &["parse", "-j", "0"],
        &["parse", "-j", "100000"],
        &["parse", "-m", "-1"],
        &["repair", "--max-depth", "0"],
        &["repair", "--timeout-ms", "99999999999"],
        &["validate", "--max-retries", "1000"],
        &["validate", "--retry-timeout", "0"],
        &["validate", "--retry-max-output", "0"],
        &["render", "result", "--max-tokens", "0"],
    ] {
        let r = run_binary(args, Some(b""), None);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains("error:") && !r.stderr.contains("panicked"),
            "{args:?}: {}",
            r.stderr
        );
    }
}

#[test]
fn config_values_are_range_checked() {
    let d = scratch("config-ranges");
    for (key, v) in [
        ("max_buffer_size", "-1"),
        ("max_buffer_size", "0"),
        ("max_buffer_size", "1.5"),
        ("max_buffer_size", "'1024'"),
        ("max_retries", "1000"),
        ("repair_timeout_ms", "-5"),
        ("retry_timeout_secs", "0"),
        ("retry_max_output", "0"),
    ] {
        let cfg = write(&d, "c.json5", format!("{{{key}: {v}}}").as_bytes());
        let r = run_binary(
            &["parse", "--config", &cfg, "fixtures/hermes/basic.txt"],
            None,
            None,
        );
        assert_eq!(r.code, 2, "{key}: {v}: {}", r.out());
        assert!(r.stderr.contains(key), "{key}: {v}: {}", r.stderr);
    }
    let cfg = write(&d, "c.json5", b"{max_buffer_size: 4096}");
    let r = run_binary(
        &["parse", "--config", &cfg, "fixtures/hermes/basic.txt"],
        None,
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn field_paths_that_name_nothing_are_usage_errors() {
    for path in ["", "..", ".", "message", ".a..b", ".a[x]", ".a[0", ".a|.b"] {
        let r = run_binary(&["parse", "--field", path], Some(b"{}\n"), None);
        assert_eq!(r.code, 2, "{path:?}: {}", r.stderr);
        assert!(r.stderr.contains("--field"), "{path:?}: {}", r.stderr);
    }
    let r = run_binary(
        &["parse", "-c", "--field", ".choices.0.text"],
        Some(
            format!(
                "{{\"choices\":[{{\"text\":{}}}]}}\n",
                serde_json::json!(CALL)
            )
            .as_bytes(),
        ),
        None,
    );
    assert_eq!(r.out().trim(), "-:1:1");
}

// ----- 5. terminal injection -------------------------------------------------

const EVIL_NAME: &str = "\u{1b}]0;PWNED\u{7}x\nfake: error[TLP-000]";

#[test]
fn stderr_escapes_tool_and_property_names() {
    let call = serde_json::json!({"name": EVIL_NAME, "arguments": {"k\u{1b}[31m\n\u{0}": 1}});
    let input = format!("<tool_call>{call}</tool_call>");
    for args in [
        &[
            "validate",
            "--tools",
            "fixtures/validate/tools/openai-chat.json",
        ][..],
        &[
            "validate",
            "--no-strict",
            "--tools",
            "fixtures/validate/tools/openai-chat.json",
        ],
        &[
            "parse",
            "-vv",
            "--no-strict",
            "--tools",
            "fixtures/validate/tools/openai-chat.json",
        ],
    ] {
        let r = run_binary(args, Some(input.as_bytes()), None);
        assert_terminal_safe(&r.stderr);
        assert!(
            r.stderr.contains("\\u{1b}]0;PWNED"),
            "{args:?}: {}",
            r.stderr
        );
        assert!(
            !r.stderr.lines().any(|l| l.starts_with("fake")),
            "{args:?}: a name forged a line: {}",
            r.stderr
        );
    }
}

#[test]
fn stderr_escapes_file_names() {
    let d = scratch("evil-names");
    let evil = d.join("d\u{1b}]0;X\u{7}");
    std::fs::create_dir(&evil).expect("mkdir");
    write(&evil, "bin\nfake.dat", b"\0\0");
    let r = run_binary(&["parse", &evil.display().to_string()], None, None);
    assert_terminal_safe(&r.stderr);
    assert!(r.stderr.contains("binary file"), "{}", r.stderr);
    assert!(
        !r.stderr.lines().any(|l| l.starts_with("fake")),
        "{}",
        r.stderr
    );
    let r = run_binary(
        &["parse", &evil.join("nope\u{7}").display().to_string()],
        None,
        None,
    );
    assert_eq!(r.code, 2);
    assert_terminal_safe(&r.stderr);
}

#[test]
fn stderr_escapes_server_error_messages() {
    let input = format!(
        "{}\n{}\n",
        ollama_call_line(),
        serde_json::json!({"error": EVIL_NAME})
    );
    let r = run_binary(&["parse"], Some(input.as_bytes()), None);
    assert_eq!(r.code, 2);
    assert_terminal_safe(&r.stderr);
    assert!(
        !r.stderr.lines().any(|l| l.starts_with("fake")),
        "{}",
        r.stderr
    );
}

// ----- 6. --retry-cmd ----------------------------------------------------------

const BAD_CALL: &str = r#"<tool_call>{"name":"get_weather","arguments":{"city":""}}</tool_call>"#;

/// Whether process `pid` is gone (or a zombie waiting to be reaped).
fn gone(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

fn wait_for_file(p: &Path) -> String {
    for _ in 0..200 {
        if let Ok(s) = std::fs::read_to_string(p) {
            if s.ends_with('\n') {
                return s.trim().to_string();
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("{} never written", p.display());
}

#[test]
fn retry_cmd_timeout_kills_the_process_group() {
    let d = scratch("retry-timeout");
    let input = write(&d, "in.txt", BAD_CALL.as_bytes());
    let pidfile = d.join("pid");
    let cmd = format!("sleep 1000 & echo $! > {}; sleep 1000", pidfile.display());
    let started = std::time::Instant::now();
    let r = run_sh(
        &format!(
            "\"$TC\" validate --no-config --tools fixtures/validate/tools/openai-chat.json \
             --max-retries 1 --retry-timeout 1 --retry-cmd '{cmd}' '{input}'"
        ),
        30,
    );
    assert!(started.elapsed().as_secs() < 20);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.out().contains("timed out after 1 s"), "{}", r.out());
    let bg = wait_for_file(&pidfile);
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert!(gone(&bg), "the background sleep {bg} survived");
}

#[test]
fn retry_cmd_output_is_capped() {
    let d = scratch("retry-cap");
    let input = write(&d, "in.txt", BAD_CALL.as_bytes());
    let r = run_sh(
        &format!(
            "ulimit -v {SMALL_VM}; \"$TC\" validate --no-config \
             --tools fixtures/validate/tools/openai-chat.json --max-retries 1 \
             --retry-max-output 100000 --retry-cmd yes '{input}'"
        ),
        30,
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.out().contains("wrote more than 100000 bytes"),
        "{}",
        r.out()
    );
}

#[test]
fn retry_cmd_dies_with_toolcall() {
    let d = scratch("retry-killed");
    let input = write(&d, "in.txt", BAD_CALL.as_bytes());
    let pidfile = d.join("pid");
    let cmd = format!("sleep 1000 & echo $! > {}; wait", pidfile.display());
    let mut child = common::toolcall()
        .args([
            "validate",
            "--no-config",
            "--tools",
            "fixtures/validate/tools/openai-chat.json",
            "--retry-cmd",
            &cmd,
            &input,
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let bg = wait_for_file(&pidfile);
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let status = child.wait().expect("wait");
    assert_eq!(status.code(), Some(128 + 15));
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert!(
        gone(&bg),
        "the retry command's sleep {bg} survived toolcall"
    );
}

// ----- 7. closed stdout --------------------------------------------------------

/// A stdout closed before the start behaves as `/dev/null` (the Rust
/// runtime reopens it there, and it cannot be told from a `/dev/null` a
/// caller hands on purpose): every subcommand does its work and exits as it
/// would with its output kept.
#[test]
fn closed_stdout_is_dev_null() {
    for (cmd, code) in [("parse", 0), ("split", 0), ("stream", 0), ("parse -q", 0)] {
        let r = run_sh(&format!("\"$TC\" {cmd} fixtures/hermes/basic.txt >&-"), 20);
        assert_eq!(r.code, code, "{cmd}: {}", r.stderr);
        assert!(r.stderr.is_empty(), "{cmd}: {}", r.stderr);
    }
    let r = run_sh("echo hello | \"$TC\" parse >&-", 20);
    assert_eq!(r.code, 1, "no call is still exit 1: {}", r.stderr);
}

/// Python's `subprocess.run(..., stdout=subprocess.DEVNULL)` opens
/// `/dev/null` read-write, as daemon(3) and systemd's `StandardOutput=null`
/// do. Once taken for a closed stdout (exit 2, nothing done); a caller that
/// only wants the exit status must get it.
#[test]
fn dev_null_opened_read_write_is_an_ordinary_stdout() {
    let run = |args: &[&str], stdout: Stdio| {
        Command::new(env!("CARGO_BIN_EXE_toolcall"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(Stdio::piped())
            .output()
            .expect("run toolcall")
    };
    for args in [
        &["parse", "fixtures/hermes/basic.txt"][..],
        &["parse", "-q", "fixtures/hermes/basic.txt"],
        &["split", "fixtures/hermes/basic.txt"],
        &["stream", "fixtures/hermes/basic.txt"],
        &["validate", "fixtures/hermes/basic.txt"],
        &["repair", "fixtures/hermes/basic.txt"],
        &["render", "families"],
        &["formats"],
        &["parse", "Cargo.toml"],
    ] {
        let piped = run(args, Stdio::piped());
        let devnull = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/null")
            .expect("open /dev/null read-write");
        let quiet = run(args, Stdio::from(devnull));
        assert_eq!(
            quiet.status.code(),
            piped.status.code(),
            "{args:?}: {}",
            String::from_utf8_lossy(&quiet.stderr)
        );
        assert_eq!(quiet.stderr, piped.stderr, "{args:?}");
    }
}
