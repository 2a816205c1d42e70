//! `parse`: one document, batch. Header: flags byte, format byte (see
//! `toolcall_fuzz::config`; bit 6 of flags forces `FORMATS[fmt % n]`,
//! otherwise auto). Checks: no panic, lossless segments, calls' raw bytes
//! are their spans, records serialise, errors lie inside the input, and a
//! second run is identical (deterministic).
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolcall_fuzz::{assert_lossless, assert_serialisable, config};

fuzz_target!(|data: &[u8]| {
    let [flags, fmt, doc @ ..] = data else {
        return;
    };
    let cfg = config(*flags, *fmt);
    let got = toolcall::parse(doc, &cfg);
    assert_lossless(doc, &got);
    for e in &got.errors {
        assert!(
            e.span[0] <= e.span[1] && e.span[1] as usize <= doc.len(),
            "error span {:?}",
            e.span
        );
    }
    assert_serialisable(&got);
    let again = toolcall::parse(doc, &cfg);
    assert_eq!(got, again, "two runs differ");
});
