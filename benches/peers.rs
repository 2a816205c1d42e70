//! Peer comparison (issue #19): the same generated hermes transcript (prose
//! with a `<tool_call>` every ~3 KB, from `benches/engine.rs`) through our
//! engine and through two other Rust tool-call parsers, in one process:
//!
//! - a bare `memchr` pass for `<` (the baseline every ratio refers to);
//! - ours in auto mode (no format given), the whole document fed once to a
//!   sink that counts calls and text bytes;
//! - ours told the format (`hermes`), as the peers are;
//! - ours again (auto mode), writing `parse`'s NDJSON records into a `Vec<u8>`;
//! - `dynamo-parsers`' `hermes` parser, told the format, on the whole text;
//! - `tool-parser`'s `QwenParser` (its parser for the hermes
//!   `<tool_call>\n{…}\n</tool_call>` format), `parse_complete` on the whole
//!   text.
//!
//! Each figure is the median wall time of `PEER_RUNS` runs (default 7) after
//! one warm-up run; the input is `PEER_MB` megabytes (default 4). The table
//! says how many calls each parser found (a warning follows when a peer's
//! count differs from ours) and how much of the prose it hands back.
//!
//! Run: `cargo bench --features peer-bench --bench peers`
//! (`PEER_MB=40 PEER_RUNS=3 cargo bench --features peer-bench --bench peers`
//! for another size). The peers are optional dependencies behind the
//! `peer-bench` feature; no default build or CI job compiles them.

use std::cell::RefCell;
use std::hint::black_box;
use std::io::Write;
use std::rc::Rc;
use std::time::Instant;
use tool_parser::ToolParser;
use toolcall::cli::output::{FlushPolicy, Output};
use toolcall::Collector;
use toolcall::{Config, Engine, Event, FormatChoice, Sink};

#[path = "engine.rs"]
#[allow(dead_code)]
mod bench;

/// What one run of a parser found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Found {
    /// Tool calls returned.
    calls: usize,
    /// Bytes of normal text (prose) handed back; `None` when the parser's
    /// output has no prose by design (the memchr pass, NDJSON records).
    prose: Option<usize>,
}

/// Counts our engine's events without copying anything.
#[derive(Default)]
struct Count {
    /// `tool_call` events.
    calls: usize,
    /// Bytes in `text` events.
    text_bytes: usize,
}

impl Sink for Count {
    fn event(&mut self, ev: Event<'_>) {
        match ev {
            Event::ToolCall(_) => self.calls += 1,
            Event::Text { bytes, .. } => self.text_bytes += bytes.len(),
            _ => {}
        }
    }
}

/// A writer into a `Vec<u8>` the caller can still read once [`Output`]
/// (which owns its writer) is done with it.
struct Shared(Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// One row of the table: a parser, its median time, what it found.
struct Row {
    /// Parser label.
    name: &'static str,
    /// Median seconds per run.
    secs: f64,
    /// What the warm-up run found.
    found: Found,
}

/// The bare pass every ratio refers to: every `<` in the input.
fn memchr_pass(data: &[u8]) -> Result<Found, String> {
    black_box(memchr::memchr_iter(b'<', data).count());
    Ok(Found::default())
}

/// Ours, auto mode, one feed, counting events.
fn ours_count(data: &[u8], cfg: &Config) -> Result<Found, String> {
    let mut sink = Count::default();
    let mut e = Engine::new(cfg.clone());
    e.feed(data, &mut sink);
    e.finish(&mut sink);
    Ok(Found {
        calls: sink.calls,
        prose: Some(sink.text_bytes),
    })
}

/// Ours, auto mode, writing `parse`'s NDJSON records (calls and errors
/// merged in document order) into a `Vec<u8>` through the CLI's own
/// [`Output`], as `toolcall parse` does: the text fed 64 KiB at a time,
/// each slice's records written before the next.
fn ours_ndjson(data: &[u8], cfg: &Config) -> Result<Found, String> {
    let buf = Rc::new(RefCell::new(Vec::new()));
    let mut out = Output::new(Box::new(Shared(Rc::clone(&buf))), FlushPolicy::Block);
    let mut e = Engine::new(cfg.clone());
    let mut calls = 0;
    for slice in data.chunks(64 << 10).map(Some).chain([None]) {
        let mut found = Collector::calls_only();
        match slice {
            Some(slice) => e.feed(slice, &mut found),
            None => e.finish(&mut found),
        }
        let mut errors = found.errors.iter().peekable();
        for call in &found.calls {
            while let Some(err) = errors.next_if(|err| err.span[0] < call.span[0]) {
                out.record(err).map_err(|err| err.to_string())?;
            }
            out.tool_call(call).map_err(|err| err.to_string())?;
        }
        for err in errors {
            out.record(err).map_err(|err| err.to_string())?;
        }
        calls += found.calls.len();
    }
    out.flush().map_err(|err| err.to_string())?;
    black_box(buf.borrow().len());
    Ok(Found { calls, prose: None })
}

/// dynamo-parsers, told the format (`hermes`), on the whole text.
fn dynamo(text: &str) -> Result<Found, String> {
    let (calls, normal) = futures::executor::block_on(dynamo_parsers::detect_and_parse_tool_call(
        text,
        Some("hermes"),
        None,
    ))
    .map_err(|err| format!("{err:#}"))?;
    Ok(Found {
        calls: calls.len(),
        prose: Some(normal.map_or(0, |s| s.len())),
    })
}

/// tool-parser's hermes-format parser, `parse_complete` on the whole text.
fn tool_parser_qwen(parser: &tool_parser::QwenParser, text: &str) -> Result<Found, String> {
    let (normal, calls) =
        futures::executor::block_on(parser.parse_complete(text)).map_err(|err| err.to_string())?;
    Ok(Found {
        calls: calls.len(),
        prose: Some(normal.len()),
    })
}

/// Median seconds of `runs` runs of `f` after one warm-up run, and what the
/// warm-up run found.
fn measure(
    runs: usize,
    mut f: impl FnMut() -> Result<Found, String>,
) -> Result<(f64, Found), String> {
    let found = f()?;
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t = Instant::now();
        black_box(f()?);
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let mid = times.len() / 2;
    let median = if times.len() % 2 == 0 {
        (times[mid - 1] + times[mid]) / 2.0
    } else {
        times[mid]
    };
    Ok((median, found))
}

/// A positive whole number from the environment, or `default`.
fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(default)
}

/// `N cores, CPU model` (the model when /proc/cpuinfo says it).
fn machine() -> String {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string());
    format!("{cores} cores (nproc), {model}")
}

/// The prose column: how much of our text a parser hands back.
fn prose_cell(found: Found, ours_text: usize) -> String {
    match found.prose {
        None => "none (by design)".to_string(),
        Some(0) => "none".to_string(),
        Some(n) if n as f64 >= ours_text as f64 * 0.99 => {
            format!("all ({:.2} MB)", n as f64 / 1e6)
        }
        Some(n) => format!(
            "{n} B ({:.3}% of ours)",
            n as f64 * 100.0 / ours_text.max(1) as f64
        ),
    }
}

fn main() {
    let mb = env_usize("PEER_MB", 4);
    let runs = env_usize("PEER_RUNS", 7);
    let data = bench::transcript(mb << 20, false, true);
    let text = std::str::from_utf8(&data).expect("the bench transcript is UTF-8");
    let cfg = Config::default();
    let hermes = Config {
        format: FormatChoice::Only(
            toolcall::formats::registry::by_name("hermes")
                .expect("hermes is a known format")
                .id,
        ),
        ..Config::default()
    };
    let qwen = tool_parser::QwenParser::new();

    type Run<'a> = Box<dyn FnMut() -> Result<Found, String> + 'a>;
    let parsers: Vec<(&'static str, Run<'_>)> = vec![
        ("memchr pass (`<`)", Box::new(|| memchr_pass(&data))),
        (
            "toolcall (auto, counting sink)",
            Box::new(|| ours_count(&data, &cfg)),
        ),
        (
            "toolcall (told hermes, counting sink)",
            Box::new(|| ours_count(&data, &hermes)),
        ),
        (
            "toolcall (auto, NDJSON to Vec)",
            Box::new(|| ours_ndjson(&data, &cfg)),
        ),
        ("dynamo-parsers 11.0.1 (hermes)", Box::new(|| dynamo(text))),
        (
            "tool-parser 1.10.0 (QwenParser)",
            Box::new(|| tool_parser_qwen(&qwen, text)),
        ),
    ];
    let mut rows = Vec::new();
    let mut warnings = Vec::new();
    for (name, mut f) in parsers {
        match measure(runs, &mut f) {
            Ok((secs, found)) => rows.push(Row { name, secs, found }),
            Err(err) => warnings.push(format!("{name} failed: {err}")),
        }
    }

    let (Some(base), Some(ours)) = (rows.first(), rows.get(1)) else {
        eprintln!("peers: the baseline or our own run failed: {warnings:?}");
        std::process::exit(1);
    };
    let (base_secs, ours_secs, ours_found) = (base.secs, ours.secs, ours.found);
    let ours_text = ours_found.prose.unwrap_or(0);
    let size = data.len() as f64 / 1e6;

    println!("machine: {}", machine());
    println!(
        "input: {size:.2} MB hermes transcript, {} calls (ours), median of {runs} runs",
        ours_found.calls
    );
    println!();
    println!("| parser | MB/s | × memchr pass | ours ÷ this | calls | prose kept |");
    println!("|---|---:|---:|---:|---:|---|");
    for row in &rows {
        let calls = if row.name.starts_with("memchr") {
            "–".to_string()
        } else {
            row.found.calls.to_string()
        };
        let prose = if row.name.starts_with("memchr") {
            "–".to_string()
        } else {
            prose_cell(row.found, ours_text)
        };
        println!(
            "| {} | {:.0} | {:.3} | {:.2} | {calls} | {prose} |",
            row.name,
            size / row.secs,
            base_secs / row.secs,
            row.secs / ours_secs,
        );
        if !row.name.starts_with("memchr") && row.found.calls != ours_found.calls {
            warnings.push(format!(
                "{} found {} calls, ours {}",
                row.name, row.found.calls, ours_found.calls
            ));
        }
    }
    if !warnings.is_empty() {
        println!();
    }
    for w in &warnings {
        println!("warning: {w}");
    }
}
