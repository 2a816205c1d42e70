//! Linear time, by counting work rather than timing: for pathological
//! inputs, ten times the input must cost at most eleven times the text
//! scanner's work (bytes searched plus probes), in one feed and in 7-byte
//! chunks. These shapes once made the batch path quadratic (a newline
//! search restarted from every call in a document without newlines).

use toolcall::{Config, Engine, Event};

fn work(doc: &[u8], chunk: usize) -> (u64, usize) {
    let mut calls = 0usize;
    let mut sink = |ev: Event<'_>| {
        if let Event::ToolCall(_) = ev {
            calls += 1;
        }
    };
    let mut e = Engine::new(Config::default());
    for c in doc.chunks(chunk) {
        e.feed(c, &mut sink);
    }
    e.finish(&mut sink);
    (e.work(), calls)
}

const SHAPES: &[(&str, &str)] = &[
    ("marker prefixes", "<tool_cal"),
    (
        "unclosed calls",
        "<tool_call>{\"name\": \"a\", \"arguments\": {\"x\": \"",
    ),
    ("brackets", "["),
    ("brace lines", "{\n"),
    ("think openers", "<think>"),
    ("fence openers", "```json\n"),
    ("function tags", "<function=f>"),
    ("deepseek sections", "<｜tool▁calls▁begin｜>"),
    ("harmony headers", "<|channel|>commentary to=functions.f "),
    ("mistral tokens", "[TOOL_CALLS]"),
    ("pythonic openers", "[f(a=\"x\", "),
    ("pythonic lines", "[f(a=\"x\")\n"),
    ("functionary-v3.2 headers", ">>>all\n"),
    (
        "tiny calls, no newlines",
        "<tool_call>{\"name\":\"f\"}</tool_call>",
    ),
    (
        "bare json calls per line",
        "{\"name\": \"f\", \"arguments\": {}}\n",
    ),
    ("inline llama heads", "{\"name\": "),
    (
        "inline llama calls",
        "x {\"name\": \"f\", \"parameters\": {}} ",
    ),
    ("double braces", "{\"name\": \"f\", \"parameters\": {{"),
];

#[test]
fn ten_times_the_input_costs_at_most_eleven_times_the_work() {
    for (name, unit) in SHAPES {
        let small = unit.repeat(2_000).into_bytes();
        let large = unit.repeat(20_000).into_bytes();
        for chunk in [usize::MAX, 7] {
            let (w1, c1) = work(&small, chunk.min(small.len()));
            let (w10, c10) = work(&large, chunk.min(large.len()));
            assert!(
                w10 <= 11 * w1.max(1),
                "{name} (chunk {chunk}): work {w1} -> {w10} for 10x input"
            );
            // where each unit is a call, every repeated call is found
            if c1 >= 2_000 {
                assert_eq!(c10, 10 * c1, "{name}: {c1} calls -> {c10}");
            }
        }
    }
}

/// An OpenAI SSE stream that opens `n` streamed calls (one `tool_calls`
/// index each) before any of them gets its arguments, then grows every
/// call in three rounds and finishes them all at once: the shape that made
/// the fragment accumulator quadratic in the number of open indices.
fn openai_many_indices(n: usize) -> Vec<u8> {
    let mut s = String::new();
    let chunk = |s: &mut String, call: &str| {
        s.push_str("data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[");
        s.push_str(call);
        s.push_str("]}}]}\n\n");
    };
    for k in 0..n {
        chunk(
            &mut s,
            &format!("{{\"index\":{k},\"id\":\"call_{k}\",\"type\":\"function\",\"function\":{{\"name\":\"f\",\"arguments\":\"\"}}}}"),
        );
    }
    for part in ["{\\\"a\\\": ", "\\\"x\\\", ", "\\\"b\\\": 1}"] {
        for k in 0..n {
            chunk(
                &mut s,
                &format!("{{\"index\":{k},\"function\":{{\"arguments\":\"{part}\"}}}}"),
            );
        }
    }
    s.push_str("data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n");
    s.into_bytes()
}

fn wire_work(doc: &[u8], chunk: usize) -> (u64, usize) {
    use toolcall::wire::{InputKind, WireConfig, WireEngine};
    let mut calls = 0usize;
    let mut sink = |ev: Event<'_>| {
        if let Event::ToolCall(c) = ev {
            if c.arguments.as_object().is_some_and(|a| a.len() == 2) {
                calls += 1;
            }
        }
    };
    let mut e = WireEngine::new(
        Config::default(),
        WireConfig {
            input: InputKind::Auto,
            max_buffer: 1 << 30,
        },
    );
    for c in doc.chunks(chunk) {
        e.feed(c, &mut sink);
    }
    e.finish(&mut sink);
    (e.work(), calls)
}

#[test]
fn streamed_openai_calls_cost_linear_work_in_their_number() {
    let (small, large) = (openai_many_indices(1_000), openai_many_indices(10_000));
    for chunk in [usize::MAX, 4096] {
        let (w1, c1) = wire_work(&small, chunk.min(small.len()));
        let (w10, c10) = wire_work(&large, chunk.min(large.len()));
        assert_eq!((c1, c10), (1_000, 10_000), "chunk {chunk}");
        assert!(
            w10 <= 11 * w1.max(1),
            "chunk {chunk}: work {w1} -> {w10} for 10x the indices"
        );
    }
}

/// The sniffer of `--input auto` holds an undecided start (`{` on the first
/// line that is no JSON, a pretty-printed value that never closes) and
/// looked at all of it again after every chunk: one byte per chunk was
/// quadratic (18 s for 72 KB of `\n{"name":`). Its looks now cost linear
/// work, whatever the chunk size.
#[test]
fn an_undecided_start_costs_linear_sniffing() {
    for unit in [
        &b"\n{\"name\":"[..],
        b"{\"a\":{}",
        b"{\"a\":\"xxxxxxxx",
        b"data: {\"a\":",
        b": comment\n",
    ] {
        let small = unit.repeat(2_000);
        let large = unit.repeat(20_000);
        for chunk in [1, 7] {
            let (w1, _) = wire_work(&small, chunk);
            let (w10, _) = wire_work(&large, chunk);
            assert!(
                w10 <= 11 * w1.max(1),
                "{:?} in {chunk}-byte chunks: work {w1} -> {w10} for 10x the input",
                String::from_utf8_lossy(unit)
            );
        }
    }
}

/// `validate` puts a line:column on every record and diagnostic: with the
/// document's line index that is a binary search, not a count from the
/// start, so many calls in a long document (with or without newlines) cost
/// linear work.
#[test]
fn diagnostics_for_every_call_cost_linear_work() {
    use toolcall::validate::diag::{render_in, Located, Severity};
    use toolcall::validate::Issue;
    let issue = Issue {
        code: "TLP-004",
        path: "/x".into(),
        message: "expected integer".into(),
        expected: String::new(),
        actual: String::new(),
    };
    let units = [
        "prose line\n<tool_call>{\"name\": \"f\", \"arguments\": {\"x\": \"y\"}}</tool_call>\n",
        "<tool_call>{\"name\":\"f\",\"arguments\":{\"x\":\"y\"}}</tool_call>",
    ];
    for unit in units {
        let work = |n: usize| {
            let doc = unit.repeat(n).into_bytes();
            let calls = toolcall::parse(&doc, &Config::default()).calls;
            assert_eq!(calls.len(), n);
            let l = Located::new(&doc[..]);
            for c in &calls {
                let at = c.span[0] as usize;
                let _ = l.position(at);
                let _ = render_in("t", Some(&l), at + 20, Severity::Error, &issue);
            }
            l.work()
        };
        let (w1, w10) = (work(2_000), work(20_000));
        assert!(w10 <= 11 * w1.max(1), "{unit:?}: work {w1} -> {w10}");
    }
}

/// A conversation with `n` parallel calls answered in reverse order, `n`
/// more left unanswered before the next assistant turn and `n` results no
/// call asked for: the open calls are looked up by id, by name and by
/// age, never searched one by one.
fn conversation(n: usize) -> Vec<u8> {
    let mut s = String::from(
        r#"{"tools":[{"type":"function","function":{"name":"f","parameters":{}}}],"messages":[{"role":"user","content":"go"},{"role":"assistant","content":null,"tool_calls":["#,
    );
    for k in 0..2 * n {
        if k > 0 {
            s.push(',');
        }
        s.push_str(&format!(
            r#"{{"id":"c{k}","type":"function","function":{{"name":"f","arguments":"{{\"k\": {k}}}"}}}}"#
        ));
    }
    s.push_str("]}");
    for k in (0..n).rev() {
        s.push_str(&format!(
            r#",{{"role":"tool","tool_call_id":"c{k}","content":"ok"}}"#
        ));
    }
    for k in 0..n {
        s.push_str(&format!(
            r#",{{"role":"tool","tool_call_id":"x{k}","content":"?"}}"#
        ));
    }
    s.push_str(r#",{"role":"assistant","content":"done"}]}"#);
    s.into_bytes()
}

/// Work of reading, linting and locating every finding of a conversation.
fn conversation_work(doc: &[u8]) -> (u64, usize) {
    use std::collections::HashSet;
    use toolcall::validate::messages;
    let v: serde_json::Value = serde_json::from_slice(doc).expect("json");
    let t = messages::read(&v, &Config::default()).expect("a conversation");
    let (findings, lint_work) = messages::lint_counted(&t);
    let wanted: HashSet<&str> = t
        .entries
        .iter()
        .map(|e| e.pointer.as_str())
        .chain(findings.iter().map(|f| f.pointer.as_str()))
        .collect();
    let (spans, span_work) = messages::spans(doc, &wanted);
    assert_eq!(spans.len(), wanted.len(), "every pointer located");
    (lint_work + span_work, findings.len())
}

#[test]
fn conversation_checks_cost_linear_work() {
    let (w1, f1) = conversation_work(&conversation(500));
    let (w10, f10) = conversation_work(&conversation(5_000));
    // n unanswered calls and n results without a call
    assert_eq!((f1, f10), (1_000, 10_000));
    assert!(
        w10 <= 11 * w1.max(1),
        "work {w1} -> {w10} for 10x the calls"
    );
}

/// The work of one document fed in `chunk`-byte pieces: the text scanner's
/// and the bytes shown to probes and block scanners.
fn shown_work(doc: &[u8], cfg: &Config, chunk: usize) -> u64 {
    let mut sink = |_: Event<'_>| {};
    let mut e = Engine::new(cfg.clone());
    for c in doc.chunks(chunk) {
        e.feed(c, &mut sink);
    }
    e.finish(&mut sink);
    e.work() + e.shown()
}

/// The pieces a crafted input repeats for one format, read from the
/// registry so that a new format is covered without naming it: each
/// opener's literal alone and followed by the first bytes of a body, and
/// the format's own call (as `render` writes it) cut at a few points and
/// whole.
/// A unit is also tried under detection when it is a call (`true`).
fn format_units(f: &toolcall::formats::Format) -> Vec<(Vec<u8>, bool)> {
    const BODIES: &[&str] = &["", "{", "{\"a\": \"", "(", "<", "f>{"];
    let mut units = Vec::new();
    for o in f.openers {
        for b in BODIES {
            let mut u = o.lit.to_vec();
            u.extend_from_slice(b.as_bytes());
            units.push((u, false));
        }
    }
    if let Some(p) = &f.render {
        let call = (p.call)(&[toolcall::CallSpec::new(
            "f",
            serde_json::json!({"a": "x", "b": [1, {"c": null}]}),
        )]);
        let b = call.as_bytes();
        for cut in [
            b.len() / 4,
            b.len() / 2,
            3 * b.len() / 4,
            b.len() - 1,
            b.len(),
        ] {
            if cut > 0 {
                units.push((b[..cut].to_vec(), true));
            }
        }
    }
    units.sort();
    units.dedup();
    units
}

/// Every format's block scanners and probes, on the crafted inputs of
/// [`format_units`] repeated (at least 4 KiB, fed 32 bytes at a time) and
/// never closed: ten times the input shows at most eleven times the bytes
/// to the probes and scanners (plus the text scanner's work), under the
/// format alone and, for its calls, under detection. A
/// scanner that reads to the end of the input before it decides (a
/// harmony body once did) or a probe that waits for the end of a run of
/// name bytes (the functionary reader once did) costs a hundred times.
#[test]
fn every_format_s_blocks_cost_linear_work() {
    use toolcall::formats::FORMATS;
    use toolcall::FormatChoice;
    let mut failures = Vec::new();
    let mut tried = 0;
    for f in FORMATS {
        for choice in [FormatChoice::Only(f.id), FormatChoice::Auto] {
            let cfg = Config {
                format: choice,
                ..Config::default()
            };
            for (unit, call) in format_units(f) {
                if choice == FormatChoice::Auto && !call {
                    continue;
                }
                let n = (4096 / unit.len()).max(20);
                // after a newline: the document-start probes, which look
                // a bounded way ahead, are the next test's
                let doc = |n: usize| [&b"\n"[..], &unit.repeat(n)].concat();
                let (small, large) = (doc(n), doc(10 * n));
                let (w1, w10) = (shown_work(&small, &cfg, 32), shown_work(&large, &cfg, 32));
                tried += 1;
                if w10 > 11 * w1.max(1) {
                    let fail = format!(
                        "{} ({choice:?}) {:?}: work {w1} -> {w10}",
                        f.id,
                        String::from_utf8_lossy(&unit)
                    );
                    eprintln!("{fail}");
                    failures.push(fail);
                }
            }
        }
    }
    assert!(tried > 500, "only {tried} shapes");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every opener followed by one long run of name bytes (a minified blob
/// after a marker), and the run alone at the start of a document, fed 4 KiB
/// at a time: a probe
/// or scanner that waits for the run to end before it decides is shown it
/// again on every chunk. Blocks are capped small (`max_block`), so a block
/// that legitimately waits for its closer costs linear work too.
#[test]
fn long_name_runs_after_every_opener_cost_linear_work() {
    use toolcall::formats::FORMATS;
    use toolcall::FormatChoice;
    let mut failures = Vec::new();
    let mut heads: Vec<(FormatChoice, Vec<u8>)> = vec![(FormatChoice::Auto, Vec::new())];
    for f in FORMATS {
        heads.push((FormatChoice::Only(f.id), Vec::new()));
        for o in f.openers {
            heads.push((FormatChoice::Only(f.id), o.lit.to_vec()));
        }
    }
    for (choice, head) in heads {
        let cfg = Config {
            format: choice,
            max_block: 4096,
            ..Config::default()
        };
        let doc = |n: usize| {
            let mut d = head.clone();
            d.extend(std::iter::repeat_n(b'x', n));
            d
        };
        let (w1, w10) = (
            shown_work(&doc(100_000), &cfg, 4096),
            shown_work(&doc(1_000_000), &cfg, 4096),
        );
        if w10 > 11 * w1.max(1) {
            failures.push(format!(
                "{choice:?} {:?}: work {w1} -> {w10}",
                String::from_utf8_lossy(&head)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
