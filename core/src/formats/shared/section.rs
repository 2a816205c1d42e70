//! Shared machinery for special-token *sections*: an optional section-begin
//! token, one or more calls each opened by a call-begin token and closed by a
//! call-end token, and an optional section-end token.
//!
//! DeepSeek V3/V3.1 (`<｜tool▁calls▁begin｜>` …), Kimi K2
//! (`<|tool_calls_section_begin|>` …) and Step-3 (`<｜tool_calls_begin｜>` …)
//! all have this shape and differ only in their tokens and in the body of one
//! call, so they share the scanner and the call splitter here and bring their
//! own [`Tokens`] and call-body parser.
//!
//! Where a format names the tokens after which a call's arguments are a
//! JSON object ([`Tokens::json_after`]), the scanner reads that object
//! string-aware, so tokens written inside its strings end nothing; an object
//! that never closes before the end of input is read with tokens only. The
//! parser splits a block with the scanner itself ([`split_calls`]), so both
//! always agree.
//!
//! Sloppy shapes handled: stray text between the section-begin token and the
//! first call on the same line (part of the section, not content), the
//! section tokens missing (a bare call-begin token
//! starts a block), the section end missing (the block ends after the last
//! call that is followed by something other than another call), a call-end
//! token missing between two calls (also when the second lost its
//! call-begin token too, right after the first one's JSON arguments, or
//! the first call is the block's start: Kimi's headless calls), and output
//! cut off inside a later call
//! (the block ends before that call, so the cut call is re-read on its own
//! and reported as an error or a repaired call).

use crate::call::{arguments_from, close_truncated, ParsedCall};
use crate::formats::{
    Action, BlockEnd, BlockError, BlockFormat, BlockResult, FormatId, ParseCx, Probe, ProbeCx,
    Scanner,
};
use crate::repair::{Repair, RepairKind, RepairOptions};
use crate::scan::balance::{End, JsonEnd};
use crate::scan::{self, Prefix};
use serde_json::{Map, Value};

/// The tokens of one section family.
pub struct Tokens {
    /// A prefix every structural token below starts with (used to search).
    pub common: &'static [u8],
    /// Tokens that open a call.
    pub call_begin: &'static [&'static [u8]],
    /// Tokens that close a call.
    pub call_end: &'static [&'static [u8]],
    /// Tokens that close the section.
    pub section_end: &'static [&'static [u8]],
    /// Tokens after which a call's arguments are a JSON object (the first
    /// `{` after one): tokens written inside its strings are text. Empty
    /// when the arguments are not JSON.
    pub json_after: &'static [&'static [u8]],
    /// Tokens after which a function name followed by a [`Tokens::name_sep`]
    /// token opens a call whose call-begin token is missing
    /// (`<｜tool▁calls▁begin｜>NAME<｜tool▁sep｜>{…}`). Empty when the
    /// format has no such slip.
    pub implicit_after: &'static [&'static [u8]],
    /// The tokens that end a function name in an implicit call.
    pub name_sep: &'static [&'static [u8]],
}

/// The longest function name an implicit call may have.
const MAX_IMPLICIT_NAME: usize = 128;

/// Whether `rest` starts with a call that lost its call-begin token: a
/// function name (blanks around it allowed), one of `toks.name_sep`, then a
/// JSON object. `Partial` while the input ends before that is decided.
pub fn implicit_call(rest: &[u8], toks: &Tokens) -> Hit {
    if toks.name_sep.is_empty() {
        return Hit::No;
    }
    let s = scan::skip_space(rest, 0);
    let mut e = s;
    while e < rest.len()
        && e - s <= MAX_IMPLICIT_NAME
        && (rest[e].is_ascii_alphanumeric()
            || matches!(rest[e], b'_' | b'-' | b'.' | b':')
            || rest[e] >= 0x80)
        && !rest[e..].starts_with(toks.common)
    {
        e += 1;
    }
    if e == s || e - s > MAX_IMPLICIT_NAME {
        return Hit::No;
    }
    let t = scan::skip_space(rest, e);
    if t == rest.len() {
        return Hit::Partial;
    }
    match match_any(&rest[t..], toks.name_sep) {
        Hit::Full(n) => {
            // JSON arguments follow: `function<｜tool▁sep｜>NAME` (the V3
            // layout, whose begin token is never left out) does not count
            let v = scan::skip_space(rest, t + n);
            match rest.get(v) {
                Some(b'{') => Hit::Full(0),
                None => Hit::Partial,
                Some(_) => Hit::No,
            }
        }
        other => other,
    }
}

/// How a token list compares to the input at some position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hit {
    /// A token of this length is there in full.
    Full(usize),
    /// The input ends inside a token.
    Partial,
    /// No token is there.
    No,
}

/// Which of a token list matches at the start of `input`.
pub fn match_any(input: &[u8], list: &[&[u8]]) -> Hit {
    let mut partial = false;
    for t in list {
        match scan::prefix(input, t) {
            Prefix::Full => return Hit::Full(t.len()),
            Prefix::Partial => partial = true,
            Prefix::No => {}
        }
    }
    if partial {
        Hit::Partial
    } else {
        Hit::No
    }
}

/// How many bytes of stray text may sit between a section-begin token and
/// the first call-begin token on the same line.
const MAX_NOISE: usize = 256;

/// The probe for a section-begin token of length `open` at the start of
/// `input`: a block when a call-begin token follows (after blanks, or after
/// stray text on the same line, which belongs to the section and is not
/// content), markup for a lone token followed by anything else, a cut-off
/// block at end of input.
pub fn probe_section(
    input: &[u8],
    open: usize,
    toks: &'static Tokens,
    fmt: &'static dyn BlockFormat,
    cx: &ProbeCx,
) -> Probe {
    let s = scan::skip_space(input, open);
    if s == input.len() {
        if cx.eof {
            return section_block(fmt, toks, open);
        }
        return Probe::NeedMore;
    }
    match match_any(&input[s..], toks.call_begin) {
        Hit::Full(_) => return section_block(fmt, toks, open),
        Hit::Partial if !cx.eof => return Probe::NeedMore,
        _ => {}
    }
    match implicit_call(&input[s..], toks) {
        Hit::Full(_) => return section_block(fmt, toks, open),
        Hit::Partial if !cx.eof => return Probe::NeedMore,
        _ => {}
    }
    // stray text on the line, then the first call
    let line_end = memchr::memchr(b'\n', &input[s..]).map_or(input.len(), |k| s + k);
    let limit = line_end.min(s + MAX_NOISE);
    let window = &input[..input.len().min(limit + toks.common.len())];
    let mut at = s;
    while let Some(h) = scan::find(window, at, toks.common).filter(|&h| h < limit) {
        match match_any(&input[h..], toks.call_begin) {
            Hit::Full(_) => return section_block(fmt, toks, h),
            Hit::Partial if !cx.eof => return Probe::NeedMore,
            _ => {}
        }
        match match_any(&input[h..], toks.section_end) {
            Hit::Full(_) => return Probe::Match(Action::Markup { len: open }),
            Hit::Partial if !cx.eof => return Probe::NeedMore,
            _ => {}
        }
        at = h + 1;
    }
    let decided = limit < input.len() || line_end < input.len();
    if !decided && !cx.eof && input.len() < s + MAX_NOISE + toks.common.len() {
        return Probe::NeedMore;
    }
    Probe::Match(Action::Markup { len: open })
}

/// The probe every section format shares: a section opener (any spelling in
/// `section_begin`) starts a section block, a bare call opener starts a block
/// too (the section tokens are optional), and a stray token of the format is
/// markup.
pub fn probe_tokens(
    input: &[u8],
    cx: &ProbeCx,
    section_begin: &[&[u8]],
    stray: &[&[u8]],
    toks: &'static Tokens,
    fmt: &'static dyn BlockFormat,
) -> Probe {
    match match_any(input, section_begin) {
        Hit::Full(n) => return probe_section(input, n, toks, fmt, cx),
        Hit::Partial if !cx.eof => return Probe::NeedMore,
        _ => {}
    }
    match match_any(input, toks.call_begin) {
        Hit::Full(_) => return section_block(fmt, toks, 0),
        Hit::Partial if !cx.eof => return Probe::NeedMore,
        _ => {}
    }
    match match_any(input, stray) {
        Hit::Full(len) => Probe::Match(Action::Markup { len }),
        Hit::Partial if !cx.eof => Probe::NeedMore,
        _ => Probe::NotMarker,
    }
}

/// A section block of `fmt` whose first call-begin token is expected at or
/// after `head` (the probe read what comes before it).
pub fn section_block(fmt: &'static dyn BlockFormat, toks: &'static Tokens, head: usize) -> Probe {
    Probe::Match(Action::Block {
        fmt,
        scanner: crate::formats::BlockScanner::new(SectionScanner::new(toks, head)),
    })
}

/// Finds where a section block ends: after its section-end token, or after
/// the last call when something other than another call follows it. It
/// records each call's span on the way, so the parser splits the block with
/// the very same rules ([`split_calls`]).
pub struct SectionScanner {
    toks: &'static Tokens,
    /// Bytes the probe read (up to the first call-begin token).
    head: usize,
    /// Where the last finished call's markup ends (`None` before one).
    last_call_end: Option<usize>,
    /// The input ended inside JSON arguments that never closed: from there
    /// on, tokens inside arguments count as tokens.
    lenient: bool,
    /// The calls found so far.
    calls: Vec<CallSpan>,
    phase: SectionPhase,
}

/// Where a [`SectionScanner`] is.
enum SectionPhase {
    /// Between calls: blanks read up to `from`.
    Between { from: usize },
    /// Inside the call whose begin token is at `start` and whose body starts
    /// at `body`; the token search resumes at `from`. `args`: a token after
    /// which JSON arguments begin was seen.
    InCall {
        start: usize,
        body: usize,
        from: usize,
        args: bool,
    },
    /// Inside the call's JSON arguments, which begin at `value`: tokens
    /// written in their strings are text.
    Json {
        start: usize,
        body: usize,
        value: usize,
        json: JsonEnd,
    },
    /// Right after the call's JSON arguments, which end at `at`: a call
    /// whose call-begin token is missing may follow (the call-end token
    /// lost too, Kimi's `a:0<|tool_call_argument_begin|>{…}` lines).
    AfterArgs {
        start: usize,
        body: usize,
        at: usize,
    },
}

impl SectionScanner {
    /// A scan whose first call is expected at or after `head`.
    pub fn new(toks: &'static Tokens, head: usize) -> Self {
        SectionScanner {
            toks,
            head,
            last_call_end: None,
            lenient: false,
            calls: Vec::new(),
            phase: SectionPhase::Between { from: head },
        }
    }

    /// The block ends after the last finished call, or (before any) at `at`
    /// (`cut` when `at` is the end of input).
    fn end_after_calls(&self, at: usize, cut: bool) -> BlockEnd {
        match self.last_call_end {
            Some(len) => BlockEnd::Done { len, cut: false },
            None => BlockEnd::Done { len: at, cut },
        }
    }

    /// Between calls, from the first non-blank byte `s`.
    fn between(&mut self, block: &[u8], s: usize, eof: bool) -> Option<BlockEnd> {
        let rest = &block[s..];
        match match_any(rest, self.toks.call_begin) {
            Hit::Full(n) => {
                self.phase = SectionPhase::InCall {
                    start: s,
                    body: s + n,
                    from: s + n,
                    args: false,
                };
                return None;
            }
            Hit::Partial if !eof => return Some(BlockEnd::More),
            _ => {}
        }
        match implicit_call(rest, self.toks) {
            Hit::Full(_) => {
                self.phase = SectionPhase::InCall {
                    start: s,
                    body: s,
                    from: s,
                    args: false,
                };
                return None;
            }
            Hit::Partial if !eof => return Some(BlockEnd::More),
            _ => {}
        }
        match match_any(rest, self.toks.section_end) {
            Hit::Full(n) => Some(BlockEnd::done(s + n)),
            Hit::Partial if !eof => Some(BlockEnd::More),
            // something else follows the last call: the section ends there
            _ => Some(self.end_after_calls(s, false)),
        }
    }

    /// Inside a call, searching from `from`.
    fn in_call(
        &mut self,
        block: &[u8],
        (start, body, from, args): (usize, usize, usize, bool),
        eof: bool,
    ) -> Option<BlockEnd> {
        let toks = self.toks;
        let lead = toks.common[0];
        let hit = if args && !self.lenient {
            memchr::memchr3(b'{', b'"', lead, &block[from..]).map(|k| from + k)
        } else {
            memchr::memchr(lead, &block[from..]).map(|k| from + k)
        };
        let Some(h) = hit else {
            if eof {
                return Some(self.cut_in_call(block, start, body));
            }
            self.phase = SectionPhase::InCall {
                start,
                body,
                from: block.len(),
                args,
            };
            return Some(BlockEnd::More);
        };
        match block[h] {
            b'{' => {
                self.phase = SectionPhase::Json {
                    start,
                    body,
                    value: h,
                    json: JsonEnd::new(),
                };
                return None;
            }
            b'"' => {
                // arguments written as a JSON string: read with tokens only
                self.phase = SectionPhase::InCall {
                    start,
                    body,
                    from: h + 1,
                    args: false,
                };
                return None;
            }
            _ => {}
        }
        let rest = &block[h..];
        let mut partial = false;
        match scan::prefix(rest, toks.common) {
            Prefix::Full => {}
            Prefix::Partial if !eof => {
                self.phase = SectionPhase::InCall {
                    start,
                    body,
                    from: h,
                    args,
                };
                return Some(BlockEnd::More);
            }
            _ => {
                self.phase = SectionPhase::InCall {
                    start,
                    body,
                    from: h + 1,
                    args,
                };
                return None;
            }
        }
        match match_any(rest, toks.call_end) {
            Hit::Full(n) => {
                self.calls.push(CallSpan {
                    body_start: body,
                    body_end: h,
                    end: h + n,
                    closed: true,
                });
                self.last_call_end = Some(h + n);
                self.phase = SectionPhase::Between { from: h + n };
                return None;
            }
            Hit::Partial => partial = true,
            Hit::No => {}
        }
        match match_any(rest, toks.call_begin) {
            Hit::Full(n) => {
                // the previous call lost its end token
                self.calls.push(CallSpan::unclosed(body, h));
                self.last_call_end = Some(h);
                self.phase = SectionPhase::InCall {
                    start: h,
                    body: h + n,
                    from: h + n,
                    args: false,
                };
                return None;
            }
            Hit::Partial => partial = true,
            Hit::No => {}
        }
        match match_any(rest, toks.section_end) {
            Hit::Full(n) => {
                self.calls.push(CallSpan::unclosed(body, h));
                return Some(BlockEnd::done(h + n));
            }
            Hit::Partial => partial = true,
            Hit::No => {}
        }
        match match_any(rest, toks.json_after) {
            Hit::Full(n) => {
                self.phase = SectionPhase::InCall {
                    start,
                    body,
                    from: h + n,
                    args: true,
                };
                return None;
            }
            Hit::Partial => partial = true,
            Hit::No => {}
        }
        if partial && !eof {
            self.phase = SectionPhase::InCall {
                start,
                body,
                from: h,
                args,
            };
            return Some(BlockEnd::More);
        }
        self.phase = SectionPhase::InCall {
            start,
            body,
            from: h + 1,
            args,
        };
        None
    }

    /// Inside JSON arguments.
    fn json(
        &mut self,
        block: &[u8],
        (start, body, value): (usize, usize, usize),
        eof: bool,
    ) -> Option<BlockEnd> {
        let SectionPhase::Json { ref mut json, .. } = self.phase else {
            return None;
        };
        let next = match json.scan(&block[value..]) {
            End::At(k) => value + k,
            End::More if !eof => return Some(BlockEnd::More),
            // never closed: read the rest of the call with tokens only
            End::More | End::NotValue => {
                self.lenient = true;
                value
            }
        };
        self.phase = if self.toks.name_sep.is_empty() || next == value {
            SectionPhase::InCall {
                start,
                body,
                from: next,
                args: false,
            }
        } else {
            SectionPhase::AfterArgs {
                start,
                body,
                at: next,
            }
        };
        None
    }

    /// After a call's JSON arguments that end at `at`: a call that lost
    /// its call-begin token (after blanks) ends this one there, without its
    /// end token; anything else is read on as the call's.
    fn after_args(
        &mut self,
        block: &[u8],
        (start, body, at): (usize, usize, usize),
        eof: bool,
    ) -> Option<BlockEnd> {
        let s = scan::skip_space(block, at);
        if s == block.len() && !eof {
            return Some(BlockEnd::More);
        }
        match implicit_call(&block[s..], self.toks) {
            Hit::Full(_) => {
                self.calls.push(CallSpan::unclosed(body, at));
                self.last_call_end = Some(at);
                self.phase = SectionPhase::InCall {
                    start: s,
                    body: s,
                    from: s,
                    args: false,
                };
                return None;
            }
            Hit::Partial if !eof => return Some(BlockEnd::More),
            _ => {}
        }
        self.phase = SectionPhase::InCall {
            start,
            body,
            from: at,
            args: false,
        };
        None
    }

    /// End of input inside the call that begins at `start`: a later call
    /// that was cut off is left out of the block (it is read again on its
    /// own); a cut first call makes the block cut.
    fn cut_in_call(&mut self, block: &[u8], start: usize, body: usize) -> BlockEnd {
        match self.last_call_end {
            Some(end) if start >= end => BlockEnd::done(start),
            _ => {
                self.calls.push(CallSpan::unclosed(body, block.len()));
                BlockEnd::cut_off(block)
            }
        }
    }
}

impl Scanner for SectionScanner {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        loop {
            let step = match self.phase {
                SectionPhase::Between { from } => {
                    let s = scan::skip_space(block, from);
                    self.phase = SectionPhase::Between { from: s };
                    if s == block.len() {
                        if !eof {
                            return BlockEnd::More;
                        }
                        return self.end_after_calls(block.len(), true);
                    }
                    self.between(block, s, eof)
                }
                SectionPhase::InCall {
                    start,
                    body,
                    from,
                    args,
                } => self.in_call(block, (start, body, from, args), eof),
                SectionPhase::Json {
                    start, body, value, ..
                } => self.json(block, (start, body, value), eof),
                SectionPhase::AfterArgs { start, body, at } => {
                    self.after_args(block, (start, body, at), eof)
                }
            };
            if let Some(end) = step {
                return end;
            }
        }
    }

    fn consumed(&self) -> usize {
        self.head
    }
}

/// One call's body as found by [`split_calls`].
pub struct CallSpan {
    /// Start of the body (after the call-begin token).
    pub body_start: usize,
    /// End of the body (before the call-end token, or where the next token
    /// or the block begins).
    pub body_end: usize,
    /// Where the call's markup ends.
    pub end: usize,
    /// The call had its end token.
    pub closed: bool,
}

impl CallSpan {
    /// A call whose body starts at `body` and that lost its end token: its
    /// body and markup end at `at`.
    fn unclosed(body: usize, at: usize) -> Self {
        CallSpan {
            body_start: body,
            body_end: at,
            end: at,
            closed: false,
        }
    }
}

/// Splits a complete block into its calls, with the scanner's rules (from
/// its first call-begin token on).
pub fn split_calls(block: &[u8], toks: &'static Tokens) -> Vec<CallSpan> {
    let mut at = 0;
    // a block that starts with a call whose tokens before its name were
    // lost (Kimi's `NAME:0<|tool_call_argument_begin|>{…}` at a line start)
    let s = scan::skip_space(block, 0);
    let headless = matches!(implicit_call(&block[s..], toks), Hit::Full(_));
    let first = loop {
        if headless {
            break s;
        }
        let Some(h) = scan::find(block, at, toks.common) else {
            return Vec::new();
        };
        if let Hit::Full(_) = match_any(&block[h..], toks.call_begin) {
            break h;
        }
        if let Hit::Full(n) = match_any(&block[h..], toks.implicit_after) {
            let s = scan::skip_space(block, h + n);
            if let Hit::Full(_) = implicit_call(&block[s..], toks) {
                break s;
            }
        }
        at = h + 1;
    };
    let mut scanner = SectionScanner::new(toks, first);
    scanner.scan(block, true);
    scanner.calls
}

/// What a call-body parser returns for one call.
pub type CallOutcome = Result<ParsedCall, BlockError>;

/// One section format: its tokens, the tokens that open a section and the
/// ones that are markup outside it, and its call-body parser
/// (`call(body, body_offset, cut, repair options)`). Its opener's probe is
/// [`Section::probe`]; it parses blocks with [`parse_section`].
pub struct Section {
    /// The format id.
    pub id: FormatId,
    /// Its tokens.
    pub tokens: &'static Tokens,
    /// The spellings of its section-begin token.
    pub begin: &'static [&'static [u8]],
    /// Its tokens that are markup when met outside a section.
    pub stray: &'static [&'static [u8]],
    /// Parses one call body.
    pub call: fn(&[u8], usize, bool, &RepairOptions) -> CallOutcome,
}

impl Section {
    /// The opener's probe ([`probe_tokens`] with this format's tokens).
    pub fn probe(&'static self, input: &[u8], cx: &ProbeCx) -> Probe {
        probe_tokens(input, cx, self.begin, self.stray, self.tokens, self)
    }
}

impl BlockFormat for Section {
    fn id(&self) -> FormatId {
        self.id
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        let opts = cx.cfg.repair_options();
        parse_section(block, self.tokens, self.id, cx.cut, |b, o, c| {
            (self.call)(b, o, c, &opts)
        })
    }
}

/// Parses a whole section block with `parse_call(body, body_offset, cut)`,
/// where `cut` is true for a call that the end of input cut off.
pub fn parse_section(
    block: &[u8],
    toks: &'static Tokens,
    format: FormatId,
    cut: bool,
    parse_call: impl Fn(&[u8], usize, bool) -> CallOutcome,
) -> BlockResult {
    let spans = split_calls(block, toks);
    let mut r = BlockResult::default();
    if spans.is_empty() {
        if cut {
            return BlockResult::truncated(format, block.len());
        }
        return r;
    }
    let n = spans.len();
    for (k, sp) in spans.into_iter().enumerate() {
        let this_cut = cut && k + 1 == n && !sp.closed;
        match parse_call(&block[sp.body_start..sp.body_end], sp.body_start, this_cut) {
            Ok(mut c) => {
                c.end = sp.end;
                r.calls.push(c);
            }
            Err(e) => r.errors.push(e),
        }
    }
    r
}

/// A block error.
pub fn err(code: &'static str, message: impl Into<String>, offset: usize) -> BlockError {
    BlockError {
        code,
        message: message.into(),
        offset,
        hint: None,
    }
}

/// The error for a call cut off at end of input.
pub fn truncated(format: FormatId, offset: usize) -> BlockError {
    BlockResult::truncated(format, offset)
        .errors
        .pop()
        .unwrap_or_else(|| err("TLP-002", "call cut off", offset))
}

/// Reads a JSON arguments text (an object, or a string holding one). When
/// `cut`, a value that lacks only its closing brackets is closed (reported
/// as a `missing_close` repair at `offset` + its length) and anything else
/// is a truncation error. Empty text is `{}` unless cut.
pub fn json_arguments(
    text: &[u8],
    offset: usize,
    cut: bool,
    format: FormatId,
    opts: &crate::repair::RepairOptions,
) -> Result<(Map<String, Value>, Vec<Repair>), BlockError> {
    let raw = crate::scan::lossy(text);
    let t = raw.trim();
    let lead = raw.len() - raw.trim_start().len();
    if t.is_empty() {
        if cut {
            return Err(truncated(format, offset + text.len()));
        }
        return Ok((Map::new(), Vec::new()));
    }
    let mut repairs = Vec::new();
    let value = if cut {
        match serde_json::from_str::<Value>(t) {
            Ok(v) => v,
            Err(_) => match close_truncated(t) {
                Some((closed, at)) => match serde_json::from_str::<Value>(&closed) {
                    Ok(v) => {
                        repairs.push(Repair {
                            kind: RepairKind::MissingClose,
                            offset: offset + lead + at,
                        });
                        v
                    }
                    Err(_) => return Err(truncated(format, offset + text.len())),
                },
                None => return Err(truncated(format, offset + text.len())),
            },
        }
    } else {
        match crate::call::parse_json(t, opts) {
            Ok((v, reps)) => {
                repairs = reps;
                v
            }
            Err(e) => {
                return Err(err(
                    "TLP-003",
                    format!(
                        "{format} arguments are not valid JSON and could not be repaired: {}",
                        e.message
                    ),
                    offset + lead + e.offset.min(t.len()),
                ))
            }
        }
    };
    match arguments_from(Some(&value)) {
        Ok((m, more)) => {
            repairs.extend(more);
            Ok((m, repairs))
        }
        Err(crate::call::Shape::Broken(code, msg)) => Err(err(code, msg, offset + lead)),
        Err(crate::call::Shape::NotCall) => Err(err(
            "TLP-002",
            format!("{format} arguments are not an object"),
            offset + lead,
        )),
    }
}

/// A text value typed like every XML-style format: JSON objects and arrays
/// are decoded when they parse; integers, floats, `true`, `false` become
/// those values; anything else stays a string.
pub fn typed_value(text: &str) -> Value {
    let t = text.trim();
    if (t.starts_with('{') && t.ends_with('}')) || (t.starts_with('[') && t.ends_with(']')) {
        if let Ok(v) = serde_json::from_str::<Value>(t) {
            return v;
        }
    }
    crate::call::type_text(text)
}

/// The value of attribute `name` (`name="v"` or `name='v'`) in a tag's text.
pub fn attr(tag: &[u8], name: &str) -> Option<String> {
    let t = crate::scan::lossy(tag);
    let mut from = 0;
    while let Some(k) = t[from..].find(name) {
        let at = from + k;
        from = at + name.len();
        let before_ok = at == 0
            || t[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_whitespace() || c == '<' || c == '|' || c == '>');
        if !before_ok {
            continue;
        }
        let rest = t[from..].trim_start();
        let Some(rest) = rest.strip_prefix('=') else {
            continue;
        };
        let rest = rest.trim_start();
        let q = rest.chars().next()?;
        if q == '"' || q == '\'' {
            let body = &rest[1..];
            let end = body.find(q).unwrap_or(body.len());
            return Some(body[..end].to_string());
        }
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '>' || c == '<')
            .unwrap_or(rest.len());
        return Some(rest[..end].to_string());
    }
    None
}

/// `text` with the five XML entities (`&amp;` `&quot;` `&apos;` `&lt;`
/// `&gt;`) decoded; any other `&` stays as written.
pub fn unescape_xml(text: &str) -> String {
    if !text.contains('&') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(k) = rest.find('&') {
        out.push_str(&rest[..k]);
        rest = &rest[k..];
        let entity = [
            ("&amp;", '&'),
            ("&quot;", '"'),
            ("&apos;", '\''),
            ("&lt;", '<'),
            ("&gt;", '>'),
        ]
        .into_iter()
        .find(|(e, _)| rest.starts_with(e));
        match entity {
            Some((e, c)) => {
                out.push(c);
                rest = &rest[e.len()..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_entities() {
        assert_eq!(
            unescape_xml("q&amp;a &quot;x&quot; &amp;lt; & y"),
            "q&a \"x\" &lt; & y"
        );
    }

    #[test]
    fn attributes() {
        assert_eq!(
            attr(br#"<x name="a b" string="true">"#, "name").as_deref(),
            Some("a b")
        );
        assert_eq!(
            attr(br#"<x name="a" string='false'>"#, "string").as_deref(),
            Some("false")
        );
        assert_eq!(attr(br#"<x rename="a">"#, "name"), None);
        assert_eq!(attr(b"<x key=v>", "key").as_deref(), Some("v"));
    }

    #[test]
    fn cut_arguments() {
        let (m, r) = json_arguments(
            br#" {"a": {"b": 1}"#,
            0,
            true,
            crate::formats::ids::HERMES,
            &Default::default(),
        )
        .expect("closed");
        assert_eq!(Value::Object(m), serde_json::json!({"a": {"b": 1}}));
        assert_eq!(r.len(), 1);
        assert!(json_arguments(
            br#"{"a": "x"#,
            0,
            true,
            crate::formats::ids::HERMES,
            &Default::default()
        )
        .is_err());
        let (m, _) = json_arguments(
            br#""{\"q\": 1}""#,
            0,
            false,
            crate::formats::ids::HERMES,
            &Default::default(),
        )
        .expect("string");
        assert_eq!(Value::Object(m), serde_json::json!({"q": 1}));
    }
}

#[cfg(test)]
mod scan_tests {
    use crate::document::{parse, parse_chunked};
    use crate::engine::Config;

    /// Parses `input` in batch and byte by byte: the calls and the text must
    /// agree.
    fn calls(input: &str) -> (Vec<(String, String)>, String) {
        let cfg = Config::default();
        let batch = parse(input.as_bytes(), &cfg);
        let stream = parse_chunked(input.as_bytes().chunks(1), &cfg);
        let get = |c: &crate::document::Collector| {
            let calls = c
                .calls
                .iter()
                .map(|t| (t.name.clone(), t.arguments.to_string()))
                .collect::<Vec<_>>();
            (calls, crate::scan::lossy(&c.text).into_owned())
        };
        assert_eq!(get(&batch), get(&stream), "{input}");
        get(&batch)
    }

    #[test]
    fn tokens_inside_json_strings_are_text() {
        let (c, text) = calls("<|tool_calls_section_begin|><|tool_call_begin|>functions.w:0<|tool_call_argument_begin|>{\"a\": \"x <|tool_call_end|> y\"}<|tool_call_end|><|tool_calls_section_end|>after");
        assert_eq!(
            c,
            vec![("w".into(), r#"{"a":"x <|tool_call_end|> y"}"#.into())]
        );
        assert_eq!(text, "after");
        let (c, _) = calls("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>e\n```json\n{\"t\": \"```json\\n{}\\n``` <｜tool▁sep｜>\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>");
        assert_eq!(
            c,
            vec![(
                "e".into(),
                r#"{"t":"```json\n{}\n``` <｜tool▁sep｜>"}"#.into()
            )]
        );
    }

    #[test]
    fn unclosed_json_falls_back_to_tokens() {
        let (c, text) = calls("<|tool_calls_section_begin|><|tool_call_begin|>functions.w:0<|tool_call_argument_begin|>{\"a\": 1<|tool_call_end|><|tool_calls_section_end|>after");
        assert_eq!(c, vec![("w".into(), r#"{"a":1}"#.into())]);
        assert_eq!(text, "after");
    }

    #[test]
    fn stray_text_before_the_first_call_is_not_content() {
        let (c, text) = calls("Hi <|tool_calls_section_begin|> noise <|tool_call_begin|>functions.t:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>");
        assert_eq!(c.len(), 1);
        assert_eq!(text, "Hi ");
        let (c, text) = calls("a <|tool_calls_section_begin|> b\nc");
        assert!(c.is_empty());
        assert_eq!(text, "a  b\nc");
    }
}

#[cfg(test)]
mod linear_tests {
    use crate::document::parse_chunked;
    use crate::engine::Config;

    /// Big blocks of every special-token format, fed one byte at a time,
    /// must still parse in linear time (a quadratic rescan would take
    /// minutes here).
    #[test]
    fn big_blocks_byte_by_byte() {
        let big = "x".repeat(200_000);
        let cases = [
            format!("[TOOL_CALLS]f[ARGS]{{\"a\": \"{big}\"}}"),
            format!("[TOOL_CALLS][{{\"name\": \"f\", \"arguments\": {{\"a\": \"{big}\"}}}}]"),
            format!("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{{\"a\": \"{big}\"}}<｜tool▁call▁end｜><｜tool▁calls▁end｜>"),
            format!("<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{{\"a\": \"{big}\"}}<|tool_call_end|><|tool_calls_section_end|>"),
            format!("<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"f\"><steptml:parameter name=\"a\">{big}</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>"),
            format!("<｜DSML｜function_calls><｜DSML｜invoke name=\"f\"><｜DSML｜parameter name=\"a\" string=\"true\">{big}</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls>"),
            format!("<|open|>tools<|sep|><|open|>call tool=\"f\"<|sep|><|open|>argument key=\"a\" type=\"string\"<|sep|>{big}<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>"),
            format!("<|channel|>commentary to=functions.f <|constrain|>json<|message|>{{\"a\": \"{big}\"}}<|call|>"),
            format!("<|channel|>analysis to=python<|message|>{big}<|call|>"),
        ];
        let cfg = Config::default();
        for c in &cases {
            let bytes = c.as_bytes();
            let got = parse_chunked(bytes.chunks(1), &cfg);
            assert_eq!(got.calls.len(), 1, "{}", &c[..40]);
            let want = if c.contains("to=python") {
                "python"
            } else {
                "f"
            };
            assert_eq!(got.calls[0].name, want);
        }
    }
}
