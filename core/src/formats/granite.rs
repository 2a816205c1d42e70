//! `granite`: IBM Granite 3.x and granite-20b-functioncalling, plus the
//! tag-plus-JSON block shared by every format whose call is a literal tag,
//! a JSON body and an optional closing tag ([`TaggedJson`]).
//!
//! * Granite 3.0/3.1: `<|tool_call|>[{"name": …, "arguments": …}]` — no
//!   closing marker; the block ends with the JSON value.
//! * Granite 3.2/3.3: the same array after the literal text `<tool_call>`
//!   with no closing tag. In auto mode the `hermes` opener takes it (same
//!   body, optional close) and labels it `hermes`; with `--format granite`
//!   a granite-only opener on `<tool_call>` takes it instead.
//! * granite-20b-functioncalling: `<function_call> {…}` objects, each
//!   introduced by its own `<function_call>` and not closed. When a
//!   `</function_call>` does close it, it is the llama.cpp hermes alias and
//!   the call is labelled `hermes`.
//! * The other hermes-alias wrappers llama.cpp accepts (`<tools>`, `<tool>`,
//!   `<response>`, `<json>`, `<JSON>`, `<xml>`, docs/formats.md#granite) are handled here too:
//!   they are common words, so the body must be call-shaped JSON (weak
//!   evidence); anything else in them is text, untouched.
//!
//! `<|tool_call|>` followed by something that is not JSON is a stray special
//! token: markup, never text.

use super::shared::tagged::{json_after, TaggedJson};
use super::Model;
use super::{ids, Rank};
use super::{Action, Format, Opener, Probe};
use crate::call::Evidence;
use crate::render::{results, tools, CallSpec, Prompt};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::GRANITE,
    "IBM Granite 3.0-3.3, granite-20b-functioncalling",
    &[
        "<|tool_call|>",
        "<tool_call> (3.2/3.3, no close)",
        "<function_call>",
    ],
    "JSON array of {\"name\", \"arguments\"} (20b: one object per <function_call>)",
)
.turns(&[super::TurnMarker::named(
    b"<|start_of_role|>",
    b"<|end_of_role|>",
)])
.models(&[Model::new(
    "granite-3",
    "<|start_of_role|>assistant<|end_of_role|>",
)])
.openers(&[
    OPENER_SPECIAL,
    OPENER_FUNCTION_CALL,
    OPENER_STRAY_CLOSE,
    OPENER_TOOL_CALL,
])
.admitted_under(&[ids::HERMES])
.render(Prompt::new("IBM Granite 3.x", write_calls).template(tools::granite, results::granite));

/// `granite` (3.0/3.1): `<|tool_call|>` and a JSON array.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::array_of;

    format!("<|tool_call|>{}", array_of(calls, "name", "arguments"))
}

/// Granite 3.0/3.1 `<|tool_call|>` blocks.
pub static GRANITE: TaggedJson = TaggedJson::strong(ids::GRANITE, b"</tool_call>");

/// granite-20b `<function_call>` blocks (`hermes` when closed).
pub static FUNCTION_CALL: TaggedJson = TaggedJson {
    id: ids::GRANITE,
    close: b"</function_call>",
    closed_label: ids::HERMES,
    open_label: ids::GRANITE,
    evidence: Evidence::Strong,
};

/// `<|tool_call|>` + JSON array.
pub const OPENER_SPECIAL: Opener = Opener::new(b"<|tool_call|>", |i, cx| {
    json_after(
        i,
        13,
        cx,
        &GRANITE,
        GRANITE.close,
        Probe::Match(Action::Markup { len: 13 }),
    )
});

/// `<function_call>` + JSON object (granite-20b, or a hermes alias).
pub const OPENER_FUNCTION_CALL: Opener = Opener::new(b"<function_call>", |i, cx| {
    json_after(
        i,
        15,
        cx,
        &FUNCTION_CALL,
        FUNCTION_CALL.close,
        Probe::NotMarker,
    )
})
.ci()
.also(&[ids::HERMES]);

/// A stray `</function_call>` is markup.
pub const OPENER_STRAY_CLOSE: Opener = Opener::markup(b"</function_call>")
    .ci()
    .also(&[ids::HERMES]);

/// Granite 3.2/3.3 `<tool_call>[…]` with `--format granite` (in auto mode
/// the hermes opener, earlier in the table, takes it).
pub const OPENER_TOOL_CALL: Opener = Opener::new(b"<tool_call>", |i, cx| {
    json_after(i, 11, cx, &GRANITE, GRANITE.close, Probe::NotMarker)
})
.ci()
.rank(Rank::Late);
