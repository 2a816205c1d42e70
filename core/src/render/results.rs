//! Tool results fed back to the model, in each family's message form
//! (`render result`).
//!
//! Each function renders consecutive results (one or several) as the
//! template writes them after an assistant turn with calls. The content is
//! already truncated; an error result is written in the family's error form
//! where the template has one, else as the content `{"error": "MESSAGE"}`
//! (the convention OpenAI-style servers and most templates' examples use).

use super::calls::gemma_value;
use super::text::{json_indent, json_spaced};
use super::{Message, ToolResult};
use serde_json::{json, Value};

/// The content a template sees: the text, or `{"error": MESSAGE}`.
pub fn content(r: &ToolResult) -> String {
    if r.is_error {
        json_spaced(&json!({ "error": r.content }))
    } else {
        r.content.clone()
    }
}

/// The content as a JSON value: the text parsed when it is JSON, else a string.
fn content_value(r: &ToolResult) -> Value {
    if r.is_error {
        return json!({ "error": r.content });
    }
    serde_json::from_str::<Value>(r.content.trim())
        .unwrap_or_else(|_| Value::String(r.content.clone()))
}

fn per_result(
    results: &[ToolResult],
    sep: &str,
    f: impl Fn(usize, &ToolResult) -> String,
) -> String {
    results
        .iter()
        .enumerate()
        .map(|(i, r)| f(i, r))
        .collect::<Vec<_>>()
        .join(sep)
}

fn msg(pre: &str, body: String, post: &str) -> Message {
    Message {
        pre: pre.to_string(),
        body,
        post: post.to_string(),
    }
}

fn tool_response_blocks(results: &[ToolResult]) -> String {
    per_result(results, "\n", |_, r| {
        format!("<tool_response>\n{}\n</tool_response>", content(r))
    })
}

/// Qwen 2.5 / Qwen 3 (`hermes`): `<tool_response>` blocks in one user turn,
/// each after a newline.
///
/// Checked against the Qwen 3 chat template as embedded in
/// wangling03/BioReason `bioreason/models/dl/chat_template_dl.py`.
pub fn qwen(results: &[ToolResult]) -> Message {
    msg(
        "<|im_start|>user\n",
        tool_response_blocks(results),
        "<|im_end|>\n",
    )
}

/// Families whose template is not known to us: bare `<tool_response>`
/// blocks, the most widely trained result form, with no role wrapper.
pub fn tool_response(results: &[ToolResult]) -> Message {
    msg("", tool_response_blocks(results), "")
}

/// GLM-4.5+ (`glm4-moe`): an `<|observation|>` turn of `<tool_response>` blocks.
///
/// Checked against ggml-org/llama.cpp `models/templates/GLM-4.6.jinja`.
pub fn glm(results: &[ToolResult]) -> Message {
    msg("<|observation|>\n", tool_response_blocks(results), "")
}

/// One `ipython` message per result, the content written by `f`.
fn ipython_with(results: &[ToolResult], f: impl Fn(&ToolResult) -> String) -> Message {
    each_message(
        results,
        |_, _| "<|start_header_id|>ipython<|end_header_id|>\n\n".into(),
        |_, r| f(r),
        "<|eot_id|>",
    )
}

/// Llama 3.1 custom tools / Functionary v3.1 (`functionary`) and xLAM
/// (`xlam`): one `ipython` message per result, the content as is.
///
/// Checked against MeetKai/functionary
/// `functionary/prompt_template/jinja_templates/v3-llama3.1.txt` and
/// vllm-project/vllm `examples/tool_chat_template_xlam_llama.jinja`.
pub fn ipython(results: &[ToolResult]) -> Message {
    ipython_with(results, content)
}

/// Llama 3.1–3.3 JSON (`llama3-json`) and Llama 3.2 pythonic (`pythonic`):
/// one `ipython` message per result, the content wrapped as
/// `{"output": CONTENT}` (`tojson`).
///
/// Checked against vllm-project/vllm `examples/tool_chat_template_llama3.1_json.jinja`
/// and `examples/tool_chat_template_llama3.2_pythonic.jinja`.
pub fn ipython_output(results: &[ToolResult]) -> Message {
    ipython_with(results, |r| json_spaced(&json!({ "output": content(r) })))
}

/// Llama 3.1 built-in tools (`llama-python-tag`): one `ipython` message per
/// result, the content `tojson`, so text arrives as a quoted JSON string.
///
/// Checked against vllm-project/vllm
/// `examples/tool_chat_template_llama3.1_usr_def_tool_call.jinja`, whose
/// tool branch (as Meta's Llama 3.1 template) tests `content is mapping or
/// content is iterable`, which a string also passes.
pub fn ipython_tojson(results: &[ToolResult]) -> Message {
    ipython_with(results, |r| json_spaced(&Value::String(content(r))))
}

/// Functionary v3.2: one `tool` message per result.
///
/// Checked against MeetKai/functionary
/// `functionary/prompt_template/jinja_templates/v3.llama3.txt`.
pub fn functionary_v3_2(results: &[ToolResult]) -> Message {
    let body = per_result(
        results,
        "<|eot_id|><|start_header_id|>tool<|end_header_id|>\n\n",
        |_, r| content(r),
    );
    msg(
        "<|start_header_id|>tool<|end_header_id|>\n\n",
        body,
        "<|eot_id|>",
    )
}

/// `fenced-tool-call` (our own form): a ```` ```tool_result ```` fence per
/// result, its info string naming the tool and call; the fence is longer
/// than any backtick run in the content.
pub fn fenced(results: &[ToolResult]) -> Message {
    let body = per_result(results, "\n", |_, r| {
        let c = content(r);
        let longest = c.split(|ch| ch != '`').map(str::len).max().unwrap_or(0);
        let fence = "`".repeat((longest + 1).max(3));
        let id = if r.id.is_empty() {
            String::new()
        } else {
            format!(" id={}", r.id)
        };
        format!("{fence}tool_result name={}{id}\n{c}\n{fence}", r.name)
    });
    msg("", body, "")
}

fn generic_value(r: &ToolResult) -> Value {
    let mut v = json!({});
    if !r.id.is_empty() {
        v["tool_call_id"] = json!(r.id);
    }
    v["name"] = json!(r.name);
    if r.is_error {
        v["error"] = json!(r.content);
    } else {
        v["content"] = json!(r.content);
    }
    v
}

/// `bare-json` (our own form): one `{"tool_call_id", "name", "content"}`
/// object per line (`"error"` instead of `"content"` for errors).
pub fn bare_json(results: &[ToolResult]) -> Message {
    msg(
        "",
        per_result(results, "\n", |_, r| json_spaced(&generic_value(r))),
        "",
    )
}

/// `fenced-json` (our own form): the `bare-json` objects in a ```` ```json ```` fence.
pub fn fenced_json(results: &[ToolResult]) -> Message {
    let v = if results.len() == 1 {
        generic_value(&results[0])
    } else {
        Value::Array(results.iter().map(generic_value).collect())
    };
    msg("", format!("```json\n{}\n```", json_indent(&v, 2)), "")
}

/// Granite 3.x: a `tool_response` role message per result.
///
/// Checked against vllm-project/vllm `examples/tool_chat_template_granite.jinja`.
pub fn granite(results: &[ToolResult]) -> Message {
    let body = per_result(
        results,
        "<|end_of_text|>\n<|start_of_role|>tool_response<|end_of_role|>",
        |_, r| content(r),
    );
    msg(
        "<|start_of_role|>tool_response<|end_of_role|>",
        body,
        "<|end_of_text|>\n",
    )
}

/// Command R7B / Command A (`cohere`): one system turn holding the
/// consecutive results as a list in `<|START_TOOL_RESULT|>`.
///
/// Checked against ggml-org/llama.cpp
/// `models/templates/CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja`
/// (`format_tool_message`, rendered with Hugging Face's Jinja settings):
/// per result `tool_call_id`, `results` `{"0": CONTENT}` with the content
/// as a JSON string, and `"is_error": null` (the template has no error
/// flag; an error arrives as `{"error": …}` text). The template numbers
/// calls by their position in the conversation, on both the call and the
/// result side; here a result carries its call's id when it has one (as
/// `render call` writes it), else its position from 0.
pub fn cohere(results: &[ToolResult]) -> Message {
    let body = per_result(results, ",\n", |i, r| {
        let id = if r.id.is_empty() {
            i.to_string()
        } else {
            r.id.clone()
        };
        format!(
            "    {{\n        \"tool_call_id\": {},\n        \"results\": {{\n            \"0\": {}\n        }},\n        \"is_error\": null\n    }}",
            json_spaced(&Value::String(id)),
            json_spaced(&Value::String(content(r)))
        )
    });
    msg(
        "<|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|><|START_TOOL_RESULT|>[\n",
        body,
        "\n]<|END_TOOL_RESULT|><|END_OF_TURN_TOKEN|>",
    )
}

/// InternLM 2.5: an `environment` turn named `<|plugin|>` per result.
///
/// Checked against vllm-project/vllm `examples/tool_chat_template_internlm2_tool.jinja`.
pub fn internlm(results: &[ToolResult]) -> Message {
    let body = per_result(
        results,
        "<|im_end|>\n<|im_start|>environment name=<|plugin|>\n",
        |_, r| content(r),
    );
    msg(
        "<|im_start|>environment name=<|plugin|>\n",
        body,
        "<|im_end|>\n",
    )
}

/// MiniMax-M2: `<response>` elements in one `tool` turn.
///
/// Checked against ggml-org/llama.cpp `models/templates/unsloth-MiniMax-M2.jinja`
/// (`]~b]tool`, then a newline and `<response>…</response>` per result,
/// then `[e~[` and a newline).
pub fn minimax_m2(results: &[ToolResult]) -> Message {
    let body = per_result(results, "\n", |_, r| {
        format!("<response>{}</response>", content(r))
    });
    msg("]~b]tool\n", body, "[e~[\n")
}

/// Seed-OSS: a `tool` turn per result, `<seed:bos>tool` newline content
/// `<seed:eos>`, nothing between turns.
///
/// Checked against ggml-org/llama.cpp `models/templates/ByteDance-Seed-OSS.jinja`
/// (tool messages take the template's generic branch).
pub fn seed_oss(results: &[ToolResult]) -> Message {
    let body = per_result(results, "<seed:eos><seed:bos>tool\n", |_, r| content(r));
    msg("<seed:bos>tool\n", body, "<seed:eos>")
}

/// Mistral (v11+ tokenizers): `[TOOL_RESULTS]CONTENT[/TOOL_RESULTS]` per result.
pub fn mistral(results: &[ToolResult]) -> Message {
    let body = per_result(results, "", |_, r| {
        format!("[TOOL_RESULTS]{}[/TOOL_RESULTS]", content(r))
    });
    msg("", body, "")
}

/// DeepSeek V3 / R1: outputs inside `<｜tool▁outputs▁begin｜>`.
pub fn deepseek_v3(results: &[ToolResult]) -> Message {
    let body = per_result(results, "\n", |_, r| {
        format!("<｜tool▁output▁begin｜>{}<｜tool▁output▁end｜>", content(r))
    });
    msg("<｜tool▁outputs▁begin｜>", body, "<｜tool▁outputs▁end｜>")
}

/// DeepSeek V3.1: bare `<｜tool▁output▁begin｜>` outputs.
pub fn deepseek_v3_1(results: &[ToolResult]) -> Message {
    let body = per_result(results, "", |_, r| {
        format!("<｜tool▁output▁begin｜>{}<｜tool▁output▁end｜>", content(r))
    });
    msg("", body, "")
}

/// DeepSeek V3.2 (`deepseek-dsml`): `<function_results>` with one
/// `<result>` line per call.
///
/// Checked against ggml-org/llama.cpp `models/templates/DeepSeek-V3.2.jinja`:
/// the block follows the assistant's calls after a blank line, and is
/// followed by a blank line and `<think>` (or `</think>` without thinking),
/// which are left to the caller.
pub fn deepseek_dsml(results: &[ToolResult]) -> Message {
    let body = per_result(results, "", |_, r| {
        format!("\n<result>{}</result>", content(r))
    });
    msg("<function_results>", body, "\n</function_results>")
}

/// Qwen3-Coder (`qwen3-coder-xml`): `<tool_response>` blocks in one user
/// turn, each followed by a newline.
///
/// Checked against vllm-project/vllm `examples/tool_chat_template_qwen3coder.jinja`.
pub fn qwen3_coder(results: &[ToolResult]) -> Message {
    msg(
        "<|im_start|>user\n",
        per_result(results, "", |_, r| {
            format!("<tool_response>\n{}\n</tool_response>\n", content(r))
        }),
        "<|im_end|>\n",
    )
}

/// Kimi K2: a system turn per result, named for the tool (`tool` when the
/// result has no name), `## Return of ID` and the content. ID is the call's
/// id, or `functions.NAME:INDEX` when the result has none.
///
/// Checked against ggml-org/llama.cpp `models/templates/Kimi-K2-Thinking.jinja`
/// (`set_roles` uses the message's `name`, else its role). The older
/// `moonshotai-Kimi-K2.jinja` writes the bare content after
/// `<|im_system|>tool<|im_middle|>`.
pub fn kimi_k2(results: &[ToolResult]) -> Message {
    each_message(
        results,
        |_, r| {
            let role = if r.name.is_empty() {
                "tool"
            } else {
                r.name.as_str()
            };
            format!("<|im_system|>{role}<|im_middle|>")
        },
        |i, r| {
            let id = if r.id.is_empty() {
                format!("functions.{}:{i}", r.name)
            } else {
                r.id.clone()
            };
            format!("## Return of {id}\n{}", content(r))
        },
        "<|im_end|>",
    )
}

/// gpt-oss (`harmony`): a message from `functions.NAME` to the assistant on
/// the commentary channel, per result.
pub fn harmony(results: &[ToolResult]) -> Message {
    let body = per_result(results, "", |_, r| {
        format!(
            "<|start|>functions.{} to=assistant<|channel|>commentary<|message|>{}<|end|>",
            r.name,
            content_json(r)
        )
    });
    msg("", body, "")
}

/// Harmony and Gemma expect JSON; plain text is written as a JSON string.
fn content_json(r: &ToolResult) -> String {
    match content_value(r) {
        Value::String(_) if !r.is_error => r.content.clone(),
        v => json_spaced(&v),
    }
}

/// LFM2: a `tool` turn with `<|tool_response_start|>`…`<|tool_response_end|>`.
///
/// Checked against ggml-org/llama.cpp `models/templates/llama-cpp-lfm2.jinja`.
pub fn lfm2(results: &[ToolResult]) -> Message {
    let body = per_result(results, "<|im_end|>\n<|im_start|>tool\n", |_, r| {
        format!("<|tool_response_start|>{}<|tool_response_end|>", content(r))
    });
    msg("<|im_start|>tool\n", body, "<|im_end|>\n")
}

/// FunctionGemma (`gemini-function-call`):
/// `<start_function_response>response:NAME{…}<end_function_response>`.
pub fn gemini(results: &[ToolResult]) -> Message {
    let body = per_result(results, "", |_, r| {
        let v = match content_value(r) {
            Value::Object(m) => Value::Object(m),
            other => json!({ "result": other }),
        };
        format!(
            "<start_function_response>response:{}{}<end_function_response>",
            r.name,
            gemma_value(&v)
        )
    });
    msg("", body, "")
}

/// Llama-Nemotron (`nemotron-toolcall`): one `tool` turn holding the
/// consecutive results as `<TOOL_RESPONSE>[A, B]</TOOL_RESPONSE>`.
///
/// Checked against ggml-org/llama.cpp
/// `models/templates/nvidia-Llama-3_3-Nemotron-Super-49B-v1_5.jinja`.
pub fn nemotron(results: &[ToolResult]) -> Message {
    msg(
        "<|start_header_id|>tool<|end_header_id|>\n\n<TOOL_RESPONSE>[",
        per_result(results, ", ", |_, r| content(r)),
        "]</TOOL_RESPONSE><|eot_id|>",
    )
}

/// Joins one message per result: `pre` before the first, `sep` between.
fn each_message(
    results: &[ToolResult],
    head: impl Fn(usize, &ToolResult) -> String,
    body: impl Fn(usize, &ToolResult) -> String,
    tail: &str,
) -> Message {
    let mut text = String::new();
    for (i, r) in results.iter().enumerate() {
        if i > 0 {
            text.push_str(tail);
            text.push_str(&head(i, r));
        }
        text.push_str(&body(i, r));
    }
    let pre = results.first().map(|r| head(0, r)).unwrap_or_default();
    msg(&pre, text, tail)
}

/// MiniMax-M1 (`minimax`): a `tool name=tools` message per result, the
/// content after `tool result: `.
///
/// Checked against vllm-project/vllm `examples/tool_chat_template_minimax_m1.jinja`.
pub fn minimax(results: &[ToolResult]) -> Message {
    each_message(
        results,
        |_, _| "<beginning_of_sentence>tool name=tools\n".into(),
        |_, r| format!("tool result: {}\n\n", content(r)),
        "<end_of_sentence>\n",
    )
}

/// Kimi K3 (`kimi-k3`): a `tool` message per result, carrying the tool's
/// name and the 1-based index of the call it answers.
///
/// Checked against ggml-org/llama.cpp `models/templates/Kimi-K3.jinja`
/// (`render_tool_message`; attribute values escape `&` and `"`).
pub fn kimi_k3(results: &[ToolResult]) -> Message {
    let attr = |s: &str| s.replace('&', "&amp;").replace('"', "&quot;");
    each_message(
        results,
        |i, r| {
            format!(
                "<|open|>message role=\"tool\" tool=\"{}\" index=\"{}\"<|sep|>",
                attr(&r.name),
                i + 1
            )
        },
        |_, r| content(r),
        "<|close|>message<|sep|><|end_of_msg|>",
    )
}

/// Inkling (`inkling`): a `<|message_tool|>` message per result, named for
/// the tool. Follows the reimplementations named at
/// [`super::tools::inkling`] (no template file found).
pub fn inkling(results: &[ToolResult]) -> Message {
    each_message(
        results,
        |_, r| format!("<|message_tool|>{}<|content_text|>", r.name),
        |_, r| content(r),
        "<|end_message|>",
    )
}

/// OLMo 3 (`olmo3`): a `tool` turn per result, `Function NAME returned:`
/// first, the content trimmed.
///
/// Checked against vllm-project/vllm `examples/tool_chat_template_olmo3.jinja`.
pub fn olmo3(results: &[ToolResult]) -> Message {
    each_message(
        results,
        |_, _| "<|im_start|>tool\n".into(),
        |_, r| {
            let head = if r.name.is_empty() {
                String::new()
            } else {
                format!("Function {} returned:\n", r.name)
            };
            format!("{head}{}", content(r).trim())
        },
        "<|im_end|>\n",
    )
}

/// Phi-4-mini (`phi4-mini`): a `<|tool|>` turn per result.
///
/// Checked against vllm-project/vllm `examples/tool_chat_template_phi4_mini.jinja`
/// (rendered with Hugging Face's Jinja settings: no newline after the role
/// token, none before `<|end|>`).
pub fn phi4_mini(results: &[ToolResult]) -> Message {
    each_message(
        results,
        |_, _| "<|tool|>".into(),
        |_, r| content(r),
        "<|end|>",
    )
}

/// Apertus (`apertus`): the results of one assistant turn as a bracketed,
/// comma-separated list inside that turn, right after `<|tools_suffix|>`.
///
/// Checked against vllm-project/vllm `examples/tool_chat_template_apertus.jinja`
/// (tool messages render as `[` … `, ` … `]` within the assistant turn).
pub fn apertus(results: &[ToolResult]) -> Message {
    msg("[", per_result(results, ", ", |_, r| content(r)), "]")
}

/// Hunyuan-A13B (`jamba` wrapper): `<tool_response>` then `<|extra_0|>`
/// per result, no role header.
///
/// Checked against vllm-project/vllm `examples/tool_chat_template_hunyuan_a13b.jinja`.
pub fn hunyuan_a13b(results: &[ToolResult]) -> Message {
    msg(
        "",
        per_result(results, "", |_, r| {
            format!("<tool_response>{}</tool_response><|extra_0|>", content(r))
        }),
        "",
    )
}

/// `content` with the special tokens of the template of the format `id`
/// broken as [`super::neutralize_turn_tokens`] breaks the common ones: a
/// backslash after the first character of each of its `turns` literals
/// (MiniMax's `<beginning_of_sentence>`) and `template_tokens`
/// (MiniMax-M2's `]~b]`, Seed-OSS's `<seed:bos>`, Gemma 4's `<turn|>`).
/// Unchanged when it holds none.
pub fn neutralize_template_tokens<'a>(id: &str, content: &'a str) -> std::borrow::Cow<'a, str> {
    use std::borrow::Cow;
    let Some(f) = crate::formats::FORMATS.iter().find(|f| f.id.as_str() == id) else {
        return Cow::Borrowed(content);
    };
    let tokens: Vec<&str> = f
        .turns
        .iter()
        .filter_map(|t| std::str::from_utf8(t.open).ok())
        .chain(f.template_tokens.iter().copied())
        .filter(|t| !t.is_empty())
        .collect();
    let mut out = String::new();
    let mut from = 0;
    let mut i = 0;
    while i < content.len() {
        let rest = &content[i..];
        if let Some(t) = tokens.iter().find(|t| rest.starts_with(**t)) {
            let first = t.chars().next().map_or(1, char::len_utf8);
            out.push_str(&content[from..i + first]);
            out.push('\\');
            from = i + first;
            i += first;
            continue;
        }
        i += rest.chars().next().map_or(1, char::len_utf8);
    }
    if from == 0 {
        return Cow::Borrowed(content);
    }
    out.push_str(&content[from..]);
    Cow::Owned(out)
}
