//! Message logs of multi-agent frameworks: AutoGen (0.4 and later, and
//! AG2's port of its AgentChat).
//!
//! AutoGen keeps two lists, both a list of objects typed by `type`:
//!
//! * the model context (`AssistantAgent.save_state()`'s
//!   `llm_context.messages`, a `ChatCompletionContext`'s messages):
//!   `SystemMessage`, `UserMessage`, `AssistantMessage` whose `content` is
//!   text or a list of `FunctionCall` (`id`, `name`, `arguments` as JSON
//!   text), and `FunctionExecutionResultMessage` whose `content` is a list
//!   of `FunctionExecutionResult` (`call_id`, `content`, `name`,
//!   `is_error`);
//! * the AgentChat messages and events (`TaskResult.messages`, a team's
//!   `message_thread`): `TextMessage` and the like from a `source`,
//!   `ToolCallRequestEvent` (a list of `FunctionCall`) and
//!   `ToolCallExecutionEvent` (a list of `FunctionExecutionResult`).
//!
//! Both are read as chat messages: the calls an assistant message's, each
//! result a tool message answering its `call_id`. A `ToolCallSummaryMessage`
//! is the results written out again by the agent (no model wrote it), and
//! thoughts, streaming chunks and memory queries are not turns.

use super::Found;
use serde_json::{json, Value};

/// The message types that hold calls or results.
const TOOL_TYPES: [&str; 4] = [
    "AssistantMessage",
    "FunctionExecutionResultMessage",
    "ToolCallRequestEvent",
    "ToolCallExecutionEvent",
];

/// Whether `m` is an AutoGen message (a `type` naming a message or an
/// event, and `content`).
fn typed(m: &Value) -> Option<&str> {
    let ty = m.get("type")?.as_str()?;
    (m.get("content").is_some() && (ty.ends_with("Message") || ty.ends_with("Event"))).then_some(ty)
}

/// An AutoGen message list: bare, or an object's `messages`.
pub(super) fn autogen(v: &Value, p: &str) -> Option<Found> {
    let (list, lp) = match v {
        Value::Object(o) => (o.get("messages")?.as_array()?, format!("{p}/messages")),
        Value::Array(a) => (a, p.to_string()),
        _ => return None,
    };
    let types: Vec<&str> = list.iter().map(typed).collect::<Option<_>>()?;
    if !types.iter().any(|t| TOOL_TYPES.contains(t)) {
        return None;
    }
    let mut f = Found::moved("autogen", p, Value::Null);
    f.remap.clear();
    let mut messages: Vec<Value> = Vec::new();
    for (k, (m, ty)) in list.iter().zip(types).enumerate() {
        let mp = format!("{lp}/{k}");
        let content = m.get("content").unwrap_or(&Value::Null);
        let n = messages.len();
        match ty {
            "SystemMessage" => {
                messages.push(json!({"role": "system", "content": text(content)}));
                f.map(format!("/messages/{n}"), mp, false);
            }
            "AssistantMessage" | "ToolCallRequestEvent" => {
                let mut msg = json!({"role": "assistant", "content": null});
                if let Value::Array(calls) = content {
                    let mut list = Vec::new();
                    for (i, c) in calls.iter().enumerate() {
                        let mut call = json!({"function": {
                            "name": c.get("name").cloned().unwrap_or(Value::Null),
                            "arguments": c.get("arguments").cloned().unwrap_or(json!({}))}});
                        // an empty id (Gemini through AutoGen) is no id
                        if let Some(id) = c
                            .get("id")
                            .filter(|i| i.as_str().is_some_and(|s| !s.is_empty()))
                        {
                            call["id"] = id.clone();
                        }
                        f.map(
                            format!("/messages/{n}/tool_calls/{i}/function/arguments"),
                            format!("{mp}/content/{i}/arguments"),
                            true,
                        );
                        f.map(
                            format!("/messages/{n}/tool_calls/{i}"),
                            format!("{mp}/content/{i}"),
                            false,
                        );
                        list.push(call);
                    }
                    msg["tool_calls"] = Value::Array(list);
                    // the text the model wrote beside its calls
                    if let Some(t) = m.get("thought").filter(|t| t.is_string()) {
                        msg["content"] = t.clone();
                    }
                } else {
                    msg["content"] = text(content);
                }
                messages.push(msg);
                f.map(format!("/messages/{n}"), mp, false);
            }
            "FunctionExecutionResultMessage" | "ToolCallExecutionEvent" => {
                for (i, r) in content.as_array().into_iter().flatten().enumerate() {
                    let n = messages.len();
                    let mut t = json!({"role": "tool",
                        "content": super::result_text(r.get("content"))});
                    if let Some(id) = r
                        .get("call_id")
                        .filter(|i| i.as_str().is_some_and(|s| !s.is_empty()))
                    {
                        t["tool_call_id"] = id.clone();
                    }
                    if let Some(name) = r.get("name").filter(|x| x.is_string()) {
                        t["name"] = name.clone();
                    }
                    messages.push(t);
                    f.map(format!("/messages/{n}"), format!("{mp}/content/{i}"), false);
                }
            }
            "UserMessage" | "TextMessage" | "MultiModalMessage" | "StopMessage"
            | "HandoffMessage" | "StructuredMessage" => {
                let user =
                    ty == "UserMessage" || m.get("source").and_then(Value::as_str) == Some("user");
                let role = if user { "user" } else { "assistant" };
                messages.push(json!({"role": role, "content": text(content)}));
                f.map(format!("/messages/{n}"), mp, false);
            }
            // the results written out again, thoughts, chunks, memory
            _ => {}
        }
    }
    f.conversation(messages, None)
}

/// A message's content as text: a string, or the strings of a list (a
/// multimodal message's images left out); other JSON as compact JSON.
fn text(v: &Value) -> Value {
    match v {
        Value::String(_) => v.clone(),
        Value::Array(a) => Value::String(
            a.iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        Value::Null => Value::String(String::new()),
        other => Value::String(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{calls, conversations};
    use crate::config::Config;
    use serde_json::json;

    /// Calls and results pair by `call_id`; an empty id is none; the
    /// summary message is no turn.
    #[test]
    fn autogen_events_give_calls_and_results() {
        let doc = json!({"messages": [
            {"type": "TextMessage", "source": "user", "content": "hi"},
            {"type": "ToolCallRequestEvent", "source": "a", "content": [
                {"id": "", "name": "f", "arguments": "{}"},
                {"id": "c2", "name": "g", "arguments": "{\"x\": 1}"}]},
            {"type": "ToolCallExecutionEvent", "source": "a", "content": [
                {"call_id": "", "content": "1", "is_error": false},
                {"call_id": "c2", "content": "2", "is_error": false}]},
            {"type": "ToolCallSummaryMessage", "source": "a", "content": "1\n2"}]});
        let ts = conversations(&doc, None, false, &Config::default());
        assert_eq!(ts.len(), 1);
        let c: Vec<String> = calls(&ts[0]).map(|e| e.pointer.clone()).collect();
        assert_eq!(c, vec!["/messages/1/content/0", "/messages/1/content/1"]);
        // the summary adds no assistant turn after the results
        assert!(
            ts[0].entries.iter().all(|e| e.turn <= 3),
            "{:?}",
            ts[0].entries.len()
        );
    }

    /// A list of typed objects none of which holds a call is not AutoGen.
    #[test]
    fn a_list_without_calls_is_not_autogen() {
        let doc = json!([{"type": "TextMessage", "source": "user", "content": "hi"}]);
        assert!(super::autogen(&doc, "").is_none());
    }
}
