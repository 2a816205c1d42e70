//! Wire decoders fed garbage lines between valid ones (issue 17: "a line is
//! a line"). The input is split at `\n` into garbage lines (CR removed, so
//! each stays one line); between them come valid Ollama lines that each
//! carry one call. Header: flags byte (bit 0: SSE framing, every line a
//! `data:` line followed by a blank line; bit 1: `max_buffer` 64), then a
//! chunking as in `wire`. Checks: no panic; chunked == batch; every valid
//! call line gives its call, whatever garbage came before it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolcall::wire::{self, InputKind, WireConfig};
use toolcall::Config;
use toolcall_fuzz::{chunking, chunks};

fuzz_target!(|data: &[u8]| {
    let [flags, rest @ ..] = data else {
        return;
    };
    let Some((sizes, garbage)) = chunking(rest) else {
        return;
    };
    let sse = flags & 1 != 0;
    let mut doc = Vec::new();
    let mut valid = 0usize;
    for (i, g) in garbage.split(|&b| b == b'\n').enumerate() {
        let line: Vec<u8> = g.iter().copied().filter(|&b| b != b'\r').collect();
        let call = format!(
            r#"{{"model":"m","message":{{"role":"assistant","content":"","tool_calls":[{{"function":{{"name":"valid_{i}","arguments":{{"i":{i}}}}}}}]}},"done":false}}"#
        );
        for l in [&line[..], call.as_bytes()] {
            if sse {
                doc.extend_from_slice(b"data: ");
            }
            doc.extend_from_slice(l);
            doc.extend_from_slice(if sse { b"\n\n" } else { b"\n" });
        }
        valid += 1;
    }
    let w = WireConfig {
        input: InputKind::Ollama,
        max_buffer: if flags & 2 != 0 { 64 } else { 1 << 20 },
    };
    let cfg = Config::default();
    let batch = wire::parse(&doc, &cfg, &w);
    let parts = chunks(&doc, &sizes, true);
    let streamed = wire::parse_chunked(parts.iter().copied(), &cfg, &w);
    assert_eq!(
        streamed, batch,
        "stream differs from batch for chunk sizes {sizes:?}"
    );
    if w.max_buffer >= 1 << 20 {
        for i in 0..valid {
            let name = format!("valid_{i}");
            assert!(
                batch
                    .0
                    .calls
                    .iter()
                    .any(|c| c.name == name && c.format == "ollama"),
                "valid line {i} lost after garbage"
            );
        }
    }
});
