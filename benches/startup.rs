//! Process start plus a small parse: `toolcall parse` on a 300-byte hermes
//! reply, spawned as a shell pipeline would, next to spawning `true` (the
//! floor any process pays on this machine). The ratio is the figure to
//! watch on a noisy machine; the target is under 2 ms in absolute terms.
//!
//! Run: `cargo bench --bench startup`.

use criterion::Criterion;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

/// A short model reply with one call.
const REPLY: &[u8] = b"I'll look that up for you.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"unit\": \"celsius\"}}\n</tool_call>\n";

/// Spawns `program args`, writes `input` to its stdin, waits for it.
fn run(program: &str, args: &[&str], input: &[u8]) -> bool {
    let Ok(mut child) = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
    else {
        return false;
    };
    if let Some(mut stdin) = child.stdin.take() {
        // `true` may exit before reading: a broken pipe is fine here.
        let _ = stdin.write_all(input);
    }
    child.wait().map(|s| s.success()).unwrap_or(false)
}

fn main() {
    let toolcall = env!("CARGO_BIN_EXE_toolcall");
    assert!(run(toolcall, &["parse"], REPLY), "toolcall parse failed");
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let mut g = c.benchmark_group("startup");
    g.bench_function("spawn-true", |b| b.iter(|| run("true", &[], REPLY)));
    g.bench_function("toolcall-parse-small", |b| {
        b.iter(|| run(toolcall, &["parse"], REPLY))
    });
    g.finish();
    c.final_summary();
}
