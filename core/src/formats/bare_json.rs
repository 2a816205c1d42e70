//! Unmarked JSON calls: `bare-json`, `llama3-json` and `xlam`.
//!
//! A JSON object or array that starts a line is held back until it ends. It
//! is a call when it has the full shape of one (`name` plus `arguments` /
//! `parameters`, an OpenAI- or Gemini-shaped wrapper, `{"tool_calls": […]}`,
//! or an array of these) and nothing else follows it on its line. Llama 3
//! separates several objects with `;`. Anything else is text, untouched.
//!
//! Inside a line, JSON is text unless `--inline-json`, with two exceptions,
//! both valid JSON on one line with nothing repaired: an object of exactly
//! the form Llama 3's JSON tool prompt asks for, `{"name": "NAME",
//! "parameters": {…}}` (those two keys in that order), is a call wherever
//! it stands, as Llama 3.x models write it in mid-sentence; and a reply
//! that ends its line with call objects of exactly the form `{"name":
//! "NAME", "arguments": {…}}` (or `parameters`), alone or in an array
//! (`Sure. [{"name": …, "arguments": …}]`, Mistral v0.3 once its
//! `[TOOL_CALLS]` token is dropped by detokenizing), is those calls.
//! Anything else inline, including a cut or broken object of that form,
//! stays text.

use super::shared::directly_answer::drop_directly_answer;
use super::shared::evidence;
use super::shared::recover::{self, call_head};
use super::{ids, Blocks, Rank};
use super::{Action, BlockEnd, BlockResult, Format, Opener, ParseCx, Probe, ProbeCx, Scanner};
use crate::call::{calls_from_value, close_truncated, Evidence, ParsedCall};
use crate::render::{results, tools, CallSpec, Prompt};
use crate::scan::balance::{End, JsonEnd};
use crate::scan::{self, Prefix};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::BARE_JSON,
    "any model in JSON mode, Ollama templates whose tool tag is `{`",
    &["{ at the start of a line (whole reply or its own lines)"],
    "call-shaped JSON object, wrapper or array",
)
.openers(&[OBJECT, ARRAY, SEPARATOR, INLINE_OBJECT, INLINE_ARRAY])
.admitted_under(&[
    ids::LLAMA3_JSON,
    ids::XLAM,
    ids::GEMINI_FUNCTION_CALL,
    ids::HERMES,
    ids::MISTRAL,
])
.unmarked()
.render(
    Prompt::new("prompted models (JSON mode)", write_calls)
        .ours(tools::json_prompted, results::bare_json),
);

/// `bare-json`: one `{"name", "arguments"}` object per line.
pub fn write_calls(calls: &[CallSpec]) -> String {
    crate::render::calls::objects(calls, ("name", "arguments"), ("", ""), "\n")
}

/// The bare JSON block format.
pub static BARE_JSON: Blocks = Blocks::new(ids::BARE_JSON, parse_bare_json);

/// A candidate at the start of a line; with `--inline-json` text may
/// follow it on its line, as it may follow one inside a line.
fn held(cx: &ProbeCx) -> Probe {
    if cx.cfg.inline_json {
        block(Placement::LineStartThenText, cx)
    } else {
        block(Placement::LineStart, cx)
    }
}

fn block(placement: Placement, cx: &ProbeCx) -> Probe {
    Probe::Match(Action::Block {
        fmt: &BARE_JSON,
        scanner: crate::formats::BlockScanner::new(ValuesScan::new(placement, 0, cx)),
    })
}

/// `{` inside a line: any call-shaped object with `--inline-json` (the least
/// reliable evidence), else only Llama 3's exact `{"name": …, "parameters":
/// …}` form.
pub const INLINE_OBJECT: Opener = Opener::new(b"{", |input, cx| {
    if cx.cfg.inline_json {
        return block(Placement::Inline, cx);
    }
    match llama_head(input) {
        Prefix::Full => block(Placement::InlineLlama, cx),
        Prefix::Partial if !cx.eof => Probe::NeedMore,
        _ => Probe::NotMarker,
    }
})
.rank(Rank::Structural)
.also(&[ids::LLAMA3_JSON, ids::XLAM]);

/// `[{"name":` inside a line: an array of call objects that ends its line
/// (see `inline_shape`).
pub const INLINE_ARRAY: Opener = Opener::new(b"[", |input, cx| {
    if cx.cfg.inline_json {
        return Probe::NotMarker;
    }
    let mut i = 1;
    while i < input.len() && i <= HEAD_BLANKS && matches!(input[i], b' ' | b'\t') {
        i += 1;
    }
    match input.get(i) {
        None if !cx.eof => Probe::NeedMore,
        Some(b'{') => match llama_head(&input[i..]) {
            Prefix::Full => block(Placement::InlineLlama, cx),
            Prefix::Partial if !cx.eof => Probe::NeedMore,
            _ => Probe::NotMarker,
        },
        _ => Probe::NotMarker,
    }
})
.rank(Rank::Structural)
.also(&[ids::LLAMA3_JSON, ids::XLAM, ids::MISTRAL]);

/// Most blanks looked at between `{` and `"name"` of an inline object.
const HEAD_BLANKS: usize = 8;

/// Whether `input` (at a `{`) begins `{"name":`, blanks allowed around
/// the key; `Partial` when it may still, once more bytes arrive.
fn llama_head(input: &[u8]) -> Prefix {
    let mut i = 1;
    let mut expect: &[&[u8]] = &[b"\"name\"", b":"];
    while let Some((lit, rest)) = expect.split_first() {
        let from = i;
        while i < input.len() && i - from < HEAD_BLANKS && matches!(input[i], b' ' | b'\t') {
            i += 1;
        }
        if i == input.len() {
            return Prefix::Partial;
        }
        match scan::prefix(&input[i..], lit) {
            Prefix::Full => i += lit.len(),
            other => return other,
        }
        expect = rest;
    }
    Prefix::Full
}

/// How JSON inside a line of prose may be a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum InlineShape {
    /// Llama 3's exact object: a call wherever it stands.
    Anywhere,
    /// Call objects that are a call only when nothing follows them on
    /// their line.
    EndingLine,
}

/// The inline call shape of `value`, if any: exactly a non-empty string
/// `name` then an object `parameters` (Llama 3, anywhere) or `arguments`
/// (ending its line), or a non-empty array of such objects (ending its line).
fn inline_shape(value: &[u8]) -> Option<InlineShape> {
    fn call_key(v: &serde_json::Value) -> Option<&str> {
        let serde_json::Value::Object(map) = v else {
            return None;
        };
        let mut keys = map.iter();
        match (keys.next(), keys.next(), keys.next()) {
            (
                Some((k1, serde_json::Value::String(name))),
                Some((k2, serde_json::Value::Object(_))),
                None,
            ) if k1 == "name" && !name.trim().is_empty() => Some(k2.as_str()),
            _ => None,
        }
    }
    let value: serde_json::Value = serde_json::from_slice(value).ok()?;
    match &value {
        serde_json::Value::Array(items) if !items.is_empty() => items
            .iter()
            .all(|v| matches!(call_key(v), Some("arguments" | "parameters")))
            .then_some(InlineShape::EndingLine),
        _ => match call_key(&value)? {
            "parameters" => Some(InlineShape::Anywhere),
            "arguments" => Some(InlineShape::EndingLine),
            _ => None,
        },
    }
}

/// `{` at the start of a line.
pub const OBJECT: Opener = Opener::new(b"{", |_, cx| held(cx))
    .line_start()
    .rank(Rank::Structural)
    .also(&[
        ids::LLAMA3_JSON,
        ids::XLAM,
        ids::GEMINI_FUNCTION_CALL,
        ids::HERMES,
    ]);

fn probe_array(input: &[u8], cx: &ProbeCx) -> Probe {
    let s = scan::skip_space(input, 1);
    match input.get(s) {
        None if !cx.eof => Probe::NeedMore,
        Some(b'{') => held(cx),
        _ => Probe::NotMarker,
    }
}

/// `[{` at the start of a line.
pub const ARRAY: Opener = Opener::new(b"[", probe_array)
    .line_start()
    .rank(Rank::Structural)
    .also(&[
        ids::LLAMA3_JSON,
        ids::XLAM,
        ids::GEMINI_FUNCTION_CALL,
        ids::MISTRAL,
        ids::HERMES,
    ]);

/// `;` at the start of a line before a call object: Llama 3's separator
/// written before the first call too (`; {"name": …}; {"name": …}`), so
/// that the separators stay out of the text.
pub const SEPARATOR: Opener = Opener::new(b";", |input, cx| {
    let s = scan::skip_blank(input, 1);
    if s > 1 + HEAD_BLANKS {
        return Probe::NotMarker;
    }
    match input.get(s) {
        None if !cx.eof => Probe::NeedMore,
        Some(b'{') => match llama_head(&input[s..]) {
            Prefix::Full => Probe::Match(Action::Block {
                fmt: &BARE_JSON,
                scanner: crate::formats::BlockScanner::new(ValuesScan::new(
                    Placement::LineStart,
                    s,
                    cx,
                )),
            }),
            Prefix::Partial if !cx.eof => Probe::NeedMore,
            _ => Probe::NotMarker,
        },
        _ => Probe::NotMarker,
    }
})
.line_start()
.rank(Rank::Structural)
.also(&[ids::LLAMA3_JSON]);

/// Where an unmarked JSON candidate stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Placement {
    /// At the start of a line: it must end its line (or be `;`-separated).
    LineStart,
    /// At the start of a line with `--inline-json`: as [`Placement::LineStart`],
    /// but text may follow the values on their line.
    LineStartThenText,
    /// Inside a line with `--inline-json`: any call shape.
    Inline,
    /// Inside a line without it: only the shapes of [`inline_shape`].
    InlineLlama,
}

/// Finds the end of unmarked JSON: a value that must end its line (unless
/// inline), or `;`-separated values (Llama 3).
struct ValuesScan {
    /// Where the candidate stands.
    placement: Placement,
    /// The end of the last complete value (0 before the first).
    last_end: usize,
    phase: ValuesPhase,
    /// The declared tool names (`--tools`), for recovery.
    tools: Option<std::sync::Arc<[String]>>,
}

/// Where a [`ValuesScan`] is.
enum ValuesPhase {
    /// Inside the value that begins at `start`.
    Value { start: usize, json: JsonEnd },
    /// A value ended at `last_end`: what follows it on its line decides.
    After,
    /// The strict reading failed on a candidate that looks like a call
    /// object: held to a blank line, the end of input or
    /// [`recover::HOLD`] bytes, then read by [`recover::recover`]; if that
    /// finds no call, `fallback` bytes are text as the strict reading said.
    Damaged { fallback: usize, head: bool },
}

impl ValuesScan {
    fn new(placement: Placement, start: usize, cx: &ProbeCx) -> Self {
        ValuesScan {
            placement,
            tools: cx.cfg.tool_names.clone(),
            last_end: 0,
            phase: ValuesPhase::Value {
                start,
                json: JsonEnd::strict(),
            },
        }
    }

    /// Where the strict reading gives up with `fallback` bytes of text: a
    /// candidate at a line start may still be a damaged call.
    fn give_up(&mut self, block: &[u8], eof: bool, fallback: usize) -> BlockEnd {
        if matches!(
            self.placement,
            Placement::LineStart | Placement::LineStartThenText
        ) {
            self.phase = ValuesPhase::Damaged {
                fallback,
                head: false,
            };
            return self.damaged(block, eof);
        }
        BlockEnd::NotBlock { text_len: fallback }
    }

    /// The input ended inside a value: a cut call, unless the candidate
    /// at a line start is damaged call objects a stray quote kept open
    /// (then they end where recovery says, and text may follow).
    fn at_end(&mut self, block: &[u8]) -> BlockEnd {
        let cut = BlockEnd::cut_off(block);
        if !matches!(
            self.placement,
            Placement::LineStart | Placement::LineStartThenText
        ) || call_head(block, true) != Some(true)
            || close_truncated(crate::scan::lossy(block).trim_end()).is_some()
        {
            return cut;
        }
        self.phase = ValuesPhase::Damaged {
            fallback: block.len(),
            head: true,
        };
        match self.damaged(block, true) {
            done @ BlockEnd::Done { .. } => done,
            _ => cut,
        }
    }

    /// The [`ValuesPhase::Damaged`] step.
    fn damaged(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        let ValuesPhase::Damaged {
            fallback,
            ref mut head,
        } = self.phase
        else {
            return BlockEnd::More;
        };
        let not = BlockEnd::NotBlock { text_len: fallback };
        if !*head {
            match call_head(block, eof) {
                None => return BlockEnd::More,
                Some(false) => return not,
                Some(true) => *head = true,
            }
        }
        let upto = match blank_line(block) {
            Some(k) => k,
            None if block.len() >= recover::HOLD => recover::HOLD,
            None if eof => block.len(),
            None => return BlockEnd::More,
        };
        let text = crate::scan::lossy(&block[..upto]);
        let cfg = crate::config::Config {
            tool_names: self.tools.clone(),
            ..crate::config::Config::default()
        };
        match recover::recover(&text, &cfg).and_then(|calls| calls.last().map(|c| c.end)) {
            Some(len) if len > 0 && len <= upto => BlockEnd::Done { len, cut: false },
            _ => not,
        }
    }

    /// Ends the block after the last value.
    fn done(&self) -> BlockEnd {
        BlockEnd::done(self.last_end)
    }
}

/// Where the first blank line in `block` begins (its `\n`).
fn blank_line(block: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(k) = memchr::memchr(b'\n', &block[from..]) {
        let nl = from + k;
        let mut j = nl + 1;
        while j < block.len() && matches!(block[j], b' ' | b'\t' | b'\r') {
            j += 1;
        }
        if block.get(j) == Some(&b'\n') {
            return Some(nl);
        }
        from = nl + 1;
    }
    None
}

impl Scanner for ValuesScan {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        loop {
            if let ValuesPhase::Damaged { .. } = self.phase {
                return self.damaged(block, eof);
            }
            if let ValuesPhase::Value {
                start,
                ref mut json,
            } = self.phase
            {
                let end = json.scan(&block[start..]);
                // an inline Llama object stands on one line (a JSON string
                // holds no raw newline): one that goes on past its line is
                // prose, and is not held back any further
                if self.placement == Placement::InlineLlama {
                    let upto = match end {
                        End::At(k) => start + k,
                        _ => start + json.scanned(),
                    };
                    if let Some(k) = memchr::memchr(b'\n', &block[start..upto]) {
                        return BlockEnd::NotBlock {
                            text_len: start + k,
                        };
                    }
                }
                match end {
                    End::At(k) => {
                        self.last_end = start + k;
                        self.phase = ValuesPhase::After;
                    }
                    // a cut inline object is prose, not a cut call
                    End::More if eof && self.placement == Placement::InlineLlama => {
                        return BlockEnd::NotBlock {
                            text_len: block.len(),
                        }
                    }
                    End::More if eof => {
                        return self.at_end(block);
                    }
                    End::More => return BlockEnd::More,
                    // Not JSON after all: at a line start only the `{` is
                    // text, so that a call inside it is still found; inline,
                    // all that was scanned (each byte is scanned at most twice)
                    End::NotValue => {
                        let text_len = match self.placement {
                            Placement::LineStart | Placement::LineStartThenText => {
                                self.last_end.max(1)
                            }
                            _ => (start + json.scanned()).max(1),
                        };
                        return self.give_up(block, eof, text_len);
                    }
                }
            }
            match self.placement {
                Placement::Inline => return self.done(),
                Placement::InlineLlama => {
                    let not_call = BlockEnd::NotBlock {
                        text_len: self.last_end,
                    };
                    return match inline_shape(&block[..self.last_end]) {
                        Some(InlineShape::Anywhere) => self.done(),
                        Some(InlineShape::EndingLine) => {
                            let s = scan::skip_blank(block, self.last_end);
                            match block.get(s) {
                                None if eof => self.done(),
                                None => BlockEnd::More,
                                Some(b'\n' | b'\r') => self.done(),
                                Some(_) => not_call,
                            }
                        }
                        None => not_call,
                    };
                }
                Placement::LineStart | Placement::LineStartThenText => {}
            }
            // what follows the value on its line
            let s = scan::skip_blank(block, self.last_end);
            if s == block.len() {
                return if eof { self.done() } else { BlockEnd::More };
            }
            match block[s] {
                // `;` or a new object may still follow on the next line
                // only after a `;`, so the value ends here
                b'\n' | b'\r' => return self.done(),
                b';' => {
                    let n = scan::skip_space(block, s + 1);
                    if n == block.len() {
                        return if eof {
                            BlockEnd::done(s + 1)
                        } else {
                            BlockEnd::More
                        };
                    }
                    if block[n] != b'{' {
                        return BlockEnd::done(s + 1);
                    }
                    self.phase = ValuesPhase::Value {
                        start: n,
                        json: JsonEnd::strict(),
                    };
                }
                b'<' => return end_token_after(block, s, self.last_end, eof),
                _ if self.placement == Placement::LineStartThenText => return self.done(),
                // Llama 3's exact object is a call wherever it stands, text
                // after it on its line too (as it is inside a line)
                _ if inline_shape(&block[..self.last_end]) == Some(InlineShape::Anywhere) => {
                    return self.done()
                }
                _ => {
                    let fallback = self.last_end;
                    return self.give_up(block, eof, fallback);
                }
            }
        }
    }
}

/// End-of-turn tokens that may follow a reply that is only a call (the
/// server kept the model's end token in the text).
const END_OF_TURN: &[&[u8]] = &[
    b"<|eot_id|>",
    b"</s>",
    b"<|im_end|>",
    b"<|end|>",
    b"<|endoftext|>",
    b"<|end_of_text|>",
    b"<end_of_turn>",
    b"<|END_OF_TURN_TOKEN|>",
    b"<eos>",
];

/// After a value ending at `end`, a `<` at `s`: a closing `</tool_call>`
/// belongs to the block; an end-of-turn token, or a `<tool_call>` opening
/// the next call (a model that left the first of its calls unwrapped,
/// `{"name": …} <tool_call>{"name": …}</tool_call>`), ends it; anything
/// else makes the value text.
fn end_token_after(block: &[u8], s: usize, end: usize, eof: bool) -> BlockEnd {
    for lit in [&b"</tool_call>"[..], b"<|eom_id|>", b"<tool_call>"]
        .iter()
        .chain(END_OF_TURN)
    {
        let lit: &[u8] = lit;
        match scan::prefix(&block[s..], lit) {
            Prefix::Full => {
                let len = if lit == b"</tool_call>" {
                    s + lit.len()
                } else {
                    end
                };
                return BlockEnd::Done { len, cut: false };
            }
            Prefix::Partial if !eof => return BlockEnd::More,
            _ => {}
        }
    }
    BlockEnd::NotBlock { text_len: end }
}

fn parse_bare_json(block: &[u8], cx: &ParseCx) -> BlockResult {
    // JSON shown as an example of a format is never a call
    if evidence::example_lead(cx.before) {
        return BlockResult::text();
    }
    let strict = parse_strict(block, cx);
    let read_all = strict
        .calls
        .last()
        .is_some_and(|c| memchr::memchr(b'{', &block[c.end.min(block.len())..]).is_none());
    let mut r = if read_all || call_head(block, true) != Some(true) {
        strict
    } else {
        // a damaged call needs more evidence than its shape: it stands as
        // the reply, or it names a declared tool
        match recover::block_result(block, 0, cx.cfg) {
            Some(r) if cx.reply_start || r.calls.iter().all(|c| cx.cfg.declares(&c.name)) => r,
            _ => strict,
        }
    };
    drop_directly_answer(&mut r);
    if placeholders(&r, cx) {
        return BlockResult::text();
    }
    r
}

/// [`evidence::placeholder_arguments`], with a quick look at the compact
/// text first (no placeholder can be in arguments without `<`, `.`, `…`
/// or `value`).
fn placeholder_args(args: &crate::record::Arguments) -> bool {
    if let Some(t) = args.compact_text() {
        if !t.contains(['<', '.', '\u{2026}']) && !t.contains("value") {
            return false;
        }
    }
    args.as_value()
        .as_object()
        .is_some_and(evidence::placeholder_arguments)
}

/// A template's blanks rather than a call: a placeholder name no tools
/// file declares, or arguments that are all placeholders.
fn placeholders(r: &BlockResult, cx: &ParseCx) -> bool {
    r.calls.iter().any(|c| {
        (evidence::placeholder_name(&c.name) && !cx.cfg.declares(&c.name))
            || placeholder_args(&c.arguments)
    })
}

/// The strict reading: valid (or repaired) JSON values, `;`-separated.
fn parse_strict(block: &[u8], cx: &ParseCx) -> BlockResult {
    {
        let text = crate::scan::lossy(block);
        // the values: split on top-level `;` between objects (a reply may
        // begin with the separator)
        let mut values = Vec::new();
        let lead = text.len() - text.trim_start_matches([';', ' ', '\t']).len();
        let mut start = lead;
        let mut rest: &str = &text[lead..];
        let mut label = ids::BARE_JSON;
        loop {
            let b = rest.as_bytes();
            let end = match crate::scan::balance::JsonEnd::new().scan(b) {
                End::At(k) => k,
                _ => b.len(),
            };
            values.push((start, start + end));
            let after = &rest[end..];
            let t = after.trim_start();
            if let Some(next) = t.strip_prefix(';') {
                let next_trim = next.trim_start();
                if next_trim.starts_with('{') {
                    label = ids::LLAMA3_JSON;
                    let skip = rest.len() - next_trim.len();
                    start += skip;
                    rest = next_trim;
                    continue;
                }
            }
            break;
        }
        let mut calls = Vec::new();
        let n = values.len();
        for (k, (s, e)) in values.into_iter().enumerate() {
            let body = &text[s..e];
            let parsed = if cx.cut && k + 1 == n {
                match close_truncated(body.trim_end()) {
                    Some((closed, at)) => cx.parse_json(&closed).map(|(v, mut r)| {
                        r.push(crate::repair::Repair {
                            kind: crate::repair::RepairKind::MissingClose,
                            offset: s + at,
                        });
                        (v, r)
                    }),
                    None => return BlockResult::text(),
                }
            } else {
                cx.parse_json(body)
            };
            let Ok((value, repairs)) = parsed else {
                return BlockResult::text();
            };
            let Ok(parts) = calls_from_value(&value, Evidence::Weak) else {
                return BlockResult::text();
            };
            // `functionCall` (Gemini REST) and `function_call` (legacy
            // OpenAI) wrappers, alone or in an array, are `gemini-function-call`
            let gemini = |v: &serde_json::Value| {
                v.get("functionCall").is_some() || v.get("function_call").is_some()
            };
            let this_label =
                if gemini(&value) || value.as_array().and_then(|a| a.first()).is_some_and(gemini) {
                    ids::GEMINI_FUNCTION_CALL
                } else if value.is_array() && label == ids::BARE_JSON {
                    ids::XLAM
                } else if value.get("parameters").is_some() {
                    ids::LLAMA3_JSON
                } else {
                    label
                };
            let m = parts.len();
            for (j, p) in parts.into_iter().enumerate() {
                let mut reps = repairs.clone();
                reps.extend(p.repairs);
                for r in &mut reps {
                    if r.kind != crate::repair::RepairKind::MissingClose || !cx.cut {
                        r.offset += s;
                    }
                }
                calls.push(ParsedCall {
                    id: p.id,
                    repairs: reps,
                    end: if j + 1 == m { e } else { block.len() },
                    ..ParsedCall::new(p.name, p.arguments, this_label)
                });
            }
        }
        let mut r = BlockResult::calls(calls);
        if n == 1 {
            super::split_array_ends(&mut r, block, 0);
        }
        // Command R's `directly_answer` pseudo-tool is never a call
        drop_directly_answer(&mut r);
        r
    }
}
