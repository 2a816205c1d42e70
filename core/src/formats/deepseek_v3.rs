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
//! otherwise it is V3.1 (`NAME<｜tool▁sep｜>{args}`, see
//! `parse_v31`). Sloppy variants: the outer begin or end token
//! missing, `<｜tool▁calls｜>` (an R1-distill slip) for both begin tokens, the fence without `json` tag or without newlines, no fence at
//! all, whitespace around the name, string arguments, a cut-off last call.
//! Stray DeepSeek tokens (`<｜tool▁calls▁end｜>`, `<｜tool▁sep｜>`,
//! `<｜end▁of▁sentence｜>` …) are markup, never text. The arguments after
//! `<｜tool▁sep｜>` are read string-aware: a token or a fence written inside a
//! JSON string is text and ends nothing.
//!
//! Not followed: an object whose closing brace is missing before
//! `<｜tool▁call▁end｜>` is repaired into a call (the crate's repair policy),
//! where vLLM's test expects no call; text after `<｜tool▁calls▁end｜>` stays
//! content (content around calls is kept verbatim), where vLLM drops it.

use super::shared::section::{self, CallOutcome, Tokens};
use super::Model;
use super::{ids, FormatId};
use super::{BlockFormat, BlockResult, Format, Opener, ParseCx, Probe, ProbeCx};
use crate::call::{clean_name, ParsedCall};
use crate::scan;
use crate::scan::balance::{End, JsonEnd};

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
    Model {
        name: "deepseek-r1",
        prompt: "<｜Assistant｜><think>\n",
    },
    Model {
        name: "deepseek-v3-0324",
        prompt: "<｜Assistant｜>",
    },
])
.openers(&[OPENER])
.admitted_under(&[ids::DEEPSEEK_V3_1])
.render(crate::render::Prompt {
    models: "DeepSeek V3 / R1",
    tools: crate::render::tools::deepseek_v3,
    tools_source: crate::render::Source::Approximate,
    result: crate::render::results::deepseek_v3,
    result_source: crate::render::Source::Template,
    call: write_calls,
});

/// `deepseek-v3`: `function<｜tool▁sep｜>NAME` and a ```` ```json ```` fence.
pub fn write_calls(calls: &[crate::render::CallSpec]) -> String {
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

/// The DeepSeek section block format (both generations).
pub struct DeepSeek;

/// The shared instance.
pub static DEEPSEEK: DeepSeek = DeepSeek;

fn probe(input: &[u8], cx: &ProbeCx) -> Probe {
    section::probe_tokens(input, cx, &[SECTION_BEGIN], STRAY, &TOKENS, &DEEPSEEK)
}

/// Any DeepSeek `<｜…｜>` token.
pub const OPENER: Opener = Opener::new("<｜".as_bytes(), probe).also(&[ids::DEEPSEEK_V3_1]);

impl BlockFormat for DeepSeek {
    fn id(&self) -> FormatId {
        ids::DEEPSEEK_V3
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        let opts = cx.cfg.repair_options();
        section::parse_section(block, &TOKENS, ids::DEEPSEEK_V3, cx.cut, |b, o, c| {
            parse_call(b, o, c, &opts)
        })
    }
}

/// Parses one call body (between the call tokens), deciding V3 or V3.1.
fn parse_call(
    body: &[u8],
    off: usize,
    cut: bool,
    opts: &crate::repair::RepairOptions,
) -> CallOutcome {
    let Some(sep) = scan::find(body, 0, SEP) else {
        if cut {
            return Err(section::truncated(ids::DEEPSEEK_V3, off + body.len()));
        }
        return Err(section::err(
            "TLP-001",
            "deepseek call has no <｜tool▁sep｜> and no function name",
            off,
        ));
    };
    let before = scan::trim(&body[..sep]);
    let after_at = sep + SEP.len();
    let after = &body[after_at..];
    let lead = scan::skip_space(after, 0);
    let bare_json = matches!(after.get(lead), Some(b'{') | Some(b'"'));
    // V3 puts a type word before the separator (`function`) and the name on
    // the line after it; any type word with a name after the separator is
    // that shape (the name after it is the call's, not the word before)
    let name_after = after
        .get(lead)
        .is_some_and(|&b| scan::is_name_start_byte(b));
    if (before == b"function" || name_after) && !bare_json {
        parse_v3(after, off + after_at, cut, opts)
    } else {
        parse_v31(before, after, off, off + after_at, cut, opts)
    }
}

/// The V3 body after the separator: `NAME\n```json\n{args}\n```` (fence
/// optional, tag optional).
fn parse_v3(
    after: &[u8],
    off: usize,
    cut: bool,
    opts: &crate::repair::RepairOptions,
) -> CallOutcome {
    // the name runs to the end of its line, a fence or the JSON
    let mut e = 0;
    while e < after.len() && !matches!(after[e], b'\n' | b'`' | b'{') {
        e += 1;
    }
    let name = clean_name(&crate::scan::lossy(&after[..e]));
    if name.is_empty() {
        if cut && e == after.len() {
            return Err(section::truncated(ids::DEEPSEEK_V3, off + after.len()));
        }
        return Err(section::err(
            "TLP-001",
            "deepseek-v3 call has no function name",
            off,
        ));
    }
    if name.contains(['{', '}', '[', ']', '(', ')', '"', '\'', '<', '>']) {
        // the template's name line holds only the name: JSON punctuation in
        // it means the body is garbled, not a call
        return Err(section::err(
            "TLP-001",
            format!("deepseek-v3 call has no valid function name (the name line is {name:?})"),
            off,
        ));
    }
    let (s, end) = fenced(after, scan::skip_space(after, e));
    let (arguments, repairs) =
        section::json_arguments(&after[s..end], off + s, cut, ids::DEEPSEEK_V3, opts)?;
    Ok(ParsedCall {
        name,
        arguments: arguments.into(),
        id: None,
        format: ids::DEEPSEEK_V3,
        repairs,
        end: 0,
    })
}

/// The arguments' span in `after` from `s`: when a code fence opens there,
/// its line (the info string, e.g. `json`) is skipped and the span ends
/// where the JSON object ends (read string-aware, so a fence or a token
/// written inside a string is text), else at the closing fence.
fn fenced(after: &[u8], s: usize) -> (usize, usize) {
    if !after[s..].starts_with(b"```") {
        return (s, after.len());
    }
    let mut t = s + 3;
    while t < after.len() && (after[t] == b'`' || after[t].is_ascii_alphanumeric()) {
        t += 1;
    }
    let v = scan::skip_space(after, t);
    if after.get(v) == Some(&b'{') {
        if let End::At(k) = JsonEnd::new().scan(&after[v..]) {
            return (t, v + k);
        }
    }
    let end = scan::find(after, t, b"```").unwrap_or(after.len());
    (t, end)
}

/// Parses a V3.1 call: `before` is the (trimmed) text before the separator,
/// `after` the text after it (at offset `after_off` in the block).
pub(crate) fn parse_v31(
    before: &[u8],
    after: &[u8],
    off: usize,
    after_off: usize,
    cut: bool,
    opts: &crate::repair::RepairOptions,
) -> CallOutcome {
    let name = clean_name(&crate::scan::lossy(before));
    if name.is_empty() {
        return Err(section::err(
            "TLP-001",
            "deepseek-v3.1 call has no function name",
            off,
        ));
    }
    // tolerate a fence around the JSON
    let (s, end) = fenced(after, scan::skip_space(after, 0));
    let (arguments, repairs) =
        section::json_arguments(&after[s..end], after_off + s, cut, ids::DEEPSEEK_V3_1, opts)?;
    Ok(ParsedCall {
        name,
        arguments: arguments.into(),
        id: None,
        format: ids::DEEPSEEK_V3_1,
        repairs,
        end: 0,
    })
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
    fn v31_body() {
        let c = call(" get_time <｜tool▁sep｜>{\"tz\": \"UTC\"}");
        assert_eq!(c.name, "get_time");
        assert_eq!(c.format, ids::DEEPSEEK_V3_1);
        let c = call("function<｜tool▁sep｜>{\"x\": 2}");
        assert_eq!(c.name, "function");
        assert_eq!(c.format, ids::DEEPSEEK_V3_1);
    }
}
