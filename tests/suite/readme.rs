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
