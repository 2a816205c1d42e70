//! `jamba`: `<tool_calls>[{"name": …, "arguments": …}, …]</tool_calls>`
//! (AI21 Jamba 1.5/1.6, Tencent Hunyuan-A13B).
//!
//! The `<tool_calls>` tag is shared: each format that writes it has an
//! opener that claims its own body — a JSON array is `jamba`, JSON objects
//! (one per line) are `minimax` (MiniMax-M1), a `<tool_call` tag is a
//! suffix-less `hunyuan-v4` body, and `<tool_calls:SUFFIX>` is always
//! `hunyuan-v4`. Tolerated: tag case,
//! attributes on the tag, a missing `</tool_calls>` at end of input; a stray
//! `</tool_calls>` is markup. `--format jamba` and `--format minimax` accept
//! both bodies.

use super::ids;
use super::shared::tag::tag_then_body;
use super::{Format, Opener, Probe, ProbeCx};
use crate::render::{results, tools, CallSpec, Prompt, Source};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::JAMBA,
    "AI21 Jamba 1.5/1.6, Tencent Hunyuan-A13B",
    &["<tool_calls>", "</tool_calls>"],
    "JSON array of {\"name\", \"arguments\"}",
)
.openers(&[OPENER, OPENER_STRAY_CLOSE])
.admitted_under(&[ids::MINIMAX])
.render(
    Prompt::new("AI21 Jamba 1.5 / 1.6, Tencent Hunyuan-A13B", write_calls)
        .tools(tools::hunyuan_a13b, Source::Approximate)
        .result(results::hunyuan_a13b, Source::Template),
);

/// `jamba`: `<tool_calls>` JSON array `</tool_calls>`.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::array_of;

    format!(
        "<tool_calls>{}</tool_calls>",
        array_of(calls, "name", "arguments")
    )
}

/// Array bodies.
pub static JAMBA: super::shared::tagged::TaggedJson =
    super::shared::tagged::TaggedJson::strong(ids::JAMBA, b"</tool_calls>");

/// A jamba block: `<tool_calls>` around a JSON array (or nothing more, at
/// the end of input). `minimax` (JSON objects), `hunyuan-v4` (`<tool_call`
/// children, suffixed tags) and, under `--format hermes`, `hermes` have
/// openers for the same tag.
fn probe(input: &[u8], cx: &ProbeCx) -> Probe {
    const LIT: usize = OPEN.len();
    let (tag, body) = match tag_then_body(input, LIT, cx) {
        Ok(t) => t,
        Err(p) => return p,
    };
    match body {
        None => JAMBA.block(tag),
        Some(s) if s - tag <= 256 && input[s] == b'[' => JAMBA.block(tag),
        Some(_) => Probe::NotMarker,
    }
}

/// The opener's literal.
const OPEN: &[u8] = b"<tool_calls";

/// `<tool_calls>` (and `<tool_calls:SUFFIX>`).
pub const OPENER: Opener = Opener::new(OPEN, probe).ci().also(&[ids::MINIMAX]);

/// A stray `</tool_calls>` is markup.
pub const OPENER_STRAY_CLOSE: Opener = Opener::markup(b"</tool_calls>")
    .ci()
    .also(&[ids::MINIMAX, ids::HERMES]);
