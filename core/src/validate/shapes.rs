//! Where the conversations of a document are, in every common shape of
//! dataset and agent log (issue 43), as one table ([`SHAPES`]).
//!
//! [`messages::read`] reads one conversation written
//! the way a chat server takes it. Datasets and logs keep conversations
//! other ways: a top-level array of them, under another key
//! (`answer_generation.train_messages`, `history`), inside an HTTP
//! recording (`request.body` / `response.body`), as agent events
//! (OpenHands `action` / `observation`), as single-turn rows whose calls
//! are a field (xLAM `query`/`tools`/`answers`, glaive `system` + `chat`),
//! or one event per line (Claude Code and Codex CLI sessions, see
//! [`super::session`]). Each shape here turns what it recognises into a
//! conversation `messages::read` knows, with a map from that
//! conversation's pointers back to the document's; [`conversations`] reads
//! them all and hands back transcripts whose pointers are the document's.
//!
//! Tools are the conversation's own `tools` (or OpenAI's legacy
//! `functions`), a list kept beside the message list (`function`,
//! `functions`, `tools`), or the tools a system prompt declares (Hermes
//! `<tools>…</tools>`, glaive's "Use them if required -", a JSON list after
//! "functions … you can invoke"). [`Transcript::tools`] stays `None` only
//! when none of these holds a tool list: the caller says so
//! ([`NO_TOOLS`]), so "valid" is never mistaken for "checked".
//!
//! The command line and the Python package call [`conversations`] and
//! [`super::session::Sessions`]; there is no second reader. A document
//! that is one conversation's message list is read a message at a time
//! as it is parsed ([`stream`]), by the reader a document parsed whole
//! is read with ([`messages::Incremental`]).

mod agents;
mod frameworks;
mod logs;
mod spans;
mod stream;

pub use stream::{largest_element, list_opens, stream};

use super::messages::{self, Entry, Kind, Transcript};
use crate::config::Config;
use serde_json::{json, Map, Value};

/// A conversation offers no tools: its calls are checked for shape only.
pub const NO_TOOLS: &str = "TLP-015";
/// A call in data whose JSON had to be repaired to be read.
pub const REPAIRED: &str = "TLP-016";

/// One conversation found in a document, before it is read.
#[derive(Clone, Debug)]
pub struct Found {
    /// The shape's name in [`SHAPES`] (`chat`, `recording`, `xlam`, …).
    pub shape: &'static str,
    /// JSON Pointer, in the document, of what the conversation was read
    /// from (`""`: the whole document).
    pub pointer: String,
    /// The conversation, in a shape [`messages::read`] reads.
    pub value: Value,
    /// Pointer prefixes of `value` and the document pointers they come
    /// from, longest first; `true` when what follows the prefix is the
    /// same path in the document (a value moved, not rewritten).
    remap: Vec<(String, String, bool)>,
    /// A tool list found beside the conversation (not in it).
    tools: Option<Value>,
}

impl Found {
    fn moved(shape: &'static str, pointer: &str, value: Value) -> Found {
        Found {
            shape,
            pointer: pointer.to_string(),
            value,
            remap: vec![(String::new(), pointer.to_string(), true)],
            tools: None,
        }
    }

    /// The document pointer of a pointer of [`Found::value`].
    pub fn original(&self, p: &str) -> String {
        for (from, to, keep) in &self.remap {
            if let Some(rest) = p.strip_prefix(from.as_str()) {
                if from.is_empty() || rest.is_empty() || rest.starts_with('/') {
                    return if *keep {
                        format!("{to}{rest}")
                    } else {
                        to.clone()
                    };
                }
            }
        }
        self.pointer.clone()
    }

    fn map(&mut self, from: String, to: String, keep: bool) {
        self.remap.push((from, to, keep));
    }

    fn sort(&mut self) {
        self.remap.sort_by_key(|r| std::cmp::Reverse(r.0.len()));
    }

    /// Done: `messages` as the conversation, with `tools` in it when a
    /// list was found.
    fn conversation(mut self, messages: Vec<Value>, tools: Option<Value>) -> Option<Found> {
        let mut conv = json!({ "messages": messages });
        if let Some(t) = tools {
            conv["tools"] = t;
        }
        self.value = conv;
        self.sort();
        Some(self)
    }
}

/// A shape: its name and what recognises it in a value at a pointer.
pub type Detector = fn(&Value, &str) -> Option<Found>;

/// The shapes a value can be, in the order they are tried. A value that
/// none recognises is searched: a top-level array of conversations, then
/// the values under its keys (breadth first, a few levels deep).
pub const SHAPES: &[(&str, Detector)] = &[
    ("recording", recording),
    ("when2call", logs::when2call),
    ("batch", logs::batch),
    ("langsmith", logs::langsmith),
    ("mlflow", frameworks::mlflow),
    ("letta", frameworks::letta),
    ("langfuse", frameworks::langfuse),
    ("spans", spans::spans),
    ("autogen", agents::autogen),
    ("openwebui", agents::openwebui),
    ("lmstudio", agents::lmstudio),
    ("smolagents", logs::smolagents),
    ("smolagents-messages", logs::smolagents_messages),
    ("opencode", logs::opencode),
    ("pydantic-ai", frameworks::pydantic_ai),
    ("goose", goose),
    ("ai-sdk-ui", ai_sdk_ui),
    ("gemini", gemini),
    ("langchain", langchain),
    ("io", io),
    ("bedrock", bedrock),
    ("ai-sdk", ai_sdk),
    ("bfcl", bfcl),
    ("gemini-cli", gemini_cli),
    ("chat", chat),
    ("xlam", xlam),
    ("glaive", glaive),
    ("events", events),
];

/// How deep under a document's keys a conversation is looked for.
const DEPTH: usize = 4;

/// The conversations of a JSON document, as [`SHAPES`] find them (or, with
/// `at`, the one at that JSON Pointer: an array of objects there is taken
/// for a message list). With `bodies` (`--input messages`), a document
/// that is a response body (`choices[].message`, Ollama's `message`,
/// Responses `output`) is one too; otherwise such values are wire output.
/// Empty when it holds none.
pub fn find(doc: &Value, at: Option<&str>, bodies: bool) -> Vec<Found> {
    if let Some(p) = at {
        let Some(v) = doc.pointer(p) else {
            return Vec::new();
        };
        if let Some(f) = detect(v, p) {
            return vec![f];
        }
        return match v {
            Value::Array(items) if !items.is_empty() && items.iter().all(Value::is_object) => {
                let key = if items.iter().any(|m| m.get("from").is_some()) {
                    "conversations"
                } else if items.iter().all(|m| m.get("role").is_none()) {
                    // Responses items (a response body's `output`)
                    "input"
                } else {
                    "messages"
                };
                let mut f = Found::moved("chat", p, json!({ key: v }));
                f.remap = vec![(format!("/{key}"), p.to_string(), true)];
                vec![f]
            }
            _ => Vec::new(),
        };
    }
    let mut out = Vec::new();
    search(doc, "", 0, &mut out, true);
    if out.is_empty() && bodies && messages::shape(doc).is_some() {
        out.push(Found::moved("chat", "", doc.clone()));
    }
    out
}

/// [`find`], taking the document: one that is itself a conversation in
/// a shape [`messages::read`] knows (the common case: a `messages` list)
/// is moved into the [`Found`], not copied, so a large conversation is
/// held once.
pub fn find_owned(doc: Value, at: Option<&str>, bodies: bool) -> Vec<Found> {
    if at.is_none() {
        for (name, d) in SHAPES {
            if *name == "chat" {
                if let Some(mut f) = chat_here(&doc, "") {
                    f.value = doc;
                    return vec![f];
                }
                break;
            }
            if let Some(f) = d(&doc, "") {
                return vec![f];
            }
        }
    }
    find(&doc, at, bodies)
}

/// Whether `v` holds a conversation [`find`] sees (what `--input auto`
/// takes for a transcript).
pub fn sniff(v: &Value) -> bool {
    if !matches!(v, Value::Object(_) | Value::Array(_)) {
        return false;
    }
    // looked for, not kept: a conversation found is not copied
    let mut out = Vec::new();
    search(v, "", 0, &mut out, false);
    !out.is_empty()
}

fn detect(v: &Value, p: &str) -> Option<Found> {
    detect_with(v, p, true)
}

/// [`detect`]; without `copy`, a conversation in a shape
/// [`messages::read`] knows is found but its value not copied (`Null`).
fn detect_with(v: &Value, p: &str, copy: bool) -> Option<Found> {
    SHAPES.iter().find_map(|(name, d)| {
        if *name == "chat" && !copy {
            chat_here(v, p)
        } else {
            d(v, p)
        }
    })
}

fn search(v: &Value, p: &str, depth: usize, out: &mut Vec<Found>, copy: bool) {
    if let Some(f) = detect_with(v, p, copy) {
        out.push(f);
        return;
    }
    match v {
        Value::Array(items) if !items.is_empty() => {
            // a list of conversations (or of message lists)
            let before = out.len();
            for (k, item) in items.iter().enumerate() {
                let ip = format!("{p}/{k}");
                if let Some(f) = detect_with(item, &ip, copy) {
                    out.push(f);
                } else if let Some(f) = message_list_with(item, &ip, None, copy) {
                    out.push(f);
                }
            }
            if out.len() == before && depth < DEPTH {
                for (k, item) in items.iter().enumerate().take(64) {
                    if item.is_object() {
                        search(item, &format!("{p}/{k}"), depth + 1, out, copy);
                    }
                }
            }
        }
        Value::Object(o) if depth < DEPTH => {
            // message lists directly under a key first, then deeper
            let before = out.len();
            for (k, child) in o {
                let cp = format!("{p}/{}", escape(k));
                if let Some(f) = message_list_with(child, &cp, Some(o), copy) {
                    out.push(f);
                } else if let Value::Array(items) = child {
                    // a list of message lists (ToolBench's train_messages)
                    let lists: Vec<Found> = items
                        .iter()
                        .enumerate()
                        .filter_map(|(j, l)| {
                            message_list_with(l, &format!("{cp}/{j}"), Some(o), copy)
                        })
                        .collect();
                    if !lists.is_empty() && lists.len() == items.len() {
                        out.extend(lists);
                    }
                }
            }
            if out.len() > before {
                return;
            }
            for (k, child) in o {
                if child.is_object() || child.is_array() {
                    search(child, &format!("{p}/{}", escape(k)), depth + 1, out, copy);
                    if out.len() > before {
                        return;
                    }
                }
            }
        }
        _ => {}
    }
}

fn escape(k: &str) -> String {
    k.replace('~', "~0").replace('/', "~1")
}

/// The keys that name a message's role, and those that hold what it says.
const ROLE_KEYS: [&str; 2] = ["role", "from"];
const CONTENT_KEYS: [&str; 5] = ["content", "value", "tool_calls", "function_call", "text"];

fn is_message(m: &Value) -> bool {
    let Some(o) = m.as_object() else {
        return false;
    };
    ROLE_KEYS
        .iter()
        .any(|k| o.get(*k).is_some_and(Value::is_string))
        && CONTENT_KEYS.iter().any(|k| o.contains_key(*k))
}

/// A list of messages (objects with a role-like and a content-like key),
/// with the tools its parent object keeps beside it.
fn message_list(v: &Value, p: &str, parent: Option<&Map<String, Value>>) -> Option<Found> {
    message_list_with(v, p, parent, true)
}

/// [`message_list`]; without `copy`, the list is found but not copied
/// into the [`Found`] (its value `Null`: what [`sniff`] needs).
fn message_list_with(
    v: &Value,
    p: &str,
    parent: Option<&Map<String, Value>>,
    copy: bool,
) -> Option<Found> {
    let items = v.as_array()?;
    if items.is_empty() {
        return None;
    }
    if !items.iter().all(is_message) {
        return wrapped_list(items, p, parent);
    }
    let key = if items[0].get("role").is_some() {
        "messages"
    } else {
        "conversations"
    };
    let value = if copy { json!({ key: v }) } else { Value::Null };
    let mut f = Found::moved("list", p, value);
    f.remap = vec![(format!("/{key}"), p.to_string(), true)];
    if copy {
        f.tools = parent.and_then(side_tools);
    }
    Some(f)
}

/// A list of entries that each keep a message under `message` (Continue's
/// session `history`: `{message, contextItems}`), read as the message list.
fn wrapped_list(items: &[Value], p: &str, parent: Option<&Map<String, Value>>) -> Option<Found> {
    // not a response body's `choices` (wire output), nor stream events
    let reply = |e: &Value| {
        ["finish_reason", "index", "delta"]
            .iter()
            .any(|k| e.get(*k).is_some())
            || e.get("type").and_then(Value::as_str) == Some("message_start")
    };
    if items.iter().any(reply) {
        return None;
    }
    let inner = |e: &Value| e.get("message").filter(|m| is_message(m)).cloned();
    let mut messages: Vec<Value> = items.iter().map(inner).collect::<Option<_>>()?;
    let mut f = Found::moved("list", p, Value::Null);
    f.remap.clear();
    for (k, m) in messages.iter_mut().enumerate() {
        f.map(format!("/messages/{k}"), format!("{p}/{k}/message"), true);
        // Continue's camel case, as OpenAI writes it
        if let Some(o) = m.as_object_mut() {
            for (camel, snake) in [("toolCalls", "tool_calls"), ("toolCallId", "tool_call_id")] {
                if !o.contains_key(snake) {
                    if let Some(x) = o.remove(camel) {
                        o.insert(snake.into(), x);
                        f.map(
                            format!("/messages/{k}/{snake}"),
                            format!("{p}/{k}/message/{camel}"),
                            true,
                        );
                    }
                }
            }
        }
    }
    f.value = json!({ "messages": messages });
    f.tools = parent.and_then(side_tools);
    f.sort();
    Some(f)
}

/// A tool list kept beside a conversation.
fn side_tools(o: &Map<String, Value>) -> Option<Value> {
    ["tools", "functions", "function"]
        .iter()
        .find_map(|k| tool_list(o.get(*k)?))
}

/// A tool list: an array of tool objects (or a JSON string holding one).
fn tool_list(v: &Value) -> Option<Value> {
    let v = match v {
        Value::String(s) => serde_json::from_str::<Value>(s).ok()?,
        other => other.clone(),
    };
    let mut v = v;
    if let Value::Array(items) = &mut v {
        // a list of tools each kept as JSON text (When2Call)
        for t in items.iter_mut() {
            if let Value::String(s) = t {
                if let Ok(o @ Value::Object(_)) = serde_json::from_str::<Value>(s) {
                    *t = o;
                }
            }
        }
    }
    let items = v.as_array()?;
    items
        .iter()
        .all(|t| t.get("name").is_some() || t.get("function").is_some())
        .then(|| normalise_tools(v.clone()))
}

/// Tool lists as datasets write them, made registry-shaped: xLAM's
/// parameter maps (`{"city": {"type": "str", …}}`, no `properties`)
/// become object schemas (their Python type names are mapped by the
/// registry's type aliases; no parameter is required, as the map does not
/// say which are).
fn normalise_tools(mut v: Value) -> Value {
    if let Value::Array(items) = &mut v {
        for t in items {
            let Some(params) = t.get_mut("parameters") else {
                continue;
            };
            let Value::Object(map) = params else { continue };
            let schema_like = map.contains_key("type") && !map["type"].is_object()
                || map.contains_key("properties");
            if schema_like || map.is_empty() || !map.values().all(Value::is_object) {
                continue;
            }
            let mut props = Map::new();
            for (k, spec) in map.iter() {
                let mut spec = spec.clone();
                if let Some(Value::String(ty)) = spec.get("type") {
                    match python_type(ty) {
                        Some(t) => spec["type"] = Value::String(t.into()),
                        None => {
                            if let Some(o) = spec.as_object_mut() {
                                o.remove("type");
                            }
                        }
                    }
                }
                props.insert(k.clone(), spec);
            }
            *params = json!({"type": "object", "properties": props});
        }
    }
    v
}

/// The JSON Schema type of a Python-style type name (`str`, `int`,
/// `List[int]`, `str, optional`); `None` when it names none.
fn python_type(ty: &str) -> Option<&'static str> {
    let t = ty
        .split(',')
        .next()
        .unwrap_or(ty)
        .trim()
        .to_ascii_lowercase();
    let head = t.split('[').next().unwrap_or(&t).trim();
    Some(match head {
        "str" | "string" => "string",
        "int" | "integer" => "integer",
        "float" | "number" | "double" => "number",
        "bool" | "boolean" => "boolean",
        "list" | "array" | "tuple" | "set" => "array",
        "dict" | "object" | "mapping" => "object",
        _ => return None,
    })
}

/// Gemini `generateContent` contents: `{role, parts}` entries (in a
/// `contents` list, or a bare list of them), parts `text`, `functionCall`
/// (`{name, args, id?}`) and `functionResponse` (`{name, response, id?}`);
/// the request's `tools[].functionDeclarations` are the registry. Read as
/// chat messages: a `model` entry is an assistant turn whose calls are
/// its `functionCall` parts, each `functionResponse` a tool result (that
/// names its tool, and its call's id when it has one).
fn gemini(v: &Value, p: &str) -> Option<Found> {
    let (list, lp, o) = match v {
        Value::Object(o) => (
            o.get("contents")?.as_array()?,
            format!("{p}/contents"),
            Some(o),
        ),
        Value::Array(a) => (a, p.to_string(), None),
        _ => return None,
    };
    let entry = |c: &Value| {
        c.get("parts").is_some_and(Value::is_array)
            && c.get("role").is_none_or(Value::is_string)
            && c.get("content").is_none()
    };
    if list.is_empty() || !list.iter().all(entry) {
        return None;
    }
    let mut f = Found::moved("gemini", p, Value::Null);
    f.remap.clear();
    let mut messages = Vec::new();
    for (k, c) in list.iter().enumerate() {
        let cp = format!("{lp}/{k}");
        let role = match c.get("role").and_then(Value::as_str) {
            Some("model" | "assistant") => "assistant",
            Some("function" | "tool") => "tool",
            Some("system") => "system",
            _ => "user",
        };
        let parts = c.get("parts").and_then(Value::as_array)?;
        let mut content = Vec::new();
        let mut calls = Vec::new();
        let n = messages.len();
        let mut results = Vec::new();
        for (j, part) in parts.iter().enumerate() {
            let pp = format!("{cp}/parts/{j}");
            let key = |a: &str, b: &str| {
                if part.get(a).is_some() {
                    Some(a.to_string())
                } else {
                    part.get(b).is_some().then(|| b.to_string())
                }
            };
            if let Some(fk) = key("functionCall", "function_call") {
                let fc = &part[fk.as_str()];
                let i = calls.len();
                let mut call = json!({"function": {
                    "name": fc.get("name").cloned().unwrap_or(Value::Null),
                    "arguments": fc.get("args").cloned().unwrap_or(Value::Null)}});
                if let Some(id) = fc.get("id").filter(|i| i.is_string()) {
                    call["id"] = id.clone();
                }
                calls.push(call);
                let tp = format!("/messages/{n}/tool_calls/{i}");
                f.map(
                    format!("{tp}/function/arguments"),
                    format!("{pp}/{fk}/args"),
                    true,
                );
                f.map(tp, format!("{pp}/{fk}"), false);
            } else if let Some(rk) = key("functionResponse", "function_response") {
                results.push((pp, rk));
            } else if let Some(t) = part.get("text").filter(|t| t.is_string()) {
                let i = content.len();
                // a thought summary (`thought: true`) is reasoning
                if part.get("thought").and_then(Value::as_bool) == Some(true) {
                    continue;
                }
                content.push(json!({"type": "text", "text": t}));
                f.map(format!("/messages/{n}/content/{i}"), pp, true);
            }
        }
        if !content.is_empty() || !calls.is_empty() || results.is_empty() {
            let mut m = json!({"role": role, "content": content});
            if !calls.is_empty() {
                m["tool_calls"] = Value::Array(calls);
            }
            messages.push(m);
            f.map(format!("/messages/{n}"), cp.clone(), false);
        }
        for (pp, rk) in results {
            let fr = &parts_value(list, k, &pp)[rk.as_str()];
            let mut m = json!({"role": "tool",
                "name": fr.get("name").cloned().unwrap_or(Value::Null),
                "content": fr.get("response").map(Value::to_string).unwrap_or_default()});
            if let Some(id) = fr.get("id").filter(|i| i.is_string()) {
                m["tool_call_id"] = id.clone();
            }
            f.map(format!("/messages/{}", messages.len()), pp, false);
            messages.push(m);
        }
    }
    let mut conv = json!({ "messages": messages });
    let declared: Vec<Value> = o
        .and_then(|o| o.get("tools"))
        .and_then(Value::as_array)
        .map(|ts| {
            ts.iter()
                .filter_map(|t| {
                    t.get("functionDeclarations")
                        .or_else(|| t.get("function_declarations"))
                        .and_then(Value::as_array)
                })
                .flatten()
                .map(|d| {
                    let mut d = d.clone();
                    if let Some(ps) = d.get_mut("parameters") {
                        lowercase_types(ps);
                    }
                    d
                })
                .collect()
        })
        .unwrap_or_default();
    if !declared.is_empty() {
        conv["tools"] = Value::Array(declared);
    }
    f.value = conv;
    f.sort();
    Some(f)
}

/// A message list, its pointer and the object that holds it (`None`: a
/// bare list).
type Messages<'a> = (&'a [Value], String, Option<&'a Map<String, Value>>);

/// A message list as a shape writes it: an object's `messages` (with the
/// object), or a bare list.
fn message_array<'a>(v: &'a Value, p: &str) -> Option<Messages<'a>> {
    let (list, lp, o) = match v {
        Value::Object(o) => (
            o.get("messages")?.as_array()?,
            format!("{p}/messages"),
            Some(o),
        ),
        Value::Array(a) => (a, p.to_string(), None),
        _ => return None,
    };
    (!list.is_empty() && list.iter().all(Value::is_object)).then_some((list, lp, o))
}

/// A tool result's content as text: a string as it is; a list of text
/// blocks (`{"text": …}`) and Bedrock's `{"json": …}` blocks joined, each
/// JSON value compact; other JSON as compact JSON.
fn result_text(v: Option<&Value>) -> Value {
    let block = |b: &Value| match (b.get("text"), b.get("json")) {
        (Some(Value::String(t)), _) => Some(t.clone()),
        (None, Some(j)) => Some(j.to_string()),
        _ => None,
    };
    match v {
        None | Some(Value::Null) => Value::String(String::new()),
        Some(Value::String(s)) => Value::String(s.clone()),
        Some(Value::Array(blocks)) if !blocks.is_empty() => {
            match blocks.iter().map(block).collect::<Option<Vec<String>>>() {
                Some(text) => Value::String(text.join("\n")),
                None => Value::String(Value::Array(blocks.clone()).to_string()),
            }
        }
        Some(other) => Value::String(other.to_string()),
    }
}

/// Amazon Bedrock's Converse API: `messages` of `{role, content}` whose
/// blocks are keyed by what they hold (no `type`): `{"text": …}`,
/// `{"toolUse": {toolUseId, name, input}}`, `{"toolResult": {toolUseId,
/// content, status}}`; `system` a list of `{text}` blocks and
/// `toolConfig.tools[].toolSpec` (`name`, `description`,
/// `inputSchema.json`) the registry. Read as chat messages: each `toolUse`
/// a call, each `toolResult` a tool message answering its id.
fn bedrock(v: &Value, p: &str) -> Option<Found> {
    let (list, lp, o) = message_array(v, p)?;
    fn blocks_of(m: &Value) -> Option<&Vec<Value>> {
        m.get("role")?.as_str()?;
        let c = m.get("content")?.as_array()?;
        c.iter()
            .all(|b| b.is_object() && b.get("type").is_none())
            .then_some(c)
    }
    let all: Vec<&Vec<Value>> = list.iter().map(blocks_of).collect::<Option<_>>()?;
    let tool_config = o.and_then(|o| o.get("toolConfig")).is_some();
    let tool_block = all.iter().any(|c| {
        c.iter()
            .any(|b| b.get("toolUse").or(b.get("toolResult")).is_some())
    });
    if !(tool_config || tool_block) {
        return None;
    }
    let mut f = Found::moved("bedrock", p, Value::Null);
    f.remap.clear();
    let mut messages = Vec::new();
    for (k, (m, blocks)) in list.iter().zip(all).enumerate() {
        let mp = format!("{lp}/{k}");
        let role = m.get("role").and_then(Value::as_str).unwrap_or("user");
        let mut content = Vec::new();
        let mut calls = Vec::new();
        let mut results = Vec::new();
        // pointers under the message, placed once its index is known
        let mut maps: Vec<(String, String, bool)> = Vec::new();
        for (j, b) in blocks.iter().enumerate() {
            let bp = format!("{mp}/content/{j}");
            if let Some(u) = b.get("toolUse") {
                let i = calls.len();
                let mut call = json!({"function": {
                    "name": u.get("name").cloned().unwrap_or(Value::Null),
                    "arguments": u.get("input").cloned().unwrap_or(Value::Null)}});
                if let Some(id) = u.get("toolUseId").filter(|i| i.is_string()) {
                    call["id"] = id.clone();
                }
                calls.push(call);
                maps.push((
                    format!("/tool_calls/{i}/function/arguments"),
                    format!("{bp}/toolUse/input"),
                    true,
                ));
                maps.push((format!("/tool_calls/{i}"), format!("{bp}/toolUse"), false));
            } else if let Some(r) = b.get("toolResult") {
                results.push((r, format!("{bp}/toolResult")));
            } else if let Some(t) = b.get("text").filter(|t| t.is_string()) {
                let i = content.len();
                content.push(json!({"type": "text", "text": t}));
                maps.push((format!("/content/{i}"), bp, true));
            }
        }
        // results first (they answer the turn before), then what else
        // the turn says
        for (r, rp) in results {
            let mut t = json!({"role": "tool",
                "content": result_text(r.get("content"))});
            if let Some(id) = r.get("toolUseId").filter(|i| i.is_string()) {
                t["tool_call_id"] = id.clone();
            }
            f.map(format!("/messages/{}", messages.len()), rp, false);
            messages.push(t);
        }
        if !content.is_empty() || !calls.is_empty() {
            let n = messages.len();
            let mut msg = json!({"role": role, "content": content});
            if !calls.is_empty() {
                msg["tool_calls"] = Value::Array(calls);
            }
            for (from, to, keep) in maps {
                f.map(format!("/messages/{n}{from}"), to, keep);
            }
            f.map(format!("/messages/{n}"), mp.clone(), false);
            messages.push(msg);
        }
    }
    let mut conv = json!({ "messages": messages });
    if let Some(o) = o {
        let system: Vec<&str> = o
            .get("system")
            .and_then(Value::as_array)
            .map(|s| {
                s.iter()
                    .filter_map(|b| b.get("text").and_then(Value::as_str))
                    .collect()
            })
            .unwrap_or_default();
        if !system.is_empty() {
            conv["system"] = Value::String(system.join("\n"));
        }
        let specs: Vec<Value> = o
            .get("toolConfig")
            .and_then(|c| c.get("tools"))
            .and_then(Value::as_array)
            .map(|ts| {
                ts.iter()
                    .filter_map(|t| t.get("toolSpec"))
                    .map(|s| {
                        let mut t = json!({"name": s.get("name").cloned().unwrap_or(Value::Null)});
                        if let Some(d) = s.get("description") {
                            t["description"] = d.clone();
                        }
                        let schema = s.pointer("/inputSchema/json").cloned();
                        t["parameters"] = schema.unwrap_or_else(|| json!({"type": "object"}));
                        t
                    })
                    .collect()
            })
            .unwrap_or_default();
        if !specs.is_empty() {
            conv["tools"] = Value::Array(specs);
        }
    }
    f.value = conv;
    f.sort();
    Some(f)
}

/// The Vercel AI SDK's model messages (`ModelMessage`, `CoreMessage` in
/// v4): `{role, content}` whose parts are typed `text`, `reasoning`,
/// `tool-call` (`toolCallId`, `toolName`, `input`; `args` in v4) and
/// `tool-result` (`toolCallId`, `toolName`, `output`; `result` in v4).
/// Read as chat messages: the `tool-call` parts an assistant message's
/// calls, each `tool-result` part a tool message answering its id.
fn ai_sdk(v: &Value, p: &str) -> Option<Found> {
    let (list, lp, o) = message_array(v, p)?;
    let typed = |part: &Value, ty: &str| part.get("type").and_then(Value::as_str) == Some(ty);
    let mut tool_part = false;
    for m in list {
        m.get("role")?.as_str()?;
        match m.get("content")? {
            Value::String(_) => {}
            Value::Array(parts) => {
                tool_part |= parts
                    .iter()
                    .any(|x| typed(x, "tool-call") || typed(x, "tool-result"));
            }
            _ => return None,
        }
    }
    if !tool_part {
        return None;
    }
    let mut f = Found::moved("ai-sdk", p, Value::Null);
    f.remap.clear();
    let mut messages = Vec::new();
    for (k, m) in list.iter().enumerate() {
        let mp = format!("{lp}/{k}");
        let role = m.get("role").and_then(Value::as_str).unwrap_or("user");
        let Some(parts) = m.get("content").and_then(Value::as_array) else {
            f.map(format!("/messages/{}", messages.len()), mp, true);
            messages.push(json!({"role": role, "content": m.get("content")}));
            continue;
        };
        let n = messages.len();
        let mut content = Vec::new();
        let mut calls = Vec::new();
        let mut results = Vec::new();
        for (j, part) in parts.iter().enumerate() {
            let pp = format!("{mp}/content/{j}");
            match part.get("type").and_then(Value::as_str) {
                Some("tool-call") => {
                    let key = if part.get("input").is_some() {
                        "input"
                    } else {
                        "args"
                    };
                    let i = calls.len();
                    let mut call = json!({"function": {
                        "name": part.get("toolName").cloned().unwrap_or(Value::Null),
                        "arguments": part.get(key).cloned().unwrap_or(Value::Null)}});
                    if let Some(id) = part.get("toolCallId").filter(|i| i.is_string()) {
                        call["id"] = id.clone();
                    }
                    calls.push(call);
                    let tp = format!("/messages/{n}/tool_calls/{i}");
                    f.map(
                        format!("{tp}/function/arguments"),
                        format!("{pp}/{key}"),
                        true,
                    );
                    f.map(tp, pp, false);
                }
                Some("tool-result") => results.push((part, pp)),
                Some("text") => {
                    if let Some(t) = part.get("text").filter(|t| t.is_string()) {
                        let i = content.len();
                        content.push(json!({"type": "text", "text": t}));
                        f.map(format!("/messages/{n}/content/{i}"), pp, true);
                    }
                }
                _ => {}
            }
        }
        if role != "tool" || !content.is_empty() || !calls.is_empty() {
            let mut msg = json!({"role": if role == "tool" { "user" } else { role },
                "content": content});
            if !calls.is_empty() {
                msg["tool_calls"] = Value::Array(calls);
            }
            f.map(format!("/messages/{n}"), mp.clone(), false);
            messages.push(msg);
        }
        for (part, pp) in results {
            let out = part.get("output").or_else(|| part.get("result"));
            // v5 wraps the output: {"type": "json" | "text" | …, "value": …}
            let out = match out {
                Some(o) if o.get("type").is_some() && o.get("value").is_some() => o.get("value"),
                o => o,
            };
            let mut t = json!({"role": "tool", "content": result_text(out)});
            if let Some(id) = part.get("toolCallId").filter(|i| i.is_string()) {
                t["tool_call_id"] = id.clone();
            }
            if let Some(name) = part.get("toolName").filter(|x| x.is_string()) {
                t["name"] = name.clone();
            }
            f.map(format!("/messages/{}", messages.len()), pp, false);
            messages.push(t);
        }
    }
    f.conversation(
        messages,
        o.and_then(side_tools).or_else(|| o.and_then(ai_sdk_tools)),
    )
}

/// The AI SDK's tools as a `tools` object keyed by name (`{"weather":
/// {"description", "inputSchema" | "parameters"}}`), as a tool list.
fn ai_sdk_tools(o: &Map<String, Value>) -> Option<Value> {
    let tools = o.get("tools")?.as_object()?;
    let list: Vec<Value> = tools
        .iter()
        .filter_map(|(name, t)| {
            let t = t.as_object()?;
            let schema = t
                .get("inputSchema")
                .or_else(|| t.get("parameters"))
                .map(|s| s.get("jsonSchema").unwrap_or(s).clone())
                .unwrap_or_else(|| json!({"type": "object"}));
            let mut tool = json!({"name": name, "parameters": schema});
            if let Some(d) = t.get("description") {
                tool["description"] = d.clone();
            }
            Some(tool)
        })
        .collect();
    (!list.is_empty()).then(|| Value::Array(list))
}

/// The AI SDK's UI messages (`UIMessage`, what `useChat` keeps): `{id,
/// role, parts}` whose parts are typed: `text`, `reasoning`,
/// `step-start`, a tool part `tool-NAME` (v5: `toolCallId`, `state`,
/// `input`, `output` or `errorText`), `dynamic-tool` (with `toolName`),
/// or `tool-invocation` (v4: `toolInvocation` with `toolCallId`,
/// `toolName`, `args`, `state`, `result`). A tool part holds a call and,
/// once its state says so, its result: read as an assistant message with
/// the call and a tool message with the result; each `step-start` (or
/// text after a result) begins a new assistant message.
fn ai_sdk_ui(v: &Value, p: &str) -> Option<Found> {
    let (list, lp, o) = message_array(v, p)?;
    let ui = |m: &Value| {
        m.get("role").is_some_and(Value::is_string)
            && m.get("parts").and_then(Value::as_array).is_some_and(|ps| {
                ps.iter()
                    .all(|x| x.get("type").is_some_and(Value::is_string))
            })
    };
    if !list.iter().all(ui) {
        return None;
    }
    let mut f = Found::moved("ai-sdk-ui", p, Value::Null);
    f.remap.clear();
    let mut messages: Vec<Value> = Vec::new();
    for (k, m) in list.iter().enumerate() {
        let mp = format!("{lp}/{k}");
        let role = m.get("role").and_then(Value::as_str).unwrap_or("user");
        let parts = m.get("parts").and_then(Value::as_array)?;
        // the assistant message being built: its content, calls, the
        // results that follow it and their pointer maps
        let mut s = logs::Step::default();
        for (j, part) in parts.iter().enumerate() {
            let pp = format!("{mp}/parts/{j}");
            let ty = part.get("type").and_then(Value::as_str).unwrap_or("");
            // a tool part: v5 `tool-NAME` / `dynamic-tool`, v4 `tool-invocation`
            let tool = if ty == "tool-invocation" {
                part.get("toolInvocation").map(|t| {
                    let done = t.get("state").and_then(Value::as_str) == Some("result");
                    (
                        t.get("toolName").cloned().unwrap_or(Value::Null),
                        t,
                        format!("{pp}/toolInvocation"),
                        "args",
                        done.then(|| t.get("result")).flatten(),
                    )
                })
            } else if ty == "dynamic-tool" || (ty.starts_with("tool-") && ty.len() > 5) {
                let name = match ty {
                    "dynamic-tool" => part.get("toolName").cloned().unwrap_or(Value::Null),
                    _ => Value::String(ty["tool-".len()..].to_string()),
                };
                let out = match part.get("state").and_then(Value::as_str) {
                    Some("output-available") => part.get("output"),
                    Some("output-error") => part.get("errorText"),
                    _ => None,
                };
                Some((name, part, pp.clone(), "input", out))
            } else {
                None
            };
            let pending = !s.results.is_empty();
            if ty == "step-start" || (pending && (tool.is_some() || ty == "text")) {
                s.flush(role, &mp, &mut messages, &mut f);
            }
            if let Some((name, t, tp, key, out)) = tool {
                let i = s.calls.len();
                let mut call = json!({"function": {"name": name,
                    "arguments": t.get(key).cloned().unwrap_or(Value::Null)}});
                let id = t.get("toolCallId").filter(|i| i.is_string()).cloned();
                if let Some(id) = &id {
                    call["id"] = id.clone();
                }
                s.calls.push(call);
                s.maps.push((
                    format!("/tool_calls/{i}/function/arguments"),
                    format!("{tp}/{key}"),
                    true,
                ));
                s.maps.push((format!("/tool_calls/{i}"), tp.clone(), false));
                if let Some(out) = out {
                    let mut r = json!({"role": "tool", "content": result_text(Some(out))});
                    if let Some(id) = id {
                        r["tool_call_id"] = id;
                    }
                    s.results.push((r, tp));
                }
            } else if ty == "text" {
                if let Some(t) = part.get("text").filter(|t| t.is_string()) {
                    let i = s.content.len();
                    s.content.push(json!({"type": "text", "text": t}));
                    s.maps.push((format!("/content/{i}"), pp, true));
                }
            }
        }
        s.flush(role, &mp, &mut messages, &mut f);
    }
    f.conversation(
        messages,
        o.and_then(side_tools).or_else(|| o.and_then(ai_sdk_tools)),
    )
}

/// A Gemini CLI session file (`~/.gemini/tmp/<project>/chats/session-*.json`,
/// its `ConversationRecord`): `messages` of `{id, timestamp, type,
/// content}` where `type` is `user` or `gemini` (or `info`, `error`,
/// `warning`: the program's notes, not turns) and a `gemini` message's
/// `toolCalls` are `{id, name, args, result, status}`, the result a list
/// of `functionResponse` parts. Read as chat messages: each tool call a
/// call of the assistant message, its result (when it has one) a tool
/// message after it.
fn gemini_cli(v: &Value, p: &str) -> Option<Found> {
    let o = v.as_object()?;
    let list = o.get("messages")?.as_array()?;
    let record = |m: &Value| {
        m.get("role").is_none()
            && matches!(
                m.get("type").and_then(Value::as_str),
                Some("user" | "gemini" | "info" | "error" | "warning")
            )
    };
    let gemini = |m: &Value| m.get("type").and_then(Value::as_str) == Some("gemini");
    if list.is_empty()
        || !list.iter().all(record)
        || !(o.contains_key("sessionId") || list.iter().any(gemini))
    {
        return None;
    }
    let mut f = Found::moved("gemini-cli", p, Value::Null);
    f.remap.clear();
    let mut messages = Vec::new();
    for (k, m) in list.iter().enumerate() {
        let mp = format!("{p}/messages/{k}");
        let role = match m.get("type").and_then(Value::as_str) {
            Some("user") => "user",
            Some("gemini") => "assistant",
            _ => continue,
        };
        let n = messages.len();
        let mut msg = json!({"role": role,
            "content": m.get("content").filter(|c| c.is_string()).cloned().unwrap_or(Value::Null)});
        f.map(
            format!("/messages/{n}/content"),
            format!("{mp}/content"),
            true,
        );
        let mut results = Vec::new();
        if let Some(calls) = m.get("toolCalls").and_then(Value::as_array) {
            let mut out = Vec::new();
            for (i, c) in calls.iter().enumerate() {
                let cp = format!("{mp}/toolCalls/{i}");
                let mut call = json!({"function": {
                    "name": c.get("name").cloned().unwrap_or(Value::Null),
                    "arguments": c.get("args").cloned().unwrap_or(Value::Null)}});
                let id = c.get("id").filter(|i| i.is_string()).cloned();
                if let Some(id) = &id {
                    call["id"] = id.clone();
                }
                out.push(call);
                let tp = format!("/messages/{n}/tool_calls/{i}");
                f.map(
                    format!("{tp}/function/arguments"),
                    format!("{cp}/args"),
                    true,
                );
                f.map(tp, cp.clone(), false);
                if let Some(r) = c.get("result").filter(|r| !r.is_null()) {
                    results.push((gemini_cli_result(r), id, format!("{cp}/result")));
                }
            }
            if !out.is_empty() {
                msg["tool_calls"] = Value::Array(out);
            }
        }
        f.map(format!("/messages/{n}"), mp, false);
        messages.push(msg);
        for (content, id, rp) in results {
            let mut t = json!({"role": "tool", "content": content});
            if let Some(id) = id {
                t["tool_call_id"] = id;
            }
            f.map(format!("/messages/{}", messages.len()), rp, false);
            messages.push(t);
        }
    }
    f.conversation(messages, None)
}

/// A Gemini CLI tool call's result as text: its `functionResponse`
/// parts' `response.output` (or the response as compact JSON), else
/// what [`result_text`] makes of it.
fn gemini_cli_result(r: &Value) -> Value {
    let parts: Vec<&Value> = match r {
        Value::Array(a) => a.iter().collect(),
        other => vec![other],
    };
    let responses: Option<Vec<String>> = parts
        .iter()
        .map(|x| {
            let resp = x.get("functionResponse")?.get("response")?;
            Some(match resp.get("output") {
                Some(Value::String(s)) => s.clone(),
                _ => resp.to_string(),
            })
        })
        .collect();
    match responses {
        Some(texts) if !texts.is_empty() => Value::String(texts.join("\n")),
        _ => result_text(Some(r)),
    }
}

/// A BFCL possible-answer row (`{"id", "ground_truth": [{NAME: {ARG:
/// [allowed values]}}]}`), or a question row that carries its ground
/// truth: each entry of `ground_truth` a call whose arguments are the
/// first allowed value of each (an argument whose first allowed value is
/// `""` may be left out, and is); the question's turns, when there, come
/// first and its `function` list is the registry.
fn bfcl(v: &Value, p: &str) -> Option<Found> {
    let o = v.as_object()?;
    let truth = o.get("ground_truth")?.as_array()?;
    let entry = |g: &Value| -> Option<(String, Map<String, Value>)> {
        let g = g.as_object()?;
        if g.len() != 1 {
            return None;
        }
        let (name, args) = g.iter().next()?;
        let args = args.as_object()?;
        let mut out = Map::new();
        for (k, allowed) in args {
            let first = allowed.as_array()?.first().cloned().unwrap_or(Value::Null);
            if first != Value::String(String::new()) {
                out.insert(k.clone(), first);
            }
        }
        Some((name.clone(), out))
    };
    let calls: Vec<(String, Map<String, Value>)> =
        truth.iter().map(entry).collect::<Option<_>>()?;
    if calls.is_empty() {
        return None;
    }
    let mut f = Found::moved("bfcl", p, Value::Null);
    f.remap.clear();
    let mut messages = Vec::new();
    // the question: a list of turns, each a list of messages
    if let Some(turns) = o.get("question").and_then(Value::as_array) {
        for (t, turn) in turns.iter().enumerate() {
            let Some(ms) = turn.as_array() else { continue };
            for (j, m) in ms.iter().enumerate() {
                if is_message(m) {
                    f.map(
                        format!("/messages/{}", messages.len()),
                        format!("{p}/question/{t}/{j}"),
                        true,
                    );
                    messages.push(m.clone());
                }
            }
        }
    }
    let n = messages.len();
    let mut tool_calls = Vec::new();
    for (i, (name, args)) in calls.into_iter().enumerate() {
        let gp = format!("{p}/ground_truth/{i}/{}", escape(&name));
        tool_calls.push(json!({"function": {"name": name, "arguments": args}}));
        let tp = format!("/messages/{n}/tool_calls/{i}");
        f.map(format!("{tp}/function/arguments"), gp.clone(), false);
        f.map(tp, format!("{p}/ground_truth/{i}"), false);
    }
    messages.push(json!({"role": "assistant", "content": null, "tool_calls": tool_calls}));
    f.map(format!("/messages/{n}"), format!("{p}/ground_truth"), false);
    f.value = json!({ "messages": messages });
    f.tools = side_tools(o);
    f.sort();
    Some(f)
}

/// Part `pp` (`…/parts/J`) of entry `k` of a Gemini contents list.
fn parts_value<'a>(list: &'a [Value], k: usize, pp: &str) -> &'a Value {
    let j = pp
        .rsplit('/')
        .next()
        .and_then(|j| j.parse::<usize>().ok())
        .unwrap_or(0);
    list[k]
        .pointer(&format!("/parts/{j}"))
        .unwrap_or(&Value::Null)
}

/// Gemini schemas write types in capitals (`OBJECT`, `STRING`): JSON
/// Schema's are lower case.
fn lowercase_types(v: &mut Value) {
    match v {
        Value::Object(o) => {
            for (k, x) in o.iter_mut() {
                match x {
                    Value::String(s) if k == "type" => *s = s.to_ascii_lowercase(),
                    _ => lowercase_types(x),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(lowercase_types),
        _ => {}
    }
}

/// The role of a LangChain message's `type` (`human`, `ai`, `tool`, …,
/// or a class name `AIMessage`, `ToolMessage`, …).
fn langchain_role(ty: &str) -> Option<&'static str> {
    let t = ty.strip_suffix("Chunk").unwrap_or(ty);
    Some(match t {
        "human" | "HumanMessage" => "user",
        "ai" | "AIMessage" => "assistant",
        "tool" | "ToolMessage" | "function" | "FunctionMessage" => "tool",
        "system" | "SystemMessage" => "system",
        "chat" | "ChatMessage" => "chat",
        _ => return None,
    })
}

/// A LangChain message, in any of the ways LangChain writes one: a
/// `dumpd` constructor (`{"lc": 1, "id": [… "AIMessage"], "kwargs": {…}}`),
/// `messages_to_dict` (`{"type": "ai", "data": {…}}`), or the message's own
/// fields (`{"type": "ai", "content": …, "tool_calls": […]}`, LangGraph
/// state). Its role and the pointer suffix of its fields.
fn langchain_message(m: &Value) -> Option<(&'static str, &'static str, &Value)> {
    let o = m.as_object()?;
    if o.contains_key("role") {
        return None;
    }
    if o.get("lc").is_some() && o.get("kwargs").is_some_and(Value::is_object) {
        let class = o.get("id")?.as_array()?.last()?.as_str()?;
        return Some((langchain_role(class)?, "/kwargs", &o["kwargs"]));
    }
    let ty = o.get("type")?.as_str()?;
    let role = langchain_role(ty)?;
    if let Some(d) = o.get("data").filter(|d| d.is_object()) {
        return Some((role, "/data", d));
    }
    o.contains_key("content").then_some((role, "", m))
}

/// A list of LangChain messages (a `messages` list of an object, the
/// LangGraph state, or a bare list), read as chat messages: `tool_calls`
/// `{name, args, id}` are the calls, a tool message's `tool_call_id`
/// answers one.
fn langchain(v: &Value, p: &str) -> Option<Found> {
    let (list, lp, parent) = match v {
        Value::Array(a) => (a, p.to_string(), None),
        Value::Object(o) => (
            o.get("messages")?.as_array()?,
            format!("{p}/messages"),
            Some(o),
        ),
        _ => return None,
    };
    if list.is_empty() {
        return None;
    }
    let read: Vec<(&str, &str, &Value)> =
        list.iter().map(langchain_message).collect::<Option<_>>()?;
    let mut f = Found::moved("langchain", p, Value::Null);
    f.remap.clear();
    let mut messages = Vec::new();
    for (k, (role, suffix, inner)) in read.into_iter().enumerate() {
        let mp = format!("{lp}/{k}{suffix}");
        let role = match role {
            "chat" => inner.get("role").and_then(Value::as_str).unwrap_or("user"),
            r => r,
        };
        let mut m = json!({"role": role,
            "content": inner.get("content").cloned().unwrap_or(Value::Null)});
        for key in ["tool_call_id", "name"] {
            if let Some(x) = inner.get(key).filter(|x| x.is_string()) {
                m[key] = x.clone();
            }
        }
        // the calls: LangChain's own, else the provider's (older messages)
        let own = inner
            .get("tool_calls")
            .and_then(Value::as_array)
            .filter(|c| !c.is_empty());
        if let Some(calls) = own {
            let mut out = Vec::new();
            for (i, c) in calls.iter().enumerate() {
                let mut call = json!({"function": {
                    "name": c.get("name").cloned().unwrap_or(Value::Null),
                    "arguments": c.get("args").cloned().unwrap_or(Value::Null)}});
                if let Some(id) = c.get("id").filter(|x| x.is_string()) {
                    call["id"] = id.clone();
                }
                out.push(call);
                let tp = format!("/messages/{k}/tool_calls/{i}");
                f.map(
                    format!("{tp}/function/arguments"),
                    format!("{mp}/tool_calls/{i}/args"),
                    true,
                );
                f.map(tp, format!("{mp}/tool_calls/{i}"), false);
            }
            m["tool_calls"] = Value::Array(out);
        } else if let Some(calls) = inner
            .pointer("/additional_kwargs/tool_calls")
            .filter(|c| c.is_array())
        {
            m["tool_calls"] = calls.clone();
            f.map(
                format!("/messages/{k}/tool_calls"),
                format!("{mp}/additional_kwargs/tool_calls"),
                true,
            );
        }
        f.map(format!("/messages/{k}"), mp, true);
        messages.push(m);
    }
    f.conversation(messages, parent.and_then(side_tools))
}

/// A row of an `input` message list and the `output` that answers it
/// (NVIDIA's Nemotron post-training data: `input: [{role, content}]`,
/// `output` the assistant's text, calls in it as `<TOOLCALL>[…]`;
/// `tools` beside them). Read as ShareGPT turns (the calls are written as
/// text in the data, not missed by a server).
fn io(v: &Value, p: &str) -> Option<Found> {
    let o = v.as_object()?;
    let input = o.get("input")?.as_array()?;
    let output = o.get("output")?;
    let text_of = |m: &Value| -> Option<(String, String)> {
        Some((
            m.get("role")?.as_str()?.to_string(),
            m.get("content")?.as_str()?.to_string(),
        ))
    };
    let turns: Vec<(String, String)> = input.iter().map(text_of).collect::<Option<_>>()?;
    let (out_text, out_pointer) = match output {
        Value::String(s) => (s.clone(), format!("{p}/output")),
        m => {
            let (r, t) = text_of(m)?;
            if r != "assistant" {
                return None;
            }
            (t, format!("{p}/output/content"))
        }
    };
    let mut f = Found::moved("io", p, Value::Null);
    f.remap.clear();
    let mut conv = Vec::new();
    for (k, (role, text)) in turns.into_iter().enumerate() {
        conv.push(json!({"from": role, "value": text}));
        f.map(
            format!("/conversations/{k}/value"),
            format!("{p}/input/{k}/content"),
            true,
        );
        f.map(
            format!("/conversations/{k}"),
            format!("{p}/input/{k}"),
            true,
        );
    }
    let n = conv.len();
    conv.push(json!({"from": "assistant", "value": out_text}));
    f.map(
        format!("/conversations/{n}/value"),
        out_pointer.clone(),
        true,
    );
    f.map(format!("/conversations/{n}"), out_pointer, false);
    let mut value = json!({ "conversations": conv });
    if let Some(s) = o.get("system_prompt").filter(|s| s.is_string()) {
        value["system"] = s.clone();
    }
    f.value = value;
    f.tools = side_tools(o);
    f.sort();
    Some(f)
}

/// A Goose conversation kept whole (`{"messages": […]}`, or a bare
/// list): Goose messages (`role`, `created`, typed `content`) with a
/// `toolRequest` or `toolResponse` block, read as Anthropic messages
/// (see [`logs::goose_block`]).
fn goose(v: &Value, p: &str) -> Option<Found> {
    let (list, lp, o) = message_array(v, p)?;
    let goose_tool = |m: &Value| {
        m.get("content").and_then(Value::as_array).is_some_and(|c| {
            c.iter().any(|b| {
                matches!(
                    b.get("type").and_then(Value::as_str),
                    Some("toolRequest" | "toolResponse")
                )
            })
        })
    };
    if !list
        .iter()
        .all(|m| m.as_object().is_some_and(logs::goose_message))
        || !list.iter().any(goose_tool)
    {
        return None;
    }
    let mut f = Found::moved("goose", p, Value::Null);
    f.remap.clear();
    let mut messages = Vec::new();
    for (k, m) in list.iter().enumerate() {
        let mp = format!("{lp}/{k}");
        let mut content = m.get("content").cloned().unwrap_or(Value::Null);
        if let Value::Array(blocks) = &mut content {
            for (j, b) in blocks.iter_mut().enumerate() {
                if let Some(suffix) = logs::goose_block(b) {
                    f.map(
                        format!("/messages/{k}/content/{j}/input"),
                        format!("{mp}/content/{j}{suffix}"),
                        true,
                    );
                }
            }
        }
        messages.push(
            json!({"role": m.get("role").cloned().unwrap_or(Value::Null),
            "content": content}),
        );
        f.map(format!("/messages/{k}"), mp, true);
    }
    f.conversation(messages, o.and_then(side_tools))
}

/// A conversation written the way a chat server takes it (what
/// [`messages::shape`] knows), where it stands.
fn chat(v: &Value, p: &str) -> Option<Found> {
    let mut f = chat_here(v, p)?;
    f.value = v.clone();
    Some(f)
}

/// [`chat`]'s reading of `v`, its value left `Null` (the caller puts `v`
/// there: a copy, or the document itself, see [`find_owned`]).
fn chat_here(v: &Value, p: &str) -> Option<Found> {
    let shape = messages::sniff(v)?;
    if let (Value::Array(items), messages::Shape::Responses) = (v, shape) {
        // a bare list of Responses items is a conversation at the top
        // only: inside a document it is a response body's `output`
        if !p.is_empty() {
            return None;
        }
        // any list of typed objects (a message's tool_calls) is not a list
        // of Responses items: one of them must be an item of that API
        let item = |i: &Value| {
            matches!(
                i.get("type").and_then(Value::as_str),
                Some(
                    "message"
                        | "function_call"
                        | "function_call_output"
                        | "reasoning"
                        | "custom_tool_call"
                        | "custom_tool_call_output"
                )
            )
        };
        if !items.iter().any(item) {
            return None;
        }
    }
    let mut f = Found::moved("chat", p, Value::Null);
    if let Value::Object(o) = v {
        f.tools = o.get("functions").and_then(tool_list);
    }
    Some(f)
}

/// A JSON value at `key` of `o`: an object, or a JSON string holding one
/// (HTTP recordings keep bodies as text). The pointer of the value and
/// whether it was text.
fn body(o: &Map<String, Value>, p: &str, keys: &[&str]) -> Option<(Value, String, bool)> {
    for k in keys {
        let Some(v) = o.get(*k) else { continue };
        let kp = format!("{p}/{k}");
        match v {
            Value::Object(inner) => {
                // VCR's {"body": {"string": "…"}}
                if let Some(Value::String(s)) = inner.get("string") {
                    if let Ok(v) = serde_json::from_str::<Value>(s) {
                        return Some((v, format!("{kp}/string"), true));
                    }
                }
                return Some((v.clone(), kp, false));
            }
            Value::String(s) => {
                if let Ok(v @ Value::Object(_)) = serde_json::from_str::<Value>(s) {
                    return Some((v, kp, true));
                }
            }
            _ => {}
        }
    }
    None
}

/// An HTTP recording: a `request` whose body is a chat request and a
/// `response` whose body holds the reply (OpenAI `choices`, Anthropic
/// `content`). One conversation: the request's messages, then the reply.
fn recording(v: &Value, p: &str) -> Option<Found> {
    let o = v.as_object()?;
    let req = o.get("request")?.as_object()?;
    let resp = o.get("response").and_then(Value::as_object);
    let rp = format!("{p}/request");
    let (rv, rvp, rtext) = body(req, &rp, &["body", "json", "content", "data"])
        .or_else(|| Some((Value::Object(req.clone()), rp.clone(), false)))?;
    let msgs = rv.get("messages")?.as_array()?;
    let mut messages = msgs.clone();
    let mut f = Found::moved("recording", p, Value::Null);
    f.remap.clear();
    let base = if rtext {
        None
    } else {
        Some(format!("{rvp}/messages"))
    };
    for k in 0..msgs.len() {
        match &base {
            Some(b) => f.map(format!("/messages/{k}"), format!("{b}/{k}"), true),
            None => f.map(format!("/messages/{k}"), rvp.clone(), false),
        }
    }
    if let Some(resp) = resp {
        let sp = format!("{p}/response");
        let found = body(resp, &sp, &["body", "json", "content", "data"])
            .or_else(|| Some((Value::Object(resp.clone()), sp.clone(), false)));
        if let Some((sv, svp, stext)) = found {
            let reply = sv
                .pointer("/choices/0/message")
                .map(|m| (m.clone(), "/choices/0/message"))
                .or_else(|| {
                    sv.get("content")
                        .filter(|c| c.is_array())
                        .map(|_| (sv.clone(), ""))
                })
                .or_else(|| sv.get("message").map(|m| (m.clone(), "/message")));
            if let Some((mut m, inner)) = reply {
                if m.get("role").is_none() {
                    m["role"] = Value::String("assistant".into());
                }
                let k = messages.len();
                messages.push(m);
                if stext {
                    f.map(format!("/messages/{k}"), svp, false);
                } else {
                    f.map(format!("/messages/{k}"), format!("{svp}{inner}"), true);
                }
            }
        }
    }
    let mut conv = Map::new();
    conv.insert("messages".into(), Value::Array(messages));
    for key in ["tools", "functions"] {
        if let Some(t) = rv.get(key) {
            conv.insert(key.into(), t.clone());
        }
    }
    f.value = Value::Object(conv);
    f.sort();
    Some(f)
}

/// A single-turn row whose calls are a field: xLAM's `query`, `tools`
/// and `answers` (both lists often kept as JSON strings).
fn xlam(v: &Value, p: &str) -> Option<Found> {
    let o = v.as_object()?;
    // the query's key: xLAM's `query`; API-Bank rows as tool-learning
    // suites keep them write `user` (the dialogue so far) or `question`
    let (qkey, query) = ["query", "user", "question"]
        .iter()
        .find_map(|k| Some((*k, o.get(*k)?.as_str()?)))?;
    let answers = o.get("answers").or_else(|| o.get("answer"))?;
    let (list, text) = match answers {
        Value::String(s) => (serde_json::from_str::<Value>(s).ok()?, true),
        Value::Array(_) => (answers.clone(), false),
        _ => return None,
    };
    let calls = list.as_array()?;
    if !calls.iter().all(|c| c.get("name").is_some()) {
        return None;
    }
    let key = if o.contains_key("answers") {
        "answers"
    } else {
        "answer"
    };
    let mut f = Found::moved("xlam", p, Value::Null);
    f.remap.clear();
    f.map("/messages/0".into(), format!("{p}/{qkey}"), false);
    let mut tool_calls = Vec::new();
    for (k, c) in calls.iter().enumerate() {
        // API-Bank names the arguments `parameters`
        let args = c
            .get("arguments")
            .or_else(|| c.get("parameters"))
            .cloned()
            .unwrap_or(Value::Null);
        tool_calls.push(json!({"function": {"name": c["name"], "arguments": args}}));
        if text {
            f.map(
                format!("/messages/1/tool_calls/{k}"),
                format!("{p}/{key}"),
                false,
            );
        } else {
            if c.get("arguments").is_none() && c.get("parameters").is_some() {
                f.map(
                    format!("/messages/1/tool_calls/{k}/function/arguments"),
                    format!("{p}/{key}/{k}/parameters"),
                    true,
                );
            }
            f.map(
                format!("/messages/1/tool_calls/{k}/function"),
                format!("{p}/{key}/{k}"),
                true,
            );
            f.map(
                format!("/messages/1/tool_calls/{k}"),
                format!("{p}/{key}/{k}"),
                false,
            );
        }
    }
    f.value = json!({"messages": [
        {"role": "user", "content": query},
        {"role": "assistant", "content": null, "tool_calls": tool_calls},
    ]});
    // API-Bank keeps the tools in its `system` prompt (as Markdown)
    if let Some(s) = o.get("system").filter(|s| s.is_string()) {
        f.value["system"] = s.clone();
    }
    f.tools = o.get("tools").and_then(tool_list);
    f.sort();
    Some(f)
}

/// The turn markers of glaive's `chat` text.
const GLAIVE_TURNS: [(&str, &str); 4] = [
    ("USER:", "human"),
    ("ASSISTANT:", "gpt"),
    ("FUNCTION RESPONSE:", "observation"),
    ("SYSTEM:", "system"),
];

/// A glaive-function-calling row: `system` (the tools after "Use them if
/// required -") and `chat`, a text of `USER:` / `ASSISTANT:` /
/// `FUNCTION RESPONSE:` turns whose calls are `<functioncall> {…}
/// <|endoftext|>`. Read as ShareGPT turns, each call a `function_call`.
fn glaive(v: &Value, p: &str) -> Option<Found> {
    let o = v.as_object()?;
    let chat = o.get("chat")?.as_str()?;
    let mut marks: Vec<(usize, usize, &str)> = Vec::new();
    for (m, role) in GLAIVE_TURNS {
        let mut from = 0;
        while let Some(i) = chat[from..].find(m) {
            let at = from + i;
            marks.push((at, at + m.len(), role));
            from = at + m.len();
        }
    }
    if marks.is_empty() {
        return None;
    }
    marks.sort();
    let mut turns = Vec::new();
    for (k, &(_, start, role)) in marks.iter().enumerate() {
        let end = marks.get(k + 1).map_or(chat.len(), |m| m.0);
        let text = chat[start..end]
            .trim()
            .trim_end_matches("<|endoftext|>")
            .trim();
        if role == "gpt" {
            if let Some(i) = text.find("<functioncall>") {
                let before = text[..i].trim();
                if !before.is_empty() {
                    turns.push(json!({"from": "gpt", "value": before}));
                }
                let call = text[i + "<functioncall>".len()..]
                    .trim()
                    .trim_end_matches("<|endoftext|>")
                    .trim();
                turns.push(json!({"from": "function_call", "value": call}));
                continue;
            }
        }
        turns.push(json!({"from": role, "value": text}));
    }
    let mut f = Found::moved("glaive", p, Value::Null);
    f.remap = vec![("/conversations".into(), format!("{p}/chat"), false)];
    let mut conv = json!({ "conversations": turns });
    if let Some(s) = o.get("system") {
        conv["system"] = s.clone();
    }
    f.value = conv;
    Some(f)
}

/// Agent events (OpenHands): a list of objects with `source` and an
/// `action` or an `observation`. An action with `tool_call_metadata` is a
/// call (its arguments those of the model response's matching call), an
/// observation with one is its result; the user's and the agent's
/// messages are turns.
fn events(v: &Value, p: &str) -> Option<Found> {
    let items = v.as_array()?;
    let is_event = |e: &Value| {
        e.get("source").is_some_and(Value::is_string)
            && (e.get("action").is_some() || e.get("observation").is_some())
    };
    if items.is_empty() || !items.iter().all(is_event) {
        return None;
    }
    let mut f = Found::moved("events", p, Value::Null);
    f.remap.clear();
    let mut messages = Vec::new();
    for (k, e) in items.iter().enumerate() {
        let ep = format!("{p}/{k}");
        let meta = e.get("tool_call_metadata").filter(|m| m.is_object());
        let n = messages.len();
        if let Some(meta) = meta {
            let id = meta
                .get("tool_call_id")
                .and_then(Value::as_str)
                .unwrap_or("");
            let name = meta
                .get("function_name")
                .and_then(Value::as_str)
                .unwrap_or("");
            if e.get("observation").is_some() {
                messages.push(json!({"role": "tool", "tool_call_id": id, "name": name,
                    "content": e.get("content").cloned().unwrap_or(Value::Null)}));
                f.map(format!("/messages/{n}"), ep, false);
                continue;
            }
            // the model response's own call with that id
            let calls = meta
                .pointer("/model_response/choices/0/message/tool_calls")
                .and_then(Value::as_array);
            let found = calls.and_then(|cs| {
                cs.iter()
                    .position(|c| c.get("id").and_then(Value::as_str) == Some(id))
            });
            let call = match (calls, found) {
                (Some(cs), Some(j)) => {
                    f.map(
                        format!("/messages/{n}/tool_calls/0"),
                        format!(
                            "{ep}/tool_call_metadata/model_response/choices/0/message/tool_calls/{j}"
                        ),
                        true,
                    );
                    cs[j].clone()
                }
                _ => {
                    f.map(
                        format!("/messages/{n}/tool_calls/0/function"),
                        ep.clone(),
                        false,
                    );
                    json!({"id": id, "function": {"name": name,
                        "arguments": e.get("args").cloned().unwrap_or(Value::Null)}})
                }
            };
            messages.push(json!({"role": "assistant", "content": null, "tool_calls": [call]}));
            f.map(format!("/messages/{n}"), ep, false);
            continue;
        }
        let role = match e.get("source").and_then(Value::as_str) {
            Some("user") => "user",
            Some("agent") => "assistant",
            _ => continue,
        };
        if e.get("action").and_then(Value::as_str) == Some("message") {
            let text = e
                .pointer("/args/content")
                .or_else(|| e.get("message"))
                .cloned()
                .unwrap_or(Value::Null);
            messages.push(json!({"role": role, "content": text}));
            f.map(format!("/messages/{n}"), ep, false);
        }
    }
    f.conversation(messages, None)
}

/// The tools a system prompt declares: Hermes `<tools>…</tools>`,
/// glaive's "Use them if required -" followed by JSON objects, a JSON list
/// after "… you can invoke" (ToolACE, BFCL prompts). `None` when it
/// declares none.
pub fn prompt_tools(text: &str) -> Option<Value> {
    // the first <tools> block that holds tools (the prompt may name the
    // tags before it writes them)
    let mut from = 0;
    while let Some(i) = text[from..].find("<tools>") {
        let rest = &text[from + i + "<tools>".len()..];
        let end = rest.find("</tools>").unwrap_or(rest.len());
        if let Some(t) = values_in(&rest[..end]) {
            return Some(t);
        }
        from += i + "<tools>".len();
    }
    for marker in [
        "Use them if required -",
        "Use them if required:",
        "you can invoke:",
        // ToolBench / ToolLLaMA: "Specifically, you have access to the following APIs: [...]"
        "you have access to the following APIs:",
        "you can invoke.",
        "You have access to the following functions:",
        "You have access to the following tools:",
    ] {
        if let Some(i) = text.find(marker) {
            return values_in(&text[i + marker.len()..]);
        }
    }
    markdown_tools(text)
}

/// Tools a prompt lists in Markdown, as API-Bank rows do: for each tool a
/// `Name: NAME` line (`1. **Name: QueryHealthData**`), a `Description:`
/// line and `Parameters:` followed by a map of parameters (Python
/// literals, `{'user_id': {'type': 'str', …}}`). `None` when there are
/// none.
fn markdown_tools(text: &str) -> Option<Value> {
    if !text.contains("Parameters:") {
        return None;
    }
    let mut tools = Vec::new();
    let starts: Vec<usize> = text.match_indices("Name:").map(|(i, _)| i).collect();
    for (n, &at) in starts.iter().enumerate() {
        let end = starts.get(n + 1).copied().unwrap_or(text.len());
        let block = &text[at + "Name:".len()..end];
        let first = block.lines().next().unwrap_or("");
        let name = first.trim().trim_matches('*').trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            continue;
        }
        let description = block
            .lines()
            .find_map(|l| l.trim().strip_prefix("Description:"))
            .map(str::trim)
            .unwrap_or("");
        let Some(pi) = block.find("Parameters:") else {
            continue;
        };
        let rest = &block[pi + "Parameters:".len()..];
        let Some(open) = rest.find('{') else { continue };
        let Some(len) = balanced(&rest[open..]) else {
            continue;
        };
        let opts = crate::repair::RepairOptions::default();
        let Some(params) = crate::repair::repair(&rest[open..open + len], &opts)
            .ok()
            .and_then(|r| serde_json::from_str::<Value>(&r.output).ok())
            .filter(Value::is_object)
        else {
            continue;
        };
        tools.push(json!({"name": name, "description": description, "parameters": params}));
    }
    if tools.is_empty() {
        return None;
    }
    tool_list(&Value::Array(tools))
}

/// The length of the bracketed value at the start of `s` (`{…}` with
/// nested brackets and quoted strings), `None` when it is not closed.
fn balanced(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// The tool objects written one after another (or as a list) at the start
/// of `s`, JSON or Python literals.
fn values_in(s: &str) -> Option<Value> {
    let s = s.trim();
    let mut tools = Vec::new();
    let mut take = |v: Value| match v {
        Value::Array(items) => tools.extend(items.into_iter().filter(Value::is_object)),
        o @ Value::Object(_) => tools.push(o),
        _ => {}
    };
    let mut stream = serde_json::Deserializer::from_str(s).into_iter::<Value>();
    let mut read = 0usize;
    for v in stream.by_ref() {
        match v {
            Ok(v) => {
                read += 1;
                take(v);
            }
            Err(_) => break,
        }
    }
    if read == 0 {
        // Python literals (`[{'name': …, 'required': True}]`)
        let open = s.find(['[', '{'])?;
        let close = s.rfind([']', '}'])?;
        if close < open {
            return None;
        }
        let opts = crate::repair::RepairOptions::default();
        let r = crate::repair::repair(&s[open..=close], &opts).ok()?;
        take(serde_json::from_str(&r.output).ok()?);
    }
    if tools.is_empty() {
        return None;
    }
    tool_list(&Value::Array(tools))
}

/// The system prompt of a conversation in a shape `messages::read` knows.
fn system_text(v: &Value) -> Option<&str> {
    if let Some(s) = v.get("system").and_then(Value::as_str) {
        return Some(s);
    }
    let list = v
        .get("messages")
        .or_else(|| v.get("conversations"))
        .or_else(|| v.get("input"))
        .and_then(Value::as_array)?;
    let first = list.iter().find(|m| {
        matches!(
            m.get("role")
                .or_else(|| m.get("from"))
                .and_then(Value::as_str),
            Some("system" | "developer")
        )
    })?;
    first
        .get("content")
        .or_else(|| first.get("value"))
        .and_then(Value::as_str)
}

/// The tool names with spaces a conversation's tools declare (ToolACE's
/// `Get Manager Placeholder Image`), each with the identifier its spaces joined
/// by `_` make (one no tool of the list already has).
fn spaced_names(tools: Option<&Value>) -> Vec<(String, String)> {
    let Some(Value::Array(list)) = tools else {
        return Vec::new();
    };
    let names: Vec<&str> = list
        .iter()
        .filter_map(|t| {
            t.pointer("/function/name")
                .or_else(|| t.get("name"))
                .and_then(Value::as_str)
        })
        .collect();
    names
        .iter()
        .filter(|n| n.contains(' ') && !n.starts_with(' ') && !n.ends_with(' '))
        .map(|n| (n.to_string(), n.replace(' ', "_")))
        .filter(|(_, j)| !names.contains(&j.as_str()))
        .collect()
}

/// The conversation with each spaced tool name, where an assistant's turn
/// calls it (`Name With Spaces(`), written as its joined identifier: the
/// pythonic reader takes only identifiers for names. The text keeps its
/// length, so spans stay the document's.
fn joined_names(conv: &Value, spaced: &[(String, String)]) -> Value {
    let mut conv = conv.clone();
    for key in ["messages", "conversations"] {
        let Some(Value::Array(list)) = conv.get_mut(key) else {
            continue;
        };
        for m in list {
            let role = m
                .get("role")
                .or_else(|| m.get("from"))
                .and_then(Value::as_str)
                .unwrap_or("");
            if !matches!(role, "assistant" | "gpt" | "function_call" | "model") {
                continue;
            }
            for field in ["content", "value"] {
                if let Some(Value::String(text)) = m.get_mut(field) {
                    for (name, joined) in spaced {
                        let call = format!("{name}(");
                        if text.contains(&call) {
                            *text = text.replace(&call, &format!("{joined}("));
                        }
                    }
                }
            }
        }
    }
    conv
}

/// Reads what [`find`] found: the transcript's pointers are the
/// document's, its tools the conversation's own, the list beside it, or
/// those its system prompt declares.
pub fn read(found: &Found, cfg: &Config) -> Option<Transcript> {
    let t = read_local(found, cfg)?;
    Some(remapped(found, t))
}

/// [`read`], with the entries' pointers left those of [`Found::value`]
/// (what [`super::convert`] walks beside them).
pub fn read_local(found: &Found, cfg: &Config) -> Option<Transcript> {
    local(found, None, None, cfg)
}

/// [`read`] of a conversation found that is not needed after: its
/// messages are dropped as they are read (see [`messages::read_owned`]),
/// so a large conversation is not held twice.
pub fn read_owned(mut found: Found, cfg: &Config) -> Option<Transcript> {
    let value = std::mem::take(&mut found.value);
    let t = local(&found, Some(value), None, cfg)?;
    Some(remapped(&found, t))
}

/// `t` with its pointers (and its calls' arguments pointers) those of the
/// document `found` was found in.
fn remapped(found: &Found, mut t: Transcript) -> Transcript {
    for e in &mut t.entries {
        e.pointer = found.original(&e.pointer);
        if let Kind::Call(c) = &mut e.kind {
            if let Some(ap) = &c.arguments_pointer {
                c.arguments_pointer = Some(found.original(ap));
            }
        }
    }
    t
}

/// [`read_local`]; `owned`: `found`'s value, taken out of it (read and
/// dropped as it goes); `streamed`: its message list, already read a
/// message at a time ([`stream`]: `owned` is then the conversation
/// without its list). `None` for a streamed list when the conversation's
/// tools have names with spaces (the texts are then rewritten before
/// they are read, see [`joined_names`]: the caller reads it whole).
fn local(
    found: &Found,
    owned: Option<Value>,
    streamed: Option<messages::Incremental<'_>>,
    cfg: &Config,
) -> Option<Transcript> {
    let value = owned.as_ref().unwrap_or(&found.value);
    let own = ["tools", "functions"]
        .iter()
        .find_map(|k| value.get(*k).and_then(tool_list));
    // the list beside the conversation, or its system prompt's (read once)
    let side = || {
        found
            .tools
            .clone()
            .or_else(|| system_text(value).and_then(prompt_tools))
    };
    let side = if own.is_some() { None } else { side() };
    let spaced = spaced_names(own.as_ref().or(side.as_ref()));
    let later = |value: &Value| {
        found
            .tools
            .clone()
            .or_else(|| system_text(value).and_then(prompt_tools))
    };
    // read before an owned value is dropped (else only when needed)
    let later_now = match (&owned, &own) {
        (Some(v), Some(_)) => Some(later(v)),
        _ => None,
    };
    let mut t = if !spaced.is_empty() {
        if streamed.is_some() {
            return None;
        }
        messages::read(&joined_names(value, &spaced), cfg)?
    } else if let Some(inc) = streamed {
        inc.finish(value)
    } else if let Some(v) = owned {
        messages::read_owned(v, cfg)?
    } else {
        messages::read(value, cfg)?
    };
    if !spaced.is_empty() {
        for e in &mut t.entries {
            if let Kind::Call(c) = &mut e.kind {
                if let Some((name, _)) = spaced.iter().find(|(_, j)| *j == c.call.name) {
                    c.call.name.clone_from(name);
                }
            }
        }
    }
    if t.tools.is_none() {
        t.tools = match side {
            Some(s) => Some(s),
            None if own.is_some() => later_now.unwrap_or_else(|| later(&found.value)),
            None => None,
        };
    }
    if let Some(tools) = t.tools.take() {
        t.tools = Some(normalise_tools(tools));
    }
    t.pointer = found.pointer.clone();
    t.source = found.shape;
    Some(t)
}

/// The conversation of element `k` of a top-level array of
/// conversations, read alone (what [`find`] finds at `/k` of the whole
/// array): a large array is read an element at a time this way, its
/// pointers the whole document's.
pub fn element(item: &Value, k: usize, cfg: &Config) -> Option<Transcript> {
    read(&element_found(item, k)?, cfg)
}

/// What [`find`] finds at `/k` of a top-level array whose element `k` is
/// `item`, read alone ([`element`] reads it).
pub fn element_found(item: &Value, k: usize) -> Option<Found> {
    let p = format!("/{k}");
    detect(item, &p).or_else(|| message_list(item, &p, None))
}

/// Every conversation of a JSON document ([`find`], then [`read`]).
pub fn conversations(doc: &Value, at: Option<&str>, bodies: bool, cfg: &Config) -> Vec<Transcript> {
    find(doc, at, bodies)
        .iter()
        .filter_map(|f| read(f, cfg))
        .collect()
}

/// Whether a JSONL line is one event of a per-event session log: a Claude
/// Code line (`type` and a `message`, a `sessionId`, a `uuid`) or a Codex
/// CLI rollout line (`type` and a `payload`).
pub fn is_event(v: &Value) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    // an MCP JSON-RPC message (a request, a notification or a response)
    if o.get("jsonrpc").and_then(Value::as_str) == Some("2.0")
        && ["method", "result", "error"]
            .iter()
            .any(|k| o.contains_key(*k))
    {
        return true;
    }
    // a Goose session file: its metadata line, or a message
    if logs::goose_line(o) {
        return true;
    }
    let Some(ty) = o.get("type").and_then(Value::as_str) else {
        return false;
    };
    // not a server's stream events (Anthropic's `message_start` has a
    // `message` too)
    const TYPES: [&str; 13] = [
        "message",
        "user",
        "assistant",
        "system",
        "summary",
        "result",
        "queue-operation",
        "file-history-snapshot",
        "response_item",
        "session_meta",
        "turn_context",
        "event_msg",
        "compacted",
    ];
    TYPES.contains(&ty)
        && (o.get("message").is_some_and(Value::is_object)
            || o.get("payload").is_some_and(Value::is_object)
            || ["sessionId", "session_id", "uuid", "leafUuid", "messageId"]
                .iter()
                .any(|k| o.contains_key(*k)))
}

/// The session a line of a per-event session log belongs to: its
/// `sessionId` (Claude Code; `session_id` in its SDK's stream), or the `id`
/// of a Codex CLI `session_meta` line's payload. `None` for a line that
/// names none (a summary, a file snapshot, a Codex event): it goes with the
/// session around it.
pub fn session_id(v: &Value) -> Option<&str> {
    let named = v
        .get("sessionId")
        .or_else(|| v.get("session_id"))
        .and_then(Value::as_str);
    let meta = || {
        if v.get("type").and_then(Value::as_str) != Some("session_meta") {
            return None;
        }
        v.get("payload")?.get("id")?.as_str()
    };
    named.or_else(meta).filter(|s| !s.is_empty())
}

/// The conversations of one session's lines (see
/// [`super::session::Sessions`], which splits a log into sessions): each
/// line's 0-based index in the file and its value. Lines that carry parts
/// of one message (the same `message.id`, one after another) make one
/// message; the session's main thread one conversation, its subagent side
/// chains (`isSidechain`) another. The transcripts' pointers start with the
/// line's index (`/5/message/content/0`: line 6).
pub fn session_conversations(lines: Vec<(usize, Value)>, cfg: &Config) -> Vec<Transcript> {
    session_found(lines)
        .iter()
        .filter_map(|f| read(f, cfg))
        .collect()
}

/// The conversations of one session's lines as [`session_conversations`]
/// groups them, before they are read: a Claude Code thread as a message
/// list (the lines of one message merged), a Codex CLI one as Responses
/// items (what `--convert` walks).
pub fn session_found(lines: Vec<(usize, Value)>) -> Vec<Found> {
    // thread (main, side chain) -> (messages or items, remap, is_codex)
    let mut order: Vec<bool> = Vec::new();
    let mut convs: [(Vec<Value>, Found, bool); 2] = std::array::from_fn(|_| {
        let mut f = Found::moved("session", "", Value::Null);
        f.remap.clear();
        (Vec::new(), f, false)
    });
    let mut last_id: Option<(bool, String)> = None;
    let mut rpc = Rpc::default();
    for (k, mut v) in lines {
        let side = v.get("isSidechain").and_then(Value::as_bool) == Some(true);
        if !order.contains(&side) {
            order.push(side);
        }
        let (list, found, codex) = &mut convs[usize::from(side)];
        if v.get("jsonrpc").and_then(Value::as_str) == Some("2.0") {
            rpc.line(k, &v, list, found);
            continue;
        }
        if v.get("type").and_then(Value::as_str) == Some("response_item") {
            if let Some(payload) = v.get_mut("payload").map(Value::take) {
                *codex = true;
                let n = list.len();
                list.push(payload);
                found.map(format!("/input/{n}"), format!("/{k}/payload"), true);
                continue;
            }
        }
        let ty = v.get("type").and_then(Value::as_str).map(str::to_string);
        // a Goose message is the line itself
        let (mut m, at) = if v.as_object().is_some_and(logs::goose_message) {
            (v.take(), format!("/{k}"))
        } else {
            let Some(m) = v
                .get_mut("message")
                .filter(|m| m.is_object())
                .map(Value::take)
            else {
                continue;
            };
            (m, format!("/{k}/message"))
        };
        let role = m
            .get("role")
            .and_then(Value::as_str)
            .or(ty.as_deref())
            .unwrap_or("user")
            .to_string();
        if !matches!(role.as_str(), "user" | "assistant" | "system" | "tool") {
            continue;
        }
        let id = m.get("id").and_then(Value::as_str).map(str::to_string);
        let string_content = m.get("content").is_some_and(Value::is_string);
        let mut content = match m.get_mut("content").map(Value::take) {
            Some(Value::Array(blocks)) => blocks,
            Some(Value::String(s)) => vec![json!({"type": "text", "text": s})],
            _ => Vec::new(),
        };
        // Goose's blocks (`toolRequest`, `toolResponse`) as Anthropic's
        let mut args: Vec<(usize, &str)> = Vec::new();
        for (j, b) in content.iter_mut().enumerate() {
            if let Some(suffix) = logs::goose_block(b) {
                args.push((j, suffix));
            }
        }
        // a line that goes on the message before it (same id, same thread)
        let same = match (&id, &last_id) {
            (Some(id), Some((s, last))) => *s == side && id == last,
            _ => false,
        };
        if same && !list.is_empty() {
            let n = list.len() - 1;
            let prev = &mut list[n];
            let start = prev["content"].as_array().map_or(0, Vec::len);
            if let Some(Value::Array(blocks)) = prev.get_mut("content") {
                for (j, b) in content.into_iter().enumerate() {
                    blocks.push(b);
                    found.map(
                        format!("/messages/{n}/content/{}", start + j),
                        format!("{at}/content/{j}"),
                        true,
                    );
                }
                for (j, suffix) in &args {
                    found.map(
                        format!("/messages/{n}/content/{}/input", start + j),
                        format!("{at}/content/{j}{suffix}"),
                        true,
                    );
                }
            }
        } else {
            let n = list.len();
            list.push(json!({"role": role, "content": content}));
            if string_content {
                found.map(format!("/messages/{n}"), format!("{at}/content"), false);
            } else {
                found.map(
                    format!("/messages/{n}/content"),
                    format!("{at}/content"),
                    true,
                );
                for (j, suffix) in &args {
                    found.map(
                        format!("/messages/{n}/content/{j}/input"),
                        format!("{at}/content/{j}{suffix}"),
                        true,
                    );
                }
                found.map(format!("/messages/{n}"), at.clone(), false);
            }
        }
        last_id = id.map(|i| (side, i));
    }
    let mut convs = convs.map(Some);
    let mut out = Vec::new();
    for side in order {
        let Some((list, mut found, codex)) = convs[usize::from(side)].take() else {
            continue;
        };
        if list.is_empty() {
            continue;
        }
        found.value = if codex {
            json!({ "input": list })
        } else {
            json!({ "messages": list })
        };
        if !side && !rpc.tools.is_empty() {
            found.value["tools"] = Value::Array(std::mem::take(&mut rpc.tools));
        }
        found.sort();
        out.push(found);
    }
    out
}

/// What an MCP JSON-RPC log has said so far (see [`Rpc::line`]).
#[derive(Default)]
struct Rpc {
    /// Ids of `tools/call` requests not answered yet.
    calls: std::collections::HashSet<String>,
    /// Ids of `tools/list` requests not answered yet.
    lists: std::collections::HashSet<String>,
    /// The tools the server listed.
    tools: Vec<Value>,
    /// The last message is the assistant's calls, none answered since.
    open: bool,
}

impl Rpc {
    /// One line of an MCP JSON-RPC log (a client's or server's message,
    /// one a line): a `tools/call` request is a call (its `params.name` and
    /// `params.arguments`, its id the request's; requests sent before any
    /// answer are one turn of parallel calls), the response with its id
    /// the result; a `tools/list` result gives the tools. Other methods
    /// and notifications are not turns.
    fn line(&mut self, k: usize, v: &Value, list: &mut Vec<Value>, found: &mut Found) {
        let id = v.get("id").filter(|i| !i.is_null()).map(|i| match i {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        });
        match v.get("method").and_then(Value::as_str) {
            Some("tools/call") => {
                let params = v.get("params");
                let field = |f: &str| params.and_then(|p| p.get(f)).cloned();
                let mut call = json!({"function": {
                    "name": field("name").unwrap_or(Value::Null),
                    "arguments": field("arguments").unwrap_or(Value::Null)}});
                if let Some(id) = &id {
                    call["id"] = Value::String(id.clone());
                    self.calls.insert(id.clone());
                }
                let open = self.open
                    && list
                        .last()
                        .is_some_and(|m| m.get("tool_calls").is_some_and(Value::is_array));
                let n = if open { list.len() - 1 } else { list.len() };
                if !open {
                    list.push(json!({"role": "assistant", "content": null, "tool_calls": []}));
                    found.map(format!("/messages/{n}"), format!("/{k}"), false);
                }
                let Some(Value::Array(calls)) = list[n].get_mut("tool_calls") else {
                    return;
                };
                let i = calls.len();
                calls.push(call);
                let tp = format!("/messages/{n}/tool_calls/{i}");
                found.map(
                    format!("{tp}/function/arguments"),
                    format!("/{k}/params/arguments"),
                    true,
                );
                found.map(tp, format!("/{k}/params"), false);
                self.open = true;
            }
            Some("tools/list") => {
                if let Some(id) = id {
                    self.lists.insert(id);
                }
            }
            Some(_) => {}
            None => {
                let Some(id) = id else { return };
                if self.calls.remove(&id) {
                    let content = v
                        .get("result")
                        .or_else(|| v.get("error"))
                        .map(Value::to_string)
                        .unwrap_or_default();
                    let n = list.len();
                    list.push(json!({"role": "tool", "tool_call_id": id, "content": content}));
                    found.map(format!("/messages/{n}"), format!("/{k}"), false);
                    self.open = false;
                } else if self.lists.remove(&id) {
                    if let Some(Value::Array(ts)) = v.pointer("/result/tools") {
                        self.tools
                            .extend(ts.iter().filter(|t| t.is_object()).cloned());
                    }
                }
            }
        }
    }
}

/// The byte ranges, in a JSONL text whose first line is line `first_line`
/// (0-based) of its file, of the values the pointers in `wanted` name, each
/// pointer starting with its line's 0-based index in the file
/// ([`session_conversations`]' pointers), and the bytes looked at.
pub fn line_spans(
    text: &[u8],
    first_line: usize,
    wanted: &std::collections::HashSet<&str>,
) -> (std::collections::HashMap<String, [usize; 2]>, u64) {
    use std::collections::{HashMap, HashSet};
    let mut by_line: HashMap<usize, Vec<&str>> = HashMap::new();
    for p in wanted {
        let rest = p.strip_prefix('/').unwrap_or(p);
        let (line, _) = rest.split_once('/').unwrap_or((rest, ""));
        if let Ok(k) = line.parse::<usize>() {
            by_line.entry(k).or_default().push(p);
        }
    }
    let mut out = HashMap::new();
    let mut work = 0u64;
    let mut start = 0usize;
    for (k, line) in text.split(|&b| b == b'\n').enumerate() {
        if let Some(ps) = by_line.get(&(first_line + k)) {
            let inner: Vec<String> = ps
                .iter()
                .map(|p| {
                    let rest = p.strip_prefix('/').unwrap_or(p);
                    rest.split_once('/')
                        .map_or(String::new(), |(_, r)| format!("/{r}"))
                })
                .collect();
            let set: HashSet<&str> = inner.iter().map(String::as_str).collect();
            let (spans, w) = messages::spans(line, &set);
            work += w;
            for (p, i) in ps.iter().zip(&inner) {
                if let Some([a, b]) = spans.get(i.as_str()) {
                    out.insert((*p).to_string(), [start + a, start + b]);
                }
            }
        }
        start += line.len() + 1;
    }
    (out, work)
}

/// The entries of a transcript that are calls.
pub fn calls(t: &Transcript) -> impl Iterator<Item = &Entry> {
    t.entries.iter().filter(|e| matches!(e.kind, Kind::Call(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n_calls(doc: &Value) -> usize {
        conversations(doc, None, false, &Config::default())
            .iter()
            .map(|t| calls(t).count())
            .sum()
    }

    #[test]
    fn a_top_level_array_of_sharegpt_rows() {
        let doc = json!([
            {"conversations": [{"from": "human", "value": "hi"},
                {"from": "function_call", "value": "{\"name\": \"f\", \"arguments\": {\"a\": 1}}"},
                {"from": "observation", "value": "{}"}],
             "tools": "[{\"name\": \"f\", \"parameters\": {\"type\": \"object\"}}]"},
            {"conversations": [{"from": "human", "value": "hi"}, {"from": "gpt", "value": "yo"}]}
        ]);
        let ts = conversations(&doc, None, false, &Config::default());
        assert_eq!(ts.len(), 2);
        assert_eq!(ts[0].pointer, "/0");
        assert!(ts[0].tools.is_some());
        assert_eq!(
            calls(&ts[0]).next().map(|e| e.pointer.as_str()),
            Some("/0/conversations/1/value")
        );
    }

    #[test]
    fn a_list_of_message_lists_under_a_key() {
        let m = json!([{"role": "user", "content": "x"},
            {"role": "assistant", "content": null, "function_call": {"name": "f", "arguments": "{}"}}]);
        let doc = json!({"answer_generation": {"function": [{"name": "f", "parameters": {}}],
            "train_messages": [m, m]}});
        let ts = conversations(&doc, None, false, &Config::default());
        assert_eq!(ts.len(), 2);
        assert_eq!(
            calls(&ts[1]).next().map(|e| e.pointer.as_str()),
            Some("/answer_generation/train_messages/1/1/function_call")
        );
        assert!(ts[0].tools.is_some());
    }

    #[test]
    fn xlam_rows_and_their_type_strings() {
        let doc = json!({"query": "q", "answers": "[{\"name\": \"f\", \"arguments\": {\"a\": \"x\"}}]",
            "tools": "[{\"name\": \"f\", \"parameters\": {\"a\": {\"type\": \"str\", \"description\": \"d\"}}}]"});
        let ts = conversations(&doc, None, false, &Config::default());
        assert_eq!(ts.len(), 1);
        let tools = ts[0].tools.as_ref().expect("tools");
        assert_eq!(tools[0]["parameters"]["properties"]["a"]["type"], "string");
        assert_eq!(
            calls(&ts[0]).next().map(|e| e.pointer.as_str()),
            Some("/answers")
        );
    }

    #[test]
    fn api_bank_rows_user_and_parameters() {
        let doc = json!({"user": "<user>\nMove it to the 26th.\n</user>",
            "answer": [{"name": "ModifyRegistration", "parameters": {"appointment_id": "1"}}]});
        let ts = conversations(&doc, None, false, &Config::default());
        assert_eq!(ts.len(), 1);
        let call = calls(&ts[0]).next().expect("a call");
        assert_eq!(call.pointer, "/answer/0");
        match &call.kind {
            Kind::Call(c) => assert_eq!(c.call.arguments.as_value()["appointment_id"], "1"),
            _ => unreachable!(),
        }
    }

    #[test]
    fn system_prompt_tools() {
        let t = prompt_tools(
            "x <tools>\n[{'name': 'f', 'parameters': {'type': 'object'}}]\n</tools> y",
        )
        .expect("hermes");
        assert_eq!(t[0]["name"], "f");
        let t = prompt_tools("Use them if required - {\"name\": \"a\", \"parameters\": {}}\n{\"name\": \"b\", \"parameters\": {}}")
            .expect("glaive");
        assert_eq!(t.as_array().map(Vec::len), Some(2));
        assert!(prompt_tools("You are a helpful assistant.").is_none());
    }

    #[test]
    fn toolace_names_with_spaces_in_pythonic_calls() {
        let tools = json!([{"name": "Get Weather", "parameters": {"type": "dict",
            "properties": {"city": {"type": "string"}}, "required": ["city"]}}]);
        let doc = json!({"system": format!("Here is a list of functions in JSON format that you can invoke:\n{tools}. \nShould you decide"),
            "conversations": [{"from": "user", "value": "Weather in Oslo?"},
                {"from": "assistant", "value": "[Get Weather(city=\"Oslo\")]"},
                {"from": "tool", "value": "[{\"name\": \"Get Weather\", \"results\": {}}]"}]});
        let ts = conversations(&doc, None, false, &Config::default());
        let names: Vec<&str> = calls(&ts[0])
            .filter_map(|e| match &e.kind {
                Kind::Call(c) => Some(c.call.name.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(names, ["Get Weather"]);
        assert!(messages::lint(&ts[0]).is_empty());
        // without the tool list the spaced name is text, as before
        let mut bare = doc.clone();
        bare["system"] = json!("You are helpful.");
        assert_eq!(n_calls(&bare), 0);
    }

    #[test]
    fn llamafactory_tool_call_blocks() {
        let doc = json!({"messages": [
            {"role": "user", "content": [{"type": "text", "value": "Age?"}]},
            {"role": "assistant", "content": [{"type": "tool_call",
                "value": "{\"name\": \"calculate_age\", \"arguments\": {\"birthdate\": \"1990-05-15\"}}"}]},
            {"role": "tool", "content": [{"type": "text", "value": "{\"age\": 31}"}]},
            {"role": "assistant", "content": [{"type": "text", "value": "31."}]}],
            "tools": "[{\"name\": \"calculate_age\", \"parameters\": {\"type\": \"object\"}}]"});
        let ts = conversations(&doc, None, false, &Config::default());
        assert_eq!(
            calls(&ts[0]).next().map(|e| e.pointer.as_str()),
            Some("/messages/1/content/0/value")
        );
        assert!(messages::lint(&ts[0]).is_empty());
    }

    /// The names and pointers of a document's calls, and whether its
    /// conversation checks pass.
    fn read_calls(doc: &Value) -> (Vec<(String, String)>, bool) {
        let ts = conversations(doc, None, false, &Config::default());
        let calls = ts
            .iter()
            .flat_map(calls)
            .filter_map(|e| match &e.kind {
                Kind::Call(c) => Some((c.call.name.clone(), e.pointer.clone())),
                _ => None,
            })
            .collect();
        (calls, ts.iter().all(|t| messages::lint(t).is_empty()))
    }

    #[test]
    fn bedrock_results_before_the_turns_text() {
        let doc = json!({"messages": [
            {"role": "user", "content": [{"text": "hi"}]},
            {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "f", "input": {"a": 1}}}]},
            {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": [{"json": {}}]}},
                {"text": "and then?"}]},
            {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t2", "name": "g", "input": {}}}]}],
            "toolConfig": {"tools": [{"toolSpec": {"name": "f", "inputSchema": {"json": {"type": "object"}}}},
                {"toolSpec": {"name": "g", "inputSchema": {"json": {"type": "object"}}}}]}});
        let (calls, clean) = read_calls(&doc);
        assert_eq!(
            calls,
            [
                ("f".into(), "/messages/1/content/0/toolUse".into()),
                ("g".into(), "/messages/3/content/0/toolUse".into())
            ]
        );
        assert!(clean);
    }

    #[test]
    fn ai_sdk_ui_tool_parts_are_calls_and_results() {
        let doc = json!([{"role": "user", "parts": [{"type": "text", "text": "hi"}]},
            {"role": "assistant", "parts": [
                {"type": "tool-f", "toolCallId": "c1", "state": "output-available", "input": {}, "output": 1},
                {"type": "text", "text": "then"},
                {"type": "dynamic-tool", "toolName": "g", "toolCallId": "c2", "state": "output-error",
                 "input": {}, "errorText": "no"}]}]);
        let (calls, clean) = read_calls(&doc);
        assert_eq!(
            calls,
            [
                ("f".into(), "/1/parts/0".into()),
                ("g".into(), "/1/parts/2".into())
            ]
        );
        // each result follows its call, before the text after it
        assert!(clean);
    }

    #[test]
    fn bfcl_takes_the_first_allowed_value() {
        let doc = json!({"id": "x", "ground_truth": [{"f": {"a": [3, 4], "b": ["", "y"]}}]});
        let ts = conversations(&doc, None, false, &Config::default());
        let call = calls(&ts[0]).next().expect("a call");
        match &call.kind {
            Kind::Call(c) => assert_eq!(c.call.arguments.as_value(), &json!({"a": 3})),
            _ => unreachable!(),
        }
    }

    #[test]
    fn glaive_chat_text() {
        let doc = json!({"system": "SYSTEM: Use them if required - {\"name\": \"f\", \"parameters\": {}}",
            "chat": "USER: hi ASSISTANT: <functioncall> {\"name\": \"f\", \"arguments\": '{\"a\": 1}'} <|endoftext|> FUNCTION RESPONSE: {} ASSISTANT: ok <|endoftext|>"});
        assert_eq!(n_calls(&doc), 1);
    }

    #[test]
    fn session_lines_merge_by_message_id() {
        let lines: Vec<(usize, Value)> = vec![
            (
                0,
                json!({"type": "user", "sessionId": "s", "message": {"role": "user", "content": "hi"}}),
            ),
            (
                1,
                json!({"type": "assistant", "sessionId": "s", "message": {"id": "m1", "role": "assistant",
                "content": [{"type": "text", "text": "ok"}]}}),
            ),
            (
                2,
                json!({"type": "assistant", "sessionId": "s", "message": {"id": "m1", "role": "assistant",
                "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}]}}),
            ),
            (
                3,
                json!({"type": "user", "sessionId": "s", "message": {"role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "x"}]}}),
            ),
        ];
        let ts = session_conversations(lines, &Config::default());
        assert_eq!(ts.len(), 1);
        assert!(messages::lint(&ts[0]).is_empty());
        assert_eq!(
            calls(&ts[0]).next().map(|e| e.pointer.as_str()),
            Some("/2/message/content/0")
        );
    }
}
