//! Locating problems in the input and rendering compiler-style diagnostics:
//!
//! ```text
//! transcript.txt:14:3: error[TLP-004]: /days: expected integer, got string "three"
//!    14 |   "days": "three"
//!       |   ^
//! ```

use super::Issue;

/// A 1-based line and byte column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    /// Line, from 1.
    pub line: u64,
    /// Byte column, from 1.
    pub column: u64,
}

/// The line and column of byte `offset` in `doc`. Counts from the start:
/// for many positions in one document use [`Located`].
pub fn position(doc: &[u8], offset: usize) -> Pos {
    let offset = offset.min(doc.len());
    let before = &doc[..offset];
    let line = memchr::memchr_iter(b'\n', before).count() as u64 + 1;
    let begin = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    Pos {
        line,
        column: (offset - begin) as u64 + 1,
    }
}

/// The offsets of a document's newlines, found in one pass, so that the line
/// of any offset is a binary search (4 bytes a line below 4 GiB).
#[derive(Clone, Debug)]
pub struct LineIndex {
    newlines: Newlines,
    len: usize,
}

#[derive(Clone, Debug)]
enum Newlines {
    Small(Vec<u32>),
    Large(Vec<u64>),
}

impl LineIndex {
    /// Indexes `doc`'s newlines.
    pub fn new(doc: &[u8]) -> Self {
        let newlines = if u32::try_from(doc.len()).is_ok() {
            Newlines::Small(memchr::memchr_iter(b'\n', doc).map(|i| i as u32).collect())
        } else {
            Newlines::Large(memchr::memchr_iter(b'\n', doc).map(|i| i as u64).collect())
        };
        LineIndex {
            newlines,
            len: doc.len(),
        }
    }

    /// Newlines before `offset`, and the offset of the first newline at or
    /// after it (the document's length when there is none).
    fn around(&self, offset: usize) -> (usize, usize, usize) {
        let offset = offset.min(self.len);
        let (before, begin, end) = match &self.newlines {
            Newlines::Small(v) => {
                let k = v.partition_point(|&n| (n as usize) < offset);
                let begin = if k == 0 { 0 } else { v[k - 1] as usize + 1 };
                (k, begin, v.get(k).map_or(self.len, |&n| n as usize))
            }
            Newlines::Large(v) => {
                let k = v.partition_point(|&n| (n as usize) < offset);
                let begin = if k == 0 { 0 } else { v[k - 1] as usize + 1 };
                (k, begin, v.get(k).map_or(self.len, |&n| n as usize))
            }
        };
        (before, begin, end)
    }

    /// Probes of one binary search.
    fn search_steps(&self) -> usize {
        let n = match &self.newlines {
            Newlines::Small(v) => v.len(),
            Newlines::Large(v) => v.len(),
        };
        (usize::BITS - n.leading_zeros()) as usize + 1
    }

    /// The line and column of byte `offset`: the same as [`position`].
    pub fn position(&self, offset: usize) -> Pos {
        let offset = offset.min(self.len);
        let (before, begin, _) = self.around(offset);
        Pos {
            line: before as u64 + 1,
            column: (offset - begin) as u64 + 1,
        }
    }

    /// The start and end (its newline, or the document's end) of the line
    /// holding byte `offset`.
    pub fn line_bounds(&self, offset: usize) -> (usize, usize) {
        let (_, begin, end) = self.around(offset);
        (begin, end)
    }
}

/// A document and, built on first use, its [`LineIndex`]: positions and
/// diagnostics for many offsets in one document cost a binary search each
/// instead of a count from the start.
#[derive(Debug)]
pub struct Located<T> {
    doc: T,
    lines: std::cell::OnceCell<LineIndex>,
    work: std::cell::Cell<u64>,
    /// Lines before the document's first line in the file it came from.
    lines_before: u64,
}

impl<T: AsRef<[u8]>> Located<T> {
    /// Wraps a document; nothing is indexed until a position is asked for.
    pub fn new(doc: T) -> Self {
        Located {
            doc,
            lines: std::cell::OnceCell::new(),
            work: std::cell::Cell::new(0),
            lines_before: 0,
        }
    }

    /// Wraps a document that is line `line` (1-based) and after of a larger
    /// file (one line of a JSONL file): positions count the file's lines.
    pub fn at_line(doc: T, line: u64) -> Self {
        Located {
            lines_before: line.saturating_sub(1),
            ..Located::new(doc)
        }
    }

    /// Work done so far: bytes indexed, binary search steps, and bytes of
    /// source lines read for diagnostics (the linear-time tests compare it
    /// across input sizes).
    pub fn work(&self) -> u64 {
        self.work.get()
    }

    fn charge(&self, n: usize) {
        self.work.set(self.work.get() + n as u64);
    }

    /// The document's bytes.
    pub fn bytes(&self) -> &[u8] {
        self.doc.as_ref()
    }

    /// The line index, built on first use.
    pub fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| {
            self.charge(self.doc.as_ref().len());
            LineIndex::new(self.doc.as_ref())
        })
    }

    /// The line and column of byte `offset`.
    pub fn position(&self, offset: usize) -> Pos {
        let lines = self.lines();
        self.charge(lines.search_steps());
        let mut pos = lines.position(offset);
        pos.line += self.lines_before;
        pos
    }
}

/// Where in a call's markup `raw` the problem at JSON Pointer `path` most
/// likely lies: the first spelling of its first key (`"key"`, `name="key"`,
/// `<parameter=key>`, `<key>`), else (a missing property, a whole-call
/// problem) the name. Returns a byte offset into `raw`, 0 when nothing
/// better is found.
pub fn locate(raw: &str, path: &str, name: &str) -> usize {
    let key = path
        .split('/')
        .nth(1)
        .map(|k| k.replace("~1", "/").replace("~0", "~"));
    if let Some(k) = key.as_deref().and_then(|k| find_key(raw, k)) {
        return k;
    }
    find_key(raw, name).unwrap_or(0)
}

/// The document offset of the problem at JSON Pointer `path` in a call
/// whose markup is `doc[span]` and `raw` its lossy UTF-8 reading: [`locate`]
/// mapped back to the document's bytes. `raw` holds one 3-byte U+FFFD for
/// each invalid sequence (1 to 3 bytes) of the markup, so an offset into
/// `raw` is not an offset into the markup once invalid UTF-8 precedes the
/// key. Without the bytes, or when `raw` is not their reading (a record
/// whose document changed), the offset into `raw` is used as is.
pub fn locate_in(doc: Option<&[u8]>, span: [u64; 2], raw: &str, path: &str, name: &str) -> usize {
    let rel = locate(raw, path, name);
    let start = span[0] as usize;
    let bytes = doc.and_then(|d| d.get(start..span[1] as usize));
    start
        + match bytes {
            Some(b) if String::from_utf8_lossy(b) == raw => byte_offset(b, rel),
            _ => rel,
        }
}

/// The offset in `bytes` of byte `rel` of `String::from_utf8_lossy(bytes)`
/// (an offset inside a replacement character maps to its invalid sequence).
pub fn byte_offset(bytes: &[u8], rel: usize) -> usize {
    let (mut text_at, mut byte_at) = (0usize, 0usize);
    for chunk in bytes.utf8_chunks() {
        let valid = chunk.valid().len();
        if rel < text_at + valid {
            return byte_at + (rel - text_at);
        }
        text_at += valid;
        byte_at += valid;
        if !chunk.invalid().is_empty() {
            if rel < text_at + char::REPLACEMENT_CHARACTER.len_utf8() {
                return byte_at;
            }
            text_at += char::REPLACEMENT_CHARACTER.len_utf8();
            byte_at += chunk.invalid().len();
        }
    }
    byte_at
}

fn find_key(raw: &str, needle: &str) -> Option<usize> {
    if needle.is_empty() {
        return None;
    }
    let quoted = [
        format!("\"{needle}\""),
        format!("'{needle}'"),
        format!("={needle}>"),
    ];
    for q in &quoted {
        if let Some(i) = raw.find(q.as_str()) {
            return Some(if q.starts_with('=') { i + 1 } else { i });
        }
    }
    // a bare word bounded by non-identifier bytes
    let b = raw.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut from = 0;
    while let Some(k) = raw[from..].find(needle) {
        let i = from + k;
        let j = i + needle.len();
        if (i == 0 || !ident(b[i - 1])) && (j >= b.len() || !ident(b[j])) {
            return Some(i);
        }
        from = j;
    }
    None
}

/// Severity of a diagnostic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// Makes the call invalid.
    Error,
    /// Worth telling; the call stays valid.
    Warning,
}

/// Renders one diagnostic: a `file:line:col: error[CODE]: path: message`
/// line and, when `doc` is given, the source line with a caret. The file
/// name, path and message are escaped ([`crate::scan::escape_terminal`]) and
/// the quoted source line shows `?` for control characters, so the text is
/// safe to print on a terminal and has exactly its own lines.
pub fn render(
    file: &str,
    doc: Option<&[u8]>,
    offset: usize,
    severity: Severity,
    issue: &Issue,
) -> String {
    match doc {
        Some(d) => {
            let offset = offset.min(d.len());
            let pos = position(d, offset);
            let begin = memchr::memrchr(b'\n', &d[..offset]).map_or(0, |i| i + 1);
            let end = memchr::memchr(b'\n', &d[offset..]).map_or(d.len(), |i| offset + i);
            render_at(file, Some((d, pos, begin, end)), offset, severity, issue)
        }
        None => render_at(file, None, offset, severity, issue),
    }
}

/// [`render`] for a document with a line index: the same text, with the
/// line found by a binary search (linear in the number of diagnostics).
pub fn render_in<T: AsRef<[u8]>>(
    file: &str,
    doc: Option<&Located<T>>,
    offset: usize,
    severity: Severity,
    issue: &Issue,
) -> String {
    match doc {
        Some(l) => {
            let d = l.bytes();
            let offset = offset.min(d.len());
            let pos = l.position(offset);
            let (begin, end) = l.lines().line_bounds(offset);
            l.charge(l.lines().search_steps() + shown(&d[begin..end]).len());
            render_at(file, Some((d, pos, begin, end)), offset, severity, issue)
        }
        None => render_at(file, None, offset, severity, issue),
    }
}

/// Characters of the source line shown under a diagnostic.
const SHOWN: usize = 160;

/// The bytes whose lossy reading starts with the first [`SHOWN`] characters
/// of `bytes`' reading: a character takes at most 4 bytes, so a long line is
/// not read past what is shown.
fn shown(bytes: &[u8]) -> &[u8] {
    &bytes[..bytes.len().min(SHOWN * 4)]
}

/// `line`: the document, the position of `offset` and its line's bounds.
fn render_at(
    file: &str,
    line: Option<(&[u8], Pos, usize, usize)>,
    offset: usize,
    severity: Severity,
    issue: &Issue,
) -> String {
    let pos = line.map_or(Pos { line: 1, column: 1 }, |l| l.1);
    let sev = match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let esc = crate::scan::escape_terminal;
    let mut s = format!(
        "{}:{}:{}: {sev}[{}]: ",
        esc(file),
        pos.line,
        pos.column,
        issue.code
    );
    if !issue.path.is_empty() {
        s.push_str(&esc(&issue.path));
        s.push_str(": ");
    }
    s.push_str(&esc(&issue.message));
    s.push('\n');
    if let Some((d, _, begin, end)) = line {
        // a column past what is shown (a long JSONL row): the frame starts
        // shortly before it, marked with an ellipsis
        let prefix = &d[begin..offset];
        let far = prefix.len() > SHOWN - 20
            && (prefix.len() > SHOWN * 4
                || String::from_utf8_lossy(prefix).chars().count() > SHOWN - 20);
        let (begin, mark) = if far {
            let mut b = offset.saturating_sub(60).max(begin);
            while b < offset && (d[b] & 0xC0) == 0x80 {
                b += 1;
            }
            (b, "…")
        } else {
            (begin, "")
        };
        let whole = &d[begin..end];
        let cut = shown(whole);
        // trailing carriage returns are dropped only at the line's real end
        let at_end = whole[cut.len()..].iter().all(|&b| b == b'\r');
        let line = String::from_utf8_lossy(cut);
        let line = if at_end {
            line.trim_end_matches('\r')
        } else {
            &line
        };
        let line: String = line
            .chars()
            .take(SHOWN)
            .map(|c| {
                if crate::scan::is_unsafe_for_terminal(c) {
                    '?'
                } else {
                    c
                }
            })
            .collect();
        let gutter = pos.line.to_string().len().max(4);
        let pad: String = String::from_utf8_lossy(shown(&d[begin..offset]))
            .chars()
            .take(SHOWN)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        let pad_mark = if mark.is_empty() { "" } else { " " };
        s.push_str(&format!("{:>gutter$} | {mark}{line}\n", pos.line));
        s.push_str(&format!("{:>gutter$} | {pad_mark}{pad}^\n", ""));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions() {
        let d = b"ab\ncd\n\xc3\xa9x";
        assert_eq!(position(d, 0), Pos { line: 1, column: 1 });
        assert_eq!(position(d, 4), Pos { line: 2, column: 2 });
        assert_eq!(position(d, 8), Pos { line: 3, column: 3 });
    }

    #[test]
    fn indexed_positions_and_diagnostics_match_counted_ones() {
        let issue = Issue {
            code: "TLP-004",
            path: "/x".into(),
            message: "m".into(),
            expected: String::new(),
            actual: String::new(),
        };
        let long = "é".repeat(400);
        let crs = "\r".repeat(700);
        let docs: Vec<Vec<u8>> = vec![
            Vec::new(),
            b"\n".to_vec(),
            b"ab\ncd\n\xc3\xa9x".to_vec(),
            b"\n\nx\r\n\ty\r\r\n".to_vec(),
            format!("a{long}\r\nb{crs}\nc{crs}z\n{long}{crs}").into_bytes(),
            [&b"\xe2\x82"[..], &[b'q'; 700][..], b"\xff\n\xf0\x9f"].concat(),
        ];
        for d in &docs {
            let l = Located::new(&d[..]);
            for off in 0..=d.len() + 1 {
                assert_eq!(l.position(off), position(d, off), "{off} in {d:?}");
                for sev in [Severity::Error, Severity::Warning] {
                    assert_eq!(
                        render_in("f", Some(&l), off, sev, &issue),
                        render("f", Some(d), off, sev, &issue),
                        "{off} in {d:?}"
                    );
                }
            }
            assert_eq!(
                render_in::<&[u8]>("f", None, 3, Severity::Error, &issue),
                render("f", None, 3, Severity::Error, &issue)
            );
        }
    }

    #[test]
    fn locates_keys_in_every_spelling() {
        assert_eq!(
            locate(r#"{"name":"f","arguments":{"days":"x"}}"#, "/days", "f"),
            25
        );
        assert_eq!(locate("<parameter=days>\nx", "/days", "f"), 11);
        assert_eq!(locate("<days>x</days>", "/days", "f"), 1);
        assert_eq!(locate("<function=book>", "", "book"), 10);
        assert_eq!(locate("x", "/nope", "f"), 0);
        assert_eq!(locate(r#"{"name":"f","arguments":{}}"#, "/gone", "f"), 8);
    }

    #[test]
    fn offsets_map_back_through_invalid_utf8() {
        let b = b"a\xff\xfeb\xe2\x82c";
        let raw = String::from_utf8_lossy(b);
        assert_eq!(raw, "a\u{fffd}\u{fffd}b\u{fffd}c");
        let at = |ch: char| raw.find(ch).expect("char");
        assert_eq!(byte_offset(b, at('a')), 0);
        assert_eq!(byte_offset(b, at('b')), 3);
        assert_eq!(byte_offset(b, at('c')), 6);
        assert_eq!(byte_offset(b, raw.len()), b.len());
        let doc = b"xx{\"q\": \"\xff\xff\", \"days\": 1}";
        let raw = String::from_utf8_lossy(&doc[2..]);
        let at = locate_in(Some(doc), [2, doc.len() as u64], &raw, "/days", "f");
        assert_eq!(&doc[at..at + 6], b"\"days\"");
        assert_eq!(
            locate_in(None, [2, 9], &raw, "/days", "f"),
            2 + locate(&raw, "/days", "f")
        );
    }

    #[test]
    fn renders_with_caret() {
        let issue = Issue {
            code: "TLP-004",
            path: "/days".into(),
            message: "expected integer, got string \"three\"".into(),
            expected: "integer".into(),
            actual: "string \"three\"".into(),
        };
        let doc = b"one\n  \"days\": \"three\"\n";
        let s = render("t.txt", Some(doc), 6, Severity::Error, &issue);
        assert_eq!(
            s,
            "t.txt:2:3: error[TLP-004]: /days: expected integer, got string \"three\"\n   \
             2 |   \"days\": \"three\"\n     |   ^\n"
        );
    }
}
