//! `olmo3`: AllenAI OLMo 3, `<function_calls>` … `</function_calls>`.
//!
//! Inside the tags: pythonic call expressions without list brackets, one per
//! line (`get_weather(city="Seattle")\nget_time(tz="PST")`). JSON's
//! `true`/`false`/`null` appear alongside Python's `True`/`False`/`None` and
//! both are accepted. Tolerated: a bracketed list, calls separated by `,` or
//! `;`, a missing closing tag, the closing tag inside a string argument.
//! `<function_calls>` followed by anything that is not a call is not this
//! format (`<invoke>` markup there is DSML with its tokens stripped, read by
//! `deepseek-dsml`; prose is text). A stray `</function_calls>`
//! is markup.

use super::shared::python::{call_head, parse_wrapped, skip_space_bounded, Wrap, MAX_GAP};
use super::Model;
use super::{ids, Blocks};
use super::{Format, Opener, Probe, ProbeCx};
use crate::render::{results, tools, CallSpec, Prompt};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::OLMO3,
    "AllenAI OLMo 3",
    &["<function_calls>", "</function_calls>"],
    "newline-separated pythonic calls without list brackets",
)
.models(&[Model::new("olmo-3", "<|im_start|>assistant\n")])
.openers(&[OPENER, OPENER_STRAY_CLOSE])
.render(Prompt::new("AllenAI OLMo 3", write_calls).template(tools::olmo3, results::olmo3));

/// `olmo3`: newline-separated pythonic calls in `<function_calls>`.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::{each, py_call};

    format!(
        "<function_calls>\n{}\n</function_calls>",
        each(calls, "\n", |_, c| py_call(c))
    )
}

const WRAP: Wrap = Wrap::new(b"<function_calls>", b"</function_calls>").seq();

/// The OLMo 3 block format.
pub static OLMO3: Blocks = Blocks::new(ids::OLMO3, |block, cx| {
    parse_wrapped(block, cx, &WRAP, ids::OLMO3)
});

fn probe(input: &[u8], cx: &ProbeCx) -> Probe {
    let s = skip_space_bounded(input, WRAP.open_len);
    if s > WRAP.open_len + MAX_GAP {
        return Probe::NotMarker;
    }
    let held = || WRAP.block(&OLMO3);
    match input.get(s) {
        None if cx.eof => held(), // cut off right after the tag
        None => Probe::NeedMore,
        Some(b'[') => held(),
        Some(_) => match call_head(input, s) {
            Some(true) => held(),
            None if !cx.eof => Probe::NeedMore,
            _ => Probe::NotMarker,
        },
    }
}

/// `<function_calls>` followed by a call.
pub const OPENER: Opener = Opener::new(WRAP.open, probe);

/// A stray `</function_calls>` is markup.
pub const OPENER_STRAY_CLOSE: Opener = Opener::markup(b"</function_calls>");
