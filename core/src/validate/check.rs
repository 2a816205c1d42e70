//! Judging one call: name, known tool, arguments shape, schema, risk.

use super::registry::{Registry, Tool};
use super::{Policy, Risk};
#[cfg(feature = "validate")]
use jsonschema::error::{TypeKind, ValidationErrorKind};
use serde::Serialize;
use serde_json::{Map, Value};

/// One problem with a call (an element of `errors` in records).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Issue {
    /// A `TLP-00N` code.
    pub code: &'static str,
    /// Where in the arguments, as a JSON Pointer (`""` for the whole call).
    pub path: String,
    /// What is wrong, in one line.
    pub message: String,
    /// What the schema wants (e.g. `integer`, `one of ["c","f"]`).
    pub expected: String,
    /// What the call has (e.g. `string "three"`, `missing`).
    pub actual: String,
}

impl Issue {
    /// An issue about the whole call.
    pub fn call(code: &'static str, message: impl Into<String>) -> Issue {
        Issue {
            code,
            path: String::new(),
            message: message.into(),
            expected: String::new(),
            actual: String::new(),
        }
    }

    /// The issue in one line: `PATH: MESSAGE`, or the message alone for
    /// the whole call.
    pub fn summary(&self) -> String {
        if self.path.is_empty() {
            self.message.clone()
        } else {
            format!("{}: {}", self.path, self.message)
        }
    }
}

/// The judgement on one call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// No errors.
    pub valid: bool,
    /// The errors, in the validator's order.
    pub errors: Vec<Issue>,
    /// Not errors, but worth telling (an unknown tool in lenient mode).
    pub warnings: Vec<Issue>,
    /// The tool is in the registry.
    pub known: bool,
    /// Display name.
    pub tool_name: String,
    /// Risk level.
    pub risk: Risk,
    /// Risk above the auto-approval level, or the registry says so.
    pub requires_approval: bool,
    /// One-line summary of what the call does.
    pub summary: String,
}

impl Verdict {
    /// Writes `tool_name`, `risk`, `requires_approval`, `summary`, `valid`
    /// and `errors` into a record's extra fields.
    pub fn write_into(&self, extra: &mut Map<String, Value>) {
        extra.insert("tool_name".into(), Value::String(self.tool_name.clone()));
        extra.insert("risk".into(), Value::String(self.risk.as_str().into()));
        extra.insert(
            "requires_approval".into(),
            Value::Bool(self.requires_approval),
        );
        extra.insert("summary".into(), Value::String(self.summary.clone()));
        extra.insert("valid".into(), Value::Bool(self.valid));
        extra.insert(
            "errors".into(),
            serde_json::to_value(&self.errors).unwrap_or(Value::Array(Vec::new())),
        );
    }
}

impl Registry {
    /// Judges a call the engine found, as `parse --tools` does: the text
    /// values of an XML-style format are typed by the tool's schema first
    /// (JSON arguments keep the text they were read with), then the call
    /// is checked. Also returns whether typing changed the arguments.
    pub fn judge(&self, call: &mut crate::record::ToolCall, policy: &Policy) -> (Verdict, bool) {
        self.judge_in(call, policy, None)
    }

    /// [`Registry::judge`], relative paths in the arguments resolved
    /// against `dir` (the tool's working directory) for `risk_when`.
    pub fn judge_in(
        &self,
        call: &mut crate::record::ToolCall,
        policy: &Policy,
        dir: Option<&str>,
    ) -> (Verdict, bool) {
        let text_format = crate::formats::FormatId::from_id(call.format)
            .filter(|&f| super::typing::is_text_format(f));
        let mut typed = false;
        if let (Some(tool), Some(format)) = (self.get(&call.name), text_format) {
            if let Value::Object(args) = &mut *call.arguments {
                typed = super::typing::type_arguments_in(format, args, &tool.parameters, &call.raw);
            }
        }
        (
            self.check_in(&call.name, &call.arguments, policy, dir),
            typed,
        )
    }

    /// Judges a call to `name` with `arguments` under `policy`.
    pub fn check(&self, name: &str, arguments: &Value, policy: &Policy) -> Verdict {
        self.check_in(name, arguments, policy, None)
    }

    /// [`Registry::check`], relative paths in the arguments resolved
    /// against `dir` (the tool's working directory) for `risk_when`.
    pub fn check_in(
        &self,
        name: &str,
        arguments: &Value,
        policy: &Policy,
        dir: Option<&str>,
    ) -> Verdict {
        let mut errors = Vec::new();
        let mut warnings = Vec::new();
        let tool = self.get(name);
        if name.trim().is_empty() {
            errors.push(Issue::call("TLP-001", "function name is missing or empty"));
        } else if tool.is_none() {
            let issue = Issue {
                code: "TLP-005",
                path: String::new(),
                message: format!("unknown tool \"{name}\"{}", self.suggest(name)),
                expected: "a tool from the tools file".into(),
                actual: format!("\"{name}\""),
            };
            if policy.strict {
                errors.push(issue);
            } else {
                warnings.push(issue);
            }
        }
        if !arguments.is_object() {
            errors.push(Issue {
                code: "TLP-002",
                path: String::new(),
                message: format!(
                    "arguments must be an object, got {}",
                    crate::call::type_name(arguments)
                ),
                expected: "object".into(),
                actual: crate::call::type_name(arguments).into(),
            });
        } else if let Some(tool) = tool {
            schema_issues(tool, arguments, &mut errors);
        }
        let (tool_name, risk, summary, approval) = match tool {
            Some(t) => (
                t.meta
                    .display_name
                    .clone()
                    .unwrap_or_else(|| t.name.clone()),
                t.risk_for_in(arguments, t.meta.risk.unwrap_or(policy.unknown_risk), dir),
                summary(t.meta.summary.as_deref(), name, arguments),
                t.meta.requires_approval,
            ),
            None => (
                name.to_string(),
                policy.unknown_risk,
                summary(None, name, arguments),
                None,
            ),
        };
        Verdict {
            valid: errors.is_empty(),
            errors,
            warnings,
            known: tool.is_some(),
            tool_name,
            risk,
            requires_approval: approval.unwrap_or(risk > policy.auto_approve),
            summary,
        }
    }

    /// ` (did you mean "x"?)` for a close known name, else nothing.
    fn suggest(&self, name: &str) -> String {
        let lower = name.to_ascii_lowercase();
        self.tools()
            .iter()
            .map(|t| (edit_distance(&lower, &t.name.to_ascii_lowercase()), &t.name))
            .filter(|(d, _)| *d <= 2)
            .min()
            .map(|(_, n)| format!(" (did you mean \"{n}\"?)"))
            .unwrap_or_default()
    }
}

/// Levenshtein distance on bytes (names are short).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, &ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Validates `arguments` against the tool's compiled schema.
#[cfg(feature = "validate")]
fn schema_issues(tool: &Tool, arguments: &Value, out: &mut Vec<Issue>) {
    if tool.validator.is_valid(arguments) {
        return;
    }
    for e in tool.validator.iter_errors(arguments) {
        let path = e.instance_path().as_str().to_string();
        let instance = e.instance();
        match e.kind() {
            ValidationErrorKind::Type { kind } => {
                let expected = match kind {
                    TypeKind::Single(t) => t.to_string(),
                    TypeKind::Multiple(set) => set
                        .iter()
                        .map(|t| t.to_string())
                        .collect::<Vec<_>>()
                        .join(" or "),
                };
                out.push(mismatch(path, expected, instance));
            }
            ValidationErrorKind::Required { property } => {
                let prop = property
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| property.to_string());
                out.push(Issue {
                    code: "TLP-004",
                    message: format!("missing required property \"{prop}\""),
                    path: format!("{path}/{}", escape_pointer(&prop)),
                    expected: "present".into(),
                    actual: "missing".into(),
                });
            }
            ValidationErrorKind::AdditionalProperties { unexpected } => {
                for prop in unexpected {
                    let value = instance.get(prop.as_str()).unwrap_or(&Value::Null);
                    out.push(Issue {
                        code: "TLP-004",
                        message: format!(
                            "property \"{prop}\" is not declared in the schema{}",
                            tool_suggestion(tool, &path, prop)
                        ),
                        path: format!("{path}/{}", escape_pointer(prop)),
                        expected: "no undeclared properties".into(),
                        actual: describe(value),
                    });
                }
            }
            ValidationErrorKind::Enum { options } => {
                let expected = format!("one of {}", compact(options, 80));
                out.push(mismatch(path, expected, instance));
            }
            ValidationErrorKind::Constant { expected_value } => {
                let expected = compact(expected_value, 80);
                out.push(mismatch(path, expected, instance));
            }
            kind => {
                let expected = expected_of(kind);
                let actual = describe(instance);
                out.push(Issue {
                    code: "TLP-004",
                    message: if expected.is_empty() {
                        e.to_string()
                    } else {
                        format!("expected {expected}, got {actual}")
                    },
                    path,
                    expected,
                    actual,
                });
            }
        }
    }
}

/// Without the `validate` feature schemas are not compiled: nothing to
/// report.
#[cfg(not(feature = "validate"))]
fn schema_issues(tool: &Tool, arguments: &Value, _: &mut Vec<Issue>) {
    debug_assert!(tool.validator.is_valid(arguments));
}

/// ` (did you mean "x"?)` for an undeclared property close to a declared one.
#[cfg(feature = "validate")]
fn tool_suggestion(tool: &Tool, path: &str, prop: &str) -> String {
    if !path.is_empty() {
        return String::new();
    }
    let Some(Value::Object(props)) = tool.parameters.get("properties") else {
        return String::new();
    };
    props
        .keys()
        .map(|k| {
            (
                edit_distance(&prop.to_ascii_lowercase(), &k.to_ascii_lowercase()),
                k,
            )
        })
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, k)| format!(" (did you mean \"{k}\"?)"))
        .unwrap_or_default()
}

#[cfg(feature = "validate")]
fn expected_of(kind: &ValidationErrorKind) -> String {
    use ValidationErrorKind as K;
    match kind {
        K::Minimum { limit } => format!(">= {limit}"),
        K::Maximum { limit } => format!("<= {limit}"),
        K::ExclusiveMinimum { limit } => format!("> {limit}"),
        K::ExclusiveMaximum { limit } => format!("< {limit}"),
        K::MinLength { limit } => format!("at least {limit} characters"),
        K::MaxLength { limit } => format!("at most {limit} characters"),
        K::MinItems { limit } => format!("at least {limit} items"),
        K::MaxItems { limit } => format!("at most {limit} items"),
        K::MinProperties { limit } => format!("at least {limit} properties"),
        K::MaxProperties { limit } => format!("at most {limit} properties"),
        K::Pattern { pattern } => format!("a string matching /{pattern}/"),
        K::UniqueItems => "unique items".into(),
        K::FalseSchema => "nothing (the schema is false)".into(),
        _ => String::new(),
    }
}

/// `string "three"`, `integer 3`, `object {…}` — a value's type and a short
/// rendering of it.
pub fn describe(v: &Value) -> String {
    let ty = match v {
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        other => crate::call::type_name(other),
    };
    match v {
        Value::Null => "null".into(),
        _ => format!("{ty} {}", compact(v, 60)),
    }
}

/// Compact JSON, cut to about `max` bytes with an ellipsis.
pub fn compact(v: &Value, max: usize) -> String {
    let s = serde_json::to_string(v).unwrap_or_default();
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

#[cfg(feature = "validate")]
fn escape_pointer(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

/// Renders a summary: the template with `{arg}` / `{arg.sub}` replaced by
/// argument values (strings as they are, other values as compact JSON,
/// missing ones as `?`); without a template, `name(key=value, …)`.
pub fn summary(template: Option<&str>, name: &str, arguments: &Value) -> String {
    let Some(t) = template else {
        let mut s = format!("{name}(");
        if let Value::Object(m) = arguments {
            for (i, (k, v)) in m.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                s.push_str(k);
                s.push('=');
                s.push_str(&compact(v, 40));
            }
        }
        s.push(')');
        return s;
    };
    fill(t, |key| {
        let path = !key.is_empty()
            && key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'-');
        if !path {
            return None;
        }
        let mut v = Some(arguments);
        for part in key.split('.') {
            v = v.and_then(|x| x.get(part));
        }
        Some(match v {
            Some(Value::String(s)) => s.clone(),
            Some(other) => compact(other, 60),
            None => "?".to_string(),
        })
    })
}

/// `template` with each `{KEY}` for which `value` answers replaced by the
/// answer; any other `{` is copied as written.
pub(crate) fn fill(template: &str, mut value: impl FnMut(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after.find('}');
        match close.and_then(|c| Some((c, value(&after[..c])?))) {
            Some((c, v)) => {
                out.push_str(&v);
                rest = &after[c + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A TLP-004 issue: `instance` at `path` is not what the schema expects.
#[cfg(feature = "validate")]
fn mismatch(path: String, expected: String, instance: &Value) -> Issue {
    let actual = describe(instance);
    Issue {
        code: "TLP-004",
        message: format!("expected {expected}, got {actual}"),
        path,
        expected,
        actual,
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn reg(strict: bool) -> Registry {
        Registry::from_value(
            &json!({"book": {"type": "object", "properties": {
                "days": {"type": "integer", "minimum": 1},
                "unit": {"enum": ["c", "f"]}
            }, "required": ["days"], "x-toolcall": {"risk": "high", "summary": "Book {days} days"}}}),
            strict,
        )
        .expect("registry")
    }

    #[test]
    fn maps_errors_to_pointers() {
        let r = reg(true);
        let p = Policy::default();
        let v = r.check("book", &json!({"days": "three"}), &p);
        assert_eq!(v.errors[0].path, "/days");
        assert_eq!(
            v.errors[0].message,
            "expected integer, got string \"three\""
        );
        let v = r.check("book", &json!({}), &p);
        assert_eq!(v.errors[0].message, "missing required property \"days\"");
        let v = r.check("book", &json!({"days": 2, "dayz": 1}), &p);
        assert_eq!(v.errors[0].path, "/dayz");
        assert!(v.errors[0].message.contains("did you mean \"days\""));
        assert!(
            reg(false)
                .check("book", &json!({"days": 2, "dayz": 1}), &p)
                .valid
        );
        let v = r.check("book", &json!({"days": 0, "unit": "k"}), &p);
        assert_eq!(v.errors.len(), 2);
        assert!(v.requires_approval);
        assert_eq!(v.summary, "Book 0 days");
    }

    #[test]
    fn unknown_tools() {
        let r = reg(true);
        let v = r.check("bok", &json!({}), &Policy::default());
        assert_eq!(v.errors[0].code, "TLP-005");
        assert!(v.errors[0].message.contains("did you mean \"book\""));
        let lenient = Policy {
            strict: false,
            ..Policy::default()
        };
        let v = r.check("other", &json!({}), &lenient);
        assert!(v.valid);
        assert_eq!(v.warnings[0].code, "TLP-005");
        assert_eq!(v.risk, Risk::Medium);
        assert_eq!(r.check("", &json!({}), &lenient).errors[0].code, "TLP-001");
    }

    #[test]
    fn summaries() {
        let a = json!({"path": "/etc/hosts", "o": {"n": 1}});
        assert_eq!(
            summary(Some("Read {path} {o.n} {x} {"), "f", &a),
            "Read /etc/hosts 1 ? {"
        );
        assert_eq!(summary(None, "f", &json!({"a": 1})), "f(a=1)");
    }
}
