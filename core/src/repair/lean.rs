//! The repairer's fast path for short documents: one pass that writes the
//! repaired text as it reads, for the few fixes small tool-call arguments
//! need most (a trailing comma, closers cut off by the end, unquoted keys,
//! single quotes, Python literals, a missing comma between members, quotes
//! inside a string, one code fence), and gives up on anything else.
//!
//! It is no second repairer: every fix it makes is one the tolerant parser
//! ([`super::parser`]) makes the same way on the same input, and wherever
//! the two could differ it returns [`Lean::Bail`] and the caller runs the
//! full repair. A differential test (`tests.rs`, `lean_*`) holds the two
//! equal, byte for byte, on every conformance vector and on generated
//! inputs. What it saves: the validity scan before the repair and the one
//! after it, the edit list and its application, the container stack and
//! every allocation but the output's, which is made only once the first fix
//! is found (a valid document costs one pass and no allocation).

use super::text::{ident_len, is_ident_start, skip_json_ws};
use super::RepairOptions;

/// Longest input the fast path is tried on, in bytes: beyond it the
/// validity scan and the tolerant parser's set-up are small next to the
/// work, and the full path is as fast.
pub(crate) const LEAN_MAX: usize = 4096;

/// Deepest nesting the fast path follows (its stack is the bits of a u64).
const MAX_DEPTH: u32 = 64;

/// Bytes a string's scan stops at: quotes, the backslash and control
/// characters (one load per byte instead of four comparisons).
static STOP: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\'' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// The fast path's outcome.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Lean {
    /// The input is valid JSON: nothing to change.
    Valid,
    /// The repaired text, as the full repair gives it.
    Fixed(String),
    /// The input needs what only the full repair does (or might).
    Bail,
}

/// What the walk expects next (the tolerant parser's states).
#[derive(Clone, Copy, PartialEq, Eq)]
enum St {
    /// A value (after `[`, `:` or a comma in an array).
    Value,
    /// A key or `}` (after `{` or a comma in an object).
    Key,
    /// The `:` after a key.
    Colon,
    /// A comma or a closer (after a value).
    After,
}

/// Where a string stands (the parser's `Ctx`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    Key,
    ObjValue,
    ArrValue,
}

/// The output, written lazily: text is copied from the input only when
/// an edit is made (and at the end), so a valid input allocates nothing.
struct Out<'a> {
    src: &'a str,
    out: String,
    /// Input up to here is in `out` (or needs no copy: no edit yet).
    copied: usize,
    edited: bool,
}

impl<'a> Out<'a> {
    /// Replaces `src[start..end]` by `text` (`start >= copied`: edits come
    /// in order). `None` when the offsets are not char boundaries (never:
    /// every edit is made at an ASCII byte).
    #[inline]
    fn splice(&mut self, start: usize, end: usize, text: &str) -> Option<()> {
        if !self.edited {
            self.edited = true;
            self.out = String::with_capacity(self.src.len() + 16);
        }
        self.out.push_str(self.src.get(self.copied..start)?);
        self.out.push_str(text);
        self.copied = end;
        Some(())
    }

    fn finish(mut self, upto: usize) -> Option<Lean> {
        if !self.edited {
            return Some(Lean::Valid);
        }
        self.out.push_str(self.src.get(self.copied..upto)?);
        Some(Lean::Fixed(self.out))
    }
}

/// Tries the fast path on a whole document (`opts` as for
/// [`super::repair_document_str`]).
pub(crate) fn lean(input: &str, opts: &RepairOptions) -> Lean {
    if input.len() > LEAN_MAX || input.len() > opts.max_input_bytes {
        return Lean::Bail;
    }
    let depth = (opts.max_depth.min(MAX_DEPTH as usize)) as u32;
    document(input, depth).unwrap_or(Lean::Bail)
}

fn document(input: &str, max_depth: u32) -> Option<Lean> {
    let b = input.as_bytes();
    let len = b.len();
    let pos = skip_json_ws(b, 0, len);
    let first = *b.get(pos)?;
    let mut out = Out {
        src: input,
        out: String::new(),
        copied: 0,
        edited: false,
    };
    if first == b'{' || first == b'[' {
        // a fence right inside the brackets is the document's (`[```json`)
        let (done, _) = value(b, &mut out, pos, len, max_depth)?;
        if skip_json_ws(b, done, len) < len {
            return None;
        }
        return out.finish(len);
    }
    if !b[pos..].starts_with(b"```") {
        return None;
    }
    // One code fence around an object or array, nothing after it.
    let body = super::text::fence_body_start(b, pos + 3, len);
    let close = memchr::memmem::find(&b[body..], b"```").map(|i| body + i);
    let body_end = close.unwrap_or(len);
    let v0 = skip_json_ws(b, body, body_end);
    if v0 >= body_end || !matches!(b[v0], b'{' | b'[') {
        return None;
    }
    if let Some(c) = close {
        if memchr::memmem::find(&b[c + 3..], b"```").is_some() {
            return None;
        }
    }
    out.splice(0, v0, "")?;
    let (done, closed) = value(b, &mut out, v0, body_end, max_depth)?;
    // (a value the fence cuts off gets its closers where the parser also
    // deletes the rest: left to it)
    if !closed || skip_json_ws(b, done, body_end) < body_end {
        return None;
    }
    if close.is_some() {
        out.splice(done, len, "")?;
        return out.finish(len);
    }
    out.finish(len)
}

/// The top container at `start` (a `{` or `[`) up to `end`: returns the
/// offset after its closer and `true`, or `end` and `false` when the end
/// cut it off (the closers are then written). `None`: bail.
fn value(
    b: &[u8],
    out: &mut Out<'_>,
    start: usize,
    end: usize,
    max_depth: u32,
) -> Option<(usize, bool)> {
    // innermost container in bit 0 (1 = object), `depth` of them
    let mut stack: u64 = 0;
    let mut depth: u32 = 0;
    let mut st = St::Value;
    let mut pos = start;
    let mut pending_comma: Option<usize> = None;
    // the end of the last value (where a missing comma goes)
    let mut last_end = start;
    loop {
        pos = skip_json_ws(b, pos, end);
        if pos >= end {
            // Cut off: what is open is closed at the end.
            if depth == 0 {
                return None;
            }
            match st {
                St::After => {}
                St::Value if stack & 1 == 1 => return None,
                St::Colon => return None,
                St::Value | St::Key => {
                    if let Some(p) = pending_comma {
                        out.splice(p, p + 1, "")?;
                    }
                }
            }
            let mut closers = [0u8; MAX_DEPTH as usize];
            for (i, c) in closers.iter_mut().take(depth as usize).enumerate() {
                *c = if stack >> i & 1 == 1 { b'}' } else { b']' };
            }
            let closers = std::str::from_utf8(&closers[..depth as usize]).ok()?;
            out.splice(end, end, closers)?;
            return Some((end, false));
        }
        let c = b[pos];
        if c == b'}' || c == b']' {
            let obj = c == b'}';
            if depth == 0 || (stack & 1 == 1) != obj {
                return None;
            }
            match st {
                St::After => {}
                St::Value if obj => return None,
                St::Colon => return None,
                St::Value | St::Key => {
                    if let Some(p) = pending_comma.take() {
                        out.splice(p, p + 1, "")?;
                    }
                }
            }
            stack >>= 1;
            depth -= 1;
            pos += 1;
            last_end = pos;
            st = St::After;
            if depth == 0 {
                return Some((pos, true));
            }
            continue;
        }
        match st {
            St::Value => {
                pending_comma = None;
                let ctx = if stack & 1 == 1 {
                    Ctx::ObjValue
                } else {
                    Ctx::ArrValue
                };
                match c {
                    b'{' | b'[' => {
                        if depth >= max_depth {
                            return None;
                        }
                        stack = stack << 1 | u64::from(c == b'{');
                        depth += 1;
                        pos += 1;
                        st = if c == b'{' { St::Key } else { St::Value };
                        continue;
                    }
                    _ if depth == 0 => return None,
                    b'"' | b'\'' => {
                        if c == b'"' && b.get(pos + 1) == Some(&b'`') {
                            // maybe a fence inside the string
                            return None;
                        }
                        pos = string(b, out, pos, end, ctx)?;
                    }
                    b'-' | b'0'..=b'9' => pos = number(b, pos, end)?,
                    b'a'..=b'z' | b'A'..=b'Z' => pos = word(b, out, pos, end)?,
                    _ => return None,
                }
                last_end = pos;
                st = St::After;
            }
            St::Key => {
                pending_comma = None;
                match c {
                    b'"' | b'\'' => pos = string(b, out, pos, end, Ctx::Key)?,
                    _ if is_ident_start(c) && c < 0x80 => {
                        // an unquoted key: a name, then its colon
                        let n = ident_len(b, pos, end);
                        let after = pos + n;
                        if b[pos..after].iter().any(|&x| matches!(x, b'-' | b'.')) {
                            return None;
                        }
                        let k = skip_json_ws(b, after, end);
                        if k >= end || b[k] != b':' {
                            return None;
                        }
                        out.splice(pos, pos, "\"")?;
                        out.splice(after, after, "\"")?;
                        pos = after;
                    }
                    _ => return None,
                }
                st = St::Colon;
            }
            St::Colon => {
                if c != b':' {
                    return None;
                }
                pos += 1;
                st = St::Value;
            }
            St::After => match c {
                b',' => {
                    pending_comma = Some(pos);
                    pos += 1;
                    st = if stack & 1 == 1 { St::Key } else { St::Value };
                }
                b'"' => {
                    // `{"a": 1 "b": 2}`: the comma goes after the value
                    out.splice(last_end, last_end, ",")?;
                    st = if stack & 1 == 1 { St::Key } else { St::Value };
                }
                _ => return None,
            },
        }
    }
}

/// A number as JSON writes it, followed by a blank, a separator, a closer
/// or the end. Returns the offset after it.
fn number(b: &[u8], mut i: usize, end: usize) -> Option<usize> {
    let digits = |mut i: usize| {
        while i < end && b[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    if b[i] == b'-' {
        i += 1;
    }
    let int = i;
    i = digits(i);
    if i == int || (b[int] == b'0' && i > int + 1) {
        return None;
    }
    if i < end && b[i] == b'.' {
        let f = i + 1;
        i = digits(f);
        if i == f {
            return None;
        }
    }
    if i < end && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < end && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        i = digits(j);
        if i == j {
            return None;
        }
    }
    delimited(b, i, end)
}

/// `Some(i)` when what follows `i` ends a value here: a blank, `,`, `}`,
/// `]` or the end.
#[inline]
fn delimited(b: &[u8], i: usize, end: usize) -> Option<usize> {
    (i >= end || matches!(b[i], b' ' | b'\t' | b'\n' | b'\r' | b',' | b'}' | b']')).then_some(i)
}

/// A JSON or Python literal (`true`, `None`): the Python ones are
/// rewritten. Returns the offset after it.
fn word(b: &[u8], out: &mut Out<'_>, pos: usize, end: usize) -> Option<usize> {
    let mut i = pos;
    while i < end && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'$')) {
        i += 1;
    }
    let lit = match &b[pos..i] {
        b"true" | b"false" | b"null" => None,
        b"True" => Some("true"),
        b"False" => Some("false"),
        b"None" => Some("null"),
        _ => return None,
    };
    let after = delimited(b, i, end)?;
    if let Some(lit) = lit {
        out.splice(pos, i, lit)?;
    }
    Some(after)
}

/// A string opened at `open` by `"` or `'`: written with double quotes,
/// quotes inside it escaped where the parser escapes them. Returns the
/// offset after its closing quote; `None` for anything else (an escape
/// the parser rewrites, a control character, the end before the closing
/// quote, a quote whose fate the parser decides by more look-ahead).
fn string(b: &[u8], out: &mut Out<'_>, open: usize, end: usize, ctx: Ctx) -> Option<usize> {
    let quote = b[open];
    if quote == b'\'' {
        out.splice(open, open + 1, "\"")?;
    }
    let content = open + 1;
    let mut inner_open = false;
    let mut i = content;
    loop {
        while i < end && !STOP[usize::from(b[i])] {
            i += 1;
        }
        if i >= end {
            return None;
        }
        let c = b[i];
        if c == b'\\' {
            if quote != b'"' {
                return None;
            }
            i = escape(b, i, end)?;
            continue;
        }
        if c < 0x20 {
            return None;
        }
        if c != quote {
            if c == b'"' {
                // a double quote in a single-quoted string: content
                out.splice(i, i, "\\")?;
            }
            i += 1;
            continue;
        }
        match closes(b, i + 1, end, ctx, inner_open)? {
            true => {
                if quote == b'\'' {
                    out.splice(i, i + 1, "\"")?;
                }
                return Some(i + 1);
            }
            false => {
                // an inner quote: not the opening one doubled, not one
                // after a comma that may end the string's content
                if i == content || ctx == Ctx::Key {
                    return None;
                }
                let mut k = i;
                while k > content && matches!(b[k - 1], b' ' | b'\t' | b'\n' | b'\r') {
                    k -= 1;
                }
                if b[k - 1] == b',' {
                    return None;
                }
                if c == b'"' {
                    out.splice(i, i, "\\")?;
                    inner_open = !inner_open;
                }
                i += 1;
            }
        }
    }
}

/// A valid escape at `i` (a backslash): the offset after it.
#[inline]
fn escape(b: &[u8], i: usize, end: usize) -> Option<usize> {
    if i + 1 >= end {
        return None;
    }
    match b[i + 1] {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(i + 2),
        b'u' if i + 6 <= end && b[i + 2..i + 6].iter().all(u8::is_ascii_hexdigit) => Some(i + 6),
        _ => None,
    }
}

/// Whether a quote followed by `b[after..]` closes its string, as the
/// parser's `closes` judges it, for the cases that judgement is plain:
/// `None` where it looks further (and the fast path gives up).
fn closes(b: &[u8], after: usize, end: usize, ctx: Ctx, inner_open: bool) -> Option<bool> {
    if after < end {
        match (b[after], ctx) {
            (b':', Ctx::Key) | (b'}' | b']', _) => return Some(true),
            _ => {}
        }
    }
    let j = skip_json_ws(b, after, end);
    if j >= end {
        return Some(true);
    }
    let c = b[j];
    if ctx == Ctx::Key {
        return (c == b':').then_some(true);
    }
    match c {
        b'}' | b']' => Some(true),
        b'"' if ctx == Ctx::ObjValue => {
            // the next member's key: a name and its colon
            let limit = end.min(j + 1 + 128);
            let m = (j + 1..limit).find(|&m| b[m] == b'"' || b[m] == b'\\' || b[m] < 0x20);
            Some(m.is_some_and(|m| {
                let colon = skip_json_ws(b, m + 1, end);
                b[m] == b'"' && (colon >= end || b[colon] == b':')
            }))
        }
        b'"' => Some(!inner_open),
        b',' => {
            let k = skip_json_ws(b, j + 1, end);
            if k >= end {
                return Some(true);
            }
            let n = b[k];
            match n {
                b'"' | b'\'' | b'}' | b']' => Some(true),
                b'{' | b'[' | b'-' | b'0'..=b'9' if ctx == Ctx::ArrValue => Some(true),
                _ if ctx == Ctx::ArrValue => {
                    let mut w = k;
                    while w < end && b[w].is_ascii_alphabetic() {
                        w += 1;
                    }
                    matches!(
                        &b[k..w],
                        b"true" | b"false" | b"null" | b"True" | b"False" | b"None"
                    )
                    .then_some(true)
                }
                // `, key:` (an unquoted key follows)
                _ if is_ident_start(n) || n.is_ascii_digit() => {
                    bare_key_at(b, k, end).then_some(true)
                }
                _ => None,
            }
        }
        _ if c.is_ascii_alphanumeric() && (j == after || inner_open) => Some(false),
        _ => None,
    }
}

/// Whether an unquoted key starts at `k`: a name, maybe the closing quote
/// of a key that lost its opening one, then `:` (the parser's
/// `bare_key_at`).
fn bare_key_at(b: &[u8], k: usize, end: usize) -> bool {
    let len = ident_len(b, k, end);
    let mut m = k + len;
    if m < end && b[m] == b'"' {
        m += 1;
    }
    let m = skip_json_ws(b, m, end);
    len > 0 && m < end && b[m] == b':'
}
