//! Approval and sandboxes that hold against a hostile tool, a neighbour
//! or a shared folder, not only a hostile model (issue 46): configuration
//! files found upward, path rules on hostile paths, what a sandboxed tool
//! inherits. Every test runs the binary; those that need a second user
//! use `nobody` (uid 65534) and say so on stderr when the machine does not
//! allow it.

use crate::common::toolcall;
use serde_json::{json, Value};
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// How long any one run may take before the test gives up on it.
const WAIT: Duration = Duration::from_secs(20);

/// The uid and gid of `nobody`, the second user of these tests.
const NOBODY: u32 = 65534;

/// A scratch folder for one test with a tools file: `marker` (high,
/// critical under /etc/, runs `cat`) and `get_weather` (safe).
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("toolcall-sec-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch dir");
    std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    write(&d, "tools.json", &tools().to_string());
    d
}

fn tools() -> Value {
    json!([
        {"type": "function", "function": {"name": "marker", "description": "Marks a path.",
          "parameters": {"type": "object", "properties": {"path": {"type": "string"}},
            "required": ["path"]}},
         "x-toolcall": {"risk": "high", "summary": "Mark {path}", "exec": "cat",
           "risk_when": [{"if": {"properties": {"path": {"pattern": "^/etc/"}}}, "risk": "critical"}]}},
        {"type": "function", "function": {"name": "get_weather", "description": "Weather.",
          "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}},
         "x-toolcall": {"risk": "safe", "exec": "cat"}}
    ])
}

/// Writes `text` to `dir/name`, mode 0644 whatever the umask.
fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    p
}

/// A folder `dir/name`, mode 0755 whatever the umask.
fn folder(dir: &Path, name: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::create_dir_all(&p).expect("mkdir");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    p
}

fn call(name: &str, args: Value) -> String {
    format!(
        "<tool_call>{}</tool_call>\n",
        json!({"name": name, "arguments": args})
    )
}

/// Runs toolcall in `dir` with `stdin`, killed if it outlives [`WAIT`].
fn run(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut cmd = toolcall();
    cmd.current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
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

fn statuses(out: &Output) -> Vec<String> {
    records(&out.stdout)
        .iter()
        .filter_map(|r| r["status"].as_str().map(str::to_string))
        .collect()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Gives `path` to `nobody`; false (with a message on stderr) when this
/// user may not.
fn give_to_nobody(path: &Path, what: &str) -> bool {
    match std::os::unix::fs::chown(path, Some(NOBODY), Some(NOBODY)) {
        Ok(()) => true,
        Err(e) => {
            eprintln!(
                "skipped: {what}: cannot give {} to nobody ({e})",
                path.display()
            );
            false
        }
    }
}

// ------------------------------------------ configuration found upward

/// A `.toolcall.json5` planted in a folder above the project (by another
/// user in a shared folder, or by a tool allowed to write there) that sets
/// `auto_approval_threshold: "critical"` does not let a critical call run
/// without approval: the key is ignored with a message naming it, and the
/// file in use is named on stderr. The same file given with `--config`
/// still applies. Before: the critical call ran, and nothing was said.
#[test]
fn a_config_found_upward_cannot_auto_approve_a_critical_call() {
    let dir = scratch("planted");
    let cfg = write(
        &dir,
        ".toolcall.json5",
        "{auto_approval_threshold: \"critical\", unknown_tool_risk: \"safe\", \
         strict_validation: false, retry_failed_tools: true, max_retries: 1}",
    );
    let proj = folder(&dir, "proj");
    let input = call("marker", json!({"path": "/etc/passwd"}));
    let args = [
        "exec",
        "--tools",
        "../tools.json",
        "--approve",
        "deny",
        "--no-timestamps",
    ];
    let out = run(&proj, &args, input.as_bytes());
    let err = stderr(&out);
    assert_eq!(statuses(&out), ["denied"], "{err}");
    let shown = cfg.display().to_string();
    assert!(
        err.contains(&format!("using config {shown} (found upward")),
        "{err}"
    );
    for key in [
        "auto_approval_threshold: \"critical\" ignored",
        "unknown_tool_risk: \"safe\" ignored",
        "strict_validation: false ignored",
        "retry_failed_tools: true ignored",
    ] {
        assert!(err.contains(key), "{key}: {err}");
    }
    assert!(err.contains("may not widen approval"), "{err}");
    // named explicitly, the same file is the user's choice
    let c = cfg.display().to_string();
    let mut explicit = args.to_vec();
    explicit.extend(["--config", c.as_str()]);
    let out = run(&proj, &explicit, input.as_bytes());
    assert_eq!(statuses(&out), ["completed"], "{}", stderr(&out));
    assert!(!stderr(&out).contains("ignored"), "{}", stderr(&out));
    // and parse, which only reports, does not call it auto-approved
    let out = run(
        &proj,
        &["parse", "--tools", "../tools.json"],
        input.as_bytes(),
    );
    assert_eq!(records(&out.stdout)[0]["requires_approval"], true);
}

/// A `.toolcall.json5` found upward that another user could have written
/// is refused (exit 2, nothing runs), as a state file is: writable by group
/// or others, a symbolic link, owned by another user (`nobody`). Before:
/// it was read whoever wrote it.
#[test]
fn a_config_found_upward_that_others_could_write_is_refused() {
    let dir = scratch("refused");
    let proj = folder(&dir, "proj");
    let input = call("get_weather", json!({"city": "Oslo"}));
    let args = ["exec", "--tools", "../tools.json", "--approve", "deny"];
    let cfg = write(&dir, ".toolcall.json5", "{max_retries: 1}");
    // the user's own private file: used
    let out = run(&proj, &args, input.as_bytes());
    assert_eq!(statuses(&out), ["completed"], "{}", stderr(&out));
    for mode in [0o664, 0o646] {
        std::fs::set_permissions(&cfg, std::fs::Permissions::from_mode(mode)).expect("chmod");
        let out = run(&proj, &args, input.as_bytes());
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{mode:o}: {err}");
        assert!(err.contains("writable by group or others"), "{err}");
        assert!(err.contains("--no-config"), "{err}");
        assert!(out.stdout.is_empty());
        // --no-config gets past it
        let mut skip = args.to_vec();
        skip.push("--no-config");
        assert_eq!(
            statuses(&run(&proj, &skip, input.as_bytes())),
            ["completed"]
        );
    }
    std::fs::remove_file(&cfg).expect("rm");
    let real = write(&dir, "real.json5", "{max_retries: 1}");
    std::os::unix::fs::symlink(&real, &cfg).expect("symlink");
    let out = run(&proj, &args, input.as_bytes());
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
    std::fs::remove_file(&cfg).expect("rm");
    let cfg = write(&dir, ".toolcall.json5", "{max_retries: 1}");
    if give_to_nobody(&cfg, "a config owned by another user") {
        let out = run(&proj, &args, input.as_bytes());
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(&format!("owned by uid {NOBODY}")), "{err}");
        assert!(out.stdout.is_empty());
    }
}

/// Looking upward stops, as git's `safe.directory` rule does, at a folder
/// another user owns: neither it nor what is above it is looked in. Here
/// the user's own file above `nobody`'s folder would make unknown tools
/// high risk; it is not read. Before: the walk went on to `/`.
#[test]
fn config_discovery_stops_at_a_folder_another_user_owns() {
    let dir = scratch("walk");
    write(&dir, ".toolcall.json5", "{unknown_tool_risk: \"high\"}");
    let theirs = folder(&dir, "theirs");
    let proj = folder(&theirs, "proj");
    let input = call("nope", json!({}));
    let risk = |out: &Output| records(&out.stdout)[0]["risk"].clone();
    let args = ["parse", "--tools", "../../tools.json", "--no-strict"];
    // the control: all the user's own, the file above applies
    let out = run(&proj, &args, input.as_bytes());
    assert_eq!(risk(&out), "high", "{}", stderr(&out));
    if !give_to_nobody(&theirs, "a folder owned by another user") {
        return;
    }
    let out = run(&proj, &args, input.as_bytes());
    assert_eq!(risk(&out), "medium", "{}", stderr(&out));
    assert!(!stderr(&out).contains("using config"), "{}", stderr(&out));
}
