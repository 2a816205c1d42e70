//! Compact JSON text for a call's arguments, straight from the bytes the
//! model wrote, when it can be copied through.
//!
//! Most argument objects are plain JSON: no escapes in their strings, no key
//! written twice. For those the compact text a record carries is the input
//! with its whitespace removed, byte for byte what decoding it into a
//! `serde_json::Value` and writing that back would give (strings need no
//! escape, numbers keep the digits they were read with under
//! `arbitrary_precision`, keys keep their order). [`object`] checks the
//! input is such an object and returns that text; anything else — an escape
//! in a string, a repeated key, deep nesting, any byte serde_json would
//! refuse — answers `None` and the caller decodes the value as before. So
//! the answer, when there is one, is exact, and the work is one pass with
//! no allocation but the output.

use super::valid::string_stops;

/// Nesting deeper than this is left to the decoder (serde_json stops at 128).
const MAX_DEPTH: usize = 100;
/// Objects with more keys than this, counted over all the objects open at
/// once, are left to the decoder: repeated keys are found by comparing each
/// key with those before it in its object, held in a fixed array.
const MAX_KEYS: usize = 32;

/// The compact text of `input` when it is exactly one JSON object (with
/// JSON whitespace around it) that can be copied through as described in
/// the module documentation; `None` otherwise. Only the tests call it:
/// the engine compacts a whole call body ([`name_and_arguments`]).
#[cfg(test)]
fn object(input: &str) -> Option<String> {
    let mut c = Compactor::new(input);
    c.skip_ws();
    if c.peek()? != b'{' {
        return None;
    }
    c.value(0)?;
    c.skip_ws();
    if c.pos != c.bytes.len() {
        return None;
    }
    // only whole ASCII tokens and whole strings of the (valid UTF-8) input
    // were copied
    String::from_utf8(c.out).ok()
}

/// The envelope of the commonest call body, `{"name": "…", "arguments":
/// {…}}` with exactly these two keys in either order: the name as written
/// and the arguments' compact text, under the same conditions as
/// [`object`] (a name with an escape also answers `None`).
pub fn name_and_arguments(input: &str) -> Option<(&str, String)> {
    let (name, out) = envelope(input, Compactor::new(input))?;
    Some((name, String::from_utf8(out).ok()?))
}

/// [`name_and_arguments`] without the arguments' text: the name when the
/// body is that envelope, `None` exactly when it answers `None` (its
/// output is always UTF-8: only whole ASCII tokens and whole strings of a
/// `str` are copied). The same pass writing nothing, so no allocation:
/// for a caller that only counts calls ([`crate::formats::ParseCx::tally`]).
pub fn envelope_name(input: &str) -> Option<&str> {
    envelope(input, Compactor::with_out(input, Discard)).map(|(name, Discard)| name)
}

/// A plain call envelope read at the start of some bytes
/// ([`envelope_at`]), as offsets in them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Envelope {
    /// Just after the envelope's closing `}`.
    pub end: usize,
    /// The name's string, quotes excluded.
    pub name: (usize, usize),
    /// The arguments' object.
    pub arguments: (usize, usize),
    /// Some string held a byte at or above 0x80: the bytes are UTF-8 only
    /// once checked (all else read was ASCII).
    pub non_ascii: bool,
}

/// The envelope [`envelope_name`] reads, at the start of `bytes` (which
/// may go on after it and need not be UTF-8): `Some` exactly when
/// `envelope_name` of `bytes[..end]` (as text, when it is UTF-8) is `Some`,
/// with the same name. It reads no byte at or after `end`, so a longer
/// input gives the same answer: a block's scanner runs it on what it has
/// of the block, the parse trusts it ([`crate::formats::BodyHint`]).
pub fn envelope_at(bytes: &[u8]) -> Option<Envelope> {
    let mut c = Compactor::over(bytes, Discard);
    let (name, arguments) = members(&mut c)?;
    Some(Envelope {
        end: c.pos,
        name,
        arguments,
        non_ascii: c.high & HIGHS != 0,
    })
}

const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The envelope read by `c`, a compactor at the start of `input`: the
/// name as written and the arguments' compact text in `c`'s output.
fn envelope<'a, O: Out>(input: &'a str, mut c: Compactor<'a, O>) -> Option<(&'a str, O)> {
    let ((from, to), _) = members(&mut c)?;
    c.skip_ws();
    if c.pos != c.bytes.len() {
        return None;
    }
    Some((input.get(from..to)?, c.out))
}

/// The envelope's object from `c`'s position (blanks before it skipped)
/// through its closing `}`: the spans of the name's string and of the
/// arguments' object.
#[allow(clippy::type_complexity)]
fn members<O: Out>(c: &mut Compactor<'_, O>) -> Option<((usize, usize), (usize, usize))> {
    c.skip_ws();
    c.expect(b'{')?;
    let mut name = None;
    let mut arguments = None;
    for member in 0..2 {
        if member == 1 {
            c.expect(b',')?;
        }
        c.skip_ws();
        let key = c.string()?;
        c.skip_ws();
        c.expect(b':')?;
        c.skip_ws();
        let bytes = c.bytes;
        match &bytes[key.0..key.1] {
            b"name" if name.is_none() => name = Some(c.string()?),
            // the only value copied to `out`
            b"arguments" if arguments.is_none() => {
                if c.peek()? != b'{' {
                    return None;
                }
                let from = c.pos;
                c.value(0)?;
                arguments = Some((from, c.pos));
            }
            _ => return None,
        }
        c.skip_ws();
    }
    c.expect(b'}')?;
    Some((name?, arguments?))
}

/// The compact text of `value`, the arguments of an envelope that
/// [`envelope_at`] read (so strict JSON with no escape): what
/// [`name_and_arguments`] gives for them, without checking them again.
/// Blanks outside strings go, strings are copied whole, and an exponent
/// (an `e` or `E` after a digit: `true` and `false` have theirs after a
/// letter) is written `e` with its sign.
pub fn compact_read(value: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(value.len());
    let mut i = 0;
    while let Some(&b) = value.get(i) {
        match b {
            b'"' => {
                let close =
                    memchr::memchr(b'"', &value[i + 1..]).map_or(value.len(), |k| i + 2 + k);
                out.extend_from_slice(&value[i..close]);
                i = close;
                continue;
            }
            b' ' | b'\n' | b'\r' | b'\t' => {}
            b'e' | b'E' if out.last().is_some_and(u8::is_ascii_digit) => {
                out.push(b'e');
                if !matches!(value.get(i + 1), Some(b'+' | b'-')) {
                    out.push(b'+');
                }
            }
            _ => out.push(b),
        }
        i += 1;
    }
    out
}

/// Where a [`Compactor`] writes the compact text.
trait Out {
    fn push(&mut self, b: u8);
    fn extend_from_slice(&mut self, bytes: &[u8]);
}

impl Out for Vec<u8> {
    #[inline]
    fn push(&mut self, b: u8) {
        Vec::push(self, b);
    }
    #[inline]
    fn extend_from_slice(&mut self, bytes: &[u8]) {
        Vec::extend_from_slice(self, bytes);
    }
}

/// Writes nothing: the checks without the copy.
struct Discard;

impl Out for Discard {
    #[inline]
    fn push(&mut self, _: u8) {}
    #[inline]
    fn extend_from_slice(&mut self, _: &[u8]) {}
}

struct Compactor<'a, O: Out = Vec<u8>> {
    bytes: &'a [u8],
    pos: usize,
    /// The compact text written so far.
    out: O,
    /// The keys of the objects open around `pos`, as spans of `bytes`:
    /// `keys[..open_keys]`.
    keys: [(u32, u32); MAX_KEYS],
    open_keys: usize,
    /// The bytes of the strings read so far, OR-ed (their high bits tell
    /// whether one was at or above 0x80).
    high: u64,
}

impl<'a> Compactor<'a> {
    /// A compactor at the start of `input`.
    fn new(input: &'a str) -> Compactor<'a> {
        Compactor::with_out(input, Vec::with_capacity(input.len()))
    }
}

impl<'a, O: Out> Compactor<'a, O> {
    /// A compactor at the start of `input` writing to `out`.
    fn with_out(input: &'a str, out: O) -> Compactor<'a, O> {
        Compactor::over(input.as_bytes(), out)
    }

    /// A compactor at the start of `bytes` writing to `out`.
    fn over(bytes: &'a [u8], out: O) -> Compactor<'a, O> {
        Compactor {
            bytes,
            pos: 0,
            out,
            keys: [(0, 0); MAX_KEYS],
            open_keys: 0,
            high: 0,
        }
    }
}

impl<O: Out> Compactor<'_, O> {
    /// Copies the byte at `pos`, which is `b`, and steps over it.
    #[inline]
    fn copy(&mut self, b: u8) {
        self.pos += 1;
        self.out.push(b);
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

    #[inline]
    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.pos += 1)
    }

    /// A string without escapes at `pos`; returns the span of its contents
    /// (quotes excluded) and copies nothing. Always inlined: how the
    /// release build's codegen units fall decided it otherwise, and a
    /// call per key and value cost `parse -c` 1.5 % (docs/performance.md).
    #[inline(always)]
    fn string(&mut self) -> Option<(usize, usize)> {
        self.expect(b'"')?;
        let start = self.pos;
        let bytes = self.bytes;
        let (mut at, mut high) = (start, 0u64);
        // the first quote, backslash or control byte: eight bytes at a
        // time, then (fewer than eight left) one at a time
        let stop = loop {
            if let Some(chunk) = bytes.get(at..at + 8) {
                let mut word = [0u8; 8];
                word.copy_from_slice(chunk);
                let word = u64::from_le_bytes(word);
                let stops = string_stops(word);
                if stops == 0 {
                    high |= word;
                    at += 8;
                    continue;
                }
                // the bytes before the first stop (its mark is bit 8k+7)
                let lowest = stops & stops.wrapping_neg();
                high |= word & ((lowest >> 7) - 1);
                break at + (stops.trailing_zeros() / 8) as usize;
            }
            match *bytes.get(at)? {
                b'"' | b'\\' | 0..=0x1f => break at,
                b => {
                    high |= u64::from(b);
                    at += 1;
                }
            }
        };
        self.high |= high;
        // else an escape to decode, or a control byte serde_json refuses
        (bytes[stop] == b'"').then(|| {
            self.pos = stop + 1;
            (start, stop)
        })
    }

    /// Opens a container (`open` at `pos`), copying it: `None` past the
    /// depth limit, `Some(true)` when it is empty (its `close` copied too).
    #[inline]
    fn open(&mut self, open: u8, close: u8, depth: usize) -> Option<bool> {
        if depth >= MAX_DEPTH {
            return None;
        }
        self.copy(open);
        self.skip_ws();
        if self.peek()? == close {
            self.copy(close);
            return Some(true);
        }
        Some(false)
    }

    /// After a container's item: a comma (copied, `Some(false)`: more
    /// follow) or the container's `close` (copied, `Some(true)`); `None`
    /// for anything else.
    #[inline]
    fn after_item(&mut self, close: u8) -> Option<bool> {
        self.skip_ws();
        let b = self.peek()?;
        if b == b',' {
            self.copy(b',');
            self.skip_ws();
            Some(false)
        } else if b == close {
            self.copy(close);
            Some(true)
        } else {
            None
        }
    }

    /// One value at `pos` (whitespace before it skipped), copied compact.
    fn value(&mut self, depth: usize) -> Option<()> {
        match self.peek()? {
            b'{' => {
                if self.open(b'{', b'}', depth)? {
                    return Some(());
                }
                let first_key = self.open_keys;
                loop {
                    let (from, to) = self.string()?;
                    let key = &self.bytes[from..to];
                    let earlier = self.keys.get(first_key..self.open_keys)?;
                    if earlier
                        .iter()
                        .any(|&(f, t)| &self.bytes[f as usize..t as usize] == key)
                    {
                        return None;
                    }
                    let span = (u32::try_from(from).ok()?, u32::try_from(to).ok()?);
                    *self.keys.get_mut(self.open_keys)? = span;
                    self.open_keys += 1;
                    self.out.extend_from_slice(&self.bytes[from - 1..=to]);
                    self.skip_ws();
                    self.expect(b':')?;
                    self.out.push(b':');
                    self.skip_ws();
                    self.value(depth + 1)?;
                    if self.after_item(b'}')? {
                        self.open_keys = first_key;
                        return Some(());
                    }
                }
            }
            b'[' => {
                if self.open(b'[', b']', depth)? {
                    return Some(());
                }
                loop {
                    self.value(depth + 1)?;
                    if self.after_item(b']')? {
                        return Some(());
                    }
                }
            }
            b'"' => {
                let (from, to) = self.string()?;
                self.out.extend_from_slice(&self.bytes[from - 1..=to]);
                Some(())
            }
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        if self.bytes.get(self.pos..self.pos + word.len())? != word {
            return None;
        }
        self.pos += word.len();
        self.out.extend_from_slice(word);
        Some(())
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, copied as serde_json
    /// keeps it (`arbitrary_precision`): as written, but an exponent is
    /// always `e` with a sign (`1E5` is `1e+5`).
    fn number(&mut self) -> Option<()> {
        let start = self.pos;
        let n = super::valid::number_at(self.bytes, start)?;
        self.pos = n.end;
        let Some(e) = n.exponent else {
            self.out.extend_from_slice(&self.bytes[start..n.end]);
            return Some(());
        };
        // serde_json writes the exponent as `e`, its sign always
        self.out.extend_from_slice(&self.bytes[start..e]);
        let (sign, digits) = match self.bytes[e + 1] {
            s @ (b'+' | b'-') => (s, e + 2),
            _ => (b'+', e + 1),
        };
        self.out.extend_from_slice(&[b'e', sign]);
        self.out.extend_from_slice(&self.bytes[digits..n.end]);
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::{compact_read, envelope_at, envelope_name, name_and_arguments, object};
    use proptest::prelude::*;
    use serde_json::Value;

    /// What the decoder path writes for `text`: decode, write back.
    fn decoded(text: &str) -> Option<String> {
        let v: Value = serde_json::from_str(text).ok()?;
        v.is_object().then(|| {
            let mut out = Vec::new();
            crate::ndjson::write_value(&mut out, &v);
            String::from_utf8(out).expect("UTF-8")
        })
    }

    #[test]
    fn copies_plain_objects_compact() {
        for (input, want) in [
            ("{}", "{}"),
            (" {\n\t\"a\" :\r 1 } ", r#"{"a":1}"#),
            (
                r#"{"n": [-0, 0.5, 1E+2, 1e-7, 123456789012345678901234567890]}"#,
                r#"{"n":[-0,0.5,1e+2,1e-7,123456789012345678901234567890]}"#,
            ),
            (
                r#"{"s": "é ü 你好 🙂", "e": [], "o": {}}"#,
                r#"{"s":"é ü 你好 🙂","e":[],"o":{}}"#,
            ),
            (r#"{"x": [1e5, 2.5E3, 0e0]}"#, r#"{"x":[1e+5,2.5e+3,0e+0]}"#),
            (
                r#"{"t": [true, false, null]}"#,
                r#"{"t":[true,false,null]}"#,
            ),
            (r#"{"a": {"a": {"a": 1}}}"#, r#"{"a":{"a":{"a":1}}}"#),
            (
                r#"{"k": "0123456789abcdef0123"}"#,
                r#"{"k":"0123456789abcdef0123"}"#,
            ),
        ] {
            assert_eq!(object(input).as_deref(), Some(want), "{input}");
            assert_eq!(decoded(input).as_deref(), Some(want), "{input}");
        }
    }

    #[test]
    fn leaves_everything_else_to_the_decoder() {
        for input in [
            r#"{"a": "x\"y"}"#,
            r#"{"a\u0062": 1}"#,
            r#"{"a": 1, "a": 2}"#,
            r#"{"o": {"a": 1, "b": 2, "a": 3}}"#,
            "{\"a\": \"tab\there\"}",
            r#"{"a": 01}"#,
            r#"{"a": 1.}"#,
            r#"{"a": .5}"#,
            r#"{"a": -}"#,
            r#"{"a": 1e}"#,
            r#"{"a": +1}"#,
            r#"{"a": 1,}"#,
            r#"{"a": [1,]}"#,
            r#"{"a": tru}"#,
            r#"{"a": 1} x"#,
            r#"{"a": 1}}"#,
            "{\"a\":\u{a0}1}",
            "[1]",
            "\"s\"",
            "",
            "{",
            r#"{"a" 1}"#,
            r#"{1: 2}"#,
        ] {
            assert_eq!(object(input), None, "{input}");
        }
        let deep = format!("{{\"a\":{}1{}}}", "[".repeat(200), "]".repeat(200));
        assert_eq!(object(&deep), None);
        // repeated keys are told apart per object: siblings may share them
        assert!(object(r#"{"a": {"x": 1}, "b": {"x": 2}}"#).is_some());
        let many: Vec<String> = (0..100).map(|k| format!("\"k{k}\": {k}")).collect();
        assert_eq!(object(&format!("{{{}}}", many.join(","))), None);
    }

    #[test]
    fn reads_the_call_envelope() {
        let (name, args) =
            name_and_arguments(r#" {"name": " f ", "arguments": {"a": [1, {"b": "c"}]}} "#)
                .expect("plain");
        assert_eq!((name, args.as_str()), (" f ", r#"{"a":[1,{"b":"c"}]}"#));
        let (name, args) =
            name_and_arguments(r#"{"arguments": {}, "name": "g"}"#).expect("either order");
        assert_eq!((name, args.as_str()), ("g", "{}"));
        for input in [
            r#"{"name": "f", "arguments": {}, "id": "1"}"#,
            r#"{"name": "f", "name": "g"}"#,
            r#"{"name": "f"}"#,
            r#"{"name": "f", "arguments": "{}"}"#,
            r#"{"name": "f\n", "arguments": {}}"#,
            r#"{"name": "f", "arguments": {"a": "\n"}}"#,
            r#"{"name": 1, "arguments": {}}"#,
            r#"{"name": "f", "arguments": {}} {}"#,
        ] {
            assert_eq!(name_and_arguments(input), None, "{input}");
        }
    }

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            "-?(0|[1-9][0-9]{0,25})(\\.[0-9]{1,5})?([eE][+-]?[0-9]{1,3})?"
                .prop_map(|s| serde_json::from_str(&s).expect("a JSON number")),
            "[a-z é\"\\\\\n]{0,12}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 32, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                prop::collection::vec(("[a-c\"]{1,2}", inner), 0..5)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// Wherever it answers, the copy is what the decoder would write;
        /// it answers for every object whose strings have no escape.
        #[test]
        fn agrees_with_decoding(v in value(), pretty in any::<bool>()) {
            let v = Value::Object([("v".to_string(), v)].into_iter().collect());
            let text = if pretty {
                serde_json::to_string_pretty(&v).expect("value")
            } else {
                serde_json::to_string(&v).expect("value")
            };
            let got = object(&text);
            if let Some(got) = &got {
                prop_assert_eq!(Some(got.clone()), decoded(&text));
            }
            prop_assert_eq!(got.is_some(), !text.contains('\\'));
        }

        /// The envelope read at the start of a longer input is what
        /// `envelope_name` says of the body it ends, and ends where the
        /// end scan of the block's scanner does; and it is found wherever
        /// `envelope_name` finds one.
        #[test]
        fn the_envelope_read_at_the_start_is_the_whole_check(
            v in value(),
            name in "[a-z é\"\\\\\n]{0,6}",
            swap in any::<bool>(),
            pretty in any::<bool>(),
            tail in "[ \n,{}\"a<]{0,4}",
            junk in prop::option::of((any::<prop::sample::Index>(), "[ ,:{}\\[\\]\"a1é\\\\\n]")),
        ) {
            let arguments = Value::Object([("v".to_string(), v)].into_iter().collect());
            let mut members = vec![
                ("name".to_string(), Value::String(name)),
                ("arguments".to_string(), arguments),
            ];
            if swap {
                members.reverse();
            }
            let obj = Value::Object(members.into_iter().collect());
            let mut text = if pretty {
                serde_json::to_string_pretty(&obj).expect("value")
            } else {
                serde_json::to_string(&obj).expect("value")
            };
            if let Some((at, byte)) = junk {
                let mut at = at.index(text.len() + 1);
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                text.insert_str(at, &byte);
            }
            let input = format!("{text}{tail}");
            let got = envelope_at(input.as_bytes());
            if let Some(e) = got {
                let body = &input[..e.end];
                prop_assert_eq!(envelope_name(body), input.get(e.name.0..e.name.1));
                let (_, text) = name_and_arguments(body).expect("the same envelope");
                let read = compact_read(&input.as_bytes()[e.arguments.0..e.arguments.1]);
                prop_assert_eq!(String::from_utf8(read).expect("UTF-8"), text);
                prop_assert_eq!(e.non_ascii, !body.is_ascii());
                let stop = crate::scan::balance::JsonEnd::stop_at(b"</tool_call>").scan(input.as_bytes());
                prop_assert_eq!(stop, crate::scan::balance::End::At(e.end));
                let plain = crate::scan::balance::JsonEnd::new().scan(input.as_bytes());
                prop_assert_eq!(plain, crate::scan::balance::End::At(e.end));
            }
            // wherever the whole check answers, on the text alone
            if let Some(name) = envelope_name(&text) {
                let e = envelope_at(input.as_bytes());
                prop_assert!(e.is_some());
                let e = e.expect("read");
                prop_assert_eq!(e.end, text.trim_end().len());
                prop_assert_eq!(input.get(e.name.0..e.name.1), Some(name));
            }
        }

        /// Arbitrary text: never a copy the decoder would not give.
        #[test]
        fn never_answers_wrongly(s in "[\\[\\]{}\",:0-9eE+\\-.tfnrulas\\\\ \\t\\n\\x01]{0,40}") {
            if let Some(got) = object(&s) {
                prop_assert_eq!(Some(got), decoded(&s));
            }
        }
    }
}
