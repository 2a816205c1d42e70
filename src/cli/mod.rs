//! The command-line edge: clap definitions and the thin per-subcommand drivers.
//!
//! Everything here translates flags into core configuration, loops over the
//! inputs and writes records. `anyhow` is used only in this module.

pub mod approve;
pub mod child;
pub mod common;
pub mod exec;
pub mod formats;
pub mod loop_cmd;
pub mod output;
pub mod parse;
pub mod render;
pub mod repair;
pub mod split;
pub mod stream;
pub mod tools;
pub mod validate;

use clap::{Parser, Subcommand};

/// What a subcommand found, mapped to the exit status as grep does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It found what it looks for (exit 0).
    Found,
    /// It ran correctly but found nothing (exit 1).
    NotFound,
    /// A specific exit status (`exec` and `loop`: 130 interrupted, 124
    /// request timeout).
    Exit(u8),
}

impl Outcome {
    /// Combines two outcomes: found wins.
    pub fn or(self, other: Outcome) -> Outcome {
        if let (Outcome::Exit(n), _) | (_, Outcome::Exit(n)) = (self, other) {
            return Outcome::Exit(n);
        }
        if self == Outcome::Found || other == Outcome::Found {
            Outcome::Found
        } else {
            Outcome::NotFound
        }
    }
}

/// Find, repair and validate the tool calls language models write.
///
/// toolcall reads model output (stdin or files) and writes NDJSON records on
/// stdout, one JSON object per line: ready for jq, grep, diff and golden
/// files. Exit status is grep's: 0 found, 1 not found, 2 error.
#[derive(Parser, Debug)]
#[command(name = "toolcall", version, about, long_about, max_term_width = 100)]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands (their help comes from each argument struct).
#[derive(Subcommand, Debug)]
#[allow(missing_docs)]
pub enum Command {
    Parse(parse::ParseArgs),
    Stream(stream::StreamArgs),
    Split(split::SplitArgs),
    Repair(repair::RepairArgs),
    Validate(validate::ValidateArgs),
    Formats(formats::FormatsArgs),
    Render(render::RenderArgs),
    Exec(exec::ExecArgs),
    Loop(loop_cmd::LoopArgs),
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<Outcome> {
    match cli.command {
        Command::Parse(a) => parse::run(&a),
        Command::Stream(a) => stream::run(&a),
        Command::Split(a) => split::run(&a),
        Command::Repair(a) => {
            let mut out = output::Output::stdout(output::FlushPolicy::choose(false, false, false));
            let outcome = repair::run(&a, &mut out)?;
            out.flush()?;
            Ok(outcome)
        }
        Command::Validate(a) => validate::run(&a),
        Command::Formats(a) => formats::run(&a),
        Command::Render(a) => render::run(&a),
        Command::Exec(a) => exec::run(&a),
        Command::Loop(a) => loop_cmd::run(&a),
    }
}

/// The clap command, for man pages and completions.
pub fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

/// A message made safe for a terminal: control characters other than
/// newline and tab become visible escapes (`\u{1b}`), so text from a model
/// or a file cannot drive the terminal, while multi-line messages keep their
/// lines.
pub fn sanitize(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len());
    for c in msg.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// True when `err` is, at any depth, a closed pipe.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
