//! `gemini-function-call`: Gemini/Gemma-style function calls.
//!
//! Shapes handled here:
//!
//! * **Gemma 4**: `<|tool_call>call:NAME{key:<|"|>text<|"|>,n:3}<tool_call|>`
//!   — keys are bare, strings are wrapped in `<|"|>`, nested objects and
//!   arrays use the same syntax, other values are bare literals typed like
//!   text (`3`, `true`, `1.5`); reasoning is on a `<|channel>` … `<channel|>`
//!   span.
//! * **FunctionGemma**: `<start_function_call>call:NAME{key:<escape>text<escape>}<end_function_call>`
//!   — the same syntax with `<escape>` as the string delimiter.
//! * **Gemini REST JSON** `{"functionCall": {"name", "args"}}` is read by the
//!   bare JSON format (forced `--format gemini-function-call` accepts it).
//! * **Gemma 2/3** ```` ```tool_code ```` fences holding `print(NAME(k=v))`
//!   or `NAME(k=v)` are read by the code-fence opener with the pythonic parser.
//!
//! Tolerated: braces, commas and colons inside delimited strings, either
//! delimiter under either marker, JSON-quoted strings and keys, a missing
//! `call:` prefix, a missing closing marker, a trailing comma, a call with no
//! arguments (`call:NAME{}` or `call:NAME`), the body written as the JSON
//! call object a prompt asked for (`call:{"name": NAME, "arguments": {…}}`,
//! also `args` or `parameters`, and after a `call:tool_call` head), the
//! closing marker garbled into `<|tool_call|>` after a complete object, a lone
//! delimiter before a bare key (`{<|"|>flag:true}`: dropped). Stray closing markers and
//! Gemma 4's `<|tool_response>` / `<tool_response|>` are markup, never text.

use super::shared::python::{parse_literal_in, Dialect, Literal, PyError};
use super::shared::wrapped::marked_body;
use super::Model;
use super::{ids, FormatId};
use super::{
    Action, BlockEnd, BlockFormat, BlockResult, Close, Format, Opener, ParseCx, Probe, Scanner,
};
use crate::call::{clean_name, ParsedCall};
use crate::render::{results, tools, CallSpec, Prompt};
use crate::repair::{Repair, RepairKind};
use crate::scan::{self, Prefix};
use serde_json::{Map, Value};

/// Catalog entry.
pub const FORMAT: Format = Format::new(ids::GEMINI_FUNCTION_CALL, "Gemini API imitations, FunctionGemma, Gemma 2/3 (tool_code fences), Gemma 4", &[
        "<|tool_call>",
        "<tool_call|>",
        "<start_function_call>",
        "<end_function_call>",
        "<|channel>",
        "<channel|>",
        "{\"functionCall\": …}",
        "```tool_code",
    ], "call:NAME{key:<|\"|>text<|\"|>,…} (Gemma 4), call:NAME{key:<escape>text<escape>} (FunctionGemma)")
    .models(&[
        Model::new("gemma-4", "<|turn>model\n<|channel>thought\n<channel|>"),
        Model::new("functiongemma", "<start_of_turn>model\n"),
    ])
    .turns(&[super::TurnMarker::named(b"<start_of_turn>", b"\n")])
    // Gemma 4: a turn is `<|turn>ROLE` … `<turn|>` (the `<|` ones are
    // broken for every family); FunctionGemma's call opener
    .template_tokens(&["<turn|>", "<tool_response|>", "<start_function_call>", "<start_function_response>"])
    .openers(&[OPENER_CHANNEL, OPENER_GEMMA4, OPENER_FUNCTION_GEMMA, OPENER_BARE, OPENER_FRAGMENT, OPENER_PSEUDO_FUNCTION, OPENER_PSEUDO_CALL, OPENER_STRAY_GEMMA4, OPENER_STRAY_FUNCTION_GEMMA, OPENER_STRAY_CHANNEL, OPENER_TOOL_RESPONSE, OPENER_TOOL_RESPONSE_END])
    .render(
        Prompt::new("FunctionGemma", write_calls).approximate(tools::gemini, results::gemini),
    );

/// `gemini-function-call` (FunctionGemma):
/// `<start_function_call>call:NAME{k:<escape>v<escape>}<end_function_call>`.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::{args, each, gemma_value};

    each(calls, "", |_, c| {
        format!(
            "<start_function_call>call:{}{}<end_function_call>",
            c.name,
            gemma_value(&args(c))
        )
    })
}

/// The two marker pairs: (open, close).
const GEMMA4: (&[u8], &[u8]) = (b"<|tool_call>", b"<tool_call|>");
/// Gemma 4's closing marker with its pipes garbled into the opener's
/// shape, as some servers and finetunes write it: `<|tool_call|>`.
const GEMMA4_GARBLED_CLOSE: &[u8] = b"<|tool_call|>";
const FGEMMA: (&[u8], &[u8]) = (b"<start_function_call>", b"<end_function_call>");
/// String delimiters.
const DELIMS: &[&[u8]] = &[b"<|\"|>", b"<escape>"];

/// The Gemma call block format.
pub struct GemmaCall;

/// The shared instance.
pub static GEMMA_CALL: GemmaCall = GemmaCall;

/// Gemma 4's call written without its opening marker: `call:NAME{…}` at
/// the start of a line, or behind the `<call>` fragment some multimodal
/// outputs leave.
const BARE: (&[u8], &[u8]) = (b"", GEMMA4.1);
const FRAGMENT: (&[u8], &[u8]) = (b"<call>", GEMMA4.1);

/// Gemini's call verbalized into the text channel as a pseudo-tag:
/// `<function:default_api:NAME{k:v}` or `<call:default_api:NAME{k:v}/>`,
/// Gemma-style arguments, the tag closed by `/>`, `>` or not at all.
const PSEUDO_FUNCTION: (&[u8], &[u8]) = (b"<function:", PSEUDO_CLOSE);
const PSEUDO_CALL: (&[u8], &[u8]) = (b"<call:", PSEUDO_CLOSE);
/// The pseudo-tag's close; a lone `>` is taken as well.
const PSEUDO_CLOSE: &[u8] = b"/>";

fn markers(block: &[u8]) -> (&'static [u8], &'static [u8]) {
    if block.starts_with(FGEMMA.0) {
        FGEMMA
    } else if block.starts_with(GEMMA4.0) {
        GEMMA4
    } else if block.starts_with(FRAGMENT.0) {
        FRAGMENT
    } else if block.starts_with(PSEUDO_FUNCTION.0) {
        PSEUDO_FUNCTION
    } else if block.starts_with(PSEUDO_CALL.0) {
        PSEUDO_CALL
    } else {
        BARE
    }
}

impl BlockFormat for GemmaCall {
    fn id(&self) -> FormatId {
        ids::GEMINI_FUNCTION_CALL
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        let r = self.parse_marked(block, cx);
        // without its opening marker, only a call that reads whole is one
        // (prose that happens to write `call:x{` stays prose, even cut)
        let unmarked = !block.starts_with(GEMMA4.0) && !block.starts_with(FGEMMA.0);
        if unmarked && r.calls.is_empty() {
            return BlockResult::text();
        }
        r
    }
}

impl GemmaCall {
    fn parse_marked(&self, whole: &[u8], cx: &ParseCx) -> BlockResult {
        let (open, close) = markers(whole);
        let block = if open == GEMMA4.0 {
            whole.strip_suffix(GEMMA4_GARBLED_CLOSE).unwrap_or(whole)
        } else if close == PSEUDO_CLOSE && !whole.ends_with(PSEUDO_CLOSE) {
            whole.strip_suffix(b">").unwrap_or(whole)
        } else {
            whole
        };
        let (from, to, cut) = marked_body(block, open.len(), close, cx.cut);
        let text = crate::scan::lossy(&block[from..to]);
        if text.trim().is_empty() {
            if cut {
                return BlockResult::truncated(ids::GEMINI_FUNCTION_CALL, block.len());
            }
            return BlockResult::error("TLP-001", "empty Gemma function call", from);
        }
        // `call:a{…}call:b{…}`: several calls in one block
        let pieces = split_calls(&text);
        let n = pieces.len();
        let mut r = BlockResult::default();
        for (k, (a, b)) in pieces.into_iter().enumerate() {
            let last = k + 1 == n;
            match parse_one(&text[a..b], from + a, cut && last) {
                Ok(mut call) => {
                    call.end = if last { whole.len() } else { from + b };
                    r.calls.push(call);
                }
                Err(e) if r.calls.is_empty() && last => return e,
                Err(e) => r.errors.extend(e.errors),
            }
        }
        r
    }
}

/// Where each call of a block's body starts and ends: a new one at each
/// `call:` that follows a complete top-level `{…}` (strings between `<|"|>`
/// delimiters skipped).
fn split_calls(text: &str) -> Vec<(usize, usize)> {
    const QUOTE: &[u8] = b"<|\"|>";
    let b = text.as_bytes();
    let mut pieces = Vec::new();
    let (mut start, mut depth, mut i, mut in_string) = (0usize, 0usize, 0usize, false);
    while i < b.len() {
        if b[i..].starts_with(QUOTE) {
            in_string = !in_string;
            i += QUOTE.len();
            continue;
        }
        if !in_string {
            match b[i] {
                b'{' | b'[' | b'(' => depth += 1,
                b'}' | b']' | b')' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        let next = scan::skip_space(b, i + 1);
                        if b[next..].starts_with(b"call:") {
                            pieces.push((start, i + 1));
                            start = next;
                            i = next;
                            continue;
                        }
                    }
                }
                _ => {}
            }
        }
        i += 1;
    }
    pieces.push((start, b.len()));
    pieces
}

/// One call `call:NAME{…}` (or `NAME(…)`, its arguments between
/// parentheses) whose text starts at block offset `from`.
fn parse_one(text: &str, from: usize, cut: bool) -> Result<ParsedCall, BlockResult> {
    let t = text.trim();
    let head_end = t.find(['{', '(']).unwrap_or(t.len());
    let head = t[..head_end].trim();
    // a stray `:` before the prefix (`<|tool_call>:call:bash{…}`)
    let head = head.trim_start_matches(':').trim_start();
    let head = head.strip_prefix("call:").unwrap_or(head).trim();
    let name = clean_name(head);
    // `call:{"name": …, "arguments": {…}}`: the JSON call a prompt asked
    // for, written inside Gemma's own markers (sometimes after a
    // `call:tool_call` head)
    if (name.is_empty() || name == "tool_call") && t[head_end..].starts_with('{') {
        let body_at = from + (text.len() - text.trim_start().len()) + head_end;
        if let Some(call) = json_form(&t[head_end..], cut, body_at) {
            return Ok(call);
        }
    }
    if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c == '<') {
        if cut {
            return Err(BlockResult::truncated(
                ids::GEMINI_FUNCTION_CALL,
                from + text.len(),
            ));
        }
        return Err(BlockResult::error(
            "TLP-001",
            "Gemma function call has no name",
            from,
        ));
    }
    let mut arguments = Map::new();
    let mut repairs = Vec::new();
    if head_end < t.len() {
        let body_at = from + (text.len() - text.trim_start().len()) + head_end;
        // arguments between parentheses read as the object they spell
        let braced;
        let body = match t[head_end..].strip_prefix('(') {
            Some(inner) => {
                braced = format!("{{{}}}", inner.strip_suffix(')').unwrap_or(inner));
                braced.as_str()
            }
            None => &t[head_end..],
        };
        match parse_gemma_body(body, cut, body_at, &mut repairs) {
            Ok(Literal {
                value: Value::Object(m),
                closed_at_eof,
            }) => {
                arguments = m;
                if let Some(at) = closed_at_eof {
                    repairs.push(Repair {
                        kind: RepairKind::MissingClose,
                        offset: (from + text.len()).min(body_at + at),
                    });
                }
            }
            Err(PyError::Eof) if cut => {
                return Err(BlockResult::truncated(
                    ids::GEMINI_FUNCTION_CALL,
                    from + text.len(),
                ))
            }
            _ => {
                return Err(BlockResult::error(
                    "TLP-002",
                    "Gemma function call arguments do not parse",
                    from,
                ))
            }
        }
    }
    Ok(ParsedCall {
        repairs,
        ..ParsedCall::new(name, arguments, ids::GEMINI_FUNCTION_CALL)
    })
}

/// The keys under which a JSON call object holds its arguments.
const JSON_ARGUMENT_KEYS: &[&str] = &["arguments", "args", "parameters"];

/// A Gemma call whose body is a JSON call object rather than `NAME{…}`:
/// `{"name": NAME, "arguments": {…}}` (or `args`, `parameters`; no
/// arguments key: none). Any other key, or a name that is not a string,
/// and it is not one: `None`.
fn json_form(body: &str, cut: bool, body_at: usize) -> Option<ParsedCall> {
    let mut repairs = Vec::new();
    let Ok(Literal {
        value: Value::Object(mut m),
        closed_at_eof,
    }) = parse_gemma_body(body, cut, body_at, &mut repairs)
    else {
        return None;
    };
    let name = match m.remove("name") {
        Some(Value::String(n)) => clean_name(&n),
        _ => return None,
    };
    if name.is_empty() || m.len() > 1 {
        return None;
    }
    let arguments = match m.into_iter().next() {
        None => Map::new(),
        Some((k, Value::Object(a))) if JSON_ARGUMENT_KEYS.contains(&k.as_str()) => a,
        Some(_) => return None,
    };
    if let Some(at) = closed_at_eof {
        repairs.push(Repair {
            kind: RepairKind::MissingClose,
            offset: body_at + at,
        });
    }
    Some(ParsedCall {
        repairs,
        ..ParsedCall::new(name, arguments, ids::GEMINI_FUNCTION_CALL)
    })
}

/// Parses a Gemma arguments object. When the closing marker (not the end of
/// input) came before the object closed, what is open is closed there
/// (`{a:<|"|>x<|"|><tool_call|>`: a `MissingClose` repair), and a string
/// whose delimiter never came ends before the body's last `}`
/// (`{a:<|"|>x}<tool_call|>`: an `UnclosedString` repair); a body cut by
/// the end of input is closed only where no content was lost.
fn parse_gemma_body(
    body: &str,
    cut: bool,
    body_at: usize,
    repairs: &mut Vec<Repair>,
) -> Result<Literal, PyError> {
    let dialect = Dialect::Gemma { delims: DELIMS };
    let first = parse_literal_in(body, dialect, cut);
    if cut || first.is_ok() {
        return first;
    }
    if let Some(lit) = missing_open_delimiter(body, dialect, body_at, repairs) {
        return Ok(lit);
    }
    if let Some(lit) = stray_key_delimiter(body, dialect, body_at, repairs) {
        return Ok(lit);
    }
    if !matches!(first, Err(PyError::Eof)) {
        return first;
    }
    if let Ok(lit) = parse_literal_in(body, dialect, true) {
        return Ok(lit);
    }
    let Some(brace) = body.trim_end().strip_suffix('}').map(str::len) else {
        return first;
    };
    for delim in DELIMS {
        let delim = crate::scan::lossy(delim);
        let fixed = format!("{}{delim}{}", &body[..brace], &body[brace..]);
        if let Ok(lit) = parse_literal_in(&fixed, dialect, true) {
            if lit.closed_at_eof.is_none() {
                repairs.push(Repair {
                    kind: RepairKind::UnclosedString,
                    offset: body_at + brace,
                });
                return Ok(lit);
            }
        }
    }
    first
}

/// A string whose opening delimiter was left out, its closing one written
/// (`{query:weather in Tokyo<|"|>}`): the first value after a `:` that,
/// given its opening delimiter, makes the body parse whole (a
/// `missing_open_quote` repair). Tries a bounded number of places.
fn missing_open_delimiter(
    body: &str,
    dialect: Dialect,
    body_at: usize,
    repairs: &mut Vec<Repair>,
) -> Option<Literal> {
    for (k, _) in body.match_indices(':').take(16) {
        let rest = body[k + 1..].trim_start();
        if rest.starts_with(['{', '[', '"', '<']) {
            continue;
        }
        let at = body.len() - rest.len();
        for delim in DELIMS {
            let delim = crate::scan::lossy(delim);
            if !rest.contains(delim.as_ref()) {
                continue;
            }
            let fixed = format!("{}{delim}{}", &body[..at], &body[at..]);
            if let Ok(lit) = parse_literal_in(&fixed, dialect, false) {
                repairs.push(Repair {
                    kind: RepairKind::MissingOpenQuote,
                    offset: body_at + at,
                });
                return Some(lit);
            }
        }
    }
    None
}

/// A lone string delimiter written before a bare key
/// (`{<|"|>flag:true}`): the template writes keys bare and the delimiter
/// never closes, so the only whole reading is the body without it (a
/// `damaged_key` repair). Taken only when the body holds that one
/// delimiter, it stands where a key begins (after `{` or `,`), a bare key
/// and its `:` follow, and the body parses whole without it.
fn stray_key_delimiter(
    body: &str,
    dialect: Dialect,
    body_at: usize,
    repairs: &mut Vec<Repair>,
) -> Option<Literal> {
    for delim in DELIMS {
        let delim = crate::scan::lossy(delim);
        let mut hits = body.match_indices(delim.as_ref());
        let Some((at, _)) = hits.next() else {
            continue;
        };
        if hits.next().is_some() {
            return None;
        }
        if !body[..at].trim_end().ends_with(['{', ',']) {
            continue;
        }
        let after = &body[at + delim.len()..];
        let key = after.split(':').next().unwrap_or_default();
        if key.len() == after.len()
            || key.is_empty()
            || !key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.')
        {
            return None;
        }
        let fixed = format!("{}{after}", &body[..at]);
        if let Ok(lit) = parse_literal_in(&fixed, dialect, false) {
            repairs.push(Repair {
                kind: RepairKind::DamagedKey,
                offset: body_at + at,
            });
            return Some(lit);
        }
        return None;
    }
    None
}

/// Where a [`GemmaScan`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ph {
    /// Between the marker and the object's `{`.
    Head,
    /// Inside the object, outside strings.
    Obj,
    /// Inside a string opened by the first delimiter.
    Str0,
    /// Inside a string opened by the second delimiter.
    Str1,
    /// Inside a `"…"` string.
    Quote,
    /// Just after a backslash in a `"…"` string.
    QuoteEsc,
    /// The object closed at `mark`: the closing marker may follow.
    After,
}

/// Finds the end of a Gemma call block: the marker, `call:NAME{…}` with its
/// strings and nesting tracked, then the optional closing marker.
struct GemmaScan {
    /// Resume position.
    pos: usize,
    /// Brace and bracket depth.
    depth: usize,
    /// The end of the object once it closed.
    mark: usize,
    phase: Ph,
}

impl Scanner for GemmaScan {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        let (open, close) = markers(block);
        let len = block.len();
        let mut i = self.pos.max(open.len());
        loop {
            match self.phase {
                Ph::Head => {
                    while i < len && block[i] != b'{' && block[i] != b'<' {
                        i += 1;
                        if i - open.len() > 512 {
                            return BlockEnd::done(i);
                        }
                    }
                    if i == len {
                        self.pos = i;
                        return if eof {
                            BlockEnd::Done { len, cut: true }
                        } else {
                            BlockEnd::More
                        };
                    }
                    if block[i] == b'{' {
                        self.phase = Ph::Obj;
                        continue;
                    }
                    match scan::prefix(&block[i..], close) {
                        Prefix::Full => return BlockEnd::done(i + close.len()),
                        Prefix::Partial if !eof => {
                            self.pos = i;
                            return BlockEnd::More;
                        }
                        _ => return BlockEnd::done(i),
                    }
                }
                Ph::Obj => {
                    while i < len {
                        match block[i] {
                            b'{' | b'[' => self.depth += 1,
                            b'}' | b']' => {
                                self.depth = self.depth.saturating_sub(1);
                                if self.depth == 0 {
                                    self.mark = i + 1;
                                    self.phase = Ph::After;
                                    break;
                                }
                            }
                            b'"' => {
                                self.phase = Ph::Quote;
                                i += 1;
                                break;
                            }
                            b'<' => {
                                let mut partial = false;
                                let mut hit = None;
                                for (k, d) in DELIMS.iter().enumerate() {
                                    match scan::prefix(&block[i..], d) {
                                        Prefix::Full => hit = Some((k, d.len())),
                                        Prefix::Partial => partial = true,
                                        Prefix::No => {}
                                    }
                                }
                                if let Some((k, dl)) = hit {
                                    self.phase = if k == 0 { Ph::Str0 } else { Ph::Str1 };
                                    i += dl;
                                    break;
                                }
                                if partial && !eof {
                                    self.pos = i;
                                    return BlockEnd::More;
                                }
                            }
                            _ => {}
                        }
                        i += 1;
                    }
                    if self.phase == Ph::Obj {
                        return self.unfinished(block, i, eof, open, close);
                    }
                    if self.phase == Ph::After {
                        continue;
                    }
                }
                Ph::Str0 | Ph::Str1 => {
                    let d = DELIMS[usize::from(self.phase == Ph::Str1)];
                    match scan::find(block, i, d) {
                        Some(k) => {
                            i = k + d.len();
                            self.phase = Ph::Obj;
                        }
                        None => {
                            let keep = len.saturating_sub(d.len() - 1).max(i);
                            return self.unfinished(block, keep, eof, open, close);
                        }
                    }
                }
                Ph::Quote | Ph::QuoteEsc => {
                    while i < len {
                        if self.phase == Ph::QuoteEsc {
                            self.phase = Ph::Quote;
                        } else if block[i] == b'\\' {
                            self.phase = Ph::QuoteEsc;
                        } else if block[i] == b'"' {
                            self.phase = Ph::Obj;
                            i += 1;
                            break;
                        }
                        i += 1;
                    }
                    if self.phase != Ph::Obj {
                        return self.unfinished(block, i, eof, open, close);
                    }
                }
                Ph::After => {
                    let s = scan::skip_space(block, self.pos.max(self.mark));
                    if s == len {
                        self.pos = s;
                        return if eof {
                            BlockEnd::done(self.mark)
                        } else {
                            BlockEnd::More
                        };
                    }
                    // another call in the same block: `…}call:b{…}`
                    match scan::prefix(&block[s..], b"call:") {
                        Prefix::Full => {
                            self.phase = Ph::Head;
                            i = s + 5;
                            continue;
                        }
                        Prefix::Partial if !eof => {
                            self.pos = s;
                            return BlockEnd::More;
                        }
                        _ => {}
                    }
                    if close == GEMMA4.1 {
                        match scan::prefix(&block[s..], GEMMA4_GARBLED_CLOSE) {
                            Prefix::Full => return BlockEnd::done(s + GEMMA4_GARBLED_CLOSE.len()),
                            Prefix::Partial if !eof => {
                                self.pos = s;
                                return BlockEnd::More;
                            }
                            _ => {}
                        }
                    }
                    return match scan::prefix(&block[s..], close) {
                        Prefix::Full => BlockEnd::done(s + close.len()),
                        Prefix::Partial if !eof => BlockEnd::More,
                        _ if close == PSEUDO_CLOSE && block[s] == b'>' => BlockEnd::done(s + 1),
                        _ => BlockEnd::done(self.mark),
                    };
                }
            }
        }
    }
}

impl GemmaScan {
    /// The object did not close in what we have: wait, or at end of input
    /// end at the closing marker if there is one, else report a cut.
    fn unfinished(
        &mut self,
        block: &[u8],
        i: usize,
        eof: bool,
        open: &[u8],
        close: &[u8],
    ) -> BlockEnd {
        if !eof {
            self.pos = i;
            return BlockEnd::More;
        }
        match scan::find(block, open.len(), close) {
            Some(k) => BlockEnd::done(k + close.len()),
            None => BlockEnd::cut_off(block),
        }
    }
}

fn held(_: &[u8], _: &super::ProbeCx) -> Probe {
    Probe::Match(Action::Block {
        fmt: &GEMMA_CALL,
        scanner: crate::formats::BlockScanner::new(GemmaScan {
            pos: 0,
            depth: 0,
            mark: 0,
            phase: Ph::Head,
        }),
    })
}

/// `NAME{` at the start of `input[at..]`: `Some(true)` yes, `Some(false)`
/// no, `None` when the input ends first.
fn name_then_brace(input: &[u8], at: usize) -> Option<bool> {
    let mut i = at;
    while i < input.len()
        && i < at + 128
        && (scan::is_name_byte(input[i]) || matches!(input[i], b'.' | b'-'))
    {
        i += 1;
    }
    match input.get(i) {
        Some(b'{') => Some(i > at),
        None if i < at + 128 => None,
        _ => Some(false),
    }
}

fn probe_unmarked(input: &[u8], cx: &super::ProbeCx, lit_len: usize) -> Probe {
    match name_then_brace(input, lit_len) {
        Some(true) => held(input, cx),
        None if !cx.eof => Probe::NeedMore,
        _ => Probe::NotMarker,
    }
}

/// Gemma 4's call without its opening marker, `call:NAME{…}` at the start
/// of a line (vLLM reads it too: real outputs drop the marker).
pub const OPENER_BARE: Opener =
    Opener::new(b"call:", |i, cx| probe_unmarked(i, cx, 5)).line_start();

/// The `<call>NAME{…}` fragment.
pub const OPENER_FRAGMENT: Opener =
    Opener::new(FRAGMENT.0, |i, cx| probe_unmarked(i, cx, FRAGMENT.0.len()));

/// Gemini's namespace before a name in a pseudo-tag (`default_api:NAME`);
/// [`clean_name`] drops it from the name.
const DEFAULT_API: &[u8] = b"default_api";

/// Gemini's pseudo-tag `<function:` or `<call:`, then `default_api:` (or
/// `.`) or nothing, then `NAME{`: the call verbalized into the text
/// channel. The tag alone, or one followed by prose, is text.
fn probe_pseudo(input: &[u8], cx: &super::ProbeCx, lit_len: usize) -> Probe {
    let rest = &input[lit_len..];
    let at = match scan::prefix(rest, DEFAULT_API) {
        Prefix::Full => match rest.get(DEFAULT_API.len()) {
            Some(b':' | b'.') => lit_len + DEFAULT_API.len() + 1,
            Some(_) => lit_len,
            None if !cx.eof => return Probe::NeedMore,
            None => return Probe::NotMarker,
        },
        Prefix::Partial if !cx.eof => return Probe::NeedMore,
        _ => lit_len,
    };
    probe_unmarked(input, cx, at)
}

/// Gemini's `<function:default_api:NAME{…}` pseudo-tag.
pub const OPENER_PSEUDO_FUNCTION: Opener = Opener::new(PSEUDO_FUNCTION.0, |i, cx| {
    probe_pseudo(i, cx, PSEUDO_FUNCTION.0.len())
});

/// Gemini's `<call:default_api:NAME{…}/>` pseudo-tag.
pub const OPENER_PSEUDO_CALL: Opener = Opener::new(PSEUDO_CALL.0, |i, cx| {
    probe_pseudo(i, cx, PSEUDO_CALL.0.len())
});

/// Gemma 4's `<|tool_call>`: a call when `call:` or a name and its
/// arguments follow (or the input ends right after it); the token quoted in
/// prose (`the <|tool_call> marker`) is text.
pub const OPENER_GEMMA4: Opener = Opener::new(GEMMA4.0, |input, cx| {
    let s = scan::skip_space(input, GEMMA4.0.len());
    if s == input.len() {
        return if cx.eof {
            held(input, cx)
        } else {
            Probe::NeedMore
        };
    }
    let rest = &input[s..];
    let rest = rest.strip_prefix(b":").unwrap_or(rest);
    match scan::prefix(rest, b"call:") {
        scan::Prefix::Full => return held(input, cx),
        scan::Prefix::Partial if !cx.eof => return Probe::NeedMore,
        _ => {}
    }
    match name_then_brace(input, s) {
        Some(true) => held(input, cx),
        None if !cx.eof => Probe::NeedMore,
        _ => Probe::NotMarker,
    }
});

/// FunctionGemma's `<start_function_call>`.
pub const OPENER_FUNCTION_GEMMA: Opener = Opener::new(FGEMMA.0, held);

const CHANNEL_CLOSE: &[Close] = &[Close::consumed(b"<channel|>")];

/// Gemma 4's reasoning span `<|channel>thought` newline … `<channel|>`:
/// the channel's name line is framing, not reasoning.
pub const OPENER_CHANNEL: Opener = Opener::new(CHANNEL_OPEN, probe_channel);

/// The token that opens a Gemma 4 channel.
const CHANNEL_OPEN: &[u8] = b"<|channel>";

/// The channel name Gemma 4's template writes after `<|channel>`.
const THOUGHT: &[u8] = b"thought";

/// How the name ends: its line's newline, or the close itself when the
/// thought is empty (a reasoning budget of 0 forces `<channel|>` at once).
const THOUGHT_ENDS: [&[u8]; 2] = [b"\n", b"<channel|>"];

/// How many `<|channel>` tokens in a row one channel's framing takes.
const MAX_REPEATS: usize = 4;

/// The framing of a channel span: `<|channel>` (repeated when the prompt
/// already wrote one), then the `thought` name and its newline. Only the
/// newline is consumed with the name; a `<channel|>` right after it is the
/// close. `None`: not decidable before more input.
fn channel_framing(input: &[u8], cx: &super::ProbeCx) -> Option<usize> {
    let mut open = CHANNEL_OPEN.len();
    // a few repeats at most: a run of them is not read to its end
    for _ in 0..MAX_REPEATS {
        match scan::prefix(input.get(open..).unwrap_or_default(), CHANNEL_OPEN) {
            Prefix::Full => open += CHANNEL_OPEN.len(),
            Prefix::Partial if !cx.eof => return None,
            _ => break,
        }
    }
    let rest = input.get(open..).unwrap_or_default();
    let mut undecided = false;
    for end in THOUGHT_ENDS {
        let name = rest.strip_prefix(THOUGHT);
        match name.map(|after| scan::prefix(after, end)) {
            Some(Prefix::Full) => {
                let newline = usize::from(end == b"\n");
                return Some(open + THOUGHT.len() + newline);
            }
            Some(Prefix::Partial) => undecided = true,
            _ => undecided |= matches!(scan::prefix(rest, THOUGHT), Prefix::Partial),
        }
    }
    if undecided && !cx.eof {
        None
    } else {
        Some(open)
    }
}

fn probe_channel(input: &[u8], cx: &super::ProbeCx) -> Probe {
    match channel_framing(input, cx) {
        None => Probe::NeedMore,
        Some(open_len) => Probe::Match(Action::Reasoning {
            open_len,
            close: CHANNEL_CLOSE,
        }),
    }
}

/// Stray `<tool_call|>` is markup.
pub const OPENER_STRAY_GEMMA4: Opener = Opener::markup(GEMMA4.1);

/// Stray `<end_function_call>` is markup.
pub const OPENER_STRAY_FUNCTION_GEMMA: Opener = Opener::markup(FGEMMA.1);

/// Gemma 4's `<|tool_response>`: the template writes it right after a
/// call's `<tool_call|>` to hand over to the tool's result; a special token,
/// markup, never text.
pub const OPENER_TOOL_RESPONSE: Opener = Opener::markup(b"<|tool_response>");

/// Gemma 4's `<tool_response|>`, closing a tool result: markup.
pub const OPENER_TOOL_RESPONSE_END: Opener = Opener::markup(b"<tool_response|>");

/// Stray `<channel|>` is markup.
pub const OPENER_STRAY_CHANNEL: Opener = Opener::markup(b"<channel|>");

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(s: &str) -> BlockResult {
        let cfg = crate::engine::Config::default();
        GEMMA_CALL.parse(
            s.as_bytes(),
            &ParseCx {
                cfg: &cfg,
                cut: false,
                before: b"",
                reply_start: true,
                tally: false,
                spare: &Default::default(),
                plain: None,
                names_clear: &Default::default(),
            },
        )
    }

    #[test]
    fn gemma4_nested_values() {
        let r = parse(
            "<|tool_call>call:plan{title:<|\"|>a, b: {c}<|\"|>,n:3,ok:true,tags:[<|\"|>x<|\"|>,2],opts:{deep:{k:<|\"|>v<|\"|>}},none:null}<tool_call|>",
        );
        assert_eq!(r.calls[0].name, "plan");
        assert_eq!(
            r.calls[0].arguments.as_value().clone(),
            json!({"title": "a, b: {c}", "n": 3, "ok": true, "tags": ["x", 2],
                   "opts": {"deep": {"k": "v"}}, "none": null})
        );
    }

    #[test]
    fn function_gemma_and_no_args() {
        let r = parse("<start_function_call>call:get_time{tz:<escape>Europe/Paris<escape>}<end_function_call>");
        assert_eq!(
            r.calls[0].arguments.as_value().clone(),
            json!({"tz": "Europe/Paris"})
        );
        let r = parse("<|tool_call>call:list_files{}<tool_call|>");
        assert_eq!(r.calls[0].name, "list_files");
        let r = parse("<|tool_call>call:list_files<tool_call|>");
        assert_eq!(r.calls[0].name, "list_files");
    }

    #[test]
    fn json_call_object_inside_the_markers() {
        let r = parse(
            "<|tool_call>call:{\"name\": \"GMAIL_LIST_THREADS\", \"arguments\": {\"verbose\": true}}<tool_call|>",
        );
        assert_eq!(r.calls[0].name, "GMAIL_LIST_THREADS");
        assert_eq!(
            r.calls[0].arguments.as_value().clone(),
            json!({"verbose": true})
        );
        let r = parse(
            "<|tool_call>call:tool_call{\"name\": \"list_cron_jobs\", \"args\": {}}<tool_call|>",
        );
        assert_eq!(r.calls[0].name, "list_cron_jobs");
        // a third key: not a call object
        let r =
            parse("<|tool_call>call:{\"name\": \"x\", \"arguments\": {}, \"id\": 1}<tool_call|>");
        assert!(r.calls.is_empty());
    }
}
