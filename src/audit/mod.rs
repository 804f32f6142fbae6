//! The VerifyFast audit: Phase 1 breaks a model output into claims and deductions (run
//! model), Phases 2 and 3 check facts and logic concurrently (verify model), Phase 4
//! turns the error counts into a credit score with a fixed formula, so the LLM never
//! grades its own findings.

pub mod batch;
pub mod check;
pub mod contract;
pub mod derivation;
pub mod deterministic;
pub mod evidence;
pub mod grounding;
pub mod limits;
pub mod prompts;
pub mod report;
pub mod run;
pub mod score;
pub mod testing;

pub use report::{AuditReport, Band, CouldNotAudit, FailureKind, Finding, Phase};
pub use run::{run_audit, AuditInput, AuditPlan, PhaseStatus, PhaseUpdate, PlannedModel};
