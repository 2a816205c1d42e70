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
    let subs: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .filter(|n| n != "help")
        .collect();
    files.push((
        PathBuf::from("man/toolcall.1"),
        man_page(cmd.clone(), None, &subs),
    ));
    for sub in cmd.get_subcommands() {
        if sub.get_name() == "help" {
            continue;
        }
        let name = format!("toolcall-{}", sub.get_name());
        let page = man_page(sub.clone().name(name.clone()), Some(sub.get_name()), &subs);
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

/// A man page: what clap_mangen renders, with EXIT STATUS, ENVIRONMENT,
/// FILES, EXAMPLES and SEE ALSO added before VERSION (`sub`: the
/// subcommand, None for toolcall(1)). SEE ALSO names only the pages
/// generated here.
fn man_page(cmd: clap::Command, sub: Option<&str>, subs: &[String]) -> Vec<u8> {
    // a subcommand's own subcommands (`render tools`, …) have no page of
    // their own: their flags are listed on this one
    let nested: Vec<clap::Command> = match sub {
        Some(_) => cmd
            .get_subcommands()
            .filter(|c| c.get_name() != "help")
            .cloned()
            .collect(),
        None => Vec::new(),
    };
    let usage = synopsis(&cmd, sub);
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd)
        .render(&mut page)
        .expect("render man page");
    let page = String::from_utf8(page).expect("roff is UTF-8");
    let page = subcommand_entries(&page, subs);
    // clap_mangen's SYNOPSIS names the page (`toolcall-parse`) and lists
    // every flag without its argument; write the command as typed, as its
    // `--help` does: `toolcall parse [OPTIONS] [FILE]...`
    let page = match (page.find(".SH SYNOPSIS\n"), page.find("\n.SH DESCRIPTION")) {
        (Some(a), Some(b)) if a < b => format!("{}.SH SYNOPSIS\n{usage}{}", &page[..a], &page[b..]),
        _ => page,
    };
    let status = match sub {
        None | Some("parse" | "stream" | "split") => {
            "0 a call was found; 1 none was (also when the only candidates were broken: \\fB\\-\\-fail\\-on\\-error\\fR makes an error record exit 2); \
             2 a usage or I/O error, an unreadable input, or a server error in the stream. \
             A closed pipe on stdout ends quietly with 0."
        }
        Some("validate") => {
            "0 every call is valid (or there is none); 1 a call is invalid or broken; \
             2 a usage or I/O error (a missing or unreadable tools file, an unreadable input)."
        }
        Some("repair") => "0 every input was (or became) valid JSON; 1 one could not be repaired; 2 a usage or I/O error.",
        Some("render") => "0 something was rendered; 1 the input held nothing to render; 2 a usage or I/O error.",
        Some("exec") => "0 every call completed; 1 any did not (denied, failed, timed out, invalid); 2 a usage or I/O error; 130 interrupted.",
        Some("loop") => "0 the conversation completed; 1 it stopped at the iteration limit; 2 an error (the model command failed, a usage or I/O error); 124 the request timed out; 130 cancelled.",
        _ => "0 success; 2 a usage or I/O error.",
    };
    let examples = match sub {
        None => {
            "toolcall parse reply.txt\n\
                 ollama run qwen3 \"...\" | toolcall stream\n\
                 toolcall validate \\-\\-tools tools.json transcripts/\n\
                 toolcall parse \\-\\-fail\\-on\\-error replies/*.txt > calls.ndjson"
        }
        Some("parse") => {
            "toolcall parse reply.txt\n\
                 toolcall parse \\-q reply.txt && echo \"the model called a tool\"\n\
                 toolcall parse \\-l \\-j4 transcripts/\n\
                 toolcall parse \\-\\-field '.choices[0].message.content' log.jsonl\n\
                 toolcall parse \\-\\-label reply.txt < reply.txt | diff \\- reply.expected"
        }
        Some("stream") => {
            "ollama run qwen3 \"...\" | toolcall stream | jq \\-c 'select(.type==\"tool_call\")'\n\
                 curl \\-sN localhost:11434/api/chat \\-d @req.json | toolcall stream"
        }
        Some("split") => {
            "toolcall split \\-\\-text reply.txt\n\
                 toolcall split reply.txt | jq \\-r .reasoning"
        }
        Some("validate") => {
            "toolcall validate \\-\\-tools tools.json transcripts/*.txt\n\
                 toolcall parse reply.txt | toolcall validate \\-\\-tools tools.json\n\
                 toolcall validate \\-q \\-\\-tools tools.json reply.txt || echo invalid"
        }
        Some("repair") => {
            "printf '%s' '{\"a\": 1,}' | toolcall repair\n\
                 toolcall repair \\-\\-report broken.json"
        }
        Some("formats") => {
            "toolcall formats\n\
                 toolcall formats \\-\\-models\n\
                 toolcall formats \\-\\-json | jq \\-r .id"
        }
        Some("render") => {
            "toolcall render tools \\-\\-family hermes < tools.json\n\
                 echo sunny | toolcall render result \\-\\-family harmony \\-\\-name get_weather"
        }
        Some("exec") => {
            "toolcall parse \\-\\-tools tools.json reply.txt | toolcall exec \\-\\-tools tools.json\n\
                 toolcall exec \\-\\-tools tools.json \\-\\-approve deny < reply.txt\n\
                 toolcall exec \\-\\-tools tools.json \\-\\-bind get_weather='python3 weather.py' \\-\\-dry\\-run reply.txt"
        }
        Some("loop") => {
            "toolcall loop \\-\\-model\\-cmd 'ollama run qwen3' \\-\\-tools tools.json \"What is the weather in Paris?\"\n\
                 toolcall loop \\-\\-model\\-cmd examples/agent/model.sh \\-\\-tools examples/agent/tools.json \\-\\-text \"Hi\""
        }
        Some("completions") => {
            "toolcall completions bash > ~/.local/share/bash\\-completion/completions/toolcall\n\
                 toolcall completions zsh > ~/.zfunc/_toolcall"
        }
        Some(_) => "",
    };
    let mut extra = String::new();
    for n in nested {
        let title = format!(
            ".SH \"{} {} OPTIONS\"",
            sub.unwrap_or_default().to_uppercase(),
            n.get_name().to_uppercase()
        );
        let mut opts = Vec::new();
        clap_mangen::Man::new(n)
            .render_options_section(&mut opts)
            .expect("render options");
        let opts = String::from_utf8(opts).expect("roff is UTF-8");
        extra.push_str(&opts.replacen(".SH OPTIONS", &title, 1));
    }
    extra.push_str(".SH \"EXIT STATUS\"\n");
    extra.push_str(status);
    extra.push_str("\n.SH ENVIRONMENT\n.TP\n\\fBNO_COLOR\\fR\n");
    extra.push_str(
        "When set and not empty, \\fBvalidate \\-\\-color auto\\fR (the default) does not colour diagnostics.\n",
    );
    extra.push_str(".TP\n\\fBTOOLCALL_ATTEMPT\\fR\n");
    extra.push_str(
        "Set for the command of \\fBvalidate \\-\\-retry\\-cmd\\fR: the attempt number, from 1.\n",
    );
    extra.push_str(".SH FILES\n.TP\n\\fB.toolcall.json5\\fR\n");
    extra.push_str(
        "The configuration file (JSON5), looked for in the current directory, then in each \
         directory above it; the nearest is used. \\fB\\-\\-config\\fR \\fIFILE\\fR names one, \
         \\fB\\-\\-no\\-config\\fR uses none, \\fB\\-v\\fR says which one is in use. \
         Flags override it.\n",
    );
    if !examples.is_empty() {
        extra.push_str(".SH EXAMPLES\n");
        for line in examples.split('\n') {
            extra.push_str(".PP\n.nf\n");
            extra.push_str(line);
            extra.push_str("\n.fi\n");
        }
    }
    extra.push_str(".SH \"SEE ALSO\"\n");
    let mut see: Vec<String> = Vec::new();
    if sub.is_some() {
        see.push("\\fBtoolcall\\fR(1)".into());
    }
    for s in subs {
        if Some(s.as_str()) != sub {
            see.push(format!("\\fBtoolcall\\-{s}\\fR(1)"));
        }
    }
    extra.push_str(&see.join(", "));
    extra.push('\n');
    let page = match page.find("\n.SH VERSION") {
        Some(i) => format!("{}\n{}{}", &page[..i], extra, &page[i + 1..]),
        None => format!("{page}{extra}"),
    };
    page.into_bytes()
}

/// The usage line of `toolcall SUB` (or `toolcall`) as roff: the command
/// in bold, `OPTIONS` and the operands in italics.
fn synopsis(cmd: &clap::Command, sub: Option<&str>) -> String {
    let bin = match sub {
        Some(s) => format!("toolcall {s}"),
        None => "toolcall".to_string(),
    };
    let usage = cmd.clone().bin_name(&bin).render_usage().to_string();
    let mut out: Vec<String> = Vec::new();
    for line in usage.lines() {
        let line = line.trim().trim_start_matches("Usage:").trim();
        let Some(rest) = line.strip_prefix(bin.as_str()) else {
            continue;
        };
        let mut words = format!("\\fB{}\\fR", bin.replace('-', "\\-"));
        for w in rest.split_whitespace() {
            let w = w.replace('-', "\\-");
            let (open, rest) = w.split_at(w.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(0));
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            words.push_str(&format!(" {open}\\fI{}\\fR{}", &rest[..end], &rest[end..]));
        }
        out.push(words);
    }
    out.join("\n.br\n")
}

#[test]
fn man_synopsis_is_the_command_as_typed() {
    let page = generate()
        .into_iter()
        .find(|(p, _)| p.ends_with("toolcall-parse.1"))
        .map(|(_, b)| String::from_utf8(b).expect("utf-8"))
        .expect("parse page");
    let syn = page
        .split(".SH SYNOPSIS\n")
        .nth(1)
        .and_then(|r| r.split("\n.SH").next())
        .expect("SYNOPSIS");
    assert_eq!(
        syn,
        "\\fBtoolcall parse\\fR [\\fIOPTIONS\\fR] [\\fIFILE\\fR]..."
    );
    // and each option is listed with its argument further down
    assert!(
        page.contains("\\fB\\-\\-field\\fR \\fI<PATH>\\fR"),
        "{page}"
    );
}

/// The SUBCOMMANDS section as clap_mangen writes it names a page per
/// entry (`toolcall\-render\-tools(1)`, `toolcall\-help(1)`); only the
/// subcommands in `subs` have one. A nested subcommand is named as typed
/// (`toolcall render tools`, its flags further down), and `help` entries
/// are dropped.
fn subcommand_entries(page: &str, subs: &[String]) -> String {
    let lines: Vec<&str> = page.lines().collect();
    let mut out: Vec<String> = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        let line = lines[k];
        let entry = line
            .strip_prefix("toolcall\\-")
            .and_then(|r| r.strip_suffix("(1)"));
        match entry {
            Some(name) if !subs.iter().any(|s| s.replace('-', "\\-") == name) => {
                let words = name.replace("\\-", " ");
                if words.ends_with("help") {
                    // drop the .TP before, this line and its description
                    if out.last().is_some_and(|l| l == ".TP") {
                        out.pop();
                    }
                    k += 2;
                    continue;
                }
                out.push(format!("\\fBtoolcall {words}\\fR"));
            }
            _ => out.push(line.to_string()),
        }
        k += 1;
    }
    let mut joined = out.join("\n");
    joined.push('\n');
    joined
}

#[test]
fn man_pages_have_the_sections_a_reader_looks_for() {
    let cmd = toolcall::cli::command();
    let subs: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .filter(|n| n != "help")
        .collect();
    for (rel, page) in generate() {
        if !rel.starts_with("man") {
            continue;
        }
        let page = String::from_utf8(page).expect("utf-8");
        for section in [
            "NAME",
            "SYNOPSIS",
            "DESCRIPTION",
            "\"EXIT STATUS\"",
            "ENVIRONMENT",
            "FILES",
            "EXAMPLES",
            "\"SEE ALSO\"",
        ] {
            assert!(
                page.contains(&format!("\n.SH {section}\n")),
                "{}: no {section} section",
                rel.display()
            );
        }
        // every page named anywhere exists (issue 36: toolcall-help(1),
        // toolcall-render-tools(1))
        // (SEE ALSO's list is checked below)
        for line in page.lines().filter(|l| !l.contains(", ")) {
            if let Some(name) = line
                .trim_start_matches("\\fB")
                .strip_suffix("(1)")
                .map(|n| n.trim_end_matches("\\fR").replace("\\-", "-"))
            {
                assert!(
                    root().join(format!("man/{name}.1")).is_file(),
                    "{}: names {name}(1), which has no page",
                    rel.display()
                );
            }
        }
        // SEE ALSO names only pages that exist
        let see = &page[page.find(".SH \"SEE ALSO\"").expect("see also")..];
        let see = see[see.find('\n').expect("line") + 1..]
            .lines()
            .next()
            .unwrap_or("");
        for entry in see.split(", ") {
            let name = entry
                .trim_start_matches("\\fB")
                .split("\\fR")
                .next()
                .unwrap_or("")
                .replace("\\-", "-");
            assert!(
                root().join(format!("man/{name}.1")).is_file(),
                "{}: SEE ALSO names {name}, which has no page",
                rel.display()
            );
        }
    }
    // toolcall(1)'s NAME line names every subcommand (for apropos)
    let top = String::from_utf8(generate().remove(0).1).expect("utf-8");
    let name_line = top
        .split("\n.SH NAME\n")
        .nth(1)
        .and_then(|r| r.lines().next())
        .expect("NAME line");
    for s in &subs {
        assert!(
            name_line.contains(s.as_str()),
            "NAME line lacks {s}: {name_line}"
        );
    }
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
        "stale generated files (run BLESS=1 cargo test --test integration generated): {stale:?}"
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

/// The formats table in docs/models.md, generated from the format table.
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

/// The models table in docs/models.md, generated from the descriptors' models.
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
    // models with no tool format of their own, after the formats' names
    for (name, id, prompt) in toolcall::PROMPTED_MODELS {
        let prompt = serde_json::to_string(prompt).expect("a string serialises");
        t.push_str(&format!(
            "| `{name}` | `{id}` | `{}` |\n",
            prompt.replace('|', "\\|")
        ));
    }
    t
}

/// Replaces (BLESS=1) or checks the README part between `<!-- NAME:start`
/// and `<!-- NAME:end -->`.
fn readme_part_is_fresh(name: &str, table: String) {
    let path = root().join("docs/models.md");
    let readme = std::fs::read_to_string(&path).expect("docs/models.md");
    let start = readme
        .find(&format!("<!-- {name}:start"))
        .unwrap_or_else(|| panic!("{name}:start marker"));
    let start = start + readme[start..].find("-->\n").expect("end of start marker") + 4;
    let end = readme
        .find(&format!("<!-- {name}:end -->"))
        .unwrap_or_else(|| panic!("{name}:end marker"));
    if std::env::var_os("BLESS").is_some() {
        let updated = format!("{}{}{}", &readme[..start], table, &readme[end..]);
        std::fs::write(&path, updated).expect("write docs/models.md");
    } else {
        assert_eq!(
            &readme[start..end],
            table,
            "README {name} table is stale (run BLESS=1 cargo test --test integration generated)"
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

/// The command line of a run builds only its subcommand's arguments
/// (`cli::lean_command`, issue 48): every subcommand has a lean command,
/// and its help there is the help of the whole command, word for word.
#[test]
fn each_subcommand_reads_the_same_alone() {
    let mut full = toolcall::cli::command();
    full.build();
    for sub in full.get_subcommands() {
        let name = sub.get_name();
        if name == "help" {
            continue;
        }
        let mut lean = toolcall::cli::lean_command(name)
            .unwrap_or_else(|| panic!("no lean command for {name}"));
        lean.build();
        let alone = lean.find_subcommand(name).expect("the subcommand");
        assert_eq!(
            alone.clone().render_long_help().to_string(),
            sub.clone().render_long_help().to_string(),
            "{name}"
        );
        assert_eq!(
            alone.clone().render_usage().to_string(),
            sub.clone().render_usage().to_string(),
            "{name}"
        );
    }
    assert!(toolcall::cli::lean_command("help").is_none());
}
