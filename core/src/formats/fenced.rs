//! Markdown code: ```` ```tool_call ```` fences (`fenced-tool-call`),
//! call-shaped ```` ```json ```` fences (`fenced-json`), ordinary fences and
//! inline code.
//!
//! A tool fence is a call by its info string. A JSON fence (or one with no
//! info string) is held back until it closes and is a call only when its
//! value has the full shape of one; anything else in it is text, untouched.
//! Inside ordinary fences and inline code no markers are looked for: a
//! `<tool_call>` in an example is not a call. A tool fence whose body is
//! not JSON is read as pythonic calls (Gemma 2/3's ```` ```tool_code ````
//! with `print(NAME(k=v))` or `NAME(k=v)`), reported as
//! `gemini-function-call` for `tool_code` fences.

use super::shared::directly_answer::drop_directly_answer;
use super::shared::fence::{closing_line, count_ticks, FenceScan};
use super::{ids, FormatId, Rank};
use super::{Action, BlockFormat, BlockResult, Opener, ParseCx, Probe, ProbeCx};
use crate::call::Evidence;
use crate::scan;

/// A held-back fence (its end is found by [`FenceScan`]).
pub struct Fenced {
    id: FormatId,
    evidence: Evidence,
    /// The fence opens the document: a body that is one call tag around
    /// JSON (Qwen2.5-Coder's ```` ```xml ```` around `<function_call>{…}`)
    /// is the reply's call, not an example quoted in prose.
    opens_reply: bool,
}

/// Tool fences.
pub static TOOL_FENCE: Fenced = Fenced {
    id: ids::FENCED_TOOL_CALL,
    evidence: Evidence::Strong,
    opens_reply: false,
};

/// JSON fences.
pub static JSON_FENCE: Fenced = Fenced {
    id: ids::FENCED_JSON,
    evidence: Evidence::Weak,
    opens_reply: false,
};

/// A JSON fence at the very start of the document.
static JSON_FENCE_OPENING: Fenced = Fenced {
    id: ids::FENCED_JSON,
    evidence: Evidence::Weak,
    opens_reply: true,
};

const TOOL_INFOS: &[&str] = &[
    "tool_call",
    "tool_code",
    "tool",
    "function_call",
    "tool_calls",
    "tool_use",
];
// `xml`: llama.cpp's hermes handler accepts a call object in an xml fence
// (`docs/formats.md#fenced-json`); only a call-shaped JSON value counts, XML stays text.
const JSON_INFOS: &[&str] = &["json", "json5", "jsonc", "xml", ""];

fn probe_fence(input: &[u8], cx: &ProbeCx) -> Probe {
    let t = count_ticks(input);
    if t == input.len() && !cx.eof {
        return Probe::NeedMore;
    }
    if t < 3 {
        return Probe::NotMarker;
    }
    if let Some(header_len) = glued_json_header(input, t) {
        if cx.cfg.json_blocks && super::registry::allows_block(cx.cfg, ids::FENCED_JSON) {
            return Probe::Match(Action::Block {
                fmt: &JSON_FENCE,
                scanner: Box::new(FenceScan::new(header_len, t)),
            });
        }
    }
    // the info string ends within 256 bytes; only that window is looked
    // at, so the answer does not depend on how much input has arrived
    let window = &input[t..input.len().min(t + 257)];
    let nl = match memchr::memchr(b'\n', window) {
        Some(k) => t + k,
        None if window.len() > 256 => return Probe::NotMarker,
        None if cx.eof => input.len(),
        None => return Probe::NeedMore,
    };
    let header_len = (nl + 1).min(input.len());
    let info = crate::scan::lossy(&input[t..nl])
        .trim()
        .to_ascii_lowercase();
    let info = info.split_whitespace().next().unwrap_or("").to_string();
    let held = |fmt: &'static Fenced| {
        Probe::Match(Action::Block {
            fmt,
            scanner: Box::new(FenceScan::new(header_len, t)),
        })
    };
    if TOOL_INFOS.contains(&info.as_str())
        && (cx.cfg.allows(ids::FENCED_TOOL_CALL)
            || (info == "tool_code" && cx.cfg.allows(ids::GEMINI_FUNCTION_CALL)))
    {
        return held(&TOOL_FENCE);
    }
    if JSON_INFOS.contains(&info.as_str())
        && cx.cfg.json_blocks
        && super::registry::allows_block(cx.cfg, ids::FENCED_JSON)
    {
        return held(if cx.doc_start {
            &JSON_FENCE_OPENING
        } else {
            &JSON_FENCE
        });
    }
    Probe::Match(Action::Fence {
        header_len,
        ticks: t,
        byte: b'`',
    })
}

/// A `~~~` fence: CommonMark's other code fence, always an ordinary one (an
/// example: no markers are looked for in it, whatever its info string).
fn probe_tilde_fence(input: &[u8], cx: &ProbeCx) -> Probe {
    let t = input.iter().take_while(|&&c| c == b'~').count();
    if t == input.len() && !cx.eof {
        return Probe::NeedMore;
    }
    if t < 3 {
        return Probe::NotMarker;
    }
    // the info string may not hold a `~` (CommonMark); its line ends
    // within 256 bytes
    let window = &input[t..input.len().min(t + 257)];
    let header_len = match memchr::memchr2(b'\n', b'~', window) {
        Some(k) if window[k] == b'\n' => t + k + 1,
        Some(_) => return Probe::NotMarker,
        None if window.len() > 256 => return Probe::NotMarker,
        None if cx.eof => input.len(),
        None => return Probe::NeedMore,
    };
    Probe::Match(Action::Fence {
        header_len,
        ticks: t,
        byte: b'~',
    })
}

/// A `~~~` fence at the start of a line.
pub const TILDE_FENCE: Opener = Opener::new(b"~~~", probe_tilde_fence)
    .line_start()
    .rank(Rank::Structural);

/// A fence at the start of a line.
pub const FENCE: Opener = Opener::new(b"```", probe_fence)
    .line_start()
    .rank(Rank::Structural);

fn probe_inline(input: &[u8], cx: &ProbeCx) -> Probe {
    let mut t = 0;
    while t < input.len() && input[t] == b'`' {
        t += 1;
    }
    if t == input.len() && !cx.eof {
        return Probe::NeedMore;
    }
    Probe::Match(Action::InlineCode { ticks: t })
}

/// Inline code anywhere.
pub const INLINE: Opener = Opener::new(b"`", probe_inline).rank(Rank::Structural);

impl BlockFormat for Fenced {
    fn id(&self) -> FormatId {
        self.id
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        let ticks = count_ticks(block);
        let header = glued_json_header(block, ticks)
            .unwrap_or_else(|| memchr::memchr(b'\n', block).map_or(block.len(), |k| k + 1));
        let content_end = if cx.cut {
            block.len()
        } else {
            closing_line(block, header, ticks, true).map_or(block.len(), |(s, _)| s)
        };
        let content = crate::scan::lossy(&block[header..content_end.max(header)]);
        let text = content.trim();
        if text.is_empty() {
            return match self.evidence {
                Evidence::Weak => BlockResult::text(),
                Evidence::Strong => BlockResult::error("TLP-001", "empty tool fence", header),
            };
        }
        let lead = content.len() - content.trim_start().len();
        let (text, lead) = if self.opens_reply {
            unwrap_call_tag(text, lead)
        } else {
            (text, lead)
        };
        if self.evidence == Evidence::Weak && !looks_like_json(text) {
            // a call-shaped value must be the fence's content, not an
            // example wrapped in other markup (```xml around `<tool_call>`
            // after prose; a fence that opens the reply was unwrapped above)
            return BlockResult::text();
        }
        if self.evidence == Evidence::Strong && !looks_like_json(text) {
            // Gemma's ```tool_code: `print(f(x=1))` or `f(x=1)` (pythonic)
            let info = crate::scan::lossy(&block[ticks..header]);
            let label = if info.trim().eq_ignore_ascii_case("tool_code") {
                ids::GEMINI_FUNCTION_CALL
            } else {
                self.id
            };
            return super::shared::python::parse_body(
                block,
                header,
                content_end.max(header),
                cx.cut,
                label,
                Evidence::Strong,
                &cx.cfg.repair_options(),
            );
        }
        let mut r = super::calls_from_json_body(
            text,
            self.id,
            self.evidence,
            block.len(),
            header + lead,
            cx,
        );
        if self.evidence == Evidence::Weak && !r.errors.is_empty() {
            // a JSON fence that is not a usable call is just text
            return BlockResult::text();
        }
        if cx.cut && r.calls.is_empty() && self.evidence == Evidence::Strong {
            return BlockResult::truncated(self.id, block.len());
        }
        super::split_array_ends(&mut r, block, header + lead);
        // Command R's `directly_answer` pseudo-tool is never a call
        drop_directly_answer(&mut r);
        r
    }
}

/// ```` ```json{…} ````: the JSON glued to the info string, no newline
/// between (as some models write it): where the content starts.
fn glued_json_header(input: &[u8], ticks: usize) -> Option<usize> {
    let info = input.get(ticks..ticks + 4)?;
    (info.eq_ignore_ascii_case(b"json") && matches!(input.get(ticks + 4), Some(b'{' | b'[')))
        .then_some(ticks + 4)
}

/// Call tags a model may wrap in a code fence as a whole.
const CALL_TAGS: &[(&str, &str)] = &[
    ("<tool_call>", "</tool_call>"),
    ("<function_call>", "</function_call>"),
];

/// A fence body that is one call tag and nothing else, around JSON: the
/// JSON inside and where it starts (`lead`, from the content's start);
/// any other body is returned as it is.
fn unwrap_call_tag(text: &str, lead: usize) -> (&str, usize) {
    for (open, close) in CALL_TAGS {
        let Some(inner) = text
            .strip_prefix(open)
            .and_then(|rest| rest.strip_suffix(close))
        else {
            continue;
        };
        let body = inner.trim();
        if looks_like_json(body) && !body.contains(open) {
            let gap = inner.len() - inner.trim_start().len();
            return (body, lead + open.len() + gap);
        }
    }
    (text, lead)
}

/// True when a fence body is (meant to be) JSON: it starts with `{`, or with
/// `[` followed by `{` or `]`.
fn looks_like_json(text: &str) -> bool {
    let b = text.as_bytes();
    match b.first() {
        Some(b'{') => true,
        Some(b'[') => matches!(
            b.get(scan::skip_space(b, 1)),
            Some(b'{') | Some(b']') | None
        ),
        _ => false,
    }
}

/// Its openers, in probe order.
pub static OPENERS: &[Opener] = &[FENCE, TILDE_FENCE, INLINE];
