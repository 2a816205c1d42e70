//! XML-style parameters: the `<function=NAME><parameter=K>V</parameter>
//! </function>` body (Qwen3-Coder, Seed-OSS and their relatives) and the
//! typing of text values written between tags.

use crate::call::{strip_value_framing, type_text, ParsedCall};
use crate::formats::{BlockResult, FormatId, ParseCx};
use crate::scan::{self, Prefix};
use serde_json::{Map, Value};

/// The closing tag of a function.
pub const FN_CLOSE: &[u8] = b"</function>";
/// The closing tag of the `<tool_call>` around it.
pub const TC_CLOSE: &[u8] = b"</tool_call>";

/// The opening of a parameter.
pub const PARAM_OPEN: &[u8] = b"<parameter=";
/// The closing tag of a parameter.
pub const PARAM_CLOSE: &[u8] = b"</parameter>";

/// Parses the first `<function=NAME>` … in `block` (shared with `seed-oss`).
pub fn parse_function(block: &[u8], format: FormatId, cx: &ParseCx) -> BlockResult {
    let fn_at = scan::find(block, 0, b"<function");
    let mut repairs = Vec::new();
    // `<parameter=NAME>` where `<function=NAME>` belongs, before any `<function`
    let misnamed = next_param(block, 0)
        .filter(|&p| fn_at.is_none_or(|f| p < f))
        .and_then(|p| match param_as_function(block, p, true) {
            NameTag::Found { key, body } => Some((p, key, body)),
            _ => None,
        });
    let (name, body) = if let Some((p, key, body)) = misnamed {
        repairs.push(crate::repair::Repair {
            kind: crate::repair::RepairKind::DamagedKey,
            offset: p,
        });
        (read_name(&block[key.0..key.1]), body)
    } else {
        let Some(fpos) = fn_at else {
            return BlockResult::error("TLP-001", "no <function=NAME> in the call", 0);
        };
        let Some((name_end, body)) = function_name_end(block, fpos) else {
            return BlockResult::truncated(format, block.len());
        };
        let name = read_name(&block[fpos + 9..name_end]);
        if name.is_empty() {
            return BlockResult::error("TLP-001", "function name missing", fpos);
        }
        (name, body)
    };
    let mut stray = None;
    let mut unclosed = None;
    let (mut args, complete, end) =
        parse_parameters_noting(&block[body..], &mut stray, &mut unclosed);
    // a value whose `</parameter>` is missing or misspelt
    if let Some(at) = unclosed {
        repairs.push(crate::repair::Repair {
            kind: crate::repair::RepairKind::MissingClose,
            offset: body + at,
        });
    }
    // a JSON object instead of parameters (`<function=f>{"q": 1}</function>`)
    if let (true, Some(tag)) = (args.is_empty(), end) {
        if let Some((m, after)) = super::json::json_body(&block[body..], 0) {
            if after == tag.at() {
                args = m;
                stray = None;
            }
        }
    }
    // text that is not a parameter is left out, and said so
    if let (Some(at), Some(_)) = (stray, end) {
        repairs.push(crate::repair::Repair {
            kind: crate::repair::RepairKind::SurroundingProse,
            offset: body + at,
        });
    }
    let closed = end.is_some();
    if cx.cut && !closed && !complete {
        // the model stopped after its last value and wrote none of the
        // closing tags: a call, unless the output was cut at the token
        // limit or that value is itself cut short
        if cx.cfg.truncated || args.is_empty() || !whole_last_value(&block[body..]) {
            return BlockResult::truncated(format, block.len());
        }
        repairs.push(crate::repair::Repair {
            kind: crate::repair::RepairKind::MissingClose,
            offset: block.len(),
        });
    }
    BlockResult::one(ParsedCall {
        repairs,
        end: block.len(),
        ..ParsedCall::new(name, args, format)
    })
}

/// True when the last parameter of a body that ends without its closing
/// tags holds a whole value: its tag is complete, the value is not blank,
/// does not end in part of a closing tag (`hello</param`), and is not a
/// JSON object, array or string left open; and the value ended its line
/// (the template writes a line break after each value) or the parameter
/// before it was left unclosed too (a model that writes no closing tags).
/// A value that stops mid-line after closed parameters was cut off.
fn whole_last_value(body: &[u8]) -> bool {
    let Some(p) = memchr::memmem::rfind(body, b"<parameter") else {
        return false;
    };
    let Some(k) = key_end(body, p) else {
        return false;
    };
    if body[k] != b'>' {
        return false;
    }
    let raw = &body[k + 1..];
    let value = scan::trim(raw);
    if value.is_empty() {
        return false;
    }
    let ended_line = raw.ends_with(b"\n");
    let style_unclosed = memchr::memmem::rfind(&body[..p], b"<parameter")
        .is_some_and(|q| scan::find(&body[..p], q, b"</parameter").is_none());
    if !ended_line && !style_unclosed {
        return false;
    }
    if let Some(lt) = memchr::memrchr(b'<', value) {
        let tail = &value[lt..];
        if [PARAM_CLOSE, FN_CLOSE, TC_CLOSE]
            .iter()
            .any(|c| tail.len() < c.len() && c.starts_with(tail))
        {
            return false;
        }
    }
    match value[0] {
        b'"' => value.len() >= 2 && value.ends_with(b"\""),
        b'{' | b'[' => {
            use crate::scan::balance::{End, JsonEnd};
            matches!(JsonEnd::new().scan(value), End::At(n) if n == value.len())
        }
        _ => true,
    }
}

/// Where the name of the `<function` at `fpos` ends and the body starts:
/// at its `>`, or, when the `>` was left out, at the line break or the
/// next tag (`<function=read_file\n<parameter=path>`, as a parameter key
/// without its `>` is read). `None` while none has come.
pub fn function_name_end(block: &[u8], fpos: usize) -> Option<(usize, usize)> {
    let from = (fpos + 9).min(block.len());
    let k = from
        + block[from..]
            .iter()
            .position(|&c| matches!(c, b'>' | b'\n' | b'<'))?;
    Some((k, if block[k] == b'>' { k + 1 } else { k }))
}

/// What a parameter tag at the start of a call is (see [`param_as_function`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameTag {
    /// The tag names the function: its key spans `key`, the body starts at
    /// `body`.
    Found {
        /// Where the key starts and ends.
        key: (usize, usize),
        /// Where the function's body starts (after the tag's `>`).
        body: usize,
    },
    /// Not a function name.
    No,
    /// The data ends before it can tell.
    More,
}

/// A call's name written in a parameter tag where `<function=NAME>`
/// belongs (`<tool_call>\n<parameter=bash>\n<parameter=command>…</function>`,
/// as Qwen3.x sometimes writes it): the tag at `at` holds a name-like key
/// closed by `>` and is followed, after blanks, by another parameter tag or
/// `</function>`, never by a value. A parameter with a value is a parameter.
pub fn param_as_function(b: &[u8], at: usize, eof: bool) -> NameTag {
    let more = if eof { NameTag::No } else { NameTag::More };
    let Some(ks) = param_key_start(b, at) else {
        return if b.len() < at + PARAM_TAG_REACH {
            more
        } else {
            NameTag::No
        };
    };
    let Some(ke) = key_end(b, at) else {
        return if b.len() - ks < 128 {
            more
        } else {
            NameTag::No
        };
    };
    if b[ke] != b'>' {
        return NameTag::No;
    }
    let name = read_name(&b[ks..ke]);
    let name_like = !name.is_empty()
        && name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b':'));
    if !name_like {
        return NameTag::No;
    }
    let rest = &b[scan::skip_space(b, ke + 1)..];
    let mut partial = false;
    match scan::prefix(rest, b"<parameter") {
        Prefix::Full if param_key_start(rest, 0).is_some() => {
            return NameTag::Found {
                key: (ks, ke),
                body: ke + 1,
            }
        }
        Prefix::Full => partial = rest.len() < PARAM_TAG_REACH,
        Prefix::Partial => partial = true,
        Prefix::No => {}
    }
    match scan::prefix(rest, FN_CLOSE) {
        Prefix::Full => NameTag::Found {
            key: (ks, ke),
            body: ke + 1,
        },
        Prefix::Partial => more,
        Prefix::No if partial => more,
        Prefix::No => NameTag::No,
    }
}

/// `=NAME`, `="NAME"`, ` name="NAME"`: the name with quotes and spaces removed.
pub fn read_name(raw: &[u8]) -> String {
    let s = crate::scan::lossy(raw);
    let s = s.trim();
    let s = s.strip_prefix("name").map(str::trim_start).unwrap_or(s);
    let s = s.strip_prefix('=').unwrap_or(s).trim();
    s.trim_matches(|c| c == '"' || c == '\'').trim().to_string()
}

/// A structural tag met outside parameter values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tag {
    /// `<parameter=` at this offset.
    Param(usize),
    /// `</function>` at this offset.
    FunctionClose(usize),
    /// `</tool_call>` at this offset.
    ToolCallClose(usize),
}

impl Tag {
    /// Where the tag starts.
    pub fn at(self) -> usize {
        match self {
            Tag::Param(k) | Tag::FunctionClose(k) | Tag::ToolCallClose(k) => k,
        }
    }
}

/// The first of a parameter tag (see [`param_key_start`]), `</function>`
/// and `</tool_call>` (any case) at or after `from`.
///
/// Walks the `<` from `from` and stops at the first that opens a tag, so
/// a call costs the bytes up to that tag, not the rest of the block (three
/// independent searches would each run to the end when one tag is far or
/// absent, and a body of many parameters would cost quadratic time).
pub fn next_tag(b: &[u8], from: usize) -> Option<Tag> {
    let mut i = from;
    while i < b.len() {
        let k = i + memchr::memchr(b'<', &b[i..])?;
        if let Some(t) = tag_at(b, k) {
            return Some(t);
        }
        i = k + 1;
    }
    None
}

/// The tag that starts at `k` (a `<`), if one does.
fn tag_at(b: &[u8], k: usize) -> Option<Tag> {
    let rest = &b[k..];
    if rest.starts_with(b"<parameter") {
        return param_key_start(b, k).map(|_| Tag::Param(k));
    }
    if rest.starts_with(FN_CLOSE) {
        return Some(Tag::FunctionClose(k));
    }
    (scan::prefix_ci(rest, TC_CLOSE) == Prefix::Full).then_some(Tag::ToolCallClose(k))
}

/// The longest stretch of bytes a parameter tag needs before its key
/// starts (`<parameter  name  =  "`): how far back a search resumes when
/// the data may have ended inside one.
pub const PARAM_TAG_REACH: usize = 28;

/// The first parameter tag at or after `from`.
pub fn next_param(b: &[u8], mut from: usize) -> Option<usize> {
    while let Some(k) = scan::find(b, from, b"<parameter") {
        if param_key_start(b, k).is_some() {
            return Some(k);
        }
        from = k + 1;
    }
    None
}

/// Where the key of a parameter tag at `at` starts, when `b[at..]` is one:
/// the template's `<parameter=KEY>`, and the spellings other engines accept
/// and models write, `<parameter = KEY>`, `<parameter name="KEY">` (or with
/// single quotes, or spaces around `=`). Bounded: a few blanks at most.
pub fn param_key_start(b: &[u8], at: usize) -> Option<usize> {
    let blanks = |i: usize| {
        let mut j = i;
        while j < b.len() && j < i + 4 && matches!(b[j], b' ' | b'\t') {
            j += 1;
        }
        j
    };
    let after = at + b"<parameter".len();
    match b.get(after)? {
        b'=' => return Some(after + 1),
        b' ' | b'\t' => {}
        _ => return None,
    }
    let s = blanks(after);
    let s = match b.get(s..)? {
        [b'=', ..] => s,
        [b'n', b'a', b'm', b'e', ..] => {
            let e = blanks(s + 4);
            (b.get(e) == Some(&b'=')).then_some(e)?
        }
        _ => return None,
    };
    Some(blanks(s + 1))
}

/// Where the key of the parameter tag that starts at `at` ends: at `>`,
/// at `=` in the malformed `<parameter=k=v` shape, or at a newline
/// (`None`: not seen yet). The value starts right after.
pub fn key_end(b: &[u8], at: usize) -> Option<usize> {
    let from = param_key_start(b, at)
        .unwrap_or(at + PARAM_OPEN.len())
        .min(b.len());
    match quoted_key_tag(b, from) {
        Quoted::End(gt) => return Some(gt),
        Quoted::More => return None,
        Quoted::No => {}
    }
    let k = b[from..]
        .iter()
        .position(|&c| c == b'>' || c == b'=' || c == b'\n')?;
    Some(from + k)
}

/// What a quoted key's tag looks like so far ([`quoted_key_tag`]).
enum Quoted {
    /// The tag is a quoted key, then attributes, and its `>` is here.
    End(usize),
    /// Not decided yet: the data ends inside the tag.
    More,
    /// Not a quoted key followed by attributes: the plain rule applies.
    No,
}

/// The longest run of attributes after a quoted key that is read.
const ATTRS_REACH: usize = 256;

/// A key written quoted and followed by attributes before the tag's `>`,
/// `<parameter name="path" string="true">` (DeepSeek's DSML attribute,
/// written by Doubao Seed inside `<seed:tool_call>`): where the `>` is.
/// The attributes are dropped; only `name` is read. A tag that does not
/// fit (no closing quote on the line, a `<` or a newline before the `>`,
/// bytes that are no attribute) is left to the plain rule.
fn quoted_key_tag(b: &[u8], from: usize) -> Quoted {
    let Some(&q @ (b'"' | b'\'')) = b.get(from) else {
        return if from >= b.len() {
            Quoted::More
        } else {
            Quoted::No
        };
    };
    let reach = (from + 1 + ATTRS_REACH).min(b.len());
    let close = match b[from + 1..reach]
        .iter()
        .position(|&c| c == q || matches!(c, b'\n' | b'<' | b'>'))
    {
        Some(k) if b[from + 1 + k] == q => from + 1 + k,
        Some(_) => return Quoted::No,
        None if reach == b.len() => return Quoted::More,
        None => return Quoted::No,
    };
    // after the key: blanks, then `>`, or `ident="v"` attributes
    let mut i = close + 1;
    let limit = (close + ATTRS_REACH).min(b.len());
    let mut attrs = 0;
    loop {
        let s = scan::skip_blank(b, i).min(limit);
        if s >= limit {
            return if limit == b.len() {
                Quoted::More
            } else {
                Quoted::No
            };
        }
        match b[s] {
            // a key with no attribute after it is the plain rule's too
            b'>' if attrs > 0 => return Quoted::End(s),
            b'>' => return Quoted::No,
            c if c.is_ascii_alphabetic() && s > i => {
                let mut j = s;
                while j < limit && (b[j].is_ascii_alphanumeric() || matches!(b[j], b'_' | b'-')) {
                    j += 1;
                }
                let j = scan::skip_blank(b, j).min(limit);
                if j >= limit {
                    return if limit == b.len() {
                        Quoted::More
                    } else {
                        Quoted::No
                    };
                }
                if b[j] != b'=' {
                    return Quoted::No;
                }
                let v = scan::skip_blank(b, j + 1).min(limit);
                if v >= limit {
                    return if limit == b.len() {
                        Quoted::More
                    } else {
                        Quoted::No
                    };
                }
                let vq = b[v];
                if !matches!(vq, b'"' | b'\'') {
                    return Quoted::No;
                }
                match b[v + 1..limit]
                    .iter()
                    .position(|&c| c == vq || matches!(c, b'\n' | b'<' | b'>'))
                {
                    Some(e) if b[v + 1 + e] == vq => i = v + 2 + e,
                    Some(_) => return Quoted::No,
                    None if limit == b.len() => return Quoted::More,
                    None => return Quoted::No,
                }
                attrs += 1;
            }
            _ => return Quoted::No,
        }
    }
}

/// The key of the parameter tag at `at` whose key ends at `end`
/// ([`key_end`]), without blanks and quotes (and without the attributes
/// after a quoted key).
pub fn param_key(b: &[u8], at: usize, end: usize) -> String {
    let from = param_key_start(b, at)
        .unwrap_or(at + PARAM_OPEN.len())
        .min(end);
    if let [q @ (b'"' | b'\''), rest @ ..] = &b[from..end] {
        if let Some(k) = rest.iter().position(|c| c == q) {
            return crate::scan::lossy(&rest[..k]).trim().to_string();
        }
    }
    crate::scan::lossy(&b[from..end])
        .trim()
        .trim_matches(|c| c == '"' || c == '\'')
        .trim()
        .to_string()
}

/// How a parameter value ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueEnd {
    /// `</parameter>` at `at` closes it.
    Closed {
        /// Where the closing tag starts.
        at: usize,
    },
    /// It was never closed: the next parameter or the end of the function
    /// begins at `at`, at the start of a line.
    Unclosed {
        /// Where the value's text ends.
        at: usize,
    },
    /// Not known yet: the search may resume at `search`.
    More {
        /// Where to resume.
        search: usize,
    },
}

/// True when the blanks before `k` (back to `floor`) start a line.
fn starts_line(b: &[u8], floor: usize, k: usize) -> bool {
    let mut i = k;
    while i > floor && matches!(b[i - 1], b' ' | b'\t') {
        i -= 1;
    }
    i == floor || b[i - 1] == b'\n'
}

/// True when `rest` (after a `</parameter>` and blanks) begins with what
/// the template writes after a value: the next parameter, the end of the
/// function or of the call. `None`: a prefix of one, cannot tell yet.
fn boundary(rest: &[u8], eof: bool) -> Option<bool> {
    let mut partial = false;
    match scan::prefix(rest, b"<parameter") {
        Prefix::Full if param_key_start(rest, 0).is_some() => return Some(true),
        Prefix::Full if rest.len() < PARAM_TAG_REACH => partial = true,
        Prefix::Partial => partial = true,
        _ => {}
    }
    for lit in [FN_CLOSE] {
        match scan::prefix(rest, lit) {
            Prefix::Full => return Some(true),
            Prefix::Partial => partial = true,
            Prefix::No => {}
        }
    }
    match scan::prefix_ci(rest, TC_CLOSE) {
        Prefix::Full => return Some(true),
        Prefix::Partial => partial = true,
        Prefix::No => {}
    }
    if partial && !eof {
        None
    } else {
        Some(false)
    }
}

/// Where a parameter value that starts at `from` ends, the bytes before
/// `search` already ruled out. The template writes
/// `<parameter=K>\nV\n</parameter>\n` and never escapes `V`, so a value may
/// hold every marker: it ends at the first `</parameter>` followed (after
/// blanks) by the next parameter, `</function>`, `</tool_call>` or the end
/// of input. A value never closed ends where a line starts with
/// `<parameter=`, `</function>` or `</tool_call>`. At the end of input with
/// neither, the first `</parameter>` closes it; without one, it is open.
///
/// A tag that would end a value never closed is first checked for a quote
/// ([`nested_close`]): a value that holds the format's own tags in pairs
/// (a file that is a parser's fixture, a call written as an example) ends
/// at the first `</parameter>` outside those pairs followed by a boundary.
pub fn value_end(b: &[u8], from: usize, search: usize, eof: bool) -> ValueEnd {
    value_end_nesting(b, from, search, &mut None, eof)
}

/// [`value_end`] for a scan fed in pieces: `nest` keeps the state of a
/// [`nested_close`] search between calls, so each byte is read once.
pub fn value_end_nesting(
    b: &[u8],
    from: usize,
    search: usize,
    nest: &mut Option<Nest>,
    eof: bool,
) -> ValueEnd {
    if let Some(n) = nest.as_mut() {
        return match nested_close(b, from, n, eof) {
            Nested::Closed(at) => ValueEnd::Closed { at },
            Nested::Plain => ValueEnd::Unclosed { at: n.brk },
            Nested::More => ValueEnd::More { search },
        };
    }
    let mut at = search.max(from);
    loop {
        // the first `</parameter>` or value-ending tag, whichever comes
        // first: searching for the close alone would read to the end of
        // the block for each value when there is none (quadratic)
        let c = match close_or_break(b, from, at) {
            Some(Ok(c)) => c,
            Some(Err(k)) => {
                let mut n = Nest::new(from, k);
                return match nested_close(b, from, &mut n, eof) {
                    Nested::Closed(at) => ValueEnd::Closed { at },
                    Nested::Plain => ValueEnd::Unclosed { at: k },
                    Nested::More => {
                        *nest = Some(n);
                        ValueEnd::More { search: k }
                    }
                };
            }
            None => break,
        };
        let after = scan::skip_space(b, c + PARAM_CLOSE.len());
        if after == b.len() {
            if eof {
                return ValueEnd::Closed { at: c };
            }
            return ValueEnd::More { search: c };
        }
        match boundary(&b[after..], eof) {
            Some(true) => return ValueEnd::Closed { at: c },
            Some(false) => at = c + 1,
            None => return ValueEnd::More { search: c },
        }
    }
    if !eof {
        // a tag may straddle the end: look again from a little before it
        let back = PARAM_CLOSE.len().max(PARAM_TAG_REACH) + 1;
        return ValueEnd::More {
            search: b.len().saturating_sub(back).max(at.min(b.len())),
        };
    }
    match scan::find(b, from, PARAM_CLOSE) {
        Some(c) => ValueEnd::Closed { at: c },
        // never closed: the closing tag of the function or of the call ends
        // it, even inside a line (`<parameter=cmd>pwd</tool_call>`)
        None => {
            let f = scan::find(b, from, FN_CLOSE);
            let t = scan::find_ci(b, from, TC_CLOSE);
            let at = f.into_iter().chain(t).min().unwrap_or(b.len());
            ValueEnd::Unclosed { at }
        }
    }
}

/// The state of a [`nested_close`] search: where it has read to, the tags
/// opened inside the value and not yet closed (two bits each, innermost in
/// the low bits) and the tag that would end the value if it quotes none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nest {
    pos: usize,
    stack: u64,
    depth: u32,
    brk: usize,
}

impl Nest {
    fn new(from: usize, brk: usize) -> Self {
        Nest {
            pos: from,
            stack: 0,
            depth: 0,
            brk,
        }
    }

    fn push(&mut self, kind: u64) {
        self.stack = (self.stack << 2) | kind;
        self.depth += 1;
    }

    /// Closes the innermost tag when it is `kind`; false otherwise.
    fn pop(&mut self, kind: u64) -> bool {
        if self.depth == 0 || self.stack & 3 != kind {
            return false;
        }
        self.stack >>= 2;
        self.depth -= 1;
        true
    }
}

/// What a [`nested_close`] search found.
enum Nested {
    /// The value quotes tags in pairs and its own `</parameter>` is at this
    /// offset.
    Closed(usize),
    /// It does not: the value was left unclosed, as read before.
    Plain,
    /// The data ends before it can tell.
    More,
}

/// How deep quoted tags may nest before a value is taken as unclosed.
const NEST_LIMIT: u32 = 30;

/// Whether the value that starts at `from`, which a tag would end as
/// unclosed, holds the format's tags as text: `<tool_call>`, `<function=`
/// and parameter tags opened inside it are closed by their own closing
/// tags, in order, and a `</parameter>` outside them followed by a boundary
/// ([`boundary`]) closes the value (`content` in
/// `<parameter=content>\ndoc = """\n<parameter=path>\nx\n</parameter>\n"""\n</parameter>\n</function>`).
/// A closing tag that closes none of them, or the end of the function or
/// the data first, means the value was simply left unclosed
/// (`<parameter=city>\nDallas\n<parameter=state>\nTX\n</parameter>`).
fn nested_close(b: &[u8], from: usize, n: &mut Nest, eof: bool) -> Nested {
    const TOOL_CALL: u64 = 1;
    const FUNCTION: u64 = 2;
    const PARAM: u64 = 3;
    let mut i = n.pos.max(from);
    while let Some(off) = memchr::memchr(b'<', &b[i.min(b.len())..]) {
        let k = i + off;
        let rest = &b[k..];
        // a tag may be cut by the end of the data
        if !eof && rest.len() < PARAM_TAG_REACH + TC_CLOSE.len() {
            n.pos = k;
            return Nested::More;
        }
        let closes = |tag: &[u8]| {
            if tag == TC_CLOSE {
                scan::prefix_ci(rest, tag) == Prefix::Full
            } else {
                rest.starts_with(tag)
            }
        };
        if closes(PARAM_CLOSE) {
            if n.depth == 0 {
                let after = scan::skip_space(b, k + PARAM_CLOSE.len());
                let ends = if after == b.len() {
                    eof.then_some(true)
                } else {
                    boundary(&b[after..], eof)
                };
                match ends {
                    Some(true) => return Nested::Closed(k),
                    Some(false) => {}
                    None => {
                        n.pos = k;
                        return Nested::More;
                    }
                }
            } else if !n.pop(PARAM) {
                return Nested::Plain;
            }
            i = k + PARAM_CLOSE.len();
            continue;
        }
        if let Some((tag, kind)) = [(FN_CLOSE, FUNCTION), (TC_CLOSE, TOOL_CALL)]
            .into_iter()
            .find(|&(tag, _)| closes(tag))
        {
            if !n.pop(kind) {
                return Nested::Plain;
            }
            i = k + tag.len();
            continue;
        }
        if scan::prefix_ci(rest, b"<tool_call>") == Prefix::Full {
            n.push(TOOL_CALL);
        } else if rest.starts_with(b"<function=") {
            n.push(FUNCTION);
        } else if rest.starts_with(b"<parameter") && param_key_start(b, k).is_some() {
            n.push(PARAM);
        }
        if n.depth > NEST_LIMIT {
            return Nested::Plain;
        }
        i = k + 1;
    }
    n.pos = b.len();
    if eof {
        Nested::Plain
    } else {
        Nested::More
    }
}

/// From `at`, the first `</parameter>` (`Ok`) or tag that ends the value
/// begun at `from` ([`breaks_value`], `Err`), whichever comes
/// first; `None` when neither is left.
fn close_or_break(b: &[u8], from: usize, at: usize) -> Option<Result<usize, usize>> {
    let mut i = at;
    while i < b.len() {
        let k = i + memchr::memchr(b'<', &b[i..])?;
        if b[k..].starts_with(PARAM_CLOSE) {
            return Some(Ok(k));
        }
        if let Some(t) = tag_at(b, k) {
            if k > from && breaks_value(b, from, t) {
                return Some(Err(k));
            }
        }
        i = k + 1;
    }
    None
}

/// How far into a value written on one line a parameter tag is taken for
/// the next parameter (inline values are short: `Dallas`, `42`).
const INLINE_VALUE_REACH: usize = 4096;

/// True when tag `t` (after `from`) ends a value begun at `from` which
/// was not closed before it: `</function>` or `</tool_call>` at the
/// start of a line; a parameter tag after some of the value's text, at
/// the start of a line, or inside the value's first line when the value
/// began on the tag's line (`<parameter=a>x<parameter=b>y</parameter>`, as
/// MiMo and Step-3.5 write them). A parameter tag with only blanks before
/// it (`<parameter=v>\n<parameter=x>\n</parameter>`), or mentioned inside a
/// value written on lines of its own, is the value's text.
fn breaks_value(b: &[u8], from: usize, t: Tag) -> bool {
    let k = t.at();
    match t {
        Tag::Param(_) => {
            !blank_back_to(b, from, k)
                && (starts_line(b, from, k)
                    || (k - from <= INLINE_VALUE_REACH
                        && memchr::memchr(b'\n', &b[from..k]).is_none()))
        }
        Tag::FunctionClose(_) | Tag::ToolCallClose(_) => starts_line(b, from, k),
    }
}

/// True when only blanks (new lines too) lie between `from` and `k`;
/// looks back from `k`, so it costs the blank run before `k` only.
fn blank_back_to(b: &[u8], from: usize, k: usize) -> bool {
    let mut i = k;
    while i > from && scan::is_space(b[i - 1]) {
        i -= 1;
    }
    i == from
}

/// Reads the parameters of a function body (the bytes after
/// `<function=NAME>`). Returns them and whether the body looks complete
/// (its last parameter was closed, or it has none).
#[cfg(test)]
pub fn parse_parameters(body: &[u8]) -> (Map<String, Value>, bool) {
    let (args, complete, _) = parse_parameters_until_end(body);
    (args, complete)
}

/// Where the function whose `<function` tag starts at `fpos` ends: right
/// after its `</function>`, found outside parameter values (`None`: the
/// function is not closed so).
pub fn function_end(block: &[u8], fpos: usize) -> Option<usize> {
    let (_, body) = function_name_end(block, fpos)?;
    match parse_parameters_until_end(&block[body..]).2 {
        Some(Tag::FunctionClose(k)) => Some(body + k + FN_CLOSE.len()),
        _ => None,
    }
}

/// [`parse_parameters`], also giving the tag that ended the body
/// (`</function>` or `</tool_call>`).
fn parse_parameters_until_end(body: &[u8]) -> (Map<String, Value>, bool, Option<Tag>) {
    parse_parameters_noting(body, &mut None, &mut None)
}

/// [`parse_parameters_until_end`], also noting in `stray` where the first
/// text outside parameters begins (`<function=f>\nJUNK\n</function>`), and
/// in `unclosed` where the first value that was not closed by its
/// `</parameter>` ends.
fn parse_parameters_noting(
    body: &[u8],
    stray: &mut Option<usize>,
    unclosed: &mut Option<usize>,
) -> (Map<String, Value>, bool, Option<Tag>) {
    let mut args = Map::new();
    let mut i = 0;
    let mut complete = true;
    loop {
        let Some(tag) = next_tag(body, i) else {
            return (args, complete, None);
        };
        if stray.is_none() && !scan::trim(&body[i.min(tag.at())..tag.at()]).is_empty() {
            *stray = Some(scan::skip_space(body, i));
        }
        let p = match tag {
            Tag::FunctionClose(_) | Tag::ToolCallClose(_) => return (args, complete, Some(tag)),
            Tag::Param(p) => p,
        };
        let Some(k) = key_end(body, p) else {
            return (args, false, None);
        };
        let key = param_key(body, p, k);
        let declared = declares_string(&body[p..k]);
        let from = k + 1;
        let mut from = from;
        let (value_to, resume) = match value_end(body, from, from, true) {
            ValueEnd::Closed { at } => {
                complete = true;
                (at, at + PARAM_CLOSE.len())
            }
            ValueEnd::Unclosed { at } | ValueEnd::More { search: at } => {
                complete = false;
                // `</parameter` that lost its `>`, or drifted into a
                // longer name (`</parameter1>`), still closes the value
                let cut = memchr::memmem::rfind(&body[from..at], b"</parameter")
                    .map(|k| from + k)
                    .filter(|&k| is_drifted_close_tail(&body[k + 11..at]));
                if unclosed.is_none() && at < body.len() {
                    *unclosed = Some(cut.unwrap_or(at));
                }
                // with no closing tag the blanks around the value are
                // framing: those after the tag on its line (`<parameter=k> v`)
                // and those before the next tag or the end
                let mut to = cut.unwrap_or(at);
                let lead = scan::skip_blank(body, from);
                if lead < to && !matches!(body[lead], b'\n' | b'\r') {
                    from = lead;
                }
                while to > from && body[to - 1].is_ascii_whitespace() {
                    to -= 1;
                }
                (to, at)
            }
        };
        if complete && scan::trim(&body[from..value_to]).is_empty() {
            // empty tag followed by the value: `<parameter=k></parameter>\nvalue`
            let tail_end = next_tag(body, resume).map_or(body.len(), Tag::at);
            if !scan::trim(&body[resume..tail_end]).is_empty() {
                insert(&mut args, key, &body[resume..tail_end], declared);
                i = tail_end;
                continue;
            }
        }
        insert(&mut args, key, &body[from..value_to], declared);
        i = resume;
    }
}

/// True when what follows a `</parameter` before the next tag is blank,
/// or a short drift of the tag's name (`1>`, `_function>`) then blanks.
fn is_drifted_close_tail(rest: &[u8]) -> bool {
    let tail = match memchr::memchr(b'>', rest) {
        Some(g) if g <= 24 && !rest[..g].iter().any(|&c| matches!(c, b'<' | b'\n')) => {
            &rest[g + 1..]
        }
        _ => rest,
    };
    scan::trim(tail).is_empty()
}

/// Whether a parameter tag (from `<parameter` to its `>`) declares its
/// value a string with DSML's `string="true"` attribute after a quoted
/// name ([`quoted_key_tag`]).
fn declares_string(tag: &[u8]) -> bool {
    let Some(q) = tag.iter().position(|&c| matches!(c, b'"' | b'\'')) else {
        return false;
    };
    let Some(close) = tag[q + 1..].iter().position(|&c| c == tag[q]) else {
        return false;
    };
    let attrs = &tag[q + 2 + close..];
    [&b"string=\"true\""[..], b"string='true'"]
        .iter()
        .any(|a| memchr::memmem::find(attrs, a).is_some())
}

fn insert(args: &mut Map<String, Value>, key: String, raw: &[u8], declared: bool) {
    if key.is_empty() {
        return;
    }
    let text = crate::scan::lossy(raw);
    let v = strip_value_framing(&text);
    let value = if declared {
        Value::String(v.into_owned())
    } else {
        decode_value(&v)
    };
    args.insert(key, value);
}

/// JSON objects and arrays are decoded when they parse; the rest is typed text.
pub fn decode_value(text: &str) -> Value {
    let t = text.trim();
    if (t.starts_with('{') && t.ends_with('}')) || (t.starts_with('[') && t.ends_with(']')) {
        if let Ok(v) = serde_json::from_str::<Value>(t) {
            return v;
        }
    }
    type_text(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn params(s: &str) -> Value {
        Value::Object(parse_parameters(s.as_bytes()).0)
    }

    #[test]
    fn standard_parameters() {
        assert_eq!(
            params(
                "\n<parameter=path>\nsrc/main.rs\n</parameter>\n<parameter=n>\n3\n</parameter>\n"
            ),
            json!({"path": "src/main.rs", "n": 3})
        );
    }

    #[test]
    fn missing_close_ends_at_next_parameter() {
        assert_eq!(
            params("<parameter=a>\nx\n<parameter=b>\ny\n</parameter>"),
            json!({"a": "x", "b": "y"})
        );
    }

    #[test]
    fn malformed_key_equals_value() {
        assert_eq!(
            params("<parameter=city=Paris</parameter>"),
            json!({"city": "Paris"})
        );
    }

    #[test]
    fn quoted_key_then_attributes() {
        // Doubao Seed's DSML-style tags inside `<seed:tool_call>`
        assert_eq!(
            params("<parameter name=\"action\" string=\"true\">run</parameter>\n<parameter name='n' string='false'>3</parameter>"),
            json!({"action": "run", "n": 3})
        );
        // a value declared a string stays one
        assert_eq!(
            params("<parameter name=\"code\" string=\"true\">007</parameter><parameter name=\"n\" string=\"true\">7</parameter>"),
            json!({"code": "007", "n": "7"})
        );
        // blanks around `=`, and several attributes
        assert_eq!(
            params("<parameter name = \"cmd\" string = \"true\" lang=\"sh\">ls</parameter>"),
            json!({"cmd": "ls"})
        );
        // what is no attribute is left to the plain rule (the key ends
        // at `>`), and the key is still what the quotes hold
        assert_eq!(
            params("<parameter name=\"a\" b>x</parameter>"),
            json!({"a": "x"})
        );
        // an attribute run still open at the end is not decided yet
        let open = b"<parameter name=\"a\" string=\"tr";
        assert_eq!(key_end(open, 0), None);
        let whole = b"<parameter name=\"a\" string=\"true\">v";
        assert_eq!(key_end(whole, 0), Some(whole.len() - 2));
    }

    #[test]
    fn empty_tag_then_value() {
        assert_eq!(
            params("<parameter=q></parameter>\nhello world\n"),
            json!({"q": "hello world"})
        );
    }

    #[test]
    fn close_tag_inside_code_value() {
        assert_eq!(
            params("<parameter=code>\nprint(\"</parameter>\")\n</parameter>\n<parameter=n>\n1\n</parameter>\n"),
            json!({"code": "print(\"</parameter>\")", "n": 1})
        );
        assert_eq!(params("<parameter=a>\nx</parameter>y\n"), json!({"a": "x"}));
    }

    #[test]
    fn markers_inside_values_are_text() {
        assert_eq!(
            params("<parameter=c>\nClose: </parameter> and </function> and <parameter=p> here.\n</parameter>\n</function>"),
            json!({"c": "Close: </parameter> and </function> and <parameter=p> here."})
        );
        assert!(parse_parameters_until_end(
            b"<parameter=c>\nx </function> y\n</parameter>\n</function>\n"
        )
        .2
        .is_some());
    }

    #[test]
    fn json_values_are_decoded() {
        assert_eq!(
            params("<parameter=d>\n{\"w\": 10,\n \"h\": 2}\n</parameter>"),
            json!({"d": {"w": 10, "h": 2}})
        );
    }

    #[test]
    fn values_keep_code() {
        assert_eq!(
            params("<parameter=code>\n  if a < b && c > d {\n    \"x\"\n  }\n</parameter>"),
            json!({"code": "  if a < b && c > d {\n    \"x\"\n  }"})
        );
    }

    #[test]
    fn value_quoting_a_parameter_pair_is_text() {
        assert_eq!(
            params("<parameter=c>\ndoc:\n<parameter=path>\nx\n</parameter>\nend\n</parameter>\n</function>"),
            json!({"c": "doc:\n<parameter=path>\nx\n</parameter>\nend"})
        );
    }

    #[test]
    fn value_quoting_a_whole_call_is_text() {
        let quoted = "see:\n<tool_call>\n<function=f>\n<parameter=k>\nv\n</parameter>\n</function>\n</tool_call>\ndone";
        assert_eq!(
            params(&format!("<parameter=path>\np\n</parameter>\n<parameter=c>\n{quoted}\n</parameter>\n</function>")),
            json!({"path": "p", "c": quoted})
        );
    }

    #[test]
    fn unclosed_values_stay_unclosed_when_nothing_is_quoted() {
        assert_eq!(
            params("<parameter=a>\nx\n<parameter=b>\ny\n</parameter>\n<parameter=c>\nz\n</parameter>\n</function>"),
            json!({"a": "x", "b": "y", "c": "z"})
        );
    }

    /// A value read as a quote is found the same fed a byte at a time.
    #[test]
    fn quoted_value_end_is_the_same_in_pieces() {
        let doc = b"\ndoc:\n<parameter=path>\nx\n</parameter>\nend\n</parameter>\n</function>";
        let whole = value_end(doc, 0, 0, true);
        assert_eq!(whole, ValueEnd::Closed { at: 42 });
        let mut nest = None;
        let mut search = 0;
        for n in 1..=doc.len() {
            match value_end_nesting(&doc[..n], 0, search, &mut nest, false) {
                ValueEnd::More { search: s } => search = s,
                other => {
                    assert_eq!(other, whole, "after {n} bytes");
                    return;
                }
            }
        }
        assert_eq!(value_end_nesting(doc, 0, search, &mut nest, true), whole);
    }
}
