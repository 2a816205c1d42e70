//! The prompt side (`toolcall render`).
//!
//! * Golden files: for every family, `fixtures/render/<family>/<case>.out`
//!   is what `toolcall render` prints for the shared inputs in
//!   `fixtures/render/inputs/` (tools block, one result, an error, two
//!   NDJSON results, two calls). `BLESS=1` rewrites them.
//! * Round trip (proptest): for every family, a call rendered the way the
//!   family writes calls and parsed with `--format auto` gives back the
//!   same name and arguments. XML-style families carry values as text, so
//!   there both sides are compared under the loose typing rule
//!   (docs/design.md#value-typing).
//! * Truncation at the token budget, and `server___tool` split and join.

use crate::common;

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};
use toolcall::Config;
use toolcall::{families, render_calls, CallSpec};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn toolcall(args: &[&str], stdin: &[u8]) -> (String, i32) {
    let r = common::run_binary(args, Some(stdin), None);
    (String::from_utf8(r.stdout).expect("UTF-8 output"), r.code)
}

const INPUTS: &str = "fixtures/render/inputs";

/// `(case, arguments after --family ID)`.
fn cases() -> Vec<(&'static str, Vec<String>)> {
    let i = |f: &str| format!("{INPUTS}/{f}");
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        (
            "tools",
            [s(&["tools"]), vec![i("weather.tools.json")]].concat(),
        ),
        (
            "result",
            [
                s(&["result", "--id", "call_1", "--name", "get_weather"]),
                vec![i("weather.result")],
            ]
            .concat(),
        ),
        (
            "error",
            [
                s(&[
                    "result",
                    "--id",
                    "call_1",
                    "--name",
                    "get_weather",
                    "--error",
                ]),
                vec![i("error.result")],
            ]
            .concat(),
        ),
        (
            "results",
            [s(&["result", "--ndjson"]), vec![i("results.ndjson")]].concat(),
        ),
        ("call", [s(&["call"]), vec![i("calls.ndjson")]].concat()),
    ]
}

#[test]
fn golden_renderings_match() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    let mut checked = 0;
    for fam in families() {
        let dir = root().join("fixtures/render").join(fam.id);
        if bless {
            std::fs::create_dir_all(&dir).expect("mkdir");
        }
        for (case, rest) in cases() {
            let mut args: Vec<&str> = vec!["render", &rest[0], "--family", fam.id];
            args.extend(rest[1..].iter().map(String::as_str));
            let (out, code) = toolcall(&args, b"");
            assert_eq!(code, 0, "{} {case}: exit {code}", fam.id);
            let path = dir.join(format!("{case}.out"));
            if bless {
                std::fs::write(&path, &out).expect("bless");
                continue;
            }
            checked += 1;
            match std::fs::read_to_string(&path) {
                Ok(expected) if expected == out => {}
                Ok(expected) => failures.push(format!(
                    "{} differs:\n--- expected\n{expected}\n+++ actual\n{out}",
                    path.display()
                )),
                Err(_) => failures.push(format!("missing {} (run with BLESS=1)", path.display())),
            }
        }
    }
    assert!(bless || checked == families().len() * cases().len());
    assert!(
        failures.is_empty(),
        "{} render mismatches:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The golden call renderings parse back to the calls they were made from.
#[test]
fn golden_calls_parse_back() {
    let input = std::fs::read_to_string(root().join(INPUTS).join("calls.ndjson")).expect("calls");
    let want: Vec<(String, Value)> = input
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("json");
            (
                v["name"].as_str().expect("name").to_string(),
                v["arguments"].clone(),
            )
        })
        .collect();
    for fam in families() {
        let text = render_calls(
            fam,
            &want
                .iter()
                .map(|(n, a)| CallSpec::new(n, a.clone()))
                .collect::<Vec<_>>(),
        );
        let got = parsed(&text);
        let loose = is_text_valued(fam.id);
        assert_eq!(got.len(), want.len(), "{}: {text}", fam.id);
        for ((gn, ga), (wn, wa)) in got.iter().zip(&want) {
            assert_eq!(gn, wn, "{}", fam.id);
            assert_eq!(norm(ga, loose), norm(wa, loose), "{}: {text}", fam.id);
        }
    }
}

/// The prompt side is never a call: every family's rendered tools block,
/// results and error, parsed on its own, gives no call and no error.
#[test]
fn rendered_prompts_hold_no_calls() {
    let mut failures = Vec::new();
    for fam in families() {
        for case in ["tools", "result", "results", "error"] {
            let path = root()
                .join("fixtures/render")
                .join(fam.id)
                .join(format!("{case}.out"));
            let text = std::fs::read_to_string(&path).expect("golden rendering");
            let doc = toolcall::parse(text.as_bytes(), &Config::default());
            if !doc.calls.is_empty() || !doc.errors.is_empty() {
                failures.push(format!(
                    "{}: {} calls, {} errors",
                    path.display(),
                    doc.calls.len(),
                    doc.errors.len()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A ChatML transcript made of a family's rendered pieces (tools in the
/// system turn, a user turn, the family's calls in the assistant turn, the
/// results in a user turn, an answer) gives exactly the assistant's calls.
#[test]
fn transcripts_give_only_the_assistants_calls() {
    let read = |fam: &str, case: &str| {
        std::fs::read_to_string(root().join("fixtures/render").join(fam).join(case))
            .expect("golden rendering")
    };
    for fam in families() {
        let id = fam.id;
        let calls = read(id, "call.out");
        let want = parsed(&calls);
        assert!(!want.is_empty(), "{id}: call.out holds no call");
        let transcript = format!(
            "<|im_start|>system\nYou are a helpful assistant.\n\n{}<|im_end|>\n\
             <|im_start|>user\nWhat is the weather in Paris?<|im_end|>\n\
             <|im_start|>assistant\n{calls}<|im_end|>\n\
             <|im_start|>user\n{}<|im_end|>\n\
             <|im_start|>assistant\nIt is sunny.<|im_end|>\n",
            read(id, "tools.out"),
            read(id, "results.out"),
        );
        assert_eq!(parsed(&transcript), want, "{id}:\n{transcript}");
    }
}

fn parsed(text: &str) -> Vec<(String, Value)> {
    let doc = toolcall::parse(text.as_bytes(), &Config::default());
    doc.calls
        .into_iter()
        .map(|c| (c.name, c.arguments.into_value()))
        .collect()
}

/// Families whose argument values are text in the markup (the
/// descriptor's `values`).
fn is_text_valued(id: &str) -> bool {
    toolcall::formats::FormatId::from_id(id)
        .is_some_and(|f| f.format().values != toolcall::formats::Values::Json)
}

/// The loose typing of docs/design.md#value-typing, applied to both sides
/// for text-valued families: a top-level string that is exactly an integer,
/// a float, `true` or `false` is that value, and a string holding a JSON
/// object or array is that object or array (some readers decode them, some
/// do not).
fn norm(args: &Value, loose: bool) -> Value {
    if !loose {
        return args.clone();
    }
    let Value::Object(m) = args else {
        return args.clone();
    };
    let mut out = Map::new();
    for (k, v) in m {
        let v = match v {
            Value::String(s) => toolcall::formats::typed_value(s),
            other => other.clone(),
        };
        out.insert(k.clone(), v);
    }
    Value::Object(out)
}

/// Names a family reserves (they mean something else than a call).
fn reserved(family: &str, name: &str) -> bool {
    match family {
        "functionary-v3.2" => name == "all" || name == "python",
        "cohere" => name == "directly_answer",
        "llama-python-tag" => name == "code_interpreter" || name == "python",
        _ => false,
    }
}

const PY_KEYWORDS: &[&str] = &[
    "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif",
    "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda",
    "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
];

fn name_strategy() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-z][a-z0-9_]{0,14}",
        1 => ("[a-z][a-z0-9]{0,6}", "[a-z][a-z0-9_]{0,8}").prop_map(|(s, t)| format!("{s}___{t}")),
    ]
    .prop_filter("Python keyword", |n| !PY_KEYWORDS.contains(&n.as_str()))
}

fn key_strategy() -> impl Strategy<Value = String> {
    "[a-z_][a-z0-9_]{0,8}"
}

fn string_strategy() -> impl Strategy<Value = String> {
    // quotes, backslashes, newlines, tabs, brackets, unicode (2-, 3-, 4-byte)
    proptest::collection::vec(
        prop_oneof![
            6 => "[a-zA-Z0-9 ]",
            1 => "[\"'\\\\\n\t{}\\[\\](),:=<&|é漢😀ß]",
        ],
        0..24,
    )
    .prop_map(|v| v.concat())
}

fn scalar_strategy() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => string_strategy().prop_map(Value::String),
        1 => (-1_000_000i64..1_000_000).prop_map(|n| json!(n)),
        1 => (-100_000i64..100_000).prop_map(|n| json!(n as f64 / 8.0)),
        1 => any::<bool>().prop_map(Value::Bool),
    ]
}

fn value_strategy() -> impl Strategy<Value = Value> {
    scalar_strategy().prop_recursive(2, 12, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::btree_map(key_strategy(), inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn args_strategy() -> impl Strategy<Value = Map<String, Value>> {
    proptest::collection::btree_map(key_strategy(), value_strategy(), 0..5)
        .prop_map(|m| m.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Every family: render a call, parse it with `--format auto`, get the
    /// same name and arguments back.
    #[test]
    fn every_family_round_trips(name in name_strategy(), arguments in args_strategy()) {
        for fam in families() {
            if reserved(fam.id, &name) {
                continue;
            }
            let call = CallSpec { name: name.clone(), arguments: arguments.clone(), id: None };
            let text = render_calls(fam, std::slice::from_ref(&call));
            let got = parsed(&text);
            prop_assert_eq!(got.len(), 1, "{}: {}", fam.id, text);
            prop_assert_eq!(&got[0].0, &name, "{}: {}", fam.id, text);
            let loose = is_text_valued(fam.id);
            let want = norm(&Value::Object(arguments.clone()), loose);
            prop_assert_eq!(norm(&got[0].1, loose), want, "{}: {}", fam.id, text);
        }
    }
}

#[test]
fn result_truncated_at_the_token_budget() {
    let content = "ü".repeat(3000); // 6000 bytes
    let (out, code) = toolcall(
        &[
            "render",
            "result",
            "--family",
            "mistral",
            "--name",
            "f",
            "--max-tokens",
            "100",
        ],
        content.as_bytes(),
    );
    assert_eq!(code, 0);
    let body = out
        .strip_prefix("[TOOL_RESULTS]")
        .and_then(|s| s.strip_suffix("[/TOOL_RESULTS]\n"))
        .expect("mistral result");
    assert!(body.len() <= 400, "{}", body.len());
    let at = body.find("\n[truncated: ").expect("marker");
    assert!(body[..at].chars().all(|c| c == 'ü'));
    assert!(body.ends_with(&format!("of {} bytes omitted]", content.len())));
    // The default budget (4096 tokens) leaves this content whole.
    let (out, _) = toolcall(
        &["render", "result", "--family", "mistral", "--name", "f"],
        content.as_bytes(),
    );
    assert!(!out.contains("[truncated"));
}

#[test]
fn server_names_split_on_parse_and_join_on_render() {
    // parse: server and tool fields, name kept whole
    let (out, code) = toolcall(
        &["parse"],
        br#"<tool_call>{"name": "github___create_issue", "arguments": {"title": "x"}}</tool_call>"#,
    );
    assert_eq!(code, 0);
    let rec: Value = serde_json::from_str(out.trim()).expect("record");
    assert_eq!(rec["name"], "github___create_issue");
    assert_eq!(rec["server"], "github");
    assert_eq!(rec["tool"], "create_issue");
    // names without the separator get neither field
    let (out, _) = toolcall(
        &["parse"],
        br#"<tool_call>{"name": "create_issue", "arguments": {}}</tool_call>"#,
    );
    let rec: Value = serde_json::from_str(out.trim()).expect("record");
    assert!(rec.get("server").is_none() && rec.get("tool").is_none());

    // render call: a server field is joined onto the name
    let (out, _) = toolcall(
        &["render", "call", "--family", "mistral"],
        br#"{"server": "github", "name": "create_issue", "arguments": {"title": "x"}}"#,
    );
    assert_eq!(
        out,
        "[TOOL_CALLS]github___create_issue[ARGS]{\"title\":\"x\"}\n"
    );
    // a parsed record renders back under its full name
    let (parsed, _) = toolcall(
        &["parse"],
        br#"<tool_call>{"name": "github___create_issue", "arguments": {"title": "x"}}</tool_call>"#,
    );
    let (out, _) = toolcall(
        &["render", "call", "--family", "mistral"],
        parsed.as_bytes(),
    );
    assert_eq!(
        out,
        "[TOOL_CALLS]github___create_issue[ARGS]{\"title\":\"x\"}\n"
    );

    // render tools --server prefixes every tool
    let (out, code) = toolcall(
        &[
            "render",
            "tools",
            "--family",
            "mistral",
            "--server",
            "wx",
            &format!("{INPUTS}/weather.tools.json"),
        ],
        b"",
    );
    assert_eq!(code, 0);
    assert!(out.contains("\"name\": \"wx___get_weather\""), "{out}");
    assert!(out.contains("\"name\": \"wx___list_files\""), "{out}");

    // render result --server and an NDJSON server field
    let (out, _) = toolcall(
        &[
            "render",
            "result",
            "--family",
            "harmony",
            "--server",
            "wx",
            "--name",
            "get_weather",
        ],
        b"sunny\n",
    );
    assert_eq!(
        out,
        "<|start|>functions.wx___get_weather to=assistant<|channel|>commentary<|message|>sunny<|end|>\n"
    );
    let (out, _) = toolcall(
        &["render", "result", "--family", "harmony", "--ndjson"],
        br#"{"id": "1", "server": "wx", "name": "get_weather", "content": "sunny"}"#,
    );
    assert!(
        out.contains("functions.wx___get_weather to=assistant"),
        "{out}"
    );
}

#[test]
fn usage_errors_and_empty_inputs() {
    let (_, code) = toolcall(&["render", "result", "--family", "hermes"], b"x");
    assert_eq!(code, 2, "--name is required without --ndjson");
    let (_, code) = toolcall(&["render", "tools", "--family", "nope"], b"[]");
    assert_eq!(code, 2);
    let (out, code) = toolcall(&["render", "call", "--family", "hermes"], b"");
    assert_eq!((out.as_str(), code), ("", 1));
    let (_, code) = toolcall(
        &["render", "result", "--family", "hermes", "--ndjson"],
        b"\n",
    );
    assert_eq!(code, 1);
}

#[test]
fn families_list_every_format() {
    let (out, code) = toolcall(&["render", "families", "--json"], b"");
    assert_eq!(code, 0);
    let ids: Vec<String> = out
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).expect("json")["id"]
                .as_str()
                .expect("id")
                .to_string()
        })
        .collect();
    let formats: Vec<&str> = toolcall::formats::FORMATS
        .iter()
        .map(|f| f.id.as_str())
        .collect();
    assert_eq!(ids, formats);
    assert!(Path::new(&root().join(INPUTS)).is_dir());
}
