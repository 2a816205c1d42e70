//! Records read back: `validate` and `exec` take the NDJSON `parse`
//! writes as well as model text. A record is untrusted data: fields that
//! validation adds are recomputed, never read.

use crate::record::ToolCall;
use serde_json::Value;

/// True when the input is our NDJSON records rather than model output: its
/// first non-blank line is a record (a JSON object with a string "type"),
/// or opens like one (`{"type":"tool_call"…` cut off, garbage after it or
/// nested too deeply), and one line is a `tool_call` or `error` record; or
/// every non-blank line opens an object and one is such a record. A bad
/// line among records is reported (TLP-008, [`record_lines`]), not taken
/// for model text.
pub fn is_records(bytes: &[u8]) -> bool {
    let mut lines = bytes
        .split(|&b| b == b'\n')
        .map(<[u8]>::trim_ascii)
        .filter(|l| !l.is_empty());
    let Some(first) = lines.next() else {
        return false;
    };
    let is_call = |v: &Value| {
        matches!(
            v.get("type").and_then(Value::as_str),
            Some("tool_call" | "error")
        )
    };
    let (first_record, mut any) = match serde_json::from_slice::<Value>(first) {
        Ok(v) => (v.get("type").is_some_and(Value::is_string), is_call(&v)),
        Err(_) => match opens_record(first) {
            Some(call) => (true, call),
            None => (false, false),
        },
    };
    let mut all_objects = first.first() == Some(&b'{');
    for line in lines {
        if any && (first_record || !all_objects) {
            break;
        }
        all_objects &= line.first() == Some(&b'{');
        if !any && line.first() == Some(&b'{') {
            any = serde_json::from_slice::<Value>(line).is_ok_and(|v| is_call(&v));
        }
    }
    any && (first_record || all_objects)
}

/// For a line that is not JSON: `Some(is a call or error)` when it opens as
/// a record does (`{"type":"…"`), whitespace allowed.
fn opens_record(line: &[u8]) -> Option<bool> {
    let rest = line.strip_prefix(b"{")?.trim_ascii_start();
    let rest = rest.strip_prefix(b"\"type\"")?.trim_ascii_start();
    let rest = rest.strip_prefix(b":")?.trim_ascii_start();
    let rest = rest.strip_prefix(b"\"")?;
    Some(rest.starts_with(b"tool_call\"") || rest.starts_with(b"error\""))
}

/// The non-blank lines of a records file, each with its 1-based line
/// number, byte offset and bytes, and the record (a JSON object with a
/// string "type") or why the line is none (for the TLP-008 report).
pub fn record_lines(
    bytes: &[u8],
) -> impl Iterator<Item = (usize, usize, &[u8], Result<Value, &'static str>)> {
    let mut start = 0usize;
    bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .filter_map(move |(k, line)| {
            let at = start;
            start += line.len() + 1;
            let trimmed = line.trim_ascii();
            if trimmed.is_empty() {
                return None;
            }
            let rec = match serde_json::from_slice::<Value>(trimmed) {
                Ok(v) if v.get("type").is_some_and(Value::is_string) => Ok(v),
                Ok(_) => Err("a JSON value with no string \"type\""),
                Err(e) if e.is_eof() => Err("cut off"),
                Err(e) if e.to_string().contains("recursion limit") => {
                    Err("nested more than 128 deep")
                }
                Err(_) => Err("not JSON"),
            };
            Some((k + 1, at, line, rec))
        })
}

/// The message for a bad line of a records file (TLP-008).
pub fn bad_line_message(line: usize, why: &str) -> String {
    format!("line {line} is not a record ({why}); skipped, the other records are read")
}

/// The tool name a broken candidate names, when it is legible
/// (`"name": "x"` or `<function=x>`), so the retry prompt can show its schema.
pub fn name_in(raw: &str) -> String {
    for (open, close) in [("\"name\"", '"'), ("<function=", '>')] {
        if let Some(i) = raw.find(open) {
            let rest = raw[i + open.len()..].trim_start();
            let rest = if close == '"' {
                match rest.strip_prefix(':').map(str::trim_start) {
                    Some(r) => r.strip_prefix('"').unwrap_or(""),
                    None => "",
                }
            } else {
                rest
            };
            if let Some(end) = rest.find(close) {
                let n = rest[..end].trim();
                if !n.is_empty() && n.len() <= 64 {
                    return n.to_string();
                }
            }
        }
    }
    String::new()
}

/// A call record standing in for a candidate that is not a call (or a
/// tool turn's header line): no name, no id, empty arguments, `raw` and
/// `span` as given.
pub fn stand_in(doc: &str, raw: &str, span: [u64; 2]) -> ToolCall {
    ToolCall {
        kind: "tool_call",
        doc: doc.to_string(),
        index: 0,
        id: String::new(),
        name: String::new(),
        arguments: Value::Object(Default::default()).into(),
        format: "",
        span,
        raw: raw.to_string(),
        repairs: Vec::new(),
        in_reasoning: false,
        turn: None,
        extra: Default::default(),
    }
}

/// A `tool_call` record read back: the fields `parse` wrote (a missing
/// `arguments` becomes `null`, which validation reports). Fields that
/// validation adds are not read: they are recomputed, never trusted.
pub fn call_from_record(v: &Value, name: &str) -> ToolCall {
    let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let span = [
        v.pointer("/span/0").and_then(Value::as_u64).unwrap_or(0),
        v.pointer("/span/1").and_then(Value::as_u64).unwrap_or(0),
    ];
    let doc = s("doc");
    let doc_name = if doc.is_empty() {
        name.to_string()
    } else {
        doc
    };
    let mut call = stand_in(&doc_name, &s("raw"), span);
    call.index = v.get("index").and_then(Value::as_u64).unwrap_or(0) as usize;
    call.id = s("id");
    call.name = s("name");
    call.arguments = v.get("arguments").cloned().unwrap_or(Value::Null).into();
    call.format = crate::formats::FormatId::from_id(&s("format")).map_or("", |f| f.as_str());
    call.in_reasoning = v.get("in_reasoning").and_then(Value::as_bool) == Some(true);
    call
}
