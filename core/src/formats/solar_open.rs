//! `solar-open`: Upstage Solar Open 2 —
//! `<|tool_call:start|>NAME\n<|tool_arg:start|>K<|tool_arg:value|>V<|tool_arg:end|>\n<|tool_call:end|>`.
//!
//! A call is the function name, then one key/value element per argument;
//! the shape of GLM's calls with other tokens, read by the same pair reader
//! ([`crate::formats::shared::pairs::PairTags`]). Values are text: typed by the
//! loose rule without a schema, by the schema with `--tools`. Tolerated as
//! by [the pair reader](crate::formats::shared::pairs): a missing value close, the
//! call's close missing at the end of input; a stray `<|tool_call:end|>` is
//! markup, and so is `<|tool_call:start|>` followed by no name.

use super::shared::pairs::{markup_unless_more, name_after_token, PairTags, Pairs};
use super::{ids, Values};
use super::{Format, Opener, Probe, ProbeCx};
use crate::render::{CallSpec, Prompt};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::SOLAR_OPEN,
    "Upstage Solar Open 2",
    &[
        "<|tool_call:start|>",
        "<|tool_arg:start|>",
        "<|tool_arg:value|>",
        "<|tool_arg:end|>",
        "<|tool_call:end|>",
    ],
    "function name as text, then key/value elements",
)
.openers(&[OPENER, OPENER_STRAY_CLOSE])
.values(Values::Text)
.render(Prompt::new("Upstage Solar Open 2", write_calls));

/// `solar-open`: the name, then one key/value element per argument, values
/// inline as GLM's.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::with_pairs;
    use crate::render::text::value_text;

    with_pairs(
        calls,
        "\n",
        |_, c| format!("<|tool_call:start|>{}\n", c.name),
        |k, v| {
            format!(
                "<|tool_arg:start|>{k}<|tool_arg:value|>{}<|tool_arg:end|>\n",
                value_text(v)
            )
        },
        "<|tool_call:end|>",
    )
}

const OPEN: &[u8] = b"<|tool_call:start|>";

/// Solar Open's tokens as key/value pair tags (the key ends where its
/// value begins).
pub const PAIR_TAGS: PairTags = PairTags::new(ids::SOLAR_OPEN, b"<|tool_call:end|>").tags(
    (b"<|tool_arg:start|>", b"<|tool_arg:value|>"),
    (b"<|tool_arg:value|>", b"<|tool_arg:end|>"),
);

/// The block format.
pub static SOLAR_OPEN: Pairs = Pairs::new(&PAIR_TAGS);

/// `<|tool_call:start|>` then a name.
pub const OPENER: Opener = Opener::new(OPEN, probe_opener);

fn probe_opener(i: &[u8], cx: &ProbeCx) -> Probe {
    name_after_token(i, cx, OPEN.len(), &SOLAR_OPEN, |s| {
        markup_unless_more(i, cx, OPEN.len(), s)
    })
}

/// A stray `<|tool_call:end|>` is markup.
pub const OPENER_STRAY_CLOSE: Opener = Opener::markup(b"<|tool_call:end|>");
