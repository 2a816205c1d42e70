//! Shapes of the logs agents and evaluation sets keep, beside the chat
//! shapes of the parent module: NVIDIA When2Call rows, batch results
//! (Anthropic Message Batches, OpenAI Batch), OpenCode sessions and parts,
//! smolagents memory steps, LangSmith runs, and Goose messages (whose
//! per-line session files are read by [`super::session_found`] with
//! [`goose_blocks`]).
//!
//! Each detector turns what it recognises into a conversation
//! [`super::messages::read`] reads (OpenAI chat messages: `tool_calls`
//! `{id, function: {name, arguments}}`, `tool` messages with
//! `tool_call_id`), with the map back to the document's pointers.

use super::{escape, result_text, tool_list, Found};
use serde_json::{json, Map, Value};

/// An OpenAI chat call: `name`, `arguments` and, when it has one, `id`.
fn call(name: Value, arguments: Value, id: Option<&Value>) -> Value {
    let mut c = json!({"function": {"name": name, "arguments": arguments}});
    if let Some(id) = id.filter(|i| i.is_string()) {
        c["id"] = id.clone();
    }
    c
}

/// A tool message answering call `id` with `content` (made text).
fn result(id: Option<&Value>, content: Option<&Value>) -> Value {
    let mut t = json!({"role": "tool", "content": result_text(content)});
    if let Some(id) = id.filter(|i| i.is_string()) {
        t["tool_call_id"] = id.clone();
    }
    t
}

/// An NVIDIA When2Call row (`when2call_test_mcq.jsonl`, the LLM-judge
/// file, the training rows built the same way): `question`, `tools` (each
/// tool a JSON string), `correct_answer` (`tool_call`, `request_for_info`,
/// `cannot_answer` or `direct`) and `answers`, one per category. The
/// conversation is the question and the answer of the correct category:
/// a call (`{name, arguments}`, a list of them, or JSON text holding
/// either) when it is `tool_call`, the answer's text otherwise. The other
/// categories' answers are what the model should not have said, and are
/// not read (a `tool_call` answer beside a `cannot_answer` row is no call).
pub(super) fn when2call(v: &Value, p: &str) -> Option<Found> {
    let o = v.as_object()?;
    let question = o.get("question")?.as_str()?;
    let answers = o.get("answers")?.as_object()?;
    let category = o.get("correct_answer")?.as_str()?;
    let answer = answers.get(category)?;
    let mut f = Found::moved("when2call", p, Value::Null);
    f.remap.clear();
    f.map("/messages/0".into(), format!("{p}/question"), false);
    let ap = format!("{p}/answers/{}", escape(category));
    let parsed = match answer {
        Value::String(s) if category == "tool_call" => {
            serde_json::from_str::<Value>(s).ok().map(|v| (v, true))
        }
        Value::Object(_) | Value::Array(_) if category == "tool_call" => {
            Some((answer.clone(), false))
        }
        _ => None,
    };
    let list = parsed.and_then(|(v, text)| match v {
        Value::Array(a) => Some((a, text, true)),
        o @ Value::Object(_) => Some((vec![o], text, false)),
        _ => None,
    });
    let assistant = match list {
        Some((calls, text, listed)) if calls.iter().all(|c| c.get("name").is_some()) => {
            let mut out = Vec::new();
            for (k, c) in calls.iter().enumerate() {
                let args = c
                    .get("arguments")
                    .or_else(|| c.get("parameters"))
                    .cloned()
                    .unwrap_or(Value::Null);
                out.push(call(c["name"].clone(), args, c.get("id")));
                let tp = format!("/messages/1/tool_calls/{k}");
                if text {
                    f.map(tp, ap.clone(), false);
                } else {
                    let cp = if listed {
                        format!("{ap}/{k}")
                    } else {
                        ap.clone()
                    };
                    f.map(format!("{tp}/function"), cp.clone(), true);
                    f.map(tp, cp, false);
                }
            }
            json!({"role": "assistant", "content": null, "tool_calls": out})
        }
        _ => {
            // text (a refusal, a question back, or a call written as text)
            f.map("/messages/1/content".into(), ap.clone(), true);
            json!({"role": "assistant", "content": answer.as_str().unwrap_or_default()})
        }
    };
    f.map("/messages/1".into(), ap, false);
    f.value = json!({"messages": [
        {"role": "user", "content": question},
        assistant,
    ]});
    f.tools = o.get("tools").and_then(tool_list);
    f.sort();
    Some(f)
}

/// A line of a batch's results: Anthropic's Message Batches
/// (`{custom_id, result: {type, message}}`) or OpenAI's Batch API
/// (`{custom_id, response: {status_code, body}}`, the body a chat
/// completion or a Responses object). One conversation: the reply, an
/// assistant turn (its calls the reply's). A request that failed
/// (`errored`, `expired`, `canceled`; an OpenAI `error`) is a reply with
/// nothing in it: no call, no finding.
pub(super) fn batch(v: &Value, p: &str) -> Option<Found> {
    let o = v.as_object()?;
    if !o.get("custom_id").is_some_and(Value::is_string) {
        return None;
    }
    let mut f = Found::moved("batch", p, Value::Null);
    f.remap.clear();
    let empty = json!({"messages": [{"role": "assistant", "content": ""}]});
    if let Some(r) = o.get("result").and_then(Value::as_object) {
        r.get("type")?.as_str()?;
        let m = r.get("message").filter(|m| m.is_object());
        let Some(m) = m else {
            f.map("/messages/0".into(), format!("{p}/result"), false);
            f.value = empty;
            return Some(f);
        };
        f.map("/messages/0".into(), format!("{p}/result/message"), true);
        f.value = json!({"messages": [{"role": "assistant",
            "content": m.get("content").cloned().unwrap_or(Value::Null)}]});
        f.sort();
        return Some(f);
    }
    let r = o.get("response")?;
    if r.is_null() {
        o.get("error")?;
        f.map("/messages/0".into(), format!("{p}/error"), false);
        f.value = empty;
        return Some(f);
    }
    let body = r.get("body")?;
    let bp = format!("{p}/response/body");
    if let Some(m) = body.pointer("/choices/0/message").filter(|m| m.is_object()) {
        f.map(
            "/messages/0".into(),
            format!("{bp}/choices/0/message"),
            true,
        );
        f.value = json!({"messages": [m]});
    } else if let Some(items) = body.get("output").filter(|x| x.is_array()) {
        f.map("/input".into(), format!("{bp}/output"), true);
        f.value = json!({"input": items});
    } else {
        f.map("/messages/0".into(), bp, false);
        f.value = empty;
    }
    f.sort();
    Some(f)
}

/// An OpenCode session as `opencode export` writes it (`{info, messages:
/// [{info: {role, …}, parts}]}`, or the bare list of messages), or one
/// part file of its storage (`part/<message>/<part>.json`) that is a
/// tool part. A `tool` part (`callID`, `tool`, `state: {status, input,
/// output | error}`) is a call of its assistant message and, once its
/// state is `completed` or `error`, a tool message with the output; a
/// `step-start` part begins a new assistant message (one model reply);
/// `text` parts are the content, `reasoning` is left out.
pub(super) fn opencode(v: &Value, p: &str) -> Option<Found> {
    if is_tool_part(v) && v.get("messageID").is_some() {
        return opencode_messages(&[], p, Some(v));
    }
    let list = match v {
        Value::Object(o) => o.get("messages")?.as_array()?,
        Value::Array(a) => a,
        _ => return None,
    };
    let message = |m: &Value| {
        m.get("info")
            .and_then(|i| i.get("role"))
            .is_some_and(Value::is_string)
            && m.get("parts")
                .and_then(Value::as_array)
                .is_some_and(|ps| ps.iter().all(|x| x.get("type").is_some()))
    };
    if list.is_empty() || !list.iter().all(message) {
        return None;
    }
    let lp = if v.is_object() {
        format!("{p}/messages")
    } else {
        p.to_string()
    };
    opencode_messages(list, &lp, None).map(|mut f| {
        f.pointer = p.to_string();
        f
    })
}

fn is_tool_part(v: &Value) -> bool {
    v.get("type").and_then(Value::as_str) == Some("tool")
        && v.get("tool").is_some_and(Value::is_string)
        && v.get("state").is_some_and(Value::is_object)
}

/// One assistant reply being gathered: its text, calls, the results that
/// follow it, and their pointer maps (relative to the message).
#[derive(Default)]
pub(super) struct Step {
    pub(super) content: Vec<Value>,
    pub(super) calls: Vec<Value>,
    pub(super) results: Vec<(Value, String)>,
    pub(super) maps: Vec<(String, String, bool)>,
}

impl Step {
    /// Writes the step as a message (and its results after it).
    pub(super) fn flush(&mut self, role: &str, at: &str, messages: &mut Vec<Value>, f: &mut Found) {
        let s = std::mem::take(self);
        if s.content.is_empty() && s.calls.is_empty() && s.results.is_empty() {
            return;
        }
        let n = messages.len();
        let mut msg = json!({"role": role, "content": s.content});
        if !s.calls.is_empty() {
            msg["tool_calls"] = Value::Array(s.calls);
        }
        for (from, to, keep) in s.maps {
            f.map(format!("/messages/{n}{from}"), to, keep);
        }
        f.map(format!("/messages/{n}"), at.to_string(), false);
        messages.push(msg);
        for (r, rp) in s.results {
            f.map(format!("/messages/{}", messages.len()), rp, false);
            messages.push(r);
        }
    }

    /// A tool part at `tp`: its call, and its result once it has one.
    fn tool_part(&mut self, part: &Value, tp: &str) {
        let state = &part["state"];
        let i = self.calls.len();
        self.calls.push(call(
            part["tool"].clone(),
            state.get("input").cloned().unwrap_or(Value::Null),
            part.get("callID"),
        ));
        self.maps.push((
            format!("/tool_calls/{i}/function/arguments"),
            format!("{tp}/state/input"),
            true,
        ));
        self.maps
            .push((format!("/tool_calls/{i}"), tp.to_string(), false));
        let out = match state.get("status").and_then(Value::as_str) {
            Some("completed") => state.get("output"),
            Some("error") => state.get("error"),
            _ => None,
        };
        if let Some(out) = out {
            self.results
                .push((result(part.get("callID"), Some(out)), format!("{tp}/state")));
        }
    }
}

/// [`opencode`]'s reading of a message list at `lp` (or of one tool
/// part).
fn opencode_messages(list: &[Value], lp: &str, part: Option<&Value>) -> Option<Found> {
    let mut f = Found::moved("opencode", lp, Value::Null);
    f.remap.clear();
    let mut messages = Vec::new();
    if let Some(part) = part {
        let mut s = Step::default();
        s.tool_part(part, lp);
        s.flush("assistant", lp, &mut messages, &mut f);
    }
    for (k, m) in list.iter().enumerate() {
        let mp = format!("{lp}/{k}");
        let role = m
            .pointer("/info/role")
            .and_then(Value::as_str)
            .unwrap_or("user");
        let parts = m.get("parts").and_then(Value::as_array)?;
        let mut s = Step::default();
        for (j, part) in parts.iter().enumerate() {
            let pp = format!("{mp}/parts/{j}");
            let ty = part.get("type").and_then(Value::as_str).unwrap_or("");
            let pending = !s.results.is_empty();
            if ty == "step-start" || (pending && (ty == "text" || ty == "tool")) {
                s.flush(role, &mp, &mut messages, &mut f);
            }
            if is_tool_part(part) {
                s.tool_part(part, &pp);
            } else if ty == "text" && part.get("synthetic").and_then(Value::as_bool) != Some(true) {
                if let Some(t) = part.get("text").filter(|t| t.is_string()) {
                    let i = s.content.len();
                    s.content.push(json!({"type": "text", "text": t}));
                    s.maps.push((format!("/content/{i}"), pp, true));
                }
            }
        }
        s.flush(role, &mp, &mut messages, &mut f);
    }
    f.conversation(messages, None)
}

/// Whether a value is one of smolagents' memory steps, as
/// `agent.memory.get_full_steps()` (or `get_succinct_steps()`) writes
/// them: an `ActionStep` (`step_number`, with `tool_calls` or
/// `model_output`), a `TaskStep` (`task`), a `PlanningStep` (`plan`), a
/// `SystemPromptStep` (`system_prompt`) or a `FinalAnswerStep`
/// (`output`).
fn smol_step(s: &Value) -> Option<&'static str> {
    let o = s.as_object()?;
    if o.contains_key("step_number")
        && (o.contains_key("tool_calls") || o.contains_key("model_output"))
    {
        Some("action")
    } else if o.get("task").is_some_and(Value::is_string) {
        Some("task")
    } else if o.get("plan").is_some_and(Value::is_string) {
        Some("plan")
    } else if o.get("system_prompt").is_some_and(Value::is_string) {
        Some("system")
    } else if o.len() == 1 && o.contains_key("output") {
        Some("final")
    } else {
        None
    }
}

/// A Hugging Face smolagents run: its memory steps (a bare list, or an
/// object's `steps`), at least one an `ActionStep`. Read as a
/// conversation: the system prompt, each task a user turn, a plan an
/// assistant turn, each action step an assistant turn whose calls are
/// its recorded `tool_calls` (the model output beside them is their
/// rendering, not read again) and whose `observations` (else its
/// `error`) answer each of them.
///
/// A `CodeAgent` records its action as one call to `python_interpreter`
/// whose arguments are the code: read as the arguments `{"code": CODE}`,
/// the interpreter's one input. The tools the code itself calls are
/// Python run by the interpreter, not calls the model wrote, and are not
/// read (nor is the `Code:` block of the model output).
pub(super) fn smolagents(v: &Value, p: &str) -> Option<Found> {
    let (list, lp) = match v {
        Value::Object(o) => (o.get("steps")?.as_array()?, format!("{p}/steps")),
        Value::Array(a) => (a, p.to_string()),
        _ => return None,
    };
    let kinds: Vec<&str> = list.iter().map(smol_step).collect::<Option<_>>()?;
    if !kinds.contains(&"action") {
        return None;
    }
    let mut f = Found::moved("smolagents", p, Value::Null);
    f.remap.clear();
    let mut messages: Vec<Value> = Vec::new();
    if let Some(sp) = v.get("system_prompt").and_then(Value::as_str) {
        f.map("/messages/0".into(), format!("{p}/system_prompt"), false);
        messages.push(json!({"role": "system", "content": sp}));
    }
    for (k, (s, kind)) in list.iter().zip(kinds).enumerate() {
        let sp = format!("{lp}/{k}");
        let n = messages.len();
        let text = |key: &str| s.get(key).cloned().unwrap_or(Value::Null);
        match kind {
            "system" => {
                messages.push(json!({"role": "system", "content": text("system_prompt")}));
                f.map(
                    format!("/messages/{n}"),
                    format!("{sp}/system_prompt"),
                    false,
                );
            }
            "task" => {
                messages.push(json!({"role": "user", "content": text("task")}));
                f.map(format!("/messages/{n}"), format!("{sp}/task"), false);
            }
            "plan" => {
                messages.push(json!({"role": "assistant", "content": text("plan")}));
                f.map(format!("/messages/{n}"), format!("{sp}/plan"), false);
            }
            "final" => {}
            _ => smol_action(s, &sp, &mut messages, &mut f),
        }
    }
    f.conversation(messages, None)
}

/// One smolagents `ActionStep` at `sp`, as an assistant message and the
/// tool messages that answer its calls.
fn smol_action(s: &Value, sp: &str, messages: &mut Vec<Value>, f: &mut Found) {
    let n = messages.len();
    let calls = s
        .get("tool_calls")
        .and_then(Value::as_array)
        .filter(|c| !c.is_empty());
    let Some(calls) = calls else {
        // no call recorded: the model's output, searched as text
        if let Some(out) = s.get("model_output").filter(|o| !o.is_null()) {
            messages.push(json!({"role": "assistant", "content": out}));
            f.map(
                format!("/messages/{n}/content"),
                format!("{sp}/model_output"),
                true,
            );
            f.map(
                format!("/messages/{n}"),
                format!("{sp}/model_output"),
                false,
            );
        }
        return;
    };
    let mut out = Vec::new();
    let mut ids = Vec::new();
    for (i, c) in calls.iter().enumerate() {
        let cp = format!("{sp}/tool_calls/{i}");
        let func = c.get("function").unwrap_or(c);
        let name = func.get("name").cloned().unwrap_or(Value::Null);
        let mut args = func.get("arguments").cloned().unwrap_or(Value::Null);
        // the code of a CodeAgent step: the interpreter's input
        if let Value::String(code) = &args {
            let object = serde_json::from_str::<Value>(code).is_ok_and(|v| v.is_object());
            if !object && name.as_str() == Some("python_interpreter") {
                args = json!({ "code": code });
                f.map(
                    format!("/messages/{n}/tool_calls/{i}/function/arguments"),
                    format!("{cp}/function/arguments"),
                    false,
                );
            }
        }
        out.push(call(name, args, c.get("id")));
        ids.push(c.get("id").cloned());
        f.map(format!("/messages/{n}/tool_calls/{i}"), cp, true);
    }
    messages.push(json!({"role": "assistant", "content": null, "tool_calls": out}));
    f.map(format!("/messages/{n}"), sp.to_string(), false);
    let (key, answer) = match (s.get("observations"), s.get("error")) {
        (Some(o), _) if !o.is_null() => ("observations", o.clone()),
        (_, Some(e)) if !e.is_null() => (
            "error",
            e.get("message")
                .cloned()
                .unwrap_or_else(|| Value::String(e.to_string())),
        ),
        _ => match s.get("action_output") {
            Some(a) if !a.is_null() => ("action_output", a.clone()),
            _ => return,
        },
    };
    for id in ids {
        f.map(
            format!("/messages/{}", messages.len()),
            format!("{sp}/{key}"),
            false,
        );
        messages.push(result(id.as_ref(), Some(&answer)));
    }
}

/// A message's text: a string, or its text parts joined; the pointer of
/// the (first) text.
fn message_text(m: &Value, mp: &str) -> Option<(String, String)> {
    match m.get("content")? {
        Value::String(s) => Some((s.clone(), format!("{mp}/content"))),
        Value::Array(parts) => {
            let mut text = String::new();
            let mut at = None;
            for (j, part) in parts.iter().enumerate() {
                if let Some(t) = part.get("text").and_then(Value::as_str) {
                    at.get_or_insert_with(|| format!("{mp}/content/{j}/text"));
                    text.push_str(t);
                }
            }
            Some((text, at?))
        }
        _ => None,
    }
}

/// The messages smolagents writes for its model
/// (`agent.write_memory_to_messages()`): chat messages whose roles
/// include `tool-call` (text `Calling tools:` then the step's calls as a
/// Python list of `{id, type, function: {name, arguments}}`) and
/// `tool-response` (`Call id: ID`, then `Observation:` or `Error:`).
/// Read as chat messages: a `tool-call` message an assistant message
/// with those calls (a `python_interpreter` call's code as `{"code":
/// CODE}`, as [`smolagents`] reads it), a `tool-response` a tool message
/// answering its id.
pub(super) fn smolagents_messages(v: &Value, p: &str) -> Option<Found> {
    let (list, lp) = match v {
        Value::Object(o) => (o.get("messages")?.as_array()?, format!("{p}/messages")),
        Value::Array(a) => (a, p.to_string()),
        _ => return None,
    };
    let role = |m: &Value| m.get("role").and_then(Value::as_str).map(str::to_string);
    let roles: Vec<String> = list.iter().map(role).collect::<Option<_>>()?;
    if !roles
        .iter()
        .any(|r| r == "tool-call" || r == "tool-response")
    {
        return None;
    }
    let mut f = Found::moved("smolagents-messages", p, Value::Null);
    f.remap.clear();
    let mut messages = Vec::new();
    for (k, (m, r)) in list.iter().zip(roles).enumerate() {
        let mp = format!("{lp}/{k}");
        let n = messages.len();
        match r.as_str() {
            "tool-call" => {
                let (text, tp) = message_text(m, &mp)?;
                let body = text.trim_start();
                let body = body.strip_prefix("Calling tools:").unwrap_or(body).trim();
                let opts = crate::repair::RepairOptions::default();
                let list = crate::repair::repair(body, &opts)
                    .ok()
                    .and_then(|r| serde_json::from_str::<Value>(&r.output).ok())
                    .and_then(|v| match v {
                        Value::Array(a) => Some(a),
                        o @ Value::Object(_) => Some(vec![o]),
                        _ => None,
                    })
                    .unwrap_or_default();
                let mut calls = Vec::new();
                for (i, c) in list.iter().enumerate() {
                    let func = c.get("function").unwrap_or(c);
                    let name = func.get("name").cloned().unwrap_or(Value::Null);
                    let mut args = func.get("arguments").cloned().unwrap_or(Value::Null);
                    if let Value::String(code) = &args {
                        let object =
                            serde_json::from_str::<Value>(code).is_ok_and(|v| v.is_object());
                        if !object && name.as_str() == Some("python_interpreter") {
                            args = json!({ "code": code });
                        }
                    }
                    calls.push(call(name, args, c.get("id")));
                    f.map(format!("/messages/{n}/tool_calls/{i}"), tp.clone(), false);
                }
                messages.push(json!({"role": "assistant", "content": null, "tool_calls": calls}));
                f.map(format!("/messages/{n}"), mp, false);
            }
            "tool-response" => {
                let (text, tp) = message_text(m, &mp)?;
                let mut body = text.as_str();
                let mut id = None;
                if let Some(rest) = body.strip_prefix("Call id:") {
                    let (line, after) = rest.split_once('\n').unwrap_or((rest, ""));
                    id = Some(Value::String(line.trim().to_string()));
                    body = after;
                }
                let body = body.strip_prefix("Observation:\n").unwrap_or(body);
                messages.push(result(id.as_ref(), Some(&Value::String(body.to_string()))));
                f.map(format!("/messages/{n}"), tp, false);
            }
            _ => {
                messages.push(m.clone());
                f.map(format!("/messages/{n}"), mp, true);
            }
        }
    }
    f.conversation(messages, None)
}

/// Whether a value is a LangSmith run (`run_type`, `inputs`, and
/// `outputs` or `child_runs`), as `client.list_runs` / `read_run` and the
/// UI's export write them.
fn is_run(v: &Value) -> bool {
    v.get("run_type").is_some_and(Value::is_string)
        && v.get("inputs").is_some()
        && (v.get("outputs").is_some() || v.get("child_runs").is_some())
}

/// A LangSmith run, or a list of runs (an export), or a trace (a run
/// with `child_runs`). Each `llm` run is a conversation: its input
/// messages (LangChain's serialised messages, a list of lists, or the
/// OpenAI messages of a wrapped client) and its output (`generations`'
/// message, or `choices`' message), whose `tool_calls` are the calls.
/// A `tool` run (`name`, `inputs`, `outputs.output`) read alone is a call
/// and its result; beside `llm` runs it is not read again (its call is
/// in the model's output before it).
pub(super) fn langsmith(v: &Value, p: &str) -> Option<Found> {
    let mut runs: Vec<(String, &Value)> = Vec::new();
    match v {
        Value::Array(a) if !a.is_empty() && a.iter().all(is_run) => {
            for (k, r) in a.iter().enumerate() {
                collect_runs(r, &format!("{p}/{k}"), &mut runs);
            }
        }
        v if is_run(v) => collect_runs(v, p, &mut runs),
        _ => return None,
    }
    let llm: Vec<&(String, &Value)> = runs
        .iter()
        .filter(|(_, r)| r.get("run_type").and_then(Value::as_str) == Some("llm"))
        .collect();
    let mut f = Found::moved("langsmith", p, Value::Null);
    f.remap.clear();
    let mut messages: Vec<Value> = Vec::new();
    if llm.is_empty() {
        for (rp, r) in runs
            .iter()
            .filter(|(_, r)| r.get("run_type").and_then(Value::as_str) == Some("tool"))
        {
            tool_run(r, rp, &mut messages, &mut f);
        }
        return f.conversation(messages, None);
    }
    // one conversation: the last model run's (its input holds the turns
    // before it); the model runs before it add the calls they made
    // only when its input does not hold them
    let (rp, r) = llm[llm.len() - 1];
    llm_run(r, rp, &mut messages, &mut f)?;
    let tools = r
        .pointer("/inputs/tools")
        .or_else(|| r.pointer("/extra/invocation_params/tools"))
        .and_then(tool_list);
    f.conversation(messages, tools)
}

/// The runs of a trace, depth first (a run, then its `child_runs`).
fn collect_runs<'a>(r: &'a Value, rp: &str, out: &mut Vec<(String, &'a Value)>) {
    out.push((rp.to_string(), r));
    if let Some(children) = r.get("child_runs").and_then(Value::as_array) {
        for (k, c) in children.iter().enumerate() {
            if is_run(c) {
                collect_runs(c, &format!("{rp}/child_runs/{k}"), out);
            }
        }
    }
}

/// A LangSmith `tool` run as a call and its result.
fn tool_run(r: &Value, rp: &str, messages: &mut Vec<Value>, f: &mut Found) {
    let n = messages.len();
    let inputs = r.get("inputs").cloned().unwrap_or(Value::Null);
    // the tool's input: its arguments, or `{"input": …}` as LangChain
    // writes a tool's single input
    let (args, ap) = match inputs.get("input") {
        Some(Value::String(s)) if inputs.as_object().is_some_and(|o| o.len() == 1) => {
            match serde_json::from_str::<Value>(s) {
                Ok(o @ Value::Object(_)) => (o, format!("{rp}/inputs/input")),
                _ => (inputs.clone(), format!("{rp}/inputs")),
            }
        }
        _ => (inputs.clone(), format!("{rp}/inputs")),
    };
    let out = r.get("outputs").and_then(|o| o.get("output").or(Some(o)));
    let id = out
        .and_then(|o| {
            o.pointer("/kwargs/tool_call_id")
                .or_else(|| o.get("tool_call_id"))
        })
        .cloned();
    messages.push(json!({"role": "assistant", "content": null,
        "tool_calls": [call(r.get("name").cloned().unwrap_or(Value::Null), args, id.as_ref())]}));
    f.map(
        format!("/messages/{n}/tool_calls/0/function/arguments"),
        ap,
        true,
    );
    f.map(
        format!("/messages/{n}/tool_calls/0"),
        format!("{rp}/inputs"),
        false,
    );
    f.map(format!("/messages/{n}"), rp.to_string(), false);
    if let Some(out) = out.filter(|o| !o.is_null()) {
        let content = out
            .pointer("/kwargs/content")
            .or_else(|| out.get("content"))
            .unwrap_or(out);
        f.map(
            format!("/messages/{}", messages.len()),
            format!("{rp}/outputs"),
            false,
        );
        messages.push(result(id.as_ref(), Some(content)));
    }
}

/// Where a message read by [`lc_message`] keeps its calls.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Calls {
    /// As the conversation has them (an OpenAI message).
    Same,
    /// LangChain's `tool_calls` (`{name, args, id}`).
    Args,
    /// The provider's, in `additional_kwargs.tool_calls`.
    Provider,
}

/// A LangChain message as LangSmith keeps it (`dumpd`'s constructor, or
/// a plain message), as an OpenAI chat message; its fields' pointer
/// suffix and where its calls were.
fn lc_message(m: &Value) -> Option<(Value, &'static str, Calls)> {
    if m.get("role").is_some() {
        return Some((m.clone(), "", Calls::Same));
    }
    let (role, suffix, inner) = super::langchain_message(m)?;
    let role = match role {
        "chat" => inner.get("role").and_then(Value::as_str).unwrap_or("user"),
        r => r,
    };
    let mut out = json!({"role": role,
        "content": inner.get("content").cloned().unwrap_or(Value::Null)});
    if let Some(id) = inner.get("tool_call_id").filter(|x| x.is_string()) {
        out["tool_call_id"] = id.clone();
    }
    let calls: Vec<Value> = inner
        .get("tool_calls")
        .and_then(Value::as_array)
        .map(|cs| {
            cs.iter()
                .map(|c| {
                    call(
                        c.get("name").cloned().unwrap_or(Value::Null),
                        c.get("args").cloned().unwrap_or(Value::Null),
                        c.get("id"),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    if !calls.is_empty() {
        out["tool_calls"] = Value::Array(calls);
        return Some((out, suffix, Calls::Args));
    }
    // older messages: only the provider's calls
    if let Some(c) = inner
        .pointer("/additional_kwargs/tool_calls")
        .filter(|c| c.is_array())
    {
        out["tool_calls"] = c.clone();
        return Some((out, suffix, Calls::Provider));
    }
    Some((out, suffix, Calls::Same))
}

/// A LangSmith `llm` run: its input messages, then its output message.
fn llm_run(r: &Value, rp: &str, messages: &mut Vec<Value>, f: &mut Found) -> Option<()> {
    let inputs = r.get("inputs")?;
    let (list, lp) = match inputs.get("messages").and_then(Value::as_array) {
        // LangChain's chat models: a list (one per prompt) of lists
        Some(l) if l.first().is_some_and(Value::is_array) => (
            l.first().and_then(Value::as_array)?,
            format!("{rp}/inputs/messages/0"),
        ),
        Some(l) => (l, format!("{rp}/inputs/messages")),
        None => return None,
    };
    for (k, m) in list.iter().enumerate() {
        let (msg, suffix, lc) = lc_message(m)?;
        let n = messages.len();
        lc_maps(&msg, lc, &format!("{lp}/{k}{suffix}"), n, f);
        messages.push(msg);
    }
    let outputs = r.get("outputs").filter(|o| o.is_object());
    let Some(outputs) = outputs else {
        return Some(());
    };
    let (m, op) = if let Some(m) = outputs.pointer("/generations/0/0/message") {
        (m, format!("{rp}/outputs/generations/0/0/message"))
    } else if let Some(m) = outputs.pointer("/choices/0/message") {
        (m, format!("{rp}/outputs/choices/0/message"))
    } else {
        return Some(());
    };
    let (msg, suffix, lc) = lc_message(m)?;
    lc_maps(&msg, lc, &format!("{op}{suffix}"), messages.len(), f);
    messages.push(msg);
    Some(())
}

/// The pointer maps of a message read by [`lc_message`] at `mp` as
/// message `n`.
fn lc_maps(msg: &Value, calls: Calls, mp: &str, n: usize, f: &mut Found) {
    let list = msg.get("tool_calls").and_then(Value::as_array);
    match (calls, list) {
        (Calls::Args, Some(list)) => {
            for i in 0..list.len() {
                let tp = format!("/messages/{n}/tool_calls/{i}");
                f.map(
                    format!("{tp}/function/arguments"),
                    format!("{mp}/tool_calls/{i}/args"),
                    true,
                );
                f.map(tp, format!("{mp}/tool_calls/{i}"), false);
            }
        }
        (Calls::Provider, Some(_)) => f.map(
            format!("/messages/{n}/tool_calls"),
            format!("{mp}/additional_kwargs/tool_calls"),
            true,
        ),
        _ => {}
    }
    f.map(format!("/messages/{n}"), mp.to_string(), true);
}

/// Goose's message content (`crates/goose/src/conversation/message.rs`,
/// camel case), as Anthropic content blocks [`super::messages`] reads:
/// a `toolRequest` (`id`, `toolCall: {status, value: {name, arguments}}`;
/// older files `toolCall: {name, arguments}`) a `tool_use`, a
/// `toolResponse` (`id`, `toolResult: {status, value}`, the value a list
/// of content or a call result `{content, isError}`; an `error` status
/// its message) a `tool_result`. A request Goose could not read (status
/// `error`) is no call: the model's reply was refused before it ran, and
/// Goose answers it as a result. Other blocks are kept as they are. The
/// pointer suffix, inside the block, of a call's arguments.
pub(super) fn goose_block(b: &mut Value) -> Option<&'static str> {
    let ty = b.get("type").and_then(Value::as_str)?;
    match ty {
        "toolRequest" | "frontendToolRequest" => {
            let id = b.get("id").cloned().unwrap_or(Value::Null);
            let tc = b.get("toolCall").or_else(|| b.get("tool_call"))?;
            let (inner, suffix) = match tc.get("value") {
                Some(v) => (v, "/toolCall/value/arguments"),
                None if tc.get("status").is_none() => (tc, "/toolCall/arguments"),
                None => return None,
            };
            let args = inner.get("arguments").cloned().unwrap_or(json!({}));
            *b = json!({"type": "tool_use", "id": id,
                "name": inner.get("name").cloned().unwrap_or(Value::Null), "input": args});
            Some(suffix)
        }
        "toolResponse" => {
            let id = b.get("id").cloned().unwrap_or(Value::Null);
            let tr = b.get("toolResult").or_else(|| b.get("tool_result"));
            let (content, error) = match tr {
                Some(t) if t.get("status").and_then(Value::as_str) == Some("error") => {
                    (t.get("error").cloned().unwrap_or(Value::Null), true)
                }
                Some(t) => {
                    let v = t.get("value").unwrap_or(t);
                    let v = v.get("content").unwrap_or(v);
                    let error = t.pointer("/value/isError").and_then(Value::as_bool) == Some(true);
                    (result_text(Some(v)), error)
                }
                None => (Value::Null, false),
            };
            let mut r = json!({"type": "tool_result", "tool_use_id": id, "content": content});
            if error {
                r["is_error"] = Value::Bool(true);
            }
            *b = r;
            None
        }
        _ => None,
    }
}

/// Whether a JSONL line is a line of a Goose session file: its first
/// line (the session's metadata: `working_dir`, `description`, …) or a
/// message (`role`, `created`, `content` blocks with a `type`).
pub(super) fn goose_line(o: &Map<String, Value>) -> bool {
    let meta = o.get("working_dir").is_some_and(Value::is_string)
        && [
            "description",
            "message_count",
            "schedule_id",
            "total_tokens",
        ]
        .iter()
        .any(|k| o.contains_key(*k));
    meta || goose_message(o)
}

/// A Goose message: `role`, `created` (a number) and `content`, a list
/// of typed blocks.
pub(super) fn goose_message(o: &Map<String, Value>) -> bool {
    o.get("role").is_some_and(Value::is_string)
        && o.get("created").is_some_and(Value::is_number)
        && o.get("content").and_then(Value::as_array).is_some_and(|c| {
            c.iter()
                .all(|b| b.get("type").is_some_and(Value::is_string))
        })
}
