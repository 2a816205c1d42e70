//! Running one command for `exec` and `loop`: its own process group, input
//! on stdin, output read with a cap, a timeout that stops the whole group
//! (SIGTERM, then SIGKILL after a grace period) and Ctrl-C passed on to it.

use crate::agent::binding::Command as ToolCommand;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Most bytes of a command's stderr kept for its error message.
const STDERR_CAP: usize = 8 << 10;

/// How often a running command is looked at.
const POLL: Duration = Duration::from_millis(5);

/// What to run and how.
pub struct Spec<'a> {
    /// The command.
    pub command: &'a ToolCommand,
    /// Bytes written to its stdin (then closed).
    pub stdin: Vec<u8>,
    /// Variables added to its environment.
    pub env: Vec<(String, String)>,
    /// Start from an empty environment (only `env`), not toolcall's.
    pub clear_env: bool,
    /// When to stop it.
    pub timeout: Duration,
    /// Between SIGTERM and SIGKILL.
    pub grace: Duration,
    /// Most stdout bytes kept (the rest is read and counted).
    pub cap: usize,
    /// Let stderr through to ours instead of keeping it.
    pub inherit_stderr: bool,
}

/// How a command ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// It exited (code, or `None` when a signal ended it).
    Exited(Option<i32>),
    /// Stopped at the timeout.
    TimedOut,
    /// Stopped by Ctrl-C.
    Cancelled,
    /// It could not be started.
    NotStarted(String),
}

/// A command's run.
pub struct Ran {
    /// How it ended.
    pub end: End,
    /// Its stdout, at most `cap` bytes.
    pub stdout: Vec<u8>,
    /// How many bytes it wrote to stdout in all.
    pub stdout_total: u64,
    /// The start of its stderr (empty when inherited).
    pub stderr: Vec<u8>,
    /// How long it ran.
    pub duration: Duration,
}

/// Sends `sig` to the process group led by `pid` (best effort: the group
/// may be gone already).
#[cfg(unix)]
fn signal_group(pid: u32, sig: Sig) {
    use rustix::process::{kill_process_group, Pid, Signal};
    let Some(pid) = i32::try_from(pid)
        .ok()
        .filter(|p| *p > 1)
        .and_then(Pid::from_raw)
    else {
        return;
    };
    let sig = match sig {
        Sig::Int => Signal::INT,
        Sig::Term => Signal::TERM,
        Sig::Kill => Signal::KILL,
    };
    let _ = kill_process_group(pid, sig);
}

#[cfg(not(unix))]
fn signal_group(_: u32, _: Sig) {}

/// SIGTERM (or SIGKILL when `kill`) to the process group led by `pid`.
pub fn stop_group(pid: u32, kill: bool) {
    signal_group(pid, if kill { Sig::Kill } else { Sig::Term });
}

#[derive(Clone, Copy)]
enum Sig {
    Int,
    Term,
    Kill,
}

fn reader(
    mut r: impl Read + Send + 'static,
    cap: usize,
    done: mpsc::Sender<()>,
) -> std::thread::JoinHandle<(Vec<u8>, u64)> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut total = 0u64;
        let mut buf = vec![0u8; 64 << 10];
        loop {
            match r.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    total += n as u64;
                    let room = cap.saturating_sub(kept.len());
                    kept.extend_from_slice(&buf[..n.min(room)]);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            }
        }
        let _ = done.send(());
        (kept, total)
    })
}

/// Runs `spec`, watching `cancel` (set by Ctrl-C): when it is set the
/// command's group gets SIGINT, and SIGKILL after the grace period.
pub fn run(spec: &Spec<'_>, cancel: &AtomicBool) -> Ran {
    let started = Instant::now();
    let mut cmd = match spec.command {
        ToolCommand::Argv(argv) => {
            let Some((program, args)) = argv.split_first() else {
                return Ran {
                    end: End::NotStarted("empty command".into()),
                    stdout: Vec::new(),
                    stdout_total: 0,
                    stderr: Vec::new(),
                    duration: started.elapsed(),
                };
            };
            let mut c = Command::new(program);
            c.args(args);
            c
        }
        ToolCommand::Shell(line) => {
            let mut c = Command::new("sh");
            c.arg("-c").arg(line);
            c
        }
    };
    if spec.clear_env {
        cmd.env_clear();
    }
    cmd.envs(spec.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(if spec.inherit_stderr {
            Stdio::inherit()
        } else {
            Stdio::piped()
        });
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let not_started = |e: String| Ran {
        end: End::NotStarted(e),
        stdout: Vec::new(),
        stdout_total: 0,
        stderr: Vec::new(),
        duration: started.elapsed(),
    };
    if cancel.load(Ordering::SeqCst) {
        return Ran {
            end: End::Cancelled,
            ..not_started(String::new())
        };
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return not_started(format!("cannot start {}: {e}", spec.command.display())),
    };
    let pid = child.id();
    let (done_tx, done_rx) = mpsc::channel();
    let out = child
        .stdout
        .take()
        .map(|o| reader(o, spec.cap, done_tx.clone()));
    let err = child
        .stderr
        .take()
        .map(|e| reader(e, STDERR_CAP, done_tx.clone()));
    drop(done_tx);
    let readers = usize::from(out.is_some()) + usize::from(err.is_some());
    if let Some(mut stdin) = child.stdin.take() {
        let data = spec.stdin.clone();
        // a tool that does not read its input closes the pipe: not an error
        std::thread::spawn(move || {
            let _ = stdin.write_all(&data);
        });
    }
    let mut end = None;
    let mut kill_at: Option<Instant> = None;
    let mut status = None;
    while status.is_none() {
        match child.try_wait() {
            Ok(Some(s)) => status = Some(s),
            Ok(None) => {}
            Err(e) => {
                end = Some(End::NotStarted(format!("waiting for it: {e}")));
                signal_group(pid, Sig::Kill);
                let _ = child.wait();
                break;
            }
        }
        if status.is_some() {
            break;
        }
        let now = Instant::now();
        if end.is_none() && cancel.load(Ordering::SeqCst) {
            signal_group(pid, Sig::Int);
            end = Some(End::Cancelled);
            kill_at = Some(now + spec.grace);
        } else if end.is_none() && now.duration_since(started) >= spec.timeout {
            signal_group(pid, Sig::Term);
            end = Some(End::TimedOut);
            kill_at = Some(now + spec.grace);
        } else if kill_at.is_some_and(|k| now >= k) {
            signal_group(pid, Sig::Kill);
            kill_at = None;
        }
        std::thread::sleep(POLL);
    }
    // The leader is gone; what it started may still hold the pipes open.
    // Give the readers a moment, then stop the rest of the group.
    let deadline = Instant::now() + Duration::from_millis(500);
    for _ in 0..readers {
        let left = deadline.saturating_duration_since(Instant::now());
        if done_rx.recv_timeout(left).is_err() {
            signal_group(pid, Sig::Kill);
            break;
        }
    }
    let (stdout, stdout_total) = out.and_then(|h| h.join().ok()).unwrap_or_default();
    let (stderr, _) = err.and_then(|h| h.join().ok()).unwrap_or_default();
    let end = end.unwrap_or_else(|| End::Exited(status.and_then(|s| s.code())));
    Ran {
        end,
        stdout,
        stdout_total,
        stderr,
        duration: started.elapsed(),
    }
}

/// Ctrl-C (and SIGTERM) as a flag: the first one sets it, so the run can
/// stop cleanly; the handlers stay, so a second one does not kill us
/// half-way through writing a record.
pub fn interrupt_flag() -> std::sync::Arc<AtomicBool> {
    let flag = std::sync::Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        // registration fails only for forbidden signals; these are not
        let _ = signal_hook::flag::register(sig, flag.clone());
    }
    flag
}
