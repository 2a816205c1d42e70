//! A strict JSON validator: is this text exactly one JSON value?
//!
//! `repair` asks this of every input before anything else, and most inputs
//! are valid, so the answer has to come at memory speed. Building nothing
//! (no values, no strings, no numbers) and skipping string bodies eight
//! bytes at a time makes it about twice as fast as deserializing
//! `serde::de::IgnoredAny` with serde_json, which decodes as it goes.
//!
//! It accepts exactly what serde_json accepts when it skips a value
//! (RFC 8259; `\u` escapes are four hex digits, surrogates not paired),
//! with one difference: there is no nesting limit. serde_json stops at 128
//! levels; here the container stack is a bit stack, so depth costs one bit.
//! Callers that need serde_json's limit check depth themselves.

/// Containers open around the current position, one bit each (1 = object).
///
/// The innermost 64 levels and the depth are plain values the scan keeps
/// in registers; only the rare levels past 64 live in memory (`Deeper`),
/// touched by cold functions, so the hot loop never spills the stack.
#[derive(Clone, Copy, Default)]
struct BitStack {
    /// The innermost 64 levels.
    low: u64,
    /// How many containers are open.
    depth: usize,
}

/// Levels beyond the innermost 64, 64 to a word.
type Deeper = Vec<u64>;

impl BitStack {
    #[inline(always)]
    fn push(self, object: bool, deeper: &mut Deeper) -> BitStack {
        let mut low = self.low;
        if self.depth >= 64 && self.depth.is_multiple_of(64) {
            spill(deeper, low);
            low = 0;
        }
        BitStack {
            low: (low << 1) | u64::from(object),
            depth: self.depth + 1,
        }
    }

    #[inline(always)]
    fn pop(self, deeper: &mut Deeper) -> BitStack {
        let depth = self.depth - 1;
        let low = if depth >= 64 && depth.is_multiple_of(64) {
            unspill(deeper)
        } else {
            self.low >> 1
        };
        BitStack { low, depth }
    }

    /// Whether the innermost open container is an object.
    #[inline(always)]
    fn in_object(self) -> bool {
        self.low & 1 == 1
    }
}

/// Keeps 64 full levels in memory.
#[cold]
#[inline(never)]
fn spill(deeper: &mut Deeper, low: u64) {
    deeper.push(low);
}

/// The 64 levels kept last.
#[cold]
#[inline(never)]
fn unspill(deeper: &mut Deeper) -> u64 {
    deeper.pop().unwrap_or(0)
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Marks (high bit set) the bytes of `word` that end a run of plain string
/// bytes: `"`, `\` and control characters below 0x20. Bits above the lowest
/// mark may be false alarms (borrows propagate upwards), the lowest is
/// exact, which is all a little-endian scan needs.
#[inline]
pub(crate) fn string_stops(word: u64) -> u64 {
    // XOR with 0x02 keeps 0x00..=0x1f among themselves and turns the
    // quote (0x22) into 0x20: one "below 0x21" test finds both
    let control_or_quote = (word ^ (ONES * 0x02)).wrapping_sub(ONES * 0x21);
    let backslash = (word ^ (ONES * u64::from(b'\\'))).wrapping_sub(ONES);
    // a byte's high bit after an XOR with a constant below 0x80 is its
    // own, so `!word` stands for the XORed words' complements
    (control_or_quote | backslash) & !word & HIGHS
}

/// Whether `input` is exactly one JSON value, with only JSON whitespace
/// (space, tab, line feed, carriage return) around it.
///
/// ```
/// use toolcall_core::is_valid_json as is_json;
/// assert!(is_json(r#" {"a": [1, -2.5e3, "x\u00e9", true, null]} "#));
/// assert!(!is_json(r#"{"a": 1,}"#));
/// assert!(!is_json("01"));
/// ```
pub fn is_json(input: &str) -> bool {
    validate(input.as_bytes()).is_some()
}

/// `Some(())` when the whole of `b` is one value; `None` at the first byte
/// that cannot continue it.
///
/// The position is a local passed to and returned by small inlined
/// functions rather than a field behind `&mut self`: it then stays in a
/// register for the whole scan, which about doubles the speed.
fn validate(b: &[u8]) -> Option<()> {
    let mut stack = BitStack::default();
    let mut deeper = Deeper::new();
    let mut i = skip_ws(b, 0);
    'value: loop {
        // At the start of a value.
        match *b.get(i)? {
            b'"' => i = string_end(b, i + 1)?,
            b'{' => {
                i = skip_ws(b, i + 1);
                if b.get(i) == Some(&b'}') {
                    i += 1;
                } else {
                    stack = stack.push(true, &mut deeper);
                    i = key(b, i)?;
                    continue 'value;
                }
            }
            b'[' => {
                i = skip_ws(b, i + 1);
                if b.get(i) == Some(&b']') {
                    i += 1;
                } else {
                    stack = stack.push(false, &mut deeper);
                    continue 'value;
                }
            }
            b'-' | b'0'..=b'9' => i = number_at(b, i)?.end,
            b't' => i = literal(b, i, b"true")?,
            b'f' => i = literal(b, i, b"false")?,
            b'n' => i = literal(b, i, b"null")?,
            _ => return None,
        }
        // After a complete value: close containers until one continues.
        loop {
            i = skip_ws(b, i);
            if stack.depth == 0 {
                return (i == b.len()).then_some(());
            }
            let c = *b.get(i)?;
            // a comma first: most values are followed by one
            if c == b',' {
                i = skip_ws(b, i + 1);
                if stack.in_object() {
                    i = key(b, i)?;
                }
                continue 'value;
            }
            if c != if stack.in_object() { b'}' } else { b']' } {
                return None;
            }
            i += 1;
            stack = stack.pop(&mut deeper);
        }
    }
}

/// Past the JSON whitespace at `i`.
#[inline(always)]
fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\n' | b'\r' | b'\t') = b.get(i) {
        i += 1;
    }
    i
}

/// An object key at `i`, its colon and the whitespace before the value:
/// where the value starts.
#[inline(always)]
fn key(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let i = skip_ws(b, string_end(b, i + 1)?);
    if b.get(i) != Some(&b':') {
        return None;
    }
    Some(skip_ws(b, i + 1))
}

/// Just past the closing quote of the string whose body starts at `i`.
#[inline(always)]
fn string_end(b: &[u8], mut i: usize) -> Option<usize> {
    loop {
        i = plain_end(b, i);
        match *b.get(i)? {
            b'"' => return Some(i + 1),
            b'\\' => i = escape_end(b, i)?,
            0..=0x1f => return None,
            _ => i += 1,
        }
    }
}

/// The first byte at or after `i` that is not a plain string byte (a
/// quote, a backslash or a control character), or `b.len()`.
#[inline(always)]
fn plain_end(b: &[u8], mut i: usize) -> usize {
    while i + 8 <= b.len() {
        let mut word = [0u8; 8];
        word.copy_from_slice(&b[i..i + 8]);
        let stops = string_stops(u64::from_le_bytes(word));
        if stops != 0 {
            return i + (stops.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i
}

/// Just past the escape sequence whose backslash is at `i`.
#[inline(always)]
fn escape_end(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i + 1)? {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(i + 2),
        b'u' => b
            .get(i + 2..i + 6)?
            .iter()
            .all(u8::is_ascii_hexdigit)
            .then_some(i + 6),
        _ => None,
    }
}

/// Just past `word` when it is at `i`.
#[inline(always)]
fn literal(b: &[u8], i: usize, word: &[u8]) -> Option<usize> {
    (b.get(i..i + word.len())? == word).then_some(i + word.len())
}

/// Where the parts of a JSON number end.
pub(crate) struct NumberEnd {
    /// Where its exponent's `e` or `E` is, when it has one.
    pub exponent: Option<usize>,
    /// Just after its last digit.
    pub end: usize,
}

/// The JSON number `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` at
/// `at`; `None` when none starts there.
#[inline]
pub(crate) fn number_at(b: &[u8], at: usize) -> Option<NumberEnd> {
    let digits = |mut i: usize| {
        while let Some(b'0'..=b'9') = b.get(i) {
            i += 1;
        }
        i
    };
    let some_digits = |i: usize| Some(digits(i)).filter(|&e| e > i);
    let mut i = at + usize::from(b.get(at) == Some(&b'-'));
    i = match b.get(i)? {
        b'0' => i + 1,
        b'1'..=b'9' => digits(i),
        _ => return None,
    };
    if b.get(i) == Some(&b'.') {
        i = some_digits(i + 1)?;
    }
    let mut exponent = None;
    if let Some(b'e' | b'E') = b.get(i) {
        exponent = Some(i);
        let sign = usize::from(matches!(b.get(i + 1), Some(b'+' | b'-')));
        i = some_digits(i + 1 + sign)?;
    }
    Some(NumberEnd { exponent, end: i })
}

#[cfg(test)]
mod tests {
    use super::is_json;

    fn serde_accepts(s: &str) -> bool {
        serde_json::from_str::<serde::de::IgnoredAny>(s).is_ok()
    }

    #[test]
    fn agrees_with_serde_json_on_edge_cases() {
        let cases = [
            "",
            " ",
            "0",
            "-0",
            "-",
            "01",
            "1.",
            ".5",
            "1.5",
            "1e5",
            "1E+5",
            "1e-5",
            "1e",
            "1e+",
            "-1.0e10",
            "2.",
            "[]",
            "{}",
            "[,]",
            "[1,]",
            "[1 2]",
            "{\"a\"}",
            "{\"a\":}",
            "{\"a\":1,}",
            "{\"a\":1 \"b\":2}",
            "{1:2}",
            "{'a':1}",
            "true",
            "tru",
            "truex",
            "nul",
            "null null",
            "\"\"",
            "\"\\u00e9\"",
            "\"\\u00g9\"",
            "\"\\ud800\"",
            "\"\\x\"",
            "\"a\tb\"",
            "\"a\u{7f}b\"",
            "\"caf\u{e9} \u{1f600}\"",
            "\"unterminated",
            "\"abcdefgh\\",
            "\"abcdefghijklmnop\"",
            "[[[[]]]]",
            "[[[]]",
            "[]]",
            " \t\r\n[1]\n",
            "[1]\u{a0}",
            "{\"a\":[{\"b\":{}}],\"c\":\"d\"}",
            "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"]",
            "\"0123456\\\"89abcdef\"",
            "[-]",
            "[+1]",
            "[1.e3]",
            "[0x10]",
            "[Infinity]",
            "[NaN]",
            "\u{feff}[]",
        ];
        for case in cases {
            assert_eq!(is_json(case), serde_accepts(case), "{case:?}");
        }
    }

    #[test]
    fn control_characters_stop_a_string_at_every_word_offset() {
        for at in 0..20 {
            let mut s = String::from("\"");
            s.push_str(&"a".repeat(at));
            s.push('\u{1}');
            s.push_str("bbbbbbbbbbbb\"");
            assert!(!is_json(&s), "{s:?}");
            let fine = s.replace('\u{1}', "é");
            assert!(is_json(&fine), "{fine:?}");
        }
    }

    #[test]
    fn escapes_and_stops_at_every_word_offset() {
        // each piece lands at every offset of the eight-byte words, and at
        // the very end of the input, where the scan goes byte by byte
        let pieces = [
            "\\\"", "\\\\", "\\u00e9", "\\n", "\\x", "\\u12", "\\", "\"", "é", "\u{7f}", "\u{1f}",
        ];
        for piece in pieces {
            for at in 0..20 {
                for tail in ["", "b", "bbbbbbbbbbbbbbbbb"] {
                    let s = format!("\"{}{piece}{tail}\"", "a".repeat(at));
                    assert_eq!(is_json(&s), serde_accepts(&s), "{s:?}");
                    let cut = &s[..s.len() - 1];
                    assert_eq!(is_json(cut), serde_accepts(cut), "{cut:?}");
                    let inside = format!("[{s},{{{s}:{s}}}]");
                    assert_eq!(is_json(&inside), serde_accepts(&inside), "{inside:?}");
                }
            }
        }
    }

    #[test]
    fn depth_is_unlimited_and_balanced() {
        for depth in [1, 63, 64, 65, 127, 128, 129, 1000, 5000] {
            let mixed: String = (0..depth)
                .map(|i| if i % 3 == 0 { "{\"k\":" } else { "[" })
                .collect();
            let closing: String = (0..depth)
                .rev()
                .map(|i| if i % 3 == 0 { "}" } else { "]" })
                .collect();
            assert!(is_json(&format!("{mixed}1{closing}")), "depth {depth}");
            // One closer of the wrong kind, anywhere, breaks it.
            let wrong = closing.replacen(']', "}", 1);
            if depth > 1 {
                assert!(!is_json(&format!("{mixed}1{wrong}")), "depth {depth}");
            }
            assert!(
                !is_json(&format!("{mixed}1{}", &closing[1..])),
                "depth {depth}"
            );
        }
    }

    mod properties {
        use super::{is_json, serde_accepts};
        use proptest::prelude::*;

        /// Valid JSON values, to be mutated below.
        fn value() -> impl Strategy<Value = serde_json::Value> {
            let leaf = prop_oneof![
                Just(serde_json::Value::Null),
                any::<bool>().prop_map(serde_json::Value::from),
                any::<i64>().prop_map(serde_json::Value::from),
                any::<f64>()
                    .prop_filter("finite", |f| f.is_finite())
                    .prop_map(serde_json::Value::from),
                "\\PC{0,12}".prop_map(serde_json::Value::from),
            ];
            leaf.prop_recursive(4, 32, 4, |inner| {
                prop_oneof![
                    prop::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::from),
                    prop::collection::btree_map("[a-z\"\\\\]{0,4}", inner, 0..4)
                        .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
                ]
            })
        }

        /// Pieces at the edges of the grammar, valid and not: numbers
        /// (`-0`, `1e`, `01`, `1.`, huge exponents), escapes (lone
        /// surrogates, short or bad `\u`), control characters in strings,
        /// literals cut short.
        const EDGE_LEAVES: &[&str] = &[
            "0",
            "-0",
            "-",
            "01",
            "1.",
            "1.5",
            ".5",
            "1e",
            "1e+",
            "1E-7",
            "1e999999",
            "-1.0E+400",
            "123456789012345678901234567890",
            "true",
            "tru",
            "false",
            "null",
            "nulls",
            "NaN",
            "\"k\"",
            "\"\"",
            "\"caf\u{e9}\"",
            "\"\\ud800\"",
            "\"\\udc00\\ud800\"",
            "\"\\u12\"",
            "\"\\u00E9\"",
            "\"\\uzzzz\"",
            "\"\\x\"",
            "\"\\/\\b\\f\"",
            "\"a\u{1}b\"",
            "\"\t\"",
            "\"\u{7f}\"",
            "\"\u{0}\"",
            "\"unterminated",
        ];

        /// Whitespace JSON allows and whitespace it does not.
        const EDGE_SPACE: &[&str] = &[
            "", "", "", " ", "\n  ", "\r\n", "\t", "\u{a0}", "\u{c}", "\u{feff}",
        ];

        /// Documents of edge leaves, with edge whitespace around every
        /// token and now and then a comma too many or too few.
        fn near_json() -> impl Strategy<Value = String> {
            let space = || prop::sample::select(EDGE_SPACE);
            let leaf = prop::sample::select(EDGE_LEAVES).prop_map(str::to_string);
            let sep = || prop::sample::select(&[",", ",", ",", ", ", ",,", ""][..]);
            leaf.prop_recursive(5, 48, 5, move |inner| {
                let item = (space(), inner, space());
                prop_oneof![
                    (
                        prop::collection::vec((item.clone(), sep()), 0..5),
                        any::<bool>()
                    )
                        .prop_map(|(items, trailing)| {
                            let mut out = String::from("[");
                            let n = items.len();
                            for (i, ((a, v, b), sep)) in items.into_iter().enumerate() {
                                out.push_str(a);
                                out.push_str(&v);
                                out.push_str(b);
                                if i + 1 < n || trailing {
                                    out.push_str(sep);
                                }
                            }
                            out.push(']');
                            out
                        }),
                    (
                        prop::collection::vec(
                            (prop::sample::select(EDGE_LEAVES), space(), item, sep()),
                            0..5
                        ),
                        any::<bool>()
                    )
                        .prop_map(|(items, trailing)| {
                            let mut out = String::from("{");
                            let n = items.len();
                            for (i, (k, s, (a, v, b), sep)) in items.into_iter().enumerate() {
                                // most keys strings, as a key must be
                                out.push_str(if i % 3 == 2 { k } else { "\"key\"" });
                                out.push_str(s);
                                out.push(':');
                                out.push_str(a);
                                out.push_str(&v);
                                out.push_str(b);
                                if i + 1 < n || trailing {
                                    out.push_str(sep);
                                }
                            }
                            out.push('}');
                            out
                        }),
                ]
            })
            .prop_flat_map(move |doc| (space(), Just(doc), space()))
            .prop_map(|(a, doc, b)| format!("{a}{doc}{b}"))
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 4096, ..ProptestConfig::default() })]

            /// The lowest mark of `string_stops` is the first quote,
            /// backslash or control byte of the word, byte by byte.
            #[test]
            fn string_stops_lowest_mark_is_exact(
                bytes in prop::array::uniform8(prop_oneof![
                    Just(b'"'), Just(b'\\'), Just(0u8), Just(0x1f), Just(0x20), Just(0x21),
                    Just(0x23), Just(0x5b), Just(0x5d), Just(0x7f), Just(0x80), Just(0xa2),
                    Just(0xdc), Just(0xff), any::<u8>(),
                ])
            ) {
                let first = bytes.iter().position(|&c| c == b'"' || c == b'\\' || c < 0x20);
                let stops = crate::scan::valid::string_stops(u64::from_le_bytes(bytes));
                let lowest = (stops != 0).then(|| (stops.trailing_zeros() / 8) as usize);
                prop_assert_eq!(lowest, first, "{:02x?}", bytes);
            }

            /// Near-JSON: the two judges agree (and some of it is valid).
            #[test]
            fn agrees_on_near_json(s in near_json()) {
                prop_assert_eq!(is_json(&s), serde_accepts(&s), "{:?}", s);
            }

            /// Arbitrary strings over JSON's own alphabet: the two judges agree.
            #[test]
            fn agrees_on_json_alphabet_soup(s in "[\\[\\]{}\",:0-9eE+\\-.tfnrulas\\\\ \\t\\n\\x01]{0,40}") {
                prop_assert_eq!(is_json(&s), serde_accepts(&s), "{:?}", s);
            }

            /// Near-JSON built from pieces that sit at the edges of the
            /// grammar: numbers (`-0`, `1e`, `01`, `1.`, huge exponents),
            /// escapes (lone surrogates, short or bad `\u`), control
            /// characters in strings, a byte order mark, whitespace JSON
            /// has and whitespace it has not, commas where they may not be,
            /// nesting. The two judges agree.
            #[test]
            fn agrees_on_near_json_pieces(pieces in prop::collection::vec(prop::sample::select(vec![
                "{", "}", "[", "]", ",", ":", "\"k\"", "\"\"", "\"caf\u{e9}\"",
                "\"\\ud800\"", "\"\\udc00\\ud800\"", "\"\\u12\"", "\"\\u00E9\"",
                "\"\\uzzzz\"", "\"\\x\"", "\"\\/\\b\\f\"", "\"a\u{1}b\"", "\"\t\"",
                "\"\u{7f}\"", "\"", "\\", "0", "-0", "-", "01", "1.", "1.5", ".5", "1e", "1e+",
                "1E-7", "1e999999", "-1.0E+400", "123456789012345678901234567890", "true", "tru",
                "false", "null", "nulls", "\u{feff}", " ", "\t", "\n", "\r", "\u{b}", "\u{c}",
                "\u{a0}", "\u{0}", "/", "NaN",
            ]), 0..24)) {
                let s: String = pieces.concat();
                prop_assert_eq!(is_json(&s), serde_accepts(&s), "{:?}", s);
            }

            /// Valid documents, compact and pretty, then with one byte cut
            /// out or one byte inserted: the two judges agree.
            #[test]
            fn agrees_on_mutated_documents(
                v in value(),
                pretty in any::<bool>(),
                at in any::<prop::sample::Index>(),
                insert in prop::option::of(prop::sample::select(
                    vec!['"', '\\', ',', ':', '[', ']', '{', '}', '0', '-', '.', 'e', ' ', '\u{1}'])),
            ) {
                let doc = if pretty {
                    serde_json::to_string_pretty(&v)
                } else {
                    serde_json::to_string(&v)
                }
                .unwrap_or_default();
                prop_assert!(is_json(&doc), "{:?}", doc);
                let boundaries: Vec<usize> =
                    (0..=doc.len()).filter(|&i| doc.is_char_boundary(i)).collect();
                let cut = boundaries[at.index(boundaries.len())];
                let mut mutated = doc.clone();
                match insert {
                    Some(c) => mutated.insert(cut, c),
                    None => {
                        if let Some(c) = doc[cut..].chars().next() {
                            mutated.replace_range(cut..cut + c.len_utf8(), "");
                        }
                    }
                }
                prop_assert_eq!(is_json(&mutated), serde_accepts(&mutated), "{:?}", mutated);
            }
        }
    }
}
