//! Linear time, by counting work rather than timing: for pathological
//! inputs, ten times the input must cost at most eleven times the text
//! scanner's work (bytes searched plus probes), in one feed and in 7-byte
//! chunks. These shapes once made the batch path quadratic (a newline
//! search restarted from every call in a document without newlines).

use toolcall::engine::{Config, Engine, Event};

fn work(doc: &[u8], chunk: usize) -> (u64, usize) {
    let mut calls = 0usize;
    let mut sink = |ev: Event<'_>| {
        if let Event::ToolCall(_) = ev {
            calls += 1;
        }
    };
    let mut e = Engine::new(Config::default());
    for c in doc.chunks(chunk) {
        e.feed(c, &mut sink);
    }
    e.finish(&mut sink);
    (e.work(), calls)
}

const SHAPES: &[(&str, &str)] = &[
    ("marker prefixes", "<tool_cal"),
    (
        "unclosed calls",
        "<tool_call>{\"name\": \"a\", \"arguments\": {\"x\": \"",
    ),
    ("brackets", "["),
    ("brace lines", "{\n"),
    ("think openers", "<think>"),
    ("fence openers", "```json\n"),
    ("function tags", "<function=f>"),
    ("deepseek sections", "<｜tool▁calls▁begin｜>"),
    ("harmony headers", "<|channel|>commentary to=functions.f "),
    ("mistral tokens", "[TOOL_CALLS]"),
    ("pythonic openers", "[f(a=\"x\", "),
    ("pythonic lines", "[f(a=\"x\")\n"),
    ("functionary-v3.2 headers", ">>>all\n"),
    (
        "tiny calls, no newlines",
        "<tool_call>{\"name\":\"f\"}</tool_call>",
    ),
    (
        "bare json calls per line",
        "{\"name\": \"f\", \"arguments\": {}}\n",
    ),
    ("inline llama heads", "{\"name\": "),
    (
        "inline llama calls",
        "x {\"name\": \"f\", \"parameters\": {}} ",
    ),
    ("double braces", "{\"name\": \"f\", \"parameters\": {{"),
];

#[test]
fn ten_times_the_input_costs_at_most_eleven_times_the_work() {
    for (name, unit) in SHAPES {
        let small = unit.repeat(2_000).into_bytes();
        let large = unit.repeat(20_000).into_bytes();
        for chunk in [usize::MAX, 7] {
            let (w1, c1) = work(&small, chunk.min(small.len()));
            let (w10, c10) = work(&large, chunk.min(large.len()));
            assert!(
                w10 <= 11 * w1.max(1),
                "{name} (chunk {chunk}): work {w1} -> {w10} for 10x input"
            );
            // where each unit is a call, every repeated call is found
            if c1 >= 2_000 {
                assert_eq!(c10, 10 * c1, "{name}: {c1} calls -> {c10}");
            }
        }
    }
}
