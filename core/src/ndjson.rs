//! Writing records as compact JSON lines, fast.
//!
//! The bytes written here are exactly what `serde_json::to_writer` writes
//! for the same record (the tests compare the two on random records): the
//! same field order, the same escapes (`\"`, `\\`, `\b`, `\t`, `\n`, `\f`,
//! `\r`, `\u00XX` in lower-case hex for the other control bytes, nothing
//! else), the same numbers. What differs is the cost: a string is scanned
//! eight bytes at a time for the few bytes that need an escape and copied
//! through in runs, where serde_json looks up every byte; records are
//! appended straight to the caller's buffer (a `Vec<u8>` the caller flushes
//! when it is large), with no intermediate `String`, `Value` or `io::Write`
//! call per piece.

use serde_json::Value;

/// Appends `s` as a JSON string, quotes included: runs of bytes that need
/// no escape are found sixteen bytes at a time and copied whole.
pub fn write_str(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    // bytes[run..] are not yet written
    let mut run = 0;
    while let Some(k) = next_escape(bytes, run) {
        out.extend_from_slice(&bytes[run..k]);
        push_escape(out, bytes[k]);
        run = k + 1;
    }
    out.extend_from_slice(&bytes[run..]);
    out.push(b'"');
}

/// Index of the first byte at or after `from` that a JSON string must
/// escape: a control byte below 0x20, `"` or `\\`. Sixteen bytes at a
/// time, the tail as one block padded with spaces.
#[inline]
fn next_escape(bytes: &[u8], from: usize) -> Option<usize> {
    let rest = bytes.get(from..)?;
    let mut off = from;
    let mut blocks = rest.chunks_exact(16);
    for block in &mut blocks {
        let mut sixteen = [0u8; 16];
        sixteen.copy_from_slice(block);
        let hits = block_hits(&sixteen);
        if hits != 0 {
            return Some(off + (hits.trailing_zeros() / 8) as usize);
        }
        off += 16;
    }
    let tail = blocks.remainder();
    if tail.is_empty() {
        return None;
    }
    // spaces need no escape
    let mut sixteen = [b' '; 16];
    sixteen[..tail.len()].copy_from_slice(tail);
    let hits = block_hits(&sixteen);
    (hits != 0).then(|| off + (hits.trailing_zeros() / 8) as usize)
}

/// Sixteen bytes' escape flags as one number: byte `k` of the result
/// (little-endian) is 0xff when byte `k` of the block needs an escape.
/// Written as a plain loop over a fixed-size block, which the compiler
/// turns into vector compares on targets that have them (SSE2 on x86-64).
#[inline]
fn block_hits(sixteen: &[u8; 16]) -> u128 {
    let mut flags = [0u8; 16];
    for (flag, &b) in flags.iter_mut().zip(sixteen) {
        *flag = if needs_escape(b) { 0xff } else { 0 };
    }
    u128::from_le_bytes(flags)
}

/// Appends the escape of a byte that [`needs_escape`]; the two-byte forms
/// as a fixed-size copy.
#[inline]
fn push_escape(out: &mut Vec<u8>, b: u8) {
    let (esc, len) = escape(b);
    if len == 2 {
        out.extend_from_slice(&[esc[0], esc[1]]);
    } else {
        out.extend_from_slice(&esc);
    }
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

/// Appends an unsigned integer in decimal.
pub fn write_u64(out: &mut Vec<u8>, n: u64) {
    let mut buf = itoa::Buffer::new();
    out.extend_from_slice(buf.format(n).as_bytes());
}

/// Appends a span as `[start,end]`.
pub fn write_span(out: &mut Vec<u8>, span: [u64; 2]) {
    out.push(b'[');
    write_u64(out, span[0]);
    out.push(b',');
    write_u64(out, span[1]);
    out.push(b']');
}

/// Appends any JSON value, compact, as `serde_json::to_writer` does: keys
/// in the map's order, strings escaped by [`write_str`], numbers with the
/// digits they were read with.
pub fn write_value(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        // arbitrary_precision keeps a number's own digits, which serde_json
        // writes as they are
        Value::Number(n) => out.extend_from_slice(n.as_str().as_bytes()),
        Value::String(s) => write_str(out, s),
        Value::Array(items) => {
            out.push(b'[');
            for (k, item) in items.iter().enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                write_value(out, item);
            }
            out.push(b']');
        }
        Value::Object(map) => {
            out.push(b'{');
            for (k, (key, item)) in map.iter().enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                write_str(out, key);
                out.push(b':');
                write_value(out, item);
            }
            out.push(b'}');
        }
    }
}

/// Appends a record with only a type, one string field and a span, the
/// shape of `stream`'s `text`, `reasoning` and `markup` records:
/// `{"type":KIND,"FIELD":"…","span":[a,b]}`.
pub fn write_text_record(out: &mut Vec<u8>, kind: &str, field: &str, value: &str, span: [u64; 2]) {
    out.extend_from_slice(b"{\"type\":");
    write_str(out, kind);
    out.push(b',');
    write_str(out, field);
    out.push(b':');
    write_str(out, value);
    out.extend_from_slice(b",\"span\":");
    write_span(out, span);
    out.push(b'}');
}

/// Appends `stream`'s `{"type":"tool_call_start","index":N,"id":…,"name":…}`
/// record.
pub fn write_call_start(out: &mut Vec<u8>, index: usize, id: &str, name: &str) {
    out.extend_from_slice(b"{\"type\":\"tool_call_start\",\"index\":");
    write_u64(out, index as u64);
    out.extend_from_slice(b",\"id\":");
    write_str(out, id);
    out.extend_from_slice(b",\"name\":");
    write_str(out, name);
    out.push(b'}');
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ours(s: &str) -> String {
        let mut v = Vec::new();
        write_str(&mut v, s);
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

    #[test]
    fn an_escape_at_every_position_of_every_length() {
        // block boundaries, tails shorter than a block, runs between escapes
        for len in 0..50 {
            for at in 0..len {
                for special in ['\n', '"', '\\', '\u{1}', '\u{1f}'] {
                    let mut s: String = "abcdefghijklmnopqrstuvwxyz€ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                        .chars()
                        .take(len)
                        .collect();
                    s.replace_range(
                        s.char_indices()
                            .nth(at)
                            .map(|(i, c)| i..i + c.len_utf8())
                            .unwrap(),
                        &special.to_string(),
                    );
                    assert_eq!(ours(&s), serde_json::to_string(&s).unwrap(), "{s:?}");
                }
            }
        }
    }

    /// Any JSON value; numbers are read from text, so they keep the digits
    /// they were written with (`-0`, `1.50`, `1E+2`, huge integers).
    fn any_value() -> impl Strategy<Value = serde_json::Value> {
        let number = "-?(0|[1-9][0-9]{0,25})(\\.[0-9]{1,5})?([eE][+-]?[0-9]{1,3})?"
            .prop_map(|n| serde_json::from_str::<serde_json::Value>(&n).expect("a JSON number"));
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::Bool),
            number,
            any::<String>().prop_map(serde_json::Value::String),
        ];
        leaf.prop_recursive(4, 40, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
                prop::collection::vec((any::<String>(), inner), 0..6)
                    .prop_map(|kv| serde_json::Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn values_match_serde_json(v in any_value()) {
            let mut out = Vec::new();
            write_value(&mut out, &v);
            prop_assert_eq!(String::from_utf8(out).unwrap(), serde_json::to_string(&v).unwrap());
        }

        #[test]
        fn strings_match_serde_json(s in any::<String>()) {
            prop_assert_eq!(ours(&s), serde_json::to_string(&s).unwrap());
        }

        #[test]
        fn text_records_match_serde_json(text in any::<String>(), a: u64, b: u64) {
            #[derive(serde::Serialize)]
            struct Text<'a> {
                #[serde(rename = "type")]
                kind: &'a str,
                text: &'a str,
                span: [u64; 2],
            }
            let mut v = Vec::new();
            write_text_record(&mut v, "text", "text", &text, [a, b]);
            let want = serde_json::to_string(&Text { kind: "text", text: &text, span: [a, b] }).unwrap();
            prop_assert_eq!(String::from_utf8(v).unwrap(), want);
        }

        #[test]
        fn call_starts_match_serde_json(index: usize, id in any::<String>(), name in any::<String>()) {
            let mut v = Vec::new();
            write_call_start(&mut v, index, &id, &name);
            let want = serde_json::json!({"type": "tool_call_start", "index": index, "id": id, "name": name});
            prop_assert_eq!(String::from_utf8(v).unwrap(), want.to_string());
        }
    }
}
