//! Running the retry command (`validate --retry-cmd`): the model asked
//! again, with the specific error, at most N times.
//!
//! The command runs with `sh -c` in a process group of its own. It gets
//! [`RunLimits::timeout`] (default 120 s): then the whole group is killed,
//! the attempt fails, and so do background processes it left holding the
//! output pipe. Its output is read up to [`RunLimits::max_output`] bytes
//! (default 16 MiB): a longer reply kills the group and fails the attempt,
//! so an endless reply cannot exhaust memory. [`kill_running`] kills the
//! group of the command running now (for the program's signal handler: the
//! command is not in its caller's process group, so a Ctrl-C or `kill`
//! aimed at the caller would not reach it).
//!
//! What the prompt says and how a reply is read are the engine's
//! (`toolcall_core::validate::retry`).

use crate::validate::retry::{prompt, reply_from_output, Failure, Usage};
use clap::Args;
use std::fmt;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// The model command could not be run at all.
#[derive(Debug)]
pub struct RetryError(pub String);

impl fmt::Display for RetryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "retry command: {}", self.0)
    }
}

impl std::error::Error for RetryError {}

/// Bounds on one run of the retry command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunLimits {
    /// How long it may run before its process group is killed.
    pub timeout: Duration,
    /// Most bytes of its output read; past them its group is killed.
    pub max_output: u64,
}

/// Default [`RunLimits::timeout`]: 120 s, long enough for a local model to
/// write a call on a slow machine, short enough that a hung command does
/// not hold a pipeline for ever.
pub const DEFAULT_TIMEOUT_SECS: u64 = 120;

/// Default [`RunLimits::max_output`]: 16 MiB, far more than any reply that
/// holds one tool call (with a server's JSON framing around it).
pub const DEFAULT_MAX_OUTPUT: u64 = 16 << 20;

impl Default for RunLimits {
    fn default() -> Self {
        RunLimits {
            timeout: Duration::from_secs(DEFAULT_TIMEOUT_SECS),
            max_output: DEFAULT_MAX_OUTPUT,
        }
    }
}

/// The process group of the retry command running now (0: none).
static RUNNING: AtomicU32 = AtomicU32::new(0);

/// Kills the process group of the retry command running now, if any: for a
/// signal handler of the program, so that killing it does not leave the
/// command running.
pub fn kill_running() {
    let pid = RUNNING.load(Ordering::SeqCst);
    if pid != 0 {
        kill_group(pid);
    }
}

/// Sends SIGKILL to the process group `pgid` (an error, such as a group
/// already gone, is ignored).
fn kill_group(pgid: u32) {
    #[cfg(unix)]
    if let Some(pid) = i32::try_from(pgid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
    #[cfg(not(unix))]
    let _ = pgid;
}

/// Runs `cmd` with `sh -c` in a process group of its own, the prompt on
/// stdin, within `limits`. Returns its stdout, or the reason the attempt
/// failed (the command exited non-zero, timed out or wrote too much) as
/// `Err` inside `Ok`; `Err` when it could not be started.
pub fn run_model(
    cmd: &str,
    prompt: &str,
    attempt: u32,
    limits: RunLimits,
) -> Result<Result<String, String>, RetryError> {
    use wait_timeout::ChildExt;
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(cmd)
        .env("TOOLCALL_ATTEMPT", attempt.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    let mut child = command
        .spawn()
        .map_err(|e| RetryError(format!("cannot start sh -c '{cmd}': {e}")))?;
    let pgid = child.id();
    RUNNING.store(pgid, Ordering::SeqCst);
    let result = (|| {
        let mut stdin = child
            .stdin
            .take()
            .ok_or_else(|| RetryError("no stdin".into()))?;
        let input = prompt.as_bytes().to_vec();
        let writer = std::thread::spawn(move || {
            // a model that does not read its prompt closes the pipe: not an error
            let _ = stdin.write_all(&input);
        });
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| RetryError("no stdout".into()))?;
        let max = limits.max_output;
        let reader = std::thread::spawn(move || {
            let mut out = Vec::new();
            let r = stdout.take(max.saturating_add(1)).read_to_end(&mut out);
            if out.len() as u64 > max {
                // it would block writing the rest: stop it now
                kill_group(pgid);
            }
            r.map(|_| out)
        });
        let status = child
            .wait_timeout(limits.timeout)
            .map_err(|e| RetryError(format!("waiting for it: {e}")))?;
        // the group goes, also what the command left in the background
        // holding the output pipe
        kill_group(pgid);
        if status.is_none() {
            child
                .wait()
                .map_err(|e| RetryError(format!("waiting for it: {e}")))?;
        }
        let out = reader
            .join()
            .map_err(|_| RetryError("reading its output failed".into()))?
            .map_err(|e| RetryError(format!("reading its output: {e}")))?;
        let _ = writer.join();
        let Some(status) = status else {
            return Ok(Err(format!(
                "the retry command timed out after {} s (--retry-timeout); its process group was killed",
                limits.timeout.as_secs()
            )));
        };
        if out.len() as u64 > max {
            return Ok(Err(format!(
                "the retry command wrote more than {max} bytes (--retry-max-output); its process group was killed"
            )));
        }
        if !status.success() {
            return Ok(Err(format!("the retry command exited with {status}")));
        }
        Ok(Ok(String::from_utf8_lossy(&out).into_owned()))
    })();
    RUNNING.store(0, Ordering::SeqCst);
    if result.is_err() {
        kill_group(pgid);
        let _ = child.wait();
    }
    result
}

/// One attempt, as recorded on the call (the record shape lives in the
/// core, with the `validation` record that carries it).
pub use crate::validate::retry::Attempt;

/// The result of retrying.
#[derive(Clone, Debug)]
pub struct Retried<T> {
    /// The first valid result, or the last failure.
    pub outcome: Result<T, Failure>,
    /// Attempts made (model runs).
    pub attempts: Vec<Attempt>,
    /// Usage summed over the attempts.
    pub usage: Usage,
    /// The last reply's text.
    pub last_output: String,
}

/// Asks the model again, at most `max` times, until `evaluate` accepts its
/// reply. `evaluate` parses and validates a reply's text the same way the
/// input was; its failure becomes the next prompt.
#[allow(clippy::too_many_arguments)]
pub fn retry<T>(
    cmd: &str,
    max: u32,
    limits: RunLimits,
    template: Option<&str>,
    first: Failure,
    mut evaluate: impl FnMut(&str) -> Result<T, Box<Failure>>,
    mut log: impl FnMut(&str),
) -> Result<Retried<T>, RetryError> {
    let mut failure = first;
    let mut attempts = Vec::new();
    let mut usage = Usage::default();
    let mut last_output = String::new();
    for n in 1..=max {
        let p = prompt(template, &failure);
        log(&format!(
            "retry {n}/{max}: running the model ({} prompt bytes)",
            p.len()
        ));
        let reply = match run_model(cmd, &p, n, limits)? {
            Ok(out) => reply_from_output(&out),
            Err(why) => {
                log(&format!("retry {n}/{max}: {why}"));
                attempts.push(Attempt {
                    attempt: n,
                    valid: false,
                    error: Some(why),
                });
                continue;
            }
        };
        usage.add(reply.usage);
        last_output.clone_from(&reply.text);
        match evaluate(&reply.text) {
            Ok(t) => {
                attempts.push(Attempt {
                    attempt: n,
                    valid: true,
                    error: None,
                });
                log(&format!("retry {n}/{max}: valid"));
                return Ok(Retried {
                    outcome: Ok(t),
                    attempts,
                    usage,
                    last_output,
                });
            }
            Err(f) => {
                let first = f.errors.first().cloned().unwrap_or_default();
                log(&format!("retry {n}/{max}: still invalid: {first}"));
                attempts.push(Attempt {
                    attempt: n,
                    valid: false,
                    error: Some(format!("{}: {first}", f.code)),
                });
                failure = *f;
            }
        }
    }
    Ok(Retried {
        outcome: Err(failure),
        attempts,
        usage,
        last_output,
    })
}

/// Flags of bounded retry.
#[derive(Args, Debug, Clone)]
pub struct RetryArgs {
    /// Shell command that plays the model for retries (run with `sh -c`).
    ///
    /// It reads the retry prompt on stdin and writes its reply on stdout:
    /// plain text, or Ollama / OpenAI JSON (one object, NDJSON or SSE), whose
    /// token usage is summed across attempts. TOOLCALL_ATTEMPT holds the
    /// attempt number.
    ///
    /// Examples:
    ///
    ///   --retry-cmd 'ollama run qwen3'
    ///
    ///   --retry-cmd 'jq -Rs "{model:\"m\",messages:[{role:\"user\",content:.}]}" \
    ///     | curl -s localhost:8080/v1/chat/completions -d @-'
    #[arg(long, value_name = "CMD", verbatim_doc_comment)]
    pub retry_cmd: Option<String>,

    /// Most attempts per failing call [default: 3, or max_retries].
    ///
    /// After N failed attempts the call gets a TLP-006 error with the
    /// attempt count and the last reply.
    ///
    /// Example:
    ///
    ///   toolcall validate --tools t.json --retry-cmd ./model.sh --max-retries 1 r.txt
    #[arg(hide_short_help = true, long, value_name = "N", verbatim_doc_comment,
          value_parser = clap::value_parser!(u32).range(0..=100))]
    pub max_retries: Option<u32>,

    /// Seconds the retry command may run [default: 120, or retry_timeout_secs].
    ///
    /// The command runs in a process group of its own; when the time is up
    /// the whole group is killed and the attempt fails. Killing toolcall
    /// (SIGINT, SIGTERM, SIGHUP) kills the group too. 1 to 86400.
    #[arg(hide_short_help = true, long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub retry_timeout: Option<u64>,

    /// Most bytes of the retry command's reply read [default: 16 MiB, or
    /// retry_max_output].
    ///
    /// A longer reply kills the command's process group and fails the
    /// attempt, so an endless reply cannot exhaust memory. 1 to 4 GiB.
    #[arg(hide_short_help = true, long, value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..=1u64 << 32))]
    pub retry_max_output: Option<u64>,

    /// Retry prompt template file [default: built in, or retry_prompt_template].
    ///
    /// Placeholders: {kind} (parse or schema), {code}, {errors}, {line},
    /// {column}, {raw}, {tool}, {schema}, {hint}.
    ///
    /// Example:
    ///
    ///   toolcall validate --tools t.json --retry-template prompt.txt --retry-prompt r.txt
    #[arg(
        hide_short_help = true,
        long,
        value_name = "FILE",
        verbatim_doc_comment
    )]
    pub retry_template: Option<PathBuf>,

    /// Print only the retry prompt for each failing call; run nothing.
    ///
    /// For agents that call the model themselves. Prompts are separated by
    /// a blank line; exit status 1 when a prompt was printed, 0 when every
    /// call is valid.
    ///
    /// Example:
    ///
    ///   toolcall validate --tools tools.json --retry-prompt reply.txt
    #[arg(long, conflicts_with = "retry_cmd", verbatim_doc_comment)]
    pub retry_prompt: bool,
}
