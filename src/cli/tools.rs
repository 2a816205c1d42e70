//! `--tools`, `--config`, strictness, risk and `-v`: the flags shared by
//! `validate`, `parse` and `stream`, and the state they load.

use crate::cli::sanitize;
use crate::validate::config::{self, FileConfig};
use crate::validate::diag::{self, Severity};
use crate::validate::registry::{Registry, ToolsLimits};
use crate::validate::{Policy, Risk, Verdict};
use crate::Config;
use crate::ToolCall;
use clap::{ArgAction, Args};
use std::path::PathBuf;

/// Flags for validating against a tools file, configuration and logging.
#[derive(Args, Debug, Clone, Default)]
pub struct ToolsArgs {
    /// Tools file (JSON or JSON5) to validate calls against.
    ///
    /// Any common shape: an OpenAI chat `tools` array, the flattened
    /// Responses shape, Ollama's, an MCP `tools/list` result (`inputSchema`),
    /// Anthropic's (`input_schema`), or a plain `{"name": schema}` map.
    /// Per-tool metadata (display name, risk, summary template) rides in an
    /// `x-toolcall` object. With it, `parse` and `stream` add `tool_name`,
    /// `risk`, `requires_approval`, `summary`, `valid` and `errors` to every
    /// tool_call record.
    ///
    /// Examples:
    ///
    ///   toolcall parse --tools tools.json reply.txt
    ///
    ///   toolcall validate --tools mcp-tools.json5 transcripts/*.txt
    #[arg(long, value_name = "FILE", verbatim_doc_comment)]
    pub tools: Option<PathBuf>,

    /// Largest tools file read, in bytes [default: 16 MiB].
    ///
    /// A real tools file is kilobytes (a large MCP server's, a few
    /// megabytes); a larger one is refused before it is parsed (exit 2),
    /// since parsing and compiling its schemas takes time and memory many
    /// times its size.
    #[arg(hide_short_help = true, long, value_name = "BYTES", default_value_t = DEFAULT_MAX_TOOLS,
          value_parser = crate::cli::common::input_size_parser(), hide_default_value = true)]
    pub max_tools_size: u64,

    /// How deeply a tools file may nest (`--max-schema-depth`, …).
    #[command(flatten)]
    pub limits: LimitArgs,

    /// Lenient mode: accept properties the schema does not declare, and
    /// calls to tools the file does not list (with a warning).
    ///
    /// Strict mode is the default (or `strict_validation` in the config):
    /// an object schema that declares `properties` and says nothing about
    /// `additionalProperties` rejects other properties, and an unknown tool
    /// is an error (TLP-005). A schema's own `additionalProperties: false`
    /// holds in both modes.
    ///
    /// Example:
    ///
    ///   toolcall validate --tools tools.json --no-strict reply.txt
    #[arg(
        hide_short_help = true,
        long,
        conflicts_with = "strict",
        verbatim_doc_comment
    )]
    pub no_strict: bool,

    /// Strict mode even when the config file turns it off.
    ///
    /// Example:
    ///
    ///   toolcall validate --tools tools.json --strict reply.txt
    #[arg(hide_short_help = true, long, verbatim_doc_comment)]
    pub strict: bool,

    /// Risk given to tools the tools file does not list [default: medium].
    ///
    /// One of safe, low, medium, high, critical. Also the risk of a listed
    /// tool without an `x-toolcall.risk` (or MCP hint).
    ///
    /// Example:
    ///
    ///   toolcall parse --tools tools.json --no-strict --unknown-risk high reply.txt
    #[arg(
        hide_short_help = true,
        long,
        value_name = "LEVEL",
        verbatim_doc_comment
    )]
    pub unknown_risk: Option<Risk>,

    /// Calls whose risk is above this level require approval [default: safe].
    ///
    /// `requires_approval` is true when the call's risk is above LEVEL,
    /// unless the tool's `x-toolcall.requires_approval` says otherwise.
    ///
    /// Example:
    ///
    ///   toolcall parse --tools tools.json --auto-approve low reply.txt \
    ///     | jq 'select(.requires_approval)'
    #[arg(
        hide_short_help = true,
        long,
        value_name = "LEVEL",
        verbatim_doc_comment
    )]
    pub auto_approve: Option<Risk>,

    /// Configuration file (JSON5) [default: .toolcall.json5 found upward].
    ///
    /// Settings: max_retries, enable_auto_repair, repair_timeout_ms,
    /// strict_validation, retry_prompt_template, allow_json_blocks,
    /// allow_inline_json, unknown_tool_risk, auto_approval_threshold,
    /// max_buffer_size; for exec and loop also max_iterations,
    /// max_parallel_tools, tool_timeout_s, request_timeout_s,
    /// iteration_delay_ms, result_cap_tokens, retry_failed_tools,
    /// approval_timeout_s. Flags override the file. Without this flag the
    /// nearest `.toolcall.json5` in the current directory or above is used
    /// (named on stderr; refused when another user could have written it;
    /// its settings that widen approval are ignored: see docs/agent.md).
    ///
    /// Example:
    ///
    ///   toolcall validate --config ci/toolcall.json5 --tools tools.json logs/
    #[arg(
        hide_short_help = true,
        long,
        value_name = "FILE",
        conflicts_with = "no_config",
        verbatim_doc_comment
    )]
    pub config: Option<PathBuf>,

    /// Do not look for a `.toolcall.json5` configuration file.
    ///
    /// Example:
    ///
    ///   toolcall parse --no-config reply.txt
    #[arg(hide_short_help = true, long, verbatim_doc_comment)]
    pub no_config: bool,

    /// Log to stderr (`-vv`: also argument values), per document with a
    /// correlation id.
    ///
    /// Log lines read `toolcall[CID] ...`, where CID is derived from the
    /// document's name, so the lines of one document can be grepped
    /// together. Argument values can be private and appear only at `-vv`.
    ///
    /// Example:
    ///
    ///   toolcall validate -vv --tools tools.json reply.txt 2> log.txt
    #[arg(hide_short_help = true, short = 'v', long = "verbose", action = ArgAction::Count, verbatim_doc_comment)]
    pub verbose: u8,
}

/// The bounds on what a tools file may ask of the readers and the schema
/// validator, as flags.
#[derive(Args, Debug, Clone)]
pub struct LimitArgs {
    /// How deeply a tool's schema may nest, in levels of JSON objects and
    /// arrays [default: 256].
    ///
    /// The schema validator compiles recursively: a deeper schema is a
    /// tools-file error (exit 2) rather than a stack overflow. Real
    /// schemas nest a dozen levels. Range 1 to 1024.
    #[arg(hide_short_help = true, long, value_name = "N",
          default_value_t = ToolsLimits::default().schema_depth, hide_default_value = true,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=ToolsLimits::SCHEMA_DEPTH_MAX as u64))]
    pub max_schema_depth: usize,

    /// How many times a schema's combinators may check one value
    /// [default: 100000].
    ///
    /// `anyOf`/`oneOf`/`allOf`/`not`/`if`/`$ref` are counted along the
    /// worst path into a value: a schema whose branches multiply (2^40
    /// checks of one value) is a tools-file error (exit 2) when it loads,
    /// not a hang. Range 1 to 100000000.
    #[arg(hide_short_help = true, long, value_name = "N",
          default_value_t = ToolsLimits::default().schema_checks, hide_default_value = true,
          value_parser = clap::value_parser!(u64).range(1..=ToolsLimits::SCHEMA_CHECKS_MAX))]
    pub max_schema_checks: u64,

    /// How deeply a tools file written in JSON5 may nest [default: 128].
    ///
    /// The JSON5 reader is recursive: deeper text is refused before it is
    /// read (exit 2), as `serde_json` refuses JSON past 128. Applies to
    /// the tools file and the config file. Range 1 to 1024.
    #[arg(hide_short_help = true, long, value_name = "N",
          default_value_t = ToolsLimits::default().json5_depth, hide_default_value = true,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=ToolsLimits::JSON5_DEPTH_MAX as u64))]
    pub max_json5_depth: usize,
}

impl Default for LimitArgs {
    fn default() -> Self {
        let d = ToolsLimits::default();
        LimitArgs {
            max_schema_depth: d.schema_depth,
            max_schema_checks: d.schema_checks,
            max_json5_depth: d.json5_depth,
        }
    }
}

impl LimitArgs {
    /// The limits these flags ask for, range-checked by the core.
    pub fn limits(&self) -> anyhow::Result<ToolsLimits> {
        ToolsLimits::new(
            self.max_schema_depth,
            self.max_schema_checks,
            self.max_json5_depth,
        )
        .map_err(|e| anyhow::anyhow!("{e}"))
    }
}

/// What the tools flags loaded: the registry, the policy, the config file.
#[derive(Debug, Default)]
pub struct Tools {
    /// The registry, when `--tools` was given.
    pub registry: Option<Registry>,
    /// Strictness and risk levels.
    pub policy: Policy,
    /// The configuration file's settings.
    pub file: FileConfig,
    /// Where the configuration came from.
    pub config_path: Option<PathBuf>,
    /// `-v` count.
    pub verbose: u8,
    /// The current directory, where tools run: relative paths in arguments
    /// are resolved against it before rules and `risk_when` see them.
    pub base_dir: Option<String>,
}

impl ToolsArgs {
    /// Reads the configuration file and the tools file.
    pub fn load(&self) -> anyhow::Result<Tools> {
        let found = if self.no_config || self.config.is_some() {
            None
        } else {
            match std::env::current_dir() {
                Ok(d) => discover_config(&d, home().as_deref())?,
                Err(_) => None,
            }
        };
        let implicit = found.is_some();
        let (config_path, opened) = match (&self.config, found) {
            (Some(p), _) => {
                let f =
                    std::fs::File::open(p).map_err(|e| config::ConfigError::Io(p.clone(), e))?;
                (Some(p.clone()), Some(f))
            }
            (None, Some((p, f))) => (Some(p), Some(f)),
            (None, None) => (None, None),
        };
        let mut file = match (&config_path, opened) {
            (Some(p), Some(f)) => {
                let name = p.display().to_string();
                let bytes = crate::cli::common::read_limited(
                    f,
                    &name,
                    self.max_tools_size,
                    "--max-tools-size",
                )?;
                let text = String::from_utf8(bytes)
                    .map_err(|e| anyhow::anyhow!("reading config {name}: not UTF-8 ({e})"))?;
                FileConfig::from_file_text_within(p, &text, self.limits.max_json5_depth)?
            }
            _ => FileConfig::default(),
        };
        if let (true, Some(p)) = (implicit, &config_path) {
            // nobody named this file: say which one applies, and take from
            // it nothing that widens what runs without asking
            crate::cli::report(&format!(
                "using config {} (found upward; --config FILE or --no-config to choose)",
                p.display()
            ));
            for (key, value) in file.drop_widening() {
                crate::cli::report(&format!(
                    "config {}: {key}: {value} ignored: a file found upward may not widen \
                     approval (give the file with --config, or use {})",
                    p.display(),
                    widening_flag(key)
                ));
            }
        }
        let strict = if self.no_strict {
            false
        } else {
            self.strict || file.strict_validation.unwrap_or(true)
        };
        let policy = Policy {
            strict,
            unknown_risk: self
                .unknown_risk
                .or(file.unknown_tool_risk)
                .unwrap_or(Risk::Medium),
            auto_approve: self
                .auto_approve
                .or(file.auto_approval_threshold)
                .unwrap_or(Risk::Safe),
        };
        let registry = match &self.tools {
            Some(p) => {
                let name = p.display().to_string();
                let file = std::fs::File::open(p)
                    .map_err(|e| anyhow::anyhow!("reading tools file {name}: {e}"))?;
                let bytes = crate::cli::common::read_limited(
                    file,
                    &name,
                    self.max_tools_size,
                    "--max-tools-size",
                )?;
                let text = String::from_utf8(bytes)
                    .map_err(|e| anyhow::anyhow!("reading tools file {name}: not UTF-8 ({e})"))?;
                let r = Registry::from_text_within(&text, strict, &self.limits.limits()?)
                    .map_err(|e| tools_error(&name, e))?;
                for w in &r.warnings {
                    super::to_stderr(&format!("{}: warning: {}\n", sanitize(&name), sanitize(w)));
                }
                Some(r)
            }
            None => None,
        };
        let tools = Tools {
            registry,
            policy,
            file,
            config_path,
            verbose: self.verbose,
            base_dir: std::env::current_dir()
                .ok()
                .and_then(|d| d.to_str().map(str::to_string)),
        };
        if let (false, Some(p)) = (implicit, &tools.config_path) {
            tools.log("config", 1, &format!("using config {}", p.display()));
        }
        Ok(tools)
    }
}

/// The per-document correlation id: FNV-1a of the document name, 8 hex digits.
pub fn correlation_id(doc: &str) -> String {
    let mut h: u32 = 0x811c_9dc5;
    for b in doc.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    format!("{h:08x}")
}

/// Default `--max-tools-size`: 16 MiB (the core's, which the bindings'
/// `max_tools_size` takes too).
pub const DEFAULT_MAX_TOOLS: u64 = crate::validate::registry::DEFAULT_MAX_TOOLS_SIZE;

impl Tools {
    /// Applies the configuration file to an engine configuration built from
    /// the flags. A flag that was given wins over the file.
    pub fn engine(&self, mut cfg: Config) -> Config {
        let f = &self.file;
        cfg.json_blocks = cfg.json_blocks && f.allow_json_blocks != Some(false);
        cfg.inline_json = cfg.inline_json || f.allow_inline_json == Some(true);
        cfg.repair = cfg.repair && f.enable_auto_repair != Some(false);
        if let Some(reg) = &self.registry {
            let mut names: Vec<String> = reg.tools().iter().map(|t| t.name.clone()).collect();
            names.sort_unstable();
            names.dedup();
            cfg.tool_names = Some(names.into());
        }
        if let Some(ms) = f.repair_timeout_ms {
            cfg.repair_timeout_ms = ms;
        }
        if cfg.max_block == crate::Options::default().max_block {
            if let Some(m) = f.max_buffer_size {
                cfg.max_block = m.max(1);
            }
        }
        cfg
    }

    /// Writes a log line at `level` (1 = `-v`, 2 = `-vv`).
    pub fn log(&self, doc: &str, level: u8, msg: &str) {
        if self.verbose >= level {
            super::to_stderr(&format!(
                "toolcall[{}] {}\n",
                correlation_id(doc),
                sanitize(msg)
            ));
        }
    }

    /// Judges a call (typing its text values by the schema first) without
    /// touching the record's fields. `None` without `--tools`.
    pub fn judge(&self, call: &mut ToolCall) -> Option<Verdict> {
        let reg = self.registry.as_ref()?;
        let (v, typed) = reg.judge_in(call, &self.policy, self.base_dir.as_deref());
        if typed {
            self.log(
                &call.doc,
                2,
                &format!("call {} typed by schema", call.index),
            );
        }
        self.log(
            &call.doc,
            1,
            &format!(
                "call {} {}: {} risk={}{}",
                call.index,
                call.name,
                if v.valid { "valid" } else { "invalid" },
                v.risk,
                if v.requires_approval { " approval" } else { "" }
            ),
        );
        self.log(
            &call.doc,
            2,
            &format!("call {} arguments {}", call.index, call.arguments),
        );
        Some(v)
    }

    /// With `--tools`: adds `tool_name`, `risk`, `requires_approval`,
    /// `summary`, `valid` and `errors` to a tool_call record, and warns on
    /// stderr about unknown tools in lenient mode. `doc` (the document's
    /// bytes, when at hand, with their line index) puts a line:column on the
    /// warning.
    pub fn enrich(&self, call: &mut ToolCall, doc: Option<&diag::Located<&[u8]>>) {
        let Some(v) = self.judge(call) else {
            return;
        };
        for w in &v.warnings {
            let bytes = doc.map(diag::Located::bytes);
            let at = diag::locate_in(bytes, call.span, &call.raw, &w.path, &call.name);
            let mut issue = w.clone();
            issue.message = format!("{} (risk {})", issue.message, v.risk);
            super::to_stderr(&diag::render_in(
                &call.doc,
                doc,
                at,
                Severity::Warning,
                &issue,
            ));
        }
        v.write_into(&mut call.extra);
    }
}

/// A tools file's error with the file's name in front: `FILE:LINE:COL: …`
/// for a syntax error (as compilers write it), `FILE: …` otherwise.
pub fn tools_error(name: &str, e: crate::validate::registry::RegistryError) -> anyhow::Error {
    use crate::validate::registry::RegistryError;
    match e {
        RegistryError::Syntax { .. } => anyhow::anyhow!("{name}:{e}"),
        _ => anyhow::anyhow!("{name}: {e}"),
    }
}

/// The flag that sets what the configuration key `key` sets.
fn widening_flag(key: &str) -> &'static str {
    match key {
        "auto_approval_threshold" => "--auto-approve",
        "unknown_tool_risk" => "--unknown-risk",
        "strict_validation" => "--no-strict",
        "retry_failed_tools" => "--retry-failed",
        _ => "its flag",
    }
}

/// `$HOME`, resolved, when set.
fn home() -> Option<PathBuf> {
    let h = std::env::var_os("HOME").filter(|h| !h.is_empty())?;
    std::fs::canonicalize(h).ok()
}

/// The nearest `.toolcall.json5` in `start` or one of its ancestors, open
/// (a configuration file is looked for here, not in the engine, which
/// touches no file).
///
/// As git stops looking for a repository where its `safe.directory` rule
/// would not trust one, the walk stops at a folder owned by another user
/// (root excepted; such a folder is not looked in), at the edge of the
/// file system `start` is on, and after `home`. A file found is checked as
/// a state file is (see [`super::store`]): refused, exit 2, when it is a
/// symbolic link, not a regular file, owned by another user (root
/// excepted) or writable by group or others.
fn discover_config(
    start: &std::path::Path,
    home: Option<&std::path::Path>,
) -> anyhow::Result<Option<(PathBuf, std::fs::File)>> {
    #[cfg(unix)]
    use std::os::unix::fs::MetadataExt;
    #[cfg(unix)]
    let (me, device) = (
        rustix::process::geteuid().as_raw(),
        std::fs::metadata(start).map(|m| m.dev()).ok(),
    );
    let mut dir = Some(start);
    while let Some(d) = dir {
        #[cfg(unix)]
        {
            let Ok(meta) = std::fs::metadata(d) else {
                break;
            };
            if Some(meta.dev()) != device || (meta.uid() != me && meta.uid() != 0) {
                break;
            }
        }
        let candidate = d.join(config::FILE_NAME);
        if let Some(f) = crate::cli::store::open_private(&candidate, "config").map_err(|e| {
            anyhow::anyhow!(
                "{e:#} (found upward from the current folder: remove it, or choose with \
                 --config FILE or --no-config)"
            )
        })? {
            return Ok(Some((candidate, f)));
        }
        if home == Some(d) {
            break;
        }
        dir = d.parent();
    }
    Ok(None)
}
