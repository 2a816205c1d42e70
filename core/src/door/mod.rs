//! The front door: everything between what a caller asks for and the
//! records that come out, so that the command line and every binding
//! (Python, Node) are thin shells that cannot disagree.
//!
//! * [`Options`] is the request in plain values (strings, numbers,
//!   booleans), serde-readable, with every default written once
//!   ([`Options::default`], from [`Config::default`] and
//!   [`WireConfig::default`]).
//! * [`Options::resolve`] turns it into [`Resolved`] (the engine's
//!   [`Config`] and the [`WireConfig`]): format ids, model names, prompted
//!   models and the "did you mean" for an unknown one ([`names`]), the
//!   finish reason, the input kind, the bounds clamped. Failures are an
//!   [`OptionError`].
//! * [`read`] reads one whole input (model text, a server's wire stream,
//!   or conversations written as message lists) into a [`Document`];
//!   [`Reader`] is the same fed chunk by chunk.
//! * Records are the core's own types ([`ToolCall`](crate::ToolCall),
//!   [`ErrorRecord`](crate::ErrorRecord), [`Split`](crate::Split),
//!   [`FormatRecord`], [`ModelRecord`]), serialised by serde: one schema.

pub mod names;
mod read;
mod stream_records;

pub use names::{FormatRecord, ModelRecord, Named};
pub use read::{conversation, conversations, read, session_block, At, Document, Reader, Record};
pub use stream_records::{write_done, StreamRecorder};

use crate::config::{Config, FormatChoice};
use crate::wire::{InputKind, WireConfig};
use serde::{Deserialize, Serialize};

/// Largest value of a bound on what is held in memory (`max_block`,
/// `max_buffer`, `think_window`): 4 GiB.
pub const MAX_HELD: u64 = 1 << 32;

/// What a caller asks for: the flags of `toolcall parse` under their
/// option names, as plain values any binding can pass (a Python keyword
/// argument, a JavaScript object's field, a JSON object's key).
///
/// [`Options::default`] holds every default, once. Read from JSON (serde)
/// a missing field takes its default and an unknown one is an error.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct Options {
    /// `auto` (detect per document), a format id or any model name.
    pub format: String,
    /// The model that wrote the output: its format (unless `format` names
    /// one) and its default generation prompt (unless
    /// `generation_prompt` is given).
    pub model: Option<String>,
    /// The text the chat template appended after the last message.
    pub generation_prompt: Option<String>,
    /// Why the output ended: `stop` or `length` (cut at the token limit).
    pub finish_reason: Option<String>,
    /// What the input is: `auto`, `text`, a server's stream (`ollama`,
    /// `openai`, `llama-server`, `terminal`) or `messages`
    /// (conversations written as message lists).
    pub input: String,
    /// Treat call-shaped ```` ```json ```` fences as calls.
    pub json_blocks: bool,
    /// Treat call-shaped JSON inline in prose as calls.
    pub inline_json: bool,
    /// Repair broken argument JSON.
    pub repair: bool,
    /// Largest broken argument JSON repaired, in bytes.
    pub repair_max_size: usize,
    /// Time budget of one repair, in milliseconds (`0`: none).
    pub repair_timeout_ms: u64,
    /// Report calls drafted inside reasoning.
    pub reasoning_calls: bool,
    /// The output starts inside a think block the prompt opened.
    pub think_open: bool,
    /// Bytes at a document's start searched for a reasoning closer with no
    /// opener (`0`: off); never more than `max_block`. Unset: the whole
    /// document when it is read whole ([`read`],
    /// [`WHOLE_DOCUMENT_THINK_WINDOW`](crate::WHOLE_DOCUMENT_THINK_WINDOW)),
    /// off when it is read as it arrives ([`Resolved::streaming`],
    /// [`DEFAULT_THINK_WINDOW`](crate::DEFAULT_THINK_WINDOW)).
    pub think_window: Option<usize>,
    /// Largest candidate block held back while undecided, in bytes.
    pub max_block: usize,
    /// Most bytes a wire input holds for one line or the open calls.
    pub max_buffer: usize,
    /// Most error records of one block; the last sums up the rest.
    pub max_errors_per_block: usize,
    /// The document's name in records (`-` for stdin).
    pub doc: String,
}

impl Default for Options {
    fn default() -> Self {
        let c = Config::default();
        let w = WireConfig::default();
        Options {
            format: "auto".to_string(),
            model: None,
            generation_prompt: None,
            finish_reason: None,
            input: w.input.name().to_string(),
            json_blocks: c.json_blocks,
            inline_json: c.inline_json,
            repair: c.repair,
            repair_max_size: c.repair_max_bytes,
            repair_timeout_ms: c.repair_timeout_ms,
            reasoning_calls: c.reasoning_calls,
            think_open: c.think_open,
            think_window: None,
            max_block: c.max_block,
            max_buffer: w.max_buffer,
            max_errors_per_block: c.max_block_errors,
            doc: c.doc,
        }
    }
}

/// The settings a request resolves to: the engine's and the wire
/// decoder's, for a document read whole. Built by [`Options::resolve`]; a
/// front end may adjust the fields it owns (tool names from a tools file, a
/// configuration file's values) before reading, and reads as the output
/// arrives with [`Resolved::streaming`].
#[derive(Clone, Debug)]
pub struct Resolved {
    /// The engine's settings.
    pub config: Config,
    /// What the input is and how much a wire decoder may hold.
    pub wire: WireConfig,
    /// The `think_window` asked for, `None` for the reading's default.
    think_window: Option<usize>,
}

impl Resolved {
    /// The same settings for output read as it arrives (`stream`, `exec`,
    /// `loop`, the bindings' stream parsers): unless `think_window` was
    /// given, no closer is looked for
    /// ([`DEFAULT_THINK_WINDOW`](crate::DEFAULT_THINK_WINDOW)), so prose
    /// is handed on from the first byte. Under the same window a stream
    /// and a whole read give the same records.
    pub fn streaming(mut self) -> Resolved {
        let window = self
            .think_window
            .unwrap_or(crate::config::DEFAULT_THINK_WINDOW);
        self.config.think_window = window.min(self.config.max_block);
        self
    }

    /// True when the input is conversations written as message lists
    /// (`input = "messages"`).
    pub fn conversations(&self) -> bool {
        self.wire.input == InputKind::Messages
    }

    /// The same settings for a document named `doc`.
    pub fn for_doc(&self, doc: &str) -> Resolved {
        let mut r = self.clone();
        r.config.doc = doc.to_string();
        r
    }

    /// The settings with the tool names a tools definition declares: a
    /// damaged call naming one of them is recovered on weaker evidence.
    pub fn with_tool_names<I: IntoIterator<Item = String>>(mut self, names: I) -> Resolved {
        let mut names: Vec<String> = names.into_iter().collect();
        names.sort_unstable();
        names.dedup();
        self.config.tool_names = Some(names.into());
        self
    }
}

/// A request that cannot be resolved. Its `Display` is the message a
/// front end shows (a front end may add where to look the names up).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OptionError {
    /// A format or model name that is neither a format id nor a known
    /// model.
    UnknownName {
        /// The option: `format` or `model`.
        option: &'static str,
        /// The name given.
        name: String,
        /// The nearest known name and its format, for a "did you mean".
        nearest: Option<(&'static str, crate::formats::FormatId)>,
    },
    /// An input kind that is not one of [`InputKind::ALL`].
    UnknownInput(String),
    /// A finish reason other than `stop` or `length`.
    UnknownFinishReason(String),
    /// A bound outside its range.
    OutOfRange {
        /// The option.
        option: &'static str,
        /// The value given.
        value: u64,
        /// The least value allowed.
        min: u64,
        /// The largest value allowed.
        max: u64,
    },
    /// An option whose value is of the wrong type or not allowed by it (a
    /// negative or fractional size, a string for a number), or an option
    /// that does not exist: serde's message, with the option named.
    Invalid {
        /// The option as given (`options` when no one option is at fault).
        option: String,
        /// What is wrong with its value.
        message: String,
    },
}

impl OptionError {
    /// The error for an unknown name given to `option`, with the nearest
    /// known name.
    pub fn unknown_name(option: &'static str, name: &str) -> OptionError {
        OptionError::UnknownName {
            option,
            name: name.to_string(),
            nearest: names::nearest(name),
        }
    }
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionError::UnknownName {
                option,
                name,
                nearest,
            } => {
                write!(f, "unknown {option} '{name}'")?;
                match nearest {
                    Some((known, id)) if *known == id.as_str() => {
                        write!(f, "; did you mean '{known}'?")
                    }
                    Some((known, id)) => write!(f, "; did you mean '{known}' (format {id})?"),
                    None => Ok(()),
                }
            }
            OptionError::UnknownInput(kind) => {
                let kinds: Vec<&str> = InputKind::ALL.iter().map(|k| k.name()).collect();
                write!(
                    f,
                    "unknown input kind '{kind}' (expected one of {})",
                    kinds.join(", ")
                )
            }
            OptionError::UnknownFinishReason(r) => {
                write!(
                    f,
                    "unknown finish reason '{r}' (expected 'stop' or 'length')"
                )
            }
            OptionError::OutOfRange {
                option,
                value,
                min,
                max,
            } => write!(f, "{option} {value} is out of range ({min} to {max})"),
            OptionError::Invalid { option, message } => write!(f, "{option}: {message}"),
        }
    }
}

impl std::error::Error for OptionError {}

/// Reads an options object (the core's [`Options`], or the tools
/// options) from JSON, as the bindings pass their keyword arguments or
/// object: on a fault, the error names the option at fault (serde's own
/// message says only "invalid value: integer `-1`, expected usize"), so
/// every front end reports a bad option alike.
pub(crate) fn read_options<T: serde::de::DeserializeOwned>(
    value: serde_json::Value,
) -> Result<T, OptionError> {
    let whole = match serde_json::from_value::<T>(value.clone()) {
        Ok(t) => return Ok(t),
        Err(e) => e.to_string(),
    };
    if let serde_json::Value::Object(m) = value {
        // the first option that fails alone is the one at fault
        for (k, v) in m {
            let one = serde_json::Value::Object(std::iter::once((k.clone(), v)).collect());
            if serde_json::from_value::<T>(one.clone()).is_err() {
                // read again from text: a number read from a value says only
                // "invalid number" (arbitrary precision), from text it says
                // what was given and what was expected
                let message = match serde_json::from_str::<T>(&one.to_string()) {
                    Err(e) if e.line() > 0 => {
                        let m = e.to_string();
                        let at = format!(" at line {} column {}", e.line(), e.column());
                        m.strip_suffix(&at).map_or(m.clone(), str::to_string)
                    }
                    Err(e) => e.to_string(),
                    Ok(_) => whole.clone(),
                };
                return Err(OptionError::Invalid { option: k, message });
            }
        }
    }
    Err(OptionError::Invalid {
        option: "options".into(),
        message: whole,
    })
}

/// A bound in `min..=MAX_HELD`.
fn bounded(option: &'static str, value: usize, min: u64) -> Result<usize, OptionError> {
    counted(option, value, min, MAX_HELD)
}

/// Largest value of `max_errors_per_block`.
pub const MAX_ERRORS_PER_BLOCK: u64 = 1_000_000;

/// A count in `min..=max`.
fn counted(option: &'static str, value: usize, min: u64, max: u64) -> Result<usize, OptionError> {
    let v = value as u64;
    if v < min || v > max {
        return Err(OptionError::OutOfRange {
            option,
            value: v,
            min,
            max,
        });
    }
    Ok(value)
}

impl Options {
    /// Reads the options from a JSON object (a missing field takes its
    /// default); a value of the wrong type, out of its type's range, or an
    /// unknown field is an [`OptionError::Invalid`] naming the option
    /// (for a size of -1: "max_block: invalid value: integer -1, expected usize").
    pub fn from_value(value: serde_json::Value) -> Result<Options, OptionError> {
        read_options(value)
    }

    /// Resolves the request: names to a format and generation prompt,
    /// the finish reason and input kind to their values, the bounds
    /// checked and `think_window` clamped to `max_block` (what is held
    /// back stays within that bound).
    pub fn resolve(&self) -> Result<Resolved, OptionError> {
        let mut format = names::format_choice(&self.format)
            .ok_or_else(|| OptionError::unknown_name("format", &self.format))?;
        let mut generation_prompt = self.generation_prompt.clone().map(String::into_bytes);
        if let Some(name) = &self.model {
            let named = names::resolve_name(name)
                .ok_or_else(|| OptionError::unknown_name("model", name))?;
            if format == FormatChoice::Auto {
                format = FormatChoice::Only(named.format);
            }
            if generation_prompt.is_none() {
                generation_prompt = named.prompt.map(|p| p.as_bytes().to_vec());
            }
        }
        let truncated = match self.finish_reason.as_deref() {
            None | Some("stop") => false,
            Some("length") => true,
            Some(other) => return Err(OptionError::UnknownFinishReason(other.to_string())),
        };
        let input = InputKind::from_str_arg(&self.input)
            .map_err(|_| OptionError::UnknownInput(self.input.clone()))?;
        let max_block = bounded("max_block", self.max_block, 1)?;
        let max_buffer = bounded("max_buffer", self.max_buffer, 1)?;
        let max_block_errors = counted(
            "max_errors_per_block",
            self.max_errors_per_block,
            1,
            MAX_ERRORS_PER_BLOCK,
        )?;
        let think_window = match self.think_window {
            Some(w) => Some(bounded("think_window", w, 0)?),
            None => None,
        };
        let config = Config {
            doc: self.doc.clone(),
            format,
            json_blocks: self.json_blocks,
            inline_json: self.inline_json,
            reasoning_calls: self.reasoning_calls,
            max_block,
            max_block_errors,
            repair: self.repair,
            repair_timeout_ms: self.repair_timeout_ms,
            repair_max_bytes: self.repair_max_size,
            think_open: self.think_open,
            // held back while undecided: within max_block
            think_window: think_window
                .unwrap_or(crate::config::WHOLE_DOCUMENT_THINK_WINDOW)
                .min(max_block),
            generation_prompt,
            truncated,
            tool_names: None,
            turn: 0,
        };
        Ok(Resolved {
            config,
            wire: WireConfig { input, max_buffer },
            think_window,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_resolve_to_the_engines_defaults() {
        let r = Options::default().resolve().unwrap();
        let c = Config::default();
        assert_eq!(r.config.max_block, c.max_block);
        // a whole document is searched for a lone closer, within max_block
        assert_eq!(r.config.think_window, c.max_block);
        assert_eq!(r.wire, WireConfig::default());
        // read as it arrives: the engine's default, off
        assert_eq!(r.streaming().config.think_window, c.think_window);
    }

    #[test]
    fn a_model_sets_format_and_prompt_unless_given() {
        let o = Options {
            model: Some("gemma-3".into()),
            ..Options::default()
        };
        let r = o.resolve().unwrap();
        let pythonic = crate::formats::FormatId::from_id("pythonic").unwrap();
        assert_eq!(r.config.format, FormatChoice::Only(pythonic));
        assert!(r.config.generation_prompt.is_some());
        let o = Options {
            model: Some("hermes".into()),
            generation_prompt: Some("x".into()),
            ..Options::default()
        };
        let r = o.resolve().unwrap();
        assert_eq!(r.config.generation_prompt.as_deref(), Some(&b"x"[..]));
    }

    #[test]
    fn unknown_names_say_what_is_near() {
        let o = Options {
            model: Some("qwen4".into()),
            ..Options::default()
        };
        let e = o.resolve().unwrap_err().to_string();
        assert!(
            e.contains("unknown model 'qwen4'; did you mean 'qwen3'"),
            "{e}"
        );
        let o = Options {
            finish_reason: Some("tired".into()),
            ..Options::default()
        };
        assert!(matches!(
            o.resolve(),
            Err(OptionError::UnknownFinishReason(_))
        ));
    }

    #[test]
    fn a_bad_option_value_is_named() {
        let e = Options::from_value(serde_json::json!({"model": "qwen3", "max_block": -1}))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.starts_with("max_block: invalid value"), "{e}");
        let e = Options::from_value(serde_json::json!({"think_window": "big"}))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.starts_with("think_window: invalid type"), "{e}");
        let e = Options::from_value(serde_json::json!({"max_blokc": 1}))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.starts_with("max_blokc: unknown field `max_blokc`"), "{e}");
        let e = Options::from_value(serde_json::json!([1]))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.starts_with("options: invalid type"), "{e}");
        let e = crate::validate::registry::ToolsOptions::from_value(
            serde_json::json!({"max_tools_size": 1.5}),
        )
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
        assert!(e.starts_with("max_tools_size: invalid type"), "{e}");
        assert!(Options::from_value(serde_json::json!({"max_block": 100})).is_ok());
    }

    #[test]
    fn bounds_are_checked_and_the_window_clamped() {
        let o = Options {
            max_block: 0,
            ..Options::default()
        };
        assert!(matches!(o.resolve(), Err(OptionError::OutOfRange { .. })));
        let o = Options {
            max_block: 100,
            think_window: Some(8192),
            ..Options::default()
        };
        assert_eq!(o.resolve().unwrap().config.think_window, 100);
        assert_eq!(o.resolve().unwrap().streaming().config.think_window, 100);
        let o = Options {
            think_window: Some(0),
            ..Options::default()
        };
        assert_eq!(o.resolve().unwrap().config.think_window, 0);
    }

    #[test]
    fn options_read_from_json_take_defaults_and_refuse_unknown_keys() {
        let o: Options = serde_json::from_str(r#"{"model": "qwen3"}"#).unwrap();
        assert_eq!(o.max_block, Options::default().max_block);
        assert!(serde_json::from_str::<Options>(r#"{"modle": "qwen3"}"#).is_err());
    }

    #[test]
    fn the_error_cap_is_read_from_json_and_range_checked() {
        let o: Options = serde_json::from_str(r#"{"max_errors_per_block": 3}"#).unwrap();
        assert_eq!(o.resolve().unwrap().config.max_block_errors, 3);
        assert_eq!(
            Options::default()
                .resolve()
                .unwrap()
                .config
                .max_block_errors,
            crate::engine::MAX_BLOCK_ERRORS
        );
        for bad in [0, 1_000_001] {
            let o = Options {
                max_errors_per_block: bad,
                ..Options::default()
            };
            let e = o.resolve().unwrap_err().to_string();
            assert!(e.starts_with("max_errors_per_block"), "{e}");
        }
    }
}
