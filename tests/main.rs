//! The command line's integration tests, one binary (as ripgrep keeps
//! them): each module of `suite/` is one concern, and they share the
//! helpers of `common/`. Run one concern by its module name, e.g.
//! `cargo test --release --test integration golden`; `BLESS=1` rewrites
//! the expected files of `golden`, `render` and `generated`.
//!
//! The library's own tests live with it, in `core/tests/`.

mod common;

mod suite {
    mod agent;
    mod allocations;
    mod approval;
    mod bounds;
    mod cli;
    mod conformance;
    mod convert;
    mod data;
    mod docs;
    mod errors;
    mod generated;
    mod golden;
    mod hostile;
    mod invariants;
    mod limits;
    mod linear;
    mod mapped;
    mod memory;
    mod model_names;
    mod newcomer;
    mod probes;
    mod readme;
    mod regressions;
    mod render;
    mod repair;
    mod security;
    mod shape;
    mod units;
    mod validate;
    mod whole_documents;
    mod wire;
}
