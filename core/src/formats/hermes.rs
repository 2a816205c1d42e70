//! `hermes`: `<tool_call>{"name": …, "arguments": …}</tool_call>`.
//!
//! The `<tool_call>` tag is shared with `qwen3-coder-xml` and `glm4-moe`; the
//! probe here reads what follows the tag and hands the block to the right
//! format: `{`/`[` is hermes, `<function=` is Qwen3-Coder, a bare name is GLM.
//! Tolerated: no newlines around the body, a missing closing tag, tag case and
//! spelling drift (`<Tool_Call>`, `<tool-call>`, `<toolcall>`), attributes on
//! the tag, `parameters` for `arguments`, string arguments, OpenAI-shaped
//! bodies, arrays of calls, `</tool_call>` inside string arguments, and a
//! tag that names the call (`<tool_call name="f">{"q": 1}</tool_call>`).

use super::shared::json::{json_block, json_body_end, json_calls_end, plain_block, JsonThenClose};
use super::shared::section;
use super::shared::stray::probe_tool_call_close;
use super::shared::tag::{tag_then_body, tool_call_len, tool_call_openers};
use super::shared::tagged::{json_after, TaggedJson};
use super::Model;
use super::{ids, FormatId};
use super::{Action, BlockFormat, BlockResult, Format, Opener, ParseCx, Probe, ProbeCx};
use crate::call::{Evidence, ParsedCall};
use crate::render::{results, tools, Prompt};
use crate::scan::{self, Prefix};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::HERMES,
    "Hermes 2 Pro/3, Qwen2.5, Qwen3, QwQ, Granite 4, DeepSeek-R1 distills, many fine-tunes",
    &["<tool_call>", "</tool_call>"],
    "JSON object {\"name\", \"arguments\"} (or an array of them)",
)
.turns(&[super::TurnMarker::named(b"<|im_start|>", b"\n")])
.models(&[
    Model::new("qwen3", "<|im_start|>assistant\n"),
    Model::new("qwen3-thinking", "<|im_start|>assistant\n<think>\n"),
    Model::new("qwq", "<|im_start|>assistant\n<think>\n"),
    Model::new("qwen2.5", "<|im_start|>assistant\n"),
    Model::new("hermes-3", "<|im_start|>assistant\n"),
    Model::new("hermes-2-pro", "<|im_start|>assistant\n"),
])
.openers(&[
    OPENERS_TOOL_CALL[0],
    OPENERS_TOOL_CALL[1],
    OPENERS_TOOL_CALL[2],
    OPENER_STRAY_CLOSE,
    OPENER_TOOLS,
    OPENER_TOOL,
    OPENER_RESPONSE,
    OPENER_JSON,
    OPENER_XML,
    OPENER_FUNCTION,
    OPENER_FUNCTION_CALL_DASH,
    OPENER_TOOL_CALLS,
])
.render(
    Prompt::new(
        "Qwen 2.5 / Qwen 3, Hermes 2 Pro / 3",
        crate::render::calls::tool_call_json,
    )
    .template(tools::hermes, results::qwen),
);

const CLOSE: &[u8] = b"</tool_call>";

/// The hermes block format.
pub struct Hermes;

/// The shared instance.
pub static HERMES: Hermes = Hermes;

/// A hermes block after an opening tag `lit_len` bytes long: a JSON body,
/// an empty tag (`<tool_call></tool_call>`), or the input ending right
/// after the tag (a cut-off call). Other bodies are for `qwen3-coder-xml`
/// and `glm4-moe`, which have openers for the same tags.
fn probe_tool_call(input: &[u8], cx: &ProbeCx) -> Probe {
    let close = close_for(input);
    let (tag, body) = match tag_then_body(input, tool_call_len(input), cx) {
        Ok(t) => t,
        Err(p) => return p,
    };
    let block = || {
        Probe::Match(Action::Block {
            fmt: &HERMES,
            scanner: crate::formats::BlockScanner::Json(
                JsonThenClose::new(tag, close)
                    .broken_ends_at_close()
                    .calls_joined_by_commas()
                    .reads_envelope(),
            ),
        })
    };
    let Some(s) = body else {
        return block();
    };
    match input[s] {
        b'{' | b'[' => block(),
        b'<' => match scan::prefix(&input[s..], CLOSE) {
            Prefix::Full => block(),
            Prefix::Partial if !cx.eof => Probe::NeedMore,
            _ => Probe::NotMarker,
        },
        _ => Probe::NotMarker,
    }
}

/// `<tool_call>` and its spelling drift, any ASCII case, with optional
/// attributes; each closes with its own spelling.
pub const OPENERS_TOOL_CALL: [Opener; 3] = tool_call_openers(probe_tool_call);

/// A stray `</tool_call>` with no opener is markup, never text; one that
/// closes a `<tool_call>` left as text (`<tool_call>not a call</tool_call>`,
/// `Use <tool_call> and </tool_call>`) is text like its opener.
pub const OPENER_STRAY_CLOSE: Opener = Opener::new(b"</tool_call>", probe_tool_call_close)
    .ci()
    .also(&[ids::QWEN3_CODER_XML, ids::GLM4_MOE]);

/// The closing tag matching the opener spelling at the start of `block`.
fn close_for(block: &[u8]) -> &'static [u8] {
    // the block starts with one of the three spellings: its sixth byte
    // tells them apart (as `tool_call_len` does)
    match block.get(5) {
        Some(b'-') => b"</tool-call>",
        Some(b'c' | b'C') => b"</toolcall>",
        _ => CLOSE,
    }
}

impl BlockFormat for Hermes {
    fn id(&self) -> FormatId {
        ids::HERMES
    }

    fn early_name(&self, head: &[u8]) -> Option<String> {
        let tag = memchr::memchr(b'>', head)? + 1;
        super::early_json_name(head, tag)
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        let tag = memchr::memchr(b'>', block).map_or(block.len(), |k| k + 1);
        let close = close_for(block);
        if !cx.cut {
            // the commonest block: the close tag ends it and the body between
            // is one plain call object; no need to find where the JSON ends
            let end = block.len().saturating_sub(close.len());
            if end >= tag && scan::eq_ci(&block[end..], close) {
                if let Some(r) = plain_block(block, tag, end, ids::HERMES, cx) {
                    return r;
                }
            }
        }
        let body_end = json_calls_end(block, tag, close);
        let r = json_block(block, tag, body_end, ids::HERMES, cx);
        if r.calls.is_empty() {
            if let Some(named) = named_by_tag(block, tag, close, cx) {
                return named;
            }
        }
        r
    }
}

/// A tag that names the call around a body that does not:
/// `<tool_call id="call_0" name="f">{"q": 1}</tool_call>` (DeepSeek V4 falls
/// back to this as text). The body is the arguments object (or `{}` when
/// empty); a body wrapping them in `arguments`/`parameters` alone is
/// unwrapped. `None` when the tag has no usable `name` attribute, or the
/// body is not one complete JSON object: a cut-off body stays the error the
/// plain reading gave.
fn named_by_tag(block: &[u8], tag: usize, close: &[u8], cx: &ParseCx) -> Option<BlockResult> {
    let name = section::attr(&block[..tag], "name")?;
    let name = name.trim();
    let first = *name.as_bytes().first()?;
    if !scan::is_name_start_byte(first) || !name.bytes().all(scan::is_name_byte) {
        return None;
    }
    let s = scan::skip_space(block, tag);
    // the body runs to the close tag, or (a complete object whose close
    // tag was lost) to the end of input
    let closed_at = |at: usize, at_eof_ok: bool| {
        let at = scan::skip_space(block, at);
        (at == block.len() && at_eof_ok)
            || (block.len() - at == close.len() && block[at..].eq_ignore_ascii_case(close))
    };
    let (arguments, repairs) = if closed_at(s, false) {
        (
            serde_json::Value::Object(serde_json::Map::new()),
            Vec::new(),
        )
    } else {
        let end = json_body_end(block, tag, close);
        let complete = end > s && block[end - 1] == b'}';
        if block.get(s) != Some(&b'{') || !complete || !closed_at(end, true) {
            return None;
        }
        let body = crate::scan::lossy(&block[s..end]);
        let (value, mut repairs) = cx.parse_json(body.trim_end()).ok()?;
        for r in &mut repairs {
            r.offset += s;
        }
        (value, repairs)
    };
    let serde_json::Value::Object(mut args) = arguments else {
        return None;
    };
    // a body that names a call is not the arguments of another
    if args.contains_key("name") || args.contains_key("function") {
        return None;
    }
    if args.len() == 1 {
        let key = ["arguments", "parameters"]
            .into_iter()
            .find(|k| args.get(*k).is_some_and(serde_json::Value::is_object));
        if let Some(serde_json::Value::Object(inner)) = key.and_then(|k| args.remove(k)) {
            args = inner;
        }
    }
    let id = section::attr(&block[..tag], "id").filter(|i| !i.trim().is_empty());
    Some(BlockResult::one(ParsedCall {
        id,
        repairs,
        end: block.len(),
        ..ParsedCall::new(name.to_string(), args, ids::HERMES)
    }))
}

macro_rules! alias {
    ($name:ident, $opener:ident, $open:literal, $close:literal, $doc:literal) => {
        #[doc = $doc]
        pub static $name: TaggedJson = TaggedJson {
            id: ids::HERMES,
            close: $close,
            closed_label: ids::HERMES,
            open_label: ids::HERMES,
            evidence: Evidence::Weak,
        };
        #[doc = $doc]
        pub const $opener: Opener = Opener::new($open, |i, cx| {
            json_after(i, $open.len(), cx, &$name, $name.close, Probe::NotMarker)
        })
        .ci();
    };
}

alias!(
    TOOLS,
    OPENER_TOOLS,
    b"<tools>",
    b"</tools>",
    "`<tools>` around a call object."
);
alias!(
    TOOL,
    OPENER_TOOL,
    b"<tool>",
    b"</tool>",
    "`<tool>` around a call object."
);
alias!(
    RESPONSE,
    OPENER_RESPONSE,
    b"<response>",
    b"</response>",
    "`<response>` around a call object."
);
alias!(
    JSON,
    OPENER_JSON,
    b"<json>",
    b"</json>",
    "`<json>` / `<JSON>` around a call object."
);
alias!(
    XML,
    OPENER_XML,
    b"<xml>",
    b"</xml>",
    "`<xml>` around a call object."
);
alias!(
    FUNCTION,
    OPENER_FUNCTION,
    b"<function>",
    b"</function>",
    "`<function>` around a call object (Qwen2.5-Coder's envelope drift)."
);
alias!(
    FUNCTION_CALL_DASH,
    OPENER_FUNCTION_CALL_DASH,
    b"<function-call>",
    b"</function-call>",
    "`<function-call>` around a call object (Qwen2.5-Coder's envelope drift)."
);

/// `<tool_calls>` around a hermes body, under `--format hermes` only (a
/// `<tool_calls>` tag is among hermes' spelling drift; in auto mode the same
/// bytes are `jamba` or `minimax`).
pub static HERMES_TOOL_CALLS: TaggedJson = TaggedJson::strong(ids::HERMES, b"</tool_calls>");

/// `<tool_calls>` + JSON under `--format hermes`.
pub const OPENER_TOOL_CALLS: Opener = Opener::new(b"<tool_calls", |input, cx| {
    if !cx.cfg.is_only(ids::HERMES) {
        return Probe::NotMarker;
    }
    match tag_then_body(input, 11, cx) {
        Ok((tag, Some(s))) if s - tag <= 256 && matches!(input[s], b'{' | b'[') => {
            HERMES_TOOL_CALLS.block(tag)
        }
        Ok(_) => Probe::NotMarker,
        Err(p) => p,
    }
})
.ci();

#[cfg(test)]
mod tests {
    use super::{JsonThenClose, CLOSE, HERMES};
    use crate::formats::{BlockEnd, BlockFormat, ParseCx, Scanner};
    use proptest::prelude::*;

    /// The scanner hermes's probe hands the engine, with or without the
    /// envelope read first.
    fn scanner(envelope: bool) -> JsonThenClose {
        let s = JsonThenClose::new(b"<tool_call>".len(), CLOSE)
            .broken_ends_at_close()
            .calls_joined_by_commas();
        if envelope {
            s.reads_envelope()
        } else {
            s
        }
    }

    /// Bodies near the plain envelope: its members in either order, other
    /// keys, escapes, non-ASCII and control bytes, broken JSON, blanks
    /// (Unicode ones too), a second object, cut anywhere.
    fn body() -> impl Strategy<Value = String> {
        let name = prop::sample::select(vec![
            r#""get_weather""#,
            r#"" f ""#,
            r#""  ""#,
            r#""""#,
            r#""caf\u00e9""#,
            r#""a\"b""#,
            "\"é\u{3000}\"",
            "\"\u{3000}\"",
            "\"t\tab\"",
            "1",
            r#"{"x": 1}"#,
        ]);
        let arguments = prop::sample::select(vec![
            r#"{"city": "Paris", "days": 3}"#,
            "{}",
            r#"{"a": [1, -2.5E3, true, null, {"b": "c"}], "d": {}}"#,
            r#"{"a": 1, "a": 2}"#,
            r#"{"a": "x\ny"}"#,
            "{\"a\": \"Zürich 🙂\"}",
            r#"{"a": 01}"#,
            r#"{"a": [1,]}"#,
            r#"{"a": "</tool_call>"}"#,
            r#""{\"a\": 1}""#,
            "[]",
            r#"{"a": {"b": [{"c": [[]]}]}}"#,
        ]);
        let key = prop::sample::select(vec!["name", "arguments", "id", "nam", "argument"]);
        let blank = prop::sample::select(vec!["", " ", "\n", "\r\n", "\t ", "\u{a0}", "\u{3000}"]);
        (
            name,
            arguments,
            prop::collection::vec((key, blank.clone()), 0..3),
            any::<bool>(),
            [blank.clone(), blank.clone(), blank],
            prop::sample::select(vec![
                "",
                ",",
                ", {\"name\": \"g\", \"arguments\": {}}",
                "x",
                "}",
            ]),
            any::<prop::sample::Index>(),
            0u8..4,
        )
            .prop_map(
                |(name, arguments, extra, swap, [b0, b1, b2], tail, cut, how)| {
                    let mut members = vec![
                        format!("\"name\":{b1}{name}"),
                        format!("\"arguments\": {arguments}"),
                    ];
                    if swap {
                        members.reverse();
                    }
                    for (k, b) in extra {
                        members.push(format!("\"{k}\":{b}\"v\""));
                    }
                    let body = format!("{b0}{{{}}}{b2}{tail}", members.join(&format!(",{b1}")));
                    match how {
                        // cut at a character boundary
                        0 => {
                            let mut at = cut.index(body.len() + 1);
                            while !body.is_char_boundary(at) {
                                at -= 1;
                            }
                            body[..at].to_string()
                        }
                        _ => body,
                    }
                },
            )
    }

    proptest! {
        /// With the envelope read first, the scanner ends every block
        /// where it did without, whole and fed in growing prefixes, and the
        /// block's parse, with what the scanner read and without, gives the
        /// same result (counted or recorded).
        #[test]
        fn the_envelope_read_by_the_scanner_changes_nothing(
            body in body(),
            cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..3),
            close in prop::sample::select(vec!["</tool_call>", "</TOOL_CALL>", "", "</tool"]),
        ) {
            let block = format!("<tool_call>{body}{close}");
            let block = block.as_bytes();
            let (mut with, mut without) = (scanner(true), scanner(false));
            // the probe read the tag: the engine shows the scanner no less
            let tag = b"<tool_call>".len();
            let mut ends: Vec<usize> =
                cuts.iter().map(|c| tag + c.index(block.len() - tag + 1)).collect();
            ends.sort_unstable();
            let mut answer = BlockEnd::More;
            for &end in &ends {
                let a = with.scan(&block[..end], false);
                prop_assert_eq!(a, without.scan(&block[..end], false), "at {}", end);
                answer = a;
                if a != BlockEnd::More {
                    break;
                }
            }
            if answer == BlockEnd::More {
                answer = with.scan(block, true);
                prop_assert_eq!(answer, without.scan(block, true));
            }
            let BlockEnd::Done { len, cut } = answer else {
                return Ok(());
            };
            let block = &block[..len];
            let cfg = crate::config::Config::default();
            let spare = std::cell::Cell::default();
            let names_clear = std::cell::Cell::new(false);
            for tally in [false, true] {
                let cx = |plain| ParseCx {
                    cfg: &cfg,
                    cut,
                    before: b"",
                    reply_start: true,
                    tally,
                    spare: &spare,
                    plain,
                    names_clear: &names_clear,
                };
                prop_assert_eq!(
                    HERMES.parse(block, &cx(with.plain_body())),
                    HERMES.parse(block, &cx(None)),
                    "tally {}", tally
                );
            }
            // a tallying parse that says its calls' names are no
            // placeholders read them right
            if names_clear.get() {
                let named = HERMES.parse(block, &ParseCx {
                    cfg: &cfg,
                    cut,
                    before: b"",
                    reply_start: true,
                    tally: false,
                    spare: &spare,
                    plain: None,
                    names_clear: &std::cell::Cell::new(false),
                });
                prop_assert!(!named.calls.is_empty());
                for c in &named.calls {
                    prop_assert!(!crate::formats::shared::evidence::placeholder_name(&c.name), "{:?}", c.name);
                }
            }
        }
    }

    /// The transcript's call: the scanner reads its envelope.
    #[test]
    fn a_plain_call_is_read_by_the_scanner() {
        let block = b"<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": 1}}\n</tool_call>";
        let mut s = scanner(true);
        assert_eq!(s.scan(block, true), BlockEnd::done(block.len()));
        let plain = s.plain_body().filter(|p| p.found).expect("read");
        let body = br#"{"name": "f", "arguments": {"a": 1}}"#;
        assert_eq!(plain.start, 12);
        assert_eq!(plain.end as usize, body.len());
        assert_eq!(plain.name, 10);
        assert!(!plain.non_ascii);
    }
}
