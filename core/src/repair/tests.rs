//! Unit tests of the repair engine: one per repair kind, with the exact
//! output and repairs list (see also tests/suite/repair.rs).

use super::RepairKind::*;
use super::*;

fn opts() -> RepairOptions {
    RepairOptions {
        timeout_ms: 0,
        ..RepairOptions::default()
    }
}

/// Repairs `input` and checks the exact output and repairs.
#[track_caller]
fn check(input: &str, output: &str, repairs: &[(RepairKind, usize)]) {
    super::lean_tests::agrees(input);
    let r = match repair(input, &opts()) {
        Ok(r) => r,
        Err(e) => panic!("repair({input:?}) failed: {e}"),
    };
    assert_eq!(r.output, output, "output for {input:?}");
    let got: Vec<(RepairKind, usize)> = r.repairs.iter().map(|r| (r.kind, r.offset)).collect();
    assert_eq!(got, repairs, "repairs for {input:?}");
    assert!(r.changed);
    assert!(is_valid_json(&r.output), "invalid output {:?}", r.output);
}

#[track_caller]
fn refuse(input: &str, code: &str) -> RepairError {
    super::lean_tests::agrees(input);
    match repair(input, &opts()) {
        Ok(r) => panic!("repair({input:?}) gave {:?}", r.output),
        Err(e) => {
            assert_eq!(e.code, code, "{e}");
            e
        }
    }
}

#[track_caller]
fn unchanged(input: &str) {
    super::lean_tests::agrees(input);
    let r = repair(input, &opts()).unwrap_or_else(|e| panic!("{input:?}: {e}"));
    assert_eq!(r.output, input);
    assert!(!r.changed);
    assert!(r.repairs.is_empty());
}

#[test]
fn trailing_comma() {
    check(r#"{"a": 1,}"#, r#"{"a": 1}"#, &[(TrailingComma, 7)]);
    check("[1, 2, ]", "[1, 2 ]", &[(TrailingComma, 5)]);
    check(
        r#"{"a": 1,, "b": 2}"#,
        r#"{"a": 1, "b": 2}"#,
        &[(TrailingComma, 8)],
    );
    check("[,1]", "[1]", &[(TrailingComma, 1)]);
    check("{,}", "{}", &[(TrailingComma, 1)]);
}

#[test]
fn missing_close() {
    check(
        r#"{"a": {"b": [1"#,
        r#"{"a": {"b": [1]}}"#,
        &[(MissingClose, 14)],
    );
    check(r#"{"a": [1, 2}"#, r#"{"a": [1, 2]}"#, &[(MissingClose, 11)]);
    check("[", "[]", &[(MissingClose, 1)]);
    check("{\"a\": 1\n", "{\"a\": 1\n}", &[(MissingClose, 8)]);
}

#[test]
fn truncated_string() {
    check(
        r#"["alpha", "gam"#,
        r#"["alpha", "gam"]"#,
        &[(TruncatedString, 14), (MissingClose, 14)],
    );
    // A partial escape at the very end is dropped.
    check(
        r#"{"a": "x\u00"#,
        r#"{"a": "x"}"#,
        &[(TruncatedString, 12), (MissingClose, 12)],
    );
    check(
        r#"{"a": "x\"#,
        r#"{"a": "x"}"#,
        &[(TruncatedString, 9), (MissingClose, 9)],
    );
}

#[test]
fn truncated_number() {
    check(
        r#"{"lat": 48."#,
        r#"{"lat": 48}"#,
        &[(TruncatedNumber, 8), (MissingClose, 11)],
    );
    check("[1e", "[1]", &[(TruncatedNumber, 1), (MissingClose, 3)]);
    check("[2, -", "[2]", &[(TruncatedNumber, 4), (MissingClose, 5)]);
    // A complete prefix is kept as written.
    check(
        r#"{"lat": 48.85"#,
        r#"{"lat": 48.85}"#,
        &[(MissingClose, 13)],
    );
}

#[test]
fn truncated_literal() {
    check(
        r#"{"stream": tru"#,
        r#"{"stream": true}"#,
        &[(TruncatedLiteral, 11), (MissingClose, 14)],
    );
    check("[f", "[false]", &[(TruncatedLiteral, 1), (MissingClose, 2)]);
    check("[nu", "[null]", &[(TruncatedLiteral, 1), (MissingClose, 3)]);
    check("[Tr", "[true]", &[(TruncatedLiteral, 1), (MissingClose, 3)]);
    // At the top level a bare word is prose, not a cut-off literal.
    refuse("No", CODE_HOPELESS);
}

#[test]
fn a_complete_key_without_value_gets_null_when_asked() {
    let opts = RepairOptions {
        null_for_missing_values: true,
        ..RepairOptions::default()
    };
    let fixed = |s: &str| repair(s, &opts).map(|r| r.output).unwrap_or_default();
    assert_eq!(fixed(r#"{"a":}"#), r#"{"a":null}"#);
    assert_eq!(fixed(r#"{"a":,"b":2}"#), r#"{"a":null,"b":2}"#);
    assert_eq!(fixed(r#"{"a", "b": 1}"#), r#"{"a":null, "b": 1}"#);
    assert_eq!(fixed(r#"{"a": 1, "b": "#), r#"{"a": 1, "b": null}"#);
    assert_eq!(fixed(r#"{"foo""#), r#"{"foo":null}"#);
    // a key the end cuts is still dropped: it may be half a word
    assert_eq!(fixed(r#"{"city": "Paris", "uni"#), r#"{"city": "Paris"}"#);
    let r = repair(r#"{"a":}"#, &opts).expect("repairs");
    assert_eq!(r.repairs[0].kind, RepairKind::MissingValue);
}

#[test]
fn unquoted_text_becomes_a_string_when_asked() {
    let opts = RepairOptions {
        unquoted_strings: true,
        ..RepairOptions::default()
    };
    let fixed = |s: &str| repair(s, &opts).map(|r| r.output).unwrap_or_default();
    assert_eq!(
        fixed("{message: hello world}"),
        r#"{"message": "hello world"}"#
    );
    assert_eq!(fixed("[https://x.org/a, 2]"), r#"["https://x.org/a", 2]"#);
    assert_eq!(fixed("She said: no way"), r#""She said: no way""#);
    assert_eq!(
        fixed(r#"{"key": value "key2": 1}"#),
        r#"{"key": "value", "key2": 1}"#
    );
    // prose before JSON is still prose, and without the option words fail
    assert_eq!(fixed(r#"Here it is: {"a": 1}"#), r#"{"a": 1}"#);
    assert!(repair("{message: hello world}", &RepairOptions::default()).is_err());
}

#[test]
fn dropped_partial_key() {
    check(
        r#"{"city": "Paris", "uni"#,
        r#"{"city": "Paris"}"#,
        &[(DroppedPartialKey, 18), (MissingClose, 22)],
    );
    check(
        r#"{"a": 1, "b":"#,
        r#"{"a": 1}"#,
        &[(DroppedPartialKey, 9), (MissingClose, 13)],
    );
    check(
        r#"{"a": 1, "b""#,
        r#"{"a": 1}"#,
        &[(DroppedPartialKey, 9), (MissingClose, 12)],
    );
    check(
        r#"{"a": 1, "b": }"#,
        r#"{"a": 1}"#,
        &[(DroppedPartialKey, 9)],
    );
    check(
        r#"{"b": "#,
        "{}",
        &[(DroppedPartialKey, 1), (MissingClose, 6)],
    );
    check(
        r#"{"a": {"b": 1, "c"#,
        r#"{"a": {"b": 1}}"#,
        &[(DroppedPartialKey, 15), (MissingClose, 17)],
    );
    check(
        r#"{"a": , "c": 2}"#,
        r#"{ "c": 2}"#,
        &[(DroppedPartialKey, 1), (TrailingComma, 6)],
    );
}

#[test]
fn unescaped_quote() {
    check(
        r#"{"text": "He said "hello" to me"}"#,
        r#"{"text": "He said \"hello\" to me"}"#,
        &[(UnescapedQuote, 18)],
    );
    check(
        r#"{"q": "the "best" option", "limit": 2}"#,
        r#"{"q": "the \"best\" option", "limit": 2}"#,
        &[(UnescapedQuote, 11)],
    );
    // A comma after a quote ends the string only if a key follows.
    check(
        r#"{"t": "say "hi", then go"}"#,
        r#"{"t": "say \"hi\", then go"}"#,
        &[(UnescapedQuote, 11)],
    );
}

#[test]
fn control_character() {
    check(
        "{\"a\": \"x\ny\tz\"}",
        "{\"a\": \"x\\ny\\tz\"}",
        &[(ControlCharacter, 8)],
    );
    check("[\"\u{7}\"]", "[\"\\u0007\"]", &[(ControlCharacter, 2)]);
}

#[test]
fn unquoted_key() {
    check(
        r#"{city: "Paris"}"#,
        r#"{"city": "Paris"}"#,
        &[(UnquotedKey, 1)],
    );
    check(
        r##"{$ref: "#/a", _id: 7}"##,
        r##"{"$ref": "#/a", "_id": 7}"##,
        &[(UnquotedKey, 1), (UnquotedKey, 14)],
    );
    check("{ünï: 1}", "{\"ünï\": 1}", &[(UnquotedKey, 1)]);
}

#[test]
fn single_quotes() {
    check(
        "{'city': 'Paris'}",
        r#"{"city": "Paris"}"#,
        &[(SingleQuotes, 1), (SingleQuotes, 9)],
    );
    check(
        r"{'msg': 'it\'s fine'}",
        r#"{"msg": "it's fine"}"#,
        &[(SingleQuotes, 1), (SingleQuotes, 8)],
    );
    check(r#"['say "hi"']"#, r#"["say \"hi\""]"#, &[(SingleQuotes, 1)]);
    check(
        "['it's']",
        r#"["it's"]"#,
        &[(SingleQuotes, 1), (UnescapedQuote, 4)],
    );
}

#[test]
fn typographic_quotes() {
    check(
        "{“city”: “Paris”}",
        r#"{"city": "Paris"}"#,
        &[(TypographicQuotes, 1), (TypographicQuotes, 13)],
    );
    check("[‘x’]", r#"["x"]"#, &[(TypographicQuotes, 1)]);
    // An apostrophe inside is content.
    check("[‘it’s’]", r#"["it’s"]"#, &[(TypographicQuotes, 1)]);
}

#[test]
fn python_literal() {
    check(
        r#"{"a": True, "b": False, "c": None}"#,
        r#"{"a": true, "b": false, "c": null}"#,
        &[(PythonLiteral, 6), (PythonLiteral, 17), (PythonLiteral, 29)],
    );
    check(
        r#"{"v": True, "l": "True"}"#,
        r#"{"v": true, "l": "True"}"#,
        &[(PythonLiteral, 6)],
    );
}

#[test]
fn literal_glued_to_a_word_character_is_a_word() {
    // `$` continues a bare word (`foo$`), so `false$` is not `false`
    let opts = RepairOptions {
        unquoted_strings: true,
        ..opts()
    };
    let fixed = |s: &str| repair(s, &opts).map(|r| r.output).unwrap_or_default();
    assert_eq!(fixed("false$"), r#""false$""#);
    assert_eq!(fixed("[null$]"), r#"["null$"]"#);
    assert_eq!(fixed(r#"{"a": true$}"#), r#"{"a": "true$"}"#);
    // the plain literals are untouched
    assert_eq!(fixed("[false, null]"), "[false, null]");
    // without unquoted strings the glued word is refused, not cut to `false`
    refuse("[false$]", CODE_HOPELESS);
}

#[test]
fn array_going_on_after_early_close_drops_a_cut_element_with_its_comma() {
    let fixed = |s: &str| repair(s, &opts()).map(|r| r.output).unwrap_or_default();
    assert_eq!(fixed(r#"{"a": [1],[ ""#), r#"{"a": [1]}"#);
    assert_eq!(fixed(r#"{"a": [1], [ ""#), r#"{"a": [1]}"#);
    assert_eq!(fixed(r#"{"a": [1],[2, ""#), r#"{"a": [1,2]}"#);
    // a member written after the array: the `[` does not reopen it
    let o = RepairOptions {
        null_for_missing_values: true,
        unquoted_strings: true,
        ..opts()
    };
    let out = repair(r#"{"a": [1], "e":,[ null, "f": true}"#, &o).map(|r| r.output);
    assert!(out.as_ref().map_or(true, |s| is_valid_json(s)), "{out:?}");
    assert!(!out.unwrap_or_default().contains("[1, \"e\""));
}

#[test]
fn non_json_literal() {
    check(
        "[NaN, Infinity, undefined]",
        "[null, null, null]",
        &[
            (NonJsonLiteral, 1),
            (NonJsonLiteral, 6),
            (NonJsonLiteral, 16),
        ],
    );
}

#[test]
fn comment() {
    check("// args\n{\"a\": 1}", "\n{\"a\": 1}", &[(Comment, 0)]);
    check(
        "{\n  # py\n  \"a\": 1\n}",
        "{\n  \n  \"a\": 1\n}",
        &[(Comment, 4)],
    );
    check("{\"a\": /* one */ 1}", "{\"a\":  1}", &[(Comment, 6)]);
    check("[1] // done", "[1] ", &[(Comment, 4)]);
    // Inside strings nothing is a comment.
    check(
        r#"{"u": "http://x#y", }"#,
        r#"{"u": "http://x#y" }"#,
        &[(TrailingComma, 18)],
    );
}

#[test]
fn byte_order_mark() {
    check("\u{feff}{\"a\": 1}", "{\"a\": 1}", &[(ByteOrderMark, 0)]);
}

#[test]
fn code_fence() {
    check(
        "```json\n{\"a\": 1}\n```",
        "{\"a\": 1}",
        &[(CodeFence, 0), (CodeFence, 17)],
    );
    check(
        "```\n[1,]\n```\n",
        "[1]",
        &[(CodeFence, 0), (TrailingComma, 6), (CodeFence, 9)],
    );
    // An unclosed fence: the end of input ends it.
    check("```json\n{\"a\": 1}", "{\"a\": 1}", &[(CodeFence, 0)]);
    refuse("```json\n```", CODE_HOPELESS);
}

#[test]
fn surrounding_prose() {
    check(
        "Here is the JSON:\n{\"a\": 1}",
        "{\"a\": 1}",
        &[(SurroundingProse, 0)],
    );
    check(
        "Arguments:\n```json\n{\"a\": 1}\n```\nDone.",
        "{\"a\": 1}",
        &[
            (SurroundingProse, 0),
            (CodeFence, 11),
            (CodeFence, 28),
            (SurroundingProse, 32),
        ],
    );
    check(
        "{\"a\": 1}\nHope this helps!",
        "{\"a\": 1}",
        &[(SurroundingProse, 9)],
    );
    // A brace in the prose that is not JSON is skipped.
    check(
        "Use {name} here: {\"a\": 1}",
        "{\"a\": 1}",
        &[(SurroundingProse, 0)],
    );
    check(
        "<tool_call>{\"x\": 1}</tool_call>",
        "{\"x\": 1}",
        &[(SurroundingProse, 0), (SurroundingProse, 19)],
    );
}

#[test]
fn missing_comma() {
    check(
        r#"{"a": 1 "b": 2}"#,
        r#"{"a": 1, "b": 2}"#,
        &[(MissingComma, 7)],
    );
    check(
        "[1 2 3]",
        "[1, 2, 3]",
        &[(MissingComma, 2), (MissingComma, 4)],
    );
    check(
        "{\"a\": \"x\"\n\"b\": 2}",
        "{\"a\": \"x\",\n\"b\": 2}",
        &[(MissingComma, 9)],
    );
    check(
        r#"[{"a": 1} {"b": 2}]"#,
        r#"[{"a": 1}, {"b": 2}]"#,
        &[(MissingComma, 9)],
    );
}

#[test]
fn missing_colon() {
    check(r#"{"a" 1}"#, r#"{"a" :1}"#, &[(MissingColon, 5)]);
}

#[test]
fn concatenated_values() {
    check(
        r#"{"a": 1}{"b": 2}"#,
        r#"[{"a": 1},{"b": 2}]"#,
        &[(ConcatenatedValues, 8)],
    );
    check("[1, 2][3]", "[[1, 2],[3]]", &[(ConcatenatedValues, 6)]);
    check(
        "{\"a\": 1}\n{\"b\": 2}\n",
        "[{\"a\": 1},\n{\"b\": 2}]\n",
        &[(ConcatenatedValues, 9)],
    );
    check(
        r#"{"a": 1}, {"b": 2}"#,
        r#"[{"a": 1}, {"b": 2}]"#,
        &[(ConcatenatedValues, 10)],
    );
}

#[test]
fn extra_close() {
    check(r#"{"a": 1}}"#, r#"{"a": 1}"#, &[(ExtraClose, 8)]);
    check(r#"{"a": [1]]}"#, r#"{"a": [1]}"#, &[(ExtraClose, 9)]);
}

#[test]
fn ellipsis() {
    check(
        r#"{"ids": [1, 2, ...]}"#,
        r#"{"ids": [1, 2 ]}"#,
        &[(Ellipsis, 15)],
    );
    check("[..., 3]", "[ 3]", &[(Ellipsis, 1)]);
    check("[1, …]", "[1 ]", &[(Ellipsis, 4)]);
    check(r#"{"a": 1, ...}"#, r#"{"a": 1 }"#, &[(Ellipsis, 9)]);
}

#[test]
fn double_encoded() {
    // Valid JSON (a string) is never changed.
    unchanged(r#""{\"city\": \"Paris\"}""#);
    check(
        r#""{\"city\": \"Par"#,
        r#"{"city": "Par"}"#,
        &[
            (DoubleEncoded, 0),
            (TruncatedString, 17),
            (MissingClose, 17),
        ],
    );
    check(
        r#""{\"a\": 1,}"#,
        r#"{"a": 1}"#,
        &[(DoubleEncoded, 0), (TrailingComma, 10)],
    );
    unchanged(r#""{\"a\": 1,}""#);
}

#[test]
fn non_ascii_whitespace() {
    check(
        "{\"nbsp\":\u{a0}\"x\"}",
        "{\"nbsp\": \"x\"}",
        &[(NonAsciiWhitespace, 8)],
    );
    check("[1,\u{200b}2]", "[1,2]", &[(NonAsciiWhitespace, 3)]);
    check("[1,\u{3000}2]", "[1, 2]", &[(NonAsciiWhitespace, 3)]);
}

#[test]
fn invalid_escape() {
    check(
        r#"{"p": "C:\Users"}"#,
        r#"{"p": "C:\\Users"}"#,
        &[(InvalidEscape, 9)],
    );
    check(r#"["it\'s"]"#, r#"["it's"]"#, &[(InvalidEscape, 4)]);
    check(r#"["\u12zz"]"#, r#"["\\u12zz"]"#, &[(InvalidEscape, 2)]);
}

#[test]
fn invalid_number() {
    check(
        r#"{"a": 01, "b": .5, "c": +3, "d": 1.}"#,
        r#"{"a": 1, "b": 0.5, "c": 3, "d": 1}"#,
        &[
            (InvalidNumber, 6),
            (InvalidNumber, 15),
            (InvalidNumber, 24),
            (InvalidNumber, 33),
        ],
    );
    check("[-.5]", "[-0.5]", &[(InvalidNumber, 1)]);
}

#[test]
fn invalid_utf8() {
    let r = repair_bytes(b"{\"a\": \"\xff\"}", &opts()).unwrap();
    assert_eq!(r.output, "{\"a\": \"\u{fffd}\"}");
    assert!(r.changed);
    assert_eq!(
        r.repairs,
        vec![Repair {
            kind: InvalidUtf8,
            offset: 7
        }]
    );
}

#[test]
fn every_kind_has_a_distinct_snake_case_name() {
    let mut names = std::collections::HashSet::new();
    for k in RepairKind::ALL {
        let json = serde_json::to_string(&k).unwrap();
        assert_eq!(json, format!("\"{}\"", k.name()));
        assert!(names.insert(k.name()));
    }
}

#[test]
fn valid_documents_are_untouched() {
    for doc in [
        r#"{"city": "Paris"}"#,
        "  {\"padded\": true}  \n",
        r#"{"big": 123456789012345678901234567890, "f": 1.50e+10, "n": -0}"#,
        r#"{"esc": "caf\u00e9 \ud83d\ude00 \u2028", "raw": "😀"}"#,
        r#"{"z": 1, "a": 2}"#,
        r#"{"s": "{\"a\": 1,}"}"#,
        "[]",
        "\"just a string\"",
        "42",
        "null",
        r#"{"u": "a//b#c /* d */"}"#,
    ] {
        unchanged(doc);
    }
}

#[test]
fn valid_but_deeper_than_the_limit_passes_through() {
    let deep = format!("{}1{}", "[".repeat(500), "]".repeat(500));
    unchanged(&deep);
    let sixty_four = format!("{}1{}", "[".repeat(64), "]".repeat(64));
    unchanged(&sixty_four);
}

#[test]
fn deeper_than_the_limit_and_broken_is_a_budget_error() {
    let e = refuse(&"[".repeat(65), CODE_BUDGET);
    assert_eq!(e.offset, 64);
    let ok = repair(&"[".repeat(64), &opts()).unwrap();
    assert_eq!(ok.output, format!("{}{}", "[".repeat(64), "]".repeat(64)));
}

#[test]
fn hopeless_inputs() {
    let e = refuse("", CODE_HOPELESS);
    assert_eq!((e.line, e.column), (1, 1));
    refuse("   \n ", CODE_HOPELESS);
    refuse("<html><body>502 Bad Gateway</body></html>", CODE_HOPELESS);
    refuse("Sorry, I can't help with that.", CODE_HOPELESS);
    refuse("// only a comment", CODE_HOPELESS);
    let e = refuse("{\"a\": 1,\n \"b\": @}", CODE_HOPELESS);
    assert_eq!((e.offset, e.line, e.column), (15, 2, 7));
}

#[test]
fn size_limit_applies_to_repair_only() {
    let small = RepairOptions {
        max_input_bytes: 10,
        ..opts()
    };
    let valid = r#"{"long": "aaaaaaaaaaaaaaaaaaaa"}"#;
    assert_eq!(repair(valid, &small).unwrap().output, valid);
    let e = repair(r#"{"long": "aaaaaaaaaaaaaaaaaaaa""#, &small).unwrap_err();
    assert_eq!(e.code, CODE_BUDGET);
}

#[test]
fn parse_value_fast_and_repaired() {
    let (v, r) = parse_value(r#"{"n": 123456789012345678901234567890}"#, &opts()).unwrap();
    assert!(r.is_empty());
    assert_eq!(v["n"].to_string(), "123456789012345678901234567890");
    let (v, r) = parse_value("{'a': [1, 2,", &opts()).unwrap();
    assert_eq!(v, serde_json::json!({"a": [1, 2]}));
    assert_eq!(r.len(), 3);
    assert!(parse_value("nothing here", &opts()).is_err());
}

#[test]
fn error_display() {
    let e = refuse("", CODE_HOPELESS);
    assert_eq!(e.to_string(), "1:1: error[TLP-003]: empty input");
}

mod properties {
    use super::super::top::repair_document;
    use super::*;
    use proptest::prelude::*;

    /// The tolerant pass alone (without the final check in `repair`) must
    /// produce valid JSON whenever it succeeds: the check is a safety net,
    /// not the mechanism.
    fn unchecked_output_parses(s: &str) -> Result<(), TestCaseError> {
        // the parse-argument options, then the repair subcommand's
        let subcommand = RepairOptions {
            null_for_missing_values: true,
            unquoted_strings: true,
            ..opts()
        };
        for o in [opts(), subcommand] {
            if let Ok(f) = repair_document(s, &o, true) {
                if f.edits_empty {
                    prop_assert!(is_valid_json(s), "{:?}", s);
                } else {
                    prop_assert!(is_valid_json(&f.output), "{:?} gave {:?}", s, f.output);
                }
            }
        }
        Ok(())
    }

    /// Found by `json_like_noise`: a key filled with `null` and then a
    /// member cut inside its quote must keep the filled member.
    #[test]
    fn filled_member_then_cut_key() {
        unchecked_output_parses("{‘‘,…'").unwrap();
        unchecked_output_parses("{'': ,…'").unwrap();
    }

    /// Found by `mutated_json`: a member dropped for its missing value
    /// takes its key's fixed quote with it (`['{"k": 'v':` gave `[{"}]`).
    #[test]
    fn dropped_member_takes_its_fixed_quote() {
        unchecked_output_parses("['{\"k\": 'v':").unwrap();
    }

    /// Found by `mutated_json`: an array continued after `],` (`[1], [2]`
    /// is one array) whose continuation never came keeps no trailing comma.
    #[test]
    fn continued_array_cut_after_its_comma() {
        unchecked_output_parses("{\"a\": [1, 2.5, {\"b\": \"c\\\"d\"}],[").unwrap();
        unchecked_output_parses("{\"k\": [1], [").unwrap();
    }

    /// Found by `mutated_json`: unquoted text in an array stops at a `}`
    /// that closes the object around the array (the repair subcommand
    /// refused `[{"k": ["v", x: 1}]`).
    #[test]
    fn unquoted_text_stops_at_the_outer_closer() {
        unchecked_output_parses("[{\"k\": [\"v\", x: 1}]").unwrap();
        unchecked_output_parses("[{\"k\": [ 'v', x: -1e5}], \"\"s\\\\t\", [], {}]").unwrap();
    }

    /// Found by `json_like_noise`: the `[` around several values goes
    /// before a fix inserted at the same offset (`.5` → `0.5`).
    #[test]
    fn wrap_opens_before_a_fix_at_the_same_offset() {
        unchecked_output_parses(".,“").unwrap();
        unchecked_output_parses(".5,1").unwrap();
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

        #[test]
        fn json_like_noise(s in "[\\[\\]{}\",:'a-zA-Z0-9.\\\\ \n#/*_\u{a0}\u{7}“”‘’…+-]{0,48}") {
            unchecked_output_parses(&s)?;
        }

        #[test]
        fn mutated_json(
            base in prop::sample::select(vec![
                r#"{"a": [1, 2.5, {"b": "c\"d"}], "e": null, "f": true}"#,
                r#"[{"k": 'v', x: -1e5}, "s\\t", [], {}]"#,
                "```json\n{\"a\": \"x\ny\"}\n```",
                r#""{\"q\": [1, \"z\"]}""#,
            ]),
            ops in prop::collection::vec((any::<prop::sample::Index>(), 0u8..4, prop::sample::select(vec![
                "\"", "'", ",", "}", "]", "{", "[", ":", "\\", "...", "//", "#", "\n", "True", "“", "-", "."
            ])), 1..5),
        ) {
            let mut s = base.to_owned();
            for (idx, op, frag) in ops {
                let mut at = idx.index(s.len() + 1);
                while !s.is_char_boundary(at) {
                    at -= 1;
                }
                match op {
                    0 => s.insert_str(at, frag),
                    1 => {
                        let mut end = (at + 1).min(s.len());
                        while !s.is_char_boundary(end) {
                            end += 1;
                        }
                        s.replace_range(at..end, "");
                    }
                    2 => s.truncate(at),
                    _ => s.replace_range(at..at, frag),
                }
            }
            unchecked_output_parses(&s)?;
        }
    }
}

/// Cases the property tests once found (kept as plain regressions).
#[test]
fn found_by_properties() {
    // An element cut to a lone sign after an inserted comma.
    check(
        "0[0-",
        "[0]",
        &[
            (SurroundingProse, 0),
            (TruncatedNumber, 3),
            (MissingClose, 4),
        ],
    );
    // A dropped member that covers an earlier ellipsis and comma removal.
    let r = repair(r#""{\"q\": 1,... \"\"]}""#, &opts()).unwrap();
    assert_eq!(
        r.output, r#""{\"q\": 1,... \"\"]}""#,
        "valid JSON string stays"
    );
    let r = repair(r#"{"q": 1,... ""]}"#, &opts()).unwrap();
    assert_eq!(r.output, r#"{"q": 1}"#);
    // A string that lost its quote before `,` + newline + key: the newline
    // is no longer string content, so its escape goes too.
    let r = repair("{\"a\": [1, {\"b\": \"c\\\"d}],\n \"e\": null}", &opts()).unwrap();
    assert_eq!(
        r.output,
        "{\"a\": [1, {\"b\": \"c\\\"d}]\",\n \"e\": null}]}"
    );
}

#[test]
fn unclosed_string_before_the_next_key() {
    use RepairKind::*;
    check(
        r#"{"a": "hello, "b": 2}"#,
        r#"{"a": "hello", "b": 2}"#,
        &[(UnclosedString, 12)],
    );
    check(
        r#"{'a': 'hello, 'b': 2}"#,
        r#"{"a": "hello", "b": 2}"#,
        &[
            (SingleQuotes, 1),
            (SingleQuotes, 6),
            (UnclosedString, 12),
            (SingleQuotes, 14),
        ],
    );
    // a comma inside a string followed by a quote that opens no key stays
    check(
        r#"{"a": "One, "two", three"}"#,
        r#"{"a": "One, \"two\", three"}"#,
        &[(UnescapedQuote, 12)],
    );
}

#[test]
fn unclosed_string_before_the_closers_at_the_end() {
    use RepairKind::*;
    check(
        r#"{"a": "x", "b": "unterminated}"#,
        r#"{"a": "x", "b": "unterminated"}"#,
        &[(UnclosedString, 29)],
    );
    check("{\"a\": \"x}\n", "{\"a\": \"x\"}\n", &[(UnclosedString, 8)]);
    check(r#"["a", "b]"#, r#"["a", "b"]"#, &[(UnclosedString, 8)]);
    check(
        r#"{"a": ["x", "y]}"#,
        r#"{"a": ["x", "y"]}"#,
        &[(UnclosedString, 14)],
    );
    // the wrong closer for the string's container: content cut off
    check(
        r#"{"a": "y]"#,
        r#"{"a": "y]"}"#,
        &[(TruncatedString, 9), (MissingClose, 9)],
    );
}

#[test]
fn quote_before_a_quote_that_opens_no_key_is_content() {
    use RepairKind::*;
    check(
        r#"{"a": "say "yes" or "no""}"#,
        r#"{"a": "say \"yes\" or \"no\""}"#,
        &[(UnescapedQuote, 11)],
    );
    // a quote that does open a key: the comma was missing
    check(
        r#"{"a": "x" "b": 1}"#,
        r#"{"a": "x", "b": 1}"#,
        &[(MissingComma, 9)],
    );
}

#[test]
fn other_capitalisations_and_signed_infinity() {
    use RepairKind::*;
    check(
        r#"{"a": TRUE, "b": Null, "c": FALSE, "d": NONE}"#,
        r#"{"a": true, "b": null, "c": false, "d": null}"#,
        &[
            (PythonLiteral, 6),
            (PythonLiteral, 17),
            (PythonLiteral, 28),
            (PythonLiteral, 40),
        ],
    );
    check(
        r#"[-Infinity, +Infinity, -NaN]"#,
        r#"[null, null, null]"#,
        &[
            (NonJsonLiteral, 1),
            (NonJsonLiteral, 12),
            (NonJsonLiteral, 23),
        ],
    );
}

/// The options of the `repair` subcommand.
fn cli_opts() -> RepairOptions {
    RepairOptions {
        timeout_ms: 0,
        null_for_missing_values: true,
        unquoted_strings: true,
        ..RepairOptions::default()
    }
}

/// Repairs `input` as the `repair` subcommand does and checks the output
/// and the kinds reported (in offset order).
#[track_caller]
fn check_cli(input: &str, output: &str, kinds: &[RepairKind]) {
    let r = match repair(input, &cli_opts()) {
        Ok(r) => r,
        Err(e) => panic!("repair({input:?}) failed: {e}"),
    };
    assert_eq!(r.output, output, "output for {input:?}");
    let got: Vec<RepairKind> = r.repairs.iter().map(|r| r.kind).collect();
    assert_eq!(got, kinds, "repairs for {input:?}");
    assert!(is_valid_json(&r.output), "invalid output {:?}", r.output);
}

#[test]
fn number_as_string() {
    check_cli("[0789]", r#"["0789"]"#, &[NumberAsString]);
    check_cli(
        "{\"v\": 1.1.1, \"d\": 2024-10-18T10:00Z}",
        r#"{"v": "1.1.1", "d": "2024-10-18T10:00Z"}"#,
        &[NumberAsString, NumberAsString],
    );
    check_cli(
        "[1, 2notanumber]",
        r#"[1, "2notanumber"]"#,
        &[NumberAsString],
    );
    // inside parse the leading zero is dropped as before
    check("[05]", "[5]", &[(InvalidNumber, 1)]);
    check_cli(
        "{\"n\": 82_461_110}",
        r#"{"n": 82461110}"#,
        &[InvalidNumber],
    );
    check_cli("[-]", "[-0]", &[TruncatedNumber]);
}

#[test]
fn missing_open_quote() {
    check_cli(r#"{a":"foo"}"#, r#"{"a":"foo"}"#, &[MissingOpenQuote]);
    check_cli(
        r#"[a",b"]"#,
        r#"["a","b"]"#,
        &[MissingOpenQuote, MissingOpenQuote],
    );
    check_cli("abc\"", r#""abc""#, &[MissingOpenQuote]);
}

#[test]
fn strings_end_before_the_next_element() {
    check_cli(r#"["a" 2]"#, r#"["a", 2]"#, &[MissingComma]);
    check_cli(
        r#"["lorem "ipsum" dolor", "x"]"#,
        r#"["lorem \"ipsum\" dolor", "x"]"#,
        &[UnescapedQuote],
    );
    check_cli(r#"["a,"b"]"#, r#"["a","b"]"#, &[UnclosedString]);
}

#[test]
fn wrappers() {
    check_cli(
        "callback_1({\"a\": 1});",
        r#"{"a": 1}"#,
        &[FunctionWrapper, TrailingComma],
    );
    check_cli(
        r#"{"_id": ObjectId("12")}"#,
        r#"{"_id": "12"}"#,
        &[FunctionWrapper],
    );
    check("(1, 2)", "[1, 2]", &[(Tuple, 0)]);
    check("(\"x\")", "\"x\"", &[(Tuple, 0)]);
    check(r#""a" + "b""#, r#""ab""#, &[(StringConcatenation, 4)]);
    check_cli(
        "{r: /a+b/i}",
        r#"{"r": "/a+b/i"}"#,
        &[UnquotedKey, RegexLiteral],
    );
    check(r#"{\"a\": 1}"#, r#"{"a": 1}"#, &[(EscapedDocument, 1)]);
}

#[test]
fn several_values_become_an_array() {
    check("1\n2", "[1,\n2]", &[(ConcatenatedValues, 2)]);
    check("1, 2", "[1, 2]", &[(ConcatenatedValues, 3)]);
    check("4,", "4", &[(TrailingComma, 1)]);
}

#[test]
fn python_sets_and_keys_in_arrays() {
    check_cli(
        "{'a', 'b'}",
        r#"["a", "b"]"#,
        &[PythonSet, SingleQuotes, SingleQuotes],
    );
    check(
        r#"["k": 1]"#,
        r#"[{"k": 1}]"#,
        &[(MissingOpen, 1), (MissingClose, 7)],
    );
    check(r#"{"k": [1], [2]}"#, r#"{"k": [1, 2]}"#, &[(ExtraClose, 8)]);
    check(
        r#"[{"i":1{"i":2}]"#,
        r#"[{"i":1},{"i":2}]"#,
        &[(MissingClose, 7)],
    );
}

#[test]
fn doubled_quotes() {
    check(
        r#"{""a"": ""b"}"#,
        r#"{"a": "b"}"#,
        &[(DoubledQuote, 2), (DoubledQuote, 9)],
    );
}

#[test]
fn empty_values_next_to_the_one_with_content_are_dropped() {
    check(r#"[]{"a": 1}"#, r#"{"a": 1}"#, &[(ConcatenatedValues, 2)]);
    check(
        r#"{"a": 1}, {}"#,
        r#"{"a": 1}"#,
        &[(ConcatenatedValues, 10)],
    );
    check("[]{}", "[]", &[(ConcatenatedValues, 2)]);
    // two values with content stay an array, their empty neighbours too
    check(
        r#"{"a": 1}{}{"b": 2}"#,
        r#"[{"a": 1},{},{"b": 2}]"#,
        &[(ConcatenatedValues, 8)],
    );
}

#[test]
fn a_quote_with_nothing_after_it_begins_no_value() {
    check("[1, \"", "[1]", &[(TruncatedString, 4), (MissingClose, 5)]);
    check("[\"", "[]", &[(TruncatedString, 1), (MissingClose, 2)]);
    refuse("\"", CODE_HOPELESS);
    // an object member keeps its key with the empty string
    check(
        r#"{"a": ""#,
        r#"{"a": ""}"#,
        &[(TruncatedString, 7), (MissingClose, 7)],
    );
}

#[test]
fn a_hash_note_on_the_last_line_stops_at_a_closer() {
    check(
        r#"{"a": {"b": 1 # note }, "c": 2}"#,
        r#"{"a": {"b": 1 }, "c": 2}"#,
        &[(Comment, 14)],
    );
    // a `//` comment runs to the line end
    check(
        r#"{"a": 1 // note }"#,
        r#"{"a": 1 }"#,
        &[(Comment, 8), (MissingClose, 17)],
    );
    // with a line break after it, a `#` comment ends at the line end too
    check("{\"a\": 1 # note }\n}", "{\"a\": 1 \n}", &[(Comment, 8)]);
}

#[test]
fn stray_text() {
    check_cli(
        r#"{"a": 1, COMMENT "b": 2}"#,
        r#"{"a": 1, "b": 2}"#,
        &[StrayText],
    );
    check_cli(
        r#"{"a": "x", note "b": "y"}"#,
        r#"{"a": "x", "b": "y"}"#,
        &[StrayText],
    );
    check_cli(r#"{"b": "x" note}"#, r#"{"b": "x"}"#, &[StrayText]);
    check_cli(r#"{"b": 1 two}"#, r#"{"b": 1}"#, &[StrayText]);
    check_cli(
        r#"{"n": 12345", "m": 1}"#,
        r#"{"n": 12345, "m": 1}"#,
        &[StrayText],
    );
    // an inner quotation that is still open keeps the words
    check_cli(
        r#"{"t": "the "best" thing}"#,
        r#"{"t": "the \"best\" thing"}"#,
        &[UnescapedQuote, UnclosedString],
    );
}

#[test]
fn a_key_that_lost_its_quote_before_the_colon() {
    check(
        r#"{"key:"value"}"#,
        r#"{"key":"value"}"#,
        &[(UnclosedString, 5)],
    );
    check_cli(
        r#"{"key:value}"#,
        r#"{"key":"value"}"#,
        &[UnclosedString, UnquotedString],
    );
    check(
        r#"{"key:1"#,
        r#"{"key":1}"#,
        &[(UnclosedString, 5), (MissingClose, 7)],
    );
    // inside parse, a word after the colon is no value: the key is dropped
    check(
        r#"{"key:value"#,
        "{}",
        &[(DroppedPartialKey, 1), (MissingClose, 11)],
    );
    check(
        "{\"key\n\t\": 1}",
        r#"{"key": 1}"#,
        &[(ControlCharacter, 5)],
    );
}

#[test]
fn unquoted_value_runs_past_commas_to_its_closing_quote() {
    check_cli(
        r#"{"a": x, y, z",}"#,
        r#"{"a": "x, y, z"}"#,
        &[MissingOpenQuote, TrailingComma],
    );
    check_cli(
        r#"{"a": x, y "b": 2}"#,
        r#"{"a": "x", "b": 2}"#,
        &[UnquotedString, StrayText],
    );
    check_cli(
        r#"{"a": x, b: 2}"#,
        r#"{"a": "x", "b": 2}"#,
        &[UnquotedString, UnquotedKey],
    );
    // in an array the comma separates elements
    check_cli(
        r#"[x, y"]"#,
        r#"["x", "y"]"#,
        &[UnquotedString, MissingOpenQuote],
    );
}

#[test]
fn a_string_that_is_a_code_fence_around_json_is_that_json() {
    check(
        r#"{"a": "```json {"b": [1, 2]}```"}"#,
        r#"{"a": {"b": [1, 2]}}"#,
        &[(CodeFence, 7)],
    );
    check(
        r#"{"a": "```json {"b": 1```", "c": "```x"}"#,
        r#"{"a": {"b": 1}, "c": "```x"}"#,
        &[(CodeFence, 7), (MissingClose, 22)],
    );
    // no closing fence, or no JSON inside: the string stays
    check(
        r#"{"r": "```json{}""#,
        r#"{"r": "```json{}"}"#,
        &[(MissingClose, 17)],
    );
    check(
        r#"["```json nope```", 1"#,
        r#"["```json nope```", 1]"#,
        &[(MissingClose, 21)],
    );
}
