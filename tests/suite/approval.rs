//! Approval that model output cannot subvert (issue 34): the terminal
//! prompt (bounded, its own tool and risk lines last, typed-ahead keys
//! thrown away, one answer per prompt), path rules and `risk_when` on
//! normalised paths, summary globs, edited arguments decided again, and
//! records whose `doc` names a file nobody asked to open. Every test runs
//! the binary; the terminal ones through a pseudo-terminal (util-linux
//! `script`).

use crate::common::toolcall;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_toolcall");
/// How long any one wait may take before the test gives up on it.
const WAIT: Duration = Duration::from_secs(10);

/// A scratch folder for one test, with a tools file: `marker` (high,
/// critical under /etc/), `shell` (high, summary `Run {cmd}`) and
/// `get_weather` (safe). Each tool prints the arguments it got.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("toolcall-approval-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch dir");
    let tools = json!([
        {"type": "function", "function": {"name": "marker", "description": "Marks a path.",
          "parameters": {"type": "object", "properties": {"path": {"type": "string"}, "text": {"type": "string"}},
            "required": ["path"]}},
         "x-toolcall": {"risk": "high", "summary": "Mark {path}", "exec": "cat",
           "risk_when": [{"if": {"properties": {"path": {"pattern": "^/etc/"}}}, "risk": "critical"}]}},
        {"type": "function", "function": {"name": "shell", "description": "Runs a command.",
          "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}}, "required": ["cmd"]}},
         "x-toolcall": {"risk": "high", "summary": "Run {cmd}", "exec": "cat"}},
        {"type": "function", "function": {"name": "get_weather", "description": "Weather.",
          "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}},
         "x-toolcall": {"risk": "safe", "exec": "cat"}}
    ]);
    std::fs::write(d.join("tools.json"), tools.to_string()).expect("tools");
    d
}

fn call(name: &str, args: Value) -> String {
    format!(
        "<tool_call>{}</tool_call>\n",
        json!({"name": name, "arguments": args})
    )
}

/// Runs toolcall with `stdin`, killed if it outlives [`WAIT`].
fn run(dir: &Path, args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Output {
    let mut cmd = toolcall();
    cmd.current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("spawn toolcall");
    let mut w = child.stdin.take().expect("stdin");
    let input = stdin.to_vec();
    std::thread::spawn(move || {
        let _ = w.write_all(&input);
    });
    let id = child.id();
    let started = Instant::now();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(WAIT) {
        Ok(out) => out.expect("wait"),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &id.to_string()]).status();
            panic!(
                "toolcall {args:?} still running after {:?}",
                started.elapsed()
            );
        }
    }
}

fn records(out: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

fn statuses(recs: &[Value]) -> Vec<String> {
    recs.iter()
        .filter_map(|r| r["status"].as_str().map(str::to_string))
        .collect()
}

fn exec(dir: &Path, extra: &[&str], input: &str) -> Vec<Value> {
    let mut args = vec!["exec", "--tools", "tools.json", "--no-timestamps"];
    args.extend_from_slice(extra);
    records(&run(dir, &args, input.as_bytes(), &[]).stdout)
}

// ------------------------------------------------------------ terminal

/// toolcall on a pseudo-terminal: `script` gives the shell command `cmd`
/// a new terminal whose input is our pipe; everything the terminal shows
/// is collected as `screen`.
struct Term {
    child: Child,
    keys: Option<std::process::ChildStdin>,
    screen: Arc<Mutex<Vec<u8>>>,
}

impl Term {
    fn start(dir: &Path, cmd: &str, env: &[(&str, &str)]) -> Option<Term> {
        if Command::new("script").arg("--version").output().is_err() {
            eprintln!("skipped: no `script` to give toolcall a terminal");
            return None;
        }
        let mut c = Command::new("script");
        c.current_dir(dir)
            .args(["-qfec", cmd, "/dev/null"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        for (k, v) in env {
            c.env(k, v);
        }
        let mut child = c.spawn().expect("script");
        let keys = child.stdin.take();
        let mut out = child.stdout.take().expect("stdout");
        let screen = Arc::new(Mutex::new(Vec::new()));
        let sink = screen.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 65536];
            while let Ok(n) = out.read(&mut buf) {
                if n == 0 {
                    break;
                }
                if let Ok(mut s) = sink.lock() {
                    s.extend_from_slice(&buf[..n]);
                }
            }
        });
        Some(Term {
            child,
            keys,
            screen,
        })
    }

    fn screen(&self) -> String {
        let s = self.screen.lock().map(|s| s.clone()).unwrap_or_default();
        String::from_utf8_lossy(&s).replace("\r\n", "\n")
    }

    /// Waits until the screen shows `what` at least `n` times (false when
    /// it does not within [`WAIT`], or toolcall ended first).
    fn wait_for(&mut self, what: &str, n: usize) -> bool {
        let until = Instant::now() + WAIT;
        while Instant::now() < until {
            if self.screen().matches(what).count() >= n {
                return true;
            }
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                std::thread::sleep(Duration::from_millis(50));
                return self.screen().matches(what).count() >= n;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    /// Types `keys` (one write).
    fn type_keys(&mut self, keys: &str) {
        if let Some(k) = self.keys.as_mut() {
            let _ = k.write_all(keys.as_bytes());
            let _ = k.flush();
        }
    }

    /// Answers the approval question with no and an empty reason, then
    /// waits for the end; returns the screen.
    fn deny_at_the_prompt(mut self) -> String {
        assert!(self.wait_for(QUESTION, 1), "{}", self.screen());
        self.type_keys("n\n");
        assert!(
            self.wait_for("reason for the model", 1),
            "{}",
            self.screen()
        );
        self.type_keys("\n");
        self.finish()
    }

    /// Waits for the end (killing it after [`WAIT`]); returns the screen.
    fn finish(mut self) -> String {
        let until = Instant::now() + WAIT;
        while Instant::now() < until {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        drop(self.keys.take());
        std::thread::sleep(Duration::from_millis(50));
        self.screen()
    }
}

const QUESTION: &str = "run this call?";

/// `exec` of the calls in `dir/in.txt` on a terminal, results in
/// `dir/out.ndjson`; `before` runs first in the same shell.
fn exec_on_a_terminal(dir: &Path, before: &str, extra: &str, env: &[(&str, &str)]) -> Option<Term> {
    let cmd = format!(
        "{before}exec {BIN} exec --tools tools.json --no-timestamps {extra} in.txt > out.ndjson"
    );
    Term::start(dir, &cmd, env)
}

fn results(dir: &Path) -> Vec<Value> {
    records(&std::fs::read(dir.join("out.ndjson")).unwrap_or_default())
}

#[test]
fn the_prompt_is_bounded_and_its_tool_and_risk_lines_come_last() {
    let dir = scratch("spoof");
    // a value that draws the prompt's own lines, and 300 KB of text
    let spoof = format!(
        "/etc/passwd{}\n  tool:      get_weather\n  risk:      safe (a safe call)\n",
        " ".repeat(80)
    );
    let big = "A".repeat(300_000);
    std::fs::write(
        dir.join("in.txt"),
        call("marker", json!({"path": spoof, "text": big})),
    )
    .expect("w");
    let Some(t) = exec_on_a_terminal(&dir, "", "", &[]) else {
        return;
    };
    let screen = t.deny_at_the_prompt();
    assert_eq!(statuses(&results(&dir)), ["denied"], "{screen}");
    // a bounded amount reaches the terminal, and says what it left out
    assert!(
        screen.len() < 8_000,
        "{} bytes on the terminal",
        screen.len()
    );
    assert!(screen.contains("[+299"), "{screen}");
    // the lines right above the question are toolcall's own
    let before = &screen[..screen.rfind(QUESTION).expect("question")];
    let lines: Vec<&str> = before.lines().collect();
    let n = lines.len();
    assert!(n >= 2, "{screen}");
    assert!(
        lines[n - 2].starts_with("  tool:      marker"),
        "{:?}\n{screen}",
        lines[n - 2]
    );
    assert!(
        lines[n - 1].starts_with("  risk:      critical"),
        "{:?}\n{screen}",
        lines[n - 1]
    );
    // the value's newlines are shown, never obeyed
    assert!(!screen.contains("\n  tool:      get_weather"), "{screen}");
    assert!(screen.contains("\\n  tool:      get_weather"), "{screen}");
}

#[test]
fn keys_typed_before_the_question_answer_nothing() {
    let dir = scratch("typeahead");
    std::fs::write(
        dir.join("in.txt"),
        call("marker", json!({"path": "/tmp/a"})),
    )
    .expect("w");
    // toolcall starts only once GO exists: the key is typed before that
    let Some(mut t) = exec_on_a_terminal(&dir, "while [ ! -e GO ]; do sleep 0.02; done; ", "", &[])
    else {
        return;
    };
    t.type_keys("y\n");
    // the terminal echoed it: it waits in the terminal's input
    assert!(t.wait_for("y", 1), "{}", t.screen());
    std::fs::write(dir.join("GO"), "").expect("go");
    assert!(t.wait_for(QUESTION, 1), "{}", t.screen());
    t.type_keys("n\n");
    let asked = t.wait_for("reason for the model", 1);
    t.type_keys("\n");
    let screen = t.finish();
    assert!(asked, "{screen}");
    assert_eq!(statuses(&results(&dir)), ["denied"], "{screen}");
}

#[test]
fn one_line_typed_once_answers_one_prompt() {
    let dir = scratch("oneanswer");
    std::fs::write(
        dir.join("in.txt"),
        [
            call("marker", json!({"path": "/tmp/a"})),
            call("marker", json!({"path": "/etc/shadow"})),
        ]
        .concat(),
    )
    .expect("w");
    let Some(mut t) = exec_on_a_terminal(&dir, "", "--max-parallel 1", &[]) else {
        return;
    };
    assert!(t.wait_for(QUESTION, 1), "{}", t.screen());
    t.type_keys("y\ny\n");
    let second = t.wait_for(QUESTION, 2);
    t.type_keys("n\n");
    let reason = t.wait_for("reason for the model", 1);
    t.type_keys("\n");
    let screen = t.finish();
    assert!(second && reason, "{screen}");
    assert_eq!(
        statuses(&results(&dir)),
        ["completed", "denied"],
        "{screen}"
    );
}

/// An editor that writes `args` over the file it is given.
fn editor(dir: &Path, args: Value) -> String {
    let path = dir.join("editor.sh");
    std::fs::write(
        &path,
        format!("#!/bin/sh\nprintf '%s\\n' '{args}' > \"$1\"\n"),
    )
    .expect("w");
    let _ = Command::new("chmod").arg("+x").arg(&path).status();
    path.display().to_string()
}

#[test]
fn an_edit_on_the_terminal_is_decided_again_and_shown() {
    let dir = scratch("edit");
    std::fs::write(
        dir.join("in.txt"),
        call("marker", json!({"path": "/tmp/a"})),
    )
    .expect("w");
    let ed = editor(&dir, json!({"path": "/etc/passwd"}));
    // above --max-risk: the edit is refused, the call keeps its arguments
    let Some(mut t) = exec_on_a_terminal(&dir, "", "--max-risk high", &[("EDITOR", &ed)]) else {
        return;
    };
    assert!(t.wait_for(QUESTION, 1), "{}", t.screen());
    t.type_keys("e\n");
    let refused = t.wait_for("arguments unchanged", 1) && t.wait_for(QUESTION, 2);
    t.type_keys("y\n");
    let screen = t.finish();
    assert!(refused, "{screen}");
    assert!(
        screen.contains("risk critical is above --max-risk high"),
        "{screen}"
    );
    let r = results(&dir);
    assert_eq!(statuses(&r), ["completed"], "{screen}");
    let content = r[0]["content"].as_str().unwrap_or("");
    assert!(
        content.contains("/tmp/a") && !content.contains("/etc/passwd"),
        "{content}"
    );
    // allowed: the prompt shows the new summary and the new risk
    let Some(mut t) = exec_on_a_terminal(&dir, "", "", &[("EDITOR", &ed)]) else {
        return;
    };
    assert!(t.wait_for(QUESTION, 1), "{}", t.screen());
    t.type_keys("e\n");
    let again = t.wait_for(QUESTION, 2);
    t.type_keys("n\n");
    let reason = t.wait_for("reason for the model", 1);
    t.type_keys("\n");
    let screen = t.finish();
    assert!(again && reason, "{screen}");
    let last = &screen[screen.find("(edited)").expect("edited prompt")..];
    assert!(last.contains("summary:   Mark /etc/passwd"), "{screen}");
    assert!(last.contains("risk:      critical"), "{screen}");
    assert_eq!(statuses(&results(&dir)), ["denied"], "{screen}");
}

// --------------------------------------------------------------- rules

#[test]
fn an_approvers_edit_meets_the_deny_rules_and_max_risk() {
    let dir = scratch("approver");
    let note = call("marker", json!({"path": "/tmp/a"}));
    let to = |path: &str| {
        format!(
            r#"cat > /dev/null; echo '{{"approved": true, "arguments": {{"path": "{path}"}}}}'"#
        )
    };
    let etc = to("/etc/passwd");
    let r = exec(
        &dir,
        &["--approver", &etc, "--deny", "marker:/path=/etc/**"],
        &note,
    );
    assert_eq!(statuses(&r), ["denied"]);
    assert!(
        r[0]["error"]
            .as_str()
            .unwrap_or("")
            .contains("denied by rule marker:/path=/etc/**"),
        "{}",
        r[0]
    );
    let r = exec(&dir, &["--approver", &etc, "--max-risk", "high"], &note);
    assert_eq!(statuses(&r), ["denied"]);
    assert!(
        r[0]["error"]
            .as_str()
            .unwrap_or("")
            .contains("risk critical is above --max-risk high"),
        "{}",
        r[0]
    );
    // spelled around the rule: still the same path
    let r = exec(
        &dir,
        &[
            "--approver",
            &to("/tmp/../etc/passwd"),
            "--deny",
            "marker:/path=/etc/**",
        ],
        &note,
    );
    assert_eq!(statuses(&r), ["denied"]);
    // an edit the rules allow runs with the new arguments
    let r = exec(
        &dir,
        &["--approver", &to("/tmp/b"), "--max-risk", "high"],
        &note,
    );
    assert_eq!(statuses(&r), ["completed"]);
    assert!(r[0]["content"].as_str().unwrap_or("").contains("/tmp/b"));
    // and the tool is told the risk of the arguments it runs with
    let r = exec(
        &dir,
        &[
            "--approver",
            &to("/etc/hosts"),
            "--bind",
            "marker=echo $TOOLCALL_RISK",
        ],
        &note,
    );
    assert_eq!(r[0]["content"], "critical\n", "{}", r[0]);
}

#[test]
fn path_rules_and_risk_when_see_the_normalised_path() {
    let dir = scratch("paths");
    let allow = ["--approve", "deny", "--allow", "marker:/path=/tmp/**"];
    for (path, want) in [
        ("/tmp/../etc/shadow", "denied"),
        ("/tmp/a/../../etc/shadow", "denied"),
        ("/tmp/./a", "completed"),
        ("/tmp//a", "completed"),
        // blanks around it: a tool opens `$PWD/ /tmp/a `, not `/tmp/a`
        (" /tmp/a ", "denied"),
    ] {
        let r = exec(&dir, &allow, &call("marker", json!({"path": path})));
        assert_eq!(statuses(&r), [want], "{path}: {}", r[0]);
    }
    for path in [
        "//etc/passwd",
        "/./etc/passwd",
        "/tmp/../etc/passwd",
        " /etc/passwd",
        "/etc/passwd",
    ] {
        let out = run(
            &dir,
            &["parse", "--tools", "tools.json"],
            call("marker", json!({"path": path})).as_bytes(),
            &[],
        );
        let r = records(&out.stdout);
        assert_eq!(r[0]["risk"], "critical", "{path}");
        // and a deny rule on /etc/ holds whatever the spelling
        let r = exec(
            &dir,
            &["--approve", "yes", "--deny", "marker:/path=/etc/**"],
            &call("marker", json!({"path": path})),
        );
        assert_eq!(statuses(&r), ["denied"], "{path}");
    }
    let out = run(
        &dir,
        &["parse", "--tools", "tools.json"],
        call("marker", json!({"path": "/tmp/etc/passwd"})).as_bytes(),
        &[],
    );
    assert_eq!(records(&out.stdout)[0]["risk"], "high");
}

#[test]
fn the_documented_summary_deny_rule_denies() {
    let dir = scratch("summary");
    let help = run(&dir, &["exec", "--help"], b"", &[]);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("--deny 'shell:~*rm -rf*'"), "{help}");
    let deny = ["--approve", "yes", "--deny", "shell:~*rm -rf*"];
    for (cmd, want) in [
        ("rm -rf /", "denied"),
        ("rm -rf /home/me", "denied"),
        ("rm -rf build", "denied"),
        ("ls /", "completed"),
    ] {
        let r = exec(&dir, &deny, &call("shell", json!({"cmd": cmd})));
        assert_eq!(statuses(&r), [want], "{cmd}: {}", r[0]);
    }
}

// ------------------------------------------------------------- records

#[test]
fn a_records_doc_is_never_opened() {
    let dir = scratch("doc");
    let rec = |doc: &str, format: &str| {
        format!(
            "{}\n",
            json!({"type": "tool_call", "doc": doc, "index": 0, "id": "c1", "name": "marker",
                "arguments": {"path": 3}, "format": format, "span": [0, 4000], "raw": "x"})
        )
    };
    let secret = "toolcall-secret-6e1f";
    let out = run(
        &dir,
        &["validate", "--tools", "tools.json"],
        rec("/proc/self/environ", "hermes").as_bytes(),
        &[("TOOLCALL_TEST_SECRET", secret)],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains(secret), "{err}");
    assert!(err.starts_with("-:1:1: error[TLP-004]"), "{err}");
    // a FIFO nobody writes to: `run` gives up (and fails) if this hangs
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let f = fifo.to_str().expect("utf-8");
        let out = run(
            &dir,
            &["validate", "--tools", "tools.json"],
            rec(f, "hermes").as_bytes(),
            &[],
        );
        assert_eq!(out.status.code(), Some(1));
        let out = run(
            &dir,
            &["exec", "--tools", "tools.json", "--approve", "yes"],
            rec(f, "bare-json").as_bytes(),
            &[],
        );
        assert_eq!(
            statuses(&records(&out.stdout)),
            ["validation_failed"],
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // a record whose doc is an input on the command line still points
    // into it
    std::fs::write(dir.join("reply.log"), call("marker", json!({"path": 3}))).expect("w");
    let parsed = run(&dir, &["parse", "reply.log"], b"", &[]);
    std::fs::write(dir.join("calls.ndjson"), &parsed.stdout).expect("w");
    let out = run(
        &dir,
        &[
            "validate",
            "--tools",
            "tools.json",
            "calls.ndjson",
            "reply.log",
        ],
        b"",
        &[],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("reply.log:1:"), "{err}");
    let out = run(
        &dir,
        &["validate", "--tools", "tools.json", "calls.ndjson"],
        b"",
        &[],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("calls.ndjson:1:"), "{err}");
}

// ------------------------------------------------------- state files

/// A permissions file others could have written is refused, as ssh refuses
/// such a file: writable by group or others, owned by another user, a
/// symbolic link. Before: `allowed_patterns: ["*"]` in such a file
/// pre-approved every call.
#[test]
fn state_files_others_could_write_are_refused() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("state-owner");
    let perms = dir.join("perms.json");
    let input = call("marker", json!({"path": "/tmp/x"}));
    let write = |mode: u32| {
        let _ = std::fs::remove_file(&perms);
        std::fs::write(&perms, r#"{"allowed_patterns": ["*"]}"#).expect("perms");
        std::fs::set_permissions(&perms, std::fs::Permissions::from_mode(mode)).expect("chmod");
    };
    let exec_with = |flag: &str| {
        run(
            &dir,
            &[
                "exec",
                "--tools",
                "tools.json",
                "--approve",
                "deny",
                flag,
                "perms.json",
            ],
            input.as_bytes(),
            &[],
        )
    };
    // the owner's own file, private: its pattern holds
    write(0o600);
    let ok = exec_with("--permissions");
    assert_eq!(statuses(&records(&ok.stdout)), ["completed"]);
    // writable by group or others: refused, nothing runs
    for mode in [0o620, 0o602] {
        write(mode);
        for flag in ["--permissions", "--session-file"] {
            let out = exec_with(flag);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{flag} {mode:o}: {err}");
            assert!(err.contains("writable by group or others"), "{err}");
            assert!(out.stdout.is_empty());
        }
    }
    // a symbolic link to a private file: refused
    write(0o600);
    let link = dir.join("link.json");
    std::os::unix::fs::symlink(&perms, &link).expect("symlink");
    let out = run(
        &dir,
        &[
            "exec",
            "--tools",
            "tools.json",
            "--approve",
            "deny",
            "--permissions",
            "link.json",
        ],
        input.as_bytes(),
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("symbolic link"));
    // owned by another user (root can give it away to check)
    write(0o600);
    if std::os::unix::fs::chown(&perms, Some(65534), Some(65534)).is_ok() {
        let out = exec_with("--permissions");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("owned by uid 65534"), "{err}");
    } else {
        eprintln!("not root: the other-owner case is not checked");
    }
}

/// Two runs answering "always" at the same time keep both answers (the
/// file is locked, read again and merged), the file stays private and no
/// temporary file is left. Before: the last run to save dropped the other
/// run's answer.
#[test]
fn always_answers_of_runs_at_the_same_time_are_all_kept() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("state-merge");
    let approver = r#"cat > /dev/null; sleep 1; echo '{"approved": true, "remember": "always"}'"#;
    let runs: Vec<_> = [
        call("marker", json!({"path": "/tmp/x"})),
        call("shell", json!({"cmd": "ls"})),
    ]
    .into_iter()
    .map(|input| {
        let dir = dir.clone();
        std::thread::spawn(move || {
            run(
                &dir,
                &[
                    "exec",
                    "--tools",
                    "tools.json",
                    "--approver",
                    approver,
                    "--permissions",
                    "p.json",
                ],
                input.as_bytes(),
                &[],
            )
        })
    })
    .collect();
    for r in runs {
        let out = r.join().expect("run");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("p.json")).expect("saved"))
            .expect("JSON");
    let mut allowed: Vec<&str> = saved["always_allow"]
        .as_array()
        .expect("always_allow")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    allowed.sort_unstable();
    assert_eq!(allowed, ["marker", "shell"]);
    let mode = std::fs::metadata(dir.join("p.json"))
        .expect("meta")
        .permissions()
        .mode();
    assert_eq!(mode & 0o077, 0, "mode {mode:o}");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("dir")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    names.sort();
    assert_eq!(names, ["p.json", "tools.json"]);
}

/// `--dry-run` decides with `--approve` as a real run would: `deny` gives
/// `denied`, `yes` says it would run. Before: both said "would ask".
#[test]
fn a_dry_run_honours_approve() {
    let dir = scratch("dry-run");
    let input = call("marker", json!({"path": "/tmp/x"}));
    let denied = exec(&dir, &["--dry-run", "--approve", "deny"], &input);
    assert_eq!(statuses(&denied), ["denied"]);
    let yes = exec(&dir, &["--dry-run", "--approve", "yes"], &input);
    assert_eq!(statuses(&yes), ["skipped"]);
    let text = yes[0]["content"].as_str().unwrap_or("");
    assert!(text.contains("approved (policy)"), "{text}");
    let ask = exec(&dir, &["--dry-run"], &input);
    assert!(ask[0]["content"]
        .as_str()
        .unwrap_or("")
        .contains("would ask"));
}

/// `loop --text` on a terminal shows the model's control characters
/// escaped; before, an ESC sequence (here: clear the screen) went out raw.
#[test]
fn loop_text_on_a_terminal_escapes_control_characters() {
    let dir = scratch("text-esc");
    let cmd = format!(
        "exec {BIN} loop --no-tools --text --model-cmd \"cat >/dev/null; printf 'hi \\033[2J there'\" hello"
    );
    let Some(term) = Term::start(&dir, &cmd, &[]) else {
        return;
    };
    let screen = term.finish();
    assert!(screen.contains("hi \\u{1b}[2J there"), "{screen:?}");
    assert!(!screen.contains("\u{1b}[2J"), "{screen:?}");
}

#[test]
fn the_prompt_shows_bidi_and_invisible_characters_escaped() {
    let dir = scratch("bidi");
    // isolates and embeddings reorder what is shown; zero-width characters
    // and the BOM hide text inside a value that looks like another one
    let sneaky = "ls \u{2066}\u{2067}\u{2068}\u{2069}\u{202a}\u{202b}\u{202c}\u{202d}\u{202e}\
                  \u{200b}\u{200c}\u{200d}\u{2060}\u{feff}\u{00ad}\u{061c} end";
    std::fs::write(dir.join("in.txt"), call("shell", json!({"cmd": sneaky}))).expect("w");
    let Some(t) = exec_on_a_terminal(&dir, "", "", &[]) else {
        return;
    };
    let screen = t.deny_at_the_prompt();
    assert_eq!(statuses(&results(&dir)), ["denied"], "{screen}");
    for c in sneaky.chars().filter(|c| !c.is_ascii()) {
        assert!(!screen.contains(c), "{:?} shown raw:\n{screen:?}", c);
        let shown = format!("\\u{{{:x}}}", c as u32);
        // in the argument line and in the summary
        assert!(
            screen.matches(&shown).count() >= 2,
            "{shown} missing:\n{screen:?}"
        );
    }
}

/// The `[e]dit` file is private and unguessable: mode 0600 and a random
/// name, so another user can neither read the arguments nor plant the
/// file first. Before: `$TMPDIR/toolcall-args-PID-0.json`, mode 644.
#[test]
fn the_edit_file_is_private_with_a_random_name() {
    let dir = scratch("edit-file");
    std::fs::write(
        dir.join("in.txt"),
        call("marker", json!({"path": "/tmp/a"})),
    )
    .expect("w");
    let seen = dir.join("seen.txt");
    let ed = dir.join("editor.sh");
    std::fs::write(
        &ed,
        format!(
            "#!/bin/sh\nstat -c '%a %n' \"$1\" > '{}'\nprintf '%s\\n' '{{\"path\": \"/tmp/b\"}}' > \"$1\"\n",
            seen.display()
        ),
    )
    .expect("w");
    let _ = Command::new("chmod").arg("+x").arg(&ed).status();
    let ed = ed.display().to_string();
    let Some(mut t) = exec_on_a_terminal(&dir, "", "", &[("EDITOR", &ed)]) else {
        return;
    };
    assert!(t.wait_for(QUESTION, 1), "{}", t.screen());
    t.type_keys("e\n");
    let again = t.wait_for(QUESTION, 2);
    t.type_keys("n\n");
    let _ = t.wait_for("reason for the model", 1);
    t.type_keys("\n");
    let screen = t.finish();
    assert!(again, "{screen}");
    let seen = std::fs::read_to_string(&seen).expect("the editor ran");
    let (mode, name) = seen.trim().split_once(' ').expect("mode and name");
    assert_eq!(mode, "600", "{seen}");
    let predictable = regex::Regex::new(r"toolcall-args-[0-9]+-[0-9]+\.json$").expect("re");
    assert!(!predictable.is_match(name), "{seen}");
    assert!(!Path::new(name).exists(), "left behind: {name}");
}

/// Every character that shows as nothing or draws over its neighbour is
/// escaped in the prompt: Unicode tag characters (a hidden sentence that
/// showed as `""`), variation selectors, Hangul fillers, U+034F, the
/// Mongolian free variation selectors, other format characters (`Cf`)
/// and combining overlays. Before: they reached the terminal raw.
#[test]
fn the_prompt_escapes_every_invisible_and_overlay_character() {
    let dir = scratch("invisible");
    let hidden: String = "rm -rf ~"
        .chars()
        .map(|c| char::from_u32(0xe0000 + c as u32).unwrap_or('?'))
        .collect();
    let sneaky = format!(
        "ls{hidden} \u{fe0f}\u{3164}\u{115f}\u{ffa0}\u{034f}\u{180b}\u{0600}\u{06dd}\u{0336}\u{20d2}\u{1d173} end"
    );
    std::fs::write(dir.join("in.txt"), call("shell", json!({"cmd": sneaky}))).expect("w");
    let Some(t) = exec_on_a_terminal(&dir, "", "", &[]) else {
        return;
    };
    let screen = t.deny_at_the_prompt();
    assert_eq!(statuses(&results(&dir)), ["denied"], "{screen}");
    for c in sneaky.chars().filter(|c| !c.is_ascii()) {
        assert!(!screen.contains(c), "{:?} shown raw:\n{screen:?}", c);
        let shown = format!("\\u{{{:x}}}", c as u32);
        assert!(screen.contains(&shown), "{shown} missing:\n{screen:?}");
    }
}

/// A critical call approved on the terminal runs only once the person
/// types the four characters shown for that prompt: a `y` typed (or
/// injected, `TIOCSTI`) without seeing the code, or under a prompt a
/// process redrew as a harmless call, denies it. Before: `y` ran it.
#[test]
fn a_critical_call_needs_the_code_shown_on_the_terminal() {
    let dir = scratch("critical-code");
    std::fs::write(
        dir.join("in.txt"),
        [
            call("marker", json!({"path": "/etc/a"})),
            call("marker", json!({"path": "/etc/b"})),
            call("marker", json!({"path": "/tmp/c"})),
        ]
        .concat(),
    )
    .expect("w");
    let Some(mut t) = exec_on_a_terminal(&dir, "", "--max-parallel 1", &[]) else {
        return;
    };
    const CONFIRM: &str = "to run it (anything else denies) > ";
    // the first: yes, then a guess
    assert!(t.wait_for(QUESTION, 1), "{}", t.screen());
    t.type_keys("y\n");
    assert!(t.wait_for(CONFIRM, 1), "{}", t.screen());
    t.type_keys("y\n");
    // the second: yes, then the code read from the screen
    assert!(t.wait_for(QUESTION, 2), "{}", t.screen());
    t.type_keys("y\n");
    assert!(t.wait_for(CONFIRM, 2), "{}", t.screen());
    let screen = t.screen();
    let line = screen
        .lines()
        .rfind(|l| l.contains(CONFIRM.trim_end()))
        .expect("the confirmation line")
        .to_string();
    let code = line
        .split("type ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .expect("a code")
        .to_string();
    assert_eq!(code.len(), 4, "{line}");
    t.type_keys(&format!("{}\n", code.to_lowercase()));
    // the third is high, not critical: y alone runs it
    assert!(t.wait_for(QUESTION, 3), "{}", t.screen());
    t.type_keys("y\n");
    let screen = t.finish();
    assert_eq!(screen.matches(CONFIRM).count(), 2, "{screen}");
    let recs = results(&dir);
    assert_eq!(
        statuses(&recs),
        ["denied", "completed", "completed"],
        "{screen}"
    );
    assert!(
        recs[0]["error"]
            .as_str()
            .is_some_and(|e| e.contains("not confirmed")),
        "{}",
        recs[0]
    );
}
