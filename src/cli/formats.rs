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

#[derive(serde::Serialize)]
struct ModelRecord {
    #[serde(rename = "type")]
    kind: &'static str,
    name: &'static str,
    format: crate::formats::FormatId,
    generation_prompt: &'static str,
}

#[derive(serde::Serialize)]
struct FormatRecord {
    #[serde(rename = "type")]
    kind: &'static str,
    id: crate::formats::FormatId,
    families: &'static str,
    markers: &'static [&'static str],
    body: &'static str,
}

/// Runs `formats`.
pub fn run(args: &FormatsArgs) -> anyhow::Result<Outcome> {
    let mut out = Output::stdout(FlushPolicy::Block);
    if args.models {
        let models = FORMATS
            .iter()
            .flat_map(|f| f.models.iter().map(move |m| (f, m)));
        if args.json {
            for (f, m) in models {
                out.record(&ModelRecord {
                    kind: "model",
                    name: m.name,
                    format: f.id,
                    generation_prompt: m.prompt,
                })?;
            }
        } else {
            let width = models.clone().map(|(_, m)| m.name.len()).max().unwrap_or(0);
            let fwidth = FORMATS
                .iter()
                .map(|f| f.id.as_str().len())
                .max()
                .unwrap_or(0);
            for (f, m) in models {
                // the prompt as a JSON string: newlines and quotes visible
                let prompt = serde_json::to_string(m.prompt)?;
                let line = format!("{:width$}  {:fwidth$}  {prompt}\n", m.name, f.id.as_str());
                out.raw(line.as_bytes())?;
            }
        }
        out.flush()?;
        return Ok(Outcome::Found);
    }
    if args.json {
        for f in FORMATS {
            out.record(&FormatRecord {
                kind: "format",
                id: f.id,
                families: f.families,
                markers: f.markers,
                body: f.body,
            })?;
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
