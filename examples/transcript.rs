//! Writes the bench transcript (deterministic prose with a hermes
//! `<tool_call>` every ~3 KB; `mixed` rotates 13 formats) to stdout, for
//! whole-process measurements (`benches/whole-process.sh`):
//!
//! ```sh
//! cargo run --release --example transcript -- 40 > /tmp/bench-40mb.txt
//! ```
//!
//! Arguments: megabytes (default 40), then `hermes` (default), `mixed` or
//! `prose`.

use std::io::Write;

#[path = "../benches/engine.rs"]
#[allow(dead_code)]
mod bench;

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let mb: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(40);
    let (mixed, calls) = match args.get(2).map(String::as_str) {
        Some("mixed") => (true, true),
        Some("prose") => (false, false),
        _ => (false, true),
    };
    let data = bench::transcript(mb << 20, mixed, calls);
    std::io::stdout().lock().write_all(&data)
}
