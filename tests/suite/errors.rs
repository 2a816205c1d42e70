//! The core's typed errors, as the binary prints them: each error type
//! carries the message its `String` predecessor had, so what a user reads
//! does not depend on how the core spells its errors (issue 33).

use crate::common::{run_binary, scratch};

/// Runs `toolcall ARGS` with `stdin`; its stderr and exit status.
fn stderr_of(args: &[&str], stdin: &[u8], cwd: Option<&std::path::Path>) -> (String, i32) {
    let r = run_binary(args, Some(stdin), cwd);
    (r.stderr, r.code)
}

#[test]
fn render_input_errors_keep_their_messages() {
    let (err, code) = stderr_of(
        &["render", "call", "--family", "mistral"],
        b"{\"x\": 1}\n",
        None,
    );
    assert_eq!(
        (err.as_str(), code),
        ("toolcall: -:1: not a call: needs a name and arguments\n", 2)
    );
    let (err, code) = stderr_of(
        &["render", "result", "--family", "hermes", "--ndjson"],
        b"[1]\n",
        None,
    );
    assert_eq!(
        (err.as_str(), code),
        ("toolcall: -:1: a result must be a JSON object\n", 2)
    );
    let (err, code) = stderr_of(
        &["render", "result", "--family", "hermes", "--ndjson"],
        b"{\"name\": \"f\"}\n",
        None,
    );
    assert_eq!(
        (err.as_str(), code),
        (
            "toolcall: -:1: a result needs \"content\" or \"error\"\n",
            2
        )
    );
}

#[test]
fn binding_errors_keep_their_messages() {
    let dir = scratch("binding-errors");
    let reply = b"<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>";
    let write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text).expect("write tools file");
    };
    write(
        "glob.json",
        r#"[{"name": "f", "parameters": {"type": "object"},
             "x-toolcall": {"sandbox": {"read": ["*.txt"]}}}]"#,
    );
    write(
        "timeout.json",
        r#"[{"name": "f", "parameters": {"type": "object"},
             "x-toolcall": {"timeout_s": -1}}]"#,
    );
    write(
        "key.json",
        r#"[{"name": "f", "parameters": {"type": "object"},
             "x-toolcall": {"sandbox": {"exec": []}}}]"#,
    );
    write(
        "plain.json",
        r#"[{"name": "f", "parameters": {"type": "object"}}]"#,
    );
    let exec = |tools: &str, extra: &[&str]| {
        let mut args = vec!["exec", "--tools", tools, "--approve", "deny"];
        args.extend_from_slice(extra);
        stderr_of(&args, reply, Some(&dir))
    };
    assert_eq!(
        exec("glob.json", &[]),
        (
            "toolcall: tool 'f': x-toolcall.sandbox.read: '*.txt': Landlock allows whole \
             folders and single paths only: write DIR/** or an exact path (no other *, ?, [ \
             or { pattern, no ~)\n"
                .to_string(),
            2
        )
    );
    assert_eq!(
        exec("timeout.json", &[]),
        (
            "toolcall: tool 'f': x-toolcall.timeout_s must be a number of seconds above 0\n"
                .to_string(),
            2
        )
    );
    assert_eq!(
        exec("key.json", &[]),
        (
            "toolcall: tool 'f': x-toolcall.sandbox: unknown key 'exec' (read, write, network, metadata)\n"
                .to_string(),
            2
        )
    );
    assert_eq!(
        exec("plain.json", &["--bind", "f"]),
        (
            "toolcall: --bind 'f': expected NAME=COMMAND\n".to_string(),
            2
        )
    );
}
