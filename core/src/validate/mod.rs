//! Validating tool calls against a registry of tools.
//!
//! The core of `toolcall validate` and of `--tools` on `parse` and `stream`:
//!
//! * [`registry`] loads a tools file in any common shape (OpenAI chat and
//!   Responses, Ollama, MCP `tools/list`, Anthropic, a plain `{name: schema}`
//!   map) into one normalised list, each tool's JSON Schema compiled once
//!   with the `jsonschema` crate (the default `validate` feature; without
//!   it, calls are checked for name, tool and argument shape, not against
//!   the schema, and `risk_when` rules never apply);
//! * [`check`] decides whether a call is valid and what its risk is;
//! * [`typing`] types the text values of XML-style formats by the schema;
//! * [`diag`] locates a problem in the input (line:column) and renders
//!   compiler-style diagnostics;
//! * [`retry`] builds retry prompts and reads the model's reply (running
//!   the model command is the program's: the CLI crate does it);
//! * [`config`] checks the `.toolcall.json5` configuration file's text;
//! * [`messages`] reads conversations written as JSON message lists and
//!   lints them (TLP-009 to TLP-014).
//!
//! Nothing here knows about clap, stdout or exit codes; failures are typed
//! errors ([`registry::RegistryError`], [`config::ConfigError`]). Nothing
//! here starts a process or touches a file.
//!
//! ```
//! use toolcall_core::validate::{registry::Registry, Policy};
//! let reg = Registry::from_text(
//!     r#"[{"name":"get_weather","input_schema":{"type":"object",
//!          "properties":{"city":{"type":"string"}},"required":["city"]}}]"#,
//!     true,
//! ).unwrap();
//! let args = serde_json::json!({"city": 3});
//! let v = reg.check("get_weather", &args, &Policy::default());
//! assert!(!v.valid);
//! assert_eq!(v.errors[0].code, "TLP-004");
//! assert_eq!(v.errors[0].path, "/city");
//! ```

pub mod check;
pub mod config;
pub mod diag;
pub mod messages;
pub mod registry;
pub mod retry;
mod schema;
pub mod typing;

pub use check::{Issue, Verdict};
pub(crate) use schema::Schema;

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How dangerous running a tool is, from `safe` to `critical`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Risk {
    /// No side effects worth asking about (reads public data).
    Safe,
    /// Reads local or private data.
    Low,
    /// Changes state that is easy to undo.
    Medium,
    /// Changes state that is hard to undo (writes, sends, pays).
    High,
    /// Irreversible or far-reaching (deletes, deploys, transfers money).
    Critical,
}

impl Risk {
    /// Every level, lowest first.
    pub const ALL: [Risk; 5] = [
        Risk::Safe,
        Risk::Low,
        Risk::Medium,
        Risk::High,
        Risk::Critical,
    ];

    /// The level's name as written in files and flags.
    pub fn as_str(self) -> &'static str {
        match self {
            Risk::Safe => "safe",
            Risk::Low => "low",
            Risk::Medium => "medium",
            Risk::High => "high",
            Risk::Critical => "critical",
        }
    }
}

impl fmt::Display for Risk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A risk level name that is not one of safe, low, medium, high, critical.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadRisk(pub String);

impl fmt::Display for BadRisk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown risk level '{}' (expected safe, low, medium, high or critical)",
            self.0
        )
    }
}

impl std::error::Error for BadRisk {}

impl FromStr for Risk {
    type Err = BadRisk;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Risk::ALL
            .into_iter()
            .find(|r| r.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| BadRisk(s.to_string()))
    }
}

/// How calls are judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Strict mode: properties a schema does not declare are errors, and so
    /// are calls to tools the registry does not know.
    pub strict: bool,
    /// The risk given to a tool the registry does not know.
    pub unknown_risk: Risk,
    /// Calls whose risk is above this level require approval.
    pub auto_approve: Risk,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            strict: true,
            unknown_risk: Risk::Medium,
            auto_approve: Risk::Safe,
        }
    }
}
