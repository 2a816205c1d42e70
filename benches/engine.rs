//! Engine throughput: `parse` (one feed) and `stream` (8-byte chunks) on a
//! generated ~4 MB transcript of prose with a tool call every few KB, next to
//! a bare `memchr` pass over the same bytes. Criterion reports MB/s; the
//! summary printed at the end gives each figure as a ratio to the memchr
//! pass, which means something on a noisy machine.
//!
//! Run: `cargo bench --bench engine` (add `-- --quick` for a short run).

use criterion::{black_box, Criterion, Throughput};
use std::time::{Duration, Instant};
use toolcall::{Config, Engine, Event, Sink};

/// Counts events without copying anything, so the figure is the engine's.
#[derive(Default)]
struct Count {
    calls: usize,
    text_bytes: u64,
}

impl Sink for Count {
    fn event(&mut self, ev: Event<'_>) {
        match ev {
            Event::ToolCall(_) => self.calls += 1,
            Event::Text { bytes, .. } => self.text_bytes += bytes.len() as u64,
            _ => {}
        }
    }
}

const WORDS: &[&str] = &[
    "the", "model", "reads", "a", "file", "and", "then", "answers", "with", "care", "while",
    "checking", "every", "value", "before", "it", "writes", "results", "to", "disk", "because",
    "users", "expect", "clear", "output", "from", "tools", "like", "this", "one", "weather", "in",
    "Lisbon", "is", "mild", "today", "(mostly)", "sunny,", "with", "20°C", "—", "nice.",
];

/// Deterministic prose with a call every ~3 KB. `mixed` rotates formats.
pub fn transcript(target: usize, mixed: bool, with_calls: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(target + 4096);
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let calls: &[&str] = if mixed {
        &[
            "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n</tool_call>\n",
            "<tool_call>\n<function=read_file>\n<parameter=path>\nsrc/main.rs\n</parameter>\n</function>\n</tool_call>\n",
            "<function=lookup>{\"q\": \"tides\"}</function>\n",
            "```json\n{\"name\": \"convert\", \"arguments\": {\"v\": 5}}\n```\n",
            "<think>I should check the file first, then answer.</think>\n",
            "<tool_call>search\n<arg_key>q</arg_key>\n<arg_value>rust</arg_value>\n</tool_call>\n",
            "[TOOL_CALLS]search_docs[ARGS]{\"query\": \"rate limits\"}\n",
            "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_price<｜tool▁sep｜>{\"sku\": \"A-113\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>\n",
            "<|channel|>commentary to=functions.get_time <|constrain|>json<|message|>{\"tz\": \"UTC\"}<|call|>\n",
            "<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>{\"path\": \"a\"}<|tool_call_end|><|tool_calls_section_end|>\n",
            "[get_weather(city=\"Oslo\", days=2)]\n",
            "<minimax:tool_call>\n<invoke name=\"shell\">\n<parameter name=\"cmd\">ls</parameter>\n</invoke>\n</minimax:tool_call>\n",
            "functools[{\"name\": \"add\", \"arguments\": {\"a\": 1}}]\n",
        ]
    } else {
        &["<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n</tool_call>\n"]
    };
    let mut since_call = 0;
    let mut k = 0;
    while out.len() < target {
        let mut line = 0;
        for _ in 0..(40 + next() % 40) {
            let w = WORDS[(next() % WORDS.len() as u64) as usize];
            out.extend_from_slice(w.as_bytes());
            out.push(b' ');
            line += w.len() + 1;
            if line > 80 {
                out.push(b'\n');
                line = 0;
            }
        }
        out.extend_from_slice(b"\n\n");
        since_call += 1;
        if with_calls && since_call >= 8 {
            out.extend_from_slice(calls[k % calls.len()].as_bytes());
            k += 1;
            since_call = 0;
        }
    }
    out
}

fn run_parse(data: &[u8], cfg: &Config) -> usize {
    let mut sink = Count::default();
    let mut e = Engine::new(cfg.clone());
    e.feed(data, &mut sink);
    e.finish(&mut sink);
    sink.calls
}

fn run_stream(data: &[u8], cfg: &Config, chunk: usize) -> usize {
    let mut sink = Count::default();
    let mut e = Engine::new(cfg.clone());
    for c in data.chunks(chunk) {
        e.feed(c, &mut sink);
    }
    e.finish(&mut sink);
    sink.calls
}

fn memchr_pass(data: &[u8]) -> usize {
    memchr::memchr_iter(b'<', data).count()
}

/// Best-of-N seconds for one run of `f`.
fn best(mut f: impl FnMut() -> usize) -> f64 {
    let mut best = f64::MAX;
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(600) {
        let t = Instant::now();
        black_box(f());
        best = best.min(t.elapsed().as_secs_f64());
    }
    best
}

fn main() {
    let single = transcript(4 << 20, false, true);
    let mixed = transcript(4 << 20, true, true);
    let prose = transcript(4 << 20, false, false);
    let cfg = Config::default();
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    for (label, data) in [("hermes", &single), ("mixed", &mixed), ("prose", &prose)] {
        let mut g = c.benchmark_group(format!("engine-{label}"));
        g.throughput(Throughput::Bytes(data.len() as u64));
        g.bench_function("memchr-baseline", |b| {
            b.iter(|| memchr_pass(black_box(data)))
        });
        g.bench_function("parse", |b| b.iter(|| run_parse(black_box(data), &cfg)));
        g.bench_function("stream-8b", |b| {
            b.iter(|| run_stream(black_box(data), &cfg, 8))
        });
        g.finish();
    }
    c.final_summary();

    eprintln!("\nsummary (best of repeated runs; ratio = throughput / bare memchr pass)");
    for (label, data) in [("hermes", &single), ("mixed", &mixed), ("prose", &prose)] {
        let mb = data.len() as f64 / 1e6;
        let base = best(|| memchr_pass(data));
        let parse = best(|| run_parse(data, &cfg));
        let stream = best(|| run_stream(data, &cfg, 8));
        let calls = run_parse(data, &cfg);
        eprintln!(
            "{label:7} {:.1} MB, {calls} calls: memchr {:7.0} MB/s | parse {:7.0} MB/s ({:.2}x) | stream-8b {:6.0} MB/s ({:.3}x)",
            mb,
            mb / base,
            mb / parse,
            base / parse,
            mb / stream,
            base / stream
        );
    }
}
