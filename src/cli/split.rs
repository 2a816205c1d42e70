//! `toolcall split`: one `split` record per document.

use super::common::{
    for_each_document, BufferArgs, EngineArgs, InputArgs, Reading, RecordArgs, WireArgs,
};
use super::output::{FlushPolicy, Output};
use super::Outcome;
use crate::engine::Event;
use crate::wire;
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
    if args.text && tools.registry.is_none() {
        // Only the prose is printed and nothing quotes the document: it is
        // fed as it is read and its text written as it is decided, so memory
        // stays constant and a closed stdout stops the reading.
        for_each_document(&args.input, Reading::Streamed, max_line, |doc| {
            let cfg = tools.engine(args.engine.config(&doc.name)?);
            let name = doc.name.clone();
            let mut engine = wire::WireEngine::new(cfg, args.wire.config());
            let mut sink = TextOut {
                out: &mut out,
                failed: None,
            };
            doc.feed(|chunk| {
                engine.feed(chunk, &mut sink);
                sink.failed.is_none()
            })?;
            if sink.failed.is_none() {
                engine.finish(&mut sink);
            }
            if let Some(e) = sink.failed {
                return Err(e.into());
            }
            super::report_server_errors(&name, &engine.summary());
            if engine.calls() > 0 {
                outcome = Outcome::Found;
            }
            Ok(())
        })?;
        out.flush()?;
        return Ok(outcome);
    }
    for_each_document(&args.input, Reading::Whole, max_line, |doc| {
        let cfg = tools.engine(args.engine.config(&doc.name)?);
        let name = args.engine.doc_name(&doc.name);
        let bytes = doc.into_bytes(args.input.max_input)?;
        let (mut found, summary) = wire::parse(&bytes, &cfg, &args.wire.config());
        super::report_server_errors(&name, &summary);
        let located = crate::validate::diag::Located::new(&bytes[..]);
        found
            .calls
            .iter_mut()
            .for_each(|c| tools.enrich(c, Some(&located)));
        if !found.calls.is_empty() {
            outcome = Outcome::Found;
        }
        errors += found.errors.len();
        if args.text {
            out.raw(&found.text)?;
        } else {
            out.record(&found.into_split(&name))?;
        }
        Ok(())
    })?;
    out.flush()?;
    args.records.finish(errors);
    Ok(outcome)
}

/// Writes the text events straight out (`split --text`); the first write
/// error is kept and ends the document.
struct TextOut<'a> {
    out: &'a mut Output,
    failed: Option<std::io::Error>,
}

impl crate::engine::Sink for TextOut<'_> {
    fn wants_starts(&self) -> bool {
        false
    }

    fn event(&mut self, ev: Event<'_>) {
        if let Event::Text { bytes, .. } = ev {
            if self.failed.is_none() {
                self.failed = self.out.raw(bytes).err();
            }
        }
    }
}
