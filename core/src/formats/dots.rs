//! `dots`: rednote dots —
//! `<dots_function_call><invoke name="NAME"><parameter name="KEY">V</parameter></invoke></dots_function_call>`.
//!
//! MiniMax-M2's invokes under the family's own wrapper, read by the shared
//! invoke reader ([`crate::formats::shared::invoke`]); the wrapper may hold
//! a JSON call object instead (a hermes body). Values are text, typed by the
//! loose rule without a schema and by the schema with `--tools`. Tolerated
//! as in `minimax-m2`: a missing
//! `</parameter>`, `</invoke>` or wrapper close at the end of input. A stray
//! `</dots_function_call>` is markup, and so is an opening wrapper followed
//! by neither an invoke nor JSON.

use super::shared::invoke::{end_without_close, parse_invokes};
use super::shared::tag::UntilClose;
use super::shared::tagged::{json_after, TaggedJson};
use super::{ids, Blocks, Values};
use super::{Action, Format, Opener, Probe, ProbeCx};
use crate::render::{CallSpec, Prompt};
use crate::scan;

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::DOTS,
    "rednote dots",
    &[
        "<dots_function_call>",
        "<invoke name=\"NAME\">",
        "<parameter name=\"KEY\">",
        "</parameter>",
        "</invoke>",
        "</dots_function_call>",
    ],
    "<invoke> blocks of named parameters (MiniMax-M2's), or a JSON call object",
)
.openers(&[OPENER, OPENER_STRAY_CLOSE])
.values(Values::Text)
.render(Prompt::new("rednote dots", write_calls));

/// `dots`: MiniMax-M2's invokes inside `<dots_function_call>`.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::invokes;

    format!(
        "<dots_function_call>{}</dots_function_call>",
        invokes(calls)
    )
}

const OPEN: &[u8] = b"<dots_function_call>";
const CLOSE: &[u8] = b"</dots_function_call>";

/// The wrapper around invokes.
pub static DOTS: Blocks = Blocks::new(ids::DOTS, |block, cx| parse_invokes(block, ids::DOTS, cx));

/// The wrapper around a JSON call object.
pub static DOTS_JSON: TaggedJson = TaggedJson::strong(ids::DOTS, CLOSE);

fn probe(input: &[u8], cx: &ProbeCx) -> Probe {
    let markup = || Probe::Match(Action::Markup { len: OPEN.len() });
    let s = scan::skip_space(input, OPEN.len());
    match input.get(s) {
        Some(b'{' | b'[') => json_after(input, OPEN.len(), cx, &DOTS_JSON, CLOSE, markup()),
        _ => super::probe_wrapper(input, cx, OPEN.len(), b"<invoke", &DOTS, || {
            crate::formats::BlockScanner::new(
                UntilClose::new(CLOSE, OPEN.len()).unclosed(end_without_close),
            )
        }),
    }
}

/// `<dots_function_call>`.
pub const OPENER: Opener = Opener::new(OPEN, probe);

/// A stray `</dots_function_call>` is markup.
pub const OPENER_STRAY_CLOSE: Opener = Opener::markup(CLOSE);
