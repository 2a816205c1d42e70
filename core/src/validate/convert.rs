//! Normalising (issue 43): every conversation shape [`super::shapes`]
//! reads, written as one OpenAI chat row, `{"messages": […], "tools":
//! […]}`, in the shape OpenAI's fine-tuning format takes.
//!
//! The conversion reads a conversation once, as `validate` does
//! ([`shapes::read_local`]: the same calls, arguments, results and tools),
//! and walks its message list beside what was read:
//!
//! * a call becomes an assistant's `tool_calls` entry: `id`, `type:
//!   "function"`, `function.name`, `function.arguments` as a JSON string
//!   (compact; arguments encoded twice are decoded once, JSON that had to
//!   be repaired is written repaired; an arguments string that holds no
//!   object is kept as written);
//! * a call written as text in a turn (`<tool_call>` in a ShareGPT `gpt`
//!   turn, glaive's `<functioncall>`, a pythonic list) is cut out of the
//!   text, which stays the message's `content` (trimmed);
//! * a call without an id gets `call_<conversation>_<n>` (`n` counts the
//!   conversation's calls from 0; a given id is kept); a result without
//!   one answers the oldest open call (of its tool, when it names one);
//! * pieces of one assistant message are merged: a message of calls only
//!   joins the assistant message before it (a ShareGPT `function_call` turn
//!   after the `gpt` turn, Responses items of one turn, session-log lines
//!   of one message);
//! * results become `tool` messages with `tool_call_id`, Anthropic
//!   `tool_result` blocks first, then what else the user said;
//! * the tools, wherever they were declared (the row's `tools` or
//!   `functions`, a list beside the conversation, a system prompt), become
//!   `{"type": "function", "function": {name, description, parameters}}`.
//!
//! Reasoning (`reasoning_content`, thinking blocks, Responses reasoning
//! items) has no place in the format and is left out; reasoning written in
//! a turn's text (`<think>`) stays in its content. The output read again
//! gives itself byte for byte.

use super::items::{conversation_line, conversations_in, Layout};
use super::messages::{self, CallEntry, Entry, Kind, Shape, Transcript};
use super::shapes::{self, Found};
use crate::config::Config;
use serde_json::{json, Map, Value};
use std::collections::HashSet;

/// The formats a conversation converts to.
pub const FORMATS: [&str; 1] = ["openai"];

/// One conversation as an OpenAI chat row (`messages`, and `tools` when it
/// offers any). `conv` numbers the conversation in its document (the ids
/// it adds are `call_<conv>_<n>`). `None` when `found` is no conversation
/// (what [`shapes::read`] refuses).
pub fn openai(found: &Found, conv: usize, cfg: &Config) -> Option<Value> {
    let t = shapes::read_local(found, cfg)?;
    let v = &found.value;
    let mut b = Builder::new(conv, &t, v);
    let system = system_prompt(v, found.shape);
    match t.shape {
        Shape::Chat => {
            let (list, base): (Vec<&Value>, String) = if let Value::Array(a) = v {
                (a.iter().collect(), String::new())
            } else if let Some(a) = v.get("messages").and_then(Value::as_array) {
                (a.iter().collect(), "/messages".into())
            } else if let Some(a) = v.get("choices").and_then(Value::as_array) {
                // a response body: each choice's message
                let ms = a.iter().filter_map(|c| c.get("message")).collect();
                (ms, "/choices".into())
            } else {
                (v.get("message").into_iter().collect(), String::new())
            };
            let first_system = list.first().is_some_and(|m| {
                matches!(
                    m.get("role").and_then(Value::as_str),
                    Some("system" | "developer")
                )
            });
            if let (Some(s), false) = (system, first_system) {
                b.out.push(json!({"role": "system", "content": s}));
            }
            for (k, m) in list.iter().enumerate() {
                let p = match base.as_str() {
                    "/choices" => format!("/choices/{k}/message"),
                    "" if v.get("message").is_some() && !v.is_array() => "/message".into(),
                    _ => format!("{base}/{k}"),
                };
                b.chat_message(m, &p);
            }
        }
        Shape::ShareGpt => {
            let (list, base) = match v {
                Value::Array(a) => (a.as_slice(), String::new()),
                _ => (
                    v.get("conversations")
                        .and_then(Value::as_array)
                        .map_or(&[][..], Vec::as_slice),
                    "/conversations".to_string(),
                ),
            };
            let first_system = list.first().is_some_and(|m| {
                m.get("from")
                    .and_then(Value::as_str)
                    .is_some_and(|f| messages::sharegpt_role(f) == "system")
            });
            if let (Some(s), false) = (system, first_system) {
                b.out.push(json!({"role": "system", "content": s}));
            }
            for (k, m) in list.iter().enumerate() {
                b.sharegpt_turn(m, &format!("{base}/{k}"));
            }
        }
        Shape::Responses => {
            let (list, base) = match v {
                Value::Array(a) => (a.as_slice(), String::new()),
                _ => match v.get("input").and_then(Value::as_array) {
                    Some(a) => (a.as_slice(), "/input".to_string()),
                    None => (
                        v.get("output")
                            .and_then(Value::as_array)
                            .map_or(&[][..], Vec::as_slice),
                        "/output".to_string(),
                    ),
                },
            };
            if let Some(s) = system {
                b.out.push(json!({"role": "system", "content": s}));
            }
            for (k, item) in list.iter().enumerate() {
                b.responses_item(item, &format!("{base}/{k}"));
            }
        }
    }
    let mut messages = merge(b.out);
    let mut tools: Vec<Value> = t
        .tools
        .as_ref()
        .and_then(Value::as_array)
        .map(|l| l.iter().filter_map(tool).collect())
        .unwrap_or_default();
    join_spaced_names(&mut tools, &mut messages);
    let mut row = Map::new();
    row.insert("messages".into(), Value::Array(messages));
    if !tools.is_empty() {
        row.insert("tools".into(), Value::Array(tools));
    }
    Some(Value::Object(row))
}

/// Tool names with spaces (ToolACE's `Get Manager Placeholder Image`),
/// which OpenAI's function names cannot have, written with `_` for each
/// space in the tools and in the calls, when no other tool has that name.
fn join_spaced_names(tools: &mut [Value], messages: &mut [Value]) {
    let names: HashSet<String> = tools
        .iter()
        .filter_map(|t| t.pointer("/function/name").and_then(Value::as_str))
        .map(str::to_string)
        .collect();
    let mut renamed = std::collections::HashMap::new();
    for t in tools.iter_mut() {
        let Some(Value::String(name)) = t.pointer_mut("/function/name") else {
            continue;
        };
        let joined = name.trim().replace(' ', "_");
        if name.contains(' ') && !names.contains(&joined) {
            renamed.insert(std::mem::replace(name, joined.clone()), joined);
        }
    }
    if renamed.is_empty() {
        return;
    }
    for m in messages.iter_mut() {
        let Some(Value::Array(calls)) = m.get_mut("tool_calls") else {
            continue;
        };
        for c in calls {
            if let Some(Value::String(name)) = c.pointer_mut("/function/name") {
                if let Some(j) = renamed.get(name.as_str()) {
                    name.clone_from(j);
                }
            }
        }
    }
}

/// A conversation's system prompt kept beside its message list (`system`,
/// as LLaMA-Factory, glaive and Anthropic requests write it; the
/// Responses API's `instructions`).
fn system_prompt(v: &Value, shape: &str) -> Option<String> {
    let s = match v.get("system").or_else(|| v.get("instructions"))? {
        Value::String(s) => s.clone(),
        // Anthropic's list of text blocks
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n\n"),
        _ => return None,
    };
    let s = if shape == "glaive" {
        // glaive writes the turn's marker in the field
        s.trim()
            .strip_prefix("SYSTEM:")
            .unwrap_or(&s)
            .trim()
            .to_string()
    } else {
        s
    };
    (!s.is_empty()).then_some(s)
}

/// Builds one row's messages.
struct Builder<'a> {
    conv: usize,
    /// The conversation the entries' pointers point into.
    root: &'a Value,
    entries: &'a [Entry],
    /// The next entry not yet taken (entries come in message order).
    cursor: usize,
    /// The ids the conversation gives its calls (a made-up one avoids them).
    given: HashSet<&'a str>,
    /// Calls written so far.
    calls: usize,
    /// Calls not yet answered: id and name, oldest first.
    open: Vec<(String, String)>,
    out: Vec<Value>,
}

impl<'a> Builder<'a> {
    fn new(conv: usize, t: &'a Transcript, root: &'a Value) -> Builder<'a> {
        let given = t
            .entries
            .iter()
            .filter_map(|e| match &e.kind {
                Kind::Call(c) if c.given_id => Some(c.call.id.as_str()),
                _ => None,
            })
            .collect();
        Builder {
            conv,
            root,
            entries: &t.entries,
            cursor: 0,
            given,
            calls: 0,
            open: Vec::new(),
            out: Vec::new(),
        }
    }

    /// The entries read from the message at `p` (its pointer or under it).
    fn take(&mut self, p: &str) -> &'a [Entry] {
        let start = self.cursor;
        let under = |e: &Entry| {
            e.pointer == p
                || (e.pointer.starts_with(p) && e.pointer.as_bytes().get(p.len()) == Some(&b'/'))
        };
        while self.entries.get(self.cursor).is_some_and(under) {
            self.cursor += 1;
        }
        &self.entries[start..self.cursor]
    }

    /// A call as an OpenAI `tool_calls` entry (an id made up when it has
    /// none); it is open until a result answers it.
    fn call(&mut self, c: &CallEntry) -> Value {
        let root = self.root;
        let id = if c.given_id {
            c.call.id.clone()
        } else {
            let mut id = format!("call_{}_{}", self.conv, self.calls);
            while self.given.contains(id.as_str()) {
                id.push('_');
            }
            id
        };
        self.calls += 1;
        let decoded = c.bad_arguments.is_none() || c.double_encoded;
        let original = c.arguments_pointer.as_deref().and_then(|p| root.pointer(p));
        let arguments = match original {
            // kept as written: a string that holds no object, or no JSON
            Some(Value::String(s)) if !decoded => s.clone(),
            Some(other) if !decoded => other.to_string(),
            _ => c.call.arguments.as_value().to_string(),
        };
        self.open.push((id.clone(), c.call.name.clone()));
        json!({"id": id, "type": "function",
            "function": {"name": c.call.name, "arguments": arguments}})
    }

    /// A `tool` message answering the call with `id`, else the oldest open
    /// call (of the tool `name`, when given).
    fn result(&mut self, id: Option<&str>, name: Option<&str>, content: String) {
        let at = match (id, name) {
            (Some(id), _) => self.open.iter().position(|(i, _)| i == id),
            (None, Some(n)) => self
                .open
                .iter()
                .position(|(_, m)| m == n)
                .or((!self.open.is_empty()).then_some(0)),
            (None, None) => (!self.open.is_empty()).then_some(0),
        };
        let id = match at {
            Some(k) => Some(self.open.remove(k).0),
            None => id.map(str::to_string),
        };
        let mut m = Map::new();
        m.insert("role".into(), "tool".into());
        if let Some(id) = id {
            m.insert("tool_call_id".into(), id.into());
        }
        m.insert("content".into(), content.into());
        self.out.push(Value::Object(m));
    }

    /// The calls among `entries` read from the text at `p`, and the text
    /// with them cut out.
    fn text(&mut self, text: &str, p: &str, entries: &[Entry]) -> (String, Vec<Value>) {
        let mut spans = Vec::new();
        let mut calls = Vec::new();
        for e in entries.iter().filter(|e| e.pointer == p) {
            if let Kind::Call(c) = &e.kind {
                if c.call.in_reasoning {
                    continue;
                }
                spans.push(c.call.span);
                calls.push(self.call(c));
            }
        }
        if spans.is_empty() {
            return (text.to_string(), calls);
        }
        let bytes = text.as_bytes();
        let mut kept = Vec::with_capacity(bytes.len());
        let mut at = 0usize;
        for [a, b] in spans {
            let (a, b) = (a as usize, b as usize);
            if a >= at && b <= bytes.len() && a <= b {
                kept.extend_from_slice(&bytes[at..a]);
                at = b;
            }
        }
        kept.extend_from_slice(&bytes[at.min(bytes.len())..]);
        (String::from_utf8_lossy(&kept).trim().to_string(), calls)
    }

    /// One chat message (OpenAI, Ollama, Anthropic, LLaMA-Factory blocks,
    /// legacy `function_call`).
    fn chat_message(&mut self, m: &Value, p: &str) {
        let entries = self.take(p);
        let root_role = m.get("role").and_then(Value::as_str).unwrap_or("user");
        let role = match root_role {
            "developer" => "system",
            "function" | "ipython" | "tool" => "tool",
            "model" => "assistant",
            other => other,
        };
        if role == "tool" {
            let (id, name) = entries
                .iter()
                .find_map(|e| match &e.kind {
                    Kind::Result { id, name } if e.pointer == p => Some((id.clone(), name.clone())),
                    _ => None,
                })
                .unwrap_or((None, None));
            let content = result_text(m.get("content").unwrap_or(&Value::Null));
            self.result(id.as_deref(), name.as_deref(), content);
            return;
        }
        let mut texts: Vec<String> = Vec::new();
        let mut calls: Vec<Value> = Vec::new();
        let mut media = false;
        match m.get("content") {
            Some(Value::String(s)) => {
                let (t, c) = self.text(s, &format!("{p}/content"), entries);
                texts.push(t);
                calls.extend(c);
            }
            Some(Value::Array(blocks)) => {
                for (j, b) in blocks.iter().enumerate() {
                    let bp = format!("{p}/content/{j}");
                    match b.get("type").and_then(Value::as_str) {
                        Some("tool_use") => {
                            calls.extend(self.calls_at(&bp, entries));
                        }
                        Some("tool_call") => {
                            calls.extend(self.calls_at(&format!("{bp}/value"), entries));
                        }
                        Some("tool_result") => {
                            let id = b.get("tool_use_id").and_then(Value::as_str);
                            let content = result_text(b.get("content").unwrap_or(&Value::Null));
                            self.result(id, None, content);
                        }
                        Some("text" | "input_text" | "output_text") | None => {
                            let (key, t) = match (b.get("text"), b.get("value")) {
                                (Some(Value::String(t)), _) => ("text", t),
                                (_, Some(Value::String(t))) => ("value", t),
                                _ => continue,
                            };
                            let (t, c) = self.text(t, &format!("{bp}/{key}"), entries);
                            texts.push(t);
                            calls.extend(c);
                        }
                        Some("image_url" | "input_audio" | "file") => media = true,
                        // reasoning and what else has no place in the format
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        if m.get("tool_calls").is_some_and(Value::is_array) {
            calls.extend(self.calls_at(&format!("{p}/tool_calls"), entries));
        }
        if m.get("function_call").is_some_and(Value::is_object) {
            calls.extend(self.calls_at(&format!("{p}/function_call"), entries));
        }
        let mut out = Map::new();
        out.insert("role".into(), role.into());
        if let Some(Value::String(name)) = m.get("name") {
            out.insert("name".into(), name.clone().into());
        }
        let text = join(texts);
        let results = entries
            .iter()
            .any(|e| matches!(e.kind, Kind::Result { .. }));
        if media && calls.is_empty() {
            // OpenAI content parts with an image or audio are kept
            out.insert("content".into(), m["content"].clone());
        } else if text.is_empty() && results && calls.is_empty() {
            // tool results only (written above): nothing else was said
            return;
        } else if !text.is_empty() || calls.is_empty() {
            out.insert("content".into(), text.into());
        }
        if !calls.is_empty() {
            out.insert("tool_calls".into(), Value::Array(calls));
        }
        if let Some(w) = m.get("weight").filter(|w| w.is_number()) {
            out.insert("weight".into(), w.clone());
        }
        self.out.push(Value::Object(out));
    }

    /// The calls read at `p` or under it.
    fn calls_at(&mut self, p: &str, entries: &[Entry]) -> Vec<Value> {
        let mut out = Vec::new();
        for e in entries {
            let under = e.pointer == p
                || (e.pointer.starts_with(p) && e.pointer.as_bytes().get(p.len()) == Some(&b'/'));
            if let (true, Kind::Call(c)) = (under, &e.kind) {
                out.push(self.call(c));
            }
        }
        out
    }

    /// One ShareGPT turn.
    fn sharegpt_turn(&mut self, m: &Value, p: &str) {
        let entries = self.take(p);
        let from = m.get("from").and_then(Value::as_str).unwrap_or("");
        let role = messages::sharegpt_role(from);
        let text = m.get("value").and_then(Value::as_str).unwrap_or("");
        let vp = format!("{p}/value");
        if role == "tool" {
            let blocks = tool_responses(text);
            if blocks.is_empty() {
                self.result(None, None, text.to_string());
            }
            for b in blocks {
                self.result(None, None, b);
            }
            return;
        }
        let role = if role == "system" || role == "user" || role == "assistant" {
            role
        } else {
            from
        };
        let mut out = Map::new();
        out.insert("role".into(), role.into());
        if messages::sharegpt_call_turn(from) {
            let calls = self.calls_at(&vp, entries);
            if calls.is_empty() {
                // JSON that could not be read stays what the turn said
                out.insert("content".into(), text.into());
            } else {
                out.insert("tool_calls".into(), Value::Array(calls));
            }
        } else {
            let (t, calls) = self.text(text, &vp, entries);
            if !t.is_empty() || calls.is_empty() {
                out.insert("content".into(), t.into());
            }
            if !calls.is_empty() {
                out.insert("tool_calls".into(), Value::Array(calls));
            }
        }
        self.out.push(Value::Object(out));
    }

    /// One Responses item.
    fn responses_item(&mut self, item: &Value, p: &str) {
        let entries = self.take(p);
        match item.get("type").and_then(Value::as_str) {
            Some("function_call") => {
                let calls = self.calls_at(p, entries);
                if !calls.is_empty() {
                    self.out
                        .push(json!({"role": "assistant", "tool_calls": calls}));
                }
            }
            Some("function_call_output") => {
                let id = item.get("call_id").and_then(Value::as_str);
                let content = result_text(item.get("output").unwrap_or(&Value::Null));
                self.result(id, None, content);
            }
            Some("message") | None if item.get("role").is_some() => {
                let mut m = item.clone();
                if let Some(o) = m.as_object_mut() {
                    o.remove("type");
                    o.remove("id");
                    o.remove("status");
                }
                // the item's entries are the message's: same pointers
                self.cursor -= entries.len();
                self.chat_message(&m, p);
            }
            // reasoning and tool kinds validate does not read
            _ => {}
        }
    }
}

/// The texts of a message, joined (empty pieces left out; one piece as it
/// is).
fn join(texts: Vec<String>) -> String {
    if texts.len() == 1 {
        return texts.into_iter().next().unwrap_or_default();
    }
    texts
        .into_iter()
        .filter(|t| !t.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The text of a result: a string as it is, text blocks joined, other
/// JSON as compact JSON text.
fn result_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        Value::Array(parts)
            if !parts.is_empty()
                && parts.iter().all(|b| {
                    b.get("text").is_some_and(Value::is_string)
                        || (b.get("type").and_then(Value::as_str) == Some("text")
                            && b.get("value").is_some_and(Value::is_string))
                }) =>
        {
            parts
                .iter()
                .filter_map(|b| {
                    b.get("text")
                        .or_else(|| b.get("value"))
                        .and_then(Value::as_str)
                })
                .collect::<Vec<_>>()
                .join("\n\n")
        }
        other => other.to_string(),
    }
}

/// The contents of the `<tool_response>` blocks of a tool turn (none when
/// it has no such block).
fn tool_responses(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("<tool_response>") {
        let after = &rest[i + "<tool_response>".len()..];
        let end = after.find("</tool_response>").unwrap_or(after.len());
        out.push(after[..end].trim().to_string());
        rest = after.get(end + "</tool_response>".len()..).unwrap_or("");
    }
    out
}

/// Merges pieces of one assistant message: an assistant message of calls
/// only joins the assistant message before it.
fn merge(list: Vec<Value>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::with_capacity(list.len());
    for m in list {
        let calls_only = m.get("role").and_then(Value::as_str) == Some("assistant")
            && m.get("content").is_none()
            && m.get("tool_calls").is_some_and(Value::is_array);
        let prev = out
            .last_mut()
            .filter(|p| p.get("role").and_then(Value::as_str) == Some("assistant"));
        match (calls_only, prev) {
            (true, Some(Value::Object(prev))) => {
                if prev.get("content").and_then(Value::as_str) == Some("") {
                    prev.remove("content");
                }
                let calls = m["tool_calls"].as_array().cloned().unwrap_or_default();
                match prev.get_mut("tool_calls") {
                    Some(Value::Array(list)) => list.extend(calls),
                    _ => {
                        // after the content, before `weight`
                        let weight = prev.remove("weight");
                        prev.insert("tool_calls".into(), Value::Array(calls));
                        if let Some(w) = weight {
                            prev.insert("weight".into(), w);
                        }
                    }
                }
            }
            _ => out.push(m),
        }
    }
    out
}

/// A tool definition as OpenAI writes it: `{"type": "function",
/// "function": {name, description, parameters}}` (Anthropic's
/// `input_schema` and the `"dict"` type of BFCL-style schemas read as
/// `parameters` and `"object"`). `None` for what is no function tool.
fn tool(t: &Value) -> Option<Value> {
    let f = match t.get("function") {
        Some(f @ Value::Object(_)) => f,
        _ => t,
    };
    let name = f.get("name").and_then(Value::as_str)?;
    let mut o = Map::new();
    o.insert("name".into(), name.into());
    if let Some(Value::String(d)) = f.get("description") {
        o.insert("description".into(), d.clone().into());
    }
    let mut params = f
        .get("parameters")
        .or_else(|| f.get("input_schema"))
        .filter(|p| p.is_object())
        .cloned()
        .unwrap_or_else(|| json!({"type": "object", "properties": {}}));
    if params.get("type").and_then(Value::as_str) == Some("dict") {
        params["type"] = "object".into();
    }
    o.insert("parameters".into(), params);
    if let Some(s @ Value::Bool(_)) = f.get("strict") {
        o.insert("strict".into(), s.clone());
    }
    Some(json!({"type": "function", "function": o}))
}

/// The conversations of a document converted, numbered from `start`
/// (every conversation [`shapes::find`] finds, in order).
pub fn document(
    doc: &Value,
    at: Option<&str>,
    bodies: bool,
    start: usize,
    cfg: &Config,
) -> Vec<Value> {
    shapes::find(doc, at, bodies)
        .iter()
        .enumerate()
        .filter_map(|(k, f)| openai(f, start + k, cfg))
        .collect()
}

/// A text converted as `toolcall validate --convert openai` converts a
/// file: each row as the line it writes (without its line end), and the
/// problems that kept a document, a line or an element from being read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Converted {
    /// The rows, one per conversation, in input order.
    pub rows: Vec<String>,
    /// What could not be read: `(code, line, message)` (`line` 1-based).
    pub problems: Vec<(&'static str, usize, String)>,
}

/// Converts a whole text (a JSON document, a JSONL of conversations, a
/// per-event session log) the way `validate --convert openai` does, in
/// the layout `validate` reads it in ([`conversations_in`]); a JSONL line
/// longer than `max_line` bytes is not read (`TLP-007`), as `validate`'s
/// `--max-buffer` has it.
pub fn text(
    bytes: &[u8],
    at: Option<&str>,
    bodies: bool,
    max_line: usize,
    cfg: &Config,
) -> Converted {
    let mut out = Converted::default();
    let push = |rows: Vec<Value>, out: &mut Converted| {
        out.rows.extend(rows.iter().map(Value::to_string));
    };
    match conversations_in(bytes, bodies) {
        Some(Layout::Whole(v)) => {
            let rows = document(&v, at, bodies, 0, cfg);
            if rows.is_empty() {
                out.problems.push((
                    "TLP-008",
                    1,
                    "the document is JSON but no conversation".into(),
                ));
            }
            push(rows, &mut out);
        }
        Some(Layout::Lines) => {
            for (k, line) in bytes.split(|&b| b == b'\n').enumerate() {
                let line = line.strip_suffix(b"\r").unwrap_or(line);
                if line.trim_ascii().is_empty() {
                    continue;
                }
                match conversation_line(line, k + 1, "", max_line) {
                    (_, Ok(v)) => {
                        let rows = document(&v, at, bodies, out.rows.len(), cfg);
                        if rows.is_empty() {
                            out.problems.push((
                                "TLP-008",
                                k + 1,
                                format!("line {} is JSON but no conversation", k + 1),
                            ));
                        }
                        push(rows, &mut out);
                    }
                    (_, Err(item)) => {
                        let (code, message) = item
                            .broken
                            .map_or(("TLP-008", String::new()), |i| (i.code, i.message));
                        out.problems.push((code, k + 1, message));
                    }
                }
            }
        }
        Some(Layout::Session) => {
            // a session at a time, as `validate` reads a log (the text is
            // held already: no session is too large to read)
            let _ = super::session::for_each_block::<()>(bytes, usize::MAX, |b| {
                for bad in &b.bad {
                    out.problems.push((
                        "TLP-008",
                        bad.line + 1,
                        format!(
                            "line {} of the session log is not JSON ({}); skipped",
                            bad.line + 1,
                            bad.error
                        ),
                    ));
                }
                let rows = sessions(&b, out.rows.len(), cfg);
                push(rows, &mut out);
                Ok(())
            });
        }
        None => out.problems.push((
            "TLP-008",
            1,
            "not a conversation (no message list, dataset row, recording, session log or \
             agent events): nothing converted"
                .into(),
        )),
    }
    out
}

/// The conversations of one session of a per-event session log
/// converted, numbered from `start` ([`super::session::Block`]).
pub fn sessions(block: &super::session::Block, start: usize, cfg: &Config) -> Vec<Value> {
    block
        .conversations
        .iter()
        .enumerate()
        .filter_map(|(k, f)| openai(f, start + k, cfg))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(v: Value) -> Vec<Value> {
        document(&v, None, false, 0, &Config::default())
    }

    #[test]
    fn double_encoded_arguments_are_decoded_once() {
        let v = json!({"messages": [{"role": "user", "content": "hi"},
            {"role": "assistant", "tool_calls": [{"id": "a", "type": "function",
             "function": {"name": "f", "arguments": "\"{\\\"x\\\": 1}\""}}]},
            {"role": "tool", "tool_call_id": "a", "content": "ok"}]});
        let r = rows(v);
        assert_eq!(
            r[0]["messages"][1]["tool_calls"][0]["function"]["arguments"],
            "{\"x\":1}"
        );
    }

    #[test]
    fn sharegpt_text_calls_become_tool_calls_with_ids() {
        let v = json!({"conversations": [{"from": "human", "value": "hi"},
            {"from": "gpt", "value": "Checking.\n<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>"},
            {"from": "observation", "value": "<tool_response>\nsunny\n</tool_response>"}]});
        let r = rows(v);
        let m = &r[0]["messages"];
        assert_eq!(m[1]["content"], "Checking.");
        assert_eq!(m[1]["tool_calls"][0]["id"], "call_0_0");
        assert_eq!(m[2]["tool_call_id"], "call_0_0");
        assert_eq!(m[2]["content"], "sunny");
    }

    #[test]
    fn converted_rows_convert_to_themselves() {
        let v = json!({"conversations": [{"from": "human", "value": "hi"},
            {"from": "gpt", "value": "ok"},
            {"from": "function_call", "value": "{\"name\": \"f\", \"arguments\": {\"a\": 1}}"},
            {"from": "observation", "value": "1"}], "tools": "[{\"name\": \"f\", \"parameters\": {}}]"});
        let once = rows(v);
        let twice = rows(once[0].clone());
        assert_eq!(once[0].to_string(), twice[0].to_string());
        assert_eq!(once[0]["messages"][1]["content"], "ok");
        assert_eq!(
            once[0]["messages"][1]["tool_calls"][0]["function"]["name"],
            "f"
        );
    }
}
