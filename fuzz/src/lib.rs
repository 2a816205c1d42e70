//! Shared decoding of fuzz inputs and the invariant checks the targets run.
//!
//! Every target reads a few header bytes that choose the configuration and
//! the chunking, then treats the rest as the document. The layouts are in
//! `fuzz/README.md`; `fuzz/seed.py` writes seeds in them.

use toolcall::formats::FORMATS;
use toolcall::{Collector, Config, FormatChoice, SegmentKind};

/// Engine settings from a flags byte and a format byte.
///
/// flags: bit 0 `--no-json-blocks`, bit 1 `--inline-json`, bit 2
/// `--reasoning-calls`, bit 3 `--think-open`, bit 4 `--no-repair`, bit 5 a
/// small `max_block` (64 bytes), bit 6 force the format `FORMATS[fmt % n]`.
pub fn config(flags: u8, fmt: u8) -> Config {
    let mut cfg = Config {
        json_blocks: flags & 1 == 0,
        inline_json: flags & 2 != 0,
        reasoning_calls: flags & 4 != 0,
        think_open: flags & 8 != 0,
        repair: flags & 16 == 0,
        ..Config::default()
    };
    if flags & 32 != 0 {
        cfg.max_block = 64;
    }
    if flags & 64 != 0 {
        cfg.format = FormatChoice::Only(FORMATS[fmt as usize % FORMATS.len()].id);
    }
    cfg
}

/// Splits a chunking header off `data`: one byte `n` (taken mod 16), then `n`
/// chunk sizes (each byte + 1), used in turn and cycled over the document.
/// `n == 0` means one byte per chunk. Returns the sizes and the rest.
pub fn chunking(data: &[u8]) -> Option<(Vec<usize>, &[u8])> {
    let (&n, rest) = data.split_first()?;
    let n = (n % 16) as usize;
    if rest.len() < n {
        return None;
    }
    let sizes = if n == 0 {
        vec![1]
    } else {
        rest[..n].iter().map(|&b| b as usize + 1).collect()
    };
    Some((sizes, &rest[n..]))
}

/// Cuts `doc` into chunks of the given sizes (cycled). With `snap`, a cut
/// inside a UTF-8 character moves forward to the character's end (the
/// contract's "never splitting a UTF-8 character").
pub fn chunks<'a>(doc: &'a [u8], sizes: &[usize], snap: bool) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut k = 0;
    while at < doc.len() {
        let mut end = (at + sizes[k % sizes.len()]).min(doc.len());
        k += 1;
        if snap {
            while end < doc.len() && (doc[end] & 0xC0) == 0x80 {
                end += 1;
            }
        }
        out.push(&doc[at..end]);
        at = end;
    }
    out
}

/// Invariant 2 over a collected document: the segments tile `input` in
/// order, the text segments' bytes are exactly `Collector.text`, and every
/// call's `raw` is its span's bytes (lossy UTF-8), with object arguments.
pub fn assert_lossless(input: &[u8], got: &Collector) {
    let mut at = 0u64;
    let mut text = Vec::new();
    for seg in &got.segments {
        assert_eq!(
            seg.span[0], at,
            "gap or overlap at {at}: {:?}",
            got.segments
        );
        assert!(seg.span[1] >= seg.span[0], "reversed span {:?}", seg.span);
        assert!(
            seg.span[1] as usize <= input.len(),
            "span past the end {:?}",
            seg.span
        );
        if seg.kind == SegmentKind::Text {
            text.extend_from_slice(&input[seg.span[0] as usize..seg.span[1] as usize]);
        }
        at = seg.span[1];
    }
    assert_eq!(
        at,
        input.len() as u64,
        "segments end at {at}, input is {}",
        input.len()
    );
    assert_eq!(text, got.text, "text is not the bytes of the text segments");
    for call in &got.calls {
        assert!(call.span[0] <= call.span[1] && call.span[1] as usize <= input.len());
        let bytes = &input[call.span[0] as usize..call.span[1] as usize];
        assert_eq!(
            call.raw,
            String::from_utf8_lossy(bytes),
            "raw differs from span"
        );
        assert!(call.arguments.is_object(), "arguments not an object");
    }
}

/// Serialises everything the CLI would print, so records that cannot be
/// written (non-object arguments, bad floats) show up here.
pub fn assert_serialisable(got: &Collector) {
    for c in &got.calls {
        serde_json::to_string(c).expect("tool_call serialises");
    }
    for e in &got.errors {
        serde_json::to_string(e).expect("error serialises");
    }
    let split = got.clone().into_split("-");
    serde_json::to_string(&split).expect("split serialises");
}
