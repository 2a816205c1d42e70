//! Golden files: for every `fixtures/**/<case>.txt`, the output of `parse`,
//! `split` and `stream` on it (as stdin, with the flags in `<case>.args`) must
//! equal `<case>.parse.ndjson`, `<case>.split.ndjson`, `<case>.stream.ndjson`.
//! Run with `BLESS=1` to rewrite the expected files.

use crate::common;

use std::path::Path;

fn run(sub: &str, input: &Path, args: &[String]) -> (Vec<u8>, i32) {
    let bytes = std::fs::read(input).expect("read fixture");
    let mut all = vec![sub];
    all.extend(args.iter().map(String::as_str));
    let r = common::run_binary(&all, Some(&bytes), None);
    (r.stdout, r.code)
}

#[test]
fn golden_outputs_match() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    let mut checked = 0;
    for input in common::fixture_inputs() {
        let args = common::fixture_args(&input);
        for sub in ["parse", "split", "stream"] {
            let (out, code) = run(sub, &input, &args);
            // 2 only where the stream carries a server error (issue 17: it
            // is an error, reported after the records)
            let server_error =
                String::from_utf8_lossy(&out).contains("\"message\":\"server error:");
            assert!(
                code == 0 || code == 1 || (code == 2 && server_error),
                "{}: {sub} exited {code}",
                input.display()
            );
            let expected_path = input.with_extension(format!("{sub}.ndjson"));
            if bless {
                std::fs::write(&expected_path, &out).expect("bless");
                continue;
            }
            checked += 1;
            match std::fs::read(&expected_path) {
                Ok(expected) if expected == out => {}
                Ok(expected) => failures.push(format!(
                    "{} ({sub}) differs:\n--- expected\n{}\n+++ actual\n{}",
                    input.display(),
                    String::from_utf8_lossy(&expected),
                    String::from_utf8_lossy(&out)
                )),
                Err(_) => failures.push(format!(
                    "{}: missing {} (run with BLESS=1)",
                    input.display(),
                    expected_path.display()
                )),
            }
        }
    }
    assert!(bless || checked > 0, "no fixtures checked");
    assert!(
        failures.is_empty(),
        "{} golden mismatches:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Conversations (`fixtures/messages/*.json`, `*.jsonl`): `parse --input
/// messages` with the case's flags must equal `<case>.parse.ndjson` (the
/// records the core's `conversation` reader gives: each call with its
/// `turn`, `role` and `pointer`). Run with `BLESS=1` to rewrite them.
#[test]
fn conversation_goldens_match() {
    let bless = std::env::var_os("BLESS").is_some();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/messages");
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures/messages")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json" || e == "jsonl"))
        .collect();
    cases.sort();
    assert!(cases.len() > 20, "{} conversation fixtures", cases.len());
    let mut failures = Vec::new();
    for input in &cases {
        let mut args = common::fixture_args(input);
        if !args.iter().any(|a| a == "messages") {
            args.extend(["--input".to_string(), "messages".to_string()]);
        }
        let (out, code) = run("parse", input, &args);
        assert!(
            code == 0 || code == 1,
            "{}: parse exited {code}",
            input.display()
        );
        let expected_path = input.with_extension("parse.ndjson");
        if bless {
            std::fs::write(&expected_path, &out).expect("bless");
            continue;
        }
        match std::fs::read(&expected_path) {
            Ok(expected) if expected == out => {}
            _ => failures.push(format!(
                "{} differs from {} (run with BLESS=1 and review)",
                input.display(),
                expected_path.display()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
