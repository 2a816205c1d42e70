//! Validation of one call against a typical tool schema (target: < 5 µs).
//!
//! `cargo bench --bench validate`

use criterion::{black_box, Criterion};
use serde_json::json;
use toolcall::validate::registry::Registry;
use toolcall::validate::{typing, Policy};

fn tools() -> Registry {
    Registry::from_value(
        &json!([{"type": "function", "function": {
            "name": "create_event",
            "description": "Create a calendar event",
            "parameters": {
                "type": "object",
                "properties": {
                    "title": {"type": "string", "minLength": 1, "maxLength": 200},
                    "start": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}T"},
                    "duration_minutes": {"type": "integer", "minimum": 5, "maximum": 1440},
                    "attendees": {"type": "array", "items": {"type": "string"}, "maxItems": 50},
                    "location": {"type": ["string", "null"]},
                    "reminder": {"enum": ["none", "5m", "15m", "1h"]},
                    "private": {"type": "boolean"}
                },
                "required": ["title", "start", "duration_minutes"]
            }},
            "x-toolcall": {"risk": "medium", "summary": "Create {title} at {start}"}
        }]),
        true,
    )
    .expect("registry")
}

fn bench(c: &mut Criterion) {
    let reg = tools();
    let policy = Policy::default();
    let valid = json!({"title": "Standup", "start": "2025-03-01T09:00:00Z",
        "duration_minutes": 15, "attendees": ["ana@example.com", "bo@example.com"],
        "location": null, "reminder": "5m", "private": false});
    let invalid = json!({"title": "Standup", "start": "tomorrow",
        "duration_minutes": "fifteen", "attendees": ["ana@example.com"], "colour": "red"});
    assert!(reg.check("create_event", &valid, &policy).valid);
    assert_eq!(reg.check("create_event", &invalid, &policy).errors.len(), 3);
    c.bench_function("check valid call", |b| {
        b.iter(|| reg.check(black_box("create_event"), black_box(&valid), &policy))
    });
    c.bench_function("check invalid call (3 errors)", |b| {
        b.iter(|| reg.check(black_box("create_event"), black_box(&invalid), &policy))
    });
    let schema = reg.get("create_event").expect("tool").parameters.clone();
    let text = json!({"title": "Standup", "start": "2025-03-01T09:00:00Z",
        "duration_minutes": "15", "private": "false"});
    c.bench_function("type text values by schema", |b| {
        b.iter(|| {
            let mut args = text.as_object().cloned().expect("object");
            typing::type_arguments(
                black_box(toolcall::formats::ids::QWEN3_CODER_XML),
                &mut args,
                &schema,
            )
        })
    });
}

// Written out instead of `criterion_main!`, whose generated function has no
// documentation.
fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
