//! What the binding needs of the core that the core does not offer yet:
//! engine options from one options object, family names, the format table.
//!
//! INTERIM: each item here restates a piece of the command's own option
//! handling (`src/cli/common/engine_flags.rs`, `src/cli/names.rs`) the way
//! the Python binding does today. The core's front door (issue 44: one
//! `Options` with one `resolve`) replaces this whole file; nothing else in
//! node/src reads an option by name.

use serde::Deserialize;
use serde_json::{json, Value};
use toolcall_core::formats::{self, FormatId};
use toolcall_core::validate::registry::Registry;
use toolcall_core::validate::{typing, Policy, Risk, Verdict};
use toolcall_core::wire::{InputKind, WireConfig};
use toolcall_core::{Config, FormatChoice, ToolCall};

/// The options object of `parse` and `StreamParser`, under the names of
/// the Python keywords (the JS layer turns `camelCase` keys into these).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Options {
    format: String,
    model: Option<String>,
    generation_prompt: Option<String>,
    finish_reason: Option<String>,
    input: String,
    json_blocks: bool,
    inline_json: bool,
    repair: bool,
    reasoning_calls: bool,
    think_open: bool,
    think_window: usize,
    max_block: usize,
    repair_max_size: usize,
    max_buffer: usize,
    doc: String,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            format: "auto".into(),
            model: None,
            generation_prompt: None,
            finish_reason: None,
            input: "text".into(),
            json_blocks: true,
            inline_json: false,
            repair: true,
            reasoning_calls: false,
            think_open: false,
            think_window: 0,
            max_block: 1 << 20,
            repair_max_size: toolcall_core::DEFAULT_MAX_INPUT_BYTES,
            max_buffer: 1 << 20,
            doc: "-".into(),
        }
    }
}

/// The engine and wire settings an options object asks for, or what is
/// wrong with it.
pub fn resolve(options: Option<Value>) -> Result<(Config, WireConfig), String> {
    let o: Options = match options {
        None | Some(Value::Null) => Options::default(),
        Some(v) => serde_json::from_value(v).map_err(|e| format!("options: {e}"))?,
    };
    let mut choice = format_choice(&o.format)?;
    let mut prompt = o.generation_prompt.map(String::into_bytes);
    if let Some(name) = &o.model {
        let Some((f, m)) = formats::registry::model(name) else {
            return Err(format!(
                "unknown model '{name}' (formats() lists the known ones; \
                 format and generationPrompt say the same for any model)"
            ));
        };
        if choice == FormatChoice::Auto {
            choice = FormatChoice::Only(f.id);
        }
        if prompt.is_none() {
            prompt = Some(m.prompt.as_bytes().to_vec());
        }
    }
    let truncated = match o.finish_reason.as_deref() {
        None | Some("stop") => false,
        Some("length") => true,
        Some(other) => {
            return Err(format!(
                "unknown finishReason '{other}' (expected 'stop' or 'length')"
            ))
        }
    };
    if o.max_block == 0 || o.max_buffer == 0 {
        return Err("maxBlock and maxBuffer must be at least 1".into());
    }
    let input: InputKind = o
        .input
        .parse()
        .map_err(|e: toolcall_core::wire::UnknownInput| e.to_string())?;
    let cfg = Config {
        doc: o.doc,
        format: choice,
        json_blocks: o.json_blocks,
        inline_json: o.inline_json,
        reasoning_calls: o.reasoning_calls,
        max_block: o.max_block,
        repair: o.repair,
        repair_timeout_ms: toolcall_core::DEFAULT_TIMEOUT_MS,
        repair_max_bytes: o.repair_max_size,
        think_open: o.think_open,
        think_window: o.think_window,
        generation_prompt: prompt,
        truncated,
        tool_names: None,
        turn: 0,
    };
    Ok((
        cfg,
        WireConfig {
            input,
            max_buffer: o.max_buffer,
        },
    ))
}

/// `auto`, a format id or one of its model names.
fn format_choice(name: &str) -> Result<FormatChoice, String> {
    if name.eq_ignore_ascii_case("auto") {
        return Ok(FormatChoice::Auto);
    }
    formats::registry::by_name(name)
        .map(|f| FormatChoice::Only(f.id))
        .ok_or_else(|| format!("unknown format '{name}' (formats() lists them)"))
}

/// The rendering family of a format id or model name.
pub fn family(name: &str) -> Result<&'static toolcall_core::Family, String> {
    let id = formats::registry::by_name(name).map_or(name, |f| f.id.as_str());
    toolcall_core::family(id).ok_or_else(|| {
        let ids: Vec<&str> = toolcall_core::families().iter().map(|f| f.id).collect();
        format!("no rendering for '{name}' (families: {})", ids.join(", "))
    })
}

/// The format table, as `toolcall formats --json` lists it.
pub fn format_table() -> Value {
    Value::Array(
        formats::FORMATS
            .iter()
            .map(|f| {
                json!({
                    "id": f.id.as_str(),
                    "families": f.families,
                    "markers": f.markers,
                    "body": f.body,
                    "models": f.models.iter().map(|m| json!({
                        "name": m.name, "generation_prompt": m.prompt,
                    })).collect::<Vec<_>>(),
                    "render": f.render.is_some(),
                })
            })
            .collect(),
    )
}

/// The policy a tools definition is judged under.
pub fn policy(strict: bool, unknown_risk: &str, auto_approve: &str) -> Result<Policy, String> {
    let risk = |s: &str| s.parse::<Risk>().map_err(|e| e.to_string());
    Ok(Policy {
        strict,
        unknown_risk: risk(unknown_risk)?,
        auto_approve: risk(auto_approve)?,
    })
}

/// Judges a call as `parse --tools` does: text values of XML-style
/// formats typed by the schema first, then checked.
pub fn judge(registry: &Registry, policy: &Policy, call: &mut ToolCall) -> Verdict {
    let text_format = FormatId::from_id(call.format).filter(|&f| typing::is_text_format(f));
    if let (Some(tool), Some(format)) = (registry.get(&call.name), text_format) {
        if let Value::Object(args) = &mut *call.arguments {
            typing::type_arguments_in(format, args, &tool.parameters, &call.raw);
        }
    }
    registry.check(&call.name, &call.arguments, policy)
}

/// The engine settings with the declared tool names, which let a damaged
/// call naming a declared tool be recovered (as `--tools` does).
pub fn with_tool_names(registry: &Registry, mut cfg: Config) -> Config {
    let mut names: Vec<String> = registry.tools().iter().map(|t| t.name.clone()).collect();
    names.sort_unstable();
    names.dedup();
    cfg.tool_names = Some(names.into());
    cfg
}
