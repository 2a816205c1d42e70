//! Ollama's native API: NDJSON from `/api/chat` and `/api/generate`.
//!
//! Each line is one JSON object. `message.content` (chat) and `response`
//! (generate) are deltas of model text; `thinking` (in `message` or at the top
//! level) is reasoning; `tool_calls` (in `message` or at the top level) are
//! whole calls, arguments as an object (or, from some servers, a string);
//! `{"error": …}` is an error the server reported mid-stream; `done: true`
//! ends the response and carries `done_reason` and the token counts
//! (`prompt_eval_count`, `eval_count`).

use super::{error_text, Item};
use serde_json::Value;

/// Format id of calls Ollama parsed itself.
pub const FORMAT: &str = "ollama";

/// Decodes one Ollama line.
pub(crate) fn decode(v: &Value, out: &mut Vec<Item>) {
    let Some(obj) = v.as_object() else {
        out.push(Item::not_an_object("line"));
        return;
    };
    if let Some(e) = obj.get("error") {
        out.push(Item::server_error(&error_text(e)));
        return;
    }
    if let Some(Value::String(m)) = obj.get("model") {
        out.push(Item::Model(m.clone()));
    }
    let msg = obj.get("message").and_then(Value::as_object);
    let thinking = msg
        .and_then(|m| m.get("thinking"))
        .or_else(|| obj.get("thinking"));
    if let Some(Value::String(t)) = thinking {
        if !t.is_empty() {
            out.push(Item::Reasoning(t.clone().into_bytes()));
        }
    }
    let content = msg
        .and_then(|m| m.get("content"))
        .or_else(|| obj.get("response"));
    if let Some(Value::String(t)) = content {
        if !t.is_empty() {
            out.push(Item::Text(t.clone().into_bytes()));
        }
    }
    let calls = msg
        .and_then(|m| m.get("tool_calls"))
        .or_else(|| obj.get("tool_calls"));
    if let Some(Value::Array(calls)) = calls {
        for c in calls {
            out.push(Item::Call {
                format: FORMAT,
                value: c.clone(),
            });
        }
    }
    if obj.get("done").and_then(Value::as_bool) == Some(true) {
        let reason = obj
            .get("done_reason")
            .and_then(Value::as_str)
            .map(str::to_string);
        let prompt = obj.get("prompt_eval_count").and_then(Value::as_u64);
        let completion = obj.get("eval_count").and_then(Value::as_u64);
        out.extend(Item::usage(prompt, completion));
        out.push(Item::Finish {
            choice: None,
            reason,
        });
        out.push(Item::End);
    }
}

/// True when a JSON object has the shape of an Ollama line.
pub(crate) fn looks_like(obj: &serde_json::Map<String, Value>) -> bool {
    obj.contains_key("model")
        && (obj.contains_key("message")
            || obj.contains_key("response")
            || obj.contains_key("done")
            || obj.contains_key("created_at"))
        && !obj.contains_key("choices")
}
