//! `gigachat3`: Sber GigaChat 3 and 3.1.
//!
//! ```text
//! I'll check.<|message_sep|>
//!
//! function call<|role_sep|>
//! {"name": "get_weather", "arguments": {"city": "Paris"}}
//! ```
//!
//! GigaChat 3 ends the text message with `<|message_sep|>` and opens a
//! message whose role is `function call`; GigaChat 3.1 writes one token,
//! `<|function_call|>`, before the JSON. Either way the body is one JSON
//! object `{"name", "arguments"}` and the call ends where its JSON ends (no
//! closing token; `</s>` after it is an end token). A `<|message_sep|>` that
//! does not open a function call is markup, and so is a stray
//! `<|role_sep|>`.

use super::shared::tagged::{json_after, TaggedJson};
use super::{ids, Action, Format, Model, Opener, Probe, ProbeCx};
use crate::render::{CallSpec, Prompt};
use crate::scan::{self, Prefix};

/// The descriptor.
pub const FORMAT: Format = Format::new(
    ids::GIGACHAT3,
    "Sber GigaChat 3 (3-10B-A1.8B, 3-702B-A36B), GigaChat 3.1",
    &[
        "<|message_sep|>",
        "function call<|role_sep|>",
        "<|function_call|>",
    ],
    "JSON object {\"name\", \"arguments\"}, ended by its own closing brace",
)
.models(&[Model::new("gigachat3", ""), Model::new("gigachat-3", "")])
.openers(&[
    OPENER_MESSAGE_SEP,
    OPENER_FUNCTION_CALL,
    OPENER_STRAY_ROLE_SEP,
])
.render(Prompt::new("GigaChat 3.1", write_calls));

/// `gigachat3`: `<|function_call|>` and the call's JSON (GigaChat 3.1), one
/// per call.
pub fn write_calls(calls: &[CallSpec]) -> String {
    crate::render::calls::objects(calls, ("name", "arguments"), ("<|function_call|>", ""), "")
}

/// A call's block: no closing token.
pub static GIGACHAT3: TaggedJson = TaggedJson::strong(ids::GIGACHAT3, b"");

const MESSAGE_SEP: &[u8] = b"<|message_sep|>";
const ROLE: &[u8] = b"function call";
const ROLE_SEP: &[u8] = b"<|role_sep|>";

/// After `<|message_sep|>`: blanks, `function call`, an optional
/// `<|role_sep|>`, then the JSON. Anything else makes the separator markup.
fn probe_message_sep(input: &[u8], cx: &ProbeCx) -> Probe {
    let markup = Probe::Match(Action::Markup {
        len: MESSAGE_SEP.len(),
    });
    let s = scan::skip_space(input, MESSAGE_SEP.len());
    if s == input.len() {
        return if cx.eof { markup } else { Probe::NeedMore };
    }
    match scan::prefix(&input[s..], ROLE) {
        Prefix::Full => {}
        Prefix::Partial if !cx.eof => return Probe::NeedMore,
        _ => return markup,
    }
    let mut t = s + ROLE.len();
    let r = scan::skip_blank(input, t);
    match scan::prefix(&input[r..], ROLE_SEP) {
        Prefix::Full => t = r + ROLE_SEP.len(),
        Prefix::Partial if !cx.eof => return Probe::NeedMore,
        _ => {}
    }
    json_after(input, t, cx, &GIGACHAT3, GIGACHAT3.close, markup)
}

/// `<|message_sep|>` (GigaChat 3).
pub const OPENER_MESSAGE_SEP: Opener = Opener::new(MESSAGE_SEP, probe_message_sep);

/// `<|function_call|>` (GigaChat 3.1).
pub const OPENER_FUNCTION_CALL: Opener = Opener::new(b"<|function_call|>", |i, cx| {
    json_after(
        i,
        17,
        cx,
        &GIGACHAT3,
        GIGACHAT3.close,
        Probe::Match(Action::Markup { len: 17 }),
    )
});

/// A stray `<|role_sep|>` is markup.
pub const OPENER_STRAY_ROLE_SEP: Opener = Opener::markup(ROLE_SEP);
