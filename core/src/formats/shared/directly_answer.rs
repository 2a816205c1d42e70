//! Command R's `directly_answer` pseudo-tool ("no tool needed"): never a
//! call, whichever path a Command R block arrives by (its own `Action:`
//! fence, a JSON fence or a bare JSON value).

use crate::formats::BlockResult;

/// The names of Command R's "answer directly" pseudo-tool: Cohere's
/// template spells it `directly_answer`, Ollama's `directly-answer`.
pub const DIRECTLY_ANSWER: &[&str] = &["directly_answer", "directly-answer"];

/// Removes `directly_answer` pseudo-calls; a result left with no calls and
/// no errors is plain text.
pub fn drop_directly_answer(r: &mut BlockResult) {
    r.calls
        .retain(|c| !DIRECTLY_ANSWER.contains(&c.name.as_str()));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::call::ParsedCall;
    use crate::formats::ids;

    fn call(name: &str, end: usize) -> ParsedCall {
        ParsedCall {
            end,
            ..ParsedCall::new(name.into(), serde_json::Map::new(), ids::COHERE)
        }
    }

    #[test]
    fn directly_answer_is_dropped() {
        let mut r = BlockResult::calls(vec![call("directly_answer", 5), call("search", 9)]);
        drop_directly_answer(&mut r);
        assert_eq!(r.calls.len(), 1);
        assert_eq!(r.calls[0].name, "search");
        let mut r = BlockResult::one(call("directly_answer", 5));
        drop_directly_answer(&mut r);
        assert_eq!(r, BlockResult::text());
        // Ollama's Command R template spells it with a hyphen
        let mut r =
            BlockResult::calls(vec![call("directly-answer", 5), call("directly answer", 9)]);
        drop_directly_answer(&mut r);
        assert_eq!(r.calls.len(), 1);
        assert_eq!(r.calls[0].name, "directly answer");
    }
}
