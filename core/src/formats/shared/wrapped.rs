//! Python-style bodies held back as blocks: a body between an opening
//! marker and an optional closing one (LFM2, OLMo 3, Apertus, Sarashina),
//! and an unmarked bracketed value that must end its line.

use crate::formats::shared::python::{call_head, loose, rest_of_line_blank, PyEndAt, PyScan};
use crate::formats::{BlockEnd, Scanner};
use crate::scan::{self, Prefix};

/// Where the body of a block lies that is an opening marker `open_len`
/// bytes long, a body and an optional `close` marker: `(from, to, cut)`,
/// the body being `block[from..to]`; `cut` when the input was cut (`cut`
/// given) and the closing marker is missing.
pub fn marked_body(block: &[u8], open_len: usize, close: &[u8], cut: bool) -> (usize, usize, bool) {
    let from = open_len.min(block.len());
    let to = if block.len() >= from + close.len() && block.ends_with(close) {
        block.len() - close.len()
    } else {
        block.len()
    };
    (from, to, cut && to == block.len())
}

/// Finds the end of a block that is an opening marker, a body and an
/// optional closing marker. The body is a bracketed value or a call
/// expression, ended by a balanced scan (so a closing marker inside a
/// string does not end it), then blanks and the closing marker; with `seq`
/// more calls may follow (`f()\ng()`). A body that is neither ends at the
/// closing marker.
pub struct WrapScan {
    /// Length of the opening marker.
    open_len: usize,
    /// The closing marker.
    close: &'static [u8],
    /// Several bare calls may follow each other.
    seq: bool,
    /// The end of the last complete value (0 before the first).
    last_end: usize,
    phase: WrapPhase,
}

/// Where a [`WrapScan`] is.
enum WrapPhase {
    /// Before the body: blanks up to `from`.
    Start { from: usize },
    /// Inside a value.
    Value { py: PyScan },
    /// After a value: blanks up to `from`, then the closing marker or
    /// (with `seq`) another call.
    After { from: usize },
    /// Not a value: a plain search for the closing marker from `from` on.
    Find { from: usize },
}

impl WrapScan {
    /// A block opened by `open_len` bytes and closed by `close`.
    pub fn new(open_len: usize, close: &'static [u8], seq: bool) -> Self {
        WrapScan {
            open_len,
            close,
            seq,
            last_end: 0,
            phase: WrapPhase::Start { from: open_len },
        }
    }

    /// Ends the block after the last value.
    fn done(&self) -> BlockEnd {
        BlockEnd::done(self.last_end)
    }

    /// The closing marker at `s`: `Some` answer when it is there (or may
    /// still be arriving), `None` when something else is.
    fn close_at(&self, block: &[u8], s: usize, eof: bool) -> Option<BlockEnd> {
        match scan::prefix(&block[s..], self.close) {
            Prefix::Full => Some(BlockEnd::done(s + self.close.len())),
            Prefix::Partial if !eof => Some(BlockEnd::More),
            _ => None,
        }
    }
}

impl Scanner for WrapScan {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        let len = block.len();
        loop {
            match self.phase {
                WrapPhase::Start { ref mut from } => {
                    let s = scan::skip_space(block, *from);
                    *from = s;
                    if s == len {
                        return if eof {
                            BlockEnd::Done { len, cut: true }
                        } else {
                            BlockEnd::More
                        };
                    }
                    if let Some(end) = self.close_at(block, s, eof) {
                        return end;
                    }
                    let starts_value = match block[s] {
                        b'[' | b'{' | b'(' => Some(true),
                        _ => call_head(block, s),
                    };
                    self.phase = match starts_value {
                        Some(true) => WrapPhase::Value {
                            py: PyScan::stop_at(s, self.close),
                        },
                        None if !eof => return BlockEnd::More,
                        _ => WrapPhase::Find { from: s },
                    };
                }
                WrapPhase::Value { ref mut py } => match py.scan(block, eof) {
                    PyEndAt::At(e) => {
                        self.last_end = e;
                        self.phase = WrapPhase::After { from: e };
                    }
                    PyEndAt::More if !eof => return BlockEnd::More,
                    // unbalanced: fall back to the closing marker
                    _ => {
                        self.phase = WrapPhase::Find {
                            from: self.open_len,
                        }
                    }
                },
                WrapPhase::After { ref mut from } => {
                    let mut s = scan::skip_space(block, *from);
                    *from = s;
                    if s == len {
                        return if eof { self.done() } else { BlockEnd::More };
                    }
                    if let Some(end) = self.close_at(block, s, eof) {
                        return end;
                    }
                    if !self.seq {
                        return self.done();
                    }
                    if matches!(block[s], b',' | b';') {
                        s = scan::skip_space(block, s + 1);
                    }
                    match call_head(block, s) {
                        Some(true) => {
                            self.phase = WrapPhase::Value {
                                py: PyScan::stop_at(s, self.close),
                            }
                        }
                        None if !eof => return BlockEnd::More,
                        _ => return self.done(),
                    }
                }
                WrapPhase::Find { ref mut from } => {
                    return match scan::find(block, *from, self.close) {
                        Some(k) => BlockEnd::done(k + self.close.len()),
                        None if eof => BlockEnd::Done { len, cut: true },
                        None => {
                            *from = (*from).max(len.saturating_sub(self.close.len()));
                            BlockEnd::More
                        }
                    };
                }
            }
        }
    }

    fn consumed(&self) -> usize {
        self.open_len
    }
}

/// Finds the end of an unmarked bracketed value that must end its line
/// (only blanks or an end-of-turn token may follow it); anything else
/// makes it text.
pub struct LineValueScan {
    phase: LinePhase,
    /// A closing token that may follow the value too (empty: none).
    also: &'static [u8],
    /// Stray closers and a run of code or emphasis bytes may follow the
    /// value before the end of its line (`[f(a=1)])`, `[f(a=1)]**`).
    loose: bool,
}

/// Where a [`LineValueScan`] is.
enum LinePhase {
    /// Inside the value.
    Value { py: PyScan },
    /// The value ended at `end`: the rest of its line decides.
    After { end: usize },
}

impl LineValueScan {
    /// A value that starts at the block's first byte.
    pub fn new() -> Self {
        LineValueScan {
            phase: LinePhase::Value { py: PyScan::at(0) },
            also: b"",
            loose: false,
        }
    }
}

impl LineValueScan {
    /// A value scanned by `py` (e.g. [`PyScan::list_at`] for a call list).
    pub fn with(py: PyScan) -> Self {
        LineValueScan {
            phase: LinePhase::Value { py },
            also: b"",
            loose: false,
        }
    }

    /// Lets stray closers and a wrap run follow the value (see
    /// [`super::python::loose`]); they are part of the block.
    pub fn loose(mut self) -> Self {
        self.loose = true;
        self
    }

    /// Lets `token` follow the value on its line as well.
    pub fn also_before(mut self, token: &'static [u8]) -> Self {
        self.also = token;
        self
    }
}

impl Default for LineValueScan {
    fn default() -> Self {
        Self::new()
    }
}

impl Scanner for LineValueScan {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        if let LinePhase::Value { ref mut py } = self.phase {
            match py.scan(block, eof) {
                PyEndAt::At(e) => self.phase = LinePhase::After { end: e },
                PyEndAt::More if eof => return BlockEnd::cut_off(block),
                PyEndAt::More => return BlockEnd::More,
                PyEndAt::NotValue => {
                    return BlockEnd::NotBlock {
                        text_len: py.pos.max(1),
                    }
                }
            }
        }
        let LinePhase::After { end } = self.phase else {
            return BlockEnd::More;
        };
        let end = if self.loose {
            let mut e = end;
            while e < block.len() && e - end < loose::MAX_EXTRA && matches!(block[e], b')' | b']') {
                e += 1;
            }
            let w = e;
            while e < block.len() && e - w < loose::MAX_WRAP && loose::is_wrap_byte(block[e]) {
                e += 1;
            }
            if e == block.len() && !eof {
                return BlockEnd::More;
            }
            e
        } else {
            end
        };
        match rest_of_line_blank(block, end, eof, self.also) {
            Some(true) => BlockEnd::done(end),
            Some(false) => BlockEnd::NotBlock { text_len: end },
            None => BlockEnd::More,
        }
    }
}
