//! Running one command for `exec` and `loop`: its own process group, input
//! on stdin, output read with a cap, a timeout that stops the whole group
//! (SIGTERM, then SIGKILL after a grace period) and Ctrl-C passed on to it.
//!
//! A tool does not outlive its run (docs/agent.md#bindings):
//!
//! * It is started through toolcall's internal step, `toolcall __run-tool
//!   [--sandbox JSON [--best-effort]] -- PROGRAM ARGS…` ([`helper_main`]):
//!   a fresh toolcall process that calls `setsid` (a session and process
//!   group of its own, no controlling terminal, so `/dev/tty` cannot be
//!   opened), applies the tool's Landlock sandbox to itself and then execs
//!   the tool. The workspace forbids `unsafe`, so there is no `pre_exec`
//!   hook; the step costs one exec.
//! * When the tool's first process ends, its whole group is killed
//!   (SIGKILL): background children die with it. Output already written
//!   to the pipes is still read.
//! * On Linux toolcall is a child subreaper ([`interrupt_flag`]): what a
//!   tool leaves behind is re-parented to toolcall, not to init, and
//!   [`end_group`] reaps it. Reaping uses `waitpid(-PGID)` on the tool's
//!   group only, after its leader was waited for by `std::process::Child`:
//!   every other child of toolcall (other tools, the model command, the
//!   approver, an editor) is in another process group, so no exit status
//!   another wait needs is taken. What a tool moves out of its group
//!   (`setsid`, `setpgid`) is killed and reaped by [`end_detached`] once
//!   no tool runs.
//! * SIGINT, SIGTERM and SIGHUP (the terminal closed) cancel the run:
//!   running groups get SIGINT (for SIGINT) or SIGTERM (for the others),
//!   SIGKILL after the grace period, and `exec`/`loop` write what they have
//!   and their `complete`. Before the run starts (reading the input, the
//!   permissions, the session file: reads that may block on a terminal or
//!   a FIFO) such a signal ends toolcall at once, exit status 130.

use crate::agent::binding::{Command as ToolCommand, Sandbox};
use std::ffi::OsString;
use std::io::{Read, Write};
use std::process::{Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The first argument that makes `toolcall` its internal step (never in
/// `--help` or the completions: it is not a clap subcommand).
pub const HELPER: &str = "__run-tool";

/// How long the rest of a group gets to die and be reaped after SIGKILL.
const REAP_FOR: Duration = Duration::from_secs(1);

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

/// How a tool is confined: a session of its own, and its sandbox.
#[derive(Clone, Copy, Debug, Default)]
pub struct Confine<'a> {
    /// The tool's `x-toolcall.sandbox`.
    pub sandbox: Option<&'a Sandbox>,
    /// `--require-sandbox`: refuse to run it when the kernel cannot
    /// enforce the sandbox (else warn once and run it without).
    pub require: bool,
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

#[cfg(unix)]
fn pid_of(pid: u32) -> Option<rustix::process::Pid> {
    i32::try_from(pid)
        .ok()
        .filter(|p| *p > 1)
        .and_then(rustix::process::Pid::from_raw)
}

/// Sends `sig` to the process group led by `pid` (best effort: the group
/// may be gone already).
#[cfg(unix)]
fn signal_group(pid: u32, sig: Sig) {
    if let Some(pid) = pid_of(pid) {
        let _ = rustix::process::kill_process_group(pid, signal(sig));
    }
}

/// The signal `sig` stands for.
#[cfg(unix)]
fn signal(sig: Sig) -> rustix::process::Signal {
    use rustix::process::Signal;
    match sig {
        Sig::Int => Signal::INT,
        Sig::Term => Signal::TERM,
        Sig::Kill => Signal::KILL,
    }
}

#[cfg(not(unix))]
fn signal_group(_: u32, _: Sig) {}

/// Like [`signal_group`] for a leader not yet waited for: while the
/// internal step has not called `setsid` yet there is no such group, and
/// the process itself gets the signal (its pid cannot have been reused:
/// it was not reaped).
#[cfg(unix)]
fn signal_leader(pid: u32, sig: Sig) {
    use rustix::process::{kill_process, kill_process_group};
    let Some(p) = pid_of(pid) else {
        return;
    };
    let s = signal(sig);
    if kill_process_group(p, s).is_err() {
        let _ = kill_process(p, s);
    }
}

#[cfg(not(unix))]
fn signal_leader(_: u32, _: Sig) {}

/// Kills what is left of the process group led by `pid` (whose leader was
/// already waited for) and reaps the orphans it leaves to toolcall as
/// subreaper, for at most a second. Only children in that group are
/// waited for, so no other wait loses its exit status.
pub fn end_group(pid: u32) {
    signal_group(pid, Sig::Kill);
    #[cfg(unix)]
    {
        use rustix::process::{waitpgid, WaitOptions};
        let Some(pgid) = pid_of(pid) else {
            return;
        };
        let until = Instant::now() + REAP_FOR;
        loop {
            match waitpgid(pgid, WaitOptions::NOHANG) {
                Ok(Some(_)) => continue,
                // members left that are not dead (or not ours) yet
                Ok(None) if Instant::now() < until => std::thread::sleep(POLL),
                // no child of ours in the group any more (ECHILD), or time is up
                _ => break,
            }
        }
    }
}

/// The leaders (pids) of the tools running now, each in a session of its
/// own: what [`end_detached`] must not touch.
static RUNNING: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());

/// The tool led by `pid` ended: once no tool runs any more, kills and
/// reaps what tools detached from their group and session (`setsid`, a
/// daemon's double fork). On Linux toolcall is their subreaper, so they
/// are its children: each child of toolcall in a session other than
/// toolcall's that is not a running tool's leader came from a tool (the
/// model command, the approver and an editor stay in toolcall's session,
/// and no process can join another session). Killing one hands its own
/// children to toolcall, so the look is repeated, for at most a second.
/// While another tool runs nothing is killed: a detached process cannot
/// be told apart from one of that tool's, and the last tool to end
/// kills them all.
pub fn end_detached(pid: u32) {
    let Ok(mut running) = RUNNING.lock() else {
        return;
    };
    running.retain(|p| *p != pid);
    if !running.is_empty() {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{getpid, getsid, kill_process, waitpid, Signal, WaitOptions};
        let Ok(ours) = getsid(None) else {
            return;
        };
        let me = getpid().as_raw_nonzero().get();
        let until = Instant::now() + REAP_FOR;
        loop {
            let detached: Vec<_> = children_of(me)
                .into_iter()
                .filter(|(_, sid)| *sid != ours.as_raw_nonzero().get())
                .filter_map(|(p, _)| pid_of(p))
                .collect();
            if detached.is_empty() || Instant::now() >= until {
                break;
            }
            // our children: their pids cannot be reused before we reap them
            for p in &detached {
                let _ = kill_process(*p, Signal::KILL);
            }
            for p in &detached {
                let _ = waitpid(Some(*p), WaitOptions::NOHANG);
            }
            std::thread::sleep(POLL);
        }
    }
}

/// The children of process `parent` (from `/proc/PID/stat`), with their
/// session ids.
#[cfg(target_os = "linux")]
fn children_of(parent: i32) -> Vec<(u32, i32)> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()))
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // "PID (COMM) STATE PPID PGRP SESSION …": COMM may hold anything
            let rest = &stat[stat.rfind(')')? + 1..];
            let mut f = rest.split_whitespace().skip(1);
            let ppid: i32 = f.next()?.parse().ok()?;
            let sid: i32 = f.nth(1)?.parse().ok()?;
            (ppid == parent).then_some((pid, sid))
        })
        .collect()
}

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

/// Runs `spec` in a process group of its own, watching `cancel` (set by
/// Ctrl-C): when it is set the command's group gets SIGINT, and SIGKILL
/// after the grace period. For the approver, which may talk to the
/// terminal; tools go through [`run_tool`].
pub fn run(spec: &Spec<'_>, cancel: &AtomicBool) -> Ran {
    run_inner(spec, None, cancel)
}

/// Runs a tool as [`run`] does, in a session of its own with no
/// controlling terminal and its sandbox applied (the module's doc).
pub fn run_tool(spec: &Spec<'_>, confine: &Confine<'_>, cancel: &AtomicBool) -> Ran {
    run_inner(spec, Some(confine), cancel)
}

/// Warns once per run that sandboxes go unenforced.
static WARNED: AtomicBool = AtomicBool::new(false);

/// The program and arguments of a command.
fn argv_of(command: &ToolCommand) -> Option<(String, Vec<String>)> {
    match command {
        ToolCommand::Argv(argv) => argv
            .split_first()
            .map(|(p, rest)| (p.clone(), rest.to_vec())),
        ToolCommand::Shell(line) => Some(("sh".into(), vec!["-c".into(), line.clone()])),
    }
}

/// Why `program` could not be started, and where it was looked for when
/// that is not plain: a bare name (no `/`) not found is looked up in each
/// directory of `PATH`, which the message lists.
fn start_error(program: &std::ffi::OsStr, e: &std::io::Error) -> String {
    let shown = program.to_string_lossy();
    if e.kind() == std::io::ErrorKind::NotFound && !shown.contains('/') {
        let path = std::env::var_os("PATH").unwrap_or_default();
        return format!(
            "cannot start {shown}: not found in PATH ({}); name it by a path \
             (relative to the tools file) to run a program of your own",
            path.to_string_lossy()
        );
    }
    format!("cannot start {shown}: {e}")
}

/// Whether `program` can be found as `exec` would look for it: the error
/// spawning it directly would give, for the result's message.
fn findable(program: &str) -> Result<(), std::io::Error> {
    let exists = |p: &std::path::Path| p.is_file();
    if program.contains('/') {
        return std::fs::metadata(program).map(|_| ());
    }
    let path = std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into());
    if std::env::split_paths(&path).any(|d| exists(&d.join(program))) {
        Ok(())
    } else {
        Err(std::io::Error::from_raw_os_error(2))
    }
}

fn run_inner(spec: &Spec<'_>, confine: Option<&Confine<'_>>, cancel: &AtomicBool) -> Ran {
    let started = Instant::now();
    let not_started = |e: String| Ran {
        end: End::NotStarted(e),
        stdout: Vec::new(),
        stdout_total: 0,
        stderr: Vec::new(),
        duration: started.elapsed(),
    };
    let mut cmd = match command(spec, confine) {
        Ok(cmd) => cmd,
        Err(e) => return not_started(e),
    };
    if cancel.load(Ordering::SeqCst) {
        return Ran {
            end: End::Cancelled,
            ..not_started(String::new())
        };
    }
    // a tool's leader is known as running before it can call setsid
    let mut running = confine.is_some().then(|| RUNNING.lock());
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            let program = argv_of(spec.command).map(|(p, _)| p).unwrap_or_default();
            return not_started(start_error(program.as_ref(), &e));
        }
    };
    let pid = child.id();
    if let Some(Ok(r)) = running.as_mut() {
        r.push(pid);
    }
    drop(running);
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
    let (end, status) = watch(&mut child, spec, cancel, started);
    // The leader is gone: the rest of its group goes too (what it started
    // in the background), and the orphans are reaped. What they wrote to
    // the pipes is still read.
    end_group(pid);
    if confine.is_some() {
        end_detached(pid);
    }
    let all_read = pipes_closed(&done_rx, readers);
    let join = |h: Option<std::thread::JoinHandle<(Vec<u8>, u64)>>| {
        h.filter(|h| all_read || h.is_finished())
            .and_then(|h| h.join().ok())
            .unwrap_or_default()
    };
    let (stdout, stdout_total) = join(out);
    let (stderr, _) = join(err);
    let end = end.unwrap_or_else(|| End::Exited(status.and_then(|s| s.code())));
    Ran {
        end,
        stdout,
        stdout_total,
        stderr,
        duration: started.elapsed(),
    }
}

/// The command that runs `spec`: through the internal step when confined
/// (and when we can name our own binary), else directly, in a process
/// group of its own. `Err` says why it is not started.
fn command(spec: &Spec<'_>, confine: Option<&Confine<'_>>) -> Result<Command, String> {
    let Some((program, args)) = argv_of(spec.command) else {
        return Err("empty command".into());
    };
    let sandbox = confine.and_then(|c| c.sandbox);
    let mut best_effort = false;
    if let (Some(sb), Some(c)) = (sandbox, confine) {
        let supported =
            super::sandbox::support(sb).and_then(|()| super::sandbox::seccomp_support());
        if let Err(why) = supported {
            if c.require {
                return Err(format!(
                    "not run: --require-sandbox, and its x-toolcall.sandbox cannot be enforced: {why}"
                ));
            }
            best_effort = true;
            if !WARNED.swap(true, Ordering::SeqCst) {
                super::report(&format!(
                    "warning: x-toolcall.sandbox is not enforced ({why}); \
                     tools run without it (--require-sandbox refuses them)"
                ));
            }
        }
    }
    let helper = confine.and_then(|_| std::env::current_exe().ok());
    if confine.is_some() && helper.is_none() && sandbox.is_some() {
        return Err("cannot apply the sandbox: toolcall cannot find its own binary".into());
    }
    let mut cmd = match &helper {
        Some(exe) => {
            if let Err(e) = findable(&program) {
                return Err(start_error(program.as_ref(), &e));
            }
            let mut c = Command::new(exe);
            c.arg(HELPER);
            if let Some(sb) = sandbox {
                c.arg("--sandbox")
                    .arg(serde_json::to_string(sb).unwrap_or_default());
                if best_effort {
                    c.arg("--best-effort");
                }
            }
            c.arg("--").arg(&program).args(&args);
            c
        }
        None => {
            let mut c = Command::new(&program);
            c.args(&args);
            #[cfg(unix)]
            {
                use std::os::unix::process::CommandExt;
                c.process_group(0);
            }
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
    Ok(cmd)
}

/// Waits for the command's leader to end. On Ctrl-C (`cancel`) or at the
/// timeout it gets a signal, and SIGKILL after the grace period. How it
/// ended, when it did not simply exit, and its exit status.
fn watch(
    child: &mut std::process::Child,
    spec: &Spec<'_>,
    cancel: &AtomicBool,
    started: Instant,
) -> (Option<End>, Option<std::process::ExitStatus>) {
    let pid = child.id();
    let mut end = None;
    let mut kill_at: Option<Instant> = None;
    let mut status = None;
    while status.is_none() {
        match child.try_wait() {
            Ok(Some(s)) => status = Some(s),
            Ok(None) => {}
            Err(e) => {
                end = Some(End::NotStarted(format!("waiting for it: {e}")));
                signal_leader(pid, Sig::Kill);
                let _ = child.wait();
                break;
            }
        }
        if status.is_some() {
            break;
        }
        let now = Instant::now();
        if end.is_none() && cancel.load(Ordering::SeqCst) {
            signal_leader(pid, cancel_signal());
            end = Some(End::Cancelled);
            kill_at = Some(now + spec.grace);
        } else if end.is_none() && now.duration_since(started) >= spec.timeout {
            signal_leader(pid, Sig::Term);
            end = Some(End::TimedOut);
            kill_at = Some(now + spec.grace);
        } else if kill_at.is_some_and(|k| now >= k) {
            signal_leader(pid, Sig::Kill);
            kill_at = None;
        }
        std::thread::sleep(POLL);
    }
    (end, status)
}

/// Whether the `readers` pipe readers all reached the end within half a
/// second: something that left the group may hold the pipes, and what is
/// read so far is then not waited for.
fn pipes_closed(done: &mpsc::Receiver<()>, readers: usize) -> bool {
    let deadline = Instant::now() + Duration::from_millis(500);
    for _ in 0..readers {
        let left = deadline.saturating_duration_since(Instant::now());
        if done.recv_timeout(left).is_err() {
            return false;
        }
    }
    true
}

/// The signal that cancelled the run (0: none yet).
static CANCELLED_BY: AtomicI32 = AtomicI32::new(0);

/// True once SIGINT, SIGTERM or SIGHUP cancelled the run.
pub fn cancelled() -> bool {
    CANCELLED_BY.load(Ordering::SeqCst) != 0
}

/// True until [`running`]: a signal ends toolcall at once.
static SETTING_UP: AtomicBool = AtomicBool::new(true);

/// What running groups get when the run is cancelled: SIGINT for Ctrl-C,
/// SIGTERM for SIGTERM and SIGHUP.
fn cancel_signal() -> Sig {
    if CANCELLED_BY.load(Ordering::SeqCst) == signal_hook::consts::SIGINT {
        Sig::Int
    } else {
        Sig::Term
    }
}

/// Sets up `exec` and `loop`: SIGINT, SIGTERM and SIGHUP (the terminal
/// closed) cancel the run, and on Linux toolcall becomes a child subreaper
/// (the module's doc). Until [`running`] is called such a signal ends
/// toolcall at once with exit status 130: nothing has run and a read of
/// the input or a FIFO may block. After it, the first signal sets the
/// returned flag so the run can stop cleanly; the handlers stay, so a
/// second one does not kill toolcall half-way through writing a record.
pub fn interrupt_flag() -> std::sync::Arc<AtomicBool> {
    #[cfg(target_os = "linux")]
    {
        // best effort: without it orphans go to init, as before
        let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
        // not dumpable: another process of the user (a tool, what it left
        // behind) cannot open /proc/<toolcall>/fd/2 (the terminal) or read
        // /proc/<toolcall>/environ (the API keys); only root with
        // CAP_SYS_PTRACE can, and a sandboxed tool has no capabilities
        let _ =
            rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable);
    }
    let flag = std::sync::Arc::new(AtomicBool::new(false));
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    // a signal the caller ignores (`nohup`, `trap '' HUP`) stays ignored,
    // here and in the tools, as POSIX shells keep it
    let ignored = ignored_signals();
    let wanted: Vec<i32> = [SIGINT, SIGTERM, SIGHUP]
        .into_iter()
        .filter(|s| !ignored.contains(s))
        .collect();
    if wanted.is_empty() {
        SETTING_UP.store(false, Ordering::SeqCst);
        return flag;
    }
    match signal_hook::iterator::Signals::new(&wanted) {
        Ok(mut signals) => {
            let flag = flag.clone();
            std::thread::spawn(move || {
                for sig in signals.forever() {
                    if SETTING_UP.load(Ordering::SeqCst) {
                        std::process::exit(130);
                    }
                    let _ =
                        CANCELLED_BY.compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst);
                    flag.store(true, Ordering::SeqCst);
                }
            });
        }
        Err(_) => {
            // cannot happen for these signals; a plain flag then
            SETTING_UP.store(false, Ordering::SeqCst);
            for &sig in &wanted {
                let _ = signal_hook::flag::register(sig, flag.clone());
            }
        }
    }
    flag
}

/// The signals this process was started with set to be ignored
/// (`SIG_IGN` survives exec): read from `/proc/self/status` (`SigIgn`, a
/// hexadecimal mask, bit N-1 for signal N), since asking the kernel for a
/// disposition needs unsafe code. Empty where there is no `/proc`.
pub fn ignored_signals() -> Vec<i32> {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let mask = status
        .lines()
        .find_map(|l| l.strip_prefix("SigIgn:"))
        .and_then(|m| u64::from_str_radix(m.trim(), 16).ok())
        .unwrap_or(0);
    (1..=64).filter(|n| mask & (1u64 << (n - 1)) != 0).collect()
}

/// The run starts (calls are decided and run): from now on a signal sets
/// the flag of [`interrupt_flag`] instead of ending toolcall.
pub fn running() {
    SETTING_UP.store(false, Ordering::SeqCst);
}

/// The internal step (`toolcall __run-tool [--sandbox JSON
/// [--best-effort]] -- PROGRAM ARGS…`, `args` after `__run-tool`): a new
/// session, the sandbox, then exec. Returns only on failure: 126 when the
/// tool cannot be confined, 127 when it cannot be started, with a message
/// on stderr (which becomes the result's error).
pub fn helper_main(args: Vec<OsString>) -> ExitCode {
    let fail = |code: u8, msg: &str| {
        super::report(msg);
        ExitCode::from(code)
    };
    let mut it = args.into_iter();
    let mut sandbox: Option<Sandbox> = None;
    let mut best_effort = false;
    loop {
        match it.next() {
            Some(a) if a == "--" => break,
            Some(a) if a == "--best-effort" => best_effort = true,
            Some(a) if a == "--sandbox" => {
                let json = it.next().unwrap_or_default();
                match serde_json::from_str(&json.to_string_lossy()) {
                    Ok(sb) => sandbox = Some(sb),
                    Err(e) => return fail(126, &format!("{HELPER}: bad --sandbox: {e}")),
                }
            }
            _ => {
                return fail(
                    126,
                    &format!("{HELPER} is toolcall's internal step: {HELPER} [--sandbox JSON [--best-effort]] -- PROGRAM ARGS..."),
                )
            }
        }
    }
    let Some(program) = it.next() else {
        return fail(126, &format!("{HELPER}: no program"));
    };
    #[cfg(unix)]
    {
        if let Err(e) = rustix::process::setsid() {
            return fail(126, &format!("cannot start a session for the tool: {e}"));
        }
    }
    if let Some(sb) = &sandbox {
        let path = std::path::Path::new(&program);
        if let Err(e) = super::sandbox::apply(sb, Some(path), best_effort) {
            return fail(126, &format!("cannot apply x-toolcall.sandbox: {e}"));
        }
        if let Err(e) = super::sandbox::drop_capabilities() {
            return fail(126, &format!("cannot drop the tool's capabilities: {e}"));
        }
        // last: the filter denies chmod and ioctls the steps above do not
        // need, but nothing may come between it and exec that it breaks
        if let Err(e) = super::sandbox::apply_seccomp(sb) {
            if !best_effort {
                return fail(
                    126,
                    &format!("cannot apply the sandbox's seccomp filter: {e}"),
                );
            }
        }
    }
    let mut cmd = Command::new(&program);
    cmd.args(it);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // only stdin, stdout and stderr reach the tool: a descriptor
        // toolcall's caller left open (`3>>file`) would let it write
        // where its sandbox forbids (this process has one thread here)
        close_fds::set_fds_cloexec(3, &[]);
        let e = cmd.exec();
        let code = if e.kind() == std::io::ErrorKind::PermissionDenied {
            126
        } else {
            127
        };
        fail(code, &start_error(&program, &e))
    }
    #[cfg(not(unix))]
    {
        fail(127, &format!("{HELPER} needs Unix"))
    }
}
