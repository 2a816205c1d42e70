//! `longcat`: Meituan LongCat — `<longcat_tool_call>{json}</longcat_tool_call>`,
//! or LongCat-Flash-Lite's `<longcat_tool_call>NAME\n<longcat_arg_key>K
//! </longcat_arg_key>\n<longcat_arg_value>V</longcat_arg_value>\n
//! </longcat_tool_call>`.
//!
//! A JSON body is a hermes body (object, array, string arguments, OpenAI
//! shape…); only the tag differs. A name is read as GLM reads its calls,
//! with LongCat's tags ([`crate::formats::shared::pairs::PairTags`]). A missing
//! closing tag at end of input is tolerated; a stray `</longcat_tool_call>`
//! is markup, and so is an opening tag followed by neither.

use super::ids;
use super::shared::pairs::{name_after_token, PairTags, Pairs};
use super::{Action, Format, Opener, Probe, ProbeCx};
use crate::render::{CallSpec, Prompt};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::LONGCAT,
    "Meituan LongCat-Flash",
    &[
        "<longcat_tool_call>",
        "<longcat_arg_key>",
        "</longcat_arg_key>",
        "<longcat_arg_value>",
        "</longcat_arg_value>",
        "</longcat_tool_call>",
    ],
    "JSON object {\"name\", \"arguments\"} (hermes body), or a name then key/value tag pairs",
)
.openers(&[OPENER, OPENER_STRAY_CLOSE])
.render(Prompt::new("Meituan LongCat", write_calls));

/// `longcat`: the hermes body inside `<longcat_tool_call>`.
pub fn write_calls(calls: &[CallSpec]) -> String {
    crate::render::calls::objects(
        calls,
        ("name", "arguments"),
        ("<longcat_tool_call>\n", "\n</longcat_tool_call>"),
        "\n",
    )
}

/// The block format.
pub static LONGCAT: super::shared::tagged::TaggedJson =
    super::shared::tagged::TaggedJson::strong(ids::LONGCAT, b"</longcat_tool_call>");

/// LongCat-Flash-Lite's key/value tags.
pub const PAIR_TAGS: PairTags = PairTags::new(ids::LONGCAT, b"</longcat_tool_call>").tags(
    (b"<longcat_arg_key>", b"</longcat_arg_key>"),
    (b"<longcat_arg_value>", b"</longcat_arg_value>"),
);

/// The block format of a name with key/value pairs.
pub static LONGCAT_PAIRS: Pairs = Pairs::new(&PAIR_TAGS);

/// `<longcat_tool_call>`.
pub const OPENER: Opener = Opener::new(b"<longcat_tool_call>", probe_opener).ci();

/// JSON after the tag is a hermes body, a name one of key/value pairs;
/// anything else leaves the tag as markup.
fn probe_opener(i: &[u8], cx: &ProbeCx) -> Probe {
    name_after_token(i, cx, 19, &LONGCAT_PAIRS, |_| {
        let markup = Probe::Match(Action::Markup { len: 19 });
        super::shared::tagged::json_after(i, 19, cx, &LONGCAT, LONGCAT.close, markup)
    })
}

/// A stray `</longcat_tool_call>` is markup.
pub const OPENER_STRAY_CLOSE: Opener = Opener::markup(b"</longcat_tool_call>").ci();
