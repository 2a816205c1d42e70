//! `toolcall validate`: one `validation` record per call, compiler-style
//! diagnostics on stderr, bounded retry through a model command.

mod big;
mod conv;
mod judge;

use super::common::{for_each_document, Body, BufferArgs, EngineArgs, InputArgs, Reading};
use super::output::{FlushPolicy, Kept, Output};
use super::tools::{Tools, ToolsArgs};
use super::Outcome;
use crate::cli::retry;
use crate::validate::diag::Located;
use crate::validate::items::{conversations_in, document_items, is_conversation, Layout};
use crate::validate::shapes;
use crate::wire::InputKind;
use anyhow::{bail, Context};
use clap::Args;
use serde_json::Value;
use std::path::PathBuf;
use std::rc::Rc;

/// Check tool calls against a tools file.
///
/// Reads `tool_call` records (as `toolcall parse` writes them) or raw model
/// output (sniffed: when the first line is a JSON record with a "type",
/// records, and a line that is not one is a TLP-008 error; otherwise the
/// text is parsed) and checks each call: a name (TLP-001), a
/// known tool (TLP-005), an arguments object (TLP-002), arguments that
/// satisfy the tool's JSON Schema (TLP-004). Candidates the parser could not
/// recover keep their code (TLP-002, TLP-003, TLP-007, TLP-008).
///
/// Writes one `validation` record per call on stdout and compiler-style
/// diagnostics (FILE:LINE:COL: `error[CODE]`: PATH: MESSAGE) on stderr. A
/// record's diagnostic points at the record's line, or into its `doc` when
/// that is also an input on the command line: records are data, and a
/// file a record names is never opened.
/// Exit status 0 when every call is valid (or there is none), 1 when any is
/// invalid, 2 on usage or I/O errors.
///
/// With --retry-cmd, a failing call is sent back to the model: CMD runs
/// with a retry prompt on stdin (the malformed output, the error and its
/// position, the tool, the expected format) and its stdout is parsed and
/// validated the same way, at most --max-retries times; then TLP-006.
///
/// Examples:
///
///   toolcall validate --tools tools.json transcripts/*.txt
///
///   toolcall parse reply.txt | toolcall validate --tools tools.json
///
///   toolcall validate --tools tools.json --retry-cmd 'ollama run qwen3' reply.txt
///
///   toolcall validate --tools tools.json --retry-prompt reply.txt > prompt.txt
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct ValidateArgs {
    /// Input selection.
    #[command(flatten)]
    pub input: InputArgs,
    /// Engine settings (for raw model output).
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Wire input settings (raw output as servers deliver it).
    #[command(flatten)]
    pub wire: super::common::WireArgs,
    /// Tools file, strictness, risk, config, logging.
    #[command(flatten)]
    pub tools: ToolsArgs,
    /// Retry settings.
    #[command(flatten)]
    pub retry: super::retry::RetryArgs,
    /// Output buffering.
    #[command(flatten)]
    pub buffer: BufferArgs,
    /// Do not print diagnostics on stderr (records only).
    ///
    /// Example:
    ///
    ///   toolcall validate --tools tools.json --no-diagnostics reply.txt | jq .valid
    #[arg(long, verbatim_doc_comment)]
    pub no_diagnostics: bool,

    /// No records, no diagnostics, no summary: the exit status only
    /// (0 every call valid, 1 any invalid, 2 error).
    #[arg(short, long, conflicts_with_all = ["retry_prompt", "retry_cmd"])]
    pub quiet: bool,

    /// Colour diagnostics: auto (when stderr is a terminal and NO_COLOR is
    /// unset or empty), always or never.
    #[arg(hide_short_help = true, long, value_name = "WHEN", default_value = "auto", value_parser = ["auto", "always", "never"])]
    pub color: String,

    /// Switch a conversation check off by its code (repeatable or
    /// comma-separated): TLP-009 unanswered call, TLP-010 result without a
    /// call, TLP-011 duplicate call id, TLP-012 tool not offered, TLP-013
    /// arguments string that does not parse, TLP-014 call left in the
    /// content.
    ///
    /// Example:
    ///
    ///   toolcall validate --allow TLP-009,TLP-014 chats.jsonl
    #[arg(long, value_name = "CODE", value_delimiter = ',', value_parser = allow_parser, verbatim_doc_comment)]
    pub allow: Vec<String>,

    /// Read the conversation at this JSON Pointer of each document
    /// (`/history`, `/answer_generation/train_messages/0`) when the
    /// search for one finds the wrong list or none.
    ///
    /// Example:
    ///
    ///   toolcall validate --messages-at /trajectory/steps run.json
    #[arg(
        hide_short_help = true,
        long,
        value_name = "POINTER",
        verbatim_doc_comment
    )]
    pub messages_at: Option<String>,

    /// Report formats and data-curation flags (`--output-format`,
    /// `--stats`, `--keep`).
    #[command(flatten)]
    pub report: super::report::ReportArgs,
}

/// A `--allow` value: one of the conversation checks' codes.
fn allow_parser(s: &str) -> Result<String, String> {
    if crate::validate::messages::CODES.contains(&s) || ALLOWABLE.contains(&s) {
        Ok(s.to_string())
    } else {
        Err(format!(
            "not a conversation check (known: {}, {})",
            crate::validate::messages::CODES.join(", "),
            ALLOWABLE.join(", ")
        ))
    }
}

/// The data checks `--allow` takes besides the conversation checks: a
/// document that holds no conversation (TLP-008), no tools (TLP-015), a
/// repaired call (TLP-016).
const ALLOWABLE: [&str; 3] = ["TLP-008", shapes::NO_TOOLS, shapes::REPAIRED];

impl ValidateArgs {
    /// Whether diagnostics are coloured (`--color`, `NO_COLOR`).
    fn colored(&self) -> bool {
        use std::io::IsTerminal;
        match self.color.as_str() {
            "always" => true,
            "never" => false,
            _ => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::io::stderr().is_terminal()
            }
        }
    }
}

struct Run<'a> {
    tools: &'a Tools,
    args: &'a ValidateArgs,
    template: Option<String>,
    max_retries: u32,
    limits: retry::RunLimits,
    out: Output,
    invalid: usize,
    total: usize,
    prompts: usize,
    colored: bool,
    /// The tools of the conversation being judged, when it brings its own
    /// and no --tools was given.
    doc_tools: Option<Rc<Tools>>,
    /// The last conversation's tools list and what was built from it.
    tools_cache: Option<(Value, Option<Rc<Tools>>)>,
    /// Findings that are not calls (refused documents, results without
    /// a call): in `invalid`, not in the call counts.
    other: usize,
    /// The report at the end (`--output-format`, `--stats`).
    report: super::report::Report,
    /// The file whose items are being judged.
    file: String,
    /// The last document warned to offer no tools (once per document).
    warned_no_tools: Option<String>,
    /// The next call index of the document being read.
    next_index: usize,
    /// Conversations of the document converted so far (`--convert`: the
    /// made-up call ids are `call_<conversation>_<n>`).
    converted: usize,
    /// The item being judged is a call (not a refused document or a
    /// result without a call).
    counted: bool,
    /// `invalid` when the current row (a JSONL line or a document) began.
    invalid_before: usize,
    /// Reading an element of a large top-level array (`big`): its
    /// pointer (`/k`), which its text's spans lack, and the start of the
    /// file (where a once-per-document warning points).
    element: Option<(String, Rc<Located<Vec<u8>>>)>,
    /// The document being read was taken past `--max-conversation`
    /// because its first bytes open one message list (`big::object`): it
    /// is read a message at a time or refused, never parsed whole.
    listed: bool,
}

/// Records on stdout, buffered as `--line-buffered` / `--block-buffered`
/// ask.
fn stdout(args: &ValidateArgs) -> Output {
    Output::stdout(FlushPolicy::choose(
        args.buffer.line_buffered,
        args.buffer.block_buffered,
        false,
    ))
}

/// What checking one document on a worker thread gave: its stdout and
/// stderr bytes, held until the documents before it are written, and its
/// counts.
struct Checked {
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    invalid: usize,
    total: usize,
    other: usize,
    report: super::report::Report,
    result: anyhow::Result<()>,
}

/// `-j N`: files are checked on N threads, each document with its own
/// state; a document's records and diagnostics are held until every
/// document before it is written, so the output is the same as `-j1`,
/// byte for byte. At most N files' output is held at once.
fn in_parallel(
    run: &mut Run<'_>,
    files: &mut usize,
    tools: &Tools,
    args: &ValidateArgs,
    template: &Option<String>,
) -> anyhow::Result<()> {
    super::common::run_documents(
        &args.input,
        Reading::Streamed,
        args.wire.max_buffer,
        |doc, push| {
            let kept = Kept::default();
            let mut out = kept.output();
            out.set_quiet(args.quiet);
            let mut one = Run::new(tools, args, template.clone(), out);
            let (result, stderr) = super::capture_stderr(|| {
                let r = one.document(doc);
                r.and(one.out.flush().map_err(anyhow::Error::from))
            });
            let stdout = kept.take();
            push(Checked {
                stdout,
                stderr,
                invalid: one.invalid,
                total: one.total,
                other: one.other,
                report: one.report,
                result,
            })
            .map(|_| ())
        },
        |c: Checked| {
            *files += 1;
            run.out.raw(&c.stdout)?;
            if !c.stderr.is_empty() {
                // records before the diagnostics that follow them
                run.out.flush()?;
                super::to_stderr_bytes(&c.stderr);
            }
            run.invalid += c.invalid;
            run.total += c.total;
            run.other += c.other;
            run.report.absorb(c.report);
            c.result.map(|()| super::common::Flow::More)
        },
    )
}

impl<'a> Run<'a> {
    /// A run writing its records to `out`.
    fn new(
        tools: &'a Tools,
        args: &'a ValidateArgs,
        template: Option<String>,
        out: Output,
    ) -> Run<'a> {
        let mut run = Run {
            tools,
            args,
            template,
            max_retries: args
                .retry
                .max_retries
                .or(tools.file.max_retries)
                .unwrap_or(3),
            limits: retry::RunLimits {
                timeout: std::time::Duration::from_secs(
                    args.retry
                        .retry_timeout
                        .or(tools.file.retry_timeout_secs)
                        .unwrap_or(retry::DEFAULT_TIMEOUT_SECS),
                ),
                max_output: args
                    .retry
                    .retry_max_output
                    .or(tools.file.retry_max_output)
                    .unwrap_or(retry::DEFAULT_MAX_OUTPUT),
            },
            out,
            invalid: 0,
            total: 0,
            prompts: 0,
            colored: args.colored(),
            doc_tools: None,
            tools_cache: None,
            other: 0,
            report: super::report::Report::new(&args.report),
            file: String::new(),
            warned_no_tools: None,
            next_index: 0,
            converted: 0,
            counted: true,
            invalid_before: 0,
            element: None,
            listed: false,
        };
        run.out.set_quiet(args.quiet);
        run
    }

    /// Checks one document: its records on `out`, its diagnostics on
    /// stderr.
    fn document(&mut self, doc: super::common::Document) -> anyhow::Result<()> {
        let (tools, args) = (self.tools, self.args);
        let cfg = tools.engine(args.engine.document_config(&doc.name)?);
        let name = args.engine.doc_name(&doc.name);
        self.report.document();
        self.next_index = 0;
        self.converted = 0;
        let explicit = args.wire.input == InputKind::Messages;
        let bytes = match doc.body {
            // never a map: validate reads with Reading::Streamed
            Body::Bytes(b) => b.into_vec(),
            Body::Reader(r) => {
                match conv::conversation_lines(self, r, &name, &cfg, explicit, args)? {
                    Some(bytes) => bytes,
                    None => return Ok(()),
                }
            }
        };
        let bytes = match self.streamed(bytes, &name, &cfg)? {
            Some(bytes) => bytes,
            None => return Ok(()),
        };
        match conversations_in(&bytes, explicit) {
            Some(Layout::Whole(v)) => {
                let text = Rc::new(Located::new(bytes));
                self.invalid_before = self.invalid;
                self.conversation(v, &text, &name, &name, &cfg)?;
                self.keep(text.bytes())
            }
            Some(Layout::Lines) => conv::judge_lines(self, &bytes, &name, &cfg, args),
            Some(Layout::Session) => self.session(bytes, &name, &cfg),
            // no tools to check model output against: named, not checked
            None if tools.registry.is_none() && !explicit => {
                self.report.skipped(
                    &name,
                    "not a conversation, and no --tools to check its calls against",
                );
                Ok(())
            }
            None => {
                let sources = Sources {
                    inputs: &args.input.files,
                    max: args.input.max_input,
                };
                let summary = document_items(
                    &name,
                    bytes,
                    &cfg,
                    &args.wire.config(),
                    |doc| sources.read(doc),
                    &args.allow,
                    |item| self.judge(item, &cfg),
                )?;
                if let Some(summary) = summary {
                    super::report_server_errors(&name, &summary);
                }
                Ok(())
            }
        }
    }
}

/// Runs `validate`.
pub fn run(args: &ValidateArgs) -> anyhow::Result<Outcome> {
    // --convert reads conversations, which bring their own tools
    if args.tools.tools.is_none()
        && args.wire.input != InputKind::Messages
        && args.report.convert.is_none()
        && !any_conversations(&args.input.files)
    {
        let named = args.input.files.iter().find(|f| {
            f.as_os_str() != "-"
                && super::common::small_regular_file(f)
                && std::fs::read(f).is_ok_and(|b| super::common::looks_like_tools(&b))
        });
        match named {
            Some(f) => bail!(
                "validate needs a tools file: --tools FILE ({} is one: did you mean --tools {}?)",
                f.display(),
                f.display()
            ),
            None => bail!("validate needs a tools file: --tools FILE"),
        }
    }
    let tools = args.tools.load()?;
    if args.retry.retry_cmd.is_some() {
        super::kill_retry_on_signal();
    }
    let template = match &args.retry.retry_template {
        Some(p) => Some(
            std::fs::read_to_string(p)
                .with_context(|| format!("reading retry template {}", p.display()))?,
        ),
        None => tools.file.retry_prompt_template.clone(),
    };
    let mut run = Run::new(&tools, args, template.clone(), stdout(args));
    let mut files = 0usize;
    // files checked in parallel: not with a retry, which talks to a model
    // between calls, nor --retry-prompt, whose prompts are numbered
    let parallel =
        args.input.jobs > 1 && args.retry.retry_cmd.is_none() && !args.retry.retry_prompt;
    // an input that could not be read ends the run with exit 2, after the
    // report and the summary of what was read (a CI job keeps its SARIF)
    let read = if parallel {
        in_parallel(&mut run, &mut files, &tools, args, &template)
    } else {
        for_each_document(
            &args.input,
            Reading::Streamed,
            args.wire.max_buffer,
            |doc| {
                files += 1;
                run.document(doc)
            },
        )
    };
    if let Some(text) = run.report.finish() {
        run.out.raw(text.as_bytes())?;
    }
    run.out.flush()?;
    let invalid_calls = run.invalid - run.other;
    let mut summary = format!(
        "{} call{}, {} valid, {} invalid in {files} file{}",
        run.total,
        if run.total == 1 { "" } else { "s" },
        run.total - invalid_calls,
        invalid_calls,
        if files == 1 { "" } else { "s" }
    );
    if run.other > 0 {
        summary.push_str(&format!(
            "; {} other finding{} (refused documents and lines: no conversation, not JSON or too large; results without a call)",
            run.other,
            if run.other == 1 { "" } else { "s" }
        ));
    }
    // with the diagnostics (not under -q, --no-diagnostics, --retry-prompt)
    if !args.quiet && !args.no_diagnostics && !args.retry.retry_prompt {
        super::report(&summary);
    }
    tools.log("-", 1, &summary);
    read?;
    let skipped = run.report.skipped_files();
    if !skipped.is_empty() && args.report.convert.is_some() {
        bail!(
            "{} file{} not converted: no conversation in {}: {}",
            skipped.len(),
            if skipped.len() == 1 { " was" } else { "s were" },
            if skipped.len() == 1 { "it" } else { "them" },
            skipped
                .iter()
                .map(|f| super::sanitize(f))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if !skipped.is_empty() {
        bail!(
            "{} file{} not checked: not conversations, and validate needs a tools file for them (--tools FILE): {}",
            skipped.len(),
            if skipped.len() == 1 { " was" } else { "s were" },
            skipped
                .iter()
                .map(|f| super::sanitize(f))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok(if run.invalid == 0 {
        Outcome::Found
    } else {
        Outcome::NotFound
    })
}

/// The documents a record's `doc` may name for its diagnostics to quote:
/// only inputs named on the command line. A record is untrusted data: a
/// path taken from one is never opened (`/proc/self/environ`, `/dev/zero`,
/// a FIFO).
pub(crate) struct Sources<'a> {
    /// The inputs on the command line.
    pub inputs: &'a [std::path::PathBuf],
    /// Most bytes read of one (`--max-input`).
    pub max: u64,
}

impl Sources<'_> {
    /// The bytes of `doc` when it is one of the command-line inputs and a
    /// regular file within the size limit; else `None` (nothing opened).
    pub(crate) fn read(&self, doc: &str) -> Option<Vec<u8>> {
        let path = self
            .inputs
            .iter()
            .find(|p| p.as_os_str() != "-" && p.as_os_str() == doc)?;
        let meta = std::fs::metadata(path).ok()?;
        if !meta.is_file() || meta.len() > self.max {
            return None;
        }
        let mut f = std::fs::File::open(path).ok()?;
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(
            &mut std::io::Read::take(&mut f, self.max.saturating_add(1)),
            &mut bytes,
        )
        .ok()?;
        (bytes.len() as u64 <= self.max).then_some(bytes)
    }
}

/// True when an input is a directory or a file that holds conversations
/// (its first line is one, or it is one JSON conversation): `validate`
/// then runs without `--tools` (the conversations bring their own), and
/// names the files it could not check.
fn any_conversations(files: &[PathBuf]) -> bool {
    !files.is_empty()
        && files.iter().any(|f| {
            if f.is_dir() {
                return true;
            }
            let Ok(file) = std::fs::File::open(f) else {
                return false;
            };
            if !file.metadata().is_ok_and(|m| m.is_file()) {
                return false;
            }
            let mut line = Vec::new();
            let mut r = std::io::BufReader::new(file);
            loop {
                match super::common::read_line_limited(&mut r, &mut line, 1 << 20) {
                    Ok(true) if line.trim_ascii().is_empty() => continue,
                    Ok(true) => break,
                    _ => return false,
                }
            }
            if line.len() > 1 << 20 {
                // a long line is not parsed (a partial parse of it costs
                // some ten times its size): its start is looked at
                return big::sniff_file(f);
            }
            if serde_json::from_slice::<Value>(line.trim_ascii())
                .is_ok_and(|v| shapes::is_event(&v) || is_conversation(&v, false))
            {
                return true;
            }
            if super::common::small_regular_file(f) {
                std::fs::read(f).is_ok_and(|b| conversations_in(&b, false).is_some())
            } else {
                big::sniff_file(f)
            }
        })
}
