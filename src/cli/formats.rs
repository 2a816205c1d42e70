//! `toolcall formats`: the formats toolcall knows.

use super::output::{FlushPolicy, Output};
use super::Outcome;
use crate::formats::FORMATS;
use clap::Args;

/// List the formats toolcall knows, with their model families and markers.
///
/// Prints an aligned table: each format id, its model families, its
/// markers and the model names `--format` also takes for it (`--format
/// qwen3`, `--format gpt-oss`); `--json` prints one `format` record per line.
///
/// Examples:
///
///   toolcall formats
///
///   toolcall formats --json | jq -r .id
///
///   toolcall formats --models
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct FormatsArgs {
    /// One JSON record per format instead of a table.
    #[arg(long)]
    pub json: bool,

    /// The known models instead: name, format and the generation prompt
    /// their chat template appends (what `--model NAME` sets).
    #[arg(long)]
    pub models: bool,
}

/// Runs `formats`.
pub fn run(args: &FormatsArgs) -> anyhow::Result<Outcome> {
    let mut out = Output::stdout(FlushPolicy::Block);
    if args.models {
        let models = crate::models();
        if args.json {
            for m in models {
                out.record(&m)?;
            }
        } else {
            let width = models.clone().map(|m| m.name.len()).max().unwrap_or(0);
            let fwidth = FORMATS
                .iter()
                .map(|f| f.id.as_str().len())
                .max()
                .unwrap_or(0);
            for m in models {
                // the prompt as a JSON string: newlines and quotes visible
                let prompt = serde_json::to_string(m.generation_prompt)?;
                let line = format!(
                    "{:width$}  {:fwidth$}  {prompt}\n",
                    m.name,
                    m.format.as_str()
                );
                out.raw(line.as_bytes())?;
            }
        }
        out.flush()?;
        return Ok(Outcome::Found);
    }
    if args.json {
        for f in crate::format_records() {
            out.record(&f)?;
        }
    } else {
        let width = FORMATS
            .iter()
            .map(|f| f.id.as_str().len())
            .max()
            .unwrap_or(0);
        for f in FORMATS {
            let mut line = format!(
                "{:width$}  {}\n{:width$}  markers: {}\n",
                f.id.as_str(),
                f.families,
                "",
                f.markers.join("  "),
            );
            // the model names --format (and --model) take for this format
            let names: Vec<&str> = f
                .models
                .iter()
                .map(|m| m.name)
                .chain(
                    crate::PROMPTED_MODELS
                        .iter()
                        .filter(|(_, id, _)| *id == f.id)
                        .map(|(n, _, _)| *n),
                )
                .filter(|n| *n != f.id.as_str())
                .collect();
            if !names.is_empty() {
                line.push_str(&format!("{:width$}  names: {}\n", "", names.join(", ")));
            }
            out.raw(line.as_bytes())?;
        }
    }
    out.flush()?;
    Ok(Outcome::Found)
}
