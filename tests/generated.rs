//! The committed man pages (`man/`) and shell completions (`completions/`)
//! must match what the clap definitions generate. `BLESS=1` regenerates them.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every generated file: path relative to the crate root, and contents.
fn generate() -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let cmd = toolcall::cli::command();
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd.clone())
        .render(&mut page)
        .expect("render man page");
    files.push((PathBuf::from("man/toolcall.1"), page));
    for sub in cmd.get_subcommands() {
        if sub.get_name() == "help" {
            continue;
        }
        let name = format!("toolcall-{}", sub.get_name());
        let sub = sub.clone().name(name.clone());
        let mut page = Vec::new();
        clap_mangen::Man::new(sub)
            .render(&mut page)
            .expect("render man page");
        files.push((PathBuf::from(format!("man/{name}.1")), page));
    }
    use clap_complete::Shell;
    for (shell, file) in [
        (Shell::Bash, "toolcall.bash"),
        (Shell::Zsh, "_toolcall"),
        (Shell::Fish, "toolcall.fish"),
        (Shell::Elvish, "toolcall.elv"),
        (Shell::PowerShell, "_toolcall.ps1"),
    ] {
        let mut out = Vec::new();
        let mut cmd = toolcall::cli::command();
        clap_complete::generate(shell, &mut cmd, "toolcall", &mut out);
        files.push((Path::new("completions").join(file), out));
    }
    files
}

#[test]
fn man_pages_and_completions_are_fresh() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut stale = Vec::new();
    for (rel, contents) in generate() {
        let path = root().join(&rel);
        if bless {
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(&path, &contents).expect("write");
        } else if std::fs::read(&path).ok().as_deref() != Some(&contents[..]) {
            stale.push(rel.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated files (run BLESS=1 cargo test --test generated): {stale:?}"
    );
}

#[test]
fn every_flag_has_help() {
    fn check(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
        for arg in cmd.get_arguments() {
            if arg.get_help().is_none() && !["help", "version"].contains(&arg.get_id().as_str()) {
                missing.push(format!("{path} --{}", arg.get_id()));
            }
        }
        for sub in cmd.get_subcommands() {
            check(sub, &format!("{path} {}", sub.get_name()), missing);
        }
    }
    let mut missing = Vec::new();
    check(&toolcall::cli::command(), "toolcall", &mut missing);
    assert!(missing.is_empty(), "flags without help: {missing:?}");
}

/// The formats table in README.md, generated from the format table.
fn readme_formats_table() -> String {
    let mut t = String::from("| id | model families | markers |\n|---|---|---|\n");
    for f in toolcall::formats::FORMATS {
        let markers: Vec<String> = f
            .markers
            .iter()
            .map(|m| {
                let m = m.replace('|', "\\|");
                if m.contains('`') {
                    format!("`` {m} ``")
                } else {
                    format!("`{m}`")
                }
            })
            .collect();
        t.push_str(&format!(
            "| `{}` | {} | {} |\n",
            f.id,
            f.families.replace('|', "\\|"),
            markers.join(" ")
        ));
    }
    t
}

/// The models table in README.md, generated from the descriptors' models.
fn readme_models_table() -> String {
    let mut t = String::from("| `--model` | format | generation prompt |\n|---|---|---|\n");
    for f in toolcall::formats::FORMATS {
        for m in f.models {
            let prompt = serde_json::to_string(m.prompt).expect("a string serialises");
            t.push_str(&format!(
                "| `{}` | `{}` | `{}` |\n",
                m.name,
                f.id,
                prompt.replace('|', "\\|")
            ));
        }
    }
    t
}

/// Replaces (BLESS=1) or checks the README part between `<!-- NAME:start`
/// and `<!-- NAME:end -->`.
fn readme_part_is_fresh(name: &str, table: String) {
    let path = root().join("README.md");
    let readme = std::fs::read_to_string(&path).expect("README.md");
    let start = readme
        .find(&format!("<!-- {name}:start"))
        .unwrap_or_else(|| panic!("{name}:start marker"));
    let start = start + readme[start..].find("-->\n").expect("end of start marker") + 4;
    let end = readme
        .find(&format!("<!-- {name}:end -->"))
        .unwrap_or_else(|| panic!("{name}:end marker"));
    if std::env::var_os("BLESS").is_some() {
        let updated = format!("{}{}{}", &readme[..start], table, &readme[end..]);
        std::fs::write(&path, updated).expect("write README.md");
    } else {
        assert_eq!(
            &readme[start..end],
            table,
            "README {name} table is stale (run BLESS=1 cargo test --test generated)"
        );
    }
}

#[test]
fn readme_formats_table_is_fresh() {
    readme_part_is_fresh("formats", readme_formats_table());
}

#[test]
fn readme_models_table_is_fresh() {
    readme_part_is_fresh("models", readme_models_table());
}
