//! `minimax-m2`: MiniMax-M2 / M2.1 / M2.5 XML invokes.
//!
//! ```text
//! <minimax:tool_call>
//! <invoke name="shell">
//! <parameter name="cmd">ls -la</parameter>
//! </invoke>
//! </minimax:tool_call>
//! ```
//!
//! Several `<invoke>`s may share one wrapper; each is one call whose span
//! ends with its `</invoke>`. Values are raw text: one leading and one
//! trailing newline are stripped, JSON objects and arrays are decoded,
//! other values are typed like every XML-style format. The invoke reader
//! `invokes` is shared with `minimax-m3`, whose parameters are named by
//! their tag (`<city>Paris</city>`) and whose tags carry a namespace token.
//! Tolerated: a missing `</parameter>` (the value ends at the next tag), a
//! missing `</invoke>` when the parameters are complete, a missing wrapper
//! close at end of input (the block ends after the last complete invoke, so
//! prose or a cut-off invoke after it stays text), single quotes or no
//! quotes around names. A stray `</minimax:tool_call>` is markup.

use super::shared::invoke::{end_without_close, parse_invokes};
use super::shared::tag::UntilClose;
use super::Model;
use super::{ids, Blocks, Values};
use super::{Action, Format, Opener, Probe, ProbeCx};
use crate::render::{results, tools, CallSpec, Prompt};
use crate::scan::{self, Prefix};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::MINIMAX_M2,
    "MiniMax-M2, M2.1, M2.5",
    &[
        "<minimax:tool_call>",
        "<invoke name=\"NAME\">",
        "<parameter name=\"KEY\">",
        "</parameter>",
        "</invoke>",
        "</minimax:tool_call>",
    ],
    "<invoke> blocks of named parameters; values are text, typed when unambiguous",
)
.models(&[Model::new("minimax-m2", "")])
// a turn is `]~b]ROLE` … `[e~[`, the conversation opens with `]~!b[`
.template_tokens(&["]~!b[", "]~b]", "[e~[", "<minimax:tool_call>"])
.openers(&[OPENER, OPENER_STRAY_CLOSE, OPENER_BARE_INVOKE])
.values(Values::Text)
.render(Prompt::new("MiniMax-M2", write_calls).template(tools::minimax_m2, results::minimax_m2));

/// `minimax-m2`: `<minimax:tool_call>` with `<invoke name>` and
/// `<parameter name>` elements.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::invokes;

    format!(
        "<minimax:tool_call>\n{}\n</minimax:tool_call>",
        invokes(calls)
    )
}

const OPEN: &[u8] = b"<minimax:tool_call>";
const CLOSE: &[u8] = b"</minimax:tool_call>";

/// The MiniMax-M2 wrapper block.
pub static MINIMAX_M2: Blocks = Blocks::new(ids::MINIMAX_M2, |block, cx| {
    parse_invokes(block, ids::MINIMAX_M2, cx)
});

fn probe(input: &[u8], cx: &ProbeCx) -> Probe {
    super::probe_wrapper(input, cx, OPEN.len(), b"<invoke", &MINIMAX_M2, || {
        crate::formats::BlockScanner::new(UntilClose::new(CLOSE, OPEN.len()).unclosed(end_without_close))
    })
}

/// `<minimax:tool_call>`.
pub const OPENER: Opener = Opener::new(OPEN, probe);

/// A stray `</minimax:tool_call>` is markup.
pub const OPENER_STRAY_CLOSE: Opener = Opener::markup(CLOSE);

/// The literal of [`OPENER_BARE_INVOKE`].
const BARE_INVOKE: &[u8] = b"<invoke";

/// An `<invoke>` without its wrapper: `<invoke name="…">` (the wrapper
/// lost), Claude 2's nameless `<invoke>` whose first child is
/// `<tool_name>`, or a nameless `<invoke>` around an element named for the
/// tool (`<invoke><exec><cmd>date</cmd></exec></invoke>`). The block runs
/// to `</invoke>`.
fn probe_bare(input: &[u8], cx: &ProbeCx) -> Probe {
    const LIT: usize = BARE_INVOKE.len();
    let block = || {
        Probe::Match(Action::Block {
            fmt: &MINIMAX_M2,
            scanner: crate::formats::BlockScanner::new(UntilClose::new(b"</invoke>", LIT).unclosed(end_without_close)),
        })
    };
    match input.get(LIT) {
        None if !cx.eof => Probe::NeedMore,
        Some(b' ') => match scan::prefix(&input[scan::skip_space(input, LIT)..], b"name=") {
            Prefix::Full => block(),
            Prefix::Partial if !cx.eof => Probe::NeedMore,
            _ => Probe::NotMarker,
        },
        Some(b'>') => {
            let s = scan::skip_space(input, LIT + 1);
            match scan::prefix(&input[s..], b"<tool_name>") {
                Prefix::Full => return block(),
                Prefix::Partial if !cx.eof => return Probe::NeedMore,
                _ => {}
            }
            // an element named for the tool whose body opens with a child
            // element or its own close (`<invoke><exec><cmd>…`)
            match tool_element_head(input, s) {
                Prefix::Full => block(),
                Prefix::Partial if !cx.eof => Probe::NeedMore,
                _ => Probe::NotMarker,
            }
        }
        _ => Probe::NotMarker,
    }
}

/// Whether an element opens at `s` whose tag (within 256 bytes) is
/// followed, after blanks, by a child element's tag or a closing tag:
/// `<exec>\n<cmd>`, not `<b>bold` in prose. [`Prefix::Partial`] while the
/// input ends before that is decided.
fn tool_element_head(input: &[u8], s: usize) -> Prefix {
    match (input.get(s), input.get(s + 1)) {
        (Some(b'<'), Some(&c)) if scan::is_name_start_byte(c) => {}
        (Some(b'<'), None) | (None, _) => return Prefix::Partial,
        _ => return Prefix::No,
    }
    let window = &input[s..input.len().min(s + 256)];
    let Some(gt) = memchr::memchr(b'>', window).map(|k| s + k) else {
        return if input.len() < s + 256 {
            Prefix::Partial
        } else {
            Prefix::No
        };
    };
    let t = scan::skip_space(input, gt + 1);
    match (input.get(t), input.get(t + 1)) {
        (Some(b'<'), Some(&c)) if c == b'/' || scan::is_name_start_byte(c) => Prefix::Full,
        (Some(b'<'), None) | (None, _) => Prefix::Partial,
        _ => Prefix::No,
    }
}

/// A bare `<invoke`.
pub const OPENER_BARE_INVOKE: Opener = Opener::new(BARE_INVOKE, probe_bare);
