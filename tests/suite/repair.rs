//! Integration tests of the repair engine and of `toolcall repair`:
//! conformance-style cases, the never-change-valid-JSON invariant as
//! property tests, adversarial inputs that must stay linear, and the CLI.

use crate::common;

use proptest::prelude::*;
use serde_json::Value;
use toolcall::{parse_value, repair, repair_bytes, RepairKind, RepairOptions};

/// Options with the time budget disabled: nothing here may rely on it.
fn no_budget() -> RepairOptions {
    RepairOptions {
        timeout_ms: 0,
        ..RepairOptions::default()
    }
}

fn unlimited() -> RepairOptions {
    RepairOptions {
        max_depth: usize::MAX,
        max_input_bytes: usize::MAX,
        timeout_ms: 0,
        null_for_missing_values: false,
        unquoted_strings: false,
    }
}

fn parses(s: &str) -> bool {
    serde_json::from_str::<serde::de::IgnoredAny>(s).is_ok()
}

fn value(s: &str) -> Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("{s:?} does not parse: {e}"))
}

// ----- conformance-style cases ------------------------------------------------

#[test]
fn valid_inputs_are_byte_identical() {
    let cases = [
        r#"{"city": "Paris"}"#,
        r#"{"url": "https://example.com/a//b?x=1#frag"}"#,
        r#"{"text": "it's Bob's 'quoted' word"}"#,
        r#"{"md": "```json\n{\"a\": 1}\n```"}"#,
        r#"{"esc": "caf\u00e9 \ud83d\ude00 \u2028"}"#,
        r#"{"big": 123456789012345678901234567890}"#,
        "[]",
        r#"{"z": 1, "a": 2, "m": 3}"#,
        r#"{"name": "get_weather", "arguments": "{\"city\": \"Paris\",}"}"#,
        "  {\"padded\": true}  ",
        "\n\t{ \"a\" :\r\n [ 1 , 2.50 , -0.0e-0 ] }\n",
        r#"{"emoji": "😀 👩‍👩‍👧", "lone": "\ud800"}"#,
        r#""{\"city\": \"Paris\", \"unit\": \"C\"}""#,
        "1e400",
        "-123456789012345678901234567890.123456789e-999",
    ];
    for c in cases {
        let r = repair(c, &no_budget()).unwrap();
        assert_eq!(r.output, c);
        assert!(!r.changed && r.repairs.is_empty(), "{c:?}");
    }
    let big = format!(
        "{{\"content\": \"{}\", \"n\": 1}}",
        "lorem ipsum ".repeat(10_000)
    );
    assert_eq!(repair(&big, &no_budget()).unwrap().output, big);
}

#[test]
fn broken_inputs_give_the_expected_values() {
    let cases: &[(&str, &str)] = &[
        (
            r#"{"city": "Paris", "unit": "celsius",}"#,
            r#"{"city": "Paris", "unit": "celsius"}"#,
        ),
        (
            "{\n  \"query\": \"hotels\",\n  \"max\": 5,\n}\n",
            r#"{"query": "hotels", "max": 5}"#,
        ),
        (
            r#"{"filter": {"type": "pdf", "size": {"max": 10"#,
            r#"{"filter": {"type": "pdf", "size": {"max": 10}}}"#,
        ),
        (
            r#"{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hel"#,
            r#"{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hel"}]}"#,
        ),
        ("{'msg': 'it\\'s fine'}", r#"{"msg": "it's fine"}"#),
        ("{\"bell\": \"x\u{7}y\"}", r#"{"bell": "x\u0007y"}"#),
        ("\u{feff}{\"city\": \"Paris\"}", r#"{"city": "Paris"}"#),
        ("Arguments:\n```json\n{\"a\": 1}\n```\nDone.", r#"{"a": 1}"#),
        (
            r#"{"city": "Paris"}{"city": "Rome"}"#,
            r#"[{"city": "Paris"}, {"city": "Rome"}]"#,
        ),
        (r#""{\"city\": \"Par"#, r#"{"city": "Par"}"#),
        ("{\"nbsp\":\u{a0}\"x\"}", r#"{"nbsp": "x"}"#),
        (r#"{"ids": [1, 2, ...]}"#, r#"{"ids": [1, 2]}"#),
        (
            r#"{"n": 123456789012345678901234567890,}"#,
            r#"{"n": 123456789012345678901234567890}"#,
        ),
        (
            "{\"e\": \"😀\", \"s\": \"\\ud83d\\ude00\",}",
            r#"{"e": "😀", "s": "😀"}"#,
        ),
    ];
    for (input, want) in cases {
        let r = repair(input, &no_budget()).unwrap_or_else(|e| panic!("{input:?}: {e}"));
        assert!(r.changed, "{input:?}");
        assert_eq!(
            value(&r.output),
            value(want),
            "{input:?} gave {:?}",
            r.output
        );
    }
}

#[test]
fn repaired_numbers_keep_their_text() {
    let r = repair(
        r#"{"n": 123456789012345678901234567890, "f": 1.10,"#,
        &no_budget(),
    )
    .unwrap();
    assert_eq!(
        r.output,
        r#"{"n": 123456789012345678901234567890, "f": 1.10}"#
    );
}

#[test]
fn hopeless_inputs_are_refused() {
    for input in [
        "",
        " \n\t",
        "<html><body>502 Bad Gateway</body></html>",
        "<!DOCTYPE html><html><head><style>body{margin:0}</style></head></html>",
        "```json\n```",
        "I'm sorry, I can't call that tool.",
        "No",
        "```\n\n```",
        "{\"a\": <b>}",
    ] {
        let e = repair(input, &no_budget()).expect_err(input);
        assert_eq!(e.code, "TLP-003", "{input:?}: {e}");
    }
}

#[test]
fn repairs_report_kinds_and_offsets() {
    let r = repair(r#"{city: 'Paris', "ok": True,}"#, &no_budget()).unwrap();
    let got: Vec<(RepairKind, usize)> = r.repairs.iter().map(|r| (r.kind, r.offset)).collect();
    assert_eq!(
        got,
        vec![
            (RepairKind::UnquotedKey, 1),
            (RepairKind::SingleQuotes, 7),
            (RepairKind::PythonLiteral, 22),
            (RepairKind::TrailingComma, 26),
        ]
    );
    assert_eq!(
        serde_json::to_string(&r.repairs[0]).unwrap(),
        r#"{"kind":"unquoted_key","offset":1}"#
    );
}

#[test]
fn parse_value_is_exact() {
    let (v, repairs) =
        parse_value(r#"{"big": 123456789012345678901234567890}"#, &no_budget()).unwrap();
    assert!(repairs.is_empty());
    assert_eq!(
        serde_json::to_string(&v).unwrap(),
        r#"{"big":123456789012345678901234567890}"#
    );
    let (v, repairs) = parse_value(r#"{"z": 1, "a": [True, "x"#, &no_budget()).unwrap();
    assert_eq!(
        serde_json::to_string(&v).unwrap(),
        r#"{"z":1,"a":[true,"x"]}"#
    );
    assert_eq!(repairs.len(), 3);
}

// ----- adversarial inputs: linear, bounded, and never saved by the budget --------

#[test]
fn fifty_thousand_unclosed_brackets() {
    let input = "[".repeat(50_000);
    let e = repair(&input, &no_budget()).unwrap_err();
    assert_eq!((e.code, e.offset), ("TLP-007", 64));
    let r = repair(&input, &unlimited()).unwrap();
    assert_eq!(r.output, format!("{input}{}", "]".repeat(50_000)));
}

#[test]
fn a_megabyte_of_open_members() {
    let input = r#"{"a":"#.repeat(1 << 20 >> 5);
    let e = repair(&input, &no_budget()).unwrap_err();
    assert_eq!(e.code, "TLP-007");
    let r = repair(&input, &unlimited()).unwrap();
    let n = input.len() / 5;
    // The innermost member has no value and is dropped.
    let want = format!("{}{{}}{}", r#"{"a":"#.repeat(n - 1), "}".repeat(n - 1));
    assert_eq!(r.output, want);
}

#[test]
fn two_hundred_kilobytes_of_quotes() {
    let body = "\"".repeat(200_000);
    for input in [
        format!("{{\"a\": \"{body}\"}}"),
        format!("[\"x{body}"),
        body.clone(),
        format!("{{\"a\": \"{}\"}}", "x\" ".repeat(70_000)),
    ] {
        let r = repair(&input, &unlimited());
        if let Ok(r) = r {
            assert!(parses(&r.output) || r.output.len() > 100_000);
        }
    }
}

#[test]
fn ten_thousand_deep_nest() {
    let valid = format!(
        "{}{}",
        "[{\"k\":".repeat(10_000),
        "1".to_owned() + &"}]".repeat(10_000)
    );
    let r = repair(&valid, &no_budget()).unwrap();
    assert_eq!(r.output, valid, "valid deep input passes through");
    let broken = "[{\"k\":".repeat(10_000);
    assert_eq!(repair(&broken, &no_budget()).unwrap_err().code, "TLP-007");
    let r = repair(&broken, &unlimited()).unwrap();
    let want = format!("{}[{{}}]{}", "[{\"k\":".repeat(9_999), "}]".repeat(9_999));
    assert_eq!(r.output, want);
    let closers = "}]".repeat(10_000) + "}";
    let wrong = format!("{}1{}", "[".repeat(10_000), closers);
    let _ = repair(&wrong, &unlimited());
}

#[test]
fn fenced_strings_stray_words_and_notes_stay_linear() {
    let cli = RepairOptions {
        null_for_missing_values: true,
        unquoted_strings: true,
        ..unlimited()
    };
    let inputs = [
        format!("[{}\"```\"]", "\"```{ \"a\", ".repeat(50_000)),
        format!("{{\"a\": 1 {}}}", "# x ".repeat(100_000)),
        format!("{{\"a\": {}\"b\": 1}}", "x, ".repeat(100_000)),
        format!("{{{}}}", "w \"k\" ".repeat(50_000)),
        format!("{{\"a\": \"x\" {}}}", "word ".repeat(100_000)),
    ];
    for input in inputs {
        let _ = repair(&input, &cli);
        let _ = repair(&input, &unlimited());
    }
}

#[test]
fn many_candidates_in_prose_stay_bounded() {
    let input = "x {a b ".repeat(100_000);
    assert_eq!(repair(&input, &no_budget()).unwrap_err().code, "TLP-003");
    let input = format!("note: {}", "{\"a\": [".repeat(20_000));
    let _ = repair(&input, &unlimited());
}

#[test]
fn budget_errors_are_clean() {
    let big = format!("[{}", "1,".repeat(600_000));
    let e = repair(&big, &RepairOptions::default()).unwrap_err();
    assert_eq!(e.code, "TLP-007");
    assert!(e.message.contains("limit"));
}

// ----- properties -----------------------------------------------------------------

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        "-?[1-9][0-9]{0,39}(\\.[0-9]{1,5})?([eE][+-]?[0-9]{1,3})?"
            .prop_map(|d| serde_json::from_str::<Value>(&d).unwrap_or(Value::Null)),
        any::<String>().prop_map(Value::String),
        "[ -~]{0,12}".prop_map(Value::String),
        prop::sample::select(vec![
            "",
            "\"",
            "\\",
            "//",
            "#",
            "'",
            "“”",
            "\u{a0}",
            "\u{feff}",
            "{\"a\":1,}",
            "😀"
        ])
        .prop_map(|s| Value::String(s.to_owned())),
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(("[ -~]{0,8}|\\PC{0,4}", inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// Inserts JSON whitespace at random token boundaries of a compact text.
fn with_whitespace(compact: &str, seed: u64) -> String {
    let mut out = String::with_capacity(compact.len() * 2);
    let mut in_str = false;
    let mut esc = false;
    let mut x = seed | 1;
    let ws = [" ", "\n", "\t", "\r\n", "  "];
    for ch in compact.chars() {
        if in_str {
            out.push(ch);
            if esc {
                esc = false;
            } else if ch == '\\' {
                esc = true;
            } else if ch == '"' {
                in_str = false;
            }
            continue;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let structural = matches!(ch, '{' | '}' | '[' | ']' | ',' | ':');
        if structural && x.is_multiple_of(2) {
            out.push_str(ws[(x >> 8) as usize % ws.len()]);
        }
        out.push(ch);
        if structural && x.is_multiple_of(3) {
            out.push_str(ws[(x >> 16) as usize % ws.len()]);
        }
        if ch == '"' {
            in_str = true;
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn valid_json_is_never_changed(v in arb_json(), seed in any::<u64>()) {
        let compact = serde_json::to_string(&v).unwrap();
        let pretty = serde_json::to_string_pretty(&v).unwrap();
        let spaced = with_whitespace(&compact, seed);
        for doc in [compact, pretty, spaced] {
            let r = repair(&doc, &no_budget()).unwrap();
            prop_assert_eq!(&r.output, &doc);
            prop_assert!(!r.changed);
            prop_assert!(r.repairs.is_empty());
            let (pv, reps) = parse_value(&doc, &no_budget()).unwrap();
            prop_assert!(reps.is_empty());
            prop_assert_eq!(pv, serde_json::from_str::<Value>(&doc).unwrap());
        }
    }

    #[test]
    fn any_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        if let Ok(r) = repair_bytes(&bytes, &no_budget()) {
            prop_assert!(parses(&r.output), "output {:?}", r.output);
        }
    }

    #[test]
    fn json_like_noise_never_panics(s in "[\\[\\]{}\",:'a-zA-Z0-9.\\\\ \n#/*_\u{a0}“”…-]{0,64}") {
        if let Ok(r) = repair(&s, &no_budget()) {
            prop_assert!(parses(&r.output), "{:?} gave {:?}", s, r.output);
            if parses(&s) {
                prop_assert_eq!(&r.output, &s);
            }
        }
    }

    #[test]
    fn truncation_at_any_char_boundary(v in arb_json(), pretty in any::<bool>()) {
        let doc = if pretty { serde_json::to_string_pretty(&v).unwrap() } else { serde_json::to_string(&v).unwrap() };
        for (cut, _) in doc.char_indices() {
            let prefix = &doc[..cut];
            if let Ok(r) = repair(prefix, &no_budget()) {
                prop_assert!(parses(&r.output), "{:?} gave {:?}", prefix, r.output);
                if parses(prefix) {
                    prop_assert_eq!(&r.output, prefix);
                }
            }
        }
    }

    #[test]
    fn truncated_objects_keep_their_complete_members(
        kv in prop::collection::vec(("[a-z]{1,6}", "[a-z ]{0,10}"), 1..6),
        cut_frac in 0.0f64..1.0,
    ) {
        let obj: serde_json::Map<String, Value> =
            kv.into_iter().map(|(k, v)| (k, Value::String(v))).collect();
        let doc = serde_json::to_string(&Value::Object(obj.clone())).unwrap();
        let cut = ((doc.len() - 1) as f64 * cut_frac) as usize;
        let prefix = &doc[..cut.max(1)];
        let r = repair(prefix, &no_budget()).unwrap();
        let got: serde_json::Map<String, Value> = serde_json::from_str(&r.output).unwrap();
        // Every member that survives is a member of the original, except that
        // the last string value may be cut short.
        for (k, v) in &got {
            let orig = obj.get(k).and_then(|o| o.as_str());
            prop_assert!(orig.is_some(), "invented key {}", k);
            let vs = v.as_str().unwrap_or("");
            prop_assert!(orig.unwrap_or("").starts_with(vs));
        }
    }
}

// ----- the CLI -------------------------------------------------------------------------

fn run(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let mut all = vec!["repair"];
    all.extend_from_slice(args);
    let r = common::run_binary(&all, Some(stdin), None);
    (r.code, r.out(), r.stderr)
}

#[test]
fn cli_valid_input_is_echoed_exactly() {
    let (code, out, err) = run(&[], b"  {\"a\": 1}  ");
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (0, "  {\"a\": 1}  ", "")
    );
}

#[test]
fn cli_repairs_and_exits_zero() {
    // a repaired document ends with a newline, as a text file does
    let (code, out, _) = run(&[], b"{\"a\": 1,}");
    assert_eq!((code, out.as_str()), (0, "{\"a\": 1}\n"));
}

#[test]
fn cli_hopeless_exits_one_with_a_diagnostic() {
    let (code, out, err) = run(&[], b"Sorry,\nno \x1b[31mJSON\x1b[0m");
    assert_eq!(code, 1);
    assert_eq!(out, "");
    assert!(
        err.starts_with("toolcall: -:") && err.contains(": error[TLP-003]: "),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
    assert!(!err.contains('\x1b'));
}

#[test]
fn cli_report_record_shape() {
    let (code, out, _) = run(&["--report"], b"{\"a\": 1,}");
    assert_eq!(code, 0);
    let rec: Value = serde_json::from_str(out.trim_end()).unwrap();
    assert_eq!(
        rec,
        serde_json::json!({"type": "repair", "ok": true, "changed": true, "output": "{\"a\": 1}",
            "repairs": [{"kind": "trailing_comma", "offset": 7}]})
    );
    let (code, out, err) = run(&["--report"], b"");
    assert_eq!((code, err.as_str()), (1, ""));
    let rec: Value = serde_json::from_str(out.trim_end()).unwrap();
    assert_eq!(rec["ok"], false);
    assert_eq!(rec["output"], Value::Null);
    assert_eq!(rec["error"]["code"], "TLP-003");
    for k in ["message", "offset", "line", "column"] {
        assert!(rec["error"].get(k).is_some(), "error.{k}");
    }
}

#[test]
fn cli_lines_gives_one_line_per_line() {
    let (code, out, err) = run(&["--lines"], b"{\"a\": 1}\n\n{'b': 2\n<html>\n[1,]\n");
    assert_eq!(code, 1);
    assert_eq!(out, "{\"a\": 1}\n\n{\"b\": 2}\n\n[1]\n");
    assert!(err.starts_with("toolcall: -:4:1: error[TLP-003]"), "{err}");
    let (code, out, _) = run(&["--lines", "--report"], b"{\"a\": 1}\n[1,]\n");
    assert_eq!(code, 0);
    let recs: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 2);
    assert_eq!(recs[0]["changed"], false);
    assert_eq!(recs[1]["output"], "[1]");
}

/// `repair` without `--report` writes each document's text by the core's
/// fast path for short documents: the same text (and the same refusals)
/// as the `--report` records, which the full repair writes.
#[test]
fn cli_text_equals_the_report_output() {
    let lines: &[&str] = &[
        "{\"city\": \"Paris\", \"days\": 3,}",
        "{city: 'Paris', days: 3",
        "{\"ok\": True, \"v\": None}",
        "{\"a\": 1 \"b\": 2}",
        "{\"q\": \"say \"hi\" now\"}",
        "{\"a\": {\"b\": [1, {\"c\": \"d",
        "{\"\u{e9}\": '\u{fc}'",
        "[1, 2, 3,]",
        "{\"a\": 1}",
        "Sorry, there is no JSON in this sentence at all.",
        "{\"a\": 1} and then some words",
    ];
    let input = lines.join("\n") + "\n";
    for prose in [&[][..], &["--text-as-string"][..]] {
        let text_args = [&["--lines"][..], prose].concat();
        let (code, out, err) = run(&text_args, input.as_bytes());
        let report_args = [&["--lines", "--report"][..], prose].concat();
        let (report_code, records, _) = run(&report_args, input.as_bytes());
        assert_eq!(code, report_code, "{err}");
        let texts: Vec<&str> = out.lines().collect();
        let records: Vec<Value> = records
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!((texts.len(), records.len()), (lines.len(), lines.len()));
        for ((line, text), rec) in lines.iter().zip(&texts).zip(&records) {
            let want = rec["output"].as_str().unwrap_or("");
            assert_eq!(*text, want, "{line:?} {prose:?}");
        }
    }
}

#[test]
fn cli_flags_limits_and_files() {
    let (code, _, err) = run(&["--max-depth", "2"], b"[[[1]]");
    assert_eq!(code, 1);
    assert!(err.contains("TLP-007"), "{err}");
    let (code, out, _) = run(&["--max-depth", "2"], b"[[[1]]]");
    assert_eq!((code, out.as_str()), (0, "[[[1]]]"));
    let (code, _, err) = run(&["--max-size", "4"], b"[1, 2,]");
    assert_eq!(code, 1);
    assert!(err.contains("TLP-007"), "{err}");
    let (code, _, err) = run(&["/nonexistent/file.json"], b"");
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/file.json"), "{err}");
    let (code, _, _) = run(&["--no-such-flag"], b"");
    assert_eq!(code, 2);
    let (code, out, _) = run(&["--help"], b"");
    assert_eq!(code, 0);
    assert!(out.contains("Examples:"));
}

#[test]
fn cli_invalid_utf8_is_repaired_not_fatal() {
    let (code, out, _) = run(&["--report"], b"{\"a\": \"\xff\",}");
    assert_eq!(code, 0);
    let rec: Value = serde_json::from_str(out.trim_end()).unwrap();
    assert_eq!(rec["repairs"][0]["kind"], "invalid_utf8");
}
