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
//! * [`items`] reads what `validate` judges from model text, records and
//!   conversations, runs the transcript checks (TLP-009/010) and gives
//!   each item its verdict and diagnostic places;
//! * [`diag`] locates a problem in the input (line:column) and renders
//!   compiler-style diagnostics;
//! * [`retry`] builds retry prompts and reads the model's reply (running
//!   the model command is the program's: the CLI crate does it);
//! * [`config`] checks the `.toolcall.json5` configuration file's text;
//! * [`messages`] reads conversations written as JSON message lists and
//!   lints them (TLP-009 to TLP-014);
//! * [`session`] splits a per-event session log into sessions as it is
//!   read, one at a time;
//! * [`shapes`] finds the conversations of datasets and agent logs in
//!   every common shape (one table) and reads them with [`messages`].
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
pub mod convert;
pub mod diag;
pub mod items;
pub mod messages;
pub mod records;
pub mod registry;
pub mod retry;
pub mod session;
pub mod shapes;
pub mod turns;
pub mod typing;

pub(crate) use crate::tool::Schema;
pub use crate::tool::{BadRisk, Risk};
pub use check::{Issue, Verdict};

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
