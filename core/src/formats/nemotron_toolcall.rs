//! `nemotron-toolcall`: older NVIDIA Nemotron —
//! `<TOOLCALL>[{"name": …, "arguments": …}]</TOOLCALL>`.
//!
//! The body is a JSON array of call objects or a single object. The
//! upper-case tag is matched exactly and sits before the hermes openers in
//! the table (the lower-case `<toolcall>` stays a hermes spelling drift).
//! A missing `</TOOLCALL>` at end of input is tolerated; a stray
//! `</TOOLCALL>` is markup.

use super::{ids, Rank};
use super::{Format, Opener, Probe};
use crate::render::{results, tools, CallSpec, Prompt};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::NEMOTRON_TOOLCALL,
    "NVIDIA Nemotron (Llama-3.1-Nemotron, Nemotron-4 tool templates)",
    &["<TOOLCALL>", "</TOOLCALL>"],
    "JSON array of {\"name\", \"arguments\"} or one object",
)
.openers(&[OPENER, OPENER_STRAY_CLOSE])
.render(
    Prompt::new(
        "NVIDIA Llama-Nemotron (Llama 3.3 Nemotron Super v1.5)",
        write_calls,
    )
    .template(tools::nemotron, results::nemotron),
);

/// `nemotron-toolcall`: `<TOOLCALL>` JSON array `</TOOLCALL>`.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::array_of;

    format!(
        "<TOOLCALL>{}</TOOLCALL>",
        array_of(calls, "name", "arguments")
    )
}

/// The block format (the close is compared ignoring case).
pub static NEMOTRON: super::shared::tagged::TaggedJson =
    super::shared::tagged::TaggedJson::strong(ids::NEMOTRON_TOOLCALL, b"</toolcall>");

/// `<TOOLCALL>`.
pub const OPENER: Opener = Opener::new(b"<TOOLCALL>", |i, cx| {
    // an empty wrapper (`<TOOLCALL><functions></functions>`, the list
    // scaffolding some NeMo templates prompt with) is markup, not a call
    match super::shared::stray::empty_wrapper(i, 10, b"</toolcall>", cx) {
        Probe::NotMarker => {}
        p => return p,
    }
    super::shared::tagged::json_after(i, 10, cx, &NEMOTRON, NEMOTRON.close, Probe::NotMarker)
})
.rank(Rank::Early);

/// A stray `</TOOLCALL>` is markup.
pub const OPENER_STRAY_CLOSE: Opener = Opener::markup(b"</TOOLCALL>");
