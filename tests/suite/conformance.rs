//! The CanIToolCall conformance fixtures (`tests/conformance/canitoolcall`),
//! run through the built `toolcall` binary.
//!
//! Per fixture: `toolcall split` with the fixture's tools (`--tools`), its
//! generation prompt (`--generation-prompt`: the fixture's own, else the
//! default of the first of its models that `family.json` lists) and
//! `--finish-reason length` when it is tagged `truncated`. Calls must match by
//! name and arguments with strict JSON types (`1` equals `1.0`, `1` is not
//! `true` or `"1"`); content and reasoning must match whitespace-trimmed, with
//! `""` equal to `null`. A fixture with `expected_error` passes when no call
//! comes back. `toolcall stream`, fed the same bytes in 1-byte and 7-byte
//! chunks through a pipe, must give the calls `split` gave.
//!
//! The test fails when fewer fixtures pass than `tests/conformance/floor`, or
//! when `stream` and `split` disagree on any fixture. A per-family table and
//! the failing fixtures go to stderr (`-- --nocapture`).
//!
//! The scored suites `tests/conformance/wild/` (model output quoted in bug
//! reports) and `tests/conformance/peers/` (the parser tests of vLLM,
//! SGLang, SGLang's Rust tool-parser, Dynamo, llama.cpp and Ollama) are run
//! the same way per case (calls from `parse`, text and reasoning from
//! `split`, `stream` at 1- and 7-byte chunks equal to `parse`, the case's
//! `generation_prompt` passed to each), each file against its line in the
//! `floor` file beside it; see
//! `tests/conformance/README.md`.

use serde_json::{Map, Number, Value};
use std::collections::{BTreeMap, HashMap};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Chunk sizes `stream` is fed in.
const STREAM_CHUNKS: [usize; 2] = [1, 7];

/// The `--think-window` `stream` is given so that it runs under the
/// settings `parse` and `split` use by default: the whole document, within
/// the default `--max-block` (1 MiB).
const WHOLE_DOCUMENT_WINDOW: &str = "1048576";

/// One fixture line, with the file it came from.
struct Fixture {
    /// Path of its `.jsonl` file relative to the suite directory.
    file: String,
    /// The fixture record.
    record: Value,
}

impl Fixture {
    fn id(&self) -> &str {
        self.record["id"].as_str().unwrap_or("?")
    }

    fn family(&self) -> &str {
        self.record["family"].as_str().unwrap_or("?")
    }

    fn expects_error(&self) -> bool {
        self.record.get("expected_error").is_some()
    }
}

/// What one fixture gave.
#[derive(Default)]
struct Outcome {
    /// Why `split` did not match the expectation (empty: it passed).
    split_faults: Vec<String>,
    /// Where `stream` disagreed with `split` (empty: it agreed).
    stream_faults: Vec<String>,
}

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/canitoolcall")
}

/// Every fixture, in the order of the sorted file paths and then line order.
fn load_fixtures(dir: &Path) -> Vec<Fixture> {
    let mut files = Vec::new();
    for family in std::fs::read_dir(dir).expect("read the suite directory") {
        let family = family.expect("directory entry").path();
        if !family.is_dir() {
            continue;
        }
        for entry in std::fs::read_dir(&family).expect("read a family directory") {
            let path = entry.expect("directory entry").path();
            if path.extension().is_some_and(|e| e == "jsonl") {
                let rel = path.strip_prefix(dir).expect("inside the suite");
                files.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    files.sort();
    let mut fixtures = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(dir.join(&file)).expect("read a fixture file");
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let record: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{file}:{}: not JSON: {e}", n + 1));
            fixtures.push(Fixture {
                file: file.clone(),
                record,
            });
        }
    }
    fixtures
}

/// Per family: each reference model's default generation prompt.
fn default_prompts(dir: &Path, fixtures: &[Fixture]) -> HashMap<String, HashMap<String, String>> {
    let mut out = HashMap::new();
    for fx in fixtures {
        let family = fx.family().to_string();
        if out.contains_key(&family) {
            continue;
        }
        let mut prompts = HashMap::new();
        if let Ok(text) = std::fs::read_to_string(dir.join(&family).join("family.json")) {
            let meta: Value = serde_json::from_str(&text).expect("family.json is JSON");
            for model in meta["reference_models"].as_array().into_iter().flatten() {
                let repo = model["repo"].as_str().unwrap_or_default().to_string();
                let prompt = model["default_generation_prompt"]
                    .as_str()
                    .unwrap_or_default();
                prompts.insert(repo, prompt.to_string());
            }
        }
        out.insert(family, prompts);
    }
    out
}

/// The fixture's generation prompt, else its first reference model's default.
fn generation_prompt(fx: &Fixture, defaults: &HashMap<String, HashMap<String, String>>) -> String {
    match fx.record.get("generation_prompt") {
        Some(Value::Null) | None => {}
        Some(Value::String(prompt)) => return prompt.clone(),
        Some(other) => panic!("{}: generation_prompt {other} is not a string", fx.id()),
    }
    let Some(prompts) = defaults.get(fx.family()) else {
        return String::new();
    };
    for model in fx.record["models"].as_array().into_iter().flatten() {
        if let Some(prompt) = model.as_str().and_then(|m| prompts.get(m)) {
            return prompt.clone();
        }
    }
    String::new()
}

/// True for a JSON value Python counts as true (a non-empty list, object, ...).
fn truthy(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0),
    }
}

/// The flags `split` and `stream` get for a fixture; writes its tools file.
fn fixture_args(
    fx: &Fixture,
    index: usize,
    defaults: &HashMap<String, HashMap<String, String>>,
    scratch: &Path,
) -> Vec<String> {
    let mut args = Vec::new();
    if truthy(fx.record.get("tools")) {
        let path = scratch.join(format!("{index}.tools.json"));
        let tools = serde_json::to_string(&fx.record["tools"]).expect("serialise tools");
        std::fs::write(&path, tools).expect("write a tools file");
        args.push("--tools".to_string());
        args.push(path.to_string_lossy().into_owned());
    }
    let truncated = fx.record["tags"]
        .as_array()
        .is_some_and(|tags| tags.iter().any(|t| t == "truncated"));
    if truncated {
        args.extend(["--finish-reason".to_string(), "length".to_string()]);
    }
    let prompt = generation_prompt(fx, defaults);
    if !prompt.is_empty() {
        args.extend(["--generation-prompt".to_string(), prompt]);
    }
    args
}

/// The JSON records (lines starting with `{`) a run printed.
fn records(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad output line {l}: {e}")))
        .collect()
}

/// Runs `toolcall split ARGS` on `input` and returns its exit code and records.
fn run_split(args: &[String], input: &[u8]) -> (Option<i32>, Vec<Value>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolcall"))
        .arg("split")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn toolcall split");
    let mut stdin = child.stdin.take().expect("stdin");
    let output = std::thread::scope(|s| {
        s.spawn(move || {
            // A child that exits early closes the pipe; its output says why.
            let _ = stdin.write_all(input);
        });
        child.wait_with_output().expect("wait for toolcall split")
    });
    (output.status.code(), records(&output.stdout))
}

/// Runs `toolcall stream ARGS`, writing `input` to its stdin `size` bytes at
/// a time, and returns the (name, arguments) of its `tool_call` records.
fn run_stream(args: &[String], input: &[u8], size: usize) -> Vec<(Value, Value)> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolcall"))
        .arg("stream")
        .args(["--think-window", WHOLE_DOCUMENT_WINDOW])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn toolcall stream");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = child.stdout.take().expect("stdout");
    let out = std::thread::scope(|s| {
        let reader = s.spawn(move || {
            let mut buf = Vec::new();
            stdout.read_to_end(&mut buf).expect("read stream output");
            buf
        });
        for chunk in input.chunks(size) {
            if stdin.write_all(chunk).and_then(|()| stdin.flush()).is_err() {
                break;
            }
        }
        drop(stdin);
        reader.join().expect("reader thread")
    });
    child.wait().expect("wait for toolcall stream");
    records(&out)
        .into_iter()
        .filter(|r| r["type"] == "tool_call")
        .map(|r| (r["name"].clone(), r["arguments"].clone()))
        .collect()
}

/// A JSON number as Python's `json` reads it.
enum PyNumber {
    /// An integer literal, as its canonical decimal digits (`-0` is `0`).
    Int(String),
    /// Anything with a fraction or an exponent.
    Float(f64),
}

fn canonical_int(digits: &str) -> String {
    if digits.trim_start_matches('-').bytes().all(|b| b == b'0') {
        "0".to_string()
    } else {
        digits.to_string()
    }
}

fn py_number(n: &Number) -> PyNumber {
    let text = n.to_string();
    if text.contains(['.', 'e', 'E']) {
        PyNumber::Float(text.parse().unwrap_or(f64::NAN))
    } else {
        PyNumber::Int(canonical_int(&text))
    }
}

/// Python's `int == float` (exact).
fn int_eq_float(int: &str, float: f64) -> bool {
    float.is_finite() && float.fract() == 0.0 && canonical_int(&format!("{float:.0}")) == int
}

/// Python's `==` on two numbers as `json` reads them.
fn numbers_equal(a: &Number, b: &Number) -> bool {
    match (py_number(a), py_number(b)) {
        (PyNumber::Int(x), PyNumber::Int(y)) => x == y,
        (PyNumber::Float(x), PyNumber::Float(y)) => x == y,
        (PyNumber::Int(i), PyNumber::Float(f)) | (PyNumber::Float(f), PyNumber::Int(i)) => {
            int_eq_float(&i, f)
        }
    }
}

/// Equal values of the same JSON type; numbers compare by value, objects
/// regardless of key order.
fn strict_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => numbers_equal(x, y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| strict_eq(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| strict_eq(v, w)))
        }
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::String(x), Value::String(y)) => x == y,
        _ => false,
    }
}

/// Equal once serialised the way Python's `json.dumps` does: same types, keys
/// in the same order, integers and floats told apart.
fn same_serialisation(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (py_number(x), py_number(y)) {
            (PyNumber::Int(p), PyNumber::Int(q)) => p == q,
            (PyNumber::Float(p), PyNumber::Float(q)) => p.to_bits() == q.to_bits(),
            _ => false,
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_serialisation(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((k, v), (l, w))| k == l && same_serialisation(v, w))
        }
        _ => a == b,
    }
}

/// Whitespace as Python's `str.strip()` sees it.
fn py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// A text field trimmed, with a missing one or `null` as "".
fn norm(value: Option<&Value>) -> &str {
    value
        .and_then(Value::as_str)
        .unwrap_or("")
        .trim_matches(py_space)
}

/// The first `max` characters of a string.
fn cut(text: &str, max: usize) -> &str {
    text.char_indices()
        .nth(max)
        .map_or(text, |(i, _)| &text[..i])
}

fn calls_json(calls: &[(Value, Value)]) -> String {
    let list: Vec<Value> = calls
        .iter()
        .map(|(n, a)| Value::Array(vec![n.clone(), a.clone()]))
        .collect();
    Value::Array(list).to_string()
}

/// Runs one fixture.
fn check(
    fx: &Fixture,
    index: usize,
    defaults: &HashMap<String, HashMap<String, String>>,
    scratch: &Path,
) -> Outcome {
    let input = fx.record["raw_output"]
        .as_str()
        .unwrap_or_else(|| panic!("{}: raw_output is not a string", fx.id()))
        .as_bytes();
    let args = fixture_args(fx, index, defaults, scratch);
    let mut outcome = Outcome::default();
    let (code, recs) = run_split(&args, input);
    let Some(split) = recs.iter().find(|r| r["type"] == "split") else {
        outcome
            .split_faults
            .push(format!("no split record (exit {code:?})"));
        return outcome;
    };
    let calls: Vec<(Value, Value)> = split["tool_calls"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| (c["name"].clone(), c["arguments"].clone()))
        .collect();
    if fx.expects_error() {
        if !calls.is_empty() {
            outcome.split_faults.push(format!(
                "truncated/malformed output returned calls {}",
                cut(&calls_json(&calls), 300)
            ));
        }
    } else {
        let expected = &fx.record["expected"];
        let want: Vec<(Value, Value)> = expected["tool_calls"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| (c["name"].clone(), c["arguments"].clone()))
            .collect();
        let calls_match = want.len() == calls.len()
            && want
                .iter()
                .zip(&calls)
                .all(|((n1, a1), (n2, a2))| n1 == n2 && strict_eq(a1, a2));
        if !calls_match {
            outcome.split_faults.push(format!(
                "calls {} != {}",
                cut(&calls_json(&calls), 300),
                cut(&calls_json(&want), 300)
            ));
        }
        let empty = Map::new();
        let split_obj = split.as_object().unwrap_or(&empty);
        let expected_obj = expected.as_object().unwrap_or(&empty);
        let text_pairs = [("content", "text"), ("reasoning_content", "reasoning")];
        for (want_key, got_key) in text_pairs {
            let want_text = norm(expected_obj.get(want_key));
            let got_text = norm(split_obj.get(got_key));
            if want_text != got_text {
                outcome.split_faults.push(format!(
                    "{got_key} {:?} != {:?}",
                    cut(got_text, 120),
                    cut(want_text, 120)
                ));
            }
        }
    }
    for size in STREAM_CHUNKS {
        let streamed = run_stream(&args, input, size);
        let agree = streamed.len() == calls.len()
            && streamed.iter().zip(&calls).all(|((n1, a1), (n2, a2))| {
                same_serialisation(n1, n2) && same_serialisation(a1, a2)
            });
        if !agree {
            outcome.stream_faults.push(format!(
                "stream@{size} calls {} != split {}",
                cut(&calls_json(&streamed), 150),
                cut(&calls_json(&calls), 150)
            ));
        }
    }
    outcome
}

fn read_floor() -> usize {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/floor");
    let text = std::fs::read_to_string(&path).expect("read tests/conformance/floor");
    text.trim()
        .parse()
        .expect("tests/conformance/floor holds one integer")
}

#[test]
fn canitoolcall_fixtures() {
    let dir = suite_dir();
    let fixtures = load_fixtures(&dir);
    assert!(!fixtures.is_empty(), "no fixtures under {}", dir.display());
    let defaults = default_prompts(&dir, &fixtures);
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("conformance-canitoolcall");
    std::fs::create_dir_all(&scratch).expect("create the scratch directory");

    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 4);
    let next = AtomicUsize::new(0);
    let outcomes: Vec<Mutex<Option<Outcome>>> = fixtures.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(fx) = fixtures.get(i) else { break };
                let outcome = check(fx, i, &defaults, &scratch);
                *outcomes[i].lock().expect("outcome lock") = Some(outcome);
            });
        }
    });
    let outcomes: Vec<Outcome> = outcomes
        .into_iter()
        .map(|m| {
            m.into_inner()
                .expect("outcome lock")
                .expect("every fixture ran")
        })
        .collect();

    // family -> [passed, total, error-passed, error-total]
    let mut families: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut stream_failures = Vec::new();
    for (fx, outcome) in fixtures.iter().zip(&outcomes) {
        let ok = outcome.split_faults.is_empty();
        let row = families.entry(fx.family()).or_default();
        row[0] += usize::from(ok);
        row[1] += 1;
        if fx.expects_error() {
            row[2] += usize::from(ok);
            row[3] += 1;
        }
        if !ok {
            failures.push(format!(
                "FAIL {} ({}): {}",
                fx.id(),
                fx.file,
                outcome.split_faults.join("; ")
            ));
        }
        if !outcome.stream_faults.is_empty() {
            stream_failures.push(format!(
                "STREAM {} ({}): {}",
                fx.id(),
                fx.file,
                outcome.stream_faults.join("; ")
            ));
        }
    }
    let passed: usize = families.values().map(|r| r[0]).sum();
    let total = fixtures.len();
    let floor = read_floor();

    let mut report = format!(
        "{:16} {:>9} {:>20}\n",
        "family", "all", "truncated/malformed"
    );
    for (family, [p, t, ep, et]) in &families {
        report.push_str(&format!("{family:16} {p:4}/{t:<4} {ep:9}/{et:<4}\n"));
    }
    for line in failures.iter().chain(&stream_failures) {
        report.push_str(line);
        report.push('\n');
    }
    report.push_str(&format!(
        "canitoolcall: {passed}/{total} passed (floor {floor}); stream != split on {} fixtures\n",
        stream_failures.len()
    ));
    if passed > floor {
        report.push_str(&format!(
            "more than the floor pass: raise tests/conformance/floor to {passed}\n"
        ));
    }
    eprint!("{report}");

    assert!(
        stream_failures.is_empty(),
        "stream disagrees with split on {} fixtures (see STREAM lines above)",
        stream_failures.len()
    );
    assert!(
        passed >= floor,
        "{passed}/{total} CanIToolCall fixtures pass, below the floor of {floor} (see FAIL lines above)"
    );
}

#[test]
fn comparisons_follow_the_scorer() {
    let v = |s: &str| -> Value { serde_json::from_str(s).expect("test JSON") };
    assert!(strict_eq(
        &v(r#"{"a":1,"b":[2.0]}"#),
        &v(r#"{"b":[2],"a":1.0}"#)
    ));
    assert!(strict_eq(&v("100000000000000000000"), &v("1e20")));
    assert!(strict_eq(&v("-0"), &v("0.0")));
    assert!(!strict_eq(&v("1"), &v("true")));
    assert!(!strict_eq(&v("0"), &v("false")));
    assert!(!strict_eq(&v("1"), &v(r#""1""#)));
    assert!(!strict_eq(&v("null"), &v(r#""""#)));
    assert!(!strict_eq(&v(r#"{"a":1}"#), &v(r#"{"a":1,"b":null}"#)));
    assert!(same_serialisation(&v("1.50"), &v("1.5")));
    assert!(!same_serialisation(&v("1"), &v("1.0")));
    assert!(!same_serialisation(
        &v(r#"{"a":1,"b":2}"#),
        &v(r#"{"b":2,"a":1}"#)
    ));
    assert_eq!(norm(Some(&v(r#"" \u001f x\n""#))), "x");
    assert_eq!(norm(Some(&Value::Null)), "");
    assert_eq!(norm(None), "");
}

// ---------------------------------------------------------------------------
// Scored suites: `tests/conformance/wild/` and `tests/conformance/peers/`.

/// Whether `format`'s scalars compare loosely (`"3"` equals `3`), as the
/// suites' own scorer does: its descriptor says its values are written as
/// text (`Values::Text`, `Values::TextUnlessDeclared`), or it is one of
/// [`LOOSE_BY_PEER`].
fn loose_format(format: &str) -> bool {
    use toolcall::formats::{registry, Values};
    LOOSE_BY_PEER.contains(&format)
        || registry::by_name(format).is_some_and(|f| f.values != Values::Json)
}

/// Formats with JSON values whose peer cases expect them as text
/// (llama.cpp's functionary v3.2 cases).
const LOOSE_BY_PEER: [&str; 1] = ["functionary-v3.2"];

/// Runs `toolcall CMD ARGS` on `input`; its exit code and records.
fn run_cmd(cmd: &str, args: &[String], input: &[u8]) -> (Option<i32>, Vec<Value>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolcall"))
        .arg(cmd)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn toolcall");
    let mut stdin = child.stdin.take().expect("stdin");
    let output = std::thread::scope(|s| {
        s.spawn(move || {
            let _ = stdin.write_all(input);
        });
        child.wait_with_output().expect("wait for toolcall")
    });
    (output.status.code(), records(&output.stdout))
}

/// A scalar as Python's `str` writes it, lowercased.
fn py_str_lower(v: &Value) -> String {
    match v {
        Value::String(s) => s.to_lowercase(),
        Value::Null => "none".to_string(),
        other => other.to_string().to_lowercase(),
    }
}

/// Loose equality of values written as text: same structure, scalars equal
/// as written (`"3"` and `3`, `"True"` and `true`).
fn loose_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| loose_eq(v, w)))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| loose_eq(p, q))
        }
        (Value::Object(_) | Value::Array(_), _) | (_, Value::Object(_) | Value::Array(_)) => false,
        // numbers by value, as Python compares them (`1.23e-4` is `0.000123`)
        (Value::Number(x), Value::Number(y)) if numbers_equal(x, y) => true,
        _ => {
            let text = |v: &Value| match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            a == b || text(a) == text(b) || py_str_lower(a) == py_str_lower(b)
        }
    }
}

/// Whitespace runs as one space, trimmed.
fn collapse_space(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Why one scored case fails (`None`: it passes). Checks `parse`'s calls,
/// `split`'s text and reasoning when the case gives them, and that `stream`
/// at 1- and 7-byte chunks gives `parse`'s calls. A case's
/// `generation_prompt` goes to every run as `--generation-prompt`.
fn score_case(case: &Value) -> Option<String> {
    let input = case["input"].as_str().unwrap_or_default().as_bytes();
    let args: Vec<String> = match case["generation_prompt"].as_str() {
        Some(prompt) => vec!["--generation-prompt".to_string(), prompt.to_string()],
        None => Vec::new(),
    };
    let format = case["format"].as_str().unwrap_or("unknown");
    let eq = if loose_format(format) {
        loose_eq
    } else {
        strict_eq
    };
    let (code, recs) = run_cmd("parse", &args, input);
    if !matches!(code, Some(0 | 1)) {
        return Some(format!("parse exit {code:?}"));
    }
    let calls: Vec<(Value, Value)> = recs
        .iter()
        .filter(|r| r["type"] == "tool_call")
        .map(|r| (r["name"].clone(), r["arguments"].clone()))
        .collect();
    let expected = case["expected"]["calls"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    if calls.len() != expected.len() {
        return Some(format!(
            "expected {} calls, got {}: {}",
            expected.len(),
            calls.len(),
            cut(&calls_json(&calls), 300)
        ));
    }
    for (i, ((name, args), want)) in calls.iter().zip(&expected).enumerate() {
        if !want["name"].is_null() && *name != want["name"] {
            return Some(format!("call {i}: name {name} != {}", want["name"]));
        }
        if !want["arguments"].is_null() {
            if !eq(&want["arguments"], args) {
                return Some(format!(
                    "call {i}: arguments {} != {}",
                    cut(&args.to_string(), 200),
                    cut(&want["arguments"].to_string(), 200)
                ));
            }
        } else if let Some(subset) = want["arguments_subset"].as_object() {
            let ok = subset
                .iter()
                .all(|(k, v)| args.get(k).is_some_and(|w| eq(v, w)));
            if !ok {
                return Some(format!("call {i}: arguments {args} lack {subset:?}"));
            }
        }
    }
    let want_text = case["expected"]["text"].as_str();
    let want_reasoning = case["expected"]["reasoning"].as_str();
    if want_text.is_some() || want_reasoning.is_some() {
        let (_, recs) = run_cmd("split", &args, input);
        let splits: Vec<&Value> = recs.iter().filter(|r| r["type"] == "split").collect();
        let [split] = splits.as_slice() else {
            return Some(format!("split gave {} split records", splits.len()));
        };
        if let Some(markup) = case["expected"]["markup"].as_array() {
            if let Some(why) = check_stripped(input, want_text, markup, split) {
                return Some(why);
            }
        }
        for (field, want) in [("text", want_text), ("reasoning", want_reasoning)] {
            let Some(want) = want else { continue };
            let got = collapse_space(split[field].as_str().unwrap_or_default());
            if got != collapse_space(want) {
                return Some(format!(
                    "{field} {:?} != {:?}",
                    cut(&got, 150),
                    cut(&collapse_space(want), 150)
                ));
            }
        }
    }
    for size in STREAM_CHUNKS {
        let streamed = run_stream(&args, input, size);
        if streamed != calls {
            return Some(format!(
                "stream at {size}-byte chunks gave {} != parse {}",
                cut(&calls_json(&streamed), 200),
                cut(&calls_json(&calls), 200)
            ));
        }
    }
    None
}

/// The byte-exact text check of a case that lists its `markup`: the bytes
/// the policy strips from text (stray special tokens, other roles' turn
/// headers; docs/recovery.md, "Text around no call"), in input order.
/// `expected.text` must be the input with exactly those removed (so the
/// case cannot expect anything but the documented stripping), `split`'s
/// markup segments must be those bytes, and its text must be
/// `expected.text` byte for byte. `None`: all hold.
fn check_stripped(
    input: &[u8],
    want_text: Option<&str>,
    markup: &[Value],
    split: &Value,
) -> Option<String> {
    let Some(want_text) = want_text else {
        return Some("a case with `markup` needs `text`".to_string());
    };
    let input = String::from_utf8_lossy(input);
    let mut want_markup = Vec::new();
    for m in markup {
        let Some(m) = m.as_str().filter(|m| !m.is_empty()) else {
            return Some(format!("markup entry {m} is not a non-empty string"));
        };
        want_markup.push(m);
    }
    if !input_less_markup(&input, want_text, &want_markup) {
        return Some(format!(
            "case: expected text is not the input less its markup {want_markup:?}"
        ));
    }
    let got_markup: Vec<String> = split["segments"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter(|s| s["kind"] == "markup")
        .filter_map(|s| {
            let span = s["span"].as_array()?;
            let (a, b) = (span.first()?.as_u64()?, span.get(1)?.as_u64()?);
            input
                .as_bytes()
                .get(usize::try_from(a).ok()?..usize::try_from(b).ok()?)
                .map(|bytes| String::from_utf8_lossy(bytes).into_owned())
        })
        .collect();
    if got_markup != want_markup {
        return Some(format!(
            "markup {:?} != {:?}",
            cut(&format!("{got_markup:?}"), 200),
            cut(&format!("{want_markup:?}"), 200)
        ));
    }
    let got = split["text"].as_str().unwrap_or_default();
    if got != want_text {
        return Some(format!(
            "text (byte for byte) {:?} != {:?}",
            cut(got, 150),
            cut(want_text, 150)
        ));
    }
    None
}

/// Whether `text` is `input` with the `markup` strings deleted, in order:
/// `input` is walked along `text`, and where they part the next markup
/// string must stand in `input`.
fn input_less_markup(input: &str, text: &str, markup: &[&str]) -> bool {
    let (mut rest, mut want) = (input, text);
    let mut markup = markup.iter();
    loop {
        let same = rest
            .bytes()
            .zip(want.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        // a markup string that starts where the two still agree is taken
        // there when the text does not go on with it
        let (r, w) = (&rest[same..], &want[same..]);
        if r.is_empty() && w.is_empty() {
            return markup.next().is_none();
        }
        let Some(m) = markup.next() else {
            return false;
        };
        // back up to the start of `m` if the text ran into its first bytes
        let back = (0..=same)
            .rev()
            .find(|&k| rest.is_char_boundary(k) && rest[k..].starts_with(m));
        let Some(at) = back else {
            return false;
        };
        rest = &rest[at + m.len()..];
        want = &want[at..];
    }
}

/// Scores every `*.jsonl` in `tests/conformance/DIR` against the floor
/// file beside them (lines `FILE COUNT`); prints a per-file count and
/// every failing case, and fails when a file passes fewer than its floor.
fn score_suites(dir: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/conformance")
        .join(dir);
    let floor_text = std::fs::read_to_string(root.join("floor"))
        .unwrap_or_else(|e| panic!("read tests/conformance/{dir}/floor: {e}"));
    let floors: HashMap<String, usize> = floor_text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (file, count) = l
                .split_once(' ')
                .unwrap_or_else(|| panic!("floor line {l:?} is not FILE COUNT"));
            let count = count.trim().parse().expect("a floor count is an integer");
            (file.to_string(), count)
        })
        .collect();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("read the suite directory")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no *.jsonl in {}", root.display());
    let mut report = String::new();
    let mut below = Vec::new();
    for path in files {
        let file = path
            .file_name()
            .expect("a file name")
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(&path).expect("read a suite file");
        let cases: Vec<Value> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{file}: not JSON: {e}")))
            .collect();
        let next = AtomicUsize::new(0);
        let results: Vec<Mutex<Option<Option<String>>>> =
            cases.iter().map(|_| Mutex::new(None)).collect();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(case) = cases.get(i) else { break };
                    *results[i].lock().expect("result lock") = Some(score_case(case));
                });
            }
        });
        let mut passed = 0;
        for (case, result) in cases.iter().zip(results) {
            match result
                .into_inner()
                .expect("result lock")
                .expect("every case ran")
            {
                None => passed += 1,
                Some(why) => report.push_str(&format!(
                    "FAIL {dir}/{file} {}: {why}\n",
                    case["id"].as_str().unwrap_or("?")
                )),
            }
        }
        let floor = floors
            .get(&file)
            .copied()
            .unwrap_or_else(|| panic!("tests/conformance/{dir}/floor has no line for {file}"));
        report.push_str(&format!(
            "{dir}/{file}: {passed}/{} passed (floor {floor})\n",
            cases.len()
        ));
        if passed > floor {
            report.push_str(&format!(
                "more than the floor pass: raise {file} in tests/conformance/{dir}/floor to {passed}\n"
            ));
        }
        if passed < floor {
            below.push(format!("{file}: {passed} < {floor}"));
        }
    }
    eprint!("{report}");
    assert!(
        below.is_empty(),
        "below the floor in tests/conformance/{dir}: {} (see FAIL lines above)",
        below.join(", ")
    );
}

#[test]
fn wild_outputs() {
    score_suites("wild");
}

#[test]
fn peer_suites() {
    score_suites("peers");
}

#[test]
fn loose_comparison_follows_the_scorer() {
    let v = |s: &str| -> Value { serde_json::from_str(s).expect("test JSON") };
    assert!(loose_eq(&v(r#"{"a":"3"}"#), &v(r#"{"a":3}"#)));
    assert!(loose_eq(&v(r#"{"a":"True"}"#), &v(r#"{"a":true}"#)));
    assert!(loose_eq(&v(r#"["None"]"#), &v("[null]")));
    assert!(!loose_eq(&v(r#"{"a":"4"}"#), &v(r#"{"a":3}"#)));
    assert!(loose_eq(&v(r#"{"a":1.23e-4}"#), &v(r#"{"a":0.000123}"#)));
    assert!(!loose_eq(&v(r#"{"a":1.23e-4}"#), &v(r#"{"a":0.000124}"#)));
    assert!(!loose_eq(&v(r#"{"a":[3]}"#), &v(r#"{"a":"[3]"}"#)));
    assert!(!loose_eq(&v(r#"{"a":1}"#), &v(r#"{"a":1,"b":2}"#)));
    assert_eq!(collapse_space(" a \n\t b "), "a b");
}

#[test]
fn markup_deletion_is_checked_in_order() {
    assert!(input_less_markup("a<|x|>b", "ab", &["<|x|>"]));
    assert!(input_less_markup("ab", "ab", &[]));
    // the second `<|x|>` is the stripped one, the first stays text
    assert!(input_less_markup("<|x|>a<|x|>b", "<|x|>ab", &["<|x|>"]));
    // the text went on with the markup's first bytes
    assert!(input_less_markup("a</t>b</t>c", "a</t>bc", &["</t>"]));
    assert!(!input_less_markup("a<|x|>b", "a<|x|>b", &["<|x|>"]));
    assert!(!input_less_markup("a<|x|>b", "ab", &[]));
    assert!(!input_less_markup("a<|x|>b", "a b", &["<|x|>"]));
    assert!(!input_less_markup("a<|x|>b", "ab", &["<|x|>", "<|y|>"]));
}
