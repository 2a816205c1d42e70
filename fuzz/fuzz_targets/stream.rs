//! `stream`: the same document fed in fuzzer-chosen chunks. Header: flags
//! byte, format byte (as `parse`), then a chunking (`toolcall_fuzz::chunking`).
//! Bit 7 of flags lets cuts fall inside UTF-8 characters; without it they
//! move to character boundaries (the contract's chunking).
//! Checks: the chunked Collector equals the batch Collector (stream ==
//! batch), and both are lossless.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolcall_fuzz::{assert_lossless, chunking, chunks, config};

fuzz_target!(|data: &[u8]| {
    let [flags, fmt, rest @ ..] = data else {
        return;
    };
    let Some((sizes, doc)) = chunking(rest) else {
        return;
    };
    let cfg = config(*flags, *fmt);
    let batch = toolcall::parse(doc, &cfg);
    assert_lossless(doc, &batch);
    let parts = chunks(doc, &sizes, flags & 128 == 0);
    let streamed = toolcall::parse_chunked(parts.iter().copied(), &cfg);
    assert_lossless(doc, &streamed);
    assert_eq!(
        streamed, batch,
        "stream differs from batch for chunk sizes {sizes:?}"
    );
});
