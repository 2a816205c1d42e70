//! The records of `toolcall stream`, written from a reader's events: one
//! writer for the command, the Node package and the Python package, so a
//! record from any of them is the same bytes (docs/records.md: `text`,
//! `reasoning`, `markup`, `tool_call_start`, `tool_call`, `error`, `done`).
//!
//! [`StreamRecorder`] keeps what a record depends on besides its event: the
//! last `tool_call_start` whose call has not come (an `error` next is that
//! call's and carries its `index` and `id`) and the transcript turn the
//! records are in. Each record is written compact, without a newline, into
//! the caller's buffer; the caller frames it (a line, an array element).

use crate::ndjson::{write_call_start, write_text_record};
use crate::record::{ErrorRecord, Span, ToolCall, Turn};
use crate::scan::lossy;
use crate::wire::{InputKind, Summary, Usage};
use crate::Event;
use serde::Serialize;

/// The state that turns a reader's events into `toolcall stream` records.
#[derive(Debug, Default)]
pub struct StreamRecorder {
    /// The index of the last `tool_call_start` whose call has not come;
    /// its id is in `started_id`.
    started: Option<usize>,
    /// The id of that start (a string kept from call to call).
    started_id: String,
    turn: Option<Turn>,
    errors: usize,
}

/// An `error` record for a call whose `tool_call_start` was written: the
/// same fields, then that start's `index` and `id`.
#[derive(Serialize)]
struct StartedError<'a> {
    #[serde(flatten)]
    error: &'a ErrorRecord,
    index: usize,
    id: &'a str,
}

/// The `done` record that ends a stream.
#[derive(Serialize)]
struct Done<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    calls: usize,
    bytes: u64,
    // wire inputs only (absent for text)
    #[serde(skip_serializing_if = "Option::is_none")]
    input: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    text_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    finish_reason: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    usage: Option<&'a Usage>,
    #[serde(skip_serializing_if = "Option::is_none")]
    truncated: Option<bool>,
}

impl StreamRecorder {
    /// A recorder at the start of a stream.
    pub fn new() -> StreamRecorder {
        StreamRecorder::default()
    }

    /// `error` records written so far.
    pub fn errors(&self) -> usize {
        self.errors
    }

    /// Writes the record of one event into `out` (compact JSON, no
    /// newline) and returns true, or returns false for an event that is
    /// no record (a transcript turn header, which the records after it
    /// carry). A `tool_call` goes through `judge` first (the tools check,
    /// which adds its fields to the record).
    pub fn record(
        &mut self,
        ev: Event<'_>,
        judge: impl FnOnce(&mut ToolCall),
        out: &mut Vec<u8>,
    ) -> bool {
        self.record_keeping(ev, judge, out, &mut None)
    }

    /// [`StreamRecorder::record`], handing a `tool_call`'s record back in
    /// `spare` once it is written, for the engine to fill with the next
    /// call ([`crate::Sink::spare_call`]): a stream of calls then costs no
    /// allocation for their document names, ids and raw texts.
    pub fn record_keeping(
        &mut self,
        ev: Event<'_>,
        judge: impl FnOnce(&mut ToolCall),
        out: &mut Vec<u8>,
        spare: &mut Option<ToolCall>,
    ) -> bool {
        match ev {
            Event::Text { span, bytes } => self.text(out, "text", "text", bytes, span),
            Event::Reasoning { span, content } => {
                self.text(out, "reasoning", "text", content, span)
            }
            Event::Markup { span, bytes } => self.text(out, "markup", "raw", bytes, span),
            Event::ToolCallStart { index, id, name } => {
                self.started = Some(index);
                self.started_id.clear();
                self.started_id.push_str(id);
                write_call_start(out, index, id, name);
                Turn::append(self.turn, out);
            }
            Event::ToolCall(mut call) => {
                self.started = None;
                judge(&mut call);
                call.write_json(out);
                *spare = Some(call);
            }
            Event::Error(e) => {
                self.errors += 1;
                // plain data into a Vec: serde_json cannot fail here
                let _ = match self.started.take() {
                    Some(index) => serde_json::to_writer(
                        &mut *out,
                        &StartedError {
                            error: &e,
                            index,
                            id: &self.started_id,
                        },
                    ),
                    None => serde_json::to_writer(&mut *out, &e),
                };
            }
            Event::Turn(t) => {
                self.turn = Some(t);
                return false;
            }
        }
        true
    }

    fn text(&self, out: &mut Vec<u8>, kind: &str, field: &str, bytes: &[u8], span: Span) {
        write_text_record(out, kind, field, &lossy(bytes), span);
        Turn::append(self.turn, out);
    }
}

/// Writes the `done` record that ends a stream read into `summary`
/// (compact JSON, no newline): `calls` and `bytes`, and for a wire input
/// its `input`, `text_bytes`, `finish_reason`, `usage` and `truncated`.
pub fn write_done(summary: &Summary, out: &mut Vec<u8>) {
    let wire = summary.input != InputKind::Text;
    let done = Done {
        kind: "done",
        calls: summary.calls,
        bytes: summary.bytes,
        input: wire.then(|| summary.input.name()),
        text_bytes: wire.then_some(summary.text_bytes),
        finish_reason: summary.finish_reason.as_deref(),
        usage: summary.usage.as_ref(),
        truncated: wire.then_some(summary.truncated),
    };
    // plain data into a Vec: serde_json cannot fail here
    let _ = serde_json::to_writer(out, &done);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Reader, Sink};

    struct Lines(StreamRecorder, Vec<u8>);

    impl Sink for Lines {
        fn event(&mut self, ev: Event<'_>) {
            if self.0.record(ev, |_| {}, &mut self.1) {
                self.1.push(b'\n');
            }
        }
    }

    #[test]
    fn records_of_a_stream() {
        let opts = crate::Options::default()
            .resolve()
            .unwrap_or_else(|e| panic!("{e}"));
        let mut reader = Reader::new(&opts.streaming());
        let mut sink = Lines(StreamRecorder::new(), Vec::new());
        let text =
            "Hi <tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call><tool_call>{\"name\"";
        for b in text.as_bytes().chunks(3) {
            reader.feed(b, &mut sink);
        }
        reader.finish(&mut sink);
        write_done(&reader.summary(), &mut sink.1);
        let out = String::from_utf8(sink.1).unwrap_or_default();
        let types: Vec<String> = out
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap_or_default();
                v["type"].as_str().unwrap_or("?").to_string()
            })
            .collect();
        assert_eq!(types.first().map(String::as_str), Some("text"));
        assert!(types.contains(&"tool_call".to_string()), "{out}");
        assert_eq!(types.last().map(String::as_str), Some("done"), "{out}");
        assert_eq!(
            sink.0.errors(),
            types.iter().filter(|t| *t == "error").count()
        );
    }
}
