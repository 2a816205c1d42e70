//! `toolcall-core`: find, repair and validate the tool calls language models
//! write, as a library.
//!
//! Models ask for tools in dozens of dialects (`<tool_call>{…}</tool_call>`,
//! `[TOOL_CALLS][…]`, `<function=…>` XML, pythonic `[f(a=1)]`, special
//! tokens, harmony channels …), often sloppily. This crate is the engine of
//! the `toolcall` command-line tool, with no command-line parts: no clap, no
//! stdout, no exit codes; failures are typed values.
//!
//! The face is small: four namespaces and the items re-exported at the
//! root.
//!
//! * [`parse`] reads a whole document into a [`Collector`]: its text,
//!   reasoning and calls ([`ToolCall`]), every byte accounted for by one
//!   [`Segment`].
//! * [`Engine`] is the same parser fed chunk by chunk (a model's output as
//!   it streams), handing [`Event`]s to a [`Sink`]; batch parsing is this
//!   engine fed once, so the two cannot disagree. [`Config`] holds its
//!   settings.
//! * [`repair`] fixes broken JSON and says what it changed ([`Repair`]);
//!   [`parse_value`] parses tool-call arguments, repairing them if needed.
//! * [`render_tools`], [`render_results`] and [`render_calls`] write tools,
//!   results and calls in a [`Family`]'s prompt format.
//! * [`formats`] is the format table: every dialect's descriptor, its id
//!   and the registry's lookups;
//!   [`validate`] checks calls against tool schemas (behind the default
//!   `validate` feature) and lints conversations written as message lists
//!   ([`validate::messages`]); [`wire`] decodes Ollama, OpenAI and
//!   llama.cpp server streams; [`agent`] holds the pieces of an agent loop
//!   that know nothing of processes or terminals.
//!
//! ```
//! use toolcall_core::{parse, Config};
//!
//! let out = b"Let me look.\n<tool_call>{\"name\": \"search\", \"arguments\": {\"q\": \"rust\"}}</tool_call>";
//! let doc = parse(out, &Config::default());
//! assert_eq!(doc.calls.len(), 1);
//! assert_eq!(doc.calls[0].name, "search");
//! assert_eq!(doc.calls[0].arguments["q"], "rust");
//! ```
//!
//! See `examples/calls.rs` for streaming input through the engine.

// The four namespaces a library user reaches by path (docs/architecture.md,
// "The core's public face"); everything else is re-exported item by item below.
pub mod agent;
pub mod formats;
pub mod validate;
pub mod wire;

mod call;
mod config;
mod document;
mod door;
mod engine;
mod ndjson;
mod record;
mod render;
mod repair;
mod scan;
mod tool;

pub use call::join_server_name;
pub use config::{
    Config, FormatChoice, DEFAULT_THINK_WINDOW, THINK_WINDOW, WHOLE_DOCUMENT_THINK_WINDOW,
};
pub use document::{parse, parse_chunked, Collector};
pub use door::names::{format_records, models, nearest, resolve_name};
pub use door::session_block;
pub use door::{
    conversation, conversations, read, At, Document, FormatRecord, ModelRecord, Named, OptionError,
    Options, Reader, Record, Resolved, MAX_ERRORS_PER_BLOCK, MAX_HELD,
};
pub use door::{write_done, StreamRecorder};
pub use engine::{Engine, Event, Sink};
pub use formats::registry::{prompted_model, PROMPTED_MODELS};
pub use ndjson::{write_call_start, write_text_record};
pub use record::{
    Arguments, ErrorRecord, PlacedIssue, Segment, SegmentKind, Span, Split, ToolCall, Turn,
    Validation,
};
pub use render::tools::plain_json as tool_json;
pub use render::{
    families, family, prefix_server, render_calls, render_results, render_tools, CallSpec, Family,
    Message, Prompt, RenderInputError, Source, ToolResult,
};
pub use repair::{
    is_valid_json, parse_value, repair, repair_bytes, repair_document, repair_document_str,
    repair_document_text, Prose, Repair, RepairError, RepairKind, RepairOptions, Repaired,
    DEFAULT_MAX_INPUT_BYTES, DEFAULT_TIMEOUT_MS, PROSE_MESSAGE,
};
pub use scan::{escape_terminal, lossy};
