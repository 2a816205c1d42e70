//! Writing records as compact JSON lines, fast.
//!
//! The bytes written here are exactly what `serde_json::to_writer` writes
//! for the same record (the tests compare the two on random records): the
//! same field order, the same escapes (`\"`, `\\`, `\b`, `\t`, `\n`, `\f`,
//! `\r`, `\u00XX` in lower-case hex for the other control bytes, nothing
//! else). What differs is the cost: a string is scanned eight bytes at a
//! time for the few bytes that need an escape and copied through in runs,
//! where serde_json looks up every byte; records go straight into the
//! caller's writer with no intermediate `String` or `Value`.

use crate::record::{Span, ToolCall};
use std::io::{self, Write};

/// Strings up to this long are escaped into a stack buffer in one pass and
/// written at once (a call's raw markup: short, and dense with quotes).
const SHORT: usize = 128;

/// Writes `s` as a JSON string, quotes included.
pub fn write_str<W: Write + ?Sized>(w: &mut W, s: &str) -> io::Result<()> {
    let bytes = s.as_bytes();
    if bytes.len() <= SHORT {
        return write_short_str(w, bytes);
    }
    w.write_all(b"\"")?;
    // bytes[run..] are not yet written
    let mut run = 0;
    while let Some(k) = next_escape(bytes, run) {
        if run < k {
            w.write_all(&bytes[run..k])?;
        }
        write_escape(w, bytes[k])?;
        run = k + 1;
    }
    if run < bytes.len() {
        w.write_all(&bytes[run..])?;
    }
    w.write_all(b"\"")
}

/// [`write_str`] for a short string: byte by byte into a buffer that holds
/// the worst case (every byte a six-byte `\u00XX`), then one write.
fn write_short_str<W: Write + ?Sized>(w: &mut W, bytes: &[u8]) -> io::Result<()> {
    let mut out = [0u8; SHORT * 6 + 2];
    out[0] = b'"';
    let mut n = 1;
    for &b in bytes {
        if !needs_escape(b) {
            out[n] = b;
            n += 1;
            continue;
        }
        let (esc, len) = escape(b);
        out[n..n + len].copy_from_slice(&esc[..len]);
        n += len;
    }
    out[n] = b'"';
    w.write_all(&out[..n + 1])
}

/// Index of the first byte at or after `from` that a JSON string must
/// escape: a control byte below 0x20, `"` or `\`. Sixteen bytes at a time
/// (two words tested together), then byte by byte.
#[inline]
fn next_escape(bytes: &[u8], from: usize) -> Option<usize> {
    let rest = bytes.get(from..)?;
    let mut blocks = rest.chunks_exact(16);
    let mut off = from;
    for block in &mut blocks {
        let (a, b) = block.split_at(8);
        if word_needs_escape(a) || word_needs_escape(b) {
            // exact position: the word test may mark bytes above a true hit
            return block.iter().position(|&b| needs_escape(b)).map(|k| off + k);
        }
        off += 16;
    }
    blocks
        .remainder()
        .iter()
        .position(|&b| needs_escape(b))
        .map(|k| off + k)
}

/// Whether any of eight bytes needs an escape: a byte below 0x20 (its high
/// bit clear, and set after subtracting 0x20), or a `"` or `\` (zero
/// after the xor). Never misses one; the caller finds the exact byte.
#[inline]
fn word_needs_escape(eight: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut word = [0u8; 8];
    word.copy_from_slice(eight);
    let x = u64::from_le_bytes(word);
    let quote = x ^ (ONES * u64::from(b'"'));
    let slash = x ^ (ONES * u64::from(b'\\'));
    let hits = (x.wrapping_sub(ONES * 0x20) & !x)
        | (quote.wrapping_sub(ONES) & !quote)
        | (slash.wrapping_sub(ONES) & !slash);
    hits & HIGHS != 0
}

#[inline]
fn write_escape<W: Write + ?Sized>(w: &mut W, b: u8) -> io::Result<()> {
    let (esc, len) = escape(b);
    w.write_all(&esc[..len])
}

/// The escape of a byte that [`needs_escape`], as serde_json writes it: a
/// short `\"`, `\\`, `\b`, `\t`, `\n`, `\f` or `\r`, else `\u00XX` in
/// lower-case hex; and its length.
#[inline]
fn escape(b: u8) -> ([u8; 6], usize) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let short = match b {
        b'"' => b'"',
        b'\\' => b'\\',
        0x08 => b'b',
        b'\t' => b't',
        b'\n' => b'n',
        0x0c => b'f',
        b'\r' => b'r',
        _ => {
            let hex = [HEX[usize::from(b >> 4)], HEX[usize::from(b & 0xf)]];
            return ([b'\\', b'u', b'0', b'0', hex[0], hex[1]], 6);
        }
    };
    ([b'\\', short, 0, 0, 0, 0], 2)
}

#[inline]
fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// Writes an unsigned integer in decimal.
pub fn write_u64<W: Write + ?Sized>(w: &mut W, n: u64) -> io::Result<()> {
    let mut buf = itoa::Buffer::new();
    w.write_all(buf.format(n).as_bytes())
}

/// Writes a span as `[start,end]`.
pub fn write_span<W: Write + ?Sized>(w: &mut W, span: Span) -> io::Result<()> {
    w.write_all(b"[")?;
    write_u64(w, span[0])?;
    w.write_all(b",")?;
    write_u64(w, span[1])?;
    w.write_all(b"]")
}

/// Writes a record with only a type, one string field and a span, the shape
/// of `stream`'s `text`, `reasoning` and `markup` records:
/// `{"type":KIND,"FIELD":"…","span":[a,b]}`.
pub fn write_text_record<W: Write + ?Sized>(
    w: &mut W,
    kind: &str,
    field: &str,
    value: &str,
    span: Span,
) -> io::Result<()> {
    w.write_all(b"{\"type\":")?;
    write_str(w, kind)?;
    w.write_all(b",")?;
    write_str(w, field)?;
    w.write_all(b":")?;
    write_str(w, value)?;
    w.write_all(b",\"span\":")?;
    write_span(w, span)?;
    w.write_all(b"}")
}

impl ToolCall {
    /// Writes the call as one compact JSON object (no newline), the same
    /// bytes as `serde_json::to_writer`.
    pub fn write_json<W: Write + ?Sized>(&self, w: &mut W) -> io::Result<()> {
        w.write_all(b"{\"type\":")?;
        write_str(w, self.kind)?;
        w.write_all(b",\"doc\":")?;
        write_str(w, &self.doc)?;
        w.write_all(b",\"index\":")?;
        write_u64(w, self.index as u64)?;
        w.write_all(b",\"id\":")?;
        write_str(w, &self.id)?;
        w.write_all(b",\"name\":")?;
        write_str(w, &self.name)?;
        w.write_all(b",\"arguments\":")?;
        serde_json::to_writer(&mut *w, &self.arguments).map_err(io::Error::from)?;
        w.write_all(b",\"format\":")?;
        write_str(w, self.format)?;
        w.write_all(b",\"span\":")?;
        write_span(w, self.span)?;
        w.write_all(b",\"raw\":")?;
        write_str(w, &self.raw)?;
        w.write_all(b",\"repairs\":")?;
        if self.repairs.is_empty() {
            w.write_all(b"[]")?;
        } else {
            serde_json::to_writer(&mut *w, &self.repairs).map_err(io::Error::from)?;
        }
        if self.in_reasoning {
            w.write_all(b",\"in_reasoning\":true")?;
        }
        for (key, value) in &self.extra {
            w.write_all(b",")?;
            write_str(w, key)?;
            w.write_all(b":")?;
            serde_json::to_writer(&mut *w, value).map_err(io::Error::from)?;
        }
        w.write_all(b"}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::{Repair, RepairKind};
    use proptest::prelude::*;

    fn ours(s: &str) -> String {
        let mut v = Vec::new();
        write_str(&mut v, s).expect("a Vec takes every write");
        String::from_utf8(v).expect("escaped UTF-8 stays UTF-8")
    }

    #[test]
    fn every_byte_escapes_as_serde_json_does() {
        for b in 0u8..128 {
            let s = format!("a{}b", b as char);
            assert_eq!(ours(&s), serde_json::to_string(&s).unwrap(), "byte {b:#x}");
        }
        for s in [
            "",
            "\"",
            "\\",
            "日本語 \u{7f} \u{2028}",
            "12345678\"1234567\n",
        ] {
            assert_eq!(ours(s), serde_json::to_string(s).unwrap());
        }
    }

    fn call(doc: &str, name: &str, raw: &str, repairs: bool, reasoning: bool) -> ToolCall {
        let mut extra = serde_json::Map::new();
        if reasoning {
            extra.insert("valid".into(), serde_json::json!(false));
            extra.insert("errors".into(), serde_json::json!([{"path": raw}]));
        }
        ToolCall {
            kind: "tool_call",
            doc: doc.into(),
            index: raw.len(),
            id: format!("call_{name}"),
            name: name.into(),
            arguments: serde_json::json!({ "q": raw, "n": [1, 2.5, null], "b": {"c": true} }),
            format: "hermes",
            span: [u64::MAX - 1, 7],
            raw: raw.into(),
            repairs: if repairs {
                vec![Repair {
                    kind: RepairKind::TrailingComma,
                    offset: 3,
                }]
            } else {
                Vec::new()
            },
            in_reasoning: reasoning,
            extra,
        }
    }

    proptest! {
        #[test]
        fn strings_match_serde_json(s in any::<String>()) {
            prop_assert_eq!(ours(&s), serde_json::to_string(&s).unwrap());
        }

        #[test]
        fn tool_calls_match_serde_json(
            doc in any::<String>(),
            name in any::<String>(),
            raw in "[ -~\\n\\t\\u{0}-\\u{1f}é日]{0,80}",
            repairs: bool,
            reasoning: bool,
        ) {
            let c = call(&doc, &name, &raw, repairs, reasoning);
            let mut v = Vec::new();
            c.write_json(&mut v).unwrap();
            prop_assert_eq!(String::from_utf8(v).unwrap(), serde_json::to_string(&c).unwrap());
        }

        #[test]
        fn text_records_match_serde_json(text in any::<String>(), a: u64, b: u64) {
            #[derive(serde::Serialize)]
            struct Text<'a> {
                #[serde(rename = "type")]
                kind: &'a str,
                text: &'a str,
                span: Span,
            }
            let mut v = Vec::new();
            write_text_record(&mut v, "text", "text", &text, [a, b]).unwrap();
            let want = serde_json::to_string(&Text { kind: "text", text: &text, span: [a, b] }).unwrap();
            prop_assert_eq!(String::from_utf8(v).unwrap(), want);
        }
    }
}
