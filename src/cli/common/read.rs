//! Reading a source: a file or stdin, whole (within a bound), by lines or in
//! chunks.

use anyhow::Context;
use std::io::Read;
use std::path::PathBuf;

/// One document: its name and its bytes, in memory or still to be read.
pub struct Document {
    /// `-` for stdin, else the path (with `:LINE` under `--lines`).
    pub name: String,
    /// The bytes.
    pub body: Body,
}

/// A document's bytes.
pub enum Body {
    /// In memory: read, or a large file mapped.
    Bytes(Bytes),
    /// A whole file or stdin not read yet, for a command that feeds the
    /// engine chunk by chunk and so never holds the document.
    Reader(Box<dyn Read + Send>),
}

/// A whole document in memory: read into a buffer, or a large regular
/// file mapped (`common::map`). Its bytes through `Deref`.
pub enum Bytes {
    /// Read.
    Owned(Vec<u8>),
    /// Mapped.
    Mapped(super::map::Mapped),
}

impl std::ops::Deref for Bytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Owned(v) => v,
            Bytes::Mapped(m) => m,
        }
    }
}

impl From<Vec<u8>> for Bytes {
    fn from(v: Vec<u8>) -> Self {
        Bytes::Owned(v)
    }
}

impl Bytes {
    /// The bytes as an owned buffer (a mapped file is copied).
    pub fn into_vec(self) -> Vec<u8> {
        match self {
            Bytes::Owned(v) => v,
            Bytes::Mapped(m) => m.to_vec(),
        }
    }
}

/// Chunk size for documents fed from a reader.
pub(super) const READ_CHUNK: usize = 64 << 10;

/// Reads all of `r`, at most `max` bytes: a larger input is an error
/// naming `--max-input`, and no more than `max + 1` bytes are ever held.
///
/// `flag` names the limit in the message (`--max-input`, `--max-tools-size`).
pub fn read_limited(r: impl Read, name: &str, max: u64, flag: &str) -> anyhow::Result<Vec<u8>> {
    read_limited_sized(r, name, max, flag, None)
}

/// [`read_limited`] into a buffer sized for `size` bytes (a regular file's
/// length) up front, so that a large file is held once and not in a
/// buffer grown by doubling (which can reach twice its size).
pub fn read_limited_sized(
    r: impl Read,
    name: &str,
    max: u64,
    flag: &str,
    size: Option<u64>,
) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    if let Some(size) = size.filter(|&s| s <= max) {
        // one more byte: reading to the end finds the end without growing
        bytes.reserve_exact(usize::try_from(size).unwrap_or(0).saturating_add(1));
    }
    r.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .with_context(|| format!("reading {name}"))?;
    if bytes.len() as u64 > max {
        anyhow::bail!("{name}: larger than {flag} ({max} bytes); not read (raise {flag})");
    }
    Ok(bytes)
}

/// The reader's buffered bytes, filled when empty (an interrupted read is
/// tried again); empty at the end of input.
fn fill(r: &mut impl std::io::BufRead) -> std::io::Result<&[u8]> {
    loop {
        match r.fill_buf() {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
            Ok(_) => break,
        }
    }
    // the bytes just buffered (a second call reads nothing new)
    r.fill_buf()
}

/// Reads the rest of a line (through its `\n`) into `line`, keeping at most
/// `max + 1` bytes of it; the whole line is always consumed. `Ok(false)` at
/// the end of input.
pub(crate) fn read_line_limited(
    r: &mut impl std::io::BufRead,
    line: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<bool> {
    line.clear();
    let mut any = false;
    loop {
        let buf = fill(r)?;
        if buf.is_empty() {
            return Ok(any);
        }
        any = true;
        let (take, done) = match memchr::memchr(b'\n', buf) {
            Some(k) => (k + 1, true),
            None => (buf.len(), false),
        };
        let room = (max + 1).saturating_sub(line.len());
        line.extend_from_slice(&buf[..take.min(room)]);
        r.consume(take);
        if done {
            return Ok(true);
        }
    }
}

impl Document {
    /// The whole document in memory, at most `max` bytes (`--max-input`):
    /// a larger one is an error, found without holding more than `max`.
    pub fn into_bytes(self, max: u64) -> anyhow::Result<Bytes> {
        match self.body {
            Body::Bytes(b) => Ok(b),
            Body::Reader(r) => read_limited(r, &self.name, max, "--max-input").map(Bytes::Owned),
        }
    }

    /// Hands the bytes to `feed` in chunks of 64 KiB, as they are read or
    /// sliced from memory (the engine's answer is the same either way:
    /// stream == batch; what a chunk finds is written, and its memory
    /// reused, before the next). `feed` returns `false` to stop reading
    /// (`-q` has its answer).
    pub fn feed(self, mut feed: impl FnMut(&[u8]) -> bool) -> anyhow::Result<()> {
        match self.body {
            Body::Bytes(b) => {
                for chunk in b.chunks(READ_CHUNK) {
                    if !feed(chunk) {
                        break;
                    }
                }
            }
            Body::Reader(mut r) => {
                let mut buf = vec![0u8; READ_CHUNK];
                loop {
                    let n = match r.read(&mut buf) {
                        Ok(0) => break,
                        Ok(n) => n,
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                        Err(e) => return Err(e).with_context(|| format!("reading {}", self.name)),
                    };
                    if !feed(&buf[..n]) {
                        break;
                    }
                }
            }
        }
        Ok(())
    }
}

/// Reads a whole file, or stdin for `-`, at most `max` bytes.
pub fn read_source(path: &PathBuf, max: u64) -> anyhow::Result<(String, Vec<u8>)> {
    let (name, reader) = open_source(path)?;
    let bytes = read_limited(reader, &name, max, "--max-input")?;
    Ok((name, bytes))
}

/// Opens a file, or stdin for `-`, without reading it.
pub fn open_source(path: &PathBuf) -> anyhow::Result<(String, Box<dyn Read + Send>)> {
    if path.as_os_str() == "-" {
        Ok(("-".to_string(), Box::new(std::io::stdin())))
    } else {
        if path.is_dir() {
            anyhow::bail!("{}: is a directory", path.display());
        }
        let file =
            std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
        Ok((path.display().to_string(), Box::new(file)))
    }
}

/// Reads the next line, through its `\n`, into `line` (cleared first),
/// taking no more than `max` bytes: `None` at the end of input,
/// `Some(true)` for a whole line (or the last, unterminated one),
/// `Some(false)` when the line goes on past `max` (the rest stays unread).
pub(crate) fn read_line_capped(
    r: &mut impl std::io::BufRead,
    line: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Option<bool>> {
    line.clear();
    loop {
        let buf = fill(r)?;
        if buf.is_empty() {
            return Ok((!line.is_empty()).then_some(true));
        }
        let (take, done) = match memchr::memchr(b'\n', buf) {
            Some(k) => (k + 1, true),
            None => (buf.len(), false),
        };
        let room = max.saturating_sub(line.len());
        if take > room && !(done && take == room + 1) {
            line.extend_from_slice(&buf[..room]);
            r.consume(room);
            return Ok(Some(false));
        }
        line.extend_from_slice(&buf[..take]);
        r.consume(take);
        if done {
            return Ok(Some(true));
        }
    }
}

/// The first non-blank line of an input, read without going past a bound.
pub(crate) struct FirstLine {
    /// Every byte read so far (the blank lines and the line).
    pub prefix: Vec<u8>,
    /// The line (at most the bound's bytes of it).
    pub line: Vec<u8>,
    /// Its 1-based number.
    pub number: usize,
    /// The line ended within the bound (or the input ended).
    pub whole: bool,
}

/// Reads up to the first non-blank line of `r` (named `name` in errors),
/// taking no more than `max` bytes of any line.
pub(crate) fn first_line(
    r: &mut impl std::io::BufRead,
    max: usize,
    name: &str,
) -> anyhow::Result<FirstLine> {
    use anyhow::Context;
    let mut first = FirstLine {
        prefix: Vec::new(),
        line: Vec::new(),
        number: 0,
        whole: true,
    };
    while let Some(complete) =
        read_line_capped(r, &mut first.line, max).with_context(|| format!("reading {name}"))?
    {
        first.number += 1;
        first.prefix.extend_from_slice(&first.line);
        if !complete {
            first.whole = false;
            break;
        }
        if !first.line.trim_ascii().is_empty() {
            break;
        }
    }
    Ok(first)
}

/// Reads the next line, through its `\n`, into `line`, keeping at most
/// `max` bytes of it; the whole line is consumed. `None` at the end of
/// input, else the line's length and whether all of it was kept.
pub(crate) fn read_line_counted(
    r: &mut impl std::io::BufRead,
    line: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Option<(usize, bool)>> {
    line.clear();
    let mut len = 0usize;
    loop {
        loop {
            match r.fill_buf() {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
                Ok(_) => break,
            }
        }
        // the bytes just buffered (a second call reads nothing new)
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok((len > 0).then_some((len, len == line.len())));
        }
        let (take, done) = match memchr::memchr(b'\n', buf) {
            Some(k) => (k + 1, true),
            None => (buf.len(), false),
        };
        let room = max.saturating_sub(line.len());
        line.extend_from_slice(&buf[..take.min(room)]);
        len += take;
        r.consume(take);
        if done {
            return Ok(Some((len, len == line.len())));
        }
    }
}
