//! Markdown code fences held back as call blocks: finding the line that
//! closes one (the fenced formats and Command R's `Action:` fence).

use crate::formats::{BlockEnd, Scanner};
use crate::scan;

/// The closing fence line at or after the line starting at `from` (a line
/// of at least `ticks` backticks and nothing else but blanks): the index of
/// its first byte and the index after its line. A last line without its
/// newline closes only at end of input (`eof`).
pub fn closing_line(block: &[u8], from: usize, ticks: usize, eof: bool) -> Option<(usize, usize)> {
    let mut line = from;
    loop {
        let m = scan::skip_blank(block, line);
        // the model's turn ended without closing the fence (Gemma's
        // `tool_code` then `<end_of_turn>`): the fence ends before the token
        for token in TURN_ENDS {
            match scan::prefix(&block[m..], token) {
                scan::Prefix::Full => return Some((line, line)),
                scan::Prefix::Partial if !eof => return None,
                _ => {}
            }
        }
        let t = m + count_ticks(&block[m..]);
        if t - m >= ticks {
            let rest_end = memchr::memchr(b'\n', &block[t..]).map(|k| t + k);
            match rest_end {
                Some(e) if scan::trim(&block[t..e]).is_empty() => return Some((line, e + 1)),
                None if eof && scan::trim(&block[t..]).is_empty() => {
                    return Some((line, block.len()))
                }
                _ => {}
            }
        }
        match memchr::memchr(b'\n', &block[line..]) {
            Some(k) => line += k + 1,
            None => return None,
        }
    }
}

/// End-of-turn tokens that close a fence left open at the start of a line.
const TURN_ENDS: &[&[u8]] = &[b"<end_of_turn>", b"<eos>", b"<|im_end|>", b"<|eot_id|>"];

/// How many backticks `b` starts with.
pub fn count_ticks(b: &[u8]) -> usize {
    b.iter().take_while(|&&c| c == b'`').count()
}

/// Finds the end of a fenced block: the line that closes the fence, else
/// the end of input (a cut fence).
pub struct FenceScan {
    /// Where the content starts (after the opening fence line).
    content: usize,
    /// How many backticks close the fence.
    ticks: usize,
    phase: FencePhase,
}

/// Where a [`FenceScan`] is.
enum FencePhase {
    /// Every line before `from` is content; the line at `from` may still
    /// close the fence.
    Lines { from: usize },
    /// Inside a line that cannot close the fence, read up to `from`: only
    /// its end matters, so a long line is scanned once.
    InLine { from: usize },
}

impl FenceScan {
    /// A fence whose content starts at `content`, closed by `ticks` backticks.
    pub fn new(content: usize, ticks: usize) -> Self {
        FenceScan {
            content,
            ticks,
            phase: FencePhase::Lines { from: content },
        }
    }
}

impl Scanner for FenceScan {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        let len = block.len();
        if let FencePhase::InLine { from } = self.phase {
            match memchr::memchr(b'\n', &block[from.min(len)..]) {
                Some(k) => self.phase = FencePhase::Lines { from: from + k + 1 },
                None if eof => return BlockEnd::Done { len, cut: true },
                None => {
                    self.phase = FencePhase::InLine { from: len };
                    return BlockEnd::More;
                }
            }
        }
        let FencePhase::Lines { from } = self.phase else {
            return BlockEnd::More;
        };
        match closing_line(block, from, self.ticks, eof) {
            Some((_, end)) => BlockEnd::done(end),
            None if eof => BlockEnd::Done { len, cut: true },
            None => {
                // every complete line so far is content
                let line = memchr::memrchr(b'\n', &block[from..]).map_or(from, |k| from + k + 1);
                // the last, unfinished line: can it still be the closing fence?
                let m = scan::skip_blank(block, line);
                let t = m + count_ticks(&block[m..]);
                // (a line starting `<` may still be an end-of-turn token)
                self.phase = if t < len && t - m < self.ticks && block[m] != b'<' {
                    FencePhase::InLine { from: len }
                } else {
                    FencePhase::Lines { from: line }
                };
                BlockEnd::More
            }
        }
    }

    fn consumed(&self) -> usize {
        self.content
    }
}
