//! `granite`: IBM Granite 3.x and granite-20b-functioncalling, plus the
//! tag-plus-JSON block shared by every format whose call is a literal tag,
//! a JSON body and an optional closing tag ([`TaggedJson`]).
//!
//! * Granite 3.0/3.1: `<|tool_call|>[{"name": …, "arguments": …}]` — no
//!   closing marker; the block ends with the JSON value.
//! * Granite 3.2/3.3: the same array after the literal text `<tool_call>`
//!   with no closing tag. In auto mode the `hermes` opener takes it (same
//!   body, optional close) and labels it `hermes`; with `--format granite`
//!   a granite-only opener on `<tool_call>` takes it instead.
//! * granite-20b-functioncalling: `<function_call> {…}` objects, each
//!   introduced by its own `<function_call>` and not closed. When a
//!   `</function_call>` does close it, it is the llama.cpp hermes alias and
//!   the call is labelled `hermes`.
//! * The other hermes-alias wrappers llama.cpp accepts (`<tools>`, `<tool>`,
//!   `<response>`, `<json>`, `<JSON>`, `<xml>`, FORMATS.md §23) are handled here too:
//!   they are common words, so the body must be call-shaped JSON (weak
//!   evidence); anything else in them is text, untouched.
//!
//! `<|tool_call|>` followed by something that is not JSON is a stray special
//! token: markup, never text.

use super::{
    calls_from_json_body, hermes, scan_json_then_close, split_array_ends, Action, BlockEnd,
    BlockFormat, BlockResult, BlockState, FormatInfo, Opener, ParseCx, Probe, ProbeCx,
};
use crate::call::Evidence;
use crate::scan;

/// Catalog entry.
pub const INFO: FormatInfo = FormatInfo {
    id: "granite",
    families: "IBM Granite 3.0-3.3, granite-20b-functioncalling",
    markers: &[
        "<|tool_call|>",
        "<tool_call> (3.2/3.3, no close)",
        "<function_call>",
    ],
    body: "JSON array of {\"name\", \"arguments\"} (20b: one object per <function_call>)",
};

/// A block that is an opening tag, a JSON body and an optional closing tag.
/// The body starts at the first `{` or `[` of the block (no opener literal
/// contains one); `BlockState::pos` is where the probe saw the tag end.
pub struct TaggedJson {
    /// The block format id (what `--format` must name to accept it).
    pub id: &'static str,
    /// The closing tag, lowercase ASCII (compared ignoring case).
    pub close: &'static [u8],
    /// The label of calls whose closing tag is present.
    pub closed_label: &'static str,
    /// The label of calls whose closing tag is missing.
    pub open_label: &'static str,
    /// `Strong`: the tag is unambiguous, a broken body is an error.
    /// `Weak`: the body must be call-shaped, anything else is text.
    pub evidence: Evidence,
}

impl TaggedJson {
    /// A strong tag whose calls carry `id` whether closed or not.
    pub const fn strong(id: &'static str, close: &'static [u8]) -> Self {
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
pub(crate) fn body_start(block: &[u8]) -> usize {
    memchr::memchr2(b'{', b'[', block).unwrap_or(block.len())
}

impl BlockFormat for TaggedJson {
    fn id(&self) -> &'static str {
        self.id
    }

    fn scan(&self, block: &[u8], st: &mut BlockState, eof: bool) -> BlockEnd {
        let body = st.pos;
        match scan_json_then_close(block, body, self.close, st, eof) {
            BlockEnd::Done { cut: true, len } => {
                // The JSON never closed; a closing tag after all means the
                // JSON is broken (odd quotes): end at the tag.
                match scan::find_ci(block, body, self.close) {
                    Some(k) => BlockEnd::Done {
                        len: k + self.close.len(),
                        cut: false,
                    },
                    None => BlockEnd::Done { len, cut: true },
                }
            }
            other => other,
        }
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        let from = body_start(block);
        let to = hermes::json_body_end(block, from, self.close);
        let closed = ends_with_ci(scan::trim(block), self.close);
        let label = if closed {
            self.closed_label
        } else {
            self.open_label
        };
        if self.evidence == Evidence::Strong {
            return hermes::json_block(block, from, to, label, cx);
        }
        if cx.cut {
            return BlockResult::text();
        }
        let body = String::from_utf8_lossy(&block[from..to]);
        let trimmed = body.trim();
        let lead = body.len() - body.trim_start().len();
        let mut r = calls_from_json_body(trimmed, label, Evidence::Weak, block.len(), from + lead);
        if !r.errors.is_empty() || r.calls.is_empty() {
            return BlockResult::text();
        }
        split_array_ends(&mut r, block, from + lead);
        r
    }
}

/// True when `b` ends with `lit`, ASCII case ignored.
pub(crate) fn ends_with_ci(b: &[u8], lit: &[u8]) -> bool {
    b.len() >= lit.len() && b[b.len() - lit.len()..].eq_ignore_ascii_case(lit)
}

/// A held-back block of `fmt` whose tag is `tag` bytes long.
pub(crate) fn held(fmt: &'static dyn BlockFormat, tag: usize) -> Probe {
    Probe::Match(Action::Block {
        fmt,
        state: BlockState {
            pos: tag,
            aux: tag,
            ..BlockState::default()
        },
    })
}

/// After a tag of length `tag`: a block of `fmt` when a JSON value (or the
/// end of input) follows, else `otherwise`.
pub(crate) fn json_after(
    input: &[u8],
    tag: usize,
    cx: &ProbeCx,
    fmt: &'static dyn BlockFormat,
    otherwise: Probe,
) -> Probe {
    let s = scan::skip_space(input, tag);
    if s - tag > 256 {
        return otherwise;
    }
    match input.get(s) {
        None if cx.eof => held(fmt, tag),
        None => Probe::NeedMore,
        Some(b'{') | Some(b'[') => held(fmt, tag),
        Some(_) => otherwise,
    }
}

/// Granite 3.0/3.1 `<|tool_call|>` blocks.
pub static GRANITE: TaggedJson = TaggedJson::strong("granite", b"</tool_call>");

/// granite-20b `<function_call>` blocks (`hermes` when closed).
pub static FUNCTION_CALL: TaggedJson = TaggedJson {
    id: "granite",
    close: b"</function_call>",
    closed_label: "hermes",
    open_label: "granite",
    evidence: Evidence::Strong,
};

/// `<|tool_call|>` + JSON array.
pub const OPENER_SPECIAL: Opener = Opener {
    lit: b"<|tool_call|>",
    ci: false,
    line_start: false,
    formats: &["granite"],
    probe: |i, cx| {
        json_after(
            i,
            13,
            cx,
            &GRANITE,
            Probe::Match(Action::Markup { len: 13 }),
        )
    },
};

/// `<function_call>` + JSON object (granite-20b, or a hermes alias).
pub const OPENER_FUNCTION_CALL: Opener = Opener {
    lit: b"<function_call>",
    ci: true,
    line_start: false,
    formats: &["granite", "hermes"],
    probe: |i, cx| json_after(i, 15, cx, &FUNCTION_CALL, Probe::NotMarker),
};

/// A stray `</function_call>` is markup.
pub const OPENER_STRAY_CLOSE: Opener = Opener {
    lit: b"</function_call>",
    ci: true,
    line_start: false,
    formats: &["granite", "hermes"],
    probe: |_, _| Probe::Match(Action::Markup { len: 16 }),
};

/// Granite 3.2/3.3 `<tool_call>[…]` with `--format granite` (in auto mode
/// the hermes opener, earlier in the table, takes it).
pub const OPENER_TOOL_CALL: Opener = Opener {
    lit: b"<tool_call>",
    ci: true,
    line_start: false,
    formats: &["granite"],
    probe: |i, cx| json_after(i, 11, cx, &GRANITE, Probe::NotMarker),
};

macro_rules! alias {
    ($name:ident, $opener:ident, $open:literal, $close:literal, $doc:literal) => {
        #[doc = $doc]
        pub static $name: TaggedJson = TaggedJson {
            id: "hermes",
            close: $close,
            closed_label: "hermes",
            open_label: "hermes",
            evidence: Evidence::Weak,
        };
        #[doc = $doc]
        pub const $opener: Opener = Opener {
            lit: $open,
            ci: true,
            line_start: false,
            formats: &["hermes"],
            probe: |i, cx| json_after(i, $open.len(), cx, &$name, Probe::NotMarker),
        };
    };
}

alias!(
    TOOLS,
    OPENER_TOOLS,
    b"<tools>",
    b"</tools>",
    "`<tools>` around a call object."
);
alias!(
    TOOL,
    OPENER_TOOL,
    b"<tool>",
    b"</tool>",
    "`<tool>` around a call object."
);
alias!(
    RESPONSE,
    OPENER_RESPONSE,
    b"<response>",
    b"</response>",
    "`<response>` around a call object."
);
alias!(
    JSON,
    OPENER_JSON,
    b"<json>",
    b"</json>",
    "`<json>` / `<JSON>` around a call object."
);
alias!(
    XML,
    OPENER_XML,
    b"<xml>",
    b"</xml>",
    "`<xml>` around a call object."
);

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
