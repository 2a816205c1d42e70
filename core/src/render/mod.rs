//! The prompt side: what a model must be shown for a tool loop to work.
//!
//! Parsing is half of a tool loop; the other half is telling the model which
//! tools exist and feeding results back in the shape it was trained on.
//! For every family in [`families`] (ids as in `toolcall formats`):
//!
//! * [`render_tools`]: the tool-definition block its chat template puts in
//!   the system (or developer) prompt, with the call-format instruction;
//! * [`render_results`]: the message that carries tool results back, with
//!   content truncated to a token budget ([`truncate`]) and errors in the
//!   family's error form;
//! * [`render_calls`]: calls written the way the family writes them (for
//!   fixtures, conversation history, and the round-trip test: whatever it
//!   writes, [`crate::document::parse`] reads back).
//!
//! Each rendering says where it comes from ([`Source`]): the family's chat
//! template, an approximation of it, toolcall's own form for prompted
//! families without a template, or a generic form where we do not know the
//! template. MCP-style names `server___tool` are joined here
//! ([`crate::call::join_server_name`]) and split on parse.
//!
//! ```
//! use toolcall_core::{family, render_calls, CallSpec};
//! let fam = family("mistral").unwrap();
//! let call = CallSpec::new("get_weather", serde_json::json!({"city": "Paris"}));
//! assert_eq!(render_calls(fam, &[call]),
//!            r#"[TOOL_CALLS]get_weather[ARGS]{"city":"Paris"}"#);
//! ```

pub mod calls;
pub mod results;
pub mod text;
pub mod tools;

use crate::call::{self, Evidence};
use crate::tool::Tool;
use serde::Serialize;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt;

/// Why a call or a result handed to `render` could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RenderInputError {
    /// The value does not look like a call: it has no name and arguments.
    NotCall,
    /// It looks like a call but is broken: the diagnostic code and message.
    BrokenCall(&'static str, String),
    /// A result that is not a JSON object.
    ResultNotObject,
    /// A result with neither `content` nor `error`.
    ResultWithoutContent,
}

impl fmt::Display for RenderInputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderInputError::NotCall => f.write_str("not a call: needs a name and arguments"),
            RenderInputError::BrokenCall(code, m) => write!(f, "{code}: {m}"),
            RenderInputError::ResultNotObject => f.write_str("a result must be a JSON object"),
            RenderInputError::ResultWithoutContent => {
                f.write_str("a result needs \"content\" or \"error\"")
            }
        }
    }
}

impl std::error::Error for RenderInputError {}

/// Where a rendering comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Follows the family's published chat template (written from the
    /// template's text; role tokens of the surrounding message left out
    /// where noted).
    Template,
    /// Follows the template's structure; wording or whitespace may differ
    /// from the original, which we could not check byte for byte.
    Approximate,
    /// toolcall's own documented form: the family is prompted, no template
    /// defines one.
    Ours,
    /// We do not know the template's form: a generic rendering (the
    /// definitions in `<tools>` with the family's own call syntax as the
    /// example; results as `<tool_response>` blocks).
    Generic,
}

impl Source {
    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Template => "template",
            Source::Approximate => "approximate",
            Source::Ours => "ours",
            Source::Generic => "generic",
        }
    }
}

/// A call to render.
#[derive(Clone, Debug, PartialEq)]
pub struct CallSpec {
    /// The function name (a `server___tool` name is written as is).
    pub name: String,
    /// The arguments object.
    pub arguments: Map<String, Value>,
    /// The call's id, for families that write one (cohere, kimi-k2).
    pub id: Option<String>,
}

impl CallSpec {
    /// A call without an id; `arguments` other than an object give `{}`.
    pub fn new(name: &str, arguments: Value) -> CallSpec {
        CallSpec {
            name: name.to_string(),
            arguments: match arguments {
                Value::Object(m) => m,
                _ => Map::new(),
            },
            id: None,
        }
    }

    /// The calls in one JSON value: a `tool_call` record as `toolcall parse`
    /// writes it, a `{"name", "arguments"}` object in any spelling the
    /// parser reads, an OpenAI/Gemini wrapper, or an array of these. A
    /// `server` field is joined onto a name without one (`server___name`).
    pub fn from_value(v: Value) -> Result<Vec<CallSpec>, RenderInputError> {
        let server = v.get("server").and_then(Value::as_str).map(str::to_string);
        let parts = call::calls_from_owned(v, Evidence::Strong).map_err(|e| match e {
            call::Shape::NotCall => RenderInputError::NotCall,
            call::Shape::Broken(code, m) => RenderInputError::BrokenCall(code, m),
        })?;
        Ok(parts
            .into_iter()
            .map(|p| CallSpec {
                name: match &server {
                    Some(s) => call::join_server_name(s, &p.name),
                    None => p.name,
                },
                arguments: p.arguments,
                id: p.id,
            })
            .collect())
    }
}

/// A tool result to feed back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolResult {
    /// The id of the call it answers (may be empty).
    pub id: String,
    /// The tool's name (`server___tool` when it has a server).
    pub name: String,
    /// The output, or the error message when `is_error`.
    pub content: String,
    /// The tool failed; `content` is the error message.
    pub is_error: bool,
}

impl ToolResult {
    /// Reads one NDJSON result: `{"id", "name", "content"}` or
    /// `{"id", "name", "error"}`; also `tool_call_id` for `id`, `output`
    /// for `content`, `"is_error": true`, and `server` (joined onto the
    /// name). Content that is not a string is written as compact JSON.
    pub fn from_value(v: &Value) -> Result<ToolResult, RenderInputError> {
        let Value::Object(o) = v else {
            return Err(RenderInputError::ResultNotObject);
        };
        let text = |x: &Value| match x {
            Value::String(s) => s.clone(),
            other => text::json_compact(other),
        };
        let id = ["id", "tool_call_id", "call_id"]
            .iter()
            .find_map(|k| o.get(*k).filter(|x| !x.is_null()).map(text))
            .unwrap_or_default();
        let name = o.get("name").map(text).unwrap_or_default();
        let name = match o.get("server").and_then(Value::as_str) {
            Some(s) => call::join_server_name(s, &name),
            None => name,
        };
        let (content, is_error) = match (
            o.get("error").filter(|e| !e.is_null()),
            o.get("content").or_else(|| o.get("output")),
        ) {
            (Some(e), _) => (text(e), true),
            (None, Some(c)) => (
                text(c),
                o.get("is_error").and_then(Value::as_bool).unwrap_or(false),
            ),
            (None, None) => return Err(RenderInputError::ResultWithoutContent),
        };
        Ok(ToolResult {
            id,
            name,
            content,
            is_error,
        })
    }
}

/// A rendered message: the role wrapper around the body, when the family
/// has one (`pre` + `body` + `post` is the whole message).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Message {
    /// Role tokens before the body (may be empty).
    pub pre: String,
    /// The body: what a chat API would take as the message content.
    pub body: String,
    /// Role tokens after the body (may be empty).
    pub post: String,
}

impl Message {
    /// The whole message.
    pub fn full(&self) -> String {
        format!("{}{}{}", self.pre, self.body, self.post)
    }
}

/// One model family's prompt-side renderings.
#[derive(Clone, Copy)]
pub struct Family {
    /// The format id (as in `toolcall formats`).
    pub id: &'static str,
    /// Where the tools block comes from.
    pub tools_source: Source,
    /// Where the result message comes from.
    pub result_source: Source,
    /// The model families whose template the renderings follow.
    pub models: &'static str,
    /// Renders the tools block.
    pub tools: fn(&Family, &[Tool]) -> String,
    /// Renders consecutive results.
    pub result: fn(&[ToolResult]) -> Message,
    /// Renders one assistant turn of calls.
    pub call: fn(&[CallSpec]) -> String,
}

impl std::fmt::Debug for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Family")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// What a format's descriptor says about its prompt side: the renderings
/// and where each comes from.
#[derive(Clone, Copy)]
pub struct Prompt {
    /// The model families whose template the renderings follow.
    pub models: &'static str,
    /// Renders the tools block.
    pub tools: fn(&Family, &[Tool]) -> String,
    /// Where the tools block comes from.
    pub tools_source: Source,
    /// Renders consecutive results.
    pub result: fn(&[ToolResult]) -> Message,
    /// Where the result message comes from.
    pub result_source: Source,
    /// Renders one assistant turn of calls.
    pub call: fn(&[CallSpec]) -> String,
}

impl Prompt {
    /// The prompt side of `models`, its calls written by `call`; the tools
    /// block and the results as the generic prompt writes them
    /// (`tools::generic`, `results::tool_response`). The methods below
    /// name others.
    pub const fn new(models: &'static str, call: fn(&[CallSpec]) -> String) -> Prompt {
        Prompt {
            models,
            tools: tools::generic,
            tools_source: Source::Generic,
            result: results::tool_response,
            result_source: Source::Generic,
            call,
        }
    }

    /// Its tools block, and where it comes from.
    pub const fn tools(mut self, tools: fn(&Family, &[Tool]) -> String, source: Source) -> Prompt {
        self.tools = tools;
        self.tools_source = source;
        self
    }

    /// Its result message, and where it comes from.
    pub const fn result(mut self, result: fn(&[ToolResult]) -> Message, source: Source) -> Prompt {
        self.result = result;
        self.result_source = source;
        self
    }

    /// Its tools block and result message, both following the family's
    /// published chat template ([`Source::Template`]).
    pub const fn template(
        self,
        tools: fn(&Family, &[Tool]) -> String,
        result: fn(&[ToolResult]) -> Message,
    ) -> Prompt {
        self.both(Source::Template, tools, result)
    }

    /// Its tools block and result message, both following the template's
    /// structure ([`Source::Approximate`]).
    pub const fn approximate(
        self,
        tools: fn(&Family, &[Tool]) -> String,
        result: fn(&[ToolResult]) -> Message,
    ) -> Prompt {
        self.both(Source::Approximate, tools, result)
    }

    /// Its tools block and result message, both toolcall's own documented
    /// form for a prompted family ([`Source::Ours`]).
    pub const fn ours(
        self,
        tools: fn(&Family, &[Tool]) -> String,
        result: fn(&[ToolResult]) -> Message,
    ) -> Prompt {
        self.both(Source::Ours, tools, result)
    }

    /// Its tools block and result message, both from `source`.
    pub const fn both(
        self,
        source: Source,
        tools: fn(&Family, &[Tool]) -> String,
        result: fn(&[ToolResult]) -> Message,
    ) -> Prompt {
        self.tools(tools, source).result(result, source)
    }
}

/// Every family: the formats whose descriptor has a [`Prompt`], in
/// `toolcall formats` order.
///
/// What each rendering was checked against (repository and path of the
/// chat template; the renderer functions say more):
///
/// | family | tools | result |
/// |---|---|---|
/// | hermes | Qwen 3 template (copy in wangling03/BioReason `bioreason/models/dl/chat_template_dl.py`) | same |
/// | qwen3-coder-xml | vllm-project/vllm `examples/tool_chat_template_qwen3coder.jinja` | same |
/// | glm4-moe | ggml-org/llama.cpp `models/templates/GLM-4.6.jinja` | same |
/// | functionary | MeetKai/functionary `functionary/prompt_template/jinja_templates/v3-llama3.1.txt` | same |
/// | fenced-tool-call, fenced-json, bare-json | ours (prompted, no template) | ours |
/// | llama3-json | vllm `examples/tool_chat_template_llama3.1_json.jinja` | same (`{"output": …}`) |
/// | xlam | vllm `examples/tool_chat_template_xlam_llama.jinja` | same |
/// | granite | vllm `examples/tool_chat_template_granite.jinja` | same |
/// | cohere | llama.cpp `models/templates/CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja` (the `## Available Tools` section only) | same (a result carries its call's id, else its position) |
/// | internlm | vllm `examples/tool_chat_template_internlm2_tool.jinja` | same |
/// | jamba | vllm `examples/tool_chat_template_hunyuan_a13b.jinja` (Hunyuan-A13B; no Jamba template found) | same |
/// | minimax | vllm `examples/tool_chat_template_minimax_m1.jinja` | same |
/// | minimax-m2 | llama.cpp `models/templates/unsloth-MiniMax-M2.jinja` | same |
/// | minimax-m3 | generic: no template found (searched again: no MiniMax M3 template in the index) | generic |
/// | seed-oss | llama.cpp `models/templates/ByteDance-Seed-OSS.jinja` | same |
/// | longcat | generic: no template found (only third-party code writing `<longcat_tool_response>` blocks) | generic |
/// | nemotron-toolcall | llama.cpp `models/templates/nvidia-Llama-3_3-Nemotron-Super-49B-v1_5.jinja` | same |
/// | inkling | no template found; reimplementations of it (tinker-cookbook tests, Swift and Rust ports) | same |
/// | hunyuan-v4 | generic: no template found (searched again) | generic |
/// | ernie45 | generic: no template found (searched again: PaddlePaddle/ERNIE holds none) | generic |
/// | mistral | `[AVAILABLE_TOOLS]` marker as in vllm `examples/tool_chat_template_mistral3.jinja`; layout from mistral-common (not in the index) | mistral-common v11+ (not in the index) |
/// | deepseek-v3 | vllm `examples/tool_chat_template_deepseekv3.jinja` (approximate) | same |
/// | deepseek-v3.1 | DeepSeek's V3.1 tool prompt; vllm `examples/tool_chat_template_deepseekv31.jinja` concatenates the JSON instead (approximate) | llama.cpp `models/templates/deepseek-ai-DeepSeek-V3.1.jinja` |
/// | deepseek-dsml | llama.cpp `models/templates/DeepSeek-V3.2.jinja` | same |
/// | kimi-k2 | llama.cpp `models/templates/moonshotai-Kimi-K2.jinja` and `Kimi-K2-Thinking.jinja` | llama.cpp `models/templates/Kimi-K2-Thinking.jinja` |
/// | kimi-k3 | llama.cpp `models/templates/Kimi-K3.jinja` | same |
/// | step3 | generic: no Step-3 template found (llama.cpp `StepFun3.7-Flash.jinja` is the later `<tool_call><function=…>` format, not Step-3's) | generic |
/// | harmony | openai/harmony `src/encoding.rs` for the schema-to-TypeScript rules; the section layout agrees with the developer-message example of openai/openai-cookbook `articles/openai-harmony.md` (not byte-checked) | openai/openai-cookbook `articles/openai-harmony.md` (the tool message `<\|start\|>functions.NAME to=assistant<\|channel\|>commentary<\|message\|>…<\|end\|>`, checked) |
/// | pythonic | vllm `examples/tool_chat_template_llama3.2_pythonic.jinja` | same (`{"output": …}`) |
/// | lfm2 | llama.cpp `models/templates/llama-cpp-lfm2.jinja` | same |
/// | olmo3 | vllm `examples/tool_chat_template_olmo3.jinja` | same |
/// | llama-python-tag | vllm `examples/tool_chat_template_llama3.1_usr_def_tool_call.jinja` (built-in tool branch) | same (content `tojson`) |
/// | phi4-mini | vllm `examples/tool_chat_template_phi4_mini.jinja` | same |
/// | functionary-v3.2 | MeetKai/functionary `functionary/prompt_template/jinja_templates/v3.llama3.txt` and `json_to_ts_schema.txt` | same |
/// | gemini-function-call | not re-checked: no FunctionGemma template in the index | not re-checked |
/// | sarashina | generic: no template found (searched again) | generic |
/// | apertus | vllm `examples/tool_chat_template_apertus.jinja` | same |
/// | prompt-wrapper | generic, with LM Studio's `[TOOL_REQUEST]` call as the example (its prompt text is not in the index) | generic |
pub fn families() -> &'static [Family] {
    static FAMILIES: std::sync::OnceLock<Vec<Family>> = std::sync::OnceLock::new();
    FAMILIES.get_or_init(|| {
        crate::formats::FORMATS
            .iter()
            .filter_map(|f| {
                let p = f.render?;
                Some(Family {
                    id: f.id.as_str(),
                    tools_source: p.tools_source,
                    result_source: p.result_source,
                    models: p.models,
                    tools: p.tools,
                    result: p.result,
                    call: p.call,
                })
            })
            .collect()
    })
}

/// The family with this id.
pub fn family(id: &str) -> Option<&'static Family> {
    families().iter().find(|f| f.id == id)
}

/// The tools block for `family`. Names are written as the tools file has
/// them; see [`prefix_server`] to expose a server's tools as `server___tool`.
pub fn render_tools(family: &Family, tools: &[Tool]) -> String {
    (family.tools)(family, tools)
}

/// The tool name a server's tool is exposed under: `server___tool`.
pub fn prefix_server(server: &str, tool: &str) -> String {
    call::join_server_name(server, tool)
}

/// The message carrying `results` back, each result's content truncated to
/// `max_tokens` (see `truncate`; 0 means no limit) and its turn tokens
/// broken (see `neutralize_turn_tokens`).
pub fn render_results(family: &Family, results: &[ToolResult], max_tokens: usize) -> Message {
    let cut: Vec<ToolResult> = results
        .iter()
        .map(|x| ToolResult {
            // broken first, so the budget holds for what is written
            content: truncate(
                &results::neutralize_template_tokens(
                    family.id,
                    &neutralize_turn_tokens(&x.content),
                ),
                max_tokens,
            )
            .into_owned(),
            ..x.clone()
        })
        .collect();
    (family.result)(&cut)
}

/// Turn and role tokens written as words (those of the `<|…|>` and
/// `<｜…｜>` kinds are caught by their opening pair).
const TURN_WORDS: &[&str] = &[
    "<start_of_turn>",
    "<end_of_turn>",
    "[INST]",
    "[/INST]",
    "[SYSTEM_PROMPT]",
    "[/SYSTEM_PROMPT]",
    "[TOOL_RESULTS]",
    "[/TOOL_RESULTS]",
    "[TOOL_CALLS]",
    "[AVAILABLE_TOOLS]",
];

/// A tool's output made unable to open or close a turn in a chat template:
/// a backslash goes after the first character of every `<|` and `<｜`
/// (`<|im_start|>` becomes `<\|im_start|>`, Llama's `<|eot_id|>`
/// `<\|eot_id|>`, DeepSeek's `<｜User｜>` `<\｜User｜>`) and of the
/// tokens spelled as words (`<start_of_turn>`, `[INST]`,
/// `[TOOL_RESULTS]` …). The change is visible, and text without such
/// tokens is unchanged.
pub fn neutralize_turn_tokens(content: &str) -> Cow<'_, str> {
    let hit = |rest: &str| {
        rest.starts_with("<|")
            || rest.starts_with("<\u{ff5c}")
            || TURN_WORDS.iter().any(|w| rest.starts_with(w))
    };
    let starts = content
        .char_indices()
        .filter(|&(i, c)| matches!(c, '<' | '[') && hit(&content[i..]));
    let mut out = String::new();
    let mut from = 0;
    for (i, c) in starts {
        out.push_str(&content[from..i]);
        out.push(c);
        out.push('\\');
        from = i + c.len_utf8();
    }
    if from == 0 {
        return Cow::Borrowed(content);
    }
    out.push_str(&content[from..]);
    Cow::Owned(out)
}

/// One assistant turn holding `calls`, written the way `family` writes them.
pub fn render_calls(family: &Family, calls: &[CallSpec]) -> String {
    (family.call)(calls)
}

/// Bytes per token in the budget approximation.
pub const BYTES_PER_TOKEN: usize = 4;

/// The marker that replaces what [`truncate`] cut.
pub fn truncation_marker(omitted: usize, total: usize) -> String {
    format!("\n[truncated: {omitted} of {total} bytes omitted]")
}

/// Cuts `content` to `max_tokens` tokens, approximated as
/// [`BYTES_PER_TOKEN`] bytes each, never inside a UTF-8 character, and
/// appends a visible [`truncation_marker`]. Marker included, the result
/// stays within the budget unless the budget is smaller than the marker
/// (then only the marker is left). `max_tokens == 0` means no limit.
pub fn truncate(content: &str, max_tokens: usize) -> Cow<'_, str> {
    let budget = max_tokens.saturating_mul(BYTES_PER_TOKEN);
    if max_tokens == 0 || content.len() <= budget {
        return Cow::Borrowed(content);
    }
    let total = content.len();
    let mut keep = budget;
    // The marker's length depends on the digits of what it reports; two
    // rounds settle it (the kept length only shrinks).
    for _ in 0..8 {
        let mut k = budget.saturating_sub(truncation_marker(total - keep, total).len());
        while !content.is_char_boundary(k) {
            k -= 1;
        }
        if k == keep {
            break;
        }
        keep = k;
    }
    let mut out = String::with_capacity(budget + 8);
    out.push_str(&content[..keep]);
    out.push_str(&truncation_marker(total - keep, total));
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_match_the_format_table() {
        let fams: Vec<&str> = families().iter().map(|f| f.id).collect();
        let fmts: Vec<&str> = crate::formats::FORMATS
            .iter()
            .map(|f| f.id.as_str())
            .collect();
        assert_eq!(fams, fmts);
    }

    #[test]
    fn turn_tokens_are_broken_visibly_and_nothing_else_changes() {
        assert_eq!(
            neutralize_turn_tokens("a<|im_start|>system<｜User｜>[INST]<start_of_turn>b"),
            "a<\\|im_start|>system<\\｜User｜>[\\INST]<\\start_of_turn>b"
        );
        for plain in ["", "a < b | c", "[x] <b> |>", "é<"] {
            assert!(
                matches!(neutralize_turn_tokens(plain), Cow::Borrowed(_)),
                "{plain}"
            );
        }
        // the budget holds for what is written
        let fam = family("hermes").expect("hermes");
        let r = ToolResult {
            id: String::new(),
            name: "f".into(),
            content: "<|".repeat(1000),
            is_error: false,
        };
        let m = render_results(fam, &[r], 100);
        assert!(!m.body.contains("<|"), "{}", m.body);
        assert!(
            m.body.len() <= 100 * BYTES_PER_TOKEN + 60,
            "{}",
            m.body.len()
        );
    }

    #[test]
    fn truncation_is_utf8_safe_and_bounded() {
        let s = "é".repeat(1000); // 2000 bytes
        for max in 1..200 {
            let t = truncate(&s, max);
            assert!(t.contains("[truncated: "), "{max}");
            let budget = max * BYTES_PER_TOKEN;
            if budget >= 60 {
                assert!(t.len() <= budget, "{max}: {}", t.len());
            }
        }
        assert_eq!(truncate(&s, 0), s.as_str());
        assert_eq!(truncate(&s, 500), s.as_str());
        let t = truncate(&s, 100);
        let kept = t.split('\n').next().unwrap();
        assert_eq!(
            t.as_ref(),
            format!("{kept}{}", truncation_marker(s.len() - kept.len(), s.len()))
        );
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// Truncation keeps a UTF-8 prefix of the content, shows the marker,
        /// and stays within the budget once the budget can hold the marker.
        #[test]
        fn truncation_is_utf8_safe(content in "(.|\n){0,400}", max in 0usize..120) {
            let t = truncate(&content, max);
            let budget = max * BYTES_PER_TOKEN;
            if max == 0 || content.len() <= budget {
                prop_assert_eq!(t.as_ref(), content.as_str());
            } else {
                let at = t.rfind("\n[truncated: ").expect("marker");
                prop_assert!(content.starts_with(&t[..at]));
                prop_assert_eq!(&t[at..], truncation_marker(content.len() - at, content.len()));
                if budget >= 48 {
                    prop_assert!(t.len() <= budget, "{} > {}", t.len(), budget);
                }
            }
        }
    }
}
