//! Serialisers the renderings share: JSON in the spellings chat templates
//! produce, Python literals, Python signatures and the TypeScript-ish type
//! notation of harmony and Functionary.

use serde_json::{Map, Value};

/// Compact JSON (`{"a":1}`), as `serde_json` writes it.
pub fn json_compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// JSON with Python's default separators (`{"a": 1, "b": [1, 2]}`): what
/// Jinja's `tojson` and `json.dumps` give in Hugging Face chat templates.
pub fn json_spaced(v: &Value) -> String {
    let mut out = String::new();
    write_spaced(v, &mut out);
    out
}

fn write_spaced(v: &Value, out: &mut String) {
    match v {
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_spaced(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&json_compact(&Value::String(k.clone())));
                out.push_str(": ");
                write_spaced(item, out);
            }
            out.push('}');
        }
        other => out.push_str(&json_compact(other)),
    }
}

/// Compact JSON with the keys of every object sorted (`{"a":1,"b":[2]}`):
/// `json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`,
/// the spelling the Kimi K3 and Inkling templates declare tools in.
pub fn json_sorted(v: &Value) -> String {
    match v {
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(json_sorted).collect();
            format!("[{}]", parts.join(","))
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let parts: Vec<String> = keys
                .into_iter()
                .map(|k| {
                    format!(
                        "{}:{}",
                        json_compact(&Value::String(k.clone())),
                        json_sorted(&map[k])
                    )
                })
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        other => json_compact(other),
    }
}

/// JSON indented by `indent` spaces (Python's `json.dumps(v, indent=N)`).
pub fn json_indent(v: &Value, indent: usize) -> String {
    use serde::Serialize;
    let pad = " ".repeat(indent);
    let mut buf = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(pad.as_bytes());
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
    if v.serialize(&mut ser).is_err() {
        return json_compact(v);
    }
    String::from_utf8(buf).unwrap_or_default()
}

/// A Python string literal in `quote` (`"` or `'`): backslash, the quote,
/// and control characters are escaped (`\n`, `\t`, `\r`, else `\u00XX`);
/// everything else, non-ASCII included, is written as is.
pub fn py_str(s: &str, quote: char) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// A JSON value as a Python literal (`True`, `None`, `{"k": [1, 2]}`),
/// strings quoted with `quote`.
pub fn py_literal(v: &Value, quote: char) -> String {
    match v {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => py_str(s, quote),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(|x| py_literal(x, quote)).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Object(map) => {
            let parts: Vec<String> = map
                .iter()
                .map(|(k, x)| format!("{}: {}", py_str(k, quote), py_literal(x, quote)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
    }
}

/// Keyword arguments as Python writes them: `a=1, b="x"`.
pub fn py_kwargs(args: &Map<String, Value>) -> String {
    let parts: Vec<String> = args
        .iter()
        .map(|(k, v)| format!("{k}={}", py_literal(v, '"')))
        .collect();
    parts.join(", ")
}

/// A value written as text inside markup (XML-style formats): a string as
/// is, anything else as compact JSON.
pub fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => json_compact(other),
    }
}

/// Readers of XML-style values strip exactly one leading and one trailing
/// newline (docs/design.md#value-typing). A value that begins or ends with
/// a newline gets one more on that side, so what is read back is the value
/// itself.
pub fn guard_newlines(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    if s.starts_with('\n') || s.starts_with("\r\n") {
        out.push('\n');
    }
    out.push_str(s);
    if s.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// The properties of an object schema, with whether each is required.
pub fn properties(schema: &Value) -> Vec<(&str, &Value, bool)> {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|props| {
            props
                .iter()
                .map(|(k, s)| (k.as_str(), s, required.contains(&k.as_str())))
                .collect()
        })
        .unwrap_or_default()
}

/// The schema's `type`, or the first non-null one of a type list.
fn schema_type(schema: &Value) -> Option<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => Some(t),
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        _ => None,
    }
}

/// The TypeScript-ish type harmony and Functionary write for a schema:
/// `string`, `number`, `boolean`, `string[]`, `"a" | "b"` for enums, an
/// inline `{ k: T }` for objects with properties, `any` when unknown.
pub fn ts_type(schema: &Value) -> String {
    if let Some(Value::Array(vals)) = schema.get("enum") {
        let parts: Vec<String> = vals.iter().map(json_compact).collect();
        if !parts.is_empty() {
            return parts.join(" | ");
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(alts)) = schema.get(key) {
            let parts: Vec<String> = alts.iter().map(ts_type).collect();
            if !parts.is_empty() {
                return parts.join(" | ");
            }
        }
    }
    let nullable =
        matches!(schema.get("type"), Some(Value::Array(ts)) if ts.iter().any(|t| t == "null"));
    let base = match schema_type(schema) {
        Some("string") => "string".to_string(),
        Some("integer") | Some("number") => "number".to_string(),
        Some("boolean") => "boolean".to_string(),
        Some("null") => "null".to_string(),
        Some("array") => match schema.get("items") {
            Some(items) => {
                let t = ts_type(items);
                if t.contains(' ') {
                    format!("Array<{t}>")
                } else {
                    format!("{t}[]")
                }
            }
            None => "any[]".to_string(),
        },
        Some("object") => {
            let props = properties(schema);
            if props.is_empty() {
                "object".to_string()
            } else {
                let fields: Vec<String> = props
                    .iter()
                    .map(|(k, s, req)| {
                        format!("{k}{}: {}", if *req { "" } else { "?" }, ts_type(s))
                    })
                    .collect();
                format!("{{ {} }}", fields.join("; "))
            }
        }
        _ => "any".to_string(),
    };
    if nullable {
        format!("{base} | null")
    } else {
        base
    }
}

/// `// text` comment lines, one per line of `text`.
pub fn comment_lines(text: &str, prefix: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        out.push_str(prefix);
        if !line.is_empty() {
            out.push(' ');
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// A tool as a TypeScript-ish declaration, the way harmony's renderer
/// writes it (the rules of openai/harmony `src/encoding.rs`
/// `json_schema_to_typescript` for defaults):
///
/// ```text
/// // Get the weather.
/// type get_weather = (_: {
/// // The city.
/// city: string,
/// unit?: "c" | "f", // default: c
/// }) => any;
/// ```
pub fn ts_declaration(name: &str, description: Option<&str>, schema: &Value) -> String {
    let mut out = String::new();
    if let Some(d) = description.filter(|d| !d.trim().is_empty()) {
        out.push_str(&comment_lines(d, "//"));
    }
    let props = properties(schema);
    if props.is_empty() {
        out.push_str(&format!("type {name} = () => any;\n"));
        return out;
    }
    out.push_str(&format!("type {name} = (_: {{\n"));
    for (k, s, req) in props {
        if let Some(d) = s.get("description").and_then(Value::as_str) {
            out.push_str(&comment_lines(d, "//"));
        }
        out.push_str(&format!(
            "{k}{}: {},",
            if req { "" } else { "?" },
            ts_type(s)
        ));
        if let Some(def) = s.get("default") {
            // harmony's renderer leaves an enum's string default unquoted.
            let text = match def {
                Value::String(d) if s.get("enum").is_some() => d.clone(),
                other => json_compact(other),
            };
            out.push_str(&format!(" // default: {text}"));
        }
        out.push('\n');
    }
    out.push_str("}) => any;\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn spellings() {
        let v = json!({"a": [1, {"b": true}], "c": "x\"y"});
        assert_eq!(json_spaced(&v), r#"{"a": [1, {"b": true}], "c": "x\"y"}"#);
        assert_eq!(
            py_literal(&v, '\''),
            r#"{'a': [1, {'b': True}], 'c': 'x"y'}"#
        );
        assert_eq!(py_str("it's\n", '\''), r"'it\'s\n'");
        assert_eq!(guard_newlines("\nx\n"), "\n\nx\n\n");
        assert_eq!(guard_newlines("x"), "x");
    }

    #[test]
    fn declarations() {
        let schema = json!({"type": "object", "properties": {
            "city": {"type": "string", "description": "The city."},
            "unit": {"type": "string", "enum": ["c", "f"], "default": "c"}},
            "required": ["city"]});
        assert_eq!(
            ts_declaration("w", Some("Weather."), &schema),
            "// Weather.\ntype w = (_: {\n// The city.\ncity: string,\nunit?: \"c\" | \"f\", // default: c\n}) => any;\n"
        );
    }
}
