//! Who decides whether a call runs: rules, remembered permissions, the
//! session cache and the risk threshold (docs/agent.md#approval).
//!
//! [`decide`] applies the order of decision: calls that cannot run
//! (disabled, unknown, invalid, drafted in reasoning) are not run; then
//! anything that denies (`--max-risk`, deny rules, always-deny, denied
//! patterns) wins over anything that allows (the session cache,
//! always-allow, allowed patterns, allow rules); then a call at or below
//! the auto-approval threshold that was not found as inline JSON runs
//! without asking; anything else is [`Pre::Ask`]: the caller asks a person
//! or an approver command.

use crate::validate::Risk;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// A pattern over calls: `NAME`, `NAME:POINTER=GLOB` (a JSON Pointer into
/// the arguments) or `NAME:~GLOB` (against the summary). NAME is itself a
/// glob. In NAME and POINTER globs `*` is any run of characters but `/`,
/// `**` any run at all, `?` one character but `/`; in summary globs `*`
/// and `?` cross `/` too (a summary is text, not a path).
///
/// A POINTER glob is matched against the value's normalised path when the
/// value looks like a path (see [`looks_like_path`], [`normalize_path`]):
/// `/tmp/../etc/shadow` is `/etc/shadow` to every rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    text: String,
    tool: String,
    kind: PatternKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum PatternKind {
    Any,
    Pointer { pointer: String, glob: String },
    Summary(String),
}

/// A pattern that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadPattern(pub String);

impl fmt::Display for BadPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadPattern {}

impl std::str::FromStr for Pattern {
    type Err = BadPattern;
    fn from_str(s: &str) -> Result<Pattern, BadPattern> {
        Pattern::parse(s)
    }
}

impl Pattern {
    /// Reads `NAME`, `NAME:POINTER=GLOB` or `NAME:~GLOB`.
    pub fn parse(s: &str) -> Result<Pattern, BadPattern> {
        let (tool, rest) = match s.split_once(':') {
            Some((t, r)) => (t, Some(r)),
            None => (s, None),
        };
        if tool.is_empty() {
            return Err(BadPattern(format!(
                "pattern '{s}': no tool name (NAME, NAME:/POINTER=GLOB or NAME:~GLOB)"
            )));
        }
        let kind = match rest {
            None => PatternKind::Any,
            Some(r) => {
                if let Some(glob) = r.strip_prefix('~') {
                    PatternKind::Summary(glob.to_string())
                } else {
                    let Some((pointer, glob)) = r.split_once('=') else {
                        return Err(BadPattern(format!(
                            "pattern '{s}': expected NAME:/POINTER=GLOB or NAME:~GLOB"
                        )));
                    };
                    if !pointer.is_empty() && !pointer.starts_with('/') {
                        return Err(BadPattern(format!(
                            "pattern '{s}': '{pointer}' is not a JSON Pointer (it starts with /)"
                        )));
                    }
                    PatternKind::Pointer {
                        pointer: pointer.to_string(),
                        glob: glob.to_string(),
                    }
                }
            }
        };
        Ok(Pattern {
            text: s.to_string(),
            tool: tool.to_string(),
            kind,
        })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// True when the call to `name` with `arguments` and `summary` matches.
    /// A string value that looks like a path is compared in its normalised
    /// form only (what allow rules use), and never matches while it still
    /// holds a `..` (a relative path no base resolved).
    pub fn matches(&self, name: &str, arguments: &Value, summary: &str) -> bool {
        self.test(name, arguments, summary, false, None)
    }

    /// Like [`Pattern::matches`], a relative path resolved against `base`
    /// (the tool's working directory) first.
    pub fn matches_in(
        &self,
        name: &str,
        arguments: &Value,
        summary: &str,
        base: Option<&str>,
    ) -> bool {
        self.test(name, arguments, summary, false, base)
    }

    /// Like [`Pattern::matches`], but a path value matches in its
    /// normalised form or as written (what deny rules use: a denial is
    /// never dodged by spelling).
    pub fn matches_either_form(&self, name: &str, arguments: &Value, summary: &str) -> bool {
        self.test(name, arguments, summary, true, None)
    }

    /// Like [`Pattern::matches_either_form`], a relative path resolved
    /// against `base` (the tool's working directory) first.
    pub fn matches_either_form_in(
        &self,
        name: &str,
        arguments: &Value,
        summary: &str,
        base: Option<&str>,
    ) -> bool {
        self.test(name, arguments, summary, true, base)
    }

    fn test(
        &self,
        name: &str,
        arguments: &Value,
        summary: &str,
        raw_too: bool,
        base: Option<&str>,
    ) -> bool {
        if !glob_match(&self.tool, name) {
            return false;
        }
        match &self.kind {
            PatternKind::Any => true,
            PatternKind::Summary(g) => summary_glob_match(g, summary),
            PatternKind::Pointer { pointer, glob } => match arguments.pointer(pointer) {
                Some(Value::String(s)) if looks_like_path(s) => {
                    let normal = resolve_path(s, base);
                    // a relative glob is taken from the same folder as the
                    // values: `out/**` is BASE/out/**
                    let resolved;
                    let glob = match base {
                        Some(_) if !glob.starts_with('/') && !glob.starts_with('*') => {
                            resolved = resolve_path(glob, base);
                            resolved.as_str()
                        }
                        _ => glob.as_str(),
                    };
                    let escapes = normal.split('/').any(|seg| seg == "..");
                    // a NUL or surrounding blanks: the tool may see
                    // another path than the normalised one (`seen_path`)
                    let odd = s.contains('\0') || s.trim() != s;
                    (!(escapes || odd) || raw_too) && glob_match(glob, &normal)
                        || (raw_too
                            && (glob_match(glob, s) || glob_match(glob, &seen_path(s, base))))
                }
                Some(Value::String(s)) => glob_match(glob, s),
                Some(other) => glob_match(glob, &other.to_string()),
                None => false,
            },
        }
    }
}

impl Serialize for Pattern {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for Pattern {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Pattern, D::Error> {
        let s = String::deserialize(d)?;
        Pattern::parse(&s).map_err(serde::de::Error::custom)
    }
}

/// True for a string value that rules and `risk_when` read as a path:
/// after trimming blanks it is `.` or `..`, or holds a `/` and is not a
/// URL ([`is_url`]). `DIR/x://../../f` is a path (one that leaves DIR).
pub fn looks_like_path(s: &str) -> bool {
    let t = s.trim();
    t == "." || t == ".." || (t.contains('/') && !is_url(t))
}

/// True when `s` starts with a URL scheme and `://`: a letter, then
/// letters, digits, `+`, `-` or `.` (RFC 3986). A `://` further in does
/// not make a URL.
pub fn is_url(s: &str) -> bool {
    let Some((scheme, _)) = s.split_once("://") else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// [`normalize_path`] of `s`, a relative `s` first joined to `base` (the
/// tool's working directory, absolute) when there is one:
/// `../../etc/passwd` from `/home/me/proj` is `/etc/passwd`.
pub fn resolve_path(s: &str, base: Option<&str>) -> String {
    let t = s.trim();
    match base {
        Some(b) if b.starts_with('/') && !t.starts_with('/') => normalize_path(&format!("{b}/{t}")),
        _ => normalize_path(t),
    }
}

/// The lexical form of a path: surrounding blanks trimmed, `//` collapsed,
/// `.` segments dropped and `..` resolved against the segment before it
/// (`..` above `/` stays at `/`; a relative path keeps its leading `..`).
/// A trailing `/` is kept. Nothing is read from the file system: a
/// symbolic link inside the path is not followed.
pub fn normalize_path(s: &str) -> String {
    normalize_lexical(s.trim())
}

/// The path a tool may see in `s`: cut at its first NUL (where a C
/// string ends), blanks kept (` /../x` is relative: a folder named ` `),
/// joined to `base` when relative, then normalised lexically. Deny rules
/// and `risk_when` try it besides the normalised form, and an allow rule
/// never matches a value whose two forms may differ (a NUL, surrounding
/// blanks): `/etc/cron.d/x\0/../../../tmp/y` is `/tmp/y` normalised and
/// `/etc/cron.d/x` to a tool that reads C strings.
pub fn seen_path(s: &str, base: Option<&str>) -> String {
    let t = s.split('\0').next().unwrap_or_default();
    match base {
        Some(b) if b.starts_with('/') && !t.starts_with('/') => {
            normalize_lexical(&format!("{b}/{t}"))
        }
        _ => normalize_lexical(t),
    }
}

fn normalize_lexical(t: &str) -> String {
    let absolute = t.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for seg in t.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|p| *p != "..") {
                    parts.pop();
                } else if !absolute {
                    parts.push("..");
                }
            }
            seg => parts.push(seg),
        }
    }
    let mut out = if absolute {
        String::from("/")
    } else {
        String::new()
    };
    out.push_str(&parts.join("/"));
    if out.is_empty() {
        out.push('.');
    } else if t.ends_with('/') && !out.ends_with('/') {
        out.push('/');
    }
    out
}

/// `value` with every string in it that looks like a path normalised
/// ([`looks_like_path`], [`normalize_path`]), or `None` when that changes
/// nothing.
pub fn normalized_paths(value: &Value) -> Option<Value> {
    resolved_paths(value, None)
}

/// [`normalized_paths`], a relative path first joined to `base` (the
/// tool's working directory) when there is one ([`resolve_path`]).
pub fn resolved_paths(value: &Value, base: Option<&str>) -> Option<Value> {
    map_paths(value, &|s| resolve_path(s, base))
}

/// `value` with every string in it that looks like a path as a tool may
/// see it ([`seen_path`]), or `None` when that changes nothing.
pub fn seen_paths(value: &Value, base: Option<&str>) -> Option<Value> {
    map_paths(value, &|s| seen_path(s, base))
}

fn map_paths(value: &Value, f: &dyn Fn(&str) -> String) -> Option<Value> {
    match value {
        Value::String(s) if looks_like_path(s) => {
            let n = f(s);
            (n != *s).then_some(Value::String(n))
        }
        Value::Array(items) => {
            let changed: Vec<Option<Value>> = items.iter().map(|v| map_paths(v, f)).collect();
            changed.iter().any(Option::is_some).then(|| {
                Value::Array(
                    changed
                        .into_iter()
                        .zip(items)
                        .map(|(c, v)| c.unwrap_or_else(|| v.clone()))
                        .collect(),
                )
            })
        }
        Value::Object(map) => {
            let changed: Vec<Option<Value>> = map.values().map(|v| map_paths(v, f)).collect();
            changed.iter().any(Option::is_some).then(|| {
                Value::Object(
                    changed
                        .into_iter()
                        .zip(map)
                        .map(|(c, (k, v))| (k.clone(), c.unwrap_or_else(|| v.clone())))
                        .collect(),
                )
            })
        }
        _ => None,
    }
}

/// Glob matching on characters: `*` any run without `/`, `**` any run,
/// `?` one character but `/`, everything else literal. Time is
/// proportional to the product of the lengths (both are short).
pub fn glob_match(glob: &str, text: &str) -> bool {
    glob_with(glob, text, false)
}

/// Glob matching for summaries (`NAME:~GLOB`): as [`glob_match`], but `*`
/// and `?` cross `/` (`~*rm -rf*` matches `Run rm -rf /`).
pub fn summary_glob_match(glob: &str, text: &str) -> bool {
    glob_with(glob, text, true)
}

fn glob_with(glob: &str, text: &str, slash: bool) -> bool {
    #[derive(Clone, Copy, PartialEq)]
    enum Tok {
        Lit(char),
        One,
        Star,
        Stars,
    }
    let mut toks = Vec::new();
    let mut it = glob.chars().peekable();
    while let Some(c) = it.next() {
        toks.push(match c {
            '*' if it.peek() == Some(&'*') => {
                while it.peek() == Some(&'*') {
                    it.next();
                }
                Tok::Stars
            }
            '*' => Tok::Star,
            '?' => Tok::One,
            c => Tok::Lit(c),
        });
    }
    let text: Vec<char> = text.chars().collect();
    // reach[j]: the tokens so far can consume exactly text[..j]
    let mut reach = vec![false; text.len() + 1];
    reach[0] = true;
    for tok in toks {
        let mut next = vec![false; text.len() + 1];
        match tok {
            Tok::Lit(c) => {
                for j in 0..text.len() {
                    next[j + 1] = reach[j] && text[j] == c;
                }
            }
            Tok::One => {
                for j in 0..text.len() {
                    next[j + 1] = reach[j] && (slash || text[j] != '/');
                }
            }
            Tok::Star | Tok::Stars => {
                next[0] = reach[0];
                for j in 0..text.len() {
                    next[j + 1] =
                        reach[j + 1] || (next[j] && (slash || tok == Tok::Stars || text[j] != '/'));
                }
            }
        }
        reach = next;
    }
    reach[text.len()]
}

/// Remembered decisions that outlive a run (`--permissions FILE`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Permissions {
    /// Tools that always run without asking.
    pub always_allow: Vec<String>,
    /// Tools that never run.
    pub always_deny: Vec<String>,
    /// Calls that run without asking.
    pub allowed_patterns: Vec<Pattern>,
    /// Calls that never run.
    pub denied_patterns: Vec<Pattern>,
}

impl Permissions {
    /// Adds what `other` remembers and `self` does not (lists keep their
    /// order, `self`'s first): how a file written meanwhile by another run
    /// is merged before this run's answers are saved.
    pub fn absorb(&mut self, other: &Permissions) {
        union(&mut self.always_allow, &other.always_allow);
        union(&mut self.always_deny, &other.always_deny);
        union(&mut self.allowed_patterns, &other.allowed_patterns);
        union(&mut self.denied_patterns, &other.denied_patterns);
    }
}

/// Appends the items of `more` that `list` lacks.
fn union<T: Clone + PartialEq>(list: &mut Vec<T>, more: &[T]) {
    for item in more {
        if !list.contains(item) {
            list.push(item.clone());
        }
    }
}

/// Decisions remembered for the session (one conversation): tools allowed
/// or denied for the rest of it, and patterns allowed. `--session-file`
/// keeps it between runs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Session {
    /// Tools approved for the session.
    pub allowed: Vec<String>,
    /// Tools denied for the session.
    pub denied: Vec<String>,
    /// Calls approved for the session.
    pub allowed_patterns: Vec<Pattern>,
}

impl Session {
    /// Adds what `other` remembers and `self` does not (see
    /// [`Permissions::absorb`]).
    pub fn absorb(&mut self, other: &Session) {
        union(&mut self.allowed, &other.allowed);
        union(&mut self.denied, &other.denied);
        union(&mut self.allowed_patterns, &other.allowed_patterns);
    }

    /// Forgets everything remembered.
    pub fn clear(&mut self) {
        *self = Session::default();
    }
}

/// Rules given for this run (flags).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// `--allow`: calls that run without asking.
    pub allow: Vec<Pattern>,
    /// `--deny`: calls that never run.
    pub deny: Vec<Pattern>,
    /// `--max-risk`: calls above it never run.
    pub max_risk: Option<Risk>,
    /// Calls at or below it run without asking (default safe).
    pub auto_approve: Risk,
    /// Tools that may not run (wins over `enabled`).
    pub disabled: Vec<String>,
    /// When not empty, only these tools may run.
    pub enabled: Vec<String>,
    /// Categories that may not run (`x-toolcall.category`).
    pub disabled_categories: Vec<String>,
    /// The tools' working directory (absolute): relative paths in the
    /// arguments are resolved against it before any rule sees them.
    pub base_dir: Option<String>,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            allow: Vec::new(),
            deny: Vec::new(),
            max_risk: None,
            auto_approve: Risk::Safe,
            disabled: Vec::new(),
            enabled: Vec::new(),
            disabled_categories: Vec::new(),
            base_dir: None,
        }
    }
}

/// Who or what decided (`by` in `approval` events).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum By {
    /// The risk is at or below the threshold.
    Auto,
    /// An `--allow` or `--deny` rule, or `--max-risk`.
    Rule,
    /// The session cache.
    Session,
    /// The persisted permissions.
    Permissions,
    /// A person on the terminal.
    Tty,
    /// The `--approver` command.
    Approver,
    /// `--approve yes|deny`, or no way to ask.
    Policy,
}

impl By {
    /// The name written in events.
    pub fn as_str(self) -> &'static str {
        match self {
            By::Auto => "auto",
            By::Rule => "rule",
            By::Session => "session",
            By::Permissions => "permissions",
            By::Tty => "tty",
            By::Approver => "approver",
            By::Policy => "policy",
        }
    }
}

/// What is known of a call when deciding.
#[derive(Clone, Copy, Debug)]
pub struct Facts<'a> {
    /// The function name.
    pub name: &'a str,
    /// The arguments.
    pub arguments: &'a Value,
    /// The one-line summary.
    pub summary: &'a str,
    /// The risk for these arguments.
    pub risk: Risk,
    /// The tool is in the tools file.
    pub known: bool,
    /// The call passes the tool's schema.
    pub valid: bool,
    /// The call was found inside prose (mid-line, or a fence after prose).
    pub inline: bool,
    /// The call was drafted inside reasoning.
    pub in_reasoning: bool,
    /// The call's text is a piece of the prompt (a tool's output, the
    /// user's message, the prompt echoed), not the model's own call
    /// ([`crate::agent::echo::Copies`]).
    pub copied: bool,
    /// The tool's `x-toolcall.category`.
    pub category: Option<&'a str>,
    /// The tools file says it always needs approval.
    pub requires_approval: Option<bool>,
}

/// The decision before anyone is asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pre {
    /// The call cannot run at all: `status` is the result's status.
    NotRun {
        /// `validation_failed` or `skipped`.
        status: &'static str,
        /// Why.
        reason: String,
    },
    /// Denied by a rule or a remembered decision.
    Deny {
        /// What denied it.
        by: By,
        /// Why.
        reason: String,
    },
    /// Approved by a rule, a remembered decision or the threshold.
    Approve {
        /// What approved it.
        by: By,
    },
    /// Someone must be asked.
    Ask {
        /// Why asking is needed (for the prompt).
        reason: String,
    },
}

fn listed(list: &[String], name: &str) -> bool {
    list.iter().any(|t| glob_match(t, name))
}

/// Why a call whose text is a piece of the prompt is asked about: a
/// person or the approver decides, never `--approve yes`.
pub const COPIED: &str = "the call's text is a piece of the prompt (a tool's output, the user's \
message, or the prompt echoed by the model command), not a call the model made: \
only a person or the approver may run it";

/// The order of decision (see the module documentation).
pub fn decide(f: &Facts<'_>, rules: &Rules, perms: &Permissions, session: &Session) -> Pre {
    if f.in_reasoning {
        return Pre::NotRun {
            status: "skipped",
            reason: "the call was drafted inside reasoning; drafts are never run".into(),
        };
    }
    if listed(&rules.disabled, f.name)
        || (!rules.enabled.is_empty() && !listed(&rules.enabled, f.name))
        || f.category
            .is_some_and(|c| rules.disabled_categories.iter().any(|d| d == c))
    {
        return Pre::NotRun {
            status: "skipped",
            reason: format!("tool \"{}\" is disabled", f.name),
        };
    }
    if !f.known {
        return Pre::NotRun {
            status: "validation_failed",
            reason: format!("unknown tool \"{}\"", f.name),
        };
    }
    if !f.valid {
        return Pre::NotRun {
            status: "validation_failed",
            reason: "the arguments do not match the tool's schema".into(),
        };
    }
    // allow lists match the normalised paths; deny lists the normalised
    // paths or the paths as written
    let base = rules.base_dir.as_deref();
    let hit = |ps: &[Pattern]| {
        ps.iter()
            .find(|p| p.matches_in(f.name, f.arguments, f.summary, base))
            .map(|p| p.as_str().to_string())
    };
    let deny_hit = |ps: &[Pattern]| {
        ps.iter()
            .find(|p| p.matches_either_form_in(f.name, f.arguments, f.summary, base))
            .map(|p| p.as_str().to_string())
    };
    if let Some(max) = rules.max_risk {
        if f.risk > max {
            return Pre::Deny {
                by: By::Rule,
                reason: format!("risk {} is above --max-risk {max}", f.risk),
            };
        }
    }
    if let Some(p) = deny_hit(&rules.deny) {
        return Pre::Deny {
            by: By::Rule,
            reason: format!("denied by rule {p}"),
        };
    }
    if listed(&perms.always_deny, f.name) {
        return Pre::Deny {
            by: By::Permissions,
            reason: format!("tool \"{}\" is always denied", f.name),
        };
    }
    if let Some(p) = deny_hit(&perms.denied_patterns) {
        return Pre::Deny {
            by: By::Permissions,
            reason: format!("denied by pattern {p}"),
        };
    }
    if listed(&session.denied, f.name) {
        return Pre::Deny {
            by: By::Session,
            reason: format!("tool \"{}\" was denied for this session", f.name),
        };
    }
    if listed(&session.allowed, f.name) || hit(&session.allowed_patterns).is_some() {
        return Pre::Approve { by: By::Session };
    }
    if listed(&perms.always_allow, f.name) || hit(&perms.allowed_patterns).is_some() {
        return Pre::Approve {
            by: By::Permissions,
        };
    }
    if hit(&rules.allow).is_some() {
        return Pre::Approve { by: By::Rule };
    }
    if f.inline {
        return Pre::Ask {
            reason: "found inside prose: calls in prose always need approval".into(),
        };
    }
    if f.copied {
        return Pre::Ask {
            reason: COPIED.into(),
        };
    }
    match f.requires_approval {
        Some(true) => Pre::Ask {
            reason: "the tools file says this tool always needs approval".into(),
        },
        Some(false) => Pre::Approve { by: By::Auto },
        None if f.risk <= rules.auto_approve => Pre::Approve { by: By::Auto },
        None => Pre::Ask {
            reason: format!(
                "risk {} is above the auto-approval level {}",
                f.risk, rules.auto_approve
            ),
        },
    }
}

/// What a person or approver decided, as the `--approver` command writes
/// it (one JSON line) and the terminal prompt builds it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Decision {
    /// Run it.
    pub approved: bool,
    /// Why (shown to the model on a denial).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Run it with these arguments instead (re-validated first).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Value>,
    /// Remember it: `session` (this tool for the session), `always` (this
    /// tool, persisted), or a pattern (persisted, or for the session
    /// without `--permissions`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remember: Option<String>,
}

/// Where a remembered decision went, if anywhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Remembered {
    /// Not remembered.
    No,
    /// In the session cache.
    Session,
    /// In the permissions.
    Permissions,
}

/// Records `decision` for the call to `name`: `session` adds the tool to
/// the session cache, `always` to the permissions, anything else is read
/// as a pattern and kept with the permissions when `persist` (a
/// permissions file is in use), else for the session.
pub fn remember(
    decision: &Decision,
    name: &str,
    session: &mut Session,
    perms: &mut Permissions,
    persist: bool,
) -> Result<Remembered, BadPattern> {
    let Some(how) = decision.remember.as_deref().map(str::trim) else {
        return Ok(Remembered::No);
    };
    let push = |v: &mut Vec<String>| {
        if !v.iter().any(|t| t == name) {
            v.push(name.to_string());
        }
    };
    match (how, decision.approved) {
        ("" | "no" | "once", _) => Ok(Remembered::No),
        ("session", true) => {
            push(&mut session.allowed);
            Ok(Remembered::Session)
        }
        ("session", false) => {
            push(&mut session.denied);
            Ok(Remembered::Session)
        }
        ("always", ok) if persist => {
            push(if ok {
                &mut perms.always_allow
            } else {
                &mut perms.always_deny
            });
            Ok(Remembered::Permissions)
        }
        ("always", true) => {
            push(&mut session.allowed);
            Ok(Remembered::Session)
        }
        ("always", false) => {
            push(&mut session.denied);
            Ok(Remembered::Session)
        }
        (pattern, ok) => {
            let p = Pattern::parse(pattern)?;
            if persist {
                if ok {
                    perms.allowed_patterns.push(p);
                } else {
                    perms.denied_patterns.push(p);
                }
                Ok(Remembered::Permissions)
            } else if ok {
                session.allowed_patterns.push(p);
                Ok(Remembered::Session)
            } else {
                Err(BadPattern(
                    "a denied pattern is remembered only with --permissions FILE".into(),
                ))
            }
        }
    }
}
