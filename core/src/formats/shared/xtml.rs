//! Kimi K3's tag language, `<|open|>WORD<|sep|>` … `<|close|>WORD<|sep|>`:
//! what its format and the reasoning openers both need.

use crate::formats::Close;

/// What ends a `think` element: its close, or the `response` element that
/// a reply skipping the close begins with. Also what ends a think element
/// the generation prompt opened (a lone `<|close|>think<|sep|>`).
pub const THINK_CLOSE: &[Close] = &[
    // a reply that skips closing the think channel and answers at once
    Close::ahead(b"<|open|>response<|sep|>"),
    Close::ahead(b"<|open|> response <|sep|>"),
    Close::consumed(b"<|close|>think<|sep|>"),
    Close::consumed(b"<|close|> think <|sep|>"),
];
