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
//! quotes around names. A stray `</minimax:tool_call>` is markup. An
//! invoke whose tags lost every `<` and `</` (`invoke name="f">`, then
//! `parameter name="x">valueparameter>` and `invoke>`, on lines of their
//! own or all on one, as MLX builds of M2.1–M2.7 write it) is read with
//! the brackets put back, a `damaged_key` repair.

use super::shared::invoke::{end_without_close, parse_invokes};
use super::shared::tag::UntilClose;
use super::Model;
use super::{ids, Blocks, Values};
use super::{Action, BlockEnd, BlockResult, Format, Opener, ParseCx, Probe, ProbeCx, Scanner};
use crate::repair::{Repair, RepairKind};
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
.openers(&[OPENER, OPENER_STRAY_CLOSE, OPENER_BARE_INVOKE, OPENER_BRACKETLESS])
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

/// The literal of [`OPENER_BRACKETLESS`].
const BRACKETLESS: &[u8] = b"invoke name=";
/// A bracketless parameter's start.
const BRACKETLESS_PARAM: &[u8] = b"parameter name=";
/// A bracketless parameter's end.
const BRACKETLESS_PARAM_END: &[u8] = b"parameter>";
/// A bracketless invoke's end.
const BRACKETLESS_CLOSE: &[u8] = b"invoke>";
/// The longest head (`invoke name="…">`) read before deciding.
const MAX_HEAD: usize = 512;
/// The longest bracketless invoke held back.
const MAX_BRACKETLESS: usize = 64 * 1024;

/// The invoke of MiniMax-M2 with its angle brackets left out, at the start
/// of a line: `invoke name="NAME">`, then (after blanks or a newline)
/// `parameter name=` or `invoke>`. Anything else is text.
fn probe_bracketless(input: &[u8], cx: &ProbeCx) -> Probe {
    let at = BRACKETLESS.len();
    let Some(&q) = input.get(at) else {
        return if cx.eof {
            Probe::NotMarker
        } else {
            Probe::NeedMore
        };
    };
    if q != b'"' && q != b'\'' {
        return Probe::NotMarker;
    }
    let window = &input[at + 1..input.len().min(MAX_HEAD)];
    let Some(k) = memchr::memchr(q, window) else {
        return if input.len() < MAX_HEAD && !cx.eof {
            Probe::NeedMore
        } else {
            Probe::NotMarker
        };
    };
    let name = &window[..k];
    if name.is_empty() || name.iter().any(|&b| b == b'\n' || b == b'<' || b == b'>') {
        return Probe::NotMarker;
    }
    let gt = at + 1 + k + 1;
    match input.get(gt) {
        None if !cx.eof => return Probe::NeedMore,
        Some(b'>') => {}
        _ => return Probe::NotMarker,
    }
    let head = gt + 1;
    let next = skip_space_and_newlines(input, head);
    let rest = &input[next..];
    for lit in [BRACKETLESS_PARAM, BRACKETLESS_CLOSE] {
        match scan::prefix(rest, lit) {
            Prefix::Full => {
                return Probe::Match(Action::Block {
                    fmt: &MINIMAX_M2_BRACKETLESS,
                    scanner: crate::formats::BlockScanner::new(BracketlessScan { head, from: head }),
                })
            }
            Prefix::Partial if !cx.eof => return Probe::NeedMore,
            _ => {}
        }
    }
    if next == input.len() && !cx.eof {
        return Probe::NeedMore;
    }
    Probe::NotMarker
}

/// The first byte at or after `from` that is not a blank or a newline.
fn skip_space_and_newlines(input: &[u8], from: usize) -> usize {
    let mut i = from.min(input.len());
    while i < input.len() && matches!(input[i], b' ' | b'\t' | b'\r' | b'\n') {
        i += 1;
    }
    i
}

/// `invoke name=` at the start of a line.
pub const OPENER_BRACKETLESS: Opener = Opener::new(BRACKETLESS, probe_bracketless).line_start();

/// Finds the end of a bracketless invoke: its `invoke>`, at the start of a
/// line or right after a `parameter>`, looked for in the block's first
/// [`MAX_BRACKETLESS`] bytes (past them, the head is text and the rest is
/// read again).
struct BracketlessScan {
    /// The head's length (`invoke name="…">`).
    head: usize,
    /// Where to look next.
    from: usize,
}

/// Whether the `invoke>` at `k` of `block` closes a bracketless invoke:
/// only blanks before it on its line, or a `parameter>` right before it.
fn closes_invoke(block: &[u8], k: usize) -> bool {
    let line_start = block[..k].iter().rposition(|&b| b == b'\n').map_or(0, |n| n + 1);
    block[line_start..k].iter().all(|&b| b == b' ' || b == b'\t')
        || block[..k].ends_with(BRACKETLESS_PARAM_END)
}

impl Scanner for BracketlessScan {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        let window = &block[..block.len().min(MAX_BRACKETLESS)];
        while let Some(k) = scan::find(window, self.from, BRACKETLESS_CLOSE) {
            if closes_invoke(window, k) {
                return BlockEnd::done(k + BRACKETLESS_CLOSE.len());
            }
            self.from = k + 1;
        }
        // what is left may begin the closer
        self.from = self
            .from
            .max(window.len().saturating_sub(BRACKETLESS_CLOSE.len() - 1));
        if block.len() >= MAX_BRACKETLESS {
            return BlockEnd::NotBlock {
                text_len: self.head,
            };
        }
        if eof {
            BlockEnd::cut_off(block)
        } else {
            BlockEnd::More
        }
    }
}

/// A bracketless invoke block.
pub static MINIMAX_M2_BRACKETLESS: Blocks = Blocks::new(ids::MINIMAX_M2, parse_bracketless);

/// Puts the brackets back (`<invoke …>`, `<parameter …>`, each
/// `parameter>` that ends a value as `</parameter>`, the last `invoke>` as
/// `</invoke>`) and reads the invoke; a block cut off before its
/// `invoke>`, or one that gives no clean call, is text.
fn parse_bracketless(block: &[u8], cx: &ParseCx) -> BlockResult {
    let Some(body) = block.strip_suffix(BRACKETLESS_CLOSE).filter(|_| !cx.cut) else {
        return BlockResult::text();
    };
    let mut fixed = Vec::with_capacity(block.len() + 32);
    fixed.push(b'<');
    let mut i = 0;
    while i < body.len() {
        let rest = &body[i..];
        if i > 0 && rest.starts_with(BRACKETLESS_PARAM) && body[i - 1] != b'<' {
            fixed.push(b'<');
            fixed.extend_from_slice(BRACKETLESS_PARAM);
            i += BRACKETLESS_PARAM.len();
        } else if rest.starts_with(BRACKETLESS_PARAM_END)
            && i > 0
            && !matches!(body[i - 1], b'"' | b'\'' | b'/')
        {
            fixed.extend_from_slice(b"</");
            fixed.extend_from_slice(BRACKETLESS_PARAM_END);
            i += BRACKETLESS_PARAM_END.len();
        } else {
            fixed.push(body[i]);
            i += 1;
        }
    }
    fixed.extend_from_slice(b"</invoke>");
    let mut r = parse_invokes(&fixed, ids::MINIMAX_M2, cx);
    if r.calls.is_empty() || !r.errors.is_empty() {
        return BlockResult::text();
    }
    for call in &mut r.calls {
        call.end = block.len();
        call.repairs = vec![Repair {
            kind: RepairKind::DamagedKey,
            offset: 0,
        }];
    }
    r
}
