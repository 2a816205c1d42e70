//! Flags and input handling shared by the subcommands.

use crate::wire::{InputKind, WireConfig};
use crate::{Config, FormatChoice};
use anyhow::Context;
use clap::Args;
use std::io::Read;
use std::path::PathBuf;

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
        value_parser = format_parser(),
        ignore_case = true,
        hide_possible_values = true
    )]
    pub format: FormatChoice,

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
    #[arg(hide_short_help = true, long, value_name = "BYTES", default_value_t = crate::DEFAULT_MAX_INPUT_BYTES)]
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
    /// `</think>` with no opener is markup, unless `--think-window` is set:
    /// see there.
    #[arg(hide_short_help = true, long)]
    pub think_open: bool,

    /// How far into a document to look for a reasoning closer the prompt
    /// opened, in bytes (default 0: not at all; 8192 covers about 2,000
    /// tokens of reasoning).
    ///
    /// When neither `--think-open`, `--generation-prompt` nor `--model`
    /// says how the prompt left the output, a `</think>` (or
    /// `</thinking>`, `<|END_THINKING|>`, `</mm:think>`) that starts in the
    /// first BYTES bytes with no opening tag before it shows the prompt
    /// opened the reasoning: everything before it is reasoning. To decide,
    /// `parse` and `stream` hold the document's start back until such a
    /// closer, an opening tag or the end of the window arrives (or the
    /// input ends), which is why it is off by default: prose streams from
    /// the first byte. Past the window a lone closer is markup and what
    /// precedes it text. 0 to 4 GiB, and never more than --max-block: what
    /// is held back stays within that bound.
    #[arg(hide_short_help = true, long, value_name = "BYTES", default_value_t = toolcall_core::DEFAULT_THINK_WINDOW, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=MAX_HELD))]
    pub think_window: usize,

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
    /// default. A served name such as `qwen3:8b`, `llama3.2` or
    /// `Qwen/Qwen3-8B` matches the longest known name it starts with, word by
    /// word (case, `-`/`.`/`_`/`:` and an `org/` prefix ignored).
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
    #[arg(hide_short_help = true, long, value_name = "BYTES", default_value_t = 1 << 20, value_parser = bytes_parser(MAX_HELD))]
    pub max_block: usize,

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

    /// The engine configuration for a document named `doc`.
    pub fn config(&self, doc: &str) -> anyhow::Result<Config> {
        let mut format = self.format;
        let mut generation_prompt = self.generation_prompt.clone().map(String::into_bytes);
        if let Some(name) = &self.model {
            let Some(named) = super::names::resolve(name) else {
                anyhow::bail!("{}", super::names::unknown("model", name));
            };
            if format == FormatChoice::Auto {
                format = FormatChoice::Only(named.format);
            }
            if generation_prompt.is_none() {
                generation_prompt = named.prompt.map(|p| p.as_bytes().to_vec());
            }
        }
        Ok(Config {
            doc: self.doc_name(doc),
            format,
            json_blocks: !self.no_json_blocks,
            inline_json: self.inline_json,
            reasoning_calls: self.reasoning_calls,
            max_block: self.max_block,
            repair: !self.no_repair,
            repair_timeout_ms: crate::DEFAULT_TIMEOUT_MS,
            repair_max_bytes: self.repair_max_size,
            think_open: self.think_open,
            // held back while undecided: within --max-block
            think_window: self.think_window.min(self.max_block),
            generation_prompt,
            truncated: self.finish_reason.as_deref() == Some("length"),
            tool_names: None,
            turn: 0,
        })
    }
}

/// Largest value of a flag that bounds what is held in memory
/// (`--max-block`, `--max-buffer`): 4 GiB.
pub const MAX_HELD: u64 = 1 << 32;

/// Default `--max-input`: 256 MiB. Model output is kilobytes to megabytes; a
/// document read whole that is larger is not model output (or is
/// `/dev/zero`), and the limit turns it into a clear error instead of an
/// out-of-memory abort. Commands that stream (`stream`, `parse` without
/// `--tools`) have no such limit.
pub const DEFAULT_MAX_INPUT: u64 = 256 << 20;

/// Largest `--max-input`: 1 TiB.
pub const MAX_INPUT: u64 = 1 << 40;

/// A byte count in `1..=max`, checked when the command line is parsed.
pub fn bytes_parser(max: u64) -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(1..=max)
}

/// A `--max-input` value: a byte count in `1..=MAX_INPUT`.
pub fn input_size_parser() -> clap::builder::RangedU64ValueParser<u64> {
    clap::builder::RangedU64ValueParser::<u64>::new().range(1..=MAX_INPUT)
}

/// A `--field` path: `.key.key.0…`, each step a key or an index; checked
/// when the command line is parsed, so a mistyped path is a usage error
/// (exit 2), not a run that silently skips every line.
fn field_parser(path: &str) -> Result<String, String> {
    let path = brackets_to_steps(path)?;
    let path = path.as_str();
    let Some(rest) = path.strip_prefix('.') else {
        return Err("a path starts with '.', e.g. .message.content".into());
    };
    if rest.is_empty() {
        return Err("the path names no key (the document is the string at it)".into());
    }
    for step in rest.split('.') {
        if step.is_empty() {
            return Err("empty step ('..'); steps are keys or indices: .choices.0.text".into());
        }
        if step.contains(['[', ']', '"', '|', ' ', '*', '?']) {
            return Err(format!(
                "unsupported syntax in step '{step}'; steps are plain keys or indices: .choices.0.text"
            ));
        }
    }
    Ok(path.to_string())
}

/// jq's index syntax as plain steps: `.choices[0].text` is `.choices.0.text`
/// (and `[0]` right after the leading dot, `.[0]`, is `.0`).
fn brackets_to_steps(path: &str) -> Result<String, String> {
    let mut out = String::with_capacity(path.len());
    let mut rest = path;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find(']') else {
            return Err("unclosed '[': an index is written [N], e.g. .choices[0].text".into());
        };
        let index = &after[..close];
        if index.is_empty() || !index.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "unsupported index [{index}]; an index is a number: .choices[0].text"
            ));
        }
        if !out.ends_with('.') {
            out.push('.');
        }
        out.push_str(index);
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// `--format`: `auto`, a format id, or any name `--model` takes (see
/// [`super::names`]); completion offers them, an unknown one gets a "did
/// you mean" from the model table.
fn format_parser() -> impl clap::builder::TypedValueParser<Value = FormatChoice> {
    use clap::builder::TypedValueParser;
    super::names::NameParser::format().map(|name: String| super::names::format_choice(&name))
}

/// `--input`: the kinds (and their other spellings, `ollama-run`,
/// `llama.cpp`), offered by completion instead of file names.
fn input_parser() -> impl clap::builder::TypedValueParser<Value = InputKind> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values = InputKind::ALL.into_iter().map(|k| {
        let v = PossibleValue::new(k.name());
        match k {
            InputKind::Terminal => v.alias("ollama-run"),
            InputKind::LlamaServer => v.aliases(["llama.cpp", "llamacpp"]),
            _ => v,
        }
    });
    PossibleValuesParser::new(values).try_map(|s: String| InputKind::from_str_arg(&s))
}

/// What the input is: model text, or a server's wire format.
#[derive(Args, Debug, Clone)]
pub struct WireArgs {
    /// Input kind: auto, text, terminal, ollama, openai, llama-server or
    /// messages.
    ///
    /// `auto` sniffs the first non-empty bytes: Ollama NDJSON, OpenAI
    /// objects, chunks or SSE (chat completions and the Responses API),
    /// llama-server `/completion` streams, terminal output (`ollama run`: an
    /// escape sequence or a `Thinking...` line first), else text. `text` is
    /// raw model text. With a wire kind, spans are offsets into the decoded
    /// model text; calls the server parsed itself have an empty span where
    /// they arrived (see the README, "Wire inputs"). `messages` reads whole
    /// conversations (a JSON document, or JSONL of one per line: OpenAI,
    /// Ollama, Responses, Anthropic or ShareGPT message lists) in `validate`
    /// and `parse`; `validate` also takes a document for one when it is a
    /// `messages`, `conversations` or `input` list (see the README,
    /// "Linting transcripts").
    #[arg(long, value_name = "KIND", default_value = "auto", value_parser = input_parser(),
          hide_possible_values = true)]
    pub input: InputKind,

    /// Most bytes held for one wire line, the open streamed calls together,
    /// or an undecided line.
    ///
    /// Past it, an error record (TLP-007) and the stream goes on. Also the
    /// longest line under `--lines` and `--field`: a longer one is skipped
    /// with a note on stderr (exit 2 at the end).
    #[arg(hide_short_help = true, long, value_name = "BYTES", default_value_t = 1 << 20, value_parser = bytes_parser(MAX_HELD))]
    pub max_buffer: usize,
}

impl WireArgs {
    /// Refuses `--input messages` in a command that reads one reply
    /// (`split`, `stream`, `exec`, `loop`): only `validate` and `parse`
    /// read conversations.
    pub fn refuse_messages(&self, command: &str) -> anyhow::Result<()> {
        if self.input == InputKind::Messages {
            anyhow::bail!(
                "{command} does not read --input messages (whole conversations): \
                 use validate or parse"
            );
        }
        Ok(())
    }

    /// The wire configuration.
    pub fn config(&self) -> WireConfig {
        WireConfig {
            input: self.input,
            max_buffer: self.max_buffer,
        }
    }
}

/// Where documents come from.
#[derive(Args, Debug, Clone)]
pub struct InputArgs {
    /// Input files, each one document (`-` or none: stdin); a directory
    /// stands for the files below it.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Each input line is its own document.
    #[arg(long)]
    pub lines: bool,

    /// Each input line is a JSON record; the document is the string at PATH.
    ///
    /// PATH is a jq-like path of keys and indices, e.g. `.message.content`,
    /// `.choices[0].message.content` (or `.choices.0.message.content`) or
    /// `.response`. Lines that are not JSON or have no string there are
    /// skipped; a path that matches no line of an input is reported on
    /// stderr. Implies `--lines`.
    #[arg(long, value_name = "PATH", value_parser = field_parser)]
    pub field: Option<String>,

    /// Process this many files in parallel (output stays in input order; 1 to 256).
    #[arg(short = 'j', long, value_name = "N", default_value_t = 1,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
    pub jobs: usize,

    /// Largest document read whole into memory, in bytes [default: 256 MiB].
    ///
    /// Commands that need a whole document (`split`, `validate`, `parse
    /// --tools`) stop reading a larger one with an error (exit 2) instead of
    /// running out of memory on an endless input such as /dev/zero.
    /// Streaming `parse` and `stream` hold only what is undecided.
    #[arg(hide_short_help = true, long, value_name = "BYTES", default_value_t = DEFAULT_MAX_INPUT, value_parser = input_size_parser(), hide_default_value = true)]
    pub max_input: u64,

    /// No messages about files that do not exist or cannot be read (the
    /// exit status is still 2), as `grep -s`.
    #[arg(hide_short_help = true, short = 's', long)]
    pub no_messages: bool,

    /// How directories given as input are walked.
    #[command(flatten)]
    pub walk: WalkArgs,
}

/// How a directory given as input is walked, as ripgrep walks it: sorted by
/// path, hidden entries and what `.gitignore`/`.ignore` files exclude left
/// out, symbolic links not followed, only regular text files read.
#[derive(Args, Debug, Clone, Default)]
pub struct WalkArgs {
    /// Follow symbolic links found in directories (loops are detected).
    #[arg(hide_short_help = true, short = 'L', long)]
    pub follow: bool,

    /// Also read hidden files and directories (names starting with `.`).
    #[arg(hide_short_help = true, long)]
    pub hidden: bool,

    /// Do not honour `.gitignore`, `.ignore` and git's exclude files.
    #[arg(hide_short_help = true, long)]
    pub no_ignore: bool,

    /// Only read files in directories whose path matches GLOB (`!GLOB`
    /// excludes); repeatable. Files named on the command line are always read.
    #[arg(
        hide_short_help = true,
        short = 'g',
        long = "glob",
        value_name = "GLOB"
    )]
    pub globs: Vec<String>,

    /// Also read binary files found in directories (a NUL byte in the first
    /// 8 KiB marks a file binary; they are skipped by default).
    #[arg(hide_short_help = true, short = 'a', long)]
    pub binary: bool,
}

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

/// One document: its name and its bytes, in memory or still to be read.
pub struct Document {
    /// `-` for stdin, else the path (with `:LINE` under `--lines`).
    pub name: String,
    /// The bytes.
    pub body: Body,
}

/// A document's bytes.
pub enum Body {
    /// Read into memory.
    Bytes(Vec<u8>),
    /// A whole file or stdin not read yet, for a command that feeds the
    /// engine chunk by chunk and so never holds the document.
    Reader(Box<dyn Read + Send>),
}

/// Chunk size for documents fed from a reader.
const READ_CHUNK: usize = 64 << 10;

/// Reads all of `r`, at most `max` bytes: a larger input is an error
/// naming `--max-input`, and no more than `max + 1` bytes are ever held.
///
/// `flag` names the limit in the message (`--max-input`, `--max-tools-size`).
pub fn read_limited(r: impl Read, name: &str, max: u64, flag: &str) -> anyhow::Result<Vec<u8>> {
    read_limited_sized(r, name, max, flag, None)
}

/// [`read_limited`] into a buffer sized for `size` bytes (a regular file's
/// length) up front, so that a large file is held once and not in a
/// buffer grown by doubling (which can reach twice its size).
pub fn read_limited_sized(
    r: impl Read,
    name: &str,
    max: u64,
    flag: &str,
    size: Option<u64>,
) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    if let Some(size) = size.filter(|&s| s <= max) {
        // one more byte: reading to the end finds the end without growing
        bytes.reserve_exact(usize::try_from(size).unwrap_or(0).saturating_add(1));
    }
    r.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .with_context(|| format!("reading {name}"))?;
    if bytes.len() as u64 > max {
        anyhow::bail!("{name}: larger than {flag} ({max} bytes); not read (raise {flag})");
    }
    Ok(bytes)
}

/// Lines longer than the line limit skipped so far (`--lines`, `--field`).
static LONG_LINES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Reads the rest of a line (through its `\n`) into `line`, keeping at most
/// `max + 1` bytes of it; the whole line is always consumed. `Ok(false)` at
/// the end of input.
pub(crate) fn read_line_limited(
    r: &mut impl std::io::BufRead,
    line: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<bool> {
    line.clear();
    let mut any = false;
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any);
        }
        any = true;
        let (take, done) = match memchr::memchr(b'\n', buf) {
            Some(k) => (k + 1, true),
            None => (buf.len(), false),
        };
        let room = (max + 1).saturating_sub(line.len());
        line.extend_from_slice(&buf[..take.min(room)]);
        r.consume(take);
        if done {
            return Ok(true);
        }
    }
}

impl Document {
    /// The whole document in memory, at most `max` bytes (`--max-input`):
    /// a larger one is an error, found without holding more than `max`.
    pub fn into_bytes(self, max: u64) -> anyhow::Result<Vec<u8>> {
        match self.body {
            Body::Bytes(b) => Ok(b),
            Body::Reader(r) => read_limited(r, &self.name, max, "--max-input"),
        }
    }

    /// Hands the bytes to `feed` in chunks of 64 KiB, as they are read or
    /// sliced from memory (the engine's answer is the same either way:
    /// stream == batch; what a chunk finds is written, and its memory
    /// reused, before the next). `feed` returns `false` to stop reading
    /// (`-q` has its answer).
    pub fn feed(self, mut feed: impl FnMut(&[u8]) -> bool) -> anyhow::Result<()> {
        match self.body {
            Body::Bytes(b) => {
                for chunk in b.chunks(READ_CHUNK) {
                    if !feed(chunk) {
                        break;
                    }
                }
            }
            Body::Reader(mut r) => {
                let mut buf = vec![0u8; READ_CHUNK];
                loop {
                    let n = match r.read(&mut buf) {
                        Ok(0) => break,
                        Ok(n) => n,
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                        Err(e) => return Err(e).with_context(|| format!("reading {}", self.name)),
                    };
                    if !feed(&buf[..n]) {
                        break;
                    }
                }
            }
        }
        Ok(())
    }
}

/// What stops the documents (`emit`'s answer in [`run_documents`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on.
    More,
    /// This document has given what was asked (`-m N`): stop reading it and
    /// go on with the next.
    NextDocument,
    /// Everything asked for is known (`-q`): stop reading altogether.
    Stop,
}

/// Whether a command can take documents as readers ([`Body::Reader`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Every document is read into memory first.
    Whole,
    /// A whole file or stdin comes as a reader; `--lines` documents are
    /// always read one line at a time.
    Streamed,
}

/// Reads every document named by the input flags, calling `each` in order;
/// `max_line` bounds a `--lines` / `--field` line (`--max-buffer`).
pub fn for_each_document(
    input: &InputArgs,
    reading: Reading,
    max_line: usize,
    mut each: impl FnMut(Document) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    run_documents(
        input,
        reading,
        max_line,
        |doc, push| push(doc).map(|_| ()),
        |doc| each(doc).map(|()| Flow::More),
    )
}

/// The documents of one source, split as `--lines` / `--field` ask, read
/// lazily: a file of a million lines is never in memory at once.
///
/// A line longer than `max_line` is skipped with a note on stderr, without
/// holding more than `max_line` bytes of it, and the run ends with exit 2.
pub fn documents_of(
    input: &InputArgs,
    path: &PathBuf,
    reading: Reading,
    max_line: usize,
) -> anyhow::Result<Box<dyn Iterator<Item = anyhow::Result<Document>> + Send>> {
    let (name, reader) = open_source(path)?;
    if !input.lines && input.field.is_none() {
        // a small regular file is read whole: nothing to stream, and a
        // tools file given as input can be recognised
        let small = small_regular_file(path);
        let body = if reading == Reading::Whole || small {
            let size = std::fs::metadata(path)
                .ok()
                .filter(|m| m.is_file() && path.as_os_str() != "-")
                .map(|m| m.len());
            let bytes = read_limited_sized(reader, &name, input.max_input, "--max-input", size)?;
            // an input named on the command line (or stdin) is refused (exit
            // 2); a tools file met while walking a directory is skipped with
            // a note, as a binary file is
            let named = input.files.is_empty() || input.files.iter().any(|f| f == path);
            if named {
                refuse_tools_file(&name, &bytes)?;
            } else if bytes.len() as u64 <= TOOLS_SNIFF && looks_like_tools(&bytes) {
                note(&format!("skipping {name}: a tools file (--tools reads it)"));
                return Ok(Box::new(std::iter::empty()));
            }
            Body::Bytes(bytes)
        } else {
            Body::Reader(reader)
        };
        return Ok(Box::new(std::iter::once(Ok(Document { name, body }))));
    }
    let field = input.field.clone();
    let mut reader = std::io::BufReader::with_capacity(READ_CHUNK, reader);
    let mut line = Vec::new();
    let mut k = 0usize;
    let mut done = false;
    // --field: lines read and lines where the path held a string
    let (mut records, mut matched) = (0usize, 0usize);
    Ok(Box::new(std::iter::from_fn(move || loop {
        if done {
            return None;
        }
        match read_line_limited(&mut reader, &mut line, max_line) {
            Ok(false) => {
                done = true;
                if let (Some(path), true, 0) = (&field, records > 0, matched) {
                    super::report(&format!(
                        "{name}: --field {path} matched none of its {records} line{} \
                         (no string at that path)",
                        if records == 1 { "" } else { "s" }
                    ));
                }
                return None;
            }
            Ok(true) => {}
            Err(e) => {
                done = true;
                return Some(Err(anyhow::Error::new(e).context(format!("reading {name}"))));
            }
        }
        k += 1;
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        if text.len() > max_line {
            super::report(&format!(
                "{name}:{k}: line longer than --max-buffer ({max_line} bytes); skipped"
            ));
            LONG_LINES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            continue;
        }
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        if text.is_empty() {
            continue;
        }
        let bytes = match &field {
            None => text.to_vec(),
            Some(path) => {
                records += 1;
                match field_of(text, path) {
                    Some(value) => {
                        matched += 1;
                        value.into_bytes()
                    }
                    None => continue,
                }
            }
        };
        return Some(Ok(Document {
            name: format!("{name}:{k}"),
            body: Body::Bytes(bytes),
        }));
    })))
}

/// Largest file looked at as a possible tools file given as input: tools
/// files are kilobytes; model output that large is streamed as it is.
const TOOLS_SNIFF: u64 = 4 << 20;

/// Whether `path` (or stdin for `-`) is a regular file of at most
/// `TOOLS_SNIFF` bytes: such a file is read whole before parsing (a pipe
/// or a terminal never is, so a live stream is parsed as it arrives).
pub fn small_regular_file(path: &std::path::Path) -> bool {
    let meta = if path.as_os_str() == "-" {
        stdin_metadata()
    } else {
        std::fs::metadata(path).ok()
    };
    meta.is_some_and(|m| m.is_file() && m.len() <= TOOLS_SNIFF)
}

#[cfg(unix)]
fn stdin_metadata() -> Option<std::fs::Metadata> {
    use std::os::fd::AsFd;
    let fd = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
    std::fs::File::from(fd).metadata().ok()
}

#[cfg(not(unix))]
fn stdin_metadata() -> Option<std::fs::Metadata> {
    None
}

/// A tools file (tool definitions, not calls) given where model output is
/// expected is refused with a hint, instead of its definitions being read
/// as calls: `toolcall parse tools.json reply.txt` meant `--tools`.
pub fn refuse_tools_file(name: &str, bytes: &[u8]) -> anyhow::Result<()> {
    if bytes.len() as u64 <= TOOLS_SNIFF && looks_like_tools(bytes) {
        let file = if name == "-" { "FILE" } else { name };
        anyhow::bail!(
            "{name}: this is a tools file (tool definitions with JSON Schemas), not model \
             output; did you mean --tools {file}?"
        );
    }
    Ok(())
}

/// True for a JSON array of tool definitions, or an object whose `tools`
/// is one (an MCP `tools/list` result, also inside a JSON-RPC response; a
/// request body with no messages yet) and that carries no text. A definition has a name and a parameter schema (`parameters`,
/// `inputSchema` or `input_schema`, on it or on its `function`) that is an
/// object schema with `properties`; call arguments never look like that.
pub fn looks_like_tools(bytes: &[u8]) -> bool {
    use serde_json::Value;
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if !matches!(first, Some(b'[' | b'{')) {
        return false;
    }
    let Ok(v) = serde_json::from_slice::<Value>(bytes) else {
        return false;
    };
    fn is_schema(v: Option<&Value>) -> bool {
        v.is_some_and(|s| {
            s.get("type").and_then(Value::as_str) == Some("object")
                && s.get("properties").is_some_and(Value::is_object)
        })
    }
    fn is_definition(t: &Value) -> bool {
        let inner = t.get("function").filter(|f| f.is_object()).unwrap_or(t);
        inner.get("name").is_some_and(Value::is_string)
            && inner.get("arguments").is_none()
            && ["parameters", "inputSchema", "input_schema"]
                .iter()
                .any(|k| is_schema(inner.get(*k)))
    }
    fn tools_list(v: &Value) -> Option<&Vec<Value>> {
        match v {
            Value::Array(a) => Some(a),
            Value::Object(o) => {
                // a JSON-RPC response around a tools/list result
                if let Some(result) = o.get("result").filter(|r| r.is_object()) {
                    return tools_list(result);
                }
                // a request or a reply that carries text is not a tools file
                // (a request body with no messages yet is)
                const TEXT: [&str; 8] = [
                    "messages",
                    "choices",
                    "message",
                    "output",
                    "response",
                    "content",
                    "input",
                    "conversations",
                ];
                let empty = |v: &Value| v.as_array().is_some_and(Vec::is_empty);
                if TEXT.iter().any(|k| o.get(*k).is_some_and(|v| !empty(v))) {
                    return None;
                }
                o.get("tools").and_then(Value::as_array)
            }
            _ => None,
        }
    }
    tools_list(&v).is_some_and(|list| !list.is_empty() && list.iter().all(is_definition))
}

/// The string at a jq-like `path` (`.a.b.0.c`) in a JSON record.
pub fn field_of(record: &[u8], path: &str) -> Option<String> {
    let mut v: serde_json::Value = serde_json::from_slice(record).ok()?;
    for key in path.split('.').filter(|k| !k.is_empty()) {
        v = match v {
            serde_json::Value::Object(mut m) => m.remove(key)?,
            serde_json::Value::Array(mut a) => {
                let i: usize = key.parse().ok()?;
                if i >= a.len() {
                    return None;
                }
                a.swap_remove(i)
            }
            _ => return None,
        };
    }
    match v {
        serde_json::Value::String(s) => Some(s),
        _ => None,
    }
}

/// Runs `work` on every document (in parallel over files with `-j`) and
/// hands its results to `emit` in input order. `work` gives a document's
/// results through `push` as they come (a document read from a pipe gives
/// them while it is read), and stops reading it when `push` returns `false`;
/// `emit` answers with a [`Flow`] (`-q` stops at the first call, `-m N`
/// moves on to the next document). A file that cannot be read is reported
/// on stderr and the others are still processed; the run then ends with an
/// error (exit 2), as grep does.
pub fn run_documents<T: Send>(
    input: &InputArgs,
    reading: Reading,
    max_line: usize,
    work: impl Fn(Document, &mut dyn FnMut(T) -> anyhow::Result<bool>) -> anyhow::Result<()> + Sync,
    mut emit: impl FnMut(T) -> anyhow::Result<Flow>,
) -> anyhow::Result<()> {
    use std::sync::atomic::Ordering::Relaxed;
    let sources: Vec<PathBuf> = if input.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        expand_dirs(&input.files, &input.walk)?
    };
    let mut failed = 0usize;
    let mut report = |e: anyhow::Error| -> anyhow::Result<()> {
        if super::is_broken_pipe(&e) {
            return Err(e);
        }
        let unreadable = e
            .chain()
            .any(|c| c.downcast_ref::<std::io::Error>().is_some());
        if !(input.no_messages && unreadable) {
            super::report(&format!("{e:#}"));
        }
        failed += 1;
        Ok(())
    };
    let jobs = input.jobs.max(1).min(sources.len());
    if jobs <= 1 {
        // One at a time: results go out as they come, so that `-q` on an
        // endless pipe stops at the first call and nothing piles up.
        'outer: for path in &sources {
            let docs = match documents_of(input, path, reading, max_line) {
                Ok(docs) => docs,
                Err(e) => {
                    report(e)?;
                    continue;
                }
            };
            for doc in docs {
                let mut flow = Flow::More;
                let mut emit_err = None;
                let r = doc.and_then(|doc| {
                    work(doc, &mut |t| {
                        if flow != Flow::More || emit_err.is_some() {
                            return Ok(false);
                        }
                        match emit(t) {
                            Ok(f) => {
                                flow = f;
                                Ok(f == Flow::More)
                            }
                            Err(e) => {
                                emit_err = Some(e);
                                Ok(false)
                            }
                        }
                    })
                });
                if let Some(e) = emit_err {
                    return Err(e);
                }
                if let Err(e) = r {
                    report(e)?;
                    continue 'outer;
                }
                if flow == Flow::Stop {
                    break 'outer;
                }
            }
        }
    } else {
        let stop = std::sync::atomic::AtomicBool::new(false);
        // a file's results, per document
        let process = |path: &PathBuf| -> anyhow::Result<Vec<Vec<T>>> {
            let mut all = Vec::new();
            for doc in documents_of(input, path, reading, max_line)? {
                let mut results = Vec::new();
                work(doc?, &mut |t| {
                    results.push(t);
                    Ok(!stop.load(Relaxed))
                })?;
                all.push(results);
            }
            Ok(all)
        };
        let next = std::sync::atomic::AtomicUsize::new(0);
        let (tx, rx) = std::sync::mpsc::channel::<(usize, anyhow::Result<Vec<Vec<T>>>)>();
        std::thread::scope(|scope| -> anyhow::Result<()> {
            for _ in 0..jobs {
                let tx = tx.clone();
                let (next, stop, sources, process) = (&next, &stop, &sources, &process);
                scope.spawn(move || loop {
                    if stop.load(Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Relaxed);
                    let Some(path) = sources.get(i) else { break };
                    if tx.send((i, process(path))).is_err() {
                        break;
                    }
                });
            }
            drop(tx);
            let mut pending = std::collections::BTreeMap::new();
            let mut want = 0usize;
            let mut result = Ok(());
            'recv: for (i, r) in rx {
                pending.insert(i, r);
                while let Some(r) = pending.remove(&want) {
                    want += 1;
                    match r {
                        Ok(docs) => {
                            for results in docs {
                                for item in results {
                                    match emit(item) {
                                        Ok(Flow::More) => {}
                                        Ok(Flow::NextDocument) => break,
                                        Ok(Flow::Stop) => {
                                            stop.store(true, Relaxed);
                                            break 'recv;
                                        }
                                        Err(e) => {
                                            stop.store(true, Relaxed);
                                            result = Err(e);
                                            break 'recv;
                                        }
                                    }
                                }
                            }
                        }
                        Err(e) => {
                            if let Err(e) = report(e) {
                                stop.store(true, Relaxed);
                                result = Err(e);
                                break 'recv;
                            }
                        }
                    }
                }
            }
            result
        })?;
    }
    if failed > 0 && input.no_messages {
        super::fail_later();
    } else if failed > 0 {
        anyhow::bail!(
            "{failed} input{} could not be read",
            if failed == 1 { "" } else { "s" }
        );
    }
    let long = LONG_LINES.load(Relaxed);
    if long > 0 {
        anyhow::bail!(
            "{long} line{} longer than --max-buffer {} skipped",
            if long == 1 { "" } else { "s" },
            if long == 1 { "was" } else { "were" }
        );
    }
    Ok(())
}

/// Replaces each directory by the files below it (see [`WalkArgs`]); other
/// paths stay as given. What is skipped inside a directory (a FIFO, a
/// socket, a device, a binary file, an entry that cannot be read) is noted on
/// stderr unless it is only hidden or ignored.
pub fn expand_dirs(paths: &[PathBuf], walk: &WalkArgs) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.as_os_str() == "-" || !p.is_dir() {
            out.push(p.clone());
            continue;
        }
        let mut builder = ignore::WalkBuilder::new(p);
        builder
            .follow_links(walk.follow)
            .hidden(!walk.hidden)
            .ignore(!walk.no_ignore)
            .git_ignore(!walk.no_ignore)
            .git_global(!walk.no_ignore)
            .git_exclude(!walk.no_ignore)
            .parents(!walk.no_ignore)
            .require_git(false)
            .sort_by_file_path(|a, b| a.cmp(b));
        if !walk.globs.is_empty() {
            let mut globs = ignore::overrides::OverrideBuilder::new(p);
            for g in &walk.globs {
                globs
                    .add(g)
                    .map_err(|e| anyhow::anyhow!("invalid --glob {g:?}: {e}"))?;
            }
            let globs = globs
                .build()
                .map_err(|e| anyhow::anyhow!("invalid --glob: {e}"))?;
            builder.overrides(globs);
        }
        for entry in builder.build() {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    note(&format!("skipping: {e}"));
                    continue;
                }
            };
            let Some(kind) = entry.file_type() else {
                continue; // stdin, never produced for a directory
            };
            if kind.is_dir() {
                continue;
            }
            let path = entry.into_path();
            if kind.is_symlink() {
                continue; // only reached without -L
            }
            if !kind.is_file() {
                note(&format!("skipping {}: not a regular file", path.display()));
                continue;
            }
            if !walk.binary && is_binary(&path) {
                note(&format!(
                    "skipping {}: binary file (-a reads it)",
                    path.display()
                ));
                continue;
            }
            out.push(path);
        }
    }
    Ok(out)
}

/// Writes a note about a skipped path to stderr, control characters escaped.
fn note(msg: &str) {
    super::report(msg);
}

/// A NUL byte in the first 8 KiB, as grep and ripgrep decide.
fn is_binary(path: &std::path::Path) -> bool {
    use std::io::Read;
    let Ok(f) = std::fs::File::open(path) else {
        return false; // reported when it is read
    };
    let mut head = Vec::with_capacity(8192);
    if f.take(8192).read_to_end(&mut head).is_err() {
        return false;
    }
    memchr::memchr(0, &head).is_some()
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

/// Reads a whole file, or stdin for `-`, at most `max` bytes.
pub fn read_source(path: &PathBuf, max: u64) -> anyhow::Result<(String, Vec<u8>)> {
    let (name, reader) = open_source(path)?;
    let bytes = read_limited(reader, &name, max, "--max-input")?;
    Ok((name, bytes))
}

/// Opens a file, or stdin for `-`, without reading it.
pub fn open_source(path: &PathBuf) -> anyhow::Result<(String, Box<dyn Read + Send>)> {
    if path.as_os_str() == "-" {
        Ok(("-".to_string(), Box::new(std::io::stdin())))
    } else {
        if path.is_dir() {
            anyhow::bail!("{}: is a directory", path.display());
        }
        let file =
            std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
        Ok((path.display().to_string(), Box::new(file)))
    }
}
