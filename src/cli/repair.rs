//! `toolcall repair`: read JSON that may be malformed, write it repaired.
//!
//! Options become a [`RepairOptions`]; each input (a file, standard input, or
//! with `--lines` each line of them) is one document given to
//! [`crate::repair_document`] (the core's whole-document entry); the result
//! is written as raw JSON or, with `--report`, as one `repair` record.
//! Without `--report` a UTF-8 document goes to
//! [`crate::repair_document_text`] instead (as the bindings' `repairJson`
//! and `repair_json` do): the same text, a short document written by the
//! fast path in one pass.

use super::sanitize;
use std::path::PathBuf;

use crate::cli::output::Output;
use crate::cli::Outcome;
use crate::{
    repair_document, repair_document_text, Prose, Repair, RepairError, RepairOptions, PROSE_MESSAGE,
};

const EXAMPLES: &str = "\
Examples:
  Repair what a model wrote:
    echo '{\"city\": \"Paris\",}' | toolcall repair
    {\"city\": \"Paris\"}

  See what was changed, as an NDJSON record:
    printf '{city: tru' | toolcall repair --report
    {\"type\":\"repair\",\"ok\":true,\"changed\":true,\"output\":\"{\\\"city\\\": true}\",\"repairs\":[
      {\"kind\":\"unquoted_key\",\"offset\":1},{\"kind\":\"truncated_literal\",\"offset\":7},
      {\"kind\":\"missing_close\",\"offset\":10}]}

  Repair one document per line, keeping line numbers aligned:
    toolcall repair --lines args.ndjson > fixed.ndjson

  Check a file without keeping the output (exit 0: valid or repaired):
    toolcall repair broken.json > /dev/null || echo hopeless";

/// Repair malformed JSON: print it fixed, or a report of what was fixed.
///
/// Reads one JSON document from each FILE (standard input by default) and
/// writes it repaired: trailing commas, missing closers, truncated strings,
/// numbers and literals, unescaped quotes and control characters, unquoted
/// keys, single and typographic quotes, Python literals, comments, code
/// fences and prose around the JSON, missing commas, concatenated values,
/// double-encoded JSON. Valid JSON is written back byte for byte. A hopeless
/// document writes nothing on standard output and one diagnostic on standard
/// error. Exit status: 0 when every document gave JSON, 1 when one was
/// hopeless, 2 on usage or I/O errors.
#[derive(clap::Args, Debug, Clone)]
#[command(after_long_help = EXAMPLES)]
pub struct RepairArgs {
    /// Files to repair (default: standard input; `-` is standard input).
    ///
    /// Each file is one document. Valid input is written exactly as it
    /// came; a repaired document ends with a newline, and so does every
    /// output when there are several files, so that documents stay apart.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Treat every input line as its own document.
    ///
    /// Writes one output line per input line, so line N of the output is
    /// the repair of line N of the input. A hopeless line gives an empty
    /// output line (and a diagnostic naming the line); blank lines stay
    /// blank and are not counted as documents. Use it for NDJSON files of
    /// tool-call arguments.
    #[arg(long)]
    pub lines: bool,

    /// Write a `repair` record per document instead of the JSON.
    ///
    /// One NDJSON object per document: {"type":"repair","ok":..,"changed":..,
    /// "output":"<the repaired JSON as a string, null on failure>",
    /// "repairs":[{"kind":"trailing_comma","offset":17},..]} and, on
    /// failure, "error":{"code","message","offset","line","column"}. Offsets
    /// are bytes into the document; line and column are 1-based. Nothing is
    /// written on standard error for a failed document.
    #[arg(long)]
    pub report: bool,

    /// Deepest nesting a repair may handle.
    ///
    /// A document that needs repair and is nested deeper fails with
    /// TLP-007. Valid JSON passes through at any depth, since writing it
    /// back needs no structure.
    #[arg(long, value_name = "N", default_value_t = 64,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=10_000))]
    pub max_depth: usize,

    /// Time budget per document in milliseconds (0: none).
    ///
    /// Repair is linear in the size of the input, so this budget is a last
    /// resort that ordinary inputs never reach. A document that exceeds it
    /// fails with TLP-007.
    #[arg(long, value_name = "MS", default_value_t = 100,
          value_parser = clap::value_parser!(u64).range(0..=MAX_TIMEOUT_MS))]
    pub timeout_ms: u64,

    /// Largest invalid document, in bytes, to repair (default: no limit).
    ///
    /// A larger document that needs repair fails with TLP-007; valid JSON
    /// of any size passes through unchanged. Repair is linear, so a file of
    /// any size is repaired in one pass.
    #[arg(long, value_name = "BYTES",
          value_parser = super::common::bytes_parser(super::common::MAX_HELD))]
    pub max_size: Option<usize>,

    /// Largest input read, in bytes [default: 256 MiB].
    ///
    /// A larger input (or an endless one, such as /dev/zero) is an error
    /// (exit 2) instead of an out-of-memory abort.
    #[arg(long, value_name = "BYTES", default_value_t = super::common::DEFAULT_MAX_INPUT,
          value_parser = super::common::input_size_parser(), hide_default_value = true)]
    pub max_input: u64,

    /// Read a document of prose with no JSON at all (`not json at all`) as
    /// one string, `"not json at all"`.
    ///
    /// Without it such a document is hopeless (TLP-003, exit 1): a sentence
    /// of three or more words that is neither JSON nor broken JSON is not
    /// taken for a value. One or two bare tokens (`ES2020`, `0.0.1`,
    /// `hello world`) are a value that lost its quotes and become a string
    /// either way, as are unquoted words inside an object or array
    /// (`{city: Paris}`).
    #[arg(long)]
    pub text_as_string: bool,
}

/// Largest `--timeout-ms`: one hour.
const MAX_TIMEOUT_MS: u64 = 3_600_000;

/// The `repair` record (docs/records.md#repair).
#[derive(serde::Serialize)]
struct Record<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    ok: bool,
    changed: bool,
    output: Option<&'a str>,
    repairs: &'a [Repair],
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a RepairError>,
}

/// Runs `toolcall repair`.
pub fn run(args: &RepairArgs, out: &mut Output) -> anyhow::Result<Outcome> {
    let opts = RepairOptions {
        max_depth: args.max_depth,
        max_input_bytes: args.max_size.unwrap_or(usize::MAX),
        timeout_ms: args.timeout_ms,
        null_for_missing_values: true,
        unquoted_strings: true,
    };
    let stdin_only = [PathBuf::from("-")];
    let files: &[PathBuf] = if args.files.is_empty() {
        &stdin_only
    } else {
        &args.files
    };
    let mut docs = 0usize;
    let mut failed = 0usize;
    for path in files {
        // an input that cannot be read is reported and the run goes on
        // with the next (exit 2 at the end), as parse does
        let (name, data) = match super::common::read_source(path, args.max_input) {
            Ok(r) => r,
            Err(e) => {
                super::report(&format!("{e:#}"));
                super::fail_later();
                continue;
            }
        };
        if args.lines {
            let mut lineno = 0usize;
            for line in split_lines(&data) {
                lineno += 1;
                if line.iter().all(|b| b.is_ascii_whitespace()) {
                    if !args.report {
                        out.raw(b"\n")?;
                    }
                    continue;
                }
                docs += 1;
                if !one(args, out, &opts, line, &name, Some(lineno))? {
                    failed += 1;
                }
            }
        } else {
            docs += 1;
            if !one(args, out, &opts, &data, &name, None)? {
                failed += 1;
            }
        }
    }
    out.flush()?;
    Ok(if docs > 0 && failed == 0 {
        Outcome::Found
    } else {
        Outcome::NotFound
    })
}

/// Repairs one document and writes its result; returns whether it gave JSON.
fn one(
    args: &RepairArgs,
    out: &mut Output,
    opts: &RepairOptions,
    doc: &[u8],
    name: &str,
    lineno: Option<usize>,
) -> anyhow::Result<bool> {
    let prose = if args.text_as_string {
        Prose::AsString
    } else {
        Prose::Refuse
    };
    if !args.report {
        if let Ok(text) = std::str::from_utf8(doc) {
            // only the text is wanted: the core's fast path for short
            // documents first (the same bytes and errors as the full repair)
            let result = repair_document_text(text, opts, prose).map(|r| match r {
                None => (std::borrow::Cow::Borrowed(text), false),
                Some(out) => {
                    let changed = out != text;
                    (std::borrow::Cow::Owned(out), changed)
                }
            });
            return write_text(args, out, result.map_err(with_hint), name, lineno);
        }
    }
    let result = repair_document(doc, opts, prose).map_err(with_hint);
    if args.report {
        let record = match &result {
            Ok(r) => Record {
                kind: "repair",
                ok: true,
                changed: r.changed,
                output: Some(&r.output),
                repairs: &r.repairs,
                error: None,
            },
            Err(e) => Record {
                kind: "repair",
                ok: false,
                changed: false,
                output: None,
                repairs: &[],
                error: Some(e),
            },
        };
        out.record(&record)?;
        return Ok(result.is_ok());
    }
    let result = result.map(|r| (std::borrow::Cow::Owned(r.output), r.changed));
    write_text(args, out, result, name, lineno)
}

/// `e` with the hint to `--text-as-string` when it refuses prose.
fn with_hint(mut e: RepairError) -> RepairError {
    if e.message == PROSE_MESSAGE {
        e.message
            .push_str(" (--text-as-string reads it as a string)");
    }
    e
}

/// Writes a document's repaired text (and whether it differs from the
/// input) as raw JSON, or its error to standard error; returns whether it
/// gave JSON.
fn write_text(
    args: &RepairArgs,
    out: &mut Output,
    result: Result<(std::borrow::Cow<'_, str>, bool), RepairError>,
    name: &str,
    lineno: Option<usize>,
) -> anyhow::Result<bool> {
    match result {
        Ok((output, changed)) => {
            out.raw(output.as_bytes())?;
            // valid input goes back byte for byte; what was repaired ends
            // with a newline, as a text file does
            let newline =
                lineno.is_some() || ((args.files.len() > 1 || changed) && !output.ends_with('\n'));
            if newline {
                out.raw(b"\n")?;
            }
            Ok(true)
        }
        Err(e) => {
            if lineno.is_some() {
                out.raw(b"\n")?;
            }
            out.flush()?;
            let (line, column) = match lineno {
                Some(n) => (n, e.column),
                None => (e.line, e.column),
            };
            let msg = format!(
                "toolcall: {}:{}:{}: error[{}]: {}\n",
                sanitize(name),
                line,
                column,
                e.code,
                sanitize(&e.message)
            );
            super::to_stderr(&msg);
            Ok(false)
        }
    }
}

/// Lines without their `\n` (a final line without newline counts; a final
/// newline does not start another line).
fn split_lines(data: &[u8]) -> impl Iterator<Item = &[u8]> {
    let body = data.strip_suffix(b"\n").unwrap_or(data);
    let empty = data.is_empty();
    body.split(|&b| b == b'\n').filter(move |_| !empty)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_like_a_text_file() {
        let v: Vec<&[u8]> = split_lines(b"a\nb\n").collect();
        assert_eq!(v, vec![&b"a"[..], &b"b"[..]]);
        let v: Vec<&[u8]> = split_lines(b"a\n\nb").collect();
        assert_eq!(v, vec![&b"a"[..], &b""[..], &b"b"[..]]);
        assert_eq!(split_lines(b"").count(), 0);
    }

    #[test]
    fn sanitize_strips_escapes() {
        assert_eq!(sanitize("a\u{1b}[31mb\n\r"), "a\\u{1b}[31mb\\n\\r");
    }
}
