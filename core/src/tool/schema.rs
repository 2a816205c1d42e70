//! A compiled JSON Schema, opaque: the validator behind it (the `jsonschema`
//! crate) is the `validate` feature's and appears in no public signature.
//!
//! Without the feature nothing is compiled and every value satisfies every
//! schema: calls are still checked for their name, a known tool and the
//! shape of their arguments, not against the tool's schema, and
//! `x-toolcall.risk_when` rules never apply.

use serde_json::Value;

/// How deeply a schema's JSON may nest (objects and arrays): real tool
/// schemas nest a few levels, a dozen or two at most.
pub(crate) const MAX_SCHEMA_DEPTH: usize = 256;

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

/// One tool's parameters schema (or a `risk_when` rule's), compiled once.
pub struct Schema {
    #[cfg(feature = "validate")]
    inner: jsonschema::Validator,
}

impl Schema {
    /// Compiles `schema` (string formats are not checked); the error is the
    /// validator's message.
    pub(crate) fn compile(schema: &Value) -> Result<Schema, String> {
        #[cfg(feature = "validate")]
        {
            // the validator compiles a schema recursively, some stack frames
            // per level: a tools file nested thousands deep would overflow
            // the stack (an abort, no message) before any check ran
            if depth(schema) > MAX_SCHEMA_DEPTH {
                return Err(format!(
                    "schema nested deeper than {MAX_SCHEMA_DEPTH} levels"
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
            let _ = schema;
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
