//! Edits: byte ranges of the input replaced by new text.
//!
//! The tolerant parser never copies the input while it scans; it records
//! what to change. Applying the edits at the end copies every kept byte
//! exactly once, so kept tokens keep their original text.

use std::borrow::Cow;

/// Replace `input[start..end]` by `text` (a pure insertion when
/// `start == end`, a deletion when `text` is empty).
#[derive(Clone, Debug)]
pub(crate) struct Edit {
    pub start: usize,
    pub end: usize,
    pub text: Cow<'static, str>,
    /// An opening that wraps what other insertions at the same offset
    /// begin (the `[` around several top-level values): it goes first.
    pub outer: bool,
}

/// Applies `edits` to `input`.
///
/// Edits are sorted by `(start, end)` (stable, so insertions at one offset
/// keep the order in which they were recorded, after any `outer` one, and
/// come before a deletion that starts there). Deletions may overlap (dropping an incomplete member
/// can cover a comma or comment removed earlier): they merge. Any other edit
/// that falls inside deleted text is dropped with it. The caller checks the
/// result, so a bug here cannot produce output that claims to be JSON and is
/// not.
pub(crate) fn apply(input: &str, edits: &mut [Edit]) -> String {
    edits.sort_by_key(|e| (e.start, e.end, !e.outer));
    let extra: usize = edits.iter().map(|e| e.text.len()).sum();
    let mut out = String::with_capacity(input.len() + extra);
    let mut cursor = 0usize;
    for e in edits.iter() {
        if e.end < e.start || e.end > input.len() {
            debug_assert!(false, "malformed edit {e:?}");
            continue;
        }
        if e.start < cursor {
            if e.text.is_empty() {
                cursor = cursor.max(e.end);
            } else {
                debug_assert!(
                    e.end <= cursor,
                    "edit {e:?} straddles a deletion ending at {cursor}"
                );
            }
            continue;
        }
        match input.get(cursor..e.start) {
            Some(kept) => out.push_str(kept),
            None => continue,
        }
        out.push_str(&e.text);
        cursor = e.end;
    }
    if let Some(rest) = input.get(cursor..) {
        out.push_str(rest);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(start: usize, end: usize, text: &'static str) -> Edit {
        Edit {
            start,
            end,
            text: text.into(),
            outer: false,
        }
    }

    #[test]
    fn applies_in_offset_order_and_merges_deletions() {
        let mut v = vec![e(5, 6, ""), e(1, 1, "X"), e(1, 3, "")];
        assert_eq!(apply("abcdefg", &mut v), "aXdeg");
        let mut v = vec![e(1, 2, ""), e(1, 5, ""), e(2, 3, "Y"), e(3, 4, "")];
        assert_eq!(apply("abcdefg", &mut v), "afg");
    }
}
