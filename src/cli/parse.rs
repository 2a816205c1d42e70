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
    /// Tools file, config, logging (validate.rs).
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
}

/// `--input messages`: the calls of each conversation in `bytes` (one
/// JSON document, or JSONL of one per line), with their `turn`, `role`,
/// `pointer` (and `in_content`) and a span over the call's JSON value in
/// the conversation's text. One batch per conversation, until `push`
/// asks to stop.
fn conversation_calls(
    name: &str,
    bytes: &[u8],
    cfg: &crate::Config,
    tools: &super::tools::Tools,
    push: &mut dyn FnMut(Batch) -> anyhow::Result<bool>,
) -> anyhow::Result<()> {
    use serde_json::Value;
    let whole = serde_json::from_slice::<Value>(bytes).ok();
    let docs: Vec<(String, &[u8], Option<Value>)> = match whole {
        Some(v) => vec![(name.to_string(), bytes, Some(v))],
        None => bytes
            .split(|&b| b == b'\n')
            .enumerate()
            .filter(|(_, l)| !l.trim_ascii().is_empty())
            .map(|(k, l)| {
                let l = l.strip_suffix(b"\r").unwrap_or(l);
                (
                    format!("{name}:{}", k + 1),
                    l,
                    serde_json::from_slice(l).ok(),
                )
            })
            .collect(),
    };
    for (doc, text, v) in docs {
        if !push(conversation_batch(doc, text, v, cfg, tools))? {
            break;
        }
    }
    Ok(())
}

/// The calls of one conversation (`v`, parsed from `text`; `None` when
/// the text is not JSON), or its TLP-008 error, as one batch.
fn conversation_batch(
    doc: String,
    text: &[u8],
    v: Option<serde_json::Value>,
    cfg: &crate::Config,
    tools: &super::tools::Tools,
) -> Batch {
    use crate::validate::messages::{self, Kind};
    let cfg = crate::Config {
        doc: doc.clone(),
        ..cfg.clone()
    };
    let mut found = Collector::calls_only();
    // why a text that is no JSON value is not one (UTF-8 first: JSON is)
    let not_json = || match std::str::from_utf8(text) {
        Err(e) => format!(
            "not a conversation: not UTF-8 (an invalid byte at offset {})",
            e.valid_up_to()
        ),
        Ok(t) => match serde_json::from_str::<serde_json::Value>(t) {
            Err(e) => format!("not a conversation: not JSON ({e})"),
            Ok(_) => "not a conversation".into(),
        },
    };
    match v.as_ref().and_then(|v| messages::read(v, &cfg)) {
        Some(t) => {
            let wanted = t.entries.iter().map(|e| e.pointer.as_str()).collect();
            let (spans, _) = messages::spans(text, &wanted);
            for e in t.entries {
                let Kind::Call(c) = e.kind else { continue };
                let mut call = c.call;
                call.index = found.calls.len();
                let span = spans.get(&e.pointer).copied().unwrap_or([0, 0]);
                call.span = [span[0] as u64, span[1] as u64];
                call.raw = String::from_utf8_lossy(&text[span[0]..span[1]]).into_owned();
                call.extra.insert("turn".into(), e.turn.into());
                call.extra.insert("role".into(), e.role.into());
                call.extra.insert("pointer".into(), e.pointer.into());
                if c.in_content {
                    call.extra.insert("in_content".into(), true.into());
                }
                tools.enrich(&mut call, None);
                found.calls.push(call);
            }
        }
        None if v.is_none() => found
            .errors
            .push(line_error(&doc, text, "TLP-008", not_json())),
        None => found.errors.push(line_error(
            &doc,
            text,
            "TLP-008",
            "not a conversation (messages, conversations, input, output, \
             choices or message)"
                .into(),
        )),
    }
    Batch {
        name: doc,
        found,
        last: true,
    }
}

/// An error record about a whole conversation (or JSONL line) `text`.
fn line_error(doc: &str, text: &[u8], code: &'static str, message: String) -> crate::ErrorRecord {
    crate::ErrorRecord {
        kind: "error",
        code,
        message,
        doc: doc.to_string(),
        span: [0, text.len() as u64],
        raw: crate::lossy(&text[..text.len().min(512)]).into_owned(),
        offset: 0,
        line: 1,
        column: 1,
        hint: None,
        turn: None,
    }
}

/// `--input messages` from a reader: a JSONL of conversations is read and
/// parsed a line at a time, so memory is bounded by the longest line
/// (`--max-buffer`: a longer one is a TLP-007 error and the next lines are
/// read); anything else (one conversation over several lines, a one-line
/// document) is read whole, up to `--max-input`, as before.
fn conversation_stream(
    name: &str,
    r: Box<dyn std::io::Read + Send>,
    cfg: &crate::Config,
    tools: &super::tools::Tools,
    args: &ParseArgs,
    push: &mut dyn FnMut(Batch) -> anyhow::Result<bool>,
) -> anyhow::Result<()> {
    use anyhow::Context;
    let max_line = args.wire.max_buffer;
    let mut r = std::io::BufReader::with_capacity(64 << 10, r);
    let mut prefix = Vec::new();
    let mut line = Vec::new();
    let mut number = 0usize;
    // the first non-blank line, without reading past --max-buffer
    let mut whole = true;
    while let Some(complete) = super::validate::read_line_capped(&mut r, &mut line, max_line)
        .with_context(|| format!("reading {name}"))?
    {
        number += 1;
        prefix.extend_from_slice(&line);
        if !complete {
            whole = false;
            break;
        }
        if !line.trim_ascii().is_empty() {
            break;
        }
    }
    let first: Option<serde_json::Value> = if whole {
        serde_json::from_slice(line.trim_ascii()).ok()
    } else {
        None
    };
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
        return conversation_calls(name, &bytes, cfg, tools, push);
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
                .push(line_error(&doc, text, "TLP-007", message));
            return Batch {
                name: doc,
                found,
                last: true,
            };
        }
        let v = serde_json::from_slice(text).ok();
        conversation_batch(doc, text, v, cfg, tools)
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

/// Runs `parse`.
pub fn run(args: &ParseArgs) -> anyhow::Result<Outcome> {
    // an unknown --model is a usage error before any input is read
    args.engine.config("-")?;
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
        Reading::Streamed
    };
    let mut writer = Writer {
        args,
        out,
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
        |doc, push| parse_document(args, &tools, reading, doc, push),
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
    reading: Reading,
    doc: Document,
    push: &mut dyn FnMut(Batch) -> anyhow::Result<bool>,
) -> anyhow::Result<()> {
    let cfg = tools.engine(args.engine.config(&doc.name)?);
    let name = args.engine.doc_name(&doc.name);
    let mut found = Collector::calls_only();
    if args.wire.input == wire::InputKind::Messages {
        let bytes = match doc.body {
            super::common::Body::Reader(r) => {
                return conversation_stream(&name, r, &cfg, tools, args, push)
            }
            super::common::Body::Bytes(b) => b,
        };
        conversation_calls(&name, &bytes, &cfg, tools, &mut |batch| push(batch))?;
        return Ok(());
    }
    let mut engine = wire::WireEngine::new(cfg, args.wire.config());
    let bytes = if reading == Reading::Streamed {
        let mut result = Ok(true);
        doc.feed(|chunk| {
            engine.feed(chunk, &mut found);
            if found.calls.is_empty() && found.errors.is_empty() {
                return true;
            }
            // the next chunk likely finds as many calls: no regrowing
            let next = Collector {
                calls: Vec::with_capacity(found.calls.len()),
                ..Collector::calls_only()
            };
            let batch = Batch {
                name: name.clone(),
                found: std::mem::replace(&mut found, next),
                last: false,
            };
            result = push(batch);
            matches!(result, Ok(true))
        })?;
        if !result? {
            return Ok(());
        }
        Vec::new()
    } else {
        let bytes = doc.into_bytes(args.input.max_input)?;
        engine.feed(&bytes, &mut found);
        bytes
    };
    engine.finish(&mut found);
    super::report_server_errors(&name, &engine.summary());
    let located = crate::validate::diag::Located::new(&bytes[..]);
    found
        .calls
        .iter_mut()
        .for_each(|c| tools.enrich(c, Some(&located)));
    push(Batch {
        name,
        found,
        last: true,
    })
    .map(|_| ())
}

/// Writes the batches as grep's flags ask: records, or only the status
/// (`-q`), the names (`-l`) or the counts (`-c`).
struct Writer<'a> {
    args: &'a ParseArgs,
    out: Output,
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
    fn batch(&mut self, Batch { name, found, last }: Batch) -> anyhow::Result<Flow> {
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
