//! Pieces several formats are built from. A format module takes what it
//! shares with others from here, never from a sibling format.

pub mod json;
pub mod tag;
pub mod tagged;
