//! Memory does not grow with the input (docs/design.md#invariants): the
//! streaming engine and the wire driver hold a bounded number of bytes
//! however long the stream runs.
//!
//! The input is generated on the fly and fed in chunks, never held whole;
//! the sinks only count. Each test streams `TOOLCALL_MEMORY_MB` megabytes
//! (default 50, a couple of seconds in release); for the issue's 200 MB run:
//!
//! ```text
//! TOOLCALL_MEMORY_MB=200 cargo test --release --test integration memory
//! ```

use toolcall::wire::{InputKind, WireConfig, WireEngine};
use toolcall::{Config, Engine, Event, Sink};

/// Megabytes each test streams.
fn megabytes() -> u64 {
    std::env::var("TOOLCALL_MEMORY_MB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(50)
}

/// The most bytes the engine may hold at any time: a little over the
/// largest call in the generated input (about 2.5 KB), independent of the
/// input's length, its longest line and the chunk size.
const BOUND: usize = 8 * 1024;

/// Counts events; keeps nothing.
#[derive(Default)]
struct Count {
    calls: usize,
    errors: usize,
    text: u64,
    reasoning: u64,
    /// End of the last span seen: spans must tile the input in order.
    at: u64,
}

impl Sink for Count {
    fn event(&mut self, ev: Event<'_>) {
        let span = match ev {
            Event::Text { span, bytes } => {
                self.text += bytes.len() as u64;
                Some(span)
            }
            Event::Reasoning { span, content } => {
                self.reasoning += content.len() as u64;
                Some(span)
            }
            Event::Markup { span, .. } => Some(span),
            Event::ToolCall(c) => {
                self.calls += 1;
                (!c.in_reasoning).then_some(c.span)
            }
            Event::Error(_) => {
                self.errors += 1;
                None
            }
            Event::ToolCallStart { .. } | Event::Turn(_) => None,
        };
        if let Some(s) = span {
            assert_eq!(s[0], self.at, "spans do not tile the input");
            self.at = s[1];
        }
    }
}

/// One period of the generated document, `k`-th of its kind: prose, a call
/// every few KB in a rotating format, reasoning, code, and every 64th period
/// a 256 KB line with no newline at all. Returns the calls it holds.
fn period(k: u64, out: &mut Vec<u8>) -> usize {
    let prose = "The quick brown fox jumps over the lazy dog; 3 < 4 and [a] is not a call. ";
    for _ in 0..40 {
        out.extend_from_slice(prose.as_bytes());
        if !k.is_multiple_of(3) {
            out.push(b'\n');
        }
    }
    // calls start a line (a ``` in mid-line is inline code, and the fence
    // after it would open a plain fence: see `unclosed_plain_fence_...`)
    out.push(b'\n');
    let big = "x".repeat((k % 7 * 300) as usize);
    let call = match k % 5 {
        0 => format!(
            "<tool_call>\n{{\"name\": \"get_weather\", \"arguments\": {{\"city\": \"Paris {k}\", \"note\": \"{big}\"}}}}\n</tool_call>\n"
        ),
        1 => format!(
            "```json\n{{\"name\": \"search\", \"arguments\": {{\"q\": \"rust {k}\", \"pad\": \"{big}\"}}}}\n```\n"
        ),
        2 => format!(
            "<think>\nShould I call the tool? {big}\n</think>\n<tool_call>\n{{\"name\": \"lookup\", \"arguments\": {{\"id\": {k}}}}}\n</tool_call>\n"
        ),
        3 => format!(
            "[TOOL_CALLS][{{\"name\": \"add\", \"arguments\": {{\"a\": {k}, \"b\": 2, \"s\": \"{big}\"}}}}]\n"
        ),
        _ => format!(
            "Some `inline <tool_call> code` and:\n```rust\nlet v = vec![1, 2]; // <tool_call> in code\n```\n<function=run>\n<parameter=cmd>\nls {k}\n</parameter>\n</function>\n"
        ),
    };
    out.extend_from_slice(call.as_bytes());
    if k % 64 == 63 {
        // a very long line: no newline for 256 KB, markers' first bytes in it
        for _ in 0..(256 * 1024 / 64) {
            out.extend_from_slice(
                b"long line < with [brackets] and `ticks` but no newline at all ok ",
            );
        }
        out.push(b'\n');
    }
    1
}

#[test]
fn engine_holds_a_bounded_buffer_over_a_long_stream() {
    let target = megabytes() << 20;
    let cfg = Config {
        reasoning_calls: false,
        ..Config::default()
    };
    let mut engine = Engine::new(cfg);
    let mut sink = Count::default();
    let mut doc = Vec::with_capacity(512 * 1024);
    let (mut k, mut total, mut peak, mut want) = (0u64, 0u64, 0usize, 0usize);
    // chunk sizes that do not divide the period: cuts land everywhere
    let sizes = [65_536usize, 4093, 7, 1 << 20, 509];
    let mut s = 0;
    while total < target {
        doc.clear();
        while doc.len() < 256 * 1024 {
            want += period(k, &mut doc);
            k += 1;
        }
        let mut at = 0;
        while at < doc.len() {
            let end = (at + sizes[s % sizes.len()]).min(doc.len());
            s += 1;
            engine.feed(&doc[at..end], &mut sink);
            peak = peak.max(engine.held());
            at = end;
        }
        total += doc.len() as u64;
    }
    engine.finish(&mut sink);
    eprintln!(
        "engine: peak held {peak} bytes over {total} bytes, {} calls",
        sink.calls
    );
    assert_eq!(engine.held(), 0);
    assert!(peak < BOUND, "engine held {peak} bytes after {total} bytes");
    assert_eq!(sink.errors, 0);
    assert_eq!(sink.calls, want, "calls");
    assert_eq!(sink.at, total, "spans end at {} of {total}", sink.at);
    assert!(sink.text > total / 2 && sink.reasoning > 0);
}

/// One `/api/generate` line carrying `text` as the response.
fn generate_line(k: u64, text: &str, out: &mut Vec<u8>) {
    let s = serde_json::to_string(text).expect("json string");
    out.extend_from_slice(
        format!(
            "{{\"model\":\"hermes3\",\"created_at\":\"2026-05-01T10:00:00.{k:09}Z\",\"response\":{s},\"done\":false}}\n"
        )
        .as_bytes(),
    );
}

#[test]
fn ollama_generate_stream_holds_a_bounded_buffer() {
    let target = megabytes() << 20;
    let wire = WireConfig {
        input: InputKind::Ollama,
        ..WireConfig::default()
    };
    let mut engine = WireEngine::new(Config::default(), wire);
    let mut sink = Count::default();
    let mut chunk = Vec::with_capacity(80 * 1024);
    let (mut k, mut total, mut peak, mut want) = (0u64, 0u64, 0usize, 0usize);
    // a call written token by token across lines, prose around it, every
    // few KB of stream
    let call = format!(
        "<tool_call>\n{{\"name\": \"get_weather\", \"arguments\": {{\"city\": \"Paris\", \"pad\": \"{}\"}}}}\n</tool_call>\n",
        "y".repeat(600)
    );
    let sizes = [4093usize, 509, 65_536, 7, 1021];
    let mut s = 0;
    let pieces: Vec<String> = call
        .as_bytes()
        .chunks(9)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect();
    while total < target {
        chunk.clear();
        while chunk.len() < 64 * 1024 {
            for _ in 0..20 {
                generate_line(k, "Thinking about the weather in the city. ", &mut chunk);
                k += 1;
            }
            for p in &pieces {
                generate_line(k, p, &mut chunk);
                k += 1;
            }
            want += 1;
        }
        let mut at = 0;
        while at < chunk.len() {
            let end = (at + sizes[s % sizes.len()]).min(chunk.len());
            s += 1;
            engine.feed(&chunk[at..end], &mut sink);
            peak = peak.max(engine.held());
            at = end;
        }
        total += chunk.len() as u64;
    }
    engine.feed(
        b"{\"model\":\"hermes3\",\"response\":\"\",\"done\":true,\"done_reason\":\"stop\",\"eval_count\":7}\n",
        &mut sink,
    );
    engine.finish(&mut sink);
    let sum = engine.summary();
    eprintln!(
        "ollama: peak held {peak} bytes over {total} bytes, {} calls",
        sink.calls
    );
    assert!(
        peak < BOUND,
        "wire driver held {peak} bytes after {total} bytes"
    );
    assert!(!sum.truncated);
    assert_eq!(sink.errors, 0);
    assert_eq!(sink.calls, want);
    assert_eq!(sum.calls, want);
}

/// A fence with no info string may hold a JSON call, so it is held back until
/// it closes: memory is then bounded by `max_block` (1 MiB by default, the
/// contract's limit on a held-back block), not by a constant of the engine.
/// An unclosed one is given back as text with a TLP-007 error at the limit.
#[test]
fn unclosed_plain_fence_is_held_at_most_max_block() {
    let max_block = 64 * 1024;
    let cfg = Config {
        max_block,
        ..Config::default()
    };
    let mut engine = Engine::new(cfg);
    let mut sink = Count::default();
    let chunk = 4093;
    let head = b"Some code:\n```\n";
    engine.feed(head, &mut sink);
    let line = b"The quick brown fox jumps over the lazy dog; 3 < 4 and [a] is not a call.\n";
    let mut doc = Vec::new();
    while doc.len() < 4 * max_block {
        doc.extend_from_slice(line);
    }
    let mut peak = 0;
    for c in doc.chunks(chunk) {
        engine.feed(c, &mut sink);
        peak = peak.max(engine.held());
    }
    engine.finish(&mut sink);
    assert!(peak <= max_block + chunk, "held {peak}");
    assert!(peak > max_block / 2, "the fence was not held: {peak}");
    assert_eq!(sink.errors, 1, "one TLP-007 at the limit");
    assert_eq!(sink.calls, 0);
    assert_eq!(sink.at, (head.len() + doc.len()) as u64);
}

/// `parse` collects a document's calls and errors with
/// `Collector::calls_only`: over a long document it keeps no text, no
/// reasoning and no tiling, so what it holds grows with the calls found, not with the
/// prose around them; and it finds the same calls a full collector does.
#[test]
fn calls_only_collector_keeps_calls_not_prose() {
    let target = ((megabytes() << 20) / 4) as usize;
    let cfg = Config::default();
    let mut lean = toolcall::Collector::calls_only();
    let mut full = toolcall::Collector::default();
    let mut lean_engine = Engine::new(cfg.clone());
    let mut full_engine = Engine::new(cfg);
    let (mut fed, mut k, mut buf) = (0usize, 0u64, Vec::new());
    while fed < target {
        buf.clear();
        period(k, &mut buf);
        lean_engine.feed(&buf, &mut lean);
        full_engine.feed(&buf, &mut full);
        fed += buf.len();
        k += 1;
    }
    lean_engine.finish(&mut lean);
    full_engine.finish(&mut full);
    assert!(lean.text.is_empty() && lean.reasoning.is_empty());
    assert!(
        full.text.len() > target / 2,
        "the full collector keeps the prose"
    );
    assert!(
        lean.calls.len() as u64 >= k / 2,
        "{} calls",
        lean.calls.len()
    );
    assert_eq!(lean.calls, full.calls);
    assert_eq!(lean.errors, full.errors);
    assert!(lean.segments.is_empty() && !full.segments.is_empty());
}

/// The peak resident memory of process `pid` so far (`VmHWM`), in bytes.
fn peak_rss(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb << 10)
}

/// `split` of a big document (prose with a call every ~3 KB, as the bench
/// transcript) holds what its record is made of, not the document three or
/// four times over: peak memory stays under 1.5 times the input (issue 36:
/// 620 MB for 200 MB before). The binary runs on a pipe; its peak is read
/// once it has started writing (everything is decided by then) and again
/// before it ends.
#[test]
fn split_of_a_big_document_stays_under_one_and_a_half_times_its_size() {
    use std::io::{Read, Write};
    if !std::path::Path::new("/proc/self/status").exists() {
        eprintln!("no /proc: skipped");
        return;
    }
    let target = megabytes() << 20;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_toolcall"))
        .args(["split", "--no-config"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("spawn toolcall");
    let pid = child.id();
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let prose = "The model thinks about the weather in several cities before it answers. ";
        let (mut total, mut calls, mut k) = (0u64, 0usize, 0u64);
        let mut doc = Vec::with_capacity(1 << 20);
        while total < target {
            doc.clear();
            while doc.len() < 1 << 20 {
                for _ in 0..40 {
                    doc.extend_from_slice(prose.as_bytes());
                }
                doc.extend_from_slice(
                    format!("\n<tool_call>\n{{\"name\": \"get_weather\", \"arguments\": {{\"city\": \"Paris {k}\"}}}}\n</tool_call>\n").as_bytes(),
                );
                calls += 1;
                k += 1;
            }
            stdin.write_all(&doc).expect("feed split");
            total += doc.len() as u64;
        }
        (total, calls)
    });
    let mut stdout = child.stdout.take().expect("stdout");
    let mut output = Vec::new();
    let mut first = [0u8; 1];
    stdout
        .read_exact(&mut first)
        .expect("split wrote its record");
    output.push(first[0]);
    let at_first_byte = peak_rss(pid);
    stdout.read_to_end(&mut output).expect("read the record");
    let before_end = peak_rss(pid);
    let status = child.wait().expect("wait");
    let (total, calls) = writer.join().expect("writer");
    assert!(status.success(), "split exited {status}");
    let peak = at_first_byte.max(before_end).expect("VmHWM readable");
    eprintln!(
        "split: peak {} MB for {} MB of input",
        peak >> 20,
        total >> 20
    );
    assert!(
        peak < total + total / 2,
        "split peaked at {} MB for {} MB",
        peak >> 20,
        total >> 20
    );
    assert!(output.starts_with(b"{\"type\":\"split\",\"doc\":\"-\",\"text_before\":\"The model"));
    assert!(output.ends_with(b"]}\n"));
    let found = output
        .windows(20)
        .filter(|w| w == b"\"type\":\"tool_call\",\"")
        .count();
    assert_eq!(found, calls, "calls in the record");
}

/// One JSONL line: an OpenAI request body with a call, its result and
/// the answer (every 7th line leaves the call unanswered).
fn conversation_line(k: u64, out: &mut Vec<u8>) {
    let result = if k.is_multiple_of(7) {
        String::new()
    } else {
        format!(r#"{{"role":"tool","tool_call_id":"call_{k}","content":"21 C"}},"#)
    };
    let line = format!(
        r#"{{"model":"m","tools":[{{"type":"function","function":{{"name":"get_weather","parameters":{{"type":"object","properties":{{"city":{{"type":"string"}}}},"required":["city"]}}}}}}],"messages":[{{"role":"system","content":"You are a helpful assistant. {pad}"}},{{"role":"user","content":"Weather in city {k}?"}},{{"role":"assistant","content":null,"tool_calls":[{{"id":"call_{k}","type":"function","function":{{"name":"get_weather","arguments":"{{\"city\": \"C{k}\"}}"}}}}]}},{result}{{"role":"assistant","content":"It is 21 C."}}]}}"#,
        pad = "lorem ipsum ".repeat(40)
    );
    out.extend_from_slice(line.as_bytes());
    out.push(b'\n');
}

/// Runs `toolcall ARGS` on a generated JSONL of conversations
/// (`megabytes()` of them, on a pipe) and returns its exit code, the
/// lines written and its peak resident memory in KB (`VmHWM`, sampled).
#[cfg(target_os = "linux")]
fn peak_on_conversations(args: &[&str]) -> (Option<i32>, u64, u64) {
    use std::io::Write;
    let bytes = megabytes() << 20;
    peak_fed(args, move |stdin| {
        let (mut k, mut written, mut buf) = (0u64, 0u64, Vec::new());
        while written < bytes {
            buf.clear();
            for _ in 0..64 {
                conversation_line(k, &mut buf);
                k += 1;
            }
            written += buf.len() as u64;
            if stdin.write_all(&buf).is_err() {
                break;
            }
        }
        k
    })
}

/// `validate` on a JSONL of conversations reads it a line at a time: the
/// process's peak resident memory stays far below the input's size (the
/// issue's 200 MB file validates in under 64 MB; measured numbers are in
/// docs/performance.md). Linux only: the peak is read from /proc.
#[cfg(target_os = "linux")]
#[test]
fn validate_holds_one_conversation_of_a_long_jsonl() {
    let (code, lines, peak) =
        peak_on_conversations(&["validate", "--no-config", "--input", "messages"]);
    assert_eq!(code, Some(1), "unanswered calls make it fail");
    assert!(lines > 1_000, "{lines} lines");
    let peak_mb = peak / 1024;
    assert!(
        peak > 0 && peak_mb < 32,
        "peak RSS {peak_mb} MB for {} MB of conversations",
        megabytes()
    );
}

/// `parse --input messages` reads a JSONL of conversations on a pipe a
/// line at a time too: its calls go out as each line is parsed, and the
/// peak resident memory stays far below the input's size.
#[cfg(target_os = "linux")]
#[test]
fn parse_holds_one_conversation_of_a_long_jsonl() {
    let (code, lines, peak) =
        peak_on_conversations(&["parse", "--no-config", "--input", "messages"]);
    assert_eq!(code, Some(0), "every line has a call");
    assert!(lines > 1_000, "{lines} lines");
    let peak_mb = peak / 1024;
    assert!(
        peak > 0 && peak_mb < 32,
        "peak RSS {peak_mb} MB for {} MB of conversations",
        megabytes()
    );
}

/// Runs `toolcall ARGS` with what `feed` writes on its stdin (a pipe) and
/// returns its exit code, what `feed` returned and the peak resident
/// memory in KB (`VmHWM`, sampled).
#[cfg(target_os = "linux")]
fn peak_fed(
    args: &[&str],
    feed: impl FnOnce(&mut std::process::ChildStdin) -> u64 + Send + 'static,
) -> (Option<i32>, u64, u64) {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolcall"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn toolcall");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || feed(&mut stdin));
    let mut peak = 0u64;
    let status = loop {
        if let Some(b) = peak_rss(child.id()) {
            peak = peak.max(b >> 10);
        }
        match child.try_wait().expect("wait") {
            Some(status) => break status,
            None => std::thread::sleep(std::time::Duration::from_millis(5)),
        }
    };
    let fed = writer.join().expect("writer");
    (status.code(), fed, peak)
}

/// A top-level JSON array of conversations (the fine-tuning tools'
/// `.json` dataset, pretty-printed) is read an element at a time: its
/// peak resident memory stays far below its size (issue 43; before, the
/// whole array was parsed, some 30 times its size).
#[cfg(target_os = "linux")]
#[test]
fn validate_holds_one_element_of_a_large_array_of_conversations() {
    use std::io::Write;
    let bytes = megabytes() << 20;
    let (code, elements, peak) = peak_fed(
        &["validate", "--no-config", "--input", "messages"],
        move |stdin| {
            let (mut k, mut written, mut buf) = (0u64, 0u64, Vec::new());
            let _ = stdin.write_all(b"[\n");
            while written < bytes {
                buf.clear();
                for _ in 0..64 {
                    if k > 0 {
                        buf.extend_from_slice(b",\n");
                    }
                    buf.extend_from_slice(b"  ");
                    conversation_line(k, &mut buf);
                    buf.pop();
                    k += 1;
                }
                written += buf.len() as u64;
                if stdin.write_all(&buf).is_err() {
                    return k;
                }
            }
            let _ = stdin.write_all(b"\n]\n");
            k
        },
    );
    assert_eq!(code, Some(1), "unanswered calls make it fail");
    assert!(elements > 1_000, "{elements} elements");
    let peak_mb = peak / 1024;
    assert!(
        peak > 0 && peak_mb < 32,
        "peak RSS {peak_mb} MB for {} MB of conversations",
        megabytes()
    );
}

/// One document too large to hold (here past `--max-conversation 8M`)
/// that does not open as one message list is one TLP-007 error, read no
/// further than the bound: before, a 47 MB document peaked at 1.37 GB (an
/// 88 MB one at 2.96 GB) and a larger one aborted in allocation. (One that
/// opens as a `messages` list is read a message at a time:
/// `validate_reads_a_large_message_list_past_max_conversation`.)
#[cfg(target_os = "linux")]
#[test]
fn validate_refuses_a_conversation_too_large_to_hold() {
    use std::io::Write;
    let bytes = megabytes() << 20;
    let (code, _, peak) = peak_fed(
        &[
            "validate",
            "--no-config",
            "--input",
            "messages",
            "--max-conversation",
            "8388608",
        ],
        move |stdin| {
            // the list comes after a value longer than the bound: its
            // shape is not known from the bytes held
            let _ = stdin.write_all(b"{\"turns\": [{\"role\": \"user\", \"content\": \"hi\"}");
            let (mut k, mut written) = (0u64, 0u64);
            while written < bytes {
                let m = format!(
                    r#", {{"role": "assistant", "content": null, "tool_calls": [{{"id": "c{k}", "type": "function", "function": {{"name": "get_weather", "arguments": "{{\"city\": \"Paris\"}}"}}}}]}}, {{"role": "tool", "tool_call_id": "c{k}", "content": "sunny"}}"#
                );
                if stdin.write_all(m.as_bytes()).is_err() {
                    break;
                }
                written += m.len() as u64;
                k += 1;
            }
            let _ = stdin.write_all(b"]}");
            k
        },
    );
    assert_eq!(code, Some(1), "the TLP-007 error fails the run");
    let peak_mb = peak / 1024;
    assert!(
        peak > 0 && peak_mb < 32,
        "peak RSS {peak_mb} MB for a {} MB document",
        megabytes()
    );
}

/// The lines of Claude Code session `k` of a generated log: a user turn, a
/// message over two lines (the same `message.id`), its result (left out in
/// every 7th session), the answer, and a file snapshot naming no session.
fn session_lines(k: u64, out: &mut Vec<u8>) {
    let pad = "lorem ipsum ".repeat(40);
    let s = format!("sess-{k}");
    let mut line = |l: String| {
        out.extend_from_slice(l.as_bytes());
        out.push(b'\n');
    };
    line(format!(
        r#"{{"parentUuid":null,"isSidechain":false,"sessionId":"{s}","type":"user","uuid":"u{k}","message":{{"role":"user","content":"Weather in city {k}? {pad}"}}}}"#
    ));
    line(format!(
        r#"{{"isSidechain":false,"sessionId":"{s}","type":"assistant","uuid":"a{k}","message":{{"id":"msg_{k}","role":"assistant","content":[{{"type":"text","text":"Let me look."}}]}}}}"#
    ));
    line(format!(
        r#"{{"isSidechain":false,"sessionId":"{s}","type":"assistant","uuid":"b{k}","message":{{"id":"msg_{k}","role":"assistant","content":[{{"type":"tool_use","id":"toolu_{k}","name":"get_weather","input":{{"city":"C{k}"}}}}]}}}}"#
    ));
    line(format!(
        r#"{{"type":"file-history-snapshot","messageId":"msg_{k}","snapshot":{{"trackedFileBackups":{{}}}}}}"#
    ));
    if !k.is_multiple_of(7) {
        line(format!(
            r#"{{"isSidechain":false,"sessionId":"{s}","type":"user","uuid":"r{k}","message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"toolu_{k}","content":"21 C"}}]}}}}"#
        ));
    }
    line(format!(
        r#"{{"isSidechain":false,"sessionId":"{s}","type":"assistant","uuid":"c{k}","message":{{"id":"msg_{k}b","role":"assistant","content":[{{"type":"text","text":"It is 21 C."}}]}}}}"#
    ));
}

/// A Claude Code session log of many sessions (four times `megabytes()`,
/// 200 MB by default) is read a session at a time by `validate` and by
/// `parse`: the peak resident memory stays far below the log's size (issue
/// 43; before, the log was read whole and grouped over the whole file: a
/// 200 MB log passed 3.2 GB, and a 10 MB one peaked at 175 MB).
#[cfg(target_os = "linux")]
#[test]
fn session_logs_are_held_a_session_at_a_time() {
    use std::io::Write;
    let bytes = (megabytes() * 4) << 20;
    for (args, want) in [
        (
            &["validate", "--no-config", "--input", "messages", "-"][..],
            1,
        ),
        (&["parse", "--no-config", "-"][..], 0),
    ] {
        let (code, sessions, peak) = peak_fed(args, move |stdin| {
            let (mut k, mut written, mut buf) = (0u64, 0u64, Vec::new());
            while written < bytes {
                buf.clear();
                for _ in 0..64 {
                    session_lines(k, &mut buf);
                    k += 1;
                }
                written += buf.len() as u64;
                if stdin.write_all(&buf).is_err() {
                    break;
                }
            }
            k
        });
        assert_eq!(code, Some(want), "{args:?}: unanswered calls fail validate");
        assert!(sessions > 10_000, "{sessions} sessions");
        let peak_mb = peak / 1024;
        eprintln!("{}: peak {peak_mb} MB for {} MB", args[0], bytes >> 20);
        assert!(
            peak > 0 && peak_mb < 64,
            "{}: peak RSS {peak_mb} MB for a {} MB session log",
            args[0],
            bytes >> 20
        );
    }
}

/// A document that is one conversation of many short messages, under
/// `--max-conversation`, is read a message at a time as it is parsed:
/// what is held is its bytes and one role per message, never the parsed
/// document (before: 10^6 messages, 30 MB, peaked at 669 MB in `validate`
/// with the document parsed once, 1.24 GB in `parse`; now near 75 MB and
/// 63 MB).
#[cfg(target_os = "linux")]
#[test]
fn validate_reads_a_one_document_conversation_a_message_at_a_time() {
    use std::io::Write;
    let n = 1_000_000u64;
    for (args, want) in [
        (&["validate", "--no-config", "--input", "messages"][..], 0),
        (&["parse", "--no-config", "--input", "messages"][..], 1),
    ] {
        let (code, _, peak) = peak_fed(args, move |stdin| {
            let _ = stdin.write_all(
                b"{\"model\": \"m\", \"messages\": [{\"role\":\"user\",\"content\":\"x\"}",
            );
            let mut buf = Vec::new();
            for k in 1..n {
                buf.extend_from_slice(b",{\"role\":\"user\",\"content\":\"x\"}");
                if k % 4096 == 0 {
                    if stdin.write_all(&buf).is_err() {
                        return k;
                    }
                    buf.clear();
                }
            }
            let _ = stdin.write_all(&buf);
            let _ = stdin.write_all(b"], \"tools\": []}\n");
            n
        });
        assert_eq!(code, Some(want), "{args:?}");
        let peak_mb = peak / 1024;
        eprintln!("{}: peak {peak_mb} MB for 10^6 messages (30 MB)", args[0]);
        assert!(
            peak > 0 && peak_mb < 110,
            "{}: peak RSS {peak_mb} MB for 10^6 messages (30 MB)",
            args[0]
        );
    }
}

/// One conversation of 200,000 calls (one assistant message, 8.6 MB, the
/// prober's `conv-million-calls` at half its size): each call held costs
/// its entry only, not its JSON, its entry and a copy in a list of items
/// as well, and the message's list of calls is read a call at a time
/// (before: some 2.5 KB a call, 500 MB here; then 306 MB; now 210 MB).
#[cfg(target_os = "linux")]
#[test]
fn validate_holds_a_conversation_of_many_calls_once() {
    let n = 200_000;
    let dir = crate::common::scratch("memory-many-calls");
    let path = dir.join("calls.json");
    let mut doc = b"{\"messages\":[{\"role\":\"assistant\",\"tool_calls\":[".to_vec();
    for k in 0..n {
        if k > 0 {
            doc.push(b',');
        }
        doc.extend_from_slice(b"{\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}");
    }
    doc.extend_from_slice(b"]}]}");
    std::fs::write(&path, &doc).expect("write");
    let file = path.to_str().expect("utf-8").to_string();
    let (code, _, peak) = peak_fed(&["validate", "--no-config", &file], |_| 0);
    assert_eq!(code, Some(0), "the calls are valid (no tools: a warning)");
    let peak_mb = peak / 1024;
    assert!(
        peak > 0 && peak_mb < 260,
        "peak RSS {peak_mb} MB for one conversation of {n} calls ({} MB)",
        doc.len() >> 20
    );
}

/// The calls and results of `--max-conversation`'s tests: `n` pairs of an
/// assistant call and its result, a `messages` document of `bytes` bytes
/// or more.
fn message_list(bytes: u64) -> Vec<u8> {
    let mut doc =
        b"{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}".to_vec();
    let mut k = 0u64;
    while (doc.len() as u64) < bytes {
        doc.extend_from_slice(
            format!(
                r#", {{"role": "assistant", "content": null, "tool_calls": [{{"id": "c{k}", "type": "function", "function": {{"name": "get_weather", "arguments": "{{\"city\": \"Paris\"}}"}}}}]}}, {{"role": "tool", "tool_call_id": "c{k}", "content": "sunny"}}"#
            )
            .as_bytes(),
        );
        k += 1;
    }
    doc.extend_from_slice(b"]}");
    doc
}

/// A 40 MB document that is one `messages` list, past the default
/// `--max-conversation` (32 MiB), is read a message at a time (its first
/// bytes say it is such a list), not refused: held are its bytes and what
/// its checks need (360 MB for 179,427 calls and their results), below the
/// 20 to 30 times its size it would cost parsed whole. The records are
/// those of the document read under a raised bound; a message larger than
/// `--max-conversation` is a TLP-007 error.
#[cfg(target_os = "linux")]
#[test]
fn validate_reads_a_large_message_list_past_max_conversation() {
    let dir = crate::common::scratch("memory-large-list");
    let path = dir.join("conversation.json");
    let doc = message_list(40 << 20);
    std::fs::write(&path, &doc).expect("write");
    let file = path.to_str().expect("utf-8").to_string();
    let (code, _, peak) = peak_fed(&["validate", "--no-config", &file], |_| 0);
    assert_eq!(code, Some(0), "every call is answered: read, not refused");
    let peak_mb = peak / 1024;
    eprintln!(
        "peak {peak_mb} MB for a {} MB message list",
        doc.len() >> 20
    );
    assert!(
        peak > 0 && peak_mb < 480,
        "peak RSS {peak_mb} MB for a {} MB message list",
        doc.len() >> 20
    );
    // the records are the ones of the same document read under the bound
    let small = toolcall_cmd()
        .args([
            "validate",
            "--no-config",
            "--max-conversation",
            "1073741824",
            &file,
        ])
        .output()
        .expect("run");
    let large = toolcall_cmd()
        .args(["validate", "--no-config", &file])
        .output()
        .expect("run");
    assert_eq!(small.status.code(), Some(0));
    assert!(small.stdout == large.stdout, "the records differ");
    // a message past the bound is refused, with its size
    let out = toolcall_cmd()
        .args([
            "validate",
            "--no-config",
            "--max-conversation",
            "100000",
            &file,
        ])
        .output()
        .expect("run");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut one = message_list(200_000);
    one.truncate(one.len() - 2);
    let long = format!(
        r#"{{"role": "user", "content": "{}"}}"#,
        "x".repeat(150_000)
    );
    one.extend_from_slice(b", ");
    one.extend_from_slice(long.as_bytes());
    one.extend_from_slice(b"]}");
    // on a pipe (a small file is read whole, a first line within
    // --max-buffer too, whatever its size)
    let mut child = toolcall_cmd()
        .args([
            "validate",
            "--no-config",
            "--input",
            "messages",
            "--max-buffer",
            "65536",
            "--max-conversation",
            "100000",
            "-",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(&one);
    });
    let out = child.wait_with_output().expect("run");
    writer.join().expect("writer");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("TLP-007") && err.contains(&format!("a message of {} bytes", long.len())),
        "{err}"
    );
}

/// The binary under test.
fn toolcall_cmd() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_toolcall"))
}
