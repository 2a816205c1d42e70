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
    if partial && !cx.eof {
        Probe::NeedMore
    } else {
        Probe::NotMarker
    }
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
