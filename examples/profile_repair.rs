//! A fixed workload for instruction-level profiling of small-document
//! repair: the eight small broken objects of `benches/repair.rs` (the
//! Node and Python benches' too), repaired N times each through one entry.
//! Under callgrind the instruction count is exact and does not depend on
//! machine load; two runs with different N give the count per object
//! without the program's start-up:
//!
//! ```sh
//! cargo build --release --example profile_repair
//! valgrind --tool=callgrind target/release/examples/profile_repair text 20000
//! ```
//!
//! Arguments: `str` (`repair_document_str`, the full repair with its
//! repairs list) or `text` (`repair_document_text`, the fast path first),
//! and N (default 20000).

use std::hint::black_box;
use toolcall::{repair_document_str, repair_document_text, Prose, RepairOptions};

/// The small broken objects (as in `benches/repair.rs`).
const SHAPES: [&str; 8] = [
    r#"{"city": "Paris", "unit": "celsius",}"#,
    r#"{"query": "hotels in Rome", "max": 5"#,
    r#"{city: 'Paris', days: 3}"#,
    r#"{"a": True, "b": None}"#,
    r#"{"text": "He said "hi" to me"}"#,
    r#"{"path": "/tmp/x", "lines": [1, 2, 3"#,
    r#"{"name": "search" "q": "rust"}"#,
    "```json\n{\"x\": 1}\n```",
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let entry = args.get(1).map(String::as_str).unwrap_or("text");
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let opts = RepairOptions::unbounded();
    let mut bytes = 0usize;
    for _ in 0..n {
        for s in SHAPES {
            let s = black_box(s);
            bytes += match entry {
                "str" => repair_document_str(s, &opts, Prose::Refuse)
                    .ok()
                    .flatten()
                    .map_or(0, |r| r.output.len()),
                _ => repair_document_text(s, &opts, Prose::Refuse)
                    .ok()
                    .flatten()
                    .map_or(0, |t| t.len()),
            };
        }
    }
    eprintln!("{} objects, {bytes} bytes out", n * SHAPES.len());
}
