//! The fast path (`lean.rs`) against the full repair: wherever the fast
//! path answers, its answer is the full repair's, byte for byte. Every
//! input of the repair unit tests goes through [`agrees`] too (`tests.rs`
//! calls it from its helpers), and so does every line and file of the
//! fixtures; generated inputs come from two properties.

use super::lean::{lean, Lean};
use super::{repair_document_str, repair_document_text, Prose, RepairOptions};
use proptest::prelude::*;

/// The option sets the fast path is compared under: the bindings' (no
/// limits), the defaults, and a shallow depth limit.
fn option_sets() -> [RepairOptions; 3] {
    [
        RepairOptions::unbounded(),
        RepairOptions {
            timeout_ms: 0,
            ..RepairOptions::default()
        },
        RepairOptions {
            max_depth: 2,
            timeout_ms: 0,
            ..RepairOptions::default()
        },
    ]
}

/// Whether the fast path agrees with the full repair on `input` (under
/// every option set and both prose readings); `Err` says how not.
pub(super) fn agreement(input: &str) -> Result<(), String> {
    for opts in option_sets() {
        for prose in [Prose::Refuse, Prose::AsString] {
            let full = repair_document_str(input, &opts, prose).map(|r| r.map(|r| r.output));
            let text = repair_document_text(input, &opts, prose);
            match (&full, &text) {
                (Ok(a), Ok(b)) if a == b => {}
                (Err(a), Err(b)) if a == b => {}
                _ => return Err(format!("{input:?}: full {full:?}, text entry {text:?}")),
            }
            match (lean(input, &opts), &full) {
                (Lean::Bail, _) | (Lean::Valid, Ok(None)) => {}
                (Lean::Fixed(s), Ok(Some(f))) if &s == f => {}
                (l, _) => return Err(format!("{input:?}: fast path {l:?}, full {full:?}")),
            }
        }
    }
    Ok(())
}

/// [`agreement`], as an assertion.
#[track_caller]
pub(super) fn agrees(input: &str) {
    if let Err(e) = agreement(input) {
        panic!("{e}");
    }
}

/// The fast path's answer under the bindings' options.
fn fast(input: &str) -> Lean {
    lean(input, &RepairOptions::unbounded())
}

/// The small broken objects of the benchmarks (`benches/repair.rs`, the
/// Node and Python benches): the fast path takes every one, so a change
/// that sends them back to the full repair fails here rather than only in
/// a benchmark.
#[test]
fn bench_objects_take_the_fast_path() {
    let cases = [
        (
            r#"{"city": "Paris", "unit": "celsius",}"#,
            r#"{"city": "Paris", "unit": "celsius"}"#,
        ),
        (
            r#"{"query": "hotels in Rome", "max": 5"#,
            r#"{"query": "hotels in Rome", "max": 5}"#,
        ),
        (
            r#"{city: 'Paris', days: 3}"#,
            r#"{"city": "Paris", "days": 3}"#,
        ),
        (r#"{"a": True, "b": None}"#, r#"{"a": true, "b": null}"#),
        (
            r#"{"text": "He said "hi" to me"}"#,
            r#"{"text": "He said \"hi\" to me"}"#,
        ),
        (
            r#"{"path": "/tmp/x", "lines": [1, 2, 3"#,
            r#"{"path": "/tmp/x", "lines": [1, 2, 3]}"#,
        ),
        (
            r#"{"name": "search" "q": "rust"}"#,
            r#"{"name": "search", "q": "rust"}"#,
        ),
        ("```json\n{\"x\": 1}\n```", r#"{"x": 1}"#),
    ];
    for (input, want) in cases {
        assert_eq!(fast(input), Lean::Fixed(want.to_owned()), "{input:?}");
        agrees(input);
    }
    assert_eq!(
        fast(r#"{"a": [1, {"b": "c\"d\u00e9"}], "e": null}"#),
        Lean::Valid
    );
}

/// Inputs at the edges of what the fast path takes: each either gets the
/// full repair's answer or is handed over.
#[test]
fn edges_agree() {
    let cases = [
        "",
        " ",
        "{",
        "[",
        "{}",
        "[]",
        " {} ",
        "{ , }",
        "[,]",
        "[1,]",
        "[1, ]",
        "{\"a\": 1 , }",
        "{\"a\": [1, 2 , ] , }",
        "{\"a\": \"x",
        "{\"a\": ",
        "{\"a\"",
        "{\"a\": tru",
        "[1, 2,",
        "{\"a\": 1.",
        "{\"a\": \"x\\",
        "{\"a\": 1,",
        "{\"a\": 1, ",
        "[[[",
        "[{\"a\": [1, {",
        "{\"a\": 1} ",
        "{\"a\": 1}}",
        "{\"a\": 1}, \"b\": 2}",
        "{\"a\": 1} x",
        "[1] [2]",
        "{a: 1}",
        "{a : 1}",
        "{a-b: 1}",
        "{a.b: 1}",
        "{café: 1}",
        "{a\": 1}",
        "{a 1}",
        "{1a: 2}",
        "{_x: 1, $y: 2}",
        "{'a': 'b'}",
        "{'a': 'it\"s'}",
        "{'a': 'it\\'s'}",
        "{'a': 'x'y'}",
        "{'a': 'x' 'y'}",
        "['a', 'b']",
        "['a' 'b']",
        "[\"a\" \"b\"]",
        "[\"a\" 1]",
        "{\"a\": \"x\" \"b\"}",
        "{\"a\": \"x\" \"b\": 1}",
        "{\"a\": 1 \"b\": 2}",
        "{\"a\": [1] \"b\": 2}",
        "{\"a\": \"say \"hi\" now\"}",
        "{\"a\": \"\"hi\"}",
        "{\"a\": \"x, \"b\": 1}",
        "[\"a, \"b\"]",
        "{\"a\": \"x\"y\"}",
        "{\"a\": \"x\" y\"}",
        "{\"a\": \"x\"+\"y\"}",
        "{\"a\": \"x\" + \"y\"}",
        "{\"a\": \"```json {}```\"}",
        "{\"a\": True}",
        "{\"a\": TRUE}",
        "{\"a\": None,}",
        "{\"a\": Nonesuch}",
        "{\"a\": True(1)}",
        "{\"a\": nan}",
        "{\"a\": NaN}",
        "{\"a\": -}",
        "{\"a\": -1}",
        "{\"a\": 01}",
        "{\"a\": 1_000}",
        "{\"a\": 1e}",
        "{\"a\": 1e5}",
        "{\"a\": .5}",
        "{\"a\": +1}",
        "{\"a\": 1\"}",
        "{\"a\": 1x}",
        "{\"a\": \"\\u00e9\"}",
        "{\"a\": \"\\u00\"}",
        "{\"a\": \"\\x\"}",
        "{\"a\": \"\t\"}",
        "{\"a\": \"x\n\"}",
        "{\"a\"\n: 1}",
        "{\"a\":1,\"b\":[true,false,null],\"c\":{}}",
        "{\"a\": [1, 2}",
        "{\"a\": {\"b\": 1]}",
        "[{\"a\": 1 {\"a\": 2}]",
        "[{\"a\": 1}, {\"a\": 2",
        "{\"a\": \"x\"} // note",
        "{\"a\": 1 /* c */}",
        "{\"a\": 1 # c\n}",
        "\u{feff}{\"a\": 1,}",
        "```json\n{\"x\": 1}\n```",
        "```\n[1, 2,]\n```\n",
        "```json\n{\"x\": 1\n```",
        "```json\n{\"x\": 1}\n```\nmore",
        "```json\n{\"x\": 1}\n```\n```json\n{\"y\": 2}\n```",
        "```json\n{\"x\": 1}",
        "```json\n{\"x\": 1}\n",
        "  ```json {\"x\": 1}```",
        "```json x {}```",
        "Here: {\"a\": 1}",
        "{{\"a\": 1}}",
        "{\\\"a\\\": 1}",
        "\"{\\\"a\\\": 1}\"",
        "[```json\n[1]\n```]",
        "{\"a\": [\"x\", true]}",
        "[\"x\", true]",
        "[\"x\", -1]",
        "[\"x\", {}]",
        "{\"a\": \"x\", b: 1}",
        "{\"a\": \"x\",}",
        "{\"a\": 'x',}",
        "{\"a\": \"x\" }",
        "[\"x\" ]",
        "{\"é\": \"ü\",}",
        "{\"a\": \"x“y”\",}",
        "{‘a’: 1}",
        "{\"a\": `x`}",
        "{\"a\": \"x\" , \"b\": 2,}",
        "[1, 2, 3,\n]",
        "[\n  1,\n  2,\n",
        "{\"a\":\n",
        "{\"a\": {\"b\": {\"c\": [1, 2, 3",
        "{\"a\": ...}",
        "[1, ...]",
        "{\"a\": 1, ...}",
        "[1, 2] ]",
        "{\"a\": 1}]",
    ];
    for input in cases {
        agrees(input);
    }
}

/// The fast path never takes a document nested deeper than its limit or
/// the options' and then agrees on the rest.
#[test]
fn depth_limits_agree() {
    for depth in [1, 2, 3, 63, 64, 65, 70] {
        let open = "[".repeat(depth);
        agrees(&open);
        agrees(&format!("{open}1,"));
        agrees(&format!("{open}{}", "]".repeat(depth)));
        agrees(&format!("{}{{a: 1", "{\"k\": ".repeat(depth)));
    }
}

/// Every fixture file, whole and line by line (tool-call arguments among
/// them), and every JSON-looking part of a line.
#[test]
fn fixtures_agree() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut dirs = vec![root];
    let mut n = 0;
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            if text.len() <= 4096 {
                agrees(&text);
            }
            for line in text.lines() {
                agrees(line);
                if let Some(at) = line.find(['{', '[']) {
                    agrees(&line[at..]);
                }
                n += 1;
            }
        }
    }
    assert!(n > 1000, "only {n} fixture lines");
}

/// The repair vectors kept in the repository (the Python package's
/// copies of json_repair's tests): each line's `input`.
#[test]
fn repository_vectors_agree() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../python/tests/data");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let path = e.path();
        if path.extension().is_none_or(|x| x != "jsonl") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for line in text.lines() {
            let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            if let Some(input) = v.get("input").and_then(|i| i.as_str()) {
                agrees(input);
                n += 1;
            }
        }
    }
    assert!(n >= 100, "only {n} vectors in {}", dir.display());
}

/// Inputs from JSONL files named in `TOOLCALL_LEAN_CORPUS` (paths joined
/// by `:`; each line's `input` string): for checking the fast path against
/// repair suites kept outside the repository. Without the variable this
/// test checks nothing.
#[test]
fn corpus_agrees() {
    let Ok(files) = std::env::var("TOOLCALL_LEAN_CORPUS") else {
        return;
    };
    let (mut n, mut skipped) = (0, 0);
    for file in files.split(':').filter(|f| !f.is_empty()) {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            // (a line nested past serde_json's recursion limit is skipped)
            let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
                skipped += 1;
                continue;
            };
            if let Some(input) = v.get("input").and_then(|i| i.as_str()) {
                agrees(input);
                n += 1;
            }
        }
    }
    // (the count is no assertion on the suites: only that they were read)
    assert!(n > 0, "no inputs in {files} ({skipped} lines unread)");
}

/// Pieces the generated documents are made of: JSON tokens, the fixes the
/// fast path makes and the ones it must leave to the full repair.
const PIECES: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    " ",
    "\n",
    "\"",
    "'",
    "\"a\"",
    "\"b c\"",
    "'d'",
    "key",
    "k2",
    "1",
    "-2.5e3",
    "0",
    "01",
    "1.",
    "True",
    "None",
    "False",
    "true",
    "null",
    "tru",
    "\\",
    "\\n",
    "\\u00e9",
    "é",
    "“",
    "```",
    "```json\n",
    "+",
    "(",
    ")",
    "x",
    "hi",
    "/",
    "#",
    "...",
    "\t",
    "$",
    "_",
    "-",
    "\"x\"",
    ": ",
    ", ",
    "\"s\": ",
    "{\"a\": ",
    "[1, ",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 20_000, ..ProptestConfig::default() })]

    #[test]
    fn generated_documents_agree(
        parts in prop::collection::vec(prop::sample::select(PIECES), 0..24),
    ) {
        let s: String = parts.concat();
        prop_assert!(agreement(&s).is_ok(), "{}", agreement(&s).err().unwrap_or_default());
    }

    #[test]
    fn mutated_objects_agree(
        base in prop::sample::select(vec![
            r#"{"city": "Paris", "unit": "celsius", "days": 3, "tags": ["a", "b"], "ok": true}"#,
            r#"{"text": "He said hi to me", "n": -1.5e2, "x": null, "o": {"p": [1, {}]}}"#,
            "```json\n{\"x\": 1, \"y\": [true, false]}\n```",
        ]),
        ops in prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, prop::sample::select(vec![
            "\"", "'", ",", "}", "]", "{", "[", ":", "\\", " ", "\n", "True", "None", "x", "1", "```",
        ])), 1..4),
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
                _ => s.truncate(at),
            }
        }
        prop_assert!(agreement(&s).is_ok(), "{}", agreement(&s).err().unwrap_or_default());
    }
}
