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
//! `parameter name="x">valueparameter>` lines and `invoke>`, as MLX builds
//! of M2.1–M2.7 write it) is read with the brackets put back, a
//! `damaged_key` repair.

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
        Box::new(UntilClose::new(CLOSE, OPEN.len()).unclosed(end_without_close))
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
            scanner: Box::new(UntilClose::new(b"</invoke>", LIT).unclosed(end_without_close)),
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
/// A bracketless parameter line's start.
const BRACKETLESS_PARAM: &[u8] = b"parameter name=";
/// A bracketless invoke's last line.
const BRACKETLESS_CLOSE: &str = "invoke>";
/// The longest head line (`invoke name="…">`) read before deciding.
const MAX_HEAD: usize = 512;
/// The longest bracketless invoke held back.
const MAX_BRACKETLESS: usize = 64 * 1024;

/// The invoke of MiniMax-M2 with its angle brackets left out, at the start
/// of a line: `invoke name="NAME">` ending its line, then a line that
/// starts `parameter name=` or is `invoke>`. Anything else is text.
fn probe_bracketless(input: &[u8], cx: &ProbeCx) -> Probe {
    let Some(nl) = memchr::memchr(b'\n', &input[..input.len().min(MAX_HEAD)]) else {
        return if input.len() < MAX_HEAD && !cx.eof {
            Probe::NeedMore
        } else {
            Probe::NotMarker
        };
    };
    let head = scan::trim(&input[BRACKETLESS.len()..nl]);
    let quoted = head.len() > 3
        && matches!(head[0], b'"' | b'\'')
        && head.ends_with(b">")
        && head[head.len() - 2] == head[0]
        && !head[1..head.len() - 2].contains(&head[0]);
    if !quoted {
        return Probe::NotMarker;
    }
    let next = scan::skip_blank(input, nl + 1);
    let rest = &input[next.min(input.len())..];
    for lit in [BRACKETLESS_PARAM, BRACKETLESS_CLOSE.as_bytes()] {
        match scan::prefix(rest, lit) {
            Prefix::Full => {
                return Probe::Match(Action::Block {
                    fmt: &MINIMAX_M2_BRACKETLESS,
                    scanner: Box::new(BracketlessScan {
                        head: nl + 1,
                        from: nl + 1,
                    }),
                })
            }
            Prefix::Partial if !cx.eof => return Probe::NeedMore,
            _ => {}
        }
    }
    Probe::NotMarker
}

/// `invoke name=` at the start of a line.
pub const OPENER_BRACKETLESS: Opener = Opener::new(BRACKETLESS, probe_bracketless).line_start();

/// Finds the end of a bracketless invoke: the end of its `invoke>` line,
/// looked for in its first [`MAX_BRACKETLESS`] bytes (past them, the head
/// line is text and the rest is read again).
struct BracketlessScan {
    /// The head line's length with its newline.
    head: usize,
    /// Where the next unread line starts.
    from: usize,
}

impl Scanner for BracketlessScan {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        let window = &block[..block.len().min(MAX_BRACKETLESS)];
        while let Some(k) = memchr::memchr(b'\n', &window[self.from..]) {
            let line = &window[self.from..self.from + k];
            if scan::trim(line) == BRACKETLESS_CLOSE.as_bytes() {
                return BlockEnd::done(self.from + k);
            }
            self.from += k + 1;
        }
        if block.len() >= MAX_BRACKETLESS {
            return BlockEnd::NotBlock {
                text_len: self.head,
            };
        }
        if !eof {
            return BlockEnd::More;
        }
        if scan::trim(&block[self.from..]) == BRACKETLESS_CLOSE.as_bytes() {
            BlockEnd::done(block.len())
        } else {
            BlockEnd::cut_off(block)
        }
    }
}

/// A bracketless invoke block.
pub static MINIMAX_M2_BRACKETLESS: Blocks = Blocks::new(ids::MINIMAX_M2, parse_bracketless);

/// Puts the brackets back (`<invoke …>`, `<parameter …>`, the value's
/// trailing `parameter>` as `</parameter>`, `</invoke>`) and reads the
/// invoke; a block cut off before its `invoke>`, or one that gives no
/// clean call, is text.
fn parse_bracketless(block: &[u8], cx: &ParseCx) -> BlockResult {
    if cx.cut {
        return BlockResult::text();
    }
    let text = crate::scan::lossy(block);
    let mut fixed = String::with_capacity(text.len() + 16);
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let nl = &line[body.len()..];
        let t = body.trim_start();
        let indent = &body[..body.len() - t.len()];
        fixed.push_str(indent);
        if t.trim_end() == BRACKETLESS_CLOSE {
            fixed.push_str("</invoke>");
        } else {
            let open = t.starts_with("invoke name=") || t.starts_with("parameter name=");
            if open {
                fixed.push('<');
            }
            match t.trim_end().strip_suffix("parameter>") {
                Some(value) if !open || t.starts_with("parameter name=") => {
                    fixed.push_str(value);
                    fixed.push_str("</parameter>");
                }
                _ => fixed.push_str(t),
            }
        }
        fixed.push_str(nl);
    }
    let mut r = parse_invokes(fixed.as_bytes(), ids::MINIMAX_M2, cx);
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
