//! `toolcall-core` used as a library, through its public entry points only:
//! parsing a document, the engine fed in chunks, JSON repair, the prompt
//! side written and read back. The command line's tests live in the root
//! crate's `tests/`.

use serde_json::{json, Value};
use toolcall_core::{
    families, is_valid_json, parse, render_calls, repair, CallSpec, Collector, Config, Engine,
    RepairOptions, SegmentKind,
};

/// Replies in several formats, with prose, reasoning and markup around the
/// calls.
const REPLIES: &[&str] = &[
    "Let me look.\n<tool_call>\n{\"name\": \"search\", \"arguments\": {\"q\": \"rust\"}}\n</tool_call>\nDone.",
    "<think>The user wants weather.</think>[TOOL_CALLS][{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}]",
    "Sure.<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>",
    "[get_weather(city=\"Paris\"), get_time(tz='CET')]",
    "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>",
    "text only, with a { brace } and a <tag> that opens nothing",
];

fn names(doc: &Collector) -> Vec<&str> {
    doc.calls.iter().map(|c| c.name.as_str()).collect()
}

#[test]
fn parse_finds_the_call_and_tiles_the_document() {
    let input = REPLIES[0].as_bytes();
    let doc = parse(input, &Config::default());
    assert_eq!(names(&doc), ["search"]);
    assert_eq!(doc.calls[0].format, "hermes");
    assert_eq!(*doc.calls[0].arguments.as_value(), json!({"q": "rust"}));
    assert!(doc.errors.is_empty(), "{:?}", doc.errors);
    // the segments tile the input: adjacent, from 0 to its end
    let mut at = 0;
    for s in &doc.segments {
        assert_eq!(s.span[0], at, "{:?}", doc.segments);
        at = s.span[1];
    }
    assert_eq!(at, input.len() as u64);
    let kinds: Vec<SegmentKind> = doc.segments.iter().map(|s| s.kind).collect();
    assert_eq!(
        kinds,
        [SegmentKind::Text, SegmentKind::ToolCall, SegmentKind::Text]
    );
    assert_eq!(doc.text, b"Let me look.\n\nDone.");
}

#[test]
fn every_reply_gives_the_calls_it_holds() {
    let want: [&[&str]; 6] = [
        &["search"],
        &["get_weather"],
        &["get_weather"],
        &["get_weather", "get_time"],
        &["get_weather"],
        &[],
    ];
    for (reply, want) in REPLIES.iter().zip(want) {
        let doc = parse(reply.as_bytes(), &Config::default());
        assert_eq!(names(&doc), want, "{reply}");
        assert!(doc.errors.is_empty(), "{reply}: {:?}", doc.errors);
    }
    let doc = parse(REPLIES[1].as_bytes(), &Config::default());
    assert_eq!(doc.reasoning, b"The user wants weather.");
}

#[test]
fn the_engine_fed_in_chunks_gives_what_parse_gives() {
    for reply in REPLIES {
        let whole = parse(reply.as_bytes(), &Config::default());
        for size in 1..=17 {
            let mut got = Collector::default();
            let mut engine = Engine::new(Config::default());
            for chunk in reply.as_bytes().chunks(size) {
                engine.feed(chunk, &mut got);
            }
            engine.finish(&mut got);
            assert_eq!(got, whole, "{reply} in chunks of {size}");
        }
    }
}

#[test]
fn repair_fixes_broken_json_and_keeps_valid_json() {
    let opts = RepairOptions::default();
    let fixed = repair("{'city': 'Paris', \"days\": 3,}", &opts).expect("repairable");
    assert!(fixed.changed);
    assert!(!fixed.repairs.is_empty());
    let v: Value = serde_json::from_str(&fixed.output).expect("the output is JSON");
    assert_eq!(v, json!({"city": "Paris", "days": 3}));

    let valid = "{\"a\": [1, 2.5, null]}";
    let same = repair(valid, &opts).expect("valid");
    assert!(!same.changed);
    assert!(same.repairs.is_empty());
    assert_eq!(same.output, valid);
    assert!(is_valid_json(valid));
    assert!(!is_valid_json("{'a': 1}"));
}

#[test]
fn a_call_missing_its_last_brace_is_repaired_and_one_cut_inside_is_an_error() {
    let doc = parse(
        b"<tool_call>{\"name\": \"f\", \"arguments\": {\"x\": \"ab\"}",
        &Config::default(),
    );
    assert_eq!(names(&doc), ["f"]);
    assert_eq!(*doc.calls[0].arguments.as_value(), json!({"x": "ab"}));
    assert!(!doc.calls[0].repairs.is_empty());

    let doc = parse(
        b"<tool_call>{\"name\": \"f\", \"arguments\": {\"x\": \"ab",
        &Config::default(),
    );
    assert!(doc.calls.is_empty());
    assert_eq!(doc.errors.len(), 1);
    assert_eq!(doc.errors[0].code, "TLP-002");
}

#[test]
fn every_family_reads_back_the_calls_it_writes() {
    let calls = [
        CallSpec::new("get_weather", json!({"city": "Paris"})),
        CallSpec::new("get_time", json!({"zone": "CET"})),
    ];
    assert!(families().len() > 30);
    for fam in families() {
        let text = render_calls(fam, &calls);
        let doc = parse(text.as_bytes(), &Config::default());
        let got: Vec<(&str, &Value)> = doc
            .calls
            .iter()
            .map(|c| (c.name.as_str(), c.arguments.as_value()))
            .collect();
        let want = [
            ("get_weather", &json!({"city": "Paris"})),
            ("get_time", &json!({"zone": "CET"})),
        ];
        assert_eq!(got, want, "{}: {text}", fam.id);
    }
}

#[test]
fn the_library_never_runs_or_ends_a_process() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![root];
    let mut read = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("readable source tree") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                let src = std::fs::read_to_string(&path).expect("UTF-8 source");
                read += 1;
                for word in ["std::process", "process::exit", "println!", "eprintln!"] {
                    assert!(!src.contains(word), "{} uses {word}", path.display());
                }
            }
        }
    }
    assert!(read > 50, "the sources were read: {read}");
}
