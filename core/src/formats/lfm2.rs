//! `lfm2`: Liquid LFM2 / LFM2.5, `<|tool_call_start|>[f(a=1), g()]<|tool_call_end|>`.
//!
//! The body is a pythonic call list (parsed by [`crate::formats::shared::python`]); a JSON
//! array of `{"name", "arguments"}` objects is accepted too. Text usually
//! follows the closing marker. Tolerated: a missing closing marker, a single
//! call without list brackets, strings holding `]`, `)` or raw newlines,
//! negative numbers, tuples and keyword names such as `from=`. A stray
//! `<|tool_call_end|>` is markup, never text.

use super::shared::python::{parse_wrapped, Wrap};
use super::Model;
use super::{ids, Blocks};
use super::{Format, Opener};
use crate::render::{results, tools, CallSpec, Prompt};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::LFM2,
    "Liquid LFM2, LFM2.5",
    &["<|tool_call_start|>", "<|tool_call_end|>"],
    "pythonic call list (JSON array also accepted)",
)
.models(&[Model::new("lfm2", "<|im_start|>assistant\n")])
.openers(&[OPENER, OPENER_STRAY_END])
.render(Prompt::new("Liquid LFM2", write_calls).template(tools::lfm2, results::lfm2));

/// `lfm2`: the pythonic list inside `<|tool_call_start|>`…`<|tool_call_end|>`.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::py_list;

    format!("<|tool_call_start|>{}<|tool_call_end|>", py_list(calls))
}

const WRAP: Wrap = Wrap::new(b"<|tool_call_start|>", b"<|tool_call_end|>").seq();

/// The LFM2 block format.
pub static LFM2: Blocks = Blocks::new(ids::LFM2, |block, cx| {
    parse_wrapped(block, cx, &WRAP, ids::LFM2)
});

/// `<|tool_call_start|>`.
pub const OPENER: Opener = Opener::new(WRAP.open, |_, _| WRAP.block(&LFM2));

/// A stray `<|tool_call_end|>` is markup.
pub const OPENER_STRAY_END: Opener = Opener::markup(b"<|tool_call_end|>");
