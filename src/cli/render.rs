//! `toolcall render`: the prompt side of a tool loop (tool definitions,
//! tool results, calls) for each model family.

use super::common::read_source;
use super::output::{FlushPolicy, Output};
use super::Outcome;
use crate::validate::registry::{Registry, ToolsLimits};
use crate::{families, CallSpec, Family, Source, ToolResult};
use anyhow::{anyhow, bail};
use clap::{Args, Subcommand};
use serde_json::Value;
use std::path::PathBuf;

/// Render the prompt side of a tool loop for a model family.
///
/// Parsing is half of a tool loop; the other half is telling the model
/// which tools exist and feeding results back in the shape it was trained
/// on. `render tools` writes the tool-definition block for the system
/// prompt, `render result` the message that carries a tool's output back,
/// `render call` calls the way the family writes them (for fixtures and
/// conversation history), `render families` what each family renders and
/// where it comes from (its chat template, an approximation, toolcall's own
/// form, or a generic one). Family ids are the format ids of
/// `toolcall formats`.
///
/// MCP-style names `server___tool` are split into `server` and `tool` fields
/// by `parse` and joined here (`--server`, or a `server` field in NDJSON).
///
/// Examples:
///
///   toolcall render tools --family hermes < tools.json
///
///   toolcall render result --family harmony --id call_1 --name get_weather < out.txt
///
///   toolcall parse reply.txt | toolcall render call --family mistral
///
///   toolcall render families
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct RenderArgs {
    /// What to render.
    #[command(subcommand)]
    pub what: RenderCommand,
}

/// The things `render` renders.
#[derive(Subcommand, Debug)]
#[allow(missing_docs)]
pub enum RenderCommand {
    Tools(ToolsArgs),
    Result(ResultArgs),
    Call(CallArgs),
    Families(FamiliesArgs),
}

/// `--family`: a format id `render` has templates for, or a model name
/// that writes one (`qwen3`, `llama3.2`, `deepseek-r1`).
fn family_parser() -> super::names::NameParser {
    super::names::NameParser::family()
}

/// The tool-definition block a family expects in its system prompt.
///
/// Reads a tools file in any shape `validate --tools` accepts (OpenAI,
/// Ollama, MCP tools/list, Anthropic, a {"name": schema} map; JSON or
/// JSON5) and writes the block the family's chat template puts in the
/// system (or developer) prompt, with its call-format instruction. Role
/// tokens around the system message are left out: put the block in the
/// system prompt and let the server wrap it. Exit status 1 when the file
/// lists no tools.
///
/// Examples:
///
///   toolcall render tools --family hermes < tools.json
///
///   toolcall render tools --family harmony tools.json
///
///   toolcall render tools --family mistral --server github mcp-tools.json
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct ToolsArgs {
    /// The model family: a format id (`toolcall render families`) or a model
    /// name (`qwen3`, `llama3.2`, `Qwen/Qwen3-8B`).
    ///
    /// Example:
    ///
    ///   toolcall render tools --family qwen3-coder-xml < tools.json
    #[arg(long, value_name = "ID", value_parser = family_parser(), hide_possible_values = true,
          verbatim_doc_comment)]
    pub family: String,

    /// Expose every tool as SERVER___NAME (MCP style).
    ///
    /// `toolcall parse` splits such names back into `server` and `tool`
    /// fields. Names that already carry a server are left alone.
    ///
    /// Example:
    ///
    ///   toolcall render tools --family hermes --server github gh-tools.json
    #[arg(long, value_name = "SERVER", verbatim_doc_comment)]
    pub server: Option<String>,

    /// Tools file (`-` or none: stdin).
    #[arg(value_name = "FILE", default_value = "-")]
    pub file: PathBuf,

    /// Largest tools file read, in bytes [default: 16 MiB], as for
    /// `validate --tools`: a larger one is refused before it is parsed
    /// (exit 2).
    #[arg(long, value_name = "BYTES", default_value_t = super::tools::DEFAULT_MAX_TOOLS,
          value_parser = super::common::input_size_parser(), hide_default_value = true)]
    pub max_tools_size: u64,

    /// How deeply a tools file may nest (`--max-schema-depth`, …).
    #[command(flatten)]
    pub limits: super::tools::LimitArgs,
}

/// The tool-result message for a family.
///
/// Reads a tool's output (all of FILE or stdin, less one final newline)
/// and writes the message
/// that carries it back to the model: `<tool_response>` for Qwen/hermes,
/// `[TOOL_RESULTS]` for Mistral, the `ipython` role for Llama 3, a
/// `functions.NAME to=assistant` message for harmony, and so on (see
/// `toolcall render families`). With --ndjson, each input line is one
/// result, {"id", "name", "content"} or {"id", "name", "error"} (also
/// `tool_call_id`, `server`, `is_error`), and consecutive results are
/// rendered the way the template groups them.
///
/// Content is cut to --max-tokens (4 bytes a token, never inside a UTF-8
/// character) with a visible "[truncated: N of M bytes omitted]" marker.
/// Turn tokens in the output cannot open a turn: a backslash goes after
/// the first character of every `<|` and `<｜` (`<|im_start|>` becomes
/// `<\|im_start|>`) and of `<start_of_turn>`, `[INST]`, `[TOOL_RESULTS]`
/// and the like (docs/agent.md, Results).
/// An error (--error, or an "error" field) is written in the family's
/// error form: {"error": "MESSAGE"} as content unless the template has its
/// own (Command A's is_error).
///
/// Examples:
///
///   ./get_weather.sh | toolcall render result --family hermes --id c1 --name get_weather
///
///   toolcall render result --family mistral --name f --error <<< 'file not found'
///
///   toolcall render result --family llama3-json --ndjson results.ndjson
///
///   toolcall render result --family kimi-k2 --body --name f out.txt
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct ResultArgs {
    /// The model family: a format id (`toolcall render families`) or a model
    /// name (`qwen3`, `llama3.2`, `Qwen/Qwen3-8B`).
    ///
    /// Example:
    ///
    ///   toolcall render result --family glm4-moe --name f < out.txt
    #[arg(long, value_name = "ID", value_parser = family_parser(), hide_possible_values = true,
          verbatim_doc_comment)]
    pub family: String,

    /// The id of the call this result answers.
    ///
    /// Written where the family's message carries it (Kimi K2's
    /// `## Return of ID`, Command A's tool_call_id); take it from the
    /// `id` of the `tool_call` record.
    ///
    /// Example:
    ///
    ///   toolcall render result --family kimi-k2 --id functions.f:0 --name f < out.txt
    #[arg(
        long,
        value_name = "CALL_ID",
        default_value = "",
        hide_default_value = true,
        verbatim_doc_comment
    )]
    pub id: String,

    /// The tool's name (unless --ndjson, or the input is records with one).
    ///
    /// Example:
    ///
    ///   toolcall render result --family harmony --name get_weather < out.txt
    #[arg(long, value_name = "NAME", verbatim_doc_comment)]
    pub name: Option<String>,

    /// The tool's server: the name is written as SERVER___NAME.
    ///
    /// Example:
    ///
    ///   toolcall render result --family hermes --server github --name list_issues < out.txt
    #[arg(long, value_name = "SERVER", verbatim_doc_comment)]
    pub server: Option<String>,

    /// The input is an error message, not output.
    ///
    /// Example:
    ///
    ///   echo 'permission denied' | toolcall render result --family hermes --name f --error
    #[arg(long, conflicts_with = "ndjson", verbatim_doc_comment)]
    pub error: bool,

    /// Each input line is a JSON result {"id", "name", "content"|"error"}.
    ///
    /// Example:
    ///
    ///   jq -c '{id, name, content: "done"}' calls.ndjson | toolcall render result --family hermes --ndjson
    #[arg(long, verbatim_doc_comment)]
    pub ndjson: bool,

    /// Token budget per result, 4 bytes a token; 0: no limit.
    ///
    /// Longer content is cut at a UTF-8 character boundary and ends with
    /// "[truncated: N of M bytes omitted]"; marker included, it fits the
    /// budget.
    ///
    /// Example:
    ///
    ///   cat big.log | toolcall render result --family hermes --name tail --max-tokens 512
    #[arg(long, value_name = "N", default_value_t = 4096, verbatim_doc_comment,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1u64 << 30))]
    pub max_tokens: usize,

    /// Only the message content, without the role tokens around it.
    ///
    /// What a chat API or `ollama run` takes as the message text (they add
    /// the role wrapper themselves).
    ///
    /// Example:
    ///
    ///   toolcall render result --family hermes --name f --body < out.txt | ollama run qwen3
    #[arg(long, verbatim_doc_comment)]
    pub body: bool,

    /// Result file (`-` or none: stdin).
    #[arg(value_name = "FILE", default_value = "-")]
    pub file: PathBuf,
}

/// Calls written the way a family writes them.
///
/// Reads calls, one JSON value per line: `tool_call` records as `toolcall
/// parse` writes them, {"name", "arguments"} objects (any spelling parse
/// reads), or arrays of them; a `server` field is joined onto the name.
/// Writes one assistant turn holding all of them, as the family writes it.
/// `toolcall parse` reads the output back to the same names and arguments.
/// Exit status 1 when there is no call.
///
/// Examples:
///
///   echo '{"name":"get_weather","arguments":{"city":"Oslo"}}' | toolcall render call --family harmony
///
///   toolcall parse --format hermes reply.txt | toolcall render call --family pythonic
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct CallArgs {
    /// The model family: a format id (`toolcall render families`) or a model
    /// name (`qwen3`, `llama3.2`, `Qwen/Qwen3-8B`).
    ///
    /// Example:
    ///
    ///   toolcall render call --family kimi-k2 < calls.ndjson
    #[arg(long, value_name = "ID", value_parser = family_parser(), hide_possible_values = true,
          verbatim_doc_comment)]
    pub family: String,

    /// Calls file, one JSON value per line (`-` or none: stdin).
    #[arg(value_name = "FILE", default_value = "-")]
    pub file: PathBuf,
}

/// The families and where each rendering comes from.
///
/// For every family: its id, the models whose template it follows, and the
/// source of its tools block and result message: template (the family's
/// chat template), approximate (its structure; wording may differ), ours
/// (toolcall's own form for prompted models), generic (template unknown:
/// definitions in `<tools>` with the family's call syntax as the example,
/// results as <tool_response> blocks).
///
/// Examples:
///
///   toolcall render families
///
///   toolcall render families --json | jq -r 'select(.tools == "template") | .id'
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct FamiliesArgs {
    /// One JSON record per family instead of a table.
    #[arg(long)]
    pub json: bool,
}

fn lookup(id: &str) -> anyhow::Result<&'static Family> {
    crate::family(id).ok_or_else(|| anyhow!("unknown family '{id}'"))
}

fn write_text(text: &str) -> anyhow::Result<()> {
    let mut out = Output::stdout(FlushPolicy::Block);
    out.raw(text.as_bytes())?;
    if !text.ends_with('\n') {
        out.raw(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

fn utf8(doc: &str, bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => {
            super::report(&format!("warning: {doc}: invalid UTF-8 replaced"));
            String::from_utf8_lossy(e.as_bytes()).into_owned()
        }
    }
}

/// Runs `render`.
pub fn run(args: &RenderArgs) -> anyhow::Result<Outcome> {
    match &args.what {
        RenderCommand::Tools(a) => run_tools(a),
        RenderCommand::Result(a) => run_result(a),
        RenderCommand::Call(a) => run_call(a),
        RenderCommand::Families(a) => run_families(a),
    }
}

fn run_tools(a: &ToolsArgs) -> anyhow::Result<Outcome> {
    let fam = lookup(&a.family)?;
    let (doc, reader) = super::common::open_source(&a.file)?;
    let bytes = super::common::read_limited(reader, &doc, a.max_tools_size, "--max-tools-size")?;
    let text = utf8(&doc, bytes);
    let limits = a.limits.limits()?;
    let registry = Registry::from_text_within(&text, false, &limits)
        .map_err(|e| super::tools::tools_error(&doc, e))?;
    for w in &registry.warnings {
        super::report(&format!("warning: {doc}: {w}"));
    }
    if registry.is_empty() {
        return Ok(Outcome::NotFound);
    }
    let rendered = match &a.server {
        Some(server) => {
            let text = with_server(&text, server, &limits)?;
            let registry = Registry::from_text_within(&text, false, &limits)
                .map_err(|e| super::tools::tools_error(&doc, e))?;
            crate::render_tools(fam, registry.tools())
        }
        None => crate::render_tools(fam, registry.tools()),
    };
    write_text(&rendered)?;
    Ok(Outcome::Found)
}

/// The tools file with every tool renamed SERVER___NAME, in the normalised
/// `[{"name", "description", "parameters"}]` shape.
fn with_server(text: &str, server: &str, limits: &ToolsLimits) -> anyhow::Result<String> {
    let registry = Registry::from_text_within(text, false, limits).map_err(|e| anyhow!("{e}"))?;
    let tools: Vec<Value> = registry
        .tools()
        .iter()
        .map(|t| {
            let mut v = crate::tool_json(t);
            v["name"] = Value::String(crate::prefix_server(server, &t.name));
            v
        })
        .collect();
    Ok(serde_json::to_string(&tools)?)
}

fn run_result(a: &ResultArgs) -> anyhow::Result<Outcome> {
    let fam = lookup(&a.family)?;
    let (doc, bytes) = read_source(&a.file, super::common::DEFAULT_MAX_INPUT)?;
    let text = utf8(&doc, bytes);
    // without --name, records that carry one (`exec`'s tool_result
    // records, {"id", "name", "content"}) are read as with --ndjson
    let records = a.ndjson || (a.name.is_none() && carries_names(&text));
    let results = if records {
        let mut results = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let r = serde_json::from_str::<Value>(line)
                .map_err(|e| format!("not JSON: {e}"))
                .and_then(|v| ToolResult::from_value(&v).map_err(|e| e.to_string()));
            let mut r = match r {
                Ok(r) => r,
                Err(why) => {
                    skip_line(&doc, i + 1, &why);
                    continue;
                }
            };
            if let Some(s) = &a.server {
                r.name = crate::join_server_name(s, &r.name);
            }
            results.push(r);
        }
        results
    } else {
        let Some(name) = &a.name else {
            bail!(
                "--name is required: the input is not JSON records with a \"name\" \
                 (a tool_result record, or {{\"id\", \"name\", \"content\"}} a line)"
            );
        };
        vec![ToolResult {
            id: a.id.clone(),
            name: crate::join_server_name(a.server.as_deref().unwrap_or(""), name),
            content: strip_final_newline(text),
            is_error: a.error,
        }]
    };
    if results.is_empty() {
        return Ok(Outcome::NotFound);
    }
    let msg = crate::render_results(fam, &results, a.max_tokens);
    write_text(&if a.body { msg.body } else { msg.full() })?;
    Ok(Outcome::Found)
}

/// True when every non-blank line of `text` is a JSON object with a
/// string `name` (and there is one).
fn carries_names(text: &str) -> bool {
    let mut any = false;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let named = serde_json::from_str::<Value>(line)
            .ok()
            .is_some_and(|v| v.get("name").is_some_and(Value::is_string));
        if !named {
            return false;
        }
        any = true;
    }
    any
}

/// Reports line `line` of `doc` (`DOC:LINE: WHY` on stderr, escaped) and
/// marks the run failed: the line is skipped, the other lines are still
/// rendered, and the exit status (2) says the input was not read whole.
fn skip_line(doc: &str, line: usize, why: &str) {
    super::report(&format!("{doc}:{line}: {why}"));
    super::fail_later();
}

/// Drops one final newline (`\n` or `\r\n`), as `$(...)` would: tools
/// and `echo` end their output with one.
fn strip_final_newline(mut s: String) -> String {
    if s.ends_with('\n') {
        s.pop();
        if s.ends_with('\r') {
            s.pop();
        }
    }
    s
}

fn run_call(a: &CallArgs) -> anyhow::Result<Outcome> {
    let fam = lookup(&a.family)?;
    let (doc, bytes) = read_source(&a.file, super::common::DEFAULT_MAX_INPUT)?;
    let text = utf8(&doc, bytes);
    let mut calls: Vec<CallSpec> = Vec::new();
    let trimmed = text.trim();
    // One JSON value (possibly pretty-printed), or one per line.
    let values: Vec<(usize, Value)> = match serde_json::from_str::<Value>(trimmed) {
        Ok(v) if !trimmed.is_empty() => vec![(1, v)],
        _ => {
            let mut vs = Vec::new();
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                match serde_json::from_str::<Value>(line) {
                    Ok(v) => vs.push((i + 1, v)),
                    Err(e) => skip_line(&doc, i + 1, &format!("not JSON: {e}")),
                }
            }
            vs
        }
    };
    for (line, v) in values {
        // Records other than tool_call (errors, done) are skipped.
        if let Some(kind) = v.get("type").and_then(Value::as_str) {
            if kind != "tool_call" && kind != "function" {
                continue;
            }
        }
        match CallSpec::from_value(v) {
            Ok(c) => calls.extend(c),
            Err(e) => skip_line(&doc, line, &e.to_string()),
        }
    }
    if calls.is_empty() {
        return Ok(Outcome::NotFound);
    }
    write_text(&crate::render_calls(fam, &calls))?;
    Ok(Outcome::Found)
}

#[derive(serde::Serialize)]
struct FamilyRecord {
    #[serde(rename = "type")]
    kind: &'static str,
    id: &'static str,
    models: &'static str,
    tools: Source,
    result: Source,
}

fn run_families(a: &FamiliesArgs) -> anyhow::Result<Outcome> {
    let mut out = Output::stdout(FlushPolicy::Block);
    let width = families().iter().map(|f| f.id.len()).max().unwrap_or(0);
    for f in families() {
        if a.json {
            out.record(&FamilyRecord {
                kind: "family",
                id: f.id,
                models: f.models,
                tools: f.tools_source,
                result: f.result_source,
            })?;
        } else {
            let line = format!(
                "{:width$}  tools: {:11}  result: {:11}  {}\n",
                f.id,
                f.tools_source.as_str(),
                f.result_source.as_str(),
                f.models
            );
            out.raw(line.as_bytes())?;
        }
    }
    out.flush()?;
    Ok(Outcome::Found)
}
