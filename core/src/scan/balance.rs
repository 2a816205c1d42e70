//! String-aware scanners that find where a bracketed value ends.
//!
//! [`JsonEnd`] finds the end of a JSON(-ish) value: it tracks `"` and `'`
//! strings with backslash escapes and balances `{}`/`[]`, so a literal
//! `</tool_call>` or `}` inside a string argument never ends the value.
//! It resumes where it stopped when more input arrives. (Python expressions
//! have their own scanner, `formats::shared::python::PyScan`.)

/// Where a scan stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The value ends just before this index.
    At(usize),
    /// More input is needed.
    More,
    /// The input at the start is not a bracketed value.
    NotValue,
}

/// Resumable end-of-value scanner for JSON and its sloppy relatives.
#[derive(Clone, Debug, Default)]
pub struct JsonEnd {
    pos: usize,
    depth: u32,
    quote: u8,
    escaped: bool,
    started: bool,
    last_sig: u8,
    colon_expected: bool,
    /// Refuse at once a `{` or `[` right after a `{`: no JSON, JSON5 or
    /// Python object starts so (for unmarked candidates, where nothing but
    /// the shape says that this is JSON).
    strict: bool,
    /// A tag that cannot stand outside a string inside a value: met there,
    /// it ends the value (which never closed) just before it.
    stop: &'static [u8],
}

impl JsonEnd {
    /// A scanner positioned at the start of the value.
    pub fn new() -> Self {
        Self::default()
    }

    /// A scanner that answers [`End::NotValue`] as soon as an object opens
    /// with `{` or `[` where its first key belongs (`{{…`), wherever that
    /// is; [`JsonEnd::scanned`] then tells how far it got.
    pub fn strict() -> Self {
        JsonEnd {
            strict: true,
            ..Self::default()
        }
    }

    /// A scanner that ends a value at `tag` (ASCII case ignored) met outside
    /// a string while the value is still open: no JSON, JSON5 or Python value
    /// holds a bare closing tag, so the body is broken there. Without it a
    /// body that never closes would run on to the end of input, over every
    /// block after it.
    pub fn stop_at(tag: &'static [u8]) -> Self {
        JsonEnd {
            stop: tag,
            ..Self::default()
        }
    }

    /// Whether the scanner stands inside a string.
    pub fn in_string(&self) -> bool {
        self.quote != 0
    }

    /// How many bytes of the input the scanner has consumed.
    pub fn scanned(&self) -> usize {
        self.pos
    }

    /// Scans `input` (the whole value so far, from its first byte) and reports
    /// where the value ends. Call again with a longer `input` after `More`.
    pub fn scan(&mut self, input: &[u8]) -> End {
        let mut i = self.pos;
        if !self.started {
            match input.first() {
                None => return End::More,
                Some(b'{') | Some(b'[') => {}
                Some(_) => return End::NotValue,
            }
        }
        // the state in locals for the loop (stores to `self` on every byte
        // cost more than the tests), written back on the way out
        let (mut depth, mut quote, mut escaped) = (self.depth, self.quote, self.escaped);
        let (mut started, mut last_sig) = (self.started, self.last_sig);
        let (strict, stop) = (self.strict, self.stop);
        // a stop tag is looked for once the value has started
        let stop_first = stop.first().copied();
        let end = 'scan: {
            while i < input.len() {
                let b = input[i];
                if quote != 0 {
                    if escaped {
                        escaped = false;
                    } else if b == b'\\' {
                        escaped = true;
                    } else if b == quote {
                        quote = 0;
                        last_sig = b'"';
                    } else {
                        // fast-forward over plain string bytes
                        i = skip_string_bytes(input, i + 1, quote);
                        continue;
                    }
                    i += 1;
                    continue;
                }
                if started && stop_first == Some(b) {
                    match crate::scan::prefix_ci(&input[i..], stop) {
                        crate::scan::Prefix::Full => break 'scan End::At(i),
                        // the tag may be cut by the chunk's end: look again
                        crate::scan::Prefix::Partial => break 'scan End::More,
                        crate::scan::Prefix::No => {}
                    }
                }
                match b {
                    b'"' => {
                        // most strings hold no escape: step over one to its
                        // closing quote here, not a byte at a time around
                        // the loop
                        let j = skip_string_bytes(input, i + 1, b'"');
                        if input.get(j) == Some(&b'"') {
                            last_sig = b'"';
                            i = j + 1;
                        } else {
                            quote = b'"';
                            i = j;
                        }
                        continue;
                    }
                    b'\'' => {
                        // A single quote opens a string only where a value or key
                        // can start; elsewhere (`it's` in unquoted junk) it is a byte.
                        if matches!(last_sig, b'{' | b'[' | b',' | b':') {
                            quote = b'\'';
                        }
                    }
                    b'{' | b'[' => {
                        if strict && started && last_sig == b'{' {
                            break 'scan End::NotValue;
                        }
                        started = true;
                        depth += 1;
                        last_sig = b;
                    }
                    b'}' | b']' => {
                        depth = depth.saturating_sub(1);
                        last_sig = b;
                        if depth == 0 {
                            i += 1;
                            break 'scan End::At(i);
                        }
                    }
                    b' ' | b'\t' | b'\r' | b'\n' => {}
                    _ => last_sig = b,
                }
                i += 1;
            }
            End::More
        };
        self.pos = i;
        (self.depth, self.quote, self.escaped) = (depth, quote, escaped);
        (self.started, self.last_sig) = (started, last_sig);
        let _ = self.colon_expected;
        end
    }
}

/// The index of the first `quote` or backslash at or after `from`, or
/// `input.len()`. Strings in call bodies are mostly short: the first 32
/// bytes are looked at eight at a time in a register (no call), the rest
/// with memchr.
#[inline(always)]
fn skip_string_bytes(input: &[u8], from: usize, quote: u8) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let (q, bs) = (ONES * u64::from(quote), ONES * u64::from(b'\\'));
    let mut at = from;
    for _ in 0..4 {
        let Some(chunk) = input.get(at..at + 8) else {
            break;
        };
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let word = u64::from_le_bytes(word);
        let (a, b) = (word ^ q, word ^ bs);
        // the lowest marked byte is exact (borrows only run upwards)
        let hits = ((a.wrapping_sub(ONES) & !a) | (b.wrapping_sub(ONES) & !b)) & HIGHS;
        if hits != 0 {
            return at + (hits.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    match input.get(at..) {
        Some(rest) => memchr::memchr2(quote, b'\\', rest).map_or(input.len(), |k| at + k),
        None => input.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    impl JsonEnd {
        /// `scan` as first written: every byte of a string once around
        /// the loop (the reference for the string step in `scan`).
        fn scan_bytewise(&mut self, input: &[u8]) -> End {
            let mut i = self.pos;
            if !self.started {
                match input.first() {
                    None => return End::More,
                    Some(b'{') | Some(b'[') => {}
                    Some(_) => return End::NotValue,
                }
            }
            let stop_first = self.stop.first().copied();
            let end = 'scan: {
                while i < input.len() {
                    let b = input[i];
                    if self.quote != 0 {
                        if self.escaped {
                            self.escaped = false;
                        } else if b == b'\\' {
                            self.escaped = true;
                        } else if b == self.quote {
                            self.quote = 0;
                            self.last_sig = b'"';
                        }
                        i += 1;
                        continue;
                    }
                    if self.started && stop_first == Some(b) {
                        match crate::scan::prefix_ci(&input[i..], self.stop) {
                            crate::scan::Prefix::Full => break 'scan End::At(i),
                            crate::scan::Prefix::Partial => break 'scan End::More,
                            crate::scan::Prefix::No => {}
                        }
                    }
                    match b {
                        b'"' => self.quote = b'"',
                        b'\'' => {
                            if matches!(self.last_sig, b'{' | b'[' | b',' | b':') {
                                self.quote = b'\'';
                            }
                        }
                        b'{' | b'[' => {
                            if self.strict && self.started && self.last_sig == b'{' {
                                break 'scan End::NotValue;
                            }
                            self.started = true;
                            self.depth += 1;
                            self.last_sig = b;
                        }
                        b'}' | b']' => {
                            self.depth = self.depth.saturating_sub(1);
                            self.last_sig = b;
                            if self.depth == 0 {
                                i += 1;
                                break 'scan End::At(i);
                            }
                        }
                        b' ' | b'\t' | b'\r' | b'\n' => {}
                        _ => self.last_sig = b,
                    }
                    i += 1;
                }
                End::More
            };
            self.pos = i;
            end
        }
    }

    /// Bodies made of what the scan tells apart.
    fn piece() -> impl Strategy<Value = &'static [u8]> {
        prop::sample::select(vec![
            &b"{"[..],
            b"}",
            b"[",
            b"]",
            b"\"",
            b"'",
            b"\\",
            b"\\\"",
            b"a",
            b"0123456789",
            b" ",
            b"\n",
            b":",
            b",",
            b"</tool_call>",
            b"</TOOL",
            b"<",
            "é".as_bytes(),
        ])
    }

    proptest! {
        /// Whole and fed in growing prefixes, each kind of scanner answers
        /// as the byte-at-a-time scan did.
        #[test]
        fn the_string_step_answers_as_the_bytewise_scan(
            pieces in prop::collection::vec(piece(), 0..40),
            cuts in prop::collection::vec(0usize..200, 0..4),
            kind in 0usize..3,
        ) {
            let mut input = b"{".to_vec();
            input.extend(pieces.concat());
            let make = || match kind {
                0 => JsonEnd::new(),
                1 => JsonEnd::strict(),
                _ => JsonEnd::stop_at(b"</tool_call>"),
            };
            let (mut new, mut old) = (make(), make());
            let mut ends: Vec<usize> = cuts.iter().map(|&c| c % (input.len() + 1)).collect();
            ends.sort_unstable();
            ends.push(input.len());
            for end in ends {
                let (a, b) = (new.scan(&input[..end]), old.scan_bytewise(&input[..end]));
                prop_assert_eq!(a, b, "at {}", end);
                if a != End::More {
                    break;
                }
            }
        }
    }

    fn whole(s: &str) -> End {
        JsonEnd::new().scan(s.as_bytes())
    }

    #[test]
    fn string_bytes_are_skipped_to_the_first_quote_or_backslash() {
        for len in 0..80 {
            for stop in 0..=len {
                for (quote, put) in [(b'"', b'"'), (b'"', b'\\'), (b'\'', b'\''), (b'\'', b'\\')] {
                    let mut input = vec![b'a'; len];
                    if stop < len {
                        input[stop] = put;
                    }
                    // the other quote and bytes with the high bit set are plain
                    if stop > 1 {
                        input[stop - 1] = if quote == b'"' { b'\'' } else { b'"' };
                        input[0] = 0xc3;
                    }
                    for from in 0..=stop {
                        assert_eq!(
                            skip_string_bytes(&input, from, quote),
                            stop,
                            "len {len} stop {stop} from {from}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn ends_after_balanced_object() {
        assert_eq!(whole(r#"{"a": {"b": [1, 2]}} tail"#), End::At(20));
    }

    #[test]
    fn strings_hide_brackets_and_tags() {
        let s = r#"{"doc": "use </tool_call> and } ]", "x": "\"}"} rest"#;
        assert_eq!(whole(s), End::At(s.len() - 5));
    }

    #[test]
    fn resumes_byte_by_byte() {
        let s = br#"{"a": "x}\"y", "b": [1, {"c": 2}]}!"#;
        let mut sc = JsonEnd::new();
        let mut got = End::More;
        for n in 0..=s.len() {
            got = sc.scan(&s[..n]);
            if got != End::More {
                break;
            }
        }
        assert_eq!(got, End::At(s.len() - 1));
    }

    #[test]
    fn strict_refuses_an_object_opening_with_a_bracket() {
        let s = br#"{"a": {{"b": 1}}"#;
        let mut sc = JsonEnd::strict();
        assert_eq!(sc.scan(s), End::NotValue);
        assert_eq!(sc.scanned(), 7);
        assert_eq!(JsonEnd::strict().scan(br#"{"a": [[1], {}]}"#), End::At(16));
        assert_eq!(JsonEnd::new().scan(br#"{{}}"#), End::At(4));
    }

    #[test]
    fn single_quoted_strings_only_where_values_start() {
        assert_eq!(whole("{'a': 'x}'}"), End::At(11));
        assert_eq!(whole(r#"{"t": "it's"}"#), End::At(13));
    }
}
