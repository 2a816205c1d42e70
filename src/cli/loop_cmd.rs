//! `toolcall loop`: the tool loop, driven through the core's state machine.
//! Each iteration runs the model command with the prompt on stdin, reads
//! its output through the stream engine and the wire decoders, runs the
//! calls as `exec` does and feeds the results back, until the model
//! answers without a call, a limit is reached, or Ctrl-C.

use super::approve::ApprovalArgs;
use super::common::{EngineArgs, WireArgs};
use super::exec::{Decided, Judged, RunArgs, Runner, Step};
use super::output::{FlushPolicy, Output};
use super::tools::ToolsArgs;
use super::Outcome;
use crate::agent::events::Envelope;
use crate::agent::gather::{Found, Gather, Live};
use crate::agent::prompt::{self, Message, Style};
use crate::agent::result::{Status, ToolResult};
use crate::agent::settings::Settings;
use crate::agent::state::{Machine, State, Transition};
use crate::wire::WireEngine;
use anyhow::{bail, Context};
use clap::{Args, ValueEnum};
use serde_json::{json, Map, Value};
use std::io::{Read, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How the prompt is written for the model command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PromptStyle {
    /// A plain-text transcript with `### ROLE` headers.
    Plain,
    /// `{"messages": [...]}` JSON, for `curl … -d @-`.
    Messages,
}

/// Run the tool loop: model, calls, results, until the model answers.
///
/// Each iteration runs CMD (with `sh -c`) with the prompt on stdin and
/// TOOLCALL_ITERATION, TOOLCALL_MAX_ITERATIONS and TOOLCALL_REQUEST_ID in
/// its environment, and reads its stdout through the stream engine: plain
/// model text, or Ollama / OpenAI / llama-server JSON (sniffed, see
/// --input). Calls are judged, approved and run as `toolcall exec` runs
/// them; every outcome (not found, invalid, denied, failed, timed out)
/// goes back to the model as a `[NAME]` message, and the loop goes on.
/// It stops when the model answers without a call, at --max-iterations,
/// at --request-timeout, or on Ctrl-C, SIGTERM or SIGHUP (the running
/// command's process group is stopped, and `complete` is written).
///
/// Every event is an NDJSON record on stdout (state, iteration, text,
/// tool_call, approval_request, approval, tool_execution, tool_result,
/// message, agent_error) and the last one is always `complete`. The
/// `message` records are the conversation: --history reads them back.
///
/// Exit status: 0 completed, 1 stopped at the iteration limit, 2 error,
/// 124 request timeout, 130 cancelled.
///
/// Examples:
///
///   toolcall loop --model-cmd examples/agent/model.sh --tools examples/agent/tools.json "Weather in Paris?"
///
///   toolcall loop --model-cmd 'ollama run qwen3' --tools tools.json --text "What is in /tmp?"
///
///   toolcall loop --model-cmd ./chat.sh --prompt-style messages --tools t.json - < question.txt
///
///   toolcall loop --model-cmd ./chat.sh --tools t.json --history last.ndjson "And tomorrow?"
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct LoopArgs {
    /// The user's message (`-` or none: stdin).
    #[arg(value_name = "MESSAGE")]
    pub message: Option<String>,

    /// The model command (run with `sh -c`; prompt on stdin, reply on
    /// stdout).
    ///
    /// Examples:
    ///
    ///   --model-cmd 'ollama run qwen3'
    ///
    ///   --model-cmd 'jq -c ". + {model: \"m\", stream: true}" \
    ///     | curl -sN localhost:8080/v1/chat/completions -d @-'   (with --prompt-style messages)
    #[arg(long, value_name = "CMD", verbatim_doc_comment)]
    pub model_cmd: String,

    /// Most iterations, 1 to 100 [default: 10]; one generation and its
    /// tool runs is one iteration. At the limit the run completes with
    /// stop reason max_iterations (exit 1).
    #[arg(hide_short_help = true, long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub max_iterations: Option<u32>,

    /// Seconds the whole request may take, 5 to 604800 (a week) and at
    /// least the tool timeout [default: 600]; the pauses of --delay count.
    /// Then the run ends with an error (exit 124).
    #[arg(hide_short_help = true, long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(5..=604_800))]
    pub request_timeout: Option<u64>,

    /// Milliseconds between iterations, 0 (none) to 3600000 (an hour)
    /// [default: 100].
    #[arg(hide_short_help = true, long, value_name = "MS", value_parser = clap::value_parser!(u64).range(0..=3_600_000))]
    pub delay: Option<u64>,

    /// Cap of one tool result fed back, in tokens (4 bytes each), 100 to
    /// 4194304 (16 MiB) [default: 4096].
    #[arg(hide_short_help = true, long, value_name = "TOKENS", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(100..=4u64 << 20))]
    pub result_cap: Option<usize>,

    /// Do not keep tool results in the history after the iteration that
    /// used them (only a note that the tool ran stays).
    #[arg(hide_short_help = true, long)]
    pub drop_results: bool,

    /// The tool-use system prompt (TEXT, or @FILE to read it).
    #[arg(hide_short_help = true, long, value_name = "TEXT")]
    pub system: Option<String>,

    /// Offer no tools (a plain chat through the same loop).
    #[arg(hide_short_help = true, long)]
    pub no_tools: bool,

    /// Prompt layout: plain (a transcript) or messages (OpenAI-style JSON).
    #[arg(
        hide_short_help = true,
        long,
        value_name = "STYLE",
        default_value = "plain"
    )]
    pub prompt_style: PromptStyle,

    /// Attach a file to the message, FILE or FILE:START-END for a line
    /// range (1-based, inclusive); repeatable. The model reads it after the
    /// message, fenced, tagged with its language, cut at --attach-max.
    #[arg(hide_short_help = true, long, value_name = "FILE[:START-END]")]
    pub attach: Vec<String>,

    /// Most bytes of one attached file shown to the model (the rest is cut,
    /// with a note saying so); 1 B to 16 MiB.
    #[arg(hide_short_help = true, long, value_name = "BYTES", default_value_t = 64 << 10, value_parser = super::common::bytes_parser(16 << 20))]
    pub attach_max: usize,

    /// Resume a conversation: the `message` records of an earlier run's
    /// output (other records are skipped).
    #[arg(long, value_name = "FILE")]
    pub history: Option<PathBuf>,

    /// Print only the final reply, no events. On a terminal, control
    /// characters in it (ESC included) are shown escaped (`\u{1b}`), so
    /// the model's text cannot move the cursor or restyle the terminal;
    /// newlines and tabs stay.
    #[arg(hide_short_help = true, long)]
    pub text: bool,

    /// Most bytes of one generation (the model command's stdout), 1 to
    /// 4 GiB [default: 16 MiB]. Past it the model command's group is
    /// stopped and the run ends with an `agent_error` and `complete`
    /// (exit 2).
    #[arg(hide_short_help = true, long, value_name = "BYTES", value_parser = super::common::bytes_parser(super::common::MAX_HELD))]
    pub max_reply: Option<usize>,

    /// Most bytes read from each side input: the message on stdin,
    /// --attach, --system @FILE and --history [default: 256 MiB]. A larger
    /// input is an error (exit 2).
    #[arg(hide_short_help = true, long, value_name = "BYTES", default_value_t = super::common::DEFAULT_MAX_INPUT, value_parser = super::common::input_size_parser())]
    pub max_input: u64,

    /// The request id written in every record [default: derived from the
    /// time and process id].
    #[arg(hide_short_help = true, long, value_name = "ID")]
    pub request_id: Option<String>,

    /// Tools file, strictness, risk, config, logging.
    #[command(flatten)]
    pub tools: ToolsArgs,
    /// Approval.
    #[command(flatten)]
    pub approval: ApprovalArgs,
    /// Running the tools.
    #[command(flatten)]
    pub run: RunArgs,
    /// Engine settings for the model's output.
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Wire input settings for the model's output.
    #[command(flatten)]
    pub wire: WireArgs,
}

/// Per-tool counts for `complete`.
#[derive(Default)]
struct Usage {
    invocations: u64,
    successes: u64,
    failures: u64,
    duration_ms: u64,
}

/// Events out, the state machine, and what `complete` reports.
struct Events {
    env: Envelope,
    out: Output,
    text_only: bool,
    machine: Machine,
    started: Instant,
}

impl Events {
    fn emit(&mut self, kind: &str, fields: Value) -> anyhow::Result<()> {
        let rec = self.env.record(kind, self.machine.iteration(), fields);
        if !self.text_only {
            self.out.record(&rec)?;
        }
        Ok(())
    }

    fn go(&mut self, t: Transition) -> anyhow::Result<()> {
        let change = self
            .machine
            .apply(t)
            .map_err(|e| anyhow::anyhow!("internal: {e}"))?;
        self.emit(
            "state",
            json!({"from": change.from.as_str(), "to": change.to.as_str(), "transition": t.as_str()}),
        )
    }
}

/// How a generation ended.
enum GenEnd {
    Ok,
    Cancelled,
    TimedOut,
    Failed(String),
    /// Past `--max-reply` (the limit).
    TooLong(usize),
}

/// Default `--max-reply`: 16 MiB, far above any real reply.
pub const DEFAULT_MAX_REPLY: usize = 16 << 20;

/// What stopped the watchdog's victim.
const BY_CANCEL: u8 = 1;
const BY_TIMEOUT: u8 = 2;

/// Why the run stopped: its `stop_reason` and exit code (none: 0).
type Stop = (&'static str, Option<u8>);

/// Runs `loop`.
pub fn run(args: &LoopArgs) -> anyhow::Result<Outcome> {
    args.wire.refuse_messages("loop")?;
    let message = user_message(args)?;
    let history: Vec<Message> = match &args.history {
        Some(p) => read_history(p, args.max_input)?,
        None => Vec::new(),
    };
    let mut run = Run::new(args, history)?;
    run.start(message)?;
    let stop = loop {
        if let ControlFlow::Break(stop) = run.iteration()? {
            break stop;
        }
    };
    run.finish(stop)
}

/// The user's message (the argument, or stdin) with its attachments.
fn user_message(args: &LoopArgs) -> anyhow::Result<String> {
    let message = match args.message.as_deref() {
        Some(m) if m != "-" => m.to_string(),
        _ => {
            let bytes = read_limited(std::io::stdin(), "the message on stdin", args.max_input)?;
            String::from_utf8(bytes)
                .context("reading the message from stdin")?
                .trim_end_matches('\n')
                .to_string()
        }
    };
    if message.trim().is_empty() {
        bail!("no message (give one as an argument, or on stdin)");
    }
    let mut message = message;
    for spec in &args.attach {
        message.push_str("\n\n");
        message.push_str(&attachment(spec, args.attach_max, args.max_input)?.render());
    }
    Ok(message)
}

/// The loop's settings: each from its flag, else the tools file, else the
/// default; checked.
fn settings(args: &LoopArgs, runner: &Runner) -> anyhow::Result<Settings> {
    let file = &runner.tools.file;
    let base = args.run.settings(file);
    let settings = Settings {
        tools_enabled: !args.no_tools,
        max_iterations: args
            .max_iterations
            .or(file.max_iterations)
            .unwrap_or(base.max_iterations),
        request_timeout: args
            .request_timeout
            .or(file.request_timeout_s)
            .map_or(base.request_timeout, Duration::from_secs),
        iteration_delay: args
            .delay
            .or(file.iteration_delay_ms)
            .map_or(base.iteration_delay, Duration::from_millis),
        keep_results: !args.drop_results,
        result_cap_tokens: args.result_cap.unwrap_or(base.result_cap_tokens),
        system_prompt: match &args.system {
            Some(s) if s.starts_with('@') => {
                let name = format!("the system prompt {}", super::sanitize(&s[1..]));
                let file =
                    std::fs::File::open(&s[1..]).with_context(|| format!("reading {name}"))?;
                String::from_utf8(read_limited(file, &name, args.max_input)?)
                    .with_context(|| format!("reading {name}"))?
            }
            Some(s) => s.clone(),
            None => base.system_prompt.clone(),
        },
        ..base
    };
    settings.validate()?;
    Ok(settings)
}

/// One run of the loop: the tools, the conversation so far, the events
/// out, and what `complete` reports. Each phase of an iteration is a
/// method: think (one generation), answer or act (judge, approve and run
/// the calls), pause.
struct Run<'a> {
    args: &'a LoopArgs,
    runner: Runner,
    settings: Settings,
    ev: Events,
    /// Set by Ctrl-C, SIGTERM or SIGHUP.
    cancel: Arc<AtomicBool>,
    /// The end of `--request-timeout`.
    deadline: Instant,
    request_id: String,
    /// The system prompt, with the tools offered.
    system: String,
    style: Style,
    /// The conversation.
    history: Vec<Message>,
    /// Per-tool counts, in the order the tools first ran.
    usage: Vec<(String, Usage)>,
    /// Tool runs so far.
    executed: u64,
    /// The token usage the wire reported, summed.
    tokens: crate::wire::Usage,
    /// The text of the latest reply.
    final_text: String,
    /// How many calls the previous reply made.
    previous_calls: usize,
    /// The calls the model made in this run, by name and arguments
    /// (`echo::call_key`): one made again is not a copy of the prompt.
    made: std::collections::HashSet<String>,
}

impl<'a> Run<'a> {
    /// Sets the run up: the tools and their runner, the settings, the
    /// deadline, the system prompt.
    fn new(args: &'a LoopArgs, history: Vec<Message>) -> anyhow::Result<Self> {
        let cancel = super::child::interrupt_flag();
        let mut runner = Runner::new(&args.tools, &args.approval, &args.run, cancel.clone())?;
        let settings = settings(args, &runner)?;
        if !settings.tools_enabled {
            runner.approvals.rules.disabled.push("*".into());
        }
        runner.max_output = settings.result_cap_bytes();
        let started = Instant::now();
        let deadline = started + settings.request_timeout;
        runner.deadline = Some(deadline);
        let request_id = args.request_id.clone().unwrap_or_else(new_request_id);
        let ev = Events {
            env: Envelope::new(request_id.clone(), !args.run.no_timestamps),
            out: Output::stdout(FlushPolicy::PerRecord),
            text_only: args.text,
            machine: Machine::new(),
            started,
        };
        let tools: Vec<&crate::validate::registry::Tool> =
            match (&runner.tools.registry, settings.tools_enabled) {
                (Some(r), true) => r.tools().iter().collect(),
                _ => Vec::new(),
            };
        let system = prompt::system_text(&settings.system_prompt, &tools);
        let style = match args.prompt_style {
            PromptStyle::Plain => Style::Plain,
            PromptStyle::Messages => Style::Messages,
        };
        Ok(Run {
            args,
            runner,
            settings,
            ev,
            cancel,
            deadline,
            request_id,
            system,
            style,
            history,
            usage: Vec::new(),
            executed: 0,
            tokens: crate::wire::Usage::default(),
            final_text: String::new(),
            previous_calls: 0,
            made: Default::default(),
        })
    }

    /// Opens the conversation: the history read back and the user's
    /// message, as `message` events.
    fn start(&mut self, message: String) -> anyhow::Result<()> {
        // inputs read: from now on a signal cancels the run instead of ending it
        super::child::running();
        self.ev.go(Transition::Start)?;
        for m in &self.history {
            self.ev
                .emit("message", json!({"role": m.role, "content": m.content}))?;
        }
        self.say("user", message)?;
        self.ev.go(Transition::BeginThinking)
    }

    /// Adds a message to the conversation and writes its `message` event.
    fn say(&mut self, role: &str, content: String) -> anyhow::Result<()> {
        self.history.push(Message::new(role, content));
        self.ev.emit(
            "message",
            json!({"role": role, "content": self.history[self.history.len() - 1].content}),
        )
    }

    /// One iteration: a generation, then its answer or its calls.
    fn iteration(&mut self) -> anyhow::Result<ControlFlow<Stop>> {
        let calls = match self.think()? {
            ControlFlow::Continue(calls) => calls,
            ControlFlow::Break(stop) => return Ok(ControlFlow::Break(stop)),
        };
        if calls.is_empty() {
            return self.answer().map(ControlFlow::Break);
        }
        self.ev.go(Transition::DetectToolCall)?;
        let total = calls.len();
        self.previous_calls = total;
        let denied_back = match self.act(calls)? {
            ControlFlow::Continue(denied_back) => denied_back,
            ControlFlow::Break(stop) => return Ok(ControlFlow::Break(stop)),
        };
        if !self.settings.keep_results {
            self.drop_results(total);
        }
        if denied_back {
            // the denial goes back to the model at once: a new iteration
            self.ev.go(Transition::ApprovalDenied)?;
            return Ok(ControlFlow::Continue(()));
        }
        if self.ev.machine.iteration() >= self.settings.max_iterations {
            self.ev.go(Transition::LimitReached)?;
            return Ok(ControlFlow::Break(("max_iterations", Some(1))));
        }
        if let ControlFlow::Break(stop) = self.pause() {
            return Ok(ControlFlow::Break(stop));
        }
        self.ev.go(Transition::BeginThinking)?;
        Ok(ControlFlow::Continue(()))
    }

    /// Thinking: one generation, its reply added to the conversation. The
    /// calls it made, or why the run stops.
    fn think(&mut self) -> anyhow::Result<ControlFlow<Stop, Vec<Found>>> {
        let iteration = self.ev.machine.iteration();
        self.ev.emit(
            "iteration",
            json!({
                "max_iterations": self.settings.max_iterations,
                "final": iteration >= self.settings.max_iterations,
                "tool_calls_previous": self.previous_calls,
            }),
        )?;
        let text = prompt::build(self.style, &self.system, &self.history);
        let Generation {
            gather: gathered,
            end,
            usage: wire_usage,
        } = generate(
            self.args,
            &self.runner,
            &mut self.ev,
            &text,
            (iteration, self.settings.max_iterations),
            self.history
                .iter()
                .filter(|m| m.role == "assistant")
                .count() as u64,
            self.deadline,
            &self.request_id,
        )?;
        if let Some(u) = wire_usage {
            let tokens = &mut self.tokens;
            tokens.prompt_tokens =
                Some(tokens.prompt_tokens.unwrap_or(0) + u.prompt_tokens.unwrap_or(0));
            tokens.completion_tokens =
                Some(tokens.completion_tokens.unwrap_or(0) + u.completion_tokens.unwrap_or(0));
            tokens.total_tokens = Some(
                tokens.total_tokens.unwrap_or(0)
                    + u.total_tokens
                        .unwrap_or(u.prompt_tokens.unwrap_or(0) + u.completion_tokens.unwrap_or(0)),
            );
        }
        if let ControlFlow::Break(stop) = self.ended(end)? {
            return Ok(ControlFlow::Break(stop));
        }
        for e in &gathered.errors {
            self.ev.emit(
                "agent_error",
                json!({"error": format!("{}: {}", e.code, e.message), "fatal": false,
                       "category": "parsing", "hint": e.hint.clone().unwrap_or_else(||
                           "the malformed call was skipped".into())}),
            )?;
        }
        self.final_text = gathered.text.trim().to_string();
        let calls = self.mark_copies(&text, gathered.calls)?;
        self.say("assistant", gathered.history.trim().to_string())?;
        Ok(ControlFlow::Continue(calls))
    }

    /// Marks the calls that are the prompt's, not the model's, and that
    /// the model did not make earlier in this run: those whose text is a
    /// piece of the prompt `sent` (an echo the command re-spaced or cut,
    /// markup copied from a tool's output or the user's message), and
    /// those whose name and arguments are (or are a piece of) a call in
    /// what was sent but the model's own replies (an echo that re-spelled
    /// the call: other quotes, keys, markers, escapes, normal form). They
    /// need a person's consent. The others are the model's from now on.
    ///
    /// Every call the loop would run is judged here, whatever read it: a
    /// call the server parsed (Ollama `message.tool_calls`, OpenAI
    /// `message.tool_calls` or streamed `delta.tool_calls`) has no text of
    /// its own in the reply, so it is judged by its name and arguments
    /// alone. A draft in reasoning never runs and is not judged.
    fn mark_copies(&mut self, sent: &str, mut calls: Vec<Found>) -> anyhow::Result<Vec<Found>> {
        use crate::agent::echo::{call_key, Copies, SentCalls};
        // a call the server parsed has no text of its own in the reply
        let written = |f: &Found| f.call.span[0] != f.call.span[1];
        let judged = |f: &Found| !f.call.in_reasoning;
        if !calls.iter().any(judged) {
            return Ok(calls);
        }
        let mut texts: Vec<&str> = vec![sent];
        if self.style == Style::Messages {
            texts.push(&self.system);
            texts.extend(self.history.iter().map(|m| m.content.as_str()));
        }
        let copies = Copies::new(texts);
        // the calls in what was sent, the model's own replies aside
        let others = std::iter::once(self.system.as_str()).chain(
            self.history
                .iter()
                .filter(|m| m.role != "assistant")
                .map(|m| m.content.as_str()),
        );
        let cfg = self
            .runner
            .tools
            .engine(self.args.engine.document_config("prompt")?);
        let sent_calls = SentCalls::new(others, &cfg);
        for f in &mut calls {
            let key = call_key(&f.call.name, f.call.arguments.as_value());
            if judged(f)
                && !self.made.contains(&key)
                && ((written(f) && copies.holds(&f.call.raw))
                    || sent_calls.holds(&f.call.name, f.call.arguments.as_value()))
            {
                f.copied = true;
            }
        }
        for f in &calls {
            if !f.copied {
                self.made
                    .insert(call_key(&f.call.name, f.call.arguments.as_value()));
            }
        }
        Ok(calls)
    }

    /// How the generation ended: on anything but a normal end, the run
    /// stops (with an `agent_error` when the model command failed).
    fn ended(&mut self, end: GenEnd) -> anyhow::Result<ControlFlow<Stop>> {
        let stop = match end {
            GenEnd::Ok => return Ok(ControlFlow::Continue(())),
            GenEnd::Cancelled => ("cancelled", Some(130)),
            GenEnd::TimedOut => ("request_timeout", Some(124)),
            GenEnd::TooLong(max) => {
                self.ev.emit(
                    "agent_error",
                    json!({"error": format!("the model's reply passed --max-reply ({max} bytes); the model command was stopped"),
                           "fatal": true, "category": "llm",
                           "hint": "raise --max-reply, or check that the model command ends its reply"}),
                )?;
                ("error", Some(2))
            }
            GenEnd::Failed(e) => {
                self.ev.emit(
                    "agent_error",
                    json!({"error": e, "fatal": true, "category": "llm",
                           "hint": "check --model-cmd: run it by hand with the prompt on stdin"}),
                )?;
                ("error", Some(2))
            }
        };
        Ok(ControlFlow::Break(stop))
    }

    /// The reply made no call: it is the answer, and the run completes.
    fn answer(&mut self) -> anyhow::Result<Stop> {
        self.ev.go(Transition::NoToolCalls)?;
        let mut fields = json!({"text": self.final_text, "thinking": false, "complete": true});
        if let (Some(n), Value::Object(m)) = (self.tokens.completion_tokens, &mut fields) {
            m.insert("tokens".into(), json!(n));
        }
        self.ev.emit("text", fields)?;
        self.ev.go(Transition::Complete)?;
        Ok(("completed", None))
    }

    /// The reply's calls, in order: each judged, decided and run, its
    /// result added to the conversation. Whether the last was denied and
    /// its denial goes straight back to the model, or why the run stops.
    fn act(&mut self, calls: Vec<Found>) -> anyhow::Result<ControlFlow<Stop, bool>> {
        let total = calls.len();
        let mut denied_back = false;
        for (k, found) in calls.into_iter().enumerate() {
            if k > 0 {
                self.ev.go(Transition::NextCall)?;
            }
            let (result, denied) = self.call(k, total, found)?;
            denied_back |= denied;
            self.say("tool", result.message())?;
            if self.cancel.load(Ordering::SeqCst) {
                return Ok(ControlFlow::Break(("cancelled", Some(130))));
            }
            if Instant::now() >= self.deadline {
                return Ok(ControlFlow::Break(("request_timeout", Some(124))));
            }
        }
        Ok(ControlFlow::Continue(denied_back))
    }

    /// Call `k` of `total`: judged, decided (asking when needed) and run
    /// when approved. Its result, and whether it is a denial that goes
    /// straight back to the model.
    fn call(&mut self, k: usize, total: usize, found: Found) -> anyhow::Result<(ToolResult, bool)> {
        let j: Judged = self.runner.judge(found);
        self.ev.emit("tool_call", j.fields(k, total))?;
        let mut step_err = None;
        let ev = &mut self.ev;
        let decided = self.runner.decide(&j, &mut |step| {
            let r = match step {
                Step::Asking(fields) => ev
                    .go(Transition::RequestApproval)
                    .and_then(|()| ev.emit("approval_request", fields.clone())),
                Step::Decided(a) => ev.emit("approval", a.fields(&j.call.id)),
                Step::Starting => Ok(()),
            };
            if let Err(e) = r {
                step_err.get_or_insert(e);
            }
        });
        if let Some(e) = step_err {
            return Err(e);
        }
        let r = match decided {
            Decided::Run(arguments) => return self.execute(&j, &arguments).map(|r| (r, false)),
            Decided::Done(r) => r,
        };
        self.ev.emit("tool_result", result_fields(&r))?;
        let last = k + 1 == total;
        if r.status == Status::Denied
            && self.ev.machine.state() == State::WaitingForApproval
            && last
            && self.ev.machine.iteration() < self.settings.max_iterations
            && !self.cancel.load(Ordering::SeqCst)
        {
            return Ok((r, true));
        }
        self.ev.go(Transition::Skip)?;
        Ok((r, false))
    }

    /// Runs an approved call, counting it for `complete`.
    fn execute(&mut self, j: &Judged, arguments: &Value) -> anyhow::Result<ToolResult> {
        self.ev.go(Transition::ApprovalGranted)?;
        self.ev.emit(
            "tool_execution",
            json!({"id": j.call.id, "status": "starting"}),
        )?;
        let r = self.runner.execute(j, arguments);
        self.executed += 1;
        let u = tool_usage(&mut self.usage, &j.call.name);
        u.invocations += 1;
        if r.status == Status::Completed {
            u.successes += 1;
        } else {
            u.failures += 1;
        }
        u.duration_ms += r.duration_ms.unwrap_or(0);
        self.ev.emit(
            "tool_execution",
            json!({"id": j.call.id, "status": r.status.as_str()}),
        )?;
        self.ev.emit("tool_result", result_fields(&r))?;
        self.ev.go(Transition::ToolComplete)?;
        Ok(r)
    }

    /// `--drop-results`: only the latest iteration's `total` results stay
    /// in full; older ones keep their first line.
    fn drop_results(&mut self, total: usize) {
        for m in self.history.iter_mut().rev().skip(total) {
            if m.role == "tool" && !m.content.ends_with("(result dropped)") {
                let head = m.content.lines().next().unwrap_or("").to_string();
                m.content = format!("{head}\n(result dropped)");
            }
        }
    }

    /// The pause between iterations (`--delay`); it counts against
    /// `--request-timeout`, and Ctrl-C cuts it short.
    fn pause(&self) -> ControlFlow<Stop> {
        let delay = self.settings.iteration_delay;
        if delay.is_zero() {
            return ControlFlow::Continue(());
        }
        let until = (Instant::now() + delay).min(self.deadline);
        while Instant::now() < until && !self.cancel.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(5).min(delay));
        }
        if self.cancel.load(Ordering::SeqCst) {
            return ControlFlow::Break(("cancelled", Some(130)));
        }
        if Instant::now() >= self.deadline {
            return ControlFlow::Break(("request_timeout", Some(124)));
        }
        ControlFlow::Continue(())
    }

    /// Ends the run: the error and state its stop calls for, `complete`,
    /// and with `--text` the final reply.
    fn finish(mut self, (reason, code): Stop) -> anyhow::Result<Outcome> {
        match reason {
            "cancelled" => {
                self.ev.emit(
                    "agent_error",
                    json!({"error": "cancelled by the user", "fatal": true, "category": "cancellation",
                           "hint": "run again to continue (--history with this output resumes it)"}),
                )?;
                self.ev.go(Transition::Cancel)?;
            }
            "request_timeout" => {
                self.ev.emit(
                    "agent_error",
                    json!({"error": format!("the request took longer than {} s", self.settings.request_timeout.as_secs()),
                           "fatal": true, "category": "timeout", "hint": "raise --request-timeout"}),
                )?;
                self.ev.go(Transition::Fail)?;
            }
            "error" => self.ev.go(Transition::Fail)?,
            _ => {}
        }
        let complete = self.complete(reason);
        self.ev.emit("complete", complete)?;
        if self.args.text && !self.final_text.is_empty() {
            use std::io::IsTerminal;
            if std::io::stdout().is_terminal() {
                self.final_text = terminal_text(&self.final_text);
            }
            self.ev.out.raw(self.final_text.as_bytes())?;
            self.ev.out.raw(b"\n")?;
        }
        self.ev.out.flush()?;
        Ok(match code {
            None => Outcome::Found,
            Some(1) => Outcome::NotFound,
            Some(n) => Outcome::Exit(n),
        })
    }

    /// The `complete` event's fields for a run stopped for `reason`.
    fn complete(&self, reason: &str) -> Value {
        let usage_list: Vec<Value> = self
            .usage
            .iter()
            .map(|(name, u)| {
                json!({"name": name, "invocations": u.invocations, "successes": u.successes,
                       "failures": u.failures, "duration_ms": u.duration_ms})
            })
            .collect();
        let tokens = &self.tokens;
        let mut complete = Map::new();
        complete.insert("final_response".into(), json!(self.final_text));
        complete.insert("stop_reason".into(), json!(reason));
        complete.insert("cancelled".into(), json!(reason == "cancelled"));
        complete.insert("tool_calls_executed".into(), json!(self.executed));
        complete.insert(
            "total_iterations".into(),
            json!(self.ev.machine.iteration()),
        );
        complete.insert(
            "duration_ms".into(),
            json!(self.ev.started.elapsed().as_millis() as u64),
        );
        complete.insert(
            "total_tokens".into(),
            json!(tokens.total_tokens.unwrap_or(0)),
        );
        if tokens.total_tokens.is_some() {
            complete.insert(
                "usage".into(),
                serde_json::to_value(tokens).unwrap_or(Value::Null),
            );
        }
        complete.insert("tool_usage".into(), Value::Array(usage_list));
        Value::Object(complete)
    }
}

fn tool_usage<'a>(list: &'a mut Vec<(String, Usage)>, name: &str) -> &'a mut Usage {
    let k = match list.iter().position(|(n, _)| n == name) {
        Some(k) => k,
        None => {
            list.push((name.to_string(), Usage::default()));
            list.len() - 1
        }
    };
    &mut list[k].1
}

/// A `tool_result` record's fields for the event (its `type` comes from
/// the envelope).
fn result_fields(r: &ToolResult) -> Value {
    let mut v = serde_json::to_value(r).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut v {
        m.shift_remove("type");
    }
    v
}

/// Reads all of `r`, at most `max` bytes (`--max-input`).
fn read_limited(r: impl Read, name: &str, max: u64) -> anyhow::Result<Vec<u8>> {
    super::common::read_limited(r, name, max, "--max-input")
}

/// Text for a terminal: control characters but newline and tab (ESC
/// first of all) and the bidirectional overrides shown escaped.
fn terminal_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == '\n' || c == '\t' {
            out.push(c);
        } else {
            out.push_str(&prompt::escape_controls(c.encode_utf8(&mut [0; 4])));
        }
    }
    out
}

/// Reads `FILE` or `FILE:START-END` for `--attach`, at most `max_input`
/// bytes of it.
fn attachment(spec: &str, max: usize, max_input: u64) -> anyhow::Result<prompt::Attachment> {
    let range = spec.rsplit_once(':').and_then(|(path, r)| {
        let (a, b) = r.split_once('-')?;
        Some((path, a.parse::<usize>().ok()?, b.parse::<usize>().ok()?))
    });
    let (path, lines) = match range {
        Some((path, from, to)) => {
            if from == 0 || to < from {
                bail!(
                    "--attach {}: the line range must be START-END with 1 <= START <= END",
                    super::sanitize(spec)
                );
            }
            (path, Some((from, to)))
        }
        None => (spec, None),
    };
    let name = format!("--attach {}", super::sanitize(path));
    let file = std::fs::File::open(path).with_context(|| format!("{name}: reading"))?;
    let bytes = read_limited(file, &name, max_input)?;
    let text = String::from_utf8_lossy(&bytes);
    Ok(prompt::Attachment::new(path, &text, lines, max))
}

/// The `message` records of an earlier run.
fn read_history(path: &PathBuf, max: u64) -> anyhow::Result<Vec<Message>> {
    let name = format!("history {}", path.display());
    let file = std::fs::File::open(path).with_context(|| format!("reading {name}"))?;
    let text = String::from_utf8(read_limited(file, &name, max)?)
        .with_context(|| format!("reading {name}"))?;
    let mut out = Vec::new();
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<Value>(line.trim()) else {
            continue;
        };
        if v.get("type").and_then(Value::as_str) != Some("message") {
            continue;
        }
        let (Some(role), Some(content)) = (
            v.get("role").and_then(Value::as_str),
            v.get("content").and_then(Value::as_str),
        ) else {
            continue;
        };
        if matches!(role, "user" | "assistant" | "tool") {
            out.push(Message::new(role, content));
        }
    }
    Ok(out)
}

fn new_request_id() -> String {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        .as_nanos();
    format!(
        "req_{}",
        super::tools::correlation_id(&format!("{t}:{}", std::process::id()))
    )
}

/// One generation's outcome.
struct Generation<F> {
    /// The reply.
    gather: Gather<F>,
    /// How it ended.
    end: GenEnd,
    /// Token usage the wire reported.
    usage: Option<crate::wire::Usage>,
}

/// Prose and reasoning gathered since the last call, as `text` events.
type LiveText = std::rc::Rc<std::cell::RefCell<Vec<(String, bool)>>>;

fn emit_live(ev: &mut Events, live: &LiveText) -> anyhow::Result<()> {
    let chunks: Vec<(String, bool)> = live.borrow_mut().drain(..).collect();
    for (text, thinking) in chunks {
        ev.emit(
            "text",
            json!({"text": text, "thinking": thinking, "complete": false}),
        )?;
    }
    Ok(())
}

/// One generation: the model command with the prompt on stdin, its stdout
/// through the wire engine. Prose and reasoning become `text` events as
/// they arrive.
#[allow(clippy::too_many_arguments)]
fn generate(
    args: &LoopArgs,
    runner: &Runner,
    ev: &mut Events,
    prompt: &str,
    (iteration, max_iterations): (u32, u32),
    turn: u64,
    deadline: Instant,
    request_id: &str,
) -> anyhow::Result<Generation<impl FnMut(Live<'_>)>> {
    let mut cfg = runner.tools.engine(args.engine.config("model")?);
    // every reply is named `model`: its turn keeps the derived ids apart
    cfg.turn = turn;
    let mut engine = WireEngine::new(cfg, args.wire.config());
    let live: LiveText = Default::default();
    let sink = live.clone();
    let mut gather = Gather::new(move |l: Live<'_>| {
        let mut v = sink.borrow_mut();
        match l {
            Live::Text(t) if !t.is_empty() => v.push((t.to_string(), false)),
            Live::Reasoning(t) if !t.is_empty() => v.push((t.to_string(), true)),
            _ => {}
        }
    });
    let mut cmd = model_command(args, (iteration, max_iterations), request_id);
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return Ok(Generation {
                gather,
                end: GenEnd::Failed(format!("cannot start the model command: {e}")),
                usage: None,
            })
        }
    };
    if let Some(mut stdin) = child.stdin.take() {
        let data = prompt.as_bytes().to_vec();
        std::thread::spawn(move || {
            let _ = stdin.write_all(&data);
        });
    }
    // The watchdog stops the model's group on Ctrl-C or at the deadline.
    let done = Arc::new(AtomicBool::new(false));
    let why = Arc::new(AtomicU8::new(0));
    let watchdog = watchdog(
        done.clone(),
        why.clone(),
        runner.cancel.clone(),
        child.id(),
        deadline,
    );
    let mut buf = vec![0u8; 16 << 10];
    let mut read_err = None;
    let max_reply = args.max_reply.unwrap_or(DEFAULT_MAX_REPLY);
    let mut replied = 0usize;
    let mut too_long = false;
    let mut echo = crate::agent::echo::Echo::new(prompt.as_bytes());
    if let Some(mut out) = child.stdout.take() {
        loop {
            match out.read(&mut buf) {
                Ok(0) => break,
                Ok(n) if replied.saturating_add(n) > max_reply => {
                    // what fits is kept; the command is stopped
                    echo.feed(&buf[..max_reply - replied], |b| engine.feed(b, &mut gather));
                    emit_live(ev, &live)?;
                    too_long = true;
                    super::child::stop_group(child.id(), true);
                    break;
                }
                Ok(n) => {
                    replied += n;
                    echo.feed(&buf[..n], |b| engine.feed(b, &mut gather));
                    emit_live(ev, &live)?;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    read_err = Some(e);
                    break;
                }
            }
        }
    }
    let status = child.wait();
    // what the model command left running goes with it
    super::child::end_group(child.id());
    done.store(true, Ordering::SeqCst);
    let _ = watchdog.join();
    echo.finish(|b| engine.feed(b, &mut gather));
    engine.finish(&mut gather);
    emit_live(ev, &live)?;
    let summary = engine.summary();
    let end = match why.load(Ordering::SeqCst) {
        BY_CANCEL => GenEnd::Cancelled,
        BY_TIMEOUT => GenEnd::TimedOut,
        _ if too_long => GenEnd::TooLong(max_reply),
        _ => match (status, read_err) {
            (_, Some(e)) => GenEnd::Failed(format!("reading the model's output: {e}")),
            (Ok(s), None) if s.success() => GenEnd::Ok,
            (Ok(s), None) => GenEnd::Failed(format!("the model command exited with {s}")),
            (Err(e), None) => GenEnd::Failed(format!("waiting for the model command: {e}")),
        },
    };
    Ok(Generation {
        gather,
        end,
        usage: summary.usage,
    })
}

/// The model command for one iteration: `sh -c CMD`, the prompt on its
/// stdin, its stdout read, in a process group of its own.
fn model_command(
    args: &LoopArgs,
    (iteration, max_iterations): (u32, u32),
    request_id: &str,
) -> Command {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(&args.model_cmd)
        .env("TOOLCALL_ITERATION", iteration.to_string())
        .env("TOOLCALL_MAX_ITERATIONS", max_iterations.to_string())
        .env("TOOLCALL_REQUEST_ID", request_id)
        .env(
            "TOOLCALL_PROMPT_STYLE",
            match args.prompt_style {
                PromptStyle::Plain => "plain",
                PromptStyle::Messages => "messages",
            },
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    cmd
}

/// The watchdog of one generation: until `done`, it stops the model
/// command's group `pid` on Ctrl-C or at the deadline (SIGTERM, then
/// SIGKILL two seconds later), saying why in `why`.
fn watchdog(
    done: Arc<AtomicBool>,
    why: Arc<AtomicU8>,
    cancel: Arc<AtomicBool>,
    pid: u32,
    deadline: Instant,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let mut kill_at: Option<Instant> = None;
        while !done.load(Ordering::SeqCst) {
            let now = Instant::now();
            if why.load(Ordering::SeqCst) == 0 {
                let reason = if cancel.load(Ordering::SeqCst) {
                    BY_CANCEL
                } else if now >= deadline {
                    BY_TIMEOUT
                } else {
                    0
                };
                if reason != 0 {
                    why.store(reason, Ordering::SeqCst);
                    super::child::stop_group(pid, false);
                    kill_at = Some(now + Duration::from_secs(2));
                }
            } else if kill_at.is_some_and(|k| now >= k) {
                super::child::stop_group(pid, true);
                kill_at = None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    })
}
