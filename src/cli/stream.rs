//! `toolcall stream`: events as soon as they are certain.

use super::common::{EngineArgs, RecordArgs, WireArgs};
use super::output::{FlushPolicy, Output};
use super::Outcome;
use crate::wire::WireEngine;
use crate::{Event, Sink};
use anyhow::Context;
use clap::Args;
use std::io::Read;
use std::path::PathBuf;

/// Parse a live stream, writing events as soon as they are certain.
///
/// Reads stdin (or FILE) chunk by chunk as it arrives and writes `text`,
/// `reasoning`, `markup`, `tool_call_start`, `tool_call`, `error` and a final
/// `done` event. What one read decided is flushed before the next read, so
/// nothing certain waits for more input. Only bytes that could still begin a
/// marker are held back. The spans of text, reasoning, markup and tool_call
/// events tile the input exactly. Exit status 0 when a call was found.
///
/// With `--input` (default auto: sniffed) it also reads server streams:
/// Ollama NDJSON, OpenAI chunks or SSE (chat and Responses API), llama-server
/// `/completion`, and `ollama run` terminal output. Spans are then offsets
/// into the decoded model text; calls the server parsed have an empty span
/// where they arrived; `done` adds `input`, `text_bytes`, `finish_reason`,
/// `usage` and `truncated`.
///
/// Examples:
///
///   ollama run qwen3 "…" | toolcall stream | jq -c 'select(.type=="tool_call")'
///
///   toolcall stream --format hermes < reply.txt
///
///   curl -sN localhost:11434/api/chat -d @req.json | toolcall stream
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct StreamArgs {
    /// Input file (`-` or none: stdin).
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Engine settings.
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Wire input settings.
    #[command(flatten)]
    pub wire: WireArgs,
    /// Buffer output in blocks instead of flushing after every read.
    #[arg(long)]
    pub block_buffered: bool,
    /// Read size in bytes (small values simulate token-by-token arrival).
    ///
    /// 1 to 16 MiB (a buffer of this size is allocated). A read returns
    /// what has arrived, so a large size delays nothing; a pipe gives at
    /// most what it holds (its size is left as the caller made it).
    #[arg(long, value_name = "BYTES", default_value_t = READ_SIZE, value_parser = super::common::bytes_parser(16 << 20))]
    pub chunk_size: usize,
    /// Tools file, config, logging (tools.rs).
    #[command(flatten)]
    pub tools: super::tools::ToolsArgs,
    /// Error status, pretty printing.
    #[command(flatten)]
    pub records: RecordArgs,
}

/// Writes the records: the core's [`crate::StreamRecorder`] builds each
/// one (the same bytes the Node package hands to JavaScript) straight into
/// the output's buffer, which frames it as a line.
struct Writer {
    out: Output,
    failed: Option<std::io::Error>,
    tools: super::tools::Tools,
    recorder: crate::StreamRecorder,
    /// Where records go once a write failed (the recorder still follows
    /// the events until the current read ends the stream).
    discard: Vec<u8>,
    /// The last call written, handed back to the engine to hold the next
    /// one ([`Sink::spare_call`]: no allocation per call for its strings).
    spare: Option<crate::ToolCall>,
}

impl Sink for Writer {
    fn event(&mut self, ev: Event<'_>) {
        let tools = &self.tools;
        let recorder = &mut self.recorder;
        let spare = &mut self.spare;
        let judge = |call: &mut crate::ToolCall| tools.enrich(call, None);
        if self.failed.is_none() {
            // keeps the first error (it ends the stream after the current read)
            self.failed = self
                .out
                .json_record_with(|buf| recorder.record_keeping(ev, judge, buf, spare))
                .err();
        } else {
            recorder.record(ev, judge, &mut self.discard);
            self.discard.clear();
        }
    }

    fn spare_call(&mut self) -> Option<crate::ToolCall> {
        self.spare.take()
    }
}

/// The default read size: 256 KiB. Every read hands the engine its bytes
/// in place (no copy in between) and ends with one write of the records:
/// fewer, larger reads cost fewer system calls and wake-ups (issue 48). A
/// pipe gives at most what it holds (64 KiB unless its owner grew it);
/// the pipe on stdin is the caller's, so `stream` never resizes it.
const READ_SIZE: usize = 256 * 1024;

/// Most held bytes copied in front of a read ([`WireEngine::held_bytes`]): more
/// (a long call still open) would cost more to copy at every read than
/// the read itself, which the engine then copies behind them as before.
const MAX_HELD_COPY: usize = 16 * 1024;

/// Most output gathered before a write within one read (the records of a
/// read are written at its end, in one write when they fit).
const MAX_OUT_BLOCK: usize = 1 << 20;

/// Runs `stream`.
pub fn run(args: &StreamArgs) -> anyhow::Result<Outcome> {
    args.wire.refuse_messages("stream")?;
    // Records go out after every read, before the next one can wait for
    // input: as live as a flush per record (a model's tokens arrive one
    // read at a time), at one write per read instead of one per record.
    let policy = FlushPolicy::Block;
    let flush_per_read = !args.block_buffered;
    let (name, mut reader): (String, Box<dyn Read>) = match &args.file {
        Some(p) if p.is_dir() => anyhow::bail!("{}: is a directory", p.display()),
        Some(p) if p.as_os_str() != "-" => (
            p.display().to_string(),
            Box::new(std::fs::File::open(p).with_context(|| format!("opening {}", p.display()))?),
        ),
        _ => (args.engine.doc_name("-"), Box::new(std::io::stdin().lock())),
    };
    // a small regular file (never a pipe) may be a tools file given by
    // mistake: read it first, then stream it from memory
    let source = args.file.clone().unwrap_or_else(|| PathBuf::from("-"));
    if super::common::small_regular_file(&source) {
        let mut bytes = Vec::new();
        reader
            .read_to_end(&mut bytes)
            .with_context(|| format!("reading {name}"))?;
        super::common::refuse_tools_file(&name, &bytes)?;
        reader = Box::new(std::io::Cursor::new(bytes));
    }
    let tools = args.tools.load()?;
    let cfg = tools.engine(args.engine.config(&name)?);
    let mut engine = WireEngine::new(cfg, args.wire.config());
    let mut w = Writer {
        out: Output::stdout(policy),
        failed: None,
        tools,
        recorder: crate::StreamRecorder::new(),
        discard: Vec::new(),
        spare: None,
    };
    w.out.set_pretty(args.records.pretty);
    // a read's records (a little more than its bytes for prose) in one write
    w.out
        .set_block(args.chunk_size.saturating_mul(2).min(MAX_OUT_BLOCK));
    // a read lands behind a copy of the bytes the engine holds undecided
    // (a line's start, a call still open), when they are few: the engine
    // then reads both in place instead of copying the read behind them
    let read_size = args.chunk_size.max(1);
    let mut buf = vec![0u8; read_size + MAX_HELD_COPY];
    loop {
        let held = match engine.held_bytes() {
            Some(h) if !h.is_empty() && h.len() <= MAX_HELD_COPY => {
                buf[..h.len()].copy_from_slice(h);
                h.len()
            }
            _ => 0,
        };
        let n = match reader.read(&mut buf[held..held + read_size]) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e).context(format!("reading {name}")),
        };
        engine.feed_after_held(&buf[..held + n], held, &mut w);
        if let Some(e) = w.failed.take() {
            return Err(e.into());
        }
        if flush_per_read {
            w.out.flush()?;
        }
    }
    engine.finish(&mut w);
    let sum = engine.summary();
    super::report_server_errors(&name, &sum);
    let calls = sum.calls;
    if w.failed.is_none() {
        w.failed = w
            .out
            .json_record_with(|buf| {
                crate::write_done(&sum, buf);
                true
            })
            .err();
    }
    if let Some(e) = w.failed.take() {
        return Err(e.into());
    }
    w.out.flush()?;
    args.records.finish(w.recorder.errors());
    Ok(if calls > 0 {
        Outcome::Found
    } else {
        Outcome::NotFound
    })
}
