//! The loop's settings, their defaults and their limits
//! (docs/agent.md#settings).

use crate::validate::Risk;
use std::fmt;
use std::time::Duration;

/// The tool-use system prompt used when none is given: it asks the model to
/// confirm before destructive operations.
pub const DEFAULT_SYSTEM_PROMPT: &str = "You are a helpful assistant with access to tools. \
Use a tool when it helps to answer; otherwise answer directly. \
Before any destructive or irreversible operation (deleting, overwriting, sending, paying), \
ask the user to confirm first.";

/// Settings of `toolcall loop` (and the limits `toolcall exec` shares).
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Tools are offered to the model.
    pub tools_enabled: bool,
    /// Most iterations (one generation plus its tool runs), 1..=100.
    pub max_iterations: u32,
    /// Most calls run at once, 1..=10.
    pub max_parallel: u32,
    /// Longest a tool may run (at least 5 s).
    pub tool_timeout: Duration,
    /// Longest the whole request may take (at least the tool timeout).
    pub request_timeout: Duration,
    /// Pause between iterations (zero: none).
    pub iteration_delay: Duration,
    /// Tool results are kept in the history.
    pub keep_results: bool,
    /// Cap of a result fed back, in tokens (at least 100; 4 bytes a token).
    pub result_cap_tokens: usize,
    /// A failed tool is run once more.
    pub retry_failed: bool,
    /// The tool-use system prompt (not empty).
    pub system_prompt: String,
    /// Calls up to this risk run without asking.
    pub auto_approve: Risk,
    /// How long a person has to answer an approval request.
    pub approval_timeout: Duration,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            tools_enabled: true,
            max_iterations: 10,
            max_parallel: 3,
            tool_timeout: Duration::from_secs(120),
            request_timeout: Duration::from_secs(600),
            iteration_delay: Duration::from_millis(100),
            keep_results: true,
            result_cap_tokens: 4096,
            retry_failed: false,
            system_prompt: DEFAULT_SYSTEM_PROMPT.to_string(),
            auto_approve: Risk::Safe,
            approval_timeout: Duration::from_secs(300),
        }
    }
}

/// A setting out of its range, with the message to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsError(pub &'static str);

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for SettingsError {}

impl Settings {
    /// Checks every limit; the first one broken is the error.
    pub fn validate(&self) -> Result<(), SettingsError> {
        if self.max_iterations < 1 {
            return Err(SettingsError("max iterations must be at least 1"));
        }
        if self.max_iterations > 100 {
            return Err(SettingsError("max iterations should not exceed 100"));
        }
        if self.max_parallel < 1 {
            return Err(SettingsError("max parallel calls must be at least 1"));
        }
        if self.max_parallel > 10 {
            return Err(SettingsError("max parallel calls should not exceed 10"));
        }
        if self.tool_timeout < Duration::from_secs(5) {
            return Err(SettingsError("tool timeout must be at least 5 seconds"));
        }
        if self.request_timeout < self.tool_timeout {
            return Err(SettingsError("request timeout must be ≥ tool timeout"));
        }
        if self.result_cap_tokens < 100 {
            return Err(SettingsError("result cap must be at least 100 tokens"));
        }
        if self.system_prompt.trim().is_empty() {
            return Err(SettingsError("tool-use system prompt cannot be empty"));
        }
        Ok(())
    }

    /// The result cap in bytes.
    pub fn result_cap_bytes(&self) -> usize {
        self.result_cap_tokens
            .saturating_mul(crate::render::BYTES_PER_TOKEN)
    }
}
