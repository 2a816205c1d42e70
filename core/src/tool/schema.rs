//! A compiled JSON Schema, opaque: the validator behind it (the `jsonschema`
//! crate) is the `validate` feature's and appears in no public signature.
//!
//! Without the feature nothing is compiled and every value satisfies every
//! schema: calls are still checked for their name, a known tool and the
//! shape of their arguments, not against the tool's schema, and
//! `x-toolcall.risk_when` rules never apply.

use serde_json::Value;

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
