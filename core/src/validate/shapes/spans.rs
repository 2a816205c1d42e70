//! Tracing spans of model calls, as observability tools export them.
//!
//! A span's attributes hold the model's input and output messages in one
//! of three conventions:
//!
//! * OpenTelemetry's GenAI semantic conventions: `gen_ai.input.messages`,
//!   `gen_ai.output.messages` (JSON text, or a list) of `{role, parts}`,
//!   parts typed `text`, `tool_call` (`id`, `name`, `arguments`),
//!   `tool_call_response` (`id`, `response` or `result`), `reasoning`;
//!   `gen_ai.system_instructions` and `gen_ai.tool.definitions` beside
//!   them. The older flattened form (OpenLLMetry): `gen_ai.prompt.N.role`,
//!   `gen_ai.completion.N.tool_calls.M.name` and `arguments`,
//!   `llm.request.functions.N.name` and `parameters`.
//! * OpenInference (Arize Phoenix): `llm.input_messages.N.message.role`,
//!   `llm.output_messages.N.message.tool_calls.M.tool_call.function.name`
//!   and `.arguments`, `message.tool_call_id` on a tool message,
//!   `llm.tools.N.tool.json_schema`.
//!
//! Attributes come as an object whose keys are the dotted names (an SDK's
//! `span.attributes`, a Phoenix span), as OTLP's list of `{key, value:
//! {stringValue}}`, nested (`{"llm": {"input_messages": [{"message":
//! …}]}}`), or as a row whose keys start with `attributes.` (a Phoenix
//! spans data frame written as JSON). All are read through one tree: the
//! dotted names split, numeric segments made list indices, each node
//! remembering the document pointer it came from.
//!
//! A span is one model call: its input messages, then its output. A trace
//! (an OTLP export's `resourceSpans`, or a list of spans) is read as its
//! last model span, whose input holds the turns before it (as LangSmith's
//! runs are read).

use super::{tool_list, Found};
use serde_json::{json, Map, Value};
use std::collections::HashMap;

/// The attributes of a span as one tree, with the document pointer of
/// each node.
struct Tree {
    root: Value,
    at: HashMap<String, String>,
}

impl Tree {
    fn new() -> Tree {
        Tree {
            root: Value::Object(Map::new()),
            at: HashMap::new(),
        }
    }

    /// Puts `leaf` at the path `segs` (`at` its document pointer).
    fn insert(&mut self, segs: &[String], leaf: Value, at: &str) {
        let mut node = &mut self.root;
        let mut path = String::new();
        for (i, s) in segs.iter().enumerate() {
            path.push('/');
            path.push_str(s);
            self.at
                .entry(path.clone())
                .or_insert_with(|| at.to_string());
            let Value::Object(o) = node else { return };
            if i + 1 == segs.len() {
                o.insert(s.clone(), leaf);
                return;
            }
            node = o
                .entry(s.clone())
                .or_insert_with(|| Value::Object(Map::new()));
            if !node.is_object() {
                // a leaf already there: the deeper name is not kept
                return;
            }
        }
    }

    /// Walks an attribute value at `segs` (its pointer `at`), splitting
    /// the dotted keys of objects below it.
    fn walk(&mut self, segs: &mut Vec<String>, v: &Value, at: &str) {
        match v {
            Value::Object(o) if !o.is_empty() => {
                if !segs.is_empty() {
                    let path = format!("/{}", segs.join("/"));
                    self.at.entry(path).or_insert_with(|| at.to_string());
                }
                for (k, child) in o {
                    let n = segs.len();
                    segs.extend(k.split('.').map(str::to_string));
                    self.walk(segs, child, &format!("{at}/{}", super::escape(k)));
                    segs.truncate(n);
                }
            }
            Value::Array(_) => {
                let path = format!("/{}", segs.join("/"));
                let v = unflat(v, &path, at, &mut self.at);
                self.insert(segs, v, at);
            }
            leaf => self.insert(segs, leaf.clone(), at),
        }
    }

    /// The pointer of the node at `path` (`/llm/input_messages/0/message`).
    fn pointer(&self, path: &str) -> Option<String> {
        self.at.get(path).cloned()
    }

    fn get(&self, path: &str) -> Option<&Value> {
        self.root.pointer(path)
    }
}

/// `v` with the dotted keys of its objects split into nested objects
/// (`{"message.role": …}` as `{"message": {"role": …}}`), recording the
/// document pointer of each node under `path`.
fn unflat(v: &Value, path: &str, at: &str, map: &mut HashMap<String, String>) -> Value {
    map.entry(path.to_string())
        .or_insert_with(|| at.to_string());
    match v {
        Value::Array(a) => Value::Array(
            a.iter()
                .enumerate()
                .map(|(i, x)| unflat(x, &format!("{path}/{i}"), &format!("{at}/{i}"), map))
                .collect(),
        ),
        Value::Object(o) => {
            let mut out = Map::new();
            for (k, c) in o {
                let segs: Vec<&str> = k.split('.').collect();
                let cat = format!("{at}/{}", super::escape(k));
                let child = unflat(c, &format!("{path}/{}", segs.join("/")), &cat, map);
                let mut sub = path.to_string();
                for s in &segs[..segs.len() - 1] {
                    sub.push('/');
                    sub.push_str(s);
                    map.entry(sub.clone()).or_insert_with(|| cat.clone());
                }
                put(&mut out, &segs, child);
            }
            Value::Object(out)
        }
        leaf => leaf.clone(),
    }
}

/// Puts `v` at `segs` under `node`, making the objects between.
fn put(node: &mut Map<String, Value>, segs: &[&str], v: Value) {
    match segs {
        [] => {}
        [last] => {
            node.insert((*last).to_string(), v);
        }
        [first, rest @ ..] => {
            let next = node
                .entry((*first).to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            if !next.is_object() {
                *next = Value::Object(Map::new());
            }
            if let Value::Object(m) = next {
                put(m, rest, v);
            }
        }
    }
}

/// An OTLP attribute's value: `stringValue`, `intValue`, … (its key).
fn otlp_value(v: &Value) -> Option<(&'static str, Value)> {
    let o = v.as_object()?;
    for k in ["stringValue", "boolValue", "intValue", "doubleValue"] {
        if let Some(x) = o.get(k) {
            return Some((k, x.clone()));
        }
    }
    if let Some(vals) = o.get("arrayValue").and_then(|a| a.get("values")) {
        let items = vals.as_array()?;
        let plain: Vec<Value> = items
            .iter()
            .filter_map(|x| otlp_value(x).map(|(_, v)| v))
            .collect();
        return Some(("arrayValue", Value::Array(plain)));
    }
    None
}

/// The attribute tree of a span at `p`, when it has attributes.
fn attributes(span: &Value, p: &str) -> Option<Tree> {
    let o = span.as_object()?;
    let mut t = Tree::new();
    // `SpanAttributes`: the OpenTelemetry collector's ClickHouse table
    let key = if o.contains_key("SpanAttributes") {
        "SpanAttributes"
    } else {
        "attributes"
    };
    match o.get(key) {
        Some(a @ Value::Object(_)) => t.walk(&mut Vec::new(), a, &format!("{p}/{key}")),
        Some(Value::Array(list)) => {
            for (i, kv) in list.iter().enumerate() {
                let Some(name) = kv.get("key").and_then(Value::as_str) else {
                    continue;
                };
                let Some((vk, val)) = kv.get("value").and_then(otlp_value) else {
                    continue;
                };
                let segs: Vec<String> = name.split('.').map(str::to_string).collect();
                t.insert(&segs, val, &format!("{p}/{key}/{i}/value/{vk}"));
            }
        }
        _ => {
            // a data frame row: `attributes.llm.input_messages`, …
            let mut any = false;
            for (k, v) in o {
                if let Some(rest) = k.strip_prefix("attributes.") {
                    any = true;
                    let mut segs: Vec<String> = rest.split('.').map(str::to_string).collect();
                    t.walk(&mut segs, v, &format!("{p}/{}", super::escape(k)));
                }
            }
            if !any {
                return None;
            }
        }
    }
    Some(t)
}

/// The items of a list node (a list, or an object keyed by indices), in
/// index order, each with its path.
fn items<'a>(t: &'a Tree, path: &str) -> Vec<(String, &'a Value)> {
    match t.get(path) {
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(k, v)| (format!("{path}/{k}"), v))
            .collect(),
        Some(Value::Object(o)) => {
            let mut v: Vec<(usize, &String, &Value)> = o
                .iter()
                .filter_map(|(k, v)| Some((k.parse::<usize>().ok()?, k, v)))
                .collect();
            v.sort_by_key(|x| x.0);
            v.into_iter()
                .map(|(_, k, v)| (format!("{path}/{k}"), v))
                .collect()
        }
        _ => Vec::new(),
    }
}

/// A value that may be JSON text: the text parsed, else itself.
fn decoded(v: &Value) -> Value {
    match v {
        Value::String(s) => serde_json::from_str(s).unwrap_or_else(|_| v.clone()),
        other => other.clone(),
    }
}

/// Which convention a span's attributes follow.
#[derive(Clone, Copy, PartialEq)]
enum Convention {
    /// `gen_ai.input.messages` / `gen_ai.output.messages` (parts).
    Parts,
    /// `gen_ai.prompt.N` / `gen_ai.completion.N` (flattened).
    Flat,
    /// `llm.input_messages.N.message` (OpenInference).
    OpenInference,
}

fn convention(t: &Tree) -> Option<Convention> {
    if t.get("/gen_ai/input/messages").is_some() || t.get("/gen_ai/output/messages").is_some() {
        Some(Convention::Parts)
    } else if t.get("/llm/input_messages").is_some() || t.get("/llm/output_messages").is_some() {
        Some(Convention::OpenInference)
    } else if [
        "/gen_ai/prompt",
        "/gen_ai/completion",
        "/llm/prompts",
        "/llm/completions",
    ]
    .iter()
    .any(|k| t.get(k).is_some())
    {
        Some(Convention::Flat)
    } else {
        None
    }
}

/// Whether an object looks like a span (so a list of them is a trace).
fn is_span(v: &Value) -> bool {
    v.as_object().is_some_and(|o| {
        o.contains_key("attributes")
            || o.contains_key("SpanAttributes")
            || o.keys().any(|k| k.starts_with("attributes."))
    })
}

/// A span, a list of spans or an OTLP export holding a model call.
pub(super) fn spans(v: &Value, p: &str) -> Option<Found> {
    let mut found: Vec<(String, &Value)> = Vec::new();
    match v {
        Value::Object(o) if o.contains_key("resourceSpans") => {
            for (i, rs) in o.get("resourceSpans")?.as_array()?.iter().enumerate() {
                let scopes = rs
                    .get("scopeSpans")
                    .or_else(|| rs.get("instrumentationLibrarySpans"));
                let key = if rs.get("scopeSpans").is_some() {
                    "scopeSpans"
                } else {
                    "instrumentationLibrarySpans"
                };
                for (j, ss) in scopes
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .enumerate()
                {
                    for (k, s) in ss
                        .get("spans")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .enumerate()
                    {
                        found.push((format!("{p}/resourceSpans/{i}/{key}/{j}/spans/{k}"), s));
                    }
                }
            }
        }
        Value::Array(a) if !a.is_empty() && a.iter().all(is_span) => {
            for (k, s) in a.iter().enumerate() {
                found.push((format!("{p}/{k}"), s));
            }
        }
        v if is_span(v) => found.push((p.to_string(), v)),
        _ => return None,
    }
    // the last model span (its input holds the turns before it)
    let (sp, t, conv) = found.iter().rev().find_map(|(sp, s)| {
        let t = attributes(s, sp)?;
        let c = convention(&t)?;
        Some((sp.clone(), t, c))
    })?;
    let shape = if conv == Convention::OpenInference {
        "openinference"
    } else {
        "otel"
    };
    let mut f = Found::moved(shape, &sp, Value::Null);
    f.remap.clear();
    let mut r = Reader {
        f,
        messages: Vec::new(),
        span: sp,
    };
    let tools = match conv {
        Convention::Parts => r.parts(&t),
        Convention::Flat => r.flat(&t),
        Convention::OpenInference => r.openinference(&t),
    };
    let Reader { f, messages, .. } = r;
    if messages.is_empty() {
        return None;
    }
    f.conversation(messages, tools)
}

/// Builds the conversation and its map back to the document.
struct Reader {
    f: Found,
    messages: Vec<Value>,
    span: String,
}

impl Reader {
    fn at(&self, t: &Tree, path: &str) -> String {
        t.pointer(path).unwrap_or_else(|| self.span.clone())
    }

    /// Adds a message whose calls are `calls` (each with the document
    /// pointers of the call and of its arguments).
    fn push(&mut self, mut msg: Value, calls: Vec<(Value, String, String)>, at: String) {
        let n = self.messages.len();
        if !calls.is_empty() {
            let mut list = Vec::new();
            for (m, (c, cp, ap)) in calls.into_iter().enumerate() {
                self.f.map(
                    format!("/messages/{n}/tool_calls/{m}/function/arguments"),
                    ap,
                    false,
                );
                self.f
                    .map(format!("/messages/{n}/tool_calls/{m}"), cp, false);
                list.push(c);
            }
            msg["tool_calls"] = Value::Array(list);
        }
        self.f.map(format!("/messages/{n}"), at, false);
        self.messages.push(msg);
    }

    /// OpenTelemetry GenAI messages of parts (`gen_ai.input.messages`,
    /// `gen_ai.output.messages`); the tools from `gen_ai.tool.definitions`.
    fn parts(&mut self, t: &Tree) -> Option<Value> {
        if let Some(s) = t.get("/gen_ai/system_instructions") {
            let text = parts_text(&decoded(s));
            if !text.is_empty() {
                let at = self.at(t, "/gen_ai/system_instructions");
                self.push(json!({"role": "system", "content": text}), Vec::new(), at);
            }
        }
        for key in ["/gen_ai/input/messages", "/gen_ai/output/messages"] {
            let Some(raw) = t.get(key) else { continue };
            let list = decoded(raw);
            // a list kept as text: every pointer is the attribute's
            let whole = raw.is_string();
            let Some(list) = list.as_array() else {
                continue;
            };
            for (i, m) in list.iter().enumerate() {
                let mpath = format!("{key}/{i}");
                let at = |r: &Reader, sub: &str| {
                    if whole {
                        r.at(t, key)
                    } else {
                        r.at(t, &format!("{mpath}{sub}"))
                    }
                };
                let role = m.get("role").and_then(Value::as_str).unwrap_or("user");
                let parts = m.get("parts").and_then(Value::as_array);
                let mut text = Vec::new();
                let mut calls = Vec::new();
                let mut results = Vec::new();
                for (j, part) in parts.into_iter().flatten().enumerate() {
                    match part.get("type").and_then(Value::as_str) {
                        Some("text") => {
                            if let Some(c) = part.get("content").and_then(Value::as_str) {
                                text.push(c.to_string());
                            }
                        }
                        Some("tool_call") => {
                            let mut c = json!({"function": {
                                "name": part.get("name").cloned().unwrap_or(Value::Null),
                                "arguments": part.get("arguments").cloned().unwrap_or(json!({}))}});
                            if let Some(id) = part.get("id").filter(|i| i.is_string()) {
                                c["id"] = id.clone();
                            }
                            let cp = at(self, &format!("/parts/{j}"));
                            let ap = at(self, &format!("/parts/{j}/arguments"));
                            calls.push((c, cp, ap));
                        }
                        Some("tool_call_response") => {
                            let out = part.get("response").or_else(|| part.get("result"));
                            results.push((
                                part.get("id").cloned(),
                                out.cloned(),
                                at(self, &format!("/parts/{j}")),
                            ));
                        }
                        _ => {}
                    }
                }
                for (id, out, rp) in results {
                    let mut r =
                        json!({"role": "tool", "content": super::result_text(out.as_ref())});
                    if let Some(id) = id.filter(Value::is_string) {
                        r["tool_call_id"] = id;
                    }
                    self.push(r, Vec::new(), rp);
                }
                if !text.is_empty()
                    || !calls.is_empty()
                    || (role != "tool" && parts.is_some_and(|p| p.is_empty()))
                {
                    let msg = json!({"role": role, "content": text.join("\n")});
                    let mp = at(self, "");
                    self.push(msg, calls, mp);
                }
            }
        }
        let defs = t.get("/gen_ai/tool/definitions").map(decoded)?;
        tool_list(&defs)
    }

    /// OpenLLMetry's flattened prompt and completion
    /// (`gen_ai.prompt.N.role`, `gen_ai.completion.N.tool_calls.M.name`);
    /// the tools from `llm.request.functions.N`.
    fn flat(&mut self, t: &Tree) -> Option<Value> {
        // `llm.prompts.N` / `llm.completions.N`: the names before `gen_ai`
        for key in [
            "/gen_ai/prompt",
            "/llm/prompts",
            "/gen_ai/completion",
            "/llm/completions",
        ] {
            for (mpath, m) in items(t, key) {
                let role = match m.get("role").and_then(Value::as_str) {
                    // Gemini's role for the model
                    Some("model") => "assistant",
                    None if key.contains("prompt") => "user",
                    None => "assistant",
                    Some(r) => r,
                };
                let mut msg = json!({"role": role,
                    "content": m.get("content").cloned().unwrap_or(Value::String(String::new()))});
                if let Some(id) = m.get("tool_call_id").filter(|i| i.is_string()) {
                    msg["tool_call_id"] = id.clone();
                }
                let mut calls = Vec::new();
                for (cpath, c) in items(t, &format!("{mpath}/tool_calls")) {
                    let mut call = json!({"function": {
                        "name": c.get("name").cloned().unwrap_or(Value::Null),
                        "arguments": c.get("arguments").cloned().unwrap_or(json!({}))}});
                    if let Some(id) = c.get("id").filter(|i| i.is_string()) {
                        call["id"] = id.clone();
                    }
                    let cp = self.at(t, &format!("{cpath}/name"));
                    let ap = self.at(t, &format!("{cpath}/arguments"));
                    calls.push((call, cp, ap));
                }
                let at = self.at(t, &mpath);
                self.push(msg, calls, at);
            }
        }
        let tools: Vec<Value> = items(t, "/llm/request/functions")
            .into_iter()
            .filter_map(|(_, f)| {
                let mut tool = json!({"name": f.get("name")?.clone()});
                if let Some(d) = f.get("description") {
                    tool["description"] = d.clone();
                }
                tool["parameters"] = f
                    .get("parameters")
                    .map(decoded)
                    .unwrap_or_else(|| json!({"type": "object"}));
                Some(tool)
            })
            .collect();
        (!tools.is_empty()).then(|| Value::Array(tools))
    }

    /// OpenInference's `llm.input_messages` and `llm.output_messages`;
    /// the tools from `llm.tools.N.tool.json_schema`.
    fn openinference(&mut self, t: &Tree) -> Option<Value> {
        for key in ["/llm/input_messages", "/llm/output_messages"] {
            for (ipath, item) in items(t, key) {
                // `message.role` under each index (or the message itself)
                let (mpath, m) = match item.get("message") {
                    Some(m) => (format!("{ipath}/message"), m),
                    None => (ipath.clone(), item),
                };
                let role = m.get("role").and_then(Value::as_str).unwrap_or("user");
                let mut content = m.get("content").cloned().unwrap_or(Value::Null);
                if content.is_null() {
                    // `message.contents.K.message_content.text`
                    let texts: Vec<String> = items(t, &format!("{mpath}/contents"))
                        .into_iter()
                        .filter_map(|(_, c)| {
                            let c = c.get("message_content").unwrap_or(c);
                            c.get("text").and_then(Value::as_str).map(str::to_string)
                        })
                        .collect();
                    content = Value::String(texts.join("\n"));
                }
                let mut msg = json!({"role": role, "content": content});
                if let Some(id) = m.get("tool_call_id").filter(|i| i.is_string()) {
                    msg["tool_call_id"] = id.clone();
                }
                if let Some(name) = m.get("name").filter(|i| i.is_string()) {
                    msg["name"] = name.clone();
                }
                let mut calls = Vec::new();
                for (cpath, c) in items(t, &format!("{mpath}/tool_calls")) {
                    let (tpath, tc) = match c.get("tool_call") {
                        Some(tc) => (format!("{cpath}/tool_call"), tc),
                        None => (cpath.clone(), c),
                    };
                    let func = tc.get("function");
                    let name = func
                        .and_then(|f| f.get("name"))
                        .cloned()
                        .unwrap_or(Value::Null);
                    let args = func
                        .and_then(|f| f.get("arguments"))
                        .cloned()
                        .unwrap_or(json!({}));
                    let mut call = json!({"function": {"name": name, "arguments": args}});
                    if let Some(id) = tc.get("id").filter(|i| i.is_string()) {
                        call["id"] = id.clone();
                    }
                    let cp = self.at(t, &format!("{tpath}/function/name"));
                    let ap = self.at(t, &format!("{tpath}/function/arguments"));
                    calls.push((call, cp, ap));
                }
                // the legacy single call: `message.function_call_name`
                if let Some(name) = m.get("function_call_name").filter(|n| n.is_string()) {
                    let args = m
                        .get("function_call_arguments_json")
                        .cloned()
                        .unwrap_or(json!({}));
                    let cp = self.at(t, &format!("{mpath}/function_call_name"));
                    let ap = self.at(t, &format!("{mpath}/function_call_arguments_json"));
                    calls.push((
                        json!({"function": {"name": name, "arguments": args}}),
                        cp,
                        ap,
                    ));
                }
                let at = self.at(t, &mpath);
                self.push(msg, calls, at);
            }
        }
        let tools: Vec<Value> = items(t, "/llm/tools")
            .into_iter()
            .filter_map(|(_, item)| {
                let tool = item.get("tool").unwrap_or(item);
                let schema = tool.get("json_schema").map(decoded);
                match schema {
                    Some(s) if s.get("name").is_some() || s.get("function").is_some() => Some(s),
                    // only the parameters: named by `tool.name`
                    Some(s) => {
                        let mut t = json!({"name": tool.get("name")?.clone(), "parameters": s});
                        if let Some(d) = tool.get("description") {
                            t["description"] = d.clone();
                        }
                        Some(t)
                    }
                    None => Some(json!({"name": tool.get("name")?.clone(),
                        "parameters": {"type": "object"}})),
                }
            })
            .collect();
        (!tools.is_empty())
            .then(|| Value::Array(tools))
            .and_then(|v| tool_list(&v))
    }
}

/// The text of a list of parts (system instructions).
fn parts_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p.get("content").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{calls, conversations};
    use crate::config::Config;
    use serde_json::{json, Value};

    /// The calls' pointers and the results' ids of a document.
    fn read(doc: &Value) -> (Vec<String>, Vec<Option<String>>, bool) {
        let ts = conversations(doc, None, false, &Config::default());
        assert_eq!(ts.len(), 1, "{doc}");
        let t = &ts[0];
        let ids = t
            .entries
            .iter()
            .filter_map(|e| match &e.kind {
                crate::validate::messages::Kind::Result { id, .. } => Some(id.clone()),
                _ => None,
            })
            .collect();
        (
            calls(t).map(|e| e.pointer.clone()).collect(),
            ids,
            t.tools.is_some(),
        )
    }

    const NAME: &str = "llm.output_messages.0.message.tool_calls.0.tool_call.function.name";
    const ARGS: &str = "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments";

    /// OpenInference attributes read the same whether dotted, as OTLP's
    /// key/value list or as a data frame row, each call pointing at its
    /// own attribute.
    #[test]
    fn openinference_attributes_in_every_form_give_the_same_call() {
        let dotted = json!({"attributes": {
            "llm.input_messages.0.message.role": "user",
            "llm.input_messages.0.message.content": "Weather?",
            "llm.output_messages.0.message.role": "assistant",
            NAME: "get_weather", ARGS: "{\"city\": \"Paris\"}",
            "llm.tools.0.tool.json_schema": "{\"type\": \"function\", \"function\": {\"name\": \"get_weather\", \"parameters\": {\"type\": \"object\"}}}"}});
        let (c, _, tools) = read(&dotted);
        assert_eq!(c, vec![format!("/attributes/{NAME}")]);
        assert!(tools);
        let otlp = json!({"attributes": [
            {"key": "llm.input_messages.0.message.role", "value": {"stringValue": "user"}},
            {"key": NAME, "value": {"stringValue": "get_weather"}},
            {"key": ARGS, "value": {"stringValue": "{}"}}]});
        assert_eq!(read(&otlp).0, vec!["/attributes/1/value/stringValue"]);
        let row = json!([{"attributes.llm.output_messages": [{"message.role": "assistant",
            "message.tool_calls": [{"tool_call.function.name": "get_weather",
                "tool_call.function.arguments": "{}"}]}]}]);
        assert_eq!(
            read(&row).0,
            vec![
                "/0/attributes.llm.output_messages/0/message.tool_calls/0/tool_call.function.name"
            ]
        );
    }

    /// A trace is read as its last model span; a span with no model
    /// messages (a tool's) is passed over.
    #[test]
    fn a_trace_is_its_last_model_span() {
        let msgs = |n: usize| {
            let calls: Vec<Value> = (0..n)
                .map(|i| json!({"type": "tool_call", "id": format!("c{i}"), "name": "f", "arguments": {}}))
                .collect();
            json!([{"role": "assistant", "parts": calls}]).to_string()
        };
        let doc = json!({"resourceSpans": [{"scopeSpans": [{"spans": [
            {"attributes": [{"key": "gen_ai.output.messages", "value": {"stringValue": msgs(1)}}]},
            {"attributes": [{"key": "gen_ai.output.messages", "value": {"stringValue": msgs(2)}}]},
            {"attributes": [{"key": "gen_ai.tool.name", "value": {"stringValue": "f"}}]}]}]}]});
        let (c, _, _) = read(&doc);
        assert_eq!(c.len(), 2);
        assert!(c
            .iter()
            .all(|p| p == "/resourceSpans/0/scopeSpans/0/spans/1/attributes/0/value/stringValue"));
    }

    /// `tool_call_response` parts answer their call by id.
    #[test]
    fn tool_call_responses_are_results() {
        let input = json!([
            {"role": "assistant", "parts": [{"type": "tool_call", "id": "c1", "name": "f", "arguments": {}}]},
            {"role": "tool", "parts": [{"type": "tool_call_response", "id": "c1", "result": "ok"}]}]);
        let doc = json!({"attributes": {"gen_ai.input.messages": input.to_string()}});
        let (c, ids, tools) = read(&doc);
        assert_eq!(c.len(), 1);
        assert_eq!(ids, vec![Some("c1".to_string())]);
        assert!(!tools);
    }
}
