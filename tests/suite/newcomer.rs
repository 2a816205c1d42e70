//! What a newcomer trips on (issue 20): exit statuses a CI job can use,
//! golden files that compare whichever way they were made, refusals that
//! say what was meant, grep's flags.

use crate::common;
use crate::common::toolcall;
use std::io::Write;
use std::process::{Output, Stdio};

fn root() -> &'static str {
    env!("CARGO_MANIFEST_DIR")
}

/// Runs the binary from the crate root with `stdin` as its input.
fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = toolcall()
        .args(args)
        .current_dir(root())
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn toolcall");
    let mut input = child.stdin.take().expect("stdin");
    // the child may exit before reading everything (a usage error)
    let _ = input.write_all(stdin);
    drop(input);
    child.wait_with_output().expect("wait")
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const CUT: &str = "fixtures/hermes/cut-mid-arguments.txt";
const BASIC: &str = "fixtures/hermes/basic.txt";

#[test]
fn fail_on_error_makes_error_records_exit_2_in_every_record_command() {
    // without the flag: no call, exit 1, like a reply with no call at all
    let plain = run(&["parse", CUT], b"");
    assert_eq!(code(&plain), 1);
    assert!(stdout(&plain).contains("\"type\":\"error\""));
    for cmd in ["parse", "stream", "split"] {
        let o = run(&[cmd, "--fail-on-error", CUT], b"");
        assert_eq!(code(&o), 2, "{cmd}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("1 error record written (--fail-on-error)"),
            "{cmd}: {}",
            stderr(&o)
        );
        // the records are still all written
        assert!(stdout(&o).contains("TLP-002"), "{cmd}");
        // a clean call keeps exit 0 and a quiet stderr
        let ok = run(&[cmd, "--fail-on-error", BASIC], b"");
        assert_eq!((code(&ok), stderr(&ok).as_str()), (0, ""), "{cmd}");
    }
    // prose with no candidate: still 1
    assert_eq!(code(&run(&["parse", "--fail-on-error"], b"just prose")), 1);
}

#[test]
fn label_names_stdin_so_golden_files_compare_either_way() {
    let body = std::fs::read(format!("{}/{BASIC}", root())).expect("fixture");
    let by_path = run(&["parse", BASIC], b"");
    let labelled = run(&["parse", "--label", BASIC], &body);
    assert_eq!(code(&by_path), 0);
    assert_eq!(stdout(&by_path), stdout(&labelled));
    // and without a label, stdin is `-`, as the committed golden files are
    let piped = run(&["parse"], &body);
    let golden = std::fs::read_to_string(format!("{}/fixtures/hermes/basic.parse.ndjson", root()))
        .expect("golden");
    assert_eq!(stdout(&piped), golden);
    // --lines documents are LABEL:LINE
    let lines = run(
        &["parse", "--lines", "--label", "chat"],
        b"x\n<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>\n",
    );
    assert!(
        stdout(&lines).contains("\"doc\":\"chat:2\""),
        "{}",
        stdout(&lines)
    );
    let stream = run(&["stream", "--label", "reply.txt"], &body);
    assert!(stdout(&stream).contains("\"doc\":\"reply.txt\""));
}

#[test]
fn pretty_records_are_the_same_json_indented() {
    for cmd in ["parse", "stream", "split"] {
        let flat = run(&[cmd, BASIC], b"");
        let pretty = run(&[cmd, "--pretty", BASIC], b"");
        assert_eq!(code(&flat), code(&pretty));
        let pretty_text = stdout(&pretty);
        assert!(
            pretty_text.contains("\n  \"type\": "),
            "{cmd}: {pretty_text}"
        );
        let a: Vec<serde_json::Value> = serde_json::Deserializer::from_slice(&flat.stdout)
            .into_iter()
            .collect::<Result<_, _>>()
            .expect("flat json");
        let b: Vec<serde_json::Value> = serde_json::Deserializer::from_slice(&pretty.stdout)
            .into_iter()
            .collect::<Result<_, _>>()
            .expect("pretty json");
        assert_eq!(a, b, "{cmd}");
    }
}

/// The README's tool loop, with `ollama run` replaced by a canned reply
/// holding one good and one broken call, and a tools directory that
/// records every tool it is asked to run: a broken call must never run a
/// tool (least of all one named `null`).
#[test]
fn readme_tool_loop_never_runs_a_tool_for_an_error_record() {
    let readme = std::fs::read_to_string(format!("{}/README.md", root())).expect("README");
    let start = readme
        .find("```bash\nfam=hermes")
        .expect("the tool loop block in README.md");
    let body = &readme[start + "```bash\n".len()..];
    let script = &body[..body.find("```").expect("end of block")];
    let dir = std::env::temp_dir().join(format!("toolcall-loop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("tools")).expect("mkdir");
    std::fs::create_dir_all(dir.join("bin")).expect("mkdir");
    std::fs::write(dir.join("tools.json"), "[]").expect("tools.json");
    // a fake ollama: the first reply has calls, the second none
    let ollama = "#!/bin/sh\nif [ -e turn ]; then echo 'All done.'; exit 0; fi\ntouch turn\n\
        printf '%s\\n' '<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}</tool_call>' \
        '<tool_call>{\"arguments\": {\"city\": \"Oslo\"}}</tool_call>'\n";
    let tool = "#!/bin/sh\necho \"$(basename \"$0\")\" >> ran\necho sunny\n";
    for (path, text) in [
        (dir.join("bin/ollama"), ollama),
        (dir.join("tools/get_weather"), tool),
        (dir.join("tools/null"), tool),
    ] {
        std::fs::write(&path, text).expect("write script");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_toolcall"))
        .parent()
        .expect("bin dir")
        .to_path_buf();
    let path = format!(
        "{}:{}:{}",
        dir.join("bin").display(),
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(script)
        .current_dir(&dir)
        .env("PATH", path)
        .output()
        .expect("bash");
    let ran = std::fs::read_to_string(dir.join("ran")).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        ran,
        "get_weather\n",
        "stdout {} stderr {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "All done.\n");
}

#[test]
fn a_tools_file_given_as_input_is_refused_with_a_hint() {
    for tools in [
        "fixtures/validate/tools/openai-chat.json",
        "fixtures/validate/tools/mcp.json",
        "fixtures/validate/tools/responses.json",
        "fixtures/validate/tools/ollama.json",
    ] {
        for cmd in ["parse", "split", "stream"] {
            let o = run(&[cmd, tools], b"");
            assert_eq!(code(&o), 2, "{cmd} {tools}: {}", stdout(&o));
            assert_eq!(stdout(&o), "", "{cmd} {tools}");
            assert!(
                stderr(&o).contains(&format!("did you mean --tools {tools}?")),
                "{cmd} {tools}: {}",
                stderr(&o)
            );
        }
        // stdin redirected from the file is recognised too
        let file = std::fs::File::open(format!("{}/{tools}", root())).expect("tools");
        let o = toolcall()
            .arg("parse")
            .current_dir(root())
            .stdin(file)
            .output()
            .expect("run");
        assert_eq!(code(&o), 2, "stdin {tools}");
        assert!(
            stderr(&o).contains("did you mean --tools FILE?"),
            "{}",
            stderr(&o)
        );
        let o = run(&["validate", tools, BASIC], b"");
        assert_eq!(code(&o), 2);
        assert!(
            stderr(&o).contains(&format!("did you mean --tools {tools}?")),
            "{}",
            stderr(&o)
        );
    }
    // other files go on being read: the tools file is an error, the reply is parsed
    let o = run(
        &["parse", "fixtures/validate/tools/openai-chat.json", BASIC],
        b"",
    );
    assert_eq!(code(&o), 2);
    assert!(stdout(&o).contains("weather_lookup"));
    // a tools file met while walking a directory is skipped with a note,
    // not an error, and gives no calls
    let o = run(&["parse", "-c", "fixtures/validate/tools"], b"");
    assert!(!stderr(&o).contains("did you mean"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("skipping fixtures/validate/tools/openai-chat.json: a tools file"),
        "{}",
        stderr(&o)
    );
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    // calls written as JSON (`parameters` holding values) are still calls
    let o = run(
        &["parse"],
        br#"[{"name": "get_weather", "parameters": {"city": "Oslo"}}]"#,
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // and an OpenAI-shaped call
    let o = run(&["parse", "fixtures/hermes/openai-shaped.txt"], b"");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn field_takes_jq_indexes_and_warns_once_when_it_never_matches() {
    let call = r#"<tool_call>{"name": "f", "arguments": {}}</tool_call>"#;
    let line = serde_json::json!({"choices": [{"message": {"content": call}}]}).to_string();
    let input = format!("{line}\n{line}\n");
    for path in [".choices[0].message.content", ".choices.0.message.content"] {
        let o = run(&["parse", "-c", "--field", path], input.as_bytes());
        assert_eq!(code(&o), 0, "{path}: {}", stderr(&o));
        assert_eq!(stdout(&o), "-:1:1\n-:2:1\n", "{path}");
        assert_eq!(stderr(&o), "", "{path}");
    }
    // a path that names nothing in the whole input: one warning, not one a line
    let o = run(&["parse", "--field", ".message.content"], input.as_bytes());
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("--field .message.content matched none of its 2 lines"),
        "{err}"
    );
    // a path that matches some lines is quiet
    let mixed = format!("{{\"other\": 1}}\n{line}\n");
    let o = run(
        &["parse", "-c", "--field", ".choices[0].message.content"],
        mixed.as_bytes(),
    );
    assert_eq!(stderr(&o), "");
}

const TOOLS: &str = "fixtures/validate/tools/openai-chat.json";

#[test]
fn validate_ends_with_a_one_line_summary_and_is_silent_with_q() {
    let o = run(
        &[
            "validate",
            "--no-config",
            "--tools",
            TOOLS,
            "fixtures/validate/bad-days.log",
            "fixtures/validate/valid.log",
        ],
        b"",
    );
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    let last = err.lines().last().unwrap_or("");
    let valid = stdout(&o).matches("\"valid\":true").count();
    let invalid = stdout(&o).matches("\"valid\":false").count();
    assert_eq!(
        last,
        format!(
            "toolcall: {} calls, {valid} valid, {invalid} invalid in 2 files",
            valid + invalid
        )
    );
    // one file, one call: singular
    let o = run(
        &[
            "validate",
            "--no-config",
            "--tools",
            TOOLS,
            "fixtures/validate/bad-days.log",
        ],
        b"",
    );
    assert!(
        stderr(&o).ends_with("toolcall: 1 call, 0 valid, 1 invalid in 1 file\n"),
        "{}",
        stderr(&o)
    );
    // -q: the status only
    let q = run(
        &[
            "validate",
            "-q",
            "--no-config",
            "--tools",
            TOOLS,
            "fixtures/validate/bad-days.log",
        ],
        b"",
    );
    assert_eq!(
        (code(&q), stdout(&q).as_str(), stderr(&q).as_str()),
        (1, "", "")
    );
}

#[test]
fn validate_colours_diagnostics_only_when_asked_or_on_a_terminal() {
    let args = |color: &'static str| {
        vec![
            "validate",
            "--no-config",
            "--color",
            color,
            "--tools",
            TOOLS,
            "fixtures/validate/bad-days.log",
        ]
    };
    let always = stderr(&run(&args("always"), b""));
    assert!(
        always.contains("\x1b[1;31merror[TLP-004]\x1b[0m"),
        "{always:?}"
    );
    assert!(always.contains("\x1b[1;32m^"), "{always:?}");
    // not a terminal: auto is plain, and so is never
    for when in ["auto", "never"] {
        let plain = stderr(&run(&args(when), b""));
        assert!(!plain.contains('\x1b'), "{when}: {plain:?}");
        assert!(plain.starts_with("fixtures/validate/bad-days.log:7:3: error[TLP-004]"));
    }
    // on a terminal (script(1) gives one) auto colours, unless NO_COLOR is set
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_ok()
    {
        let bin = env!("CARGO_BIN_EXE_toolcall");
        let cmd = format!(
            "{bin} validate --no-config --tools {TOOLS} fixtures/validate/bad-days.log >/dev/null"
        );
        for (no_color, coloured) in [("", true), ("1", false)] {
            let o = std::process::Command::new("script")
                .args(["-qec", &cmd, "/dev/null"])
                .current_dir(root())
                .env("NO_COLOR", no_color)
                .output()
                .expect("script");
            let text = String::from_utf8_lossy(&o.stdout);
            assert_eq!(
                text.contains("\x1b[1;31m"),
                coloured,
                "NO_COLOR={no_color:?}: {text:?}"
            );
        }
    }
}

#[test]
fn grep_flags_l_0_h_no_filename_and_s() {
    let none = "fixtures/hermes/negative-tag-in-prose.txt";
    let two = "fixtures/hermes/no-newlines-two-calls.txt";
    let o = run(&["parse", "-l", BASIC, none, two], b"");
    assert_eq!(code(&o), 0);
    assert_eq!(stdout(&o), format!("{BASIC}\n{two}\n"));
    let o = run(&["parse", "-l0", BASIC, none, two], b"");
    assert_eq!(stdout(&o), format!("{BASIC}\0{two}\0"));
    let o = run(&["parse", "-l", none], b"");
    assert_eq!((code(&o), stdout(&o).as_str()), (1, ""));
    // stdin is `-`, or its --label
    let body = std::fs::read(format!("{}/{BASIC}", root())).expect("fixture");
    assert_eq!(stdout(&run(&["parse", "-l"], &body)), "-\n");
    assert_eq!(
        stdout(&run(&["parse", "-l", "--label", "r.txt"], &body)),
        "r.txt\n"
    );
    // -0 needs -l
    assert_eq!(code(&run(&["parse", "-0", BASIC], b"")), 2);
    // -H / --no-filename decide the NAME: prefix of -c
    assert_eq!(stdout(&run(&["parse", "-c", two], b"")), "2\n");
    assert_eq!(
        stdout(&run(&["parse", "-cH", two], b"")),
        format!("{two}:2\n")
    );
    assert_eq!(
        stdout(&run(&["parse", "-c", "--no-filename", two, BASIC], b"")),
        "2\n1\n"
    );
    assert_eq!(
        stdout(&run(&["parse", "-c", two, BASIC], b"")),
        format!("{two}:2\n{BASIC}:1\n")
    );
    // -s: nothing said about a missing file, the status still 2, the others read
    let o = run(&["parse", "-s", "-c", "/no/such/file", BASIC], b"");
    assert_eq!(code(&o), 2);
    assert_eq!(stderr(&o), "");
    assert_eq!(stdout(&o), format!("{BASIC}:1\n"));
    let o = run(&["parse", "-c", "/no/such/file", BASIC], b"");
    assert!(stderr(&o).contains("/no/such/file"));
}

#[test]
fn validate_records_point_where_their_diagnostics_do() {
    let files = [
        "fixtures/validate/bad-days.log",
        "fixtures/validate/ci/04-broken.log",
        "fixtures/validate/ci/05-limits.log",
    ];
    let mut args = vec!["validate", "--no-config", "--tools", TOOLS];
    args.extend(files);
    let o = run(&args, b"");
    let err = stderr(&o);
    let mut checked = 0;
    for line in stdout(&o).lines() {
        let rec: serde_json::Value = serde_json::from_str(line).expect("record");
        let errors = rec["errors"].as_array().expect("errors");
        for (k, e) in errors.iter().enumerate() {
            let at = format!(
                "{}:{}:{}: error[{}]",
                rec["doc"].as_str().expect("doc"),
                e["line"],
                e["column"],
                e["code"].as_str().expect("code")
            );
            assert!(err.contains(&at), "{at} not among the diagnostics:\n{err}");
            if k == 0 {
                assert_eq!((&rec["line"], &rec["column"]), (&e["line"], &e["column"]));
            }
            checked += 1;
        }
    }
    assert!(checked >= 4, "{checked}");
}

/// `render result` honours `--error` in every family, and `--id` in every
/// family whose calls carry an id (`render call` writes it): the result
/// names the call it answers.
#[test]
fn render_result_honours_id_and_error_in_every_family() {
    let fams = run(&["render", "families", "--json"], b"");
    assert_eq!(code(&fams), 0, "{}", stderr(&fams));
    let mut checked = 0;
    for line in stdout(&fams).lines() {
        let fam: serde_json::Value = serde_json::from_str(line).expect("family record");
        let id = fam["id"].as_str().expect("id").to_string();
        let call = run(
            &["render", "call", "--family", &id],
            br#"{"id":"call_abc123","name":"get_weather","arguments":{"city":"Oslo"}}"#,
        );
        assert_eq!(code(&call), 0, "{id}: {}", stderr(&call));
        let result = |extra: &[&str]| {
            let mut args = vec![
                "render",
                "result",
                "--family",
                id.as_str(),
                "--name",
                "get_weather",
            ];
            args.extend_from_slice(extra);
            let o = run(&args, b"sunny");
            assert_eq!(code(&o), 0, "{id} {extra:?}: {}", stderr(&o));
            stdout(&o)
        };
        let plain = result(&["--id", "call_abc123"]);
        let error = result(&["--id", "call_abc123", "--error"]);
        assert_ne!(plain, error, "{id}: --error changes nothing");
        if stdout(&call).contains("call_abc123") {
            assert!(
                plain.contains("call_abc123"),
                "{id}: --id ignored:\n{plain}"
            );
        }
        checked += 1;
    }
    assert!(checked > 20, "{checked} families");
}

#[test]
fn json5_and_config_errors_are_one_line_with_file_line_column() {
    let dir = std::env::temp_dir().join(format!("toolcall-json5-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    let config = dir.join("broken.json5");
    std::fs::write(&config, "{\n  max_retries: 2,\n  strict_validation: ,\n}\n").expect("write");
    let tools = dir.join("tools.json");
    std::fs::write(
        &tools,
        "[\n  {\"name\": \"f\",\n   \"parameters\": {\"type\": \"object\"}}}\n]\n",
    )
    .expect("write");
    let good = dir.join("good.json5");
    std::fs::write(&good, "{max_retries: 1}\n").expect("write");
    let c = config.display().to_string();
    let t = tools.display().to_string();
    let g = good.display().to_string();
    let o = run(&["parse", "--config", &c, BASIC], b"");
    let err = stderr(&o);
    assert_eq!(code(&o), 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!("toolcall: config {c}:3:")),
        "{err}"
    );
    assert!(!err.contains("\\n") && !err.contains("-->"), "{err}");
    let o = run(&["validate", "--no-config", "--tools", &t, BASIC], b"");
    let err = stderr(&o);
    assert_eq!(code(&o), 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with(&format!("toolcall: {t}:3:")), "{err}");
    assert!(err.contains("neither JSON nor JSON5"), "{err}");
    assert!(!err.contains("\\n") && !err.contains("-->"), "{err}");
    // -v names the config file in use
    let o = run(&["parse", "-v", "--config", &g, BASIC], b"");
    assert!(
        stderr(&o).contains(&format!("using config {g}")),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
    // and --help says where it is looked for
    let help = stdout(&run(&["parse", "--help"], b""));
    assert!(help.contains(".toolcall.json5 found upward"), "{help}");
}

#[test]
fn no_repair_errors_point_at_the_fault_and_name_the_tool() {
    let input = "Sure.\n<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\",}}</tool_call>";
    let o = run(&["parse", "--no-repair"], input.as_bytes());
    let rec: serde_json::Value =
        serde_json::from_str(stdout(&o).lines().next().expect("a record")).expect("json");
    assert_eq!(rec["type"], "error");
    assert!(
        rec["message"]
            .as_str()
            .expect("message")
            .contains("'get_weather'"),
        "{rec}"
    );
    // the fault is the `}` after the trailing comma, not the block's start
    let fault = input.find(",}").expect("comma") + 1;
    assert_eq!(rec["offset"], fault as u64, "{rec}");
    assert_eq!(
        (rec["line"].as_u64(), rec["column"].as_u64()),
        (Some(2), Some((fault - 6 + 1) as u64))
    );
    let dir = std::env::temp_dir().join(format!("toolcall-norepair-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    let reply = dir.join("reply.txt");
    std::fs::write(&reply, input).expect("write");
    let r = reply.display().to_string();
    let o = run(
        &[
            "validate",
            "--no-config",
            "--no-repair",
            "--tools",
            TOOLS,
            &r,
        ],
        b"",
    );
    let err = stderr(&o);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        err.starts_with(&format!("{r}:2:{}: error[TLP-002]", fault - 6 + 1)),
        "{err}"
    );
    assert!(err.contains("'get_weather'"), "{err}");
}

/// The README's live recipe, with `ollama run` replaced by a reply written
/// in small pieces: the prose comes out exactly as written (joined, not a
/// line per event) and the call lands in calls.ndjson.
#[test]
fn readme_live_recipe_prints_the_prose_and_files_the_calls() {
    let readme = std::fs::read_to_string(format!("{}/README.md", root())).expect("README");
    let start = readme.find("# Live: prose").expect("the live recipe");
    let recipe: Vec<&str> = readme[start..].lines().skip(1).take(3).collect();
    let script = recipe.join("\n");
    assert!(script.starts_with("ollama run qwen3 \"…\" |"), "{script}");
    let fake = "for p in 'The weather ' 'in Oslo: ' '<tool_call>{\"name\": \"get_weather\", ' \
                '\"arguments\": {\"city\": \"Oslo\"}}</tool_call>' ' checking now.'; \
                do printf '%s' \"$p\"; sleep 0.05; done";
    let script = script.replacen("ollama run qwen3 \"…\"", &format!("( {fake} )"), 1);
    let dir = std::env::temp_dir().join(format!("toolcall-live-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_toolcall"))
        .parent()
        .expect("bin dir")
        .to_path_buf();
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!("{script}; wait"))
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
    // tee's process substitution may finish just after the pipeline
    let mut calls = String::new();
    for _ in 0..50 {
        calls = std::fs::read_to_string(dir.join("calls.ndjson")).unwrap_or_default();
        if calls.ends_with('\n') {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "The weather in Oslo:  checking now.",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(calls.lines().count(), 1, "{calls}");
    assert!(calls.contains("\"name\":\"get_weather\""), "{calls}");
}

/// Every model name `toolcall formats` lists under a format is accepted by
/// `--format` (a usage error would exit 2).
#[test]
fn formats_table_lists_the_model_names_format_takes() {
    let table = stdout(&run(&["formats"], b""));
    let mut current = String::new();
    let mut checked = 0;
    for line in table.lines() {
        if !line.starts_with(' ') {
            current = line.split_whitespace().next().unwrap_or("").to_string();
            continue;
        }
        let Some(names) = line.trim_start().strip_prefix("names: ") else {
            continue;
        };
        for name in names.split(", ") {
            let o = run(
                &["parse", "--format", name, "--label", &current],
                b"no call here",
            );
            assert_eq!(code(&o), 1, "--format {name}: {}", stderr(&o));
            checked += 1;
        }
    }
    assert!(table.contains("names: qwen3"), "{table}");
    assert!(table.contains("gpt-oss"), "{table}");
    assert!(checked > 10, "{checked}");
}

// ----- issue 36: ids, "no call" status, repair, shapes, names, help --------

const CALL: &[u8] = br#"<tool_call>{"name":"f","arguments":{"a":1}}</tool_call>"#;

fn ids(out: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(out)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["type"] == "tool_call")
        .map(|v| v["id"].as_str().unwrap_or("").to_string())
        .collect()
}

/// The same call in two files or two `--lines` documents of one run gets
/// two ids (before: `call_0be968a0` twice); one document gives the same id
/// in `parse` and `stream`, and again on the next run.
#[test]
fn call_ids_are_unique_within_a_run() {
    let d = common::scratch("ids-run");
    for name in ["a.txt", "b.txt"] {
        std::fs::write(d.join(name), CALL).expect("write");
    }
    let (a, b) = (d.join("a.txt"), d.join("b.txt"));
    let (a, b) = (a.to_str().expect("utf-8"), b.to_str().expect("utf-8"));
    let files = ids(&run(&["parse", a, b], b"").stdout);
    assert_eq!(files.len(), 2);
    assert_ne!(files[0], files[1], "two files, one id");
    let lines = [CALL, b"\n", CALL, b"\n"].concat();
    let per_line = ids(&run(&["parse", "--lines"], &lines).stdout);
    assert_eq!(per_line.len(), 2);
    assert_ne!(per_line[0], per_line[1], "two --lines documents, one id");
    // deterministic, and stream == batch for one document
    let once = ids(&run(&["parse", "--label", "r.txt"], CALL).stdout);
    let again = ids(&run(&["parse", "--label", "r.txt"], CALL).stdout);
    let streamed = ids(&run(&["stream", "--label", "r.txt"], CALL).stdout);
    assert_eq!(once, again);
    assert_eq!(once, streamed);
    assert_eq!(ids(&run(&["parse", a], b"").stdout), files[..1]);
}

/// `--no-call-ok` makes "no call" status 0 for golden loops under
/// `pipefail`; an error record with `--fail-on-error` is still 2.
#[test]
fn no_call_ok_makes_no_call_a_success() {
    for sub in ["parse", "stream", "split"] {
        assert_eq!(code(&run(&[sub], b"just prose")), 1, "{sub}");
        let o = run(&[sub, "--no-call-ok"], b"just prose");
        assert_eq!(code(&o), 0, "{sub}: {}", stderr(&o));
    }
    let broken = br#"<tool_call>{"name":"f","arguments":{"a":1,}}</tool_call>"#;
    let o = run(
        &["parse", "--no-call-ok", "--no-repair", "--fail-on-error"],
        broken,
    );
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let o = run(&["parse", "--no-call-ok", "--format", "nonsense"], b"x");
    assert_eq!(code(&o), 2);
}

/// `repair` of prose with no JSON in it (three words or more) is hopeless
/// (exit 1, a `toolcall:` message, nothing on stdout) unless
/// `--text-as-string`; one or two bare tokens are a string; repaired output
/// ends with a newline, valid input comes back byte for byte.
#[test]
fn repair_refuses_prose_and_ends_repairs_with_a_newline() {
    let o = run(&["repair"], b"not json at all");
    assert_eq!(code(&o), 1);
    assert!(o.stdout.is_empty(), "{}", stdout(&o));
    assert!(
        stderr(&o).starts_with("toolcall: -:1:1: error[TLP-003]"),
        "{}",
        stderr(&o)
    );
    let o = run(&["repair", "--text-as-string"], b"not json at all");
    assert_eq!(
        (code(&o), stdout(&o).as_str()),
        (0, "\"not json at all\"\n")
    );
    let o = run(&["repair", "--report"], b"not json at all");
    assert!(stdout(&o).contains("\"ok\":false"), "{}", stdout(&o));
    // one or two bare tokens are a value that lost its quotes, as other
    // repairers read them (jsonrepair's own tests)
    for (token, want) in [
        (&b"ES2020"[..], "\"ES2020\"\n"),
        (b"0.0.1", "\"0.0.1\"\n"),
        (b"hello world", "\"hello world\"\n"),
    ] {
        let o = run(&["repair"], token);
        assert_eq!((code(&o), stdout(&o).as_str()), (0, want));
    }
    // quoted text and prose around JSON are still repaired
    assert_eq!(code(&run(&["repair"], b"'single quoted'")), 0);
    let o = run(&["repair"], b"Sure: {\"a\": 1,}");
    assert_eq!((code(&o), stdout(&o).as_str()), (0, "{\"a\": 1}\n"));
    let o = run(&["repair"], b"{\"a\":1");
    assert!(stdout(&o).ends_with("}\n"), "{:?}", stdout(&o));
    assert_eq!(stdout(&run(&["repair"], b"{\"a\":1}")), "{\"a\":1}");
}

/// `--shape openai|ollama` writes a broken call as those APIs write an
/// error, never in toolcall's own shape.
#[test]
fn shaped_output_shapes_errors_too() {
    let broken = br#"<tool_call>{"name":"f","arguments":{"a":1,}}</tool_call>"#;
    let o = run(&["parse", "--no-repair", "--shape", "openai"], broken);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON record");
    assert_eq!(v["error"]["type"], "invalid_tool_call", "{v}");
    assert_eq!(v["error"]["code"], "TLP-002", "{v}");
    assert!(v.get("type").is_none(), "{v}");
    let o = run(&["parse", "--no-repair", "--shape", "ollama"], broken);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON record");
    assert!(
        v["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("TLP-002: ")),
        "{v}"
    );
}

/// A `stream` error for a call that had a `tool_call_start` carries that
/// start's `index` and `id`.
#[test]
fn stream_error_pairs_with_its_tool_call_start() {
    let broken = br#"<tool_call>{"name":"f","arguments":{"a":1,}}</tool_call>"#;
    let o = run(&["stream", "--no-repair"], broken);
    let recs: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    let start = recs
        .iter()
        .find(|r| r["type"] == "tool_call_start")
        .expect("a start");
    let error = recs
        .iter()
        .find(|r| r["type"] == "error")
        .expect("an error");
    assert_eq!(error["index"], start["index"], "{error}");
    assert_eq!(error["id"], start["id"], "{error}");
}

/// `split --text` of a reply that is reasoning and calls prints no blank
/// lines: nothing on stdout, a note on stderr, status 0 (a call).
#[test]
fn split_text_of_reasoning_and_calls_says_so() {
    let reply = b"<think>\nlook it up\n</think>\n\n<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>\n\n<tool_call>{\"name\":\"g\",\"arguments\":{}}</tool_call>\n";
    let o = run(&["split", "--text"], reply);
    assert_eq!(code(&o), 0);
    assert!(o.stdout.is_empty(), "{:?}", stdout(&o));
    assert!(stderr(&o).contains("no prose, 2 calls"), "{}", stderr(&o));
    // prose keeps its blank lines, exactly
    let o = run(
        &["split", "--text"],
        b"\n\nHello.\n<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>\n",
    );
    assert_eq!(stdout(&o), "\n\nHello.\n\n");
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

/// `-h` fits a screen; `--help` keeps every flag.
#[test]
fn short_help_fits_a_screen() {
    for sub in ["parse", "validate", "exec", "loop", "stream", "split"] {
        let short = stdout(&run(&[sub, "-h"], b""));
        let long = stdout(&run(&[sub, "--help"], b""));
        assert!(
            short.lines().count() <= 40,
            "{sub} -h: {} lines",
            short.lines().count()
        );
        assert!(
            long.lines().count() > short.lines().count() * 2,
            "{sub} --help"
        );
        assert!(long.contains("--max-block") || sub == "loop" || sub == "exec");
    }
    let usage = stdout(&run(&["loop", "-h"], b""));
    assert!(usage.contains("[MESSAGE]"), "{usage}");
}

/// `--model`, `--format` and `render --family` take one vocabulary: format
/// ids, the model table's names, Ollama's and Hugging Face's spellings; an
/// unknown name gets a "did you mean" from the model table.
#[test]
fn model_and_family_names_share_one_vocabulary() {
    let pythonic = b"[get_weather(city=\"Paris\")]";
    for flag in ["--model", "--format"] {
        let o = run(&["parse", flag, "gemma3"], pythonic);
        assert_eq!(code(&o), 0, "{flag} gemma3: {}", stderr(&o));
        assert!(
            stdout(&o).contains("\"format\":\"pythonic\""),
            "{}",
            stdout(&o)
        );
    }
    let table = stdout(&run(&["formats"], b""));
    assert!(table.contains("names: llama-4, gemma-3"), "{table}");
    let models = stdout(&run(&["formats", "--models"], b""));
    assert!(models
        .lines()
        .any(|l| l.starts_with("gemma-3 ") && l.contains("pythonic")));
    let o = run(&["parse", "--format", "llama3.1:8b"], b"no call");
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let tools = br#"[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}]"#;
    for name in [
        "qwen3",
        "Qwen/Qwen3-8B",
        "deepseek-r1",
        "llama3.2",
        "hermes",
    ] {
        let o = run(&["render", "tools", "--family", name], tools);
        assert_eq!(code(&o), 0, "--family {name}: {}", stderr(&o));
    }
    let o = run(&["parse", "--model", "qwen4"], b"x");
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("did you mean 'qwen3' (format hermes)"),
        "{}",
        stderr(&o)
    );
    let o = run(&["render", "tools", "--family", "qwen4"], tools);
    assert!(
        stderr(&o).contains("did you mean 'qwen3'"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("qwen3-coder-xml"), "{}", stderr(&o));
    let o = run(&["parse", "--model", "deepseek-r2"], b"x");
    assert!(
        stderr(&o).contains("'deepseek-r1' (format deepseek-v3)"),
        "{}",
        stderr(&o)
    );
}

/// Bash completion offers model names for `--model` and the input kinds
/// for `--input`, not file names.
#[test]
fn bash_completion_offers_names_for_model_and_input() {
    let script = stdout(&run(&["completions", "bash"], b""));
    let parse = script
        .split("toolcall__subcmd__parse)")
        .nth(1)
        .expect("a parse section");
    let section = &parse[..parse.find("\n        toolcall__").unwrap_or(parse.len())];
    let after = |flag: &str| -> String {
        let at = section
            .find(&format!("{flag})"))
            .unwrap_or_else(|| panic!("{flag} case"));
        section[at..].lines().take(3).collect::<Vec<_>>().join("\n")
    };
    let model = after("--model");
    assert!(
        model.contains("gemma-3") && model.contains("llama-3.2"),
        "{model}"
    );
    let input = after("--input");
    assert!(
        input.contains("ollama") && input.contains("llama-server"),
        "{input}"
    );
}

/// Issue 47: a call cut off after a final newline is reported on its last
/// line with something to show, not at `4:1` on the empty line after it.
#[test]
fn a_call_cut_after_a_final_newline_points_at_its_last_line() {
    let cut = b"Hi\n<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": 1\n";
    let r = common::run_binary(&["parse"], Some(cut), None);
    let rec: serde_json::Value =
        serde_json::from_str(r.out().lines().next().expect("a record")).expect("JSON");
    assert_eq!(rec["code"], "TLP-002", "{}", r.out());
    assert_eq!(
        (rec["line"].as_u64(), rec["column"].as_u64()),
        (Some(3), Some(35))
    );
    let d = common::scratch("cut-final-newline");
    std::fs::write(d.join("reply.txt"), cut).expect("write");
    std::fs::write(
        d.join("tools.json"),
        r#"[{"name": "f", "parameters": {"type": "object"}}]"#,
    )
    .expect("write");
    let v = common::run_binary(
        &["validate", "--tools", "tools.json", "reply.txt"],
        None,
        Some(&d),
    );
    assert!(
        v.stderr.contains("reply.txt:3:35: error[TLP-002]"),
        "{}",
        v.stderr
    );
    assert!(v.stderr.contains("   3 | {\"name\""), "{}", v.stderr);
}

/// Issue 47: llama.cpp's ` [end of text]` at the end of its output is
/// markup, not the reply's text; the same words in prose stay text.
#[test]
fn llama_cpp_end_of_text_is_markup() {
    let r = common::run_binary(
        &["split", "--text"],
        Some(b"It is sunny. [end of text]\n"),
        None,
    );
    assert_eq!(r.out(), "It is sunny. ", "{}", r.stderr);
    let r = common::run_binary(&["stream"], Some(b"Done [end of text]\n"), None);
    assert!(
        r.out()
            .contains(r#"{"type":"markup","raw":"[end of text]\n""#),
        "{}",
        r.out()
    );
    let prose = b"Say [end of text] to stop.\n";
    let r = common::run_binary(&["split", "--text"], Some(prose), None);
    assert_eq!(r.out().as_bytes(), prose, "{}", r.stderr);
}

/// Issue 47: `exec` with a bare program name that is not on `PATH` says
/// where it looked.
#[test]
fn exec_of_a_missing_bare_program_says_where_it_looked() {
    let d = common::scratch("exec-bare-program");
    std::fs::write(
        d.join("tools.json"),
        r#"[{"name": "f", "parameters": {"type": "object"},
             "x-toolcall": {"exec": ["no-such-tool-47"]}}]"#,
    )
    .expect("write");
    let call = br#"<tool_call>{"name": "f", "arguments": {}}</tool_call>"#;
    let r = common::run_binary(
        &[
            "exec",
            "--tools",
            "tools.json",
            "--approve",
            "yes",
            "--no-timestamps",
        ],
        Some(call),
        Some(&d),
    );
    assert!(
        r.out()
            .contains("cannot start no-such-tool-47: not found in PATH ("),
        "{}",
        r.out()
    );
}

/// Issue 47: `render result` without `--name` takes the name from the
/// record it is given (`exec`'s `tool_result`); plain text still needs it.
#[test]
fn render_result_takes_the_name_from_a_record() {
    let rec = br#"{"type":"tool_result","id":"c1","name":"get_weather","status":"completed","is_error":false,"content":"sunny"}"#;
    let r = common::run_binary(&["render", "result", "--family", "hermes"], Some(rec), None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.out().contains("sunny"), "{}", r.out());
    let r = common::run_binary(
        &["render", "result", "--family", "hermes"],
        Some(b"sunny\n"),
        None,
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--name is required"), "{}", r.stderr);
}

/// Issue 47: the commands that refuse `--input messages` do not offer it
/// in their help; `parse` and `validate`, which read it, do.
#[test]
fn input_help_offers_messages_only_where_it_is_read() {
    for sub in ["stream", "split", "exec", "loop"] {
        for h in ["-h", "--help"] {
            let r = common::run_binary(&[sub, h], None, None);
            let input = r
                .out()
                .split("--input <KIND>")
                .nth(1)
                .map(|s| s.split("\n      --").next().unwrap_or("").to_string())
                .expect("--input in help");
            assert!(!input.contains("messages"), "{sub} {h}: {input}");
        }
    }
    for sub in ["parse", "validate"] {
        let r = common::run_binary(&[sub, "-h"], None, None);
        let input = r
            .out()
            .split("--input <KIND>")
            .nth(1)
            .unwrap_or("")
            .to_string();
        let first: String = input.lines().take(2).collect();
        assert!(first.contains("messages"), "{sub}: {input}");
    }
}

/// Issue 47: a `</think>` with nothing before it is an empty `reasoning`
/// span inside the think window and `markup` outside it, in `stream` and
/// `split` alike (the choice docs/design.md states).
#[test]
fn a_lone_closer_at_the_start_is_empty_reasoning_in_the_window_else_markup() {
    let doc = b"</think>Hello";
    let inside = common::run_binary(&["stream", "--think-window", "8192"], Some(doc), None);
    assert!(
        inside
            .out()
            .starts_with(r#"{"type":"reasoning","text":"","span":[0,8]}"#),
        "{}",
        inside.out()
    );
    let split = common::run_binary(&["split"], Some(doc), None);
    assert!(
        split.out().contains(r#"{"kind":"reasoning","span":[0,8]}"#),
        "{}",
        split.out()
    );
    let outside = common::run_binary(&["stream"], Some(doc), None);
    assert!(
        outside
            .out()
            .starts_with(r#"{"type":"markup","raw":"</think>","span":[0,8]}"#),
        "{}",
        outside.out()
    );
    let split0 = common::run_binary(&["split", "--think-window", "0"], Some(doc), None);
    assert!(
        split0.out().contains(r#"{"kind":"markup","span":[0,8]}"#),
        "{}",
        split0.out()
    );
}

/// Issue 47: a call in a conversation to a tool that neither the
/// conversation nor `--tools` offers is one fault, reported once
/// (TLP-012), not as TLP-005 and TLP-012.
#[test]
fn an_unknown_tool_in_a_conversation_is_reported_once() {
    let d = common::scratch("unknown-tool-once");
    std::fs::write(
        d.join("tools.json"),
        r#"[{"name": "get_weather", "parameters": {"type": "object"}}]"#,
    )
    .expect("write");
    std::fs::write(
        d.join("conv.json"),
        r#"{"tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}],
 "messages": [
  {"role": "user", "content": "hi"},
  {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_time", "arguments": "{}"}}]},
  {"role": "tool", "tool_call_id": "c1", "content": "12:00"}]}"#,
    )
    .expect("write");
    let r = common::run_binary(
        &["validate", "--tools", "tools.json", "conv.json"],
        None,
        Some(&d),
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    let codes: Vec<String> = r
        .out()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .flat_map(|v| {
            v["errors"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .map(|e| e["code"].as_str().unwrap_or("").to_string())
        })
        .collect();
    assert_eq!(codes, ["TLP-012"], "{}\n{}", r.out(), r.stderr);
    assert_eq!(r.stderr.matches("error[").count(), 1, "{}", r.stderr);
}
