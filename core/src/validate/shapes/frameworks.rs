//! The message histories and traces agent frameworks write themselves:
//! Pydantic AI, MLflow, Langfuse and Letta.
//!
//! * Pydantic AI keeps a run's messages as `ModelMessagesTypeAdapter`
//!   dumps them (`result.all_messages_json()`): a list of `ModelRequest`
//!   and `ModelResponse` objects (`kind` `request` / `response`), each a
//!   list of `parts` told apart by `part_kind`. A request's parts are
//!   `system-prompt`, `user-prompt`, `tool-return` (`tool_name`,
//!   `content`, `tool_call_id`) and `retry-prompt` (a call's validation
//!   error sent back, or the model asked to try again); a response's are
//!   `text`, `tool-call` (`tool_name`, `args` as an object or JSON text,
//!   `tool_call_id`) and `thinking`. The `builtin-tool-*` parts are tools
//!   the provider ran (web search) inside one response: no caller answers
//!   them, and they are not read.
//! * MLflow writes a trace (`Trace.to_json()`) as `{info, data: {spans}}`,
//!   each span's `attributes` a map of JSON texts: `mlflow.spanType`
//!   (`"CHAT_MODEL"`, `"LLM"`, `"TOOL"`, …), `mlflow.spanInputs` (a chat
//!   request: `messages`, `tools`) and `mlflow.spanOutputs` (a chat
//!   completion, an Anthropic message, or the message), and
//!   `mlflow.chat.tools`. A model span's input repeats the turns before
//!   it, so the trace is read as its last model span (as LangSmith runs
//!   and OpenTelemetry traces are); a `TOOL` span is the run of a call
//!   that span already holds.
//! * Langfuse keeps each model call as a `GENERATION` observation (its
//!   public API's `/observations`, a trace's `observations`, the UI's
//!   JSON export): `input` the request's messages (a list, or `{messages,
//!   tools}` when tools were sent, as its OpenAI integration writes it),
//!   `output` the reply message. A trace is read as its generation with
//!   the longest input (the later calls repeat the turns before them).
//! * Letta writes an agent file (`.af`, `export_file()`) as `{agents,
//!   tools, blocks, …}`: each agent's `messages` are OpenAI-like (`role`,
//!   `content` a list of `{type: "text", text}`, `tool_calls`,
//!   `tool_call_id`, and `tool_returns` with each result's
//!   `func_response`), its `tool_ids` name the file's `tools`, whose
//!   `json_schema` is the registry. The agent's own `tools` list is empty
//!   in an export and is not the registry.

use super::{message_array, result_text, tool_list, Found};
use serde_json::{json, Value};

/// Whether `m` is a Pydantic AI message: `kind` `request` or `response`
/// and a list of `parts`.
fn pydantic_message(m: &Value) -> bool {
    matches!(
        m.get("kind").and_then(Value::as_str),
        Some("request" | "response")
    ) && m.get("parts").is_some_and(Value::is_array)
}

/// A part's content as text: a string as it is, a list's strings joined
/// (images and other media left out), other JSON compact.
fn part_text(v: Option<&Value>) -> Value {
    match v {
        Some(Value::Array(items)) => Value::String(
            items
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        other => result_text(other),
    }
}

/// A Pydantic AI message history: a list of requests and responses (bare,
/// or an object's `messages`). Read as chat messages: a request's parts
/// as system, user and tool messages in order, a response as one
/// assistant message whose `tool-call` parts are its calls; a
/// `retry-prompt` that names a tool answers its call (the call's error),
/// one that names none is the user's turn.
pub(super) fn pydantic_ai(v: &Value, p: &str) -> Option<Found> {
    let (list, lp, _) = message_array(v, p)?;
    if !list.iter().all(pydantic_message)
        || !list
            .iter()
            .flat_map(|m| m["parts"].as_array().into_iter().flatten())
            .any(|x| x.get("part_kind").is_some_and(Value::is_string))
    {
        return None;
    }
    let mut f = Found::moved("pydantic-ai", p, Value::Null);
    f.remap.clear();
    let mut messages: Vec<Value> = Vec::new();
    let mut instructions: Option<&str> = None;
    for (k, m) in list.iter().enumerate() {
        let mp = format!("{lp}/{k}");
        let parts = m["parts"].as_array().map(Vec::as_slice).unwrap_or(&[]);
        if m["kind"] == "response" {
            let n = messages.len();
            let mut text: Vec<&str> = Vec::new();
            let mut calls = Vec::new();
            for (j, part) in parts.iter().enumerate() {
                let pp = format!("{mp}/parts/{j}");
                match part.get("part_kind").and_then(Value::as_str) {
                    Some("text") => {
                        if let Some(t) = part.get("content").and_then(Value::as_str) {
                            if text.is_empty() {
                                f.map(
                                    format!("/messages/{n}/content"),
                                    format!("{pp}/content"),
                                    false,
                                );
                            }
                            text.push(t);
                        }
                    }
                    Some("tool-call") => {
                        let i = calls.len();
                        let args = match part.get("args") {
                            None | Some(Value::Null) => json!({}),
                            Some(a) => a.clone(),
                        };
                        let mut call = json!({"type": "function", "function": {
                            "name": part.get("tool_name").cloned().unwrap_or(Value::Null),
                            "arguments": args}});
                        if let Some(id) = part.get("tool_call_id").filter(|i| i.is_string()) {
                            call["id"] = id.clone();
                        }
                        f.map(
                            format!("/messages/{n}/tool_calls/{i}/function/arguments"),
                            format!("{pp}/args"),
                            true,
                        );
                        f.map(format!("/messages/{n}/tool_calls/{i}"), pp, false);
                        calls.push(call);
                    }
                    // thinking, files, the provider's own tools
                    _ => {}
                }
            }
            let mut msg = json!({"role": "assistant", "content": text.join("\n\n")});
            if !calls.is_empty() {
                msg["tool_calls"] = Value::Array(calls);
            }
            f.map(format!("/messages/{n}"), mp, false);
            messages.push(msg);
            continue;
        }
        // the instructions a request was sent with, once until they change
        if let Some(ins) = m.get("instructions").and_then(Value::as_str) {
            if !ins.is_empty() && instructions != Some(ins) {
                f.map(
                    format!("/messages/{}", messages.len()),
                    format!("{mp}/instructions"),
                    false,
                );
                messages.push(json!({"role": "system", "content": ins}));
                instructions = Some(ins);
            }
        }
        for (j, part) in parts.iter().enumerate() {
            let pp = format!("{mp}/parts/{j}");
            let msg = match part.get("part_kind").and_then(Value::as_str) {
                Some("system-prompt") => {
                    json!({"role": "system", "content": part_text(part.get("content"))})
                }
                Some("user-prompt") => {
                    json!({"role": "user", "content": part_text(part.get("content"))})
                }
                Some("retry-feedback") => {
                    json!({"role": "user", "content": part_text(part.get("content"))})
                }
                Some("tool-return") => tool_message(part),
                Some("retry-prompt") if part.get("tool_name").is_some_and(Value::is_string) => {
                    tool_message(part)
                }
                Some("retry-prompt") => {
                    json!({"role": "user", "content": part_text(part.get("content"))})
                }
                _ => continue,
            };
            f.map(format!("/messages/{}", messages.len()), pp, false);
            messages.push(msg);
        }
    }
    f.conversation(messages, None)
}

/// A `tool-return` (or a tool's `retry-prompt`) as a tool message
/// answering its call.
fn tool_message(part: &Value) -> Value {
    let mut t = json!({"role": "tool", "content": result_text(part.get("content"))});
    if let Some(id) = part.get("tool_call_id").filter(|i| i.is_string()) {
        t["tool_call_id"] = id.clone();
    }
    if let Some(name) = part.get("tool_name").filter(|x| x.is_string()) {
        t["name"] = name.clone();
    }
    t
}

/// An MLflow attribute: JSON text decoded (MLflow writes every value so),
/// else the value as it is.
fn decoded(v: &Value) -> Value {
    match v {
        Value::String(s) => serde_json::from_str(s).unwrap_or_else(|_| v.clone()),
        other => other.clone(),
    }
}

/// An MLflow trace (`{info, data: {spans}}`), its `data`, or a list of
/// its spans, whose spans carry `mlflow.spanType`: its last model span
/// (`CHAT_MODEL` or `LLM` with input `messages`), read as an HTTP
/// recording is: the input's messages, then the output's reply;
/// `mlflow.chat.tools` (else the input's `tools`) the registry.
pub(super) fn mlflow(v: &Value, p: &str) -> Option<Found> {
    let (spans, sp) = match v {
        Value::Object(o) => match o.get("data") {
            Some(d) => (d.get("spans")?.as_array()?, format!("{p}/data/spans")),
            None => (o.get("spans")?.as_array()?, format!("{p}/spans")),
        },
        Value::Array(a) => (a, p.to_string()),
        _ => return None,
    };
    fn attrs(s: &Value) -> Option<&serde_json::Map<String, Value>> {
        s.get("attributes").and_then(Value::as_object)
    }
    if spans.is_empty()
        || !spans
            .iter()
            .any(|s| attrs(s).is_some_and(|a| a.contains_key("mlflow.spanType")))
    {
        return None;
    }
    let (k, a, inputs) = spans.iter().enumerate().rev().find_map(|(k, s)| {
        let a = attrs(s)?;
        let ty = decoded(a.get("mlflow.spanType")?);
        if !matches!(ty.as_str(), Some("CHAT_MODEL" | "LLM")) {
            return None;
        }
        let inputs = decoded(a.get("mlflow.spanInputs")?);
        inputs.get("messages")?.as_array()?;
        Some((k, a, inputs))
    })?;
    let ap = format!("{sp}/{k}/attributes");
    let ip = format!("{ap}/mlflow.spanInputs");
    let op = format!("{ap}/mlflow.spanOutputs");
    let mut f = Found::moved("mlflow", p, Value::Null);
    f.remap.clear();
    let mut messages: Vec<Value> = inputs["messages"].as_array().cloned().unwrap_or_default();
    for n in 0..messages.len() {
        f.map(format!("/messages/{n}"), ip.clone(), false);
    }
    if let Some(out) = a.get("mlflow.spanOutputs").map(decoded) {
        if let Some((m, _)) = reply(&out) {
            f.map(format!("/messages/{}", messages.len()), op, false);
            messages.push(m);
        }
    }
    let tools = a
        .get("mlflow.chat.tools")
        .and_then(tool_list)
        .or_else(|| inputs.get("tools").and_then(tool_list));
    f.conversation(messages, tools)
}

/// A model's reply as an assistant message, and where in `out` it is: a
/// chat completion's `choices[0].message`, an Anthropic message, an
/// object's `message`, the message itself (`role` or `tool_calls`), or
/// text.
fn reply(out: &Value) -> Option<(Value, &'static str)> {
    let (mut m, at) = if let Some(m) = out.pointer("/choices/0/message") {
        (m.clone(), "/choices/0/message")
    } else if out.get("content").is_some_and(Value::is_array)
        || out.get("role").is_some()
        || out.get("tool_calls").is_some()
    {
        (out.clone(), "")
    } else if let Some(m) = out.get("message").filter(|m| m.is_object()) {
        (m.clone(), "/message")
    } else if let Value::String(t) = out {
        (json!({"content": t}), "")
    } else {
        return None;
    };
    if m.get("role").is_none() {
        m["role"] = Value::String("assistant".into());
    }
    Some((m, at))
}

/// Whether `o` is a Langfuse generation: `type` `GENERATION` with an
/// `input` (and a `traceId`, or `output`).
fn generation(o: &Value) -> bool {
    o.get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| t.eq_ignore_ascii_case("generation"))
        && o.get("input").is_some()
        && (o.get("traceId").is_some() || o.get("output").is_some())
}

/// A generation's input messages and where they are (`input`, or
/// `input.messages`).
fn generation_messages(o: &Value) -> Option<(&Vec<Value>, &'static str)> {
    match o.get("input")? {
        Value::Array(a) => Some((a, "/input")),
        i => Some((i.get("messages")?.as_array()?, "/input/messages")),
    }
}

/// A Langfuse generation, or a trace or list of observations (`{data}`
/// of the API's list, a trace's `observations`, a bare list) holding one:
/// the generation with the longest input, its input's messages, then its
/// output's reply; the input's `tools` (or `functions`) the registry.
pub(super) fn langfuse(v: &Value, p: &str) -> Option<Found> {
    let (obs, op) = if generation(v) {
        (v, p.to_string())
    } else {
        let (list, lp) = match v {
            Value::Array(a) => (a, p.to_string()),
            Value::Object(o) => {
                let k = ["observations", "data"]
                    .into_iter()
                    .find(|k| o.get(*k).is_some_and(Value::is_array))?;
                (o[k].as_array()?, format!("{p}/{k}"))
            }
            _ => return None,
        };
        let (k, g) = list
            .iter()
            .enumerate()
            .filter(|(_, g)| generation(g))
            .filter_map(|(k, g)| Some((k, g, generation_messages(g)?.0.len())))
            .max_by_key(|(k, _, n)| (*n, *k))
            .map(|(k, g, _)| (k, g))?;
        (g, format!("{lp}/{k}"))
    };
    let (input, ip) = generation_messages(obs)?;
    if !input.iter().all(Value::is_object) {
        return None;
    }
    let mut f = Found::moved("langfuse", p, Value::Null);
    f.remap.clear();
    let mut messages = input.clone();
    for n in 0..messages.len() {
        f.map(format!("/messages/{n}"), format!("{op}{ip}/{n}"), true);
    }
    if let Some((m, at)) = obs.get("output").and_then(reply) {
        f.map(
            format!("/messages/{}", messages.len()),
            format!("{op}/output{at}"),
            true,
        );
        messages.push(m);
    }
    let i = &obs["input"];
    let tools = ["tools", "functions"]
        .into_iter()
        .find_map(|k| i.get(k).and_then(tool_list));
    f.conversation(messages, tools)
}

/// Whether `a` is a Letta agent as an agent file writes it: `messages`
/// with `tool_ids` and `agent_type` or `llm_config` beside them.
fn letta_agent(a: &Value) -> bool {
    a.get("messages").is_some_and(Value::is_array)
        && a.get("tool_ids").is_some_and(Value::is_array)
        && (a.get("agent_type").is_some() || a.get("llm_config").is_some())
}

/// A Letta agent file with one agent (`{agents: [agent], tools}`), read
/// with the file's tools the agent names; or one agent of a file (a file
/// of several agents is searched, and each is found alone: its tools are
/// then its own `tools`, when it lists any).
pub(super) fn letta(v: &Value, p: &str) -> Option<Found> {
    let o = v.as_object()?;
    if let Some(Value::Array(agents)) = o.get("agents") {
        let [agent] = agents.as_slice() else {
            return None;
        };
        if !letta_agent(agent) {
            return None;
        }
        let ids: Vec<&str> = agent["tool_ids"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let tools: Vec<Value> = o
            .get("tools")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|t| {
                t.get("id")
                    .and_then(Value::as_str)
                    .is_some_and(|id| ids.contains(&id))
            })
            .filter_map(|t| t.get("json_schema").filter(|s| s.is_object()).cloned())
            .collect();
        let tools = (!tools.is_empty())
            .then(|| tool_list(&Value::Array(tools)))
            .flatten();
        return letta_messages(agent, &format!("{p}/agents/0"), tools);
    }
    if !letta_agent(v) {
        return None;
    }
    let own = o
        .get("tools")
        .and_then(Value::as_array)
        .filter(|t| !t.is_empty())
        .map(|t| {
            Value::Array(
                t.iter()
                    .map(|x| x.get("json_schema").cloned().unwrap_or_else(|| x.clone()))
                    .collect(),
            )
        })
        .and_then(|t| tool_list(&t));
    letta_messages(v, p, own)
}

/// A Letta agent's messages as chat messages: each message's text blocks
/// joined, `tool_calls` and `tool_call_id` as they are; a tool message
/// without text takes its return's `func_response`, one with several
/// returns is one tool message for each.
fn letta_messages(agent: &Value, ap: &str, tools: Option<Value>) -> Option<Found> {
    let list = agent.get("messages")?.as_array()?;
    let mut f = Found::moved("letta", ap, Value::Null);
    f.remap.clear();
    let mut messages: Vec<Value> = Vec::new();
    for (k, m) in list.iter().enumerate() {
        let mp = format!("{ap}/messages/{k}");
        let Some(role) = m.get("role").and_then(Value::as_str) else {
            continue;
        };
        if !matches!(role, "system" | "user" | "assistant" | "tool") {
            // approvals and the like are not turns
            continue;
        }
        let text = match m.get("content") {
            Some(Value::Array(blocks)) => blocks
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|b| b.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n"),
            Some(Value::String(s)) => s.clone(),
            _ => String::new(),
        };
        let returns: &[Value] = m
            .get("tool_returns")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        if role == "tool" && returns.len() > 1 {
            for (j, r) in returns.iter().enumerate() {
                let mut t = json!({"role": "tool",
                    "content": result_text(r.get("func_response"))});
                if let Some(id) = r.get("tool_call_id").filter(|i| i.is_string()) {
                    t["tool_call_id"] = id.clone();
                }
                f.map(
                    format!("/messages/{}", messages.len()),
                    format!("{mp}/tool_returns/{j}"),
                    false,
                );
                messages.push(t);
            }
            continue;
        }
        let mut msg = json!({"role": role, "content": text});
        if role == "tool" && text.is_empty() {
            if let Some(r) = returns.first() {
                msg["content"] = result_text(r.get("func_response"));
            }
        }
        for key in ["tool_calls", "tool_call_id", "name"] {
            if let Some(x) = m.get(key).filter(|x| !x.is_null()) {
                msg[key] = x.clone();
            }
        }
        if role == "tool" && msg.get("tool_call_id").is_none() {
            if let Some(id) = returns.first().and_then(|r| r.get("tool_call_id")) {
                msg["tool_call_id"] = id.clone();
            }
        }
        f.map(format!("/messages/{}", messages.len()), mp, true);
        messages.push(msg);
    }
    f.conversation(messages, tools)
}

#[cfg(test)]
mod tests {
    use super::super::{calls, conversations};
    use crate::config::Config;
    use serde_json::json;

    /// A response's `tool-call` parts are its calls, each answered by the
    /// `tool-return` with its id; a tool's `retry-prompt` answers its
    /// call too.
    #[test]
    fn pydantic_ai_parts_give_calls_and_results() {
        let doc = json!([
            {"kind": "request", "parts": [
                {"part_kind": "user-prompt", "content": "hi"}]},
            {"kind": "response", "parts": [
                {"part_kind": "text", "content": "Checking."},
                {"part_kind": "tool-call", "tool_name": "f", "args": {"x": 1}, "tool_call_id": "a"},
                {"part_kind": "tool-call", "tool_name": "g", "args": "{\"y\": 2}", "tool_call_id": "b"}]},
            {"kind": "request", "parts": [
                {"part_kind": "tool-return", "tool_name": "f", "content": {"ok": true}, "tool_call_id": "a"},
                {"part_kind": "retry-prompt", "tool_name": "g", "content": "bad y", "tool_call_id": "b"}]},
            {"kind": "response", "parts": [{"part_kind": "text", "content": "Done."}]}]);
        let ts = conversations(&doc, None, false, &Config::default());
        assert_eq!(ts.len(), 1);
        assert_eq!(ts[0].source, "pydantic-ai");
        let c: Vec<String> = calls(&ts[0]).map(|e| e.pointer.clone()).collect();
        assert_eq!(c, vec!["/1/parts/1", "/1/parts/2"]);
        // a list of other typed objects is not Pydantic AI's
        assert!(super::pydantic_ai(&json!([{"kind": "x", "parts": []}]), "").is_none());
    }

    /// The last model span of an MLflow trace is read: its input's
    /// messages and its output's reply, the tools from `mlflow.chat.tools`.
    #[test]
    fn mlflow_trace_reads_its_last_model_span() {
        let tools = r#"[{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]"#;
        let span = |ty: &str, inputs: &str, outputs: &str| {
            json!({"name": "s", "attributes": {
                "mlflow.spanType": format!("\"{ty}\""),
                "mlflow.spanInputs": inputs, "mlflow.spanOutputs": outputs,
                "mlflow.chat.tools": tools}})
        };
        let call = r#"{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}"#;
        let doc = json!({"info": {"trace_id": "tr-1"}, "data": {"spans": [
            span("AGENT", "{}", "\"ok\""),
            span("CHAT_MODEL", r#"{"messages": [{"role": "user", "content": "hi"}]}"#,
                 &format!(r#"{{"choices": [{{"message": {call}}}]}}"#)),
            span("TOOL", "{}", "1"),
            span("CHAT_MODEL",
                 &format!(r#"{{"messages": [{{"role": "user", "content": "hi"}}, {call}, {{"role": "tool", "tool_call_id": "c1", "content": "1"}}]}}"#),
                 r#"{"choices": [{"message": {"role": "assistant", "content": "one"}}]}"#)]}});
        let ts = conversations(&doc, None, false, &Config::default());
        assert_eq!(ts.len(), 1);
        assert_eq!(ts[0].source, "mlflow");
        assert!(ts[0].tools.is_some());
        let c: Vec<String> = calls(&ts[0]).map(|e| e.pointer.clone()).collect();
        assert_eq!(c, vec!["/data/spans/3/attributes/mlflow.spanInputs"]);
    }

    /// A Langfuse trace is read as its generation with the longest input,
    /// then that generation's output; `input.tools` the registry.
    #[test]
    fn langfuse_trace_reads_its_longest_generation() {
        let call = json!({"role": "assistant", "content": null, "tool_calls": [{"id": "c1",
            "type": "function", "function": {"name": "f", "arguments": "{}"}}]});
        let tools = json!([{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]);
        let doc = json!({"id": "t", "observations": [
            {"type": "GENERATION", "traceId": "t", "input": {"messages": [{"role": "user", "content": "hi"}],
                "tools": tools}, "output": call},
            {"type": "SPAN", "traceId": "t", "input": {"x": 1}, "output": 1},
            {"type": "GENERATION", "traceId": "t", "input": {"messages": [{"role": "user", "content": "hi"},
                call, {"role": "tool", "tool_call_id": "c1", "content": "1"}], "tools": tools},
                "output": {"role": "assistant", "content": "one"}}]});
        let ts = conversations(&doc, None, false, &Config::default());
        assert_eq!(ts.len(), 1);
        assert_eq!(ts[0].source, "langfuse");
        assert!(ts[0].tools.is_some());
        let c: Vec<String> = calls(&ts[0]).map(|e| e.pointer.clone()).collect();
        assert_eq!(c, vec!["/observations/2/input/messages/1/tool_calls/0"]);
    }

    /// A Letta agent file's tools are the file's, named by the agent's
    /// `tool_ids` (its own empty `tools` is not the registry); a tool
    /// message answers by `tool_call_id`.
    #[test]
    fn letta_agent_file_reads_the_files_tools() {
        let doc = json!({"agents": [{"agent_type": "letta_v1_agent", "tools": [],
            "tool_ids": ["tool-0"], "messages": [
                {"role": "user", "content": [{"type": "text", "text": "hi"}]},
                {"role": "assistant", "content": [], "tool_calls": [{"id": "c1", "type": "function",
                    "function": {"name": "f", "arguments": "{}"}}]},
                {"role": "tool", "content": [], "tool_call_id": "c1",
                    "tool_returns": [{"tool_call_id": "c1", "status": "success", "func_response": "ok"}]}]}],
            "tools": [{"id": "tool-0", "name": "f", "json_schema": {"name": "f",
                "parameters": {"type": "object", "properties": {}}}},
                {"id": "tool-9", "name": "g", "json_schema": {"name": "g", "parameters": {"type": "object"}}}]});
        let ts = conversations(&doc, None, false, &Config::default());
        assert_eq!(ts.len(), 1);
        assert_eq!(ts[0].source, "letta");
        let offered = ts[0].offered().expect("tools");
        assert!(
            offered.contains("f") && !offered.contains("g"),
            "{offered:?}"
        );
        let c: Vec<String> = calls(&ts[0]).map(|e| e.pointer.clone()).collect();
        assert_eq!(c, vec!["/agents/0/messages/1/tool_calls/0"]);
    }
}
