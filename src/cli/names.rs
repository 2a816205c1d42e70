//! The clap side of the names `--format`, `--model` and `render --family`
//! take: completion offers the known names, an unknown one is a usage
//! error with the core's "did you mean" (`toolcall_core::nearest`).
//! What a name means is the core's ([`crate::resolve_name`]).

use crate::formats::FORMATS;
use crate::{models, resolve_name, OptionError};

/// The message for an unknown model or family name `name` given to `flag`.
pub fn unknown(flag: &'static str, name: &str) -> String {
    hinted(&OptionError::unknown_name(flag, name))
}

/// An option error's message, with where the known names are listed when
/// it is about a name.
fn hinted(e: &OptionError) -> String {
    match e {
        OptionError::UnknownName { .. } => format!(
            "{e} (toolcall formats --models lists the known models, toolcall formats the formats)"
        ),
        _ => e.to_string(),
    }
}

/// A request the core refused, as the CLI reports it.
pub fn option_error(e: OptionError) -> anyhow::Error {
    anyhow::anyhow!("{}", hinted(&e))
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
        let Some(named) = resolve_name(name) else {
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
            .filter(move |m| !render || crate::family(m.format.as_str()).is_some())
            .map(|m| PossibleValue::new(m.name).help(format!("format {}", m.format)));
        let all: Vec<PossibleValue> = if self.what == "model" {
            names.collect()
        } else {
            auto.into_iter().chain(ids).chain(names).collect()
        };
        Some(Box::new(all.into_iter()))
    }
}
