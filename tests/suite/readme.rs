//! Every ```` ```console ```` block in README.md is run: each `$ ` line is a
//! shell command (run from the crate root with the built `toolcall` first on
//! PATH), and the lines after it, up to the next command, are its exact stdout.

use std::process::Command;

fn blocks(readme: &str) -> Vec<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        if line.trim_end() != "```console" {
            continue;
        }
        let mut cmds: Vec<(String, String)> = Vec::new();
        for l in lines.by_ref() {
            if l.trim_end() == "```" {
                break;
            }
            if let Some(cmd) = l.strip_prefix("$ ") {
                cmds.push((cmd.to_string(), String::new()));
            } else if let Some(last) = cmds.last_mut() {
                last.1.push_str(l);
                last.1.push('\n');
            }
        }
        out.push(cmds);
    }
    out
}

/// The repository root, the README's text, and a `PATH` that finds the
/// built `toolcall` first.
fn readme_and_path() -> (&'static str, String, String) {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).expect("README.md");
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_toolcall"));
    let dir = bin.parent().expect("bin dir");
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    (root, readme, path)
}

#[test]
fn readme_console_examples_run_as_shown() {
    let (root, readme, path) = readme_and_path();
    let mut ran = 0;
    for block in blocks(&readme) {
        for (cmd, expected) in block {
            let out = Command::new("sh")
                .arg("-c")
                .arg(&cmd)
                .current_dir(root)
                .env("PATH", &path)
                .output()
                .expect("run sh");
            let got = String::from_utf8_lossy(&out.stdout);
            assert_eq!(
                got, expected,
                "README command `{cmd}` printed something else"
            );
            ran += 1;
        }
    }
    assert!(ran >= 5, "only {ran} README commands found");
}

/// The commands of ```` ```sh ```` blocks that run on bundled files only
/// (`toolcall …` or `cargo run --release -- …` naming `fixtures/`, nothing
/// a reader has to supply): each must succeed as written, comments aside.
#[test]
fn readme_sh_commands_on_bundled_files_succeed() {
    let (root, readme, path) = readme_and_path();
    let mut ran = 0;
    let mut in_sh = false;
    for line in readme.lines() {
        match line.trim_end() {
            "```sh" => {
                in_sh = true;
                continue;
            }
            "```" => {
                in_sh = false;
                continue;
            }
            _ => {}
        }
        if !in_sh {
            continue;
        }
        let cmd = line.split(" # ").next().unwrap_or("").trim();
        let cmd = cmd
            .strip_prefix("cargo run --release -- ")
            .map(|rest| format!("toolcall {rest}"))
            .unwrap_or_else(|| cmd.to_string());
        if !cmd.starts_with("toolcall ") || !cmd.contains("fixtures/") {
            continue;
        }
        // every file it names must be bundled
        let bundled = cmd.split_whitespace().all(|w| {
            !(w.contains('/') || w.ends_with(".txt") || w.ends_with(".json"))
                || w.starts_with("fixtures/")
        });
        if !bundled {
            continue;
        }
        let out = Command::new("sh")
            .arg("-c")
            .arg(&cmd)
            .current_dir(root)
            .env("PATH", &path)
            .output()
            .expect("run sh");
        assert!(
            out.status.success(),
            "README command `{cmd}` failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        ran += 1;
    }
    assert!(
        ran >= 2,
        "only {ran} README sh commands on bundled files found"
    );
}

/// The line an author puts right before a shell block's fence to keep the
/// block out of [`readme_shell_blocks_run_under_strict_bash`], with the
/// reason (`<!-- not run: needs ollama -->`).
const NOT_RUN: &str = "<!-- not run: ";

/// A ```` ```sh ````, ```` ```bash ```` or ```` ```shell ```` block: the
/// line of its fence, why it is not run (when marked), and its text.
struct ShellBlock {
    line: usize,
    not_run: Option<String>,
    body: String,
}

fn shell_blocks(readme: &str) -> Vec<ShellBlock> {
    let lines: Vec<&str> = readme.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let fence = lines[i].trim_end();
        if !matches!(fence, "```sh" | "```bash" | "```shell") {
            i += 1;
            continue;
        }
        let before = lines[..i].iter().rev().find(|l| !l.trim().is_empty());
        let not_run = before
            .and_then(|l| l.trim().strip_prefix(NOT_RUN))
            .and_then(|r| r.strip_suffix("-->"))
            .map(|r| r.trim().to_string());
        let start = i;
        let mut body = String::new();
        i += 1;
        while i < lines.len() && lines[i].trim_end() != "```" {
            body.push_str(lines[i]);
            body.push('\n');
            i += 1;
        }
        out.push(ShellBlock {
            line: start + 1,
            not_run,
            body,
        });
        i += 1;
    }
    out
}

/// The files the README's blocks name as the reader's own (`reply.txt`,
/// `tools.json`, `golden/`, `logs/` …), made in `dir` from bundled
/// fixtures, with the repository's directories linked in and `dir` a git
/// repository (`git diff golden/`).
fn reader_files(dir: &std::path::Path, root: &str) {
    use std::fs;
    for d in ["fixtures", "examples", "man", "completions"] {
        std::os::unix::fs::symlink(format!("{root}/{d}"), dir.join(d)).expect("link");
    }
    let call = fs::read_to_string(format!("{root}/fixtures/hermes/basic.txt")).expect("fixture");
    let prose = "No tool is needed: it is 21 °C in Lisbon.\n";
    for d in ["golden", "replies", "transcripts", "logs", "home"] {
        fs::create_dir_all(dir.join(d)).expect("mkdir");
    }
    let files: &[(&str, &str)] = &[
        ("reply.txt", &call),
        ("transcript.txt", &call),
        ("golden/01.txt", &call),
        // a file with no call: the bless and check loops must go on
        ("golden/02.txt", prose),
        ("replies/01.txt", &call),
        ("replies/02.txt", &call),
        ("transcripts/01.txt", &call),
        ("transcripts/02.txt", &call),
    ];
    for (name, text) in files {
        fs::write(dir.join(name), text).expect("write");
    }
    let line = serde_json::json!({"message": {"content": call}}).to_string();
    fs::write(dir.join("logs/a.jsonl"), format!("{line}\n{line}\n")).expect("write");
    let tools = serde_json::json!([{"type": "function", "function": {
        "name": "weather_lookup",
        "parameters": {"type": "object", "required": ["city"], "properties": {
            "city": {"type": "string"}, "days": {"type": "integer"}}}}}]);
    fs::write(dir.join("tools.json"), tools.to_string()).expect("write");
    for f in ["golden/01", "golden/02"] {
        let out = Command::new(env!("CARGO_BIN_EXE_toolcall"))
            .args(["parse", "--no-call-ok"])
            .stdin(fs::File::open(dir.join(format!("{f}.txt"))).expect("open"))
            .output()
            .expect("run toolcall");
        fs::write(dir.join(format!("{f}.expected")), out.stdout).expect("write");
    }
    let git = Command::new("git")
        .args(["init", "-q", "."])
        .current_dir(dir)
        .status()
        .expect("git");
    assert!(git.success(), "git init");
}

/// Every shell block of the README runs, in README order, as a reader
/// would paste it: under `bash` with `set -euo pipefail`, in a directory
/// holding the files it names (see [`reader_files`]), with `HOME` there
/// too. A block that needs what a test machine lacks (a model, a server,
/// minutes of building) says so in a `<!-- not run: WHY -->` line before
/// its fence; those are listed with their reasons, and an unmarked block
/// that fails fails the test.
#[test]
fn readme_shell_blocks_run_under_strict_bash() {
    let (root, readme, path) = readme_and_path();
    let dir = crate::common::scratch("readme-shell");
    reader_files(&dir, root);
    let mut ran = Vec::new();
    let mut skipped = Vec::new();
    for b in shell_blocks(&readme) {
        if let Some(why) = b.not_run {
            assert!(
                !why.is_empty(),
                "README:{}: `not run` with no reason",
                b.line
            );
            skipped.push(format!("README:{}: {why}", b.line));
            continue;
        }
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!("set -euo pipefail\n{}", b.body))
            .current_dir(&dir)
            .env("PATH", &path)
            .env("HOME", dir.join("home"))
            .stdin(std::process::Stdio::null())
            .output()
            .expect("run bash");
        assert!(
            out.status.success(),
            "README:{}: the block failed under `set -euo pipefail` (exit {:?}); mark it \
             `{NOT_RUN}WHY -->` if it cannot run here\n{}\nstdout:\n{}\nstderr:\n{}",
            b.line,
            out.status.code(),
            b.body,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        ran.push(b.line);
    }
    eprintln!("README shell blocks run: {ran:?}");
    eprintln!("README shell blocks not run:");
    for s in &skipped {
        eprintln!("  {s}");
    }
    assert!(ran.len() >= 4, "only {} README shell blocks ran", ran.len());
}

/// The README is the user's path, not the reference: at most 600 lines
/// (the rest lives in `docs/`).
#[test]
fn readme_is_at_most_600_lines() {
    let (_, readme, _) = readme_and_path();
    let n = readme.lines().count();
    assert!(
        n <= 600,
        "README.md has {n} lines; move reference material to docs/"
    );
}
