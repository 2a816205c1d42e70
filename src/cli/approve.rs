//! Approval for `exec` and `loop`: the flags, and asking a person on
//! `/dev/tty` or an `--approver` command. The order of decision itself is
//! `agent::approval::decide` in the core.

use super::child;
use super::store;
use crate::agent::approval::{
    decide, remember, By, Decision, Facts, Pattern, Permissions, Pre, Remembered, Rules, Session,
    COPIED,
};
use crate::agent::binding::Command as ToolCommand;
use crate::agent::prompt::escape_controls;
use crate::validate::Risk;
use clap::{Args, ValueEnum};
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What happens to a call that needs asking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    /// Ask on /dev/tty (or the --approver command); with neither, deny.
    Ask,
    /// Deny every call that would need asking (CI).
    Deny,
    /// Approve every call that would need asking. Deny rules, --max-risk
    /// and remembered denials still hold.
    Yes,
}

/// Approval flags of `exec` and `loop`.
#[derive(Args, Debug, Clone)]
pub struct ApprovalArgs {
    /// What to do with a call that needs approval: ask, deny or yes.
    ///
    /// `ask` asks on /dev/tty (or through --approver); with no terminal
    /// and no approver the call is denied, and the result says how to
    /// allow it. A call needs approval when its risk is above
    /// --auto-approve (default safe), when it was found as JSON inside
    /// prose, or when the tools file says so.
    ///
    /// Example:
    ///
    ///   toolcall exec --tools tools.json --approve deny calls.ndjson
    #[arg(long, value_name = "MODE", default_value = "ask", verbatim_doc_comment)]
    pub approve: Mode,

    /// Command that decides instead of a person (run with `sh -c`).
    ///
    /// It reads one `approval_request` JSON line on stdin (id, name,
    /// summary, risk, reason, details, warnings, arguments, inline) and
    /// writes one decision line: {"approved": true|false, "reason": "…",
    /// "arguments": {…}, "remember": "session"|"always"|PATTERN}. Only
    /// "approved" is required. No answer within --approval-timeout, or
    /// anything else, is a denial.
    ///
    /// Example:
    ///
    ///   toolcall exec --tools t.json --approver 'jq -c "{approved: (.risk != \"critical\")}"' calls.ndjson
    #[arg(hide_short_help = true, long, value_name = "CMD", verbatim_doc_comment)]
    pub approver: Option<String>,

    /// Run calls that match RULE without asking (repeatable).
    ///
    /// RULE is NAME, NAME:/POINTER=GLOB (a JSON Pointer into the
    /// arguments) or NAME:~GLOB (the summary). Globs: `*` any run but
    /// `/`, `**` any run, `?` one character; in summary globs `*` and `?`
    /// cross `/` too. A value that looks like a path (it holds a `/` and
    /// does not start with a URL scheme) is matched normalised: a relative
    /// path (and a relative glob) taken from the current folder, blanks
    /// trimmed, `//` and `/./` collapsed, `..` resolved (`/tmp/../etc/x` is
    /// `/etc/x`; symbolic links are not followed).
    ///
    /// Examples:
    ///
    ///   --allow read_file
    ///
    ///   --allow 'write_file:/path=/tmp/**'
    #[arg(long, value_name = "RULE", verbatim_doc_comment)]
    pub allow: Vec<Pattern>,

    /// Never run calls that match RULE (repeatable; deny wins over allow).
    ///
    /// A path value is denied in its normalised form and as written. A
    /// glob cannot contain a shell tool (`rm -r -f /`, `$(printf rm) -rf`
    /// get past any denial): give such a tool an --allow list instead.
    ///
    /// Example:
    ///
    ///   --deny 'shell:~*rm -rf*'
    #[arg(long, value_name = "RULE", verbatim_doc_comment)]
    pub deny: Vec<Pattern>,

    /// Never run calls whose risk is above LEVEL.
    ///
    /// Example:
    ///
    ///   toolcall exec --tools t.json --max-risk medium calls.ndjson
    #[arg(
        hide_short_help = true,
        long,
        value_name = "LEVEL",
        verbatim_doc_comment
    )]
    pub max_risk: Option<Risk>,

    /// Remembered permissions (JSON): always_allow, always_deny,
    /// allowed_patterns, denied_patterns. "Always" answers are saved here
    /// (merged under a lock with what other runs saved). Refused, as ssh
    /// refuses its files, when owned by another user or writable by group
    /// or others, when a symbolic link or not a regular file, or over 4 MiB.
    ///
    /// Example:
    ///
    ///   toolcall exec --tools t.json --permissions ~/.config/toolcall/permissions.json c.ndjson
    #[arg(
        hide_short_help = true,
        long,
        value_name = "FILE",
        verbatim_doc_comment
    )]
    pub permissions: Option<PathBuf>,

    /// Session cache (JSON): decisions remembered "for the session" are kept here between runs of one conversation.
    ///
    /// Checked, locked and merged as --permissions is.
    ///
    /// Example:
    ///
    ///   toolcall exec --tools t.json --session-file /tmp/chat-42.json c.ndjson
    #[arg(long, value_name = "FILE", verbatim_doc_comment)]
    pub session_file: Option<PathBuf>,

    /// Forget the session cache first.
    #[arg(hide_short_help = true, long)]
    pub clear_session: bool,

    /// Seconds a person or the approver has to answer, 1 to 86400 (a day)
    /// [default: 300].
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub approval_timeout: Option<u64>,

    /// Never run TOOL (repeatable; a glob; wins over --enable).
    #[arg(long = "disable", value_name = "TOOL")]
    pub disable: Vec<String>,

    /// Run only these tools (repeatable; globs).
    #[arg(long = "enable", value_name = "TOOL")]
    pub enable: Vec<String>,

    /// Never run tools of this x-toolcall.category (repeatable), e.g.
    /// terminal, network, files.
    #[arg(
        hide_short_help = true,
        long = "disable-category",
        value_name = "CATEGORY"
    )]
    pub disable_category: Vec<String>,
}

/// What the asker is told about a call.
pub struct Request<'a> {
    /// The call's id.
    pub id: &'a str,
    /// The function name.
    pub name: &'a str,
    /// The display name.
    pub tool_name: &'a str,
    /// The summary.
    pub summary: &'a str,
    /// The risk for these arguments.
    pub risk: Risk,
    /// Why asking is needed.
    pub reason: &'a str,
    /// The tool's description.
    pub details: &'a str,
    /// Warnings.
    pub warnings: &'a [String],
    /// The arguments.
    pub arguments: &'a Value,
    /// Found as JSON in prose.
    pub inline: bool,
    /// Its text is a piece of the prompt: `--approve yes` does not cover it.
    pub copied: bool,
    /// The tool's `x-toolcall.category`.
    pub category: Option<&'a str>,
    /// The tools file's `requires_approval`.
    pub requires_approval: Option<bool>,
}

/// What the tools file makes of a set of arguments (edited ones): the
/// summary and risk they give, and the schema errors, if any.
pub struct Checked {
    /// The summary for these arguments.
    pub summary: String,
    /// The risk for these arguments (`risk_when` included).
    pub risk: Risk,
    /// The schema errors, one line; `None` when the arguments are valid.
    pub errors: Option<String>,
}

impl Request<'_> {
    /// The `approval_request` fields.
    pub fn fields(&self, timeout: Duration) -> Value {
        let mut v = json!({
            "id": self.id,
            "name": self.name,
            "tool_name": self.tool_name,
            "summary": self.summary,
            "risk": self.risk,
            "reason": self.reason,
            "details": self.details,
            "warnings": self.warnings,
            "arguments": self.arguments,
            "inline": self.inline,
            "timeout_s": timeout.as_secs(),
        });
        if let (true, Value::Object(m)) = (self.copied, &mut v) {
            m.insert("copied".into(), json!(true));
        }
        v
    }
}

/// The decision on one call.
#[derive(Clone, Debug)]
pub struct Verdict {
    /// Run it.
    pub approved: bool,
    /// Who decided.
    pub by: By,
    /// Why (denials).
    pub reason: Option<String>,
    /// Edited arguments.
    pub arguments: Option<Value>,
    /// What was remembered: `session`, `permissions`, or none.
    pub remember: Option<&'static str>,
    /// How long deciding took.
    pub took: Duration,
}

impl Verdict {
    fn new(approved: bool, by: By, reason: Option<String>) -> Verdict {
        Verdict {
            approved,
            by,
            reason,
            arguments: None,
            remember: None,
            took: Duration::ZERO,
        }
    }

    /// The `approval` event's fields.
    pub fn fields(&self, id: &str) -> Value {
        json!({
            "id": id,
            "approved": self.approved,
            "by": self.by,
            "reason": self.reason,
            "modified_arguments": self.arguments,
            "remember": self.remember,
            "decision_ms": self.took.as_millis() as u64,
        })
    }
}

/// The approval state of a run: rules, remembered decisions, and how to
/// ask.
pub struct Approvals {
    /// This run's rules.
    pub rules: Rules,
    perms: Permissions,
    perms_path: Option<PathBuf>,
    session: Session,
    session_path: Option<PathBuf>,
    mode: Mode,
    approver: Option<String>,
    /// How long asking may take.
    pub timeout: Duration,
    tty: Option<Tty>,
    tty_failed: bool,
}

impl Approvals {
    /// Loads the permissions and session files.
    pub fn new(a: &ApprovalArgs, auto_approve: Risk) -> anyhow::Result<Approvals> {
        let perms: Permissions = match &a.permissions {
            Some(p) => store::load(p, "--permissions")?,
            None => Permissions::default(),
        };
        let mut session: Session = match &a.session_file {
            Some(p) => store::load(p, "--session-file")?,
            None => Session::default(),
        };
        if a.clear_session {
            session.clear();
            if let Some(p) = &a.session_file {
                store::update(p, "--session-file", Session::clear)?;
            }
        }
        Ok(Approvals {
            rules: Rules {
                allow: a.allow.clone(),
                deny: a.deny.clone(),
                max_risk: a.max_risk,
                auto_approve,
                disabled: a.disable.clone(),
                enabled: a.enable.clone(),
                disabled_categories: a.disable_category.clone(),
                base_dir: None,
            },
            perms,
            perms_path: a.permissions.clone(),
            session,
            session_path: a.session_file.clone(),
            mode: a.approve,
            approver: a.approver.clone(),
            timeout: Duration::from_secs(a.approval_timeout.unwrap_or(300).max(1)),
            tty: None,
            tty_failed: false,
        })
    }

    /// True when a call that needs approval is put to a person or the
    /// approver (`--approve ask`), not decided by the mode.
    pub fn asks_someone(&self) -> bool {
        self.mode == Mode::Ask
    }

    /// The decision before asking anyone.
    pub fn pre(&self, facts: &Facts<'_>) -> Pre {
        decide(facts, &self.rules, &self.perms, &self.session)
    }

    /// The decision on edited arguments, the same as on the model's own
    /// ([`decide`]: deny rules and `--max-risk` first, the risk and
    /// summary recomputed by `check`, the schema): what they give when they
    /// may run (with a person's or approver's consent), else why not.
    pub fn review(
        &self,
        req: &Request<'_>,
        arguments: &Value,
        check: &mut dyn FnMut(&Value) -> Checked,
    ) -> Result<Checked, String> {
        let c = check(arguments);
        let facts = Facts {
            name: req.name,
            arguments,
            summary: &c.summary,
            risk: c.risk,
            known: true,
            valid: c.errors.is_none(),
            inline: req.inline,
            in_reasoning: false,
            copied: req.copied,
            category: req.category,
            requires_approval: req.requires_approval,
        };
        match self.pre(&facts) {
            Pre::NotRun { reason, .. } => Err(format!(
                "the edited arguments are not valid: {}",
                c.errors.as_deref().unwrap_or(&reason)
            )),
            Pre::Deny { reason, .. } => Err(format!("the edited arguments are denied: {reason}")),
            Pre::Approve { .. } | Pre::Ask { .. } => Ok(c),
        }
    }

    /// Asks about a call that needs it (after [`Approvals::pre`] said
    /// [`Pre::Ask`]). `check` judges edited arguments against the tools
    /// file; they then go through [`Approvals::review`].
    pub fn ask(
        &mut self,
        req: &Request<'_>,
        cancel: &AtomicBool,
        check: &mut dyn FnMut(&Value) -> Checked,
    ) -> Verdict {
        let started = Instant::now();
        let mut v = match self.mode {
            // a call the prompt spelled is not the model's: only a person
            // or the approver may let it run
            Mode::Yes if req.copied => Verdict::new(
                false,
                By::Policy,
                Some(format!("{COPIED}; --approve yes does not cover it")),
            ),
            Mode::Yes => Verdict::new(true, By::Policy, None),
            Mode::Deny => Verdict::new(
                false,
                By::Policy,
                Some("approval needed and --approve deny is set".into()),
            ),
            Mode::Ask => match self.approver.clone() {
                Some(cmd) => self.ask_command(&cmd, req, cancel, check),
                None => self.ask_tty(req, cancel, check),
            },
        };
        v.took = started.elapsed();
        v
    }

    /// Keeps what a decision asked to remember; returns where it went.
    fn keep(&mut self, d: &Decision, name: &str) -> Result<Option<&'static str>, String> {
        let persist = self.perms_path.is_some();
        match remember(d, name, &mut self.session, &mut self.perms, persist) {
            Ok(Remembered::No) => Ok(None),
            Ok(Remembered::Session) => {
                if let Some(p) = &self.session_path {
                    // merged with what other runs saved meanwhile
                    let mine = self.session.clone();
                    self.session =
                        store::update(p, "--session-file", |s: &mut Session| s.absorb(&mine))
                            .map_err(|e| format!("{e:#}"))?;
                }
                Ok(Some("session"))
            }
            Ok(Remembered::Permissions) => {
                if let Some(p) = &self.perms_path {
                    let mine = self.perms.clone();
                    self.perms =
                        store::update(p, "--permissions", |s: &mut Permissions| s.absorb(&mine))
                            .map_err(|e| format!("{e:#}"))?;
                }
                Ok(Some("permissions"))
            }
            Err(e) => Err(e.to_string()),
        }
    }

    fn finish(
        &mut self,
        d: Decision,
        by: By,
        req: &Request<'_>,
        check: &mut dyn FnMut(&Value) -> Checked,
    ) -> Verdict {
        if let (true, Some(args)) = (d.approved, &d.arguments) {
            if let Err(e) = self.review(req, args, check) {
                return Verdict::new(false, by, Some(e));
            }
        }
        let remembered = match self.keep(&d, req.name) {
            Ok(r) => r,
            Err(e) => {
                super::to_stderr(&format!(
                    "toolcall: cannot remember the decision: {}\n",
                    escape_controls(&e)
                ));
                None
            }
        };
        Verdict {
            approved: d.approved,
            by,
            reason: d.reason.filter(|r| !r.trim().is_empty()).or_else(|| {
                (!d.approved).then(|| {
                    format!(
                        "denied by the {}",
                        if by == By::Tty { "user" } else { "approver" }
                    )
                })
            }),
            arguments: if d.approved { d.arguments } else { None },
            remember: remembered,
            took: Duration::ZERO,
        }
    }

    fn ask_command(
        &mut self,
        cmd: &str,
        req: &Request<'_>,
        cancel: &AtomicBool,
        check: &mut dyn FnMut(&Value) -> Checked,
    ) -> Verdict {
        let mut line = json!({"type": "approval_request"});
        if let (Value::Object(m), Value::Object(f)) = (&mut line, req.fields(self.timeout)) {
            m.extend(f);
        }
        let command = ToolCommand::Shell(cmd.to_string());
        let ran = child::run(
            &child::Spec {
                command: &command,
                stdin: format!("{line}\n").into_bytes(),
                env: vec![("TOOLCALL_TOOL".into(), req.name.to_string())],
                clear_env: false,
                timeout: self.timeout,
                grace: Duration::from_secs(1),
                cap: 1 << 20,
                inherit_stderr: true,
            },
            cancel,
        );
        let deny = |why: String| Verdict::new(false, By::Approver, Some(why));
        match ran.end {
            child::End::Exited(Some(0)) => {}
            child::End::TimedOut => return deny("Approval timed out".into()),
            child::End::Cancelled => return deny("cancelled".into()),
            child::End::Exited(code) => {
                return deny(format!(
                    "the approver failed (exit {})",
                    code.map_or("by a signal".to_string(), |c| c.to_string())
                ))
            }
            child::End::NotStarted(e) => return deny(format!("the approver failed: {e}")),
        }
        let text = String::from_utf8_lossy(&ran.stdout);
        let Some(first) = text.lines().map(str::trim).find(|l| !l.is_empty()) else {
            return deny("the approver gave no decision".into());
        };
        match serde_json::from_str::<Decision>(first) {
            Ok(d) => self.finish(d, By::Approver, req, check),
            Err(e) => deny(format!("the approver's decision is not valid JSON: {e}")),
        }
    }

    fn ask_tty(
        &mut self,
        req: &Request<'_>,
        cancel: &AtomicBool,
        check: &mut dyn FnMut(&Value) -> Checked,
    ) -> Verdict {
        if self.tty.is_none() && !self.tty_failed {
            match Tty::open() {
                Ok(t) => self.tty = Some(t),
                Err(_) => self.tty_failed = true,
            }
        }
        if self.tty.is_none() {
            return Verdict::new(
                false,
                By::Policy,
                Some(format!(
                    "approval needed ({}) and there is no terminal to ask on; \
                     allow it with --allow {}, --approve yes, --auto-approve {} or --approver CMD",
                    req.reason, req.name, req.risk
                )),
            );
        }
        let deadline = Instant::now() + self.timeout;
        let mut arguments = req.arguments.clone();
        let mut edited = false;
        let mut summary = req.summary.to_string();
        let mut risk = req.risk;
        loop {
            let shown = Shown {
                arguments: &arguments,
                summary: &summary,
                risk,
                edited,
            };
            let Some(tty) = self.tty.as_mut() else {
                return Verdict::new(false, By::Tty, Some("the terminal closed".into()));
            };
            tty.ask(&prompt_text(req, &shown, self.timeout));
            let answer = match tty.line(deadline, cancel) {
                Answer::Line(l) => l,
                Answer::TimedOut => {
                    tty.say("\n(no answer: denied)\n");
                    return Verdict::new(false, By::Tty, Some("Approval timed out".into()));
                }
                Answer::Cancelled => {
                    return Verdict::new(false, By::Tty, Some("cancelled".into()));
                }
                Answer::Closed => {
                    return Verdict::new(false, By::Tty, Some("the terminal closed".into()));
                }
            };
            let mut d = Decision {
                approved: true,
                arguments: edited.then(|| arguments.clone()),
                ..Decision::default()
            };
            match answer.trim().to_ascii_lowercase().as_str() {
                "y" | "yes" => {}
                "s" | "session" => d.remember = Some("session".into()),
                "a" | "always" => d.remember = Some("always".into()),
                "p" | "pattern" => {
                    tty.ask(&format!(
                        "pattern (NAME, NAME:/POINTER=GLOB or NAME:~GLOB) [{}]: ",
                        escape_controls(req.name)
                    ));
                    match tty.line(deadline, cancel) {
                        Answer::Line(p) if !p.trim().is_empty() => {
                            let p = p.trim().to_string();
                            if let Err(e) = Pattern::parse(&p) {
                                tty.say(&format!("{}\n", escape_controls(&e.to_string())));
                                continue;
                            }
                            d.remember = Some(p);
                        }
                        Answer::Line(_) => d.remember = Some(req.name.to_string()),
                        _ => return Verdict::new(false, By::Tty, Some("no answer".into())),
                    }
                }
                "n" | "no" => {
                    tty.ask("reason for the model (enter for none): ");
                    let reason = match tty.line(deadline, cancel) {
                        Answer::Line(r) => r.trim().to_string(),
                        _ => String::new(),
                    };
                    d.approved = false;
                    d.arguments = None;
                    d.reason = (!reason.is_empty()).then_some(reason);
                }
                "e" | "edit" => {
                    let got = edit(&arguments, tty);
                    // the edit is judged as the model's arguments were
                    match got.and_then(|v| self.review(req, &v, check).map(|c| (v, c))) {
                        Ok((v, c)) => {
                            arguments = v;
                            edited = true;
                            summary = c.summary;
                            risk = c.risk;
                        }
                        Err(e) => {
                            if let Some(tty) = self.tty.as_mut() {
                                tty.say(&format!(
                                    "{}; arguments unchanged\n",
                                    preview(&e, VALUE_LIMIT)
                                ));
                            }
                        }
                    }
                    continue;
                }
                _ => continue,
            }
            if d.approved && risk == Risk::Critical {
                // a process that writes to the terminal can redraw the
                // prompt, and as root type into it: neither knows the code
                let code = confirmation_code();
                tty.ask(&format!(
                    "critical call {}: type {code} to run it (anything else denies) > ",
                    preview(req.name, VALUE_LIMIT / 2)
                ));
                let typed = match tty.line(deadline, cancel) {
                    Answer::Line(l) => l,
                    Answer::Cancelled => {
                        return Verdict::new(false, By::Tty, Some("cancelled".into()))
                    }
                    _ => String::new(),
                };
                if !typed.trim().eq_ignore_ascii_case(&code) {
                    tty.say("(not confirmed: denied)\n");
                    return Verdict::new(
                        false,
                        By::Tty,
                        Some("a critical call not confirmed with its code".into()),
                    );
                }
            }
            return self.finish(d, By::Tty, req, check);
        }
    }
}

/// Letters and digits no one reads as another (no 0/O, 1/I/L, 2/Z, 5/S,
/// 8/B).
const CODE_CHARS: &[u8] = b"ACEFHJKMNPRTUVWXY34679";

/// Four characters drawn for one critical prompt, from the kernel's
/// random source (the hasher's per-process random keys where there is
/// none): what the person types to confirm it.
fn confirmation_code() -> String {
    use std::hash::{BuildHasher, Hasher};
    use std::io::Read;
    let mut bytes = [0u8; 4];
    let from_kernel = std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .is_ok();
    if !from_kernel {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or_default(),
        );
        bytes = h.finish().to_le_bytes()[..4].try_into().unwrap_or_default();
    }
    bytes
        .iter()
        .map(|b| char::from(CODE_CHARS[usize::from(*b) % CODE_CHARS.len()]))
        .collect()
}

/// Most bytes of one previewed value (an argument, the summary, a
/// warning) on the terminal; the rest is counted as `[+N bytes]`.
pub const VALUE_LIMIT: usize = 200;

/// Most bytes of all the argument previews of one prompt together.
pub const ARGUMENTS_LIMIT: usize = 2000;

/// Most arguments previewed one per line; the rest are counted.
const ARGUMENT_LINES: usize = 20;

/// `s` with every control character escaped (a newline shows as `\n`),
/// cut to `limit` bytes on a character boundary with `[+N bytes]` for the
/// bytes of the escaped text left out.
pub fn preview(s: &str, limit: usize) -> String {
    let e = escape_controls(s);
    if e.len() <= limit {
        return e;
    }
    let mut cut = limit;
    while !e.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{} [+{} bytes]", &e[..cut], e.len() - cut)
}

/// The arguments, one line each (`KEY = JSON`), every value previewed in
/// [`VALUE_LIMIT`] and all of them in [`ARGUMENTS_LIMIT`].
fn argument_lines(arguments: &Value) -> Vec<String> {
    let json = |v: &Value| serde_json::to_string(v).unwrap_or_default();
    let Value::Object(map) = arguments else {
        return vec![preview(&json(arguments), VALUE_LIMIT)];
    };
    if map.is_empty() {
        return vec!["(none)".into()];
    }
    let mut lines = Vec::new();
    let mut used = 0usize;
    let mut rest = (0usize, 0usize); // arguments, bytes left out
    for (k, v) in map {
        let text = json(v);
        if lines.len() >= ARGUMENT_LINES || used >= ARGUMENTS_LIMIT {
            rest.0 += 1;
            rest.1 += k.len() + text.len();
            continue;
        }
        let room = VALUE_LIMIT.min(ARGUMENTS_LIMIT - used);
        let line = format!("{} = {}", preview(k, VALUE_LIMIT / 4), preview(&text, room));
        used += line.len();
        lines.push(line);
    }
    if rest.0 > 0 {
        lines.push(format!(
            "… and {} more argument{} [+{} bytes]",
            rest.0,
            if rest.0 == 1 { "" } else { "s" },
            rest.1
        ));
    }
    lines
}

/// What a prompt shows of the call as it stands (edits included).
struct Shown<'a> {
    arguments: &'a Value,
    summary: &'a str,
    risk: Risk,
    edited: bool,
}

/// The text shown on the terminal. Everything that comes from the model
/// (arguments, summary, warnings) is escaped and bounded, and comes
/// first; the tool and risk lines and the question are always the last
/// lines, right above the cursor, so nothing a value draws can stand
/// between them.
fn prompt_text(req: &Request<'_>, shown: &Shown<'_>, timeout: Duration) -> String {
    let mut s = String::from("\ntoolcall: a call needs approval\n");
    s.push_str(&format!(
        "  arguments{}:\n",
        if shown.edited { " (edited)" } else { "" }
    ));
    for line in argument_lines(shown.arguments) {
        s.push_str(&format!("    {line}\n"));
    }
    if !req.details.is_empty() {
        s.push_str(&format!(
            "  details:   {}\n",
            preview(req.details, VALUE_LIMIT)
        ));
    }
    for w in req.warnings.iter().take(5) {
        s.push_str(&format!("  warning:   {}\n", preview(w, VALUE_LIMIT)));
    }
    s.push_str(&format!(
        "  summary:   {}\n",
        preview(shown.summary, VALUE_LIMIT)
    ));
    s.push_str(&format!(
        "  tool:      {}{}\n",
        preview(req.name, VALUE_LIMIT / 2),
        if req.tool_name != req.name {
            format!(" ({})", preview(req.tool_name, VALUE_LIMIT / 2))
        } else {
            String::new()
        },
    ));
    s.push_str(&format!(
        "  risk:      {} ({})\n",
        shown.risk,
        preview(req.reason, VALUE_LIMIT)
    ));
    s.push_str(&format!(
        "run this call? [y]es once, [n]o, [e]dit, [s]ession, [p]attern, [a]lways ({} s) > ",
        timeout.as_secs()
    ));
    s
}

/// The controlling terminal: writes go straight to it, lines are read by
/// a helper thread only while a line is wanted (so an editor started in
/// between gets every key).
struct Tty {
    out: std::fs::File,
    want: mpsc::Sender<()>,
    lines: std::sync::Mutex<mpsc::Receiver<Option<String>>>,
    pending: bool,
}

enum Answer {
    Line(String),
    TimedOut,
    Cancelled,
    Closed,
}

impl Tty {
    fn open() -> std::io::Result<Tty> {
        let out = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/tty")?;
        let input = out.try_clone()?;
        let (want_tx, want_rx) = mpsc::channel::<()>();
        let (line_tx, line_rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = input;
            while want_rx.recv().is_ok() {
                let got = read_answer(&mut r);
                let closed = got.is_none();
                if line_tx.send(got).is_err() || closed {
                    break;
                }
            }
        });
        Ok(Tty {
            out,
            want: want_tx,
            lines: std::sync::Mutex::new(line_rx),
            pending: false,
        })
    }

    fn say(&mut self, s: &str) {
        let _ = self.out.write_all(s.as_bytes());
        let _ = self.out.flush();
    }

    /// Asks a question: what was typed before it is thrown away (keys
    /// pressed while the model was generating answer nothing), then the
    /// question is written.
    fn ask(&mut self, question: &str) {
        #[cfg(unix)]
        let _ = rustix::termios::tcflush(&self.out, rustix::termios::QueueSelector::IFlush);
        self.say(question);
    }

    fn line(&mut self, deadline: Instant, cancel: &AtomicBool) -> Answer {
        if !self.pending {
            if self.want.send(()).is_err() {
                return Answer::Closed;
            }
            self.pending = true;
        }
        loop {
            if cancel.load(Ordering::SeqCst) {
                return Answer::Cancelled;
            }
            let now = Instant::now();
            if now >= deadline {
                return Answer::TimedOut;
            }
            let wait = (deadline - now).min(Duration::from_millis(50));
            let got = match self.lines.lock() {
                Ok(rx) => rx.recv_timeout(wait),
                Err(_) => Err(mpsc::RecvTimeoutError::Disconnected),
            };
            match got {
                Ok(Some(l)) => {
                    self.pending = false;
                    return Answer::Line(l);
                }
                Ok(None) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                    self.pending = false;
                    return Answer::Closed;
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
        }
    }
}

/// One answer from the terminal: the bytes up to the first newline, read
/// without a buffer that would keep what follows for the next question
/// (in canonical mode one read gives at most one line; anything after the
/// newline in the same read is dropped). `None` at the end of input.
fn read_answer(r: &mut std::fs::File) -> Option<String> {
    let mut line = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = match std::io::Read::read(r, &mut buf) {
            Ok(0) => return (!line.is_empty()).then(|| String::from_utf8_lossy(&line).into()),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        let got = &buf[..n];
        if let Some(end) = got.iter().position(|&b| b == b'\n') {
            line.extend_from_slice(&got[..=end]);
            return Some(String::from_utf8_lossy(&line).into_owned());
        }
        if line.len() < 1 << 16 {
            line.extend_from_slice(got);
        }
    }
}

/// Lets the person edit the arguments in `$VISUAL` or `$EDITOR` (else
/// `vi`), on the terminal. The file is `tempfile`'s: a random name,
/// created exclusively, mode 0600, so no other user can guess, read or
/// replace it while the editor has it.
fn edit(arguments: &Value, tty: &Tty) -> Result<Value, String> {
    let text = serde_json::to_string_pretty(arguments).unwrap_or_default() + "\n";
    let mut file = tempfile::Builder::new()
        .prefix("toolcall-args-")
        .suffix(".json")
        .tempfile()
        .map_err(|e| format!("creating the file to edit: {e}"))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.flush())
        .map_err(|e| format!("writing {}: {e}", file.path().display()))?;
    let path = file.path().to_path_buf();
    let editor = std::env::var("VISUAL")
        .ok()
        .filter(|e| !e.trim().is_empty())
        .or_else(|| {
            std::env::var("EDITOR")
                .ok()
                .filter(|e| !e.trim().is_empty())
        })
        .unwrap_or_else(|| "vi".into());
    let io = |f: &std::fs::File| f.try_clone().map(std::process::Stdio::from);
    let status = (|| -> std::io::Result<std::process::ExitStatus> {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("{editor} \"$1\""))
            .arg("sh")
            .arg(&path)
            .stdin(io(&tty.out)?)
            .stdout(io(&tty.out)?)
            .stderr(io(&tty.out)?)
            .status()
    })();
    let result = match status {
        Ok(s) if s.success() => std::fs::read_to_string(&path)
            .map_err(|e| format!("reading the edited arguments: {e}"))
            .and_then(|t| {
                serde_json::from_str::<Value>(&t)
                    .map_err(|e| format!("the edited arguments are not JSON: {e}"))
            })
            .and_then(|v| {
                if v.is_object() {
                    Ok(v)
                } else {
                    Err("the arguments must be a JSON object".into())
                }
            }),
        Ok(s) => Err(format!("the editor exited with {s}; arguments unchanged")),
        Err(e) => Err(format!("cannot start the editor '{editor}': {e}")),
    };
    // an editor that saves by renaming leaves a new file at the path
    let _ = std::fs::remove_file(&path);
    drop(file);
    result
}
