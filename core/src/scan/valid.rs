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
    Validator {
        bytes: input.as_bytes(),
        pos: 0,
        stack: BitStack::default(),
    }
    .run()
    .is_some()
}

/// Containers open around the current position, one bit each (1 = object).
#[derive(Default)]
struct BitStack {
    /// The innermost 64 levels.
    low: u64,
    /// Levels beyond 64, 64 to a word.
    high: Vec<u64>,
    /// How many containers are open.
    depth: usize,
}

impl BitStack {
    #[inline]
    fn push(&mut self, object: bool) {
        if self.depth >= 64 && self.depth.is_multiple_of(64) {
            self.high.push(self.low);
            self.low = 0;
        }
        self.low = (self.low << 1) | u64::from(object);
        self.depth += 1;
    }

    #[inline]
    fn pop(&mut self) {
        self.depth -= 1;
        self.low >>= 1;
        if self.depth >= 64 && self.depth.is_multiple_of(64) {
            self.low = self.high.pop().unwrap_or(0);
        }
    }

    /// Whether the innermost open container is an object.
    #[inline]
    fn in_object(&self) -> bool {
        self.low & 1 == 1
    }
}

struct Validator<'a> {
    bytes: &'a [u8],
    pos: usize,
    stack: BitStack,
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Marks (high bit set) the bytes of `word` that end a run of plain string
/// bytes: `"`, `\` and control characters below 0x20. Bits above the lowest
/// mark may be false alarms (borrows propagate upwards), the lowest is
/// exact, which is all a little-endian scan needs.
#[inline]
pub(crate) fn string_stops(word: u64) -> u64 {
    let control = word.wrapping_sub(ONES * 0x20) & !word;
    let quote = word ^ (ONES * u64::from(b'"'));
    let quote = quote.wrapping_sub(ONES) & !quote;
    let backslash = word ^ (ONES * u64::from(b'\\'));
    let backslash = backslash.wrapping_sub(ONES) & !backslash;
    (control | quote | backslash) & HIGHS
}

impl Validator<'_> {
    /// `Some(())` when the whole input is one value; `None` at the first
    /// byte that cannot continue it.
    fn run(mut self) -> Option<()> {
        self.skip_ws();
        'value: loop {
            // At the start of a value.
            match *self.bytes.get(self.pos)? {
                b'{' => {
                    self.pos += 1;
                    self.skip_ws();
                    if self.peek() == Some(b'}') {
                        self.pos += 1;
                    } else {
                        self.stack.push(true);
                        self.key()?;
                        continue 'value;
                    }
                }
                b'[' => {
                    self.pos += 1;
                    self.skip_ws();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                    } else {
                        self.stack.push(false);
                        continue 'value;
                    }
                }
                b'"' => {
                    self.pos += 1;
                    self.string_rest()?;
                }
                b't' => self.literal(b"true")?,
                b'f' => self.literal(b"false")?,
                b'n' => self.literal(b"null")?,
                b'-' | b'0'..=b'9' => self.number()?,
                _ => return None,
            }
            // After a complete value: close containers until one continues.
            loop {
                self.skip_ws();
                if self.stack.depth == 0 {
                    return (self.pos == self.bytes.len()).then_some(());
                }
                let object = self.stack.in_object();
                match (self.peek()?, object) {
                    (b',', true) => {
                        self.pos += 1;
                        self.skip_ws();
                        self.key()?;
                        continue 'value;
                    }
                    (b',', false) => {
                        self.pos += 1;
                        self.skip_ws();
                        continue 'value;
                    }
                    (b'}', true) | (b']', false) => {
                        self.pos += 1;
                        self.stack.pop();
                    }
                    _ => return None,
                }
            }
        }
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    #[inline]
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.peek() {
            self.pos += 1;
        }
    }

    /// An object key, its colon and the whitespace before the value.
    fn key(&mut self) -> Option<()> {
        if self.peek()? != b'"' {
            return None;
        }
        self.pos += 1;
        self.string_rest()?;
        self.skip_ws();
        if self.peek()? != b':' {
            return None;
        }
        self.pos += 1;
        self.skip_ws();
        Some(())
    }

    /// The rest of a string whose opening quote is behind `pos`.
    fn string_rest(&mut self) -> Option<()> {
        let bytes = self.bytes;
        loop {
            // Plain bytes, eight at a time while there are eight.
            while let Some(chunk) = bytes.get(self.pos..self.pos + 8) {
                let mut word = [0u8; 8];
                word.copy_from_slice(chunk);
                let stops = string_stops(u64::from_le_bytes(word));
                if stops != 0 {
                    self.pos += (stops.trailing_zeros() / 8) as usize;
                    break;
                }
                self.pos += 8;
            }
            match *bytes.get(self.pos)? {
                b'"' => {
                    self.pos += 1;
                    return Some(());
                }
                b'\\' => match *bytes.get(self.pos + 1)? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.pos += 2,
                    b'u' => {
                        let hex = bytes.get(self.pos + 2..self.pos + 6)?;
                        if !hex.iter().all(u8::is_ascii_hexdigit) {
                            return None;
                        }
                        self.pos += 6;
                    }
                    _ => return None,
                },
                0..=0x1f => return None,
                _ => self.pos += 1,
            }
        }
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        if self.bytes.get(self.pos..self.pos + word.len())? == word {
            self.pos += word.len();
            Some(())
        } else {
            None
        }
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    fn number(&mut self) -> Option<()> {
        self.pos = number_at(self.bytes, self.pos)?.end;
        Some(())
    }
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

        proptest! {
            #![proptest_config(ProptestConfig { cases: 4096, ..ProptestConfig::default() })]

            /// Arbitrary strings over JSON's own alphabet: the two judges agree.
            #[test]
            fn agrees_on_json_alphabet_soup(s in "[\\[\\]{}\",:0-9eE+\\-.tfnrulas\\\\ \\t\\n\\x01]{0,40}") {
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
