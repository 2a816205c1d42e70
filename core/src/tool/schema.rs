//! A compiled JSON Schema, opaque: the validator behind it (the `jsonschema`
//! crate) is the `validate` feature's and appears in no public signature.
//!
//! Without the feature nothing is compiled and every value satisfies every
//! schema: calls are still checked for their name, a known tool and the
//! shape of their arguments, not against the tool's schema, and
//! `x-toolcall.risk_when` rules never apply.

use serde_json::Value;

/// How deeply a schema's JSON may nest (objects and arrays) by default:
/// real tool schemas nest a few levels, a dozen or two at most.
pub(crate) const MAX_SCHEMA_DEPTH: usize = 256;

/// The largest nesting a caller may allow a schema (`--max-schema-depth`):
/// the validator compiles recursively, so past this the stack is at risk.
pub(crate) const SCHEMA_DEPTH_CEILING: usize = 1024;

/// The nesting depth of `v` (a scalar is 0), without recursion.
#[cfg(feature = "validate")]
fn depth(v: &Value) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(v, 0usize)];
    while let Some((v, d)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match v {
            Value::Array(a) => Box::new(a.iter()),
            Value::Object(o) => Box::new(o.values()),
            _ => continue,
        };
        deepest = deepest.max(d + 1);
        stack.extend(children.map(|c| (c, d + 1)));
    }
    deepest
}

/// How many times a schema may have one value checked, at most, through
/// its combinators (`anyOf`, `oneOf`, `allOf`, `not`, `if`, `$ref`, …)
/// along any path into the value, by default.
pub(crate) const MAX_SCHEMA_FANOUT: u64 = 100_000;

/// The most checks per value a caller may allow (`--max-schema-checks`).
pub(crate) const SCHEMA_CHECKS_CEILING: u64 = 100_000_000;

/// How deep into a value the fan-out is followed (deeper arguments are
/// repaired only with `--max-depth` raised).
#[cfg(feature = "validate")]
const FANOUT_DEPTH: usize = 64;

/// The most checks `root` makes on one node of a value, along the worst
/// path of at most [`FANOUT_DEPTH`] levels, saturating at `most` + 1. The validator has no memo: two `anyOf`
/// branches that both `$ref` the next of 40 definitions check a value
/// 2^40 times (a tools file that hangs `validate` forever), and two
/// branches with the same `properties` recursion double per level of the
/// arguments. The count follows only keywords that can apply to one kind
/// of value at once (`items` for arrays, `properties` for objects), so a
/// recursive "any JSON" schema is linear, as it is for the validator.
#[cfg(feature = "validate")]
pub(crate) fn fanout(root: &Value, most: u64) -> u64 {
    let mut f = Fanout {
        root,
        over: most.saturating_add(1),
        memo: std::collections::HashMap::new(),
        busy: std::collections::HashSet::new(),
        frames: 0,
    };
    (0..=FANOUT_DEPTH).map(|d| f.at(root, d)).max().unwrap_or(0)
}

#[cfg(feature = "validate")]
struct Fanout<'a> {
    root: &'a Value,
    over: u64,
    memo: std::collections::HashMap<(usize, usize, bool), u64>,
    busy: std::collections::HashSet<(usize, usize, bool)>,
    frames: usize,
}

#[cfg(feature = "validate")]
impl<'a> Fanout<'a> {
    /// Checks landing `d` levels into a value checked against `s`: the
    /// worse of an object and an array there.
    fn at(&mut self, s: &'a Value, d: usize) -> u64 {
        self.kind(s, d, true).max(self.kind(s, d, false))
    }

    /// [`Fanout::at`] for one kind of value at each level (`object`).
    fn kind(&mut self, s: &'a Value, d: usize, object: bool) -> u64 {
        let Value::Object(o) = s else {
            return u64::from(d == 0);
        };
        let key = (s as *const Value as usize, d, object);
        if let Some(&n) = self.memo.get(&key) {
            return n;
        }
        // a cycle that checks the same value again without going deeper
        // never ends; a chain this long is no real schema either
        if !self.busy.insert(key) || self.frames > 4_096 {
            return self.over;
        }
        self.frames += 1;
        let mut n = u64::from(d == 0);
        let over = self.over;
        let add = |n: &mut u64, k: u64| *n = n.saturating_add(k).min(over);
        for (word, v) in o {
            match (word.as_str(), v) {
                ("allOf" | "anyOf" | "oneOf", Value::Array(a)) => {
                    for c in a {
                        let k = self.kind(c, d, object);
                        add(&mut n, k);
                    }
                }
                ("not" | "if" | "then" | "else", c) => {
                    let k = self.kind(c, d, object);
                    add(&mut n, k);
                }
                ("dependentSchemas" | "dependencies", Value::Object(m)) => {
                    for c in m.values() {
                        let k = self.kind(c, d, object);
                        add(&mut n, k);
                    }
                }
                ("$ref" | "$dynamicRef" | "$recursiveRef", Value::String(r)) => {
                    if let Some(c) = self.resolve(r) {
                        let k = self.kind(c, d, object);
                        add(&mut n, k);
                    }
                }
                _ => {}
            }
        }
        if d > 0 {
            let down = |f: &mut Self, c: &'a Value| f.at(c, d - 1);
            let mut k = 0u64;
            if object {
                let most = |f: &mut Self, m: &'a Value| match m {
                    Value::Object(m) => m.values().map(|c| down(f, c)).max().unwrap_or(0),
                    _ => 0,
                };
                k = k.saturating_add(o.get("properties").map_or(0, |m| most(self, m)));
                if let Some(Value::Object(m)) = o.get("patternProperties") {
                    for c in m.values() {
                        k = k.saturating_add(down(self, c));
                    }
                }
                for w in [
                    "additionalProperties",
                    "unevaluatedProperties",
                    "propertyNames",
                ] {
                    if let Some(c) = o.get(w) {
                        k = k.saturating_add(down(self, c));
                    }
                }
            } else {
                for w in ["items", "prefixItems"] {
                    match o.get(w) {
                        Some(Value::Array(a)) => {
                            let m = a.iter().map(|c| down(self, c)).max().unwrap_or(0);
                            k = k.saturating_add(m);
                        }
                        Some(c) => k = k.saturating_add(down(self, c)),
                        None => {}
                    }
                }
                for w in ["additionalItems", "contains", "unevaluatedItems"] {
                    if let Some(c) = o.get(w) {
                        k = k.saturating_add(down(self, c));
                    }
                }
            }
            add(&mut n, k);
        }
        self.frames -= 1;
        self.busy.remove(&key);
        self.memo.insert(key, n);
        n
    }

    /// The schema a local reference (`#`, `#/$defs/x`) names.
    fn resolve(&self, r: &str) -> Option<&'a Value> {
        let p = r.strip_prefix('#')?;
        if p.is_empty() {
            return Some(self.root);
        }
        self.root.pointer(p)
    }
}

/// One tool's parameters schema (or a `risk_when` rule's), compiled once.
pub struct Schema {
    #[cfg(feature = "validate")]
    inner: jsonschema::Validator,
}

impl Schema {
    /// Compiles `schema` (string formats are not checked), refusing one nested deeper than `max_depth` or
    /// whose combinators would check one value more than `max_checks`
    /// times; the error is the validator's message.
    pub(crate) fn compile_within(
        schema: &Value,
        max_depth: usize,
        max_checks: u64,
    ) -> Result<Schema, String> {
        #[cfg(feature = "validate")]
        {
            // the validator compiles a schema recursively, some stack frames
            // per level: a tools file nested thousands deep would overflow
            // the stack (an abort, no message) before any check ran
            if depth(schema) > max_depth {
                return Err(format!(
                    "schema nested deeper than {max_depth} levels (--max-schema-depth)"
                ));
            }
            if fanout(schema, max_checks) > max_checks {
                return Err(format!(
                    "its anyOf/oneOf/allOf/$ref branches would check one value more than {max_checks} times (--max-schema-checks)"
                ));
            }
            let inner = jsonschema::options()
                .should_validate_formats(false)
                .build(schema)
                .map_err(|e| e.to_string())?;
            Ok(Schema { inner })
        }
        #[cfg(not(feature = "validate"))]
        {
            let _ = (schema, max_depth, max_checks);
            Ok(Schema {})
        }
    }

    /// Whether `v` satisfies the schema (always, without the feature).
    pub(crate) fn is_valid(&self, v: &Value) -> bool {
        #[cfg(feature = "validate")]
        {
            self.inner.is_valid(v)
        }
        #[cfg(not(feature = "validate"))]
        {
            let _ = v;
            true
        }
    }

    /// Whether the schema is really checked: `false` without the feature,
    /// where [`Schema::is_valid`] accepts everything.
    pub(crate) const CHECKED: bool = cfg!(feature = "validate");

    /// The validator's errors for `v`.
    #[cfg(feature = "validate")]
    pub(crate) fn iter_errors<'a>(&'a self, v: &'a Value) -> jsonschema::ErrorIterator<'a> {
        self.inner.iter_errors(v)
    }
}
