//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Every `*.txt` input under `fixtures/` (excluding repair fixtures), sorted.
pub fn fixture_inputs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    walk(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .as_path(),
        &mut out,
    );
    out.retain(|p| p.extension().is_some_and(|e| e == "txt"));
    out.sort();
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in rd.flatten() {
        let p = entry.path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Extra command-line flags for a fixture (`<case>.args`, one line).
pub fn fixture_args(input: &Path) -> Vec<String> {
    let args = input.with_extension("args");
    std::fs::read_to_string(args)
        .map(|s| s.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

/// Splits `bytes` into chunks of about `size` bytes, never inside a UTF-8
/// character.
pub fn chunks_by_size(bytes: &[u8], size: usize) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let mut end = (i + size).min(bytes.len());
        while end < bytes.len() && (bytes[end] & 0xC0) == 0x80 {
            end += 1;
        }
        out.push(&bytes[i..end]);
        i = end;
    }
    out
}

/// Splits `bytes` at the given cut points (sorted, deduplicated, moved to
/// character boundaries).
pub fn chunks_at<'a>(bytes: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut last = 0;
    for &c in cuts {
        let mut c = c.min(bytes.len());
        while c < bytes.len() && (bytes[c] & 0xC0) == 0x80 {
            c += 1;
        }
        if c > last {
            out.push(&bytes[last..c]);
            last = c;
        }
    }
    out.push(&bytes[last..]);
    out
}

/// The binary under test, as a command to add arguments to.
pub fn toolcall() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_toolcall"))
}

/// What one run of the binary gave.
pub struct Run {
    /// Everything it wrote to stdout.
    pub stdout: Vec<u8>,
    /// Its stderr, lossily decoded.
    pub stderr: String,
    /// Its exit status (-1 when a signal ended it).
    pub code: i32,
}

impl Run {
    /// Stdout, lossily decoded.
    pub fn out(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}

/// Runs the binary with `args` in `cwd` (the crate root when `None`),
/// writing `stdin` to it from a second thread so a large input cannot
/// deadlock against a full stdout pipe. `None` for stdin gives it
/// `/dev/null`. A child that exits before reading all its input (a bad
/// flag, `-q`) is not an error here: its exit status is the answer.
pub fn run_binary(args: &[&str], stdin: Option<&[u8]>, cwd: Option<&Path>) -> Run {
    use std::io::Write;
    use std::process::Stdio;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cmd = toolcall();
    cmd.args(args)
        .current_dir(cwd.unwrap_or(root))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    let mut child = cmd.spawn().expect("spawn toolcall");
    let writer = match (stdin, child.stdin.take()) {
        (Some(bytes), Some(mut pipe)) => {
            let bytes = bytes.to_vec();
            Some(std::thread::spawn(move || {
                if let Err(e) = pipe.write_all(&bytes) {
                    assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
                }
            }))
        }
        _ => None,
    };
    let out = child.wait_with_output().expect("wait for toolcall");
    if let Some(w) = writer {
        w.join().expect("stdin writer");
    }
    Run {
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// Runs `script` with `sh -c` in the crate root, `$TC` naming the binary
/// under test, so a case can use what only a shell gives: `ulimit -v` to
/// guard memory, pipes from `yes` or `/dev/zero`, a closed descriptor. The
/// script runs in a process group of its own; past `secs` seconds the whole
/// group is killed and the test fails as hung.
pub fn run_sh(script: &str, secs: u64) -> Run {
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let child = std::process::Command::new("sh")
        .arg("-c")
        .arg(script)
        .env("TC", env!("CARGO_BIN_EXE_toolcall"))
        .current_dir(root)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("spawn sh");
    let pgid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(std::time::Duration::from_secs(secs)) {
        Ok(out) => {
            let out = out.expect("wait for sh");
            Run {
                stdout: out.stdout,
                stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
                code: out.status.code().unwrap_or(-1),
            }
        }
        Err(_) => {
            let _ = std::process::Command::new("kill")
                .args(["-KILL", &format!("-{pgid}")])
                .status();
            panic!("hung: still running after {secs} s: {script}");
        }
    }
}

/// A fresh, empty scratch directory for one test case.
pub fn scratch(case: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{case}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Asserts that `segments` tile `[0, end)` in order (no gap, overlap or
/// reversed span) and returns `end` with the bytes of the text segments:
/// the one tiling check of the batch and wire invariants.
pub fn assert_tiling(name: &str, segments: &[toolcall::Segment]) -> (u64, u64) {
    let mut at = 0u64;
    let mut text = 0u64;
    for seg in segments {
        assert_eq!(
            seg.span[0], at,
            "{name}: gap or overlap at {at}: {segments:?}"
        );
        assert!(seg.span[1] >= seg.span[0], "{name}: reversed span");
        if seg.kind == toolcall::SegmentKind::Text {
            text += seg.span[1] - seg.span[0];
        }
        at = seg.span[1];
    }
    (at, text)
}
