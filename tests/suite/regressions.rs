//! Inputs the fuzzers (`fuzz/`) found crashing or breaking an invariant,
//! each embedded as bytes with what broke. Every case runs the checks of
//! the fuzz target that found it: no panic, lossless segments, and stream
//! == batch at every chunk size from 1 to 16.

use crate::common::chunks_by_size;
use toolcall::SegmentKind;
use toolcall::{parse, parse_chunked, Collector};
use toolcall::{Config, FormatChoice};

/// The fuzz targets' invariant checks (see `fuzz/src/lib.rs`).
fn check(input: &[u8], cfg: &Config) -> Collector {
    let batch = parse(input, cfg);
    let mut at = 0u64;
    let mut text = Vec::new();
    for seg in &batch.segments {
        assert_eq!(seg.span[0], at, "gap or overlap: {:?}", batch.segments);
        if seg.kind == SegmentKind::Text {
            text.extend_from_slice(&input[seg.span[0] as usize..seg.span[1] as usize]);
        }
        at = seg.span[1];
    }
    assert_eq!(at, input.len() as u64, "segments do not cover the input");
    assert_eq!(text, batch.text, "text is not the text segments' bytes");
    for c in &batch.calls {
        let raw = &input[c.span[0] as usize..c.span[1] as usize];
        assert_eq!(c.raw, String::from_utf8_lossy(raw), "raw is not the span");
    }
    for size in 1..=16 {
        let chunked = parse_chunked(chunks_by_size(input, size), cfg);
        assert_eq!(chunked, batch, "chunk size {size} differs from batch");
    }
    batch
}

fn forced(id: &str) -> Config {
    Config {
        format: FormatChoice::Only(toolcall::formats::FormatId::lookup(id).expect("known format")),
        ..Config::default()
    }
}

/// fuzz `parse` (auto format), first minutes: a panic "slice index starts
/// at 83 but ends at 74" in `minimax_m2::invokes`. After a namespace token,
/// `<[` began a "parameter tag" whose `>` was the one of `</invoke>`, so
/// the value started after the invoke's end, which bounded it. Fixed: a `<`
/// whose `>` lies past `</invoke>` is stray text, not a tag.
#[test]
fn minimax_tag_swallowing_invoke_close() {
    let input: &[u8] = b"\xe6\x88\x91\xe5\x86\x8d\xe6\x9f\xa5\xe5\x87\xa0\xe6\x9d\xa1\xe3\x80\x82\
]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name=\"search\">]<]minimax[>[<[</invoke>\n\
]<]minimax[>[</tool_call>";
    let got = check(input, &Config::default());
    assert_eq!(got.calls.len(), 1);
    assert_eq!(got.calls[0].name, "search");
    check(input, &forced("minimax-m3"));
    check(input, &forced("minimax-m2"));
}

/// fuzz `parse` (flags: --reasoning-calls --think-open --no-repair): "attempt
/// to subtract with overflow" in `Engine::line_col` (a wrapped column in
/// release builds). A block's errors were placed in the order the format
/// produced them; the `--no-repair` TLP-002 error (offset 0) came after an
/// error at a later offset, and `line_col` counts lines forward only.
/// Fixed: a block's errors are placed in offset order.
#[test]
fn no_repair_error_before_a_later_error_in_one_block() {
    let input: &[u8] = b"\x0c<tool_calls>\x0a{\"name\": \"a\",$\"argum \"argum{\"x\": 1}}\x0a{\"name\"\x1a \"b\", \
\"arguments\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\
\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00I\x00\x00\x00\
\x00\x00\x00\x00\x00\x00 \x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\
\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\
\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00??\
???????????????????????????????????????????????????????????????\x00\x00\x00\x00\x00\x00\
\x00\x00\x00\x00\x00\x00\x00\": {\"y\": 1}}\x0a</tool_calls>";
    let cfg = Config {
        reasoning_calls: true,
        think_open: true,
        repair: false,
        ..Config::default()
    };
    let got = check(input, &cfg);
    let no_think = Config {
        think_open: false,
        ..cfg
    };
    let got2 = check(input, &no_think);
    for e in got.errors.iter().chain(&got2.errors) {
        assert!(
            e.column <= input.len() as u64,
            "column {} wrapped",
            e.column
        );
    }
}

fn small_block(cfg: Config) -> Config {
    Config {
        max_block: 64,
        ..cfg
    }
}

/// fuzz `stream` (max_block 64, one-byte chunks): stream != batch. Batch
/// scanned this 122-byte call in one go and accepted it; a stream held it
/// back in pieces, passed 64 bytes and gave TLP-007. The limit was checked
/// on whatever had arrived. Fixed: the block scanner sees at most
/// `max_block` bytes of a block in batch as in stream; no end within them
/// is TLP-007 for exactly those bytes, and scanning resumes after them.
#[test]
fn max_block_is_decided_on_the_first_max_block_bytes() {
    let input: &[u8] =
        b"<function=query_tickets>{\"filter\": {\"status\": [\"\x01\x00\x00}\", \"blocked\"], \"as\
    signee\": {\"team\": \"infra\"}}, \"limit\": 09}</function>";
    let got = check(input, &small_block(Config::default()));
    assert_eq!(got.calls.len(), 0);
    assert_eq!(got.errors.len(), 1);
    assert_eq!(got.errors[0].code, "TLP-007");
    assert_eq!(got.errors[0].span, [0, 64]);
    // the same call under the default limit
    assert_eq!(check(input, &Config::default()).calls.len(), 1);
}

/// fuzz `stream` (--no-repair, max_block 64, chunks of 3 and 13): batch
/// gave back everything after an over-limit block as unscanned text (one
/// TLP-007 to the end of input), a stream gave back only what it held and
/// went on finding markup. Fixed as above: the same 64 bytes are given
/// back and scanning resumes after them, in both.
#[test]
fn over_limit_block_gives_back_the_same_bytes_in_stream_and_batch() {
    let input: &[u8] =
        b"<stirt_function_cill>call:set_remind\x00\x00\x01\x07<\xef\xbd\x9ctool\xe2\x96\x81calls\
    \xe2\x96\x81begin\xef\xbd\x9c><\xef\xbd\x9ctool\xe2\x96\x81call\xe2\x96\x81begin\xef\xbd\
    \x9c>get_time<\xef\xbd\x9ctool\xe2\x96\x81sep\xef\xbd\x9c>{\"tz\"z\": \"UTC\"}<\xef\xbd\
    \x9ctool\xe2\x96\x81call\xe2\x96\x81end\xef\xbd\x9c>\n\
    <\xef\xbd\x9ctool\xe2\x96\x81call\xe2\x96\x81begin\xef\xbd\x9c>get_time<\xef\xbd\x9ctool\
    \xe2\x96\x81sep\xef\xbd\x9c>{\"tz\": \"Asia/Tokyo\": \"UTC\"}<\xef\xbd\x9ctool\xe2\x96\
    \x81call\xe2\x96\x81end\xef\xbd\x9c>\n<\xef\xbd\x9ctool\xe2\x96\x81call\xe2\x96\x81begin\
    \xef\xbd\x9c>get_time<\xef\xbd\x9ctooer{text:<\x00scape>Call mom, the\x00\xff\xff\xff\
    \xbcCalling now: <\xef\xbd\x9cDSML\xef\xbd\x9cinvokle na\xe2m";
    let cfg = small_block(Config {
        repair: false,
        ..Config::default()
    });
    let got = check(input, &cfg);
    assert!(got
        .errors
        .iter()
        .all(|e| e.code != "TLP-007" || e.span[1] - e.span[0] <= 64));
}

/// fuzz `stream` (--no-json-blocks, chunks of 8): `tool_call_start` events
/// differed. The early name was read from the buffer after the block's
/// start, which in batch runs past the block's end: a block that ended
/// before its name got the next block's name ("b"). Fixed: the name is read
/// from the block's own bytes.
#[test]
fn early_name_is_read_from_the_block_only() {
    let input: &[u8] = b"Two call{\"name\": \"a\"\", arguments\": {\"x\": 1}}\n\
    </tool_call>\n<tool_call>\n{calls.\n</think>\n\
    \n<tool]call\n</think>\n\n<tool]call>\n{\"name\": \"a\", \"arguments\": {\"x\": 0}}\n\
    </\"name\": \"b\", \"arguments\": {{\nacl>lcalls.\n\
    </think>\n\n<too\x94\xa2\x9c\x9e\x93\x93\xc1\xff{\"name\": \"a\", \"aurgments\": {\"x\":\
    \x201}uments\": {}}\n</to}}\n</tool_call>";
    let got = check(
        input,
        &Config {
            json_blocks: false,
            ..Config::default()
        },
    );
    assert!(
        got.starts.iter().all(|(_, name)| name == "a"),
        "{:?}",
        got.starts
    );
}

/// fuzz `stream` (--no-json-blocks --think-open, max_block 64, one-byte
/// chunks): a stream emitted `tool_call_start` for a block it held back
/// before the block went over the limit; batch, seeing the limit at once,
/// emitted none. Fixed: the over-limit path emits the start too (a stream
/// cannot take it back).
#[test]
fn over_limit_block_emits_its_start_in_batch_too() {
    let input: &[u8] = b"\x00\x00\x0eink>\nFirst list the tests directory.\n\
    </think>\n\n<to_clloal>\n<function=list_dir>\n\
    <parameter=path>\ntests\n</parameter>\n</function>\n\
    </tool_ca\xb9ll>";
    let cfg = small_block(Config {
        json_blocks: false,
        think_open: true,
        ..Config::default()
    });
    check(input, &cfg);
}

/// fuzz `stream` (auto, one-byte chunks): a line-start ``` whose info
/// string has no newline within 256 bytes is not a fence in a stream (the
/// probe gives up at 256 bytes), but batch found the newline further on and
/// made the rest of the document fence content. Fixed: the probe looks for
/// the newline only in the 256 bytes after the backticks.
#[test]
fn fence_info_string_is_looked_for_in_256_bytes_only() {
    let input: &[u8] =
        b"\x00pIltonlE  he notehe s.\n```too\xaf\xaf\xafnotpath\"\xff\xff\xff\xff\xff\xff\xff\xff\
    \xff\xff\xff<\xef\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xffvb'vb'v\x02\
    \xff\xff\xff\xff\xff\xff\xff\xffse\x9ctool\xe2\x96\x81calls\xe2\x96\x81begin\xef\xbd\x9c\
    ><\xef\xbd\x9ctool\xe2\x96\x00\x00\x00\x00\x00\x00\x00\x00\x00\xff\xff\xff\xff\xff\xff\
    \xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\
    \xff\xff\xff\xff\xff\xfframst\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\
    \xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x07```'\
    tool_calRT_ACTION|>[{\"tool_\xa2all_id\": \"0\", \"me=to</\xaf\xbd\x9cDSML\xef\xbd\x9cpa\
    \xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\
    \xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x00\x00\x00\x00\x00\
    \x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x0d\x0d\x0d\x0d\x0d\x0d\x0d\
    \x0d\x0d\x0d\x0d\x0d\x0d\xe2gKn\xef\xbd\x9c>functi\x15n<\xef\xbd\x9ctool\xe2\x96\x81sep\
    \xef\xbd\x9c>list_files\xffsep\xef\xbd\x9c>list_files\x02```json\n\
    {\"di\x00 rpo: /\"\"tes\xffsep\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\
    \x96\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\
    \x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\
    \xef\xbd\x9c>logs\"}\n`R``: &notf8.md|>%\n\
    ```";
    check(input, &Config::default());
    let mut doc = b"```".to_vec();
    doc.extend_from_slice(&[b'a'; 300]);
    doc.extend_from_slice(b"\n<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>\n");
    assert_eq!(check(&doc, &Config::default()).calls.len(), 1);
}

/// fuzz `stream` after the max_block fix above (--reasoning-calls
/// --think-open --no-repair, max_block 64): "index out of bounds: the len is
/// 64 but the index is 108" in the mistral scanner. The probe of
/// `[TOOL_CALLS]name[CALL_ID]id[ARGS` had consumed more than 64 bytes and
/// the scanner resumes there. Fixed: the scanner's view is never shorter
/// than what the probe consumed.
#[test]
fn block_view_covers_what_the_probe_consumed() {
    let input: &[u8] = b"\x00\x0cwI ill0sol_calls>\n{\"#\x004e\"{\"name/:<|too\x00<|oteI'll\n\
    </think>\n\n<tool_call>\n{\"name\": \"a\", \"argument\x00\x97: {\"x\": 0}}\x00\x00\x00I'\
    ll\x00\x00\x02\x02\x0cI wi opEn the s\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\
    \xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\
    \xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\
    \xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\
    \xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\
    \xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xffsep\xefearch\
    \x20for it.\nA.\nAct: ```j\xe8on\n[\n .\x00\x00\x00\x00\x00\x00\x00\x90\x90\x90\x90\x90\x90\
    \x90\x90\x90\x90\x90\x90\x90\x90\x90\x90\x90\x90\x90\x90\x94\x90\x90\x90\x90\x90\x90\x90\
    \x90\x90\x90\x90:\x90\x90?\x90\x90\x90\x90\x90\x90\x90\x90\x90\x90\x90\x90\x90\x90\x90\
    \x90\x90\x90\x90\x90\x90\x90\x90\x90\x90\x90\x90\x90\x90\x90\x90\x90\x90\x90\"qumry\": \
    \"b\x00\x00\x01\x07[TOOL_CALLS]lookup_flight[CALL_ID]k3J9sL2qP[ARGS\x86\x00\x00\x00\x00\
    \x00\x00\x00t\": \"TP123igges\xd5 penguin\"\xff\xff\xff\xff\xff\xff\xff\x00\x00   \x1e}\
    \n    }\n]\n```\n";
    let cfg = small_block(Config {
        reasoning_calls: true,
        think_open: true,
        repair: false,
        ..Config::default()
    });
    check(input, &cfg);
    let call = b"[TOOL_CALLS]lookup_flight[CALL_ID]k3J9sL2qP[ARGS]{\"flight\": \"TP123\"}";
    for max_block in [1, 16, 40, 64] {
        let cfg = Config {
            max_block,
            ..Config::default()
        };
        check(call, &cfg);
    }
}

/// fuzz `wire` (--input auto, max_buffer 64, one-byte chunks): stream !=
/// batch. The sniffer gave up at 64 bytes without a newline (text) in a
/// stream, but batch saw the first line's end further on and read the input
/// as Ollama NDJSON (every line then over the 64-byte limit). Fixed: the
/// sniffer looks at the first `max_buffer + 1` bytes only.
#[test]
fn sniffer_decides_on_the_first_max_buffer_bytes() {
    use toolcall::wire::{self, InputKind, WireConfig};
    let input: &[u8] =
        b"{\"model\":\"hermes3\",\"created_at\":\"2026-05-01T10:00:00.10d\",\".response\":\"Checki\
    ng.\\n<tool_\",\"done\":false}\n{\"model\":\"hermes3\",\"created_at\":\"2026-05-01T10:00\
    :00.11Z\",\"respo\xa8nse\":\"call>\\n{\\\"name\\\"reated_at\":\"2026-05-01T10:00:00.12Z\
    \",\"response\":\"ther\\\", \\\"arguments\\\": {\\\"city\\\": \\\"Oslo\\\"}}\\n\
    </tool_call>\",\"done\":false}\n{\"model\":\"hermes3\",\"created_at\":\"2026-05-01T10:00\
    :00.13Z\",\"response\":\"\",\"done\":true,\"done_reason\":\"stop\",\"prompt_eval_coun&t\
    \":40,\",\"created_at\":\"\n";
    let w = WireConfig {
        input: InputKind::Auto,
        max_buffer: 64,
    };
    let cfg = Config::default();
    let batch = wire::parse(input, &cfg, &w);
    for size in 1..=16 {
        let chunked = wire::parse_chunked(input.chunks(size), &cfg, &w);
        assert_eq!(chunked, batch, "chunk size {size} differs from batch");
    }
    // Since issue 17 a first line longer than the window is classified by
    // the keys it opens with (here Ollama's `model`, `created_at`), not
    // given up on as text; still from the first `max_buffer + 1` bytes only.
    assert_eq!(batch.1.input, InputKind::Ollama);
}

/// fuzz `validate` (first seconds): a diagnostic's offset was
/// `span[0] + locate(raw, …)`, but `raw` is the markup read as lossy UTF-8,
/// where each invalid sequence (1–3 bytes) became a 3-byte U+FFFD, so every
/// invalid byte before the key pushed the caret two bytes further: here 60
/// bytes past the end of the call (offset 170, span [0, 143]), on the wrong
/// line. Fixed: `diag::locate_in` maps the offset in `raw` back to the
/// document's bytes; `Tools::enrich` and `validate` use it.
#[test]
fn validate_caret_after_invalid_utf8() {
    use toolcall::validate::diag;
    use toolcall::validate::{registry::Registry, Policy};
    let tools = r#"{"shell": {"type": "object", "properties": {"cmd": {"type": "string"}}, "required": ["cmd"]}}"#;
    let input: &[u8] = b"<minimax:tool_call>\n<invoke name=\"shell\">\n<paramet\
\xff\xff\xff\xff\xff\xff\xff\xff\xff\xffnimax:tool\xff\xff\xff\xff\xff\xff\xff\xff\
\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\
er name=\"cmd\">ls -la</pvoke>\n</minimax:tool_call>";
    let reg = Registry::from_text(tools, true).expect("registry");
    let got = check(input, &Config::default());
    assert_eq!(got.calls.len(), 1);
    let call = &got.calls[0];
    assert_eq!(call.span, [0, input.len() as u64]);
    let v = reg.check(&call.name, &call.arguments, &Policy::default());
    assert!(!v.valid);
    assert!(v.errors.iter().any(|e| e.path == "/cmd"), "{:?}", v.errors);
    let at = diag::locate_in(Some(input), call.span, &call.raw, "/cmd", &call.name);
    assert!(at as u64 <= call.span[1], "caret at {at}, past the call");
    assert_eq!(&input[at..at + 5], b"\"cmd\"");
    let pos = diag::position(input, at);
    assert_eq!((pos.line, pos.column), (3, 61));
}

/// A name glued to JSON at the start of a reply (`NAME{…}`, functionary's
/// opener without `<function=`) that no `</function>` follows: batch read
/// the whole rest of the input as text, a stream only what had arrived
/// when the scanner gave up, so a later `<|message|>` was markup in one
/// and text in the other (found by `spliced_fixture_fragments_are_consistent`).
#[test]
fn glued_name_without_close_is_text_the_same_at_every_chunk_size() {
    for input in [
        &br#"config{"debug": true}>json<|message|>{"city": "Berlin"}<|call|>"#[..],
        br#"config{"debug": true} x<|message|>y"#,
    ] {
        let found = check(input, &Config::default());
        assert!(found.calls.is_empty());
        let markup = found
            .segments
            .iter()
            .filter(|s| s.kind == SegmentKind::Markup)
            .count();
        assert!(markup >= 1, "the stray <|message|> is markup");
    }
}

/// Probing, GLM-4.7 writing a file about its own call layout: a value that
/// holds the text `</arg_value>` ended at that first close, and the rest
/// up to the real close was dropped without a repair or an error. A value
/// now runs to the last `</arg_value>` before the next `<arg_key>`,
/// `<arg_value>` or call close. Checked through the binary (`parse`, and
/// `stream` read one byte at a time) and through the library for every
/// chunk size; a missing close before the call's end reads as before.
#[test]
fn pair_value_quoting_its_close_keeps_its_text() {
    let content = "A value ends at </arg_value>; and </arg_value> twice.";
    let input = format!(
        "<tool_call>write_file<arg_key>path</arg_key><arg_value>a.md</arg_value>\
         <arg_key>content</arg_key><arg_value>{content}</arg_value>\
         <arg_key>mode</arg_key><arg_value>w</arg_value></tool_call>\n\
         <tool_call>lookup<arg_key>city</arg_key><arg_value>Oslo</arg_value>\
         <arg_key>units</arg_key><arg_value>metric</tool_call>"
    );
    let want = [
        serde_json::json!({"path": "a.md", "content": content, "mode": "w"}),
        serde_json::json!({"city": "Oslo", "units": "metric"}),
    ];
    for args in [&["parse"][..], &["stream", "--chunk-size", "1"][..]] {
        let r = crate::common::run_binary(args, Some(input.as_bytes()), None);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        let got: Vec<serde_json::Value> = String::from_utf8_lossy(&r.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|v| v["type"] == "tool_call")
            .map(|v| v["arguments"].clone())
            .collect();
        assert_eq!(got, want, "{args:?}");
    }
    for format in ["auto", "glm4-moe"] {
        let cfg = if format == "auto" {
            Config::default()
        } else {
            forced(format)
        };
        let batch = check(input.as_bytes(), &cfg);
        let got: Vec<_> = batch.calls.iter().map(|c| c.arguments.clone()).collect();
        assert_eq!(got, want, "{format}");
    }
}
