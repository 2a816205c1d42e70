//! `ernie45`: Baidu ERNIE 4.5 — hermes-style `<tool_call>{json}</tool_call>`
//! blocks after a reasoning part that ends with `</think>`.
//!
//! The chat template opens the think block in the prompt, so the output is
//! `reasoning…\n</think>\n\n<tool_call>…</tool_call>` or
//! `reasoning…\n</think>\n\n<response>\nanswer\n</response>`. In auto mode the
//! hermes opener finds the calls (labelled `hermes`: the bytes are the
//! same); with `--format ernie45` a dedicated opener finds them. Without a
//! `<think>` opener the engine cannot know that the text before `</think>`
//! was reasoning (that needs a "reasoning open at start" engine mode), but
//! the stray `</think>` and ERNIE's `<response>` / `</response>` wrappers on
//! their own lines are markup, so no marker leaks into the text.

use super::{ids, Rank};
use super::{Action, Format, Opener, Probe, ProbeCx};
use crate::call::Evidence;
use crate::render::Prompt;
use crate::scan::{self, Prefix};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::ERNIE45,
    "Baidu ERNIE 4.5 (incl. 21B-A3B-Thinking)",
    &[
        "</think>",
        "<tool_call>",
        "</tool_call>",
        "<response>",
        "</response>",
    ],
    "JSON object {\"name\", \"arguments\"} (hermes body)",
)
.openers(&[
    OPENER_TOOL_CALL,
    OPENER_STRAY_CLOSE,
    OPENER_STRAY_THINK_END,
    OPENER_RESPONSE,
    OPENER_RESPONSE_END,
])
.render(Prompt::new(
    "Baidu ERNIE 4.5",
    crate::render::calls::tool_call_json,
));

/// ERNIE's hermes blocks under `--format ernie45`.
pub static ERNIE45: super::shared::tagged::TaggedJson = super::shared::tagged::TaggedJson {
    id: ids::ERNIE45,
    close: b"</tool_call>",
    closed_label: ids::ERNIE45,
    open_label: ids::ERNIE45,
    evidence: Evidence::Strong,
};

fn probe_tool_call(input: &[u8], cx: &ProbeCx) -> Probe {
    match super::shared::tag::tag_len(input, 10, cx.eof) {
        Ok(tag) => super::shared::tagged::json_after(
            input,
            tag,
            cx,
            &ERNIE45,
            ERNIE45.close,
            Probe::NotMarker,
        ),
        Err(p) => p,
    }
}

/// `<tool_call>` with `--format ernie45` (in auto mode the hermes opener,
/// earlier in the table, takes it).
pub const OPENER_TOOL_CALL: Opener = Opener::new(b"<tool_call", probe_tool_call)
    .ci()
    .rank(Rank::Late);

/// A stray `</tool_call>` under `--format ernie45` (as hermes reads one).
pub const OPENER_STRAY_CLOSE: Opener =
    Opener::new(b"</tool_call>", super::shared::stray::probe_tool_call_close)
        .ci()
        .rank(Rank::Late);

/// A `</think>` outside any reasoning span (the template opened it) is
/// markup, in every format.
pub const OPENER_STRAY_THINK_END: Opener = Opener::markup(b"</think>").rank(Rank::Late);

/// `<response>` or `</response>` alone on its line (ERNIE's answer wrapper)
/// is markup. A `<response>` holding a call object is the hermes alias
/// (`granite.rs`), which comes first in the table.
fn probe_response(input: &[u8], cx: &ProbeCx) -> Probe {
    let mut len = 0;
    for lit in [&b"</response>"[..], b"<response>"] {
        match scan::prefix(input, lit) {
            Prefix::Full => len = lit.len(),
            Prefix::Partial if !cx.eof => return Probe::NeedMore,
            _ => {}
        }
    }
    if len == 0 {
        return Probe::NotMarker;
    }
    markup_if_line_ends(input, len, cx)
}

/// Markup of `len` bytes when only blanks follow them up to the end of the
/// line or of the input; text otherwise.
fn markup_if_line_ends(input: &[u8], len: usize, cx: &ProbeCx) -> Probe {
    let s = scan::skip_blank(input, len);
    match input.get(s) {
        None if !cx.eof => Probe::NeedMore,
        None | Some(b'\n') | Some(b'\r') => Probe::Match(Action::Markup { len }),
        Some(_) => Probe::NotMarker,
    }
}

/// `</response>` ending a line (or the input) anywhere: the close of the
/// answer wrapper when it follows the answer's last word (Granite 3.x's
/// `…</think><response>answer</response>`), markup.
pub const OPENER_RESPONSE_END: Opener = Opener::new(b"</response>", |input, cx| {
    markup_if_line_ends(input, b"</response>".len(), cx)
})
.rank(Rank::Late)
.also(&[ids::HERMES, ids::GRANITE]);

/// `<response>` / `</response>` lines.
pub const OPENER_RESPONSE: Opener = Opener::new(b"<", probe_response)
    .line_start()
    .rank(Rank::Late)
    .also(&[ids::HERMES]);
