//! Wire inputs: stream == batch through the wire driver for every fixture and
//! chunking, lossless spans over the decoded text, the accumulator's
//! ordering / TLP-008 / --max-buffer behaviour, bounded memory on large
//! streams, and the binary reading a recorded stream.

use crate::common;

use crate::common::{chunks_at, chunks_by_size, fixture_args, fixture_inputs};
use proptest::prelude::*;
use std::io::Write;
use toolcall::wire::accumulate::{AccEvent, Accumulator, Fragment};
use toolcall::wire::{self, InputKind, Summary, WireConfig, WireEngine};
use toolcall::Collector;
use toolcall::{Config, Event, Sink};

const NATIVE: [&str; 2] = ["ollama", "openai"];

fn wire_config(args: &[String]) -> WireConfig {
    let mut w = WireConfig::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--input" {
            w.input = it.next().expect("--input value").parse().expect("kind");
        }
    }
    w
}

/// Every fixture under fixtures/wire, with its wire configuration.
fn wire_fixtures() -> Vec<(String, Vec<u8>, WireConfig)> {
    let list: Vec<_> = fixture_inputs()
        .into_iter()
        .filter(|p| p.components().any(|c| c.as_os_str() == "wire"))
        .map(|p| {
            let bytes = std::fs::read(&p).expect("read");
            let w = wire_config(&fixture_args(&p));
            (p.display().to_string(), bytes, w)
        })
        .collect();
    assert!(
        list.len() >= 20,
        "expected wire fixtures, found {}",
        list.len()
    );
    list
}

fn batch(input: &[u8], w: &WireConfig) -> (Collector, Summary) {
    wire::parse(input, &Config::default(), w)
}

/// Segments tile the decoded text `[0, text_bytes)`; text segments carry
/// exactly the text; in-text calls' raw is as long as their span; native
/// calls have empty spans.
fn assert_lossless(name: &str, got: &Collector, sum: &Summary) {
    let (at, text_len) = common::assert_tiling(name, &got.segments);
    if sum.input != InputKind::Text {
        assert_eq!(at, sum.text_bytes, "{name}: segments end at {at}");
    }
    assert_eq!(text_len, got.text.len() as u64, "{name}: text length");
    for c in &got.calls {
        assert!(c.arguments.is_object(), "{name}: arguments not an object");
        if NATIVE.contains(&c.format) {
            assert_eq!(c.span[0], c.span[1], "{name}: native call with a width");
        } else {
            assert_eq!(
                c.span[1] - c.span[0],
                c.raw.len() as u64,
                "{name}: raw vs span"
            );
        }
    }
}

#[test]
fn wire_fixtures_are_lossless_over_decoded_text() {
    for (name, input, w) in wire_fixtures() {
        let (got, sum) = batch(&input, &w);
        assert_lossless(&name, &got, &sum);
        assert_ne!(sum.input, InputKind::Auto, "{name}: kind not resolved");
    }
}

#[test]
fn auto_sniffs_what_the_fixture_directory_says() {
    for (name, input, w) in wire_fixtures() {
        let (_, sum) = batch(&input, &w);
        let want = if name.contains("/ollama/") {
            InputKind::Ollama
        } else if name.contains("/openai/") {
            InputKind::OpenAi
        } else if name.contains("/llama-server/") {
            if name.contains("chat-sse") {
                InputKind::OpenAi // llama-server's chat SSE is OpenAI-shaped
            } else {
                InputKind::LlamaServer
            }
        } else {
            InputKind::Terminal
        };
        let (_, auto) = batch(&input, &WireConfig::default());
        if name.contains("pretty-cut") {
            // a pretty-printed value cut off before its end cannot be told
            // from text: only `--input` makes it wire input
            assert_eq!(auto.input, InputKind::Text, "{name}: sniffed");
        } else {
            assert_eq!(auto.input, want, "{name}: sniffed");
        }
        if w.input != InputKind::Auto && w.input != InputKind::LlamaServer {
            assert_eq!(sum.input, want, "{name}");
        }
    }
}

#[test]
fn stream_equals_batch_for_chunk_sizes_1_to_64() {
    for (name, input, w) in wire_fixtures() {
        let want = batch(&input, &w);
        for size in 1..=64 {
            let got = wire::parse_chunked(chunks_by_size(&input, size), &Config::default(), &w);
            assert_eq!(got, want, "{name}: chunk size {size}");
        }
    }
}

#[test]
fn stream_equals_batch_for_every_single_cut() {
    for (name, input, w) in wire_fixtures() {
        let want = batch(&input, &w);
        for cut in 1..input.len() {
            let got = wire::parse_chunked(chunks_at(&input, &[cut]), &Config::default(), &w);
            assert_eq!(got, want, "{name}: cut at {cut}");
        }
    }
}

#[test]
fn text_input_is_the_text_engine() {
    for p in fixture_inputs() {
        let input = std::fs::read(&p).expect("read");
        let cfg = Config::default();
        let direct = toolcall::parse(&input, &cfg);
        let w = WireConfig {
            input: InputKind::Text,
            ..WireConfig::default()
        };
        assert_eq!(wire::parse(&input, &cfg, &w).0, direct, "{}", p.display());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_chunkings_equal_batch(seed_cuts in proptest::collection::vec(0usize..100_000, 0..40)) {
        for (name, input, w) in wire_fixtures() {
            let mut cuts: Vec<usize> = seed_cuts.iter().map(|c| c % input.len().max(1)).collect();
            cuts.sort_unstable();
            cuts.dedup();
            let want = batch(&input, &w);
            let got = wire::parse_chunked(chunks_at(&input, &cuts), &Config::default(), &w);
            prop_assert_eq!(&got, &want, "{}: cuts {:?}", name, cuts);
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(
        bytes in proptest::collection::vec(any::<u8>(), 0..400),
        size in 1usize..16,
        kind in 0usize..6,
    ) {
        let w = WireConfig { input: InputKind::ALL[kind], max_buffer: 64 };
        let (a, sa) = batch(&bytes, &w);
        let (b, sb) = wire::parse_chunked(bytes.chunks(size), &Config::default(), &w);
        assert_lossless("random", &a, &sa);
        prop_assert_eq!((a, sa.calls), (b, sb.calls));
    }

    #[test]
    fn spliced_wire_lines_never_panic(picks in proptest::collection::vec((0usize..100, 0usize..100), 1..8), size in 1usize..32) {
        // Whole lines from different fixtures glued together: kinds mixed,
        // calls opened and never closed, errors in between.
        let all = wire_fixtures();
        let mut doc = Vec::new();
        for (f, l) in picks {
            let input = &all[f % all.len()].1;
            let lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
            doc.extend_from_slice(lines[l % lines.len()]);
            doc.push(b'\n');
        }
        for kind in [InputKind::Auto, InputKind::Ollama, InputKind::OpenAi, InputKind::LlamaServer] {
            let w = WireConfig { input: kind, ..WireConfig::default() };
            let want = batch(&doc, &w);
            assert_lossless("spliced", &want.0, &want.1);
            let got = wire::parse_chunked(doc.chunks(size), &Config::default(), &w);
            prop_assert_eq!(got, want);
        }
    }
}

// ----- the accumulator -------------------------------------------------------

fn frag(index: Option<u64>, id: Option<&str>, name: Option<&str>, args: &str) -> Fragment {
    Fragment {
        index,
        id: id.map(str::to_string),
        name: name.map(str::to_string),
        arguments: Some(args.to_string()),
        ..Fragment::default()
    }
}

fn calls(out: &[AccEvent]) -> Vec<(usize, String, String, String)> {
    out.iter()
        .filter_map(|e| match e {
            AccEvent::Call(a) => Some((a.index, a.id.clone(), a.name.clone(), a.arguments.clone())),
            _ => None,
        })
        .collect()
}

fn codes(out: &[AccEvent]) -> Vec<&'static str> {
    out.iter()
        .filter_map(|e| match e {
            AccEvent::Error { code, .. } => Some(*code),
            _ => None,
        })
        .collect()
}

#[test]
fn accumulator_keeps_opening_order_across_interleaving() {
    let mut acc = Accumulator::new(1 << 20);
    let (mut next, mut out) = (0, Vec::new());
    // index 2 opens first, then 0; fragments interleave; 1 never appears
    acc.push(
        frag(Some(2), Some("c2"), Some("g"), "[1,"),
        &mut next,
        0,
        &mut out,
    );
    acc.push(
        frag(Some(0), Some("c0"), Some("f"), "{\"a\""),
        &mut next,
        0,
        &mut out,
    );
    acc.push(frag(Some(2), None, None, "2]"), &mut next, 0, &mut out);
    acc.push(frag(Some(0), None, None, ":1}"), &mut next, 0, &mut out);
    assert_eq!(acc.open_calls(), 2);
    acc.finish(None, false, &mut out);
    let starts: Vec<usize> = out
        .iter()
        .filter_map(|e| match e {
            AccEvent::Start { index, .. } => Some(*index),
            _ => None,
        })
        .collect();
    assert_eq!(starts, vec![0, 1]);
    let got = calls(&out);
    assert_eq!(got[0], (0, "c2".into(), "g".into(), "[1,2]".into()));
    assert_eq!(got[1], (1, "c0".into(), "f".into(), "{\"a\":1}".into()));
    assert_eq!((acc.held(), acc.open_calls()), (0, 0));
}

#[test]
fn accumulator_finishes_one_choice_at_a_time() {
    let mut acc = Accumulator::new(1 << 20);
    let (mut next, mut out) = (0, Vec::new());
    let mut a = frag(Some(0), Some("a"), Some("f"), "{}");
    a.choice = 0;
    let mut b = frag(Some(0), Some("b"), Some("g"), "{}");
    b.choice = 1;
    acc.push(a, &mut next, 0, &mut out);
    acc.push(b, &mut next, 0, &mut out);
    acc.finish(Some(1), false, &mut out);
    assert_eq!(calls(&out).len(), 1);
    assert_eq!(calls(&out)[0].1, "b");
    assert_eq!(acc.open_calls(), 1);
}

#[test]
fn accumulator_reports_fragments_that_do_not_fit_as_tlp_008() {
    let mut acc = Accumulator::new(1 << 20);
    let (mut next, mut out) = (0, Vec::new());
    acc.push(
        frag(Some(0), Some("a"), Some("f"), "{\"x\":"),
        &mut next,
        0,
        &mut out,
    );
    // another id for an unfinished call: dropped, the call goes on
    acc.push(
        frag(Some(0), Some("zzz"), None, "999"),
        &mut next,
        0,
        &mut out,
    );
    // another name for an unfinished call
    acc.push(
        frag(Some(0), None, Some("h"), "999"),
        &mut next,
        0,
        &mut out,
    );
    acc.push(frag(Some(0), None, None, "1}"), &mut next, 0, &mut out);
    acc.push(
        frag(Some(1), Some("b"), Some("g"), "{"),
        &mut next,
        0,
        &mut out,
    );
    // no key at all while two calls are open: ambiguous
    acc.push(frag(None, None, None, "}"), &mut next, 0, &mut out);
    acc.finish(None, false, &mut out);
    assert_eq!(codes(&out), vec!["TLP-008", "TLP-008", "TLP-008"]);
    let got = calls(&out);
    assert_eq!(got[0].3, "{\"x\":1}");
    assert_eq!(got[1].3, "{");
    // nothing open at all
    let mut out = Vec::new();
    acc.push(frag(None, None, None, "{}"), &mut next, 0, &mut out);
    assert_eq!(codes(&out), vec!["TLP-008"]);
}

#[test]
fn accumulator_without_index_correlates_by_id_and_single_open_call() {
    let mut acc = Accumulator::new(1 << 20);
    let (mut next, mut out) = (0, Vec::new());
    acc.push(
        frag(None, Some("a"), Some("f"), "{\"x\""),
        &mut next,
        0,
        &mut out,
    );
    acc.push(frag(None, None, None, ":1"), &mut next, 0, &mut out); // the only open call
    acc.push(
        frag(None, Some("b"), Some("g"), "{}"),
        &mut next,
        0,
        &mut out,
    );
    acc.push(frag(None, Some("a"), None, "}"), &mut next, 0, &mut out); // by id
    acc.finish(None, false, &mut out);
    let got = calls(&out);
    assert_eq!(got.len(), 2);
    assert_eq!((got[0].1.as_str(), got[0].3.as_str()), ("a", "{\"x\":1}"));
    assert_eq!((got[1].1.as_str(), got[1].3.as_str()), ("b", "{}"));
    assert!(codes(&out).is_empty());
}

#[test]
fn accumulator_nameless_call_is_tlp_001() {
    let mut acc = Accumulator::new(1 << 20);
    let (mut next, mut out) = (0, Vec::new());
    acc.push(frag(Some(0), Some("a"), None, "{}"), &mut next, 0, &mut out);
    acc.finish(None, false, &mut out);
    assert_eq!(codes(&out), vec!["TLP-001"]);
}

#[test]
fn accumulator_is_bounded_by_max_buffer_and_goes_on() {
    let max = 4096;
    let mut acc = Accumulator::new(max);
    let (mut next, mut out) = (0, Vec::new());
    acc.push(
        frag(Some(0), Some("big"), Some("f"), "{\"s\":\""),
        &mut next,
        0,
        &mut out,
    );
    let piece = "x".repeat(100);
    for _ in 0..1000 {
        acc.push(frag(Some(0), None, None, &piece), &mut next, 0, &mut out);
        assert!(acc.held() <= max, "held {}", acc.held());
    }
    assert_eq!(codes(&out), vec!["TLP-007"]);
    // the stream goes on: a later call still works
    acc.push(
        frag(Some(1), Some("ok"), Some("g"), "{}"),
        &mut next,
        0,
        &mut out,
    );
    acc.finish(None, false, &mut out);
    let got = calls(&out);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].1, "ok");
    assert_eq!(acc.held(), 0);
}

// ----- driver-level behaviour ------------------------------------------------

#[test]
fn cut_off_arguments_are_an_error_not_a_repaired_call() {
    let input = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\": \\\"hel\"}}]},\"finish_reason\":null}]}\n\n";
    let (got, sum) = batch(input, &WireConfig::default());
    assert!(got.calls.is_empty());
    assert!(sum.truncated);
    let codes: Vec<_> = got.errors.iter().map(|e| e.code).collect();
    assert_eq!(codes, vec!["TLP-002", "TLP-008"]);
    // with finish_reason "length" too
    let mut input = input.to_vec();
    input.extend_from_slice(b"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n");
    let (got, sum) = batch(&input, &WireConfig::default());
    assert!(got.calls.is_empty() && !sum.truncated);
    assert_eq!(got.errors[0].code, "TLP-002");
    assert_eq!(sum.finish_reason.as_deref(), Some("length"));
}

#[test]
fn native_and_in_text_calls_share_one_index_sequence() {
    let input = concat!(
        r#"{"model":"m","message":{"role":"assistant","content":"<tool_call>{\"name\":\"a\",\"arguments\":{}}</tool_call>"},"done":false}"#,
        "\n",
        r#"{"model":"m","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"b","arguments":{}}}]},"done":false}"#,
        "\n",
        r#"{"model":"m","message":{"role":"assistant","content":" <tool_call>{\"name\":\"c\",\"arguments\":{}}</tool_call>"},"done":true}"#,
        "\n",
    );
    let (got, _) = batch(input.as_bytes(), &WireConfig::default());
    let seq: Vec<_> = got
        .calls
        .iter()
        .map(|c| (c.index, c.name.as_str()))
        .collect();
    assert_eq!(seq, vec![(0, "a"), (1, "b"), (2, "c")]);
    let starts: Vec<_> = got.starts.iter().map(|(i, n)| (*i, n.as_str())).collect();
    assert_eq!(starts, seq);
}

#[test]
fn over_long_line_is_an_error_and_the_stream_goes_on() {
    let mut input = Vec::new();
    input.extend_from_slice(b"{\"model\":\"m\",\"response\":\"");
    input.extend(std::iter::repeat_n(b'x', 10_000));
    input.extend_from_slice(
        b"\",\"done\":false}\n{\"model\":\"m\",\"response\":\"ok\",\"done\":true}\n",
    );
    let w = WireConfig {
        input: InputKind::Ollama,
        max_buffer: 1024,
    };
    for size in [1, 7, 100, 5000, input.len()] {
        let (got, sum) = wire::parse_chunked(input.chunks(size), &Config::default(), &w);
        assert_eq!(got.errors.len(), 1, "size {size}");
        assert_eq!(got.errors[0].code, "TLP-007");
        assert_eq!(got.errors[0].line, 1);
        assert_eq!(got.text, b"ok");
        assert!(!sum.truncated);
    }
}

/// A sink that only counts.
#[derive(Default)]
struct Count {
    text: u64,
    reasoning: u64,
    calls: usize,
    errors: usize,
}

impl Sink for Count {
    fn event(&mut self, ev: Event<'_>) {
        match ev {
            Event::Text { bytes, .. } => self.text += bytes.len() as u64,
            Event::Reasoning { content, .. } => self.reasoning += content.len() as u64,
            Event::ToolCall(_) => self.calls += 1,
            Event::Error(_) => self.errors += 1,
            _ => {}
        }
    }
}

/// One generated Ollama line: text deltas, with thinking, a native call and
/// an in-text call now and then.
fn ollama_line(k: u64, out: &mut Vec<u8>) -> usize {
    let calls = usize::from(k % 100 == 50 || k % 100 == 75);
    let msg = match k % 100 {
        0 => r#""content":"","thinking":"pondering the next step""#.to_string(),
        50 => r#""content":"","tool_calls":[{"function":{"name":"step","arguments":{"n":1}}}]"#
            .to_string(),
        75 => r#""content":"<tool_call>{\"name\":\"x\",\"arguments\":{\"k\":2}}</tool_call>""#
            .to_string(),
        _ => format!(r#""content":"token {k} and some prose, "#) + "\"",
    };
    writeln!(
        out,
        "{{\"model\":\"qwen3\",\"created_at\":\"2026-05-01T10:00:00.{k:09}Z\",\"message\":{{\"role\":\"assistant\",{msg}}},\"done\":false}}"
    )
    .expect("write");
    calls
}

#[test]
fn fifty_megabytes_of_ollama_stream_in_bounded_memory() {
    let target = 50u64 << 20;
    let mut engine = WireEngine::new(Config::default(), WireConfig::default());
    let mut sink = Count::default();
    let mut chunk = Vec::with_capacity(70_000);
    let (mut k, mut total, mut peak, mut want) = (0u64, 0u64, 0usize, 0usize);
    while total < target {
        chunk.clear();
        while chunk.len() < 64 * 1024 {
            want += ollama_line(k, &mut chunk);
            k += 1;
        }
        // cut mid-line: feed an odd prefix, then the rest
        let cut = chunk.len() / 3 + 17;
        engine.feed(&chunk[..cut], &mut sink);
        peak = peak.max(engine.held());
        engine.feed(&chunk[cut..], &mut sink);
        peak = peak.max(engine.held());
        total += chunk.len() as u64;
    }
    engine.feed(b"{\"model\":\"qwen3\",\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,\"eval_count\":7}\n", &mut sink);
    engine.finish(&mut sink);
    let sum = engine.summary();
    assert!(peak < 4096, "driver held {peak} bytes");
    assert!(!sum.truncated);
    assert_eq!(sink.errors, 0);
    assert_eq!(sum.calls, sink.calls);
    assert_eq!(sink.calls, want);
    assert!(
        sink.text > 5 << 20 && sink.reasoning > 0,
        "text {}",
        sink.text
    );
}

#[test]
fn huge_streamed_arguments_stay_bounded_by_max_buffer() {
    let max = 64 * 1024;
    let w = WireConfig {
        input: InputKind::OpenAi,
        max_buffer: max,
    };
    let mut engine = WireEngine::new(Config::default(), w);
    let mut sink = Count::default();
    engine.feed(b"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"s\\\":\\\"\"}}]}}]}\n\n", &mut sink);
    let frag = format!(
        "data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"tool_calls\":[{{\"index\":0,\"function\":{{\"arguments\":\"{}\"}}}}]}}}}]}}\n\n",
        "y".repeat(1000)
    );
    for _ in 0..5000 {
        engine.feed(frag.as_bytes(), &mut sink);
        assert!(engine.held() <= max + frag.len(), "held {}", engine.held());
    }
    engine.feed(b"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n", &mut sink);
    engine.finish(&mut sink);
    assert_eq!((sink.calls, sink.errors), (0, 1));
}

// ----- the binary ------------------------------------------------------------

fn run(args: &[&str], input: &[u8]) -> (String, i32) {
    let r = common::run_binary(args, Some(input), None);
    (r.out(), r.code)
}

#[test]
fn cli_streams_a_recorded_openai_sse_stream() {
    let input = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/wire/llama-server/chat-sse-reasoning-tool-call.txt"),
    )
    .expect("fixture");
    for chunk in ["1", "7", "65536"] {
        let (out, code) = run(
            &["stream", "--input", "openai", "--chunk-size", chunk],
            &input,
        );
        assert_eq!(code, 0, "{out}");
        let recs: Vec<serde_json::Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).expect("ndjson"))
            .collect();
        let types: Vec<&str> = recs.iter().map(|r| r["type"].as_str().unwrap()).collect();
        assert_eq!(types, ["reasoning", "tool_call_start", "tool_call", "done"]);
        assert_eq!(recs[2]["id"], "call_q1");
        assert_eq!(recs[2]["arguments"]["city"], "Paris");
        assert_eq!(recs[3]["input"], "openai");
        assert_eq!(recs[3]["finish_reason"], "tool_calls");
        assert_eq!(recs[3]["truncated"], false);
    }
}

#[test]
fn cli_input_flag_on_parse_and_split() {
    let input = br#"{"model":"m","response":"<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>","done":true}"#;
    let (out, code) = run(&["parse", "--input", "ollama"], input);
    assert_eq!(code, 0);
    assert!(out.contains("\"format\":\"hermes\""), "{out}");
    let (out, code) = run(&["split", "--input", "ollama", "--text"], input);
    assert_eq!((out.as_str(), code), ("", 0));
    let (_, code) = run(&["parse", "--input", "nope"], input);
    assert_eq!(code, 2);
    // text input: the JSON is prose, and no wire fields appear in done
    let (out, _) = run(&["stream", "--input", "text"], b"hi");
    assert_eq!(
        out.lines().last(),
        Some(r#"{"type":"done","calls":0,"bytes":2}"#)
    );
}

#[test]
fn native_calls_split_server_names_like_text_calls() {
    // Ollama: a native `tool_calls` entry named `server___tool`.
    let ollama = br#"{"model":"m","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"github___create_issue","arguments":{"title":"x"}}}]},"done":true}"#;
    // OpenAI SSE: the name arrives in the first fragment, arguments later.
    let openai = concat!(
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"github___create_issue\",\"arguments\":\"\"}}]}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"title\\\":\\\"x\\\"}\"}}]}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n",
        "data: [DONE]\n\n",
    );
    for (input, kind) in [(&ollama[..], "ollama"), (openai.as_bytes(), "openai")] {
        for verb in ["parse", "stream"] {
            let (out, code) = run(&[verb, "--input", kind], input);
            assert_eq!(code, 0, "{kind} {verb}: {out}");
            let rec: serde_json::Value = out
                .lines()
                .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("ndjson"))
                .find(|r| r["type"] == "tool_call")
                .unwrap_or_else(|| panic!("{kind} {verb}: no call in {out}"));
            assert_eq!(rec["name"], "github___create_issue", "{kind} {verb}");
            assert_eq!(rec["server"], "github", "{kind} {verb}");
            assert_eq!(rec["tool"], "create_issue", "{kind} {verb}");
            assert_eq!(rec["arguments"]["title"], "x", "{kind} {verb}");
        }
    }
    // A plain native name gets neither field.
    let plain = br#"{"model":"m","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"create_issue","arguments":{}}}]},"done":true}"#;
    let (out, _) = run(&["parse", "--input", "ollama"], plain);
    let rec: serde_json::Value =
        serde_json::from_str(out.lines().next().expect("record")).expect("json");
    assert_eq!(rec["name"], "create_issue");
    assert!(
        rec.get("server").is_none() && rec.get("tool").is_none(),
        "{out}"
    );
}
