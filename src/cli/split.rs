//! `toolcall split`: one `split` record per document.

use super::common::{
    for_each_document, BufferArgs, Document, EngineArgs, InputArgs, Reading, RecordArgs, WireArgs,
};
use super::output::{FlushPolicy, Kept, Output};
use super::Outcome;
use crate::Event;
use clap::Args;

/// Separate text, reasoning and calls, losslessly.
///
/// Writes one `split` record per document: `text_before`, `text_after`,
/// `text` (all prose), `reasoning`, `tool_calls`, `errors` and `segments`,
/// which cover the document exactly. Exit status 0 when a call was found.
///
/// Examples:
///
///   toolcall split reply.txt | jq -r .text
///
///   toolcall split --text reply.txt      # only the prose
///
///   toolcall split --tools tools.json reply.txt | jq '.tool_calls[].valid'
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct SplitArgs {
    /// Input selection.
    #[command(flatten)]
    pub input: InputArgs,
    /// Engine settings.
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Wire input settings.
    #[command(flatten)]
    pub wire: WireArgs,
    /// Output buffering.
    #[command(flatten)]
    pub buffer: BufferArgs,
    /// Error status, pretty printing.
    #[command(flatten)]
    pub records: RecordArgs,
    /// Print only the prose (calls, reasoning and markup removed).
    ///
    /// A document with no prose (reasoning and calls with only blank lines
    /// between them) prints nothing, and a note on stderr says what it
    /// held; the exit status still says whether a call was found.
    #[arg(long)]
    pub text: bool,
    /// Tools file, config, logging: with `--tools`, each call in
    /// `tool_calls` carries its validation fields, as in `parse`.
    #[command(flatten)]
    pub tools: super::tools::ToolsArgs,
}

/// Runs `split`.
pub fn run(args: &SplitArgs) -> anyhow::Result<Outcome> {
    args.wire.refuse_messages("split")?;
    let mut out = Output::stdout(FlushPolicy::choose(
        args.buffer.line_buffered,
        args.buffer.block_buffered,
        false,
    ));
    out.set_pretty(args.records.pretty);
    let mut outcome = Outcome::NotFound;
    let mut errors = 0usize;
    let tools = args.tools.load()?;
    let max_line = args.wire.max_buffer;
    // Nothing quotes the document unless a tools file enriches the calls
    // or the record is pretty-printed: it is then fed as it is read.
    let (reading, split): (Reading, SplitOne) = if args.text && tools.registry.is_none() {
        (Reading::Mapped, text_streamed)
    } else if !args.text && tools.registry.is_none() && !args.records.pretty {
        (Reading::Mapped, record_streamed)
    } else {
        (Reading::Whole, whole)
    };
    if args.input.jobs > 1 {
        // -j N: each document split on a worker thread into a buffer, its
        // records and messages written in input order
        let tools = &tools;
        super::common::run_documents(
            &args.input,
            reading,
            max_line,
            |doc, push| {
                let kept = Kept::default();
                let mut one = kept.output();
                one.set_pretty(args.records.pretty);
                let (result, stderr) = super::capture_stderr(|| {
                    let r = resolved(args, tools, &doc.name)
                        .and_then(|resolved| split(args, tools, &resolved, &mut one, doc));
                    r.and_then(|r| one.flush().map(|()| r).map_err(anyhow::Error::from))
                });
                push((kept.take(), stderr, result)).map(|_| ())
            },
            |(stdout, stderr, result): (Vec<u8>, Vec<u8>, anyhow::Result<(bool, usize)>)| {
                out.raw(&stdout)?;
                if !stderr.is_empty() {
                    out.flush()?;
                    super::to_stderr_bytes(&stderr);
                }
                let (found, errs) = result?;
                if found {
                    outcome = Outcome::Found;
                }
                errors += errs;
                Ok(super::common::Flow::More)
            },
        )?;
    } else {
        for_each_document(&args.input, reading, max_line, |doc| {
            let r = resolved(args, &tools, &doc.name)?;
            let (found, errs) = split(args, &tools, &r, &mut out, doc)?;
            if found {
                outcome = Outcome::Found;
            }
            errors += errs;
            Ok(())
        })?;
    }
    out.flush()?;
    args.records.finish(errors);
    Ok(outcome)
}

/// Splits one document and writes what `split` shows of it: whether it
/// had a call, and how many error records it gave.
/// `r`: the request for the document, resolved.
type SplitOne = fn(
    &SplitArgs,
    &super::tools::Tools,
    &crate::Resolved,
    &mut Output,
    Document,
) -> anyhow::Result<(bool, usize)>;

/// The request for a document, resolved by the core, with the tools
/// file's settings.
fn resolved(
    args: &SplitArgs,
    tools: &super::tools::Tools,
    doc: &str,
) -> anyhow::Result<crate::Resolved> {
    let mut r = args.engine.resolved(doc, &args.wire)?;
    r.config = tools.engine(r.config);
    Ok(r)
}

/// `--text` with nothing to quote the document: its text is written as it
/// is decided, so memory stays constant and a closed stdout stops the
/// reading.
fn text_streamed(
    _args: &SplitArgs,
    _tools: &super::tools::Tools,
    r: &crate::Resolved,
    out: &mut Output,
    doc: Document,
) -> anyhow::Result<(bool, usize)> {
    let name = doc.name.clone();
    let mut engine = crate::Reader::new(r);
    let mut sink = TextOut {
        out,
        failed: None,
        blank: Vec::new(),
        prose: false,
    };
    doc.feed(|chunk| {
        engine.feed(chunk, &mut sink);
        sink.failed.is_none()
    })?;
    if sink.failed.is_none() {
        engine.finish(&mut sink);
    }
    if sink.prose {
        let blank = std::mem::take(&mut sink.blank);
        sink.write(&blank);
    }
    if let Some(e) = sink.failed {
        return Err(e.into());
    }
    super::report_server_errors(&name, &engine.summary());
    if !sink.prose {
        no_prose(&name, engine.calls());
    }
    Ok((engine.calls() > 0, 0))
}

/// A `split` record with nothing to quote the document: it is written
/// piece by piece from what was kept (text, reasoning, calls, segments),
/// never built whole, so memory stays near the size of the text (issue
/// 36: 620 MB for 200 MB before).
fn record_streamed(
    args: &SplitArgs,
    _tools: &super::tools::Tools,
    r: &crate::Resolved,
    out: &mut Output,
    doc: Document,
) -> anyhow::Result<(bool, usize)> {
    let name = r.config.doc.clone();
    let mut engine = crate::Reader::new(r);
    let mut found = Parts::default();
    // what is kept grows with the document: --max-input bounds it
    // as it bounds a document read whole
    let max = args.input.max_input;
    let (mut read, mut over) = (0u64, false);
    doc.feed(|chunk| {
        read += chunk.len() as u64;
        if read > max {
            over = true;
            return false;
        }
        engine.feed(chunk, &mut found);
        true
    })?;
    if over {
        anyhow::bail!(
            "{name}: larger than --max-input ({max} bytes); not read (raise --max-input)"
        );
    }
    engine.finish(&mut found);
    super::report_server_errors(&name, &engine.summary());
    write_split(out, &name, &found)?;
    Ok((found.calls > 0, found.errors))
}

/// A document read whole: its calls enriched from the tools file, its
/// text or its `split` record written.
fn whole(
    args: &SplitArgs,
    tools: &super::tools::Tools,
    r: &crate::Resolved,
    out: &mut Output,
    doc: Document,
) -> anyhow::Result<(bool, usize)> {
    let name = r.config.doc.clone();
    let bytes = doc.into_bytes(args.input.max_input)?;
    let crate::Document {
        mut found, summary, ..
    } = crate::read(&bytes, r);
    super::report_server_errors(&name, &summary);
    let located = crate::validate::diag::Located::new(&bytes[..]);
    found
        .calls
        .iter_mut()
        .for_each(|c| tools.enrich(c, Some(&located)));
    let result = (!found.calls.is_empty(), found.errors.len());
    if args.text {
        if found.text.iter().all(u8::is_ascii_whitespace) {
            no_prose(&name, found.calls.len());
        } else {
            out.raw(&found.text)?;
        }
    } else {
        out.record(&found.into_split(&name))?;
    }
    Ok(result)
}

/// Bytes of text escaped at a time when a `split` record is written in
/// pieces.
const PIECE: usize = 64 << 10;

/// What a `split` record is made of, kept as the engine decides it: the
/// text and reasoning bytes, the tiling, and the calls and errors already
/// as their JSON (a few hundred bytes each, not a record struct apiece).
/// The same as `Collector::into_split` gives, serialized.
#[derive(Default)]
struct Parts {
    text: Vec<u8>,
    reasoning: Vec<u8>,
    /// Length of `text` before the first call (`None`: no call yet).
    text_before_len: Option<usize>,
    /// Length of `text` before the text that follows the last call.
    text_after_from: usize,
    segments: Vec<crate::Segment>,
    /// The `tool_calls` array's elements, comma-separated.
    calls_json: Vec<u8>,
    calls: usize,
    /// The `errors` array's elements, comma-separated.
    errors_json: Vec<u8>,
    errors: usize,
}

impl Parts {
    /// Adds a segment, merged with the last one when it is of the same
    /// kind and adjacent (calls are never merged), as `Collector` does.
    fn segment(&mut self, kind: crate::SegmentKind, span: crate::Span) {
        use crate::{Segment, SegmentKind};
        if span[0] == span[1] && kind != SegmentKind::ToolCall {
            return;
        }
        if kind != SegmentKind::ToolCall {
            if let Some(last) = self.segments.last_mut() {
                if last.kind == kind && last.span[1] == span[0] {
                    last.span[1] = span[1];
                    return;
                }
            }
        }
        self.segments.push(Segment { kind, span });
    }
}

impl crate::Sink for Parts {
    fn wants_starts(&self) -> bool {
        false
    }

    fn event(&mut self, ev: Event<'_>) {
        use crate::SegmentKind;
        match ev {
            Event::Text { span, bytes } => {
                self.segment(SegmentKind::Text, span);
                self.text.extend_from_slice(bytes);
            }
            Event::Reasoning { span, content } => {
                self.segment(SegmentKind::Reasoning, span);
                self.reasoning.extend_from_slice(content);
            }
            Event::Markup { span, .. } => self.segment(SegmentKind::Markup, span),
            Event::ToolCallStart { .. } | Event::Turn(_) => {}
            Event::ToolCall(call) => {
                if !call.in_reasoning {
                    // a call drafted in reasoning lies inside a reasoning segment
                    self.segment(SegmentKind::ToolCall, call.span);
                    self.text_before_len.get_or_insert(self.text.len());
                    self.text_after_from = self.text.len();
                }
                if self.calls > 0 {
                    self.calls_json.push(b',');
                }
                call.write_json(&mut self.calls_json);
                self.calls += 1;
            }
            Event::Error(e) => {
                if self.errors > 0 {
                    self.errors_json.push(b',');
                }
                // an error record always serializes (strings and numbers)
                let _ = serde_json::to_writer(&mut self.errors_json, &e);
                self.errors += 1;
            }
        }
    }
}

/// Writes the `split` record of `found` in pieces: the bytes
/// `Collector::into_split` serializes to, but no copy of the text is made,
/// and what is written goes out as it is made.
fn write_split(out: &mut Output, name: &str, found: &Parts) -> std::io::Result<()> {
    let mut tmp = Vec::with_capacity(PIECE + PIECE / 4);
    out.raw(b"{\"type\":\"split\",\"doc\":")?;
    serde_json::to_writer(&mut tmp, name).map_err(std::io::Error::from)?;
    out.raw(&tmp)?;
    let text = &found.text[..];
    let before = &text[..found.text_before_len.unwrap_or(text.len()).min(text.len())];
    // with no call, all text is "before" and none is "after"
    let after = match found.text_before_len {
        Some(_) => &text[found.text_after_from.min(text.len())..],
        None => &[][..],
    };
    for (key, bytes) in [
        ("text_before", before),
        ("text_after", after),
        ("text", text),
        ("reasoning", &found.reasoning[..]),
    ] {
        out.raw(b",\"")?;
        out.raw(key.as_bytes())?;
        out.raw(b"\":\"")?;
        string_body(out, &mut tmp, bytes)?;
        out.raw(b"\"")?;
    }
    out.raw(b",\"tool_calls\":[")?;
    out.raw(&found.calls_json)?;
    out.raw(b"],\"errors\":[")?;
    out.raw(&found.errors_json)?;
    out.raw(b"],\"segments\":[")?;
    array(out, &mut tmp, &found.segments)?;
    out.raw(b"]}\n")
}

/// Writes the JSON array elements of `items`, comma-separated, a piece at
/// a time.
fn array<T: serde::Serialize>(
    out: &mut Output,
    tmp: &mut Vec<u8>,
    items: &[T],
) -> std::io::Result<()> {
    tmp.clear();
    for (k, item) in items.iter().enumerate() {
        if k > 0 {
            tmp.push(b',');
        }
        serde_json::to_writer(&mut *tmp, item).map_err(std::io::Error::from)?;
        if tmp.len() >= PIECE {
            out.raw(tmp)?;
            tmp.clear();
        }
    }
    out.raw(tmp)
}

/// Writes `bytes` (lossy UTF-8) as the inside of a JSON string, escaped as
/// serde_json escapes it, [`PIECE`] bytes at a time. Pieces end before a
/// byte that starts a character (or after three continuation bytes), so
/// no character and no invalid sequence is cut in two.
fn string_body(out: &mut Output, tmp: &mut Vec<u8>, bytes: &[u8]) -> std::io::Result<()> {
    let mut at = 0;
    while at < bytes.len() {
        let mut end = (at + PIECE).min(bytes.len());
        let mut back = 0;
        while end < bytes.len() && back < 3 && end > at + 1 && (bytes[end] & 0xc0) == 0x80 {
            end -= 1;
            back += 1;
        }
        tmp.clear();
        let piece = crate::lossy(&bytes[at..end]);
        serde_json::to_writer(&mut *tmp, &*piece).map_err(std::io::Error::from)?;
        // without the quotes serde_json puts around it
        out.raw(&tmp[1..tmp.len() - 1])?;
        at = end;
    }
    Ok(())
}

/// `split --text` of a document with no prose (only blanks between its
/// reasoning and calls): nothing on stdout, a note on stderr saying what the
/// reply held instead.
fn no_prose(name: &str, calls: usize) {
    let what = match calls {
        0 => "no call either".to_string(),
        1 => "1 call (toolcall parse lists it)".to_string(),
        n => format!("{n} calls (toolcall parse lists them)"),
    };
    super::report(&format!("{name}: no prose, {what}"));
}

/// Writes the text events straight out (`split --text`); the first write
/// error is kept and ends the document. Blank text is held until prose
/// follows it (up to [`HELD_BLANKS`] bytes), so a reply of reasoning and
/// calls alone prints nothing rather than the blank lines between them.
struct TextOut<'a> {
    out: &'a mut Output,
    failed: Option<std::io::Error>,
    /// Blank bytes not written yet.
    blank: Vec<u8>,
    /// Prose (a byte that is not blank) was written.
    prose: bool,
}

/// Most blank bytes `split --text` holds back before writing them anyway.
const HELD_BLANKS: usize = 64 << 10;

impl TextOut<'_> {
    fn write(&mut self, bytes: &[u8]) {
        if self.failed.is_none() && !bytes.is_empty() {
            self.failed = self.out.raw(bytes).err();
        }
    }
}

impl crate::Sink for TextOut<'_> {
    fn wants_starts(&self) -> bool {
        false
    }

    /// Only text is written: calls are tallies, no record built (the
    /// engine finds the same calls, text and errors).
    fn wants_records(&self) -> bool {
        false
    }

    fn event(&mut self, ev: Event<'_>) {
        let Event::Text { bytes, .. } = ev else {
            return;
        };
        if !self.prose && bytes.iter().all(u8::is_ascii_whitespace) {
            self.blank.extend_from_slice(bytes);
            if self.blank.len() > HELD_BLANKS {
                self.prose = true;
                let blank = std::mem::take(&mut self.blank);
                self.write(&blank);
            }
            return;
        }
        self.prose = true;
        let blank = std::mem::take(&mut self.blank);
        self.write(&blank);
        self.write(bytes);
    }
}
