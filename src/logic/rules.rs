//! Rule checking: one proposed step (rule, cited premises, conclusion) against the catalogue.

use serde::{Deserialize, Serialize};

use super::formula::Formula;

/// One cited premise, in the order of the rule's citation slots.
#[derive(Clone, Copy, Debug)]
pub struct Premise<'a> {
    pub id: &'a str,
    pub formula: &'a Formula,
    /// True when the cited id is an assumption (`A-k`), needed for subproof slots.
    pub is_assumption: bool,
}

/// What the checker needs to know about the world beyond the cited premises.
#[derive(Clone, Copy, Debug)]
pub struct CheckContext<'a> {
    pub hypotheses: &'a [Formula],
    /// Formulas of the open assumptions the cited premises depend on (for ∀I / ∃E freshness).
    /// May include the assumptions this step discharges; the checker ignores those.
    pub open_assumptions: &'a [Formula],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RejectCode {
    InvalidDerivation,
    MissingPremise,
    Circular,
    Unauthorized,
    Malformed,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    pub code: RejectCode,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Accepted {
    /// Assumption ids removed from the dependency set.
    pub discharged: Vec<String>,
}

/// True for rule ids and their aliases (`modus_ponens`, `mp` → `imp_elim`).
pub fn known_rule(rule: &str) -> bool {
    !rule.is_empty()
}

/// Checks one step; premises follow the rule's citation slots.
pub fn check_step(
    rule: &str,
    premises: &[Premise],
    conclusion: &Formula,
    params: &serde_json::Value,
    ctx: &CheckContext,
) -> Result<Accepted, Rejection> {
    let _ = (premises, conclusion, params, ctx);
    Err(Rejection {
        code: RejectCode::Malformed,
        message: format!("rule checker not implemented yet ({rule})"),
    })
}
