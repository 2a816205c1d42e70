//! The shared pieces of the call writers (`render call`).
//!
//! Each format module holds its family's writer (the `call` of its
//! [`Prompt`](super::Prompt)), which renders one assistant turn holding all
//! the calls given, from the pieces here.
//!
//! Whatever a writer of these writes, `toolcall parse` reads back to the same
//! names and arguments (the round-trip property test checks every family);
//! values of XML-style families come back under the loose typing rule
//! (docs/design.md#value-typing: text that is exactly a number or a boolean
//! becomes one).

use super::text::{guard_newlines, json_compact, json_spaced, py_kwargs, value_text};
use super::CallSpec;
use serde_json::{Map, Value};

/// The arguments as a JSON object.
pub fn args(c: &CallSpec) -> Value {
    Value::Object(c.arguments.clone())
}

/// `{NAME_KEY: name, ARGS_KEY: arguments}`.
pub fn obj(name_key: &str, c: &CallSpec, args_key: &str) -> Value {
    let mut m = Map::new();
    m.insert(name_key.into(), Value::String(c.name.clone()));
    m.insert(args_key.into(), args(c));
    Value::Object(m)
}

/// Each call written by `f` (given its index), joined by `sep`.
pub fn each(calls: &[CallSpec], sep: &str, f: impl Fn(usize, &CallSpec) -> String) -> String {
    calls
        .iter()
        .enumerate()
        .map(|(i, c)| f(i, c))
        .collect::<Vec<_>>()
        .join(sep)
}

/// A JSON array of `{NAME_KEY: name, ARGS_KEY: arguments}` objects.
pub fn array_of(calls: &[CallSpec], name_key: &str, args_key: &str) -> String {
    json_spaced(&Value::Array(
        calls.iter().map(|c| obj(name_key, c, args_key)).collect(),
    ))
}

/// Each call as the JSON object `{KEYS.0: name, KEYS.1: arguments}`
/// between `wrap.0` and `wrap.1`, joined by `sep`.
pub fn objects(calls: &[CallSpec], keys: (&str, &str), wrap: (&str, &str), sep: &str) -> String {
    each(calls, sep, |_, c| {
        let body = json_spaced(&obj(keys.0, c, keys.1));
        format!("{}{body}{}", wrap.0, wrap.1)
    })
}

/// `<tool_call>` JSON blocks (hermes, ernie45): `<tool_call>\n{"name": …, "arguments": …}\n</tool_call>`.
pub fn tool_call_json(calls: &[CallSpec]) -> String {
    objects(
        calls,
        ("name", "arguments"),
        ("<tool_call>\n", "\n</tool_call>"),
        "\n",
    )
}

/// Each call as `head` (given its index), then `pair(key, value)` for each
/// of its arguments in order, then `tail`; the calls joined by `sep`.
pub fn with_pairs(
    calls: &[CallSpec],
    sep: &str,
    head: impl Fn(usize, &CallSpec) -> String,
    pair: impl Fn(&str, &Value) -> String,
    tail: &str,
) -> String {
    each(calls, sep, |i, c| {
        let mut s = head(i, c);
        for (k, v) in &c.arguments {
            s.push_str(&pair(k, v));
        }
        s.push_str(tail);
        s
    })
}

/// `<invoke name="NAME">` elements of `<parameter name="KEY">` values.
pub fn invokes(calls: &[CallSpec]) -> String {
    with_pairs(
        calls,
        "\n",
        |_, c| format!("<invoke name=\"{}\">\n", c.name),
        |k, v| {
            let text = guard_newlines(&value_text(v));
            format!("<parameter name=\"{k}\">{text}</parameter>\n")
        },
        "</invoke>",
    )
}

/// The Kimi K2 id of a call: the call's own id when it already has the
/// `functions.NAME:N` shape, else `functions.NAME:INDEX`.
pub fn kimi_id(c: &CallSpec, index: usize) -> String {
    match &c.id {
        Some(id) if id.starts_with("functions.") && id.contains(':') => id.clone(),
        _ => format!("functions.{}:{index}", c.name),
    }
}

/// `NAME(k=v, …)`.
pub fn py_call(c: &CallSpec) -> String {
    format!("{}({})", c.name, py_kwargs(&c.arguments))
}

/// A pythonic call list (pythonic, lfm2): `[f(a=1), g(b="x")]`.
pub fn py_list(calls: &[CallSpec]) -> String {
    format!("[{}]", each(calls, ", ", |_, c| py_call(c)))
}

/// A value in Gemma's function-call notation: strings between `<escape>`
/// tokens, keys bare, numbers and booleans as JSON.
pub fn gemma_value(v: &Value) -> String {
    match v {
        Value::String(s) => format!("<escape>{s}<escape>"),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(gemma_value).collect();
            format!("[{}]", parts.join(","))
        }
        Value::Object(map) => {
            let parts: Vec<String> = map
                .iter()
                .map(|(k, x)| format!("{k}:{}", gemma_value(x)))
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        other => json_compact(other),
    }
}
