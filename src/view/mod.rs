//! What the pages decide, as plain Rust: labels, table columns, drill-down state, the DAG
//! drawing, the proof stepper's keys, the kept-run readers. No `leptos`, no `web-sys`, so
//! `cargo test` checks it natively; `ui::<page>` only puts these values into elements.
//!
//! One folder per page, named as in `ui/`. The domain modules (`extract`, `audit`, `band`,
//! `logic`, …) hold what the CLI can use too and never import from here
//! (docs/architecture.md).

pub mod audit;
pub mod compare;
pub mod extract;
pub mod proof;
pub mod report;
pub mod runs;
pub mod settings;
