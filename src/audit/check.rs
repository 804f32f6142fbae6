//! The check that needs no model (docs/audit.md, "A check without a model"): the number check
//! and the deterministic findings of an audit (`unsupported_number_is_high` and
//! `direction_check`, both on), instantly, for a first look and for CI pipelines. The audit
//! computes the same findings the same way before it asks any model
//! ([`deterministic_findings`] is their one home).

use serde::Serialize;

use super::deterministic;
use super::grounding::{self, NumberGrounding};
use super::report::{DeterministicFinding, DeterministicStatus};
use crate::config::AuditParams;

/// What the model-free check found on one case.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckReport {
    pub number_grounding: NumberGrounding,
    pub deterministic_findings: Vec<DeterministicFinding>,
}

impl CheckReport {
    /// Findings that count (High each): with no model, every finding counts.
    pub fn counted(&self) -> usize {
        self.deterministic_findings
            .iter()
            .filter(|d| d.status == DeterministicStatus::Counted)
            .count()
    }
}

/// The rules' findings on `output` against `context`: those `unsupported` / `direction` turn
/// on, the unsupported-number rule with `params`' deviation threshold.
pub fn deterministic_findings(
    context: &str,
    output: &str,
    grounding: &NumberGrounding,
    params: &AuditParams,
    unsupported: bool,
    direction: bool,
) -> Vec<DeterministicFinding> {
    let mut out = Vec::new();
    if unsupported {
        out.extend(deterministic::unsupported_number_findings(
            context,
            output,
            grounding,
            params.numeric_deviation_threshold,
        ));
    }
    if direction {
        out.extend(deterministic::direction_findings(context, output));
    }
    out
}

/// The model-free check of one case: the number check and both deterministic rules, whatever
/// the strategy's toggles say (they decide whether an audit counts them; a check is only them).
/// `params` are the strategy's for the profile (its deviation threshold).
pub fn check(context: &str, output: &str, params: &AuditParams) -> CheckReport {
    let number_grounding = grounding::ground_numbers(context, output);
    let deterministic_findings =
        deterministic_findings(context, output, &number_grounding, params, true, true);
    CheckReport {
        number_grounding,
        deterministic_findings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fabricated_number_and_a_flipped_direction_are_found_without_a_model() {
        let p = AuditParams::default();
        let r = check(
            "Exports fell 12% in March.",
            "Exports rose 12% in March.",
            &p,
        );
        assert_eq!(r.counted(), 1, "{r:#?}");
        let r = check(
            "Revenue was 4.2 billion.",
            "Revenue was 4.2 billion and profit 900 million.",
            &p,
        );
        assert!(r.counted() >= 1, "{r:#?}");
        let r = check("Revenue was 4.2 billion.", "Revenue was 4.2 billion.", &p);
        assert_eq!(r.counted(), 0, "{r:#?}");
    }
}
