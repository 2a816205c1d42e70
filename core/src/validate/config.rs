//! The JSON5 configuration file (`--config FILE`, else `.toolcall.json5`
//! found upward from the current directory). Flags override it.
//!
//! ```json5
//! {
//!   max_retries: 3,               // --max-retries
//!   enable_auto_repair: true,     // false = --no-repair
//!   repair_timeout_ms: 100,       // time budget of one repair
//!   strict_validation: true,      // false = --no-strict
//!   retry_prompt_template: "…",   // --retry-template (placeholders: see retry)
//!   allow_json_blocks: true,      // false = --no-json-blocks
//!   allow_inline_json: false,     // true = --inline-json
//!   unknown_tool_risk: "medium",  // --unknown-risk
//!   auto_approval_threshold: "safe", // --auto-approve
//!   max_buffer_size: 1048576,     // --max-block
//!   // exec and loop (docs/agent.md#settings)
//!   max_iterations: 10,           // --max-iterations
//!   max_parallel_tools: 3,        // --max-parallel
//!   tool_timeout_s: 120,          // --tool-timeout
//!   request_timeout_s: 600,       // --request-timeout
//!   iteration_delay_ms: 100,      // --delay
//!   result_cap_tokens: 4096,      // --result-cap (exec: --max-output, in bytes)
//!   retry_failed_tools: false,    // --retry-failed
//!   approval_timeout_s: 300,      // --approval-timeout
//!   retry_timeout_secs: 120,      // --retry-timeout
//!   retry_max_output: 16777216,   // --retry-max-output
//! }
//! ```
//!
//! Every number is range-checked when the file is read (see [`LIMITS`]): a
//! negative, fractional or out-of-range value is an error naming the key,
//! not a setting that makes every call fail.

use super::Risk;
use serde::Deserialize;
use std::fmt;
use std::path::{Path, PathBuf};

/// The file name looked for upward from the current directory.
pub const FILE_NAME: &str = ".toolcall.json5";

/// Settings from the configuration file; `None` where the file is silent.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    /// Retries per failing call.
    pub max_retries: Option<u32>,
    /// Repair broken argument JSON.
    pub enable_auto_repair: Option<bool>,
    /// Time budget of one repair, in milliseconds.
    pub repair_timeout_ms: Option<u64>,
    /// Strict validation (undeclared properties and unknown tools rejected).
    pub strict_validation: Option<bool>,
    /// The retry prompt template.
    pub retry_prompt_template: Option<String>,
    /// Treat call-shaped ```` ```json ```` fences as calls.
    pub allow_json_blocks: Option<bool>,
    /// Look for call-shaped JSON inline in prose.
    pub allow_inline_json: Option<bool>,
    /// Risk of tools the registry does not know.
    pub unknown_tool_risk: Option<Risk>,
    /// Calls whose risk is above this need approval.
    pub auto_approval_threshold: Option<Risk>,
    /// Largest candidate block held back, in bytes.
    pub max_buffer_size: Option<usize>,
    /// `loop`: most iterations.
    pub max_iterations: Option<u32>,
    /// `exec`: most tools running at once.
    pub max_parallel_tools: Option<u32>,
    /// Seconds a tool may run.
    pub tool_timeout_s: Option<u64>,
    /// `loop`: seconds the whole request may take.
    pub request_timeout_s: Option<u64>,
    /// `loop`: milliseconds between iterations.
    pub iteration_delay_ms: Option<u64>,
    /// Cap of a tool result, in tokens (4 bytes each).
    pub result_cap_tokens: Option<usize>,
    /// Run a failed tool once more.
    pub retry_failed_tools: Option<bool>,
    /// Seconds a person or approver has to answer.
    pub approval_timeout_s: Option<u64>,
    /// Seconds a retry command may run before its process group is killed.
    pub retry_timeout_secs: Option<u64>,
    /// Most bytes of a retry command's output read.
    pub retry_max_output: Option<u64>,
}

/// The numeric settings and their allowed ranges (inclusive), the same as
/// the flags they stand for.
pub const LIMITS: [(&str, u64, u64); 12] = [
    ("max_retries", 0, 100),
    ("repair_timeout_ms", 0, 3_600_000),
    ("max_buffer_size", 1, 1 << 32),
    ("retry_timeout_secs", 1, 86_400),
    ("retry_max_output", 1, 1 << 32),
    ("max_iterations", 1, 100),
    ("max_parallel_tools", 1, 10),
    ("tool_timeout_s", 5, 86_400),
    ("request_timeout_s", 5, 604_800),
    ("approval_timeout_s", 1, 86_400),
    ("iteration_delay_ms", 0, 3_600_000),
    ("result_cap_tokens", 100, 4 << 20),
];

/// A configuration file that could not be used.
#[derive(Debug)]
pub enum ConfigError {
    /// It could not be read.
    Io(PathBuf, std::io::Error),
    /// It holds an unknown or ill-typed setting.
    Invalid(PathBuf, TextError),
    /// It is not valid JSON5: the file, the 1-based line and column, and
    /// what was expected there.
    Syntax(PathBuf, usize, usize, String),
}

/// How deeply JSON5 text may nest before it is refused unread: the
/// `json5` crate reads recursively and a text nested some ten thousand
/// deep overflows the stack (an abort, no message). `serde_json` stops at
/// 128 too.
pub const MAX_JSON5_DEPTH: usize = 128;

/// The deepest nesting a caller may allow JSON5 text (`--max-json5-depth`):
/// the reader is recursive, so past this the stack is at risk.
pub const JSON5_DEPTH_CEILING: usize = 1024;

/// `json5::from_str` for a [`serde_json::Value`], refusing text nested
/// deeper than [`MAX_JSON5_DEPTH`] before the recursive reader sees it.
pub fn json5_value(text: &str) -> Result<serde_json::Value, json5::Error> {
    json5_value_within(text, MAX_JSON5_DEPTH)
}

/// [`json5_value`] refusing text nested deeper than `max_depth` (at most
/// [`JSON5_DEPTH_CEILING`]; a larger value counts as the ceiling).
pub fn json5_value_within(text: &str, max_depth: usize) -> Result<serde_json::Value, json5::Error> {
    let max_depth = max_depth.min(JSON5_DEPTH_CEILING);
    if let Some((line, column)) = too_deep(text.as_bytes(), max_depth) {
        return Err(json5::Error::Message {
            msg: format!("= nested deeper than {max_depth} levels (--max-json5-depth)"),
            location: Some(json5::Location { line, column }),
        });
    }
    json5::from_str(text)
}

/// Where (line, column) JSON5 text first nests deeper than `max` brackets,
/// strings and comments skipped; `None` when it never does.
fn too_deep(b: &[u8], max: usize) -> Option<(usize, usize)> {
    let (mut depth, mut i) = (0usize, 0usize);
    while i < b.len() {
        match b[i] {
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < b.len() && b[i] != q {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |k| i + k);
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = memchr::memmem::find(&b[i + 2..], b"*/").map_or(b.len(), |k| i + 2 + k + 1);
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    let line = 1 + memchr::memchr_iter(b'\n', &b[..i]).count();
                    let start = memchr::memrchr(b'\n', &b[..i]).map_or(0, |k| k + 1);
                    return Some((line, i - start + 1));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// A JSON5 syntax error as one line: the 1-based line and column (when
/// known) and the reason. The parser's own message spans several lines (an
/// arrow, the source line, a caret); only its reason is kept, so it reads
/// as `FILE:LINE:COL: reason` like a compiler's.
pub fn json5_error(e: &json5::Error) -> (Option<(usize, usize)>, String) {
    let json5::Error::Message { msg, location } = e;
    let reason = msg
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("= "))
        .or_else(|| msg.lines().map(str::trim).find(|l| !l.is_empty()))
        .unwrap_or("invalid JSON5")
        .to_string();
    (location.as_ref().map(|l| (l.line, l.column)), reason)
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Io(p, e) => write!(f, "reading config {}: {e}", p.display()),
            ConfigError::Invalid(p, m) => write!(f, "config {}: {m}", p.display()),
            ConfigError::Syntax(p, line, column, m) => {
                write!(f, "config {}:{line}:{column}: {m}", p.display())
            }
        }
    }
}

impl std::error::Error for ConfigError {}

/// Why the text of a configuration could not be used
/// ([`FileConfig::from_text`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextError {
    /// Not valid JSON5: the 1-based line and column (when known) and the
    /// reason.
    Syntax(Option<(usize, usize)>, String),
    /// A number outside its [`LIMITS`]: the key, the value as written, the
    /// smallest and the largest allowed.
    OutOfRange(&'static str, String, u64, u64),
    /// An unknown key or an ill-typed setting (the decoder's message).
    Invalid(String),
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextError::Syntax(Some((line, column)), reason) => {
                write!(f, "{line}:{column}: {reason}")
            }
            TextError::Syntax(None, reason) => f.write_str(reason),
            TextError::OutOfRange(key, v, min, max) => {
                write!(f, "{key}: {v} is not an integer from {min} to {max}")
            }
            TextError::Invalid(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for TextError {}

impl FileConfig {
    /// Drops the settings that widen what runs without a person's consent,
    /// for a file nobody named (found upward, which whoever can write a
    /// folder above the current one, or a tool allowed to write its own,
    /// could have planted): an auto-approval level above `safe`, an
    /// unknown-tool risk below `medium`, lenient validation, and running a
    /// failed (approved) call a second time. Returns each dropped key with
    /// its value as written. Settings that only narrow, bound or slow
    /// things (timeouts, limits, the retry template) are kept.
    pub fn drop_widening(&mut self) -> Vec<(&'static str, String)> {
        let mut dropped = Vec::new();
        if let Some(r) = self.auto_approval_threshold.filter(|&r| r > Risk::Safe) {
            self.auto_approval_threshold = None;
            dropped.push(("auto_approval_threshold", format!("\"{r}\"")));
        }
        if let Some(r) = self.unknown_tool_risk.filter(|&r| r < Risk::Medium) {
            self.unknown_tool_risk = None;
            dropped.push(("unknown_tool_risk", format!("\"{r}\"")));
        }
        if self.strict_validation == Some(false) {
            self.strict_validation = None;
            dropped.push(("strict_validation", "false".into()));
        }
        if self.retry_failed_tools == Some(true) {
            self.retry_failed_tools = None;
            dropped.push(("retry_failed_tools", "true".into()));
        }
        dropped
    }

    /// Checks the text of the configuration file at `path` (the path names
    /// the file in errors; reading it is the caller's business).
    pub fn from_file_text(path: &Path, text: &str) -> Result<FileConfig, ConfigError> {
        FileConfig::from_file_text_within(path, text, MAX_JSON5_DEPTH)
    }

    /// [`FileConfig::from_file_text`] refusing text nested deeper than
    /// `max_depth` levels.
    pub fn from_file_text_within(
        path: &Path,
        text: &str,
        max_depth: usize,
    ) -> Result<FileConfig, ConfigError> {
        if let Err(e) = json5_value_within(text, max_depth) {
            let (at, reason) = json5_error(&e);
            let (line, column) = at.unwrap_or((1, 1));
            if !text.trim().is_empty() {
                return Err(ConfigError::Syntax(
                    path.to_path_buf(),
                    line,
                    column,
                    reason,
                ));
            }
        }
        FileConfig::from_text(text).map_err(|m| ConfigError::Invalid(path.to_path_buf(), m))
    }

    /// Parses a configuration's text (JSON5).
    pub fn from_text(text: &str) -> Result<FileConfig, TextError> {
        if text.trim().is_empty() {
            return Ok(FileConfig::default());
        }
        let value: serde_json::Value = json5_value(text).map_err(|e| {
            let (at, reason) = json5_error(&e);
            TextError::Syntax(at, reason)
        })?;
        if let serde_json::Value::Object(m) = &value {
            for (key, min, max) in LIMITS {
                let Some(v) = m.get(key) else { continue };
                match v.as_u64() {
                    Some(n) if (min..=max).contains(&n) => {}
                    _ => return Err(TextError::OutOfRange(key, v.to_string(), min, max)),
                }
            }
        }
        serde_json::from_value(value).map_err(|e| TextError::Invalid(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_json5_and_refuses_unknown_keys() {
        let c = FileConfig::from_text(
            "{max_retries: 2, unknown_tool_risk: 'high', // comment\n strict_validation: false,}",
        )
        .expect("config");
        assert_eq!(c.max_retries, Some(2));
        assert_eq!(c.unknown_tool_risk, Some(Risk::High));
        assert_eq!(c.strict_validation, Some(false));
        assert!(FileConfig::from_text("{max_retry: 2}").is_err());
        assert!(FileConfig::from_text("{unknown_tool_risk: 'huge'}").is_err());
        for bad in ["-1", "0", "1.5", "1e99", "'8'", "4294967297"] {
            let e = FileConfig::from_text(&format!("{{max_buffer_size: {bad}}}"));
            assert!(e.is_err(), "{bad} accepted");
        }
        assert_eq!(
            FileConfig::from_text("{max_buffer_size: 4096}")
                .expect("config")
                .max_buffer_size,
            Some(4096)
        );
    }
}
