//! Per-event session logs (Claude Code, Codex CLI), read a session at a
//! time (issue 43).
//!
//! A session log writes one event a line: several lines make one message
//! (the same `message.id`), and the lines of one session make its
//! conversations. [`Sessions`] takes a log's lines one at a time and holds
//! only the session being read: when a line names another session (its
//! `sessionId`, or a Codex `session_meta` line's id), the session before
//! it is grouped ([`shapes::session_found`]) and handed back as a
//! [`Block`]. So memory is bounded by the largest session, not by the log;
//! a session larger than the cap given is not held at all (a block marked
//! `too_large`, read no further).
//!
//! A log read whole is split the same way ([`for_each_block`]): the
//! records of a log read from a pipe and of the same log read whole are
//! the same (stream == batch). A session whose lines come back after
//! another session's is a new conversation.

use super::messages::Transcript;
use super::shapes;
use crate::config::Config;
use serde_json::Value;

/// Bytes kept of the first line of a session too large to hold (for the
/// diagnostic that quotes it).
pub const HEAD: usize = 64 << 10;

/// One session of a log, read.
#[derive(Debug)]
pub struct Block {
    /// The session's id (`None` when none of its lines names one).
    pub session: Option<String>,
    /// 0-based index, in the file, of its first line.
    pub first_line: usize,
    /// Byte offset, in the file, of its first line.
    pub offset: usize,
    /// Its lines' bytes, line ends included: from the start of its first
    /// line to the end of its last (the first [`HEAD`] bytes of its first
    /// line when `too_large`).
    pub text: Vec<u8>,
    /// Its conversations (the main thread, then any side chain) as found,
    /// before they are read ([`Block::transcripts`] reads them); their
    /// pointers start with a line index in the file.
    pub conversations: Vec<shapes::Found>,
    /// Its lines that are not JSON (a log cut mid-write).
    pub bad: Vec<BadLine>,
    /// The session was larger than the cap: none of it was read.
    pub too_large: bool,
}

/// A line of a session log that is not JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine {
    /// 0-based index of the line in the file.
    pub line: usize,
    /// Offset of its start in its block's `text`.
    pub at: usize,
    /// What the JSON reader said.
    pub error: String,
}

/// The session being read.
#[derive(Debug)]
struct Pending {
    session: Option<String>,
    first_line: usize,
    offset: usize,
    text: Vec<u8>,
    lines: Vec<(usize, Value)>,
    bad: Vec<BadLine>,
    too_large: bool,
}

impl Pending {
    /// Drops what is held of a session found larger than the cap, but the
    /// start of its first line.
    fn overflow(&mut self) {
        self.too_large = true;
        self.lines = Vec::new();
        self.bad = Vec::new();
        let first = memchr::memchr(b'\n', &self.text).map_or(self.text.len(), |n| n + 1);
        self.text.truncate(first.min(HEAD));
        self.text.shrink_to_fit();
    }

    fn close(self) -> Block {
        let conversations = if self.too_large {
            Vec::new()
        } else {
            shapes::session_found(self.lines)
        };
        Block {
            session: self.session,
            first_line: self.first_line,
            offset: self.offset,
            text: self.text,
            conversations,
            bad: self.bad,
            too_large: self.too_large,
        }
    }
}

impl Block {
    /// Its conversations read with `cfg` ([`shapes::read`]).
    pub fn transcripts(&self, cfg: &Config) -> Vec<Transcript> {
        self.conversations
            .iter()
            .filter_map(|f| shapes::read(f, cfg))
            .collect()
    }
}

/// A session log's lines, fed one at a time, split into sessions.
#[derive(Debug)]
pub struct Sessions {
    cap: usize,
    cur: Option<Pending>,
}

impl Sessions {
    /// Reads sessions holding at most `cap` bytes of one session (a larger
    /// one is a `too_large` block).
    pub fn new(cap: usize) -> Sessions {
        Sessions { cap, cur: None }
    }

    /// Takes line `k` (0-based) of the log, which starts at byte `offset`
    /// of the file: `line` is its bytes with its line end; `whole` is false
    /// when only its start was read (a line longer than the cap). Returns
    /// the session before it when the line starts another.
    pub fn line(&mut self, k: usize, offset: usize, line: &[u8], whole: bool) -> Option<Block> {
        // a line longer than the cap is as one cut there, however it came
        let whole = whole && line.len() <= self.cap;
        let trimmed = line.trim_ascii();
        if trimmed.is_empty() {
            if let Some(cur) = self.cur.as_mut().filter(|c| !c.too_large) {
                cur.text.extend_from_slice(line);
            }
            return None;
        }
        let parsed = whole.then(|| serde_json::from_slice::<Value>(trimmed));
        // a line too long to read: its session named near its start
        let start = &trimmed[..trimmed.len().min(self.cap.saturating_add(1))];
        let id = match &parsed {
            Some(r) => r.as_ref().ok().and_then(shapes::session_id),
            None => named_session(start),
        };
        let mut done = None;
        if let (Some(id), Some(cur)) = (id, &self.cur) {
            if cur.session.as_deref().is_some_and(|s| s != id) {
                done = self.cur.take().map(|p| p.close());
            }
        }
        let id = id.map(str::to_string);
        let cur = self.cur.get_or_insert_with(|| Pending {
            session: None,
            first_line: k,
            offset,
            text: Vec::new(),
            lines: Vec::new(),
            bad: Vec::new(),
            too_large: false,
        });
        if cur.session.is_none() {
            cur.session = id;
        }
        if cur.too_large {
            return done;
        }
        let at = cur.text.len();
        cur.text.extend_from_slice(line);
        match parsed {
            Some(Ok(v)) => cur.lines.push((k, v)),
            Some(Err(e)) => cur.bad.push(BadLine {
                line: k,
                at,
                error: e.to_string(),
            }),
            None => {}
        }
        if !whole || cur.text.len() > self.cap {
            cur.overflow();
        }
        done
    }

    /// Ends the log: the last session, if any.
    pub fn finish(&mut self) -> Option<Block> {
        self.cur.take().map(|p| p.close())
    }

    /// Bytes of the log held (the session being read).
    pub fn held(&self) -> usize {
        self.cur.as_ref().map_or(0, |c| c.text.len())
    }
}

/// The session a line too long to read names in its first bytes: the
/// string after `"sessionId":` or `"session_id":` (Claude Code writes it
/// before the message), when it holds no escape.
fn named_session(start: &[u8]) -> Option<&str> {
    for key in [&b"\"sessionId\""[..], b"\"session_id\""] {
        let Some(at) = memchr::memmem::find(start, key) else {
            continue;
        };
        let rest = start[at + key.len()..].trim_ascii_start();
        let rest = rest.strip_prefix(b":")?.trim_ascii_start();
        let rest = rest.strip_prefix(b"\"")?;
        let end = memchr::memchr2(b'"', b'\\', rest)?;
        if rest[end] != b'"' || end == 0 {
            return None;
        }
        return std::str::from_utf8(&rest[..end]).ok();
    }
    None
}

/// The sessions of a log held in memory, handed to `each` in order: what
/// feeding [`Sessions`] its lines gives.
pub fn for_each_block<E>(
    bytes: &[u8],
    cap: usize,
    mut each: impl FnMut(Block) -> Result<(), E>,
) -> Result<(), E> {
    let mut s = Sessions::new(cap);
    let mut offset = 0usize;
    for (k, line) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        if let Some(b) = s.line(k, offset, line, true) {
            each(b)?;
        }
        offset += line.len();
    }
    match s.finish() {
        Some(b) => each(b),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::messages;

    fn blocks(text: &str, cap: usize) -> Vec<Block> {
        let mut out = Vec::new();
        for_each_block::<()>(text.as_bytes(), cap, |b| {
            out.push(b);
            Ok(())
        })
        .unwrap();
        out
    }

    const TWO: &str = r#"{"type": "summary", "summary": "s", "leafUuid": "x"}
{"type": "user", "sessionId": "a", "message": {"role": "user", "content": "hi"}}
{"type": "assistant", "sessionId": "a", "message": {"id": "m1", "role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}]}}
{"type": "file-history-snapshot", "messageId": "m1", "snapshot": {}}
{"type": "user", "sessionId": "a", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "x"}]}}

{"type": "user", "sessionId": "b", "message": {"role": "user", "content": "again"}}
{"type": "assistant", "sessionId": "b", "message": {"id": "m2", "role": "assistant", "content": [{"type": "tool_use", "id": "t2", "name": "g", "input": {}}]}}
{"type": "user", "sessionId": "b", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t2", "content": "y"}]}}
"#;

    #[test]
    fn each_session_is_a_block_and_lines_without_an_id_go_with_theirs() {
        let bs = blocks(TWO, usize::MAX);
        assert_eq!(bs.len(), 2);
        assert_eq!(bs[0].session.as_deref(), Some("a"));
        assert_eq!(bs[0].first_line, 0);
        assert_eq!(bs[1].first_line, 6);
        assert_eq!(
            bs[1].offset,
            TWO.find(r#"{"type": "user", "sessionId": "b""#).unwrap()
        );
        for b in &bs {
            assert_eq!(b.transcripts(&Config::default()).len(), 1);
            assert!(messages::lint(&b.transcripts(&Config::default())[0]).is_empty());
        }
        let second = bs[1].transcripts(&Config::default());
        let call = shapes::calls(&second[0]).next().unwrap();
        assert_eq!(call.pointer, "/7/message/content/0");
        // the block's text is its lines, so pointers find their bytes
        let wanted = [call.pointer.as_str()].into_iter().collect();
        let (spans, _) = shapes::line_spans(&bs[1].text, bs[1].first_line, &wanted);
        let [a, z] = spans[call.pointer.as_str()];
        assert!(bs[1].text[a..z].starts_with(br#"{"type": "tool_use", "id": "t2""#));
    }

    #[test]
    fn a_session_larger_than_the_cap_is_not_held() {
        let bs = blocks(TWO, 300);
        assert_eq!(bs.len(), 2);
        assert!(bs[0].too_large && bs[1].too_large);
        assert!(bs[0].conversations.is_empty());
        assert!(bs[0].text.starts_with(br#"{"type": "summary""#));
        assert!(bs[0].text.ends_with(b"\n"));
        // fed a line at a time, lines cut at the cap: the same blocks
        let mut s = Sessions::new(120);
        let mut fed = Vec::new();
        let mut offset = 0;
        for (k, line) in TWO.as_bytes().split_inclusive(|&b| b == b'\n').enumerate() {
            let cut = &line[..line.len().min(121)];
            fed.extend(s.line(k, offset, cut, cut.len() == line.len()));
            offset += line.len();
            assert!(s.held() <= 121, "{}", s.held());
        }
        fed.extend(s.finish());
        let whole = blocks(TWO, 120);
        let shape = |bs: &[Block]| -> Vec<(usize, usize, bool)> {
            bs.iter()
                .map(|b| (b.first_line, b.offset, b.too_large))
                .collect()
        };
        assert_eq!(shape(&fed), shape(&whole));
        assert_eq!(shape(&fed), [(0, 0, true), (6, bs[1].offset, true)]);
    }

    #[test]
    fn a_line_too_long_to_read_starts_the_session_it_names() {
        let long = format!(
            "{{\"sessionId\": \"b\", \"type\": \"user\", \"message\": {{\"role\": \"user\", \"content\": \"{}\"}}}}\n",
            "x".repeat(700)
        );
        let text = TWO.replace("{\"type\": \"user\", \"sessionId\": \"b\", \"message\": {\"role\": \"user\", \"content\": \"again\"}}\n", &long);
        let bs = blocks(&text, 600);
        let shape: Vec<(Option<&str>, usize, bool)> = bs
            .iter()
            .map(|b| (b.session.as_deref(), b.first_line, b.too_large))
            .collect();
        assert_eq!(shape, [(Some("a"), 0, false), (Some("b"), 6, true)]);
        assert_eq!(
            named_session(br#"{"x": 1, "sessionId" : "s-1", "m"#),
            Some("s-1")
        );
        assert_eq!(named_session(br#"{"sessionId": "s\"1"}"#), None);
        assert_eq!(named_session(br#"{"message": {"#), None);
    }

    #[test]
    fn codex_session_meta_starts_a_session() {
        let log = r#"{"type": "session_meta", "payload": {"id": "one"}}
{"type": "response_item", "payload": {"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "c1"}}
{"type": "response_item", "payload": {"type": "function_call_output", "call_id": "c1", "output": "ok"}}
{"type": "session_meta", "payload": {"id": "two"}}
{"type": "response_item", "payload": {"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "c1"}}
{"type": "response_item", "payload": {"type": "function_call_output", "call_id": "c1", "output": "ok"}}
"#;
        let bs = blocks(log, usize::MAX);
        assert_eq!(bs.len(), 2);
        for b in &bs {
            assert_eq!(b.transcripts(&Config::default()).len(), 1);
            assert_eq!(
                shapes::calls(&b.transcripts(&Config::default())[0]).count(),
                1
            );
            assert!(messages::lint(&b.transcripts(&Config::default())[0]).is_empty());
        }
    }

    #[test]
    fn a_line_that_is_not_json_stays_in_its_session() {
        let log = "{\"type\": \"user\", \"sessionId\": \"a\", \"message\": {\"role\": \"user\", \"content\": \"hi\"}}\n{\"type\": \"assis\n";
        let bs = blocks(log, usize::MAX);
        assert_eq!(bs.len(), 1);
        assert_eq!(bs[0].bad.len(), 1);
        assert_eq!(bs[0].bad[0].line, 1);
        assert_eq!(&bs[0].text[bs[0].bad[0].at..], b"{\"type\": \"assis\n");
    }
}
