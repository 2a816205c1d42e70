//! Markers met outside their block: closing tags and special tokens left
//! behind by a template or a cut block are markup, never text.

use crate::formats::{Action, Probe, ProbeCx};
use crate::scan::{self, Prefix};

/// Markup when `input` starts with one of `tokens`; waits while it may.
pub fn probe_tokens(input: &[u8], tokens: &[&[u8]], cx: &ProbeCx) -> Probe {
    let mut partial = false;
    for t in tokens {
        match scan::prefix(input, t) {
            Prefix::Full => return Probe::Match(Action::Markup { len: t.len() }),
            Prefix::Partial => partial = true,
            Prefix::No => {}
        }
    }
    Probe::unmatched(partial, cx)
}

/// A `</tool_call>` outside a block: markup, or text when it closes a
/// `<tool_call>` the engine just left as text (`<tool_call>not a
/// call</tool_call>`, `Use <tool_call> and </tool_call>`).
pub fn probe_tool_call_close(_: &[u8], cx: &ProbeCx) -> Probe {
    let opener = |l: &[u8]| {
        let l = l.strip_suffix(b">").unwrap_or(l);
        l.eq_ignore_ascii_case(b"<tool_call")
    };
    if cx.declined.is_some_and(opener) {
        Probe::NotMarker
    } else {
        Probe::Match(Action::Markup { len: 12 })
    }
}

/// Most bytes an empty wrapper may span.
const EMPTY_WRAPPER_WINDOW: usize = 256;

/// After an opening marker (`input[..open]`): an empty wrapper, the marker
/// then only blanks and empty inner tag pairs (`<functions></functions>`,
/// `<functions/>`), closed by `close` (ASCII case ignored) or by the end of
/// input. The whole is markup: a model that meant no call, or a template's
/// scaffolding, leaves no text behind. Anything else is not an empty
/// wrapper (`NotMarker`); `NeedMore` while that cannot be told.
pub fn empty_wrapper(input: &[u8], open: usize, close: &[u8], cx: &ProbeCx) -> Probe {
    let mut i = open;
    loop {
        i = scan::skip_space(input, i);
        if i > open + EMPTY_WRAPPER_WINDOW {
            return Probe::NotMarker;
        }
        let rest = &input[i..];
        if rest.is_empty() {
            return if cx.eof {
                Probe::Match(Action::Markup { len: input.len() })
            } else {
                Probe::NeedMore
            };
        }
        let n = rest.len().min(close.len());
        if rest[..n].eq_ignore_ascii_case(&close[..n]) {
            return if n == close.len() {
                Probe::Match(Action::Markup { len: i + n })
            } else if cx.eof {
                Probe::NotMarker
            } else {
                Probe::NeedMore
            };
        }
        match empty_pair(rest) {
            Some(Ok(len)) => i += len,
            Some(Err(())) if !cx.eof => return Probe::NeedMore,
            _ => return Probe::NotMarker,
        }
    }
}

/// An empty tag pair at the start of `b` (`<x></x>` or `<x/>`, the name
/// letters and `_` only): `Ok(its length)`, `Err(())` when `b` ends first,
/// `None` when it is not one.
fn empty_pair(b: &[u8]) -> Option<Result<usize, ()>> {
    if b.first() != Some(&b'<') {
        return None;
    }
    let mut i = 1;
    while i < b.len() && i < 40 && (b[i].is_ascii_alphabetic() || b[i] == b'_') {
        i += 1;
    }
    if i == b.len() {
        return Some(Err(()));
    }
    let name = &b[1..i];
    if name.is_empty() {
        return None;
    }
    let mut tail = Vec::with_capacity(name.len() + 3);
    let (lit, from): (&[u8], usize) = if b[i] == b'/' {
        (b"/>", i)
    } else if b[i] == b'>' {
        tail.extend_from_slice(b"></");
        tail.extend_from_slice(name);
        tail.push(b'>');
        (&tail, i)
    } else {
        return None;
    };
    let have = &b[from..];
    let n = have.len().min(lit.len());
    if have[..n] != lit[..n] {
        return None;
    }
    if n < lit.len() {
        return Some(Err(()));
    }
    Some(Ok(from + lit.len()))
}
