//! Normalising what models write into `{name, arguments}`.
//!
//! Every format parser ends here: names are read from whichever key the model
//! used, arguments are decoded exactly once (a JSON string holding an object
//! becomes the object), and text values from XML-style formats are typed.

use crate::record::Arguments;
use crate::repair::{self, Repair, RepairOptions};
use serde_json::{Map, Value};

/// A call as a format parser found it, before the engine places it.
#[derive(Clone, Debug, PartialEq)]
pub struct ParsedCall {
    /// The function name.
    pub name: String,
    /// The arguments object.
    pub arguments: crate::record::Arguments,
    /// The provider's id, if the markup carried one.
    pub id: Option<String>,
    /// The format id.
    pub format: crate::formats::id::FormatId,
    /// Repairs applied to the arguments.
    pub repairs: Vec<Repair>,
    /// Where this call's markup ends, relative to the block start.
    pub end: usize,
}

impl ParsedCall {
    /// A call of `format` named `name`: no id, no repairs, ending where the
    /// engine places it (`end` 0); struct update syntax sets the others.
    pub fn new(
        name: String,
        arguments: impl Into<crate::record::Arguments>,
        format: crate::formats::id::FormatId,
    ) -> ParsedCall {
        ParsedCall {
            name,
            arguments: arguments.into(),
            id: None,
            format,
            repairs: Vec::new(),
            end: 0,
        }
    }
}

/// Why a value is not a usable call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// The value does not look like a call at all.
    NotCall,
    /// It looks like a call but is broken (`code`, `message`).
    Broken(&'static str, String),
}

/// Name keys, in order of preference.
const NAME_KEYS: [&str; 4] = ["name", "tool_name", "tool", "function"];
/// Argument keys, in order of preference.
const ARG_KEYS: [&str; 5] = ["arguments", "parameters", "args", "input", "params"];
/// Agent-framework spellings of the envelope read only inside a call marker
/// ([`Evidence::Strong`]): LangChain's `{"action": …, "action_input": …}`
/// (its JSON agents) and `{"tool": …, "tool_input": …}` (its `AgentAction`).
/// Unmarked they stay text: `action` is an ordinary word in event logs
/// (`{"action": "message"}`), and LangChain's own
/// `{"action": "Final Answer", "action_input": "…"}` is an answer, not a call.
const AGENT_NAME_KEYS: [&str; 1] = ["action"];
/// See [`AGENT_NAME_KEYS`].
const AGENT_ARG_KEYS: [&str; 2] = ["tool_input", "action_input"];
/// Envelope members that are never arguments when a marked call writes its
/// arguments beside the name ([`flat_arguments`]): the call id.
const ID_KEYS: [&str; 3] = ["id", "tool_call_id", "call_id"];

/// How strict the evidence for a call must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evidence {
    /// Inside an unambiguous call marker: a name alone is enough.
    Strong,
    /// Unmarked or in a generic fence: needs a name and an arguments key.
    Weak,
}

/// One call extracted from a JSON value.
#[derive(Clone, Debug, PartialEq)]
pub struct CallParts {
    /// The function name.
    pub name: String,
    /// The arguments object.
    pub arguments: Map<String, Value>,
    /// The provider's id.
    pub id: Option<String>,
    /// Repairs made while decoding string arguments.
    pub repairs: Vec<Repair>,
}

/// Extracts the calls from a JSON value: a call object, an OpenAI-, Gemini-
/// or legacy-shaped wrapper, a `{"tool_calls": [...]}` object, or an array of
/// any of these.
pub fn calls_from_value(v: &Value, ev: Evidence) -> Result<Vec<CallParts>, Shape> {
    calls_from_owned(v.clone(), ev)
}

/// [`calls_from_value`] taking the value, so arguments are moved, not copied.
pub fn calls_from_owned(v: Value, ev: Evidence) -> Result<Vec<CallParts>, Shape> {
    match v {
        Value::Array(items) => {
            if items.is_empty() {
                return Err(Shape::NotCall);
            }
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                out.extend(calls_from_owned(item, ev)?);
            }
            Ok(out)
        }
        Value::Object(mut obj) => {
            if obj.len() <= 2 && matches!(field(&obj, "tool_calls"), Some(Value::Array(_))) {
                if let Some(Value::Array(list)) = obj.remove("tool_calls") {
                    let mut out = Vec::with_capacity(list.len());
                    for item in list {
                        out.extend(calls_from_owned(item, ev)?);
                    }
                    return if out.is_empty() {
                        Err(Shape::NotCall)
                    } else {
                        Ok(out)
                    };
                }
            }
            if let Some(parts) = tgi_grammar_call(&mut obj) {
                return parts.map(|p| vec![p]);
            }
            for wrapper in ["function", "functionCall", "function_call"] {
                let named = matches!(field(&obj, wrapper), Some(Value::Object(inner))
                    if field(inner, "name").is_some_and(Value::is_string));
                if named {
                    let id = id_of(&obj);
                    if let Some(Value::Object(inner)) = obj.remove(wrapper) {
                        let mut parts = call_from_owned_object(inner, Evidence::Strong)?;
                        if parts.id.is_none() {
                            parts.id = id;
                        }
                        return Ok(vec![parts]);
                    }
                }
            }
            call_from_owned_object(obj, ev).map(|p| vec![p])
        }
        _ => Err(Shape::NotCall),
    }
}

/// Text Generation Inference's tool grammar makes a model write
/// `{"function": {"_name": NAME, ...arguments}}`, the arguments beside
/// `_name`: read as that call (`None`: not this shape). Its `no_tool` is the
/// grammar's way of answering in prose, never a call.
fn tgi_grammar_call(obj: &mut Map<String, Value>) -> Option<Result<CallParts, Shape>> {
    let named = obj.len() == 1
        && matches!(field(obj, "function"), Some(Value::Object(inner))
            if field(inner, "_name").is_some_and(Value::is_string));
    if !named {
        return None;
    }
    let Some(Value::Object(inner)) = obj.remove("function") else {
        return None;
    };
    let mut name = String::new();
    let mut arguments = Map::new();
    for (k, v) in inner {
        match (k.as_str(), v) {
            ("_name", Value::String(n)) => name = n.trim().to_string(),
            (_, v) => {
                arguments.insert(k, v);
            }
        }
    }
    Some(match name.as_str() {
        "no_tool" => Err(Shape::NotCall),
        "" => Err(Shape::Broken("TLP-001", "function name is empty".into())),
        _ => Ok(CallParts {
            name,
            arguments,
            id: None,
            repairs: Vec::new(),
        }),
    })
}

/// `obj[key]`. Call objects have a handful of keys, and comparing them in
/// order is several times cheaper than hashing `key` (serde_json's map
/// hashes with SipHash); larger maps use the index.
#[inline]
pub(crate) fn field<'a>(obj: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    if obj.len() <= 8 {
        obj.iter().find_map(|(k, v)| (k == key).then_some(v))
    } else {
        obj.get(key)
    }
}

fn id_of(obj: &Map<String, Value>) -> Option<String> {
    for key in ["id", "tool_call_id", "call_id"] {
        match field(obj, key) {
            Some(Value::String(s)) if !s.is_empty() => return Some(s.clone()),
            Some(Value::Number(n)) => return Some(n.to_string()),
            _ => {}
        }
    }
    None
}

/// Reads one `{name, arguments}` object (any key spelling).
pub fn call_from_object(obj: &Map<String, Value>, ev: Evidence) -> Result<CallParts, Shape> {
    call_from_owned_object(obj.clone(), ev)
}

/// [`call_from_object`] taking the object, so arguments are moved.
pub fn call_from_owned_object(
    mut obj: Map<String, Value>,
    ev: Evidence,
) -> Result<CallParts, Shape> {
    let strong = ev == Evidence::Strong;
    let name_key = NAME_KEYS
        .iter()
        .chain(if strong { &AGENT_NAME_KEYS[..] } else { &[] })
        .copied()
        .find(|k| field(&obj, k).is_some_and(Value::is_string));
    let Some(name_key) = name_key else {
        return Err(Shape::NotCall);
    };
    let name = field(&obj, name_key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .trim()
        .to_string();
    let arg_key = ARG_KEYS
        .iter()
        .chain(if strong { &AGENT_ARG_KEYS[..] } else { &[] })
        .copied()
        .find(|k| field(&obj, k).is_some());
    if is_tool_definition(&obj, arg_key) {
        return Err(Shape::NotCall);
    }
    if ev == Evidence::Weak {
        // Unmarked JSON is a call only with the full shape.
        match arg_key.and_then(|k| field(&obj, k)) {
            Some(Value::Object(_)) | Some(Value::String(_)) => {}
            _ => return Err(Shape::NotCall),
        }
        if obj.len() > 4 {
            return Err(Shape::NotCall);
        }
    }
    if name.is_empty() {
        return Err(Shape::Broken("TLP-001", "function name is empty".into()));
    }
    let id = id_of(&obj);
    let Some(arg_key) = arg_key else {
        let (arguments, repairs) = flat_arguments(obj, name_key);
        return Ok(CallParts {
            name,
            arguments,
            id,
            repairs,
        });
    };
    let args = obj.remove(arg_key);
    let (arguments, repairs) = arguments_from_owned(args)?;
    Ok(CallParts {
        name,
        arguments,
        id,
        repairs,
    })
}

/// The arguments of a call object with a name and no arguments key: the
/// members beside the name (`{"name": "x", "q": 1}` gives `{"q": 1}`), with
/// a [`RepairKind::FlatArguments`](crate::repair::RepairKind::FlatArguments)
/// repair, so a tool never runs with nothing while the model wrote its
/// arguments. The call id and a `"type"` naming the envelope (`"function"`,
/// `"tool_call"`, …) are not arguments; a name alone gives `{}` and no
/// repair (a call without parameters). Only reached for marked calls:
/// unmarked JSON needs an arguments key ([`Evidence::Weak`]).
fn flat_arguments(obj: Map<String, Value>, name_key: &str) -> (Map<String, Value>, Vec<Repair>) {
    let envelope_type = matches!(field(&obj, "type"), Some(Value::String(t))
        if matches!(t.as_str(), "function" | "tool_call" | "tool_use" | "function_call" | "tool"));
    // filtered, not removed in place: the arguments keep the model's order
    let obj: Map<String, Value> = obj
        .into_iter()
        .filter(|(k, _)| {
            k != name_key && !ID_KEYS.contains(&k.as_str()) && !(envelope_type && k == "type")
        })
        .collect();
    if obj.is_empty() {
        return (obj, Vec::new());
    }
    let repair = Repair {
        kind: repair::RepairKind::FlatArguments,
        offset: 0,
    };
    (obj, vec![repair])
}

/// Keywords a JSON Schema object may carry at its top level.
const SCHEMA_KEYS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "description",
    "title",
    "$schema",
    "$defs",
    "definitions",
    "$id",
];

/// True for a JSON Schema of an object: `"type": "object"`, `properties`
/// an object, and nothing but schema keywords.
fn is_object_schema(v: &Value) -> bool {
    let Value::Object(m) = v else {
        return false;
    };
    is_object_schema_map(m)
}

/// [`is_object_schema`] of a map.
pub(crate) fn is_object_schema_map(m: &Map<String, Value>) -> bool {
    matches!(field(m, "type"), Some(Value::String(t)) if t == "object")
        && matches!(field(m, "properties"), Some(Value::Object(_)))
        && m.keys().all(|k| SCHEMA_KEYS.contains(&k.as_str()))
}

/// True when a call-shaped object is a tool *definition*: its parameters
/// are a JSON Schema (`{"name", "description", "parameters": {"type":
/// "object", "properties": …}}`, OpenAI's and most templates' tool lists),
/// or it carries a description beside a schema under any arguments key.
/// A system prompt's tool list is never a call, and no model calls a tool
/// with a schema of its own parameters as the arguments.
fn is_tool_definition(obj: &Map<String, Value>, arg_key: Option<&str>) -> bool {
    for key in ["input_schema", "parameters_json_schema", "inputSchema"] {
        if field(obj, key).is_some_and(is_object_schema) {
            return true;
        }
    }
    let Some(key) = arg_key else {
        return false;
    };
    let Some(args) = field(obj, key) else {
        return false;
    };
    is_object_schema(args)
        && (key == "parameters" || matches!(field(obj, "description"), Some(Value::String(_))))
}

/// The commonest call body, `{"name": "…", "arguments": {…}}` with exactly
/// these two keys, once each, decoded straight into the name and the
/// arguments (no map for the envelope; arguments without escapes or
/// repeated keys kept as their compact text, [`crate::scan::compact`]).
/// `None` for any other body, which then takes the general path
/// ([`calls_from_owned`]); for this shape both give the same call.
///
/// With `tally` the same answer without the payload: `Some` exactly when
/// it would be, with an empty name and empty arguments, and (for the
/// envelope, the common case) no allocation
/// ([`crate::formats::ParseCx::tally`]).
pub fn plain_call(body: &str, tally: bool) -> Option<(String, Arguments)> {
    plain_call_read(body, tally, true)
}

/// [`plain_call`], with `envelope` false for a body known not to be the
/// envelope that [`crate::scan::compact`] reads (its block's scanner
/// read it, [`crate::formats::ParseCx::plain`]): only the decoder is
/// asked, which gives `plain_call`'s answer for such a body.
pub fn plain_call_read(body: &str, tally: bool, envelope: bool) -> Option<(String, Arguments)> {
    if tally {
        if envelope {
            if let Some(name) = crate::scan::compact::envelope_name(body) {
                return (!name.trim().is_empty()).then(|| (String::new(), Arguments::empty()));
            }
        }
        // `name_and_arguments` answers `None` exactly when `envelope_name` does
        let _ = plain_call_read(body, false, false)?;
        return Some((String::new(), Arguments::empty()));
    }
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Plain {
        name: String,
        arguments: Map<String, Value>,
    }
    let read = if envelope {
        crate::scan::compact::name_and_arguments(body)
    } else {
        None
    };
    if let Some((name, text)) = read {
        let trimmed = name.trim();
        // the general path gives the error for an empty name
        return (!trimmed.is_empty()).then(|| (trimmed.to_string(), Arguments::from_compact(text)));
    }
    // serde's derived struct would also take a two-element array
    if !body.starts_with('{') {
        return None;
    }
    let plain: Plain = serde_json::from_str(body).ok()?;
    let trimmed = plain.name.trim();
    if trimmed.is_empty() {
        return None;
    }
    let name = if trimmed.len() == plain.name.len() {
        plain.name
    } else {
        trimmed.to_string()
    };
    Some((name, plain.arguments.into()))
}

/// Decodes an arguments value exactly once: an object stays, a JSON string
/// holding an object is decoded (repaired if needed), absent or `null` is `{}`.
pub fn arguments_from(v: Option<&Value>) -> Result<(Map<String, Value>, Vec<Repair>), Shape> {
    arguments_from_owned(v.cloned())
}

/// [`arguments_from`] taking the value, so an object is moved, not copied.
pub fn arguments_from_owned(v: Option<Value>) -> Result<(Map<String, Value>, Vec<Repair>), Shape> {
    match v {
        None | Some(Value::Null) => Ok((Map::new(), Vec::new())),
        Some(Value::Object(m)) => Ok((m, Vec::new())),
        Some(Value::String(s)) => {
            if s.trim().is_empty() {
                return Ok((Map::new(), Vec::new()));
            }
            match repair::parse_value(&s, &RepairOptions::default()) {
                Ok((Value::Object(m), reps)) => Ok((m, reps)),
                Ok(_) => Err(Shape::Broken(
                    "TLP-002",
                    "arguments string does not hold a JSON object".into(),
                )),
                Err(e) => Err(Shape::Broken(
                    "TLP-002",
                    format!("arguments string is not valid JSON: {}", e.message),
                )),
            }
        }
        Some(other) => Err(Shape::Broken(
            "TLP-002",
            format!("arguments must be an object, got {}", type_name(&other)),
        )),
    }
}

/// The JSON type name of a value, for messages.
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Strips exactly one leading and one trailing newline (`\n` or `\r\n`).
pub fn strip_one_newline(s: &str) -> &str {
    let s = s
        .strip_prefix("\r\n")
        .or_else(|| s.strip_prefix('\n'))
        .unwrap_or(s);
    s.strip_suffix("\r\n")
        .or_else(|| s.strip_suffix('\n'))
        .unwrap_or(s)
}

/// The value of an XML-style parameter from the text between its tags:
/// exactly one leading and one trailing newline stripped (the framing the
/// templates write), or, when the closing tag stands indented on its own
/// line (`<parameter=a>\n      1\n    </parameter>`, XML pretty-printed by
/// a model or a client), the lines between the tags with their common
/// indentation removed. A value written as the template writes it is never
/// touched by the second rule: there the closing tag starts its line.
pub fn strip_value_framing(s: &str) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    let Some(nl) = s.rfind('\n') else {
        return Cow::Borrowed(strip_one_newline(s));
    };
    let tail = &s[nl + 1..];
    let first = s.strip_prefix("\r\n").or_else(|| s.strip_prefix('\n'));
    let (Some(rest), false) = (first, tail.is_empty()) else {
        return Cow::Borrowed(strip_one_newline(s));
    };
    if !tail.bytes().all(|b| b == b' ' || b == b'\t') {
        return Cow::Borrowed(strip_one_newline(s));
    }
    // `rest` runs to the newline before the closing tag's indentation
    let body = &rest[..rest.len().saturating_sub(tail.len() + 1)];
    let body = body.strip_suffix('\r').unwrap_or(body);
    let indent = body
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start_matches([' ', '\t']).len())
        .min();
    // only blanks between the tags: the value is empty
    let Some(indent) = indent else {
        return Cow::Borrowed("");
    };
    if indent == 0 {
        return Cow::Borrowed(body);
    }
    let mut out = String::with_capacity(body.len());
    for (k, line) in body.split('\n').enumerate() {
        if k > 0 {
            out.push('\n');
        }
        out.push_str(line.get(indent..).unwrap_or_else(|| line.trim_start()));
    }
    Cow::Owned(out)
}

/// Types a text value without a schema: exactly an integer, a float, `true`
/// or `false` becomes that JSON value; anything else stays a string.
pub fn type_text(s: &str) -> Value {
    match s {
        "true" => return Value::Bool(true),
        "false" => return Value::Bool(false),
        _ => {}
    }
    if is_json_number(s.as_bytes()) {
        if let Ok(Value::Number(n)) = serde_json::from_str::<Value>(s) {
            return Value::Number(n);
        }
    }
    Value::String(s.to_string())
}

/// True when `b` is exactly a JSON number.
fn is_json_number(b: &[u8]) -> bool {
    let mut i = 0;
    if b.first() == Some(&b'-') {
        i += 1;
    }
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let int_len = i - int_start;
    if int_len == 0 || (int_len > 1 && b[int_start] == b'0') {
        return false;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let f = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == f {
            return false;
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let e = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == e {
            return false;
        }
    }
    i == b.len()
}

/// Parses text as a JSON value, repairing it when needed with `opts`.
pub fn parse_json(
    text: &str,
    opts: &RepairOptions,
) -> Result<(Value, Vec<Repair>), repair::RepairError> {
    match serde_json::from_str::<Value>(text) {
        Ok(v) => Ok((v, Vec::new())),
        Err(_) => repair::parse_value(text, opts),
    }
}

/// Normalises a name: trims white space and a `functions.` namespace, or
/// Gemini's `default_api` one (`default_api.NAME`, `default_api:NAME`).
pub fn clean_name(s: &str) -> String {
    let s = s.trim();
    let s = s.strip_prefix("functions.").unwrap_or(s);
    let s = s
        .strip_prefix("default_api.")
        .or_else(|| s.strip_prefix("default_api:"))
        .filter(|rest| !rest.trim().is_empty())
        .unwrap_or(s);
    s.trim().to_string()
}

/// The separator of MCP-style combined names: `server___tool`.
pub const SERVER_SEPARATOR: &str = "___";

/// Splits an MCP-style name `server___tool` at the first `___` into
/// `(server, tool)`. Both parts must be non-empty, so `___x`, `x___` and
/// names without the separator give `None`; `a___b___c` is `("a", "b___c")`.
pub fn split_server_name(name: &str) -> Option<(&str, &str)> {
    // a name is short and mostly has no `_` at all: a byte search first
    // (`split_once` would build a substring searcher for every call)
    let bytes = name.as_bytes();
    let at = memchr::memchr_iter(b'_', bytes).find(|&i| bytes[i..].starts_with(b"___"))?;
    let (server, tool) = (&name[..at], &name[at + SERVER_SEPARATOR.len()..]);
    if server.is_empty() || tool.is_empty() {
        return None;
    }
    Some((server, tool))
}

/// Joins a server and a tool into the MCP-style name `server___tool`. An
/// empty server, or a tool that already carries one, leaves the tool as is.
pub fn join_server_name(server: &str, tool: &str) -> String {
    if server.is_empty() || split_server_name(tool).is_some() {
        tool.to_string()
    } else {
        format!("{server}{SERVER_SEPARATOR}{tool}")
    }
}

/// Adds `server` and `tool` to a `tool_call` record's extra fields when the
/// name is `server___tool` (see [`split_server_name`]). The record's `name`
/// stays the full name the model wrote, so it still matches the tools file
/// and can be executed as is; records of other names get neither field.
pub fn add_server_fields(name: &str, extra: &mut Map<String, Value>) {
    if let Some((server, tool)) = split_server_name(name) {
        extra.insert("server".into(), Value::String(server.to_string()));
        extra.insert("tool".into(), Value::String(tool.to_string()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The fast path agrees with the general one wherever it answers, and
    /// leaves every other shape to it.
    #[test]
    fn plain_call_matches_the_general_path() {
        for body in [
            r#"{"name": "f", "arguments": {"a": 1, "b": [1.50, "x\u00e9"]}}"#,
            r#"{"arguments": {}, "name": "  f  "}"#,
            r#"{"name": "s___t", "arguments": {"a": {"a": 1, "a": 2}}}"#,
            r#"{"name": "f", "arguments": {"a": 1e5, "b": {"c": [true, null, "x y"]}}}"#,
            "{\"arguments\":\n {\"q\": -0.50E-3},\n \"name\": \"g\"}",
        ] {
            let (name, arguments) = plain_call(body, false).expect("the plain shape");
            let tally = plain_call(body, true).expect("the same answer");
            assert_eq!(tally.0, "");
            assert_eq!(tally.1, json!({}));
            let v: Value = serde_json::from_str(body).unwrap();
            let general = calls_from_owned(v, Evidence::Weak).unwrap();
            assert_eq!(general.len(), 1);
            assert_eq!(name, general[0].name);
            assert_eq!(*arguments, Value::Object(general[0].arguments.clone()));
            assert_eq!(general[0].id, None);
            // kept as text exactly when it can be copied through
            let mut written = Vec::new();
            crate::ndjson::write_value(&mut written, &Value::Object(general[0].arguments.clone()));
            match arguments.compact_text() {
                Some(text) => assert_eq!(text.as_bytes(), &written[..], "{body}"),
                None => assert!(
                    body.contains('\\') || body.contains(r#""a": 1, "a""#),
                    "{body}"
                ),
            }
        }
        for body in [
            r#"["f", {"a": 1}]"#,
            r#"{"name": "f", "arguments": "{\"a\": 1}"}"#,
            r#"{"name": "f", "arguments": {}, "id": "c1"}"#,
            r#"{"name": "f", "name": "g", "arguments": {}}"#,
            r#"{"name": " ", "arguments": {}}"#,
            r#"{"name": "f", "arguments": null}"#,
            r#"{"name": "f", "arguments": {},}"#,
        ] {
            assert!(plain_call(body, false).is_none(), "{body}");
            assert!(plain_call(body, true).is_none(), "{body}");
        }
    }

    #[test]
    fn reads_every_key_spelling() {
        for v in [
            json!({"name": "f", "arguments": {"a": 1}}),
            json!({"name": "f", "parameters": {"a": 1}}),
            json!({"tool": "f", "parameters": {"a": 1}}),
            json!({"tool_name": "f", "args": {"a": 1}}),
            json!({"type": "function", "function": {"name": "f", "arguments": "{\"a\": 1}"}}),
            json!({"functionCall": {"name": "f", "args": {"a": 1}}}),
        ] {
            let calls = calls_from_value(&v, Evidence::Weak).expect("call");
            assert_eq!(calls[0].name, "f");
            assert_eq!(Value::Object(calls[0].arguments.clone()), json!({"a": 1}));
        }
    }

    #[test]
    fn weak_evidence_needs_arguments() {
        let v = json!({"name": "Alice", "age": 30});
        assert_eq!(calls_from_value(&v, Evidence::Weak), Err(Shape::NotCall));
        let v = json!({"name": "list_tasks"});
        assert_eq!(
            calls_from_value(&v, Evidence::Strong).expect("call")[0].name,
            "list_tasks"
        );
    }

    #[test]
    fn marked_flat_arguments_are_the_arguments() {
        let v = json!({"id": "c1", "type": "function", "name": "f", "q": 1, "type2": 2});
        let c = &calls_from_value(&v, Evidence::Strong).expect("call")[0];
        assert_eq!(c.id.as_deref(), Some("c1"));
        assert_eq!(
            Value::Object(c.arguments.clone()),
            json!({"q": 1, "type2": 2})
        );
        assert_eq!(c.repairs[0].kind, repair::RepairKind::FlatArguments);
        // a "type" that is not the envelope's is an argument
        let v = json!({"name": "f", "type": "pdf"});
        let c = &calls_from_value(&v, Evidence::Strong).expect("call")[0];
        assert_eq!(Value::Object(c.arguments.clone()), json!({"type": "pdf"}));
        let c = &calls_from_value(&json!({"name": "f"}), Evidence::Strong).expect("call")[0];
        assert!(c.arguments.is_empty() && c.repairs.is_empty());
        assert_eq!(
            calls_from_value(&json!({"name": "f", "q": 1}), Evidence::Weak),
            Err(Shape::NotCall)
        );
    }

    #[test]
    fn agent_keys_only_inside_a_marker() {
        for v in [
            json!({"action": "f", "action_input": {"a": 1}}),
            json!({"tool": "f", "tool_input": {"a": 1}}),
        ] {
            let c = &calls_from_value(&v, Evidence::Strong).expect("call")[0];
            assert_eq!((c.name.as_str(), c.repairs.len()), ("f", 0));
            assert_eq!(Value::Object(c.arguments.clone()), json!({"a": 1}));
            assert_eq!(calls_from_value(&v, Evidence::Weak), Err(Shape::NotCall));
        }
    }

    #[test]
    fn string_arguments_decoded_once() {
        let v = json!({"name": "f", "arguments": "{\"q\": \"{\\\"x\\\": 1}\"}"});
        let c = &calls_from_value(&v, Evidence::Strong).expect("call")[0];
        assert_eq!(
            Value::Object(c.arguments.clone()),
            json!({"q": "{\"x\": 1}"})
        );
    }

    #[test]
    fn server_names_split_and_join() {
        assert_eq!(
            split_server_name("github___create_issue"),
            Some(("github", "create_issue"))
        );
        assert_eq!(split_server_name("a___b___c"), Some(("a", "b___c")));
        assert_eq!(split_server_name("___x"), None);
        assert_eq!(split_server_name("x___"), None);
        assert_eq!(split_server_name("read_file"), None);
        assert_eq!(
            join_server_name("github", "create_issue"),
            "github___create_issue"
        );
        assert_eq!(join_server_name("", "f"), "f");
        assert_eq!(join_server_name("s", "t___u"), "t___u");
        let mut extra = Map::new();
        add_server_fields("fs___read", &mut extra);
        assert_eq!(
            Value::Object(extra),
            json!({"server": "fs", "tool": "read"})
        );
        let mut extra = Map::new();
        add_server_fields("read", &mut extra);
        assert!(extra.is_empty());
    }

    #[test]
    fn text_typing() {
        assert_eq!(type_text("42"), json!(42));
        assert_eq!(
            type_text("-1.5e3"),
            serde_json::from_str::<Value>("-1.5e3").expect("number")
        );
        assert_eq!(type_text("true"), json!(true));
        assert_eq!(type_text("007"), json!("007"));
        assert_eq!(type_text("null"), json!("null"));
        assert_eq!(type_text("12 apples"), json!("12 apples"));
        assert_eq!(strip_one_newline("\n\n  x\n\n"), "\n  x\n");
    }

    #[test]
    fn value_framing() {
        // as the template writes it: one newline each side
        assert_eq!(strip_value_framing("\n    return x\n"), "    return x");
        assert_eq!(strip_value_framing("\n\n  x\n\n"), "\n  x\n");
        assert_eq!(strip_value_framing("  spaced  "), "  spaced  ");
        // pretty-printed: the closing tag indented on its own line
        assert_eq!(strip_value_framing("\n      1\n    "), "1");
        assert_eq!(
            strip_value_framing("\n      def f():\n          return 1\n    "),
            "def f():\n    return 1"
        );
        assert_eq!(strip_value_framing("\n    "), "");
        assert_eq!(strip_value_framing("\n      \n    "), "");
        assert_eq!(strip_value_framing("\r\n  a\r\n  "), "a");
        // a value that only ends in blanks on a line of its own, without the
        // leading framing newline, is left as written
        assert_eq!(strip_value_framing("a\n  "), "a\n  ");
    }
}

/// For a JSON body cut off at end of input: when nothing but closing
/// brackets is missing (the cut fell right after a complete value), returns
/// the body with its closers appended and the offset where they go.
/// A cut inside a string, a number, a literal, a key, or after a `:` or `,`
/// lost content, and gives `None`.
pub fn close_truncated(body: &str) -> Option<(String, usize)> {
    let b = body.as_bytes();
    let mut stack: Vec<u8> = Vec::new();
    let mut in_str: u8 = 0;
    let mut esc = false;
    // what the last complete token was: b'v' value string, b'k' key string,
    // b'}' / b']' closers, b'o' anything else
    let mut last = b'o';
    let mut expect_key = false;
    for &c in b {
        if in_str != 0 {
            if esc {
                esc = false;
            } else if c == b'\\' {
                esc = true;
            } else if c == in_str {
                in_str = 0;
                last = if expect_key { b'k' } else { b'v' };
                expect_key = false;
            }
            continue;
        }
        match c {
            b'"' => in_str = b'"',
            b'{' => {
                stack.push(b'}');
                expect_key = true;
                last = b'o';
            }
            b'[' => {
                stack.push(b']');
                last = b'o';
            }
            b'}' | b']' => {
                stack.pop();
                last = c;
            }
            b',' => {
                expect_key = stack.last() == Some(&b'}');
                last = b'o';
            }
            b':' => {
                expect_key = false;
                last = b'o';
            }
            b' ' | b'\t' | b'\r' | b'\n' => {}
            _ => last = b'o',
        }
    }
    if in_str != 0 || stack.is_empty() || !matches!(last, b'v' | b'}' | b']') {
        return None;
    }
    let mut out = String::with_capacity(body.len() + stack.len());
    out.push_str(body);
    while let Some(c) = stack.pop() {
        out.push(c as char);
    }
    Some((out, body.len()))
}

#[cfg(test)]
mod truncation_tests {
    use super::close_truncated;

    #[test]
    fn only_closers_missing_is_closed() {
        assert_eq!(
            close_truncated(r#"{"name": "f", "arguments": {"city": "Doha"}"#).map(|x| x.0),
            Some(r#"{"name": "f", "arguments": {"city": "Doha"}}"#.to_string())
        );
        assert_eq!(
            close_truncated(r#"{"a": ["x", "y""#).map(|x| x.0),
            Some(r#"{"a": ["x", "y"]}"#.to_string())
        );
    }

    #[test]
    fn lost_content_is_refused() {
        for cut in [
            r#"{"a": "hal"#,
            r#"{"a": 4"#,
            r#"{"a": tru"#,
            r#"{"a": 1, "b""#,
            r#"{"a":"#,
            r#"{"a": 1,"#,
            r#"{"a": ["#,
        ] {
            assert_eq!(close_truncated(cut), None, "{cut}");
        }
    }
}
