//! Reading one input the way a [`Resolved`] request says: model text, a
//! server's wire stream, or conversations written as message lists, whole
//! ([`read`]) or fed chunk by chunk ([`Reader`]).

use super::Resolved;
use crate::document::Collector;
use crate::engine::{Event, Sink};
use crate::record::{ErrorRecord, Split, ToolCall};
use crate::wire::{Summary, WireEngine};
use serde::Serialize;

/// What one input held: its calls, errors, prose, reasoning and tiling
/// (conversations: their calls and errors only), and what a wire stream
/// said of itself.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Document {
    /// The document's name, as records carry it.
    pub doc: String,
    /// The calls, errors, text, reasoning and segments.
    pub found: Collector,
    /// With a wire input: how the stream ended, the errors its server
    /// reported (default for text and conversations).
    pub summary: Summary,
    /// Where each conversation's calls and errors end (`(calls, errors)`),
    /// one entry per conversation of a JSONL; empty for one document.
    parts: Vec<(usize, usize)>,
}

/// One record: a call or an error, as `toolcall parse` writes it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Record<'a> {
    /// A `tool_call` record.
    Call(&'a ToolCall),
    /// An `error` record.
    Error(&'a ErrorRecord),
}

/// Where a record is in a [`Document`]: its position among the calls or
/// the errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// `found.calls[k]`.
    Call(usize),
    /// `found.errors[k]`.
    Error(usize),
}

impl Document {
    /// The records in document order: each error before the first call
    /// that starts after it, conversation by conversation.
    pub fn records(&self) -> Vec<Record<'_>> {
        self.order()
            .into_iter()
            .map(|at| match at {
                At::Call(k) => Record::Call(&self.found.calls[k]),
                At::Error(k) => Record::Error(&self.found.errors[k]),
            })
            .collect()
    }

    /// [`Document::records`] as positions in `found.calls` and
    /// `found.errors` (for a binding that has moved the records into its
    /// own objects).
    pub fn order(&self) -> Vec<At> {
        let (calls, errors) = (&self.found.calls, &self.found.errors);
        let mut out = Vec::with_capacity(calls.len() + errors.len());
        let whole = [(calls.len(), errors.len())];
        let parts = if self.parts.is_empty() {
            &whole[..]
        } else {
            &self.parts[..]
        };
        let (mut c, mut e) = (0, 0);
        for &(c_end, e_end) in parts {
            for (k, call) in calls.iter().enumerate().take(c_end).skip(c) {
                while e < e_end && errors[e].span[0] < call.span[0] {
                    out.push(At::Error(e));
                    e += 1;
                }
                out.push(At::Call(k));
            }
            out.extend((e..e_end).map(At::Error));
            (c, e) = (c_end, e_end);
        }
        out
    }

    /// The `split` record: text, reasoning and calls separated losslessly.
    pub fn into_split(self) -> Split {
        self.found.into_split(&self.doc)
    }

    /// Appends the conversation `part` (a document of its own) to this
    /// one.
    fn append(&mut self, part: Document) {
        self.found.calls.extend(part.found.calls);
        self.found.errors.extend(part.found.errors);
        self.parts
            .push((self.found.calls.len(), self.found.errors.len()));
    }
}

/// Reads a whole input: the engine fed once (model text, a wire stream),
/// or each conversation of a message-list input ([`conversations`]).
pub fn read(bytes: &[u8], r: &Resolved) -> Document {
    let doc = r.config.doc.clone();
    if r.conversations() {
        let mut all = Document {
            doc,
            ..Document::default()
        };
        conversations(&r.config.doc, bytes, r, &mut |part| {
            all.append(part);
            true
        });
        return all;
    }
    let mut reader = Reader::new(r);
    let mut found = Collector {
        skip_starts: true,
        ..Collector::default()
    };
    reader.feed(bytes, &mut found);
    reader.finish(&mut found);
    Document {
        doc,
        found,
        summary: reader.summary(),
        parts: Vec::new(),
    }
}

/// A [`read`] fed chunk by chunk: the same records, however the input is
/// cut. A conversation input is read as soon as its layout is known: a
/// JSONL of conversations a line at a time, a per-event session log a
/// session at a time (so what is held is bounded by the longest line or
/// the largest session); one JSON document is held until
/// [`Reader::finish`], then read whole.
pub struct Reader {
    inner: Inner,
}

enum Inner {
    Wire(Box<WireEngine>),
    Conversations(Box<Held>),
}

/// A conversation input being fed.
struct Held {
    resolved: Resolved,
    /// The bytes not read yet: the whole input while its layout is not
    /// known (or it is one document), else the start of the next line.
    bytes: Vec<u8>,
    layout: Layout,
    /// 0-based index, in the input, of the line `bytes` starts with.
    line: usize,
    /// Byte offset, in the input, of the start of `bytes`.
    offset: usize,
}

/// What a conversation input is, as far as it has been read.
enum Layout {
    /// Not known yet (no whole first line, or nothing after it).
    Open,
    /// One JSON document: read whole at the end.
    Whole,
    /// A JSONL of conversations, one a line.
    Lines,
    /// A per-event session log.
    Session(crate::validate::session::Sessions),
}

impl Held {
    /// Decides the layout when the bytes held say it: the first non-blank
    /// line, whole, is JSON and something follows it (then the input is
    /// no single JSON document: a session log when that line is an event,
    /// else one conversation a line), or it is not JSON (one document).
    fn decide(&mut self) {
        let mut at = 0usize;
        while let Some(n) = memchr::memchr(b'\n', &self.bytes[at..]) {
            let line = self.bytes[at..at + n].trim_ascii();
            at += n + 1;
            if line.is_empty() {
                continue;
            }
            let Ok(first) = serde_json::from_slice::<serde_json::Value>(line) else {
                self.layout = Layout::Whole;
                return;
            };
            if self.bytes[at..].iter().any(|b| !b.is_ascii_whitespace()) {
                self.layout = if crate::validate::shapes::is_event(&first) {
                    Layout::Session(crate::validate::session::Sessions::new(usize::MAX))
                } else {
                    Layout::Lines
                };
            }
            return;
        }
    }

    /// Reads the whole lines held (all of them at the `end`), as
    /// [`conversations`] reads the input whole.
    fn advance(&mut self, sink: &mut dyn Sink, end: bool) {
        if matches!(self.layout, Layout::Open) {
            self.decide();
        }
        let name = self.resolved.config.doc.clone();
        let mut at = 0usize;
        loop {
            let (len, next) = match memchr::memchr(b'\n', &self.bytes[at..]) {
                Some(n) => (n, n + 1),
                None if end && at < self.bytes.len() => {
                    let n = self.bytes.len() - at;
                    (n, n)
                }
                None => break,
            };
            match &mut self.layout {
                Layout::Lines => {
                    let line = &self.bytes[at..at + len];
                    if !line.trim_ascii().is_empty() {
                        let line = line.strip_suffix(b"\r").unwrap_or(line);
                        let doc = format!("{name}:{}", self.line + 1);
                        emit(&conversation(doc, line, &self.resolved), sink);
                    }
                }
                Layout::Session(s) => {
                    let line = &self.bytes[at..at + next];
                    if let Some(b) = s.line(self.line, self.offset, line, true) {
                        let cfg = self.resolved.config.for_doc(&name);
                        emit(&session_block(&name, b, &cfg, usize::MAX), sink);
                    }
                }
                Layout::Open | Layout::Whole => break,
            }
            self.line += 1;
            self.offset += next;
            at += next;
        }
        self.bytes.drain(..at);
        if end {
            match &mut self.layout {
                Layout::Session(s) => {
                    if let Some(b) = s.finish() {
                        let cfg = self.resolved.config.for_doc(&name);
                        emit(&session_block(&name, b, &cfg, usize::MAX), sink);
                    }
                }
                Layout::Open | Layout::Whole => {
                    let bytes = std::mem::take(&mut self.bytes);
                    conversations(&name, &bytes, &self.resolved, &mut |part| {
                        emit(&part, sink);
                        true
                    });
                }
                Layout::Lines => {}
            }
        }
    }

    fn held(&self) -> usize {
        let session = match &self.layout {
            Layout::Session(s) => s.held(),
            _ => 0,
        };
        self.bytes.len() + session
    }
}

/// A conversation's records, as events.
fn emit(part: &Document, sink: &mut dyn Sink) {
    for rec in part.records() {
        match rec {
            Record::Call(c) => sink.event(Event::ToolCall(c.clone())),
            Record::Error(e) => sink.event(Event::Error(e.clone())),
        }
    }
}

impl Reader {
    /// A reader in the state `r` describes.
    pub fn new(r: &Resolved) -> Reader {
        let inner = if r.conversations() {
            Inner::Conversations(Box::new(Held {
                resolved: r.clone(),
                bytes: Vec::new(),
                layout: Layout::Open,
                line: 0,
                offset: 0,
            }))
        } else {
            Inner::Wire(Box::new(WireEngine::new(r.config.clone(), r.wire.clone())))
        };
        Reader { inner }
    }

    /// Feeds the next chunk; what it decided goes to `sink`.
    pub fn feed(&mut self, chunk: &[u8], sink: &mut dyn Sink) {
        match &mut self.inner {
            Inner::Wire(w) => w.feed(chunk, sink),
            Inner::Conversations(h) => {
                h.bytes.extend_from_slice(chunk);
                h.advance(sink, false);
            }
        }
    }

    /// Ends the input: the rest goes to `sink` (a conversation input's
    /// calls and errors, as events).
    pub fn finish(&mut self, sink: &mut dyn Sink) {
        match &mut self.inner {
            Inner::Wire(w) => w.finish(sink),
            Inner::Conversations(h) => h.advance(sink, true),
        }
    }

    /// Bytes held back, undecided.
    pub fn held(&self) -> usize {
        match &self.inner {
            Inner::Wire(w) => w.held(),
            Inner::Conversations(h) => h.held(),
        }
    }

    /// Calls reported so far.
    pub fn calls(&self) -> usize {
        match &self.inner {
            Inner::Wire(w) => w.calls(),
            Inner::Conversations(_) => 0,
        }
    }

    /// What the stream said of itself so far (wire inputs).
    pub fn summary(&self) -> Summary {
        match &self.inner {
            Inner::Wire(w) => w.summary(),
            Inner::Conversations(_) => Summary::default(),
        }
    }

    /// The wire engine, for a consumer that must keep document order
    /// (`None` for conversations).
    pub fn engine(&self) -> Option<&WireEngine> {
        match &self.inner {
            Inner::Wire(w) => Some(w),
            Inner::Conversations(_) => None,
        }
    }
}

/// The conversations in `bytes`, named `name`: one JSON document, or a
/// JSONL of one per line (each named `name:LINE`), handed to `push` one at
/// a time until it returns `false`.
pub fn conversations(
    name: &str,
    bytes: &[u8],
    r: &Resolved,
    push: &mut dyn FnMut(Document) -> bool,
) {
    if let Ok(part) = streamed(name.to_string(), bytes, r) {
        push(part);
        return;
    }
    if let Ok(v) = serde_json::from_slice::<serde_json::Value>(bytes) {
        push(read_conversation(name.to_string(), bytes, Some(v), r));
        return;
    }
    if is_session(bytes) {
        push(session(name.to_string(), bytes, r));
        return;
    }
    for (k, line) in bytes.split(|&b| b == b'\n').enumerate() {
        if line.trim_ascii().is_empty() {
            continue;
        }
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if !push(conversation(format!("{name}:{}", k + 1), line, r)) {
            return;
        }
    }
}

/// One conversation (the text of a JSON document or of one JSONL line),
/// named `doc`, read with `cfg`: its calls with their `turn`, `role`, `pointer` (and
/// `in_content`) and a span over the call's JSON value in `text`, or a
/// TLP-008 error when `text` is not a conversation.
pub fn conversation(doc: String, text: &[u8], r: &Resolved) -> Document {
    let doc = match streamed(doc, text, r) {
        Ok(part) => return part,
        Err(doc) => doc,
    };
    let v = serde_json::from_slice(text).ok();
    read_conversation(doc, text, v, r)
}

/// A document that is one conversation's message list, read a message at
/// a time as it is parsed ([`crate::validate::shapes::stream`]: the
/// records of the document parsed whole, without holding it parsed);
/// `Err(doc)` when it is not one such (it is then parsed whole).
fn streamed(doc: String, text: &[u8], r: &Resolved) -> Result<Document, String> {
    let cfg = r.config.for_doc(&doc);
    let Some(t) = crate::validate::shapes::stream(text, &cfg) else {
        return Err(doc);
    };
    let mut found = Collector::calls_only();
    transcript_records(&doc, vec![t], text, None, &mut found);
    Ok(Document {
        doc,
        found,
        summary: Summary::default(),
        parts: Vec::new(),
    })
}

fn read_conversation(
    doc: String,
    text: &[u8],
    v: Option<serde_json::Value>,
    r: &Resolved,
) -> Document {
    let cfg = r.config.for_doc(&doc);
    let mut found = Collector::calls_only();
    let ts = v
        .as_ref()
        .map(|v| crate::validate::shapes::conversations(v, None, true, &cfg))
        .unwrap_or_default();
    if ts.is_empty() {
        found.errors.push(ErrorRecord::whole(
            &doc,
            text,
            "TLP-008",
            not_a_conversation(text),
        ));
    }
    transcript_records(&doc, ts, text, None, &mut found);
    Document {
        doc,
        found,
        summary: Summary::default(),
        parts: Vec::new(),
    }
}

/// Why `text` gives no conversation: not UTF-8 (where), not JSON (what
/// the JSON reader said), or JSON in no shape `validate` reads.
fn not_a_conversation(text: &[u8]) -> String {
    match std::str::from_utf8(text) {
        Err(e) => format!(
            "not a conversation: not UTF-8 (an invalid byte at offset {})",
            e.valid_up_to()
        ),
        Ok(t) => match serde_json::from_str::<serde_json::Value>(t) {
            Err(e) => format!("not a conversation: not JSON ({e})"),
            Ok(_) => "not a conversation (no message list, dataset row, recording or \
                      agent events in any shape validate reads)"
                .into(),
        },
    }
}

/// Whether the JSONL text `bytes` is a per-event session log (its first
/// non-blank line is an event: Claude Code, Codex CLI).
pub fn is_session(bytes: &[u8]) -> bool {
    bytes
        .split(|&b| b == b'\n')
        .find(|l| !l.trim_ascii().is_empty())
        .and_then(|l| serde_json::from_slice::<serde_json::Value>(l.trim_ascii()).ok())
        .is_some_and(|v| crate::validate::shapes::is_event(&v))
}

/// A per-event session log, read whole: its sessions' calls (see
/// [`crate::validate::session`]), each session as [`session_block`] reads
/// it.
fn session(doc: String, bytes: &[u8], r: &Resolved) -> Document {
    let cfg = r.config.for_doc(&doc);
    let mut all = Document {
        doc,
        ..Document::default()
    };
    let _ = crate::validate::session::for_each_block::<()>(bytes, usize::MAX, |b| {
        let part = session_block(&all.doc, b, &cfg, usize::MAX);
        all.append(part);
        Ok(())
    });
    all
}

/// One session of a per-event session log ([`crate::validate::session`]),
/// named `doc`, read with `cfg`: its calls with their `turn`, `role`, `pointer` and a span
/// in the file, an error record for each call that could not be read, and
/// a TLP-007 error when the session was larger than `cap` bytes (none of
/// it read). A log read a session at a time gives, session by session,
/// the records of the log read whole.
pub fn session_block(
    doc: &str,
    block: crate::validate::session::Block,
    cfg: &crate::config::Config,
    cap: usize,
) -> Document {
    let mut found = Collector::calls_only();
    let base = Base {
        first_line: block.first_line,
        offset: block.offset,
    };
    if block.too_large {
        let mut e = ErrorRecord::whole(
            doc,
            &block.text,
            "TLP-007",
            format!(
                "the session starting at line {} is larger than {cap} bytes; not read",
                block.first_line + 1
            ),
        );
        e.span = [
            block.offset as u64,
            (block.offset + block.text.len()) as u64,
        ];
        e.offset = block.offset as u64;
        e.line = block.first_line as u64 + 1;
        found.errors.push(e);
    }
    // a line that is not JSON (a log cut mid-write): an error at that
    // line, as `validate` reports it; the other lines are read
    for bad in &block.bad {
        let rest = block.text.get(bad.at..).unwrap_or_default();
        let line = &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let mut e = ErrorRecord::whole(
            doc,
            line,
            "TLP-008",
            format!(
                "line {} of the session log is not JSON ({}); skipped",
                bad.line + 1,
                bad.error
            ),
        );
        let start = (block.offset + bad.at) as u64;
        e.span = [start, start + line.len() as u64];
        e.offset = start;
        e.line = bad.line as u64 + 1;
        found.errors.push(e);
    }
    transcript_records(
        doc,
        block.transcripts(cfg),
        &block.text,
        Some(base),
        &mut found,
    );
    Document {
        doc: doc.to_string(),
        found,
        summary: Summary::default(),
        parts: Vec::new(),
    }
}

/// Where a session log's block of lines lies in its file.
#[derive(Clone, Copy)]
struct Base {
    /// 0-based index of its first line.
    first_line: usize,
    /// Byte offset of its first line.
    offset: usize,
}

/// The calls of transcripts read from `text` (each with its `turn`,
/// `role`, `pointer`, `in_content` and a span over its JSON value), and an
/// error record for each call that could not be read. `lines`: `text` is
/// lines of a session log, where they lie in the file (the pointers start
/// with a line index of the file; spans and positions are the file's).
fn transcript_records(
    doc: &str,
    ts: Vec<crate::validate::messages::Transcript>,
    text: &[u8],
    lines: Option<Base>,
    found: &mut Collector,
) {
    use crate::validate::messages::{self, Kind};
    let (shift, lines_before) = lines.map_or((0, 0), |b| (b.offset, b.first_line));
    for t in ts {
        let wanted = t.entries.iter().map(|e| e.pointer.as_str()).collect();
        let (spans, _) = match lines {
            Some(b) => crate::validate::shapes::line_spans(text, b.first_line, &wanted),
            None => messages::spans(text, &wanted),
        };
        for e in t.entries {
            let span = spans.get(&e.pointer).copied().unwrap_or([0, 0]);
            let bytes = text.get(span[0]..span[1]).unwrap_or_default();
            let file_span = [(span[0] + shift) as u64, (span[1] + shift) as u64];
            match e.kind {
                Kind::Call(c) => {
                    let mut call = c.call;
                    call.index = found.calls.len();
                    call.span = file_span;
                    call.raw = String::from_utf8_lossy(bytes).into_owned();
                    call.extra.insert("turn".into(), e.turn.into());
                    call.extra.insert("role".into(), e.role.into());
                    call.extra.insert("pointer".into(), e.pointer.into());
                    if c.in_content {
                        call.extra.insert("in_content".into(), true.into());
                    }
                    found.calls.push(call);
                }
                Kind::Broken { code, message, raw } => {
                    let pos = crate::validate::diag::position(text, span[0]);
                    found.errors.push(ErrorRecord {
                        kind: "error",
                        code,
                        message,
                        doc: doc.to_string(),
                        span: file_span,
                        raw,
                        offset: file_span[0],
                        line: pos.line + lines_before as u64,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::door::Options;

    fn resolved(input: &str) -> Resolved {
        Options {
            input: input.into(),
            ..Options::default()
        }
        .resolve()
        .unwrap()
    }

    const CONVERSATION: &str = r#"{"messages": [{"role": "user", "content": "hi"},
        {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
         "function": {"name": "f", "arguments": "{\"x\": 1}"}}]}]}"#;

    #[test]
    fn conversations_give_their_calls_with_pointers() {
        let d = read(CONVERSATION.as_bytes(), &resolved("messages"));
        assert_eq!(d.found.calls.len(), 1);
        assert_eq!(
            d.found.calls[0].extra["pointer"],
            "/messages/1/tool_calls/0"
        );
        // read as text, the same bytes hold no call
        assert!(read(CONVERSATION.as_bytes(), &resolved("text"))
            .found
            .calls
            .is_empty());
    }

    #[test]
    fn jsonl_lines_are_conversations_and_records_keep_their_order() {
        let input = format!(
            "{}\nnot json\n{}\n",
            CONVERSATION.replace('\n', ""),
            CONVERSATION.replace('\n', "")
        );
        let d = read(input.as_bytes(), &resolved("messages"));
        let docs: Vec<String> = d
            .records()
            .iter()
            .map(|r| match r {
                Record::Call(c) => c.doc.clone(),
                Record::Error(e) => format!("{} {}", e.doc, e.code),
            })
            .collect();
        assert_eq!(docs, ["-:1", "-:2 TLP-008", "-:3"]);
    }

    #[test]
    fn the_reader_gives_what_read_gives() {
        for input in ["text", "messages"] {
            let r = resolved(input);
            let whole = read(CONVERSATION.as_bytes(), &r);
            let mut reader = Reader::new(&r);
            let mut found = Collector::calls_only();
            for chunk in CONVERSATION.as_bytes().chunks(7) {
                reader.feed(chunk, &mut found);
            }
            reader.finish(&mut found);
            assert_eq!(found.calls, whole.found.calls, "{input}");
        }
    }

    /// Fed in chunks, a JSONL of conversations is read a line at a time
    /// and a session log a session at a time: what the reader holds stays
    /// near one line or one session (before: the whole input), and the
    /// records are those of the input read whole.
    #[test]
    fn the_reader_holds_a_line_or_a_session_not_the_input() {
        let line = CONVERSATION.replace('\n', "");
        let mut jsonl = String::new();
        for k in 0..400 {
            jsonl.push_str(&line);
            jsonl.push_str(if k % 3 == 0 { "\r\n" } else { "\n" });
            if k % 50 == 7 {
                jsonl.push_str("not json\n\n");
            }
        }
        jsonl.push_str(&line);
        let mut session = String::new();
        for k in 0..300 {
            session.push_str(&format!(
                concat!(
                    r#"{{"type":"user","sessionId":"s{}","message":{{"role":"user","content":"hi"}}}}"#,
                    "\n",
                    r#"{{"type":"assistant","sessionId":"s{}","message":{{"id":"m{}","role":"assistant","content":[{{"type":"tool_use","id":"t{}","name":"f","input":{{"x":1}}}}]}}}}"#,
                    "\n"
                ),
                k / 3,
                k / 3,
                k,
                k
            ));
        }
        session.push_str("{\"type\":\"user\",\"sessionId\":\"sx\",\"message\":{\"role\":\"user\",\"content\":\"cut");
        let r = resolved("messages");
        for input in [&jsonl, &session] {
            let whole = read(input.as_bytes(), &r);
            let mut reader = Reader::new(&r);
            let mut found = Collector::calls_only();
            let mut most = 0usize;
            for chunk in input.as_bytes().chunks(97) {
                reader.feed(chunk, &mut found);
                most = most.max(reader.held());
            }
            reader.finish(&mut found);
            assert!(!whole.found.calls.is_empty());
            assert_eq!(found.calls, whole.found.calls);
            assert_eq!(found.errors, whole.found.errors);
            assert!(most < 2048, "held {most} bytes of {}", input.len());
        }
    }
}
