//! Flags and input handling shared by the subcommands, one module per
//! concern: the engine's flags, the input's, the output's; reading a
//! source; the documents of the inputs and the run over them; walking
//! directories; telling a tools file from model output. Everything is
//! re-exported here, so the subcommands name it `common::…`.

mod documents;
mod engine_flags;
mod input_flags;
mod map;
mod output_flags;
mod read;
mod sniff;
mod walk;

pub use documents::{
    documents_of, field_of, for_each_document, run_documents, unreadable, Flow, Reading,
};
pub use engine_flags::{bytes_parser, resolve, EngineArgs, MAX_HELD};
pub use input_flags::{
    input_size_parser, InputArgs, WalkArgs, WireArgs, DEFAULT_MAX_INPUT, MAX_INPUT,
};
pub use map::MAP_MIN;
/// Regular files up to this size are read whole when streaming would be
/// possible (a tools file given as input can then be recognised).
pub(crate) const READ_WHOLE: u64 = sniff::TOOLS_SNIFF;
pub use output_flags::{BufferArgs, MatchArgs, RecordArgs, ShapeArgs};
pub(crate) use read::read_line_capped;
pub(crate) use read::{first_line, read_line_counted, read_line_limited, FirstLine};
pub use read::{open_source, read_limited, read_limited_sized, read_source, Body, Bytes, Document};
pub use sniff::{looks_like_tools, refuse_tools_file, small_regular_file};
pub use walk::expand_dirs;

// The submodules name these `super::…`, as the other modules of the CLI do.
use super::{fail_later, is_broken_pipe, names, report, Outcome};
