//! `inkling`: `<|content_invoke_tool_json|>{"name": …, "args": {…}}<|end_message|>`.
//!
//! One JSON call object per invoke token (`args`, `arguments` and
//! `parameters` all read), ended by `<|end_message|>`. A missing end token
//! at end of input is tolerated; a stray `<|end_message|>` is markup, and so
//! is an invoke token not followed by JSON. A message's header,
//! `<|message_model|>` with the name it may carry (`<|message_model|>weather`)
//! right before a content token, is markup, and so is `<|content_text|>`
//! (the kind token of a visible message).

use super::{ids, Rank};
use super::{Action, Format, Opener, Probe};
use crate::render::{results, tools, CallSpec, Prompt};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::INKLING,
    "Inkling",
    &["<|content_invoke_tool_json|>", "<|end_message|>"],
    "JSON object {\"name\", \"args\"}",
)
.turns(&[
    super::TurnMarker::fixed(b"<|message_system|>", "system"),
    super::TurnMarker::fixed(b"<|message_user|>", "user"),
])
.openers(&[
    OPENER,
    OPENER_STRAY_END,
    OPENER_HEADER,
    OPENER_CONTENT_TEXT,
    OPENER_THINKING,
    OPENER_END_SAMPLING,
])
.render(Prompt::new("Inkling", write_calls).approximate(tools::inkling, results::inkling));

/// `inkling`: `<|content_invoke_tool_json|>{"name", "args"}<|end_message|>`.
pub fn write_calls(calls: &[CallSpec]) -> String {
    crate::render::calls::objects(
        calls,
        ("name", "args"),
        ("<|content_invoke_tool_json|>", "<|end_message|>"),
        "",
    )
}

const OPEN: &[u8] = b"<|content_invoke_tool_json|>";
const END: &[u8] = b"<|end_message|>";

/// The block format.
pub static INKLING: super::shared::tagged::TaggedJson =
    super::shared::tagged::TaggedJson::strong(ids::INKLING, END);

/// `<|content_invoke_tool_json|>`.
pub const OPENER: Opener = Opener::new(OPEN, |i, cx| {
    super::shared::tagged::json_after(
        i,
        OPEN.len(),
        cx,
        &INKLING,
        INKLING.close,
        Probe::Match(Action::Markup { len: OPEN.len() }),
    )
});

const HEADER: &[u8] = b"<|message_model|>";
const CONTENT: &[u8] = b"<|content_";
const CONTENT_TEXT: &[u8] = b"<|content_text|>";

/// `<|message_model|>`, then a name (or none), then a content token: the
/// header up to the content token is markup. Anything else is text.
pub const OPENER_HEADER: Opener = Opener::new(HEADER, |i, cx| {
    let mut k = HEADER.len();
    while k < i.len() && k < HEADER.len() + 128 && crate::scan::is_name_byte(i[k]) {
        k += 1;
    }
    match crate::scan::prefix(&i[k..], CONTENT) {
        crate::scan::Prefix::Full => Probe::Match(Action::Markup { len: k }),
        crate::scan::Prefix::Partial if !cx.eof && k < HEADER.len() + 128 => Probe::NeedMore,
        _ => Probe::NotMarker,
    }
});

/// `<|content_text|>` is markup: what follows is the message's text.
pub const OPENER_CONTENT_TEXT: Opener = Opener::markup(CONTENT_TEXT);

const THINKING: &[u8] = b"<|content_thinking|>";

/// What ends a thinking message.
const THINKING_CLOSE: &[super::Close] = &[super::Close {
    lit: END,
    consume: true,
}];

/// `<|content_thinking|>…<|end_message|>`: a thinking message is reasoning.
pub const OPENER_THINKING: Opener = Opener::new(THINKING, |_, _| {
    Probe::Match(Action::Reasoning {
        open_len: THINKING.len(),
        close: THINKING_CLOSE,
    })
})
.rank(Rank::Reasoning);

const END_SAMPLING: &[u8] = b"<|content_model_end_sampling|>";

/// `<|content_model_end_sampling|>`, the end of the model's output, is
/// markup.
pub const OPENER_END_SAMPLING: Opener = Opener::markup(END_SAMPLING);

/// A stray `<|end_message|>` is markup.
pub const OPENER_STRAY_END: Opener = Opener::markup(END);
