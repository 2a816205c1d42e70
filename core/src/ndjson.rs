//! Writing records as compact JSON lines, fast.
//!
//! The bytes written here are exactly what `serde_json::to_writer` writes
//! for the same record (the tests compare the two on random records): the
//! same field order, the same escapes (`\"`, `\\`, `\b`, `\t`, `\n`, `\f`,
//! `\r`, `\u00XX` in lower-case hex for the other control bytes, nothing
//! else), the same numbers. What differs is the cost: a string is scanned
//! 64 bytes at a time for the few bytes that need an escape and copied
//! through in runs, where serde_json looks up every byte; records are
//! appended straight to the caller's buffer (a `Vec<u8>` the caller flushes
//! when it is large), with no intermediate `String`, `Value` or `io::Write`
//! call per piece.

use serde_json::Value;

/// Appends `s` as a JSON string, quotes included: the bytes that need an
/// escape are found 64 at a time as a bit mask ([`escape_mask`]) and the
/// runs between them copied whole, so prose with a newline every line
/// costs a few instructions per escape rather than a new search.
pub fn write_str(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    // bytes[run..] are not yet written
    let mut run = 0;
    let mut at = 0;
    while at < bytes.len() {
        let rest = &bytes[at..];
        let mut mask = match rest.first_chunk::<64>() {
            Some(block) => escape_mask(block),
            None => {
                // spaces need no escape
                let mut block = [b' '; 64];
                block[..rest.len()].copy_from_slice(rest);
                escape_mask(&block)
            }
        };
        while mask != 0 {
            let k = at + mask.trailing_zeros() as usize;
            mask &= mask - 1;
            out.extend_from_slice(&bytes[run..k]);
            push_escape(out, bytes[k]);
            run = k + 1;
        }
        at += 64;
    }
    out.extend_from_slice(&bytes[run..]);
    out.push(b'"');
}

/// The bytes of a 64-byte block that a JSON string must escape (a control
/// byte below 0x20, `"` or `\\`) as a bit mask, bit `i` for
/// `block[i]`: sixteen bytes compared at once (`min(b, 0x1f) == b` is
/// `b < 0x20` for unsigned bytes).
#[inline]
fn escape_mask(block: &[u8; 64]) -> u64 {
    use wide::u8x16;
    let (quote, backslash, control) = (u8x16::splat(b'"'), u8x16::splat(b'\\'), u8x16::splat(0x1f));
    let (lanes, _) = block.as_chunks::<16>();
    lanes.iter().enumerate().fold(0, |mask, (k, lane)| {
        let v = u8x16::new(*lane);
        let hits = v.simd_eq(quote) | v.simd_eq(backslash) | v.min(control).simd_eq(v);
        mask | u64::from(hits.to_bitmask() & 0xffff) << (16 * k)
    })
}

/// Appends the escape of a byte that needs one; the two-byte forms
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

/// The escape of a byte that needs one, as serde_json writes it: a
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

#[cfg(test)]
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
    fn the_escape_mask_marks_exactly_the_bytes_to_escape() {
        for b in 0..=255u8 {
            for at in 0..64 {
                let mut block = [b'a'; 64];
                block[at] = b;
                let want = if needs_escape(b) { 1u64 << at } else { 0 };
                assert_eq!(escape_mask(&block), want, "byte {b:#x} at {at}");
            }
        }
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
        for len in 0..150 {
            for at in 0..len {
                for special in ['\n', '"', '\\', '\u{1}', '\u{1f}'] {
                    let mut s: String = "abcdefghijklmnopqrstuvwxyz€ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                        .repeat(3)
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
