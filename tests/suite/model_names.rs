//! Served model names (issue 42): a size, quantisation or date tag is never
//! a version. The table of real names in
//! `tests/conformance/model-names.tsv` resolves as written, and the binary
//! finds a Qwen3 reply's call whichever way the model is named, by
//! `--model` or by the `model` field of wire input.

use crate::common;
use toolcall::formats::model_name;

const TABLE: &str = "tests/conformance/model-names.tsv";

/// `(name, expected, source)` of every row of the table.
fn table() -> Vec<(String, String, String)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(TABLE);
    let text = std::fs::read_to_string(&path).expect("model-names.tsv");
    let mut rows = Vec::new();
    let mut header = false;
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if !header {
            assert!(line.starts_with("name\texpected\tsource"), "{line}");
            header = true;
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        assert!(cols.len() >= 3, "{TABLE}: {line:?}");
        assert!(!cols[2].trim().is_empty(), "{TABLE}: no source: {line:?}");
        rows.push((cols[0].into(), cols[1].into(), cols[2].into()));
    }
    rows
}

#[test]
fn real_model_names_resolve_to_the_row_their_template_implies() {
    let rows = table();
    assert!(rows.len() >= 200, "only {} names", rows.len());
    let mut seen = std::collections::HashSet::new();
    let mut wrong = Vec::new();
    for (name, expected, _) in &rows {
        assert!(seen.insert(name.clone()), "{name} is in the table twice");
        let got = match model_name::resolve(name) {
            Some(r) => format!("{}/{}", r.format, r.name),
            None => "unresolved".to_string(),
        };
        if got != *expected {
            wrong.push(format!("{name}: expected {expected}, got {got}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {}:\n{}",
        wrong.len(),
        rows.len(),
        wrong.join("\n")
    );
}

#[test]
fn the_table_covers_every_row_and_unknown_names() {
    let rows = table();
    let all: Vec<(&str, toolcall::formats::FormatId)> =
        model_name::rows().map(|(n, f, _)| (n, f)).collect();
    for (k, &(name, format)) in all.iter().enumerate() {
        // rows that name a mode of a hybrid model (`deepseek-v3.1-thinking`
        // beside `deepseek-v3.1`: the same weights, a template switch) or a
        // second spelling of an earlier row have no served name of their own
        let mode = name
            .strip_suffix("-thinking")
            .is_some_and(|base| all.iter().any(|&(n, f)| n == base && f == format));
        let spelling = all[..k]
            .iter()
            .any(|&(n, _)| model_name::parse(n) == model_name::parse(name));
        if mode || spelling {
            continue;
        }
        let hit = rows
            .iter()
            .any(|(_, e, _)| e.split_once('/').is_some_and(|(_, row)| row == name));
        assert!(hit, "no real name in {TABLE} resolves to the row {name}");
    }
    let unresolved = rows.iter().filter(|(_, e, _)| e == "unresolved").count();
    assert!(unresolved >= 50, "{unresolved} unresolved names");
}

const QWEN3_CALL: &str =
    "<think>\nThe user wants the weather.\n</think>\n\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>";

fn calls(out: &str) -> Vec<serde_json::Value> {
    out.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["type"] == "tool_call")
        .collect()
}

/// An Ollama `/api/chat` stream of `content`, a few bytes a line.
fn ollama_stream(model: &str, content: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let chars: Vec<char> = content.chars().collect();
    for piece in chars.chunks(5) {
        let piece: String = piece.iter().collect();
        let line = serde_json::json!({
            "model": model,
            "message": {"role": "assistant", "content": piece},
            "done": false,
        });
        out.extend_from_slice(line.to_string().as_bytes());
        out.push(b'\n');
    }
    let end = serde_json::json!({
        "model": model,
        "message": {"role": "assistant", "content": ""},
        "done": true,
        "done_reason": "stop",
    });
    out.extend_from_slice(end.to_string().as_bytes());
    out.push(b'\n');
    out
}

/// An OpenAI chat-completions SSE stream of `content`.
fn openai_stream(model: &str, content: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let chars: Vec<char> = content.chars().collect();
    for piece in chars.chunks(5) {
        let piece: String = piece.iter().collect();
        let ev = serde_json::json!({
            "id": "c1", "object": "chat.completion.chunk", "model": model,
            "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": null}],
        });
        out.extend_from_slice(format!("data: {ev}\n\n").as_bytes());
    }
    let ev = serde_json::json!({
        "id": "c1", "object": "chat.completion.chunk", "model": model,
        "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
    });
    out.extend_from_slice(format!("data: {ev}\n\ndata: [DONE]\n\n").as_bytes());
    out
}

#[test]
fn wire_input_naming_a_sized_qwen3_finds_the_call() {
    for model in [
        "qwen3:8b",
        "Qwen/Qwen3-8B",
        "qwen3:8b-q4_K_M",
        "qwen3:30b-a3b",
    ] {
        for (input, bytes) in [
            ("ollama", ollama_stream(model, QWEN3_CALL)),
            ("openai", openai_stream(model, QWEN3_CALL)),
        ] {
            for cmd in ["parse", "stream"] {
                let r = common::run_binary(&[cmd, "--input", input], Some(&bytes), None);
                let out = r.out();
                assert_eq!(r.code, 0, "{cmd} {input} {model}: {out}{}", r.stderr);
                let c = calls(&out);
                assert_eq!(c.len(), 1, "{cmd} {input} {model}: {out}");
                assert_eq!(c[0]["name"], "get_weather");
                assert_eq!(c[0]["arguments"]["city"], "Paris");
            }
        }
    }
}

#[test]
fn model_flag_with_a_served_name_finds_the_qwen3_call() {
    for model in [
        "qwen3:8b",
        "qwen3:8b-q4_K_M",
        "Qwen/Qwen3-8B",
        "qwen3-8b-instruct",
        "Qwen3-8B-Q4_K_M.gguf",
        "qwen3:latest",
    ] {
        for cmd in ["parse", "split"] {
            let r = common::run_binary(&[cmd, "--model", model], Some(QWEN3_CALL.as_bytes()), None);
            let out = r.out();
            assert_eq!(r.code, 0, "{cmd} --model {model}: {out}{}", r.stderr);
            if cmd == "parse" {
                let c = calls(&out);
                assert_eq!(c.len(), 1, "--model {model}: {out}");
                assert_eq!(c[0]["format"], "hermes", "--model {model}: {out}");
            }
        }
    }
}

#[test]
fn sized_names_of_known_models_are_accepted_and_unknown_ones_say_so() {
    let deepseek = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Paris\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>";
    for model in [
        "deepseek-v3:671b",
        "deepseek-v3",
        "deepseek-ai/DeepSeek-V3-0324",
    ] {
        let r = common::run_binary(
            &["parse", "--model", model],
            Some(deepseek.as_bytes()),
            None,
        );
        let out = r.out();
        assert_eq!(r.code, 0, "--model {model}: {out}{}", r.stderr);
        assert_eq!(calls(&out).len(), 1, "--model {model}: {out}");
    }
    // a Qwen3 minor the table does not list names nothing, not Qwen3's row
    // nor Qwen3.8's
    let r = common::run_binary(&["parse", "--model", "qwen3.7:8b"], Some(b"x"), None);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("unknown model 'qwen3.7:8b'"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("did you mean 'qwen3"), "{}", r.stderr);
    // an embedder of a known family is not that family's chat model
    let r = common::run_binary(
        &["parse", "--model", "qwen3-embedding:8b"],
        Some(b"x"),
        None,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
}

#[test]
fn the_readme_served_name_examples_resolve() {
    // README, `--model NAME`: each served name names the table entry given
    for (served, row) in [
        ("llama3.1:8b", "llama-3.1"),
        ("phi4-mini", "phi-4-mini"),
        ("granite3.3", "granite-3"),
        ("hermes3", "hermes-3"),
        ("meta-llama/Llama-3.2-3B-Instruct", "llama-3.2"),
        ("Qwen/Qwen3-8B", "qwen3"),
        ("qwen3:8b", "qwen3"),
        ("gemma3", "gemma-3"),
    ] {
        assert_eq!(
            model_name::resolve(served).map(|r| r.name),
            Some(row),
            "{served}"
        );
        let r = common::run_binary(&["parse", "--model", served], Some(b"hello"), None);
        assert_ne!(r.code, 2, "--model {served}: {}", r.stderr);
    }
}
