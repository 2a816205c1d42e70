//! Large regular input files are mapped, not read (issue 48,
//! docs/performance.md): the answer is the same as reading them, a file
//! truncated while it is mapped is an error (exit 2, one line on stderr)
//! and not a crash, and the crate allows `unsafe` in one function only.

use crate::common::{run_binary, scratch, toolcall};
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// The map threshold the tests run with (`TOOLCALL_MAP_MIN`), so that files
/// of a few MiB are mapped: the default (256 MiB) would need files too
/// large for a test.
const TEST_MAP_MIN: &str = "1048576";

/// A file of `mb` MiB or so: the hermes fixture's reply, with prose between
/// the calls, repeated (above [`TEST_MAP_MIN`]).
fn big_file(dir: &Path, mb: usize) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let reply = std::fs::read(root.join("fixtures/hermes/basic.txt")).expect("fixture");
    let mut bytes = Vec::with_capacity(mb << 20);
    let mut k = 0usize;
    while bytes.len() < mb << 20 {
        bytes.extend_from_slice(format!("Turn {k}: some prose before the call.\n").as_bytes());
        bytes.extend_from_slice(&reply);
        bytes.extend_from_slice(b"\n");
        k += 1;
    }
    let path = dir.join("big.txt");
    std::fs::write(&path, &bytes).expect("write big file");
    path
}

/// Runs the binary with `args`, with or without maps.
fn run(args: &[&str], map: bool) -> crate::common::Run {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cmd = toolcall();
    cmd.args(args).current_dir(root).stdin(Stdio::null());
    if map {
        cmd.env("TOOLCALL_MAP_MIN", TEST_MAP_MIN);
    } else {
        cmd.env("TOOLCALL_NO_MMAP", "1");
    }
    let out = cmd.output().expect("run toolcall");
    crate::common::Run {
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

#[test]
fn a_mapped_file_reads_as_a_read_one() {
    let dir = scratch("mapped-same");
    let big = big_file(&dir, 3);
    let big = big.to_str().expect("utf-8 path");
    for args in [
        vec!["parse", big],
        vec!["parse", "-c", big],
        vec!["parse", "--shape", "openai", big],
        vec!["split", "--text", big],
        vec!["split", big],
    ] {
        let mapped = run(&args, true);
        let read = run(&args, false);
        assert_eq!(mapped.code, 0, "{args:?}: {}", mapped.stderr);
        assert!(!mapped.stdout.is_empty(), "{args:?}");
        assert!(mapped.stdout == read.stdout, "{args:?}: outputs differ");
        assert_eq!(mapped.stderr, read.stderr, "{args:?}");
    }
    // a JSONL of conversations over the map threshold, one line longer
    // than --max-buffer: read a line at a time as from a reader (TLP-007
    // for the long line, the others parsed), mapped or not
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let line = std::fs::read(root.join("fixtures/messages/anthropic-ok.jsonl")).expect("fixture");
    let line = line.trim_ascii();
    // (3 MiB: read whole, as files up to 4 MiB are; 6 MiB: a line at a time)
    for (mb, line_at_a_time) in [(3usize, false), (6, true)] {
        let mut jsonl = Vec::new();
        while jsonl.len() < mb << 20 {
            jsonl.extend_from_slice(line);
            jsonl.push(b'\n');
        }
        jsonl.extend_from_slice(b"{\"messages\": [{\"role\": \"user\", \"content\": \"");
        jsonl.extend(std::iter::repeat_n(b'x', 300_000));
        jsonl.extend_from_slice(b"\"}]}\n");
        jsonl.extend_from_slice(line);
        jsonl.push(b'\n');
        let conv = dir.join(format!("conversations-{mb}.jsonl"));
        std::fs::write(&conv, &jsonl).expect("write jsonl");
        let conv = conv.to_str().expect("utf-8 path");
        for args in [
            vec!["parse", "--max-buffer", "100000", "-c", conv],
            vec!["parse", "--max-buffer", "100000", conv],
        ] {
            let mapped = run(&args, true);
            let read = run(&args, false);
            assert_eq!(mapped.code, read.code, "{args:?}: {}", mapped.stderr);
            assert!(mapped.stdout == read.stdout, "{args:?}: outputs differ");
            assert_eq!(mapped.stderr, read.stderr, "{args:?}");
        }
        let long = run(&["parse", "--max-buffer", "100000", conv], true);
        assert_eq!(long.out().contains("TLP-007"), line_at_a_time, "{mb} MiB");
    }
    // and as the same bytes on stdin (a pipe is never mapped)
    let bytes = std::fs::read(big).expect("read big");
    let piped = run_binary(&["parse", "-c"], Some(&bytes), None);
    assert_eq!(piped.out(), run(&["parse", "-c", big], true).out());
}

/// The binary maps the file, then waits on a FIFO (a test hook); the file
/// is truncated to nothing before the FIFO lets it go on, so its first
/// access to the map faults. The answer must be exit status 2 and a clear
/// line on stderr, not death by SIGBUS.
#[test]
fn a_file_truncated_while_mapped_is_an_error_not_a_crash() {
    use std::os::unix::fs::OpenOptionsExt;
    let dir = scratch("mapped-truncated");
    let big = big_file(&dir, 4);
    let fifo = dir.join("pause");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    for args in [&["parse"][..], &["parse", "-c"], &["split", "--text"]] {
        std::fs::write(&big, std::fs::read(big_file(&dir, 4)).expect("read")).expect("refill");
        let child = toolcall()
            .args(args)
            .arg(&big)
            .env("TOOLCALL_TEST_MAPPED_FIFO", &fifo)
            .env("TOOLCALL_MAP_MIN", TEST_MAP_MIN)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn toolcall");
        // the child opens the FIFO for reading once it has mapped the file:
        // until then a non-blocking open for writing fails (ENXIO)
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let writer = loop {
            match std::fs::OpenOptions::new()
                .write(true)
                .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
                .open(&fifo)
            {
                Ok(w) => break w,
                Err(_) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                Err(e) => panic!("{args:?}: the binary never paused after its map: {e}"),
            }
        };
        std::fs::OpenOptions::new()
            .write(true)
            .open(&big)
            .expect("open big")
            .set_len(0)
            .expect("truncate");
        drop(writer);
        let out = child.wait_with_output().expect("wait");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {:?}, stderr {stderr}",
            out.status
        );
        assert!(
            stderr.contains("shrank while it was read"),
            "{args:?}: {stderr}"
        );
    }
}

/// A file below the map threshold and stdin (even redirected from a large
/// file) are read as before: they never reach the hook that pauses after a
/// map, which here names a FIFO nobody writes (a mapped run would wait on
/// it until the watchdog below opens it, and the test would fail). A file
/// of a few MiB named on the command line is read under the default
/// threshold (256 MiB, where reading measured faster).
#[test]
fn small_files_and_stdin_are_not_mapped() {
    let dir = scratch("mapped-small");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let small = dir.join("small.txt");
    std::fs::copy(root.join("fixtures/hermes/basic.txt"), &small).expect("copy");
    let big = big_file(&dir, 2);
    let fifo = dir.join("pause");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    let big_arg = big.to_str().expect("path");
    let cases: [(&[&str], Option<&Path>, bool); 3] = [
        (&["parse", "-c", small.to_str().expect("path")], None, true),
        (&["parse", "-c"], Some(&big), true),
        (&["parse", "-c", big_arg], None, false),
    ];
    for (args, stdin, test_threshold) in cases {
        let mut cmd = toolcall();
        cmd.args(args).env("TOOLCALL_TEST_MAPPED_FIFO", &fifo);
        if test_threshold {
            cmd.env("TOOLCALL_MAP_MIN", TEST_MAP_MIN);
        }
        match stdin {
            Some(p) => cmd.stdin(std::fs::File::open(p).expect("open")),
            None => cmd.stdin(Stdio::null()),
        };
        let child = cmd.stdout(Stdio::piped()).spawn().expect("spawn");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(child.wait_with_output());
        });
        let out = match rx.recv_timeout(std::time::Duration::from_secs(60)) {
            Ok(out) => out.expect("wait"),
            Err(_) => {
                // release it, then fail
                drop(std::fs::OpenOptions::new().write(true).open(&fifo));
                panic!("{args:?}: the input was mapped");
            }
        };
        assert_eq!(out.status.code(), Some(0), "{args:?}");
    }
}

/// `unsafe` is allowed in exactly one place of the CLI crate: the map.
#[test]
fn one_function_allows_unsafe_code() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut allows = Vec::new();
    let mut stack = vec![root.join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("read source");
                for (i, line) in text.lines().enumerate() {
                    if line.contains("allow(unsafe_code)") && !line.trim_start().starts_with("//") {
                        allows.push(format!("{}:{}", path.display(), i + 1));
                    }
                }
            }
        }
    }
    assert_eq!(allows.len(), 1, "{allows:?}");
    assert!(allows[0].contains("map.rs"), "{allows:?}");
}
