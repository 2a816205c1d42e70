//! `minimax-m3`: MiniMax M3 — the M2 invoke markup with the namespace token
//! `]<]minimax[>[` before every tag, and parameters named by their tag:
//!
//! ```text
//! ]<]minimax[>[<tool_call>
//! ]<]minimax[>[<invoke name="search">
//! ]<]minimax[>[<query>tide tables</query>]<]minimax[>[<limit>6]<]minimax[>[</limit>
//! ]<]minimax[>[</invoke>
//! ]<]minimax[>[</tool_call>
//! ```
//!
//! The engine looks for markers at `<`, `[` and backticks, so the token's
//! first byte `]` is not a candidate: mid-line the token is recognised from
//! its second byte `<` (`<]minimax[>[<tool_call>`), and `lead_bracket`
//! moves the start back over the `]` (the engine holds a `]` back at the end
//! of a chunk and before an undecided `<`, so streaming agrees). At the start
//! of a line `]` is a line-start candidate byte, so there the whole token
//! matches directly. Inside the
//! block every namespace token is skipped. Also accepted: `<tool_call>`
//! without the token followed by namespaced invokes, and M2-style
//! `<parameter name="K">` children. A namespace token anywhere else (not
//! before `<tool_call>`) is markup. Values are typed like `minimax-m2`.

use super::shared::invoke::{self, NS};
use super::shared::tag::{block, UntilClose};
use super::{ids, Blocks, Lead, Values};
use super::{Action, Format, Opener, Probe, ProbeCx};
use crate::render::{CallSpec, Prompt};
use crate::scan::{self, Prefix};

/// Catalog entry.
pub const FORMAT: Format = Format::new(
    ids::MINIMAX_M3,
    "MiniMax M3",
    &[
        "]<]minimax[>[<tool_call>",
        "]<]minimax[>[<invoke name=\"NAME\">",
        "]<]minimax[>[<KEY>VALUE]<]minimax[>[</KEY>",
        "]<]minimax[>[</invoke>",
        "]<]minimax[>[</tool_call>",
    ],
    "<invoke> blocks whose parameters are named by their tags",
)
.openers(&[OPENER, OPENER_LINE, OPENER_TOOL_CALL])
.lead(Lead {
    lit: b"]",
    rest: b"<]minimax[>[",
    word: false,
    probe: |i, cx| after_token(i, NS.len(), cx),
    between: None,
})
.values(Values::Text)
.render(Prompt::new("MiniMax M3", write_calls));

/// `minimax-m3`: the `]<]minimax[>[` namespace token before every tag;
/// parameters are named by their tags.
pub fn write_calls(calls: &[CallSpec]) -> String {
    use crate::render::calls::with_pairs;
    use crate::render::text::{guard_newlines, value_text};

    const NS: &str = "]<]minimax[>[";
    let body = with_pairs(
        calls,
        "\n",
        |_, c| format!("{NS}<invoke name=\"{}\">\n", c.name),
        |k, v| format!("{NS}<{k}>{}{NS}</{k}>\n", guard_newlines(&value_text(v))),
        &format!("{NS}</invoke>"),
    );
    format!("{NS}<tool_call>\n{body}\n{NS}</tool_call>")
}

const CLOSE: &[u8] = b"</tool_call>";

/// The M3 block: from the namespace token (or `<tool_call>`) to
/// `</tool_call>`.
pub static MINIMAX_M3: Blocks = Blocks::new(ids::MINIMAX_M3, |block, cx| {
    invoke::parse_invokes(block, ids::MINIMAX_M3, cx)
});

/// A held-back block whose invokes start at `pos`.
fn held(pos: usize) -> Probe {
    block(
        &MINIMAX_M3,
        UntilClose::new(CLOSE, pos)
            .ignore_case()
            .unclosed(invoke::end_without_close),
    )
}

/// After a namespace token of length `tok`: `<tool_call>` starts a block,
/// anything else makes the token markup.
fn after_token(input: &[u8], tok: usize, cx: &ProbeCx) -> Probe {
    let s = scan::skip_space(input, tok);
    if s == input.len() && !cx.eof {
        return Probe::NeedMore;
    }
    match scan::prefix_ci(&input[s..], b"<tool_call>") {
        Prefix::Full => held(s + 11),
        Prefix::Partial if !cx.eof => Probe::NeedMore,
        _ => Probe::Match(Action::Markup { len: tok }),
    }
}

/// The namespace token from its second byte (`<]minimax[>[`).
pub const OPENER: Opener = Opener::new(b"<]minimax[>[", |i, cx| after_token(i, NS.len() - 1, cx));

/// The whole namespace token at the start of a line.
pub const OPENER_LINE: Opener = Opener::new(NS, |i, cx| after_token(i, NS.len(), cx)).line_start();

fn probe_tool_call(input: &[u8], cx: &ProbeCx) -> Probe {
    let s = scan::skip_space(input, 11);
    match scan::prefix(&input[s..], NS) {
        Prefix::Full => held(11),
        Prefix::Partial if !cx.eof => Probe::NeedMore,
        _ => Probe::NotMarker,
    }
}

/// `<tool_call>` directly followed by namespaced markup (the hermes opener,
/// earlier in the table, declines such a body).
pub const OPENER_TOOL_CALL: Opener = Opener::new(b"<tool_call>", probe_tool_call).ci();
