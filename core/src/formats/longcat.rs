//! `longcat`: Meituan LongCat — `<longcat_tool_call>{json}</longcat_tool_call>`.
//!
//! The body is a hermes body (object, array, string arguments, OpenAI
//! shape…); only the tag differs. A missing closing tag at end of input is
//! tolerated; a stray `</longcat_tool_call>` is markup, and so is an opening
//! tag not followed by JSON.

use super::{ids, Rank, Values};
use super::{Action, Format, Opener, Probe};
use crate::formats::Place;

/// Catalog entry.
pub const FORMAT: Format = Format {
    id: ids::LONGCAT,
    families: "Meituan LongCat-Flash",
    markers: &["<longcat_tool_call>", "</longcat_tool_call>"],
    body: "JSON object {\"name\", \"arguments\"} (hermes body)",
    models: &[],
    openers: &[OPENER, OPENER_STRAY_CLOSE],
    admitted_under: &[],
    doc_start: None,
    lead: None,
    values: Values::Json,
    render: Some(crate::render::Prompt {
        models: "Meituan LongCat",
        tools: crate::render::tools::generic,
        tools_source: crate::render::Source::Generic,
        result: crate::render::results::tool_response,
        result_source: crate::render::Source::Generic,
        call: crate::render::calls::longcat,
    }),
};

/// The block format.
pub static LONGCAT: super::shared::tagged::TaggedJson =
    super::shared::tagged::TaggedJson::strong(ids::LONGCAT, b"</longcat_tool_call>");

/// `<longcat_tool_call>`.
pub const OPENER: Opener = Opener {
    lit: b"<longcat_tool_call>",
    ci: true,
    place: Place::Anywhere,
    rank: Rank::Normal,
    also: &[],
    probe: |i, cx| {
        super::shared::tagged::json_after(
            i,
            19,
            cx,
            &LONGCAT,
            LONGCAT.close,
            Probe::Match(Action::Markup { len: 19 }),
        )
    },
};

/// A stray `</longcat_tool_call>` is markup.
pub const OPENER_STRAY_CLOSE: Opener = Opener {
    lit: b"</longcat_tool_call>",
    ci: true,
    place: Place::Anywhere,
    rank: Rank::Normal,
    also: &[],
    probe: |_, _| Probe::Match(Action::Markup { len: 20 }),
};
