//! `toolcall`: find, repair and validate the tool calls language models write.
//!
//! The engine lives in the `toolcall-core` crate, whose whole public face is
//! re-exported here (so `toolcall::Engine` and `toolcall_core::Engine` are
//! the same type); this crate adds the command line in [`cli`]. A Rust
//! program that only needs the engine depends on `toolcall-core` alone,
//! without clap or anyhow.
//!
//! ```
//! use toolcall::{parse, Config};
//! let doc = parse(b"<tool_call>{\"name\":\"f\",\"arguments\":{\"a\":1}}</tool_call>", &Config::default());
//! assert_eq!(doc.calls[0].name, "f");
//! ```

pub use toolcall_core::*;

pub mod cli;
