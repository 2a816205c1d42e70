//! `plamo3`: Preferred Networks PLaMo 3 tool requests.
//!
//! ```text
//! <|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|>
//! <|plamo:begin_tool_name:plamo|>get_weather<|plamo:end_tool_name:plamo|>
//! <|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{"city": "Tokyo"}
//! <|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|><|plamo:end_tool_requests:plamo|>
//! ```
//!
//! (one line in the output; broken here for reading). A section of special
//! tokens like Kimi K2's, read by the shared section machinery: per call the
//! name between its two tokens, then the JSON arguments after
//! `<|plamo:msg|>`. Tolerated as for every section format: the section
//! tokens missing, the section end missing, a later call cut off. The
//! end-of-turn token `<|plamo:tag|>` and stray closing tokens are markup.

use super::ids;
use super::shared::section::{self, CallOutcome, Section, Tokens};
use super::{Format, Opener};
use crate::call::ParsedCall;
use crate::render::{CallSpec, Prompt};
use crate::repair::RepairOptions;
use crate::scan;

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::PLAMO3,
    "Preferred Networks PLaMo 3",
    &[
        "<|plamo:begin_tool_requests:plamo|>",
        "<|plamo:begin_tool_request:plamo|>",
        "<|plamo:begin_tool_name:plamo|>",
        "<|plamo:end_tool_name:plamo|>",
        "<|plamo:begin_tool_arguments:plamo|>",
        "<|plamo:msg|>",
        "<|plamo:end_tool_arguments:plamo|>",
        "<|plamo:end_tool_request:plamo|>",
        "<|plamo:end_tool_requests:plamo|>",
    ],
    "the name between its tokens, then the JSON arguments after <|plamo:msg|>",
)
.openers(&[OPENER])
.render(Prompt::new("Preferred Networks PLaMo 3", write_calls));

/// `plamo3`: one tool request per call inside the requests section, the
/// arguments as compact JSON after `<|plamo:msg|>`.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::each;
    use crate::render::text::json_compact;
    use serde_json::Value;

    let body = each(calls, "", |_, c| {
        format!(
            "<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>{}<|plamo:end_tool_name:plamo|>\
             <|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{}\
             <|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>",
            c.name,
            json_compact(&Value::Object(c.arguments.clone()))
        )
    });
    format!("<|plamo:begin_tool_requests:plamo|>{body}<|plamo:end_tool_requests:plamo|>")
}

const SECTION_BEGIN: &[&[u8]] = &[b"<|plamo:begin_tool_requests:plamo|>"];
const NAME_BEGIN: &[u8] = b"<|plamo:begin_tool_name:plamo|>";
const NAME_END: &[u8] = b"<|plamo:end_tool_name:plamo|>";
const MSG: &[u8] = b"<|plamo:msg|>";
const ARGS_END: &[u8] = b"<|plamo:end_tool_arguments:plamo|>";

/// The PLaMo 3 section tokens.
pub static TOKENS: Tokens = Tokens {
    common: b"<|plamo:",
    call_begin: &[b"<|plamo:begin_tool_request:plamo|>"],
    call_end: &[b"<|plamo:end_tool_request:plamo|>"],
    section_end: &[b"<|plamo:end_tool_requests:plamo|>"],
    json_after: &[MSG],
    implicit_after: &[],
    name_sep: &[],
};

/// Tokens outside a block that are markup: closers, and the end of turn.
const STRAY: &[&[u8]] = &[
    b"<|plamo:end_tool_requests:plamo|>",
    b"<|plamo:end_tool_request:plamo|>",
    b"<|plamo:tag|>",
];

/// The PLaMo 3 section format.
pub static PLAMO3: Section = Section {
    id: ids::PLAMO3,
    tokens: &TOKENS,
    begin: SECTION_BEGIN,
    stray: STRAY,
    call: parse_call,
};

/// Any `<|plamo:…|>` token.
pub const OPENER: Opener = Opener::new(b"<|plamo:", |i, cx| PLAMO3.probe(i, cx));

fn parse_call(body: &[u8], off: usize, cut: bool, opts: &RepairOptions) -> CallOutcome {
    let name = match (
        scan::find(body, 0, NAME_BEGIN),
        scan::find(body, 0, NAME_END),
    ) {
        (Some(b), Some(e)) if b + NAME_BEGIN.len() <= e => {
            crate::scan::lossy(scan::trim(&body[b + NAME_BEGIN.len()..e])).into_owned()
        }
        _ if cut => return Err(section::truncated(ids::PLAMO3, off + body.len())),
        _ => String::new(),
    };
    if !name.chars().any(|c| c.is_alphanumeric() || c == '_') {
        return Err(section::err(
            "TLP-001",
            "plamo3 call has no function name",
            off,
        ));
    }
    let Some(m) = scan::find(body, 0, MSG) else {
        if cut {
            return Err(section::truncated(ids::PLAMO3, off + body.len()));
        }
        // a call without an arguments element
        return Ok(ParsedCall::new(name, serde_json::Map::new(), ids::PLAMO3));
    };
    let from = m + MSG.len();
    let to = scan::find(body, from, ARGS_END).unwrap_or(body.len());
    let (arguments, repairs) = section::json_arguments(
        &body[from..to],
        off + from,
        cut && to == body.len(),
        ids::PLAMO3,
        opts,
    )?;
    Ok(ParsedCall {
        repairs,
        ..ParsedCall::new(name, arguments, ids::PLAMO3)
    })
}
