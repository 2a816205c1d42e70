//! Large JSON documents of conversations in `validate` (issue 43).
//!
//! A conversation is held whole while it is checked, and the parsed value
//! with what is read from it costs some 30 times its size. So:
//!
//! * a top-level array of conversations (the `.json` dataset file of the
//!   fine-tuning tools) is read an element at a time: memory is bounded by
//!   the largest element, whatever the file's size, and the records are
//!   those of the whole document (pointers `/K/…`, lines and columns in the
//!   file);
//! * one JSON document larger than `--max-conversation` is not read whole:
//!   it is one `TLP-007` error, and the next file is read;
//! * a JSONL whose first line is longer than `--max-buffer` is still a
//!   JSONL: that line is a `TLP-007` error, as a later one is.

use super::conv::judge_line;
use super::{Run, ValidateArgs};
use crate::validate::diag::Located;
use crate::validate::items::{is_conversation, Item};
use crate::validate::Issue;
use crate::Config;
use serde_json::Value;
use std::io::{BufRead, Read};
use std::rc::Rc;

/// The reader `validate` reads a large document from.
type Reader = std::io::BufReader<Box<dyn Read + Send>>;

/// A document handed back to be read whole: the bytes read so far, and
/// the rest.
pub(super) type Rest = (Vec<u8>, Box<dyn Read + Send>);

/// Bytes kept of the start of a streamed file for the diagnostics that
/// point at it (its first line).
pub(super) const HEAD: usize = 64 << 10;

/// The first non-blank line of a document, as `validate` read it.
pub(super) struct First {
    /// The line (at most `--max-buffer` bytes of it), with its line end.
    pub line: Vec<u8>,
    /// Its 1-based number.
    pub number: usize,
    /// The line ended within `--max-buffer`.
    pub whole: bool,
}

/// Reads a document whose first line is no conversation: a large array
/// of conversations or a JSONL with a long first line is judged here (and
/// `None` returned); else the bytes read so far and the rest are handed
/// back for the document to be read whole.
pub(super) fn document(
    run: &mut Run<'_>,
    prefix: Vec<u8>,
    first: First,
    r: Reader,
    name: &str,
    cfg: &Config,
    args: &ValidateArgs,
) -> anyhow::Result<Option<Rest>> {
    let line = first.line.trim_ascii();
    let Some(&open) = line.first() else {
        return Ok(Some((prefix, Box::new(r))));
    };
    if first.whole && serde_json::from_slice::<Value>(line).is_ok() {
        // one small JSON value a line (records, wire output)
        return Ok(Some((prefix, Box::new(r))));
    }
    match open {
        b'[' if args.messages_at.is_none()
            && (args.report.keep.is_none() || args.report.convert.is_some()) =>
        {
            array(run, prefix, r, name, cfg, args)
        }
        b'{' => object(run, prefix, first, r, name, cfg, args),
        _ => Ok(Some((prefix, Box::new(r)))),
    }
}

/// The most bytes of one conversation held whole.
pub(super) fn cap(args: &ValidateArgs) -> usize {
    usize::try_from(args.report.max_conversation.min(args.input.max_input)).unwrap_or(usize::MAX)
}

/// A JSON object document: a JSONL whose first line is too long (judged
/// here), or one document, refused past `--max-conversation`.
fn object(
    run: &mut Run<'_>,
    mut held: Vec<u8>,
    first: First,
    mut r: Reader,
    name: &str,
    cfg: &Config,
    args: &ValidateArgs,
) -> anyhow::Result<Option<Rest>> {
    let max_line = args.wire.max_buffer;
    let cap = cap(args);
    if !first.whole {
        let line_start = held.len() - first.line.len();
        // the rest of the first line, holding no more than the cap and a
        // byte (a longer line is then known to be longer); all of it, up
        // to --max-input, when it opens one message list (read a message
        // at a time, below)
        let opens = list(args, &held[line_start..]);
        let bound = if opens {
            args.input.max_input
        } else {
            cap as u64
        };
        let bound = usize::try_from(bound).unwrap_or(usize::MAX);
        let keep = bound.saturating_add(1).max(line_start + max_line + 1);
        let ended = rest_of_line(&mut r, &mut held, keep)?;
        if ended {
            let mut next = Vec::new();
            let mut number = first.number;
            let mut whole = None;
            while let Some(w) = super::super::common::read_line_capped(&mut r, &mut next, max_line)?
            {
                number += 1;
                let blank = w && next.trim_ascii().is_empty();
                if !blank {
                    whole = Some(w);
                    break;
                }
                held.extend_from_slice(&next);
            }
            let row = whole == Some(true)
                && serde_json::from_slice::<Value>(next.trim_ascii())
                    .is_ok_and(|v| shapes_event_or_conversation(&v));
            if row {
                // a JSONL: the long first line is a TLP-007 error, as a later one is
                let end = held.len().min(line_start + max_line + 1);
                judge_line(
                    run,
                    &held[line_start..end],
                    first.number,
                    name,
                    cfg,
                    max_line,
                )?;
                drop(held);
                lines(run, next, number, r, name, cfg, max_line)?;
                return Ok(None);
            }
            held.extend_from_slice(&next);
        }
    }
    if args.input.max_input <= args.report.max_conversation {
        // --max-input is the bound: read as before (an error past it, exit 2)
        return Ok(Some((held, Box::new(r))));
    }
    let room = (cap as u64 + 1).saturating_sub(held.len() as u64);
    let mut rest = Vec::new();
    r.by_ref().take(room).read_to_end(&mut rest)?;
    held.extend_from_slice(&rest);
    drop(rest);
    if held.len() <= cap {
        return Ok(Some((held, Box::new(std::io::empty()))));
    }
    if list(args, &held) {
        run.listed = true;
        // one message list: read a message at a time (`Run::streamed`),
        // holding the document's bytes once; --max-input bounds it
        return Ok(Some((held, Box::new(r))));
    }
    held.truncate(HEAD);
    refuse(run, held, name, cfg, "TLP-007", too_large(cap))?;
    Ok(None)
}

/// Whether a document that is one message list is read a message at a
/// time (`--messages-at` and `--convert` read it whole).
pub(super) fn streams(args: &ValidateArgs) -> bool {
    args.messages_at.is_none() && args.report.convert.is_none()
}

/// Whether a document whose first bytes are `start` is read a message
/// at a time past `--max-conversation`: it opens one message list, and
/// it is read so.
fn list(args: &ValidateArgs, start: &[u8]) -> bool {
    streams(args)
        && args.input.max_input > args.report.max_conversation
        && crate::validate::shapes::list_opens(start).is_some()
}

/// The `TLP-007` error of a document too large to read whole.
pub(super) fn too_large(cap: usize) -> String {
    format!(
        "one JSON document larger than --max-conversation ({cap} bytes): not read whole \
         (a conversation held takes some 30 times its size); write one conversation a \
         line (JSONL), or raise --max-conversation"
    )
}

/// `shapes::is_event` or a conversation: what makes a line a JSONL row.
fn shapes_event_or_conversation(v: &Value) -> bool {
    crate::validate::shapes::is_event(v) || is_conversation(v, false)
}

/// Judges the lines of a JSONL from `line` (number `number`) on, a line
/// at a time.
fn lines(
    run: &mut Run<'_>,
    mut line: Vec<u8>,
    mut number: usize,
    mut r: Reader,
    name: &str,
    cfg: &Config,
    max_line: usize,
) -> anyhow::Result<()> {
    use anyhow::Context;
    loop {
        if !line.trim_ascii().is_empty() {
            judge_line(run, &line, number, name, cfg, max_line)?;
        }
        let more = super::super::common::read_line_limited(&mut r, &mut line, max_line)
            .with_context(|| format!("reading {name}"))?;
        if !more {
            return Ok(());
        }
        number += 1;
    }
}

/// Reads the rest of a line into `held`, keeping it to `keep` bytes:
/// `true` when the line ended with a line end (not the input).
fn rest_of_line(r: &mut Reader, held: &mut Vec<u8>, keep: usize) -> std::io::Result<bool> {
    loop {
        let buf = fill(r)?;
        if buf.is_empty() {
            return Ok(false);
        }
        let (take, done) = match memchr::memchr(b'\n', buf) {
            Some(k) => (k + 1, true),
            None => (buf.len(), false),
        };
        let room = keep.saturating_sub(held.len());
        held.extend_from_slice(&buf[..take.min(room)]);
        r.consume(take);
        if done {
            return Ok(true);
        }
    }
}

/// The reader's buffered bytes (an interrupted read is tried again).
fn fill(r: &mut impl BufRead) -> std::io::Result<&[u8]> {
    loop {
        match r.fill_buf() {
            Ok(_) => break,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    r.fill_buf()
}

/// One error for a whole document (or an element) that is not read.
pub(super) fn refuse(
    run: &mut Run<'_>,
    head: Vec<u8>,
    doc: &str,
    cfg: &Config,
    code: &'static str,
    message: String,
) -> anyhow::Result<()> {
    let raw = crate::lossy(&head[..head.len().min(512)]).into_owned();
    let mut call = crate::validate::records::stand_in(doc, &raw, [0, 0]);
    call.index = run.next_index;
    run.next_index += 1;
    let text = Rc::new(Located::new(head));
    let item = Item::refused_document(call, Issue::call(code, message), doc, &text, 0);
    run.invalid_before = run.invalid;
    run.judge(item, cfg)
}

/// Reads the elements of a JSON array one at a time, keeping track of
/// where each begins.
struct Elements<R> {
    r: R,
    /// 1-based line and 0-based byte column of the next byte.
    line: u64,
    col: usize,
    /// Every byte consumed, while the array is not yet known to hold
    /// conversations (to hand the document back otherwise).
    record: Option<Vec<u8>>,
}

/// Where an element begins, and whether it was held whole.
struct At {
    line: u64,
    col: usize,
    whole: bool,
}

impl<R: BufRead> Elements<R> {
    fn consume(&mut self, n: usize) -> std::io::Result<()> {
        let buf = fill(&mut self.r)?;
        let part = &buf[..n];
        if let Some(rec) = &mut self.record {
            rec.extend_from_slice(part);
        }
        for &b in part {
            if b == b'\n' {
                self.line += 1;
                self.col = 0;
            } else {
                self.col += 1;
            }
        }
        self.r.consume(n);
        Ok(())
    }

    /// Skips blanks and, with `comma`, one `,`: the next byte, unread
    /// (`None` at the end of input).
    fn skip(&mut self, comma: bool) -> std::io::Result<Option<u8>> {
        let mut comma = comma;
        loop {
            let buf = fill(&mut self.r)?;
            let Some(&b) = buf.first() else {
                return Ok(None);
            };
            let n = buf.iter().position(|c| !c.is_ascii_whitespace());
            match n {
                None => {
                    let n = buf.len();
                    self.consume(n)?;
                }
                Some(0) if b == b',' && comma => {
                    comma = false;
                    self.consume(1)?;
                }
                Some(0) => return Ok(Some(b)),
                Some(n) => self.consume(n)?,
            }
        }
    }

    /// Reads the next element into `out` (at most `cap + 1` bytes of it):
    /// `None` at the end of the array.
    fn next(&mut self, out: &mut Vec<u8>, cap: usize, k: usize) -> std::io::Result<Option<At>> {
        out.clear();
        match self.skip(k > 0)? {
            None | Some(b']') => return Ok(None),
            Some(_) => {}
        }
        let at = (self.line, self.col);
        let (mut depth, mut in_str, mut esc) = (0usize, false, false);
        let mut started = false;
        loop {
            let buf = fill(&mut self.r)?;
            if buf.is_empty() {
                break;
            }
            let mut end = None;
            for (i, &b) in buf.iter().enumerate() {
                if in_str {
                    if esc {
                        esc = false;
                    } else if b == b'\\' {
                        esc = true;
                    } else if b == b'"' {
                        in_str = false;
                        if depth == 0 {
                            end = Some(i + 1);
                            break;
                        }
                    }
                    continue;
                }
                match b {
                    b'"' => in_str = true,
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' if depth > 0 => {
                        depth -= 1;
                        if depth == 0 {
                            end = Some(i + 1);
                            break;
                        }
                    }
                    b',' | b']' | b'}' if depth == 0 && (started || i > 0) => {
                        end = Some(i);
                        break;
                    }
                    c if c.is_ascii_whitespace() && depth == 0 && (started || i > 0) => {
                        end = Some(i);
                        break;
                    }
                    _ => {}
                }
            }
            let n = end.unwrap_or(buf.len());
            let room = (cap + 1).saturating_sub(out.len());
            out.extend_from_slice(&buf[..n.min(room)]);
            started = true;
            self.consume(n)?;
            if end.is_some() {
                break;
            }
        }
        Ok(Some(At {
            line: at.0,
            col: at.1,
            whole: out.len() <= cap,
        }))
    }
}

/// A top-level array: read an element at a time when its first element
/// is a conversation; else handed back to be read whole.
fn array(
    run: &mut Run<'_>,
    prefix: Vec<u8>,
    r: Reader,
    name: &str,
    cfg: &Config,
    args: &ValidateArgs,
) -> anyhow::Result<Option<Rest>> {
    let cap = cap(args);
    let source = std::io::Cursor::new(prefix).chain(r);
    let mut el = Elements {
        r: std::io::BufReader::with_capacity(64 << 10, source),
        line: 1,
        col: 0,
        record: Some(Vec::new()),
    };
    let cfg = Config {
        doc: name.to_string(),
        ..cfg.clone()
    };
    let mut buf = Vec::new();
    let opened = el.skip(false)? == Some(b'[');
    if opened {
        el.consume(1)?;
    }
    let at = if opened {
        el.next(&mut buf, cap, 0)?
    } else {
        None
    };
    let first = at.as_ref().filter(|a| a.whole).and_then(|_| {
        let v = serde_json::from_slice::<Value>(&buf).ok()?;
        crate::validate::shapes::element(&v, 0, &cfg).map(|_| v)
    });
    if first.is_none() {
        // no conversation first: the document is read whole
        let held = el.record.take().unwrap_or_default();
        return Ok(Some((held, Box::new(el.r))));
    }
    let mut head = el.record.take().unwrap_or_default();
    head.truncate(HEAD);
    let head = Rc::new(Located::new(head));
    run.next_index = 0;
    run.converted = 0;
    let mut k = 0usize;
    let mut at = at;
    let mut first = first;
    while let Some(a) = at {
        let mut text = vec![b' '; a.col];
        text.extend_from_slice(&buf);
        let text = Rc::new(Located::at_line(text, a.line));
        let value = match first.take() {
            Some(v) => Ok(v),
            None if !a.whole => Err((
                "TLP-007",
                format!(
                    "element {k} of the array is larger than --max-conversation ({cap} bytes); skipped"
                ),
            )),
            None => serde_json::from_slice::<Value>(&buf)
                .map_err(|e| ("TLP-008", format!("element {k} of the array is not JSON ({e})"))),
        };
        match value {
            Ok(v) => {
                let found = crate::validate::shapes::element_found(&v, k);
                drop(v);
                let read = found.as_ref().and_then(|f| {
                    let t = crate::validate::shapes::read(f, &cfg)?;
                    Some((t, run.convert(f, &cfg)))
                });
                drop(found);
                if let Some((t, row)) = read {
                    run.element = Some((format!("/{k}"), head.clone()));
                    let done = run.transcript(t, &text, name, name, &cfg, None, row);
                    run.element = None;
                    done?;
                }
            }
            Err((code, message)) => {
                let raw = crate::lossy(&buf[..buf.len().min(512)]).into_owned();
                let start = a.col as u64;
                let mut call = crate::validate::records::stand_in(
                    name,
                    &raw,
                    [start, start + buf.len() as u64],
                );
                call.index = run.next_index;
                run.next_index += 1;
                let item =
                    Item::refused_document(call, Issue::call(code, message), name, &text, a.col);
                run.judge(item, &cfg)?;
            }
        }
        k += 1;
        at = el.next(&mut buf, cap, k)?;
    }
    Ok(None)
}

/// Whether a file too large to sniff whole looks like conversations: a
/// top-level array whose first element is one, or one JSON object (read,
/// or refused with a `TLP-007`, by [`document`]).
pub(super) fn sniff_file(path: &std::path::Path) -> bool {
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut el = Elements {
        r: std::io::BufReader::with_capacity(64 << 10, file),
        line: 1,
        col: 0,
        record: None,
    };
    match el.skip(false) {
        Ok(Some(b'{')) => true,
        Ok(Some(b'[')) => {
            let mut buf = Vec::new();
            el.consume(1).is_ok()
                && el.next(&mut buf, 16 << 20, 0).is_ok_and(|a| {
                    a.is_some_and(|a| a.whole)
                        && serde_json::from_slice::<Value>(&buf)
                            .is_ok_and(|v| is_conversation(&v, false))
                })
        }
        _ => false,
    }
}

/// The lines of a session log's block that are not JSON: a TLP-008
/// error each, at its line; the other lines were read.
pub(super) fn bad_lines(
    run: &mut Run<'_>,
    text: &Rc<Located<Vec<u8>>>,
    name: &str,
    cfg: &Config,
    bad: Vec<crate::validate::session::BadLine>,
) -> anyhow::Result<()> {
    let bytes = text.bytes();
    for b in bad {
        let start = b.at;
        let rest = bytes.get(start..).unwrap_or_default();
        let line = &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())];
        let end = start + line.len();
        let raw = crate::lossy(&line[..line.len().min(512)]).into_owned();
        let mut call = crate::validate::records::stand_in(name, &raw, [start as u64, end as u64]);
        call.index = run.next_index;
        run.next_index += 1;
        let issue = Issue::call(
            "TLP-008",
            format!(
                "line {} of the session log is not JSON ({}); skipped",
                b.line + 1,
                b.error
            ),
        );
        let item = Item::refused_document(call, issue, name, text, start);
        run.judge(item, cfg)?;
    }
    Ok(())
}
