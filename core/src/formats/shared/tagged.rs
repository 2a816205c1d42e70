//! A block that is an opening tag, a JSON body and an optional closing tag
//! (`<tool_call>{…}</tool_call>` and its many relatives).

use super::json::{calls_from_json_body, split_array_ends, JsonThenClose};
use crate::call::Evidence;
use crate::formats::{Action, BlockFormat, BlockResult, FormatId, ParseCx, Probe, ProbeCx};
use crate::scan;

/// A block that is an opening tag, a JSON body and an optional closing tag.
/// The body starts at the first `{` or `[` of the block (no opener literal
/// contains one); [`JsonThenClose`] finds its end.
pub struct TaggedJson {
    /// The block format id (what `--format` must name to accept it).
    pub id: FormatId,
    /// The closing tag, lowercase ASCII (compared ignoring case).
    pub close: &'static [u8],
    /// The label of calls whose closing tag is present.
    pub closed_label: FormatId,
    /// The label of calls whose closing tag is missing.
    pub open_label: FormatId,
    /// `Strong`: the tag is unambiguous, a broken body is an error.
    /// `Weak`: the body must be call-shaped, anything else is text.
    pub evidence: Evidence,
}

impl TaggedJson {
    /// A strong tag whose calls carry `id` whether closed or not.
    pub const fn strong(id: FormatId, close: &'static [u8]) -> Self {
        TaggedJson {
            id,
            close,
            closed_label: id,
            open_label: id,
            evidence: Evidence::Strong,
        }
    }
}

/// Where the JSON body of a tagged block starts: its first `{` or `[`.
pub fn body_start(block: &[u8]) -> usize {
    memchr::memchr2(b'{', b'[', block).unwrap_or(block.len())
}

impl BlockFormat for TaggedJson {
    fn id(&self) -> FormatId {
        self.id
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        let from = body_start(block);
        let to = super::json::json_calls_end(block, from, self.close);
        let closed = ends_with_ci(scan::trim(block), self.close);
        let label = if closed {
            self.closed_label
        } else {
            self.open_label
        };
        if self.evidence == Evidence::Strong {
            return super::json::json_block(block, from, to, label, cx);
        }
        if cx.cut {
            return BlockResult::text();
        }
        let body = crate::scan::lossy(&block[from..to]);
        let trimmed = body.trim();
        let lead = body.len() - body.trim_start().len();
        let mut r =
            calls_from_json_body(trimmed, label, Evidence::Weak, block.len(), from + lead, cx);
        if !r.errors.is_empty() || r.calls.is_empty() {
            return BlockResult::text();
        }
        split_array_ends(&mut r, block, from + lead);
        r
    }
}

/// True when `b` ends with `lit`, ASCII case ignored.
pub fn ends_with_ci(b: &[u8], lit: &[u8]) -> bool {
    b.len() >= lit.len() && b[b.len() - lit.len()..].eq_ignore_ascii_case(lit)
}

impl TaggedJson {
    /// A held-back block whose tag is `tag` bytes long: its JSON body ends
    /// where the JSON ends (a closing tag inside a string does not end it).
    pub fn block(&'static self, tag: usize) -> Probe {
        json_block_at(self, tag, self.close)
    }
}

/// A held-back block of `fmt` whose tag is `tag` bytes long and whose JSON
/// body is closed by `close`.
pub fn json_block_at(fmt: &'static dyn BlockFormat, tag: usize, close: &'static [u8]) -> Probe {
    Probe::Match(Action::Block {
        fmt,
        scanner: crate::formats::BlockScanner::Json(
            JsonThenClose::new(tag, close)
                .broken_ends_at_close()
                .calls_joined_by_commas(),
        ),
    })
}

/// After a tag of length `tag`: a block of `fmt` (its JSON closed by
/// `close`) when a JSON value (or the end of input) follows, else
/// `otherwise`.
pub fn json_after(
    input: &[u8],
    tag: usize,
    cx: &ProbeCx,
    fmt: &'static dyn BlockFormat,
    close: &'static [u8],
    otherwise: Probe,
) -> Probe {
    let s = scan::skip_space(input, tag);
    if s - tag > 256 {
        return otherwise;
    }
    match input.get(s) {
        None if cx.eof => json_block_at(fmt, tag, close),
        None => Probe::NeedMore,
        Some(b'{') | Some(b'[') => json_block_at(fmt, tag, close),
        Some(_) => otherwise,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_with_ignores_case() {
        assert!(ends_with_ci(b"x</TOOLCALL>", b"</toolcall>"));
        assert!(!ends_with_ci(b"ll>", b"</toolcall>"));
    }

    #[test]
    fn body_starts_at_first_bracket() {
        assert_eq!(body_start(b"<|tool_call|>[{}]"), 13);
        assert_eq!(body_start(b"<|tool_call|>"), 13);
    }
}
