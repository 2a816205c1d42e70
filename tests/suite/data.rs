//! Data as people keep it (issue 43): real samples of every common shape
//! of dataset and agent log, the findings that must not happen, and the
//! report formats CI systems read.

use crate::common::{run_binary, scratch};
use serde_json::Value;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn records(out: &str) -> Vec<Value> {
    out.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn codes(diag: &str) -> Vec<String> {
    let re = regex::Regex::new(r"(error|warning)\[(TLP-\d{3})\]").expect("regex");
    re.captures_iter(diag).map(|c| c[2].to_string()).collect()
}

/// The collected samples (`tests/conformance/data`): `validate` and
/// `parse` (no flags) find every call they hold, and `validate` says
/// nothing but the codes `expected.json` documents as policy.
#[test]
fn real_samples_are_read_with_every_call_and_no_false_diagnostic() {
    let dir = root().join("tests/conformance/data");
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("expected.json")).expect("expected.json"),
    )
    .expect("json");
    let mut want = 0u64;
    let mut found = 0u64;
    let mut failures = Vec::new();
    let files = expected.as_object().expect("object");
    // the floor: raise it as samples are added, never lower it
    let samples = files.keys().filter(|k| !k.starts_with('_')).count();
    assert!(samples >= 56, "at least fifty-six samples, not {samples}");
    for (file, exp) in files {
        if file.starts_with('_') {
            continue;
        }
        let rel = format!("tests/conformance/data/{file}");
        let calls = exp["calls"].as_u64().expect("calls");
        want += calls;
        let v = run_binary(&["validate", "--no-config", &rel], None, Some(root()));
        let recs = records(&v.out());
        let n = recs
            .iter()
            .filter(|r| !r["name"].as_str().unwrap_or("").is_empty())
            .count() as u64;
        found += n.min(calls);
        if n != calls {
            failures.push(format!("{file}: validate found {n} calls, not {calls}"));
        }
        let policy: Vec<&str> = exp["policy"]
            .as_array()
            .expect("policy")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        // true defects of the data as published (counted by hand)
        let defects: Vec<&str> = exp
            .get("defects")
            .and_then(Value::as_array)
            .map(|d| d.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let seen = codes(&v.stderr);
        for c in &seen {
            if !policy.contains(&c.as_str()) && !defects.contains(&c.as_str()) {
                failures.push(format!("{file}: undocumented {c}:\n{}", v.stderr));
            }
        }
        for d in &defects {
            if !seen.iter().any(|c| c == d) {
                failures.push(format!("{file}: the defect {d} was not found"));
            }
        }
        let want_code = if defects.is_empty() { 0 } else { 1 };
        if v.code != want_code {
            failures.push(format!("{file}: exit {}: {}", v.code, v.stderr));
        }
        let p = run_binary(&["parse", "--no-config", &rel], None, Some(root()));
        let parsed = records(&p.out())
            .iter()
            .filter(|r| r["type"] == "tool_call")
            .count() as u64;
        if parsed != calls {
            failures.push(format!("{file}: parse found {parsed} calls, not {calls}"));
        }
    }
    assert!(
        want >= 126,
        "the samples hold at least 126 calls, not {want}"
    );
    assert!(found * 100 >= want * 95, "{found} of {want} calls found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A call that cannot be read inside a ShareGPT turn is an error at that
/// turn's pointer, and the result after it is not blamed (before: `0
/// calls`, exit 0, or a TLP-010 on the result).
#[test]
fn an_unreadable_call_in_a_turn_is_an_error_at_its_own_pointer() {
    let dir = scratch("data-broken-call");
    let doc = r#"{"conversations": [
  {"from": "human", "value": "Weather in Paris?"},
  {"from": "gpt", "value": "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": [1, 2]}\n</tool_call>"},
  {"from": "tool", "value": "<tool_response>\n{\"temp\": 21}\n</tool_response>"},
  {"from": "gpt", "value": "21 degrees."}
], "tools": [{"name": "get_weather", "parameters": {"type": "object"}}]}
"#;
    let f = dir.join("broken.json");
    std::fs::write(&f, doc).expect("write");
    let r = run_binary(
        &["validate", "--no-config", f.to_str().expect("utf-8")],
        None,
        None,
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    let recs = records(&r.out());
    assert_eq!(recs.len(), 1, "{}", r.out());
    assert_eq!(recs[0]["pointer"], "/conversations/1/value");
    assert_eq!(recs[0]["line"], 3, "{}", recs[0]);
    let c = codes(&r.stderr);
    assert!(
        c.iter().any(|c| c == "TLP-002" || c == "TLP-003"),
        "{}",
        r.stderr
    );
    assert!(!c.iter().any(|c| c == "TLP-010"), "{}", r.stderr);
    // the same candidate is an error record in parse
    let p = run_binary(
        &["parse", "--no-config", f.to_str().expect("utf-8")],
        None,
        None,
    );
    let errs: Vec<Value> = records(&p.out())
        .into_iter()
        .filter(|r| r["type"] == "error")
        .collect();
    assert_eq!(errs.len(), 1, "{}", p.out());
    assert_eq!(errs[0]["line"], 3);
}

/// A call whose JSON had to be repaired is a finding in data: a warning
/// of its own code with `repairs` on the record, an error under
/// `--strict`, nothing under `--allow TLP-016`.
#[test]
fn a_repaired_call_in_data_is_a_warning_and_an_error_under_strict() {
    let dir = scratch("data-repaired");
    let doc = r#"{"conversations": [
  {"from": "human", "value": "Weather in Paris?"},
  {"from": "function_call", "value": "{'name': 'get_weather', 'arguments': {'city': 'Paris'}}"},
  {"from": "observation", "value": "21"}
], "tools": "[{\"name\": \"get_weather\", \"parameters\": {\"type\": \"object\"}}]"}
"#;
    let f = dir.join("repaired.json");
    std::fs::write(&f, doc).expect("write");
    let path = f.to_str().expect("utf-8");
    let r = run_binary(&["validate", "--no-config", path], None, None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("warning[TLP-016]"), "{}", r.stderr);
    let recs = records(&r.out());
    assert!(
        recs[0]["repairs"].as_array().is_some_and(|a| !a.is_empty()),
        "{}",
        recs[0]
    );
    let r = run_binary(&["validate", "--no-config", "--strict", path], None, None);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("error[TLP-016]"), "{}", r.stderr);
    let r = run_binary(
        &["validate", "--no-config", "--allow", "TLP-016", path],
        None,
        None,
    );
    assert_eq!(r.code, 0);
    assert!(!r.stderr.contains("TLP-016"), "{}", r.stderr);
}

/// A folder with a conversation and a file that needs `--tools`: the
/// conversation is checked, the other file named, the run exits 2 after
/// (before: exit 2 at once, no file named, nothing checked).
#[test]
fn a_file_that_needs_tools_does_not_stop_a_folder_run() {
    let dir = scratch("data-folder");
    std::fs::copy(
        root().join("fixtures/messages/openai-ok.json"),
        dir.join("chat.json"),
    )
    .expect("copy");
    std::fs::write(
        dir.join("reply.txt"),
        "<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>\n",
    )
    .expect("write");
    let r = run_binary(
        &["validate", "--no-config", dir.to_str().expect("utf-8")],
        None,
        None,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(!records(&r.out()).is_empty(), "the conversation is checked");
    assert!(r.stderr.contains("reply.txt"), "{}", r.stderr);
    assert!(r.stderr.contains("--tools"), "{}", r.stderr);
}

/// `parse` with no flags reads a conversation file as `validate` does
/// (before: it parsed the JSON as model text), from a file and from
/// stdin, and says so on stderr when JSON is read as text.
#[test]
fn parse_sniffs_conversations_like_validate() {
    let f = "fixtures/messages/sharegpt-array-ok.json";
    let p = run_binary(&["parse", "--no-config", f], None, Some(root()));
    let calls: Vec<Value> = records(&p.out())
        .into_iter()
        .filter(|r| r["type"] == "tool_call")
        .collect();
    assert_eq!(calls.len(), 1, "{}", p.out());
    assert_eq!(calls[0]["pointer"], "/0/conversations/1/value");
    let bytes = std::fs::read(root().join(f)).expect("read");
    let p = run_binary(&["parse", "--no-config"], Some(&bytes), Some(root()));
    assert_eq!(
        records(&p.out())
            .iter()
            .filter(|r| r["type"] == "tool_call")
            .count(),
        1,
        "{}",
        p.out()
    );
    let p = run_binary(&["parse", "--no-config"], Some(b"{\"a\": [1, 2]}\n"), None);
    assert!(p.stderr.contains("read as model text"), "{}", p.stderr);
}

/// Double-encoded arguments are decoded (before: `{}` with no error) and
/// reported; `--allow TLP-013` leaves no TLP-004 behind it; TLP-008 can be
/// allowed.
#[test]
fn double_encoded_arguments_and_allow() {
    let dir = scratch("data-double");
    // the arguments string holds a JSON string that holds the object
    let inner = serde_json::to_string(&serde_json::json!({"city": "Paris"})).expect("s");
    let once = serde_json::to_string(&inner).expect("s");
    let args = serde_json::to_string(&once).expect("s");
    let doc = format!(
        r#"{{"tools": [{{"type": "function", "function": {{"name": "get_weather", "parameters": {{"type": "object", "properties": {{"city": {{"type": "string"}}}}, "required": ["city"]}}}}}}],
 "messages": [{{"role": "user", "content": "x"}},
  {{"role": "assistant", "content": null, "tool_calls": [{{"id": "c1", "type": "function", "function": {{"name": "get_weather", "arguments": {args}}}}}]}},
  {{"role": "tool", "tool_call_id": "c1", "content": "21"}}]}}
"#
    );
    let f = dir.join("double.json");
    std::fs::write(&f, doc).expect("write");
    let path = f.to_str().expect("utf-8");
    let p = run_binary(&["parse", "--no-config", path], None, None);
    let call = records(&p.out())
        .into_iter()
        .find(|r| r["type"] == "tool_call")
        .expect("a call");
    assert_eq!(call["arguments"]["city"], "Paris", "{call}");
    let v = run_binary(&["validate", "--no-config", path], None, None);
    assert!(
        codes(&v.stderr).contains(&"TLP-013".to_string()),
        "{}",
        v.stderr
    );
    // bad arguments: allowing TLP-013 drops the schema error it causes
    let doc = r#"{"tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}],
 "messages": [{"role": "user", "content": "x"},
  {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{bad"}}]},
  {"role": "tool", "tool_call_id": "c1", "content": "21"}]}
"#;
    let g = dir.join("bad.json");
    std::fs::write(&g, doc).expect("write");
    let path = g.to_str().expect("utf-8");
    let v = run_binary(&["validate", "--no-config", path], None, None);
    assert!(
        codes(&v.stderr).contains(&"TLP-004".to_string()),
        "{}",
        v.stderr
    );
    let v = run_binary(
        &["validate", "--no-config", "--allow", "TLP-013", path],
        None,
        None,
    );
    assert_eq!(v.code, 0, "{}", v.stderr);
    assert!(codes(&v.stderr).is_empty(), "{}", v.stderr);
    let h = dir.join("none.jsonl");
    std::fs::write(
        &h,
        "{\"messages\": [{\"role\": \"user\", \"content\": \"x\"}]}\n{\"not\": 1}\n",
    )
    .expect("write");
    let path = h.to_str().expect("utf-8");
    let v = run_binary(&["validate", "--no-config", path], None, None);
    assert_eq!(v.code, 1, "{}", v.stderr);
    let v = run_binary(
        &["validate", "--no-config", "--allow", "TLP-008", path],
        None,
        None,
    );
    assert_eq!(v.code, 0, "{}", v.stderr);
}

/// A diagnostic far into a long JSONL row frames the column it points at
/// (before: the start of the row), and the summary counts calls, not
/// refused lines or results without a call.
#[test]
fn jsonl_code_frame_and_summary_counts() {
    let r = run_binary(
        &[
            "validate",
            "--no-config",
            "fixtures/messages/xlam-not-offered.jsonl",
        ],
        None,
        Some(root()),
    );
    let frame = r.stderr.lines().nth(1).unwrap_or("");
    assert!(
        frame.contains('…') && frame.contains("get_forecast"),
        "{}",
        r.stderr
    );
    let r = run_binary(
        &[
            "validate",
            "--no-config",
            "fixtures/messages/events-orphan-result.json",
        ],
        None,
        Some(root()),
    );
    assert!(
        r.stderr.contains("toolcall: 1 call, 1 valid, 0 invalid"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("1 other finding"), "{}", r.stderr);
    // the other findings say what they are: refused documents among them
    let r = run_binary(
        &["validate", "--no-config", "--input", "messages", "-"],
        Some(b"{\"messages\": []}\n{\"not\": 1}\n"),
        None,
    );
    assert!(
        r.stderr
            .contains("1 other finding (refused documents and lines"),
        "{}",
        r.stderr
    );
}

/// `--messages-at` reads the conversation at a pointer the search would
/// not take.
#[test]
fn messages_at_names_the_list() {
    let dir = scratch("data-at");
    let doc = r#"{"run": {"steps": [
  {"role": "user", "content": "x"},
  {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
  {"role": "tool", "tool_call_id": "c1", "content": "ok"}],
 "other": [{"role": "user", "content": "y"}]}}
"#;
    let f = dir.join("at.json");
    std::fs::write(&f, doc).expect("write");
    let path = f.to_str().expect("utf-8");
    let r = run_binary(
        &[
            "validate",
            "--no-config",
            "--messages-at",
            "/run/steps",
            path,
        ],
        None,
        None,
    );
    let recs = records(&r.out());
    assert_eq!(recs.len(), 1, "{}", r.stderr);
    assert_eq!(recs[0]["pointer"], "/run/steps/1/tool_calls/0");
}

/// The CI formats pass their consumers: SARIF against the SARIF 2.1.0
/// schema, JUnit through an XML parser, GitHub annotations against the
/// workflow-command grammar, JSON as one object.
#[test]
fn report_formats_pass_their_validators() {
    let files = [
        "fixtures/messages/openai-not-offered.json",
        "fixtures/messages/xlam-ok.jsonl",
        "fixtures/messages/events-orphan-result.json",
    ];
    let run = |fmt: &str| {
        let mut args = vec!["validate", "--no-config", "--output-format", fmt];
        args.extend(files);
        run_binary(&args, None, Some(root()))
    };
    // SARIF
    let r = run("sarif");
    assert_eq!(r.code, 1, "{}", r.stderr);
    let log: Value = serde_json::from_str(&r.out()).expect("sarif is JSON");
    // this release of the schema has a stray `]` in its language
    // patterns, which the meta-schema's regex check refuses: the pattern
    // they mean
    let text =
        std::fs::read_to_string(root().join("tests/conformance/sarif/sarif-2.1.0-rtm.5.json"))
            .expect("schema")
            .replace(
                "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$",
                "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$",
            );
    let schema: Value = serde_json::from_str(&text).expect("schema json");
    let validator = jsonschema::validator_for(&schema).expect("schema compiles");
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert!(results.iter().any(|r| r["ruleId"] == "TLP-012"));
    assert!(results.iter().any(|r| r["ruleId"] == "TLP-010"));
    // JUnit
    let r = run("junit");
    let xml = r.out();
    let mut reader = quick_xml::Reader::from_str(&xml);
    let (mut cases, mut failures, mut depth) = (0, 0, 0i32);
    loop {
        match reader.read_event().expect("well-formed XML") {
            quick_xml::events::Event::Start(e) => {
                depth += 1;
                match e.name().as_ref() {
                    b"testcase" => cases += 1,
                    b"failure" => failures += 1,
                    _ => {}
                }
            }
            quick_xml::events::Event::Empty(e) if e.name().as_ref() == b"testcase" => cases += 1,
            quick_xml::events::Event::End(_) => depth -= 1,
            quick_xml::events::Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(depth, 0);
    assert!(cases >= 4 && failures >= 2, "{xml}");
    // GitHub workflow commands
    let r = run("github");
    let re = regex::Regex::new(
        r"^::(error|warning|notice) file=[^,:]+,line=\d+,col=\d+,title=[^,:]+::[^\r\n]*$",
    )
    .expect("regex");
    let lines: Vec<&str> = r.stdout_lines();
    assert!(lines.len() >= 2, "{}", r.out());
    for l in &lines {
        assert!(re.is_match(l), "{l}");
    }
    // JSON
    let r = run("json");
    let v: Value = serde_json::from_str(&r.out()).expect("one JSON object");
    assert_eq!(v["type"], "summary");
    assert_eq!(v["documents"], 3);
    assert!(v["codes"]["TLP-012"].as_u64() >= Some(1));
    assert!(v["findings"].as_array().is_some_and(|f| !f.is_empty()));
    // --stats: the records, then one summary record
    let r = run_binary(
        &[
            "validate",
            "--no-config",
            "--stats",
            "fixtures/messages/xlam-ok.jsonl",
        ],
        None,
        Some(root()),
    );
    let recs = records(&r.out());
    let last = recs.last().expect("summary");
    assert_eq!(last["type"], "summary");
    assert_eq!(last["calls"], 2);
    assert_eq!(last["tools"]["get_weather"], 2);
}

trait Lines {
    fn stdout_lines(&self) -> Vec<&str>;
}

impl Lines for crate::common::Run {
    fn stdout_lines(&self) -> Vec<&str> {
        std::str::from_utf8(&self.stdout)
            .unwrap_or("")
            .lines()
            .filter(|l| !l.is_empty())
            .collect()
    }
}

/// `--keep valid` and `--keep invalid` write the rows back byte for byte
/// (CRLF and a last line without its end included), and together they
/// are the whole file.
#[test]
fn keep_writes_rows_back_byte_for_byte() {
    let dir = scratch("data-keep");
    let ok = std::fs::read(root().join("fixtures/messages/xlam-ok.jsonl")).expect("ok");
    let bad = std::fs::read(root().join("fixtures/messages/xlam-not-offered.jsonl")).expect("bad");
    let mut crlf = ok.clone();
    crlf.pop();
    crlf.extend_from_slice(b"\r\n");
    let mut all = Vec::new();
    all.extend_from_slice(&ok);
    all.extend_from_slice(&bad);
    all.extend_from_slice(b"not json\n");
    all.extend_from_slice(&crlf);
    all.extend_from_slice(&ok[..ok.len() - 1]);
    let f = dir.join("rows.jsonl");
    std::fs::write(&f, &all).expect("write");
    let path = f.to_str().expect("utf-8");
    let valid = run_binary(
        &["validate", "--no-config", "--keep", "valid", path],
        None,
        None,
    );
    let invalid = run_binary(
        &["validate", "--no-config", "--keep", "invalid", path],
        None,
        None,
    );
    let mut want_valid = ok.clone();
    want_valid.extend_from_slice(&crlf);
    want_valid.extend_from_slice(&ok[..ok.len() - 1]);
    assert_eq!(valid.stdout, want_valid);
    let mut want_invalid = bad.clone();
    want_invalid.extend_from_slice(b"not json\n");
    assert_eq!(invalid.stdout, want_invalid);
}

/// A conversation with its own tools: `city` valid, `town` not.
fn weather_conversation(arg: &str) -> Value {
    serde_json::json!({
        "tools": [{"type": "function", "function": {"name": "get_weather",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                           "required": ["city"]}}}],
        "messages": [
            {"role": "user", "content": "Weather?"},
            {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
                "function": {"name": "get_weather", "arguments": format!("{{\"{arg}\": \"Paris\"}}")}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
            {"role": "assistant", "content": "Sunny."}
        ]
    })
}

/// A top-level array of conversations read on a pipe (an element at a
/// time) gives the records and diagnostics of the same file read whole:
/// pointers `/K/…`, lines and columns in the file (stream == batch).
#[test]
fn an_array_read_an_element_at_a_time_is_the_array_read_whole() {
    let dir = scratch("data-array");
    let rows: Vec<Value> = ["city", "town", "city", "town"]
        .iter()
        .map(|a| weather_conversation(a))
        .collect();
    let text = serde_json::to_string_pretty(&rows).expect("json");
    let file = dir.join("chats.json");
    std::fs::write(&file, &text).expect("write");
    let file = file.to_str().expect("utf-8 path");
    let args = ["validate", "--no-config", "--input", "messages"];
    let whole = run_binary(&[&args[..], &[file]].concat(), None, None);
    let piped = run_binary(&[&args[..], &["-"]].concat(), Some(text.as_bytes()), None);
    assert_eq!(whole.code, 1, "{}", whole.stderr);
    assert_eq!(piped.code, 1, "{}", piped.stderr);
    let whole_records = records(&whole.out().replace(file, "-"));
    let piped_records = records(&piped.out());
    assert_eq!(whole_records.len(), 4);
    assert_eq!(whole_records, piped_records);
    assert_eq!(piped_records[1]["pointer"], "/1/messages/1/tool_calls/0");
    assert_eq!(whole.stderr.replace(file, "-"), piped.stderr);
}

/// A JSONL whose first line is longer than `--max-input` (and
/// `--max-buffer`) is still read: that line is one TLP-007 error, as a
/// later long line is, and the others are checked (before, the whole
/// file was refused, exit 2).
#[test]
fn a_first_jsonl_line_over_the_limits_is_one_error() {
    let dir = scratch("data-long-first");
    let mut long = weather_conversation("city");
    long["pad"] = Value::String("x".repeat(1_500_000));
    let mut text = format!("{long}\n");
    for arg in ["city", "town", "city"] {
        text.push_str(&format!("{}\n", weather_conversation(arg)));
    }
    let file = dir.join("rows.jsonl");
    std::fs::write(&file, &text).expect("write");
    let file = file.to_str().expect("utf-8 path");
    let r = run_binary(
        &["validate", "--no-config", "--max-input", "1000000", file],
        None,
        None,
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains(":1:1: error[TLP-007]: line 1 is longer than --max-buffer"),
        "{}",
        r.stderr
    );
    let recs = records(&r.out());
    assert_eq!(recs.len(), 4, "{}", r.out());
    let valid: Vec<bool> = recs.iter().map(|r| r["valid"] == true).collect();
    assert_eq!(valid, [false, true, false, true]);
}

/// One JSON conversation document larger than `--max-conversation` is a
/// TLP-007 error that says what to do, and the next file is checked.
#[test]
fn a_document_too_large_to_hold_is_one_error_and_the_run_goes_on() {
    let dir = scratch("data-too-large");
    // a long value before the list: the document's first bytes do not
    // say it is one message list (one that does is read a message at a
    // time: tests/suite/memory.rs)
    let big = weather_conversation("city").to_string();
    let big = format!("{{\"pad\":\"{}\",{}", "x".repeat(5 << 20), &big[1..]);
    std::fs::write(dir.join("a-big.json"), big).expect("write");
    std::fs::write(
        dir.join("b-small.json"),
        weather_conversation("town").to_string(),
    )
    .expect("write");
    let d = dir.to_str().expect("utf-8 path");
    let r = run_binary(
        &[
            "validate",
            "--no-config",
            "--max-conversation",
            "4194304",
            d,
        ],
        None,
        None,
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("a-big.json:1:1: error[TLP-007]: one JSON document larger than --max-conversation (4194304 bytes)"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("b-small.json:"), "{}", r.stderr);
    assert!(
        codes(&r.stderr).contains(&"TLP-004".to_string()),
        "{}",
        r.stderr
    );
}

/// A line of a session log that is not JSON (a crash mid-write) is one
/// TLP-008 error at that line; the events around it are still read as
/// one conversation (before, the line was dropped without a word).
#[test]
fn a_bad_line_in_a_session_log_is_an_error_at_that_line() {
    let dir = scratch("data-session-bad-line");
    let good = std::fs::read_to_string(root().join("fixtures/messages/claude-session-ok.jsonl"))
        .expect("fixture");
    let clean = run_binary(
        &[
            "validate",
            "--no-config",
            "fixtures/messages/claude-session-ok.jsonl",
        ],
        None,
        None,
    );
    let mut lines: Vec<&str> = good.lines().collect();
    lines.insert(1, "{\"type\": \"assistant\", \"message\": {\"trunc");
    let file = dir.join("session.jsonl");
    std::fs::write(&file, lines.join("\n") + "\n").expect("write");
    let file = file.to_str().expect("utf-8 path");
    let r = run_binary(&["validate", "--no-config", file], None, None);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains(":2:1: error[TLP-008]: line 2 of the session log is not JSON"),
        "{}",
        r.stderr
    );
    let calls = |out: &str| {
        records(out)
            .into_iter()
            .filter(|r| r["name"] != "")
            .map(|r| r["name"].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        calls(&r.out()),
        calls(&clean.out()),
        "the other calls are read"
    );
    assert!(!calls(&clean.out()).is_empty());
}

/// `--verdicts`: one `conversation` record per conversation, clean ones
/// included, after its calls' records; the same whether the array is read
/// whole or an element at a time.
#[test]
fn verdicts_give_every_conversation_a_record() {
    let rows: Vec<Value> = ["city", "town", "city"]
        .iter()
        .map(|a| weather_conversation(a))
        .collect();
    let text = serde_json::to_string_pretty(&rows).expect("json");
    let args = [
        "validate",
        "--no-config",
        "--input",
        "messages",
        "--verdicts",
        "-",
    ];
    let r = run_binary(&args, Some(text.as_bytes()), None);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let verdicts = |out: &str| -> Vec<(String, bool, u64)> {
        records(out)
            .into_iter()
            .filter(|r| r["type"] == "conversation")
            .map(|v| {
                (
                    v["pointer"].as_str().unwrap_or("?").to_string(),
                    v["valid"] == true,
                    v["calls"].as_u64().unwrap_or(99),
                )
            })
            .collect()
    };
    let got = verdicts(&r.out());
    assert_eq!(
        got,
        [
            ("/0".to_string(), true, 1),
            ("/1".to_string(), false, 1),
            ("/2".to_string(), true, 1)
        ]
    );
    // the array on one line is read whole: the same verdicts
    let compact = text.replace('\n', "");
    let one_line = run_binary(&args, Some(compact.as_bytes()), None);
    assert_eq!(verdicts(&one_line.out()), got);
    let plain = run_binary(
        &["validate", "--no-config", "--input", "messages", "-"],
        Some(text.as_bytes()),
        None,
    );
    assert!(records(&plain.out())
        .iter()
        .all(|r| r["type"] == "validation"));
}

/// A CI job keeps its report when one input cannot be read: the files that
/// were read are reported in every `--output-format`, the summary names what
/// was read, and the run still ends with exit 2 (it ended before the report
/// was written).
#[test]
fn an_unreadable_input_keeps_the_report_of_the_others() {
    let missing = scratch("unreadable-report").join("missing.json");
    let missing = missing.to_str().expect("utf-8 path");
    let file = "fixtures/messages/openai-not-offered.json";
    for fmt in ["sarif", "junit", "json"] {
        let args = [
            "validate",
            "--no-config",
            "--output-format",
            fmt,
            file,
            missing,
        ];
        let r = run_binary(&args, None, Some(root()));
        assert_eq!(r.code, 2, "{fmt}: {}", r.stderr);
        assert!(
            r.stderr.contains("1 input could not be read"),
            "{fmt}: {}",
            r.stderr
        );
        assert!(
            r.stderr.contains("in 1 file"),
            "{fmt}: summary: {}",
            r.stderr
        );
        let out = r.out();
        match fmt {
            "junit" => assert!(out.contains("<testsuites"), "junit: {out}"),
            _ => {
                let report: Value = serde_json::from_str(&out).expect("a JSON report");
                let text = report.to_string();
                assert!(text.contains("openai-not-offered"), "{fmt}: {text}");
                if fmt == "json" {
                    // the input that could not be read, named with why
                    let unread = &report["unreadable"];
                    assert_eq!(unread[0]["file"], missing, "{report}");
                    let why = unread[0]["why"].as_str().unwrap_or("");
                    assert!(why.contains("No such file"), "{report}");
                }
            }
        }
    }
}

/// A multi-session Claude Code log: a summary line naming no session,
/// session `a` (a call over two lines of one message), a line cut
/// mid-write, session `b` whose first line is `pad` bytes long, and
/// session `c` with a call nobody answered before the next answer.
fn multi_session_log(pad: usize) -> String {
    let user = |s: &str, text: &str| {
        format!(
            r#"{{"sessionId": "{s}", "type": "user", "message": {{"role": "user", "content": "{text}"}}}}"#
        )
    };
    let call = |s: &str, m: &str, id: &str| {
        format!(
            r#"{{"sessionId": "{s}", "type": "assistant", "message": {{"id": "{m}", "role": "assistant", "content": [{{"type": "tool_use", "id": "{id}", "name": "get_weather", "input": {{"city": "Paris"}}}}]}}}}"#
        )
    };
    let result = |s: &str, id: &str| {
        format!(
            r#"{{"sessionId": "{s}", "type": "user", "message": {{"role": "user", "content": [{{"type": "tool_result", "tool_use_id": "{id}", "content": "21"}}]}}}}"#
        )
    };
    let lines = [
        r#"{"type": "summary", "summary": "Weather", "leafUuid": "x"}"#.to_string(),
        user("a", "Weather in Paris?"),
        r#"{"sessionId": "a", "type": "assistant", "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": "Let me look."}]}}"#.to_string(),
        call("a", "m1", "t1"),
        r#"{"type": "file-history-snapshot", "messageId": "m1", "snapshot": {}}"#.to_string(),
        result("a", "t1"),
        r#"{"sessionId": "a", "type": "assistant", "message": {"trunc"#.to_string(),
        user("b", &"x".repeat(pad)),
        call("b", "m2", "t2"),
        result("b", "t2"),
        user("c", "And Rome?"),
        call("c", "m3", "t3"),
        r#"{"sessionId": "c", "type": "assistant", "message": {"id": "m4", "role": "assistant", "content": [{"type": "text", "text": "Sunny."}]}}"#.to_string(),
    ];
    lines.join("\n") + "\n"
}

/// A session log read from a pipe (a session at a time) gives the records
/// and diagnostics of the same log read whole (stream == batch), in
/// `validate` and in `parse`: the samples, the fixtures, and a log of
/// several sessions with a bad line and, under `--max-conversation`, a
/// session too large to hold (before, a log on a pipe was read a line at a
/// time: a false TLP-010 for every result).
#[test]
fn a_session_log_on_a_pipe_is_the_log_read_whole() {
    let dir = scratch("data-session-pipe");
    let multi = dir.join("multi.jsonl");
    std::fs::write(&multi, multi_session_log(3000)).expect("write");
    let multi = multi.to_str().expect("utf-8 path").to_string();
    let mut cases: Vec<(String, Vec<&str>)> = [
        "tests/conformance/data/claude-code-session.jsonl",
        "tests/conformance/data/codex-rollout.jsonl",
        "fixtures/messages/claude-session-ok.jsonl",
        "fixtures/messages/claude-session-orphan-result.jsonl",
        "fixtures/messages/codex-session-ok.jsonl",
    ]
    .iter()
    .map(|f| (root().join(f).to_str().expect("utf-8").to_string(), vec![]))
    .collect();
    cases.push((multi.clone(), vec![]));
    cases.push((multi.clone(), vec!["--max-conversation", "2000"]));
    for (file, flags) in &cases {
        let bytes = std::fs::read(file).expect("read");
        for cmd in ["validate", "parse"] {
            let mut args = vec![cmd, "--no-config", "--input", "messages"];
            args.extend(flags.iter().copied().filter(|_| cmd == "validate"));
            let whole = run_binary(&[&args[..], &[file.as_str()]].concat(), None, None);
            let piped = run_binary(&[&args[..], &["-"]].concat(), Some(&bytes), None);
            assert_eq!(
                whole.code, piped.code,
                "{cmd} {file} {flags:?}: {}",
                piped.stderr
            );
            assert_eq!(
                whole.out().replace(file.as_str(), "-"),
                piped.out(),
                "{cmd} {file} {flags:?}"
            );
            assert_eq!(
                whole.stderr.replace(file.as_str(), "-"),
                piped.stderr,
                "{cmd} {file}"
            );
            assert!(
                file.contains("orphan") || !codes(&piped.stderr).contains(&"TLP-010".to_string()),
                "{cmd} {file}: {}",
                piped.stderr
            );
        }
    }
    // the log of three sessions: each call answered in its own session,
    // the unanswered one found, the cut line named
    let r = run_binary(&["validate", "--no-config", &multi], None, None);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let names: Vec<Value> = records(&r.out())
        .into_iter()
        .filter(|r| r["name"] != "")
        .map(|r| r["pointer"].clone())
        .collect();
    assert_eq!(
        names,
        [
            "/3/message/content/0",
            "/8/message/content/0",
            "/11/message/content/0"
        ]
    );
    assert_eq!(
        codes(&r.stderr),
        ["TLP-015", "TLP-008", "TLP-009"],
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains(":7:1: error[TLP-008]"), "{}", r.stderr);
    // under --max-conversation 2000, session b is one TLP-007 at its first
    // line and the sessions around it are read
    let r = run_binary(
        &[
            "validate",
            "--no-config",
            "--max-conversation",
            "2000",
            &multi,
        ],
        None,
        None,
    );
    assert!(
        r.stderr
            .contains(":8:1: error[TLP-007]: session 'b' starting at line 8 is larger than --max-conversation (2000 bytes)"),
        "{}",
        r.stderr
    );
    assert_eq!(
        codes(&r.stderr),
        ["TLP-015", "TLP-008", "TLP-007", "TLP-009"],
        "{}",
        r.stderr
    );
}

/// A line of a session log that is not JSON (a log cut mid-write) is an
/// error record at that line in `parse`, as it is a TLP-008 in
/// `validate`, from a file and from a pipe; the other lines' calls are
/// read (before: `parse` said nothing of it).
#[test]
fn parse_reports_a_session_line_that_is_not_json_as_validate_does() {
    let dir = scratch("data-session-bad-line");
    let good = std::fs::read_to_string(root().join("fixtures/messages/claude-session-ok.jsonl"))
        .expect("fixture");
    let mut lines: Vec<&str> = good.lines().collect();
    lines.insert(
        2,
        r#"{"type": "assistant", "message": {"id": "x", "content": [{"type": "te"#,
    );
    let text = lines.join("\n") + "\n";
    let f = dir.join("cut.jsonl");
    std::fs::write(&f, &text).expect("write");
    let path = f.to_str().expect("utf-8");
    let v = run_binary(&["validate", "--no-config", path], None, None);
    assert!(
        v.stderr
            .contains(":3:1: error[TLP-008]: line 3 of the session log is not JSON"),
        "{}",
        v.stderr
    );
    for (args, stdin) in [
        (vec!["parse", "--no-config", path], None),
        (vec!["parse", "--no-config", "-"], Some(text.as_bytes())),
    ] {
        let p = run_binary(&args, stdin, None);
        let recs = records(&p.out());
        let errs: Vec<&Value> = recs.iter().filter(|r| r["type"] == "error").collect();
        assert_eq!(errs.len(), 1, "{args:?}: {}", p.out());
        assert_eq!(errs[0]["code"], "TLP-008");
        assert_eq!(errs[0]["line"], 3, "{}", errs[0]);
        assert!(
            errs[0]["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("line 3 of the session log is not JSON")),
            "{}",
            errs[0]
        );
        let calls = recs.iter().filter(|r| r["type"] == "tool_call").count();
        assert_eq!(calls, 1, "{args:?}: {}", p.out());
    }
}

/// An aider chat history holds no call: its SEARCH/REPLACE edit blocks
/// are aider's edit format (applied by aider, no name, no arguments) and
/// `/run` is the user's command; the JSON written inside an edit is code,
/// not a call (docs/records.md, "Shapes of data").
#[test]
fn an_aider_history_holds_no_call() {
    let rel = "tests/conformance/data/aider-chat-history.md";
    let p = run_binary(&["parse", "--no-config", rel], None, Some(root()));
    assert_eq!(p.code, 1, "{}{}", p.out(), p.stderr);
    assert!(p.out().trim().is_empty(), "{}", p.out());
    let s = run_binary(&["split", "--no-config", rel], None, Some(root()));
    let split = records(&s.out());
    assert_eq!(split.len(), 1, "{}", s.out());
    assert_eq!(split[0]["tool_calls"], serde_json::json!([]), "{}", s.out());
    assert_eq!(split[0]["errors"], serde_json::json!([]), "{}", s.out());
}
