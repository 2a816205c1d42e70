//! `functionary`: `<function=NAME>{json}</function>` (Llama 3.1 custom tools,
//! Functionary v3.1).
//!
//! `qwen3-coder-xml` has an opener for the same `<function=` tag: the first
//! non-blank byte after the tag decides (`{` here, `<parameter=` or
//! `</function>` there). A tag followed by prose is not a call.

use super::shared::json::JsonThenClose;
use super::shared::tag::function_tag_end;
use super::{ids, FormatId};
use super::{
    Action, BlockEnd, BlockFormat, BlockResult, Format, Opener, ParseCx, Probe, ProbeCx, Scanner,
};
use crate::render::{results, tools, CallSpec, Prompt};
use crate::scan;

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::FUNCTIONARY,
    "Llama 3.1/3.2/3.3 custom tools, Functionary v3.1",
    &["<function=NAME>", "<function name=\"NAME\">", "</function>"],
    "JSON object that is the arguments",
)
.openers(&[OPENER, OPENER_NAME_ATTR])
.admitted_under(&[ids::HERMES])
.doc_start(super::DocStart {
    forced_only: false,
    probe: probe_doc_start,
})
.render(
    Prompt::new("Llama 3.1 custom tools, Functionary v3.1", write_calls)
        .template(tools::functionary, results::ipython),
);

/// `functionary` (Llama 3.1 custom tools): `<function=NAME>{args}</function>`.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::{args, each};
    use crate::render::text::json_compact;

    each(calls, "", |_, c| {
        format!("<function={}>{}</function>", c.name, json_compact(&args(c)))
    })
}

/// Where a block's name lies and its JSON starts: `<function=NAME>`,
/// `<function name="NAME">`, a damaged opener (`<function=NAME={`,
/// `<function=NAME{`, `<function=NAME,{`, `<function=NAME {`), or `NAME{`
/// with no opener.
fn head_parts(block: &[u8]) -> Option<(usize, usize, usize)> {
    if !block.starts_with(b"<function") {
        let e = name_end(block, 0);
        return (block.get(e) == Some(&b'{')).then_some((0, e, e));
    }
    if let Ok((name_to, body)) = damaged_head(block, true) {
        return Some((9, name_to, body));
    }
    let gt = memchr::memchr(b'>', block)?;
    Some((9, gt, gt + 1))
}

/// `=NAME`, ` name="NAME"` or `NAME`: the name, quotes and blanks removed.
fn read_name(raw: &str) -> String {
    let raw = raw.trim();
    let raw = raw.strip_prefix("name").unwrap_or(raw).trim_start();
    raw.strip_prefix('=')
        .unwrap_or(raw)
        .trim()
        .trim_matches(|c| c == '"' || c == '\'')
        .to_string()
}

/// The functionary block format.
pub struct Functionary;

/// The shared instance.
pub static FUNCTIONARY: Functionary = Functionary;

const CLOSE: &[u8] = b"</function>";

/// The longest name read: a longer run of name bytes (a minified blob) is
/// no call's name, and is not read on to its end.
const MAX_NAME: usize = 256;

/// The end of a name written from `from` on (name bytes, `.`, `-`), at
/// most [`MAX_NAME`] + 1 bytes on (past `MAX_NAME` it is no name).
fn name_end(input: &[u8], from: usize) -> usize {
    let limit = input.len().min(from + MAX_NAME + 1);
    let mut e = from;
    while e < limit && (scan::is_name_byte(input[e]) || matches!(input[e], b'.' | b'-')) {
        e += 1;
    }
    e
}

/// Whether a name ending at `e` (from `from`) is too long to be one.
fn too_long(from: usize, e: usize) -> bool {
    e - from > MAX_NAME
}

/// `<function=NAME={…}`, `<function=NAME,{…}`, `<function=NAME{…}` and
/// `<function=NAME {…}`: the tag's `>` written as `=` or `,`, or left out
/// with the JSON glued to the name or a blank between them (damaged
/// openers Llama 3.x writes, quoted in Groq's `failed_generation`). Where
/// the name ends and the JSON starts; `Err` with the probe's answer
/// otherwise. Only a JSON object may follow: a name and prose is no call.
fn damaged_head(input: &[u8], eof: bool) -> Result<(usize, usize), Probe> {
    let from = OPEN_EQ.len();
    if !input.starts_with(OPEN_EQ) {
        return Err(Probe::NotMarker);
    }
    let e = name_end(input, from);
    if too_long(from, e) {
        return Err(Probe::NotMarker);
    }
    if e == input.len() && !eof {
        return Err(Probe::NeedMore);
    }
    if e == from {
        return Err(Probe::NotMarker);
    }
    let sep = match input.get(e) {
        Some(b'=' | b',') => e + 1,
        _ => e,
    };
    let s = scan::skip_blank(input, sep);
    match input.get(s) {
        None if !eof => Err(Probe::NeedMore),
        Some(b'{') => Ok((e, s)),
        _ => Err(Probe::NotMarker),
    }
}

const OPEN_EQ: &[u8] = b"<function=";

fn block_at(body: usize) -> Probe {
    Probe::Match(Action::Block {
        fmt: &FUNCTIONARY,
        scanner: crate::formats::BlockScanner::new(FunctionScan {
            json: JsonThenClose::new(body, CLOSE),
            needs_close: false,
            name_len: 0,
        }),
    })
}

fn probe(input: &[u8], cx: &ProbeCx) -> Probe {
    let tag = match function_tag_end(input, cx) {
        Ok(t) => t,
        Err(Probe::NotMarker) => {
            return match damaged_head(input, cx.eof) {
                Ok((_, body)) => block_at(body),
                Err(p) => p,
            }
        }
        Err(p) => return p,
    };
    match cx.after_blanks(input, tag, usize::MAX) {
        Ok(s) if input[s] == b'{' => block_at(tag),
        Ok(_) => Probe::NotMarker,
        Err(p) => p,
    }
}

/// `NAME{…}</function>` as the reply's first bytes: the opener's
/// `<function=` and `>` lost, the name glued to the JSON. Only the closing
/// tag right after the JSON makes it a call; anything else is text.
fn probe_doc_start(input: &[u8], cx: &ProbeCx) -> Probe {
    let e = name_end(input, 0);
    if too_long(0, e) {
        return Probe::NotMarker;
    }
    if e == input.len() && !cx.eof {
        return Probe::NeedMore;
    }
    if e == 0 || input.get(e) != Some(&b'{') || !input[0].is_ascii_alphabetic() {
        return Probe::NotMarker;
    }
    if super::shared::call_id::is_stripped_id(&input[..e]) {
        // `functions.NAME:0{…}`: a Kimi call id whose tokens were stripped
        return Probe::NotMarker;
    }
    Probe::Match(Action::Block {
        fmt: &FUNCTIONARY,
        scanner: crate::formats::BlockScanner::new(FunctionScan {
            json: JsonThenClose::new(e, CLOSE),
            needs_close: true,
            name_len: e,
        }),
    })
}

/// The end of a functionary block: its JSON and `</function>`, with the `;`
/// that separates consecutive calls (`</function>;<function=…>`), which
/// belongs to the call before it, not to the text.
struct FunctionScan {
    json: JsonThenClose,
    /// The block is a call only when `</function>` follows the JSON.
    needs_close: bool,
    /// Bytes of the glued name before the JSON (`NAME{…}`): when no
    /// `</function>` follows, only they are text and the rest is read
    /// again, so the answer does not depend on how much input had arrived.
    name_len: usize,
}

impl Scanner for FunctionScan {
    fn scan(&mut self, block: &[u8], eof: bool) -> BlockEnd {
        let mut end = self.json.step(block, eof);
        if let BlockEnd::Done { len, cut: false } = end {
            if len < CLOSE.len() || !block[len - CLOSE.len()..len].eq_ignore_ascii_case(CLOSE) {
                // `{…}></function>`: a stray `>` before the closing tag
                let s = scan::skip_blank(block, len);
                if block.get(s) == Some(&b'>') {
                    let t = scan::skip_blank(block, s + 1);
                    match scan::prefix_ci(&block[t..], CLOSE) {
                        scan::Prefix::Full => end = BlockEnd::done(t + CLOSE.len()),
                        scan::Prefix::Partial if !eof => return BlockEnd::More,
                        _ if t == block.len() && !eof => return BlockEnd::More,
                        _ => {}
                    }
                } else if s == block.len() && !eof && self.needs_close {
                    return BlockEnd::More;
                }
            }
        }
        if self.needs_close {
            match end {
                BlockEnd::Done { len, cut: false }
                    if len >= CLOSE.len()
                        && block[len - CLOSE.len()..len].eq_ignore_ascii_case(CLOSE) => {}
                BlockEnd::More => return BlockEnd::More,
                _ => {
                    return BlockEnd::NotBlock {
                        text_len: self.name_len.clamp(1, block.len().max(1)),
                    }
                }
            }
        }
        match end {
            BlockEnd::Done { len, cut: false }
                if len >= CLOSE.len()
                    && block[len - CLOSE.len()..len].eq_ignore_ascii_case(CLOSE) =>
            {
                // decided by the next byte: wait for it
                let s = scan::skip_blank(block, len);
                if s == block.len() && !eof {
                    return BlockEnd::More;
                }
                let len = if block.get(s) == Some(&b';') {
                    s + 1
                } else {
                    len
                };
                BlockEnd::Done { len, cut: false }
            }
            other => other,
        }
    }

    fn consumed(&self) -> usize {
        self.json.consumed()
    }
}

/// `<function=NAME>`.
pub const OPENER: Opener = Opener::new(b"<function=", probe).also(&[ids::HERMES]);

/// `<function name="NAME">`.
pub const OPENER_NAME_ATTR: Opener = Opener::new(b"<function name=", probe).also(&[ids::HERMES]);

impl BlockFormat for Functionary {
    fn id(&self) -> FormatId {
        ids::FUNCTIONARY
    }

    fn early_name(&self, head: &[u8]) -> Option<String> {
        // `NAME{…}` with no opener is a call only once `</function>` follows
        if !head.starts_with(b"<function") {
            return None;
        }
        let (from, to, _) = head_parts(head)?;
        let name = read_name(std::str::from_utf8(head.get(from..to)?).ok()?);
        (!name.is_empty()).then_some(name)
    }

    fn parse(&self, block: &[u8], cx: &ParseCx) -> BlockResult {
        // where the name is and the JSON starts: `<function=NAME>`,
        // `<function=NAME={`, or `NAME{` with no opener at all
        let Some((name_from, name_to, body_at)) = head_parts(block) else {
            return BlockResult::truncated(ids::FUNCTIONARY, block.len());
        };
        let name = read_name(&crate::scan::lossy(&block[name_from..name_to]));
        let body_end = super::shared::json::json_body_end(block, body_at, CLOSE);
        let body = crate::scan::lossy(&block[body_at..body_end]);
        let text = body.trim();
        let (value, mut repairs) = if cx.cut {
            match crate::call::close_truncated(text) {
                Some((closed, at)) => match cx.parse_json(&closed) {
                    Ok((v, mut r)) => {
                        r.push(crate::repair::Repair {
                            kind: crate::repair::RepairKind::MissingClose,
                            offset: body_at + at,
                        });
                        (v, r)
                    }
                    Err(_) => return BlockResult::truncated(ids::FUNCTIONARY, block.len()),
                },
                None => {
                    match cx.parse_json(text) {
                        // a complete object that only lacks </function>
                        Ok(v) if scan::trim(&block[body_at..]).ends_with(b"}") => v,
                        _ => return BlockResult::truncated(ids::FUNCTIONARY, block.len()),
                    }
                }
            }
        } else {
            match cx.parse_json(text) {
                Ok(v) => v,
                Err(e) => {
                    return BlockResult::error(
                        "TLP-003",
                        format!("functionary arguments are not valid JSON: {}", e.message),
                        body_at,
                    )
                }
            }
        };
        let (arguments, more) = match crate::call::arguments_from(Some(&value)) {
            Ok(x) => x,
            Err(crate::call::Shape::Broken(code, msg)) => {
                return BlockResult::error(code, msg, body_at)
            }
            Err(crate::call::Shape::NotCall) => {
                return BlockResult::error("TLP-002", "arguments are not an object", body_at)
            }
        };
        repairs.extend(more);
        let lead = body.len() - body.trim_start().len();
        for r in &mut repairs {
            if r.kind != crate::repair::RepairKind::MissingClose {
                r.offset += body_at + lead;
            }
        }
        if name.is_empty() {
            return BlockResult::error("TLP-001", "function name missing", 9);
        }
        BlockResult::one(crate::call::ParsedCall {
            repairs,
            end: block.len(),
            ..crate::call::ParsedCall::new(name, arguments, ids::FUNCTIONARY)
        })
    }
}
