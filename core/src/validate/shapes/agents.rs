//! Message logs of multi-agent frameworks and chat front ends: AutoGen
//! (0.4 and later), Open WebUI and LM Studio.
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

use super::{message_array, side_tools, Found};
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

/// The opener of a finished tool call in an Open WebUI message.
pub(super) const OWUI_OPEN: &str = "<details type=\"tool_calls\"";

/// An Open WebUI chat (`chat.messages` of an exported chat, or the list):
/// `{role, content}` messages whose assistant content holds the tool
/// calls Open WebUI ran as `<details type="tool_calls" done="true"
/// id="…" name="…" arguments="…" result="…">` blocks (the attributes
/// HTML-escaped, `arguments` JSON text, `result` JSON; newer releases
/// write the result in the block's body). Read as chat messages: each run
/// of blocks an assistant turn with those calls, each finished block's
/// result a tool message answering it, the text after them the next
/// assistant turn.
pub(super) fn openwebui(v: &Value, p: &str) -> Option<Found> {
    let (list, lp, o) = message_array(v, p)?;
    let content = |m: &Value| m.get("content").and_then(Value::as_str).map(str::to_string);
    let mut found_block = false;
    for m in list {
        m.get("role")?.as_str()?;
        let c = content(m)?;
        if m.get("role").and_then(Value::as_str) == Some("assistant") && c.contains(OWUI_OPEN) {
            found_block = true;
        }
    }
    if !found_block {
        return None;
    }
    let mut f = Found::moved("openwebui", p, Value::Null);
    f.remap.clear();
    let mut messages: Vec<Value> = Vec::new();
    for (k, m) in list.iter().enumerate() {
        let mp = format!("{lp}/{k}");
        let role = m.get("role").and_then(Value::as_str).unwrap_or("user");
        let text = content(m).unwrap_or_default();
        if role != "assistant" || !text.contains(OWUI_OPEN) {
            f.map(format!("/messages/{}", messages.len()), mp, false);
            messages.push(json!({"role": role, "content": text}));
            continue;
        }
        let cp = format!("{mp}/content");
        for turn in owui_turns(&text) {
            let n = messages.len();
            let mut msg = json!({"role": "assistant", "content": turn.text});
            if !turn.calls.is_empty() {
                let mut calls = Vec::new();
                for (i, b) in turn.calls.iter().enumerate() {
                    let mut c = json!({"function": {"name": b.name, "arguments": b.arguments}});
                    if let Some(id) = &b.id {
                        c["id"] = Value::String(id.clone());
                    }
                    f.map(format!("/messages/{n}/tool_calls/{i}"), cp.clone(), false);
                    calls.push(c);
                }
                msg["tool_calls"] = Value::Array(calls);
            }
            f.map(format!("/messages/{n}"), cp.clone(), false);
            messages.push(msg);
            for b in turn.calls {
                let Some(result) = b.result else { continue };
                let mut t = json!({"role": "tool", "content": result});
                if let Some(id) = b.id {
                    t["tool_call_id"] = Value::String(id);
                }
                f.map(format!("/messages/{}", messages.len()), cp.clone(), false);
                messages.push(t);
            }
        }
    }
    f.conversation(messages, o.and_then(side_tools))
}

/// A `<details type="tool_calls">` block: the call and, once done, its
/// result as text.
struct Block {
    id: Option<String>,
    name: String,
    arguments: String,
    result: Option<String>,
}

/// An assistant turn of an Open WebUI message: the text before a run of
/// blocks, and the blocks.
struct Turn {
    text: String,
    calls: Vec<Block>,
}

/// The turns of an assistant message's content.
fn owui_turns(s: &str) -> Vec<Turn> {
    let mut turns = Vec::new();
    let mut text = String::new();
    let mut calls: Vec<Block> = Vec::new();
    let mut rest = s;
    while let Some(at) = rest.find(OWUI_OPEN) {
        let before = &rest[..at];
        if !before.trim().is_empty() && !calls.is_empty() {
            // text after a run of blocks: a new turn
            turns.push(Turn {
                text: text.trim().to_string(),
                calls: std::mem::take(&mut calls),
            });
            text.clear();
        }
        text.push_str(before);
        let tag = &rest[at..];
        let Some(end) = tag.find('>') else { break };
        let attrs = owui_attributes(&tag[..end]);
        let body_end = tag.find("</details>");
        let after = body_end.map_or(tag.len(), |e| e + "</details>".len());
        let body = body_end
            .filter(|e| *e > end)
            .map(|e| &tag[end + 1..e])
            .unwrap_or("");
        let get = |k: &str| attrs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        let done = get("done").as_deref() == Some("true");
        let result = get("result").or_else(|| {
            // the body after `<summary>…</summary>`
            let b = body.split_once("</summary>").map_or(body, |x| x.1).trim();
            (!b.is_empty()).then(|| unescape(b))
        });
        let result = result
            .filter(|_| done)
            .map(|r| match serde_json::from_str::<Value>(&r) {
                Ok(Value::String(t)) => t,
                Ok(other) => other.to_string(),
                Err(_) => r,
            });
        calls.push(Block {
            id: get("id").filter(|i| !i.is_empty()),
            name: get("name").unwrap_or_default(),
            arguments: get("arguments").unwrap_or_else(|| "{}".to_string()),
            result,
        });
        rest = &tag[after..];
    }
    if !calls.is_empty() && !rest.trim().is_empty() {
        // the answer after the last run of blocks: a turn of its own
        turns.push(Turn {
            text: text.trim().to_string(),
            calls: std::mem::take(&mut calls),
        });
        text.clear();
    }
    text.push_str(rest);
    if !calls.is_empty() || !text.trim().is_empty() {
        turns.push(Turn {
            text: text.trim().to_string(),
            calls,
        });
    }
    turns
}

/// The `name="value"` attributes of an opening tag, values unescaped.
fn owui_attributes(tag: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = tag;
    while let Some(eq) = rest.find("=\"") {
        let name = rest[..eq]
            .rsplit(|c: char| c.is_whitespace())
            .next()
            .unwrap_or("")
            .to_string();
        let after = &rest[eq + 2..];
        let Some(close) = after.find('"') else { break };
        out.push((name, unescape(&after[..close])));
        rest = &after[close + 1..];
    }
    out
}

/// HTML's character references as Python's `html.escape` writes them.
fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// An LM Studio conversation (`~/.lmstudio/conversations/*.conversation.json`):
/// `messages`, each `{versions, currentlySelected}` (the regenerated
/// answers; the selected one is the conversation). A version is a
/// `singleStep` message (`role`, `content` parts) or an assistant's
/// `multiStep` one whose `steps` are `contentBlock`s (parts: `text`,
/// `toolCallRequest` with `name`, `parameters`, `callId`,
/// `toolCallRequestId`; `toolCallResult` with `content` and `callId`) and
/// `toolStatus` or debug steps (no turn). A result, or a block after one
/// with calls, ends the assistant turn before it; the text after it is the
/// next one. `systemPrompt` is the
/// system message; the tools are a plugin's, not kept in the file.
pub(super) fn lmstudio(v: &Value, p: &str) -> Option<Found> {
    let o = v.as_object()?;
    let list = o.get("messages")?.as_array()?;
    let selected = |m: &Value| -> Option<usize> {
        m.get("versions")?.as_array()?;
        let k = m.get("currentlySelected")?.as_u64()?;
        usize::try_from(k).ok()
    };
    let picks: Vec<usize> = list.iter().map(selected).collect::<Option<_>>()?;
    if list.is_empty() {
        return None;
    }
    let mut f = Found::moved("lmstudio", p, Value::Null);
    f.remap.clear();
    let mut messages: Vec<Value> = Vec::new();
    if let Some(sys) = o
        .get("systemPrompt")
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
    {
        messages.push(json!({"role": "system", "content": sys}));
        f.map("/messages/0".into(), format!("{p}/systemPrompt"), false);
    }
    for (k, (m, sel)) in list.iter().zip(picks).enumerate() {
        let vp = format!("{p}/messages/{k}/versions/{sel}");
        let Some(ver) = m.get("versions").and_then(|vs| vs.get(sel)) else {
            continue;
        };
        let role = ver
            .get("role")
            .and_then(Value::as_str)
            .unwrap_or("assistant");
        let Some(steps) = ver.get("steps").and_then(Value::as_array) else {
            // a single step: the message's own content parts
            let n = messages.len();
            messages.push(json!({"role": role, "content": lms_text(ver.get("content"))}));
            f.map(format!("/messages/{n}"), vp, false);
            continue;
        };
        let mut turn: Option<(usize, Value)> = None;
        let flush = |turn: &mut Option<(usize, Value)>, messages: &mut Vec<Value>| {
            if let Some((_, msg)) = turn.take() {
                messages.push(msg);
            }
        };
        for (s, step) in steps.iter().enumerate() {
            if step.get("type").and_then(Value::as_str) != Some("contentBlock") {
                continue;
            }
            // a block after one with calls is the next prediction
            if turn
                .as_ref()
                .is_some_and(|(_, m)| m.get("tool_calls").is_some())
            {
                flush(&mut turn, &mut messages);
            }
            let sp = format!("{vp}/steps/{s}");
            let parts = step.get("content").and_then(Value::as_array);
            for (c, part) in parts.into_iter().flatten().enumerate() {
                let cp = format!("{sp}/content/{c}");
                match part.get("type").and_then(Value::as_str) {
                    Some("toolCallResult") => {
                        flush(&mut turn, &mut messages);
                        let n = messages.len();
                        let mut t = json!({"role": "tool",
                            "content": super::result_text(part.get("content"))});
                        if let Some(id) = lms_id(part) {
                            t["tool_call_id"] = Value::String(id);
                        }
                        messages.push(t);
                        f.map(format!("/messages/{n}"), cp, false);
                    }
                    Some(ty @ ("text" | "toolCallRequest")) => {
                        let (n, msg) = turn.get_or_insert_with(|| {
                            let n = messages.len();
                            f.map(format!("/messages/{n}"), sp.clone(), false);
                            (n, json!({"role": role, "content": ""}))
                        });
                        if ty == "text" {
                            let t = part.get("text").and_then(Value::as_str).unwrap_or("");
                            if let Some(Value::String(acc)) = msg.get_mut("content") {
                                acc.push_str(t);
                            }
                            continue;
                        }
                        if msg.get("tool_calls").is_none() {
                            msg["tool_calls"] = json!([]);
                        }
                        let mut call = json!({"function": {
                            "name": part.get("name").cloned().unwrap_or(Value::Null),
                            "arguments": part.get("parameters").cloned().unwrap_or(json!({}))}});
                        if let Some(id) = lms_id(part) {
                            call["id"] = Value::String(id);
                        }
                        if let Some(Value::Array(calls)) = msg.get_mut("tool_calls") {
                            let i = calls.len();
                            f.map(
                                format!("/messages/{n}/tool_calls/{i}/function/arguments"),
                                format!("{cp}/parameters"),
                                true,
                            );
                            f.map(format!("/messages/{n}/tool_calls/{i}"), cp, false);
                            calls.push(call);
                        }
                    }
                    _ => {}
                }
            }
        }
        flush(&mut turn, &mut messages);
    }
    // a conversation with no tool step is still LM Studio's, but a list of
    // versions with no message in them is nothing
    if messages.is_empty() {
        return None;
    }
    f.conversation(messages, None)
}

/// The id pairing an LM Studio request with its result: `callId` (a
/// number the app counts), else `toolCallRequestId`.
fn lms_id(part: &Value) -> Option<String> {
    match part.get("callId") {
        Some(Value::Number(n)) => return Some(n.to_string()),
        Some(Value::String(s)) if !s.is_empty() => return Some(s.clone()),
        _ => {}
    }
    part.get("toolCallRequestId")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// A single-step message's text: its `text` parts joined (files left
/// out), or a string as it is.
fn lms_text(v: Option<&Value>) -> Value {
    match v {
        Some(Value::String(s)) => Value::String(s.clone()),
        Some(Value::Array(a)) => Value::String(
            a.iter()
                .filter_map(|b| b.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join(""),
        ),
        _ => Value::String(String::new()),
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

    /// Open WebUI's blocks: a run of them one turn, the results tool
    /// messages, the text after them the next assistant turn.
    #[test]
    fn openwebui_blocks_are_calls_and_results() {
        let b = |id: &str| {
            format!(
                "<details type=\"tool_calls\" done=\"true\" id=\"{id}\" name=\"f\" \
                 arguments=\"{{&quot;x&quot;: 1}}\" result=\"&quot;ok&quot;\">\n\
                 <summary>Tool Executed</summary>\n</details>\n"
            )
        };
        let turns = super::owui_turns(&format!("Looking.\n{}{}Done.", b("a"), b("b")));
        assert_eq!(turns.len(), 2);
        assert_eq!(turns[0].text, "Looking.");
        assert_eq!(turns[0].calls.len(), 2);
        assert_eq!(turns[0].calls[0].arguments, "{\"x\": 1}");
        assert_eq!(turns[0].calls[1].result.as_deref(), Some("ok"));
        assert_eq!(turns[1].text, "Done.");
        assert!(turns[1].calls.is_empty());
        let doc = json!({"messages": [{"role": "user", "content": "hi"},
            {"role": "assistant", "content": format!("{}Done.", b("a"))}]});
        let ts = conversations(&doc, None, false, &Config::default());
        assert_eq!(calls(&ts[0]).count(), 1);
        // a chat with no block is not Open WebUI's
        let plain = json!({"messages": [{"role": "assistant", "content": "hi"}]});
        assert!(super::openwebui(&plain, "").is_none());
    }

    /// LM Studio: only the selected version is read; a result step answers
    /// its request by `callId`; a chat with other keys is not LM Studio's.
    #[test]
    fn lmstudio_reads_the_selected_version() {
        let req = |id: u64, city: &str| {
            json!({"type": "toolCallRequest", "callId": id, "name": "w",
                "parameters": {"city": city}})
        };
        let doc = json!({"messages": [
            {"versions": [{"type": "singleStep", "role": "user",
                "content": [{"type": "text", "text": "hi"}]}], "currentlySelected": 0},
            {"versions": [
                {"type": "multiStep", "role": "assistant", "steps": [
                    {"type": "contentBlock", "content": [req(1, "A")]}]},
                {"type": "multiStep", "role": "assistant", "steps": [
                    {"type": "contentBlock", "content": [req(2, "B")]},
                    {"type": "toolStatus", "callId": 2},
                    {"type": "contentBlock", "roleOverride": "tool", "content": [
                        {"type": "toolCallResult", "callId": 2, "content": "ok"}]},
                    {"type": "contentBlock", "content": [{"type": "text", "text": "B ok"}]}]}],
             "currentlySelected": 1}]});
        let ts = conversations(&doc, None, false, &Config::default());
        assert_eq!(ts.len(), 1);
        let c: Vec<String> = calls(&ts[0]).map(|e| e.pointer.clone()).collect();
        assert_eq!(c, vec!["/messages/1/versions/1/steps/0/content/0"]);
        let f = super::lmstudio(&doc, "").expect("lmstudio");
        let m = f.value["messages"].as_array().expect("messages");
        assert_eq!(m.len(), 4);
        assert_eq!(m[2]["tool_call_id"], "2");
        assert_eq!(m[3]["content"], "B ok");
        let plain = json!({"messages": [{"role": "user", "content": "hi"}]});
        assert!(super::lmstudio(&plain, "").is_none());
    }
}
