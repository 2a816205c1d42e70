//! Tags: the length of an opening tag with attributes, a wrapper tag that
//! must be followed by an inner one, and the scanner of a block that ends
//! at a closing tag ([`UntilClose`]).

use crate::formats::{Action, BlockEnd, BlockFormat, Opener, Probe, ProbeCx, Scanner};
use crate::scan::{self, Prefix};

/// Probe for a wrapper tag (`open_len` bytes) that must be followed, after
/// blanks, by `inner` (e.g. `<invoke`, `<function`): then a block of `fmt`
/// scanned by what `scanner` makes; anything else makes the lone wrapper
/// tag markup.
pub fn probe_wrapper(
    input: &[u8],
    cx: &ProbeCx,
    open_len: usize,
    inner: &[u8],
    fmt: &'static dyn BlockFormat,
    scanner: impl FnOnce() -> crate::formats::BlockScanner,
) -> Probe {
    let s = scan::skip_space(input, open_len);
    if s == input.len() && !cx.eof {
        return Probe::NeedMore;
    }
    match scan::prefix(&input[s..], inner) {
        Prefix::Full => {}
        Prefix::Partial if !cx.eof => return Probe::NeedMore,
        _ if s == input.len() => {}
        _ => return Probe::Match(Action::Markup { len: open_len }),
    }
    Probe::Match(Action::Block {
        fmt,
        scanner: scanner(),
    })
}

/// Length of an opening tag spelled `lit` plus optional attributes and `>`,
/// or `None`/`NeedMore`.
pub fn tag_len(input: &[u8], lit_len: usize, eof: bool) -> Result<usize, Probe> {
    match input.get(lit_len) {
        None => Err(if eof {
            Probe::NotMarker
        } else {
            Probe::NeedMore
        }),
        Some(b'>') => Ok(lit_len + 1),
        Some(b' ') | Some(b'\t') => {
            // attributes: `<tool_call id="1">`
            let limit = input.len().min(lit_len + 128);
            for (k, &b) in input[lit_len..limit].iter().enumerate() {
                match b {
                    b'>' => return Ok(lit_len + k + 1),
                    b'\n' | b'<' => return Err(Probe::NotMarker),
                    _ => {}
                }
            }
            if limit == input.len() && limit < lit_len + 128 && !eof {
                Err(Probe::NeedMore)
            } else {
                Err(Probe::NotMarker)
            }
        }
        Some(_) => Err(Probe::NotMarker),
    }
}

/// Longest tag suffix looked at.
pub const MAX_SUFFIX: usize = 80;

/// Length of a tag whose name ends at `lit_len` and whose `:SUFFIX>` follows,
/// or why not.
pub fn suffixed_len(input: &[u8], lit_len: usize, eof: bool) -> Result<usize, Probe> {
    let limit = input.len().min(lit_len + MAX_SUFFIX);
    for (k, &b) in input[lit_len..limit].iter().enumerate() {
        match b {
            b'>' => return Ok(lit_len + k + 1),
            b'<' | b'\n' | b' ' | b'\t' | b'\r' => return Err(Probe::NotMarker),
            _ => {}
        }
    }
    if limit == input.len() && limit < lit_len + MAX_SUFFIX && !eof {
        Err(Probe::NeedMore)
    } else {
        Err(Probe::NotMarker)
    }
}

/// Length of `<function=NAME>` / `<function name="NAME">` at the start of
/// `input`, or why not (a tag with no name, `<function=>`, is not one).
pub fn function_tag_end(input: &[u8], cx: &ProbeCx) -> Result<usize, Probe> {
    let limit = input.len().min(10 + 256);
    for (k, &b) in input[9..limit].iter().enumerate() {
        match b {
            b'>' if k <= 1 => return Err(Probe::NotMarker), // no name
            b'>' => return Ok(9 + k + 1),
            b'\n' | b'<' | b'{' => return Err(Probe::NotMarker),
            _ => {}
        }
    }
    if limit == input.len() && !cx.eof {
        Err(Probe::NeedMore)
    } else {
        Err(Probe::NotMarker)
    }
}

/// The `<tool_call>` opener and its spelling drift, `<tool-call>` and
/// `<toolcall>`, in any ASCII case with attributes allowed, all decided by
/// `probe` (which finds the spelling's length with [`tool_call_len`]).
pub const fn tool_call_openers(probe: fn(&[u8], &ProbeCx) -> Probe) -> [Opener; 3] {
    [
        Opener::new(b"<tool_call", probe).ci(),
        Opener::new(b"<tool-call", probe).ci(),
        Opener::new(b"<toolcall", probe).ci(),
    ]
}

/// The length of the [`tool_call_openers`] literal `input` starts with:
/// 9 for `<toolcall`, 10 for `<tool_call` and `<tool-call`.
pub fn tool_call_len(input: &[u8]) -> usize {
    if input.get(5).is_some_and(|b| b.eq_ignore_ascii_case(&b'c')) {
        9
    } else {
        10
    }
}

/// After an opening tool-call tag (`<tool_call>` and its spellings, the
/// literal `lit_len` bytes long, attributes allowed): the tag's length and
/// where its body's first non-blank byte is (`None`: the input ended right
/// after the tag). `Err` carries the probe's answer while it cannot tell.
pub fn tag_then_body(
    input: &[u8],
    lit_len: usize,
    cx: &ProbeCx,
) -> Result<(usize, Option<usize>), Probe> {
    let tag = tag_len(input, lit_len, cx.eof)?;
    let s = scan::skip_space(input, tag);
    if s < input.len() {
        Ok((tag, Some(s)))
    } else if cx.eof {
        Ok((tag, None))
    } else {
        Err(Probe::NeedMore)
    }
}

/// A held-back block of `fmt` found by `scanner`.
pub fn block(fmt: &'static dyn BlockFormat, scanner: impl Scanner + 'static) -> Probe {
    Probe::Match(Action::Block {
        fmt,
        scanner: crate::formats::BlockScanner::new(scanner),
    })
}

/// What a block that ends at a closing tag is when the input ends before
/// the tag: given the whole block, where it ends.
pub type Unclosed = fn(&[u8]) -> BlockEnd;

/// The input ended inside the block: the whole block, cut.
pub fn cut_at_end(block: &[u8]) -> BlockEnd {
    BlockEnd::cut_off(block)
}

/// Finds the end of a block that ends right after the first `close` at or
/// after `start` (ASCII case ignored when `ci`).
pub struct UntilClose {
    close: &'static [u8],
    ci: bool,
    /// Where the probe stopped reading (the search starts there).
    start: usize,
    /// What the block is when the input ends without the tag.
    unclosed: Unclosed,
    /// Where the next search resumes (a tag may straddle two chunks).
    resume: usize,
}

impl UntilClose {
    /// A block closed by `close` (exact bytes), searched from `start`; cut
    /// at the end of input when the tag never comes.
    pub fn new(close: &'static [u8], start: usize) -> Self {
        UntilClose {
            close,
            ci: false,
            start,
            unclosed: cut_at_end,
            resume: start,
        }
    }

    /// The tag is compared ignoring ASCII case.
    pub fn ignore_case(mut self) -> Self {
        self.ci = true;
        self
    }

    /// Where the block ends when the input ends without the tag.
    pub fn unclosed(mut self, unclosed: Unclosed) -> Self {
        self.unclosed = unclosed;
        self
    }
}

impl Scanner for UntilClose {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        let found = if self.ci {
            scan::find_ci(block, self.resume, self.close)
        } else {
            scan::find(block, self.resume, self.close)
        };
        match found {
            Some(k) => BlockEnd::done(k + self.close.len()),
            None if eof => (self.unclosed)(block),
            None => {
                self.resume = block
                    .len()
                    .saturating_sub(self.close.len())
                    .max(self.resume);
                BlockEnd::More
            }
        }
    }

    fn consumed(&self) -> usize {
        self.start
    }
}
