//! Bounded retry: ask the model again, with the specific error, at most N
//! times.
//!
//! The model is any shell command (`--retry-cmd`): it gets the retry prompt
//! on stdin and writes its reply on stdout, either as plain text or as an
//! Ollama / OpenAI JSON response (one object, NDJSON chunks or SSE `data:`
//! lines), whose content and native `tool_calls` are used and whose token
//! usage is summed across attempts. The attempt number is in the child's
//! `TOOLCALL_ATTEMPT` environment variable (from 1).
//!
//! This module holds what a retry *says* and *reads*: the prompt built from
//! a failure and the reply taken from the command's output. Running the
//! command (a process group, a timeout, an output bound) is the program's
//! business, not the engine's: the CLI crate does it (`src/cli/retry.rs`).
//!
//! # Prompt templates
//!
//! A template is text with placeholders: `{kind}` (`parse` or `schema`),
//! `{code}`, `{errors}` (one line per error), `{line}`, `{column}`, `{raw}`
//! (the malformed output), `{tool}`, `{schema}` (the tool's parameters, when
//! known), `{hint}` (the expected format). Unknown placeholders stay as
//! they are. Parse and schema errors have different default wordings.

use serde::Serialize;
use serde_json::Value;

/// What kind of failure a retry answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// The call could not be parsed (TLP-001/002/003/007/008).
    Parse,
    /// The call parsed but is not valid for the tool (TLP-004/005).
    Schema,
}

/// A failing call, as the retry prompt describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// Parse or schema.
    pub kind: FailureKind,
    /// The first error's code.
    pub code: &'static str,
    /// One line per error (`/days: expected integer, got string "three"`).
    pub errors: Vec<String>,
    /// Where the call is in the input.
    pub line: u64,
    /// Where the call is in the input.
    pub column: u64,
    /// The model's output for the call, as written.
    pub raw: String,
    /// The tool called, when known.
    pub tool: Option<String>,
    /// The tool's parameters schema, when known.
    pub schema: Option<Value>,
}

/// The default prompt for a call that could not be parsed.
pub const PARSE_TEMPLATE: &str = "\
Your previous reply contained a tool call that could not be parsed.

error[{code}] at line {line}, column {column}:
{errors}

This is what you wrote:
{raw}

Write the call again, and nothing else, as one JSON object with a \"name\" \
and an \"arguments\" object, for example:
{hint}
";

/// The default prompt for a call whose arguments do not fit the tool.
pub const SCHEMA_TEMPLATE: &str = "\
Your call to the tool `{tool}` does not match the tool's definition.

error[{code}] at line {line}, column {column}:
{errors}

This is what you wrote:
{raw}

The arguments must satisfy this JSON Schema:
{schema}

Write the corrected call again, and nothing else, as one JSON object with \
\"name\" and \"arguments\", for example:
{hint}
";

/// Renders the retry prompt for `failure` (`template` overrides the
/// default wording for both kinds).
pub fn prompt(template: Option<&str>, failure: &Failure) -> String {
    let t = template.unwrap_or(match failure.kind {
        FailureKind::Parse => PARSE_TEMPLATE,
        FailureKind::Schema => SCHEMA_TEMPLATE,
    });
    let tool = failure.tool.clone().unwrap_or_else(|| "the_tool".into());
    let hint = format!(
        "<tool_call>{{\"name\": \"{tool}\", \"arguments\": {}}}</tool_call>",
        failure
            .schema
            .as_ref()
            .map(example_arguments)
            .unwrap_or_else(|| "{...}".into())
    );
    let schema = failure
        .schema
        .as_ref()
        .map(|s| serde_json::to_string_pretty(s).unwrap_or_default())
        .unwrap_or_else(|| "(unknown)".into());
    super::check::fill(t, |key| {
        Some(match key {
            "kind" => match failure.kind {
                FailureKind::Parse => "parse".to_string(),
                FailureKind::Schema => "schema".to_string(),
            },
            "code" => failure.code.to_string(),
            "errors" => failure.errors.join("\n"),
            "line" => failure.line.to_string(),
            "column" => failure.column.to_string(),
            "raw" => failure.raw.clone(),
            "tool" => tool.clone(),
            "schema" => schema.clone(),
            "hint" => hint.clone(),
            _ => return None,
        })
    })
}

/// `{"city": "<string>", "days": 0}`: an example arguments object with the
/// required properties of a schema, for the prompt's hint.
fn example_arguments(schema: &Value) -> String {
    let Some(Value::Object(props)) = schema.get("properties") else {
        return "{}".into();
    };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut m = serde_json::Map::new();
    for (k, p) in props {
        if !required.is_empty() && !required.contains(&k.as_str()) {
            continue;
        }
        let ty = match p.get("type") {
            Some(Value::String(t)) => t.as_str(),
            Some(Value::Array(a)) => a.first().and_then(Value::as_str).unwrap_or("string"),
            _ => "string",
        };
        let v = if let Some(Value::Array(e)) = p.get("enum") {
            e.first().cloned().unwrap_or(Value::Null)
        } else {
            match ty {
                "integer" | "number" => Value::from(0),
                "boolean" => Value::Bool(false),
                "array" => Value::Array(Vec::new()),
                "object" => Value::Object(serde_json::Map::new()),
                "null" => Value::Null,
                other => Value::String(format!("<{other}>")),
            }
        };
        m.insert(k.clone(), v);
    }
    serde_json::to_string(&Value::Object(m)).unwrap_or_default()
}

/// One attempt of a retry through the model, as the `validation` record
/// lists it in `attempts`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Attempt {
    /// From 1.
    pub attempt: u32,
    /// Whether this attempt gave a valid call.
    pub valid: bool,
    /// The first error of a failed attempt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Token usage reported by the model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Usage {
    /// Prompt tokens (Ollama `prompt_eval_count`, OpenAI `prompt_tokens`).
    pub prompt_tokens: u64,
    /// Completion tokens (Ollama `eval_count`, OpenAI `completion_tokens`).
    pub completion_tokens: u64,
    /// Their sum.
    pub total_tokens: u64,
}

impl Usage {
    /// Adds another attempt's usage.
    pub fn add(&mut self, other: Usage) {
        self.prompt_tokens += other.prompt_tokens;
        self.completion_tokens += other.completion_tokens;
        self.total_tokens = self.prompt_tokens + self.completion_tokens;
    }

    /// True when nothing was reported.
    pub fn is_zero(&self) -> bool {
        self.total_tokens == 0
    }
}

/// A model's reply: the text to parse and the usage it reported.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// The content (native tool calls rendered as `<tool_call>` blocks).
    pub text: String,
    /// Token usage.
    pub usage: Usage,
}

/// Reads a model command's stdout: Ollama or OpenAI JSON (one object,
/// NDJSON chunks, SSE `data:` lines) or plain text.
pub fn reply_from_output(out: &str) -> Reply {
    let trimmed = out.trim();
    let mut objects = Vec::new();
    if let Ok(v @ Value::Object(_)) = serde_json::from_str::<Value>(trimmed) {
        objects.push(v);
    } else {
        for line in trimmed.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let line = line.strip_prefix("data:").map(str::trim).unwrap_or(line);
            if line == "[DONE]" {
                continue;
            }
            match serde_json::from_str::<Value>(line) {
                Ok(v @ Value::Object(_)) if is_wire(&v) => objects.push(v),
                _ => {
                    return Reply {
                        text: out.to_string(),
                        usage: Usage::default(),
                    }
                }
            }
        }
    }
    if objects.is_empty() || !objects.iter().all(is_wire) {
        return Reply {
            text: out.to_string(),
            usage: Usage::default(),
        };
    }
    let mut reply = Reply::default();
    let mut calls = Vec::new();
    for v in &objects {
        let msg = v
            .get("message")
            .or_else(|| v.pointer("/choices/0/message"))
            .or_else(|| v.pointer("/choices/0/delta"));
        if let Some(s) = msg.and_then(|m| m.get("content")).and_then(Value::as_str) {
            reply.text.push_str(s);
        }
        if let Some(s) = v.get("response").and_then(Value::as_str) {
            reply.text.push_str(s);
        }
        if let Some(Value::Array(tc)) = msg.and_then(|m| m.get("tool_calls")) {
            calls.extend(tc.iter().cloned());
        }
        let n = |p: &str| v.pointer(p).and_then(Value::as_u64).unwrap_or(0);
        let u = Usage {
            prompt_tokens: n("/prompt_eval_count") + n("/usage/prompt_tokens"),
            completion_tokens: n("/eval_count") + n("/usage/completion_tokens"),
            total_tokens: 0,
        };
        reply.usage.add(u);
    }
    for c in calls {
        if let Ok(parts) = crate::call::calls_from_value(&c, crate::call::Evidence::Strong) {
            for p in parts {
                let body = serde_json::json!({"name": p.name, "arguments": p.arguments});
                reply
                    .text
                    .push_str(&format!("\n<tool_call>{body}</tool_call>"));
            }
        }
    }
    reply
}

fn is_wire(v: &Value) -> bool {
    [
        "message",
        "choices",
        "response",
        "usage",
        "eval_count",
        "done",
    ]
    .iter()
    .any(|k| v.get(*k).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failure(kind: FailureKind) -> Failure {
        Failure {
            kind,
            code: "TLP-004",
            errors: vec!["/days: expected integer, got string \"three\"".into()],
            line: 3,
            column: 1,
            raw: "<tool_call>…</tool_call>".into(),
            tool: Some("book".into()),
            schema: Some(serde_json::json!({"type": "object",
                "properties": {"days": {"type": "integer"}, "note": {"type": "string"}},
                "required": ["days"]})),
        }
    }

    #[test]
    fn prompts_differ_by_kind_and_fill_placeholders() {
        let s = prompt(None, &failure(FailureKind::Schema));
        assert!(s.contains("tool `book`"));
        assert!(s.contains("\"days\": {"));
        assert!(s.contains(r#"{"name": "book", "arguments": {"days":0}}"#));
        let p = prompt(None, &failure(FailureKind::Parse));
        assert!(p.contains("could not be parsed"));
        let t = prompt(
            Some("{kind} {code} {line}:{column} {nope} {"),
            &failure(FailureKind::Parse),
        );
        assert_eq!(t, "parse TLP-004 3:1 {nope} {");
    }

    #[test]
    fn replies_in_wire_formats() {
        let r = reply_from_output(
            "{\"message\":{\"content\":\"hi \"},\"done\":false}\n\
             {\"message\":{\"content\":\"there\"},\"done\":true,\"prompt_eval_count\":10,\"eval_count\":5}\n",
        );
        assert_eq!(r.text, "hi there");
        assert_eq!(r.usage.total_tokens, 15);
        let r = reply_from_output(
            r#"{"choices":[{"message":{"content":null,"tool_calls":[{"id":"c1","type":"function",
                "function":{"name":"book","arguments":"{\"days\":3}"}}]}}],
                "usage":{"prompt_tokens":7,"completion_tokens":2}}"#,
        );
        assert!(r
            .text
            .contains(r#"<tool_call>{"name":"book","arguments":{"days":3}}</tool_call>"#));
        assert_eq!(r.usage.prompt_tokens, 7);
        assert_eq!(reply_from_output("plain {text}").text, "plain {text}");
    }
}
