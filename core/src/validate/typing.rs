//! Typing the text values of XML-style formats by the tool's schema.
//!
//! Formats such as qwen3-coder-xml write every parameter as text. Without a
//! schema the parser types text that is exactly a number or `true`/`false`
//! (see `call::type_text`); with one, the schema decides: a
//! `"string"` property keeps `007` and `true` as strings, an `"integer"`
//! property turns ` 42 ` into 42, an `"object"` property decodes JSON text,
//! and a `"string"` property keeps JSON text (which the parser decoded) as
//! the model wrote it. A property that admits `null` takes the text `null`
//! as null even when it admits strings too (the templates write None as
//! `null`). Only top-level values are retyped (nested values were written
//! as JSON).

use serde_json::{Map, Value};

use crate::formats::{FormatId, Values};

/// True when calls of `format` carry text values the schema should type.
pub fn is_text_format(format: FormatId) -> bool {
    format.format().values != Values::Json
}

/// Retypes `args` of a call written in `format` by `schema` (the tool's
/// parameters). Returns true when a value changed. DeepSeek DSML strings
/// (`string="true"`) are declared strings and stay strings.
pub fn type_arguments(format: FormatId, args: &mut Map<String, Value>, schema: &Value) -> bool {
    type_arguments_in(format, args, schema, "")
}

/// [`type_arguments`] for a call whose markup is `raw`: a JSON object or
/// array a string property gets back is its text as written there.
pub fn type_arguments_in(
    format: FormatId,
    args: &mut Map<String, Value>,
    schema: &Value,
    raw: &str,
) -> bool {
    if !is_text_format(format) {
        return false;
    }
    let Some(Value::Object(props)) = schema.get("properties") else {
        return false;
    };
    let mut changed = false;
    for (key, value) in args.iter_mut() {
        let Some(prop) = props.get(key) else {
            continue;
        };
        if format.format().values == Values::TextUnlessDeclared && value.is_string() {
            continue;
        }
        let allowed = allowed_types(resolve(schema, prop), schema, 0);
        if value.as_str().is_some_and(|t| t.trim() == "null") && allowed.iter().any(|t| t == "null")
        {
            *value = Value::Null;
            changed = true;
            continue;
        }
        if allowed.is_empty() || allowed.iter().any(|t| fits(value, t)) {
            continue;
        }
        if let Some(v) = coerce(value, &allowed, raw) {
            *value = v;
            changed = true;
        }
    }
    changed
}

/// Follows a local `$ref` (`#/$defs/x`, `#/definitions/x`).
fn resolve<'a>(root: &'a Value, s: &'a Value) -> &'a Value {
    match s.get("$ref").and_then(Value::as_str) {
        Some(r) if r.starts_with("#/") => root.pointer(&r[1..]).unwrap_or(s),
        _ => s,
    }
}

/// The JSON types a (sub)schema admits, from `type`, `enum`, `const`,
/// `anyOf` / `oneOf`. Empty when unconstrained.
fn allowed_types(s: &Value, root: &Value, depth: usize) -> Vec<String> {
    let mut out = Vec::new();
    if depth > 8 {
        return out;
    }
    match s.get("type") {
        Some(Value::String(t)) => out.push(t.clone()),
        Some(Value::Array(ts)) => {
            out.extend(ts.iter().filter_map(Value::as_str).map(str::to_string))
        }
        _ => {}
    }
    if let Some(Value::Array(vals)) = s.get("enum") {
        for v in vals {
            out.push(kind_of(v).into());
        }
    }
    if let Some(v) = s.get("const") {
        out.push(kind_of(v).into());
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(alts)) = s.get(key) {
            for a in alts {
                out.extend(allowed_types(resolve(root, a), root, depth + 1));
            }
        }
    }
    out.dedup();
    out
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        other => crate::call::type_name(other),
    }
}

fn fits(v: &Value, t: &str) -> bool {
    match (v, t) {
        (Value::Null, "null")
        | (Value::Bool(_), "boolean")
        | (Value::String(_), "string")
        | (Value::Array(_), "array")
        | (Value::Object(_), "object")
        | (Value::Number(_), "number") => true,
        (Value::Number(n), "integer") => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    }
}

/// The text a value was written as (numbers keep their digits).
fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Null => "null".into(),
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

/// The text of a JSON object or array as `raw` holds it (`None` when it
/// holds no text that decodes to `v`).
fn written_as(raw: &str, v: &Value) -> Option<String> {
    use crate::scan::balance::{End, JsonEnd};
    let open = match v {
        Value::Object(_) => b'{',
        Value::Array(_) => b'[',
        _ => return None,
    };
    let b = raw.as_bytes();
    let mut from = 0;
    while let Some(k) = memchr::memchr(open, &b[from..]).map(|k| from + k) {
        if let End::At(n) = JsonEnd::new().scan(&b[k..]) {
            let text = raw.get(k..k + n)?;
            if serde_json::from_str::<Value>(text).is_ok_and(|p| p == *v) {
                return Some(text.to_string());
            }
        }
        from = k + 1;
    }
    None
}

/// The spelling in `raw` of a number that JSON writes differently (`1e2`,
/// `1E2`, which it writes `1e+2`): the first number token in `raw` with
/// the same value. `None` for other values, or when `raw` holds none.
fn number_written_as(raw: &str, v: &Value) -> Option<String> {
    let Value::Number(n) = v else {
        return None;
    };
    let want = n.as_f64()?;
    let b = raw.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let starts = (b[i].is_ascii_digit() || b[i] == b'-')
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'.'));
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < b.len() && matches!(b[j], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') {
            j += 1;
        }
        let token = &raw[i..j];
        if token.bytes().any(|c| c == b'e' || c == b'E') && token.parse::<f64>().ok() == Some(want)
        {
            return Some(token.to_string());
        }
        i = j;
    }
    None
}

/// Tries each admitted type in turn; the first that the text fits wins.
fn coerce(v: &Value, allowed: &[String], raw: &str) -> Option<Value> {
    let text = text_of(v);
    let t = text.trim();
    // a number JSON-quoted (`"42"`, as templates that JSON-encode every
    // value write it) where the schema wants a number
    let unquoted = match serde_json::from_str::<Value>(t) {
        Ok(Value::String(s)) => Some(s),
        _ => None,
    };
    for ty in allowed {
        let got = match ty.as_str() {
            "integer" | "number" => [Some(t), unquoted.as_deref().map(str::trim)]
                .into_iter()
                .flatten()
                .find_map(|t| match serde_json::from_str::<Value>(t) {
                    Ok(n @ Value::Number(_)) if fits(&n, ty) => Some(n),
                    _ => None,
                }),
            // `1` / `0` too, as C-style templates and models write them
            "boolean" => match t.to_ascii_lowercase().as_str() {
                "true" | "1" => Some(Value::Bool(true)),
                "false" | "0" => Some(Value::Bool(false)),
                _ => None,
            },
            "null" => (t == "null" || t == "None").then_some(Value::Null),
            "object" | "array" => match serde_json::from_str::<Value>(t)
                .ok()
                .or_else(|| super::config::json5_value(t).ok())
                .or_else(|| python_literal(t))
            {
                Some(o @ Value::Object(_)) if ty == "object" => Some(o),
                Some(a @ Value::Array(_)) if ty == "array" => Some(a),
                _ => None,
            },
            "string" => Some(Value::String(
                written_as(raw, v)
                    .or_else(|| number_written_as(raw, v))
                    .unwrap_or_else(|| text.clone()),
            )),
            _ => None,
        };
        if got.is_some() {
            return got;
        }
    }
    None
}

/// A Python literal written where the schema wants an object or array
/// (`{'in_stock': True}`, `['a', None]`), as the repair engine reads it:
/// only text that is bracketed whole.
fn python_literal(t: &str) -> Option<Value> {
    let bracketed =
        (t.starts_with('{') && t.ends_with('}')) || (t.starts_with('[') && t.ends_with(']'));
    if !bracketed {
        return None;
    }
    crate::repair::parse_value(t, &crate::repair::RepairOptions::default())
        .ok()
        .map(|(v, _)| v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ids;
    use serde_json::json;

    /// `args` typed by `schema` as `format` writes them (the text of the
    /// block is `raw`); something must have changed.
    fn typed(format: FormatId, schema: Value, args: Value, raw: &str) -> Value {
        let mut args = args.as_object().cloned().expect("object");
        assert!(type_arguments_in(format, &mut args, &schema, raw));
        Value::Object(args)
    }

    #[test]
    fn python_literals_become_objects_and_arrays_by_the_schema() {
        let schema = json!({"type": "object", "properties": {
            "filters": {"type": "object"}, "tags": {"type": "array"}, "note": {"type": "string"}
        }});
        let got = typed(
            ids::QWEN3_CODER_XML,
            schema,
            json!({"filters": "{'in_stock': True, 'max': None}",
                   "tags": "['a', 'b']", "note": "{'kept': True}"}),
            "",
        );
        assert_eq!(
            got,
            json!({"filters": {"in_stock": true, "max": null}, "tags": ["a", "b"],
                   "note": "{'kept': True}"})
        );
    }

    #[test]
    fn schema_decides() {
        let schema = json!({"type": "object", "properties": {
            "zip": {"type": "string"},
            "n": {"type": "integer"},
            "flag": {"type": "boolean"},
            "opts": {"$ref": "#/$defs/o"},
            "maybe": {"anyOf": [{"type": "null"}, {"type": "number"}]}
        }, "$defs": {"o": {"type": "object"}}});
        let got = typed(
            ids::QWEN3_CODER_XML,
            schema,
            json!({"zip": 7, "n": " 42 ", "flag": "True", "opts": "{\"a\": 1}",
                   "maybe": "null", "other": "x"}),
            "",
        );
        assert_eq!(
            got,
            json!({"zip": "7", "n": 42, "flag": true, "opts": {"a": 1}, "maybe": null, "other": "x"})
        );
    }

    #[test]
    fn json_quoted_numbers_are_numbers_under_a_number_schema() {
        let schema = json!({"properties": {
            "count": {"type": "integer"},
            "ratio": {"type": "number"},
            "label": {"type": "string"}
        }});
        let got = typed(
            ids::GLM4_MOE,
            schema,
            json!({"count": "\"42\"", "ratio": "\"0.5\"", "label": "\"42\""}),
            "",
        );
        assert_eq!(got, json!({"count": 42, "ratio": 0.5, "label": "\"42\""}));
    }

    #[test]
    fn one_and_zero_are_booleans_under_a_boolean_schema() {
        let schema = json!({"properties": {
            "on": {"type": "boolean"},
            "off": {"type": "boolean"},
            "count": {"type": "integer"}
        }});
        let got = typed(
            ids::GLM4_MOE,
            schema,
            json!({"on": 1, "off": "0", "count": 1}),
            "",
        );
        assert_eq!(got, json!({"on": true, "off": false, "count": 1}));
    }

    #[test]
    fn null_union_and_json_text_kept_as_written() {
        let schema = json!({"properties": {
            "label": {"type": ["string", "null"]},
            "plain": {"type": "string"},
            "query": {"type": "string"}
        }});
        let args = json!({"label": "null", "plain": "null", "query": {"a": 1}});
        let raw = "<arg_value>{\"a\":  1}</arg_value>";
        assert_eq!(
            typed(ids::GLM4_MOE, schema, args, raw),
            json!({"label": null, "plain": "null", "query": "{\"a\":  1}"})
        );
    }

    #[test]
    fn digits_are_kept_and_dsml_strings_stay() {
        let schema = json!({"properties": {"zip": {"type": "string"}, "n": {"type": "integer"}}});
        let mut args = Map::new();
        args.insert("zip".into(), serde_json::from_str("1.50").expect("n"));
        args.insert("n".into(), json!("5"));
        type_arguments(ids::DEEPSEEK_DSML, &mut args, &schema);
        assert_eq!(args["zip"], json!("1.50"));
        assert_eq!(args["n"], json!("5"));
        let mut args = json!({"n": "5"}).as_object().cloned().expect("o");
        assert!(!type_arguments(ids::HERMES, &mut args, &schema));
    }
}
