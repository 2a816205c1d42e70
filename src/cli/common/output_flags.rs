//! The flags that shape the output: records and the exit status,
//! buffering, grep's `-q`/`-m`/`-c`/`-l`, the record shape.

use clap::Args;

/// What records look like and what they mean for the exit status.
#[derive(Args, Debug, Clone)]
pub struct RecordArgs {
    /// Exit 2 when an `error` record was written (a call was found but
    /// broken), after every record.
    ///
    /// Without it the status only says whether a call was found (0) or not
    /// (1), so a reply whose only call is broken exits 1 like a reply with
    /// none. With it a CI job fails on broken calls; the count of error
    /// records is printed on stderr.
    #[arg(long)]
    pub fail_on_error: bool,

    /// Indent each record over several lines, for reading and reviewing
    /// golden files (the output is then a JSON stream, no longer NDJSON).
    #[arg(hide_short_help = true, long)]
    pub pretty: bool,

    /// Exit 0 when no call was found (instead of 1), so a golden-file loop
    /// under `set -eo pipefail` needs no `|| true`.
    ///
    /// A usage or I/O error still exits 2, and so does an error record with
    /// `--fail-on-error`; `-q` then only says whether the run worked.
    #[arg(long)]
    pub no_call_ok: bool,
}

impl RecordArgs {
    /// The run's outcome under `--no-call-ok`: "no call" becomes success.
    pub fn outcome(&self, outcome: super::Outcome) -> super::Outcome {
        match outcome {
            super::Outcome::NotFound if self.no_call_ok => super::Outcome::Found,
            other => other,
        }
    }

    /// At the end of a run: with `--fail-on-error` and `errors` > 0, says so
    /// on stderr and makes the exit status 2.
    pub fn finish(&self, errors: usize) {
        if self.fail_on_error && errors > 0 {
            super::report(&format!(
                "{errors} error record{} written (--fail-on-error)",
                if errors == 1 { "" } else { "s" }
            ));
            super::fail_later();
        }
    }
}

/// Output buffering flags.
#[derive(Args, Debug, Clone)]
pub struct BufferArgs {
    /// Flush after every record.
    #[arg(hide_short_help = true, long, conflicts_with = "block_buffered")]
    pub line_buffered: bool,
    /// Buffer output in blocks even on a terminal.
    #[arg(hide_short_help = true, long)]
    pub block_buffered: bool,
}

/// grep's habits: `-q`, `-m`, `-c`.
#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// No output; exit status only (0: a call was found).
    ///
    /// Stops at the first call, like `grep -q`: "did the model call a tool?"
    #[arg(short, long, conflicts_with = "count")]
    pub quiet: bool,

    /// Stop after N calls per document (`-m1`: the first call).
    ///
    /// A document read from a pipe is not read further once it has given N
    /// calls.
    #[arg(short = 'm', long, value_name = "N")]
    pub max_count: Option<usize>,

    /// Print only the number of calls per document (`NAME:COUNT` when there
    /// are several documents).
    #[arg(short, long)]
    pub count: bool,

    /// Print only the names of the documents with a call, one a line, as
    /// `grep -l` does (each document is read only up to its first call).
    #[arg(short = 'l', long, conflicts_with = "count")]
    pub files_with_calls: bool,

    /// With `-l`, end each name with a NUL byte instead of a newline (for
    /// `xargs -0`).
    #[arg(
        hide_short_help = true,
        short = '0',
        long,
        requires = "files_with_calls"
    )]
    pub null: bool,

    /// With `-c`, prefix every count with its document's name, even for a
    /// single document.
    #[arg(
        hide_short_help = true,
        short = 'H',
        long,
        conflicts_with = "no_filename"
    )]
    pub with_filename: bool,

    /// With `-c`, never prefix counts with the document's name.
    #[arg(hide_short_help = true, long)]
    pub no_filename: bool,
}

/// The shape of `tool_call` records.
#[derive(Args, Debug, Clone)]
pub struct ShapeArgs {
    /// Record shape: native (ours), openai or ollama.
    ///
    /// `openai` writes `{"id","type":"function","function":{"name",
    /// "arguments":"<json string>"}}` and `ollama` writes `{"function":
    /// {"name","arguments":{…}}}`, so records drop straight into the next
    /// request's `tool_calls`. A broken call is then written as those APIs
    /// write an error, never as a call: openai `{"error":{"message","type":
    /// "invalid_tool_call","code","doc","line","column"}}`, ollama
    /// `{"error":"CODE: MESSAGE (DOC:LINE:COLUMN)"}` (`jq 'select(.function)'`
    /// keeps only the calls).
    #[arg(long, value_name = "SHAPE", default_value = "native", value_parser = ["native", "openai", "ollama"])]
    pub shape: String,
}

impl ShapeArgs {
    /// A `tool_call` record in the chosen shape.
    pub fn shaped(&self, call: &crate::ToolCall) -> serde_json::Value {
        use serde_json::json;
        match self.shape.as_str() {
            "openai" => json!({
                "id": call.id,
                "type": "function",
                "function": {
                    "name": call.name,
                    "arguments": call.arguments.to_string(),
                },
            }),
            "ollama" => json!({
                "function": {"name": call.name, "arguments": call.arguments},
            }),
            _ => serde_json::to_value(call).unwrap_or(serde_json::Value::Null),
        }
    }

    /// An `error` record in the chosen shape (see `--shape`).
    pub fn shaped_error(&self, e: &crate::ErrorRecord) -> serde_json::Value {
        use serde_json::json;
        match self.shape.as_str() {
            "openai" => json!({
                "error": {
                    "message": e.message,
                    "type": "invalid_tool_call",
                    "code": e.code,
                    "doc": e.doc,
                    "line": e.line,
                    "column": e.column,
                },
            }),
            "ollama" => json!({
                "error": format!("{}: {} ({}:{}:{})", e.code, e.message, e.doc, e.line, e.column),
            }),
            _ => serde_json::to_value(e).unwrap_or(serde_json::Value::Null),
        }
    }
}
