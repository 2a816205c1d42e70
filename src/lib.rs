//! `toolcall`: find, repair and validate the tool calls language models write.
//!
//! The engine lives in the `toolcall-core` crate (re-exported here, so
//! `toolcall::document` and `toolcall_core::document` are the same); this
//! crate adds the command line in [`cli`]. A Rust program that only needs the
//! engine depends on `toolcall-core` alone, without clap or anyhow.
//!
//! ```
//! use toolcall::{document, engine::Config};
//! let doc = document::parse(b"<tool_call>{\"name\":\"f\",\"arguments\":{\"a\":1}}</tool_call>", &Config::default());
//! assert_eq!(doc.calls[0].name, "f");
//! ```

pub use toolcall_core::{
    agent, call, config, document, engine, formats, messages, record, render, repair, scan,
    validate, wire,
};

pub mod cli;
