//! `toolcall exec`: run the calls, one `tool_result` per call, with a
//! person in control. The per-call pipeline here (judge, decide, ask,
//! run) is shared with `toolcall loop`.

use super::approve::{ApprovalArgs, Approvals, Checked, Request, Verdict as Approval};
use super::child::{self, End};
use super::common::{read_source, EngineArgs, WireArgs};
use super::output::{FlushPolicy, Output};
use super::tools::{Tools, ToolsArgs};
use super::Outcome;
use crate::agent::approval::{Facts, Pre};
use crate::agent::binding::{self, Command as ToolCommand, RunMeta};
use crate::agent::gather::{Found, Gather};
use crate::agent::result::{capped, Status, ToolResult};
use crate::agent::unknown_summary;
use crate::validate::Verdict;
use crate::ToolCall;
use anyhow::bail;
use clap::Args;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Run tool calls through their commands, asking before risky ones.
///
/// Reads `tool_call` records (as `toolcall parse` writes them) or raw model
/// output, and writes one `tool_result` record per call, in input order.
/// Risk, approval and validity are recomputed from the tools file, never
/// taken from the input; calls drafted inside reasoning are never run.
///
/// A tool's command comes from --bind NAME=CMD, else the tools file's
/// `x-toolcall.exec` (an argv array run without a shell, or a command line
/// for `sh -c`; a relative program with a `/` is taken from the tools
/// file's folder), else --tool-dir DIR (the file DIR/NAME). The command
/// gets the arguments as JSON on stdin and, up to 64 KiB, in
/// TOOLCALL_ARGUMENTS (also TOOLCALL_TOOL, TOOLCALL_CALL_ID,
/// TOOLCALL_RISK), never on its command line; its environment is the base
/// set (PATH, HOME, LANG, LC_*, TERM, TMPDIR, USER, TZ, TOOLCALL_*) and its
/// `x-toolcall.env` (--inherit-env: all); it runs in a session of its own
/// with no terminal, and its whole process group is killed when it ends;
/// its stdout is the result (capped) and exit status 0 is success. A
/// tool's `x-toolcall.sandbox` (`read`, `write`: DIR/** or exact paths;
/// `"network": false`) is enforced by the kernel with Landlock on Linux
/// (see --require-sandbox). Results are written as they are known; once
/// one cannot be written (a closed pipe, a full disk) no more tools start.
///
/// A call above --auto-approve (default safe), or found as JSON inside
/// prose, needs approval: asked on /dev/tty, or by --approver CMD, or
/// decided by --approve deny|yes, --allow/--deny rules, --max-risk and
/// remembered permissions. With no terminal and no policy, nothing risky
/// runs. Ctrl-C (SIGINT), SIGTERM and SIGHUP are passed to the running
/// tools; calls not yet started are cancelled, and the results are written.
///
/// Exit status: 0 every call completed, 1 any did not, 2 usage or I/O
/// error, 130 interrupted.
///
/// Examples:
///
///   toolcall parse reply.txt | toolcall exec --tools tools.json
///
///   toolcall exec --tools tools.json --bind get_weather='./weather.sh' reply.txt
///
///   toolcall exec --tools tools.json --approve deny --tool-dir ./tools calls.ndjson
///
///   toolcall exec --tools tools.json reply.txt | toolcall render result --family hermes --ndjson
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct ExecArgs {
    /// Input files: tool_call records or model output (`-` or none: stdin).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Tools file, strictness, risk, config, logging.
    #[command(flatten)]
    pub tools: ToolsArgs,
    /// Approval.
    #[command(flatten)]
    pub approval: ApprovalArgs,
    /// Running the commands.
    #[command(flatten)]
    pub run: RunArgs,
    /// Engine settings (for raw model output).
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Wire input settings (raw output as servers deliver it).
    #[command(flatten)]
    pub wire: WireArgs,
}

/// How tools run: bindings and limits (`exec` and `loop`).
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Run tool NAME with the shell command CMD (repeatable; wins over the
    /// tools file). The arguments reach CMD on stdin and in
    /// TOOLCALL_ARGUMENTS, never on its command line.
    ///
    /// Example:
    ///
    ///   --bind get_weather='python3 tools/weather.py'
    #[arg(
        hide_short_help = true,
        long,
        value_name = "NAME=CMD",
        verbatim_doc_comment
    )]
    pub bind: Vec<String>,

    /// Run tool NAME as the executable DIR/NAME when nothing else binds it
    /// (NAME of letters, digits, `_`, `.`, `-` only).
    ///
    /// Example:
    ///
    ///   toolcall exec --tools tools.json --tool-dir ./tools calls.ndjson
    #[arg(hide_short_help = true, long, value_name = "DIR", verbatim_doc_comment)]
    pub tool_dir: Option<PathBuf>,

    /// Seconds a tool may run, 5 to 86400 (a day) [default: 120]; then its
    /// process group gets SIGTERM, and SIGKILL 5 s later. A tool's own
    /// `x-toolcall.timeout_s` wins.
    #[arg(hide_short_help = true, long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(5..=86_400))]
    pub tool_timeout: Option<u64>,

    /// Most bytes of a tool's output kept, note included [default: 16384,
    /// 4096 tokens, or result_cap_tokens]; the rest is dropped with a note
    /// and `truncated: true`. 1 B to 16 MiB (16777216).
    #[arg(hide_short_help = true, long, value_name = "BYTES", value_parser = super::common::bytes_parser(16 << 20))]
    pub max_output: Option<usize>,

    /// Most tools running at once, 1 to 10 [default: 3].
    #[arg(hide_short_help = true, long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10))]
    pub max_parallel: Option<u32>,

    /// Run a failed tool (non-zero exit) once more.
    #[arg(hide_short_help = true, long)]
    pub retry_failed: bool,

    /// Decide everything, run nothing: each result says what would run.
    /// --approve deny|yes decide as in a real run (a denied call's result
    /// is `denied`); with --approve ask nobody is asked and the result says
    /// the call would be asked about.
    #[arg(long)]
    pub dry_run: bool,

    /// Most tool runs of one `exec` run or one whole `loop`, 1 to 100000
    /// [default: 256]; a call past it is not run (`skipped`, the result
    /// says why), so one reply cannot start tools without end.
    #[arg(hide_short_help = true, long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_tool_runs: Option<u64>,

    /// Give tools toolcall's whole environment. By default a tool gets
    /// only PATH, HOME, LANG, LC_*, TERM, TMPDIR, USER, TZ and TOOLCALL_*,
    /// plus what its `x-toolcall.env` lists (names, or NAME=value).
    #[arg(hide_short_help = true, long)]
    pub inherit_env: bool,

    /// Leave timestamps and durations out of the records (golden files).
    #[arg(hide_short_help = true, long)]
    pub no_timestamps: bool,

    /// Refuse to run a tool whose `x-toolcall.sandbox` the kernel cannot
    /// enforce (no Landlock, or too old for it): its result is `failed`,
    /// "not run: --require-sandbox …". Without it such a tool runs
    /// unconfined after a warning on stderr.
    #[arg(hide_short_help = true, long)]
    pub require_sandbox: bool,
}

impl RunArgs {
    /// The settings these flags give, the configuration file filling in
    /// what they leave out (then the defaults).
    pub fn settings(
        &self,
        file: &crate::validate::config::FileConfig,
    ) -> crate::agent::settings::Settings {
        let d = crate::agent::settings::Settings::default();
        let tool_timeout = self
            .tool_timeout
            .or(file.tool_timeout_s)
            .map_or(d.tool_timeout, Duration::from_secs);
        crate::agent::settings::Settings {
            max_parallel: self
                .max_parallel
                .or(file.max_parallel_tools)
                .unwrap_or(d.max_parallel),
            tool_timeout,
            request_timeout: file
                .request_timeout_s
                .map_or(d.request_timeout, Duration::from_secs)
                .max(tool_timeout),
            result_cap_tokens: file.result_cap_tokens.unwrap_or(d.result_cap_tokens),
            retry_failed: self.retry_failed || file.retry_failed_tools == Some(true),
            ..d
        }
    }
}

/// One call, judged against the tools file.
pub struct Judged {
    /// The call (values typed by the schema).
    pub call: ToolCall,
    /// The verdict (risk includes `risk_when`).
    pub verdict: Verdict,
    /// Found inside prose (mid-line, or a fence after prose).
    pub inline: bool,
    /// Its text is a piece of the prompt, not the model's own call.
    pub copied: bool,
    /// The command that would run it.
    pub command: Option<ToolCommand>,
    /// Its own timeout, category.
    pub meta: Option<RunMeta>,
    /// The tool's description.
    pub details: String,
}

impl Judged {
    /// The `tool_call` event: the record plus the judgement.
    pub fn fields(&self, index: usize, total: usize) -> Value {
        let mut v = serde_json::to_value(&self.call).unwrap_or(Value::Null);
        if let Value::Object(m) = &mut v {
            m.shift_remove("type");
            m.insert("call_index".into(), json!(index));
            m.insert("total".into(), json!(total));
            m.insert("warnings".into(), json!(self.verdict.warnings));
            m.insert("inline".into(), json!(self.inline));
            if self.copied {
                m.insert("copied".into(), json!(true));
            }
        }
        v
    }

    fn warnings(&self) -> Vec<String> {
        let mut w: Vec<String> = self
            .verdict
            .warnings
            .iter()
            .map(|i| i.message.clone())
            .collect();
        if self.inline {
            w.push("found inside prose".into());
        }
        if self.copied {
            w.push("its text is a piece of the prompt, not the model's own call".into());
        }
        w
    }
}

/// A call's way through the pipeline, for events.
pub enum Step<'a> {
    /// Someone is asked (`approval_request`).
    Asking(&'a Value),
    /// Decided (`approval`).
    Decided(&'a Approval),
    /// The command starts (`tool_execution` starting).
    Starting,
}

/// What [`Runner::decide`] concluded.
pub enum Decided {
    /// Run the call with these arguments.
    Run(Value),
    /// The call does not run: its result.
    Done(ToolResult),
}

/// Runs calls: bindings, approvals, limits. Shared by `exec` and `loop`.
pub struct Runner {
    /// Tools file and policy.
    pub tools: Tools,
    /// Approval state.
    pub approvals: Approvals,
    binds: Vec<(String, ToolCommand)>,
    tool_dir: Option<PathBuf>,
    metas: HashMap<String, RunMeta>,
    /// Default tool timeout.
    pub tool_timeout: Duration,
    /// Kill grace after SIGTERM.
    pub grace: Duration,
    /// Output cap in bytes.
    pub max_output: usize,
    /// Most at once.
    pub max_parallel: usize,
    retry_failed: bool,
    dry_run: bool,
    /// Ctrl-C.
    pub cancel: Arc<AtomicBool>,
    /// Leave durations out.
    pub no_timestamps: bool,
    /// Most tool runs (`--max-tool-runs`).
    pub max_tool_runs: u64,
    /// Tool runs started so far.
    pub runs: u64,
    inherit_env: bool,
    /// The request's deadline (`loop`): no tool runs past it.
    pub deadline: Option<std::time::Instant>,
    /// `--require-sandbox`.
    pub require_sandbox: bool,
}

impl Runner {
    /// Loads the tools file, bindings and approval state.
    pub fn new(
        tools_args: &ToolsArgs,
        approval: &ApprovalArgs,
        run: &RunArgs,
        cancel: Arc<AtomicBool>,
    ) -> anyhow::Result<Runner> {
        let tools = tools_args.load()?;
        let settings = run.settings(&tools.file);
        settings.validate()?;
        let base = tools_args
            .tools
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .unwrap_or_default();
        // absolute, so a sandbox's `read` list can name the program's
        // folder (Landlock rules are paths) whatever --tools was
        let base = std::path::absolute(&base).unwrap_or(base);
        let mut metas = HashMap::new();
        if let Some(reg) = &tools.registry {
            for t in reg.tools() {
                let m = binding::run_meta(t, &base).map_err(anyhow::Error::msg)?;
                metas.insert(t.name.clone(), m);
            }
        }
        let binds = run
            .bind
            .iter()
            .map(|b| binding::parse_bind(b).map_err(anyhow::Error::msg))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let mut approvals = Approvals::new(approval, tools.policy.auto_approve)?;
        approvals.rules.base_dir.clone_from(&tools.base_dir);
        if approval.approval_timeout.is_none() {
            if let Some(s) = tools.file.approval_timeout_s {
                approvals.timeout = Duration::from_secs(s.max(1));
            }
        }
        Ok(Runner {
            tools,
            approvals,
            binds,
            tool_dir: run.tool_dir.clone(),
            metas,
            tool_timeout: settings.tool_timeout,
            grace: Duration::from_secs(5),
            max_output: run
                .max_output
                .unwrap_or_else(|| settings.result_cap_bytes())
                .max(1),
            max_parallel: settings.max_parallel as usize,
            retry_failed: settings.retry_failed,
            dry_run: run.dry_run,
            cancel,
            no_timestamps: run.no_timestamps,
            max_tool_runs: run.max_tool_runs.unwrap_or(DEFAULT_MAX_TOOL_RUNS),
            runs: 0,
            inherit_env: run.inherit_env,
            deadline: None,
            require_sandbox: run.require_sandbox,
        })
    }

    /// Judges a call: schema, risk for its arguments, binding.
    pub fn judge(&self, found: Found) -> Judged {
        let Found {
            mut call,
            inline,
            copied,
        } = found;
        let mut verdict = self.tools.judge(&mut call).unwrap_or_else(|| Verdict {
            valid: false,
            errors: vec![crate::validate::Issue::call(
                "TLP-005",
                format!("unknown tool \"{}\" (no tools file)", call.name),
            )],
            warnings: Vec::new(),
            known: false,
            tool_name: call.name.clone(),
            risk: self.tools.policy.unknown_risk,
            requires_approval: true,
            summary: String::new(),
        });
        if !verdict.known {
            verdict.summary = unknown_summary(&call.name);
            verdict.requires_approval = true;
        }
        if inline || copied {
            verdict.requires_approval = true;
        }
        verdict.write_into(&mut call.extra);
        let meta = self.metas.get(&call.name).cloned();
        let command = verdict
            .known
            .then(|| {
                binding::resolve(
                    &call.name,
                    &self.binds,
                    meta.as_ref(),
                    self.tool_dir.as_deref(),
                )
            })
            .flatten();
        let details = self
            .tools
            .registry
            .as_ref()
            .and_then(|r| r.get(&call.name))
            .and_then(|t| t.description.clone())
            .unwrap_or_default();
        Judged {
            call,
            verdict,
            inline,
            copied,
            command,
            meta,
            details,
        }
    }

    /// Decides whether a judged call runs, asking when needed.
    pub fn decide(&mut self, j: &Judged, on: &mut dyn FnMut(Step<'_>)) -> Decided {
        match self.decide_inner(j, on) {
            Ok(arguments) => Decided::Run(arguments),
            Err(result) => Decided::Done(result),
        }
    }

    #[allow(clippy::result_large_err)] // private: `?`-style early returns
    fn decide_inner(
        &mut self,
        j: &Judged,
        on: &mut dyn FnMut(Step<'_>),
    ) -> Result<Value, ToolResult> {
        let (id, name) = (j.call.id.as_str(), j.call.name.as_str());
        if self.cancel.load(Ordering::SeqCst) {
            return Err(ToolResult::not_run(
                id,
                name,
                Status::Cancelled,
                "cancelled before it started",
            ));
        }
        if self.runs >= self.max_tool_runs {
            return Err(ToolResult::not_run(
                id,
                name,
                Status::Skipped,
                format!(
                    "not run: {} tool runs already, the most for one run (--max-tool-runs)",
                    self.runs
                ),
            ));
        }
        let meta = self
            .tools
            .registry
            .as_ref()
            .and_then(|r| r.get(name))
            .map(|t| &t.meta);
        let facts = Facts {
            name,
            arguments: &j.call.arguments,
            summary: &j.verdict.summary,
            risk: j.verdict.risk,
            known: j.verdict.known,
            valid: j.verdict.valid,
            inline: j.inline,
            in_reasoning: j.call.in_reasoning,
            copied: j.copied,
            category: j.meta.as_ref().and_then(|m| m.category.as_deref()),
            requires_approval: meta.and_then(|m| m.requires_approval),
        };
        let pre = self.approvals.pre(&facts);
        if let Pre::NotRun { status, reason } = &pre {
            return Err(not_run(j, status, reason.clone()));
        }
        if j.command.is_none() {
            return Err(ToolResult::not_run(
                id,
                name,
                Status::Failed,
                format!(
                    "no command for tool \"{name}\" (bind one with --bind {name}=CMD, \
                     x-toolcall.exec in the tools file, or --tool-dir DIR)"
                ),
            ));
        }
        let approval = match pre {
            Pre::NotRun { .. } => unreachable_not_run(),
            Pre::Deny { by, reason } => Approval {
                approved: false,
                by,
                reason: Some(reason),
                arguments: None,
                remember: None,
                took: Duration::ZERO,
            },
            Pre::Approve { by } => Approval {
                approved: true,
                by,
                reason: None,
                arguments: None,
                remember: None,
                took: Duration::ZERO,
            },
            Pre::Ask { reason } => self.ask(j, &facts, &reason, on)?,
        };
        on(Step::Decided(&approval));
        if !approval.approved {
            let status = if self.cancel.load(Ordering::SeqCst) {
                Status::Cancelled
            } else {
                Status::Denied
            };
            let reason = approval.reason.unwrap_or_else(|| "denied".into());
            return Err(ToolResult::not_run(id, name, status, reason));
        }
        let args = approval
            .arguments
            .unwrap_or_else(|| j.call.arguments.as_value().clone());
        if self.dry_run {
            return Err(dry_run(j, &format!("approved ({})", approval.by.as_str())));
        }
        self.runs += 1;
        Ok(args)
    }

    /// Asks whether `j` runs (`Pre::Ask`, for `reason`), the asker able to
    /// edit the arguments, which are checked again as they are edited.
    #[allow(clippy::result_large_err)] // private: `?`-style early returns
    fn ask(
        &mut self,
        j: &Judged,
        facts: &Facts<'_>,
        reason: &str,
        on: &mut dyn FnMut(Step<'_>),
    ) -> Result<Approval, ToolResult> {
        let (id, name) = (j.call.id.as_str(), j.call.name.as_str());
        let warnings = j.warnings();
        let req = Request {
            id,
            name,
            tool_name: &j.verdict.tool_name,
            summary: &j.verdict.summary,
            risk: j.verdict.risk,
            reason,
            details: &j.details,
            warnings: &warnings,
            arguments: &j.call.arguments,
            inline: j.inline,
            copied: j.copied,
            category: facts.category,
            requires_approval: facts.requires_approval,
        };
        if self.dry_run && self.approvals.asks_someone() {
            return Err(dry_run(j, &format!("would ask for approval ({reason})")));
        }
        on(Step::Asking(&req.fields(self.approvals.timeout)));
        let registry = self.tools.registry.as_ref();
        let policy = self.tools.policy;
        let dir = self.tools.base_dir.as_deref();
        let mut check = |args: &Value| -> Checked {
            let Some(reg) = registry else {
                return Checked {
                    summary: String::new(),
                    risk: j.verdict.risk,
                    errors: Some("no tools file".into()),
                };
            };
            let v = reg.check_in(name, args, &policy, dir);
            Checked {
                errors: (!v.valid).then(|| {
                    v.errors
                        .iter()
                        .map(|e| format!("{} {}", e.path, e.message))
                        .collect::<Vec<_>>()
                        .join("; ")
                }),
                summary: v.summary,
                risk: v.risk,
            }
        };
        let cancel = self.cancel.clone();
        Ok(self.approvals.ask(&req, &cancel, &mut check))
    }

    /// Runs an approved call's command (once more on failure with
    /// `--retry-failed`).
    pub fn execute(&self, j: &Judged, arguments: &Value) -> ToolResult {
        let mut r = self.execute_once(j, arguments);
        if self.retry_failed && r.status == Status::Failed && r.exit_code.is_some() {
            r = self.execute_once(j, arguments);
        }
        r
    }

    fn execute_once(&self, j: &Judged, arguments: &Value) -> ToolResult {
        let (id, name) = (j.call.id.as_str(), j.call.name.as_str());
        let Some(command) = &j.command else {
            return ToolResult::not_run(id, name, Status::Failed, "no command");
        };
        let args_json = serde_json::to_string(arguments).unwrap_or_else(|_| "{}".into());
        // edited arguments carry their own risk
        let risk = match &self.tools.registry {
            Some(reg) if arguments != j.call.arguments.as_value() => {
                reg.check_in(
                    name,
                    arguments,
                    &self.tools.policy,
                    self.tools.base_dir.as_deref(),
                )
                .risk
            }
            _ => j.verdict.risk,
        };
        let own = j
            .meta
            .as_ref()
            .and_then(|m| m.timeout)
            .unwrap_or(self.tool_timeout);
        let timeout = match self.deadline {
            Some(d) => own.min(d.saturating_duration_since(std::time::Instant::now())),
            None => own,
        };
        let stdin = format!("{args_json}\n").into_bytes();
        let mut env = if self.inherit_env {
            Vec::new()
        } else {
            tool_env(j.meta.as_ref().map_or(&[][..], |m| &m.env[..]))
        };
        // stdin always carries the arguments; the environment only up to
        // a size every system takes (Linux refuses one string over 128 KiB)
        env.retain(|(k, _)| k != "TOOLCALL_ARGUMENTS");
        if args_json.len() <= ENV_ARGUMENTS_MAX {
            env.push(("TOOLCALL_ARGUMENTS".into(), args_json));
        }
        env.extend([
            ("TOOLCALL_TOOL".into(), name.to_string()),
            ("TOOLCALL_CALL_ID".into(), id.to_string()),
            ("TOOLCALL_RISK".into(), risk.as_str().to_string()),
        ]);
        let confine = child::Confine {
            sandbox: j.meta.as_ref().and_then(|m| m.sandbox.as_ref()),
            require: self.require_sandbox,
        };
        let ran = child::run_tool(
            &child::Spec {
                command,
                stdin,
                env,
                clear_env: !self.inherit_env,
                timeout,
                grace: self.grace,
                cap: self.max_output,
                inherit_stderr: false,
            },
            &confine,
            &self.cancel,
        );
        let (content, truncated) = capped(&ran.stdout, self.max_output, ran.stdout_total);
        let stderr = String::from_utf8_lossy(&ran.stderr).trim().to_string();
        let with_stderr = |msg: String| {
            if stderr.is_empty() {
                msg
            } else {
                format!("{msg}: {stderr}")
            }
        };
        let (status, error, exit_code) = match ran.end {
            End::Exited(Some(0)) => (Status::Completed, None, Some(0)),
            End::Exited(Some(c)) => (
                Status::Failed,
                Some(with_stderr(format!("exit status {c}"))),
                Some(c),
            ),
            End::Exited(None) => (
                Status::Failed,
                Some(with_stderr("killed by a signal".into())),
                None,
            ),
            End::TimedOut => (
                Status::TimedOut,
                Some(format!(
                    "timed out after {} s (its process group was stopped)",
                    fmt_secs(timeout)
                )),
                None,
            ),
            End::Cancelled => (
                Status::Cancelled,
                Some("cancelled (interrupted)".into()),
                None,
            ),
            End::NotStarted(e) => (Status::Failed, Some(e), None),
        };
        ToolResult {
            content: (status == Status::Completed || !content.is_empty()).then_some(content),
            error,
            exit_code,
            duration_ms: (!self.no_timestamps).then_some(ran.duration.as_millis() as u64),
            truncated,
            ..ToolResult::not_run(id, name, status, "")
        }
    }
}

/// Default `--max-tool-runs`.
pub const DEFAULT_MAX_TOOL_RUNS: u64 = 256;

/// Largest arguments (JSON bytes) also put in `TOOLCALL_ARGUMENTS`: 64 KiB.
/// Larger ones reach the tool on stdin only (the variable is then unset):
/// Linux refuses to start a program with one environment string over
/// 128 KiB.
pub const ENV_ARGUMENTS_MAX: usize = 64 << 10;

/// A tool's environment without `--inherit-env`: the base set
/// ([`binding::in_base_env`]) and what `x-toolcall.env` lists, from
/// toolcall's own environment (variables that are not UTF-8 are left out).
fn tool_env(extra: &[binding::EnvEntry]) -> Vec<(String, String)> {
    let passed = |k: &str| {
        binding::in_base_env(k)
            || extra
                .iter()
                .any(|e| matches!(e, binding::EnvEntry::Pass(n) if n == k))
    };
    let mut env: Vec<(String, String)> = std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
        .filter(|(k, _)| passed(k))
        .collect();
    for e in extra {
        if let binding::EnvEntry::Set(k, v) = e {
            env.retain(|(n, _)| n != k);
            env.push((k.clone(), v.clone()));
        }
    }
    env
}

/// The result of a dry run: what would happen, nothing run.
fn dry_run(j: &Judged, what: &str) -> ToolResult {
    let command = j.command.as_ref().map(ToolCommand::display);
    ToolResult {
        content: Some(format!(
            "dry run: {what}, would run {}",
            command.unwrap_or_default()
        )),
        error: None,
        ..ToolResult::not_run(&j.call.id, &j.call.name, Status::Skipped, "")
    }
}

fn unreachable_not_run() -> Approval {
    Approval {
        approved: false,
        by: crate::agent::approval::By::Policy,
        reason: Some("not run".into()),
        arguments: None,
        remember: None,
        took: Duration::ZERO,
    }
}

fn fmt_secs(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{}", d.as_secs())
    } else {
        format!("{s:.1}")
    }
}

/// The calls of one input: `tool_call` records, or model output parsed.
fn calls_of(
    name: &str,
    bytes: Vec<u8>,
    args: &ExecArgs,
    tools: &Tools,
    sources: &super::validate::Sources<'_>,
) -> anyhow::Result<Vec<Found>> {
    if crate::validate::records::is_records(&bytes) {
        let mut out = Vec::new();
        let mut docs = HashMap::new();
        for (number, _, _, rec) in crate::validate::records::record_lines(&bytes) {
            let v = match rec {
                Ok(v) => v,
                Err(why) => {
                    // reported as wire input's bad lines are; the status
                    // says the input was not read whole
                    super::report(&format!(
                        "{name}: TLP-008 {}",
                        crate::validate::records::bad_line_message(number, why)
                    ));
                    super::fail_later();
                    continue;
                }
            };
            if v.get("type").and_then(Value::as_str) != Some("tool_call") {
                continue;
            }
            let call = crate::validate::records::call_from_record(&v, name);
            let inline = record_inline(&call, &mut docs, sources);
            out.push(Found {
                call,
                inline,
                copied: false,
            });
        }
        return Ok(out);
    }
    let cfg = tools.engine(args.engine.config(name)?);
    let mut g = Gather::new(|_| {});
    let mut engine = crate::wire::WireEngine::new(cfg, args.wire.config());
    engine.feed(&bytes, &mut g);
    engine.finish(&mut g);
    for e in &g.errors {
        super::to_stderr(&format!(
            "toolcall: {name}: skipped a malformed call: {}\n",
            super::sanitize(&e.message)
        ));
    }
    Ok(g.calls)
}

/// Runs `exec`.
pub fn run(args: &ExecArgs) -> anyhow::Result<Outcome> {
    args.wire.refuse_messages("exec")?;
    if args.tools.tools.is_none() {
        bail!("exec needs a tools file: --tools FILE");
    }
    let cancel = child::interrupt_flag();
    let mut runner = Runner::new(&args.tools, &args.approval, &args.run, cancel.clone())?;
    let sources = if args.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        args.files.clone()
    };
    let mut calls = Vec::new();
    for p in &sources {
        // the message names the file once (read_source says `reading P`)
        let (name, bytes) = read_source(p, super::common::DEFAULT_MAX_INPUT)?;
        let docs = super::validate::Sources {
            inputs: &sources,
            max: super::common::DEFAULT_MAX_INPUT,
        };
        calls.extend(calls_of(&name, bytes, args, &runner.tools, &docs)?);
    }
    let judged: Vec<Judged> = calls.into_iter().map(|c| runner.judge(c)).collect();
    // inputs read: from now on a signal cancels the run instead of ending it
    child::running();
    // Decide in order (asking is one at a time), then run what may run.
    let mut slots: Vec<Option<ToolResult>> = Vec::with_capacity(judged.len());
    let mut jobs: Vec<(usize, Value)> = Vec::new();
    for (k, j) in judged.iter().enumerate() {
        match runner.decide(j, &mut |_| {}) {
            Decided::Run(a) => {
                slots.push(None);
                jobs.push((k, a));
            }
            Decided::Done(r) => slots.push(Some(r)),
        }
    }
    let runner = &runner;
    let next = std::sync::atomic::AtomicUsize::new(0);
    // set when a record cannot be written: no more tools start
    let gone = AtomicBool::new(false);
    let (tx, rx) = std::sync::mpsc::channel::<(usize, ToolResult)>();
    let mut out = Output::stdout(FlushPolicy::PerRecord);
    let mut all = true;
    let mut write_err: Option<std::io::Error> = None;
    std::thread::scope(|s| {
        for _ in 0..runner.max_parallel.min(jobs.len()) {
            let (tx, next, jobs, judged, gone) = (tx.clone(), &next, &jobs, &judged, &gone);
            s.spawn(move || loop {
                if gone.load(Ordering::SeqCst) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((k, a)) = jobs.get(i) else { break };
                let r = if runner.cancel.load(Ordering::SeqCst) {
                    ToolResult::not_run(
                        &judged[*k].call.id,
                        &judged[*k].call.name,
                        Status::Cancelled,
                        "cancelled before it started",
                    )
                } else {
                    runner.execute(&judged[*k], a)
                };
                if tx.send((*k, r)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Results are written in call order as soon as they are known,
        // each flushed: the first record that cannot be written (a closed
        // pipe, a full disk) ends the run, and no more tools start.
        let mut written = 0;
        'write: loop {
            while let Some(r) = slots.get_mut(written).and_then(Option::take) {
                written += 1;
                all &= r.status == Status::Completed;
                if let Err(e) = out.record(&r).and_then(|()| out.flush()) {
                    gone.store(true, Ordering::SeqCst);
                    write_err = Some(e);
                    break 'write;
                }
            }
            if written >= slots.len() {
                break;
            }
            match rx.recv() {
                Ok((k, r)) => {
                    if let Some(slot) = slots.get_mut(k) {
                        *slot = Some(r);
                    }
                }
                Err(_) => break,
            }
        }
    });
    if let Some(e) = write_err {
        out.set_quiet(true);
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            // the reader has gone (`| head -1`): stop quietly
            return Ok(Outcome::NotFound);
        }
        return Err(anyhow::Error::new(e).context("writing the results (no more tools started)"));
    }
    if cancel.load(Ordering::SeqCst) {
        return Ok(Outcome::Exit(130));
    }
    Ok(if all {
        Outcome::Found
    } else {
        Outcome::NotFound
    })
}

/// Whether a call read from a record was found inside prose (see
/// [`crate::agent::gather::in_prose`]). The record's word is not taken:
/// when its document is one of the inputs on the command line, the bytes
/// around the call decide (a later call counts as prose there); when not (a path taken from a record is never opened), a
/// call in a format without markers counts as inline (it then always
/// needs approval).
fn record_inline(
    call: &ToolCall,
    docs: &mut HashMap<String, Option<Vec<u8>>>,
    sources: &super::validate::Sources<'_>,
) -> bool {
    let unmarked =
        crate::formats::FormatId::from_id(call.format).is_some_and(|id| id.format().unmarked);
    let doc = docs
        .entry(call.doc.clone())
        .or_insert_with(|| sources.read(&call.doc));
    let start = call.span[0] as usize;
    let Some(text) = doc.as_deref().filter(|t| {
        t.len() >= call.span[1] as usize
            && t.get(start..)
                .is_some_and(|r| r.starts_with(call.raw.as_bytes()))
    }) else {
        return unmarked;
    };
    let line_start = text[..start]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let blank = |b: &[u8]| b.iter().all(u8::is_ascii_whitespace);
    use crate::agent::gather::{in_prose, Prose};
    match in_prose(
        call.format,
        &call.raw,
        !blank(&text[line_start..start]),
        !blank(&text[..start]),
    ) {
        Prose::No => false,
        Prose::Yes => true,
        // what follows it in the document (later calls count as prose)
        Prose::IfFollowed => !blank(text.get(call.span[1] as usize..).unwrap_or_default()),
    }
}

/// The result of a call the rules keep from running: with status
/// `validation_failed`, its validation errors are the detail.
fn not_run(j: &Judged, status: &str, reason: String) -> ToolResult {
    let (id, name) = (j.call.id.as_str(), j.call.name.as_str());
    let status = Status::from_name(status).unwrap_or(Status::Skipped);
    let detail = if status == Status::ValidationFailed && !j.verdict.errors.is_empty() {
        let errs: Vec<String> = j
            .verdict
            .errors
            .iter()
            .map(crate::validate::Issue::summary)
            .collect();
        errs.join("; ")
    } else {
        reason
    };
    ToolResult::not_run(id, name, status, detail)
}
