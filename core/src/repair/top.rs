//! The document driver: byte order mark, code fences, prose around the
//! JSON, several top-level values, and double-encoded JSON. It decides where
//! the JSON is and hands each value to the [`Parser`].

use super::edits;
use super::parser::{Fail, Parser};
use super::text::{fence_body_start, skip_json_ws, starts_with_ci};
use super::{is_valid_json, Repair, RepairError, RepairKind, RepairOptions, CODE_HOPELESS};

/// How many candidate positions prose extraction tries before giving up.
/// Each try is linear, so the whole search stays linear.
const MAX_CANDIDATES: usize = 16;

/// The outcome of the tolerant pass over a whole document.
pub(crate) struct Fixed {
    /// The repaired text.
    pub output: String,
    /// The repairs, ordered by offset.
    pub repairs: Vec<Repair>,
    /// True when nothing had to change (the input is valid JSON).
    pub edits_empty: bool,
}

fn err(input: &str, f: Fail) -> RepairError {
    RepairError::at(f.code, f.message, input, f.offset)
}

fn hopeless(input: &str, message: &str, offset: usize) -> RepairError {
    RepairError::at(CODE_HOPELESS, message, input, offset)
}

/// Repairs a whole document (the input is known to be invalid JSON, or
/// valid JSON too deep for `serde_json`).
pub(crate) fn repair_document(
    input: &str,
    opts: &RepairOptions,
    allow_double: bool,
) -> Result<Fixed, RepairError> {
    let b = input.as_bytes();
    let len = b.len();
    let mut p = Parser::new(input, opts);
    let mut doc_start = 0;
    if input.starts_with('\u{feff}') {
        p.delete(0, 3);
        p.note(RepairKind::ByteOrderMark, 0);
        doc_start = 3;
    }
    let cp0 = p.checkpoint();
    let pos = p.skip_ws(doc_start, len);
    if pos >= len {
        let msg = if len == 0 {
            "empty input"
        } else {
            "no JSON value in the input (only whitespace or comments)"
        };
        return Err(hopeless(input, msg, pos.min(len)));
    }
    if starts_with_ci(b, pos, b"<!doctype") || starts_with_ci(b, pos, b"<html") {
        return Err(hopeless(input, "the input is an HTML page, not JSON", pos));
    }
    if allow_double && b[pos] == b'"' {
        if let Some(fixed) = double_encoded(input, pos, opts) {
            return fixed;
        }
    }

    if allow_double {
        if let Some(fixed) = escaped_document(input, pos, opts) {
            return fixed;
        }
        if let Some(fixed) = doubled_braces(input, pos, opts) {
            return fixed;
        }
    }

    let c = b[pos];
    let container = c == b'{' || c == b'[';
    // `[```json …```]`: brackets around a fence; the fence is the document
    let fenced = container && b[skip_json_ws(b, pos + 1, len)..].starts_with(b"```");
    let mut first_err: Option<Fail> = None;
    if !fenced && (container || direct_scalar_start(b, pos, len)) {
        let cp = p.checkpoint();
        match values(&mut p, pos, len) {
            Ok(done) => {
                if container || skip_json_ws(b, done, len) >= len {
                    finish_trailing(&mut p, done, len);
                    return build(input, p);
                }
                // A scalar followed by prose ("42 is the answer"): not JSON.
                p.rollback(cp);
            }
            Err(e) => {
                if container {
                    return Err(err(input, e));
                }
                p.rollback(cp);
                // A failed bare word is prose ("Sorry, ..."): the message
                // about missing JSON is the better one.
                if !c.is_ascii_alphabetic() {
                    first_err = Some(e);
                }
            }
        }
    }

    // Prose mode: look for a code fence or an opening brace or bracket. The
    // document is not all JSON, so words inside a candidate are not taken
    // for unquoted strings (`Sorry, no [31mJSON` is not an array).
    p.rollback(cp0);
    p.unquoted_strings = false;
    // a fence in brackets is taken from its backticks
    let mut from = if fenced {
        skip_json_ws(b, pos + 1, len)
    } else {
        pos
    };
    let mut fence_at = memchr::memmem::find(&b[from..], b"```").map(|i| from + i);
    let mut tries = 0;
    while tries < MAX_CANDIDATES && from < len {
        if fence_at.is_some_and(|f| f < from) {
            fence_at = memchr::memmem::find(&b[from..], b"```").map(|i| from + i);
        }
        let brace = memchr::memchr2(b'{', b'[', &b[from..]).map(|i| from + i);
        let cand = match (fence_at, brace) {
            (Some(f), Some(o)) => f.min(o),
            (Some(f), None) => f,
            (None, Some(o)) => o,
            (None, None) => break,
        };
        tries += 1;
        if fence_at == Some(cand) {
            let body_start = fence_body_start(b, cand + 3, len);
            let close = memchr::memmem::find(&b[body_start..], b"```").map(|i| body_start + i);
            let body_end = close.unwrap_or(len);
            let v0 = skip_json_ws(b, body_start, body_end);
            let cp = p.checkpoint();
            let v = p.skip_ws(v0, body_end);
            if v >= body_end {
                p.rollback(cp);
                first_err.get_or_insert(Fail {
                    code: CODE_HOPELESS,
                    message: "empty code fence".into(),
                    offset: cand,
                });
                from = close.map_or(len, |c| c + 3);
                continue;
            }
            match values(&mut p, v, body_end) {
                Ok(done) => {
                    p.delete(doc_start, v0);
                    if cand > pos {
                        p.note(RepairKind::SurroundingProse, pos);
                    }
                    p.note(RepairKind::CodeFence, cand);
                    let (done, body_end) = more_fences(&mut p, v, done, close);
                    finish_trailing(&mut p, done, body_end);
                    return build(input, p);
                }
                Err(e) => {
                    p.rollback(cp);
                    first_err.get_or_insert(e);
                    from = close.map_or(len, |c| c + 3);
                }
            }
        } else {
            let cp = p.checkpoint();
            match values(&mut p, cand, len) {
                Ok(done) => {
                    p.delete(doc_start, cand);
                    p.note(RepairKind::SurroundingProse, pos);
                    finish_trailing(&mut p, done, len);
                    return build(input, p);
                }
                Err(e) => {
                    p.rollback(cp);
                    // Candidates nested inside the failed one are skipped.
                    from = e.offset.max(cand + 1);
                    first_err.get_or_insert(e);
                }
            }
        }
    }
    Err(match first_err {
        Some(e) => err(input, e),
        None => hopeless(input, "no JSON object or array found", pos),
    })
}

/// After a fenced value from `first` to `done` whose fence closes at
/// `close`: the values of the fences that follow (prose between them
/// dropped) join it in one array. Returns the end of the last value and of
/// the last fence body taken.
fn more_fences(
    p: &mut Parser<'_>,
    first: usize,
    mut done: usize,
    mut close: Option<usize>,
) -> (usize, usize) {
    let b = p.b;
    let len = b.len();
    let mut body_end = close.unwrap_or(len);
    let mut count = 1;
    let mut second_at = 0;
    while let Some(c) = close {
        if count >= MAX_CANDIDATES {
            break;
        }
        let Some(open) = memchr::memmem::find(&b[c + 3..], b"```").map(|i| c + 3 + i) else {
            break;
        };
        let body = fence_body_start(b, open + 3, len);
        let next_close = memchr::memmem::find(&b[body..], b"```").map(|i| body + i);
        let next_end = next_close.unwrap_or(len);
        let cp = p.checkpoint();
        let v = p.skip_ws(skip_json_ws(b, body, next_end), next_end);
        if v >= next_end {
            p.rollback(cp);
            break;
        }
        match values(p, v, next_end) {
            Ok(e) => {
                p.edit(done, done, ",");
                p.delete(done, v);
                if count == 1 {
                    second_at = v;
                }
                count += 1;
                done = e;
                body_end = next_end;
                close = next_close;
            }
            Err(_) => {
                p.rollback(cp);
                break;
            }
        }
    }
    if count > 1 {
        p.edit_outer(first, "[");
        p.edit(done, done, "]");
        p.note(RepairKind::ConcatenatedValues, second_at);
    }
    (done, body_end)
}

/// Whether a top-level scalar (string, number, literal) can start at `pos`.
fn direct_scalar_start(b: &[u8], pos: usize, len: usize) -> bool {
    let c = b[pos];
    matches!(c, b'"' | b'\'' | b'-' | b'+' | b'.' | b'(' | b'0'..=b'9')
        || c.is_ascii_alphabetic()
        || (c == b'/' && pos + 1 < len && !matches!(b[pos + 1], b'/' | b'*'))
        || (c == b'`' && !(pos + 1 < len && b[pos + 1] == b'`'))
        || super::text::curly_at(b, pos, len).is_some()
}

/// Parses one top-level value at `start` and any values after it: objects
/// and arrays concatenated (`{..}{..}`, `{..}, {..}`), values separated by
/// commas (`1, 2, 3`) or one per line (NDJSON, `1\n2`), wrapping several
/// into an array. Drops stray closers after a container and a trailing `,`
/// or `;` (`4,`, `callback(…);`). Returns the offset after what was
/// consumed.
fn values(p: &mut Parser<'_>, start: usize, end: usize) -> Result<usize, Fail> {
    let b = p.b;
    let first_container = matches!(b[start], b'{' | b'[');
    let mut consumed = p.value(start, end)?;
    let mut value_end = consumed;
    // Ends of the values that need a comma inserted after them.
    let mut gaps: Vec<usize> = Vec::new();
    let mut count = 1usize;
    let mut second_at = 0usize;
    // Where each value starts and ends, once there is a second (most
    // documents hold one value: no allocation for it).
    let first_span = (start, consumed);
    let mut spans: Vec<(usize, usize)> = Vec::new();
    while consumed < end {
        let cp = p.checkpoint();
        let t = p.skip_ws(consumed, end);
        if t >= end {
            // Only whitespace and comments follow: the caller handles them.
            p.rollback(cp);
            break;
        }
        let (v, comma) = match b[t] {
            b'}' | b']' if first_container => {
                p.delete(t, t + 1);
                p.note(RepairKind::ExtraClose, t);
                consumed = t + 1;
                continue;
            }
            b',' | b';' => {
                let k = p.skip_ws(t + 1, end);
                if k >= end {
                    // `4,`, `callback(2);`: a separator with nothing after
                    p.delete(t, t + 1);
                    p.note(RepairKind::TrailingComma, t);
                    consumed = k;
                    continue;
                }
                if b[t] == b';' {
                    p.rollback(cp);
                    break;
                }
                (k, true)
            }
            b'{' | b'[' => (t, false),
            // a value on a line of its own
            _ if memchr::memchr(b'\n', &b[consumed..t]).is_some() => (t, false),
            _ => {
                p.rollback(cp);
                break;
            }
        };
        if !first_container && !comma && memchr::memchr(b'\n', &b[consumed..t]).is_none() {
            p.rollback(cp);
            break;
        }
        // Words after the first value are prose, not values.
        let unquoted = p.unquoted_strings;
        p.unquoted_strings = false;
        let next = p.value(v, end);
        p.unquoted_strings = unquoted;
        match next {
            Ok(e) => {
                if !comma {
                    gaps.push(value_end);
                }
                if count == 1 {
                    second_at = v;
                }
                count += 1;
                consumed = e;
                value_end = e;
                if spans.is_empty() {
                    spans.push(first_span);
                }
                spans.push((v, e));
            }
            Err(_) => {
                p.rollback(cp);
                break;
            }
        }
    }
    if count > 1 {
        // `[]{"a": 1}`, `{"a": 1}, {}`: an empty object or array written
        // next to the one value with content is a placeholder; that value
        // is the document (the first when all are empty).
        let mut full = spans.iter().filter(|&&(v, e)| !is_empty_container(b, v, e));
        let only = match (full.next(), full.next()) {
            (Some(&one), None) => Some(one),
            (None, _) => spans.first().copied(),
            _ => None,
        };
        if let Some((v, e)) = only {
            p.delete(start, v);
            p.delete(e, consumed);
            p.note(RepairKind::ConcatenatedValues, second_at);
            return Ok(consumed);
        }
        p.edit_outer(start, "[");
        for g in gaps {
            p.edit(g, g, ",");
        }
        p.edit(value_end, value_end, "]");
        p.note(RepairKind::ConcatenatedValues, second_at);
    }
    Ok(consumed)
}

/// Whether `b[v..e]` is an empty object or array as written (`{}`, `[ ]`).
fn is_empty_container(b: &[u8], v: usize, e: usize) -> bool {
    let close = match b[v] {
        b'{' => b'}',
        b'[' => b']',
        _ => return false,
    };
    e >= v + 2 && b[e - 1] == close && skip_json_ws(b, v + 1, e) == e - 1
}

/// Handles what follows the value(s): whitespace and comments are kept
/// (comments removed); prose and a closing fence are deleted to the end.
fn finish_trailing(p: &mut Parser<'_>, done: usize, region_end: usize) {
    let b = p.b;
    let len = b.len();
    let cp = p.checkpoint();
    let t = p.skip_ws(done, region_end);
    let prose = t < region_end;
    let fenced = region_end < len;
    if !prose && !fenced {
        return;
    }
    p.rollback(cp);
    p.delete(done, len);
    if prose {
        p.note(RepairKind::SurroundingProse, t);
    }
    if fenced {
        p.note(RepairKind::CodeFence, region_end);
        let after = skip_json_ws(b, (region_end + 3).min(len), len);
        if after < len {
            p.note(RepairKind::SurroundingProse, after);
        }
    }
}

/// Applies the recorded edits and checks the depth limit.
fn build(input: &str, mut p: Parser<'_>) -> Result<Fixed, RepairError> {
    if let Some(at) = p.too_deep_at {
        if !p.edits.is_empty() {
            return Err(err(input, p.too_deep(at)));
        }
    }
    let edits_empty = p.edits.is_empty();
    let output = if edits_empty {
        String::new()
    } else {
        edits::apply(input, &mut p.edits)
    };
    p.repairs.sort_by_key(|r| r.offset);
    Ok(Fixed {
        output,
        repairs: p.repairs,
        edits_empty,
    })
}

/// A document that is one JSON string whose content is an object or array:
/// decode it and repair the content. `None` when the document does not have
/// that shape or its content cannot be repaired.
fn double_encoded(
    input: &str,
    pos: usize,
    opts: &RepairOptions,
) -> Option<Result<Fixed, RepairError>> {
    let b = input.as_bytes();
    let len = b.len();
    let k = skip_json_ws(b, pos + 1, len);
    if k >= len || !matches!(b[k], b'{' | b'[') {
        return None;
    }
    let (decoded, map, close) = decode_string(input, pos + 1);
    if let Some(c) = close {
        if skip_json_ws(b, c + 1, len) < len {
            return None;
        }
    }
    unwrapped_repaired(input, decoded, &map, opts, RepairKind::DoubleEncoded, pos)
}

/// A document written escaped, as if cut out of a JSON string: its first
/// quote is `\"` (`{\"a\": 1}`, `\"text\"`). The escapes `\"` and `\\` are
/// undone and the result repaired. `None` when the document does not have
/// that shape or the unescaped text cannot be repaired.
fn escaped_document(
    input: &str,
    pos: usize,
    opts: &RepairOptions,
) -> Option<Result<Fixed, RepairError>> {
    let b = input.as_bytes();
    let len = b.len();
    let q = memchr::memchr(b'"', &b[pos..]).map(|i| pos + i)?;
    if q == 0 || b[q - 1] != b'\\' || (q >= 2 && b[q - 2] == b'\\') {
        return None;
    }
    if !(q - 1 == pos || matches!(b[pos], b'{' | b'[')) {
        return None;
    }
    let mut out = String::with_capacity(len);
    let mut map = Vec::with_capacity(len + 1);
    let mut i = 0;
    while i < len {
        let c = b[i];
        if c == b'\\' && i + 1 < len && matches!(b[i + 1], b'"' | b'\\') {
            out.push(b[i + 1] as char);
            map.push(i);
            i += 2;
            continue;
        }
        i = copy_char(input, i, &mut out, &mut map)?;
    }
    map.push(len);
    unwrapped_repaired(input, out, &map, opts, RepairKind::EscapedDocument, q - 1)
}

/// A document whose braces a template's escaping doubled (`{{"a": {{"b":
/// 1}}}}`, copied from a Jinja or Python format string): it opens with `{{`
/// and ends with `}}` (no JSON value can), and every `{{` and `}}` outside
/// strings is undone before the rest is repaired. `None` for any other
/// document.
fn doubled_braces(
    input: &str,
    pos: usize,
    opts: &RepairOptions,
) -> Option<Result<Fixed, RepairError>> {
    let b = input.as_bytes();
    if !b[pos..].starts_with(b"{{") || !input.trim_end().ends_with("}}") {
        return None;
    }
    let len = b.len();
    let mut out = String::with_capacity(len);
    let mut map = Vec::with_capacity(len + 1);
    let mut quote = false;
    let mut i = 0;
    while i < len {
        let c = b[i];
        if !quote && matches!(c, b'{' | b'}') && b.get(i + 1) == Some(&c) {
            out.push(c as char);
            map.push(i);
            i += 2;
            continue;
        }
        if c == b'"' {
            quote = !quote;
        } else if quote && c == b'\\' && i + 1 < len {
            out.push('\\');
            map.push(i);
            i += 1;
        }
        i = copy_char(input, i, &mut out, &mut map)?;
    }
    map.push(len);
    unwrapped_repaired(input, out, &map, opts, RepairKind::DoubledBraces, pos)
}

/// `text`, a document taken out of `input` (a string's content, escapes
/// undone), kept when valid and else repaired, its repairs placed back in
/// `input` through `map` (an offset in `text` to one in `input`) after a
/// first one of `kind` at `offset`. `None` when `text` cannot be repaired.
fn unwrapped_repaired(
    input: &str,
    text: String,
    map: &[usize],
    opts: &RepairOptions,
    kind: RepairKind,
    offset: usize,
) -> Option<Result<Fixed, RepairError>> {
    let len = input.len();
    let at = |off: usize| map.get(off).copied().unwrap_or(len);
    let mut fixed = if is_valid_json(&text) {
        Fixed {
            output: text,
            repairs: Vec::new(),
            edits_empty: false,
        }
    } else {
        match repair_document(&text, opts, false) {
            Ok(f) if !f.edits_empty => f,
            Ok(_) => Fixed {
                // Valid, but too deep for serde_json: keep the text.
                output: text,
                repairs: Vec::new(),
                edits_empty: false,
            },
            Err(e) if e.is_budget() => {
                return Some(Err(RepairError::at(e.code, e.message, input, at(e.offset))));
            }
            Err(_) => return None,
        }
    };
    for r in &mut fixed.repairs {
        r.offset = at(r.offset);
    }
    fixed.repairs.insert(0, Repair { kind, offset });
    fixed.edits_empty = false;
    Some(Ok(fixed))
}

/// Decodes the JSON string whose content starts at `start`, leniently: a
/// missing closing quote or a partial escape at the end is accepted. Returns
/// the text, the input offset of every decoded byte (plus one for the end),
/// and the offset of the closing quote if there is one.
fn decode_string(input: &str, start: usize) -> (String, Vec<usize>, Option<usize>) {
    let b = input.as_bytes();
    let len = b.len();
    let mut out = String::with_capacity(len - start);
    let mut map = Vec::with_capacity(len - start + 1);
    let mut i = start;
    let mut close = None;
    let push = |out: &mut String, map: &mut Vec<usize>, s: &str, from: usize| {
        out.push_str(s);
        map.extend(std::iter::repeat_n(from, s.len()));
    };
    while i < len {
        let c = b[i];
        if c == b'"' {
            close = Some(i);
            break;
        }
        if c == b'\\' {
            let Some(&e) = b.get(i + 1) else { break };
            let simple = match e {
                b'"' => Some("\""),
                b'\\' => Some("\\"),
                b'/' => Some("/"),
                b'b' => Some("\u{8}"),
                b'f' => Some("\u{c}"),
                b'n' => Some("\n"),
                b'r' => Some("\r"),
                b't' => Some("\t"),
                _ => None,
            };
            if let Some(s) = simple {
                push(&mut out, &mut map, s, i);
                i += 2;
                continue;
            }
            if e == b'u' {
                let Some(hi) = hex4(b, i + 2) else {
                    if i + 6 > len {
                        break; // partial escape at the end
                    }
                    push(&mut out, &mut map, "\\", i);
                    i += 1;
                    continue;
                };
                let mut used = 6;
                let ch = if (0xD800..0xDC00).contains(&hi) {
                    match (b.get(i + 6), b.get(i + 7), hex4(b, i + 8)) {
                        (Some(b'\\'), Some(b'u'), Some(lo)) if (0xDC00..0xE000).contains(&lo) => {
                            used = 12;
                            char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                        }
                        _ => None,
                    }
                } else {
                    char::from_u32(hi)
                };
                let ch = ch.unwrap_or('\u{fffd}');
                let mut buf = [0u8; 4];
                push(&mut out, &mut map, ch.encode_utf8(&mut buf), i);
                i += used;
                continue;
            }
            push(&mut out, &mut map, "\\", i);
            i += 1;
            continue;
        }
        // Copy one whole character.
        let end = (i + crate::scan::utf8_len(c)).min(len);
        match input.get(i..end) {
            Some(s) => push(&mut out, &mut map, s, i),
            None => break,
        }
        i = end;
    }
    map.push(i);
    (out, map, close)
}

fn hex4(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at + 4)?;
    let s = std::str::from_utf8(s).ok()?;
    if !s.bytes().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(s, 16).ok()
}

/// Copies the character at `i` of `input` to `out`, each of its bytes
/// mapped to `i`; the offset after it, `None` when `i` is not on a
/// character.
fn copy_char(input: &str, i: usize, out: &mut String, map: &mut Vec<usize>) -> Option<usize> {
    let stop = (i + crate::scan::utf8_len(input.as_bytes()[i])).min(input.len());
    let s = input.get(i..stop)?;
    out.push_str(s);
    map.extend(std::iter::repeat_n(i, s.len()));
    Some(stop)
}
