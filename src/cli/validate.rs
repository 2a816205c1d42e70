//! `toolcall validate`: one `validation` record per call, compiler-style
//! diagnostics on stderr, bounded retry through a model command.

use super::common::{for_each_document, Body, BufferArgs, EngineArgs, InputArgs, Reading};
use super::output::{FlushPolicy, Output};
use super::tools::{Tools, ToolsArgs};
use super::Outcome;
use crate::cli::retry::{self, Attempt};
use crate::validate::diag::{self, Located, Severity};
use crate::validate::messages;
use crate::validate::records::{bad_line_message, call_from_record, is_records, record_lines};
use crate::validate::retry::{Failure, FailureKind, Usage};
use crate::validate::shapes;
use crate::validate::turns::{Candidate, Checked, TurnCheck, TurnsSeen};
use crate::validate::{Issue, Verdict};
use crate::wire::InputKind;
use crate::Config;
use crate::ToolCall;

mod big;
use anyhow::{bail, Context};
use clap::Args;
use serde::Serialize;
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

/// A rendered diagnostic with its location in bold, its severity and code
/// in red (error) or yellow (warning) and its caret in green. `file` is the
/// escaped file name the diagnostic starts with.
fn paint(rendered: &str, file: &str, sev: Severity) -> String {
    const BOLD: &str = "\x1b[1m";
    const RESET: &str = "\x1b[0m";
    let color = match sev {
        Severity::Error => "\x1b[1;31m",
        Severity::Warning => "\x1b[1;33m",
    };
    let Some(rest) = rendered.strip_prefix(file) else {
        return rendered.to_string();
    };
    // rest: ":LINE:COL: SEV[CODE]: MESSAGE\n…"
    let (Some(loc_end), Some(tag_end)) = (rest.find(": "), rest.find("]: ")) else {
        return rendered.to_string();
    };
    if tag_end < loc_end {
        return rendered.to_string();
    }
    let mut out = format!(
        "{BOLD}{file}{}{RESET}: {color}{}{RESET}:",
        &rest[..loc_end],
        &rest[loc_end + 2..=tag_end]
    );
    let after = &rest[tag_end + 2..];
    match after.rfind('^') {
        Some(caret) if after[caret..].trim_end() == "^" => {
            out.push_str(&after[..caret]);
            out.push_str("\x1b[1;32m^");
            out.push_str(RESET);
            out.push_str(&after[caret + 1..]);
        }
        _ => out.push_str(after),
    }
    out
}

/// A `validation` record.
#[derive(Serialize)]
struct Validation<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    doc: &'a str,
    index: usize,
    id: &'a str,
    name: &'a str,
    valid: bool,
    errors: Vec<PlacedIssue<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    risk: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    requires_approval: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    summary: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    arguments: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    format: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    turn: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    role: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pointer: Option<&'a str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    in_content: bool,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    repairs: &'a [crate::Repair],
    line: u64,
    column: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    attempts: Option<&'a [Attempt]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    usage: Option<Usage>,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_output: Option<&'a str>,
}

/// An issue with the line and column its diagnostic points at.
#[derive(Serialize)]
struct PlacedIssue<'a> {
    #[serde(flatten)]
    issue: &'a Issue,
    line: u64,
    column: u64,
}

/// One thing to judge: a call, or a candidate the parser gave up on.
struct Item {
    call: ToolCall,
    /// The parser's error, for a candidate that is not a call.
    broken: Option<Issue>,
    /// Where diagnostics point: file name, its bytes, the item's offset.
    file: String,
    text: Option<Rc<Located<Vec<u8>>>>,
    offset: usize,
    /// Set for a call (or a result) of a structured conversation.
    conv: Option<Conv>,
}

/// Where an item of a structured conversation sits, and what the
/// conversation checks found about it.
struct Conv {
    turn: usize,
    role: String,
    /// The call's JSON Pointer (`None` in a raw transcript).
    pointer: Option<String>,
    in_content: bool,
    /// Conversation issues, each with the offset its diagnostic points at.
    lint: Vec<(Issue, usize)>,
    /// The tools are the conversation's own: an unknown tool is its
    /// TLP-012, not TLP-005.
    own_tools: bool,
    /// The arguments string did not parse and TLP-013 is allowed: the
    /// schema errors that follow from it are not reported either.
    skip_schema: bool,
}

impl Conv {
    /// For a call of a raw transcript: its turn, and the issues the
    /// transcript's checks found.
    fn raw(call: &ToolCall, lint: Vec<(Issue, usize)>) -> Conv {
        let turn = call.turn.unwrap_or(crate::Turn {
            index: 0,
            role: "assistant",
        });
        Conv {
            turn: turn.index as usize,
            role: turn.role.to_string(),
            pointer: None,
            in_content: false,
            lint,
            own_tools: false,
            skip_schema: false,
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
    /// The item being judged is a call (not a refused document or a
    /// result without a call).
    counted: bool,
    /// `invalid` when the current row (a JSONL line or a document) began.
    invalid_before: usize,
    /// Reading an element of a large top-level array (`big`): its
    /// pointer (`/k`), which its text's spans lack, and the start of the
    /// file (where a once-per-document warning points).
    element: Option<(String, Rc<Located<Vec<u8>>>)>,
}

/// Runs `validate`.
pub fn run(args: &ValidateArgs) -> anyhow::Result<Outcome> {
    if args.tools.tools.is_none()
        && args.wire.input != InputKind::Messages
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
    let mut run = Run {
        tools: &tools,
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
        out: Output::stdout(FlushPolicy::choose(
            args.buffer.line_buffered,
            args.buffer.block_buffered,
            false,
        )),
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
        counted: true,
        invalid_before: 0,
        element: None,
    };
    run.out.set_quiet(args.quiet);
    let mut files = 0usize;
    for_each_document(
        &args.input,
        Reading::Streamed,
        args.wire.max_buffer,
        |doc| {
            let cfg = tools.engine(args.engine.document_config(&doc.name)?);
            let name = args.engine.doc_name(&doc.name);
            files += 1;
            run.report.document();
            run.next_index = 0;
            let explicit = args.wire.input == InputKind::Messages;
            let bytes = match doc.body {
                Body::Bytes(b) => b,
                Body::Reader(r) => {
                    match conversation_lines(&mut run, r, &name, &cfg, explicit, args)? {
                        Some(bytes) => bytes,
                        None => return Ok(()),
                    }
                }
            };
            match conversations_in(&bytes, explicit) {
                Some(Layout::Whole(v)) => {
                    let text = Rc::new(Located::new(bytes));
                    run.invalid_before = run.invalid;
                    run.conversation(&v, &text, &name, &name, &cfg)?;
                    run.keep(text.bytes())
                }
                Some(Layout::Lines) => judge_lines(&mut run, &bytes, &name, &cfg, args),
                Some(Layout::Session) => run.session(bytes, &name, &cfg),
                // no tools to check model output against: named, not checked
                None if tools.registry.is_none() && !explicit => {
                    run.report.skipped(
                        &name,
                        "not a conversation, and no --tools to check its calls against",
                    );
                    Ok(())
                }
                None => judge_items(
                    &name,
                    bytes,
                    &cfg,
                    &args.wire.config(),
                    &Sources {
                        inputs: &args.input.files,
                        max: args.input.max_input,
                    },
                    &args.allow,
                    |item| run.judge(item, &cfg),
                ),
            }
        },
    )?;
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
            "; {} other finding{} (documents without a conversation, results without a call)",
            run.other,
            if run.other == 1 { "" } else { "s" }
        ));
    }
    // with the diagnostics (not under -q, --no-diagnostics, --retry-prompt)
    if !args.quiet && !args.no_diagnostics && !args.retry.retry_prompt {
        super::report(&summary);
    }
    tools.log("-", 1, &summary);
    let skipped = run.report.skipped_files();
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

/// Judges the items of one document in document order, as they are found:
/// the engine is fed a slice at a time and what lies before its settled
/// offset is judged and dropped, so a large transcript's calls are never
/// all held at once (only the document itself, which diagnostics quote).
/// In a transcript (a document with turn headers) the conversation checks
/// that need no ids run as the turns go by (the core's `TurnCheck`); `allow` holds
/// the codes switched off.
fn judge_items(
    name: &str,
    bytes: Vec<u8>,
    cfg: &Config,
    wire: &crate::wire::WireConfig,
    sources: &Sources<'_>,
    allow: &[String],
    mut judge: impl FnMut(Item) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    if is_records(&bytes) {
        return record_items(name, bytes, sources)
            .into_iter()
            .try_for_each(judge);
    }
    /// Slice of the document fed at a time.
    const SLICE: usize = 1 << 20;
    let text = Rc::new(Located::new(bytes));
    let mut engine = crate::wire::WireEngine::new(cfg.clone(), wire.clone());
    // found but not judged yet; `index` numbers the judged ones
    let mut pending: Vec<Item> = Vec::new();
    let mut index = 0usize;
    let mut flush = |pending: &mut Vec<Item>, before: u64| -> anyhow::Result<()> {
        // calls before errors at one offset, each in the order found
        pending.sort_by_key(|it| (it.call.span[0], it.broken.is_some()));
        let n = pending.partition_point(|it| it.call.span[0] < before);
        for mut item in pending.drain(..n) {
            item.call.index = index;
            index += 1;
            judge(item)?;
        }
        Ok(())
    };
    let bytes = text.bytes();
    let mut check = TurnCheck::new(allow);
    let mut checked = Vec::new();
    let mut at = 0;
    loop {
        let end = (at + SLICE).min(bytes.len());
        // the calls and errors only: the text is not kept (memory)
        let mut found = TurnsSeen {
            found: crate::Collector::calls_only(),
            turns: Vec::new(),
        };
        if at < end {
            engine.feed(&bytes[at..end], &mut found);
        } else {
            engine.finish(&mut found);
        }
        let items = found_items(name, &text, found.found);
        check.take(items, found.turns, name, bytes, &mut checked);
        if at >= end {
            check.finish(&mut checked);
        }
        pending.extend(checked.drain(..).map(|c| checked_item(c, name, &text)));
        if at >= end {
            flush(&mut pending, u64::MAX)?;
            break;
        }
        if let Some(settled) = engine.settled() {
            // a held call is judged once its turn's fate is known
            let held = check.held_from().unwrap_or(u64::MAX);
            flush(&mut pending, settled.min(held))?;
        }
        at = end;
    }
    super::report_server_errors(name, &engine.summary());
    Ok(())
}

/// An item the transcript checks handed on, with what they found.
fn checked_item(c: Checked<Item>, name: &str, text: &Rc<Located<Vec<u8>>>) -> Item {
    match c {
        Checked::Item(item, None) => item,
        Checked::Item(mut item, Some(issue)) => {
            item.conv = Some(Conv::raw(&item.call, vec![(issue, item.offset)]));
            item
        }
        Checked::Orphan {
            call,
            issue,
            offset,
        } => Item {
            conv: Some(Conv::raw(&call, vec![(issue.clone(), offset)])),
            call: *call,
            broken: Some(issue),
            file: name.to_string(),
            text: Some(text.clone()),
            offset,
        },
    }
}

impl Candidate for Item {
    fn call(&self) -> &ToolCall {
        &self.call
    }

    fn is_broken(&self) -> bool {
        self.broken.is_some()
    }
}

/// The calls and errors a collector found, as items to judge.
fn found_items(name: &str, text: &Rc<Located<Vec<u8>>>, found: crate::Collector) -> Vec<Item> {
    let mut items: Vec<Item> = Vec::with_capacity(found.calls.len() + found.errors.len());
    for call in found.calls {
        items.push(Item {
            conv: None,
            offset: call.span[0] as usize,
            file: name.to_string(),
            text: Some(text.clone()),
            call,
            broken: None,
        });
    }
    for e in found.errors {
        items.push(Item {
            conv: None,
            offset: e.offset as usize,
            file: name.to_string(),
            text: Some(text.clone()),
            call: ToolCall {
                name: crate::validate::records::name_in(&e.raw),
                turn: e.turn,
                ..crate::validate::records::stand_in(name, &e.raw, e.span)
            },
            broken: Some(Issue {
                code: e.code,
                path: String::new(),
                message: match &e.hint {
                    Some(h) => format!("{} ({h})", e.message),
                    None => e.message.clone(),
                },
                expected: String::new(),
                actual: String::new(),
            }),
        });
    }
    items
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

/// Items from NDJSON records. Diagnostics point into the record's own
/// document when it is one of the inputs on the command line (a readable
/// regular file), else at the record's line.
fn record_items(name: &str, bytes: Vec<u8>, sources: &Sources<'_>) -> Vec<Item> {
    let mut items = Vec::new();
    let ndjson = Rc::new(Located::new(bytes));
    let mut cache: std::collections::HashMap<String, Option<Rc<Located<Vec<u8>>>>> =
        Default::default();
    for (number, start, line, rec) in record_lines(ndjson.bytes()) {
        let v = match rec {
            Ok(v) => v,
            Err(why) => {
                let end = start + line.len();
                let raw = crate::lossy(&line[..line.len().min(512)]).into_owned();
                items.push(Item {
                    conv: None,
                    call: crate::validate::records::stand_in(
                        name,
                        &raw,
                        [start as u64, end as u64],
                    ),
                    broken: Some(Issue::call("TLP-008", bad_line_message(number, why))),
                    file: name.to_string(),
                    text: Some(ndjson.clone()),
                    offset: start,
                });
                continue;
            }
        };
        let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        let span = [
            v.pointer("/span/0").and_then(Value::as_u64).unwrap_or(0),
            v.pointer("/span/1").and_then(Value::as_u64).unwrap_or(0),
        ];
        let doc = s("doc");
        let source = if doc.is_empty() || doc == "-" {
            None
        } else {
            cache
                .entry(doc.clone())
                .or_insert_with(|| sources.read(&doc).map(|b| Rc::new(Located::new(b))))
                .clone()
                .filter(|b| b.bytes().len() as u64 >= span[1])
        };
        let (file, text, offset) = match source {
            Some(b) => (doc.clone(), Some(b), span[0] as usize),
            None => (name.to_string(), Some(ndjson.clone()), start),
        };
        let doc_name = if doc.is_empty() {
            name.to_string()
        } else {
            doc
        };
        match v.get("type").and_then(Value::as_str) {
            Some("tool_call") => {
                let mut call = call_from_record(&v, name);
                if call.raw.is_empty() && text.as_ref().is_some_and(|t| Rc::ptr_eq(t, &ndjson)) {
                    call.raw = String::from_utf8_lossy(line).into_owned();
                }
                items.push(Item {
                    conv: None,
                    call,
                    broken: None,
                    file,
                    text,
                    offset,
                });
            }
            Some("error") => {
                let code = match s("code").as_str() {
                    "TLP-001" => "TLP-001",
                    "TLP-003" => "TLP-003",
                    "TLP-007" => "TLP-007",
                    "TLP-008" => "TLP-008",
                    _ => "TLP-002",
                };
                let offset = match &text {
                    Some(t) if !Rc::ptr_eq(t, &ndjson) => {
                        v.get("offset").and_then(Value::as_u64).unwrap_or(span[0]) as usize
                    }
                    _ => offset,
                };
                items.push(Item {
                    conv: None,
                    call: crate::validate::records::stand_in(&doc_name, &s("raw"), span),
                    broken: Some(Issue::call(code, s("message"))),
                    file,
                    text,
                    offset,
                });
            }
            _ => {}
        }
    }
    items
}

impl Run<'_> {
    fn judge(&mut self, mut item: Item, cfg: &Config) -> anyhow::Result<()> {
        let broken = item.broken.as_ref().map(|b| b.code);
        if broken.is_some_and(|c| self.args.allow.iter().any(|a| a == c)) {
            return Ok(());
        }
        // a refused document or a result without a call is no call
        self.counted = !matches!(broken, Some("TLP-008" | messages::ORPHAN_RESULT));
        if self.counted {
            self.total += 1;
        } else {
            self.other += 1;
        }
        if self.file != item.file {
            self.file.clone_from(&item.file);
        }
        let doc_tools = self.doc_tools.clone();
        let tools: &Tools = doc_tools.as_deref().unwrap_or(self.tools);
        let verdict = item_verdict(&mut item, tools, &self.args.allow, self.args.tools.strict);
        let pos = item
            .text
            .as_deref()
            .map(|t| t.position(item.offset))
            .unwrap_or(diag::Pos { line: 1, column: 1 });
        let diags = Diags {
            on: !self.args.no_diagnostics && !self.args.quiet && !self.args.retry.retry_prompt,
            colored: self.colored,
        };
        diags.print(&item, Severity::Warning, &verdict.warnings, &item.call);
        if verdict.valid {
            return self.write(&item.call, &verdict, pos, &[], None, item.conv.as_ref());
        }
        // the prompt names the place the first diagnostic points at
        let first = issue_positions(&verdict.errors, &item.call, &item)
            .first()
            .copied()
            .unwrap_or(pos);
        let failure = failure_of(&item, &verdict, first, tools);
        if self.args.retry.retry_prompt {
            if self.prompts > 0 {
                self.out.raw(b"\n")?;
            }
            self.out.raw(
                crate::validate::retry::prompt(self.template.as_deref(), &failure).as_bytes(),
            )?;
            self.prompts += 1;
            self.invalid += 1;
            return Ok(());
        }
        let Some(cmd) = self.args.retry.retry_cmd.clone() else {
            diags.print(&item, Severity::Error, &verdict.errors, &item.call);
            self.invalid += 1;
            let locs = issue_positions(&verdict.errors, &item.call, &item);
            return self.write(&item.call, &verdict, pos, &locs, None, item.conv.as_ref());
        };
        let doc = item.call.doc.clone();
        let retry_cfg = Config {
            doc: doc.clone(),
            ..cfg.clone()
        };
        let retried = retry::retry(
            &cmd,
            self.max_retries,
            self.limits,
            self.template.as_deref(),
            failure,
            |text| evaluate(text, &retry_cfg, tools, &item.call),
            |msg| tools.log(&doc, 1, msg),
        )?;
        self.write_retried(&item, verdict, retried, pos, diags)
    }

    /// Writes an invalid item after `--retry-cmd`: the model's fixed call,
    /// or the item with a TLP-006 error when the retries ran out.
    fn write_retried(
        &mut self,
        item: &Item,
        verdict: Verdict,
        retried: retry::Retried<(ToolCall, Verdict)>,
        pos: diag::Pos,
        diags: Diags,
    ) -> anyhow::Result<()> {
        let max = self.max_retries;
        match retried.outcome {
            Ok((call, v)) => {
                diags.print(item, Severity::Warning, &verdict.errors, &item.call);
                if diags.on {
                    super::to_stderr(&format!(
                        "{}:{}:{}: note: fixed by the model on attempt {} of {max}\n",
                        super::sanitize(&item.file),
                        pos.line,
                        pos.column,
                        retried.attempts.len()
                    ));
                }
                let mut call = call;
                call.index = item.call.index;
                call.doc = item.call.doc.clone();
                call.span = item.call.span;
                let extra = (&retried.attempts[..], retried.usage, None);
                self.write(&call, &v, pos, &[], Some(extra), item.conv.as_ref())
            }
            Err(last) => {
                let mut errors = verdict.errors.clone();
                let n = retried.attempts.len();
                errors.push(Issue {
                    code: "TLP-006",
                    path: String::new(),
                    message: format!(
                        "retries exhausted: {n} attempt{} failed; last: {}: {}",
                        if n == 1 { "" } else { "s" },
                        last.code,
                        last.errors.first().map(String::as_str).unwrap_or("")
                    ),
                    expected: "a valid call".into(),
                    actual: crate::validate::check::compact(
                        &Value::String(retried.last_output.clone()),
                        200,
                    ),
                });
                diags.print(item, Severity::Error, &errors, &item.call);
                self.invalid += 1;
                let locs = issue_positions(&errors, &item.call, item);
                let v = Verdict {
                    valid: false,
                    errors,
                    ..verdict
                };
                let extra = (
                    &retried.attempts[..],
                    retried.usage,
                    Some(retried.last_output.as_str()),
                );
                self.write(&item.call, &v, pos, &locs, Some(extra), item.conv.as_ref())
            }
        }
    }

    fn write(
        &mut self,
        call: &ToolCall,
        v: &Verdict,
        pos: diag::Pos,
        locs: &[diag::Pos],
        retry: Option<(&[Attempt], Usage, Option<&str>)>,
        conv: Option<&Conv>,
    ) -> anyhow::Result<()> {
        if self.args.retry.retry_prompt {
            return Ok(());
        }
        let errors: Vec<PlacedIssue> = v
            .errors
            .iter()
            .enumerate()
            .map(|(k, issue)| {
                let at = locs.get(k).copied().unwrap_or(pos);
                PlacedIssue {
                    issue,
                    line: at.line,
                    column: at.column,
                }
            })
            .collect();
        // the record points where its first diagnostic does
        let pos = locs.first().copied().unwrap_or(pos);
        let named = !call.name.is_empty();
        let rec = Validation {
            kind: "validation",
            doc: &call.doc,
            index: call.index,
            id: &call.id,
            name: &call.name,
            valid: v.valid,
            errors,
            tool_name: named.then_some(v.tool_name.as_str()),
            risk: named.then_some(v.risk.as_str()),
            requires_approval: named.then_some(v.requires_approval),
            summary: (!v.summary.is_empty()).then_some(v.summary.as_str()),
            arguments: (!call.id.is_empty()).then_some(&call.arguments),
            format: (!call.format.is_empty()).then_some(call.format),
            turn: conv.map(|c| c.turn).or(call.turn.map(|t| t.index as usize)),
            role: conv.map(|c| c.role.as_str()).or(call.turn.map(|t| t.role)),
            pointer: conv.and_then(|c| c.pointer.as_deref()),
            in_content: conv.is_some_and(|c| c.in_content),
            repairs: if conv.is_some() { &call.repairs } else { &[] },
            line: pos.line,
            column: pos.column,
            attempts: retry.map(|r| r.0),
            usage: retry.map(|r| r.1),
            last_output: retry.and_then(|r| r.2),
        };
        let counted = self.counted;
        let placed: Vec<(u64, u64)> = rec.errors.iter().map(|e| (e.line, e.column)).collect();
        self.report.call(
            &self.file,
            call,
            rec.pointer,
            v,
            &placed,
            (rec.line, rec.column),
            counted,
        );
        if self.report.records() {
            self.out.record(&rec)?;
        }
        Ok(())
    }
}

/// The verdict on an item: the parser's error for a candidate that is not
/// a call, else the call judged against the tools; for a call of a
/// conversation, with its own tools taken into account and its
/// conversation issues added.
/// `strict`: `--strict` was given (a repaired call in data is then an
/// error, not a warning).
fn item_verdict(item: &mut Item, tools: &Tools, allow: &[String], strict: bool) -> Verdict {
    let mut verdict = match &item.broken {
        Some(issue) => {
            let mut v = match &tools.registry {
                Some(r) if !item.call.name.is_empty() => {
                    r.check(&item.call.name, &Value::Null, &tools.policy)
                }
                _ => unreachable_verdict(),
            };
            v.valid = false;
            v.errors = vec![issue.clone()];
            v.warnings.clear();
            v.summary = String::new();
            v
        }
        None => tools
            .judge(&mut item.call)
            .unwrap_or_else(unreachable_verdict),
    };
    // a conversation's call with no name (missing, empty, not a string, or
    // no object at all) is no call, with or without a tools registry
    if item.conv.is_some()
        && item.broken.is_none()
        && item.call.name.trim().is_empty()
        && !verdict.errors.iter().any(|e| e.code == "TLP-001")
    {
        verdict.errors.insert(
            0,
            Issue::call(
                "TLP-001",
                "the call has no name (missing, empty or not a string)",
            ),
        );
        verdict.valid = false;
    }
    if let Some(conv) = &item.conv {
        if conv.own_tools {
            verdict.errors.retain(|e| e.code != "TLP-005");
            verdict.warnings.retain(|e| e.code != "TLP-005");
        }
        if conv.skip_schema {
            verdict.errors.retain(|e| e.code != "TLP-004");
        }
        super::report::repaired_in_data(&mut verdict, &item.call, strict, allow);
        if item.broken.is_none() {
            verdict
                .errors
                .extend(conv.lint.iter().map(|(issue, _)| issue.clone()));
        }
        verdict.valid = verdict.errors.is_empty();
    }
    verdict
}

/// The offset in the item's text that an issue's diagnostic points at.
fn issue_offset(issue: &Issue, call: &ToolCall, item: &Item) -> usize {
    let path = issue.path.as_str();
    let lint = item.conv.as_ref().and_then(|c| {
        c.lint
            .iter()
            .find(|(i, _)| i.code == issue.code && i.path == issue.path)
    });
    if let Some((_, off)) = lint {
        *off
    } else if item.broken.is_some() {
        item.offset
    } else if item.offset as u64 == call.span[0] {
        // the call's markup is in `text` at its span
        let text = item.text.as_deref().map(Located::bytes);
        diag::locate_in(text, call.span, &call.raw, path, &call.name)
    } else {
        item.offset + diag::locate(&call.raw, path, &call.name)
    }
}

/// Where each issue's diagnostic points: the same line:column goes into
/// the record's errors[] (and the record's own line:column is its first
/// error's).
fn issue_positions(issues: &[Issue], call: &ToolCall, item: &Item) -> Vec<diag::Pos> {
    issues
        .iter()
        .map(|i| {
            let off = issue_offset(i, call, item);
            item.text
                .as_deref()
                .map_or(diag::Pos { line: 1, column: 1 }, |t| t.position(off))
        })
        .collect()
}

/// Whether diagnostics are printed on stderr, and in color.
#[derive(Clone, Copy)]
struct Diags {
    on: bool,
    colored: bool,
}

impl Diags {
    /// Prints a diagnostic for each issue of the item's call.
    fn print(self, item: &Item, sev: Severity, issues: &[Issue], call: &ToolCall) {
        if !self.on {
            return;
        }
        for i in issues {
            let off = issue_offset(i, call, item);
            let text = diag::render_in(&item.file, item.text.as_deref(), off, sev, i);
            if self.colored {
                super::to_stderr(&paint(&text, &super::sanitize(&item.file), sev));
            } else {
                super::to_stderr(&text);
            }
        }
    }
}

fn unreachable_verdict() -> Verdict {
    Verdict {
        valid: true,
        errors: Vec::new(),
        warnings: Vec::new(),
        known: false,
        tool_name: String::new(),
        risk: crate::validate::Risk::Medium,
        requires_approval: true,
        summary: String::new(),
    }
}

fn failure_of(item: &Item, v: &Verdict, pos: diag::Pos, tools: &Tools) -> Failure {
    let schema_kind = v
        .errors
        .iter()
        .all(|e| matches!(e.code, "TLP-004" | "TLP-005"));
    let tool = (!item.call.name.is_empty()).then(|| item.call.name.clone());
    let schema = tools
        .registry
        .as_ref()
        .and_then(|r| r.get(&item.call.name))
        .map(|t| t.parameters.clone());
    Failure {
        kind: if schema_kind {
            FailureKind::Schema
        } else {
            FailureKind::Parse
        },
        code: v.errors.first().map_or("TLP-002", |e| e.code),
        errors: v.errors.iter().map(Issue::summary).collect(),
        line: pos.line,
        column: pos.column,
        raw: item.call.raw.clone(),
        tool,
        schema,
    }
}

/// Parses and validates a retry reply: the first call in it (preferring
/// one to the same tool) must be valid.
fn evaluate(
    text: &str,
    cfg: &Config,
    tools: &Tools,
    original: &ToolCall,
) -> Result<(ToolCall, Verdict), Box<Failure>> {
    let found = crate::parse(text.as_bytes(), cfg);
    let pick =
        found
            .calls
            .iter()
            .position(|c| c.name == original.name)
            .or(if found.calls.is_empty() {
                None
            } else {
                Some(0)
            });
    let Some(k) = pick else {
        let (code, msg, pos) = match found.errors.first() {
            Some(e) => (e.code, e.message.clone(), (e.line, e.column)),
            None => (
                "TLP-002",
                "the reply holds no tool call (the model ignored the tool format)".to_string(),
                (1, 1),
            ),
        };
        return Err(Box::new(Failure {
            kind: FailureKind::Parse,
            code,
            errors: vec![msg],
            line: pos.0,
            column: pos.1,
            raw: text.to_string(),
            tool: (!original.name.is_empty()).then(|| original.name.clone()),
            schema: tools
                .registry
                .as_ref()
                .and_then(|r| r.get(&original.name))
                .map(|t| t.parameters.clone()),
        }));
    };
    let mut call = found.calls[k].clone();
    let v = tools.judge(&mut call).unwrap_or_else(unreachable_verdict);
    if v.valid {
        return Ok((call, v));
    }
    let pos = diag::position(text.as_bytes(), call.span[0] as usize);
    let item = Item {
        conv: None,
        call,
        broken: None,
        file: String::new(),
        text: None,
        offset: 0,
    };
    let mut f = failure_of(&item, &v, pos, tools);
    f.raw = text.to_string();
    Err(Box::new(f))
}

/// How a document holds structured conversations.
enum Layout {
    /// The document is one conversation.
    Whole(Value),
    /// JSONL: each non-blank line is one.
    Lines,
    /// A per-event session log: its lines make conversations together.
    Session,
}

/// Whether `v` is a conversation: any shape [`crate::validate::messages::shape`]
/// knows under `--input messages`, the plain ones ([`crate::validate::messages::sniff`])
/// otherwise.
fn is_conversation(v: &Value, explicit: bool) -> bool {
    shapes::sniff(v) || explicit && crate::validate::messages::shape(v).is_some()
}

/// How `bytes` hold conversations, or `None` for model text, records or
/// wire output. Under `--input messages` a document that is not one JSON
/// value is read as JSONL (a line that is no conversation is reported).
fn conversations_in(bytes: &[u8], explicit: bool) -> Option<Layout> {
    let first = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    if !matches!(bytes[first], b'{' | b'[') {
        return explicit.then_some(Layout::Lines);
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(v) if explicit || is_conversation(&v, false) => return Some(Layout::Whole(v)),
        Ok(_) => return None,
        Err(_) => {}
    }
    let end = memchr::memchr(b'\n', &bytes[first..]).map_or(bytes.len(), |n| first + n);
    match serde_json::from_slice::<Value>(bytes[first..end].trim_ascii()) {
        Ok(v) if shapes::is_event(&v) => Some(Layout::Session),
        Ok(v) if is_conversation(&v, explicit) => Some(Layout::Lines),
        _ => explicit.then_some(Layout::Lines),
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

/// A document coming from a reader (a large file, stdin): when its first
/// non-blank line is a conversation, its lines are judged one at a time as
/// they are read (memory: one line) and `None` is returned; otherwise the
/// whole document is read and returned.
fn conversation_lines(
    run: &mut Run<'_>,
    r: Box<dyn std::io::Read + Send>,
    name: &str,
    cfg: &Config,
    explicit: bool,
    args: &ValidateArgs,
) -> anyhow::Result<Option<Vec<u8>>> {
    let max_line = args.wire.max_buffer;
    let mut r = std::io::BufReader::with_capacity(64 << 10, r);
    // the first line is looked at without reading past --max-buffer: an
    // input with no line end (/dev/zero) is read whole, up to --max-input
    let super::common::FirstLine {
        prefix,
        mut line,
        mut number,
        whole,
    } = super::common::first_line(&mut r, max_line, name)?;
    let first = line.trim_ascii();
    let lines = whole
        && first.len() <= max_line
        && serde_json::from_slice::<Value>(first).is_ok_and(|v| is_conversation(&v, explicit));
    if !lines {
        let first = big::First {
            line,
            number,
            whole,
        };
        let Some((prefix, r)) = big::document(run, prefix, first, r, name, cfg, args)? else {
            return Ok(None);
        };
        // the bytes looked at, then the rest: one limit for the whole
        let all = std::io::Read::chain(std::io::Cursor::new(prefix), r);
        let prefix = super::common::read_limited(all, name, args.input.max_input, "--max-input")?;
        super::common::refuse_tools_file(name, &prefix)?;
        return Ok(Some(prefix));
    }
    drop(prefix);
    loop {
        judge_line(run, &line, number, name, cfg, max_line)?;
        loop {
            let more = super::common::read_line_limited(&mut r, &mut line, max_line)
                .with_context(|| format!("reading {name}"))?;
            if !more {
                return Ok(None);
            }
            number += 1;
            if !line.trim_ascii().is_empty() {
                break;
            }
        }
    }
}

/// Judges the conversations of a JSONL document held in memory.
fn judge_lines(
    run: &mut Run<'_>,
    bytes: &[u8],
    name: &str,
    cfg: &Config,
    args: &ValidateArgs,
) -> anyhow::Result<()> {
    for (k, line) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        if !line.trim_ascii().is_empty() {
            judge_line(run, line, k + 1, name, cfg, args.wire.max_buffer)?;
        }
    }
    Ok(())
}

/// Judges line `number` of a JSONL of conversations: its document is
/// `NAME:LINE`, its diagnostics point into the file's lines.
fn judge_line(
    run: &mut Run<'_>,
    line: &[u8],
    number: usize,
    name: &str,
    cfg: &Config,
    max_line: usize,
) -> anyhow::Result<()> {
    let original = line;
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let doc = format!("{name}:{number}");
    let text = Rc::new(Located::at_line(line.to_vec(), number as u64));
    let why = if line.len() > max_line {
        Err(format!(
            "line {number} is longer than --max-buffer ({max_line} bytes); skipped"
        ))
    } else {
        match serde_json::from_slice::<Value>(line) {
            Ok(v) if is_conversation(&v, true) => Ok(v),
            Ok(_) => Err(format!(
                "line {number} is JSON but no conversation; skipped"
            )),
            Err(e) => Err(format!("line {number} is not JSON ({e}); skipped")),
        }
    };
    match why {
        Ok(v) => {
            run.invalid_before = run.invalid;
            run.conversation(&v, &text, name, &doc, cfg)?;
            // the row as read, with its line end
            run.keep(original)
        }
        Err(message) => {
            let code = if line.len() > max_line {
                "TLP-007"
            } else {
                "TLP-008"
            };
            let raw = crate::lossy(&line[..line.len().min(512)]).into_owned();
            let item = Item {
                conv: None,
                call: crate::validate::records::stand_in(&doc, &raw, [0, line.len() as u64]),
                broken: Some(Issue::call(code, message)),
                file: name.to_string(),
                text: Some(text),
                offset: 0,
            };
            run.invalid_before = run.invalid;
            run.judge(item, cfg)?;
            run.keep(original)
        }
    }
}

impl Run<'_> {
    /// Judges one conversation: each call (its schema and the conversation
    /// checks), and each result no call asked for. `text` is the JSON it
    /// was read from, `file` the name diagnostics carry, `doc` the records'.
    fn conversation(
        &mut self,
        v: &Value,
        text: &Rc<Located<Vec<u8>>>,
        file: &str,
        doc: &str,
        cfg: &Config,
    ) -> anyhow::Result<()> {
        let cfg = Config {
            doc: doc.to_string(),
            ..cfg.clone()
        };
        // a document's calls are numbered from 0 (a JSONL line is one)
        self.next_index = 0;
        let explicit = self.args.wire.input == InputKind::Messages;
        let at = self.args.messages_at.as_deref();
        let found = shapes::conversations(v, at, explicit, &cfg);
        if found.is_empty() {
            let item = Item {
                conv: None,
                call: crate::validate::records::stand_in(doc, "", [0, 0]),
                broken: Some(Issue::call(
                    "TLP-008",
                    "the document is JSON but no conversation (messages, conversations, \
                     input, output, choices or message)",
                )),
                file: file.to_string(),
                text: Some(text.clone()),
                offset: 0,
            };
            return self.judge(item, &cfg);
        }
        for t in &found {
            self.transcript(t, text, file, doc, &cfg, false)?;
        }
        Ok(())
    }

    /// Judges the conversations of a per-event session log (one event a
    /// line; see [`shapes::sessions`]).
    fn session(&mut self, bytes: Vec<u8>, name: &str, cfg: &Config) -> anyhow::Result<()> {
        let cfg = Config {
            doc: name.to_string(),
            ..cfg.clone()
        };
        let mut lines = Vec::new();
        // lines that are not JSON: a TLP-008 each, and the log goes on
        let mut bad = Vec::new();
        let mut at = 0usize;
        for (k, line) in bytes.split(|&b| b == b'\n').enumerate() {
            match serde_json::from_slice::<Value>(line.trim_ascii()) {
                Ok(v) => lines.push((k, v)),
                Err(e) if !line.trim_ascii().is_empty() => bad.push((k, at, e.to_string())),
                Err(_) => {}
            }
            at += line.len() + 1;
        }
        let text = Rc::new(Located::new(bytes));
        self.next_index = 0;
        for t in shapes::sessions(&lines, &cfg) {
            self.transcript(&t, &text, name, name, &cfg, true)?;
        }
        big::bad_lines(self, &text, name, &cfg, bad)
    }

    /// Judges one conversation read: each call (its schema and the
    /// conversation checks), and each result no call asked for. `lines`:
    /// its pointers start with a line index of `text` (a session log).
    fn transcript(
        &mut self,
        t: &messages::Transcript,
        text: &Rc<Located<Vec<u8>>>,
        file: &str,
        doc: &str,
        cfg: &Config,
        lines: bool,
    ) -> anyhow::Result<()> {
        use crate::validate::messages::Kind;
        self.report.conversation(shapes::calls(t).count());
        if t.tools.is_none() && self.tools.registry.is_none() {
            self.no_tools(t, text, file);
        }
        let own_tools = self.tools.registry.is_none() && t.tools.is_some();
        self.doc_tools = match (&t.tools, own_tools) {
            (Some(list), true) => self.conversation_tools(list, file),
            _ => None,
        };
        let allow = &self.args.allow;
        let findings: Vec<messages::Finding> = messages::lint(t)
            .into_iter()
            .filter(|f| !allow.iter().any(|a| a == f.code))
            .collect();
        let bytes = text.bytes();
        // where each entry and finding lies, in one pass over the text
        let wanted: std::collections::HashSet<&str> = t
            .entries
            .iter()
            .map(|e| e.pointer.as_str())
            .chain(findings.iter().map(|f| f.pointer.as_str()))
            .chain(t.malformed.iter().map(|(p, _)| p.as_str()))
            .collect();
        let (spans, _) = if lines {
            shapes::line_spans(bytes, &wanted)
        } else if let Some((base, _)) = &self.element {
            big::spans(bytes, &wanted, base)
        } else {
            messages::spans(bytes, &wanted)
        };
        let allow_13 = allow.iter().any(|a| a == messages::BAD_ARGUMENTS);
        let mut index = self.next_index;
        // fields of the wrong type: a TLP-008 error each, before the calls
        for (pointer, message) in &t.malformed {
            let [s, end] = spans.get(pointer).copied().unwrap_or([0, 0]);
            let raw = String::from_utf8_lossy(&bytes[s..end.min(s + 512)]).into_owned();
            let mut call = crate::validate::records::stand_in(doc, &raw, [s as u64, end as u64]);
            call.index = index;
            let mut issue = Issue::call("TLP-008", message.clone());
            issue.path = pointer.clone();
            let item = Item {
                conv: None,
                call,
                broken: Some(issue),
                file: file.to_string(),
                text: Some(text.clone()),
                offset: s,
            };
            index += 1;
            self.judge(item, cfg)?;
        }
        let mut next = 0usize;
        for (k, e) in t.entries.iter().enumerate() {
            let start = next;
            while next < findings.len() && findings[next].entry == k {
                next += 1;
            }
            let found = &findings[start..next];
            let [s, end] = spans.get(&e.pointer).copied().unwrap_or([0, 0]);
            let lint: Vec<(Issue, usize)> = found
                .iter()
                .map(|f| {
                    let issue = Issue {
                        code: f.code,
                        path: f.pointer.clone(),
                        message: f.message.clone(),
                        expected: String::new(),
                        actual: String::new(),
                    };
                    (issue, spans.get(&f.pointer).map_or(s, |sp| sp[0]))
                })
                .collect();
            let skip_schema =
                allow_13 && matches!(&e.kind, Kind::Call(c) if c.bad_arguments.is_some());
            let conv = |in_content: bool, lint: Vec<(Issue, usize)>| Conv {
                turn: e.turn,
                role: e.role.clone(),
                pointer: Some(e.pointer.clone()),
                in_content,
                lint,
                own_tools,
                skip_schema,
            };
            let item = match &e.kind {
                Kind::Call(c) => {
                    let mut call = c.call.clone();
                    call.index = index;
                    call.span = [s as u64, end as u64];
                    call.raw = String::from_utf8_lossy(&bytes[s..end]).into_owned();
                    Item {
                        conv: Some(conv(c.in_content, lint)),
                        call,
                        broken: None,
                        file: file.to_string(),
                        text: Some(text.clone()),
                        offset: s,
                    }
                }
                Kind::Result { .. } if !lint.is_empty() => {
                    let raw = String::from_utf8_lossy(&bytes[s..end.min(s + 512)]).into_owned();
                    let mut call =
                        crate::validate::records::stand_in(doc, &raw, [s as u64, end as u64]);
                    call.index = index;
                    let issue = lint[0].0.clone();
                    Item {
                        conv: Some(conv(false, lint)),
                        call,
                        broken: Some(issue),
                        file: file.to_string(),
                        text: Some(text.clone()),
                        offset: s,
                    }
                }
                Kind::Broken { code, message, raw } => {
                    let mut call =
                        crate::validate::records::stand_in(doc, raw, [s as u64, end as u64]);
                    call.index = index;
                    Item {
                        conv: Some(conv(false, lint)),
                        call,
                        broken: Some(Issue::call(code, message.clone())),
                        file: file.to_string(),
                        text: Some(text.clone()),
                        offset: s,
                    }
                }
                _ => continue,
            };
            index += 1;
            self.judge(item, cfg)?;
        }
        self.next_index = index;
        self.doc_tools = None;
        Ok(())
    }

    /// `--keep valid|invalid`: writes the row just judged (its bytes as
    /// read) when its verdict is the one kept.
    fn keep(&mut self, row: &[u8]) -> anyhow::Result<()> {
        let Some(keep) = self.args.report.keep.as_deref() else {
            return Ok(());
        };
        let valid = self.invalid == self.invalid_before;
        if (keep == "valid") == valid {
            self.out.raw(row)?;
        }
        Ok(())
    }

    /// Says once per document that a conversation offers no tools, so
    /// "valid" is not taken for "checked" (TLP-015, a warning).
    fn no_tools(&mut self, t: &messages::Transcript, text: &Rc<Located<Vec<u8>>>, file: &str) {
        if self.warned_no_tools.as_deref() == Some(file)
            || shapes::calls(t).next().is_none()
            || self.args.allow.iter().any(|a| a == shapes::NO_TOOLS)
        {
            return;
        }
        self.warned_no_tools = Some(file.to_string());
        let issue = Issue::call(
            shapes::NO_TOOLS,
            "the conversation offers no tools (no `tools`, no list beside it, none in its \
             system prompt): its calls are checked for shape only; give --tools FILE",
        );
        let text = self.element.as_ref().map_or(text, |(_, head)| head);
        let pos = text.position(0);
        self.report
            .finding(file, pos.line, pos.column, &issue, false);
        if !self.args.quiet && !self.args.no_diagnostics && !self.args.retry.retry_prompt {
            let rendered = diag::render_in(file, Some(text), 0, Severity::Warning, &issue);
            if self.colored {
                eprint!(
                    "{}",
                    paint(&rendered, &super::sanitize(file), Severity::Warning)
                );
            } else {
                eprint!("{rendered}");
            }
        }
    }

    /// The tools a conversation offers, as a registry (the last list's is
    /// kept: the lines of a dataset usually share one). `None`, with a
    /// note, when they cannot be read as tool definitions.
    fn conversation_tools(&mut self, list: &Value, file: &str) -> Option<Rc<Tools>> {
        if let Some((last, built)) = &self.tools_cache {
            if last == list {
                return built.clone();
            }
        }
        let built = match crate::validate::registry::Registry::from_value(
            list,
            self.tools.policy.strict,
        ) {
            Ok(registry) => Some(Rc::new(Tools {
                registry: Some(registry),
                policy: self.tools.policy,
                verbose: self.tools.verbose,
                ..Tools::default()
            })),
            Err(e) => {
                if !self.args.quiet {
                    super::report(&format!(
                        "{file}: the conversation's tools are not read ({e}); calls are not checked against schemas"
                    ));
                }
                None
            }
        };
        self.tools_cache = Some((list.clone(), built.clone()));
        built
    }
}
