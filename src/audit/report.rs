//! What one audit produced. Serialisable to JSON for download and batch results; it
//! names models and endpoints but never carries an API key.

use serde::{Deserialize, Serialize};

use crate::config::AuditParams;
use crate::llm::Usage;

use super::contract::{Claim, Deduction, ErrorType, Exempted, Severity};
use super::grounding::NumberGrounding;
use super::parse::Repair;

/// The LLM phases of the protocol (Phase 4, the score, calls no model).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Phase 1, run model: claims and deductions.
    Decompose,
    /// Phase 2, verify model: claims against the context.
    FactCheck,
    /// Phase 3, verify model: deductions.
    LogicCheck,
    /// Optional second verify pass over the severities.
    ReverseCheck,
}

impl Phase {
    pub fn label(self) -> &'static str {
        match self {
            Phase::Decompose => "Phase 1 · decomposition",
            Phase::FactCheck => "Phase 2 · fact check",
            Phase::LogicCheck => "Phase 3 · logic check",
            Phase::ReverseCheck => "Reverse check",
        }
    }
}

/// The user's three-way reading of the score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Band {
    #[serde(rename = "BAD")]
    Bad,
    #[serde(rename = "MID")]
    Mid,
    #[serde(rename = "GOOD")]
    Good,
}

impl Band {
    pub fn as_str(self) -> &'static str {
        match self {
            Band::Bad => "BAD",
            Band::Mid => "MID",
            Band::Good => "GOOD",
        }
    }
}

/// Whether an error counts toward the score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum Counting {
    Counted,
    /// Same phase and target as an earlier error (index into `errors`): counted once.
    Duplicate {
        of: usize,
    },
    /// Beyond the strategy's `max_errors_per_phase`.
    OverCap,
}

/// One error found by Phase 2 or 3.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    pub phase: Phase,
    pub target: String,
    #[serde(rename = "type")]
    pub error_type: ErrorType,
    /// The severity used for the score (after the reverse check, if any).
    pub severity: Severity,
    pub evidence: String,
    pub explanation: String,
    #[serde(flatten)]
    pub counting: Counting,
}

/// A severity the reverse check changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeverityChange {
    /// Index into `errors`.
    pub error: usize,
    pub from: Severity,
    pub to: Severity,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct ReverseCheck {
    pub changes: Vec<SeverityChange>,
    /// Set when the reverse pass itself failed; the first-pass severities then stand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
}

/// Calls, time and tokens of one phase, and what the model said.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PhaseRecord {
    pub phase: Phase,
    /// `llms` name of the model used.
    pub llm: String,
    pub calls: u32,
    /// Sum of the calls' latencies (retries included).
    pub latency_ms: u64,
    pub tokens: Usage,
    pub reasked: bool,
    pub repairs: Vec<Repair>,
    pub raw_responses: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl PhaseRecord {
    pub fn new(phase: Phase, llm: &str) -> Self {
        Self {
            phase,
            llm: llm.to_string(),
            calls: 0,
            latency_ms: 0,
            tokens: Usage::default(),
            reasked: false,
            repairs: Vec::new(),
            raw_responses: Vec::new(),
            error: None,
        }
    }
}

/// Why an audit gave no score: it is reported as such, never as a default score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CouldNotAudit {
    pub phase: Phase,
    pub reason: String,
}

impl std::fmt::Display for CouldNotAudit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "could not audit ({}): {}",
            self.phase.label(),
            self.reason
        )
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelRef {
    pub llm: String,
    pub model: String,
    pub base_url: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelsUsed {
    /// Phase 1.
    pub run: ModelRef,
    /// Phases 2, 3 and the reverse check.
    pub verify: ModelRef,
}

/// The full result of one audit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditReport {
    pub profile: String,
    /// 1–5, absent when the case could not be audited.
    pub credit_score: Option<u8>,
    pub band: Option<Band>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub could_not_audit: Option<CouldNotAudit>,
    pub high_count: u32,
    pub low_count: u32,
    pub claims: Vec<Claim>,
    pub deductions: Vec<Deduction>,
    pub errors: Vec<Finding>,
    pub reasonable_inferences: Vec<Exempted>,
    /// The deterministic number check of model_output against context_input (no model): run
    /// before Phase 2, whose prompt gets the numbers not found as evidence. Reports written
    /// before it existed read as an empty check.
    #[serde(default)]
    pub number_grounding: NumberGrounding,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reverse_check: Option<ReverseCheck>,
    pub phases: Vec<PhaseRecord>,
    /// Phase 1 + max(Phase 2, Phase 3) + reverse check, from the calls' latencies.
    pub latency_ms: u64,
    pub tokens: Usage,
    pub models: ModelsUsed,
    pub params: AuditParams,
}

impl AuditReport {
    pub fn phase(&self, phase: Phase) -> Option<&PhaseRecord> {
        self.phases.iter().find(|p| p.phase == phase)
    }

    pub fn counted_errors(&self) -> impl Iterator<Item = &Finding> {
        self.errors
            .iter()
            .filter(|f| f.counting == Counting::Counted)
    }
}
