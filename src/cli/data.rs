//! Conversations in the commands that read model output (`parse`): the
//! same sniffing as `validate` (through `validate::shapes`); the core
//! reads them (`conversations`).

use super::common::{Body, Document};
use crate::validate::shapes;
use serde_json::Value;
use std::io::{BufRead, Read};

/// What the start of a document looked like.
#[derive(Clone, Copy, Debug, Default)]
pub struct Peek {
    /// It opens like JSON (`{` or `[` after blanks).
    pub json: bool,
    /// It holds conversations (its first line is one, or a session event,
    /// or the whole document is one).
    pub conversations: bool,
}

/// Looks at the start of a document, as `validate` does, without losing
/// a byte of it: a reader's first line is read (at most `max_line` bytes)
/// and put back in front of the rest.
pub fn peek(doc: Document, max_line: usize, max_input: u64) -> anyhow::Result<(Document, Peek)> {
    let Document { name, body } = doc;
    match body {
        Body::Bytes(b) => {
            let p = peek_bytes(&b);
            Ok((
                Document {
                    name,
                    body: Body::Bytes(b),
                },
                p,
            ))
        }
        Body::Reader(r) => {
            let mut r = std::io::BufReader::with_capacity(64 << 10, r);
            let first = loop {
                let buf = match r.fill_buf() {
                    Ok(b) => b,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(anyhow::Error::new(e).context(format!("reading {name}"))),
                };
                match buf.iter().position(|b| !b.is_ascii_whitespace()) {
                    Some(k) => break Some(buf[k]),
                    None if buf.is_empty() => break None,
                    // a chunk of blanks: nothing to lose, go on
                    None => {
                        let n = buf.len();
                        r.consume(n);
                    }
                }
            };
            if !matches!(first, Some(b'{' | b'[')) {
                let body = Body::Reader(Box::new(r));
                return Ok((Document { name, body }, Peek::default()));
            }
            let mut line = Vec::new();
            super::common::read_line_capped(&mut r, &mut line, max_line)?;
            let v = serde_json::from_slice::<Value>(line.trim_ascii()).ok();
            let conversations = v
                .as_ref()
                .is_some_and(|v| shapes::is_event(v) || shapes::sniff(v));
            let rest = std::io::Cursor::new(line).chain(r);
            let mut doc = Document {
                name,
                body: Body::Reader(Box::new(rest)),
            };
            let mut p = Peek {
                json: true,
                conversations,
            };
            if v.is_none() && !conversations {
                // one JSON value over several lines: judged whole
                let name = doc.name.clone();
                let bytes = doc.into_bytes(max_input)?;
                p = peek_bytes(&bytes);
                doc = Document {
                    name,
                    body: Body::Bytes(bytes),
                };
            }
            Ok((doc, p))
        }
    }
}

fn peek_bytes(b: &[u8]) -> Peek {
    let Some(first) = b.iter().position(|c| !c.is_ascii_whitespace()) else {
        return Peek::default();
    };
    if !matches!(b[first], b'{' | b'[') {
        return Peek::default();
    }
    let end = memchr::memchr(b'\n', &b[first..]).map_or(b.len(), |n| first + n);
    let line = serde_json::from_slice::<Value>(b[first..end].trim_ascii()).ok();
    let conversations = match line {
        Some(v) => shapes::is_event(&v) || shapes::sniff(&v),
        None => serde_json::from_slice::<Value>(b).is_ok_and(|v| shapes::sniff(&v)),
    };
    Peek {
        json: true,
        conversations,
    }
}
