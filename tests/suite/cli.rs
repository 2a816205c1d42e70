//! Behaviour of the binary: exit codes, pipes, incremental streaming.

use crate::common;
use std::io::{BufRead, BufReader, Write};

use crate::common::toolcall;
use std::process::Stdio;
use std::time::Duration;

fn run_with(args: &[&str], input: &[u8]) -> (String, String, i32) {
    let r = common::run_binary(args, Some(input), None);
    (r.out(), r.stderr, r.code)
}

#[test]
fn exit_status_is_grep_like() {
    let call = br#"<tool_call>{"name": "f", "arguments": {}}</tool_call>"#;
    assert_eq!(run_with(&["parse"], call).2, 0);
    assert_eq!(run_with(&["parse"], b"just prose").2, 1);
    assert_eq!(run_with(&["parse", "--format", "nope"], b"x").2, 2);
    assert_eq!(run_with(&["parse", "/definitely/not/here"], b"").2, 2);
    assert_eq!(run_with(&["--bogus-flag"], b"").2, 2);
}

#[test]
fn empty_input_is_not_found_and_quiet() {
    let (out, err, code) = run_with(&["parse"], b"");
    assert_eq!((out.as_str(), err.as_str(), code), ("", "", 1));
}

#[test]
fn stream_writes_text_before_the_writer_finishes() {
    // By default the document's start is not held to learn whether the
    // prompt opened reasoning (`--think-window`, see the next test): prose
    // streams as it arrives.
    let mut child = toolcall()
        .args(["stream"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    stdin
        .write_all(b"Hello there, checking now. ")
        .expect("write");
    stdin.flush().expect("flush");
    // The writer is still open: the text event must arrive anyway.
    let first = lines.next().expect("a line").expect("read");
    let v: serde_json::Value = serde_json::from_str(&first).expect("json");
    assert_eq!(v["type"], "text");
    assert_eq!(v["text"], "Hello there, checking now. ");
    // A marker split across writes is held back, then completed.
    stdin.write_all(b"<tool_c").expect("write");
    stdin.flush().expect("flush");
    std::thread::sleep(Duration::from_millis(50));
    stdin
        .write_all(br#"all>{"name": "f", "arguments": {"a": "#)
        .expect("write");
    stdin.flush().expect("flush");
    // The name is certain before the arguments are complete.
    let start: serde_json::Value =
        serde_json::from_str(&lines.next().expect("a line").expect("read")).expect("json");
    assert_eq!(start["type"], "tool_call_start");
    assert_eq!(start["name"], "f");
    stdin.write_all(br#"1}}</tool_call>"#).expect("write");
    drop(stdin);
    let rest: Vec<serde_json::Value> = lines
        .map(|l| serde_json::from_str(&l.expect("read")).expect("json"))
        .collect();
    let types: Vec<&str> = rest.iter().filter_map(|v| v["type"].as_str()).collect();
    assert_eq!(types, ["tool_call", "done"]);
    assert_eq!(rest[0]["arguments"]["a"], 1);
    assert_eq!(rest[0]["id"], start["id"]);
    assert_eq!(rest[0]["span"], serde_json::json!([27, 86]));
    assert!(child.wait().expect("wait").success());
}

/// The pipe on `stream`'s stdin is the caller's (shared with whoever
/// writes into it): its size is left as the caller made it. `stream` used
/// to grow it to its read size (`F_SETPIPE_SZ`), which a writer then saw
/// as a pipe holding 256 KiB.
#[cfg(target_os = "linux")]
#[test]
fn stream_leaves_the_size_of_its_stdin_pipe_alone() {
    use rustix::process::{kill_process, Pid, Signal};
    let (reader, mut writer) = std::io::pipe().expect("pipe");
    let mut child = toolcall()
        .args(["stream"])
        .stdin(reader)
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    let pid = i32::try_from(child.id())
        .ok()
        .and_then(Pid::from_raw)
        .expect("a pid");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    writer.write_all(b"Hello.\n").expect("write");
    // its first record is out: stream has set up its input and read it
    let first = lines.next().expect("a line").expect("read");
    assert!(first.contains(r#""type":"text""#), "{first}");
    // stopped, it reads nothing more: what the pipe takes is its size
    kill_process(pid, Signal::STOP).expect("SIGSTOP");
    // a signal is sent at once but taken when the process next runs: until
    // it has stopped, a read it is woken in can still take what we write
    wait_until_stopped(pid.as_raw_nonzero().get());
    let held = fill(&mut writer);
    kill_process(pid, Signal::CONT).expect("SIGCONT");
    drop(writer);
    let rest = lines.count();
    assert!(child.wait().expect("wait").code() == Some(1));
    assert!(rest >= 2, "the text and done records follow");
    // a pipe as the system makes it (64 KiB with 4 KiB pages, less when
    // the user is over pipe-user-pages-soft); grown, stream's held 256 KiB
    let (_keep, mut fresh) = std::io::pipe().expect("pipe");
    let default = fill(&mut fresh);
    assert!(
        held <= default,
        "the pipe held {held} bytes, a new one {default}"
    );
}

/// Waits (up to a minute) until `/proc` shows process `pid` stopped.
#[cfg(target_os = "linux")]
fn wait_until_stopped(pid: i32) {
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(60) {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // the state follows the command name's closing parenthesis
        let state = stat
            .rsplit_once(") ")
            .and_then(|(_, rest)| rest.chars().next());
        if matches!(state, Some('T' | 't')) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    panic!("process {pid} did not stop");
}

/// Writes into a pipe nobody reads until it is full; what it took.
#[cfg(target_os = "linux")]
fn fill(writer: &mut std::io::PipeWriter) -> usize {
    rustix::fs::fcntl_setfl(&*writer, rustix::fs::OFlags::NONBLOCK).expect("O_NONBLOCK");
    let page = [b'a'; 4096];
    let mut held = 0;
    loop {
        match writer.write(&page) {
            Ok(n) => held += n,
            Err(e) => {
                assert_eq!(e.kind(), std::io::ErrorKind::WouldBlock, "{e}");
                return held;
            }
        }
    }
}

#[test]
fn stream_holds_a_documents_start_only_until_it_is_decided() {
    let spawn = || {
        toolcall()
            .args(["stream", "--think-window", "64"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("spawn")
    };
    // a closer with no opener: what came before is reasoning, reported
    // while the writer is still open
    let mut child = spawn();
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    stdin
        .write_all(b"The user wants Paris.</think>")
        .expect("write");
    stdin.flush().expect("flush");
    let first: serde_json::Value =
        serde_json::from_str(&lines.next().expect("a line").expect("read")).expect("json");
    assert_eq!(first["type"], "reasoning");
    assert_eq!(first["text"], "The user wants Paris.");
    drop(stdin);
    // no call: grep's "nothing found"
    assert_eq!(child.wait().expect("wait").code(), Some(1));
    // none in the window: the text comes once the window is full
    let mut child = spawn();
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let prose = "No reasoning here, just a long enough answer to fill the window.";
    stdin.write_all(prose.as_bytes()).expect("write");
    stdin.flush().expect("flush");
    let first: serde_json::Value =
        serde_json::from_str(&lines.next().expect("a line").expect("read")).expect("json");
    assert_eq!(first["type"], "text");
    assert_eq!(first["text"], prose);
    drop(stdin);
    assert_eq!(child.wait().expect("wait").code(), Some(1));
}

#[test]
fn closed_pipe_ends_quietly() {
    let mut doc = Vec::new();
    for i in 0..20_000 {
        doc.extend_from_slice(
            format!("<tool_call>{{\"name\": \"f{i}\", \"arguments\": {{}}}}</tool_call>\n")
                .as_bytes(),
        );
    }
    let mut child = toolcall()
        .arg("parse")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&doc);
    });
    let mut stdout = child.stdout.take().expect("stdout");
    let mut first = [0u8; 16];
    std::io::Read::read_exact(&mut stdout, &mut first).expect("read");
    drop(stdout);
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("join");
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn split_text_prints_only_prose() {
    let input = b"Checking.\n<think>hmm <tool_call>{\"name\":\"draft\"}</tool_call></think>\n<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>\nDone.";
    let (out, _, code) = run_with(&["split", "--text"], input);
    assert_eq!(code, 0);
    assert_eq!(out, "Checking.\n\n\nDone.");
}

fn run_args(args: &[&str]) -> (String, String, i32) {
    let r = common::run_binary(args, None, None);
    (r.out(), r.stderr, r.code)
}

#[test]
fn quiet_prints_nothing_and_answers_with_the_status() {
    assert_eq!(
        run_args(&["parse", "-q", "fixtures/hermes/basic.txt"]),
        (String::new(), String::new(), 0)
    );
    assert_eq!(
        run_args(&["parse", "-q", "fixtures/hermes/negative-data-record.txt"]),
        (String::new(), String::new(), 1)
    );
}

#[test]
fn max_count_and_count() {
    let (out, _, code) = run_args(&["parse", "-m1", "fixtures/hermes/no-newlines-two-calls.txt"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 1);
    assert!(out.contains("\"name\":\"ping\""));
    let (out, _, _) = run_args(&["parse", "-c", "fixtures/hermes/no-newlines-two-calls.txt"]);
    assert_eq!(out, "2\n");
    let (out, _, _) = run_args(&[
        "parse",
        "-c",
        "fixtures/hermes/no-newlines-two-calls.txt",
        "fixtures/hermes/negative-data-record.txt",
    ]);
    assert_eq!(
        out,
        "fixtures/hermes/no-newlines-two-calls.txt:2\nfixtures/hermes/negative-data-record.txt:0\n"
    );
}

#[test]
fn shapes_drop_into_the_next_request() {
    let (out, _, _) = run_args(&["parse", "--shape", "openai", "fixtures/hermes/basic.txt"]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
    assert_eq!(v["type"], "function");
    assert_eq!(v["function"]["name"], "weather_lookup");
    let args: serde_json::Value =
        serde_json::from_str(v["function"]["arguments"].as_str().expect("string")).expect("json");
    assert_eq!(args, serde_json::json!({"city": "Lisbon", "days": 3}));
    let (out, _, _) = run_args(&["parse", "--shape", "ollama", "fixtures/hermes/basic.txt"]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
    assert_eq!(
        v,
        serde_json::json!({"function": {"name": "weather_lookup", "arguments": {"city": "Lisbon", "days": 3}}})
    );
}

#[test]
fn field_picks_text_out_of_jsonl_records() {
    let input = b"{\"message\":{\"content\":\"<tool_call>{\\\"name\\\":\\\"f\\\",\\\"arguments\\\":{}}</tool_call>\"}}\nnot json\n{\"message\":{\"content\":\"hi\"}}\n";
    let (out, _, code) = run_with(&["parse", "-c", "--field", ".message.content"], input);
    assert_eq!(code, 0);
    assert_eq!(out, "-:1:1\n-:3:0\n");
}

/// The `.txt` fixtures of `fixtures/hermes`, sorted: inputs for the `-j`
/// tests.
fn hermes_fixtures() -> Vec<String> {
    let mut files: Vec<String> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/hermes"))
            .expect("dir")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "txt"))
            .map(|p| p.display().to_string())
            .collect();
    files.sort();
    files
}

#[test]
fn parallel_jobs_keep_input_order_and_report_unreadable_files() {
    let files = hermes_fixtures();
    let mut seq = vec!["parse"];
    seq.extend(files.iter().map(String::as_str));
    let mut par = vec!["parse", "-j", "4"];
    par.extend(files.iter().map(String::as_str));
    par.push("/definitely/missing.txt");
    let (a, _, _) = run_args(&seq);
    let (b, err, code) = run_args(&par);
    assert_eq!(a, b);
    assert_eq!(code, 2);
    assert!(err.contains("missing.txt"), "stderr: {err}");
}

/// `split -j4` splits files on four threads and writes exactly what `-j1`
/// does (records, messages, exit status), whole or as prose only.
#[test]
fn split_in_parallel_gives_the_same_bytes() {
    let mut files = hermes_fixtures();
    assert!(files.len() >= 8, "{files:?}");
    files.insert(3, "/definitely/missing.txt".into());
    for extra in [&[][..], &["--text"], &["--pretty"]] {
        let run = |j: &str| {
            let mut args = vec!["split", j];
            args.extend_from_slice(extra);
            args.extend(files.iter().map(String::as_str));
            run_args(&args)
        };
        let (one, four) = (run("-j1"), run("-j4"));
        assert_eq!(one, four, "with {extra:?}");
        assert_eq!(one.2, 2);
        assert!(!one.0.is_empty());
        assert!(one.1.contains("missing.txt"), "{}", one.1);
    }
}

/// What `parse -j4` says of each file on stderr (a JSON document read as
/// text) comes in input order, as with `-j1`: the notes were written by
/// the worker threads as they finished before.
#[test]
fn parse_in_parallel_keeps_stderr_in_input_order() {
    let dir = std::env::temp_dir().join(format!("toolcall-parse-j-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let mut files = Vec::new();
    for i in 0..10 {
        let f = dir.join(format!("d{i}.json"));
        std::fs::write(&f, format!("{{\"k{i}\": \"text {i}\"}}\n")).expect("write");
        files.push(f.display().to_string());
    }
    let run = |j: &str| {
        let mut args = vec!["parse", j];
        args.extend(files.iter().map(String::as_str));
        run_args(&args)
    };
    let one = run("-j1");
    let fours: Vec<_> = (0..5).map(|_| run("-j4")).collect();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(one.1.lines().count(), 10, "{}", one.1);
    for (k, f) in files.iter().enumerate() {
        let line = one.1.lines().nth(k).expect("a note per file");
        assert!(line.contains(&format!("{f}:")), "{line}");
    }
    for four in fours {
        assert_eq!(one, four);
    }
}

#[test]
fn a_directory_stands_for_the_files_below_it() {
    let (out, _, code) = run_args(&["parse", "-c", "fixtures/xlam"]);
    assert_eq!(code, 0);
    assert!(
        out.lines()
            .any(|l| l == "fixtures/xlam/two-calls-bare-array.txt:2"),
        "{out}"
    );
    assert!(out.lines().all(|l| l.starts_with("fixtures/xlam/")));
}

/// Runs `toolcall ARGS` in `dir` with a deadline: a hang is a failure, not
/// a stuck test run.
fn run_in_with_deadline(dir: &std::path::Path, args: &[&str]) -> (String, String, i32) {
    let mut child = toolcall()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while child.try_wait().expect("try_wait").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("toolcall {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("wait");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[cfg(unix)]
#[test]
fn directories_are_walked_like_ripgrep() {
    use std::os::unix::fs::symlink;
    let root = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("walk");
    let _ = std::fs::remove_dir_all(&root);
    let dir = root.join("d");
    std::fs::create_dir_all(dir.join("sub")).expect("mkdir");
    let call = b"<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>\n";
    let write = |name: &str, bytes: &[u8]| std::fs::write(dir.join(name), bytes).expect("write");
    write("a.txt", call);
    write("sub/b.md", call);
    write(".hidden.txt", call);
    write("ignored.txt", call);
    write(".ignore", b"ignored.txt\n");
    let mut binary = call.to_vec();
    binary.extend_from_slice(b"\0\x01\x02");
    write("binary.txt", &binary);
    std::fs::write(root.join("outside.txt"), call).expect("write");
    symlink("..", dir.join("loop")).expect("symlink");
    symlink(root.join("outside.txt"), dir.join("link.txt")).expect("symlink");
    let fifo = std::process::Command::new("mkfifo")
        .arg(dir.join("pipe"))
        .status()
        .is_ok_and(|s| s.success());

    let files = |args: &[&str]| -> (Vec<String>, String) {
        let mut all = vec!["parse", "-c"];
        all.extend_from_slice(args);
        all.push("d");
        let (out, err, code) = run_in_with_deadline(&root, &all);
        assert!(code == 0 || code == 1, "{args:?}: exit {code}: {err}");
        let mut names: Vec<String> = out
            .lines()
            .filter_map(|l| l.rsplit_once(':').map(|(n, _)| n.to_string()))
            .collect();
        names.sort();
        (names, err)
    };
    let (names, err) = files(&[]);
    assert_eq!(names, ["d/a.txt", "d/sub/b.md"], "stderr: {err}");
    assert!(err.contains("binary file"), "{err}");
    if fifo {
        assert!(err.contains("not a regular file"), "{err}");
    }
    let (names, _) = files(&["--hidden"]);
    assert!(names.contains(&"d/.hidden.txt".to_string()), "{names:?}");
    let (names, _) = files(&["--no-ignore"]);
    assert!(names.contains(&"d/ignored.txt".to_string()), "{names:?}");
    let (names, _) = files(&["-a"]);
    assert!(names.contains(&"d/binary.txt".to_string()), "{names:?}");
    let (names, _) = files(&["-g", "*.md"]);
    assert_eq!(names, ["d/sub/b.md"]);
    // -L follows the link to a file and detects the loop instead of hanging
    let (names, err) = files(&["-L"]);
    assert!(names.contains(&"d/link.txt".to_string()), "{names:?}");
    assert!(err.contains("loop"), "{err}");
    // a bad glob is a usage error
    let (_, err, code) = run_in_with_deadline(&root, &["parse", "-g", "a[", "d"]);
    assert_eq!(code, 2, "{err}");
}

/// A damaged call object standing as the reply is recovered with its
/// repairs; with `--no-repair` it is error TLP-002, never a call; text
/// after its line stays text.
#[test]
fn damaged_call_json_is_recovered_with_its_repairs() {
    let reply = b"{\"name\": \"ls\", \"parameters>{\"path\": \"/srv\"}})\nDone.\n";
    let (out, _, code) = run_with(&["parse"], reply);
    assert_eq!(code, 0, "{out}");
    let rec: serde_json::Value =
        serde_json::from_str(out.lines().next().expect("a record")).expect("JSON");
    assert_eq!(rec["name"], "ls");
    assert_eq!(rec["arguments"], serde_json::json!({"path": "/srv"}));
    let kinds: Vec<&str> = rec["repairs"]
        .as_array()
        .expect("repairs")
        .iter()
        .filter_map(|r| r["kind"].as_str())
        .collect();
    assert!(kinds.contains(&"damaged_key"), "{kinds:?}");
    assert!(kinds.contains(&"extra_close"), "{kinds:?}");
    let (out, _, _) = run_with(&["split"], reply);
    assert!(out.contains(r#""text":"\nDone.\n""#), "{out}");
    let (out, _, code) = run_with(&["parse", "--no-repair"], reply);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("TLP-002") && !out.contains("\"tool_call\""),
        "{out}"
    );
    // structured output with a name but no arguments stays text
    let (out, _, code) = run_with(&["parse"], b"{\"name\": \"Ada\", \"born>{\"y\": 1815}}\n");
    assert_eq!((code, out.as_str()), (1, ""));
}

/// A tools file never makes a damaged call worse: the escaped-quotes call
/// that is recovered with its arguments without one keeps them with one
/// (its name declared), instead of the name alone with `{}`.
#[test]
fn tools_never_make_a_recovered_call_worse() {
    let reply = br#"{"name":"get_time","parameters\":{\"timezone\":\"UTC\"}}"#;
    let tools = common::scratch("tools-never-worse").join("tools.json");
    std::fs::write(
        &tools,
        r#"[{"type": "function", "function": {"name": "get_time", "parameters": {"type": "object", "properties": {"timezone": {"type": "string"}}}}}]"#,
    )
    .expect("write tools");
    let calls = |args: &[&str]| -> Vec<serde_json::Value> {
        let (out, _, _) = run_with(args, reply);
        out.lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|r| r["type"] == "tool_call")
            .map(|r| serde_json::json!([r["name"], r["arguments"]]))
            .collect()
    };
    let without = calls(&["parse"]);
    assert_eq!(
        without,
        vec![serde_json::json!(["get_time", {"timezone": "UTC"}])]
    );
    let tools_arg = tools.to_string_lossy().into_owned();
    assert_eq!(calls(&["parse", "--tools", &tools_arg]), without);
}

/// A call needs evidence the model meant it: JSON introduced as an example
/// of a format, a template's placeholders, a tool list and a damaged call
/// after prose are text; the same damaged call standing as the reply, or
/// naming a declared tool after prose, is a call.
#[test]
fn unmarked_calls_need_evidence() {
    let none = |input: &[u8]| {
        let (out, _, code) = run_with(&["parse"], input);
        assert_eq!(
            (code, out.as_str()),
            (1, ""),
            "{}",
            String::from_utf8_lossy(input)
        );
    };
    none(b"Reply like this: {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}\n");
    none(b"To call a tool, respond with:\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}\n");
    none(b"{\"name\": \"<function_name>\", \"arguments\": {\"<param>\": \"<value>\"}}\n");
    none(b"{\"name\": \"get_weather\", \"parameters\": {\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"}}}}\n");
    none(b"For example:\n```python\n[get_weather(city=\"Oslo\")]\n```\n");
    let damaged_after_prose =
        b"It wrote:\n{\"name\":\"get_weather\",\"parameters>{\"city\":\"Tokyo\"}}\n";
    none(damaged_after_prose);
    let (out, _, code) = run_with(&["parse"], &damaged_after_prose[9..]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("\"name\":\"get_weather\""), "{out}");
    let tools = common::scratch("evidence-declared").join("tools.json");
    std::fs::write(&tools, r#"{"get_weather": {"type": "object"}}"#).expect("write tools");
    let tools_arg = tools.to_string_lossy().into_owned();
    let (out, _, code) = run_with(&["parse", "--tools", &tools_arg], damaged_after_prose);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("\"name\":\"get_weather\""), "{out}");
}

/// A marked call whose arguments sit beside the name, or under LangChain's
/// keys, runs with those arguments, never with `{}`; unmarked it stays text.
#[test]
fn marked_flat_and_agent_keyed_calls_keep_their_arguments() {
    let call = |input: &str| -> serde_json::Value {
        let (out, _, code) = run_with(&["parse"], input.as_bytes());
        assert_eq!(code, 0, "{input}: {out}");
        let line = out.lines().next().unwrap_or_default();
        serde_json::from_str(line).unwrap_or_default()
    };
    let flat = call(r#"<tool_call>{"name": "search", "q": "rust", "limit": 2}</tool_call>"#);
    assert_eq!(
        flat["arguments"],
        serde_json::json!({"q": "rust", "limit": 2})
    );
    assert_eq!(flat["repairs"][0]["kind"], "flat_arguments");
    for input in [
        r#"<tool_call>{"tool": "search", "tool_input": {"q": "rust"}}</tool_call>"#,
        r#"<tool_call>{"action": "search", "action_input": {"q": "rust"}}</tool_call>"#,
        r#"[TOOL_CALLS][{"name": "search", "q": "rust"}]"#,
    ] {
        let c = call(input);
        assert_eq!(c["name"], "search", "{input}");
        assert_eq!(c["arguments"], serde_json::json!({"q": "rust"}), "{input}");
    }
    let alone = call(r#"<tool_call>{"name": "list_tasks"}</tool_call>"#);
    assert_eq!(alone["arguments"], serde_json::json!({}));
    assert_eq!(alone["repairs"], serde_json::json!([]));
    for prose in [
        r#"The body was {"name": "search", "q": "rust"} then."#,
        r#"It said {"action": "search", "action_input": {"q": "rust"}} once."#,
    ] {
        let (out, _, code) = run_with(&["parse"], prose.as_bytes());
        assert_eq!((out.as_str(), code), ("", 1), "{prose}");
    }
}

/// A bare word inside `<tool_call>` followed by more words (Ollama's
/// `TestQwen35ParserInvalidToolCallFallsBackToContent`) is prose, not a
/// GLM call named by the first word: a false call runs a tool. A lone name
/// before `</tool_call>` stays a call with no arguments.
#[test]
fn words_after_a_bare_name_in_tool_call_are_not_a_call() {
    for input in [
        &b"<tool_call>not valid xml</tool_call>"[..],
        b"<tool_call>this is not valid xml at all</tool_call>",
        b"<tool_call>not\nvalid xml</tool_call>",
    ] {
        for sub in ["parse", "stream"] {
            let (out, _, code) = run_with(&[sub], input);
            assert!(!out.contains("\"tool_call\""), "{sub}: {out}");
            if sub == "parse" {
                assert_eq!(code, 1, "{out}");
            }
        }
    }
    let (out, _, code) = run_with(&["parse"], b"<tool_call>get_weather</tool_call>");
    assert_eq!(code, 0);
    assert!(out.contains("\"name\":\"get_weather\""), "{out}");
}

/// Poolside Laguna's layout (Ollama's `TestLagunaParserNameLineJSONToolCall`):
/// the name alone on the tag's line, a JSON object on the next, is a GLM call
/// whose arguments are the object, in `parse` and `stream` alike. Words after
/// the name, or a name set off from the tag, keep the block text; JSON that
/// does not read is an error record, not a call.
#[test]
fn name_line_then_json_object_in_tool_call_is_a_call() {
    let call = b"<tool_call>get_weather\n{\"location\": \"San Francisco\"}</tool_call>";
    for sub in ["parse", "stream"] {
        let (out, _, code) = run_with(&[sub], call);
        assert_eq!(code, 0, "{sub}: {out}");
        assert!(
            out.contains(r#""name":"get_weather","arguments":{"location":"San Francisco"}"#),
            "{sub}: {out}"
        );
    }
    for prose in [
        &b"<tool_call>run the\n{\"x\": 1}</tool_call>"[..],
        b"Use <tool_call> get_weather\n{\"x\": 1}</tool_call> here.",
    ] {
        let (out, _, code) = run_with(&["parse"], prose);
        assert_eq!((out.as_str(), code), ("", 1));
    }
    let (out, _, code) = run_with(
        &["parse"],
        b"<tool_call>get_weather\n{\"location\": broken</tool_call>",
    );
    assert!(!out.contains("\"tool_call\""), "{out}");
    assert!(out.contains("\"code\":\"TLP-003\""), "{out}");
    assert_ne!(code, 0);
}
