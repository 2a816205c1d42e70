//! `toolcall parse`: one `tool_call` record per call, `error` records for
//! candidates that could not be recovered.

use super::common::{
    run_documents, BufferArgs, Document, EngineArgs, Flow, InputArgs, MatchArgs, Reading,
    RecordArgs, ShapeArgs, WireArgs,
};
use super::output::{FlushPolicy, Output};
use super::Outcome;
use crate::wire;
use crate::Collector;
use clap::Args;

/// Find the tool calls in whole documents.
///
/// Writes one `tool_call` record per call found and an `error` record for
/// each candidate call that could not be recovered. Exit status 0 when at
/// least one call was found, 1 when none was.
///
/// Examples:
///
///   toolcall parse transcript.txt
///
///   ollama run qwen3 "weather in Paris?" | toolcall parse | jq .arguments
///
///   toolcall parse --format hermes fixtures/hermes/basic.txt
///
///   toolcall parse -q reply.txt && echo "the model called a tool"
///
///   toolcall parse -m1 --shape openai reply.txt     # the first call, OpenAI-shaped
///
///   toolcall parse -c -j4 transcripts/*.txt          # calls per file
///
///   toolcall parse --field .message.content chat.jsonl
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct ParseArgs {
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
    /// grep habits.
    #[command(flatten)]
    pub matching: MatchArgs,
    /// Record shape.
    #[command(flatten)]
    pub shape: ShapeArgs,
    /// Error status, pretty printing.
    #[command(flatten)]
    pub records: RecordArgs,
    /// Tools file, config, logging (tools.rs).
    #[command(flatten)]
    pub tools: super::tools::ToolsArgs,
}

/// What `parse` learns of one document at a time: its calls and errors so
/// far (a document read from a pipe gives them as they are found), and
/// whether the document has ended.
struct Batch {
    name: String,
    found: Collector,
    last: bool,
    /// What the document's reading said on stderr, held on a worker
    /// thread (`-j`) to be written in input order (empty otherwise).
    stderr: Vec<u8>,
}

/// One conversation the core read, its calls judged against the tools,
/// as a batch.
fn conversation_batch(mut doc: crate::Document, tools: &super::tools::Tools) -> Batch {
    for call in &mut doc.found.calls {
        tools.enrich(call, None);
    }
    Batch {
        name: doc.doc,
        found: doc.found,
        last: true,
        stderr: Vec::new(),
    }
}

/// `--input messages` on a document read whole: each of its
/// conversations ([`crate::conversations`]) as a batch, until `push` asks
/// to stop.
fn conversation_calls(
    name: &str,
    bytes: &[u8],
    r: &crate::Resolved,
    tools: &super::tools::Tools,
    push: &mut dyn FnMut(Batch) -> anyhow::Result<bool>,
) -> anyhow::Result<()> {
    let mut result = Ok(());
    crate::conversations(
        name,
        bytes,
        r,
        &mut |doc| match push(conversation_batch(doc, tools)) {
            Ok(more) => more,
            Err(e) => {
                result = Err(e);
                false
            }
        },
    );
    result
}

/// `--input messages` from a reader: a JSONL of conversations is read and
/// parsed a line at a time, so memory is bounded by the longest line
/// (`--max-buffer`: a longer one is a TLP-007 error and the next lines are
/// read); anything else (one conversation over several lines, a one-line
/// document) is read whole, up to `--max-input`, as before.
fn conversation_stream(
    name: &str,
    r: Box<dyn std::io::Read + Send>,
    resolved: &crate::Resolved,
    tools: &super::tools::Tools,
    args: &ParseArgs,
    push: &mut dyn FnMut(Batch) -> anyhow::Result<bool>,
) -> anyhow::Result<()> {
    use anyhow::Context;
    let max_line = args.wire.max_buffer;
    let mut r = std::io::BufReader::with_capacity(64 << 10, r);
    // the first non-blank line, without reading past --max-buffer
    let super::common::FirstLine {
        mut prefix,
        line,
        number,
        whole,
    } = super::common::first_line(&mut r, max_line, name)?;
    let first: Option<serde_json::Value> = if whole {
        serde_json::from_slice(line.trim_ascii()).ok()
    } else {
        None
    };
    if first
        .as_ref()
        .is_some_and(crate::validate::shapes::is_event)
    {
        // a session log: read a session at a time
        return session_stream(name, prefix, r, resolved, tools, args, push);
    }
    let mut next = Vec::new();
    let mut more = first.is_some();
    let mut next_number = number;
    // a second non-blank line makes it JSONL
    while more {
        more = super::common::read_line_limited(&mut r, &mut next, max_line)
            .with_context(|| format!("reading {name}"))?;
        prefix.extend_from_slice(&next[..next.len().min(max_line)]);
        next_number += 1;
        if !next.trim_ascii().is_empty() {
            break;
        }
    }
    if first.is_none() || !more {
        let all = std::io::Read::chain(std::io::Cursor::new(prefix), r);
        let bytes = super::common::read_limited(all, name, args.input.max_input, "--max-input")?;
        return conversation_calls(name, &bytes, resolved, tools, push);
    }
    drop(prefix);
    let one = |line: &[u8], number: usize| {
        let text = line.strip_suffix(b"\n").unwrap_or(line);
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        let doc = format!("{name}:{number}");
        if text.len() > max_line {
            let mut found = Collector::calls_only();
            let message =
                format!("line {number} is longer than --max-buffer ({max_line} bytes); skipped");
            found
                .errors
                .push(crate::ErrorRecord::whole(&doc, text, "TLP-007", message));
            return Batch {
                name: doc,
                found,
                last: true,
                stderr: Vec::new(),
            };
        }
        conversation_batch(crate::conversation(doc, text, resolved), tools)
    };
    if !push(one(&line, number))? {
        return Ok(());
    }
    let (mut line, mut number) = (next, next_number);
    loop {
        if !push(one(&line, number))? {
            return Ok(());
        }
        loop {
            let more = super::common::read_line_limited(&mut r, &mut line, max_line)
                .with_context(|| format!("reading {name}"))?;
            if !more {
                return Ok(());
            }
            number += 1;
            if !line.trim_ascii().is_empty() {
                break;
            }
        }
    }
}

/// A per-event session log from a reader, a session at a time
/// ([`crate::validate::session::Sessions`]): each session's calls go out
/// once it is read, so memory is bounded by the largest session (one
/// larger than `--max-input` is a TLP-007 error record, and the next is
/// read). `prefix` holds the lines already read. The records are those of
/// the log read whole.
fn session_stream(
    name: &str,
    prefix: Vec<u8>,
    mut r: impl std::io::BufRead,
    resolved: &crate::Resolved,
    tools: &super::tools::Tools,
    args: &ParseArgs,
    push: &mut dyn FnMut(Batch) -> anyhow::Result<bool>,
) -> anyhow::Result<()> {
    use anyhow::Context;
    let cfg = resolved.config.for_doc(name);
    let cap = usize::try_from(args.input.max_input).unwrap_or(usize::MAX);
    let mut sessions = crate::validate::session::Sessions::new(cap);
    let mut one = |b: crate::validate::session::Block| {
        let mut batch = conversation_batch(crate::session_block(name, b, &cfg, cap), tools);
        batch.last = false;
        push(batch)
    };
    let (mut k, mut offset) = (0usize, 0usize);
    for line in prefix.split_inclusive(|&b| b == b'\n') {
        if let Some(b) = sessions.line(k, offset, line, true) {
            if !one(b)? {
                return Ok(());
            }
        }
        k += 1;
        offset += line.len();
    }
    let mut line = Vec::new();
    while let Some((len, whole)) =
        super::common::read_line_counted(&mut r, &mut line, cap.saturating_add(1))
            .with_context(|| format!("reading {name}"))?
    {
        if let Some(b) = sessions.line(k, offset, &line, whole) {
            if !one(b)? {
                return Ok(());
            }
        }
        k += 1;
        offset += len;
    }
    if let Some(b) = sessions.finish() {
        if !one(b)? {
            return Ok(());
        }
    }
    push(Batch {
        name: name.to_string(),
        found: Collector::calls_only(),
        last: true,
        stderr: Vec::new(),
    })
    .map(|_| ())
}

/// Runs `parse`.
pub fn run(args: &ParseArgs) -> anyhow::Result<Outcome> {
    // an unknown --model is a usage error before any input is read
    args.engine.resolved("-", &args.wire)?;
    let mut out = Output::stdout(FlushPolicy::choose(
        args.buffer.line_buffered,
        args.buffer.block_buffered,
        false,
    ));
    out.set_quiet(args.matching.quiet);
    out.set_pretty(args.records.pretty);
    let many = args.input.files.len() > 1
        || args.input.files.iter().any(|p| p.is_dir())
        || args.input.lines
        || args.input.field.is_some();
    let tools = args.tools.load()?;
    // Without a tools file nothing needs the document once the engine has
    // seen it, so it is fed as it is read and its records go out as they
    // are found; enrichment's diagnostics quote the document, so with one it
    // is read whole (up to --max-input).
    let reading = if tools.registry.is_some() && args.wire.input != wire::InputKind::Messages {
        Reading::Whole
    } else {
        Reading::Mapped
    };
    let husks = Husks::default();
    let mut writer = Writer {
        args,
        out,
        husks: husks.clone(),
        many,
        max: args.matching.max_count.unwrap_or(usize::MAX),
        errors: 0,
        written: 0,
        outcome: Outcome::NotFound,
    };
    run_documents(
        &args.input,
        reading,
        args.wire.max_buffer,
        |doc, push| {
            if args.input.jobs <= 1 {
                return parse_document(args, &tools, &husks, reading, doc, push);
            }
            // on a worker thread: what the reading says on stderr goes
            // out with the document's last batch, in input order
            let (r, rest) = super::capture_stderr(|| {
                parse_document(args, &tools, &husks, reading, doc, &mut |mut b: Batch| {
                    if b.last {
                        b.stderr = super::take_captured_stderr();
                    }
                    push(b)
                })
            });
            super::to_stderr_bytes(&rest);
            r
        },
        |batch| writer.batch(batch),
    )?;
    writer.out.flush()?;
    args.records.finish(writer.errors);
    Ok(writer.outcome)
}

/// Parses one document, handing its calls and errors to `push` in batches
/// (as they are found when it is streamed); stops when `push` says so.
fn parse_document(
    args: &ParseArgs,
    tools: &super::tools::Tools,
    husks: &Husks,
    reading: Reading,
    doc: Document,
    push: &mut dyn FnMut(Batch) -> anyhow::Result<bool>,
) -> anyhow::Result<()> {
    let mut resolved = super::common::resolve(&args.wire.options(args.engine.options(&doc.name)))?;
    resolved.config = tools.engine(resolved.config);
    let name = resolved.config.doc.clone();
    let mut found = Collector::calls_only();
    // -c, -q and -l only count calls: with no tools file to judge them
    // by, the engine gives them as tallies, no record built
    found.tally = tools.registry.is_none()
        && (args.matching.count || args.matching.quiet || args.matching.files_with_calls);
    // conversations are sniffed as validate sniffs them
    let (doc, peek) = if args.wire.input == wire::InputKind::Auto {
        super::data::peek(doc, args.wire.max_buffer, args.input.max_input)?
    } else {
        (doc, super::data::Peek::default())
    };
    if resolved.conversations() || peek.conversations {
        let bytes = match doc.body {
            super::common::Body::Reader(r) => {
                return conversation_stream(&name, r, &resolved, tools, args, push)
            }
            // a large file is mapped to be fed as slices; past the size read
            // whole, its conversations are read as from any reader (a JSONL
            // a line at a time, lines bounded by --max-buffer), as before
            // the map
            super::common::Body::Bytes(super::common::Bytes::Mapped(m))
                if m.len() as u64 > super::common::READ_WHOLE =>
            {
                let r = Box::new(std::io::Cursor::new(m));
                return conversation_stream(&name, r, &resolved, tools, args, push);
            }
            super::common::Body::Bytes(b) => b,
        };
        return conversation_calls(&name, &bytes, &resolved, tools, push);
    }
    let mut engine = crate::Reader::new(&resolved);
    let bytes = if reading != Reading::Whole {
        let mut result = Ok(true);
        doc.feed(|chunk| {
            if !found.tally {
                husks.lend(&mut found.spare);
            }
            engine.feed(chunk, &mut found);
            if found.calls.is_empty() && found.errors.is_empty() {
                return true;
            }
            // the next chunk likely finds as many calls: no regrowing
            let next = Collector {
                calls: Vec::with_capacity(found.calls.len()),
                tally: found.tally,
                spare: std::mem::take(&mut found.spare),
                ..Collector::calls_only()
            };
            let batch = Batch {
                name: name.clone(),
                found: std::mem::replace(&mut found, next),
                last: false,
                stderr: Vec::new(),
            };
            result = push(batch);
            matches!(result, Ok(true))
        })?;
        if !result? {
            return Ok(());
        }
        super::common::Bytes::Owned(Vec::new())
    } else {
        let bytes = doc.into_bytes(args.input.max_input)?;
        engine.feed(&bytes, &mut found);
        bytes
    };
    engine.finish(&mut found);
    let summary = engine.summary();
    super::report_server_errors(&name, &summary);
    if peek.json && summary.input == wire::InputKind::Text && !args.matching.quiet {
        super::report(&format!(
            "{}: JSON that is no conversation and no server output; read as model text \
             (--input messages reads it as a conversation)",
            super::sanitize(&name)
        ));
    }
    let located = crate::validate::diag::Located::new(&bytes[..]);
    found
        .calls
        .iter_mut()
        .for_each(|c| tools.enrich(c, Some(&located)));
    push(Batch {
        name,
        found,
        last: true,
        stderr: Vec::new(),
    })
    .map(|_| ())
}

/// Call records written and done with, handed back to the engine to hold
/// the next calls ([`crate::Sink::spare_call`]): the writer puts a batch's
/// calls here once they are written, and the next chunk of a document
/// takes them, so a stream of calls allocates no new document names, ids
/// or raw texts. Shared with the worker threads of `-j`.
#[derive(Clone, Default)]
struct Husks(std::sync::Arc<std::sync::Mutex<Vec<crate::ToolCall>>>);

impl Husks {
    /// Keeps the calls of a batch once written (the list itself is kept:
    /// no record is moved), unless some are kept already.
    fn keep(&self, calls: Vec<crate::ToolCall>) {
        if let Ok(mut pool) = self.0.lock() {
            if pool.is_empty() {
                *pool = calls;
            }
        }
    }

    /// Hands the kept records to a collector that has no spares left.
    fn lend(&self, spare: &mut Vec<crate::ToolCall>) {
        if spare.is_empty() {
            if let Ok(mut pool) = self.0.lock() {
                std::mem::swap(spare, &mut pool);
            }
        }
    }
}

/// Writes the batches as grep's flags ask: records, or only the status
/// (`-q`), the names (`-l`) or the counts (`-c`).
struct Writer<'a> {
    args: &'a ParseArgs,
    out: Output,
    /// Where written calls go to be filled again.
    husks: Husks,
    /// Several documents: `-c` prefixes the counts with their names.
    many: bool,
    /// `-m N`: most calls per document.
    max: usize,
    /// Error records seen (`--fail-on-error`).
    errors: usize,
    /// Calls already written for the current document.
    written: usize,
    outcome: Outcome,
}

impl Writer<'_> {
    /// Takes a batch; what to read next.
    fn batch(
        &mut self,
        Batch {
            name,
            found,
            last,
            stderr,
        }: Batch,
    ) -> anyhow::Result<Flow> {
        if !stderr.is_empty() {
            self.out.flush()?;
            super::to_stderr_bytes(&stderr);
        }
        let (args, max) = (self.args, self.max);
        self.errors += found.errors.len();
        let n = found.calls.len().min(max - self.written);
        self.written += n;
        if n > 0 {
            self.outcome = Outcome::Found;
        }
        let written = self.written;
        let flow = if args.matching.quiet && written > 0 {
            Flow::Stop
        } else if written >= max || (args.matching.files_with_calls && written > 0) {
            Flow::NextDocument
        } else {
            Flow::More
        };
        let done = last || flow != Flow::More;
        if args.matching.quiet {
            // the exit status says it all
        } else if args.matching.files_with_calls {
            if done && written > 0 {
                self.out.raw(name.as_bytes())?;
                self.out
                    .raw(if args.matching.null { b"\0" } else { b"\n" })?;
            }
        } else if args.matching.count {
            if done {
                let prefix =
                    args.matching.with_filename || (self.many && !args.matching.no_filename);
                let line = if prefix {
                    format!("{name}:{written}\n")
                } else {
                    format!("{written}\n")
                };
                self.out.raw(line.as_bytes())?;
            }
        } else {
            self.records(&found, n)?;
            self.husks.keep(found.calls);
        }
        if done {
            self.written = 0;
        }
        Ok(flow)
    }

    /// The first `n` calls of a batch and its errors, in document order
    /// (merged by offset); the errors after the last call written only
    /// when every call was.
    fn records(&mut self, found: &Collector, n: usize) -> anyhow::Result<()> {
        let args = self.args;
        let shape = &args.shape;
        let write_error = |out: &mut Output, e: &crate::ErrorRecord| {
            if shape.shape == "native" {
                out.record(e)
            } else {
                out.record(&shape.shaped_error(e))
            }
        };
        let out = &mut self.out;
        let mut errors = found.errors.iter().peekable();
        for call in found.calls.iter().take(n) {
            while let Some(e) = errors.next_if(|e| e.span[0] < call.span[0]) {
                write_error(out, e)?;
            }
            if shape.shape == "native" {
                out.tool_call(call)?;
            } else {
                out.record(&shape.shaped(call))?;
            }
        }
        if n == found.calls.len() {
            for e in errors {
                write_error(out, e)?;
            }
        }
        Ok(())
    }
}
