//! The flags that say where documents come from: files and directories,
//! `--lines` and `--field`, the wire kind, the size bounds.

use super::engine_flags::{bytes_parser, MAX_HELD};
use crate::wire::{InputKind, WireConfig};
use clap::Args;
use std::path::PathBuf;

/// Default `--max-input`: 256 MiB. Model output is kilobytes to megabytes; a
/// document read whole that is larger is not model output (or is
/// `/dev/zero`), and the limit turns it into a clear error instead of an
/// out-of-memory abort. Commands that stream (`stream`, `parse` without
/// `--tools`) have no such limit.
pub const DEFAULT_MAX_INPUT: u64 = 256 << 20;

/// Largest `--max-input`: 1 TiB.
pub const MAX_INPUT: u64 = 1 << 40;

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
    #[arg(hide_short_help = true, long, value_name = "BYTES", default_value_t = crate::Options::default().max_buffer, value_parser = bytes_parser(MAX_HELD))]
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

    /// `options` with these flags' input kind and bound.
    pub fn options(&self, mut options: crate::Options) -> crate::Options {
        options.input = self.input.name().to_string();
        options.max_buffer = self.max_buffer;
        options
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
    ///
    /// The output is the same as with `-j 1`, byte for byte; at most N
    /// files' output is held at once. `validate --retry-cmd` and
    /// `--retry-prompt` take one file at a time.
    #[arg(short = 'j', long, visible_alias = "threads", value_name = "N", default_value_t = 1,
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
