//! `k2-v3`: MBZUAI IFM's K2-V3 (K2-Horizon) —
//! `<ifm|tool_calls><ifm|tool_call>NAME<ifm|arg_key>K</ifm|arg_key><ifm|arg_type>T</ifm|arg_type><ifm|arg_value>V</ifm|arg_value></ifm|tool_call></ifm|tool_calls>`.
//!
//! GLM's call grammar (the function name, then key/value tag pairs) with
//! the `ifm|` tokens, read by the same pair reader
//! ([`crate::formats::shared::pairs::PairTags`]); an optional
//! `<ifm|arg_type>` element between a key and its value declares the
//! value's type (a declared `string` is the text as written). A call may
//! hold a JSON call object instead (a hermes body). The wrapper is markup
//! when a call follows it; stray closing tags are markup. Its reasoning
//! spans (`<ifm|think>`, `<ifm|think_fast>`, `<ifm|think_faster>`) are
//! read in `reasoning.rs`.

use super::shared::pairs::{markup_unless_more, name_after_token, PairTags, Pairs};
use super::shared::tagged::{json_after, TaggedJson};
use super::{ids, Values};
use super::{Action, Format, Opener, Probe, ProbeCx};
use crate::render::{CallSpec, Prompt};
use crate::scan::{self, Prefix};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::K2_V3,
    "MBZUAI IFM K2-V3 (K2-Horizon)",
    &[
        "<ifm|tool_calls>",
        "<ifm|tool_call>",
        "<ifm|arg_key>",
        "</ifm|arg_key>",
        "<ifm|arg_type>",
        "</ifm|arg_type>",
        "<ifm|arg_value>",
        "</ifm|arg_value>",
        "</ifm|tool_call>",
        "</ifm|tool_calls>",
    ],
    "function name, then key/(type)/value pairs (GLM's grammar), or a JSON call object",
)
.openers(&[
    OPENER_WRAPPER,
    OPENER_CALL,
    OPENER_STRAY_CALL_CLOSE,
    OPENER_WRAPPER_CLOSE,
])
.values(Values::Text)
.render(Prompt::new("K2-V3", write_calls));

/// `k2-v3`: the `ifm|` wrapper around GLM's name and key/value pairs.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::with_pairs;
    use crate::render::text::value_text;

    let body = with_pairs(
        calls,
        "\n",
        |_, c| format!("<ifm|tool_call>{}", c.name),
        |k, v| {
            format!(
                "<ifm|arg_key>{k}</ifm|arg_key><ifm|arg_value>{}</ifm|arg_value>",
                value_text(v)
            )
        },
        "</ifm|tool_call>",
    );
    format!("<ifm|tool_calls>\n{body}\n</ifm|tool_calls>")
}

const WRAPPER: &[u8] = b"<ifm|tool_calls>";
const WRAPPER_CLOSE: &[u8] = b"</ifm|tool_calls>";
const OPEN: &[u8] = b"<ifm|tool_call>";
const CLOSE: &[u8] = b"</ifm|tool_call>";

/// K2-V3's key/value tags.
pub const PAIR_TAGS: PairTags = PairTags::new(ids::K2_V3, CLOSE)
    .tags(
        (b"<ifm|arg_key>", b"</ifm|arg_key>"),
        (b"<ifm|arg_value>", b"</ifm|arg_value>"),
    )
    .typed(b"<ifm|arg_type>", b"</ifm|arg_type>");

/// The block format of a name with key/value pairs.
pub static K2_V3: Pairs = Pairs::new(&PAIR_TAGS);

/// The block format of a JSON call object.
pub static K2_V3_JSON: TaggedJson = TaggedJson::strong(ids::K2_V3, CLOSE);

/// `<ifm|tool_calls>`: markup when a call follows it, else text.
pub const OPENER_WRAPPER: Opener = Opener::new(WRAPPER, |i, cx| {
    let s = scan::skip_space(i, WRAPPER.len());
    if s - WRAPPER.len() > 256 {
        return Probe::NotMarker;
    }
    match scan::prefix(&i[s..], OPEN) {
        Prefix::Full => Probe::Match(Action::Markup { len: s }),
        Prefix::Partial if !cx.eof => Probe::NeedMore,
        _ => Probe::NotMarker,
    }
});

/// `<ifm|tool_call>` then a name (pairs) or JSON; anything else leaves the
/// tag as markup.
pub const OPENER_CALL: Opener = Opener::new(OPEN, probe_call);

fn probe_call(i: &[u8], cx: &ProbeCx) -> Probe {
    name_after_token(i, cx, OPEN.len(), &K2_V3, |s| match i.get(s) {
        Some(b'{' | b'[') => {
            let markup = Probe::Match(Action::Markup { len: OPEN.len() });
            json_after(i, OPEN.len(), cx, &K2_V3_JSON, CLOSE, markup)
        }
        _ => markup_unless_more(i, cx, OPEN.len(), s),
    })
}

/// A stray `</ifm|tool_call>` is markup.
pub const OPENER_STRAY_CALL_CLOSE: Opener = Opener::markup(CLOSE);

/// `</ifm|tool_calls>` is markup, unless it closes a wrapper left as text
/// (`<ifm|tool_calls>junk</ifm|tool_calls>`), like its opener.
pub const OPENER_WRAPPER_CLOSE: Opener = Opener::new(WRAPPER_CLOSE, |_, cx| {
    if cx.declined == Some(WRAPPER) {
        Probe::NotMarker
    } else {
        Probe::Match(Action::Markup {
            len: WRAPPER_CLOSE.len(),
        })
    }
});
