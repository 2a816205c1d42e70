//! `toolcall-core`: find, repair and validate the tool calls language models
//! write, as a library.
//!
//! Models ask for tools in dozens of dialects (`<tool_call>{…}</tool_call>`,
//! `[TOOL_CALLS][…]`, `<function=…>` XML, pythonic `[f(a=1)]`, special
//! tokens, harmony channels …), often sloppily. This crate is the engine of
//! the `toolcall` command-line tool, with no command-line parts: no clap, no
//! stdout, no exit codes; failures are typed values.
//!
//! * [`document::parse`] reads a whole document: its text, reasoning and
//!   calls, every byte accounted for by one segment.
//! * [`engine::Engine`] is the same parser fed chunk by chunk (a model's
//!   output as it streams); batch parsing is this engine fed once, so the
//!   two cannot disagree.
//! * [`formats`] holds one module per dialect and the registry of them;
//!   [`repair`] fixes broken JSON; [`validate`] checks calls against tool
//!   schemas; [`wire`] decodes Ollama, OpenAI and llama.cpp server streams;
//!   [`messages`] reads and lints conversations written as message lists;
//!   [`render`] writes tools, calls and results in each family's prompt
//!   format.
//!
//! ```
//! use toolcall_core::{config::Config, document};
//!
//! let out = b"Let me look.\n<tool_call>{\"name\": \"search\", \"arguments\": {\"q\": \"rust\"}}</tool_call>";
//! let doc = document::parse(out, &Config::default());
//! assert_eq!(doc.calls.len(), 1);
//! assert_eq!(doc.calls[0].name, "search");
//! assert_eq!(doc.calls[0].arguments["q"], "rust");
//! ```
//!
//! See `examples/calls.rs` for streaming input through the engine.

pub mod agent;
pub mod call;
pub mod config;
pub mod document;
pub mod engine;
pub mod formats;
pub mod messages;
pub mod ndjson;
pub mod record;
pub mod render;
pub mod repair;
pub mod scan;
pub mod validate;
pub mod wire;
