//! `validate`: `toolcall::validate` end to end, as `toolcall validate` and
//! `--tools` use it: a tools registry (one of six fixture shapes, a built-in
//! registry with the keywords typing follows, or fuzzer-supplied tools
//! text), a document parsed with `toolcall::parse`, every call typed by its
//! tool's schema (`typing::type_arguments`), judged (`Registry::check`) and
//! located (`diag::locate`, `diag::position`, `diag::render`).
//!
//! Header (see `fuzz/README.md`): `[sel, vflags, eflags, fmt, rest…]`.
//! `sel % 8`: 0–5 the fixture tools files of `fixtures/validate/tools`
//! (anthropic.json5, map.json5, mcp.json, ollama.json, openai-chat.json,
//! responses.json), 6 the built-in registry below, 7 fuzzer-supplied tools:
//! `rest` is `tools-text \0 document` (no NUL: all of it is the tools text,
//! the document is empty). vflags: bit 0 lenient (`--no-strict`; the
//! registry is then compiled lenient too), bits 1–3 `--unknown-risk`
//! (`Risk::ALL[b % 5]`), bits 4–6 `--auto-approve`. eflags/fmt are the
//! engine flags and format byte of `toolcall_fuzz::config`.
//!
//! Checks, beyond no panic:
//! * registry loading of arbitrary bytes never panics; strict and lenient
//!   loading agree on success, tools and warnings; loading twice gives the
//!   same tools, schemas, metadata and warnings; `get` finds every tool;
//! * typing changes only declared top-level values, reports exactly whether
//!   it changed something, and is idempotent;
//! * `check` is deterministic and equals the CLI's `Tools::judge`;
//!   `valid == errors.is_empty()`; a blank name gives TLP-001; a non-blank
//!   name the registry does not know gives TLP-005 (an error when strict, a
//!   warning when lenient) and `known == false`; a known tool never does;
//!   non-object arguments give TLP-002;
//! * a call is valid exactly when its name is usable, its arguments are an
//!   object and a validator compiled directly with `jsonschema` from the
//!   tool's parameters (closed the same way in strict mode) accepts them;
//!   a schema rejection always yields at least one TLP-004 issue; every
//!   issue path is a JSON Pointer;
//! * every diagnostic offset (`span[0] + locate(raw, path, name)`) lies
//!   inside the call's span, so its line:column lies inside the input (the
//!   line exists, the column is at most its length + 1), and `render`'s
//!   header carries that line:column.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Value};
use std::sync::Mutex;
use toolcall::cli::tools::Tools;
use toolcall::validate::diag::{self, Severity};
use toolcall::validate::registry::{close_objects, Registry};
use toolcall::validate::retry::{self, Failure, FailureKind};
use toolcall::validate::{typing, Issue, Policy, Risk, Verdict};
use toolcall::ToolCall;
use toolcall_fuzz::config;

const FIXTURES: [&str; 6] = [
    include_str!("../../fixtures/validate/tools/anthropic.json5"),
    include_str!("../../fixtures/validate/tools/map.json5"),
    include_str!("../../fixtures/validate/tools/mcp.json"),
    include_str!("../../fixtures/validate/tools/ollama.json"),
    include_str!("../../fixtures/validate/tools/openai-chat.json"),
    include_str!("../../fixtures/validate/tools/responses.json"),
];

/// Tools whose schemas use what typing and `check` handle specially:
/// `$ref`, `anyOf`, `oneOf`, enums, consts, nested objects, patterns,
/// `allOf` (left open in strict mode), array items, a false schema.
const BUILTIN: &str = r##"{
  "search": {"type": "object", "properties": {
      "q": {"type": "string", "minLength": 1, "maxLength": 40, "pattern": "^[a-z ]+$"},
      "n": {"type": "integer", "minimum": 1, "exclusiveMaximum": 100},
      "lang": {"enum": ["en", "fr", null]},
      "safe": {"type": "boolean"},
      "ratio": {"type": "number", "multipleOf": 0.5},
      "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3, "uniqueItems": true},
      "opts": {"$ref": "#/$defs/opts"},
      "when": {"anyOf": [{"type": "null"}, {"type": "integer"}, {"type": "string", "format": "date"}]},
      "mode": {"oneOf": [{"const": "fast"}, {"const": 1}]}
    }, "required": ["q"],
    "$defs": {"opts": {"type": "object", "properties": {"deep": {"type": "boolean"}}, "minProperties": 1}},
    "x-toolcall": {"risk": "low", "summary": "Search {q} ({opts.deep}) {n}"}},
  "write_file": {"type": "object", "properties": {
      "path": {"type": "string"}, "content": {"type": "string"}, "mode": {"type": ["integer", "string"]}
    }, "required": ["path", "content"],
    "x-toolcall": {"risk": "high", "display_name": "Write", "requires_approval": true}},
  "merge": {"allOf": [{"properties": {"a": {"type": "integer"}}}, {"required": ["a"]}],
            "properties": {"b": {"type": "object", "properties": {"c": {"not": {"type": "null"}}}}}},
  "noop": {"type": "object", "properties": {}, "additionalProperties": false},
  "never": {"properties": {"x": false}}
}"##;

/// The fixed registries, compiled once per process (strict and lenient)
/// and lent to one run at a time: `Tools` owns its registry, and a global
/// (unlike a leaked box) keeps LeakSanitizer quiet.
static FIXED: Mutex<Vec<Option<Registry>>> = Mutex::new(Vec::new());

fn with_fixed(sel: usize, policy: Policy, run: impl FnOnce(&Tools)) {
    let k = sel * 2 + usize::from(!policy.strict);
    let reg = {
        let mut cache = FIXED.lock().unwrap_or_else(|e| e.into_inner());
        if cache.is_empty() {
            cache.resize_with(14, || None);
        }
        cache[k].take()
    };
    let reg = reg.unwrap_or_else(|| {
        let text = if sel < 6 { FIXTURES[sel] } else { BUILTIN };
        Registry::from_text(text, policy.strict).expect("fixture registry")
    });
    let mut tools = Tools {
        registry: Some(reg),
        policy,
        ..Tools::default()
    };
    run(&tools);
    let mut cache = FIXED.lock().unwrap_or_else(|e| e.into_inner());
    cache[k] = tools.registry.take();
}

/// Everything a loaded registry exposes, for comparing two loads.
fn shape(r: &Registry) -> Vec<(String, Option<String>, Value, bool, String)> {
    r.tools()
        .iter()
        .map(|t| {
            (
                t.name.clone(),
                t.description.clone(),
                t.parameters.clone(),
                t.openai_strict,
                format!("{:?}", t.meta),
            )
        })
        .collect()
}

/// Loads fuzzer-supplied tools text both ways and checks the loaders agree.
fn load(text: &str, strict: bool) -> Option<Registry> {
    let a = Registry::from_text(text, strict);
    let b = Registry::from_text(text, strict);
    let other = Registry::from_text(text, !strict);
    match (&a, &b) {
        (Ok(a), Ok(b)) => {
            assert_eq!(shape(a), shape(b), "two loads differ");
            assert_eq!(a.warnings, b.warnings, "two loads warn differently");
        }
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "two loads fail differently"),
        _ => panic!("one load failed, the other did not"),
    }
    match (&a, &other) {
        (Ok(a), Ok(o)) => {
            assert_eq!(shape(a), shape(o), "strict and lenient tools differ");
            assert_eq!(a.warnings, o.warnings, "strict and lenient warnings differ");
        }
        (Err(_), Err(_)) => {}
        (Ok(_), Err(e)) | (Err(e), Ok(_)) => {
            panic!("strict={strict} and strict={} disagree: {e}", !strict)
        }
    }
    // the parsed value takes the same path (JSON only; JSON5 goes through text)
    if let (Ok(reg), Ok(v)) = (&a, serde_json::from_str::<Value>(text)) {
        let again = Registry::from_value(&v, strict).expect("from_value of what from_text took");
        assert_eq!(
            shape(reg),
            shape(&again),
            "from_value differs from from_text"
        );
    }
    let reg = a.ok()?;
    let mut names = std::collections::HashSet::new();
    for t in reg.tools() {
        assert!(!t.name.is_empty(), "a tool with an empty name");
        assert!(
            names.insert(t.name.clone()),
            "tool {:?} listed twice",
            t.name
        );
        let got = reg.get(&t.name).expect("get finds every tool");
        assert!(std::ptr::eq(got, t), "get({:?}) is another tool", t.name);
    }
    assert_eq!(reg.len(), names.len());
    Some(reg)
}

fn policy(vflags: u8) -> Policy {
    Policy {
        strict: vflags & 1 == 0,
        unknown_risk: Risk::ALL[((vflags >> 1) & 7) as usize % 5],
        auto_approve: Risk::ALL[((vflags >> 4) & 7) as usize % 5],
    }
}

/// The schema the registry compiles for `params` (strict: objects closed).
fn direct_ok(params: &Value, strict: bool, args: &Value) -> bool {
    let mut s = params.clone();
    if strict {
        close_objects(&mut s);
    }
    let v = jsonschema::options()
        .should_validate_formats(false)
        .build(&s)
        .expect("a schema the registry compiled compiles directly");
    v.is_valid(args)
}

fn assert_pointer(p: &str) {
    assert!(
        p.is_empty() || p.starts_with('/'),
        "issue path {p:?} is not a JSON Pointer"
    );
}

/// The verdict's invariants for `name` / `args` under `policy`.
fn assert_verdict(reg: &Registry, policy: &Policy, name: &str, args: &Value, v: &Verdict) {
    assert_eq!(v.valid, v.errors.is_empty(), "valid disagrees with errors");
    let codes: Vec<&str> = v.errors.iter().map(|i| i.code).collect();
    let warns: Vec<&str> = v.warnings.iter().map(|i| i.code).collect();
    let tool = reg.get(name);
    assert_eq!(v.known, tool.is_some(), "known is wrong");
    let blank = name.trim().is_empty();
    assert_eq!(
        blank,
        codes.contains(&"TLP-001"),
        "TLP-001 iff blank name: {codes:?}"
    );
    let unknown = !blank && tool.is_none();
    let has005 = codes.contains(&"TLP-005") || warns.contains(&"TLP-005");
    assert_eq!(
        unknown, has005,
        "TLP-005 iff unknown tool {name:?}: {codes:?} {warns:?}"
    );
    if unknown {
        if policy.strict {
            assert!(
                codes.contains(&"TLP-005"),
                "strict: unknown tool is not an error"
            );
        } else {
            assert!(warns.contains(&"TLP-005") && !codes.contains(&"TLP-005"));
        }
    }
    assert_eq!(
        !args.is_object(),
        codes.contains(&"TLP-002"),
        "TLP-002 iff not an object"
    );
    for i in v.errors.iter().chain(&v.warnings) {
        assert_pointer(&i.path);
        assert!(i.code.starts_with("TLP-00"), "odd code {}", i.code);
    }
    if let (Some(t), true) = (tool, args.is_object()) {
        let ok = direct_ok(&t.parameters, policy.strict, args);
        let has004 = codes.contains(&"TLP-004");
        assert_eq!(
            !ok, has004,
            "jsonschema says valid={ok} but errors {:?} for {name:?} {args}",
            v.errors
        );
        if !blank {
            assert_eq!(
                v.valid, ok,
                "valid={} but jsonschema says {ok}: {:?}",
                v.valid, v.errors
            );
        }
    } else {
        assert!(
            !codes.contains(&"TLP-004"),
            "schema errors without a schema"
        );
    }
    if v.valid {
        assert!(args.is_object());
        if let Some(t) = tool {
            assert!(
                direct_ok(&t.parameters, policy.strict, args),
                "reported valid, rejected by jsonschema: {name:?} {args}"
            );
        }
    }
}

/// Types `args` by `schema` as `format`; checks typing's invariants.
fn typed(format: &str, args: &Value, schema: &Value) -> Value {
    let Value::Object(m) = args else {
        return args.clone();
    };
    let Some(format) = toolcall::formats::FormatId::from_id(format) else {
        return args.clone();
    };
    let mut once = m.clone();
    let changed = typing::type_arguments(format, &mut once, schema);
    assert_eq!(changed, once != *m, "typing's changed flag is wrong");
    assert!(once.keys().eq(m.keys()), "typing changed the keys");
    let declared = schema.get("properties").and_then(Value::as_object);
    for (k, v) in &once {
        if m[k] != *v {
            assert!(
                declared.is_some_and(|p| p.contains_key(k)),
                "typing changed undeclared {k:?}"
            );
        }
    }
    let mut twice = once.clone();
    assert!(
        !typing::type_arguments(format, &mut twice, schema),
        "typing is not idempotent: {once:?} -> {twice:?}"
    );
    assert_eq!(once, twice);
    Value::Object(once)
}

/// Lines of `doc` and their lengths, for checking a line:column.
fn assert_inside(doc: &[u8], pos: diag::Pos) {
    let lines: Vec<&[u8]> = doc.split(|&b| b == b'\n').collect();
    assert!(
        pos.line >= 1 && pos.line as usize <= lines.len(),
        "line {} outside a {}-line input",
        pos.line,
        lines.len()
    );
    let len = lines[pos.line as usize - 1].len() as u64;
    assert!(
        pos.column >= 1 && pos.column <= len + 1,
        "column {} outside line {} of {len} bytes",
        pos.column,
        pos.line
    );
}

fn assert_diag(doc: &[u8], call: &ToolCall, issue: &Issue, sev: Severity) {
    let rel = diag::locate(&call.raw, &issue.path, &call.name);
    assert!(rel <= call.raw.len(), "locate past raw");
    // as the CLI does (`Tools::enrich`, `validate`): mapped back to bytes
    let at = diag::locate_in(Some(doc), call.span, &call.raw, &issue.path, &call.name);
    assert_eq!(
        at,
        call.span[0] as usize
            + diag::byte_offset(&doc[call.span[0] as usize..call.span[1] as usize], rel)
    );
    assert!(
        at as u64 <= call.span[1],
        "diagnostic offset {at} outside the call's span {:?} (raw {:?})",
        call.span,
        call.raw
    );
    let pos = diag::position(doc, at);
    assert_inside(doc, pos);
    let s = diag::render("f", Some(doc), at, sev, issue);
    let head = format!("f:{}:{}: ", pos.line, pos.column);
    assert!(s.starts_with(&head), "render header {s:?} is not {head:?}");
    let _ = diag::render("f", None, at, sev, issue);
}

fn judge(tools: &Tools, tools_text: Option<&str>, eflags: u8, fmt: u8, doc: &[u8]) {
    let reg = tools.registry.as_ref().expect("registry");
    let policy = tools.policy;
    let cfg = config(eflags, fmt);
    let found = toolcall::parse(doc, &cfg);
    for call in &found.calls {
        let schema = reg.get(&call.name).map(|t| &t.parameters);
        let args = match schema {
            Some(s) => typed(call.format, &call.arguments, s),
            None => call.arguments.as_value().clone(),
        };
        if let Some(s) = schema {
            // every text format types the same way (deepseek-dsml aside)
            typed("qwen3-coder-xml", &call.arguments, s);
        }
        let v = reg.check(&call.name, &args, &policy);
        assert_eq!(
            v,
            reg.check(&call.name, &args, &policy),
            "check is not deterministic"
        );
        assert_verdict(reg, &policy, &call.name, &args, &v);
        let mut c = call.clone();
        let j = tools.judge(&mut c).expect("a registry is loaded");
        assert_eq!(j, v, "Tools::judge differs from typing + check");
        assert_eq!(c.arguments, args, "Tools::judge typed differently");
        for w in &v.warnings {
            assert_diag(doc, &c, w, Severity::Warning);
        }
        for e in &v.errors {
            assert_diag(doc, &c, e, Severity::Error);
        }
        let mut extra = Map::new();
        v.write_into(&mut extra);
        serde_json::to_string(&extra).expect("verdict fields serialise");
        if !v.valid {
            let pos = diag::position(doc, call.span[0] as usize);
            let f = Failure {
                kind: if v
                    .errors
                    .iter()
                    .all(|e| matches!(e.code, "TLP-004" | "TLP-005"))
                {
                    FailureKind::Schema
                } else {
                    FailureKind::Parse
                },
                code: v.errors[0].code,
                errors: v.errors.iter().map(|e| e.message.clone()).collect(),
                line: pos.line,
                column: pos.column,
                raw: call.raw.clone(),
                tool: Some(call.name.clone()),
                schema: schema.cloned(),
            };
            let p = retry::prompt(None, &f);
            assert!(p.contains(v.errors[0].code));
            let _ = retry::prompt(tools_text, &f);
        }
    }
    for e in &found.errors {
        assert!(
            e.offset as usize <= doc.len(),
            "error offset past the input"
        );
        assert_inside(doc, diag::position(doc, e.offset as usize));
    }
    // The whole document as the arguments of a call to a registry tool (or
    // to an unknown one): schema checks without the parser in between.
    if let Ok(args) = serde_json::from_slice::<Value>(doc) {
        let names: Vec<String> = reg.tools().iter().map(|t| t.name.clone()).collect();
        let name = if names.is_empty() || fmt as usize % (names.len() + 1) == names.len() {
            "not_a_tool".to_string()
        } else {
            names[fmt as usize % (names.len() + 1)].clone()
        };
        let args = match reg.get(&name) {
            Some(t) => typed("qwen3-coder-xml", &args, &t.parameters),
            None => args,
        };
        let v = reg.check(&name, &args, &policy);
        assert_eq!(
            v,
            reg.check(&name, &args, &policy),
            "check is not deterministic"
        );
        assert_verdict(reg, &policy, &name, &args, &v);
        // a name that differs from a known one only by a suffix is unknown
        let odd = format!("{name}\u{1}");
        if reg.get(&odd).is_none() {
            let v = reg.check(&odd, &args, &policy);
            assert_verdict(reg, &policy, &odd, &args, &v);
        }
    }
    let _ = retry::reply_from_output(&String::from_utf8_lossy(doc));
}

fuzz_target!(|data: &[u8]| {
    let [sel, vflags, eflags, fmt, rest @ ..] = data else {
        return;
    };
    let policy = policy(*vflags);
    let sel = *sel as usize % 8;
    if sel < 7 {
        with_fixed(sel, policy, |tools| judge(tools, None, *eflags, *fmt, rest));
        return;
    }
    let (tools_bytes, doc) = match rest.iter().position(|&b| b == 0) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &rest[rest.len()..]),
    };
    let text = String::from_utf8_lossy(tools_bytes);
    let _ = toolcall::validate::config::FileConfig::from_text(&text);
    if let Some(reg) = load(&text, policy.strict) {
        let tools = Tools {
            registry: Some(reg),
            policy,
            ..Tools::default()
        };
        judge(&tools, Some(&text), *eflags, *fmt, doc);
    }
});
