//! The command-line edge: clap definitions and the thin per-subcommand drivers.
//!
//! Everything here translates flags into core configuration, loops over the
//! inputs and writes records. `anyhow` is used only in this module.

pub mod approve;
pub mod child;
pub mod common;
pub mod data;
pub mod exec;
pub mod formats;
pub mod loop_cmd;
pub mod names;
pub mod output;
pub mod parse;
pub mod render;
pub mod repair;
pub mod report;
pub mod retry;
pub mod sandbox;
pub mod split;
pub mod store;
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
    // boxed: by far the largest arguments (clippy: large_enum_variant)
    Loop(Box<loop_cmd::LoopArgs>),
    Completions(CompletionsArgs),
}

/// Print a shell completion script on stdout.
///
/// The same scripts as the release's `completions/` directory, from the
/// installed binary itself.
///
/// Examples:
///
///   toolcall completions bash > ~/.local/share/bash-completion/completions/toolcall
///
///   toolcall completions zsh > ~/.zfunc/_toolcall
///
///   toolcall completions fish > ~/.config/fish/completions/toolcall.fish
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    #[arg(value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<Outcome> {
    match cli.command {
        Command::Parse(a) => parse::run(&a).map(|o| a.records.outcome(o)),
        Command::Stream(a) => stream::run(&a).map(|o| a.records.outcome(o)),
        Command::Split(a) => split::run(&a).map(|o| a.records.outcome(o)),
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
        Command::Completions(a) => {
            let mut out = Vec::new();
            clap_complete::generate(a.shell, &mut command(), "toolcall", &mut out);
            let mut w = output::Output::stdout(output::FlushPolicy::choose(false, false, false));
            w.raw(&out)?;
            w.flush()?;
            Ok(Outcome::Found)
        }
    }
}

/// The clap command, for man pages and completions.
pub fn command() -> clap::Command {
    // `--input messages` (whole conversations) is read by parse and
    // validate only: the commands that refuse it do not offer it (both
    // mutators keep the order of subcommands and flags)
    <Cli as clap::CommandFactory>::command().mut_subcommands(word_input_help)
}

/// One subcommand's `--input` help, worded for what it reads: `stream`,
/// `split`, `exec` and `loop` do not offer `messages`. Used by [`command`]
/// and [`lean_command`], so both build the same help.
fn word_input_help(c: clap::Command) -> clap::Command {
    if !matches!(c.get_name(), "stream" | "split" | "exec" | "loop") {
        return c;
    }
    c.mut_args(|a| {
        if a.get_id() != "input" {
            return a;
        }
        a.help("Input kind: auto, text, terminal, ollama, openai or llama-server")
            .long_help(INPUT_HELP_NO_MESSAGES)
    })
}

/// `--input`'s help where `messages` is refused.
const INPUT_HELP_NO_MESSAGES: &str = "Input kind: auto, text, terminal, ollama, openai or \
llama-server.

`auto` sniffs the first non-empty bytes: Ollama NDJSON, OpenAI objects, chunks or SSE (chat \
completions and the Responses API), llama-server `/completion` streams, terminal output \
(`ollama run`: an escape sequence or a `Thinking...` line first), else text. `text` is raw model \
text. With a wire kind, spans are offsets into the decoded model text; calls the server parsed \
itself have an empty span where they arrived (see the README, \"Wire inputs\"). Whole \
conversations are read by `parse` and `validate` only.";
/// The command with one subcommand's arguments only, for a command line
/// that runs `name`: building every subcommand's arguments was ~40 % of the
/// instructions of a small `toolcall parse` (issue 48,
/// docs/performance.md). The top level carries what the derived one does
/// for a run (name, version, width); its about text only shows in the
/// top-level help, which [`parse_args`] takes from [`command`]. `None` for
/// a name that is no subcommand (`help`, a misspelling).
pub fn lean_command(name: &str) -> Option<clap::Command> {
    use clap::Args;
    let sub = clap::Command::new(name.to_string());
    let sub = match name {
        "parse" => parse::ParseArgs::augment_args(sub),
        "stream" => stream::StreamArgs::augment_args(sub),
        "split" => split::SplitArgs::augment_args(sub),
        "repair" => repair::RepairArgs::augment_args(sub),
        "validate" => validate::ValidateArgs::augment_args(sub),
        "formats" => formats::FormatsArgs::augment_args(sub),
        "render" => render::RenderArgs::augment_args(sub),
        "exec" => exec::ExecArgs::augment_args(sub),
        "loop" => loop_cmd::LoopArgs::augment_args(sub),
        "completions" => CompletionsArgs::augment_args(sub),
        _ => return None,
    };
    Some(
        clap::Command::new("toolcall")
            .version(env!("CARGO_PKG_VERSION"))
            .max_term_width(100)
            .subcommand_required(true)
            .arg_required_else_help(true)
            .subcommand(word_input_help(sub)),
    )
}

/// The command line, as `Cli::parse` reads it (errors and help exit the
/// process the same way), with only the running subcommand's arguments
/// built when the first argument names one ([`lean_command`]); the whole
/// command otherwise (top-level help, `--version`, a misspelt name).
pub fn parse_args() -> Cli {
    use clap::FromArgMatches;
    let first = std::env::args_os().nth(1);
    let cmd = first
        .as_deref()
        .and_then(std::ffi::OsStr::to_str)
        .and_then(lean_command)
        .unwrap_or_else(command);
    let mut matches = match cmd.clone().try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            let plain = || {
                cmd.styles(clap::builder::Styles::plain())
                    .try_get_matches()
                    .err()
            };
            let text = e.render().to_string();
            usage_exit(e, plain, text)
        }
    };
    Cli::from_arg_matches_mut(&mut matches).unwrap_or_else(|e| {
        let plain = e.format(&mut command().styles(clap::builder::Styles::plain()));
        let text = plain.render().ansi().to_string();
        usage_exit(plain, || None, text)
    })
}

/// Prints a command-line error and exits with its status (2). Help and
/// the version are clap's own text and go out as clap writes them. An
/// error quotes the arguments as given, and clap would write them raw to a
/// terminal, so it is made again without styles (`plain`: the same
/// parse of a command with plain styles) and written with each line
/// escaped by [`sanitize`]: an argument (a file name, a flag value a
/// script took from a model) can neither drive the terminal nor forge a
/// line.
///
/// `stripped` is what to write when no plain error comes back: the text
/// with clap's styles and any escape sequence of the arguments taken out.
fn usage_exit(e: clap::Error, plain: impl FnOnce() -> Option<clap::Error>, stripped: String) -> ! {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        e.exit()
    }
    let code = e.exit_code();
    let text = plain()
        .filter(|p| p.kind() == e.kind())
        .map_or(stripped, |p| p.render().ansi().to_string());
    let lines: Vec<String> = text
        .trim_end_matches('\n')
        .split('\n')
        .map(|l| sanitize(l).into_owned())
        .collect();
    to_stderr(&(lines.join("\n") + "\n"));
    std::process::exit(code)
}

/// A message made safe for a terminal: the one escaping function for
/// everything written on stderr ([`crate::escape_terminal`]): control
/// characters (ESC, OSC, BEL, NUL, CR, newlines, C1) and bidirectional
/// overrides become visible escapes, so text from a model, a server or a file
/// can neither drive the terminal nor forge a line.
pub fn sanitize(msg: &str) -> std::borrow::Cow<'_, str> {
    crate::escape_terminal(msg)
}

/// Writes `toolcall: MSG` on stderr, escaped by [`sanitize`]: every message
/// is one line.
pub fn report(msg: &str) {
    to_stderr(&format!("toolcall: {}\n", sanitize(msg)));
}

/// The one writer of stderr: writes `text` as it is, and drops what cannot
/// be written (a full disk, a closed pipe, a reader gone). A diagnostic is
/// never worth the run: `eprintln!` would panic there and lose the records
/// still in stdout's buffer.
///
/// On a thread inside [`capture_stderr`] the text is kept instead, so that
/// files checked in parallel (`-j`) print their diagnostics in input order.
pub fn to_stderr(text: &str) {
    to_stderr_bytes(text.as_bytes());
}

thread_local! {
    /// What [`to_stderr`] keeps on this thread, inside [`capture_stderr`].
    static CAPTURED: std::cell::RefCell<Option<Vec<u8>>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with this thread's stderr text kept: returns `f`'s result and
/// the bytes [`to_stderr`] was given meanwhile, for the caller to write
/// when their turn comes.
pub fn capture_stderr<R>(f: impl FnOnce() -> R) -> (R, Vec<u8>) {
    let before = CAPTURED.with(|c| c.borrow_mut().replace(Vec::new()));
    let r = f();
    let kept = CAPTURED.with(|c| std::mem::replace(&mut *c.borrow_mut(), before));
    (r, kept.unwrap_or_default())
}

/// The bytes kept so far inside [`capture_stderr`] on this thread (the
/// buffer is left empty; nothing outside a capture).
pub fn take_captured_stderr() -> Vec<u8> {
    CAPTURED.with(|c| {
        c.borrow_mut()
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    })
}

/// Writes bytes kept by [`capture_stderr`] on stderr (or on the enclosing
/// capture's buffer).
pub fn to_stderr_bytes(bytes: &[u8]) {
    use std::io::Write;
    let kept = CAPTURED.with(|c| match c.borrow_mut().as_mut() {
        Some(buf) => {
            buf.extend_from_slice(bytes);
            true
        }
        None => false,
    });
    if !kept {
        let _ = std::io::stderr().lock().write_all(bytes);
    }
}

static FAILED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Marks the run as failed (exit 2 at the end) without stopping it: a server
/// error in a stream is reported, the records around it are still written.
pub fn fail_later() {
    FAILED.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether [`fail_later`] was called.
pub fn failed() -> bool {
    FAILED.load(std::sync::atomic::Ordering::Relaxed)
}

/// Reports the errors a server sent in the stream of document `doc` on
/// stderr and marks the run failed (see [`fail_later`]).
pub fn report_server_errors(doc: &str, summary: &crate::wire::Summary) {
    for e in &summary.server_errors {
        report(&format!("{doc}: {e}"));
    }
    let more = summary
        .server_error_count
        .saturating_sub(summary.server_errors.len() as u64);
    if more > 0 {
        report(&format!("{doc}: {more} more server errors"));
    }
    if summary.server_error_count > 0 {
        fail_later();
    }
}

/// Makes SIGINT, SIGTERM and SIGHUP kill the running retry command's process
/// group before toolcall exits (with 128 + the signal's number, as a shell
/// reports a death by signal). The command runs in a group of its own, so a
/// signal aimed at toolcall would not reach it otherwise.
#[cfg(unix)]
pub fn kill_retry_on_signal() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    // a signal the caller ignores (`nohup`) stays ignored
    let ignored = child::ignored_signals();
    let wanted: Vec<i32> = [SIGINT, SIGTERM, SIGHUP]
        .into_iter()
        .filter(|s| !ignored.contains(s))
        .collect();
    if wanted.is_empty() {
        return;
    }
    let Ok(mut signals) = signal_hook::iterator::Signals::new(&wanted) else {
        return; // cannot happen for these signals; the default action stays
    };
    std::thread::spawn(move || {
        if let Some(sig) = signals.forever().next() {
            crate::cli::retry::kill_running();
            std::process::exit(128 + sig);
        }
    });
}

/// Without Unix signals, nothing to set up.
#[cfg(not(unix))]
pub fn kill_retry_on_signal() {}

/// True when `err` is, at any depth, a closed pipe.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
