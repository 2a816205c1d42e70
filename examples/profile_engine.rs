//! A fixed workload for instruction-level profiling of the engine: the
//! bench transcript (1 MB of prose, hermes calls or mixed formats) fed in
//! chunks of N bytes. Under callgrind the instruction count is exact and
//! does not depend on machine load:
//!
//! ```sh
//! cargo build --profile profiling --example profile_engine
//! valgrind --tool=callgrind target/profiling/examples/profile_engine hermes 8
//! ```
//!
//! Arguments: `prose|hermes|mixed` and the chunk size (default 8; a huge
//! one is a single feed, as `parse` does).

use toolcall::{Config, Engine, Event, Sink};
#[path = "../benches/engine.rs"]
#[allow(dead_code)]
mod bench;
/// Counts calls, so the events are consumed.
struct Count(usize);
impl Sink for Count {
    fn event(&mut self, ev: Event<'_>) {
        if let Event::ToolCall(_) = ev {
            self.0 += 1
        }
    }
}
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind = args.get(1).map(String::as_str).unwrap_or("prose");
    let chunk: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(8);
    let data = match kind {
        "prose" => bench::transcript(1 << 20, false, false),
        "hermes" => bench::transcript(1 << 20, false, true),
        _ => bench::transcript(1 << 20, true, true),
    };
    let mut sink = Count(0);
    let mut e = Engine::new(Config::default());
    for c in data.chunks(chunk) {
        e.feed(c, &mut sink);
    }
    e.finish(&mut sink);
    eprintln!("{}", sink.0);
}
