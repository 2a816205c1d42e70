//! `deepseek-v3`: DeepSeek V3 / R1 tool calls, and the section parser shared
//! with `deepseek-v3.1`.
//!
//! ```text
//! <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME
//! ```json
//! {args}
//! ```<｜tool▁call▁end｜><｜tool▁calls▁end｜>
//! ```
//!
//! The tokens use U+FF5C `｜` and U+2581 `▁` and are matched byte-exactly.
//! One section parser reads both generations and decides per call: when the
//! text after `<｜tool▁sep｜>` is a name (or the text before it is exactly
//! `function`) and the arguments are not bare JSON, the call is V3 (a type
//! word, the name on the line after the separator, then a code fence);
//! otherwise it is V3.1 (`NAME<｜tool▁sep｜>{args}`). The call bodies are
//! read by `shared::deepseek_body`, which Step-3's spelling of the tokens
//! uses too. Sloppy variants: the outer begin or end token
//! missing, `<｜tool▁calls｜>` (an R1-distill slip) for both begin tokens, the fence without `json` tag or without newlines, no fence at
//! all, whitespace around the name, string arguments, a cut-off last call.
//! Stray DeepSeek tokens (`<｜tool▁calls▁end｜>`, `<｜tool▁sep｜>`,
//! `<｜end▁of▁sentence｜>` …) are markup, never text. The arguments after
//! `<｜tool▁sep｜>` are read string-aware: a token or a fence written inside a
//! JSON string is text and ends nothing.
//!
//! The same tokens respelled by a server or client that did not keep them
//! byte-exact are read too, from their section-begin token on: ASCII `|`
//! for `｜` (NFKC normalisation: `<|tool▁calls▁begin|>`), and ASCII `|`
//! and `_` for both (`<|tool_calls_begin|>`, as some servers render the
//! tokens). Only the section-begin token followed by a call-begin token in
//! the same spelling opens these (a lone look-alike in prose is text);
//! Kimi K2's `<|tool_call_begin|>` and `<|tool_call_end|>` are spelled
//! alike.
//!
//! Not followed: an object whose closing brace is missing before
//! `<｜tool▁call▁end｜>` is repaired into a call (the crate's repair policy),
//! where vLLM's test expects no call; text after `<｜tool▁calls▁end｜>` stays
//! content (content around calls is kept verbatim), where vLLM drops it.

use super::ids;
use super::shared::deepseek_body::parse_call_with;
use super::shared::section::{self, CallOutcome, Section, Tokens};
use super::Model;
use super::{Format, Opener, Probe, ProbeCx};
#[cfg(test)]
use crate::call::ParsedCall;
use crate::render::{results, tools, CallSpec, Prompt, Source};
use crate::repair::RepairOptions;
use crate::scan;

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::DEEPSEEK_V3,
    "DeepSeek-V3 (0324), DeepSeek-R1 (0528), R1 distills with the DeepSeek template",
    &[
        "<｜tool▁calls▁begin｜>",
        "<｜tool▁call▁begin｜>",
        "<｜tool▁sep｜>",
        "<｜tool▁call▁end｜>",
        "<｜tool▁calls▁end｜>",
    ],
    "function<｜tool▁sep｜>NAME, then a ```json fence holding the arguments",
)
.turns(&[
    super::TurnMarker::fixed("<｜User｜>".as_bytes(), "user"),
    super::TurnMarker::fixed("<｜Assistant｜>".as_bytes(), "assistant").noted(),
    super::TurnMarker::fixed("<｜tool▁outputs▁begin｜>".as_bytes(), "tool"),
    super::TurnMarker::fixed("<｜tool▁outputs▁end｜>".as_bytes(), "assistant").noted(),
])
.models(&[
    Model::new("deepseek-r1", "<｜Assistant｜><think>\n"),
    Model::new("deepseek-v3-0324", "<｜Assistant｜>"),
])
.openers(&[OPENER, OPENER_NFKC, OPENER_ASCII])
.admitted_under(&[ids::DEEPSEEK_V3_1])
.render(
    Prompt::new("DeepSeek V3 / R1", write_calls)
        .tools(tools::deepseek_v3, Source::Approximate)
        .result(results::deepseek_v3, Source::Template),
);

/// `deepseek-v3`: `function<｜tool▁sep｜>NAME` and a ```` ```json ```` fence.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::{args, each};
    use crate::render::text::json_compact;

    let body = each(calls, "\n", |_, c| {
        format!(
            "<｜tool▁call▁begin｜>function<｜tool▁sep｜>{}\n```json\n{}\n```<｜tool▁call▁end｜>",
            c.name,
            json_compact(&args(c))
        )
    });
    format!("<｜tool▁calls▁begin｜>{body}<｜tool▁calls▁end｜>")
}

/// `<｜tool▁calls▁begin｜>`.
pub const SECTION_BEGIN: &[u8] = "<｜tool▁calls▁begin｜>".as_bytes();
/// `<｜tool▁call▁begin｜>`.
pub const CALL_BEGIN: &[u8] = "<｜tool▁call▁begin｜>".as_bytes();
/// `<｜tool▁calls｜>`: R1 distills sometimes write this one token where the
/// template has `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>`; it opens a
/// call (and so a section).
const CALLS_SHORT: &[u8] = "<｜tool▁calls｜>".as_bytes();
/// `<｜tool▁sep｜>`.
pub const SEP: &[u8] = "<｜tool▁sep｜>".as_bytes();

/// The DeepSeek section tokens.
pub static TOKENS: Tokens = Tokens {
    common: "<｜tool▁".as_bytes(),
    call_begin: &[CALL_BEGIN, CALLS_SHORT],
    call_end: &["<｜tool▁call▁end｜>".as_bytes()],
    section_end: &["<｜tool▁calls▁end｜>".as_bytes()],
    json_after: &[SEP],
    implicit_after: &[SECTION_BEGIN, "<｜tool▁call▁end｜>".as_bytes()],
    name_sep: &[SEP],
};

/// Tokens that are markup when they appear outside a section.
const STRAY: &[&[u8]] = &[
    "<｜tool▁calls▁end｜>".as_bytes(),
    "<｜tool▁call▁end｜>".as_bytes(),
    "<｜tool▁sep｜>".as_bytes(),
    "<｜tool▁outputs▁begin｜>".as_bytes(),
    "<｜tool▁outputs▁end｜>".as_bytes(),
    "<｜tool▁output▁begin｜>".as_bytes(),
    "<｜tool▁output▁end｜>".as_bytes(),
    "<｜end▁of▁sentence｜>".as_bytes(),
    "<｜begin▁of▁sentence｜>".as_bytes(),
    "<｜Assistant｜>".as_bytes(),
    "<｜User｜>".as_bytes(),
];

/// The DeepSeek section format (both generations).
pub static DEEPSEEK: Section = Section {
    id: ids::DEEPSEEK_V3,
    tokens: &TOKENS,
    begin: &[SECTION_BEGIN],
    stray: STRAY,
    call: parse_call,
};

/// Any DeepSeek `<｜…｜>` token.
pub const OPENER: Opener =
    Opener::new("<｜".as_bytes(), |i, cx| DEEPSEEK.probe(i, cx)).also(&[ids::DEEPSEEK_V3_1]);

/// `｜` written as ASCII `|` (NFKC): `<|tool▁calls▁begin|>`.
pub static NFKC: Section = Section {
    id: ids::DEEPSEEK_V3,
    tokens: &Tokens {
        common: "<|tool▁".as_bytes(),
        call_begin: &["<|tool▁call▁begin|>".as_bytes()],
        call_end: &["<|tool▁call▁end|>".as_bytes()],
        section_end: &["<|tool▁calls▁end|>".as_bytes()],
        json_after: &[NFKC_SEP],
        implicit_after: &[
            "<|tool▁calls▁begin|>".as_bytes(),
            "<|tool▁call▁end|>".as_bytes(),
        ],
        name_sep: &[NFKC_SEP],
    },
    begin: &["<|tool▁calls▁begin|>".as_bytes()],
    stray: &[],
    call: |b, o, c, opts| parse_call_with(b, NFKC_SEP, o, c, opts),
};

/// The NFKC spelling of the separator token.
const NFKC_SEP: &[u8] = "<|tool▁sep|>".as_bytes();

/// `｜` and `▁` written as ASCII `|` and `_`: `<|tool_calls_begin|>`.
pub static ASCII: Section = Section {
    id: ids::DEEPSEEK_V3,
    tokens: &Tokens {
        common: b"<|tool_",
        call_begin: &[b"<|tool_call_begin|>"],
        call_end: &[b"<|tool_call_end|>"],
        section_end: &[b"<|tool_calls_end|>"],
        json_after: &[ASCII_SEP],
        implicit_after: &[b"<|tool_calls_begin|>", b"<|tool_call_end|>"],
        name_sep: &[ASCII_SEP],
    },
    begin: &[b"<|tool_calls_begin|>"],
    stray: &[],
    call: |b, o, c, opts| parse_call_with(b, ASCII_SEP, o, c, opts),
};

/// The ASCII spelling of the separator token.
const ASCII_SEP: &[u8] = b"<|tool_sep|>";

/// A respelled section-begin token opens a section only when a call-begin
/// token in the same spelling follows it (blanks between): alone it is a
/// look-alike written in prose, and text.
fn probe_respelled(input: &[u8], cx: &ProbeCx, r: &'static Section) -> Probe {
    let begin = r.begin.first().map_or(0, |b| b.len());
    let s = scan::skip_space(input, begin.min(input.len()));
    match section::match_any(&input[s..], r.tokens.call_begin) {
        section::Hit::Full(_) => r.probe(input, cx),
        section::Hit::Partial if !cx.eof => Probe::NeedMore,
        _ => Probe::NotMarker,
    }
}

fn probe_nfkc(input: &[u8], cx: &ProbeCx) -> Probe {
    probe_respelled(input, cx, &NFKC)
}

fn probe_ascii(input: &[u8], cx: &ProbeCx) -> Probe {
    probe_respelled(input, cx, &ASCII)
}

/// `<|tool▁calls▁begin|>`: the section in the NFKC spelling.
pub const OPENER_NFKC: Opener =
    Opener::new("<|tool▁calls▁begin|>".as_bytes(), probe_nfkc).also(&[ids::DEEPSEEK_V3_1]);

/// `<|tool_calls_begin|>`: the section in the ASCII spelling.
pub const OPENER_ASCII: Opener =
    Opener::new(b"<|tool_calls_begin|>", probe_ascii).also(&[ids::DEEPSEEK_V3_1]);

/// Parses one call body (between the call tokens), deciding V3 or V3.1.
fn parse_call(body: &[u8], off: usize, cut: bool, opts: &RepairOptions) -> CallOutcome {
    parse_call_with(body, SEP, off, cut, opts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(body: &str) -> ParsedCall {
        parse_call(body.as_bytes(), 0, false, &Default::default()).expect("call")
    }

    #[test]
    fn v3_fence_variants() {
        for b in [
            "function<｜tool▁sep｜>get\n```json\n{\"a\": 1}\n```",
            "function<｜tool▁sep｜>get\n```\n{\"a\": 1}\n```",
            "function<｜tool▁sep｜>get\n```json{\"a\": 1}```",
            "function<｜tool▁sep｜>get\n{\"a\": 1}",
        ] {
            let c = call(b);
            assert_eq!(c.name, "get", "{b}");
            assert_eq!(c.format, ids::DEEPSEEK_V3);
            assert_eq!(c.arguments.into_value(), json!({"a": 1}));
        }
    }

    #[test]
    fn a_call_that_lost_its_begin_token_is_split_out() {
        let block = "<｜tool▁calls▁begin｜> a<｜tool▁sep｜>{}<｜tool▁call▁end｜>b<｜tool▁sep｜>{\"x\":1}<｜tool▁call▁end｜><｜tool▁calls▁end｜>";
        let spans = section::split_calls(block.as_bytes(), &TOKENS);
        let bodies: Vec<&str> = spans
            .iter()
            .map(|sp| &block[sp.body_start..sp.body_end])
            .collect();
        assert_eq!(bodies, ["a<｜tool▁sep｜>{}", "b<｜tool▁sep｜>{\"x\":1}"]);
        // the V3 layout needs its begin token; prose is never a name
        for block in [
            "<｜tool▁calls▁begin｜>function<｜tool▁sep｜>get\n```json\n{}\n```<｜tool▁call▁end｜>",
            "<｜tool▁calls▁begin｜>some words<｜tool▁sep｜>{}<｜tool▁call▁end｜>",
        ] {
            assert!(
                section::split_calls(block.as_bytes(), &TOKENS).is_empty(),
                "{block}"
            );
        }
    }

    #[test]
    fn respelled_tokens() {
        let c = parse_call_with(
            b"function<|tool_sep|>get\n```json\n{\"a\": 1}\n```",
            ASCII_SEP,
            0,
            false,
            &Default::default(),
        )
        .expect("call");
        assert_eq!(c.name, "get");
        assert_eq!(c.arguments.into_value(), json!({"a": 1}));
        let block = "<|tool▁calls▁begin|><|tool▁call▁begin|>f<|tool▁sep|>{}<|tool▁call▁end|><|tool▁calls▁end|>";
        assert_eq!(section::split_calls(block.as_bytes(), NFKC.tokens).len(), 1);
    }

    #[test]
    fn v31_body() {
        let c = call(" get_time <｜tool▁sep｜>{\"tz\": \"UTC\"}");
        assert_eq!(c.name, "get_time");
        assert_eq!(c.format, ids::DEEPSEEK_V3_1);
        let c = call("function<｜tool▁sep｜>{\"x\": 2}");
        assert_eq!(c.name, "function");
        assert_eq!(c.format, ids::DEEPSEEK_V3_1);
    }
}
