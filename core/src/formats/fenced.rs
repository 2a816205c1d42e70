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
use super::shared::evidence;
use super::shared::fence::{closing_line, count_ticks, FenceScan};
use super::shared::python::loose;
use super::shared::python::{
    block_result, call_head, parse_call_sequence, skip_space_bounded, MAX_GAP,
};
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

/// A Python fence (```` ```python ````) whose content starts with a call
/// list or a call: a prompted call list fenced by a model that formats.
pub static PY_FENCE: Fenced = Fenced {
    id: ids::PYTHONIC,
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
/// Fences held back when their content starts with a call list or a call.
const PY_INFOS: &[&str] = &["python", "py", "python3", "tool_code_python"];

/// Whether the content after a fence header starts like a call list
/// (`[NAME(`) or a call (`NAME(`); `None` while it cannot be told.
fn starts_with_call(content: &[u8], eof: bool) -> Option<bool> {
    let s = skip_space_bounded(content, 0);
    if s > MAX_GAP {
        return Some(false);
    }
    let answer = match content.get(s) {
        None => None,
        Some(b'[') => {
            let k = skip_space_bounded(content, s + 1);
            call_head(content, k)
        }
        Some(_) => call_head(content, s),
    };
    match answer {
        None if eof => Some(false),
        a => a,
    }
}

fn probe_fence(input: &[u8], cx: &ProbeCx) -> Probe {
    let t = count_ticks(input);
    if t == input.len() && !cx.eof {
        return Probe::NeedMore;
    }
    if t < 3 {
        return Probe::NotMarker;
    }
    if cx.cfg.json_blocks && super::registry::allows_block(cx.cfg, ids::FENCED_JSON) {
        match one_line_fence(input, t, cx.eof) {
            Some(Ok(len)) => {
                return Probe::Match(Action::Block {
                    fmt: &JSON_FENCE,
                    scanner: crate::formats::BlockScanner::new(FixedEnd(len)),
                })
            }
            Some(Err(())) => return Probe::NeedMore,
            None => {}
        }
    }
    if let Some(header_len) = glued_json_header(input, t) {
        if cx.cfg.json_blocks && super::registry::allows_block(cx.cfg, ids::FENCED_JSON) {
            return Probe::Match(Action::Block {
                fmt: &JSON_FENCE,
                scanner: crate::formats::BlockScanner::new(FenceScan::new(header_len, t)),
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
            scanner: crate::formats::BlockScanner::new(FenceScan::new(header_len, t)),
        })
    };
    if TOOL_INFOS.contains(&info.as_str())
        && (cx.cfg.allows(ids::FENCED_TOOL_CALL)
            || (info == "tool_code" && cx.cfg.allows(ids::GEMINI_FUNCTION_CALL)))
    {
        return held(&TOOL_FENCE);
    }
    if PY_INFOS.contains(&info.as_str()) && cx.cfg.allows(ids::PYTHONIC) {
        match starts_with_call(&input[header_len..], cx.eof) {
            Some(true) => return held(&PY_FENCE),
            None => return Probe::NeedMore,
            Some(false) => {}
        }
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
    // a call list in inline code (`` `[f(a=1)]` ``) is read by the
    // pythonic list's openers, the backticks around it matched there
    if t <= 3 && input.get(t) == Some(&b'[') {
        match call_head(input, skip_space_bounded(input, t + 1).min(t + 1 + MAX_GAP)) {
            Some(true) => return Probe::NotMarker,
            None if !cx.eof => return Probe::NeedMore,
            _ => {}
        }
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
        let one_line = one_line_fence(block, ticks, true).and_then(Result::ok) == Some(block.len());
        let header = if one_line {
            scan::skip_blank(block, ticks + 4)
        } else {
            glued_json_header(block, ticks)
                .unwrap_or_else(|| memchr::memchr(b'\n', block).map_or(block.len(), |k| k + 1))
        };
        let content_end = if one_line {
            block.len() - 3
        } else if cx.cut {
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
        if self.evidence == Evidence::Weak && evidence::example_lead(cx.before) {
            // a fence shown as an example of the format is never a call
            return BlockResult::text();
        }
        if self.evidence == Evidence::Weak && !looks_like_json(text) {
            // a prompted call list in a fence (```python, ``` or ```json
            // around `[f(a=1)]`; calls one per line when the fence is the reply)
            let python = self.id == ids::PYTHONIC;
            if let Some(r) = fenced_calls(block, header + lead, text, python, cx) {
                return r;
            }
            if let Some(r) = fenced_markup(block, header + lead, text, cx) {
                return r;
            }
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

/// A fence's content (`text`, at `at` in the block) that is a Python-style
/// call list with keyword arguments (`[f(a=1), g(b="x")]`, a closer too
/// many dropped), or, when a fence that is not a ```` ```python ```` one
/// (`python`) stands as the reply, calls one per line (`f(a=1)`); `None`
/// for anything else (code, `print(…)`, stays text).
fn fenced_calls(
    block: &[u8],
    at: usize,
    text: &str,
    python: bool,
    cx: &ParseCx,
) -> Option<BlockResult> {
    let (pc, repairs) = if text.starts_with('[') {
        loose::call_list_dropping_extra(text).ok()?
    } else if cx.reply_start && !python {
        (parse_call_sequence(text, false).ok()?, Vec::new())
    } else {
        return None;
    };
    // `print(f(x=1))` is code in a fence that is not a tool fence
    if pc
        .calls
        .iter()
        .any(|c| c.positional > 0 || c.name == "print")
        || loose::placeholder_calls(pc.calls.iter().map(|c| c.name.clone()), cx)
    {
        return None;
    }
    let mut r = block_result(pc, ids::PYTHONIC, at, block.len(), repairs.is_empty());
    if let Some(first) = r.calls.first_mut() {
        first.repairs.extend(repairs.into_iter().map(|mut rep| {
            rep.offset += at;
            rep
        }));
    }
    Some(r)
}

/// A fence that stands as the reply whose content is a call in markup
/// (```` ```json ```` around `<function name="f">…</function>`, a model
/// fencing what its prompt taught): the content read as a document of its
/// own, its calls the fence's; `None` when it holds none, or the fence
/// does not stand as the reply (then it is an example).
fn fenced_markup(block: &[u8], at: usize, text: &str, cx: &ParseCx) -> Option<BlockResult> {
    if !cx.reply_start || !text.starts_with('<') {
        return None;
    }
    let cfg = crate::config::Config {
        generation_prompt: None,
        think_open: false,
        ..cx.cfg.clone()
    };
    let found = crate::document::parse(text.as_bytes(), &cfg);
    if found.calls.is_empty() || !found.errors.is_empty() {
        return None;
    }
    let n = found.calls.len();
    let calls = found
        .calls
        .into_iter()
        .enumerate()
        .map(|(k, c)| {
            let format = crate::formats::FormatId::lookup(c.format).unwrap_or(ids::FENCED_JSON);
            crate::call::ParsedCall {
                repairs: c
                    .repairs
                    .into_iter()
                    .map(|mut r| {
                        r.offset += at;
                        r
                    })
                    .collect(),
                end: if k + 1 == n {
                    block.len()
                } else {
                    (at + c.span[1] as usize).min(block.len())
                },
                ..crate::call::ParsedCall::new(c.name, c.arguments, format)
            }
        })
        .collect();
    Some(BlockResult::calls(calls))
}

/// Most bytes a fence written on one line may span.
const ONE_LINE_MAX: usize = 16 << 10;

/// ```` ```json {…} ``` ````: a JSON fence written on one line, its value
/// after the info string and the closing backticks ending the line (as a
/// chat UI shows a call it did not run). `Ok(where the closing backticks
/// end)`, `Err(())` while that cannot be told, `None` when it is not one.
fn one_line_fence(input: &[u8], ticks: usize, eof: bool) -> Option<Result<usize, ()>> {
    let info = input.get(ticks..ticks + 4);
    match info {
        Some(i) if i.eq_ignore_ascii_case(b"json") => {}
        Some(_) => return None,
        None if eof || !b"json".starts_with(&input[ticks..].to_ascii_lowercase()) => return None,
        None => return Some(Err(())),
    }
    let s = scan::skip_blank(input, ticks + 4);
    match input.get(s) {
        Some(b'{' | b'[') => {}
        Some(_) => return None,
        None if eof => return None,
        None => return Some(Err(())),
    }
    let window = &input[s..input.len().min(s + ONE_LINE_MAX)];
    let line_end = match memchr::memchr(b'\n', window) {
        Some(k) => s + k,
        None if window.len() == ONE_LINE_MAX => return None,
        None if eof => input.len(),
        None => return Some(Err(())),
    };
    let mut end = line_end;
    while end > s && matches!(input[end - 1], b' ' | b'\t' | b'\r') {
        end -= 1;
    }
    let line = &input[s..end];
    (line.len() > 3 && line.ends_with(b"```") && line[line.len() - 4] != b'`').then_some(Ok(end))
}

/// A block whose length the probe already knows.
struct FixedEnd(usize);

impl super::Scanner for FixedEnd {
    fn scan(&mut self, block: &[u8], eof: bool) -> super::BlockEnd {
        if block.len() >= self.0 {
            super::BlockEnd::done(self.0)
        } else if eof {
            super::BlockEnd::cut_off(block)
        } else {
            super::BlockEnd::More
        }
    }

    fn consumed(&self) -> usize {
        self.0
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
