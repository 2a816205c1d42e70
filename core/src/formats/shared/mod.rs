//! Pieces several formats are built from. A format module takes what it
//! shares with others from here, never from a sibling format.

pub mod call_id;
pub mod deepseek_body;
pub mod directly_answer;
pub mod end;
pub mod evidence;
pub mod fence;
pub mod invoke;
pub mod json;
pub mod pairs;
pub mod python;
pub mod recover;
pub mod section;
pub mod stray;
pub mod tag;
pub mod tagged;
pub mod until;
pub mod wrapped;
pub mod xml;
pub mod xtml;
