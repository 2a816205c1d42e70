//! A block that runs to its closing literal, whatever is inside.

use crate::formats::{BlockEnd, Scanner};
use crate::scan;

/// Finds the end of a block that runs to the first `close` after the
/// opening marker (the block is cut when the input ends first).
pub struct UntilClose {
    /// The closing literal (compared exactly).
    close: &'static [u8],
    /// Where the search resumes: everything before it holds no `close`.
    from: usize,
}

impl UntilClose {
    /// A block closed by `close`, searched from `from` on.
    pub fn new(from: usize, close: &'static [u8]) -> Self {
        UntilClose { close, from }
    }
}

impl Scanner for UntilClose {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        match scan::find(block, self.from, self.close) {
            Some(k) => BlockEnd::done(k + self.close.len()),
            None if eof => BlockEnd::cut_off(block),
            None => {
                let keep = self.close.len().saturating_sub(1);
                self.from = self.from.max(block.len().saturating_sub(keep));
                BlockEnd::More
            }
        }
    }
}
