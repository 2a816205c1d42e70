//! Whole documents see the whole document (issue 42): `parse`, `split` and
//! `validate` judge a lone reasoning closer (`</think>` with no opener: the
//! template opened the reasoning) by the whole document, while `stream`
//! keeps prose live by default. The relation between the two is exact:
//! under the same `--think-window` they give the same calls, text and
//! reasoning, whatever the chunking (docs/design.md, "Reasoning the prompt
//! opened").

use crate::common;
use serde_json::Value;

/// The lone-closer fixtures: reasoning the template opened, then text or a
/// call; and a closer past the old 8 KiB window.
const CASES: &[&str] = &[
    "fixtures/reasoning/r1-distill-lone-close-call.txt",
    "fixtures/reasoning/qwq-lone-close-answer.txt",
    "fixtures/reasoning/qwen3-thinking-lone-close-call.txt",
    "fixtures/reasoning/long-reasoning-lone-close.txt",
    "fixtures/reasoning/stray-think-close-by-default.txt",
    "fixtures/reasoning/negative-closer-past-window.txt",
    "fixtures/reasoning/call-before-closer.txt",
    "fixtures/reasoning/think-then-text.txt",
];

/// What a run read: the calls (name and arguments), the text and the
/// reasoning.
#[derive(Debug, PartialEq)]
struct Reading {
    calls: Vec<(Value, Value)>,
    text: String,
    reasoning: String,
}

fn input(case: &str) -> Vec<u8> {
    std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(case)).expect("fixture")
}

fn records(out: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("ndjson"))
        .collect()
}

/// `split` on `bytes` with `window` (`None`: the default).
fn split(bytes: &[u8], window: Option<&str>) -> Reading {
    let mut args = vec!["split"];
    if let Some(w) = window {
        args.extend(["--think-window", w]);
    }
    let r = common::run_binary(&args, Some(bytes), None);
    assert!(matches!(r.code, 0 | 1), "split: {}", r.stderr);
    let recs = records(&r.stdout);
    let [s] = recs.as_slice() else {
        panic!("split gave {} records", recs.len());
    };
    let calls = s["tool_calls"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|c| (c["name"].clone(), c["arguments"].clone()))
                .collect()
        })
        .unwrap_or_default();
    Reading {
        calls,
        text: s["text"].as_str().unwrap_or_default().to_string(),
        reasoning: s["reasoning"].as_str().unwrap_or_default().to_string(),
    }
}

/// `parse`'s calls on `bytes` with `window` (`None`: the default).
fn parse_calls(bytes: &[u8], window: Option<&str>) -> Vec<(Value, Value)> {
    let mut args = vec!["parse"];
    if let Some(w) = window {
        args.extend(["--think-window", w]);
    }
    let r = common::run_binary(&args, Some(bytes), None);
    assert!(matches!(r.code, 0 | 1), "parse: {}", r.stderr);
    records(&r.stdout)
        .into_iter()
        .filter(|v| v["type"] == "tool_call")
        .map(|v| (v["name"].clone(), v["arguments"].clone()))
        .collect()
}

/// `stream` on `bytes` read `chunk` bytes at a time with `window`
/// (`None`: the default): its calls, and its text and reasoning events
/// joined.
fn stream(bytes: &[u8], window: Option<&str>, chunk: usize) -> Reading {
    let size = chunk.to_string();
    let mut args = vec!["stream", "--chunk-size", size.as_str()];
    if let Some(w) = window {
        args.extend(["--think-window", w]);
    }
    let r = common::run_binary(&args, Some(bytes), None);
    assert!(matches!(r.code, 0 | 1), "stream: {}", r.stderr);
    let mut out = Reading {
        calls: Vec::new(),
        text: String::new(),
        reasoning: String::new(),
    };
    for v in records(&r.stdout) {
        match v["type"].as_str() {
            Some("tool_call") => out.calls.push((v["name"].clone(), v["arguments"].clone())),
            Some("text") => out.text.push_str(v["text"].as_str().unwrap_or_default()),
            Some("reasoning") => out
                .reasoning
                .push_str(v["text"].as_str().unwrap_or_default()),
            _ => {}
        }
    }
    out
}

#[test]
fn lone_closer_documents_read_reasoning_then_text_by_default() {
    for case in [
        "fixtures/reasoning/r1-distill-lone-close-call.txt",
        "fixtures/reasoning/qwq-lone-close-answer.txt",
        "fixtures/reasoning/qwen3-thinking-lone-close-call.txt",
        "fixtures/reasoning/long-reasoning-lone-close.txt",
    ] {
        let bytes = input(case);
        let whole = split(&bytes, None);
        assert!(!whole.reasoning.is_empty(), "{case}: no reasoning");
        assert!(
            !whole.text.contains("</think>") && !whole.reasoning.contains("</think>"),
            "{case}: {whole:?}"
        );
        // the reasoning is the document's start, up to the closer
        let at = bytes
            .windows(8)
            .position(|w| w == b"</think>")
            .expect("closer");
        assert_eq!(
            whole.reasoning.trim_end(),
            String::from_utf8_lossy(&bytes[..at]).trim_end(),
            "{case}"
        );
        // `split --text` (only the prose) prints none of the reasoning
        let r = common::run_binary(&["split", "--text"], Some(&bytes), None);
        let prose = r.out();
        assert!(
            !prose.contains(whole.reasoning.lines().next().unwrap_or("?")),
            "{case}: {prose}"
        );
        // `stream` keeps its prose live by default: the same bytes are text
        let live = stream(&bytes, None, 7);
        assert!(live.reasoning.is_empty(), "{case}: {live:?}");
        assert_eq!(live.calls, whole.calls, "{case}");
    }
}

#[test]
fn stream_and_whole_documents_agree_under_the_same_window() {
    for case in CASES {
        let bytes = input(case);
        // the defaults: whole documents see the whole document, which is
        // `stream` with a window as large as --max-block; `stream` by
        // default is the whole-document commands with the window off
        let pairs = [
            (None, Some("1048576")),
            (Some("0"), None),
            (Some("0"), Some("0")),
            (Some("8192"), Some("8192")),
            (Some("64"), Some("64")),
        ];
        for (batch_window, stream_window) in pairs {
            let whole = split(&bytes, batch_window);
            assert_eq!(
                parse_calls(&bytes, batch_window),
                whole.calls,
                "{case}: parse and split, window {batch_window:?}"
            );
            for chunk in [1, 7] {
                let live = stream(&bytes, stream_window, chunk);
                assert_eq!(
                    live, whole,
                    "{case}: stream (window {stream_window:?}, {chunk}-byte chunks) and \
                     split (window {batch_window:?})"
                );
            }
        }
    }
}
