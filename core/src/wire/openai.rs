//! OpenAI wire shapes: a `chat.completion` object, `chat.completion.chunk`s
//! (as NDJSON or as SSE `data:` payloads), and the Responses API (its event
//! stream and a whole `response` object).
//!
//! * `content` / `delta.content` / `refusal` and `response.output_text.delta`
//!   are model text; `reasoning_content` / `reasoning` and
//!   `response.reasoning_*.delta` are reasoning.
//! * `message.tool_calls` are whole calls; `delta.tool_calls` fragments (and
//!   the deprecated `function_call`) go to the [accumulator](super::accumulate),
//!   keyed by `(choice, index)`; a choice's calls complete at its
//!   `finish_reason`.
//! * Responses function calls open at `response.output_item.added`, grow with
//!   `response.function_call_arguments.delta`, take the full string from
//!   `….done` and complete at `response.output_item.done`; the final
//!   `response.completed` event completes the rest, and function calls in its
//!   `output` that never streamed are reported from there.
//! * `usage` (chat: `prompt_tokens`/`completion_tokens`, Responses:
//!   `input_tokens`/`output_tokens`) is reported in `done`.

use super::accumulate::Fragment;
use super::{error_text, Item, Usage};
use serde_json::{Map, Value};
use std::collections::HashSet;

/// Format id of calls an OpenAI-compatible server parsed itself.
pub const FORMAT: &str = "openai";

/// The OpenAI decoder.
#[derive(Debug, Default)]
pub(crate) struct OpenAi {
    /// Responses API function-call items seen in the current response (item
    /// ids and call ids), so `response.completed` does not repeat them.
    seen: HashSet<String>,
}

fn s(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str).map(str::to_string)
}

fn text_item(v: Option<&Value>, reasoning: bool, out: &mut Vec<Item>) {
    if let Some(Value::String(t)) = v {
        if !t.is_empty() {
            let b = t.clone().into_bytes();
            out.push(if reasoning {
                Item::Reasoning(b)
            } else {
                Item::Text(b)
            });
        }
    }
}

/// Arguments as a string: fragments are strings; an object (some servers)
/// is serialised.
fn args_string(v: Option<&Value>) -> Option<String> {
    match v {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => Some(other.to_string()),
    }
}

fn usage(u: &Value) -> Option<Usage> {
    let u = u.as_object()?;
    let get = |a: &str, b: &str| {
        u.get(a)
            .and_then(Value::as_u64)
            .or_else(|| u.get(b).and_then(Value::as_u64))
    };
    Some(Usage {
        prompt_tokens: get("prompt_tokens", "input_tokens"),
        completion_tokens: get("completion_tokens", "output_tokens"),
        total_tokens: get("total_tokens", "total_tokens"),
    })
}

impl OpenAi {
    /// Decodes one payload.
    pub(crate) fn decode(&mut self, v: &Value, out: &mut Vec<Item>) {
        let Some(obj) = v.as_object() else {
            out.push(Item::not_an_object("payload"));
            return;
        };
        if let Some(t) = obj.get("type").and_then(Value::as_str) {
            if t.starts_with("response.") || t == "error" {
                self.event(t, obj, out);
                return;
            }
        }
        if let Some(e) = obj.get("error") {
            if !e.is_null() {
                out.push(Item::server_error(&error_text(e)));
                return;
            }
        }
        if let Some(Value::String(m)) = obj.get("model") {
            out.push(Item::Model(m.clone()));
        }
        if obj.get("object").and_then(Value::as_str) == Some("response") {
            self.response_output(obj, true, out);
            out.push(Item::Finish {
                choice: None,
                reason: s(obj.get("status")),
            });
            out.push(Item::End);
            return;
        }
        let mut whole = false;
        let mut finished = 0usize;
        let mut n_choices = 0usize;
        if let Some(Value::Array(choices)) = obj.get("choices") {
            n_choices = choices.len();
            for (k, c) in choices.iter().enumerate() {
                let Some(c) = c.as_object() else { continue };
                let choice = c.get("index").and_then(Value::as_u64).unwrap_or(k as u64);
                if let Some(Value::Object(m)) = c.get("message") {
                    whole = true;
                    self.message(m, out);
                } else if let Some(Value::Object(d)) = c.get("delta") {
                    self.delta(choice, d, out);
                } else if let Some(t) = c.get("text") {
                    // legacy completions
                    text_item(Some(t), false, out);
                }
                if let Some(r) = c.get("finish_reason").and_then(Value::as_str) {
                    finished += 1;
                    out.push(Item::Finish {
                        choice: if whole { None } else { Some(choice) },
                        reason: Some(r.to_string()),
                    });
                }
            }
        }
        if let Some(u) = obj.get("usage").and_then(usage) {
            out.push(Item::Usage(u));
        }
        if whole || (n_choices > 0 && finished == n_choices) {
            out.push(Item::End);
        }
    }

    /// A whole assistant message (non-streaming).
    fn message(&mut self, m: &Map<String, Value>, out: &mut Vec<Item>) {
        text_item(
            m.get("reasoning_content").or_else(|| m.get("reasoning")),
            true,
            out,
        );
        text_item(m.get("content"), false, out);
        text_item(m.get("refusal"), false, out);
        if let Some(Value::Array(calls)) = m.get("tool_calls") {
            for c in calls {
                out.push(Item::Call {
                    format: FORMAT,
                    value: c.clone(),
                });
            }
        }
        if let Some(fc @ Value::Object(_)) = m.get("function_call") {
            out.push(Item::Call {
                format: FORMAT,
                value: fc.clone(),
            });
        }
    }

    /// One streamed delta.
    fn delta(&mut self, choice: u64, d: &Map<String, Value>, out: &mut Vec<Item>) {
        text_item(
            d.get("reasoning_content").or_else(|| d.get("reasoning")),
            true,
            out,
        );
        text_item(d.get("content"), false, out);
        text_item(d.get("refusal"), false, out);
        if let Some(Value::Array(calls)) = d.get("tool_calls") {
            for c in calls {
                let Some(c) = c.as_object() else { continue };
                let f = c.get("function").and_then(Value::as_object);
                // legacy flat {name, arguments} elements are accepted too
                let field = |k: &str| f.and_then(|f| f.get(k)).or_else(|| c.get(k));
                out.push(Item::Fragment(Fragment {
                    choice,
                    index: c.get("index").and_then(Value::as_u64),
                    id: s(c.get("id")),
                    item_id: None,
                    name: s(field("name")),
                    arguments: args_string(field("arguments")),
                    replace: false,
                    complete: false,
                }));
            }
        }
        if let Some(Value::Object(fc)) = d.get("function_call") {
            out.push(Item::Fragment(Fragment {
                choice,
                index: Some(0),
                name: s(fc.get("name")),
                arguments: args_string(fc.get("arguments")),
                ..Fragment::default()
            }));
        }
    }

    /// One Responses API event.
    fn event(&mut self, t: &str, obj: &Map<String, Value>, out: &mut Vec<Item>) {
        let output_index = obj.get("output_index").and_then(Value::as_u64);
        match t {
            "response.output_text.delta" | "response.refusal.delta" => {
                text_item(obj.get("delta"), false, out)
            }
            "response.reasoning_text.delta"
            | "response.reasoning.delta"
            | "response.reasoning_summary_text.delta" => text_item(obj.get("delta"), true, out),
            "response.output_item.added" | "response.output_item.done" => {
                let Some(item) = obj.get("item").and_then(Value::as_object) else {
                    return;
                };
                if item.get("type").and_then(Value::as_str) != Some("function_call") {
                    return;
                }
                let done = t.ends_with(".done");
                let args = args_string(item.get("arguments")).filter(|a| !(done && a.is_empty()));
                self.remember(item);
                out.push(Item::Fragment(Fragment {
                    choice: 0,
                    index: output_index,
                    id: s(item.get("call_id")),
                    item_id: s(item.get("id")),
                    name: s(item.get("name")),
                    replace: done && args.is_some(),
                    arguments: args,
                    complete: done,
                }));
            }
            "response.function_call_arguments.delta" | "response.function_call_arguments.done" => {
                let done = t.ends_with(".done");
                let key = if done { "arguments" } else { "delta" };
                out.push(Item::Fragment(Fragment {
                    choice: 0,
                    index: output_index,
                    item_id: s(obj.get("item_id")),
                    arguments: args_string(obj.get(key)),
                    replace: done,
                    ..Fragment::default()
                }));
            }
            "response.completed" | "response.incomplete" | "response.failed" => {
                let resp = obj.get("response").and_then(Value::as_object);
                if let Some(resp) = resp {
                    self.response_output(resp, false, out);
                    if let Some(u) = resp.get("usage").and_then(usage) {
                        out.push(Item::Usage(u));
                    }
                    if let Some(e) = resp.get("error").filter(|e| !e.is_null()) {
                        out.push(Item::ServerError {
                            message: format!("server error: {}", error_text(e)),
                            hint: Some("the response failed on the server".into()),
                        });
                    }
                }
                let status = resp
                    .and_then(|r| r.get("status"))
                    .and_then(Value::as_str)
                    .unwrap_or(&t["response.".len()..]);
                out.push(Item::Finish {
                    choice: None,
                    reason: Some(status.to_string()),
                });
                out.push(Item::End);
                self.seen.clear();
            }
            "error" => out.push(Item::server_error(&error_text(&Value::Object(obj.clone())))),
            _ => {}
        }
    }

    fn remember(&mut self, item: &Map<String, Value>) {
        for k in ["id", "call_id"] {
            if let Some(id) = item.get(k).and_then(Value::as_str) {
                self.seen.insert(id.to_string());
            }
        }
    }

    /// The `output` of a whole `response` object: text, reasoning, and the
    /// function calls that were not streamed. `text`: also the message text
    /// (a whole object; in a stream the text came as deltas).
    fn response_output(&mut self, resp: &Map<String, Value>, text: bool, out: &mut Vec<Item>) {
        let Some(Value::Array(items)) = resp.get("output") else {
            return;
        };
        for item in items {
            let Some(item) = item.as_object() else {
                continue;
            };
            let seen = ["id", "call_id"].iter().any(|k| {
                item.get(*k)
                    .and_then(Value::as_str)
                    .is_some_and(|id| self.seen.contains(id))
            });
            if seen {
                continue;
            }
            match item.get("type").and_then(Value::as_str) {
                Some("reasoning") if text => {
                    for key in ["content", "summary"] {
                        if let Some(Value::Array(parts)) = item.get(key) {
                            for p in parts {
                                text_item(p.get("text"), true, out);
                            }
                        }
                    }
                }
                Some("function_call") => out.push(Item::Call {
                    format: FORMAT,
                    value: Value::Object(function_call_item(item)),
                }),
                Some("message") if text => {
                    if let Some(Value::Array(parts)) = item.get("content") {
                        for p in parts {
                            text_item(p.get("text").or_else(|| p.get("refusal")), false, out);
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

/// A Responses `function_call` item with its `call_id` (the id a client
/// answers with) as the call's id; the item id is kept as `item_id`.
fn function_call_item(item: &Map<String, Value>) -> Map<String, Value> {
    if !item.contains_key("call_id") {
        return item.clone();
    }
    item.iter()
        .map(|(k, v)| {
            let k = if k == "id" { "item_id" } else { k.as_str() };
            (k.to_string(), v.clone())
        })
        .collect()
}

/// True when a JSON object has the shape of an OpenAI payload.
pub(crate) fn looks_like(obj: &Map<String, Value>) -> bool {
    obj.contains_key("choices")
        || obj
            .get("object")
            .and_then(Value::as_str)
            .is_some_and(|o| o.starts_with("chat.completion") || o == "response")
        || obj
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|t| t.starts_with("response."))
}
