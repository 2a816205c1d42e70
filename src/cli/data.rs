//! Conversations in the commands that read model output (`parse`): the
//! same sniffing as `validate` (through `validate::shapes`), and the
//! calls of the conversations a document holds, as records.

use super::common::{Body, Document};
use crate::validate::{diag, messages, shapes};
use crate::{Collector, Config, ErrorRecord};
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
            super::validate::read_line_capped(&mut r, &mut line, max_line)?;
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

/// Whether the JSONL text `bytes` is a per-event session log (its first
/// non-blank line is an event).
pub fn is_session(bytes: &[u8]) -> bool {
    bytes
        .split(|&b| b == b'\n')
        .find(|l| !l.trim_ascii().is_empty())
        .and_then(|l| serde_json::from_slice::<Value>(l.trim_ascii()).ok())
        .is_some_and(|v| shapes::is_event(&v))
}

/// The transcripts of a session log's text (`lines`: pointers start with
/// a line index).
pub fn session_transcripts(bytes: &[u8], cfg: &Config) -> Vec<messages::Transcript> {
    let lines: Vec<(usize, Value)> = bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .filter_map(|(k, l)| Some((k, serde_json::from_slice(l.trim_ascii()).ok()?)))
        .collect();
    shapes::sessions(&lines, cfg)
}

/// The calls of transcripts read from `text` (each with its `turn`,
/// `role`, `pointer` and a span over its JSON value), and an error record
/// for each call that could not be read, into `found`.
pub fn transcript_calls(
    doc: &str,
    ts: Vec<messages::Transcript>,
    text: &[u8],
    lines: bool,
    tools: &super::tools::Tools,
    found: &mut Collector,
) {
    for t in ts {
        let wanted = t.entries.iter().map(|e| e.pointer.as_str()).collect();
        let (spans, _) = if lines {
            shapes::line_spans(text, &wanted)
        } else {
            messages::spans(text, &wanted)
        };
        for e in t.entries {
            let span = spans.get(&e.pointer).copied().unwrap_or([0, 0]);
            match e.kind {
                messages::Kind::Call(c) => {
                    let mut call = c.call;
                    call.index = found.calls.len();
                    call.span = [span[0] as u64, span[1] as u64];
                    call.raw = String::from_utf8_lossy(&text[span[0]..span[1]]).into_owned();
                    call.extra.insert("turn".into(), e.turn.into());
                    call.extra.insert("role".into(), e.role.into());
                    call.extra.insert("pointer".into(), e.pointer.into());
                    if c.in_content {
                        call.extra.insert("in_content".into(), true.into());
                    }
                    tools.enrich(&mut call, None);
                    found.calls.push(call);
                }
                messages::Kind::Broken { code, message, raw } => {
                    let pos = diag::position(text, span[0]);
                    found.errors.push(ErrorRecord {
                        kind: "error",
                        code,
                        message,
                        doc: doc.to_string(),
                        span: [span[0] as u64, span[1] as u64],
                        raw,
                        offset: span[0] as u64,
                        line: pos.line,
                        column: pos.column,
                        hint: None,
                        turn: None,
                    });
                }
                _ => {}
            }
        }
    }
}
