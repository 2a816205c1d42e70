//! The flags that configure the engine: format, model, reasoning, repair,
//! the bound on what is held while undecided.

use crate::{Config, Options, Resolved};
use clap::Args;

/// Flags that configure the engine.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// Format to look for: auto (detect per document) or a format id.
    ///
    /// `auto` detects the format from its markers. A format id or one of its
    /// model names (see `toolcall formats`) bypasses detection: only that
    /// format's markers are looked for. ASCII case is ignored.
    #[arg(
        long,
        short = 'f',
        value_name = "ID",
        default_value = "auto",
        value_parser = super::names::NameParser::format(),
        ignore_case = true,
        hide_possible_values = true
    )]
    pub format: String,

    /// Do not treat call-shaped ```json fences as calls.
    ///
    /// By default a fenced JSON block whose value has the full shape of a call
    /// (a name and an arguments object) is a call; any other JSON in a fence
    /// is text.
    #[arg(hide_short_help = true, long)]
    pub no_json_blocks: bool,

    /// Also look for call-shaped JSON inline in prose (least reliable).
    #[arg(hide_short_help = true, long)]
    pub inline_json: bool,

    /// Do not repair broken argument JSON.
    ///
    /// Without repair, arguments that are not valid JSON give a TLP-002
    /// error record instead of a call.
    #[arg(hide_short_help = true, long)]
    pub no_repair: bool,

    /// Largest broken argument JSON to repair, in bytes.
    ///
    /// Arguments that need repair and are larger give a TLP-007 error
    /// record; valid JSON of any size is taken as it is.
    #[arg(hide_short_help = true, long, value_name = "BYTES", default_value_t = Options::default().repair_max_size)]
    pub repair_max_size: usize,

    /// Also report calls drafted inside reasoning, flagged `in_reasoning`.
    ///
    /// A call inside `<think>…</think>` (or any reasoning span) is a draft,
    /// not a call, and is not reported by default. With this flag it is
    /// reported with `"in_reasoning": true`. Reasoning left open at the end
    /// of a document with no other call is always reported this way, so a
    /// call is never silently lost.
    #[arg(hide_short_help = true, long)]
    pub reasoning_calls: bool,

    /// The output starts inside a think block opened by the prompt.
    ///
    /// Thinking templates of DeepSeek V3.1, Qwen3 and ERNIE put `<think>` in
    /// the prompt, so the model's output has only the closing `</think>`.
    /// With this flag everything up to the first `</think>` is reasoning.
    /// Without it (and without `--generation-prompt` or `--model`), a
    /// `</think>` with no opener is judged by `--think-window`: see there.
    #[arg(hide_short_help = true, long)]
    pub think_open: bool,

    /// How far into a document to look for a reasoning closer the prompt
    /// opened, in bytes (default: the whole document for parse, split and
    /// validate; 0, not at all, for stream, exec and loop).
    ///
    /// When neither `--think-open`, `--generation-prompt` nor `--model`
    /// says how the prompt left the output, a `</think>` (or
    /// `</thinking>`, `<|END_THINKING|>`, `</mm:think>`, `<|think:end|>`) that starts in the
    /// first BYTES bytes with no opening tag and no call before it shows the
    /// prompt opened the reasoning: everything before it is reasoning. To
    /// decide, the document's start is held back until such a closer, an
    /// opening tag, a call or the end of the window arrives (or the input
    /// ends); that is why `stream` does not look by default: its prose
    /// streams from the first byte (8192 covers about 2,000 tokens of
    /// reasoning). Past the window a lone closer is markup and what precedes
    /// it text. Under the same window, `stream` and `parse` give the same
    /// records. 0 to 4 GiB, and never more than --max-block: what is held
    /// back stays within that bound.
    #[arg(hide_short_help = true, long, value_name = "BYTES", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=MAX_HELD))]
    pub think_window: Option<usize>,

    /// The text the chat template appended after the last message.
    ///
    /// A chat template ends the prompt with a generation prompt such as
    /// `<|im_start|>assistant\n<think>\n` (Qwen3.5), `<|start|>assistant`
    /// (gpt-oss) or `<|assistant|><think>` (GLM-4.7); the model's output
    /// continues it. Parsing starts in the state that text leaves: inside
    /// reasoning, inside a message header, after a closed thought channel.
    /// The text is taken verbatim (write newlines with $'…\n' in a shell)
    /// and is not part of the document: offsets start after it.
    /// `--think-open` is the short form for a prompt ending in `<think>`.
    #[arg(hide_short_help = true, long, value_name = "TEXT")]
    pub generation_prompt: Option<String>,

    /// The model that wrote the output: its format and default generation
    /// prompt.
    ///
    /// Known names (`toolcall formats --models` lists them) select the
    /// format as `--format` would and, unless `--generation-prompt` is
    /// given, the generation prompt the model's chat template appends by
    /// default. A served name such as `qwen3:8b-q4_K_M`, `llama3.2` or
    /// `Qwen/Qwen3-8B` is read into family, version and variants (sizes,
    /// quantisations, dates and an `org/` prefix never decide) and names the
    /// most specific row that fits; a name no row fits is an error.
    #[arg(long, value_name = "NAME", value_parser = super::names::NameParser::model(),
          hide_possible_values = true)]
    pub model: Option<String>,

    /// Why the output ended: `stop` (an end token) or `length` (the token
    /// limit).
    ///
    /// With `length` the output was cut at max tokens: a call still open at
    /// the end is not a call but a TLP-002 error saying it was truncated,
    /// its bytes are markup, and the complete calls before it are kept.
    /// Without it, a call cut at the end is recovered when its arguments
    /// can be closed (sloppy models do stop early). Wire inputs take it from
    /// `done_reason` / `finish_reason`.
    #[arg(hide_short_help = true, long, value_name = "REASON", value_parser = ["stop", "length"])]
    pub finish_reason: Option<String>,

    /// Largest candidate block held back while undecided, in bytes.
    ///
    /// A block with no end within its first BYTES bytes is not a call:
    /// those bytes are given back as text with a TLP-007 error and the
    /// search for markers resumes after them (the same in `parse` and
    /// `stream`, however the input arrives).
    #[arg(hide_short_help = true, long, value_name = "BYTES", default_value_t = Options::default().max_block, value_parser = bytes_parser(MAX_HELD))]
    pub max_block: usize,

    /// Most error records written for one block [default: 8].
    ///
    /// Each error record carries its block's bytes (`raw`), so a block of
    /// many broken calls would write that many copies of the block; past N
    /// the last record sums up the rest (`K more errors in this block, the
    /// first: …`). Range 1 to 1000000.
    #[arg(hide_short_help = true, long, value_name = "N", default_value_t = Options::default().max_errors_per_block,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=crate::MAX_ERRORS_PER_BLOCK),
          hide_default_value = true)]
    pub max_errors_per_block: usize,

    /// The name standard input goes by in records (`doc`) and messages.
    ///
    /// Without it stdin is `-`. `toolcall parse --label x.txt < x.txt`
    /// writes the same records as `toolcall parse x.txt`, so golden files
    /// made either way compare equal.
    #[arg(hide_short_help = true, long, value_name = "NAME")]
    pub label: Option<String>,
}

impl EngineArgs {
    /// The name a document goes by: its own, or `--label` for stdin (`-`,
    /// and `-:LINE` under `--lines`).
    pub fn doc_name(&self, doc: &str) -> String {
        match &self.label {
            Some(label) if doc == "-" => label.clone(),
            Some(label) if doc.starts_with("-:") => format!("{label}{}", &doc[1..]),
            _ => doc.to_string(),
        }
    }

    /// The request these flags make for a document named `doc` (the
    /// wire flags are [`super::WireArgs::options`]'s).
    pub fn options(&self, doc: &str) -> Options {
        let mut o = Options::default();
        o.format.clone_from(&self.format);
        o.model.clone_from(&self.model);
        o.generation_prompt.clone_from(&self.generation_prompt);
        o.finish_reason.clone_from(&self.finish_reason);
        o.json_blocks = !self.no_json_blocks;
        o.inline_json = self.inline_json;
        o.repair = !self.no_repair;
        o.repair_max_size = self.repair_max_size;
        o.reasoning_calls = self.reasoning_calls;
        o.think_open = self.think_open;
        o.think_window = self.think_window;
        o.max_block = self.max_block;
        o.max_errors_per_block = self.max_errors_per_block;
        o.doc = self.doc_name(doc);
        o
    }

    /// The request for a whole document named `doc` with the wire flags,
    /// resolved by the core.
    pub fn resolved(&self, doc: &str, wire: &super::WireArgs) -> anyhow::Result<Resolved> {
        resolve(&wire.options(self.options(doc)))
    }

    /// The engine configuration for a document named `doc`, read as it
    /// arrives (`stream`, `exec`, `loop`): `--think-window` defaults to
    /// [`DEFAULT_THINK_WINDOW`](crate::DEFAULT_THINK_WINDOW), off
    /// ([`Resolved::streaming`]).
    pub fn config(&self, doc: &str) -> anyhow::Result<Config> {
        Ok(resolve(&self.options(doc))?.streaming().config)
    }

    /// The engine configuration for a whole document named `doc` (`parse`,
    /// `split`, `validate`): `--think-window` defaults to
    /// [`WHOLE_DOCUMENT_THINK_WINDOW`](crate::WHOLE_DOCUMENT_THINK_WINDOW),
    /// so a lone closer is judged by the whole document.
    pub fn document_config(&self, doc: &str) -> anyhow::Result<Config> {
        Ok(resolve(&self.options(doc))?.config)
    }
}

/// Resolves a request, an unknown name's message saying where the known
/// names are listed.
pub fn resolve(options: &Options) -> anyhow::Result<Resolved> {
    options.resolve().map_err(super::names::option_error)
}

/// Largest value of a flag that bounds what is held in memory
/// (`--max-block`, `--max-buffer`): 4 GiB.
pub const MAX_HELD: u64 = crate::MAX_HELD;

/// A byte count in `1..=max`, checked when the command line is parsed.
pub fn bytes_parser(max: u64) -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(1..=max)
}
