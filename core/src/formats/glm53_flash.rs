//! `glm53-flash`: GLM-5.3-Flash — `<![NAME>{"key": "value"}`, one call per
//! tag, the arguments a JSON object right after it.
//!
//! The tag may carry a display path before the name (`<![Weather/get_weather>`):
//! the name is what follows the last `/`. The call ends with its JSON value;
//! several calls follow each other directly. `<![CDATA[` and other SGML
//! fragments (`<![unexpected[`) are text: a call tag is a name, then `>`, then
//! a JSON value.

use super::shared::json::JsonThenClose;
use super::shared::section::json_arguments;
use super::{ids, Blocks};
use super::{Action, BlockResult, Format, Model, Opener, ParseCx, Probe, ProbeCx};
use crate::call::ParsedCall;
use crate::render::{CallSpec, Prompt};
use crate::scan;

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::GLM53_FLASH,
    "GLM-5.3-Flash",
    &["<![NAME>"],
    "a JSON arguments object after each call tag",
)
.openers(&[OPENER])
// its own row, so that `GLM-5.3-Flash` is not read as a GLM-5 minor
// (`glm4-moe`); no generation prompt is known for it
.models(&[Model::new("glm-5.3-flash", "")])
.render(Prompt::new("GLM-5.3-Flash", write_calls));

/// `glm53-flash`: `<![NAME>` then the arguments as compact JSON.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::each;
    use crate::render::text::json_compact;
    use serde_json::Value;

    each(calls, "", |_, c| {
        format!(
            "<![{}>{}",
            c.name,
            json_compact(&Value::Object(c.arguments.clone()))
        )
    })
}

const OPEN: &[u8] = b"<![";

/// The longest tag content (display path and name) looked at.
const MAX_NAME: usize = 128;

/// One call: the tag, then its JSON arguments.
pub static GLM53_FLASH: Blocks = Blocks::new(ids::GLM53_FLASH, parse_glm53_flash);

/// True for the bytes of a call tag's name and display path.
fn is_tag_byte(b: u8) -> bool {
    scan::is_name_byte(b) || matches!(b, b'/' | b'.' | b'-' | b':')
}

/// Where the `>` of the call tag at the start of `input` is: `Ok(None)`
/// when it is not a call tag, `Err` when more input is needed.
fn tag_end(input: &[u8], eof: bool) -> Result<Option<usize>, ()> {
    let mut i = OPEN.len();
    while i < input.len() && i < OPEN.len() + MAX_NAME && is_tag_byte(input[i]) {
        i += 1;
    }
    match input.get(i) {
        Some(b'>') if i > OPEN.len() => Ok(Some(i)),
        None if !eof && i < OPEN.len() + MAX_NAME => Err(()),
        _ => Ok(None),
    }
}

fn probe(input: &[u8], cx: &ProbeCx) -> Probe {
    let gt = match tag_end(input, cx.eof) {
        Ok(Some(gt)) => gt,
        Ok(None) => return Probe::NotMarker,
        Err(()) => return Probe::NeedMore,
    };
    let s = scan::skip_space(input, gt + 1);
    match input.get(s) {
        Some(b'{' | b'[') if s - gt <= 256 => Probe::Match(Action::Block {
            fmt: &GLM53_FLASH,
            scanner: crate::formats::BlockScanner::Json(JsonThenClose::new(gt + 1, b"")),
        }),
        None if !cx.eof => Probe::NeedMore,
        _ => Probe::NotMarker,
    }
}

fn parse_glm53_flash(block: &[u8], cx: &ParseCx) -> BlockResult {
    let Ok(Some(gt)) = tag_end(block, true) else {
        return BlockResult::error("TLP-001", "glm53-flash call tag has no name", 0);
    };
    let path = crate::scan::lossy(&block[OPEN.len()..gt]);
    let name = path
        .rsplit('/')
        .next()
        .unwrap_or_default()
        .trim()
        .to_string();
    if name.is_empty() {
        return BlockResult::error("TLP-001", "glm53-flash call tag has no name", 0);
    }
    let opts = cx.cfg.repair_options();
    match json_arguments(&block[gt + 1..], gt + 1, cx.cut, ids::GLM53_FLASH, &opts) {
        Ok((arguments, repairs)) => BlockResult {
            calls: vec![ParsedCall {
                repairs,
                end: block.len(),
                ..ParsedCall::new(name, arguments, ids::GLM53_FLASH)
            }],
            ..BlockResult::default()
        },
        Err(e) => BlockResult {
            errors: vec![e],
            ..BlockResult::default()
        },
    }
}

/// `<![NAME>` then JSON.
pub const OPENER: Opener = Opener::new(OPEN, probe);
