//! Python-style calls, shared by every format that writes them (pythonic,
//! Llama 3.x `<|python_tag|>`, Functionary v3.2, Phi-4-mini, LFM2, OLMo 3,
//! Apertus, Sarashina, fenced pythonic blocks). The literal parser also
//! reads Gemma's `{key:<|"|>text<|"|>}` arguments ([`Dialect::Gemma`]).

pub mod calls;
pub mod literal;
pub mod loose;
pub mod scan;

pub use calls::*;
pub use literal::*;
pub use scan::*;
