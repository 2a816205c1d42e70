//! A tool as a tools file declares it, normalised: its name, description,
//! parameters schema (compiled once), registry metadata and risk level.
//!
//! Read by the prompt renderings (`render::tools`), the checks
//! (`validate`) and the agent's policy; loaded from a tools file by
//! `validate::registry`, which re-exports [`Tool`] and [`ToolMeta`] (and
//! `validate` [`Risk`]) under their public paths.

mod schema;

pub(crate) use schema::{
    Schema, MAX_SCHEMA_DEPTH, MAX_SCHEMA_FANOUT, SCHEMA_CHECKS_CEILING, SCHEMA_DEPTH_CEILING,
};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
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

/// Registry metadata from a tool's `x-toolcall` object (and MCP annotations).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToolMeta {
    /// Display name.
    pub display_name: Option<String>,
    /// Risk level.
    pub risk: Option<Risk>,
    /// Summary template, e.g. `Read file {path}`.
    pub summary: Option<String>,
    /// Overrides whether calls need approval.
    pub requires_approval: Option<bool>,
}

/// One tool, normalised.
pub struct Tool {
    /// The function name calls use.
    pub name: String,
    /// Its description.
    pub description: Option<String>,
    /// Its parameters schema as written (`{"type":"object"}` when absent).
    pub parameters: Value,
    /// OpenAI's `strict: true` (structured outputs) was set.
    pub openai_strict: bool,
    /// Registry metadata.
    pub meta: ToolMeta,
    /// The `x-toolcall` object as written (empty when the tool has none),
    /// for the keys other parts read (`exec`, `timeout_s`, `category`).
    pub extension: Map<String, Value>,
    /// `x-toolcall.risk_when`: each rule's compiled schema and its risk.
    pub(crate) risk_when: Vec<(Schema, Risk)>,
    /// The compiled schema (with strict mode applied when it is on).
    pub(crate) validator: Schema,
}

impl fmt::Debug for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tool")
            .field("name", &self.name)
            .field("parameters", &self.parameters)
            .field("meta", &self.meta)
            .finish_non_exhaustive()
    }
}
