//! Where a block ends when the input does: answers several scanners give
//! the same way.

use crate::formats::BlockEnd;
use crate::scan::{self, Prefix};

/// End of input before a wrapper's closing tag: the block ends after the
/// last closed element (`last_end`), or where an element begun after it
/// starts (`begun`); with no closed element it is the whole block, cut.
pub fn after_last_element(block: &[u8], last_end: Option<usize>, begun: Option<usize>) -> BlockEnd {
    match last_end {
        Some(end) => {
            let len = match begun {
                Some(start) if start >= end => start,
                _ => end,
            };
            BlockEnd::Done { len, cut: false }
        }
        None => BlockEnd::cut_off(block),
    }
}

/// Blanks before a body: moves `from` past them. `Some` answer while
/// nothing else has come: more input, or at end of input the whole block,
/// cut.
pub fn blank_lead(block: &[u8], from: &mut usize, eof: bool) -> Option<BlockEnd> {
    *from = scan::skip_space(block, *from);
    if *from < block.len() {
        return None;
    }
    Some(BlockEnd::unended(block, eof))
}

/// A value ended at `end`: the block takes `close` (ASCII case ignored)
/// when it follows after blanks, waits while it may still come, and
/// otherwise ends with the value. A closing tag cut off by the end of
/// input (`</tool` for `</tools>`, at least its `</`) is the block's too:
/// markup, not text.
pub fn close_after_value(block: &[u8], end: usize, close: &[u8], eof: bool) -> BlockEnd {
    let s = scan::skip_space(block, end);
    match scan::prefix_ci(&block[s..], close) {
        Prefix::Full => BlockEnd::done(s + close.len()),
        Prefix::Partial if !eof => BlockEnd::More,
        Prefix::Partial if block.len() - s >= 2 && close.starts_with(b"</") => {
            BlockEnd::done(block.len())
        }
        _ if s == block.len() && !eof => BlockEnd::More,
        _ => BlockEnd::done(end),
    }
}
