//! The whole-document entry of JSON repair: what `toolcall repair`, the
//! Node package's `repairJson` and `repair`, and the Python package's
//! `repair_json` and `repair` run, so that all read every document the same
//! way (the same leniencies, the same answer for a sentence of prose).
//!
//! [`repair`](super::repair) repairs a value inside a larger text (tool-call
//! arguments); a *document* is all the input there is, so two more
//! decisions belong to it: the leniencies of a standalone repairer (a key
//! with no value gets `null`, unquoted words become strings) and what a
//! document of prose with no JSON in it is ([`Prose`]).

use super::{is_valid_json, repair_bytes, repair_invalid, RepairError, RepairOptions, Repaired};

/// What a document that holds no JSON at all, only a sentence of prose
/// (`She said: no way`), is read as.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Prose {
    /// Hopeless (`TLP-003`, [`PROSE_MESSAGE`]): a sentence of
    /// three words or more (`PROSE_WORDS`) that is neither JSON nor broken JSON
    /// is not taken for a value. One or two bare tokens (`ES2020`, `0.0.1`,
    /// `hello world`) are a value that lost its quotes and stay a string.
    #[default]
    Refuse,
    /// One JSON string holding the text (`"She said: no way"`), as
    /// `jsonrepair` and `json_repair` read it.
    AsString,
}

/// Words from which a document with no JSON in it is prose, not a value.
pub const PROSE_WORDS: usize = 3;

/// The message of the error [`Prose::Refuse`] gives.
pub const PROSE_MESSAGE: &str = "no JSON value in the input, only text";

impl RepairOptions {
    /// A standalone repairer's reading with no limit on depth, size or
    /// time (`jsonrepair`'s and `json_repair`'s: they have none): a key with
    /// no value gets `null`, unquoted words where a value belongs become a
    /// string.
    pub const fn unbounded() -> RepairOptions {
        RepairOptions {
            max_depth: 10_000,
            max_input_bytes: usize::MAX,
            timeout_ms: 0,
            null_for_missing_values: true,
            unquoted_strings: true,
        }
    }
}

/// Repairs one whole document given as bytes (`toolcall repair`): as
/// [`repair_bytes`](super::repair_bytes), then a document of prose is read
/// as `prose` says.
pub fn repair_document(
    input: &[u8],
    opts: &RepairOptions,
    prose: Prose,
) -> Result<Repaired, RepairError> {
    let r = repair_bytes(input, opts)?;
    if prose == Prose::Refuse {
        if let Some(e) = bare_text(input, &r.output) {
            return Err(e);
        }
    }
    Ok(r)
}

/// [`repair_document`] on a string, with valid JSON checked once and not
/// copied: `Ok(None)` when `input` is valid JSON (it is its own repair),
/// else the repair.
pub fn repair_document_str(
    input: &str,
    opts: &RepairOptions,
    prose: Prose,
) -> Result<Option<Repaired>, RepairError> {
    if is_valid_json(input) {
        return Ok(None);
    }
    let r = repair_invalid(input, opts, true)?;
    if prose == Prose::Refuse {
        if let Some(e) = bare_text(input.as_bytes(), &r.output) {
            return Err(e);
        }
    }
    Ok(Some(r))
}

/// [`repair_document_str`] when only the text is wanted (the bindings'
/// `repairJson` and `repair_json`): `None` for valid JSON, else the
/// repaired text, the same bytes [`repair_document_str`] gives. A short
/// document is tried first by the fast path (`lean.rs`), one pass that
/// writes the output as it reads and hands anything it does not know to
/// the full repair.
pub fn repair_document_text(
    input: &str,
    opts: &RepairOptions,
    prose: Prose,
) -> Result<Option<String>, RepairError> {
    match super::lean::lean(input, opts) {
        super::lean::Lean::Valid => Ok(None),
        super::lean::Lean::Fixed(text) => Ok(Some(text)),
        super::lean::Lean::Bail => {
            repair_document_str(input, opts, prose).map(|r| r.map(|r| r.output))
        }
    }
}

/// The error for a document that holds no JSON: its repair is a bare
/// string that was not written as one (no quote opens it) and the input is
/// a sentence of [`PROSE_WORDS`] words or more, so it is prose, not JSON.
fn bare_text(doc: &[u8], output: &str) -> Option<RepairError> {
    let first = doc.iter().position(|b| !b.is_ascii_whitespace())?;
    let quoted = matches!(doc[first], b'"' | b'\'' | b'`')
        || doc[first..].starts_with("\u{201c}".as_bytes())
        || doc[first..].starts_with("\u{2018}".as_bytes());
    if quoted || !output.trim_start().starts_with('"') {
        return None;
    }
    let words = doc
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
        .take(PROSE_WORDS)
        .count();
    if words < PROSE_WORDS {
        return None;
    }
    let text = String::from_utf8_lossy(doc);
    Some(RepairError::at(
        super::CODE_HOPELESS,
        PROSE_MESSAGE,
        &text,
        first,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPTS: RepairOptions = RepairOptions::unbounded();

    #[test]
    fn prose_is_refused_or_a_string() {
        let e = repair_document(b"She said: no way", &OPTS, Prose::Refuse).unwrap_err();
        assert_eq!((e.code, e.message.as_str()), ("TLP-003", PROSE_MESSAGE));
        let r = repair_document(b"She said: no way", &OPTS, Prose::AsString).unwrap();
        assert_eq!(r.output, "\"She said: no way\"");
        let e = repair_document_str("foo 2 bar", &OPTS, Prose::Refuse).unwrap_err();
        assert_eq!(e.offset, 0);
    }

    #[test]
    fn bare_tokens_and_quoted_text_stay_strings() {
        for doc in ["ES2020", "hello world", "'a b c d'", "\"a b c"] {
            let r = repair_document(doc.as_bytes(), &OPTS, Prose::Refuse);
            assert!(r.is_ok(), "{doc}: {r:?}");
            let s = repair_document_str(doc, &OPTS, Prose::Refuse).unwrap();
            assert_eq!(s.map(|r| r.output), r.ok().map(|r| r.output));
        }
    }

    #[test]
    fn valid_json_is_not_copied() {
        assert!(repair_document_str("{\"a\": 1}", &OPTS, Prose::Refuse)
            .unwrap()
            .is_none());
        let r = repair_document(b"{\"a\": 1}", &OPTS, Prose::Refuse).unwrap();
        assert!(!r.changed);
    }
}
