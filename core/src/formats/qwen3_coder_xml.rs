//! `qwen3-coder-xml`: `<function=NAME><parameter=KEY>value</parameter></function>`,
//! with or without `<tool_call>` around it.
//!
//! Parameters are read left to right; each takes the first shape that fits:
//! the standard `<parameter=k>v</parameter>`, the malformed
//! `<parameter=k=v</parameter>`, and the empty tag followed by the value
//! (`<parameter=k></parameter>\nvalue`). A missing `</parameter>` ends at the
//! next `<parameter=` or `</function>`. Values keep inner newlines, quotes,
//! `<`, `>` and unicode; one leading and one trailing newline are stripped.
//!
//! The template writes `<parameter=K>\nV\n</parameter>\n` without escaping
//! `V`, so a value may hold every marker as text: it ends at the first
//! `</parameter>` followed by the next parameter, `</function>`,
//! `</tool_call>` or the end, and the block's end is looked for outside
//! values only. A value never closed ends where a line starts with one of
//! those tags, unless it quotes the format's tags in pairs (a file that
//! holds a call): then it ends at the first `</parameter>` outside them
//! followed by one of those. `<function={…` is an unrendered template, not
//! a call. Values are text: JSON objects and arrays are decoded when
//! they parse, other values typed like every XML-style format; a tools
//! schema retypes them (a string parameter gets JSON text back as written,
//! one that admits null takes `null` as null).
//!
//! Inside `<tool_call>`, a first `<parameter=NAME>` followed by another
//! parameter tag or `</function>` (no value of its own) names the function:
//! Qwen3.x sometimes writes the call's name in a parameter tag
//! (`<tool_call>\n<parameter=bash>\n<parameter=command>\nls\n</parameter>\n</function>`),
//! read as `bash` with a `damaged_key` repair. Without `<tool_call>` around
//! it the shape is text.

use super::shared::end;
use super::shared::section::{match_any, Hit};
use super::shared::tag::{
    block, function_tag_end, tag_then_body, tool_call_len, tool_call_openers,
};
use super::shared::xml::{
    key_end, next_param, next_tag, param_as_function, parse_function, read_name, value_end_nesting,
    NameTag, Nest, Tag, ValueEnd, FN_CLOSE, PARAM_CLOSE, PARAM_TAG_REACH, TC_CLOSE,
};
use super::Model;
use super::{ids, FormatId, Values};
use super::{BlockEnd, BlockFormat, BlockResult, Format, Opener, ParseCx, Probe, ProbeCx, Scanner};
use crate::render::{results, tools, CallSpec, Prompt};
use crate::scan;

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::QWEN3_CODER_XML,
    "Qwen3-Coder, Qwen3.5/3.6, Nemotron-3 Nano, MiniCPM, Step-3.5",
    &[
        "<tool_call>",
        "<function=",
        "<parameter=",
        "</parameter>",
        "</function>",
        "</tool_call>",
    ],
    "XML-ish parameters; values are text, typed when unambiguous",
)
.models(&[
    Model::new("qwen3-coder", "<|im_start|>assistant\n"),
    Model::new("qwen3.5", "<|im_start|>assistant\n<think>\n"),
    Model::new("qwen3.6", "<|im_start|>assistant\n<think>\n"),
    Model::new("qwen3.8", "<|im_start|>assistant\n<think>\n"),
])
.openers(&[
    OPENERS_TOOL_CALL[0],
    OPENERS_TOOL_CALL[1],
    OPENERS_TOOL_CALL[2],
    OPENER_FUNCTION,
    OPENER_FUNCTION_NAME_ATTR,
])
.values(Values::Text)
.doc_start(super::DocStart {
    forced_only: false,
    probe: probe_lost_opener,
})
.render(
    Prompt::new("Qwen3-Coder, Qwen3.5", write_calls)
        .template(tools::qwen3_coder, results::qwen3_coder),
);

/// `qwen3-coder-xml`: `<function=NAME>` with one `<parameter=KEY>` per
/// argument, values on their own lines.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::each;
    use crate::render::text::value_text;

    each(calls, "\n", |_, c| {
        let mut s = format!("<tool_call>\n<function={}>\n", c.name);
        for (k, v) in &c.arguments {
            s.push_str(&format!(
                "<parameter={k}>\n{}\n</parameter>\n",
                value_text(v)
            ));
        }
        s.push_str("</function>\n</tool_call>");
        s
    })
}

/// The Qwen3-Coder XML block format. The block starts at `<tool_call>` or at
/// a bare `<function=`.
pub struct QwenXml;

/// The shared instance.
pub static QWEN_XML: QwenXml = QwenXml;

impl BlockFormat for QwenXml {
    fn id(&self) -> FormatId {
        ids::QWEN3_CODER_XML
    }

    fn early_name(&self, head: &[u8]) -> Option<String> {
        let Some(f) = scan::find(head, 0, b"<function") else {
            // `<parameter=NAME>` where `<function=NAME>` belongs
            let p = next_param(head, 0)?;
            return match param_as_function(head, p, false) {
                NameTag::Found { key, .. } => Some(read_name(&head[key.0..key.1])),
                _ => None,
            };
        };
        let (end, _) = super::shared::xml::function_name_end(head, f)?;
        let name = read_name(head.get(f + 9..end)?);
        (!name.is_empty()).then_some(name)
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        parse_function(block, ids::QWEN3_CODER_XML, cx)
    }
}

/// Finds where a Qwen3-Coder block ends: after `</function>` and the
/// `</tool_call>` that may follow it, or at a `</tool_call>`, either
/// outside parameter values (a value may hold the markers as text, see
/// [`value_end_nesting`]).
struct FunctionEnd {
    /// Where `<function` begins.
    start: usize,
    phase: FnPhase,
}

/// Where a [`FunctionEnd`] scan is.
enum FnPhase {
    /// Outside values: looking for the next tag from `from`.
    Body { from: usize },
    /// Inside the value that starts at `from`; the bytes before `search`
    /// cannot end it; `nest` is the search for tags it quotes, once begun.
    Value {
        from: usize,
        search: usize,
        nest: Option<Nest>,
    },
    /// `</function>` ended at `end`: a `</tool_call>` may follow after blanks.
    AfterFunction { end: usize },
}

impl FunctionEnd {
    fn new(start: usize) -> Self {
        FunctionEnd {
            start,
            phase: FnPhase::Body { from: start },
        }
    }
}

/// The whole block, cut by the end of input.
fn cut(block: &[u8]) -> BlockEnd {
    BlockEnd::cut_off(block)
}

impl Scanner for FunctionEnd {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        loop {
            match self.phase {
                FnPhase::Body { from } => match next_tag(block, from) {
                    Some(Tag::FunctionClose(k)) => {
                        self.phase = FnPhase::AfterFunction {
                            end: k + FN_CLOSE.len(),
                        };
                        break;
                    }
                    Some(Tag::ToolCallClose(k)) => return BlockEnd::done(k + TC_CLOSE.len()),
                    Some(Tag::Param(p)) => match key_end(block, p) {
                        Some(k) => {
                            self.phase = FnPhase::Value {
                                from: k + 1,
                                search: k + 1,
                                nest: None,
                            }
                        }
                        None if eof => return cut(block),
                        None => {
                            self.phase = FnPhase::Body { from: p };
                            return BlockEnd::More;
                        }
                    },
                    None if eof => return cut(block),
                    None => {
                        // resume a little before the end: a tag may be split
                        self.phase = FnPhase::Body {
                            from: block
                                .len()
                                .saturating_sub(TC_CLOSE.len().max(PARAM_TAG_REACH))
                                .max(from),
                        };
                        return BlockEnd::More;
                    }
                },
                FnPhase::Value {
                    from,
                    search,
                    mut nest,
                } => match value_end_nesting(block, from, search, &mut nest, eof) {
                    ValueEnd::Closed { at } => {
                        self.phase = FnPhase::Body {
                            from: at + PARAM_CLOSE.len(),
                        }
                    }
                    ValueEnd::Unclosed { at } => self.phase = FnPhase::Body { from: at },
                    ValueEnd::More { search } => {
                        self.phase = FnPhase::Value { from, search, nest };
                        return BlockEnd::More;
                    }
                },
                FnPhase::AfterFunction { .. } => break,
            }
        }
        let FnPhase::AfterFunction { end } = self.phase else {
            return BlockEnd::More;
        };
        end::close_after_value(block, end, TC_CLOSE, eof)
    }

    fn consumed(&self) -> usize {
        self.start
    }
}

/// After an opening tool-call tag `lit_len` bytes long: a block when
/// `<function=` (or `<function `) follows.
fn probe_tagged(input: &[u8], cx: &ProbeCx) -> Probe {
    let lit_len = tool_call_len(input);
    let s = match tag_then_body(input, lit_len, cx) {
        Ok((_, Some(s))) => s,
        Ok((_, None)) => return Probe::NotMarker,
        Err(p) => return p,
    };
    match match_any(&input[s..], &[b"<function=", b"<function "]) {
        Hit::Full(_) => {
            // `<function={{ tc.name }}>`: a chat template written out
            // unrendered, not a call (a bare `<function=` rejects a `{`
            // in its name the same way)
            let name = scan::skip_space(input, s + b"<function=".len());
            return match input.get(name) {
                Some(b'{') => Probe::NotMarker,
                None if !cx.eof => Probe::NeedMore,
                _ => block(&QWEN_XML, FunctionEnd::new(s)),
            };
        }
        Hit::Partial if !cx.eof => return Probe::NeedMore,
        _ => {}
    }
    // `<parameter=NAME>` where `<function=NAME>` belongs
    if !input[s..].starts_with(b"<parameter") {
        return match scan::prefix(&input[s..], b"<parameter") {
            scan::Prefix::Partial if !cx.eof => Probe::NeedMore,
            _ => Probe::NotMarker,
        };
    }
    match param_as_function(input, s, cx.eof) {
        NameTag::Found { body, .. } => block(
            &QWEN_XML,
            FunctionEnd {
                start: s,
                phase: FnPhase::Body { from: body },
            },
        ),
        NameTag::More => Probe::NeedMore,
        NameTag::No => Probe::NotMarker,
    }
}

/// A bare `<function=NAME>` (no `<tool_call>` around it): a block when
/// `<parameter=` or `</function>` follows the tag.
fn probe_bare(input: &[u8], cx: &ProbeCx) -> Probe {
    let tag = match function_tag_end(input, cx) {
        Ok(t) => t,
        Err(p) => return p,
    };
    let s = scan::skip_space(input, tag);
    match match_any(&input[s..], &[b"<parameter=", FN_CLOSE]) {
        Hit::Full(_) => block(&QWEN_XML, FunctionEnd::new(0)),
        Hit::Partial if !cx.eof => Probe::NeedMore,
        _ => Probe::NotMarker,
    }
}

/// How many bytes a lost opener's name may take.
const LOST_NAME_REACH: usize = 128;

/// How many blanks may stand between a lost opener's `>` and its first
/// `<parameter=`.
const LOST_GAP_REACH: usize = 64;

/// What of `<function=` a lost opener kept: `=NAME>` (the tokens of
/// `<function` lost) or `function=NAME>` (the `<` lost).
fn lost_opener_kept(input: &[u8]) -> Option<&'static [u8]> {
    if input.starts_with(b"=") {
        Some(b"=")
    } else if input.starts_with(b"function=") {
        Some(b"function=")
    } else {
        None
    }
}

/// A document that starts with `<function=NAME>` whose `<function` (or
/// `<`) was lost: `=NAME>` then, after blanks at most, `<parameter=`.
/// Only at the first byte of a document, and only a call that closes with
/// `</function>` or `</tool_call>` reads (see [`QwenLostOpener`]).
fn probe_lost_opener(input: &[u8], cx: &ProbeCx) -> Probe {
    let need = || {
        if cx.eof {
            Probe::NotMarker
        } else {
            Probe::NeedMore
        }
    };
    let Some(kept) = lost_opener_kept(input) else {
        return match scan::prefix(input, b"function=") {
            scan::Prefix::Partial => need(),
            _ => Probe::NotMarker,
        };
    };
    let from = kept.len();
    let mut i = from;
    while i < input.len() && i < from + LOST_NAME_REACH {
        match input[i] {
            b'>' => break,
            b if scan::is_name_byte(b) || matches!(b, b'.' | b'-' | b':') => i += 1,
            _ => return Probe::NotMarker,
        }
    }
    match input.get(i) {
        Some(b'>') if i > from => {}
        None if i < from + LOST_NAME_REACH => return need(),
        _ => return Probe::NotMarker,
    }
    let gap = i + 1;
    let s = scan::skip_space(input, gap);
    if s - gap > LOST_GAP_REACH {
        return Probe::NotMarker;
    }
    match scan::prefix(&input[s..], b"<parameter=") {
        scan::Prefix::Full => block(&QWEN_LOST, FunctionEnd::new(0)),
        scan::Prefix::Partial => need(),
        scan::Prefix::No => Probe::NotMarker,
    }
}

/// A Qwen3-Coder call at the start of a document whose opening tag lost
/// `<function` or its `<` (`=NAME><parameter=K>V</parameter></function>`):
/// read as the call with a `missing_open` repair when it closes with
/// `</function>` or `</tool_call>`; cut before that, it is text.
pub struct QwenLostOpener;

/// The shared instance.
pub static QWEN_LOST: QwenLostOpener = QwenLostOpener;

impl BlockFormat for QwenLostOpener {
    fn id(&self) -> FormatId {
        ids::QWEN3_CODER_XML
    }

    // no early name: a call cut before its closing tag is text, so its
    // start is not announced before the block is read

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        let Some(kept) = lost_opener_kept(block) else {
            return BlockResult::text();
        };
        let trimmed = block.trim_ascii_end();
        if !trimmed.ends_with(FN_CLOSE) && !trimmed.ends_with(TC_CLOSE) {
            return BlockResult::text();
        }
        // the tag as written whole, then the offsets moved back
        let lost = &b"<function="[..10 - kept.len()];
        let mut whole = Vec::with_capacity(lost.len() + block.len());
        whole.extend_from_slice(lost);
        whole.extend_from_slice(block);
        let mut r = parse_function(&whole, ids::QWEN3_CODER_XML, cx);
        if r.calls.is_empty() {
            return BlockResult::text();
        }
        let shift = lost.len();
        for call in &mut r.calls {
            call.end = call.end.saturating_sub(shift);
            for rep in &mut call.repairs {
                rep.offset = rep.offset.saturating_sub(shift);
            }
            call.repairs.insert(
                0,
                crate::repair::Repair {
                    kind: crate::repair::RepairKind::MissingOpen,
                    offset: 0,
                },
            );
        }
        for e in &mut r.errors {
            e.offset = e.offset.saturating_sub(shift);
        }
        r
    }
}

/// `<tool_call>` and its spelling drift (any ASCII case, attributes
/// allowed) around `<function=`.
pub const OPENERS_TOOL_CALL: [Opener; 3] = tool_call_openers(probe_tagged);

/// A bare `<function=NAME>`.
pub const OPENER_FUNCTION: Opener = Opener::new(b"<function=", probe_bare);

/// A bare `<function name="NAME">`.
pub const OPENER_FUNCTION_NAME_ATTR: Opener = Opener::new(b"<function name=", probe_bare);
