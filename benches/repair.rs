//! Throughput of the repair engine: MB/s on a ~1 MB valid document and on
//! the same document with a few errors, objects/s on 10,000 small broken
//! argument objects, and a bare `memchr` pass over the same megabyte as a
//! baseline that makes the ratios meaningful.
//!
//! The `small` group times one call on each kind of small broken object
//! through the whole-document entry the bindings' `repairJson` and
//! `repair_json` run (`repair_document_str`, no limits, prose refused):
//! criterion's time per iteration is the time per object, the figure the
//! Node table's 10,000-object row divides into binding and core.

use criterion::{black_box, Criterion, Throughput};
use toolcall::{
    parse_value, repair, repair_document_str, repair_document_text, Prose, RepairOptions,
};

/// A realistic ~1 MB document: an array of tool-call-like objects with
/// strings, numbers, nested objects and escapes.
fn valid_doc() -> String {
    let mut s = String::from("[\n");
    let mut i = 0u64;
    while s.len() < 1_000_000 {
        if i > 0 {
            s.push_str(",\n");
        }
        s.push_str(&format!(
            r#"  {{"id": "call_{i:08x}", "name": "get_weather", "arguments": {{"city": "Paris \"{i}\"", "unit": "celsius", "days": {d}, "lat": 48.8566, "lon": 2.3522, "tags": ["a", "b\n", "caf\u00e9"], "note": "lorem ipsum dolor sit amet, consectetur adipiscing elit"}}, "ok": true, "extra": null}}"#,
            d = i % 14
        ));
        i += 1;
    }
    s.push_str("\n]\n");
    s
}

/// The same document with a few errors: trailing commas near the start, the
/// middle and the end, and a truncated tail.
fn broken_doc(valid: &str) -> String {
    let mut s = valid.to_owned();
    for frac in [10usize, 2] {
        let at = s.len() / frac;
        if let Some(p) = s[at..].find("\"ok\": true") {
            s.insert(at + p + "\"ok\": true".len(), ',');
        }
    }
    let cut = s.len() - 200;
    let cut = (cut..s.len())
        .find(|&i| s.is_char_boundary(i))
        .unwrap_or(s.len());
    s.truncate(cut);
    s
}

/// Small broken argument objects of the kinds models write.
fn small_objects() -> Vec<String> {
    let shapes = [
        r#"{"city": "Paris", "unit": "celsius",}"#,
        r#"{"query": "hotels in Rome", "max": 5"#,
        r#"{city: 'Paris', days: 3}"#,
        r#"{"a": True, "b": None}"#,
        r#"{"text": "He said "hi" to me"}"#,
        r#"{"path": "/tmp/x", "lines": [1, 2, 3"#,
        r#"{"name": "search" "q": "rust"}"#,
        "```json\n{\"x\": 1}\n```",
    ];
    (0..10_000)
        .map(|i| shapes[i % shapes.len()].to_owned())
        .collect()
}

fn bench(c: &mut Criterion) {
    let opts = RepairOptions {
        max_input_bytes: 4 << 20,
        timeout_ms: 0,
        ..RepairOptions::default()
    };
    let valid = valid_doc();
    let broken = broken_doc(&valid);
    assert!(repair(&broken, &opts).map(|r| r.changed).unwrap_or(false));

    let mut g = c.benchmark_group("baseline");
    g.throughput(Throughput::Bytes(valid.len() as u64));
    g.bench_function("memchr_quote_count_1mb", |b| {
        b.iter(|| memchr::memchr_iter(b'"', black_box(valid.as_bytes())).count())
    });
    g.finish();

    let mut g = c.benchmark_group("repair");
    g.throughput(Throughput::Bytes(valid.len() as u64));
    g.bench_function("valid_1mb", |b| b.iter(|| repair(black_box(&valid), &opts)));
    g.throughput(Throughput::Bytes(broken.len() as u64));
    g.bench_function("broken_1mb", |b| {
        b.iter(|| repair(black_box(&broken), &opts))
    });
    g.finish();

    let objects = small_objects();
    let mut g = c.benchmark_group("objects");
    g.throughput(Throughput::Elements(objects.len() as u64));
    g.bench_function("repair_10k_broken", |b| {
        b.iter(|| {
            for o in &objects {
                let _ = black_box(repair(black_box(o), &opts));
            }
        })
    });
    g.bench_function("parse_value_10k_broken", |b| {
        b.iter(|| {
            for o in &objects {
                let _ = black_box(parse_value(black_box(o), &opts));
            }
        })
    });
    g.finish();

    // per object: one call per iteration, each shape on its own and then
    // the eight in turn (their mean)
    let unbounded = RepairOptions::unbounded();
    let shapes = small_objects();
    let shapes = &shapes[..8];
    let mut g = c.benchmark_group("small");
    g.throughput(Throughput::Elements(1));
    for (i, s) in shapes.iter().enumerate() {
        g.bench_function(format!("repair_document_str/{i}_{}b", s.len()), |b| {
            b.iter(|| repair_document_str(black_box(s), &unbounded, Prose::Refuse))
        });
    }
    g.throughput(Throughput::Elements(shapes.len() as u64));
    g.bench_function("repair_document_str/all_8", |b| {
        b.iter(|| {
            for s in shapes {
                let _ = black_box(repair_document_str(black_box(s), &unbounded, Prose::Refuse));
            }
        })
    });
    // the text entry the bindings' repairJson runs: the fast path first
    g.throughput(Throughput::Elements(1));
    for (i, s) in shapes.iter().enumerate() {
        g.bench_function(format!("repair_document_text/{i}_{}b", s.len()), |b| {
            b.iter(|| repair_document_text(black_box(s), &unbounded, Prose::Refuse))
        });
    }
    g.throughput(Throughput::Elements(shapes.len() as u64));
    g.bench_function("repair_document_text/all_8", |b| {
        b.iter(|| {
            for s in shapes {
                let _ = black_box(repair_document_text(
                    black_box(s),
                    &unbounded,
                    Prose::Refuse,
                ));
            }
        })
    });
    g.finish();
}

// Written out instead of `criterion_main!`, whose generated function has no
// documentation.
fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
