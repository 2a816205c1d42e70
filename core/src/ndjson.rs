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
/// escape are found 64 at a time as a bit mask ([`escape_mask`], or two
/// 32-byte AVX2 compares where the CPU has them) and the runs between
/// them copied whole, so prose with a newline every line costs a few
/// instructions per escape rather than a new search.
pub fn write_str(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    if bytes.len() <= 16 && write_short(out, bytes) {
        return;
    }
    // x86-64-v3 (AVX2) chosen at run time: `pulp` checks the CPU once and
    // runs the whole loop compiled for it, without `unsafe` here
    #[cfg(target_arch = "x86_64")]
    if let Some(simd) = pulp::x86::V3::try_new() {
        return simd.vectorize(Escape {
            out,
            bytes,
            lanes: Avx2(simd),
        });
    }
    escape(out, bytes, Sse2);
}

/// [`escape`] as the closure `pulp` runs with the CPU's features enabled.
#[cfg(target_arch = "x86_64")]
struct Escape<'a, L> {
    out: &'a mut Vec<u8>,
    bytes: &'a [u8],
    lanes: L,
}

#[cfg(target_arch = "x86_64")]
impl<L: Lanes> pulp::NullaryFnOnce for Escape<'_, L> {
    type Output = ();

    #[inline(always)]
    fn call(self) {
        escape(self.out, self.bytes, self.lanes);
    }
}

/// How a 64-byte block's escape mask is computed: sixteen bytes a compare
/// (baseline x86-64, NEON) or thirty-two (AVX2).
trait Lanes: Copy {
    /// Bit `i` set for each `block[i]` a JSON string must escape.
    fn mask(self, block: &[u8; 64]) -> u64;
}

/// Sixteen bytes a compare, with `wide` ([`escape_mask`]).
#[derive(Clone, Copy)]
struct Sse2;

impl Lanes for Sse2 {
    #[inline(always)]
    fn mask(self, block: &[u8; 64]) -> u64 {
        escape_mask(block)
    }
}

/// Thirty-two bytes a compare: the proof, from `pulp`, that the CPU has
/// AVX2.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Avx2(pulp::x86::V3);

#[cfg(target_arch = "x86_64")]
impl Lanes for Avx2 {
    #[inline(always)]
    fn mask(self, block: &[u8; 64]) -> u64 {
        let [low, high]: [pulp::u8x32; 2] = pulp::cast(*block);
        half_mask(self.0, low) | half_mask(self.0, high) << 32
    }
}

/// [`escape_mask`]'s test on 32 bytes: XOR with 0x02, "at most 0x20" by
/// an unsigned minimum, or a backslash.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn half_mask(simd: pulp::x86::V3, v: pulp::u8x32) -> u64 {
    let x = simd.xor_u8x32(v, simd.splat_u8x32(0x02));
    let low = simd.cmp_eq_u8x32(simd.min_u8x32(x, simd.splat_u8x32(0x20)), x);
    let backslash = simd.cmp_eq_u8x32(v, simd.splat_u8x32(b'\\'));
    let hits = simd.or_m8x32(low, backslash);
    // the sign bits of the 32 lanes, as the low 32 bits
    u64::from(
        simd.avx2
            ._mm256_movemask_epi8(pulp::cast(hits))
            .cast_unsigned(),
    )
}

/// [`write_str`]'s loop, for strings the short path did not take.
#[inline(always)]
fn escape<L: Lanes>(out: &mut Vec<u8>, bytes: &[u8], lanes: L) {
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    // bytes[run..] are not yet written
    let mut run = 0;
    let (blocks, tail) = bytes.as_chunks::<64>();
    let mut at = 0;
    for block in blocks {
        let mut mask = lanes.mask(block);
        while mask != 0 {
            let k = at + mask.trailing_zeros() as usize;
            mask &= mask - 1;
            copy_between(out, bytes, run, k);
            push_escape(out, bytes[k]);
            run = k + 1;
        }
        at += 64;
    }
    if !tail.is_empty() {
        // the last bytes padded with spaces (which need no escape) to a
        // block, and sixteen more so that short runs are fixed-size copies
        let mut pad = [b' '; 80];
        pad[..tail.len()].copy_from_slice(tail);
        let (block, _) = pad.split_first_chunk::<64>().unwrap_or((&[b' '; 64], &[]));
        let mut mask = lanes.mask(block);
        if mask != 0 {
            if run < at {
                out.extend_from_slice(&bytes[run..at]);
                run = at;
            }
            while mask != 0 {
                let k = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                copy_run(out, &pad, run - at, k);
                push_escape(out, pad[k]);
                run = at + k + 1;
            }
        }
    }
    out.extend_from_slice(&bytes[run..]);
    out.push(b'"');
}

/// Appends `bytes[from..to]`, a run between two escapes: when the input
/// holds 16 (128) bytes from `from`, a run of at most 16 (128) bytes is
/// one fixed-size copy cut back to its length (a quote-dense call's
/// `raw`; a line of prose, most of them 80 to 95 bytes), else `memcpy`.
#[inline(always)]
fn copy_between(out: &mut Vec<u8>, bytes: &[u8], from: usize, to: usize) {
    let n = to - from;
    let rest = bytes.get(from..).unwrap_or_default();
    if n <= 16 {
        if let Some(src) = rest.first_chunk::<16>() {
            let end = out.len() + n;
            out.extend_from_slice(src);
            out.truncate(end);
            return;
        }
    } else if n <= 128 {
        if let Some(src) = rest.first_chunk::<128>() {
            let end = out.len() + n;
            out.extend_from_slice(src);
            out.truncate(end);
            return;
        }
    }
    out.extend_from_slice(&bytes[from..to]);
}

/// Appends `src[from..to]`: a run of at most 16 bytes (between the
/// escapes of a quote-dense string: a call's `raw`, JSON in prose) as one
/// fixed-size copy cut back to its length, a longer one by `memcpy`.
#[inline]
fn copy_run(out: &mut Vec<u8>, src: &[u8], from: usize, to: usize) {
    let n = to - from;
    if n <= 16 {
        if let Some(run) = src[from..].first_chunk::<16>() {
            let end = out.len() + n;
            out.extend_from_slice(run);
            out.truncate(end);
            return;
        }
    }
    out.extend_from_slice(&src[from..to]);
}

/// The bytes of a 64-byte block that a JSON string must escape (a control
/// byte below 0x20, `"` or `\\`) as a bit mask, bit `i` for `block[i]`:
/// sixteen bytes compared at once. XOR with 0x02 moves `"` (0x22) to 0x20
/// and keeps the control bytes below 0x20 (space goes to 0x22), so one
/// unsigned "at most 0x20" test (`min(x, 0x20) == x`) finds both; a
/// backslash is the one other compare.
#[inline]
fn escape_mask(block: &[u8; 64]) -> u64 {
    use wide::u8x16;
    let (flip, top, backslash) = (u8x16::splat(0x02), u8x16::splat(0x20), u8x16::splat(b'\\'));
    let (lanes, _) = block.as_chunks::<16>();
    lanes.iter().enumerate().fold(0, |mask, (k, lane)| {
        let v = u8x16::new(*lane);
        let x = v ^ flip;
        let hits = x.min(top).simd_eq(x) | v.simd_eq(backslash);
        mask | u64::from(hits.to_bitmask() & 0xffff) << (16 * k)
    })
}

/// Appends the escape of a byte that needs one, from [`ESCAPES`]: the
/// two-byte forms as a fixed-size copy.
#[inline]
fn push_escape(out: &mut Vec<u8>, b: u8) {
    let esc = &ESCAPES[usize::from(b)];
    if esc[7] == 2 {
        out.extend_from_slice(&[esc[0], esc[1]]);
    } else {
        out.extend_from_slice(&esc[..6]);
    }
}

/// The escape of every byte that needs one, as serde_json writes it: a
/// short `\"`, `\\`, `\b`, `\t`, `\n`, `\f` or `\r`, else `\u00XX` in
/// lower-case hex; its length in the last byte. One load instead of a
/// `match` that compiles to a jump table (the other bytes' rows are
/// never read).
static ESCAPES: [[u8; 8]; 256] = {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut table = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = [b'\\', b'u', b'0', b'0', HEX[b >> 4], HEX[b & 0xf], 0, 6];
        b += 1;
    }
    let short: [(u8, u8); 7] = [
        (b'"', b'"'),
        (b'\\', b'\\'),
        (0x08, b'b'),
        (b'\t', b't'),
        (b'\n', b'n'),
        (0x0c, b'f'),
        (b'\r', b'r'),
    ];
    let mut k = 0;
    while k < short.len() {
        let (b, c) = short[k];
        table[b as usize] = [b'\\', c, 0, 0, 0, 0, 0, 2];
        k += 1;
    }
    table
};

/// Appends a string of at most 16 bytes that needs no escape (an id, a
/// name, a record's type) with fixed-size loads and stores, and returns
/// true; returns false, writing nothing, when it needs an escape. Such
/// strings are most of a record's; the block path above costs two
/// `memcpy` calls and a padded block for them.
#[inline]
fn write_short(out: &mut Vec<u8>, bytes: &[u8]) -> bool {
    let len = bytes.len();
    // the string's first and last eight (four) bytes: together all of it
    let (head, tail): (&[u8], &[u8]) = if len >= 8 {
        match (bytes.first_chunk::<8>(), bytes.last_chunk::<8>()) {
            (Some(head), Some(tail))
                if !word_needs_escape(u64::from_ne_bytes(*head))
                    && !word_needs_escape(u64::from_ne_bytes(*tail)) =>
            {
                (head, tail)
            }
            _ => return false,
        }
    } else if len >= 4 {
        match (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
            (Some(head), Some(tail)) => {
                let word = u64::from(u32::from_ne_bytes(*head)) << 32
                    | u64::from(u32::from_ne_bytes(*tail));
                if word_needs_escape(word) {
                    return false;
                }
                (head, tail)
            }
            _ => return false,
        }
    } else {
        // up to three bytes, in a word of letters
        let mut word = [b'a'; 8];
        for (w, b) in word.iter_mut().zip(bytes) {
            *w = *b;
        }
        if word_needs_escape(u64::from_ne_bytes(word)) {
            return false;
        }
        out.reserve(len + 2);
        out.push(b'"');
        for &b in bytes {
            out.push(b);
        }
        out.push(b'"');
        return true;
    };
    out.reserve(len + 2);
    out.push(b'"');
    // head, then tail over head's end where they overlap
    let at = out.len();
    out.extend_from_slice(head);
    out.truncate(at + len - tail.len());
    out.extend_from_slice(tail);
    out.push(b'"');
    true
}

/// Eight copies of a byte in a word.
const fn splat(b: u8) -> u64 {
    u64::from_ne_bytes([b; 8])
}

/// Whether any of the eight bytes of `word` needs an escape, with word
/// arithmetic: after XOR with 0x02 (as in [`escape_mask`]) a byte below
/// 0x21 is a control byte or `"`, after XOR with `\\` a zero byte is a
/// backslash, and `(x - 0x21…) & !x & 0x80…` is non-zero exactly when
/// some byte of `x` is below 0x21 (the classic "has a byte less than n"
/// test, exact for n ≤ 0x80).
#[inline]
fn word_needs_escape(word: u64) -> bool {
    let x = word ^ splat(0x02);
    let low = x.wrapping_sub(splat(0x21)) & !x;
    let y = word ^ splat(b'\\');
    let backslash = y.wrapping_sub(splat(0x01)) & !y;
    (low | backslash) & splat(0x80) != 0
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
        let got = String::from_utf8(v).expect("escaped UTF-8 stays UTF-8");
        // the baseline path, which this CPU may not take, writes the same
        assert_eq!(got, baseline(s), "{s:?}");
        got
    }

    /// `write_str` as a CPU without AVX2 runs it.
    fn baseline(s: &str) -> String {
        let mut v = Vec::new();
        if !(s.len() <= 16 && write_short(&mut v, s.as_bytes())) {
            escape(&mut v, s.as_bytes(), Sse2);
        }
        String::from_utf8(v).expect("escaped UTF-8 stays UTF-8")
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_avx2_mask_is_the_baseline_mask() {
        let Some(simd) = pulp::x86::V3::try_new() else {
            return;
        };
        for b in 0..=255u8 {
            for at in 0..64 {
                for fill in [b'a', b' ', 0x80, 0xff, b'!', b'#'] {
                    let mut block = [fill; 64];
                    block[at] = b;
                    assert_eq!(
                        Avx2(simd).mask(&block),
                        escape_mask(&block),
                        "byte {b:#x} at {at}"
                    );
                }
            }
        }
    }

    #[test]
    fn runs_of_every_length_copy_as_serde_json_does() {
        // runs around the fixed copies' sizes (16 and 128 bytes), with and
        // without 16 or 128 bytes of input left after them
        for run in [0, 1, 15, 16, 17, 63, 64, 65, 100, 127, 128, 129, 200] {
            for after in [0, 1, 15, 16, 17, 100, 127, 128, 129, 300] {
                for special in ['\n', '"', '\u{1}'] {
                    let s = format!(
                        "{}{special}{}{special}x",
                        "r".repeat(run),
                        "a".repeat(after)
                    );
                    assert_eq!(ours(&s), serde_json::to_string(&s).unwrap(), "{s:?}");
                }
            }
        }
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
    fn the_word_test_finds_exactly_the_bytes_to_escape() {
        // every byte at every place, among neighbours at the edges of the
        // test's ranges (borrows between bytes must not leak a false answer)
        for fill in [
            b'a',
            b' ',
            b'!',
            0x21,
            0x22 ^ 0x02,
            0x5b,
            0x5d,
            0x7f,
            0x80,
            0xff,
        ] {
            for b in 0..=255u8 {
                for at in 0..8 {
                    let mut word = [fill; 8];
                    word[at] = b;
                    let want = word.iter().any(|&c| needs_escape(c));
                    assert_eq!(
                        word_needs_escape(u64::from_ne_bytes(word)),
                        want,
                        "{word:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn short_strings_escape_as_serde_json_does() {
        // the fixed-size path (up to 16 bytes) and its hand-over to the
        // block path, at every length and place
        for len in 0..=17 {
            for at in 0..len {
                for c in ['\n', '"', '\\', '\u{1}', '\u{1f}', '\u{7f}', ' ', 'é', '€'] {
                    let s: String = (0..len).map(|k| if k == at { c } else { 'x' }).collect();
                    assert_eq!(ours(&s), serde_json::to_string(&s).unwrap(), "{s:?}");
                }
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

    #[test]
    fn quote_dense_strings_escape_as_serde_json_does() {
        // runs of every length between escapes, across the last block and
        // the padded tail (short runs there are fixed-size copies)
        for len in 0..160 {
            for every in 1..20 {
                for (k, special) in ['"', '\n', '\u{2}'].into_iter().enumerate() {
                    let s: String = (0..len)
                        .map(|i| if (i + k) % every == 0 { special } else { 'a' })
                        .collect();
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
        fn short_ascii_strings_match_serde_json(s in "[\\x00-\\x7f]{0,20}") {
            prop_assert_eq!(ours(&s), serde_json::to_string(&s).unwrap());
        }

        #[test]
        fn the_word_test_matches_the_bytes(word: [u8; 8]) {
            prop_assert_eq!(
                word_needs_escape(u64::from_ne_bytes(word)),
                word.iter().any(|&c| needs_escape(c))
            );
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
