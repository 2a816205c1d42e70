//! The invariants of docs/design.md#invariants, over every fixture:
//! stream == batch for every chunking, lossless segments, calls' raw bytes
//! are their spans, and no panics on arbitrary bytes.

use crate::common;
use crate::common::{chunks_at, chunks_by_size, fixture_args, fixture_inputs};
use proptest::prelude::*;
use toolcall::Config;
use toolcall::SegmentKind;
use toolcall::{parse, parse_chunked, Collector};

/// The engine configuration a fixture's `.args` file asks for, resolved
/// by the core's front door as the CLI resolves its flags (format ids and
/// model names alike).
fn config_for(args: &[String]) -> Config {
    let mut o = toolcall::Options::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--format" | "-f" => o.format = it.next().cloned().unwrap_or_default(),
            "--model" => o.model = it.next().cloned(),
            "--generation-prompt" => o.generation_prompt = it.next().cloned(),
            "--finish-reason" => o.finish_reason = it.next().cloned(),
            "--think-window" => o.think_window = it.next().and_then(|w| w.parse().ok()),
            "--no-json-blocks" => o.json_blocks = false,
            "--inline-json" => o.inline_json = true,
            "--no-repair" => o.repair = false,
            "--reasoning-calls" => o.reasoning_calls = true,
            "--think-open" => o.think_open = true,
            _ => {}
        }
    }
    o.resolve().expect("a fixture's options resolve").config
}

fn fixtures() -> Vec<(String, Vec<u8>, Config)> {
    let list: Vec<_> = fixture_inputs()
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).expect("read fixture");
            let cfg = config_for(&fixture_args(&p));
            (p.display().to_string(), bytes, cfg)
        })
        .collect();
    assert!(
        list.len() >= 10,
        "expected fixtures under fixtures/, found {}",
        list.len()
    );
    list
}

/// Checks that the segments tile the input and carry the right bytes.
fn assert_lossless(name: &str, input: &[u8], got: &Collector) {
    let (at, _) = common::assert_tiling(name, &got.segments);
    let text: Vec<u8> = got
        .segments
        .iter()
        .filter(|seg| seg.kind == SegmentKind::Text)
        .flat_map(|seg| &input[seg.span[0] as usize..seg.span[1] as usize])
        .copied()
        .collect();
    assert_eq!(
        at,
        input.len() as u64,
        "{name}: segments end at {at}, input is {}",
        input.len()
    );
    assert_eq!(
        text, got.text,
        "{name}: text is not the bytes of the text segments"
    );
    for call in &got.calls {
        let bytes = &input[call.span[0] as usize..call.span[1] as usize];
        assert_eq!(
            call.raw,
            String::from_utf8_lossy(bytes),
            "{name}: raw differs from span"
        );
        assert!(
            call.arguments.is_object(),
            "{name}: arguments not an object"
        );
    }
}

#[test]
fn batch_is_lossless_for_every_fixture() {
    for (name, input, cfg) in fixtures() {
        let got = parse(&input, &cfg);
        assert_lossless(&name, &input, &got);
    }
}

#[test]
fn stream_equals_batch_for_chunk_sizes_1_to_64() {
    for (name, input, cfg) in fixtures() {
        let batch = parse(&input, &cfg);
        for size in 1..=64 {
            let chunked = parse_chunked(chunks_by_size(&input, size), &cfg);
            assert_eq!(
                chunked, batch,
                "{name}: chunk size {size} differs from batch"
            );
            // raw byte chunks too: a special token split inside a character
            let raw = parse_chunked(input.chunks(size), &cfg);
            assert_eq!(
                raw, batch,
                "{name}: raw chunk size {size} differs from batch"
            );
        }
    }
}

/// A collector that only counts calls (`parse -c`, `-q`, `-l`) gets each
/// call as a tally: the same calls in the same places, with the same
/// format, turn and repairs, and the same errors, as the collector that
/// keeps records; only the strings are left out. Whole and chunked.
#[test]
fn tallies_are_the_calls_without_their_strings() {
    let run = |input: &[u8], cfg: &Config, tally: bool, size: usize| {
        let mut engine = toolcall::Engine::new(cfg.clone());
        let mut found = Collector {
            tally,
            ..Collector::calls_only()
        };
        for chunk in input.chunks(size) {
            engine.feed(chunk, &mut found);
        }
        engine.finish(&mut found);
        found
    };
    for (name, input, cfg) in fixtures() {
        for size in [input.len().max(1), 7] {
            let full = run(&input, &cfg, false, size);
            let tally = run(&input, &cfg, true, size);
            assert_eq!(tally.errors, full.errors, "{name} ({size})");
            assert_eq!(tally.calls.len(), full.calls.len(), "{name} ({size})");
            for (t, c) in tally.calls.iter().zip(&full.calls) {
                let place = |c: &toolcall::ToolCall| {
                    (
                        c.index,
                        c.span,
                        c.format,
                        c.turn,
                        c.in_reasoning,
                        c.repairs.clone(),
                    )
                };
                assert_eq!(place(t), place(c), "{name} ({size})");
                assert!(
                    t.name.is_empty() && t.id.is_empty() && t.raw.is_empty() && t.doc.is_empty(),
                    "{name}: a tally has no strings"
                );
                assert_eq!(t.arguments, serde_json::json!({}), "{name}");
            }
        }
    }
}

#[test]
fn stream_equals_batch_for_every_single_cut() {
    for (name, input, cfg) in fixtures() {
        if input.len() > 4096 {
            continue;
        }
        let batch = parse(&input, &cfg);
        for cut in 1..input.len() {
            let chunked = parse_chunked(chunks_at(&input, &[cut]), &cfg);
            assert_eq!(
                chunked, batch,
                "{name}: one cut at {cut} differs from batch"
            );
        }
    }
}

#[test]
fn output_is_deterministic() {
    for (name, input, cfg) in fixtures() {
        let a = serde_json::to_string(&parse(&input, &cfg).into_split("-")).expect("json");
        let b = serde_json::to_string(&parse(&input, &cfg).into_split("-")).expect("json");
        assert_eq!(a, b, "{name}: two runs differ");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_chunkings_equal_batch(seed_cuts in proptest::collection::vec(0usize..10_000, 0..40)) {
        for (name, input, cfg) in fixtures() {
            if input.is_empty() {
                continue;
            }
            let mut cuts: Vec<usize> = seed_cuts.iter().map(|c| c % input.len()).collect();
            cuts.sort_unstable();
            cuts.dedup();
            let batch = parse(&input, &cfg);
            let chunked = parse_chunked(chunks_at(&input, &cuts), &cfg);
            prop_assert_eq!(&chunked, &batch, "{}: cuts {:?}", name, cuts);
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic_and_stay_lossless(
        bytes in proptest::collection::vec(any::<u8>(), 0..512),
        size in 1usize..16,
    ) {
        let cfg = Config::default();
        let batch = parse(&bytes, &cfg);
        assert_lossless("random", &bytes, &batch);
        let raw_chunks: Vec<&[u8]> = bytes.chunks(size).collect();
        let chunked = parse_chunked(raw_chunks, &cfg);
        assert_lossless("random-chunked", &bytes, &chunked);
    }

    #[test]
    fn spliced_fixture_fragments_are_consistent(
        picks in proptest::collection::vec((0usize..1000, 0usize..1000, 0usize..1000), 1..6),
        size in 1usize..24,
    ) {
        // Glue random slices of fixtures together: markers get cut and
        // combined in ways no fixture has.
        let all = fixtures();
        let mut doc = Vec::new();
        for (f, a, b) in picks {
            let input = &all[f % all.len()].1;
            if input.is_empty() {
                continue;
            }
            let (mut s, mut e) = (a % input.len(), b % input.len());
            if s > e {
                std::mem::swap(&mut s, &mut e);
            }
            doc.extend_from_slice(&input[s..=e.min(input.len() - 1)]);
        }
        let cfg = Config::default();
        let batch = parse(&doc, &cfg);
        assert_lossless("spliced", &doc, &batch);
        let chunked = parse_chunked(doc.chunks(size), &cfg);
        prop_assert_eq!(chunked, batch);
    }
}

/// `Engine::settled` is a promise (validate hands on what lies before it):
/// no event emitted after a feed starts before the offset the engine called
/// settled after it, for every fixture, chunk sizes 1–16 and the whole
/// document at once, with calls in reasoning kept (they come out late).
#[test]
fn nothing_comes_before_the_settled_offset() {
    use toolcall::{Engine, Event};
    for (name, input, mut cfg) in fixtures() {
        cfg.reasoning_calls = true;
        for size in (1..=16).chain([input.len().max(1)]) {
            let mut engine = Engine::new(cfg.clone());
            let mut floor = 0u64;
            let mut broken: Option<String> = None;
            let mut check = |ev: Event<'_>, floor: u64| {
                let start = match &ev {
                    Event::Text { span, .. }
                    | Event::Reasoning { span, .. }
                    | Event::Markup { span, .. } => span[0],
                    Event::ToolCall(c) => c.span[0],
                    Event::Error(e) => e.span[0],
                    Event::ToolCallStart { .. } | Event::Turn(_) => return,
                };
                if start < floor && broken.is_none() {
                    broken = Some(format!("{ev:?} starts before the settled {floor}"));
                }
            };
            for chunk in input.chunks(size) {
                engine.feed(chunk, &mut |ev: Event<'_>| check(ev, floor));
                if let Some(s) = engine.settled() {
                    assert!(s >= floor, "{name}: settled went back from {floor} to {s}");
                    floor = s;
                }
            }
            engine.finish(&mut |ev: Event<'_>| check(ev, floor));
            assert!(
                broken.is_none(),
                "{name}, chunks of {size}: {}",
                broken.unwrap_or_default()
            );
        }
    }
}

/// `split` writes its record piece by piece, never building it (issue 36:
/// bounded memory); the bytes are those of the `Split` struct serialized,
/// for every fixture without extra flags and for a document over the
/// 64 KiB piece size full of multi-byte characters, escapes and invalid
/// UTF-8, so that no piece boundary cuts a character.
#[test]
fn split_written_in_pieces_equals_the_split_record() {
    let mut docs: Vec<Vec<u8>> = fixture_inputs()
        .into_iter()
        .filter(|p| fixture_args(p).is_empty())
        .map(|p| std::fs::read(p).expect("read fixture"))
        .collect();
    let mut big = Vec::new();
    let pieces: [&[u8]; 9] = [
        "é".as_bytes(),
        "😀".as_bytes(),
        "中".as_bytes(),
        b"a",
        b"\n",
        b"\"",
        b"\\",
        b"\x01",
        b"\xff",
    ];
    let mut x: u64 = 7;
    while big.len() < 300_000 {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        big.extend_from_slice(pieces[(x >> 33) as usize % pieces.len()]);
        if x.is_multiple_of(9973) {
            big.extend_from_slice(b"\xe2\x82"); // a character cut short
        }
    }
    let call = br#"<tool_call>{"name":"f","arguments":{"a":"\u00e9"}}</tool_call>"#;
    docs.push([&big[..], b"\n", call, b"\n", &big[..]].concat());
    let mut checked = 0;
    // `split` reads whole documents: a lone closer is judged by the whole
    // document (`WHOLE_DOCUMENT_THINK_WINDOW`), within --max-block
    let mut cfg = Config::default();
    cfg.think_window = cfg.max_block;
    for doc in &docs {
        let (found, _) = toolcall::wire::parse(doc, &cfg, &toolcall::wire::WireConfig::default());
        let mut want = serde_json::to_vec(&found.into_split("-")).expect("serialize");
        want.push(b'\n');
        let got = common::run_binary(&["split"], Some(doc), None);
        assert!(got.code <= 1, "split exited {}: {}", got.code, got.stderr);
        assert!(
            got.stdout == want,
            "split differs from the record:\n{}\n{}",
            String::from_utf8_lossy(&got.stdout),
            String::from_utf8_lossy(&want)
        );
        checked += 1;
    }
    assert!(checked > 100, "{checked}");
}

/// `parse` and `stream` hand each call record they have written back to
/// the engine, which writes the next call into its strings
/// (`Sink::spare_call`): a record filled again must keep nothing of the
/// call before it (its id, server fields, repairs, raw text, turn). Calls
/// of every kind follow one another across `parse`'s 64 KiB slices and
/// `stream`'s reads, and every record must be the one the core's
/// collector builds afresh for the same document.
#[test]
fn records_filled_again_keep_nothing_of_the_call_before() {
    let calls = [
        // a provider id and an MCP name (server and tool fields)
        "<tool_call>{\"name\": \"files___read_file\", \"arguments\": {\"path\": \"/tmp/a\"}, \"id\": \"given_1\"}</tool_call>",
        // a derived id, a long raw text
        &format!(
            "<tool_call>{{\"name\": \"f\", \"arguments\": {{\"q\": \"{}\"}}}}</tool_call>",
            "x".repeat(3000)
        ),
        // repaired arguments
        "<tool_call>{\"name\": \"g\", \"arguments\": {\"a\": 1,}}</tool_call>",
        // a short one after the long ones
        "<tool_call>{\"name\": \"h\", \"arguments\": {}}</tool_call>",
    ];
    let mut doc = String::new();
    let mut k = 0;
    while doc.len() < 300 << 10 {
        doc.push_str(&format!(
            "Prose {k} before the call.\n{}\n",
            "words and words. ".repeat(k % 300)
        ));
        doc.push_str(calls[k % calls.len()]);
        doc.push('\n');
        k += 1;
    }
    let resolved = toolcall::Options::default()
        .resolve()
        .unwrap_or_else(|e| panic!("{e}"));
    let cfg = resolved.config.for_doc("doc");
    let fresh = toolcall::parse(doc.as_bytes(), &cfg);
    assert_eq!(fresh.calls.len(), k);
    assert!(fresh.calls.iter().any(|c| !c.repairs.is_empty()));
    assert!(fresh.calls.iter().any(|c| !c.extra.is_empty()));
    let want: Vec<String> = fresh
        .calls
        .iter()
        .map(|c| serde_json::to_string(c).unwrap_or_default())
        .collect();
    let tool_calls = |out: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(out)
            .lines()
            .filter(|l| l.starts_with("{\"type\":\"tool_call\","))
            .map(str::to_string)
            .collect()
    };
    let parse = crate::common::run_binary(&["parse", "--label", "doc"], Some(doc.as_bytes()), None);
    assert_eq!(parse.code, 0, "{}", parse.stderr);
    assert_eq!(tool_calls(&parse.stdout), want, "parse");
    for chunk in ["1000", "65536"] {
        let stream = crate::common::run_binary(
            &["stream", "--label", "doc", "--chunk-size", chunk],
            Some(doc.as_bytes()),
            None,
        );
        assert_eq!(stream.code, 0, "{}", stream.stderr);
        assert_eq!(tool_calls(&stream.stdout), want, "stream at {chunk}");
    }
}

/// Every event as text, in order (text records are cut where events are).
#[derive(Default)]
struct Events(Vec<String>);

impl toolcall::Sink for Events {
    fn event(&mut self, ev: toolcall::Event<'_>) {
        self.0.push(format!("{ev:?}"));
    }
}

/// `stream` reads behind a copy of the bytes the engine holds undecided
/// and feeds both in place (`feed_after_held`): the events are those of
/// feeding the reads, event for event, for every fixture read at several
/// sizes, through the wire reader (which sniffs the input) and the text
/// engine; held bytes that are not the engine's are fed as the read alone.
#[test]
fn feeding_behind_held_bytes_equals_feeding_the_reads() {
    use toolcall::wire::{WireConfig, WireEngine};
    // reads that followed held bytes, over all fixtures
    let mut taken = 0;
    for (name, input, cfg) in fixtures() {
        for size in [1, 2, 3, 7, 16, 61, 4096] {
            let mut want = Events::default();
            let mut plain = WireEngine::new(cfg.clone(), WireConfig::default());
            let mut got = Events::default();
            let mut behind = WireEngine::new(cfg.clone(), WireConfig::default());
            let mut text_want = Events::default();
            let mut text_plain = toolcall::Engine::new(cfg.clone());
            let mut text_got = Events::default();
            let mut text_behind = toolcall::Engine::new(cfg.clone());
            for (k, chunk) in input.chunks(size).enumerate() {
                plain.feed(chunk, &mut want);
                let mut data = behind.held_bytes().map(<[u8]>::to_vec).unwrap_or_default();
                let held = data.len();
                taken += usize::from(held > 0);
                data.extend_from_slice(chunk);
                behind.feed_after_held(&data, held, &mut got);

                text_plain.feed(chunk, &mut text_want);
                let mut data = text_behind
                    .held_bytes()
                    .map(<[u8]>::to_vec)
                    .unwrap_or_default();
                let held = data.len();
                if k % 5 == 4 && held > 0 {
                    // not the held bytes: the read is fed alone
                    data[0] ^= 0x20;
                }
                data.extend_from_slice(chunk);
                text_behind.feed_after_held(&data, held, &mut text_got);
            }
            plain.finish(&mut want);
            behind.finish(&mut got);
            text_plain.finish(&mut text_want);
            text_behind.finish(&mut text_got);
            assert_eq!(got.0, want.0, "{name}: reads of {size}");
            assert_eq!(text_got.0, text_want.0, "{name}: text, reads of {size}");
        }
    }
    assert!(taken > 10_000, "only {taken} reads followed held bytes");
}
