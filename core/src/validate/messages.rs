//! Structured transcripts: conversations written as JSON message lists
//! rather than as model text (issue 32).
//!
//! [`read`] takes one conversation as a JSON value, in any of the shapes
//! agent logs and datasets use:
//!
//! * OpenAI Chat Completions request and response bodies (`messages`,
//!   `choices[].message`, `tool_calls`, `role: "tool"` + `tool_call_id`);
//! * Ollama `/api/chat` bodies (`messages`, `message`; arguments as objects);
//! * OpenAI Responses items (`input` / `output`: `message`,
//!   `function_call`, `function_call_output`, `reasoning`);
//! * Anthropic Messages (`content` blocks `text`, `tool_use`,
//!   `tool_result`, `thinking`);
//! * ShareGPT (`conversations: [{from, value}]`, calls as `<tool_call>` text
//!   in `gpt` turns).
//!
//! Each call, result and reasoning field becomes an [`Entry`] with its turn,
//! its role and the JSON Pointer of the value it came from
//! (`/messages/3/tool_calls/0`). Calls a server parsed become tool calls as
//! wire calls do; assistant text is parsed for calls the server left in
//! the content ([`CallEntry::in_content`]). [`lint`] checks the
//! conversation as a whole: every call answered, no result without a call,
//! no duplicate id, no call to a tool the conversation did not offer,
//! arguments strings that parse, no call left in the content.
//!
//! Nothing here reads files: the caller hands over a parsed value, and
//! [`locate`] maps a pointer back to a byte offset in the text it was read
//! from. A JSONL of conversations is read one line at a time by the caller,
//! so memory is bounded by the longest line.

use crate::config::Config;
use crate::engine::{derive_id, id_salt};
use crate::record::ToolCall;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// The codes of the conversation checks, in [`lint`]'s order.
pub const CODES: [&str; 6] = [
    UNANSWERED,
    ORPHAN_RESULT,
    DUPLICATE_ID,
    NOT_OFFERED,
    BAD_ARGUMENTS,
    IN_CONTENT,
];

/// A call no result answers before the next assistant turn.
pub const UNANSWERED: &str = "TLP-009";
/// A result whose call id no earlier call has.
pub const ORPHAN_RESULT: &str = "TLP-010";
/// A call id used by an earlier call.
pub const DUPLICATE_ID: &str = "TLP-011";
/// A call to a tool the conversation's `tools` do not list.
pub const NOT_OFFERED: &str = "TLP-012";
/// Arguments that are a JSON string which does not parse.
pub const BAD_ARGUMENTS: &str = "TLP-013";
/// A call left as text in an assistant's content by a server that parses calls.
pub const IN_CONTENT: &str = "TLP-014";

/// The shape a conversation is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A message list (OpenAI Chat Completions, Ollama `/api/chat`,
    /// Anthropic Messages) or a response body holding one message.
    Chat,
    /// OpenAI Responses items.
    Responses,
    /// ShareGPT `conversations`.
    ShareGpt,
}

/// A call found in a conversation.
#[derive(Clone, Debug)]
pub struct CallEntry {
    /// The call, as `parse` writes it (`format` `openai`, `ollama`,
    /// `anthropic`, or the text format it was written in).
    pub call: ToolCall,
    /// The call was written as text in an assistant's content of a
    /// conversation whose server parses calls (the "call in content" bug).
    pub in_content: bool,
    /// The id came from the conversation (not derived).
    pub given_id: bool,
    /// Why the arguments string did not parse, when it did not.
    pub bad_arguments: Option<String>,
    /// The pointer of the arguments value, when it has its own.
    pub arguments_pointer: Option<String>,
    /// The arguments were a JSON string holding the object's text (encoded
    /// twice), and were decoded: `bad_arguments` says so, and the decoded
    /// object is the call's.
    pub double_encoded: bool,
}

/// What an entry holds.
#[derive(Clone, Debug)]
pub enum Kind {
    /// A tool call.
    Call(Box<CallEntry>),
    /// A tool result, with the id of the call it answers (when given) and
    /// the tool's name (when given).
    Result {
        /// `tool_call_id`, `tool_use_id` or `call_id`.
        id: Option<String>,
        /// The tool's name, when the result names it.
        name: Option<String>,
    },
    /// Reasoning text.
    Reasoning(String),
    /// Text that opens a call which cannot be read (a call in a ShareGPT
    /// turn or an assistant's content the parser refused, a `function_call`
    /// turn whose JSON is hopeless): the parser's code and message.
    Broken {
        /// `TLP-001`, `TLP-002` or `TLP-003`.
        code: &'static str,
        /// What is wrong.
        message: String,
        /// The text of the candidate (at most 512 bytes).
        raw: String,
    },
}

/// One call, result or reasoning field of a conversation.
#[derive(Clone, Debug)]
pub struct Entry {
    /// 0-based index of the turn: one message is one turn, and in the
    /// Responses API a run of assistant items is one turn.
    pub turn: usize,
    /// `system`, `user`, `assistant`, `tool`, … as the conversation names
    /// it (ShareGPT's `human`, `gpt`, `observation` mapped to these); the
    /// common roles are not allocated (a conversation of a million calls
    /// holds a million entries).
    pub role: Cow<'static, str>,
    /// JSON Pointer of the value the entry came from.
    pub pointer: String,
    /// What it is.
    pub kind: Kind,
}

/// One conversation, read.
#[derive(Clone, Debug)]
pub struct Transcript {
    /// Its shape.
    pub shape: Shape,
    /// The `tools` the conversation offered (a request body's), as written
    /// (a JSON string holding the list is decoded).
    pub tools: Option<Value>,
    /// The entries in conversation order.
    pub entries: Vec<Entry>,
    /// The role of each turn, by turn index (turns without calls, results
    /// or reasoning included); the common roles are not allocated (a
    /// conversation of a million messages holds a million turns).
    pub turns: Vec<Cow<'static, str>>,
    /// JSON Pointer, in the document, of what the conversation was read
    /// from (`""`: the whole document; see [`super::shapes`]).
    pub pointer: String,
    /// The name of the shape it was found in (`chat` when read directly).
    pub source: &'static str,
    /// Fields of a chat message whose value has the wrong type (`role` not
    /// a string, `content` neither a string, a list nor null, `tool_calls`
    /// not a list): their JSON Pointer and what is wrong, in message order.
    pub malformed: Vec<(String, String)>,
}

impl Transcript {
    /// The names of the offered tools, when the conversation lists tools.
    pub fn offered(&self) -> Option<HashSet<String>> {
        let list = self.tools.as_ref()?.as_array()?;
        Some(
            list.iter()
                .filter_map(|t| {
                    t.pointer("/function/name")
                        .or_else(|| t.get("name"))
                        .and_then(Value::as_str)
                        .map(str::to_string)
                })
                .collect(),
        )
    }
}

/// The shape of a value that is plainly a conversation: an object with a
/// `messages` list, a ShareGPT `conversations` list or a Responses `input`
/// list, or a list of messages (`role`) or of Responses items. What
/// `--input auto` takes for a transcript.
pub fn sniff(v: &Value) -> Option<Shape> {
    match v {
        Value::Object(o) => {
            if list_of_objects(o.get("conversations")) {
                Some(Shape::ShareGpt)
            } else if list_of_objects(o.get("messages")) {
                Some(Shape::Chat)
            } else if list_of_objects(o.get("input")) {
                Some(Shape::Responses)
            } else {
                None
            }
        }
        Value::Array(a) if !a.is_empty() && a.iter().all(Value::is_object) => {
            if a.iter()
                .all(|m| m.get("role").is_some_and(Value::is_string))
            {
                Some(Shape::Chat)
            } else if a
                .iter()
                .all(|m| m.get("type").is_some_and(Value::is_string))
            {
                Some(Shape::Responses)
            } else if a
                .iter()
                .all(|m| m.get("from").is_some_and(Value::is_string))
            {
                Some(Shape::ShareGpt)
            } else if a.iter().all(|m| {
                m.get("type").is_some_and(Value::is_string)
                    || m.get("role").is_some_and(Value::is_string)
            }) {
                // Responses items with the input's easy messages (`{role,
                // content}`, no `type`) among them: the OpenAI Agents SDK's
                // `to_input_list()`
                Some(Shape::Responses)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// The shape of any value [`read`] understands: [`sniff`]'s, and response
/// bodies (`choices[].message`, Ollama's `message`, Responses `output`).
/// What `--input messages` takes.
pub fn shape(v: &Value) -> Option<Shape> {
    if let Some(s) = sniff(v) {
        return Some(s);
    }
    let o = v.as_object()?;
    if list_of_objects(o.get("choices")) || o.get("message").is_some_and(Value::is_object) {
        Some(Shape::Chat)
    } else if list_of_objects(o.get("output")) {
        Some(Shape::Responses)
    } else {
        None
    }
}

fn list_of_objects(v: Option<&Value>) -> bool {
    matches!(v, Some(Value::Array(a)) if a.iter().all(Value::is_object))
}

/// Reads one conversation. `cfg` is the engine configuration text content
/// is parsed with (its `doc` names the calls' document). `None` when the
/// value is no conversation [`shape`] knows.
pub fn read(v: &Value, cfg: &Config) -> Option<Transcript> {
    read_with(v, cfg)
}

/// [`read`] of a conversation it may drop: the messages of a `messages`
/// list (a ShareGPT `conversations` list's turns) are read one at a time
/// by an [`Incremental`] and dropped as they are read, so the
/// conversation is not held twice (as JSON and as entries) at its
/// largest. A document parsed a message at a time
/// ([`super::shapes::stream`]) feeds the same [`Incremental`].
pub fn read_owned(mut v: Value, cfg: &Config) -> Option<Transcript> {
    let shape = sniff(&v);
    let key = match shape {
        Some(Shape::Chat) => "messages",
        Some(Shape::ShareGpt) => "conversations",
        _ => return read(&v, cfg),
    };
    let list = match v.get_mut(key) {
        Some(Value::Array(list)) => std::mem::take(list),
        _ => return read(&v, cfg),
    };
    let mut inc = Incremental::new(shape?, cfg)?;
    for m in list {
        inc.push(m);
    }
    Some(inc.finish(&v))
}

/// A conversation's message list read one message at a time: the
/// messages of a `messages` list ([`Shape::Chat`]) or the turns of a
/// ShareGPT `conversations` list ([`Shape::ShareGpt`]), each handed over
/// owned and dropped once read. What is kept is what the conversation's
/// checks need: the entries (calls, results, reasoning) and one role per
/// turn, never the messages.
pub struct Incremental<'a> {
    r: Reader<'a>,
    shape: Shape,
    /// The next message's index.
    k: usize,
}

impl<'a> Incremental<'a> {
    /// A reader of a `messages` list (`Chat`) or a `conversations` list
    /// (`ShareGpt`) read with `cfg`; `None` for other shapes.
    pub fn new(shape: Shape, cfg: &'a Config) -> Option<Incremental<'a>> {
        if shape == Shape::Responses {
            return None;
        }
        Some(Incremental {
            r: Reader::new(shape, cfg),
            shape,
            k: 0,
        })
    }

    /// Reads the next message (turn `k` at `/messages/k` or
    /// `/conversations/k`).
    pub fn push(&mut self, m: Value) {
        let k = self.k;
        self.k += 1;
        match self.shape {
            Shape::ShareGpt => self.r.sharegpt(&m, k, &format!("/conversations/{k}")),
            _ => self.r.message_owned(m, k, &format!("/messages/{k}")),
        }
    }

    /// Reads the next message of a `messages` list whose `tool_calls` list
    /// is handed over apart, a call at a time (`m` holds its first call, or
    /// nothing, in that list's place): a message of a million calls is not
    /// held whole, as parsed JSON, while it is read. The first error of
    /// `calls` stops the read.
    pub fn push_calls<E>(
        &mut self,
        m: Value,
        calls: impl Iterator<Item = Result<Value, E>>,
    ) -> Result<(), E> {
        let k = self.k;
        self.k += 1;
        let p = format!("/messages/{k}");
        self.r.message_head(&m, k, &p);
        // an entry a call: the list grown once, not by doubling
        self.r.entries.reserve(calls.size_hint().0);
        for (j, c) in calls.enumerate() {
            self.r.tool_call(&c?, k, format!("{p}/tool_calls/{j}"));
        }
        self.r.message_tail(&m, k, &p);
        Ok(())
    }

    /// The transcript read; `v` is the conversation's object without its
    /// list (its `tools` are read from it).
    pub fn finish(self, v: &Value) -> Transcript {
        Transcript {
            shape: self.shape,
            tools: tools_of(v),
            entries: self.r.entries,
            turns: self.r.turns,
            pointer: String::new(),
            source: "chat",
            malformed: self.r.malformed,
        }
    }
}

/// The `tools` (or legacy `functions`) a conversation object offers, as
/// written (a JSON string holding the list is decoded).
fn tools_of(v: &Value) -> Option<Value> {
    v.get("tools")
        .or_else(|| v.get("functions"))
        .and_then(|t| match t {
            Value::Array(_) => Some(t.clone()),
            // datasets keep the list as a JSON string
            Value::String(s) => serde_json::from_str::<Value>(s)
                .ok()
                .filter(Value::is_array),
            _ => None,
        })
}

/// [`read`] of a value it borrows.
fn read_with(v: &Value, cfg: &Config) -> Option<Transcript> {
    let shape = shape(v)?;
    let mut r = Reader::new(shape, cfg);
    let tools = tools_of(v);
    match shape {
        Shape::ShareGpt => {
            let (list, base) = match v {
                Value::Array(a) => (a, String::new()),
                _ => (
                    v.get("conversations").and_then(Value::as_array)?,
                    "/conversations".to_string(),
                ),
            };
            for (k, m) in list.iter().enumerate() {
                r.sharegpt(m, k, &format!("{base}/{k}"));
            }
        }
        Shape::Responses => {
            let (list, base) = match v {
                Value::Array(a) => (a, String::new()),
                _ => match v.get("input").and_then(Value::as_array) {
                    Some(a) => (a, "/input".to_string()),
                    None => (
                        v.get("output").and_then(Value::as_array)?,
                        "/output".to_string(),
                    ),
                },
            };
            let mut turn = 0usize;
            let mut last: Option<bool> = None;
            for (k, item) in list.iter().enumerate() {
                let assistant = responses_role(item) == "assistant";
                // a run of assistant items (reasoning, message, calls) is one turn
                if let Some(prev) = last {
                    if !(prev && assistant) {
                        turn += 1;
                    }
                }
                last = Some(assistant);
                if r.turns.len() == turn {
                    r.turns.push(role_name(responses_role(item)));
                }
                r.responses(item, turn, &format!("{base}/{k}"));
            }
        }
        Shape::Chat => {
            if let Value::Array(list) = v {
                for (k, m) in list.iter().enumerate() {
                    r.message(m, k, &format!("/{k}"));
                }
            } else if let Some(list) = v.get("messages").and_then(Value::as_array) {
                for (k, m) in list.iter().enumerate() {
                    r.message(m, k, &format!("/messages/{k}"));
                }
            } else if let Some(list) = v.get("choices").and_then(Value::as_array) {
                for (k, c) in list.iter().enumerate() {
                    if let Some(m) = c.get("message") {
                        r.message(m, k, &format!("/choices/{k}/message"));
                    }
                }
            } else if let Some(m) = v.get("message") {
                r.message(m, 0, "/message");
            }
        }
    }
    Some(Transcript {
        shape,
        tools,
        entries: r.entries,
        turns: r.turns,
        pointer: String::new(),
        source: "chat",
        malformed: r.malformed,
    })
}

/// The role of a Responses item.
fn responses_role(item: &Value) -> &str {
    match item.get("type").and_then(Value::as_str) {
        Some("function_call" | "reasoning" | "custom_tool_call") => "assistant",
        Some("function_call_output" | "custom_tool_call_output") => "tool",
        _ => item.get("role").and_then(Value::as_str).unwrap_or("user"),
    }
}

struct Reader<'a> {
    cfg: &'a Config,
    entries: Vec<Entry>,
    /// The role of each turn.
    turns: Vec<Cow<'static, str>>,
    /// Calls read so far (the next call's `index`).
    index: usize,
    /// The conversation's calls are native (a server parsed them): a call
    /// in an assistant's text is one the server missed.
    native: bool,
    /// See [`Transcript::malformed`].
    malformed: Vec<(String, String)>,
}

impl<'a> Reader<'a> {
    /// A reader of a conversation in `shape` with nothing read yet.
    fn new(shape: Shape, cfg: &'a Config) -> Reader<'a> {
        Reader {
            cfg,
            entries: Vec::new(),
            turns: Vec::new(),
            index: 0,
            native: shape != Shape::ShareGpt,
            malformed: Vec::new(),
        }
    }

    fn push(&mut self, turn: usize, role: &str, pointer: String, kind: Kind) {
        self.entries.push(Entry {
            turn,
            role: role_name(role),
            pointer,
            kind,
        });
    }

    /// A native call: `name`, `arguments` (object or JSON string), `id`.
    #[allow(clippy::too_many_arguments)]
    fn native_call(
        &mut self,
        turn: usize,
        pointer: String,
        format: &'static str,
        name: &str,
        arguments: Option<(&Value, String)>,
        id: Option<&str>,
    ) {
        let mut double_encoded = false;
        let (args, bad) = match arguments.as_ref().map(|a| a.0) {
            None | Some(Value::Null) => (Map::new(), None),
            Some(Value::Object(o)) => (o.clone(), None),
            Some(Value::String(s)) if s.trim().is_empty() => (Map::new(), None),
            Some(Value::String(s)) => match serde_json::from_str::<Value>(s) {
                Ok(Value::Object(o)) => (o, None),
                // double-encoded: a JSON string that holds the object's text
                Ok(Value::String(inner))
                    if serde_json::from_str::<Value>(&inner).is_ok_and(|v| v.is_object()) =>
                {
                    let o = match serde_json::from_str::<Value>(&inner) {
                        Ok(Value::Object(o)) => o,
                        _ => Map::new(),
                    };
                    double_encoded = true;
                    (
                        o,
                        Some(
                            "the arguments are encoded twice (a JSON string holding the \
                             object's text); decoded"
                                .to_string(),
                        ),
                    )
                }
                Ok(other) => (
                    Map::new(),
                    Some(format!(
                        "the arguments string holds {}, not an object",
                        kind_name(&other)
                    )),
                ),
                Err(e) => (
                    repaired(name, s),
                    Some(format!("the arguments string is not JSON ({e})")),
                ),
            },
            Some(other) => (
                Map::new(),
                Some(format!(
                    "the arguments are {}, not an object",
                    kind_name(other)
                )),
            ),
        };
        let index = self.index;
        self.index += 1;
        let given_id = id.is_some_and(|i| !i.is_empty());
        let id = match id {
            Some(i) if !i.is_empty() => i.to_string(),
            _ => derive_id(id_salt(&self.cfg.doc, turn as u64), index, 0, name),
        };
        let mut extra = Map::new();
        crate::call::add_server_fields(name, &mut extra);
        let call = ToolCall {
            kind: "tool_call",
            doc: self.cfg.doc.clone(),
            index,
            id,
            name: name.to_string(),
            arguments: Value::Object(args).into(),
            format,
            span: [0, 0],
            // the reader of the document's text fills it with the call's
            // bytes (a copy of the value here would cost more than the call)
            raw: String::new(),
            repairs: Vec::new(),
            in_reasoning: false,
            turn: None,
            extra,
        };
        self.push(
            turn,
            "assistant",
            pointer,
            Kind::Call(Box::new(CallEntry {
                call,
                in_content: false,
                given_id,
                bad_arguments: bad,
                arguments_pointer: arguments.map(|a| a.1),
                double_encoded,
            })),
        );
    }

    /// Calls written in an assistant's text.
    fn text_calls(&mut self, turn: usize, role: &str, text: &str, pointer: &str) {
        if role != "assistant" || text.is_empty() {
            return;
        }
        // the turn is part of a derived id: the same call in two turns
        // gets two ids (no false duplicate-id finding)
        let cfg = Config {
            turn: turn as u64,
            ..self.cfg.clone()
        };
        let found = crate::document::parse(text.as_bytes(), &cfg);
        for mut call in found.calls {
            call.index = self.index;
            self.index += 1;
            let in_content = self.native;
            self.push(
                turn,
                role,
                pointer.to_string(),
                Kind::Call(Box::new(CallEntry {
                    call,
                    in_content,
                    given_id: false,
                    bad_arguments: None,
                    arguments_pointer: None,
                    double_encoded: false,
                })),
            );
        }
        for e in found.errors {
            // a call the parser saw but could not read is the data's
            // defect, at the turn's own pointer (a budget is not)
            if matches!(e.code, "TLP-001" | "TLP-002" | "TLP-003") {
                let raw: String = e.raw.chars().take(512).collect();
                self.push(
                    turn,
                    role,
                    pointer.to_string(),
                    Kind::Broken {
                        code: e.code,
                        message: e.message,
                        raw,
                    },
                );
            }
        }
        if !found.reasoning.is_empty() {
            self.push(
                turn,
                role,
                pointer.to_string(),
                Kind::Reasoning(String::from_utf8_lossy(&found.reasoning).into_owned()),
            );
        }
    }

    /// A turn whose whole text is a call's JSON (ShareGPT `function_call`,
    /// glaive's `<functioncall>`): one call, or a list of parallel calls.
    /// JSON that had to be repaired gives the call its repairs; JSON that
    /// cannot be read is a [`Kind::Broken`] entry.
    fn json_call(&mut self, turn: usize, text: &str, p: &str) {
        let (value, mut repairs) = match serde_json::from_str::<Value>(text) {
            Ok(v) => (v, Vec::new()),
            Err(_) => {
                match crate::repair::repair(text, &crate::repair::RepairOptions::default())
                    .ok()
                    .and_then(|r| Some((serde_json::from_str::<Value>(&r.output).ok()?, r.repairs)))
                {
                    Some(v) => v,
                    None => {
                        self.push(
                            turn,
                            "assistant",
                            p.to_string(),
                            Kind::Broken {
                                code: "TLP-003",
                                message: "the call's JSON cannot be read, even repaired".into(),
                                raw: text.chars().take(512).collect(),
                            },
                        );
                        return;
                    }
                }
            }
        };
        let items = match value {
            Value::Array(items) => items,
            other => vec![other],
        };
        for item in items {
            let name = item.get("name").and_then(Value::as_str).unwrap_or("");
            if name.is_empty() {
                self.push(
                    turn,
                    "assistant",
                    p.to_string(),
                    Kind::Broken {
                        code: "TLP-001",
                        message: "the call has no name".into(),
                        raw: text.chars().take(512).collect(),
                    },
                );
                continue;
            }
            let args = item.get("arguments").map(|a| (a, p.to_string()));
            let id = item.get("id").and_then(Value::as_str);
            self.native_call(turn, p.to_string(), "sharegpt", name, args, id);
            if let Some(Entry {
                kind: Kind::Call(c),
                ..
            }) = self.entries.last_mut()
            {
                c.call.repairs.append(&mut repairs);
            }
        }
    }

    /// One chat message (OpenAI, Ollama, Anthropic).
    fn message(&mut self, m: &Value, turn: usize, p: &str) {
        self.message_head(m, turn, p);
        let (key, calls) = calls_of(m);
        if let Some(Value::Array(calls)) = calls {
            for (k, c) in calls.iter().enumerate() {
                self.tool_call(c, turn, format!("{p}/{key}/{k}"));
            }
        }
        self.message_tail(m, turn, p);
    }

    /// [`Reader::message`] of a message it may drop: its calls are read
    /// and dropped one at a time, so a message of a million calls is not
    /// held twice (as JSON and as entries).
    fn message_owned(&mut self, mut m: Value, turn: usize, p: &str) {
        self.message_head(&m, turn, p);
        let (key, _) = calls_of(&m);
        if let Some(Value::Array(calls)) = m.get_mut(key).map(Value::take) {
            // one entry a call at least: grown once, not by doubling (a
            // list grown by doubling holds up to twice its entries, and
            // both the old and the new list while it grows)
            self.entries.reserve(calls.len());
            for (k, c) in calls.into_iter().enumerate() {
                self.tool_call(&c, turn, format!("{p}/{key}/{k}"));
            }
        }
        self.message_tail(&m, turn, p);
    }

    /// What a message says before its calls: its role, reasoning and
    /// content (and the fields of the wrong type).
    fn message_head(&mut self, m: &Value, turn: usize, p: &str) {
        let wrong = [
            (
                "role",
                m.get("role").is_some_and(|r| !r.is_string()),
                "a string",
            ),
            (
                "content",
                m.get("content")
                    .is_some_and(|c| !(c.is_string() || c.is_array() || c.is_null())),
                "a string, a list of parts or null",
            ),
            (
                "tool_calls",
                m.get("tool_calls")
                    .is_some_and(|c| !(c.is_array() || c.is_null())),
                "a list",
            ),
        ];
        for (key, bad, want) in wrong {
            if let (true, Some(v)) = (bad, m.get(key)) {
                self.malformed.push((
                    format!("{p}/{key}"),
                    format!("the message's {key} is {}, not {want}", kind_name(v)),
                ));
            }
        }
        let role = m.get("role").and_then(Value::as_str).unwrap_or("user");
        self.turns.push(role_name(role));
        for key in ["reasoning_content", "reasoning", "thinking"] {
            if let Some(t) = m.get(key).and_then(Value::as_str) {
                if !t.is_empty() {
                    self.push(turn, role, format!("{p}/{key}"), Kind::Reasoning(t.into()));
                }
            }
        }
        match m.get("content") {
            Some(Value::String(s)) => {
                // ReAct text beside native calls is their rendering, not more calls
                let native = m
                    .get("tool_calls")
                    .and_then(Value::as_array)
                    .is_some_and(|c| !c.is_empty())
                    || m.get("function_call").is_some_and(Value::is_object);
                if native || !(role == "assistant" && self.react(turn, s, &format!("{p}/content")))
                {
                    self.text_calls(turn, role, s, &format!("{p}/content"));
                }
            }
            Some(Value::Array(blocks)) => {
                for (j, b) in blocks.iter().enumerate() {
                    self.block(b, turn, role, &format!("{p}/content/{j}"));
                }
            }
            _ => {}
        }
    }

    /// One call of a message's `tool_calls` (OpenAI's `{id, function:
    /// {name, arguments}}`, Ollama's arguments object, LangChain's and
    /// τ²-bench's `{name, args | arguments}`), at pointer `cp`.
    fn tool_call(&mut self, c: &Value, turn: usize, cp: String) {
        let f = c.get("function").unwrap_or(c);
        let name = f.get("name").and_then(Value::as_str).unwrap_or("");
        // LangChain's tool calls name their arguments `args`
        let args_key = if f.get("arguments").is_none() && f.get("args").is_some() {
            "args"
        } else {
            "arguments"
        };
        let args = f.get(args_key);
        let format = if args.is_some_and(Value::is_string) {
            "openai"
        } else {
            "ollama"
        };
        let ap = if c.get("function").is_some() {
            format!("{cp}/function/{args_key}")
        } else {
            format!("{cp}/{args_key}")
        };
        let id = c.get("id").and_then(Value::as_str);
        self.native_call(turn, cp, format, name, args.map(|a| (a, ap)), id);
    }

    /// What a message says after its calls: a legacy `function_call`, and
    /// the result a tool message is.
    fn message_tail(&mut self, m: &Value, turn: usize, p: &str) {
        let role = m.get("role").and_then(Value::as_str).unwrap_or("user");
        if let Some(f) = m.get("function_call").filter(|f| f.is_object()) {
            let name = f.get("name").and_then(Value::as_str).unwrap_or("");
            let args = f
                .get("arguments")
                .map(|a| (a, format!("{p}/function_call/arguments")));
            self.native_call(
                turn,
                format!("{p}/function_call"),
                "openai",
                name,
                args,
                None,
            );
        }
        if matches!(role, "tool" | "function" | "ipython") {
            let id = m
                .get("tool_call_id")
                .or_else(|| m.get("toolCallId"))
                .and_then(Value::as_str)
                .map(str::to_string);
            let name = m
                .get("tool_name")
                .or_else(|| m.get("name"))
                .and_then(Value::as_str)
                .map(str::to_string);
            self.push(turn, role, p.to_string(), Kind::Result { id, name });
        }
    }

    /// One content block (Anthropic blocks, OpenAI content parts).
    fn block(&mut self, b: &Value, turn: usize, role: &str, p: &str) {
        match b.get("type").and_then(Value::as_str) {
            Some("tool_use") => {
                let name = b.get("name").and_then(Value::as_str).unwrap_or("");
                let args = b.get("input").map(|a| (a, format!("{p}/input")));
                let id = b.get("id").and_then(Value::as_str);
                self.native_call(turn, p.to_string(), "anthropic", name, args, id);
            }
            Some("tool_result") => {
                let id = b
                    .get("tool_use_id")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                self.push(turn, role, p.to_string(), Kind::Result { id, name: None });
            }
            Some("thinking") => {
                if let Some(t) = b.get("thinking").and_then(Value::as_str) {
                    self.push(
                        turn,
                        role,
                        format!("{p}/thinking"),
                        Kind::Reasoning(t.into()),
                    );
                }
            }
            // LLaMA-Factory's blocks: `{"type": "tool_call", "value": "{…}"}`
            // holds the call's JSON (a list of calls for parallel ones),
            // as a ShareGPT `function_call` turn does
            Some("tool_call") => match b.get("value") {
                Some(Value::String(text)) => self.json_call(turn, text, &format!("{p}/value")),
                Some(v @ Value::Object(_)) => {
                    let f = v.get("function").unwrap_or(v);
                    let name = f.get("name").and_then(Value::as_str).unwrap_or("");
                    let key = if f.get("arguments").is_some() {
                        "arguments"
                    } else {
                        "parameters"
                    };
                    let ap = if v.get("function").is_some() {
                        format!("{p}/value/function/{key}")
                    } else {
                        format!("{p}/value/{key}")
                    };
                    let args = f.get(key).map(|a| (a, ap));
                    let id = v.get("id").and_then(Value::as_str);
                    let vp = format!("{p}/value");
                    self.native_call(turn, vp, "sharegpt", name, args, id);
                }
                _ => {}
            },
            Some("reasoning") => {
                if let Some(t) = b.get("value").and_then(Value::as_str) {
                    self.push(turn, role, format!("{p}/value"), Kind::Reasoning(t.into()));
                }
            }
            Some("text" | "input_text" | "output_text") | None => {
                // LLaMA-Factory writes a text block's text as `value`
                if let Some(t) = b.get("text").and_then(Value::as_str) {
                    self.text_calls(turn, role, t, &format!("{p}/text"));
                } else if let Some(t) = b.get("value").and_then(Value::as_str) {
                    self.text_calls(turn, role, t, &format!("{p}/value"));
                }
            }
            _ => {}
        }
    }

    /// One Responses item.
    fn responses(&mut self, item: &Value, turn: usize, p: &str) {
        let role = responses_role(item);
        match item.get("type").and_then(Value::as_str) {
            Some("function_call") => {
                let name = item.get("name").and_then(Value::as_str).unwrap_or("");
                let args = item.get("arguments").map(|a| (a, format!("{p}/arguments")));
                let id = item
                    .get("call_id")
                    .or_else(|| item.get("id"))
                    .and_then(Value::as_str);
                self.native_call(turn, p.to_string(), "openai", name, args, id);
            }
            Some("function_call_output") => {
                let id = item
                    .get("call_id")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                self.push(turn, role, p.to_string(), Kind::Result { id, name: None });
            }
            Some("reasoning") => {
                for key in ["summary", "content"] {
                    if let Some(Value::Array(parts)) = item.get(key) {
                        for (j, s) in parts.iter().enumerate() {
                            if let Some(t) = s.get("text").and_then(Value::as_str) {
                                self.push(
                                    turn,
                                    role,
                                    format!("{p}/{key}/{j}/text"),
                                    Kind::Reasoning(t.into()),
                                );
                            }
                        }
                    }
                }
            }
            _ => match item.get("content") {
                Some(Value::String(s)) => self.text_calls(turn, role, s, &format!("{p}/content")),
                Some(Value::Array(blocks)) => {
                    for (j, b) in blocks.iter().enumerate() {
                        self.block(b, turn, role, &format!("{p}/content/{j}"));
                    }
                }
                _ => {}
            },
        }
    }

    /// One ShareGPT turn.
    fn sharegpt(&mut self, m: &Value, turn: usize, p: &str) {
        let from = m.get("from").and_then(Value::as_str).unwrap_or("");
        let role = sharegpt_role(from);
        self.turns.push(role_name(role));
        let text = m.get("value").and_then(Value::as_str).unwrap_or("");
        let vp = format!("{p}/value");
        if sharegpt_call_turn(from) {
            // the value is the call's JSON
            self.json_call(turn, text, &vp);
            return;
        }
        if role == "tool" {
            // one result per <tool_response> block, or the whole value
            let n = text.matches("<tool_response>").count().max(1);
            for _ in 0..n {
                self.push(
                    turn,
                    role,
                    vp.clone(),
                    Kind::Result {
                        id: None,
                        name: None,
                    },
                );
            }
            return;
        }
        if !(role == "assistant" && self.react(turn, text, &vp)) {
            self.text_calls(turn, role, text, &vp);
        }
    }

    /// The ReAct steps of an assistant's text (ToolBench / ToolLLaMA:
    /// `Thought: …`, `Action: NAME`, `Action Input: {…}`), each a call
    /// whose arguments are the input's JSON. `false` when the text has
    /// none (it is then searched for calls as any text is).
    fn react(&mut self, turn: usize, text: &str, p: &str) -> bool {
        let steps = react_steps(text);
        if steps.is_empty() {
            return false;
        }
        for (name, input, span) in steps {
            let args = Value::String(input.to_string());
            self.native_call(
                turn,
                p.to_string(),
                "react",
                name,
                Some((&args, p.to_string())),
                None,
            );
            // the step's place in the text (what `--convert` cuts out)
            if let Some(Entry {
                kind: Kind::Call(c),
                ..
            }) = self.entries.last_mut()
            {
                c.call.span = [span[0] as u64, span[1] as u64];
            }
        }
        true
    }
}

/// The `Action: NAME` / `Action Input: …` pairs of a ReAct text, in order:
/// an `Action:` line whose name is one word, then (on the next line that
/// is not blank) `Action Input:` and what follows it up to the next
/// `Observation:`, `Thought:` or `Action:` line; with the byte range of
/// the step (from its `Action:` line to the end of its input).
pub fn react_steps(text: &str) -> Vec<(&str, &str, [usize; 2])> {
    let mut out = Vec::new();
    if !text.contains("Action Input:") {
        return out;
    }
    let lines: Vec<(usize, &str)> = text
        .split_inclusive('\n')
        .scan(0usize, |at, l| {
            let start = *at;
            *at += l.len();
            Some((start, l))
        })
        .collect();
    let stop = |l: &str| {
        let t = l.trim_start();
        t.starts_with("Observation:") || t.starts_with("Thought:") || t.starts_with("Action:")
    };
    let mut k = 0;
    while k < lines.len() {
        let line = lines[k].1.trim();
        let Some(name) = line.strip_prefix("Action:").map(str::trim) else {
            k += 1;
            continue;
        };
        let one_word = !name.is_empty() && !name.contains(char::is_whitespace) && name.len() <= 256;
        let mut j = k + 1;
        while j < lines.len() && lines[j].1.trim().is_empty() {
            j += 1;
        }
        let input_line = lines.get(j).map(|l| (l.0, l.1.trim_start()));
        let Some((at, rest)) = input_line.filter(|(_, l)| l.starts_with("Action Input:")) else {
            k += 1;
            continue;
        };
        if !one_word {
            k = j + 1;
            continue;
        }
        let lead = lines[j].1.len() - rest.len();
        let start = at + lead + "Action Input:".len();
        let mut end = j + 1;
        while end < lines.len() && !stop(lines[end].1) {
            end += 1;
        }
        let stop_at = lines.get(end).map_or(text.len(), |l| l.0);
        let input = text[start..stop_at].trim();
        let end_at = start + text[start..stop_at].trim_end().len();
        out.push((name, input, [lines[k].0, end_at]));
        k = end;
    }
    out
}

/// A message's calls and their key: `tool_calls`, or Continue's
/// `toolCalls`.
fn calls_of(m: &Value) -> (&'static str, Option<&Value>) {
    match m.get("tool_calls") {
        Some(c) => ("tool_calls", Some(c)),
        None => ("toolCalls", m.get("toolCalls")),
    }
}

/// A role's name, not allocated for the common ones.
fn role_name(role: &str) -> Cow<'static, str> {
    match role {
        "assistant" => Cow::Borrowed("assistant"),
        "user" => Cow::Borrowed("user"),
        "tool" => Cow::Borrowed("tool"),
        "system" => Cow::Borrowed("system"),
        "function" => Cow::Borrowed("function"),
        "ipython" => Cow::Borrowed("ipython"),
        other => Cow::Owned(other.to_string()),
    }
}

/// The role a ShareGPT turn's `from` names (`human` → `user`, `gpt` and
/// `function_call` → `assistant`, `observation` → `tool`, …); an unknown
/// name is kept.
pub fn sharegpt_role(from: &str) -> &str {
    match from {
        "human" | "user" => "user",
        "gpt" | "assistant" | "model" | "chatgpt" | "bard" | "bing" | "function_call"
        | "function-call" | "tool_call" => "assistant",
        "tool" | "observation" | "function_response" | "function-response" | "tool_response"
        | "ipython" | "function" => "tool",
        "system" => "system",
        other => other,
    }
}

/// Whether a ShareGPT turn's `from` says its value is a call's JSON.
pub fn sharegpt_call_turn(from: &str) -> bool {
    matches!(from, "function_call" | "function-call" | "tool_call")
}

/// The arguments JSON repair recovers from a string that does not parse
/// (empty when it recovers none): the schema check then judges what the
/// model meant, beside the finding that the string is broken.
fn repaired(name: &str, s: &str) -> Map<String, Value> {
    let envelope = serde_json::json!({"name": name, "arguments": s});
    match crate::call::calls_from_value(&envelope, crate::call::Evidence::Strong) {
        Ok(mut parts) if !parts.is_empty() => parts.swap_remove(0).arguments,
        _ => Map::new(),
    }
}

fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A problem with a conversation as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// One of [`CODES`].
    pub code: &'static str,
    /// The entry it is about (a call, or a result for [`ORPHAN_RESULT`]).
    pub entry: usize,
    /// JSON Pointer of the value at fault.
    pub pointer: String,
    /// What is wrong, in one line.
    pub message: String,
}

/// Checks a conversation: every call is answered by a result with its id
/// before the next assistant turn ([`UNANSWERED`]); no result without a
/// call ([`ORPHAN_RESULT`]); no duplicate call id ([`DUPLICATE_ID`]); no
/// call to a tool the conversation did not offer ([`NOT_OFFERED`], only
/// when it lists tools); arguments strings that parse ([`BAD_ARGUMENTS`]);
/// no call left in the content ([`IN_CONTENT`]). A result without an id
/// answers the oldest open call (of its tool, when it names one). Calls
/// still open when the conversation ends are not findings: the reply may
/// be waiting for them. Findings come in entry order.
pub fn lint(t: &Transcript) -> Vec<Finding> {
    lint_counted(t).0
}

/// [`lint`] and the work it did (entries visited plus open-call lookups,
/// each a map operation): the linear-time test compares it across sizes.
pub fn lint_counted(t: &Transcript) -> (Vec<Finding>, u64) {
    use std::collections::BTreeMap;
    let offered = t.offered();
    let mut out = Vec::new();
    let mut work = 0u64;
    // the first assistant turn after each turn (usize::MAX: none); it
    // never decreases with the turn, so the calls it has passed are the
    // oldest open ones
    let mut next_assistant = vec![usize::MAX; t.turns.len() + 1];
    for k in (0..t.turns.len()).rev() {
        next_assistant[k] = if t.turns.get(k + 1).is_some_and(|r| r == "assistant") {
            k + 1
        } else {
            next_assistant[k + 1]
        };
    }
    let deadline = |entry: usize| {
        next_assistant
            .get(t.entries[entry].turn)
            .copied()
            .unwrap_or(usize::MAX)
    };
    // open calls by entry, and the same calls by id and by name
    let mut open: BTreeMap<usize, (&str, &str)> = BTreeMap::new();
    let mut by_id: HashMap<&str, Open> = HashMap::new();
    let mut by_name: HashMap<&str, Open> = HashMap::new();
    let mut ids: HashMap<&str, usize> = HashMap::new();
    // calls that could not be read, whose results are not orphans
    let mut broken = 0usize;
    let close = |entry: usize,
                 open: &mut BTreeMap<usize, (&str, &str)>,
                 by_id: &mut HashMap<&str, Open>,
                 by_name: &mut HashMap<&str, Open>| {
        if let Some((id, name)) = open.remove(&entry) {
            if let Some(set) = by_id.get_mut(id) {
                set.remove(&entry);
            }
            if let Some(set) = by_name.get_mut(name) {
                set.remove(&entry);
            }
        }
    };
    for (k, e) in t.entries.iter().enumerate() {
        work += 1;
        // calls whose next assistant turn has come were never answered
        while let Some((&entry, &(id, name))) = open.first_key_value() {
            if deadline(entry) > e.turn {
                break;
            }
            work += 1;
            out.push(unanswered(t, entry, id, name));
            close(entry, &mut open, &mut by_id, &mut by_name);
        }
        match &e.kind {
            Kind::Call(c) => {
                let name = c.call.name.as_str();
                if c.given_id {
                    work += 1;
                    if let Some(&first) = ids.get(c.call.id.as_str()) {
                        out.push(Finding {
                            code: DUPLICATE_ID,
                            entry: k,
                            pointer: e.pointer.clone(),
                            message: format!(
                                "call id '{}' is used again (first at {})",
                                c.call.id, t.entries[first].pointer
                            ),
                        });
                    } else {
                        ids.insert(&c.call.id, k);
                    }
                }
                if let Some(names) = &offered {
                    if !names.contains(name) {
                        out.push(Finding {
                            code: NOT_OFFERED,
                            entry: k,
                            pointer: e.pointer.clone(),
                            message: format!(
                                "call to '{name}', a tool the conversation does not offer"
                            ),
                        });
                    }
                }
                if let Some(why) = &c.bad_arguments {
                    out.push(Finding {
                        code: BAD_ARGUMENTS,
                        entry: k,
                        pointer: c
                            .arguments_pointer
                            .clone()
                            .unwrap_or_else(|| e.pointer.clone()),
                        message: why.clone(),
                    });
                }
                if c.in_content {
                    out.push(Finding {
                        code: IN_CONTENT,
                        entry: k,
                        pointer: e.pointer.clone(),
                        message: format!(
                            "call to '{name}' left as {} text in the content: the server did not parse it",
                            c.call.format
                        ),
                    });
                }
                work += 3;
                open.insert(k, (&c.call.id, name));
                by_id.entry(&c.call.id).or_default().insert(k);
                by_name.entry(name).or_default().insert(k);
            }
            Kind::Result { id, name } => {
                work += 1;
                let first = |m: &HashMap<&str, Open>, key: &str| m.get(key).and_then(Open::first);
                let answered = match (id, name) {
                    (Some(id), _) => first(&by_id, id),
                    (None, Some(n)) => first(&by_name, n).or_else(|| open.keys().next().copied()),
                    (None, None) => open.keys().next().copied(),
                };
                match answered {
                    Some(entry) => close(entry, &mut open, &mut by_id, &mut by_name),
                    // the call it answers is one that could not be read:
                    // that call is the finding, not its result
                    None if broken > 0 => broken -= 1,
                    None => out.push(Finding {
                        code: ORPHAN_RESULT,
                        entry: k,
                        pointer: e.pointer.clone(),
                        message: match id {
                            Some(id) => {
                                format!("result for call id '{id}', which no open call has")
                            }
                            None => "result with no call to answer".to_string(),
                        },
                    }),
                }
            }
            Kind::Broken { .. } => broken += 1,
            Kind::Reasoning(_) => {}
        }
    }
    for (&entry, &(id, name)) in &open {
        work += 1;
        if deadline(entry) != usize::MAX {
            out.push(unanswered(t, entry, id, name));
        }
    }
    out.sort_by_key(|f| f.entry);
    (out, work)
}

/// The open calls of one id or one name, by entry: most ids are given
/// to one call, and a set of one costs a tree node (some 100 bytes a call
/// of a conversation of many calls).
#[derive(Default)]
enum Open {
    /// None open.
    #[default]
    None,
    /// One.
    One(usize),
    /// Two or more.
    Many(std::collections::BTreeSet<usize>),
}

impl Open {
    fn insert(&mut self, entry: usize) {
        *self = match std::mem::take(self) {
            Open::None => Open::One(entry),
            Open::One(first) => Open::Many([first, entry].into_iter().collect()),
            Open::Many(mut set) => {
                set.insert(entry);
                Open::Many(set)
            }
        };
    }

    fn remove(&mut self, entry: &usize) {
        match self {
            Open::One(e) if e == entry => *self = Open::None,
            Open::Many(set) => {
                set.remove(entry);
            }
            _ => {}
        }
    }

    fn first(&self) -> Option<usize> {
        match self {
            Open::None => None,
            Open::One(e) => Some(*e),
            Open::Many(set) => set.first().copied(),
        }
    }
}

fn unanswered(t: &Transcript, entry: usize, id: &str, name: &str) -> Finding {
    Finding {
        code: UNANSWERED,
        entry,
        pointer: t.entries[entry].pointer.clone(),
        message: format!("call '{name}' (id {id}) has no result before the next assistant turn"),
    }
}

/// The byte ranges, in the JSON text `json`, of the values the pointers in
/// `wanted` name, found in one pass over the text (a pointer the text does
/// not hold is missing from the answer), and the bytes that pass visited.
pub fn spans(json: &[u8], wanted: &HashSet<&str>) -> (HashMap<String, [usize; 2]>, u64) {
    let depth = wanted
        .iter()
        .map(|p| p.matches('/').count())
        .max()
        .unwrap_or(0);
    let mut walk = Walk {
        json,
        wanted,
        depth,
        out: HashMap::new(),
        work: 0,
    };
    let mut pointer = String::new();
    let start = ws(json, 0);
    walk.value(start, &mut pointer, 0);
    (walk.out, walk.work)
}

struct Walk<'a> {
    json: &'a [u8],
    wanted: &'a HashSet<&'a str>,
    depth: usize,
    out: HashMap<String, [usize; 2]>,
    work: u64,
}

impl Walk<'_> {
    /// Walks the value at `i` (pointer `p`, `level` deep); returns its end.
    fn value(&mut self, i: usize, p: &mut String, level: usize) -> Option<usize> {
        let b = self.json;
        let end = match b.get(i)? {
            b'{' if level < self.depth => {
                let mut j = ws(b, i + 1);
                if b.get(j) == Some(&b'}') {
                    j + 1
                } else {
                    loop {
                        if b.get(j)? != &b'"' {
                            return None;
                        }
                        let key_end = string_end(b, j)?;
                        let key: String = serde_json::from_slice(&b[j..key_end]).ok()?;
                        j = ws(b, key_end);
                        if b.get(j)? != &b':' {
                            return None;
                        }
                        let len = p.len();
                        p.push('/');
                        p.push_str(&key.replace('~', "~0").replace('/', "~1"));
                        let v_end = self.value(ws(b, j + 1), p, level + 1)?;
                        p.truncate(len);
                        j = ws(b, v_end);
                        match b.get(j)? {
                            b',' => j = ws(b, j + 1),
                            b'}' => break j + 1,
                            _ => return None,
                        }
                    }
                }
            }
            b'[' if level < self.depth => {
                let mut j = ws(b, i + 1);
                if b.get(j) == Some(&b']') {
                    j + 1
                } else {
                    let mut n = 0usize;
                    loop {
                        let len = p.len();
                        p.push('/');
                        p.push_str(&n.to_string());
                        let v_end = self.value(j, p, level + 1)?;
                        p.truncate(len);
                        n += 1;
                        j = ws(b, v_end);
                        match b.get(j)? {
                            b',' => j = ws(b, j + 1),
                            b']' => break j + 1,
                            _ => return None,
                        }
                    }
                }
            }
            _ => value_end(b, i)?,
        };
        self.work += (end - i) as u64;
        if self.wanted.contains(p.as_str()) {
            self.out.insert(p.clone(), [i, end]);
        }
        Some(end)
    }
}

/// The byte offset, in the JSON text `json`, of the value JSON Pointer
/// `pointer` names (`""`: the whole value). `None` when the text does not
/// hold it. Costs one pass over the text before the value.
pub fn locate(json: &[u8], pointer: &str) -> Option<usize> {
    let mut i = ws(json, 0);
    if pointer.is_empty() {
        return Some(i);
    }
    for raw in pointer.strip_prefix('/')?.split('/') {
        let tok = raw.replace("~1", "/").replace("~0", "~");
        match json.get(i)? {
            b'{' => {
                i = ws(json, i + 1);
                loop {
                    if json.get(i)? != &b'"' {
                        return None;
                    }
                    let end = string_end(json, i)?;
                    let key: String = serde_json::from_slice(&json[i..end]).ok()?;
                    i = ws(json, end);
                    if json.get(i)? != &b':' {
                        return None;
                    }
                    i = ws(json, i + 1);
                    if key == tok {
                        break;
                    }
                    i = ws(json, value_end(json, i)?);
                    match json.get(i)? {
                        b',' => i = ws(json, i + 1),
                        _ => return None,
                    }
                }
            }
            b'[' => {
                let n: usize = tok.parse().ok()?;
                i = ws(json, i + 1);
                for _ in 0..n {
                    i = ws(json, value_end(json, i)?);
                    match json.get(i)? {
                        b',' => i = ws(json, i + 1),
                        _ => return None,
                    }
                }
                if json.get(i)? == &b']' {
                    return None;
                }
            }
            _ => return None,
        }
    }
    Some(i)
}

/// The byte range `[start, end)` of the value at `pointer` in the JSON
/// text `json` ([`locate`] and the value's end).
pub fn span(json: &[u8], pointer: &str) -> Option<[usize; 2]> {
    let start = locate(json, pointer)?;
    Some([start, value_end(json, start)?])
}

pub(crate) fn ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
        i += 1;
    }
    i
}

/// The end (one past the closing quote) of the string starting at `i`.
fn string_end(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    loop {
        let k = j + memchr::memchr2(b'"', b'\\', b.get(j..)?)?;
        if b[k] == b'\\' {
            j = k + 2;
        } else {
            return Some(k + 1);
        }
    }
}

/// The end of the value starting at `i`.
pub(crate) fn value_end(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        b'"' => string_end(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            while let Some(&c) = b.get(j) {
                match c {
                    b'"' => {
                        j = string_end(b, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            None
        }
        _ => {
            let mut j = i;
            while b
                .get(j)
                .is_some_and(|c| !matches!(c, b',' | b'}' | b']') && !c.is_ascii_whitespace())
            {
                j += 1;
            }
            Some(j)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cfg() -> Config {
        Config::default()
    }

    #[test]
    fn openai_request_with_an_unanswered_call() {
        let v = json!({"tools":[{"type":"function","function":{"name":"get_weather","parameters":{}}}],
            "messages":[
            {"role":"user","content":"hi"},
            {"role":"assistant","content":null,"tool_calls":[
                {"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}},
                {"id":"c2","type":"function","function":{"name":"nope","arguments":"{bad"}}]},
            {"role":"tool","tool_call_id":"c1","content":"sunny"},
            {"role":"tool","tool_call_id":"c9","content":"?"},
            {"role":"assistant","content":"done"}]});
        let t = read(&v, &cfg()).expect("a conversation");
        let codes: Vec<(&str, String)> =
            lint(&t).into_iter().map(|f| (f.code, f.pointer)).collect();
        assert_eq!(
            codes,
            vec![
                (NOT_OFFERED, "/messages/1/tool_calls/1".to_string()),
                (
                    BAD_ARGUMENTS,
                    "/messages/1/tool_calls/1/function/arguments".to_string()
                ),
                (UNANSWERED, "/messages/1/tool_calls/1".to_string()),
                (ORPHAN_RESULT, "/messages/3".to_string()),
            ]
        );
    }

    #[test]
    fn locate_finds_nested_values() {
        let text = br#"{"a": [1, {"b": "x\"y"}, {"c/d": [true, {"e": 5}]}]}"#;
        let at = locate(text, "/a/2/c~1d/1/e").expect("found");
        assert_eq!(&text[at..at + 1], b"5");
        let at = locate(text, "/a/1/b").expect("found");
        assert_eq!(text[at], b'"');
        assert_eq!(locate(text, "/a/3"), None);
        assert_eq!(locate(text, "/z"), None);
    }

    #[test]
    fn anthropic_and_sharegpt_shapes() {
        let v = json!({"messages":[
            {"role":"user","content":[{"type":"text","text":"hi"}]},
            {"role":"assistant","content":[{"type":"thinking","thinking":"hmm"},
                {"type":"tool_use","id":"t1","name":"f","input":{"a":1}}]},
            {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}]});
        let t = read(&v, &cfg()).expect("anthropic");
        assert!(lint(&t).is_empty());
        assert_eq!(t.entries.len(), 3);
        let v = json!({"conversations":[
            {"from":"human","value":"hi"},
            {"from":"gpt","value":"<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>"},
            {"from":"gpt","value":"again"}]});
        let t = read(&v, &cfg()).expect("sharegpt");
        let f = lint(&t);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].code, UNANSWERED);
        assert_eq!(f[0].pointer, "/conversations/1/value");
    }
}
