//! One vocabulary for the flags that name a model or a family
//! (`--format`, `--model`, `render --family`): format ids, the model table's
//! names and the spellings of Ollama (`llama3.1:8b`, `gemma3`) and Hugging
//! Face (`Qwen/Qwen3-8B`), with a "did you mean" that follows the model
//! table when a name is unknown.

use crate::formats::{model_name, FormatId, FORMATS};

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
/// table ([`model_name::resolve`], the formats' models and
/// [`PROMPTED_MODELS`](crate::PROMPTED_MODELS)).
pub fn resolve(name: &str) -> Option<Named> {
    if let Some(f) = FORMATS
        .iter()
        .find(|f| f.id.as_str().eq_ignore_ascii_case(name.trim()))
    {
        return Some(Named {
            format: f.id,
            prompt: None,
        });
    }
    model_name::resolve(name).map(|r| Named {
        format: r.format,
        prompt: Some(r.prompt),
    })
}

/// Every model name known: the formats' models, then
/// [`PROMPTED_MODELS`](crate::PROMPTED_MODELS), each with its format.
pub fn models() -> impl Iterator<Item = (&'static str, FormatId, &'static str)> + Clone {
    model_name::rows()
}

/// The known name nearest to an unknown `name` ([`model_name::suggest`]):
/// a row of the same family (`qwen4` → `qwen3`, `deepseek-r2` →
/// `deepseek-r1`), else one whose family begins the same way.
pub fn nearest(name: &str) -> Option<(&'static str, FormatId)> {
    model_name::suggest(name)
}

/// The message for an unknown model or family name `name` given to `flag`.
pub fn unknown(flag: &str, name: &str) -> String {
    let hint = match nearest(name) {
        Some((known, f)) if known == f.as_str() => format!("; did you mean '{known}'?"),
        Some((known, f)) => format!("; did you mean '{known}' (format {f})?"),
        None => String::new(),
    };
    format!(
        "unknown {flag} '{name}'{hint} (toolcall formats --models lists the known models, \
         toolcall formats the formats)"
    )
}

/// A clap value parser for `--format` (`auto` or a name), `--model` and
/// `--family`: completion offers the known names, an unknown name is an
/// error with a "did you mean" from the model table.
#[derive(Clone)]
pub struct NameParser {
    /// The flag, for messages (`format`, `model`, `family`).
    what: &'static str,
    /// Offer `auto` (for `--format`).
    auto: bool,
    /// Accept only names whose format `render` has templates for.
    render: bool,
}

impl NameParser {
    /// For `--format`.
    pub fn format() -> Self {
        NameParser {
            what: "format",
            auto: true,
            render: false,
        }
    }

    /// For `--model`.
    pub fn model() -> Self {
        NameParser {
            what: "model",
            auto: false,
            render: false,
        }
    }

    /// For `render --family`.
    pub fn family() -> Self {
        NameParser {
            what: "family",
            auto: false,
            render: true,
        }
    }
}

impl clap::builder::TypedValueParser for NameParser {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        let fail = |msg: String| {
            let mut cmd = cmd.clone();
            cmd.error(clap::error::ErrorKind::InvalidValue, msg)
        };
        let Some(name) = value.to_str() else {
            return Err(fail(format!("the {} name is not UTF-8", self.what)));
        };
        if self.auto && name.trim().eq_ignore_ascii_case("auto") {
            return Ok("auto".to_string());
        }
        let Some(named) = resolve(name) else {
            return Err(fail(unknown(self.what, name)));
        };
        if self.render {
            let id = named.format.as_str();
            if crate::family(id).is_none() {
                return Err(fail(format!(
                    "'{name}' writes the {id} format, which `render` has no templates for \
                     (toolcall render families lists them)"
                )));
            }
            return Ok(id.to_string());
        }
        Ok(name.to_string())
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        use clap::builder::PossibleValue;
        let auto = self
            .auto
            .then(|| PossibleValue::new("auto").help("detect the format per document"));
        let render = self.render;
        let ids = FORMATS
            .iter()
            .filter(move |f| !render || crate::family(f.id.as_str()).is_some())
            .map(|f| PossibleValue::new(f.id.as_str()).help(f.families));
        let names = models()
            .filter(move |(_, f, _)| !render || crate::family(f.as_str()).is_some())
            .map(|(n, f, _)| PossibleValue::new(n).help(format!("format {f}")));
        let all: Vec<PossibleValue> = if self.what == "model" {
            names.collect()
        } else {
            auto.into_iter().chain(ids).chain(names).collect()
        };
        Some(Box::new(all.into_iter()))
    }
}

/// The format choice `--format NAME` stands for (`auto`, or the format a
/// name resolves to).
pub fn format_choice(name: &str) -> crate::FormatChoice {
    use crate::FormatChoice;
    if name.trim().eq_ignore_ascii_case("auto") {
        return FormatChoice::Auto;
    }
    resolve(name).map_or(FormatChoice::Auto, |n| FormatChoice::Only(n.format))
}
