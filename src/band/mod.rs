//! Band report: how often an auditor's credit scores land in the expected band.
//!
//! The evaluation framework (docs/band.md): scores 1–5 fold into BAD (1–2), MID (3), GOOD (4–5),
//! and the one unacceptable error is cross-band confusion (BAD↔GOOD). The evaluator
//! streams a results JSONL, keeps a 5×5 score matrix per group (every metric derives from
//! it) and a compact index of cases for drill-down, never the records themselves.

pub mod compare;
pub mod compare_input;
pub mod evaluate;
pub mod metrics;
pub mod record;
pub mod render;

pub use evaluate::{BadLine, BandReport, CaseRef, Emptiness, Evaluator, GroupKind, Options};
pub use metrics::{wilson_interval, GroupMetrics, ScoreMatrix, Verdict};
pub use record::{parse_record, ParsedLine, ResultRecord};
