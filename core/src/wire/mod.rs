//! Wire inputs: model output as servers and terminals deliver it.
//!
//! Pipelines rarely hand us bare model text. They pipe `curl` from Ollama
//! (NDJSON), from an OpenAI-compatible server (a `chat.completion` object,
//! chunks as NDJSON or SSE, the Responses API event stream), from
//! llama-server's `/completion` stream, or the terminal output of
//! `ollama run`. [`WireEngine`] combines one incremental decoder per wire
//! format with the text [`Engine`]:
//!
//! * content deltas are **model text**, fed to the format engine (many models
//!   print their call syntax through servers that do not parse it);
//! * reasoning fields (`thinking`, `reasoning_content`, `response.reasoning_*`,
//!   `ollama run`'s `Thinking...` block) become `reasoning` events;
//! * calls the server parsed itself become `tool_call` records (format
//!   `ollama` or `openai`, the provider's id kept, arguments decoded once,
//!   `index` continuing the document's count); OpenAI fragments are joined by
//!   the [accumulator](accumulate);
//! * `{"error": …}` payloads become `error` records; usage, the finish reason
//!   and whether the stream ended properly are kept in a [`Summary`].
//!
//! **Spans.** For wire input, `span` offsets are into the *decoded model
//! text*: the concatenation of the content deltas (for `ollama run` output:
//! the text with escapes, wrap artefacts, spinner and the `Thinking...` block
//! removed). The lossless invariant holds over that text: text, markup,
//! reasoning-in-text and in-text call segments tile it exactly. What is not
//! part of that text has a zero-width span `[p, p]` at the point `p` of the
//! decoded text where it arrived: reasoning from reasoning fields, native
//! calls (whose `raw` is the call's JSON as the wire carried it, re-serialised
//! compactly) and wire-level errors (whose `offset`/`line` point at the wire
//! line in the input as read, `column` 1, and whose `raw` is that line).
//!
//! Framing is shared: lines are found with memchr, a line cut anywhere is held
//! until it is complete, SSE `data:` payloads are unwrapped, comments, `event:`
//! / `id:` / `retry:` fields and blank lines are skipped, `[DONE]` ends the
//! stream. A JSON payload may take several lines: pretty-printed JSON (`curl
//! … | jq .`, a saved non-streaming response) and SSE events with several
//! `data:` lines are joined line by line until the value closes. Since the text engine is fed per complete line, how the wire bytes
//! were chunked cannot change the result: stream equals batch.
//!
//! Memory is bounded by `max_buffer` (a line, the open calls together, an
//! undecided terminal line) plus the text engine's own `max_block`; past it,
//! an error record, not an abort.

pub mod accumulate;
pub mod llama_server;
pub mod ollama;
pub mod openai;
pub mod terminal;

use crate::call::{self, Evidence, Shape};
use crate::document::Collector;
use crate::engine::{derive_id, Config, Engine, Event, Sink};
use crate::record::{ErrorRecord, ToolCall};
use accumulate::{AccEvent, Accumulator, Fragment};
use serde::Serialize;
use serde_json::Value;
use std::str::FromStr;

/// What kind of input is read (`--input`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum InputKind {
    /// Sniffed from the first non-empty bytes (the default).
    #[default]
    Auto,
    /// Raw model text, as printed.
    Text,
    /// Terminal output (`ollama run`): escapes stripped, `Thinking...` blocks.
    Terminal,
    /// Ollama NDJSON (`/api/chat`, `/api/generate`).
    Ollama,
    /// OpenAI chat completions (object, chunks, SSE) and the Responses API.
    OpenAi,
    /// llama-server's `/completion` stream and its SSE.
    LlamaServer,
    /// Conversations as JSON message lists ([`crate::validate::messages`]), read by
    /// `validate` and `parse`; the wire engine reads them as text.
    Messages,
}

impl InputKind {
    /// Every kind, in `--input` order.
    pub const ALL: [InputKind; 7] = [
        InputKind::Auto,
        InputKind::Text,
        InputKind::Terminal,
        InputKind::Ollama,
        InputKind::OpenAi,
        InputKind::LlamaServer,
        InputKind::Messages,
    ];

    /// The `--input` name.
    pub fn name(self) -> &'static str {
        match self {
            InputKind::Auto => "auto",
            InputKind::Text => "text",
            InputKind::Terminal => "terminal",
            InputKind::Ollama => "ollama",
            InputKind::OpenAi => "openai",
            InputKind::LlamaServer => "llama-server",
            InputKind::Messages => "messages",
        }
    }
}

impl InputKind {
    /// Parses a `--input` value (for command-line parsers).
    pub fn from_str_arg(s: &str) -> Result<Self, UnknownInput> {
        s.parse()
    }
}

/// A name that is no [`InputKind`] (the name as given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownInput(pub String);

impl std::fmt::Display for UnknownInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = InputKind::ALL.iter().map(|k| k.name()).collect();
        write!(
            f,
            "unknown input kind '{}' (known: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownInput {}

impl FromStr for InputKind {
    type Err = UnknownInput;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "ollama-run" => return Ok(InputKind::Terminal),
            "llama.cpp" | "llamacpp" => return Ok(InputKind::LlamaServer),
            _ => {}
        }
        InputKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| UnknownInput(s.to_string()))
    }
}

/// Wire settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireConfig {
    /// What the input is.
    pub input: InputKind,
    /// Most bytes held for one line, the open calls together, or an
    /// undecided terminal line.
    pub max_buffer: usize,
}

impl Default for WireConfig {
    fn default() -> Self {
        WireConfig {
            input: InputKind::Auto,
            max_buffer: 1 << 20,
        }
    }
}

/// Token counts the server reported.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Usage {
    /// Prompt tokens (`prompt_eval_count`, `prompt_tokens`, `input_tokens`,
    /// `tokens_evaluated`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<u64>,
    /// Generated tokens (`eval_count`, `completion_tokens`, `output_tokens`,
    /// `tokens_predicted`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completion_tokens: Option<u64>,
    /// Their sum, as reported or computed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_tokens: Option<u64>,
}

impl Usage {
    fn merge(&mut self, other: Usage) {
        self.prompt_tokens = other.prompt_tokens.or(self.prompt_tokens);
        self.completion_tokens = other.completion_tokens.or(self.completion_tokens);
        self.total_tokens = other.total_tokens.or(self.total_tokens);
    }
}

/// What a document's stream said about itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// The input kind read (resolved when sniffed).
    pub input: InputKind,
    /// Calls reported.
    pub calls: usize,
    /// Input bytes read (the wire bytes).
    pub bytes: u64,
    /// Bytes of decoded model text.
    pub text_bytes: u64,
    /// The last finish reason (`done_reason`, `finish_reason`, the Responses
    /// status, llama-server's stop type).
    pub finish_reason: Option<String>,
    /// Token counts, when reported.
    pub usage: Option<Usage>,
    /// The stream ended without its final event (`done: true`, `[DONE]`, a
    /// `finish_reason`, `response.completed`, `stop: true`).
    pub truncated: bool,
    /// The errors the server reported in the stream (`{"error": …}`, SSE
    /// `event: error`, a failed response), as their record messages; the
    /// first [`MAX_SERVER_ERRORS`] are kept, `server_error_count` counts all.
    pub server_errors: Vec<String>,
    /// How many errors the server reported.
    pub server_error_count: u64,
}

/// Server error messages kept in a [`Summary`] (the records carry them all).
pub const MAX_SERVER_ERRORS: usize = 16;

/// What a decoder found in one payload (or one stretch of terminal output).
#[derive(Debug)]
pub(crate) enum Item {
    /// Model text.
    Text(Vec<u8>),
    /// Reasoning from a reasoning field.
    Reasoning(Vec<u8>),
    /// A whole call the server parsed.
    Call { format: &'static str, value: Value },
    /// A piece of a call.
    Fragment(Fragment),
    /// A choice (all for `None`) finished.
    Finish {
        choice: Option<u64>,
        reason: Option<String>,
    },
    /// Token counts.
    Usage(Usage),
    /// A payload that is not usable.
    Error {
        message: String,
        hint: Option<String>,
    },
    /// An error the server reported (`{"error": …}`, SSE `event: error`, a
    /// failed response): an error record, and a [`Summary::server_errors`]
    /// entry so that the caller can fail the run.
    ServerError {
        message: String,
        hint: Option<String>,
    },
    /// The name of the model that wrote the stream (its `model` field).
    Model(String),
    /// The stream's final event.
    End,
}

impl Item {
    /// The server's error `message`, met in the middle of the stream.
    fn server_error(message: &str) -> Item {
        Item::ServerError {
            message: format!("server error: {message}"),
            hint: Some("the server reported an error in the middle of the stream".into()),
        }
    }

    /// A payload (or line, `what`) that is JSON but not an object.
    fn not_an_object(what: &str) -> Item {
        Item::Error {
            message: format!("{what} is JSON but not an object"),
            hint: None,
        }
    }

    /// The token counts, when the server gave either (the total is their
    /// sum when it gave both).
    fn usage(prompt: Option<u64>, completion: Option<u64>) -> Option<Item> {
        (prompt.is_some() || completion.is_some()).then(|| {
            Item::Usage(Usage {
                prompt_tokens: prompt,
                completion_tokens: completion,
                total_tokens: prompt.zip(completion).map(|(a, b)| a + b),
            })
        })
    }
}

/// A readable message from an `error` value (string or `{message, …}`).
pub(crate) fn error_text(e: &Value) -> String {
    match e {
        Value::String(s) => s.clone(),
        Value::Object(m) => match m.get("message").and_then(Value::as_str) {
            Some(msg) => match m.get("code").or_else(|| m.get("type")) {
                Some(Value::String(c)) => format!("{msg} ({c})"),
                Some(Value::Number(n)) => format!("{msg} ({n})"),
                _ => msg.to_string(),
            },
            None => e.to_string(),
        },
        other => other.to_string(),
    }
}

// ----- framing ---------------------------------------------------------------

/// One line of wire input (without its `\n` or `\r\n`).
#[derive(Clone, Copy, Debug)]
struct Line<'a> {
    bytes: &'a [u8],
    /// Offset of its first byte in the input.
    offset: u64,
    /// 1-based line number.
    number: u64,
    /// False for a last line without a newline.
    complete: bool,
}

enum Framed<'a> {
    Line(Line<'a>),
    TooLong { offset: u64, number: u64 },
}

/// memchr-based line framing shared by NDJSON and SSE. A line ends at
/// `\n`, `\r\n` or a lone `\r` (the three line ends the SSE specification
/// allows; JSON never holds a raw CR or LF inside a value, so NDJSON loses
/// nothing by it), also when a `\r\n` pair is split between two chunks.
#[derive(Debug)]
struct LineFramer {
    /// The last line ended with a `\r` at the very end of a chunk: a `\n`
    /// opening the next chunk belongs to that line end.
    after_cr: bool,
    /// The current line's bytes so far (never more than `max`).
    buf: Vec<u8>,
    max: usize,
    /// Skipping the rest of a line longer than `max`.
    skipping: bool,
    /// Offset of the current line's first byte.
    offset: u64,
    /// The current line's number (1-based).
    number: u64,
    /// Bytes fed so far.
    fed: u64,
}

impl LineFramer {
    fn new(max: usize) -> Self {
        LineFramer {
            after_cr: false,
            buf: Vec::new(),
            max,
            skipping: false,
            offset: 0,
            number: 1,
            fed: 0,
        }
    }

    fn emit(&self, bytes: &[u8], complete: bool, f: &mut dyn FnMut(Framed<'_>)) {
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        f(Framed::Line(Line {
            bytes,
            offset: self.offset,
            number: self.number,
            complete,
        }));
    }

    fn too_long(&self, f: &mut dyn FnMut(Framed<'_>)) {
        f(Framed::TooLong {
            offset: self.offset,
            number: self.number,
        });
    }

    /// Where the next line starts after the line end at `at` (a `\r`, `\n`
    /// or `\r\n`).
    fn after_end(&mut self, chunk: &[u8], at: usize) -> usize {
        if chunk[at] == b'\r' {
            match chunk.get(at + 1) {
                None => self.after_cr = true,
                Some(b'\n') => return at + 2,
                Some(_) => {}
            }
        }
        at + 1
    }

    fn feed(&mut self, chunk: &[u8], f: &mut dyn FnMut(Framed<'_>)) {
        if chunk.is_empty() {
            return;
        }
        let base = self.fed;
        self.fed += chunk.len() as u64;
        let mut i = 0;
        if std::mem::take(&mut self.after_cr) && chunk[0] == b'\n' {
            // the `\n` of a `\r\n` split between chunks
            i = 1;
        }
        if self.skipping || !self.buf.is_empty() {
            // the current line began in an earlier chunk
            let Some(k) = memchr::memchr2(b'\n', b'\r', &chunk[i..]) else {
                let rest = &chunk[i..];
                if !self.skipping {
                    if self.buf.len() + rest.len() > self.max {
                        self.too_long(f);
                        self.skipping = true;
                        self.buf = Vec::new();
                    } else {
                        self.buf.extend_from_slice(rest);
                    }
                }
                return;
            };
            if self.skipping {
                self.skipping = false;
            } else if self.buf.len() + k > self.max {
                self.too_long(f);
                self.buf = Vec::new();
            } else {
                let mut line = std::mem::take(&mut self.buf);
                line.extend_from_slice(&chunk[i..i + k]);
                self.emit(&line, true, f);
                line.clear();
                self.buf = line;
            }
            self.number += 1;
            i = self.after_end(chunk, i + k);
        }
        loop {
            self.offset = base + i as u64;
            let Some(k) = memchr::memchr2(b'\n', b'\r', &chunk[i..]) else {
                break;
            };
            if k > self.max {
                self.too_long(f);
            } else {
                self.emit(&chunk[i..i + k], true, f);
            }
            self.number += 1;
            i = self.after_end(chunk, i + k);
        }
        let rest = &chunk[i..];
        if rest.len() > self.max {
            self.too_long(f);
            self.skipping = true;
        } else {
            self.buf.extend_from_slice(rest);
        }
    }

    fn finish(&mut self, f: &mut dyn FnMut(Framed<'_>)) {
        if !self.buf.is_empty() && !self.skipping {
            let line = std::mem::take(&mut self.buf);
            self.emit(&line, false, f);
        }
        self.buf = Vec::new();
    }
}

// ----- sniffing --------------------------------------------------------------

fn classify_json(payload: &[u8], fallback: InputKind) -> InputKind {
    let Ok(Value::Object(obj)) = serde_json::from_slice::<Value>(payload) else {
        return InputKind::Text;
    };
    classify_object(&obj, fallback)
}

/// The top-level keys of the JSON object that `prefix` begins, as far as the
/// prefix goes: each key with a `null` value, except `object` and `type`,
/// whose (short) values classification reads. A first line longer than the
/// sniffing window is still classified by the keys it opens with (servers
/// write `model`, `object`, `choices` before the long content).
fn prefix_object(prefix: &[u8]) -> serde_json::Map<String, Value> {
    use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, Visitor};
    struct Keys<'a>(&'a mut serde_json::Map<String, Value>);
    impl<'de> DeserializeSeed<'de> for Keys<'_> {
        type Value = ();
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_map(self)
        }
    }
    impl<'de> Visitor<'de> for Keys<'_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<(), A::Error> {
            while let Some(k) = m.next_key::<String>()? {
                if k == "object" || k == "type" {
                    let v: Value = m.next_value()?;
                    self.0.insert(k, v);
                } else {
                    self.0.insert(k, Value::Null);
                    m.next_value::<IgnoredAny>()?;
                }
            }
            Ok(())
        }
    }
    let mut obj = serde_json::Map::new();
    let mut de = serde_json::Deserializer::from_slice(prefix);
    // an error is the prefix ending: the keys read so far are the answer
    let _ = Keys(&mut obj).deserialize(&mut de);
    obj
}

fn classify_object(obj: &serde_json::Map<String, Value>, fallback: InputKind) -> InputKind {
    if openai::looks_like(obj) {
        InputKind::OpenAi
    } else if ollama::looks_like(obj) {
        InputKind::Ollama
    } else if llama_server::looks_like(obj) {
        InputKind::LlamaServer
    } else if obj.contains_key("error") && obj.len() == 1 && fallback == InputKind::Text {
        InputKind::Ollama
    } else {
        fallback
    }
}

const SSE_FIELDS: [&[u8]; 4] = [b"data:", b"event:", b"id:", b"retry:"];

/// Decides the input kind from its first bytes, or `None` while undecided.
fn sniff(buf: &[u8], eof: bool, max: usize) -> Option<InputKind> {
    let buf = buf.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(buf);
    let full = buf.len() > max;
    // Only the first `max + 1` bytes are looked at: past them an undecided
    // input is text. Reading further when more has arrived (a whole batch)
    // would decide differently from a stream that got here in pieces.
    let (buf, eof) = if buf.len() > max {
        (&buf[..max + 1], false)
    } else {
        (buf, eof)
    };
    let Some(s) = buf.iter().position(|b| !b.is_ascii_whitespace()) else {
        return (eof || buf.len() > max).then_some(InputKind::Text);
    };
    let rest = &buf[s..];
    let first_line = || match memchr::memchr2(b'\n', b'\r', rest) {
        Some(k) => Some(&rest[..k]),
        None if eof => Some(rest),
        None => None,
    };
    let decided = match rest[0] {
        0x1b => Some(InputKind::Terminal),
        b'{' => match first_line() {
            Some(l) if serde_json::from_slice::<serde::de::IgnoredAny>(l).is_ok() || eof => {
                Some(classify_json(l, InputKind::Text))
            }
            // a pretty-printed value: classify it whole once it has ended
            _ => match crate::scan::balance::JsonEnd::new().scan(rest) {
                crate::scan::balance::End::At(n) => {
                    Some(classify_json(&rest[..n], InputKind::Text))
                }
                // a first line longer than the window: its opening keys
                crate::scan::balance::End::More if full => {
                    Some(classify_object(&prefix_object(rest), InputKind::Text))
                }
                crate::scan::balance::End::More if !eof => None,
                _ => Some(InputKind::Text),
            },
        },
        b'T' => match first_line() {
            Some(l) => {
                let l = l.strip_suffix(b"\r").unwrap_or(l);
                Some(if l == b"Thinking..." {
                    InputKind::Terminal
                } else {
                    InputKind::Text
                })
            }
            None if b"Thinking...\r".starts_with(rest) => None,
            None => Some(InputKind::Text),
        },
        b'd' | b'e' | b'i' | b'r' | b':' => sniff_sse(rest, eof, full),
        _ => Some(InputKind::Text),
    };
    match decided {
        None if buf.len() > max => Some(InputKind::Text),
        d => d,
    }
}

/// SSE: skip comments and fields up to the first `data:` line, whose payload
/// decides; anything that is not SSE makes the input text. When the window
/// is `full`, a line it cuts is judged by its start: a `data:` line longer
/// than the window is classified by the keys its payload opens with.
fn sniff_sse(rest: &[u8], eof: bool, full: bool) -> Option<InputKind> {
    let mut pos = 0;
    while pos < rest.len() {
        let (line, next) = match memchr::memchr2(b'\n', b'\r', &rest[pos..]) {
            Some(k) => (&rest[pos..pos + k], pos + k + 1),
            None if eof || full => (&rest[pos..], rest.len()),
            None => {
                let part = &rest[pos..];
                let maybe = part[0] == b':'
                    || SSE_FIELDS
                        .iter()
                        .any(|f| f.starts_with(part) || part.starts_with(f));
                return if maybe { None } else { Some(InputKind::Text) };
            }
        };
        let l = line.strip_suffix(b"\r").unwrap_or(line);
        pos = next;
        if l.is_empty() || l[0] == b':' {
            continue;
        }
        if let Some(p) = l.strip_prefix(b"data:") {
            let p = p.trim_ascii();
            return if p == b"[DONE]" {
                Some(InputKind::OpenAi)
            } else if p.first() == Some(&b'{') {
                sniff_sse_payload(p, &rest[next..], eof, full)
            } else {
                Some(InputKind::Text)
            };
        }
        if !SSE_FIELDS.iter().any(|f| l.starts_with(f)) {
            return Some(InputKind::Text);
        }
    }
    eof.then_some(InputKind::Text)
}

/// Classifies the JSON payload of an SSE event that begins with `first`
/// and may go on in the `data:` lines of `more` (joined with `\n`). A
/// payload the `full` window cuts is classified by its opening keys.
fn sniff_sse_payload(first: &[u8], more: &[u8], eof: bool, full: bool) -> Option<InputKind> {
    use crate::scan::balance::{End, JsonEnd};
    let mut joined = first.to_vec();
    let mut end = JsonEnd::new();
    let mut pos = 0;
    loop {
        match end.scan(&joined) {
            End::At(n) => return Some(classify_json(&joined[..n], InputKind::OpenAi)),
            End::NotValue => return Some(InputKind::Text),
            End::More => {}
        }
        // the event goes on only in `data:` lines
        let Some(k) = memchr::memchr2(b'\n', b'\r', &more[pos..]) else {
            if full {
                // llama-server writes `content` first; OpenAI never has it
                // at the top level
                let obj = prefix_object(&joined);
                return Some(
                    if obj.contains_key("content") && !obj.contains_key("choices") {
                        InputKind::LlamaServer
                    } else {
                        classify_object(&obj, InputKind::OpenAi)
                    },
                );
            }
            return eof.then(|| classify_json(&joined, InputKind::OpenAi));
        };
        let line = &more[pos..pos + k];
        pos += k + 1;
        if line.is_empty() && pos >= 2 && more[pos - 2] == b'\r' && more[pos - 1] == b'\n' {
            continue; // the `\n` of a `\r\n`
        }
        let Some(p) = line.strip_prefix(b"data:") else {
            return Some(classify_json(&joined, InputKind::OpenAi));
        };
        joined.push(b'\n');
        joined.extend_from_slice(p.trim_ascii());
    }
}

// ----- the driver ------------------------------------------------------------

enum Json {
    Ollama,
    OpenAi(openai::OpenAi),
    Llama(llama_server::LlamaServer),
}

enum State {
    Sniff(Vec<u8>),
    Text,
    Terminal(terminal::Terminal),
    Json(Json),
}

/// Renumbers the text engine's calls so that they continue the document's
/// count, which native calls share.
struct Renumber<'a> {
    last: &'a mut Option<(usize, usize)>,
    next: &'a mut usize,
    calls: &'a mut usize,
    sink: &'a mut dyn Sink,
}

impl Renumber<'_> {
    fn doc_index(&mut self, k: usize) -> usize {
        match *self.last {
            Some((ek, d)) if ek == k => d,
            _ => {
                let d = *self.next;
                *self.next += 1;
                *self.last = Some((k, d));
                d
            }
        }
    }
}

impl Sink for Renumber<'_> {
    fn wants_starts(&self) -> bool {
        self.sink.wants_starts()
    }

    fn wants_records(&self) -> bool {
        self.sink.wants_records()
    }

    fn spare_call(&mut self) -> Option<crate::record::ToolCall> {
        self.sink.spare_call()
    }

    fn event(&mut self, ev: Event<'_>) {
        match ev {
            Event::ToolCallStart { index, id, name } => {
                let index = self.doc_index(index);
                self.sink.event(Event::ToolCallStart { index, id, name });
            }
            Event::ToolCall(mut c) => {
                c.index = self.doc_index(c.index);
                *self.calls += 1;
                self.sink.event(Event::ToolCall(c));
            }
            other => self.sink.event(other),
        }
    }
}

struct Core {
    cfg: Config,
    max: usize,
    input: InputKind,
    engine: Engine,
    /// A `model` field was seen (only the first counts).
    model_seen: bool,
    state: State,
    acc: Accumulator,
    items: Vec<Item>,
    acc_out: Vec<AccEvent>,
    last: Option<(usize, usize)>,
    next_index: usize,
    calls: usize,
    fed: u64,
    bytes: u64,
    lines: u64,
    payloads: u64,
    ended: bool,
    finish_reason: Option<String>,
    usage: Option<Usage>,
    truncated: bool,
    /// A JSON payload begun on an earlier line and not yet closed.
    pending: Option<Pending>,
    /// The current SSE event is `event: error`: its data is a server error.
    sse_error: bool,
    /// Server error messages (the first [`MAX_SERVER_ERRORS`]).
    server_errors: Vec<String>,
    /// Server errors reported.
    server_error_count: u64,
    /// The held length at the last look of the sniffer, and the bytes it
    /// has looked at in all: see [`Core::sniff_due`].
    sniffed: (usize, usize),
}

impl Core {
    /// Whether the sniffer should look at the `held` bytes again now that
    /// `chunk` came. Each look reads the held bytes from their start, so
    /// looking after every chunk is quadratic (a stream of one byte per
    /// chunk opening with `{` and never deciding: 18 s for 72 KB). It
    /// looks again when the held bytes grew by half since its last look,
    /// when they pass the window (`max`), or when the chunk holds a byte
    /// that can decide (the end of a line or of a value) while its looks
    /// so far cost at most 8 times the held bytes: linear in all, and a
    /// stream of lines decides at the line that decides. What it decides
    /// does not depend on when it looks: a longer prefix decides the same.
    fn sniff_due(&mut self, held: usize, chunk: &[u8]) -> bool {
        let (last, work) = self.sniffed;
        let due = held > last + last / 2
            || held > self.max
            || (work + held <= 8 * held
                && chunk
                    .iter()
                    .any(|b| matches!(b, b'\n' | b'\r' | b'}' | b']')));
        if due {
            self.sniffed = (held, work + held);
        }
        due
    }
}

/// A JSON payload spread over several lines: pretty-printed JSON (`curl …
/// | jq .`, a saved non-streaming response) or an SSE event whose payload
/// takes several `data:` lines (joined with `\n`, as SSE defines).
struct Pending {
    /// The payload so far, its lines joined with `\n`.
    bytes: Vec<u8>,
    /// Where the value ends, resumed line by line.
    end: crate::scan::balance::JsonEnd,
    /// Offset and number of its first line.
    offset: u64,
    number: u64,
}

/// Where a wire-level record points: the line it came from.
#[derive(Clone, Copy)]
struct At<'a> {
    raw: &'a [u8],
    offset: u64,
    number: u64,
}

/// The wire driver: one decoder (chosen by `--input`, or sniffed) in front of
/// the text engine. Feed it chunks of any size, then call
/// [`WireEngine::finish`]; events go to the sink as they become certain.
///
/// An Ollama `/api/chat` stream (told from other input by its first line:
/// an object with `model` and `message`): the native call in `tool_calls` becomes a
/// call event, the content text a text event.
///
/// ```
/// use toolcall_core::{Collector, Config};
/// use toolcall_core::wire::{WireConfig, WireEngine};
///
/// let stream = concat!(
///     r#"{"model":"qwen3","message":{"role":"assistant","content":"On it."},"done":false}"#, "\n",
///     r#"{"model":"qwen3","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_time","arguments":{"tz":"CET"}}}]},"done":false}"#, "\n",
///     r#"{"model":"qwen3","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}"#, "\n",
/// );
/// let mut found = Collector::default();
/// let mut wire = WireEngine::new(Config::default(), WireConfig::default());
/// wire.feed(stream.as_bytes(), &mut found);
/// wire.finish(&mut found);
/// assert_eq!(found.calls[0].name, "get_time");
/// assert_eq!(found.text, b"On it.");
/// assert_eq!(wire.summary().finish_reason.as_deref(), Some("stop"));
/// ```
pub struct WireEngine {
    framer: LineFramer,
    core: Core,
}

impl WireEngine {
    /// A driver for one document.
    pub fn new(cfg: Config, wire: WireConfig) -> Self {
        let max = wire.max_buffer.max(1);
        let salt = crate::engine::id_salt(&cfg.doc, cfg.turn);
        let mut core = Core {
            engine: Engine::new(cfg.clone()),
            model_seen: false,
            cfg,
            max,
            input: wire.input,
            state: State::Sniff(Vec::new()),
            acc: Accumulator::with_salt(max, salt),
            items: Vec::new(),
            acc_out: Vec::new(),
            last: None,
            next_index: 0,
            calls: 0,
            fed: 0,
            bytes: 0,
            lines: 0,
            payloads: 0,
            ended: false,
            finish_reason: None,
            usage: None,
            truncated: false,
            pending: None,
            sse_error: false,
            server_errors: Vec::new(),
            server_error_count: 0,
            sniffed: (0, 0),
        };
        if wire.input != InputKind::Auto {
            core.resolve(wire.input);
        }
        WireEngine {
            framer: LineFramer::new(max),
            core,
        }
    }

    /// Feeds the next chunk.
    pub fn feed(&mut self, chunk: &[u8], sink: &mut dyn Sink) {
        self.core.bytes += chunk.len() as u64;
        if let State::Sniff(buf) = &mut self.core.state {
            if buf.is_empty() {
                // decided by this chunk alone: no copy
                if let Some(kind) = sniff(chunk, false, self.core.max) {
                    self.core.resolve(kind);
                    self.route(chunk, sink);
                    return;
                }
                self.core.sniffed = (chunk.len(), chunk.len());
                buf.extend_from_slice(chunk);
                return;
            }
            buf.extend_from_slice(chunk);
            let held = buf.len();
            if !self.core.sniff_due(held, chunk) {
                return;
            }
            let State::Sniff(buf) = &mut self.core.state else {
                return;
            };
            if let Some(kind) = sniff(buf, false, self.core.max) {
                let held = std::mem::take(buf);
                self.core.resolve(kind);
                self.route(&held, sink);
            }
            return;
        }
        self.route(chunk, sink);
    }

    /// The text engine's held bytes ([`Engine::held_bytes`]) once the input is
    /// known to be text; `None` before that and for a server's wire format.
    pub fn held_bytes(&self) -> Option<&[u8]> {
        match self.core.state {
            State::Text => self.core.engine.held_bytes(),
            _ => None,
        }
    }

    /// Feeds the chunk `data[held..]` behind the `held` bytes [`WireEngine::held_bytes`]
    /// gave, read in place ([`Engine::feed_after_held`]); otherwise the same
    /// as [`WireEngine::feed`] of the chunk.
    pub fn feed_after_held(&mut self, data: &[u8], held: usize, sink: &mut dyn Sink) {
        let chunk = data.get(held..).unwrap_or_default();
        match self.core.state {
            State::Text if held > 0 => {
                self.core.bytes += chunk.len() as u64;
                self.core.fed += chunk.len() as u64;
                self.core.engine.feed_after_held(data, held, sink);
            }
            _ => self.feed(chunk, sink),
        }
    }

    /// Ends the document: everything held is decided, open calls complete,
    /// and a stream without its final event is reported as truncated.
    pub fn finish(&mut self, sink: &mut dyn Sink) {
        if let State::Sniff(buf) = &mut self.core.state {
            let held = std::mem::take(buf);
            // the bytes since the sniffer's last look first, as a feed
            // would have looked at them (a pretty-printed value that ended
            // there is decided by its end, not by the end of input)
            let fed = (held.len() > self.core.sniffed.0)
                .then(|| sniff(&held, false, self.core.max))
                .flatten();
            let kind = fed
                .or_else(|| sniff(&held, true, self.core.max))
                .unwrap_or(InputKind::Text);
            self.core.resolve(kind);
            self.route(&held, sink);
        }
        let core = &mut self.core;
        match &mut core.state {
            State::Sniff(_) => {}
            State::Text => core.engine.finish(sink),
            State::Terminal(t) => {
                t.finish(&mut core.items);
                core.run_items(None, sink);
                core.finish_engine(sink);
            }
            State::Json(_) => {
                self.framer.finish(&mut |l| core.framed(l, sink));
                if let Some(p) = core.pending.take() {
                    // a value still open at the end: cut off
                    let at = At {
                        raw: &p.bytes,
                        offset: p.offset,
                        number: p.number,
                    };
                    core.payload(&p.bytes, at, false, sink);
                }
                core.finish_engine(sink);
                let cut = !core.ended;
                core.acc.finish(None, cut, &mut core.acc_out);
                core.acc_events(None, sink);
                if !core.ended && core.payloads > 0 {
                    core.truncated = true;
                    core.error(
                        "TLP-008",
                        "stream ended without its final event: it was cut off".into(),
                        Some("the connection was closed or the server stopped early; the output may be incomplete".into()),
                        None,
                        sink,
                    );
                }
            }
        }
    }

    fn route(&mut self, chunk: &[u8], sink: &mut dyn Sink) {
        let core = &mut self.core;
        match &mut core.state {
            State::Sniff(_) => {}
            State::Text => {
                core.fed += chunk.len() as u64;
                core.engine.feed(chunk, sink);
            }
            State::Terminal(t) => {
                t.feed(chunk, &mut core.items);
                core.run_items(None, sink);
            }
            State::Json(_) => self.framer.feed(chunk, &mut |l| core.framed(l, sink)),
        }
    }

    /// [`Engine::settled`] for text input; `None` for a server's wire
    /// format (or before the input kind is known), whose calls need not come
    /// in span order.
    pub fn settled(&self) -> Option<u64> {
        match self.core.state {
            State::Text => self.core.engine.settled(),
            _ => None,
        }
    }

    /// Calls reported so far.
    pub fn calls(&self) -> usize {
        match self.core.state {
            State::Text => self.core.engine.calls(),
            _ => self.core.calls,
        }
    }

    /// Work done so far: bytes read, the bytes the sniffer looked at, plus
    /// the text engine's ([`Engine::work`]) and the call accumulator's
    /// ([`Accumulator::work`]). The linear-time tests compare it across
    /// input sizes.
    pub fn work(&self) -> u64 {
        // the sniffer's looks read the held bytes from their start
        let sniffed = self.core.sniffed.1 as u64;
        self.core.bytes + sniffed + self.core.engine.work() + self.core.acc.work()
    }

    /// Streamed calls open (fragments joined, not complete yet) and the
    /// keys of calls dropped at `max_buffer` still remembered: both stay
    /// bounded however many calls a stream opens.
    pub fn open_calls(&self) -> (usize, usize) {
        (self.core.acc.open_calls(), self.core.acc.dropped_keys().0)
    }

    /// Bytes currently held back by the driver and its engine (framing,
    /// sniffing, open calls, terminal state, the engine's undecided text).
    pub fn held(&self) -> usize {
        let c = &self.core;
        let state = match &c.state {
            State::Sniff(b) => b.len(),
            State::Terminal(t) => t.held(),
            _ => 0,
        };
        self.framer.buf.len() + state + c.acc.held() + (c.fed - c.engine.consumed()) as usize
    }

    /// What the stream said about itself so far.
    pub fn summary(&self) -> Summary {
        let c = &self.core;
        Summary {
            input: c.input,
            calls: self.calls(),
            bytes: c.bytes,
            text_bytes: c.fed,
            finish_reason: c.finish_reason.clone(),
            usage: c.usage.clone(),
            truncated: c.truncated,
            server_errors: c.server_errors.clone(),
            server_error_count: c.server_error_count,
        }
    }
}

impl Core {
    fn resolve(&mut self, kind: InputKind) {
        self.input = kind;
        if matches!(kind, InputKind::Ollama | InputKind::OpenAi) {
            // these servers split reasoning out themselves (`thinking`,
            // `reasoning_content`): the content's start is not held
            self.engine.no_prompt_think();
        }
        self.state = match kind {
            InputKind::Auto | InputKind::Text | InputKind::Messages => State::Text,
            InputKind::Terminal => State::Terminal(terminal::Terminal::new(self.max)),
            InputKind::Ollama => State::Json(Json::Ollama),
            InputKind::OpenAi => State::Json(Json::OpenAi(openai::OpenAi::default())),
            InputKind::LlamaServer => {
                State::Json(Json::Llama(llama_server::LlamaServer::default()))
            }
        };
    }

    fn pos(&self) -> u64 {
        self.engine.consumed()
    }

    fn finish_engine(&mut self, sink: &mut dyn Sink) {
        let mut r = Renumber {
            last: &mut self.last,
            next: &mut self.next_index,
            calls: &mut self.calls,
            sink,
        };
        self.engine.finish(&mut r);
    }

    fn framed(&mut self, f: Framed<'_>, sink: &mut dyn Sink) {
        match f {
            Framed::TooLong { offset, number } => {
                self.lines = number;
                self.error(
                    "TLP-007",
                    format!(
                        "line longer than --max-buffer ({} bytes); skipped",
                        self.max
                    ),
                    Some("raise --max-buffer if payloads this large are expected".into()),
                    Some(At {
                        raw: b"",
                        offset,
                        number,
                    }),
                    sink,
                );
            }
            Framed::Line(l) => self.line(l, sink),
        }
    }

    /// One wire line. A line is a line: a payload still open when a blank
    /// line comes (the end of an SSE event; pretty-printed JSON has none) or
    /// when a line starts a new value at its first byte (the lines inside a
    /// pretty-printed value are indented; NDJSON lines are not) was cut or
    /// garbage: it is reported and decoding resumes with this line.
    fn line(&mut self, l: Line<'_>, sink: &mut dyn Sink) {
        self.lines = l.number;
        let t = l.bytes.trim_ascii();
        if t.is_empty() {
            self.sse_error = false;
            self.abandon_pending(sink);
            return;
        }
        if let Some(name) = t.strip_prefix(b"event:") {
            self.sse_error = name.trim_ascii() == b"error";
            return;
        }
        let payload = if let Some(p) = t.strip_prefix(b"data:") {
            p.trim_ascii_start()
        } else if t[0] == b':' || SSE_FIELDS.iter().any(|f| t.starts_with(f)) {
            return;
        } else {
            // a line that is not SSE: no `event:` field applies to it
            self.sse_error = false;
            if matches!(l.bytes.first(), Some(b'{' | b'[')) {
                self.abandon_pending(sink);
            }
            t
        };
        if let Some(mut p) = self.pending.take() {
            p.bytes.push(b'\n');
            p.bytes.extend_from_slice(payload);
            if p.bytes.len() > self.max {
                let at = At {
                    raw: b"",
                    offset: p.offset,
                    number: p.number,
                };
                self.error(
                    "TLP-007",
                    format!(
                        "JSON payload longer than --max-buffer ({} bytes); skipped",
                        self.max
                    ),
                    Some("raise --max-buffer if payloads this large are expected".into()),
                    Some(at),
                    sink,
                );
                return;
            }
            match p.end.scan(&p.bytes) {
                crate::scan::balance::End::More if l.complete => {
                    self.pending = Some(p);
                    return;
                }
                _ => {
                    let at = At {
                        raw: &p.bytes,
                        offset: p.offset,
                        number: p.number,
                    };
                    self.payload(&p.bytes, at, l.complete, sink);
                    return;
                }
            }
        }
        let at = At {
            raw: l.bytes,
            offset: l.offset,
            number: l.number,
        };
        self.payload(payload, at, l.complete, sink);
    }

    /// Reports a payload that never closed (see [`Core::line`]) and drops it.
    fn abandon_pending(&mut self, sink: &mut dyn Sink) {
        let Some(p) = self.pending.take() else {
            return;
        };
        let at = At {
            raw: &p.bytes,
            offset: p.offset,
            number: p.number,
        };
        self.error(
            "TLP-008",
            "line is not JSON (cut off or garbage); skipped".into(),
            Some("decoding resumed at the next line".into()),
            Some(at),
            sink,
        );
    }

    /// Decodes one payload: a JSON value (or `[DONE]`) from one line or
    /// several.
    fn payload(&mut self, payload: &[u8], at: At<'_>, complete: bool, sink: &mut dyn Sink) {
        if self.sse_error && payload != b"[DONE]" {
            // `event: error`: whatever its data says is the server's error
            let message = match serde_json::from_slice::<Value>(payload) {
                Ok(v) => error_text(v.get("error").unwrap_or(&v)),
                Err(_) if complete && self.opens_value(payload, at) => return,
                Err(_) => crate::scan::lossy(payload).into_owned(),
            };
            self.payloads += 1;
            self.items.push(Item::server_error(&message));
            self.run_items(Some(at), sink);
            return;
        }
        if payload == b"[DONE]" {
            self.items.push(Item::Finish {
                choice: None,
                reason: None,
            });
            self.items.push(Item::End);
        } else {
            match serde_json::from_slice::<Value>(payload) {
                Ok(v) => {
                    self.payloads += 1;
                    let State::Json(dec) = &mut self.state else {
                        return;
                    };
                    match dec {
                        Json::Ollama => ollama::decode(&v, &mut self.items),
                        Json::OpenAi(d) => d.decode(&v, &mut self.items),
                        Json::Llama(d) => d.decode(&v, &mut self.items),
                    }
                }
                Err(_) if complete && self.opens_value(payload, at) => return,
                Err(_) if !complete => {
                    self.payloads += 1;
                    self.items.push(Item::Error {
                        message: "stream cut off in the middle of a payload".into(),
                        hint: Some(
                            "the connection was closed mid-payload; the output may be incomplete"
                                .into(),
                        ),
                    })
                }
                Err(e) => self.items.push(Item::Error {
                    message: format!("line is not JSON ({e}); skipped"),
                    hint: None,
                }),
            }
        }
        self.run_items(Some(at), sink);
    }

    /// Whether `payload` is the first line of a JSON value that goes on:
    /// if so it is kept as [`Pending`] and the next lines join it.
    fn opens_value(&mut self, payload: &[u8], at: At<'_>) -> bool {
        if !matches!(payload.first(), Some(b'{' | b'[')) || payload.len() > self.max {
            return false;
        }
        let mut end = crate::scan::balance::JsonEnd::new();
        if end.scan(payload) != crate::scan::balance::End::More {
            return false;
        }
        self.pending = Some(Pending {
            bytes: payload.to_vec(),
            end,
            offset: at.offset,
            number: at.number,
        });
        true
    }

    fn run_items(&mut self, at: Option<At<'_>>, sink: &mut dyn Sink) {
        let mut items = std::mem::take(&mut self.items);
        for item in items.drain(..) {
            if !matches!(item, Item::Text(_)) {
                // text held while its start was undecided comes before
                // what the server sent after it
                let mut r = Renumber {
                    last: &mut self.last,
                    next: &mut self.next_index,
                    calls: &mut self.calls,
                    sink,
                };
                self.engine.settle_start(&mut r);
            }
            match item {
                Item::Text(b) => {
                    self.ended = false;
                    self.fed += b.len() as u64;
                    let mut r = Renumber {
                        last: &mut self.last,
                        next: &mut self.next_index,
                        calls: &mut self.calls,
                        sink,
                    };
                    self.engine.feed(&b, &mut r);
                }
                Item::Reasoning(b) => {
                    self.ended = false;
                    let p = self.pos();
                    sink.event(Event::Reasoning {
                        span: [p, p],
                        content: &b,
                    });
                }
                Item::Call { format, value } => {
                    self.ended = false;
                    self.native(format, &value, at, sink);
                }
                Item::Fragment(f) => {
                    self.ended = false;
                    let p = self.pos();
                    self.acc.push(f, &mut self.next_index, p, &mut self.acc_out);
                    self.acc_events(at, sink);
                }
                Item::Finish { choice, reason } => {
                    let cut = reason.as_deref().is_some_and(|r| {
                        matches!(r, "length" | "limit" | "incomplete" | "max_tokens")
                    });
                    if cut {
                        // a call still open at the end was cut, not finished
                        self.engine.set_truncated(true);
                    }
                    if reason.is_some() {
                        self.finish_reason = reason;
                    }
                    self.acc.finish(choice, cut, &mut self.acc_out);
                    self.acc_events(at, sink);
                }
                Item::Usage(u) => self.usage.get_or_insert_with(Usage::default).merge(u),
                Item::Error { message, hint } => self.error("TLP-008", message, hint, at, sink),
                Item::ServerError { message, hint } => {
                    self.server_error_count += 1;
                    if self.server_errors.len() < MAX_SERVER_ERRORS {
                        self.server_errors.push(message.clone());
                    }
                    self.error("TLP-008", message, hint, at, sink);
                }
                Item::End => self.ended = true,
                Item::Model(name) => self.model_named(&name),
            }
        }
        self.items = items;
    }

    fn acc_events(&mut self, at: Option<At<'_>>, sink: &mut dyn Sink) {
        let mut evs = std::mem::take(&mut self.acc_out);
        for ev in evs.drain(..) {
            match ev {
                AccEvent::Start { index, id, name } => sink.event(Event::ToolCallStart {
                    index,
                    id: &id,
                    name: &name,
                }),
                AccEvent::Error {
                    code,
                    message,
                    hint,
                } => self.error(code, message, hint, at, sink),
                AccEvent::Call(a) => {
                    let raw = serde_json::json!({
                        "id": a.id,
                        "type": "function",
                        "function": {"name": a.name, "arguments": a.arguments},
                    })
                    .to_string();
                    if a.cut_off
                        && !a.arguments.trim().is_empty()
                        && !crate::repair::is_valid_json(&a.arguments)
                    {
                        self.error(
                            "TLP-002",
                            format!("arguments of tool call {:?} were cut off", a.name),
                            Some("the output was cut off; raise the token limit".into()),
                            at,
                            sink,
                        );
                        continue;
                    }
                    let parsed = call::arguments_from(Some(&Value::String(a.arguments)));
                    match parsed {
                        Ok((args, repairs)) => self.emit_call(
                            a.index,
                            a.id,
                            a.name,
                            args,
                            repairs,
                            openai::FORMAT,
                            raw,
                            false,
                            at,
                            sink,
                        ),
                        Err(Shape::Broken(code, msg)) => self.error(code, msg, None, at, sink),
                        Err(Shape::NotCall) => {}
                    }
                }
            }
        }
        self.acc_out = evs;
    }

    /// The stream names its model: with `--format auto` and before any
    /// model text, the model's format is looked for (see
    /// [`crate::formats::model_name::resolve`]). Its generation prompt is not
    /// applied: a server that applied the chat template also splits off the
    /// reasoning the prompt opened.
    fn model_named(&mut self, name: &str) {
        if self.model_seen {
            return;
        }
        self.model_seen = true;
        let cfg = self.engine.config();
        if cfg.format != crate::engine::FormatChoice::Auto
            || self.engine.consumed() > 0
            || self.engine.held() > 0
        {
            return;
        }
        if let Some(format) = crate::formats::model_name::resolve(name).map(|r| r.format) {
            let mut cfg = cfg.clone();
            cfg.format = crate::engine::FormatChoice::Only(format);
            self.engine = Engine::new(cfg);
        }
    }

    /// A whole call the server parsed.
    fn native(&mut self, format: &'static str, v: &Value, at: Option<At<'_>>, sink: &mut dyn Sink) {
        let raw = v.to_string();
        match call::calls_from_value(v, Evidence::Strong) {
            Ok(parts) => {
                for p in parts {
                    let index = self.next_index;
                    self.next_index += 1;
                    let id = p.id.unwrap_or_else(|| {
                        derive_id(
                            crate::engine::id_salt(&self.cfg.doc, self.cfg.turn),
                            index,
                            self.pos(),
                            &p.name,
                        )
                    });
                    self.emit_call(
                        index,
                        id,
                        p.name,
                        p.arguments,
                        p.repairs,
                        format,
                        raw.clone(),
                        true,
                        at,
                        sink,
                    );
                }
            }
            Err(Shape::Broken(code, msg)) => self.error(code, msg, None, at, sink),
            Err(Shape::NotCall) => self.error(
                "TLP-001",
                "tool call from the server has no function name".into(),
                None,
                at,
                sink,
            ),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn emit_call(
        &mut self,
        index: usize,
        id: String,
        name: String,
        arguments: serde_json::Map<String, Value>,
        repairs: Vec<crate::repair::Repair>,
        format: &'static str,
        raw: String,
        start: bool,
        at: Option<At<'_>>,
        sink: &mut dyn Sink,
    ) {
        if !self.cfg.repair && !repairs.is_empty() {
            self.error(
                "TLP-002",
                format!(
                    "invalid JSON in the arguments of '{}' (repair is off)",
                    crate::scan::escape_terminal(&name)
                ),
                Some("run without --no-repair to accept repaired arguments".into()),
                at,
                sink,
            );
            return;
        }
        if start {
            sink.event(Event::ToolCallStart {
                index,
                id: &id,
                name: &name,
            });
        }
        let p = self.pos();
        self.calls += 1;
        // Native calls get the same `server`/`tool` split as text-parsed ones.
        let mut extra = serde_json::Map::new();
        crate::call::add_server_fields(&name, &mut extra);
        sink.event(Event::ToolCall(ToolCall {
            kind: "tool_call",
            doc: self.cfg.doc.clone(),
            index,
            id,
            name,
            arguments: Value::Object(arguments).into(),
            format,
            span: [p, p],
            raw,
            repairs,
            in_reasoning: false,
            turn: None,
            extra,
        }));
    }

    fn error(
        &mut self,
        code: &'static str,
        message: String,
        hint: Option<String>,
        at: Option<At<'_>>,
        sink: &mut dyn Sink,
    ) {
        let p = self.pos();
        let (raw, offset, line) = match at {
            Some(a) => {
                let cut = crate::scan::utf8_complete_len(&a.raw[..a.raw.len().min(512)]);
                (
                    String::from_utf8_lossy(&a.raw[..cut]).into_owned(),
                    a.offset,
                    a.number,
                )
            }
            None => (String::new(), self.bytes, self.lines.max(1)),
        };
        sink.event(Event::Error(ErrorRecord {
            kind: "error",
            code,
            message,
            doc: self.cfg.doc.clone(),
            span: [p, p],
            raw,
            offset,
            line,
            column: 1,
            hint,
            turn: None,
        }));
    }
}

/// Parses a whole wire document: the driver fed once.
pub fn parse(input: &[u8], cfg: &Config, wire: &WireConfig) -> (Collector, Summary) {
    parse_chunked(std::iter::once(input), cfg, wire)
}

/// Parses a wire document fed in the given chunks.
pub fn parse_chunked<'a>(
    chunks: impl IntoIterator<Item = &'a [u8]>,
    cfg: &Config,
    wire: &WireConfig,
) -> (Collector, Summary) {
    let mut c = Collector::default();
    let mut w = WireEngine::new(cfg.clone(), wire.clone());
    for chunk in chunks {
        w.feed(chunk, &mut c);
    }
    w.finish(&mut c);
    (c, w.summary())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_kinds() {
        let k = |s: &[u8]| sniff(s, true, 1 << 20);
        assert_eq!(
            k(b"{\"model\":\"m\",\"response\":\"a\",\"done\":false}\n"),
            Some(InputKind::Ollama)
        );
        assert_eq!(k(b"data: {\"choices\":[]}\n\n"), Some(InputKind::OpenAi));
        assert_eq!(
            k(b": ping\n\nevent: response.created\ndata: {\"type\":\"response.created\"}\n"),
            Some(InputKind::OpenAi)
        );
        assert_eq!(
            k(b"data: {\"content\":\"a\",\"stop\":false}\n"),
            Some(InputKind::LlamaServer)
        );
        assert_eq!(
            k(b"{\"name\":\"f\",\"arguments\":{}}"),
            Some(InputKind::Text)
        );
        assert_eq!(k(b"data shows that"), Some(InputKind::Text));
        assert_eq!(k(b"Thinking...\nhm"), Some(InputKind::Terminal));
        assert_eq!(k(b"\x1b[?25lhi"), Some(InputKind::Terminal));
        assert_eq!(sniff(b"  {\"model\"", false, 1 << 20), None);
        assert_eq!(sniff(b"dat", false, 1 << 20), None);
        assert_eq!(sniff(b"hello", false, 1 << 20), Some(InputKind::Text));
    }
}
