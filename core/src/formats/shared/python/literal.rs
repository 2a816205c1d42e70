//! The Python-literal parser: call lists (`[f(a=1), g()]`), call sequences
//! and values in Python's syntax (both quote styles, triple-quoted, raw and
//! prefixed strings, ints with `_`/hex/octal/binary, floats, `True`/`None`,
//! lists, dicts, tuples and sets), read into JSON values.
//!
//! The same parser reads Gemma's argument syntax ([`Dialect::Gemma`]:
//! `{key:<|"|>text<|"|>,n:3}`): the dialect chooses how a value, a string
//! and a dict member look; white space, nesting, the container loops and
//! the closing of brackets cut at end of input are one code path.

use crate::call::type_text;
use serde_json::{Map, Number, Value};

/// Deepest nesting the literal parser accepts.
const MAX_DEPTH: usize = 64;

// ----- the Python-literal parser ---------------------------------------------

/// A call expression read from Python source.
#[derive(Clone, Debug, PartialEq)]
pub struct PyCall {
    /// The (dotted) function name, as written.
    pub name: String,
    /// The keyword arguments.
    pub arguments: Map<String, Value>,
    /// How many positional arguments there were.
    pub positional: usize,
    /// Positional arguments that were themselves calls (`print(f(x=1))`).
    pub inner: Vec<PyCall>,
    /// Offset of the call's first byte in the parsed text.
    pub start: usize,
    /// Offset just after its closing `)`.
    pub end: usize,
}

/// Why Python source did not parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PyError {
    /// Not valid Python literal syntax at this offset.
    Syntax(usize),
    /// The input ended before the expression did, and content may be lost.
    Eof,
}

/// What a successful parse of calls gives.
#[derive(Clone, Debug, PartialEq)]
pub struct PyCalls {
    /// The calls, in order.
    pub calls: Vec<PyCall>,
    /// Offset just after the parsed expression (trailing blanks excluded).
    pub end: usize,
    /// Where closing brackets were supplied because the input ended after a
    /// complete value (only with `close_at_eof`).
    pub closed_at_eof: Option<usize>,
    /// Where the quotes are that were read as part of their string because
    /// nothing a string can end with follows them (`'what's up'`): the
    /// strict reading failed and this one did not.
    pub inner_quotes_at: Vec<usize>,
}

/// The literal syntax a parse reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Python: quoted strings with prefixes and escapes, numbers,
    /// `True`/`None`, lists, tuples, dicts and sets, `\`-newline
    /// continuations.
    Python,
    /// Gemma's argument syntax: `{key:value,…}` objects with bare or
    /// string keys and `[…]` arrays; strings are either between two equal
    /// delimiters from `delims` (read verbatim) or JSON `"…"` strings; any
    /// other value is the bare text up to `,`, `}` or `]`, trimmed: `null`
    /// and `None` are null, `True` and `False` booleans, the rest typed like
    /// text (`type_text`).
    Gemma {
        /// The string delimiters (`<|"|>`, `<escape>`).
        delims: &'static [&'static [u8]],
    },
}

/// A value read by [`parse_literal_in`].
#[derive(Clone, Debug, PartialEq)]
pub struct Literal {
    /// The value.
    pub value: Value,
    /// Where closing brackets were supplied because the input ended after a
    /// complete value (only with `close_at_eof`).
    pub closed_at_eof: Option<usize>,
}

struct Parser<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    depth: usize,
    dialect: Dialect,
    /// Supply missing closers at end of input after a complete value.
    lenient: bool,
    closed_at: Option<usize>,
    /// The last complete token was a string or a closing bracket (a cut right
    /// after it lost nothing).
    last_safe: bool,
    /// Read a quote that cannot end its string (the next non-blank byte is
    /// not `,`, `)`, `]`, `}`, `:` or another quote) as part of the string
    /// (`'what's up'`); the second reading, tried after the strict one
    /// fails.
    inner_quotes: bool,
    /// Where the quotes read that way are.
    inner_quotes_at: Vec<usize>,
    /// A Gemma single-quoted value found no closing quote past this index:
    /// none after it closes one either (which quote closes depends only on
    /// what follows it), so later values do not search again.
    no_single_close_from: Option<usize>,
}

pub(crate) fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b >= 0x80
}

pub(crate) fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

impl<'a> Parser<'a> {
    fn new(s: &'a str, dialect: Dialect, lenient: bool) -> Self {
        Parser {
            s,
            b: s.as_bytes(),
            i: 0,
            depth: 0,
            dialect,
            lenient,
            closed_at: None,
            last_safe: false,
            inner_quotes: false,
            inner_quotes_at: Vec::new(),
            no_single_close_from: None,
        }
    }

    /// Whether the quote at `at` ends its string, in the inner-quote
    /// reading: it does when what follows it (after blanks) could follow a
    /// string. A quote inside such a string that follows `=` or `(` opens a
    /// sibling's value instead (`f(a='x'y), g(b='z')`): that reading is
    /// refused, since it would swallow the next argument.
    fn quote_ends_string(&mut self, at: usize, opened: usize) -> Result<bool, PyError> {
        if !self.inner_quotes {
            return Ok(true);
        }
        if self.ends_string_after(at) {
            let inner = self.inner_quotes_at.last().is_some_and(|&k| k > opened);
            let q = self.b[at];
            let later = self.b[at + 1..]
                .iter()
                .enumerate()
                .any(|(k, &b)| b == q && self.ends_string_after(at + 1 + k));
            // `'echo 'hi', unit='c'` reads two ways: not guessed
            if inner && self.b.get(crate::scan::skip_space(self.b, at + 1)) == Some(&b',') && later
            {
                return Err(PyError::Syntax(at));
            }
            return Ok(true);
        }
        let before = self.b[..at].iter().rev().find(|b| !b.is_ascii_whitespace());
        if matches!(before, Some(b'=' | b'(')) {
            return Err(PyError::Syntax(at));
        }
        self.inner_quotes_at.push(at);
        Ok(false)
    }

    /// Whether what follows the quote at `at` (after blanks) could follow a
    /// string.
    fn ends_string_after(&self, at: usize) -> bool {
        let next = crate::scan::skip_space(self.b, at + 1);
        matches!(
            self.b.get(next),
            None | Some(b',' | b')' | b']' | b'}' | b':' | b'"' | b'\'')
        )
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while let Some(c) = self.peek() {
            if matches!(c, b' ' | b'\t' | b'\r' | b'\n') {
                self.i += 1;
            } else if c == b'\\'
                && self.dialect == Dialect::Python
                && matches!(self.b.get(self.i + 1), Some(b'\n'))
            {
                self.i += 2; // explicit line continuation
            } else {
                break;
            }
        }
    }

    /// Only white space is left.
    fn rest_blank(&mut self) -> Result<(), PyError> {
        self.ws();
        if self.i < self.b.len() {
            return Err(PyError::Syntax(self.i));
        }
        Ok(())
    }

    fn syntax<T>(&self) -> Result<T, PyError> {
        if self.i >= self.b.len() {
            Err(PyError::Eof)
        } else {
            Err(PyError::Syntax(self.i))
        }
    }

    /// At end of input where a closer is expected: true when the closer may
    /// be supplied (lenient mode, after a complete string or bracket).
    fn close_at_eof(&mut self) -> bool {
        if self.i >= self.b.len() && self.lenient && self.last_safe {
            self.closed_at.get_or_insert(self.b.len());
            true
        } else {
            false
        }
    }

    fn enter(&mut self) -> Result<(), PyError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(PyError::Syntax(self.i));
        }
        Ok(())
    }

    /// The container whose opening bracket is at the cursor, up to `close`:
    /// `item` reads one item; items are separated by commas (a trailing one
    /// is allowed), and at end of input after a complete value the closer is
    /// supplied when lenient. With `empty` false the closer is not accepted
    /// before the first item. Returns whether a comma was seen.
    fn items(
        &mut self,
        close: u8,
        empty: bool,
        mut item: impl FnMut(&mut Self) -> Result<(), PyError>,
    ) -> Result<bool, PyError> {
        self.i += 1;
        self.enter()?;
        self.last_safe = false;
        let mut comma = false;
        let mut first = true;
        loop {
            self.ws();
            match self.peek() {
                None => return Err(PyError::Eof),
                Some(c) if c == close && (empty || !first) => {
                    self.i += 1;
                    break;
                }
                _ => {}
            }
            item(self)?;
            first = false;
            self.ws();
            match self.peek() {
                Some(b',') => {
                    self.i += 1;
                    comma = true;
                    self.last_safe = false;
                }
                Some(c) if c == close => {
                    self.i += 1;
                    break;
                }
                None if self.close_at_eof() => break,
                _ => return self.syntax(),
            }
        }
        self.depth -= 1;
        self.last_safe = true;
        Ok(comma)
    }

    fn ident(&mut self) -> Option<&'a str> {
        let start = self.i;
        match self.peek() {
            Some(c) if is_ident_start(c) => {}
            _ => return None,
        }
        while matches!(self.peek(), Some(c) if is_ident_byte(c)) {
            self.i += 1;
        }
        self.s.get(start..self.i)
    }

    /// `ident(.ident)*`, blanks allowed around the dots.
    fn dotted(&mut self) -> Option<&'a str> {
        let start = self.i;
        self.ident()?;
        loop {
            let save = self.i;
            self.skip_blank();
            if self.peek() != Some(b'.') {
                self.i = save;
                break;
            }
            self.i += 1;
            self.skip_blank();
            if self.ident().is_none() {
                self.i = save;
                break;
            }
        }
        self.s.get(start..self.i)
    }

    fn skip_blank(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
    }

    /// A call expression `name(args)` at the cursor.
    fn call(&mut self) -> Result<PyCall, PyError> {
        let start = self.i;
        if self.dotted().is_none() {
            return self.syntax();
        }
        // tool names with hyphens (`add-note`, as MCP servers name them)
        while self.peek() == Some(b'-')
            && self.b.get(self.i + 1).is_some_and(|&c| is_ident_start(c))
        {
            self.i += 1;
            self.dotted();
        }
        let raw_name = self.s.get(start..self.i).unwrap_or_default();
        let name: String = raw_name.chars().filter(|c| !c.is_whitespace()).collect();
        self.skip_blank();
        if self.peek() != Some(b'(') {
            return self.syntax();
        }
        let mut call = PyCall {
            name,
            arguments: Map::new(),
            positional: 0,
            inner: Vec::new(),
            start,
            end: 0,
        };
        self.items(b')', true, |p| p.argument(&mut call))?;
        call.end = self.i;
        Ok(call)
    }

    /// One argument: `key=value`, a nested call, or a positional value.
    fn argument(&mut self, call: &mut PyCall) -> Result<(), PyError> {
        let save = self.i;
        if self.b[self.i..].starts_with(b"**") {
            // `**{'k': v}` unpacks a dict literal into keyword arguments
            let at = self.i;
            self.i += 2;
            let Value::Object(map) = self.value()? else {
                return Err(PyError::Syntax(at));
            };
            call.arguments.extend(map);
            return Ok(());
        }
        if let Some(key) = self.dotted() {
            self.skip_blank();
            let next = self.peek();
            if next == Some(b'=') && self.b.get(self.i + 1) != Some(&b'=') && !key.contains('.') {
                self.i += 1;
                let v = self.value()?;
                call.arguments.insert(key.to_string(), v);
                return Ok(());
            }
            if next == Some(b'(') {
                self.i = save;
                let inner = self.call()?;
                call.positional += 1;
                call.inner.push(inner);
                return Ok(());
            }
            self.i = save;
        }
        self.value()?;
        call.positional += 1;
        Ok(())
    }

    /// A value in the parser's dialect.
    fn value(&mut self) -> Result<Value, PyError> {
        self.ws();
        let Some(c) = self.peek() else {
            return Err(PyError::Eof);
        };
        match self.dialect {
            Dialect::Python => self.python_value(c),
            Dialect::Gemma { delims } => self.gemma_value(c, delims),
        }
    }

    /// A Python literal value starting with `c`.
    fn python_value(&mut self, c: u8) -> Result<Value, PyError> {
        match c {
            b'[' => Ok(Value::Array(self.seq(b']')?.0)),
            b'(' => {
                let (mut items, comma) = self.seq(b')')?;
                if items.len() == 1 && !comma {
                    Ok(items.pop().unwrap_or(Value::Null))
                } else {
                    Ok(Value::Array(items))
                }
            }
            b'{' => self.dict(),
            b'"' | b'\'' => self.strings(),
            b'-' | b'+' | b'.' | b'0'..=b'9' => self.number(),
            _ if is_ident_start(c) => {
                // string prefixes: r"…", u'…', b"…", rb'…'
                let mut k = self.i;
                while k < self.b.len() && k - self.i < 2 && b"rRuUbBfF".contains(&self.b[k]) {
                    k += 1;
                }
                if k > self.i && matches!(self.b.get(k), Some(b'"' | b'\'')) {
                    return self.strings();
                }
                let start = self.i;
                let word = self.ident().unwrap_or("");
                self.last_safe = false;
                match word {
                    "True" | "true" => Ok(Value::Bool(true)),
                    "False" | "false" => Ok(Value::Bool(false)),
                    "None" | "null" => Ok(Value::Null),
                    _ => {
                        self.i = start;
                        Err(PyError::Syntax(start))
                    }
                }
            }
            _ => self.syntax(),
        }
    }

    /// The values of the container opened at the cursor, up to `close`;
    /// returns them and whether a comma was seen.
    fn seq(&mut self, close: u8) -> Result<(Vec<Value>, bool), PyError> {
        let mut items = Vec::new();
        let comma = self.items(close, true, |p| {
            items.push(p.value()?);
            Ok(())
        })?;
        Ok((items, comma))
    }

    /// A dict (or a set, which becomes an array).
    fn dict(&mut self) -> Result<Value, PyError> {
        let mut map = Map::new();
        let mut set: Option<Vec<Value>> = None;
        self.items(b'}', true, |p| {
            let key_at = p.i;
            let key = p.value()?;
            p.ws();
            if set.is_none() && map.is_empty() && matches!(p.peek(), Some(b',' | b'}')) {
                set = Some(Vec::new());
            }
            if let Some(items) = set.as_mut() {
                items.push(key);
                return Ok(());
            }
            if p.peek() != Some(b':') {
                return p.syntax();
            }
            p.i += 1;
            let k = match key {
                Value::String(s) => s,
                Value::Number(n) => n.to_string(),
                Value::Bool(true) => "True".to_string(),
                Value::Bool(false) => "False".to_string(),
                Value::Null => "None".to_string(),
                _ => return Err(PyError::Syntax(key_at)),
            };
            let v = p.value()?;
            map.insert(k, v);
            Ok(())
        })?;
        Ok(match set {
            Some(items) => Value::Array(items),
            None => Value::Object(map),
        })
    }

    /// A Gemma value starting with `c`.
    fn gemma_value(&mut self, c: u8, delims: &'static [&'static [u8]]) -> Result<Value, PyError> {
        if let Some(s) = self.gemma_string(delims) {
            return s.map(Value::String);
        }
        match c {
            b'{' => self.gemma_object(delims),
            b'[' => Ok(Value::Array(self.seq(b']')?.0)),
            b'\'' => match self.gemma_single_quoted(delims) {
                Some(v) => Ok(Value::String(v)),
                None => self.gemma_bare(delims),
            },
            _ => self.gemma_bare(delims),
        }
    }

    /// A Gemma value written in single quotes where the template writes
    /// `<|"|>` (`'abc'`, Python's string syntax): the text up to the first
    /// `'` that a separator (`,` `}` `]`), the end, or a dangling
    /// delimiter (`'abc'<|"|>`, dropped) follows, blanks allowed between.
    /// `None`, the cursor unmoved, when no such quote closes it.
    fn gemma_single_quoted(&mut self, delims: &'static [&'static [u8]]) -> Option<String> {
        let start = self.i + 1;
        if self.no_single_close_from.is_some_and(|at| at <= start) {
            return None;
        }
        let mut from = start;
        while let Some(k) = memchr::memchr(b'\'', &self.b[from..]) {
            let close = from + k;
            let mut j = close + 1;
            while self.b.get(j).is_some_and(u8::is_ascii_whitespace) {
                j += 1;
            }
            if let Some(d) = delim_at(self.b, j, delims) {
                j += d.len();
                while self.b.get(j).is_some_and(u8::is_ascii_whitespace) {
                    j += 1;
                }
            }
            if matches!(self.b.get(j), None | Some(b',' | b'}' | b']')) {
                let text = self.s[start..close].to_string();
                self.i = j;
                self.last_safe = true;
                return Some(text);
            }
            from = close + 1;
        }
        self.no_single_close_from = Some(start);
        None
    }

    /// A bare Gemma literal (`3`, `true`, `some words`) up to the next
    /// separator, typed like text.
    fn gemma_bare(&mut self, delims: &'static [&'static [u8]]) -> Result<Value, PyError> {
        let start = self.i;
        while let Some(c) = self.peek() {
            if matches!(c, b',' | b'}' | b']') {
                break;
            }
            if c == b'<' && delim_at(self.b, self.i, delims).is_some() {
                return Err(PyError::Syntax(self.i));
            }
            self.i += 1;
        }
        self.last_safe = false;
        let word = self.s[start..self.i].trim();
        if word.is_empty() {
            return self.syntax();
        }
        Ok(match word {
            "null" | "None" => Value::Null,
            "True" => Value::Bool(true),
            "False" => Value::Bool(false),
            _ => type_text(word),
        })
    }

    /// A Gemma string: between two of the same delimiter (verbatim) or a
    /// JSON `"…"` string; `None` when neither starts at the cursor.
    fn gemma_string(
        &mut self,
        delims: &'static [&'static [u8]],
    ) -> Option<Result<String, PyError>> {
        if let Some(d) = delim_at(self.b, self.i, delims) {
            let start = self.i + d.len();
            return Some(match crate::scan::find(self.b, start, d) {
                Some(k) => {
                    self.i = k + d.len();
                    self.last_safe = true;
                    Ok(self.s[start..k].to_string())
                }
                None => Err(PyError::Eof),
            });
        }
        if self.peek() != Some(b'"') {
            return None;
        }
        let start = self.i;
        let mut k = start + 1;
        let mut esc = false;
        while let Some(&c) = self.b.get(k) {
            if esc {
                esc = false;
            } else if c == b'\\' {
                esc = true;
            } else if c == b'"' {
                self.i = k + 1;
                self.last_safe = true;
                return Some(
                    serde_json::from_str::<String>(&self.s[start..=k])
                        .map_err(|_| PyError::Syntax(start)),
                );
            }
            k += 1;
        }
        Some(Err(PyError::Eof))
    }

    /// A Gemma object: `key:value` members, the key a string or the bare
    /// text up to `:`.
    fn gemma_object(&mut self, delims: &'static [&'static [u8]]) -> Result<Value, PyError> {
        let mut map = Map::new();
        self.items(b'}', true, |p| {
            let key = match p.gemma_string(delims) {
                Some(k) => k?,
                None => {
                    let start = p.i;
                    while !matches!(p.peek(), None | Some(b':' | b',' | b'}')) {
                        p.i += 1;
                    }
                    p.s[start..p.i].trim().to_string()
                }
            };
            p.ws();
            if p.peek() != Some(b':') || key.is_empty() {
                return p.syntax();
            }
            p.i += 1;
            let v = p.value()?;
            map.insert(key, v);
            Ok(())
        })?;
        Ok(Value::Object(map))
    }

    /// One or more adjacent string literals, concatenated.
    fn strings(&mut self) -> Result<Value, PyError> {
        let mut out = String::new();
        loop {
            self.string(&mut out)?;
            let save = self.i;
            self.ws();
            let mut k = self.i;
            while k < self.b.len() && k - self.i < 2 && b"rRuUbBfF".contains(&self.b[k]) {
                k += 1;
            }
            if !matches!(self.b.get(k), Some(b'"' | b'\'')) {
                self.i = save;
                break;
            }
        }
        self.last_safe = true;
        Ok(Value::String(out))
    }

    /// One string literal (with optional prefix), appended to `out`.
    fn string(&mut self, out: &mut String) -> Result<(), PyError> {
        let mut raw = false;
        while let Some(c) = self.peek() {
            match c {
                b'r' | b'R' => raw = true,
                b'u' | b'U' | b'b' | b'B' | b'f' | b'F' => {}
                _ => break,
            }
            self.i += 1;
        }
        let Some(q) = self.peek() else {
            return Err(PyError::Eof);
        };
        let triple = self.b.get(self.i + 1) == Some(&q) && self.b.get(self.i + 2) == Some(&q);
        let opened = self.i;
        self.i += if triple { 3 } else { 1 };
        let mut seg = self.i;
        loop {
            let Some(k) = memchr::memchr2(q, b'\\', &self.b[self.i..]) else {
                return Err(PyError::Eof);
            };
            let at = self.i + k;
            if self.b[at] == q {
                if triple {
                    if self.b.get(at + 1) == Some(&q) && self.b.get(at + 2) == Some(&q) {
                        out.push_str(&self.s[seg..at]);
                        self.i = at + 3;
                        return Ok(());
                    }
                    self.i = at + 1;
                    continue;
                }
                if !self.quote_ends_string(at, opened)? {
                    self.i = at + 1;
                    continue;
                }
                out.push_str(&self.s[seg..at]);
                self.i = at + 1;
                return Ok(());
            }
            // a backslash
            out.push_str(&self.s[seg..at]);
            let Some(&e) = self.b.get(at + 1) else {
                return Err(PyError::Eof);
            };
            if raw {
                // in raw strings the backslash stays and only protects the quote
                let n = crate::scan::utf8_len(e);
                out.push_str(self.s.get(at..at + 1 + n).unwrap_or("\\"));
                self.i = at + 1 + n;
                seg = self.i;
                continue;
            }
            let (consumed, text) = self.escape(at);
            out.push_str(&text);
            self.i = at + consumed;
            seg = self.i;
        }
    }

    /// Decodes the escape sequence at `at` (a backslash): returns its length
    /// and its text.
    fn escape(&self, at: usize) -> (usize, String) {
        let e = self.b.get(at + 1).copied().unwrap_or(b'\\');
        let simple = |c: char| (2, c.to_string());
        match e {
            b'n' => simple('\n'),
            b't' => simple('\t'),
            b'r' => simple('\r'),
            b'\\' => simple('\\'),
            b'\'' => simple('\''),
            b'"' => simple('"'),
            b'a' => simple('\u{7}'),
            b'b' => simple('\u{8}'),
            b'f' => simple('\u{c}'),
            b'v' => simple('\u{b}'),
            b'/' => simple('/'),
            b'\n' => (2, String::new()),
            b'\r' => {
                if self.b.get(at + 2) == Some(&b'\n') {
                    (3, String::new())
                } else {
                    (2, String::new())
                }
            }
            b'0'..=b'7' => {
                let mut n = 0u32;
                let mut k = at + 1;
                while k < self.b.len() && k < at + 4 && (b'0'..=b'7').contains(&self.b[k]) {
                    n = n * 8 + (self.b[k] - b'0') as u32;
                    k += 1;
                }
                match char::from_u32(n) {
                    Some(c) => (k - at, c.to_string()),
                    None => (k - at, self.s[at..k].to_string()),
                }
            }
            b'x' | b'u' | b'U' => {
                let digits = match e {
                    b'x' => 2,
                    b'u' => 4,
                    _ => 8,
                };
                let hex = self.b.get(at + 2..at + 2 + digits);
                let code = hex
                    .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u32::from_str_radix(h, 16).ok());
                match code {
                    // a surrogate pair written as two \u escapes
                    Some(hi @ 0xD800..=0xDBFF) if e == b'u' => {
                        let lo = self
                            .b
                            .get(at + 6..at + 12)
                            .filter(|t| t.starts_with(b"\\u"))
                            .and_then(|t| std::str::from_utf8(&t[2..]).ok())
                            .and_then(|h| u32::from_str_radix(h, 16).ok())
                            .filter(|lo| (0xDC00..=0xDFFF).contains(lo));
                        match lo.and_then(|lo| {
                            char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                        }) {
                            Some(c) => (12, c.to_string()),
                            None => (2 + digits, self.s[at..at + 2 + digits].to_string()),
                        }
                    }
                    Some(n) => match char::from_u32(n) {
                        Some(c) => (2 + digits, c.to_string()),
                        None => (2 + digits, self.s[at..at + 2 + digits].to_string()),
                    },
                    None => (2, self.s[at..at + 2].to_string()),
                }
            }
            _ => {
                // unknown escape: Python keeps the backslash
                let n = crate::scan::utf8_len(e);
                let end = (at + 1 + n).min(self.b.len());
                (1 + n, self.s.get(at..end).unwrap_or("\\").to_string())
            }
        }
    }

    fn number(&mut self) -> Result<Value, PyError> {
        let start = self.i;
        self.last_safe = false;
        let mut neg = false;
        if let Some(c @ (b'-' | b'+')) = self.peek() {
            neg = c == b'-';
            self.i += 1;
            self.ws();
        }
        let body_start = self.i;
        // hex / octal / binary integers
        if self.peek() == Some(b'0') {
            let radix = match self.b.get(self.i + 1) {
                Some(b'x' | b'X') => 16,
                Some(b'o' | b'O') => 8,
                Some(b'b' | b'B') => 2,
                _ => 0,
            };
            if radix != 0 {
                self.i += 2;
                let ds = self.i;
                while matches!(self.peek(), Some(c) if c.is_ascii_hexdigit() || c == b'_') {
                    self.i += 1;
                }
                let digits: String = self.s[ds..self.i].chars().filter(|&c| c != '_').collect();
                let n = i128::from_str_radix(&digits, radix).map_err(|_| PyError::Syntax(start))?;
                let n = if neg { -n } else { n };
                return int_value(n).ok_or(PyError::Syntax(start));
            }
        }
        let mut float = false;
        while let Some(c) = self.peek() {
            match c {
                b'0'..=b'9' | b'_' => {}
                b'.' => float = true,
                b'e' | b'E' => {
                    float = true;
                    if matches!(self.b.get(self.i + 1), Some(b'+' | b'-')) {
                        self.i += 1;
                    }
                }
                _ => break,
            }
            self.i += 1;
        }
        if self.i == body_start {
            return self.syntax();
        }
        if matches!(self.peek(), Some(c) if is_ident_byte(c)) {
            return Err(PyError::Syntax(self.i)); // `12abc`, `1j`
        }
        let digits: String = self.s[body_start..self.i]
            .chars()
            .filter(|&c| c != '_')
            .collect();
        if !float {
            if let Ok(n) = digits.parse::<i128>() {
                return int_value(if neg { -n } else { n }).ok_or(PyError::Syntax(start));
            }
        }
        let f: f64 = digits.parse().map_err(|_| PyError::Syntax(start))?;
        let f = if neg { -f } else { f };
        Number::from_f64(f)
            .map(Value::Number)
            .ok_or(PyError::Syntax(start))
    }

    /// The calls read, ending at `end`, when only blanks follow them.
    fn into_calls(mut self, calls: Vec<PyCall>, end: usize) -> Result<PyCalls, PyError> {
        self.rest_blank()?;
        Ok(PyCalls {
            calls,
            end,
            closed_at_eof: self.closed_at,
            inner_quotes_at: self.inner_quotes_at,
        })
    }

    /// A `[call, …]` list (not empty).
    /// Skips `NAME =` before a call (`result = f(x=1)`, as Gemma writes
    /// in its `tool_code`): the call is what runs, the name only keeps its
    /// result. `NAME ==` and anything else are left alone.
    fn skip_assignment(&mut self) {
        let at = self.i;
        if self.ident().is_some() {
            self.ws();
            if self.peek() == Some(b'=') && self.b.get(self.i + 1) != Some(&b'=') {
                self.i += 1;
                self.ws();
                return;
            }
        }
        self.i = at;
    }

    fn call_list(&mut self) -> Result<Vec<PyCall>, PyError> {
        self.ws();
        if self.peek() != Some(b'[') {
            return self.syntax();
        }
        let mut calls = Vec::new();
        self.items(b']', false, |p| {
            calls.push(p.call()?);
            Ok(())
        })?;
        Ok(calls)
    }
}

/// The delimiter from `delims` that starts at `i`, if any.
fn delim_at(b: &[u8], i: usize, delims: &'static [&'static [u8]]) -> Option<&'static [u8]> {
    let rest = b.get(i..)?;
    delims.iter().copied().find(|d| rest.starts_with(d))
}

fn int_value(n: i128) -> Option<Value> {
    if let Ok(v) = i64::try_from(n) {
        return Some(Value::Number(v.into()));
    }
    if let Ok(v) = u64::try_from(n) {
        return Some(Value::Number(v.into()));
    }
    Number::from_f64(n as f64).map(Value::Number)
}

/// Parses `src` as a Python list of call expressions (`[f(a=1), g()]`),
/// allowing only white space after it. With `close_at_eof`, brackets missing
/// at the very end after a complete string or bracket are supplied.
pub fn parse_call_list(src: &str, close_at_eof: bool) -> Result<PyCalls, PyError> {
    with_inner_quotes(|inner_quotes| {
        let mut p = Parser::new(src, Dialect::Python, close_at_eof);
        p.inner_quotes = inner_quotes;
        let calls = p.call_list()?;
        let end = p.i;
        p.into_calls(calls, end)
    })
}

/// Runs `parse` strictly, then, if that fails with a syntax error, once
/// more reading quotes that cannot end their string as part of it; the
/// strict error stands when the second reading fails too.
fn with_inner_quotes(parse: impl Fn(bool) -> Result<PyCalls, PyError>) -> Result<PyCalls, PyError> {
    match parse(false) {
        Err(strict @ PyError::Syntax(_)) => parse(true).map_err(|_| strict),
        other => other,
    }
}

/// The calls that parse whole at the start of a list whose later elements
/// do not (`[f(a=1), g(b='x 'y')]`): each one up to the first that fails.
/// Empty when the first fails, or `src` is not a list.
pub fn parse_call_list_prefix(src: &str) -> Vec<PyCall> {
    let mut p = Parser::new(src, Dialect::Python, false);
    p.ws();
    if p.peek() != Some(b'[') {
        return Vec::new();
    }
    p.i += 1;
    let mut calls = Vec::new();
    loop {
        p.ws();
        match p.call() {
            Ok(c) => calls.push(c),
            Err(_) => break,
        }
        p.ws();
        if p.peek() != Some(b',') {
            break;
        }
        p.i += 1;
    }
    calls
}

/// Parses `src` as call expressions without list brackets, separated by
/// white space, newlines, `,` or `;` (`f(a=1)\ng(b=2)`), allowing only white
/// space after the last one.
pub fn parse_call_sequence(src: &str, close_at_eof: bool) -> Result<PyCalls, PyError> {
    with_inner_quotes(|inner_quotes| call_sequence(src, close_at_eof, inner_quotes))
}

fn call_sequence(src: &str, close_at_eof: bool, inner_quotes: bool) -> Result<PyCalls, PyError> {
    let mut p = Parser::new(src, Dialect::Python, close_at_eof);
    p.inner_quotes = inner_quotes;
    let mut calls = Vec::new();
    loop {
        p.ws();
        if p.i >= p.b.len() {
            break;
        }
        if !calls.is_empty() {
            if let Some(b',' | b';') = p.peek() {
                p.i += 1;
                p.ws();
                if p.i >= p.b.len() {
                    break;
                }
            }
        }
        p.skip_assignment();
        calls.push(p.call()?);
        if p.closed_at.is_some() {
            break;
        }
    }
    if calls.is_empty() {
        return p.syntax();
    }
    let end = calls.last().map_or(0, |c| c.end);
    p.into_calls(calls, end)
}

/// Parses `src` as one Python literal (a dict, list, string, number, …),
/// allowing only white space around it, and returns it as JSON.
pub fn parse_literal(src: &str) -> Result<Value, PyError> {
    parse_literal_in(src, Dialect::Python, false).map(|l| l.value)
}

/// Parses `src` as one literal in `dialect`, allowing only white space
/// around it. With `close_at_eof`, brackets missing at the very end after a
/// complete string or bracket are supplied, and where is reported.
pub fn parse_literal_in(
    src: &str,
    dialect: Dialect,
    close_at_eof: bool,
) -> Result<Literal, PyError> {
    let mut p = Parser::new(src, dialect, close_at_eof);
    let value = p.value()?;
    p.rest_blank()?;
    Ok(Literal {
        value,
        closed_at_eof: p.closed_at,
    })
}

/// `print(f(x=1))` (Gemma's tool_code) is the call `f(x=1)`.
pub fn unwrap_print(call: PyCall) -> PyCall {
    if call.name == "print"
        && call.arguments.is_empty()
        && call.positional == 1
        && call.inner.len() == 1
    {
        let mut inner = call.inner.into_iter().next().unwrap_or_else(|| PyCall {
            name: String::new(),
            arguments: Map::new(),
            positional: 0,
            inner: Vec::new(),
            start: 0,
            end: 0,
        });
        inner.start = call.start;
        inner.end = call.end;
        return inner;
    }
    call
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const GEMMA: Dialect = Dialect::Gemma {
        delims: &[b"<|\"|>", b"<escape>"],
    };

    #[test]
    fn gemma_values() {
        let l = parse_literal_in(
            "{a:<|\"|>x, y<|\"|>,\"b\":\"q\\n\",c:[1,True,None,2.5,some word],d:{e:<escape>}<escape>}}",
            GEMMA,
            false,
        )
        .expect("parses");
        assert_eq!(
            l.value,
            json!({"a": "x, y", "b": "q\n", "c": [1, true, null, 2.5, "some word"], "d": {"e": "}"}})
        );
        assert_eq!(l.closed_at_eof, None);
        // no line continuations outside Python
        let l = parse_literal_in("{a:\\\n1}", GEMMA, false).expect("parses");
        assert_eq!(l.value, json!({"a": "\\\n1"}));
        assert_eq!(parse_literal("[1, \\\n2]"), Ok(json!([1, 2])));
    }

    #[test]
    fn gemma_single_quoted_values() {
        // a Python-style string where the template writes `<|"|>`
        let l = parse_literal_in("{a:'x, y',b:' z ',c:'q'<|\"|> }", GEMMA, false).expect("parses");
        assert_eq!(l.value, json!({"a": "x, y", "b": " z ", "c": "q"}));
        // one quote only, or text after a dangling delimiter: bare text / not Gemma
        let l = parse_literal_in("{a:it's,b:'bob}", GEMMA, false).expect("parses");
        assert_eq!(l.value, json!({"a": "it's", "b": "'bob"}));
        assert!(parse_literal_in("{a:'q'<|\"|>x}", GEMMA, false).is_err());
        assert!(parse_literal_in("{a:q<|\"|>}", GEMMA, false).is_err());
    }

    #[test]
    fn gemma_cut_input() {
        let l = parse_literal_in("{a:{b:<|\"|>x<|\"|>", GEMMA, true).expect("closes");
        assert_eq!(l.value, json!({"a": {"b": "x"}}));
        assert_eq!(l.closed_at_eof, Some(17));
        // a bare word or an open string may have lost bytes
        assert_eq!(parse_literal_in("{a:3", GEMMA, true), Err(PyError::Eof));
        assert_eq!(
            parse_literal_in("{a:<|\"|>x", GEMMA, true),
            Err(PyError::Eof)
        );
        assert!(matches!(
            parse_literal_in("{a:1}x", GEMMA, false),
            Err(PyError::Syntax(_))
        ));
    }
}
