//! One vocabulary for the names that pick a model or a family (`format`,
//! `model`, `render`'s family): format ids, the model table's names and
//! the spellings of Ollama (`llama3.1:8b`, `gemma3`) and Hugging Face
//! (`Qwen/Qwen3-8B`), with a "did you mean" that follows the model table
//! when a name is unknown. Reading a served name is
//! [`model_name`]'s (through [`registry::model`] and
//! [`registry::prompted_model`]); this module only puts the lookups in
//! order.

use crate::config::FormatChoice;
use crate::formats::registry::PROMPTED_MODELS;
use crate::formats::{model_name, registry, FormatId, FORMATS};

/// What a name resolves to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Named {
    /// The format the model writes (or the format the id names).
    pub format: FormatId,
    /// The model's default generation prompt (`None` for a format id).
    pub prompt: Option<&'static str>,
}

/// Resolves `name`: a format id (ASCII case ignored), else a served model
/// name read into family, version and variants and resolved to the model
/// table ([`registry::model`]), then to [`PROMPTED_MODELS`]
/// ([`registry::prompted_model`]); see [`model_name`].
pub fn resolve_name(name: &str) -> Option<Named> {
    if let Some(f) = FORMATS
        .iter()
        .find(|f| f.id.as_str().eq_ignore_ascii_case(name.trim()))
    {
        return Some(Named {
            format: f.id,
            prompt: None,
        });
    }
    if let Some((f, m)) = registry::model(name) {
        return Some(Named {
            format: f.id,
            prompt: Some(m.prompt),
        });
    }
    registry::prompted_model(name).map(|(format, prompt)| Named {
        format,
        prompt: Some(prompt),
    })
}

/// The format choice a `format` name stands for: `auto`, or the format a
/// name resolves to; `None` for an unknown name.
pub fn format_choice(name: &str) -> Option<FormatChoice> {
    if name.trim().eq_ignore_ascii_case("auto") {
        return Some(FormatChoice::Auto);
    }
    resolve_name(name).map(|n| FormatChoice::Only(n.format))
}

/// One known model: its name, the format it writes and the generation
/// prompt its chat template appends (`toolcall formats --models --json`
/// writes one per line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ModelRecord {
    /// Always `"model"`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The model name.
    pub name: &'static str,
    /// The format its output is written in.
    pub format: FormatId,
    /// The generation prompt its chat template appends by default.
    pub generation_prompt: &'static str,
}

/// Every model name known: the formats' models, then [`PROMPTED_MODELS`],
/// each with its format.
pub fn models() -> impl Iterator<Item = ModelRecord> + Clone {
    let record = |name, format, generation_prompt| ModelRecord {
        kind: "model",
        name,
        format,
        generation_prompt,
    };
    FORMATS
        .iter()
        .flat_map(move |f| f.models.iter().map(move |m| record(m.name, f.id, m.prompt)))
        .chain(
            PROMPTED_MODELS
                .iter()
                .map(move |&(n, f, p)| record(n, f, p)),
        )
}

/// The known name nearest to an unknown `name`, for a "did you mean"
/// ([`model_name::suggest`]): a row of the same family (`qwen4` →
/// `qwen3`, `deepseek-r2` → `deepseek-r1`), else one whose family begins
/// the same way. `None` when nothing is close.
pub fn nearest(name: &str) -> Option<(&'static str, FormatId)> {
    model_name::suggest(name)
}

/// The format record of `toolcall formats --json` and the bindings'
/// `formats()`: one schema for every front end.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FormatRecord {
    /// Always `"format"`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The format id.
    pub id: FormatId,
    /// The model families that write it.
    pub families: &'static str,
    /// Its markers.
    pub markers: &'static [&'static str],
    /// What its call bodies look like.
    pub body: &'static str,
}

/// The format table as records, in registry order.
pub fn format_records() -> impl Iterator<Item = FormatRecord> {
    FORMATS.iter().map(|f| FormatRecord {
        kind: "format",
        id: f.id,
        families: f.families,
        markers: f.markers,
        body: f.body,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_models_and_prompted_models_resolve() {
        let hermes = resolve_name("HERMES").map(|n| (n.format.as_str(), n.prompt));
        assert_eq!(hermes, Some(("hermes", None)));
        let gemma = resolve_name("gemma-3").map(|n| n.format.as_str());
        assert_eq!(gemma, Some("pythonic"));
        assert_eq!(format_choice(" auto "), Some(FormatChoice::Auto));
        assert_eq!(resolve_name("no-such-model"), None);
    }

    #[test]
    fn nearest_follows_the_model_table() {
        assert_eq!(nearest("qwen4").map(|(n, _)| n), Some("qwen3"));
        assert_eq!(nearest("zzz"), None);
    }
}
