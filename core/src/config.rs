//! Engine settings: what the engine looks for and how it treats what it
//! finds. Formats read them while scanning and parsing; they live apart from
//! the engine so that formats and engine do not depend on each other.

use crate::formats::id::FormatId;

/// Which formats to look for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FormatChoice {
    /// Detect per document from the markers (the default).
    #[default]
    Auto,
    /// Only this format; detection is bypassed.
    Only(FormatId),
}

/// Engine settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// The document's name, copied into records.
    pub doc: String,
    /// Which formats to look for.
    pub format: FormatChoice,
    /// Treat call-shaped ```` ```json ```` fences as calls.
    pub json_blocks: bool,
    /// Treat call-shaped JSON inline in prose as calls.
    pub inline_json: bool,
    /// Report calls drafted inside reasoning (flagged `in_reasoning`).
    pub reasoning_calls: bool,
    /// Largest block held back while undecided, in bytes.
    pub max_block: usize,
    /// Most error records written for one block (at least 1): past it the
    /// last record sums up the rest (`N more errors in this block, …`),
    /// since each error record carries the block's bytes.
    pub max_block_errors: usize,
    /// The document starts inside a `<think>` span whose opening tag was in
    /// the prompt (DeepSeek V3.1, Qwen3 and ERNIE thinking templates): bytes
    /// up to the first `</think>` are reasoning.
    pub think_open: bool,
    /// Bytes at the start of a document searched for a reasoning closer
    /// (`</think>`, `<|END_THINKING|>` …) with no opener before it, when
    /// neither `think_open` nor a generation prompt says how the document
    /// starts: one found there shows the prompt opened the reasoning, and
    /// the bytes before it are reasoning. Those bytes are held back until
    /// that is decided. `0`: never (a lone closer is markup).
    pub think_window: usize,
    /// Repair broken argument JSON.
    pub repair: bool,
    /// Time budget of one repair of argument JSON, in milliseconds (`0`: no
    /// budget). Repair is linear, so this is a last resort.
    pub repair_timeout_ms: u64,
    /// Largest broken argument JSON, in bytes, that is repaired (default
    /// 1 MiB); valid JSON passes at any size.
    pub repair_max_bytes: usize,
    /// The text the chat template appended after the last message (its
    /// generation prompt): the engine starts in the state that text leaves
    /// it in (reasoning open, a message header already open …). Its bytes
    /// are not part of the document: offsets start after it.
    pub generation_prompt: Option<Vec<u8>>,
    /// The output was cut at the model's token limit (finish reason
    /// `length`): a call still open at the end is not a call but a
    /// truncation error, and its bytes are markup.
    pub truncated: bool,
    /// The tool names a tools file declares (`--tools`), sorted: a damaged
    /// call naming one of them is recovered on weaker evidence (see
    /// `docs/recovery.md`). `None` without a tools file.
    pub tool_names: Option<std::sync::Arc<[String]>>,
    /// How many model replies of the same name came before this one in the
    /// conversation (`loop` counts the assistant turns, a resumed history's
    /// included; `0` elsewhere). With `doc` it goes into the ids derived for
    /// calls that came without one, so that no two documents of a run or
    /// turns of a conversation share an id.
    pub turn: u64,
}

/// Default [`Config::think_window`] of what reads output as it arrives
/// (`stream`, `exec`, `loop`, [`Config::default`]): off. Looking for a
/// closer holds a document's start back, so prose would not stream as it
/// arrives; the search runs only when asked for ([`THINK_WINDOW`] is a good
/// size).
pub const DEFAULT_THINK_WINDOW: usize = 0;

/// Default [`Config::think_window`] of what reads whole documents (`parse`,
/// `split`, `validate`, Python's `parse`): the whole document, so that a
/// lone closer anywhere in it (DeepSeek-R1 distills, QwQ, Qwen3 thinking:
/// the template opened `<think>`) makes what precedes it reasoning. Nothing
/// streams there, so holding the start costs nothing a reader sees; what is
/// held stays within [`Config::max_block`] (callers take the smaller).
/// `stream` with the same window gives the same records (docs/design.md).
pub const WHOLE_DOCUMENT_THINK_WINDOW: usize = usize::MAX;

/// A [`Config::think_window`] that covers the short reasoning before a call
/// or an answer (8 KiB, about 2,000 tokens) while `stream` holds back no
/// more than that at a document's start.
pub const THINK_WINDOW: usize = 8 << 10;

impl Default for Config {
    fn default() -> Self {
        Config {
            doc: "-".to_string(),
            format: FormatChoice::Auto,
            json_blocks: true,
            inline_json: false,
            reasoning_calls: false,
            max_block: 1 << 20,
            max_block_errors: crate::engine::MAX_BLOCK_ERRORS,
            repair: true,
            repair_timeout_ms: crate::repair::DEFAULT_TIMEOUT_MS,
            repair_max_bytes: crate::repair::DEFAULT_MAX_INPUT_BYTES,
            think_open: false,
            think_window: DEFAULT_THINK_WINDOW,
            generation_prompt: None,
            truncated: false,
            tool_names: None,
            turn: 0,
        }
    }
}

impl Config {
    /// The same settings for the document named `doc`.
    pub fn for_doc(&self, doc: &str) -> Config {
        Config {
            doc: doc.to_string(),
            ..self.clone()
        }
    }

    /// True when a tools file was given and declares `name`.
    pub fn declares(&self, name: &str) -> bool {
        self.tool_names
            .as_ref()
            .is_some_and(|names| names.binary_search_by(|n| n.as_str().cmp(name)).is_ok())
    }

    /// True when `id` may be reported under the current format choice.
    #[inline]
    pub fn allows(&self, id: FormatId) -> bool {
        match self.format {
            FormatChoice::Auto => true,
            FormatChoice::Only(f) => f == id,
        }
    }

    /// The options of a repair of argument JSON under these settings.
    pub fn repair_options(&self) -> crate::repair::RepairOptions {
        crate::repair::RepairOptions {
            timeout_ms: self.repair_timeout_ms,
            max_input_bytes: self.repair_max_bytes,
            ..crate::repair::RepairOptions::default()
        }
    }

    /// True when `--format` names exactly this format.
    #[inline]
    pub fn is_only(&self, id: FormatId) -> bool {
        self.format == FormatChoice::Only(id)
    }
}
