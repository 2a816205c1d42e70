//! llama-server's native `/completion` stream (and its SSE framing).
//!
//! Each payload is `{"content": "…", "stop": false}`; the last has
//! `"stop": true` with generation details: `tokens_evaluated`,
//! `tokens_predicted`, and the stop cause (`stop_type` in current versions,
//! `stopped_eos` / `stopped_limit` / `stopped_word` earlier). Payloads shaped
//! like OpenAI chat chunks (llama-server's `/v1/chat/completions`) are passed
//! to the OpenAI decoder.

use super::openai::OpenAi;
use super::{error_text, Item};
use serde_json::Value;

/// The llama-server decoder.
#[derive(Debug, Default)]
pub(crate) struct LlamaServer {
    chat: OpenAi,
}

impl LlamaServer {
    /// Decodes one payload.
    pub(crate) fn decode(&mut self, v: &Value, out: &mut Vec<Item>) {
        let Some(obj) = v.as_object() else {
            out.push(Item::not_an_object("payload"));
            return;
        };
        if !looks_like(obj) && !obj.contains_key("error") {
            self.chat.decode(v, out);
            return;
        }
        if let Some(e) = obj.get("error") {
            out.push(Item::server_error(&error_text(e)));
            return;
        }
        if let Some(Value::String(t)) = obj.get("content") {
            if !t.is_empty() {
                out.push(Item::Text(t.clone().into_bytes()));
            }
        }
        if obj.get("stop").and_then(Value::as_bool) == Some(true) {
            let prompt = obj.get("tokens_evaluated").and_then(Value::as_u64);
            let completion = obj.get("tokens_predicted").and_then(Value::as_u64);
            out.extend(Item::usage(prompt, completion));
            out.push(Item::Finish {
                choice: None,
                reason: stop_reason(obj),
            });
            out.push(Item::End);
        }
    }
}

/// The stop cause, whichever version's fields carry it.
fn stop_reason(obj: &serde_json::Map<String, Value>) -> Option<String> {
    if let Some(s) = obj.get("stop_type").and_then(Value::as_str) {
        return Some(s.to_string());
    }
    for (key, reason) in [
        ("stopped_eos", "eos"),
        ("stopped_limit", "limit"),
        ("stopped_word", "word"),
    ] {
        if obj.get(key).and_then(Value::as_bool) == Some(true) {
            return Some(reason.to_string());
        }
    }
    None
}

/// True when a JSON object has the shape of a `/completion` payload.
pub(crate) fn looks_like(obj: &serde_json::Map<String, Value>) -> bool {
    obj.contains_key("content")
        && (obj.contains_key("stop")
            || obj.contains_key("tokens_predicted")
            || obj.contains_key("id_slot"))
        && !obj.contains_key("choices")
}
