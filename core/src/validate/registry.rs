//! Tools files in every common shape, normalised to one list of [`Tool`]s.
//!
//! Accepted top-level shapes (JSON or JSON5):
//!
//! * an array of tool entries;
//! * an object with a `tools` (or legacy `functions`) array: an OpenAI or
//!   Ollama request body, an MCP `tools/list` result, or a whole JSON-RPC
//!   response (`{"result": {"tools": [...]}}`);
//! * one tool entry on its own;
//! * a plain map `{"tool_name": <JSON Schema>, ...}`.
//!
//! Accepted entries:
//!
//! * OpenAI chat / Ollama: `{"type":"function","function":{"name","description","parameters","strict"}}`;
//! * OpenAI Responses and the legacy `functions`: `{"type":"function","name","description","parameters","strict"}`;
//! * MCP: `{"name","description","inputSchema","annotations"}`;
//! * Anthropic: `{"name","description","input_schema"}`.
//!
//! # The `x-toolcall` extension object
//!
//! Registry metadata rides in an object named `x-toolcall`, placed on the
//! tool entry, on its inner `function` object, or at the root of its
//! parameters schema (the only place a plain `{name: schema}` map has):
//!
//! ```json5
//! "x-toolcall": {
//!   "display_name": "Read file",     // shown as tool_name (default: the name)
//!   "risk": "low",                   // safe | low | medium | high | critical
//!   "summary": "Read file {path}",   // {arg} / {arg.sub} take argument values
//!   "requires_approval": true,       // optional: overrides the risk threshold
//!   "risk_when": [                   // optional: risk that depends on the arguments;
//!     {"if": {"properties": {"path": {"pattern": "^/etc/"}}}, "risk": "critical"}
//!   ]                                // the first rule whose schema matches wins
//! }
//! ```
//!
//! All fields are optional. The object is registry metadata, never part of
//! the schema the model sees: it is removed from [`Tool::parameters`]. Its
//! other keys (`exec`, `timeout_s`, `category`, read by `toolcall exec`) are
//! kept as written in [`Tool::extension`]. Without a `risk`, MCP annotations give one
//! (`readOnlyHint: true` → safe, `destructiveHint: true` → high) and
//! otherwise the `--unknown-risk` level applies; MCP's `annotations.title`
//! is the default display name. Other `x-` keys are ignored, as JSON Schema
//! ignores unknown keywords.

use super::{Risk, Schema};
pub use crate::tool::{Tool, ToolMeta};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::fmt;

/// The name of the per-tool extension object.
pub const EXTENSION: &str = "x-toolcall";

/// A tools file that could not be used.
#[derive(Debug)]
pub enum RegistryError {
    /// The file could not be read.
    Io(std::path::PathBuf, std::io::Error),
    /// Neither JSON nor JSON5: the 1-based line and column where reading
    /// it as JSON5 stopped, and why.
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What was expected there.
        message: String,
    },
    /// The value has no recognisable tools shape.
    Shape(String),
    /// A tool's schema does not compile.
    Schema {
        /// The tool.
        tool: String,
        /// What the compiler said.
        message: String,
    },
}

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegistryError::Io(p, e) => write!(f, "reading tools file {}: {e}", p.display()),
            RegistryError::Syntax {
                line,
                column,
                message,
            } => write!(
                f,
                "{line}:{column}: tools file is neither JSON nor JSON5: {message}"
            ),
            RegistryError::Shape(m) => write!(f, "tools file: {m}"),
            RegistryError::Schema { tool, message } => {
                write!(f, "tools file: schema of '{tool}' is not valid: {message}")
            }
        }
    }
}

impl std::error::Error for RegistryError {}

/// Bounds on what a tools file may ask of the readers and the schema
/// validator (`--max-schema-depth`, `--max-schema-checks`,
/// `--max-json5-depth`). [`ToolsLimits::default`] holds the defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ToolsLimits {
    /// How deeply a tool's schema may nest (objects and arrays).
    pub schema_depth: usize,
    /// How many times a schema's combinators may check one value.
    pub schema_checks: u64,
    /// How deeply a tools file written in JSON5 may nest.
    pub json5_depth: usize,
}

impl Default for ToolsLimits {
    fn default() -> Self {
        ToolsLimits {
            schema_depth: crate::tool::MAX_SCHEMA_DEPTH,
            schema_checks: crate::tool::MAX_SCHEMA_FANOUT,
            json5_depth: super::config::MAX_JSON5_DEPTH,
        }
    }
}

impl ToolsLimits {
    /// The largest `schema_depth` allowed: 1024.
    pub const SCHEMA_DEPTH_MAX: usize = crate::tool::SCHEMA_DEPTH_CEILING;
    /// The largest `schema_checks` allowed: 100,000,000.
    pub const SCHEMA_CHECKS_MAX: u64 = crate::tool::SCHEMA_CHECKS_CEILING;
    /// The largest `json5_depth` allowed: 1024.
    pub const JSON5_DEPTH_MAX: usize = super::config::JSON5_DEPTH_CEILING;

    /// The limits, each checked against its range (1 to its `*_MAX`).
    pub fn checked(self) -> Result<ToolsLimits, crate::OptionError> {
        let check = |option: &'static str, value: u64, max: u64| {
            if (1..=max).contains(&value) {
                Ok(())
            } else {
                Err(crate::OptionError::OutOfRange {
                    option,
                    value,
                    min: 1,
                    max,
                })
            }
        };
        check(
            "max_schema_depth",
            self.schema_depth as u64,
            Self::SCHEMA_DEPTH_MAX as u64,
        )?;
        check(
            "max_schema_checks",
            self.schema_checks,
            Self::SCHEMA_CHECKS_MAX,
        )?;
        check(
            "max_json5_depth",
            self.json5_depth as u64,
            Self::JSON5_DEPTH_MAX as u64,
        )?;
        Ok(self)
    }

    /// The limits with `schema_depth`, `schema_checks` and `json5_depth`
    /// set, checked ([`ToolsLimits::checked`]).
    pub fn new(
        schema_depth: usize,
        schema_checks: u64,
        json5_depth: usize,
    ) -> Result<ToolsLimits, crate::OptionError> {
        ToolsLimits {
            schema_depth,
            schema_checks,
            json5_depth,
        }
        .checked()
    }
}

/// Default `max_tools_size` (`--max-tools-size`): 16 MiB. A real tools
/// definition is kilobytes (a large MCP server's, a few megabytes).
pub const DEFAULT_MAX_TOOLS_SIZE: u64 = 16 << 20;

/// How a tools definition is loaded and judged: the tools flags of the
/// command line under their option names (`strict`, `unknown_risk`,
/// `auto_approve`, `max_tools_size`, `max_schema_depth`,
/// `max_schema_checks`, `max_json5_depth`). The bindings' `Tools(...)`
/// pass their keyword arguments or options object through it (serde: a
/// missing field takes its default, an unknown one is an error), so the
/// names, defaults and messages are these, once.
///
/// ```
/// use toolcall_core::validate::registry::ToolsOptions;
/// let o: ToolsOptions = serde_json::from_str(r#"{"max_schema_depth": 2}"#).unwrap();
/// let deep = r#"{"f": {"type": "object", "properties": {"a": {"type": "object",
///     "properties": {"b": {"type": "object", "properties": {}}}}}}}"#;
/// let e = o.load(deep).unwrap_err();
/// assert!(e.to_string().contains("--max-schema-depth"), "{e}");
/// assert!(ToolsOptions::default().load(deep).is_ok());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct ToolsOptions {
    /// Strict validation (`--no-strict` turns it off): properties a schema
    /// does not declare are errors, and so are unknown tools.
    pub strict: bool,
    /// The risk of a tool the definition does not list (`--unknown-risk`).
    pub unknown_risk: String,
    /// Calls above this risk need approval (`--auto-approve`).
    pub auto_approve: String,
    /// Largest tools definition read, in bytes (`--max-tools-size`).
    pub max_tools_size: u64,
    /// How deeply a tool's schema may nest (`--max-schema-depth`).
    pub max_schema_depth: usize,
    /// How many times a schema's combinators may check one value
    /// (`--max-schema-checks`).
    pub max_schema_checks: u64,
    /// How deeply a definition written in JSON5 may nest
    /// (`--max-json5-depth`).
    pub max_json5_depth: usize,
}

impl Default for ToolsOptions {
    fn default() -> Self {
        let p = super::Policy::default();
        let l = ToolsLimits::default();
        ToolsOptions {
            strict: p.strict,
            unknown_risk: p.unknown_risk.as_str().to_string(),
            auto_approve: p.auto_approve.as_str().to_string(),
            max_tools_size: DEFAULT_MAX_TOOLS_SIZE,
            max_schema_depth: l.schema_depth,
            max_schema_checks: l.schema_checks,
            max_json5_depth: l.json5_depth,
        }
    }
}

/// Why [`ToolsOptions::load`] gave no registry.
#[derive(Debug)]
#[non_exhaustive]
pub enum ToolsLoadError {
    /// An option out of its range or a risk level that does not exist.
    Option(String),
    /// The definition is larger than `max_tools_size` bytes.
    TooLarge {
        /// The limit.
        max: u64,
    },
    /// The definition itself: not JSON or JSON5, no tools shape, or a
    /// schema that does not compile (past `max_schema_depth` or
    /// `max_schema_checks` among them).
    Tools(RegistryError),
}

impl fmt::Display for ToolsLoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolsLoadError::Option(m) => f.write_str(m),
            // the command's message after the file name (`read_limited`)
            ToolsLoadError::TooLarge { max } => write!(
                f,
                "larger than --max-tools-size ({max} bytes); not read (raise --max-tools-size)"
            ),
            ToolsLoadError::Tools(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ToolsLoadError {}

impl ToolsOptions {
    /// Reads the options from a JSON object, as
    /// [`Options::from_value`](crate::Options::from_value) does: a bad
    /// value or an unknown field is an
    /// [`OptionError::Invalid`](crate::OptionError::Invalid) naming the
    /// option.
    pub fn from_value(value: serde_json::Value) -> Result<ToolsOptions, crate::OptionError> {
        crate::door::read_options(value)
    }

    /// The policy calls are judged under: `strict` and the two risk
    /// levels, read.
    pub fn policy(&self) -> Result<super::Policy, ToolsLoadError> {
        let risk = |s: &str| {
            s.parse::<Risk>()
                .map_err(|e| ToolsLoadError::Option(e.to_string()))
        };
        Ok(super::Policy {
            strict: self.strict,
            unknown_risk: risk(&self.unknown_risk)?,
            auto_approve: risk(&self.auto_approve)?,
        })
    }

    /// The schema and JSON5 limits, each checked against its range.
    pub fn limits(&self) -> Result<ToolsLimits, ToolsLoadError> {
        ToolsLimits::new(
            self.max_schema_depth,
            self.max_schema_checks,
            self.max_json5_depth,
        )
        .map_err(|e| ToolsLoadError::Option(e.to_string()))
    }

    /// Loads a tools definition's text (JSON or JSON5, any shape `--tools`
    /// reads) under these options: the registry and the policy, as
    /// `--tools` with the same flags loads a file of that text.
    pub fn load(&self, text: &str) -> Result<(Registry, super::Policy), ToolsLoadError> {
        let policy = self.policy()?;
        let limits = self.limits()?;
        if text.len() as u64 > self.max_tools_size {
            return Err(ToolsLoadError::TooLarge {
                max: self.max_tools_size,
            });
        }
        let registry = Registry::from_text_within(text, policy.strict, &limits)
            .map_err(ToolsLoadError::Tools)?;
        Ok((registry, policy))
    }
}

/// The tools on offer.
#[derive(Debug, Default)]
pub struct Registry {
    tools: Vec<Tool>,
    by_name: HashMap<String, usize>,
    /// Problems worth a warning that do not stop validation (bad names,
    /// duplicates, strict-incompatible schemas, unsupported keywords).
    pub warnings: Vec<String>,
}

impl Registry {
    /// Reads a tools file's text (JSON or JSON5). `strict` compiles every
    /// schema so that properties it does not declare are rejected.
    pub fn from_text(text: &str, strict: bool) -> Result<Registry, RegistryError> {
        Registry::from_text_within(text, strict, &ToolsLimits::default())
    }

    /// [`Registry::from_text`] under `limits` instead of the defaults.
    pub fn from_text_within(
        text: &str,
        strict: bool,
        limits: &ToolsLimits,
    ) -> Result<Registry, RegistryError> {
        let value: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => {
                super::config::json5_value_within(text, limits.json5_depth).map_err(|e5| {
                    let (at, message) = super::config::json5_error(&e5);
                    let (line, column) = at.unwrap_or((e.line(), e.column()));
                    RegistryError::Syntax {
                        line,
                        column,
                        message,
                    }
                })?
            }
        };
        Registry::from_value_within(&value, strict, limits)
    }

    /// Builds a registry from a parsed tools value.
    pub fn from_value(value: &Value, strict: bool) -> Result<Registry, RegistryError> {
        Registry::from_value_within(value, strict, &ToolsLimits::default())
    }

    /// [`Registry::from_value`] under `limits` instead of the defaults.
    pub fn from_value_within(
        value: &Value,
        strict: bool,
        limits: &ToolsLimits,
    ) -> Result<Registry, RegistryError> {
        let mut reg = Registry::default();
        for (name, entry) in entries(value)? {
            let tool = normalise(name, entry, strict, limits, &mut reg.warnings)?;
            if reg.by_name.contains_key(&tool.name) {
                reg.warnings.push(format!(
                    "tool '{}' is defined twice; the first wins",
                    tool.name
                ));
                continue;
            }
            reg.by_name.insert(tool.name.clone(), reg.tools.len());
            reg.tools.push(tool);
        }
        Ok(reg)
    }

    /// The tool named `name`.
    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.by_name.get(name).map(|&i| &self.tools[i])
    }

    /// Every tool, in file order.
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// Number of tools.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// True when the registry holds no tool.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }
}

/// A tool entry and, for the `{name: schema}` map, its key.
type Entry<'a> = (Option<&'a str>, &'a Value);

fn entries(value: &Value) -> Result<Vec<Entry<'_>>, RegistryError> {
    match value {
        Value::Array(items) => Ok(items.iter().map(|v| (None, v)).collect()),
        Value::Object(obj) => {
            if let Some(Value::Object(result)) = obj.get("result") {
                if let Some(Value::Array(items)) = result.get("tools") {
                    return Ok(items.iter().map(|v| (None, v)).collect());
                }
            }
            for key in ["tools", "functions"] {
                if let Some(list) = obj.get(key) {
                    return match list {
                        Value::Array(items) => Ok(items.iter().map(|v| (None, v)).collect()),
                        _ => Err(RegistryError::Shape(format!("'{key}' is not an array"))),
                    };
                }
            }
            if is_entry(obj) {
                return Ok(vec![(None, value)]);
            }
            // a plain {name: schema} map
            let mut out = Vec::with_capacity(obj.len());
            for (k, v) in obj {
                if !v.is_object() {
                    return Err(RegistryError::Shape(format!(
                        "'{k}' is not a schema object (expected an array of tools, \
                         an object with 'tools', or a {{name: schema}} map)"
                    )));
                }
                out.push((Some(k.as_str()), v));
            }
            Ok(out)
        }
        _ => Err(RegistryError::Shape(
            "expected an array of tools, an object with 'tools', or a {name: schema} map".into(),
        )),
    }
}

fn is_entry(obj: &Map<String, Value>) -> bool {
    obj.get("function").is_some_and(Value::is_object)
        || (obj.get("name").is_some_and(Value::is_string)
            && ["parameters", "inputSchema", "input_schema", "description"]
                .iter()
                .any(|k| obj.contains_key(*k)))
}

fn normalise(
    key: Option<&str>,
    entry: &Value,
    strict: bool,
    limits: &ToolsLimits,
    warnings: &mut Vec<String>,
) -> Result<Tool, RegistryError> {
    let Value::Object(outer) = entry else {
        return Err(RegistryError::Shape(format!(
            "a tool entry is {}, not an object",
            crate::call::type_name(entry)
        )));
    };
    // The plain map: the value is the schema, unless it is itself an entry.
    let (inner, schema, name) = if let Some(k) = key.filter(|_| !is_entry(outer)) {
        (outer, Some(entry), k.to_string())
    } else {
        let inner = match outer.get("function") {
            Some(Value::Object(f)) => f,
            _ => outer,
        };
        let name = inner
            .get("name")
            .and_then(Value::as_str)
            .map(str::to_string)
            .or_else(|| key.map(str::to_string))
            .ok_or_else(|| RegistryError::Shape("a tool entry has no 'name'".into()))?;
        let schema = ["parameters", "inputSchema", "input_schema", "schema"]
            .iter()
            .find_map(|k| inner.get(*k).or_else(|| outer.get(*k)));
        (inner, schema, name)
    };
    if name.is_empty() {
        return Err(RegistryError::Shape(
            "a tool entry has an empty 'name'".into(),
        ));
    }
    if name.len() > 64
        || !name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        warnings.push(format!(
            "tool name '{name}' is not 1-64 letters, digits, '_' or '-' (OpenAI would refuse it)"
        ));
    }
    let parameters = match schema {
        None | Some(Value::Null) => serde_json::json!({"type": "object", "properties": {}}),
        Some(v @ Value::Object(_)) => v.clone(),
        Some(v @ Value::Bool(_)) => v.clone(),
        Some(other) => {
            return Err(RegistryError::Schema {
                tool: name,
                message: format!(
                    "parameters is {}, not a schema object",
                    crate::call::type_name(other)
                ),
            })
        }
    };
    let openai_strict = inner
        .get("strict")
        .or_else(|| outer.get("strict"))
        .and_then(Value::as_bool)
        .unwrap_or(false);
    if openai_strict {
        let mut why = Vec::new();
        strict_incompatible(&parameters, "", &mut why);
        for w in why {
            warnings.push(format!("tool '{name}': strict-incompatible schema: {w}"));
        }
    }
    let (meta, extension) = meta_of(outer, inner, &parameters, &name)?;
    let mut parameters = parameters;
    if let Value::Object(p) = &mut parameters {
        // registry metadata: never shown to the model (`render tools`)
        p.remove(EXTENSION);
    }
    type_aliases(&mut parameters, &name, warnings, 0);
    unsupported_keywords(&parameters, &name, warnings);
    let risk_when = risk_rules(&extension, &name, limits)?;
    let compiled = if strict {
        let mut s = parameters.clone();
        close_objects(&mut s);
        s
    } else {
        parameters.clone()
    };
    let validator = Schema::compile_within(&compiled, limits.schema_depth, limits.schema_checks)
        .map_err(|message| RegistryError::Schema {
            tool: name.clone(),
            message,
        })?;
    Ok(Tool {
        name,
        description: inner
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_string),
        parameters,
        openai_strict,
        meta,
        extension,
        risk_when,
        validator,
    })
}

/// Rewrites the type names that are not JSON Schema's but that tool
/// definitions in the wild use (`float`, `int`, `str`, `bool`, `dict`,
/// `list`, as Python spells them; vLLM's and SGLang's tests do) to the
/// JSON Schema name, with a warning each, instead of refusing the whole
/// tools file. Values (`default`, `examples`, `const`, `enum`) are left
/// alone; nesting beyond 64 levels is left as written.
fn type_aliases(schema: &mut Value, tool: &str, warnings: &mut Vec<String>, depth: usize) {
    fn standard(alias: &str) -> Option<&'static str> {
        Some(match alias {
            "float" | "double" => "number",
            "int" => "integer",
            "str" => "string",
            "bool" => "boolean",
            "dict" => "object",
            "list" => "array",
            _ => return None,
        })
    }
    if depth > 64 {
        return;
    }
    let rename = |t: &mut Value, warnings: &mut Vec<String>| {
        if let Some(std) = t.as_str().and_then(standard) {
            warnings.push(format!(
                "tool '{tool}': type '{}' is not JSON Schema's, read as '{std}'",
                t.as_str().unwrap_or_default()
            ));
            *t = Value::String(std.into());
        }
    };
    match schema {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                match key.as_str() {
                    "type" => match v {
                        Value::Array(ts) => ts.iter_mut().for_each(|t| rename(t, warnings)),
                        t => rename(t, warnings),
                    },
                    "default" | "examples" | "const" | "enum" => {}
                    _ => type_aliases(v, tool, warnings, depth + 1),
                }
            }
        }
        Value::Array(items) => {
            for v in items {
                type_aliases(v, tool, warnings, depth + 1);
            }
        }
        _ => {}
    }
}

/// Compiles `x-toolcall.risk_when`: a list of `{"if": SCHEMA, "risk": LEVEL}`.
fn risk_rules(
    ext: &Map<String, Value>,
    tool: &str,
    limits: &ToolsLimits,
) -> Result<Vec<(Schema, Risk)>, RegistryError> {
    let Some(rules) = ext.get("risk_when") else {
        return Ok(Vec::new());
    };
    let bad =
        |why: String| RegistryError::Shape(format!("tool '{tool}': {EXTENSION}.risk_when {why}"));
    let Value::Array(rules) = rules else {
        return Err(bad(
            "must be a list of {\"if\": schema, \"risk\": level}".into()
        ));
    };
    let mut out = Vec::with_capacity(rules.len());
    for (i, rule) in rules.iter().enumerate() {
        let (Some(schema), Some(Value::String(level))) = (rule.get("if"), rule.get("risk")) else {
            return Err(bad(format!(
                "[{i}] needs \"if\" (a schema) and \"risk\" (a level)"
            )));
        };
        let risk: Risk = level
            .parse()
            .map_err(|e: super::BadRisk| bad(format!("[{i}]: {e}")))?;
        let v = Schema::compile_within(schema, limits.schema_depth, limits.schema_checks)
            .map_err(|e| bad(format!("[{i}]: schema is not valid: {e}")))?;
        out.push((v, risk));
    }
    Ok(out)
}

impl Tool {
    /// The risk of a call with these arguments: the first `risk_when` rule
    /// whose schema the arguments satisfy, else `base`. String values that
    /// look like paths are also tried normalised (`//etc/passwd`,
    /// `/tmp/../etc/passwd` and ` /etc/passwd` are `/etc/passwd`), and the
    /// higher of the two risks is the call's.
    pub fn risk_for(&self, arguments: &Value, base: Risk) -> Risk {
        self.risk_for_in(arguments, base, None)
    }

    /// [`Tool::risk_for`], relative paths first resolved against `dir`
    /// (the tool's working directory): `../../etc/passwd` from
    /// `/home/me/proj` meets `^/etc/`.
    pub fn risk_for_in(&self, arguments: &Value, base: Risk, dir: Option<&str>) -> Risk {
        let of = |args: &Value| {
            self.risk_when
                .iter()
                .find(|(v, _)| Schema::CHECKED && v.is_valid(args))
                .map_or(base, |(_, r)| *r)
        };
        let raw = of(arguments);
        if self.risk_when.is_empty() {
            return raw;
        }
        let normal = crate::agent::approval::normalized_paths(arguments);
        let resolved = dir.and_then(|d| crate::agent::approval::resolved_paths(arguments, Some(d)));
        // as a tool may see them: cut at a NUL, blanks kept
        let seen = crate::agent::approval::seen_paths(arguments, dir);
        [normal, resolved, seen]
            .iter()
            .flatten()
            .fold(raw, |r, args| r.max(of(args)))
    }
}

fn meta_of(
    outer: &Map<String, Value>,
    inner: &Map<String, Value>,
    schema: &Value,
    tool: &str,
) -> Result<(ToolMeta, Map<String, Value>), RegistryError> {
    let mut meta = ToolMeta::default();
    if let Some(Value::Object(ann)) = outer
        .get("annotations")
        .or_else(|| inner.get("annotations"))
    {
        meta.display_name = ann.get("title").and_then(Value::as_str).map(str::to_string);
        if ann.get("readOnlyHint") == Some(&Value::Bool(true)) {
            meta.risk = Some(Risk::Safe);
        } else if ann.get("destructiveHint") == Some(&Value::Bool(true)) {
            meta.risk = Some(Risk::High);
        }
    }
    let ext = outer
        .get(EXTENSION)
        .or_else(|| inner.get(EXTENSION))
        .or_else(|| schema.get(EXTENSION));
    let Some(ext) = ext else {
        return Ok((meta, Map::new()));
    };
    let Value::Object(ext) = ext else {
        return Err(RegistryError::Shape(format!(
            "tool '{tool}': '{EXTENSION}' must be an object"
        )));
    };
    let bad = |field: &str, want: &str| {
        RegistryError::Shape(format!("tool '{tool}': {EXTENSION}.{field} must be {want}"))
    };
    for (k, v) in ext {
        match k.as_str() {
            "display_name" => {
                meta.display_name = Some(v.as_str().ok_or_else(|| bad(k, "a string"))?.to_string())
            }
            "risk" => {
                let s = v.as_str().ok_or_else(|| bad(k, "a string"))?;
                meta.risk = Some(s.parse().map_err(|e: super::BadRisk| {
                    RegistryError::Shape(format!("tool '{tool}': {e}"))
                })?);
            }
            "summary" => {
                meta.summary = Some(v.as_str().ok_or_else(|| bad(k, "a string"))?.to_string())
            }
            "requires_approval" => {
                meta.requires_approval = Some(v.as_bool().ok_or_else(|| bad(k, "true or false"))?)
            }
            _ => {}
        }
    }
    Ok((meta, ext.clone()))
}

/// Strict mode: every object schema that declares `properties` and says
/// nothing about `additionalProperties` gets `additionalProperties: false`.
/// Subschemas of `allOf` are left open (closing them would reject what the
/// siblings declare).
pub fn close_objects(schema: &mut Value) {
    let Value::Object(obj) = schema else {
        return;
    };
    if obj.contains_key("properties")
        && !obj.contains_key("additionalProperties")
        && !obj.contains_key("patternProperties")
        && !obj.contains_key("unevaluatedProperties")
        && !obj.contains_key("allOf")
    {
        obj.insert("additionalProperties".into(), Value::Bool(false));
    }
    for (k, v) in obj.iter_mut() {
        match k.as_str() {
            "properties" | "$defs" | "definitions" | "patternProperties" => {
                if let Value::Object(m) = v {
                    m.values_mut().for_each(close_objects);
                }
            }
            "items" | "additionalProperties" | "not" => close_objects(v),
            "anyOf" | "oneOf" | "prefixItems" => {
                if let Value::Array(a) = v {
                    a.iter_mut().for_each(close_objects);
                }
            }
            _ => {}
        }
    }
}

/// Why a schema marked `strict: true` would be refused by OpenAI's
/// structured outputs: an object without `additionalProperties: false`, or
/// a property not listed in `required`.
fn strict_incompatible(schema: &Value, at: &str, why: &mut Vec<String>) {
    let Value::Object(obj) = schema else {
        return;
    };
    if let Some(Value::Object(props)) = obj.get("properties") {
        let here = if at.is_empty() { "/" } else { at };
        if obj.get("additionalProperties") != Some(&Value::Bool(false)) {
            why.push(format!("{here}: additionalProperties must be false"));
        }
        let required: Vec<&str> = obj
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for (k, v) in props {
            if !required.contains(&k.as_str()) {
                why.push(format!("{here}: property '{k}' must be listed in required"));
            }
            strict_incompatible(v, &format!("{at}/{k}"), why);
        }
    }
    if let Some(items) = obj.get("items") {
        strict_incompatible(items, &format!("{at}/items"), why);
    }
    for key in ["anyOf", "$defs", "definitions"] {
        match obj.get(key) {
            Some(Value::Array(a)) => a.iter().for_each(|s| strict_incompatible(s, at, why)),
            Some(Value::Object(m)) => m.values().for_each(|s| strict_incompatible(s, at, why)),
            _ => {}
        }
    }
}

/// Keywords tool schemas use; anything else gets a warning (it is still
/// applied by the validator when JSON Schema defines it).
const KNOWN_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "enum",
    "const",
    "items",
    "anyOf",
    "oneOf",
    "allOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "pattern",
    "$ref",
    "$defs",
    "definitions",
    "description",
    "default",
    "title",
    "examples",
    "format",
    "$schema",
    "$id",
    "nullable",
    "uniqueItems",
    "multipleOf",
    "not",
    "patternProperties",
    "prefixItems",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "strict",
    "$comment",
];

fn unsupported_keywords(schema: &Value, tool: &str, warnings: &mut Vec<String>) {
    let Value::Object(obj) = schema else {
        return;
    };
    for (k, v) in obj {
        if !KNOWN_KEYWORDS.contains(&k.as_str()) && !k.starts_with("x-") {
            warnings.push(format!(
                "tool '{tool}': schema keyword '{k}' is not one tool schemas use"
            ));
        }
        match k.as_str() {
            "properties" | "$defs" | "definitions" | "patternProperties" => {
                if let Value::Object(m) = v {
                    m.values()
                        .for_each(|s| unsupported_keywords(s, tool, warnings));
                }
            }
            "items" | "additionalProperties" | "not" => unsupported_keywords(v, tool, warnings),
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                if let Value::Array(a) = v {
                    a.iter()
                        .for_each(|s| unsupported_keywords(s, tool, warnings));
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tools_limits_are_range_checked_and_applied() {
        assert!(ToolsLimits::default().checked().is_ok());
        assert!(ToolsLimits::new(0, 1, 1).is_err());
        assert!(ToolsLimits::new(1, 0, 1).is_err());
        assert!(ToolsLimits::new(1, 1, 1025).is_err());
        let text = r#"[{"name": "f", "parameters": {"type": "object",
            "properties": {"a": {"type": "array", "items": {"type": "string"}}}}}]"#;
        assert!(Registry::from_text(text, false).is_ok());
        let shallow = ToolsLimits::new(3, 100, 128).expect("in range");
        let e = Registry::from_text_within(text, false, &shallow).unwrap_err();
        assert!(e.to_string().contains("--max-schema-depth"), "{e}");
    }
}
