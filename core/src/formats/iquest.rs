//! `iquest`: IQuest-Coder-V2 —
//! `<iquestcoder_tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value></iquestcoder_tool_call>`,
//! and IQuest Q1, the same call inside `<iquest_tool_call>`.
//!
//! GLM's call grammar (the function name, then key/value tag pairs) under
//! the family's own wrapper, read by the same pair reader
//! ([`crate::formats::shared::pairs::PairTags`]). Values are text: typed by the
//! loose rule without a schema, by the schema with `--tools`. Tolerated as
//! by [the pair reader](crate::formats::shared::pairs): a missing value close, the
//! call's close missing at the end of input. A stray closing wrapper is
//! markup, and so is an opening one followed by no name.

use super::shared::pairs::{markup_unless_more, name_after_token, PairTags, Pairs};
use super::{ids, Values};
use super::{Format, Opener, Probe, ProbeCx};
use crate::render::{CallSpec, Prompt};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::IQUEST,
    "IQuest-Coder-V2, IQuest Q1",
    &[
        "<iquestcoder_tool_call>",
        "<iquest_tool_call>",
        "<arg_key>",
        "</arg_key>",
        "<arg_value>",
        "</arg_value>",
        "</iquestcoder_tool_call>",
        "</iquest_tool_call>",
    ],
    "function name as text, then <arg_key>/<arg_value> pairs (GLM's grammar)",
)
.openers(&[
    OPENER_CODER,
    OPENER_Q1,
    OPENER_STRAY_CLOSE_CODER,
    OPENER_STRAY_CLOSE_Q1,
])
.values(Values::Text)
.render(Prompt::new("IQuest-Coder-V2", write_calls));

/// `iquest`: IQuest-Coder-V2's wrapper around GLM's name and key/value
/// pairs, values inline.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::with_pairs;
    use crate::render::text::value_text;

    with_pairs(
        calls,
        "",
        |_, c| format!("<iquestcoder_tool_call>{}", c.name),
        |k, v| {
            format!(
                "<arg_key>{k}</arg_key><arg_value>{}</arg_value>",
                value_text(v)
            )
        },
        "</iquestcoder_tool_call>",
    )
}

const OPEN_CODER: &[u8] = b"<iquestcoder_tool_call>";
const CLOSE_CODER: &[u8] = b"</iquestcoder_tool_call>";
const OPEN_Q1: &[u8] = b"<iquest_tool_call>";
const CLOSE_Q1: &[u8] = b"</iquest_tool_call>";

/// IQuest-Coder-V2's tags.
pub const CODER_TAGS: PairTags = PairTags::new(ids::IQUEST, CLOSE_CODER);

/// IQuest Q1's tags.
pub const Q1_TAGS: PairTags = PairTags::new(ids::IQUEST, CLOSE_Q1);

/// The block format of IQuest-Coder-V2's calls.
pub static IQUEST_CODER: Pairs = Pairs::new(&CODER_TAGS);

/// The block format of IQuest Q1's calls.
pub static IQUEST_Q1: Pairs = Pairs::new(&Q1_TAGS);

/// A wrapper then a name: a call read by `glm`; anything else leaves the
/// wrapper as markup.
fn probe_wrapper(i: &[u8], cx: &ProbeCx, open: &[u8], glm: &'static Pairs) -> Probe {
    name_after_token(i, cx, open.len(), glm, |s| {
        markup_unless_more(i, cx, open.len(), s)
    })
}

/// `<iquestcoder_tool_call>` then a name.
pub const OPENER_CODER: Opener = Opener::new(OPEN_CODER, |i, cx| {
    probe_wrapper(i, cx, OPEN_CODER, &IQUEST_CODER)
});

/// `<iquest_tool_call>` then a name.
pub const OPENER_Q1: Opener =
    Opener::new(OPEN_Q1, |i, cx| probe_wrapper(i, cx, OPEN_Q1, &IQUEST_Q1));

/// A stray `</iquestcoder_tool_call>` is markup.
pub const OPENER_STRAY_CLOSE_CODER: Opener = Opener::markup(CLOSE_CODER);

/// A stray `</iquest_tool_call>` is markup.
pub const OPENER_STRAY_CLOSE_Q1: Opener = Opener::markup(CLOSE_Q1);
