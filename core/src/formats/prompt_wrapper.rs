//! `prompt-wrapper`: call wrappers that clients and system prompts teach
//! models, rather than a chat template.
//!
//! ```text
//! [TOOL_REQUEST]
//! {"name": "get_weather", "arguments": {"city": "Paris"}}
//! [END_TOOL_REQUEST]
//! ```
//!
//! Three spellings share one body reader, a call object (or an array of
//! them) between an opening marker and an optional closing one:
//!
//! * LM Studio's `[TOOL_REQUEST]` … `[END_TOOL_REQUEST]`, which its default
//!   tool prompt teaches every model it serves without a tool template;
//! * `<functioncall>` … `</functioncall>` (the closer optional), as Glaive's
//!   function-calling data and the models trained on it write a call
//!   (`<functioncall> {"name": …, "arguments": '{…}'}`, the arguments often
//!   a single-quoted JSON string); an empty `<functioncall> </functioncall>`
//!   is markup;
//! * `[TOOL_CALL]` … `[/TOOL_CALL]`, which agent prompts teach (OpenFang
//!   and others); its body may also be written Perl-hash style, `{tool =>
//!   "NAME", args => {--key "value"}}`, read as the call it spells;
//! * `<function>NAME</function>` followed by the arguments object;
//! * a tool written as one self-closing XML element with its arguments as
//!   attributes, `<run_command command="ls -l" />`, when it is the whole
//!   reply (prompts that describe each tool as an XML element teach it);
//! * `[NAME]` at the start of a line, the arguments object and
//!   `[END_TOOL_REQUEST]`: LM Studio's wrapper whose opener the model wrote
//!   as the tool's name (only with the closing marker; without it `[NAME]`
//!   is text and the JSON after it is read as it would be anyway).
//!
//! The wrappers are not special tokens, so the evidence is weak: the body
//! must have the full shape of a call (a name and an arguments object), and
//! anything else after the marker leaves the marker as text (a wrapper
//! named in prose is prose). A complete call whose closing marker is
//! missing at the end of input is a call; a cut-off one is text.

use super::shared::json::{calls_from_json_body, json_calls_end, split_array_ends, JsonThenClose};
use super::{ids, Blocks, FormatId, Rank};
use super::{Action, BlockFormat, BlockResult, Format, Opener, ParseCx, Probe, ProbeCx};
use crate::call::Evidence;
use crate::render::{CallSpec, Prompt};
use crate::scan;
use serde_json::{Map, Value};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::PROMPT_WRAPPER,
    "models prompted by LM Studio (no tool template), agent prompts",
    &[
        "[TOOL_REQUEST]",
        "[END_TOOL_REQUEST]",
        "[TOOL_CALL]",
        "[/TOOL_CALL]",
        "<functioncall>",
        "</functioncall>",
        "<function>NAME</function>",
        "[NAME] + JSON + [END_TOOL_REQUEST]",
    ],
    "JSON object {\"name\", \"arguments\"}; after <function>NAME</function> the arguments",
)
.openers(&[
    OPENER_ELEMENT,
    OPENER_TOOL_REQUEST,
    OPENER_TOOL_CALL,
    OPENER_FUNCTIONCALL,
    OPENER_FUNCTIONCALL_CLOSE,
    OPENER_FUNCTION,
    OPENER_BRACKETED_NAME,
])
.render(Prompt::new("LM Studio's default tool prompt", write_calls));

/// `prompt-wrapper`: LM Studio's `[TOOL_REQUEST]` around each call's JSON.
pub fn write_calls(calls: &[CallSpec]) -> String {
    crate::render::calls::objects(
        calls,
        ("name", "arguments"),
        ("[TOOL_REQUEST]\n", "\n[END_TOOL_REQUEST]"),
        "\n",
    )
}

/// A call object between an opening and an optional closing marker.
pub struct Wrapped {
    /// The opening marker.
    open: &'static [u8],
    /// The closing marker, lowercase (compared ignoring ASCII case).
    close: &'static [u8],
    /// The body may be written Perl-hash style.
    perl: bool,
}

/// `[TOOL_REQUEST]` … `[END_TOOL_REQUEST]`.
pub static TOOL_REQUEST: Wrapped = Wrapped {
    open: b"[TOOL_REQUEST]",
    close: b"[end_tool_request]",
    perl: false,
};

/// `[TOOL_CALL]` … `[/TOOL_CALL]`.
pub static TOOL_CALL: Wrapped = Wrapped {
    open: b"[TOOL_CALL]",
    close: b"[/tool_call]",
    perl: true,
};

/// `<functioncall>` … `</functioncall>` (Glaive).
pub static FUNCTIONCALL: Wrapped = Wrapped {
    open: b"<functioncall>",
    close: b"</functioncall>",
    perl: false,
};

/// After an opening marker: a held-back block when a JSON object or array
/// follows after blanks (or the input ends), else the marker is text.
fn probe_wrapped(input: &[u8], cx: &ProbeCx, w: &'static Wrapped) -> Probe {
    let tag = w.open.len();
    let s = match cx.after_blanks(input, tag, 256) {
        Ok(s) => s,
        Err(p) => return p,
    };
    match input.get(s) {
        Some(b'{') | Some(b'[') => Probe::Match(Action::Block {
            fmt: w,
            scanner: crate::formats::BlockScanner::Json(
                JsonThenClose::new(tag, w.close)
                    .broken_ends_at_close()
                    .calls_joined_by_commas(),
            ),
        }),
        _ => Probe::NotMarker,
    }
}

impl BlockFormat for Wrapped {
    fn id(&self) -> FormatId {
        ids::PROMPT_WRAPPER
    }

    fn early_name(&self, head: &[u8]) -> Option<String> {
        super::early_json_name(head, self.open.len())
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        if cx.cut {
            return BlockResult::text();
        }
        let from = self.open.len().min(block.len());
        let to = json_calls_end(block, from, self.close);
        let body = scan::lossy(&block[from..to]);
        let trimmed = body.trim();
        let lead = body.len() - body.trim_start().len();
        let at = from + lead;
        let mut r = calls_from_json_body(
            trimmed,
            ids::PROMPT_WRAPPER,
            Evidence::Weak,
            block.len(),
            at,
            cx,
        );
        if r.errors.is_empty() && !r.calls.is_empty() {
            split_array_ends(&mut r, block, at);
            return r;
        }
        if self.perl {
            if let Some(json) = perl_hash_to_json(trimmed) {
                let mut r = calls_from_json_body(
                    &json,
                    ids::PROMPT_WRAPPER,
                    Evidence::Weak,
                    block.len(),
                    at,
                    cx,
                );
                if r.errors.is_empty() && !r.calls.is_empty() {
                    // the repairs were made on the rewritten text: they are
                    // reported at the body's start
                    for c in &mut r.calls {
                        for rep in &mut c.repairs {
                            rep.offset = at;
                        }
                    }
                    return r;
                }
            }
        }
        BlockResult::text()
    }
}

/// A Perl-hash body (`{tool => "x", args => {--command "ls"}}`) rewritten
/// as JSON for the repairer: `=>` outside strings becomes `:`, and a
/// command-line flag where a key belongs (`--command "ls"`) the key
/// `"command":`. Bare keys and missing commas are left to repair. `None`
/// when the body has no `=>`.
fn perl_hash_to_json(body: &str) -> Option<String> {
    if !body.contains("=>") {
        return None;
    }
    let b = body.as_bytes();
    let mut out = String::with_capacity(body.len() + 16);
    let mut i = 0;
    // a key may start here: after `{`, `,` or a line break
    let mut key_place = false;
    while i < b.len() {
        match b[i] {
            q @ (b'"' | b'\'') => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != q {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
                out.push_str(body.get(start..i)?);
                key_place = false;
            }
            b'=' if b.get(i + 1) == Some(&b'>') => {
                out.push(':');
                i += 2;
                key_place = false;
            }
            c @ (b'{' | b',' | b'\n') => {
                out.push(c as char);
                i += 1;
                key_place = true;
            }
            b'-' if key_place && b.get(i + 1) == Some(&b'-') => {
                let s = i + 2;
                let mut e = s;
                while e < b.len() && (b[e].is_ascii_alphanumeric() || b[e] == b'_' || b[e] == b'-')
                {
                    e += 1;
                }
                if e == s {
                    return None;
                }
                out.push('"');
                out.push_str(body.get(s..e)?);
                out.push_str("\":");
                i = e;
                key_place = false;
            }
            c => {
                if !c.is_ascii_whitespace() {
                    key_place = false;
                }
                let ch = body.get(i..)?.chars().next()?;
                out.push(ch);
                i += ch.len_utf8();
            }
        }
    }
    Some(out)
}

/// `[TOOL_REQUEST]` (LM Studio).
pub const OPENER_TOOL_REQUEST: Opener = Opener::new(b"[TOOL_REQUEST]", |i, cx| {
    probe_wrapped(i, cx, &TOOL_REQUEST)
});

/// `<functioncall>` (Glaive): a call, or an empty wrapper (markup).
pub const OPENER_FUNCTIONCALL: Opener =
    Opener::new(
        b"<functioncall>",
        |i, cx| match super::shared::stray::empty_wrapper(
            i,
            FUNCTIONCALL.open.len(),
            FUNCTIONCALL.close,
            cx,
        ) {
            Probe::NotMarker => probe_wrapped(i, cx, &FUNCTIONCALL),
            p => p,
        },
    );

/// A stray `</functioncall>` is markup.
pub const OPENER_FUNCTIONCALL_CLOSE: Opener = Opener::markup(b"</functioncall>");

/// Most bytes of a self-closing element call.
const ELEMENT_MAX: usize = 4096;

/// `<NAME key="value" …/>` as the whole reply: the tag's name (a tool name
/// with `_`, as no HTML or prose tag has), at least one attribute, and
/// nothing after it but blanks. `Ok(len)` the element's length, `Err(probe)`
/// otherwise.
fn element_call(input: &[u8], eof: bool) -> Result<(usize, String, Map<String, Value>), Probe> {
    let need = if eof {
        Probe::NotMarker
    } else {
        Probe::NeedMore
    };
    let window = &input[..input.len().min(ELEMENT_MAX)];
    // the name first: a tool's name with `_`, then a blank
    let name_end = 1 + window[1..]
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')))
        .unwrap_or(window.len() - 1);
    if name_end == window.len() {
        return Err(if window.len() == ELEMENT_MAX {
            Probe::NotMarker
        } else {
            need
        });
    }
    let name = scan::lossy(&window[1..name_end]).into_owned();
    if !name.contains('_')
        || !name.starts_with(|c: char| c.is_ascii_alphabetic())
        || !matches!(window[name_end], b' ' | b'\t' | b'\n')
    {
        return Err(Probe::NotMarker);
    }
    let Some(close) = memchr::memmem::find(window, b"/>") else {
        return Err(
            if window.len() == ELEMENT_MAX || window[1..].contains(&b'<') {
                Probe::NotMarker
            } else {
                need
            },
        );
    };
    let tag = &window[1..close];
    if tag.contains(&b'<') {
        return Err(Probe::NotMarker);
    }
    let name_end = name_end - 1;
    let args = element_attributes(&tag[name_end..]).ok_or(Probe::NotMarker)?;
    if args.is_empty() {
        return Err(Probe::NotMarker);
    }
    let end = close + 2;
    let rest = scan::skip_space(input, end);
    if rest < input.len() {
        return Err(Probe::NotMarker);
    }
    if !eof {
        return Err(Probe::NeedMore);
    }
    Ok((end, name, args))
}

/// The attributes of a tag (`key="value"`, either quote), nothing else
/// between them but blanks; values typed as XML-style text. `None` when
/// anything else stands there.
fn element_attributes(b: &[u8]) -> Option<Map<String, Value>> {
    let mut args = Map::new();
    let mut i = scan::skip_space(b, 0);
    while i < b.len() {
        let ks = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'-')) {
            i += 1;
        }
        if i == ks {
            return None;
        }
        let key = scan::lossy(&b[ks..i]).into_owned();
        i = scan::skip_space(b, i);
        if b.get(i) != Some(&b'=') {
            return None;
        }
        i = scan::skip_space(b, i + 1);
        let q = *b.get(i)?;
        if !matches!(q, b'"' | b'\'') {
            return None;
        }
        let vs = i + 1;
        let ve = vs + memchr::memchr(q, &b[vs..])?;
        let text = scan::lossy(&b[vs..ve]);
        args.insert(key, super::shared::xml::decode_value(&text));
        i = scan::skip_space(b, ve + 1);
    }
    Some(args)
}

/// A self-closing element call (see [`element_call`]).
pub struct Element;

/// The shared instance.
pub static ELEMENT: Element = Element;

impl BlockFormat for Element {
    fn id(&self) -> FormatId {
        ids::PROMPT_WRAPPER
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        if !cx.reply_start || cx.cut {
            return BlockResult::text();
        }
        match element_call(block, true) {
            Ok((_, name, args)) => BlockResult::one(crate::call::ParsedCall {
                end: block.len(),
                ..crate::call::ParsedCall::new(name, args, ids::PROMPT_WRAPPER)
            }),
            Err(_) => BlockResult::text(),
        }
    }
}

/// `<` at the very start of the reply: a self-closing element call.
pub const OPENER_ELEMENT: Opener = Opener::new(b"<", |input, cx| {
    if !cx.doc_start || !cx.cfg.allows(ids::PROMPT_WRAPPER) {
        return Probe::NotMarker;
    }
    match input.get(1) {
        None if !cx.eof => return Probe::NeedMore,
        Some(c) if c.is_ascii_alphabetic() => {}
        _ => return Probe::NotMarker,
    }
    match element_call(input, cx.eof) {
        Ok((len, _, _)) => Probe::Match(Action::Block {
            fmt: &ELEMENT,
            scanner: crate::formats::BlockScanner::new(Whole(len)),
        }),
        Err(p) => p,
    }
});

/// A block whose length the probe already knows.
struct Whole(usize);

impl super::Scanner for Whole {
    fn scan(&mut self, block: &[u8], eof: bool) -> super::BlockEnd {
        if block.len() >= self.0 || eof {
            super::BlockEnd::Done {
                len: self.0.min(block.len()),
                cut: block.len() < self.0,
            }
        } else {
            super::BlockEnd::More
        }
    }

    fn consumed(&self) -> usize {
        self.0
    }
}

/// `[TOOL_CALL]` (agent prompts).
pub const OPENER_TOOL_CALL: Opener =
    Opener::new(b"[TOOL_CALL]", |i, cx| probe_wrapped(i, cx, &TOOL_CALL));

/// `<function>NAME</function>` then the arguments object.
pub struct NamedFunction;

/// The shared instance.
pub static NAMED_FUNCTION: NamedFunction = NamedFunction;

const FN_OPEN: &[u8] = b"<function>";
const FN_CLOSE: &[u8] = b"</function>";

/// The name between `<function>` and `</function>` and where the tag pair
/// ends: `Err` with the probe's answer while that is not known.
fn named_head(input: &[u8], eof: bool) -> Result<(usize, usize), Probe> {
    let s = FN_OPEN.len();
    let limit = input.len().min(s + 128);
    let mut e = s;
    while e < limit && (scan::is_name_byte(input[e]) || matches!(input[e], b'.' | b'-')) {
        e += 1;
    }
    if e == input.len() && !eof && e < s + 128 {
        return Err(Probe::NeedMore);
    }
    if e == s {
        return Err(Probe::NotMarker);
    }
    match scan::prefix(&input[e..], FN_CLOSE) {
        scan::Prefix::Full => Ok((e, e + FN_CLOSE.len())),
        scan::Prefix::Partial if !eof => Err(Probe::NeedMore),
        _ => Err(Probe::NotMarker),
    }
}

fn probe_function(input: &[u8], cx: &ProbeCx) -> Probe {
    let (_, tags) = match named_head(input, cx.eof) {
        Ok(t) => t,
        Err(p) => return p,
    };
    let s = match cx.after_blanks(input, tags, 64) {
        Ok(s) => s,
        Err(p) => return p,
    };
    match input.get(s) {
        Some(b'{') => Probe::Match(Action::Block {
            fmt: &NAMED_FUNCTION,
            scanner: crate::formats::BlockScanner::Json(JsonThenClose::new(tags, b"")),
        }),
        _ => Probe::NotMarker,
    }
}

/// `<function>` followed by a name, `</function>` and a JSON object.
pub const OPENER_FUNCTION: Opener = Opener::new(FN_OPEN, probe_function);

impl BlockFormat for NamedFunction {
    fn id(&self) -> FormatId {
        ids::PROMPT_WRAPPER
    }

    fn early_name(&self, head: &[u8]) -> Option<String> {
        let (e, _) = named_head(head, false).ok()?;
        Some(scan::lossy(&head[FN_OPEN.len()..e]).into_owned())
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        let Ok((e, tags)) = named_head(block, true) else {
            return BlockResult::text();
        };
        if cx.cut {
            return BlockResult::text();
        }
        let name = scan::lossy(&block[FN_OPEN.len()..e]).into_owned();
        named_call(name, block, tags, block.len(), cx)
    }
}

/// The call `name` whose arguments are the JSON object in
/// `block[from..to]` (or a whole call object naming the same function);
/// text when it is not one.
fn named_call(name: String, block: &[u8], from: usize, to: usize, cx: &ParseCx) -> BlockResult {
    let body = scan::lossy(&block[from..to]);
    let trimmed = body.trim();
    let at = from + (body.len() - body.trim_start().len());
    let Ok((value, mut repairs)) = cx.parse_json(trimmed) else {
        return BlockResult::text();
    };
    let value = match crate::call::calls_from_owned(value.clone(), Evidence::Weak) {
        Ok(mut parts) if parts.len() == 1 && parts[0].name == name => {
            let p = parts.remove(0);
            repairs.extend(p.repairs);
            serde_json::Value::Object(p.arguments)
        }
        _ => value,
    };
    let Ok((arguments, more)) = crate::call::arguments_from(Some(&value)) else {
        return BlockResult::text();
    };
    repairs.extend(more);
    for r in &mut repairs {
        r.offset += at;
    }
    BlockResult::one(crate::call::ParsedCall {
        repairs,
        end: block.len(),
        ..crate::call::ParsedCall::new(name, arguments, ids::PROMPT_WRAPPER)
    })
}

/// `[NAME]`, a JSON object and `[END_TOOL_REQUEST]`: LM Studio's wrapper
/// with its opener written as the tool's name in brackets.
pub static BRACKETED_NAME: Blocks = Blocks::new(ids::PROMPT_WRAPPER, parse_bracketed_name);

const END_TOOL_REQUEST: &[u8] = b"[end_tool_request]";

/// The length of `[NAME]` at the start of `input` (a name of name bytes,
/// `.` or `-`), or the probe's answer.
fn bracket_head(input: &[u8], eof: bool) -> Result<usize, Probe> {
    let limit = input.len().min(1 + 128);
    let e = 1 + input[1..limit]
        .iter()
        .position(|&b| !(scan::is_name_byte(b) || matches!(b, b'.' | b'-')))
        .unwrap_or(limit - 1);
    match input.get(e) {
        None if !eof && e < 129 => Err(Probe::NeedMore),
        Some(b']') if e > 1 && input[1].is_ascii_alphabetic() => Ok(e + 1),
        _ => Err(Probe::NotMarker),
    }
}

fn probe_bracket(input: &[u8], cx: &ProbeCx) -> Probe {
    let head = match bracket_head(input, cx.eof) {
        Ok(h) => h,
        Err(p) => return p,
    };
    let s = scan::skip_space(input, head);
    match input.get(s) {
        None if !cx.eof && s - head < 8 => Probe::NeedMore,
        Some(b'{') => Probe::Match(Action::Block {
            fmt: &BRACKETED_NAME,
            scanner: crate::formats::BlockScanner::new(BracketScan {
                json: JsonThenClose::new(head, END_TOOL_REQUEST),
                head,
            }),
        }),
        _ => Probe::NotMarker,
    }
}

/// The end of a `[NAME]` block: its JSON and `[END_TOOL_REQUEST]`; without
/// the closing marker only `[NAME]` is text and what follows is read anew.
struct BracketScan {
    json: JsonThenClose,
    head: usize,
}

impl super::Scanner for BracketScan {
    fn scan(&mut self, block: &[u8], eof: bool) -> super::BlockEnd {
        match self.json.step(block, eof) {
            super::BlockEnd::More => super::BlockEnd::More,
            super::BlockEnd::Done { len, cut: false }
                if len >= END_TOOL_REQUEST.len()
                    && block[len - END_TOOL_REQUEST.len()..len]
                        .eq_ignore_ascii_case(END_TOOL_REQUEST) =>
            {
                super::BlockEnd::Done { len, cut: false }
            }
            _ => super::BlockEnd::NotBlock {
                text_len: self.head,
            },
        }
    }

    fn consumed(&self) -> usize {
        self.head
    }
}

/// `[NAME]` at the start of a line, before a JSON object.
pub const OPENER_BRACKETED_NAME: Opener = Opener::new(b"[", probe_bracket)
    .line_start()
    .rank(Rank::Late);

fn parse_bracketed_name(block: &[u8], cx: &ParseCx) -> BlockResult {
    let Ok(head) = bracket_head(block, true) else {
        return BlockResult::text();
    };
    let to = block.len().saturating_sub(END_TOOL_REQUEST.len());
    if cx.cut || to < head {
        return BlockResult::text();
    }
    let name = scan::lossy(&block[1..head - 1]).into_owned();
    named_call(name, block, head, to, cx)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perl_hash_becomes_json_text() {
        let j = perl_hash_to_json("{tool => \"shell_exec\", args => {\n--command \"ls -F /\"\n}}");
        assert_eq!(
            j.as_deref(),
            Some("{tool : \"shell_exec\", args : {\n\"command\": \"ls -F /\"\n}}")
        );
        // `=>` inside a string is kept
        let j = perl_hash_to_json("{tool => \"a=>b\"}");
        assert_eq!(j.as_deref(), Some("{tool : \"a=>b\"}"));
        assert_eq!(perl_hash_to_json("{\"name\": \"x\"}"), None);
    }

    #[test]
    fn named_head_needs_the_closing_tag() {
        assert!(matches!(
            named_head(b"<function>get_x</function>{", true),
            Ok((15, 26))
        ));
        assert!(matches!(
            named_head(b"<function>get x</function>", true),
            Err(Probe::NotMarker)
        ));
        assert!(matches!(
            named_head(b"<function>get_x</fun", false),
            Err(Probe::NeedMore)
        ));
        assert!(matches!(
            named_head(b"<function></function>", true),
            Err(Probe::NotMarker)
        ));
    }
}
