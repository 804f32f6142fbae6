//! The check that needs no model (docs/audit.md, "A check without a model"): the number check
//! and the deterministic findings of an audit (`unsupported_number_is_high` and
//! `direction_check`, both on), instantly, for a first look and for CI pipelines. The audit
//! computes the same findings the same way before it asks any model
//! ([`deterministic_findings`] is their one home).

use serde::Serialize;

use super::deterministic::{self, UncountedNumber};
use super::grounding::{self, NumberGrounding};
use super::report::{DeterministicFinding, DeterministicStatus};
use crate::config::AuditParams;

/// What the model-free check found on one case.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckReport {
    pub number_grounding: NumberGrounding,
    pub deterministic_findings: Vec<DeterministicFinding>,
    /// The numbers not found in the context that the rules do not count, each with its reason:
    /// nothing judges them without a model (an audit asks its fact check).
    pub uncounted_numbers: Vec<UncountedNumber>,
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

/// What the rules found on one text: their findings, and the numbers not found that they do
/// not count (empty when the unsupported-number rule is off).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RuleFindings {
    pub findings: Vec<DeterministicFinding>,
    pub uncounted_numbers: Vec<UncountedNumber>,
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
) -> RuleFindings {
    let mut out = RuleFindings::default();
    if unsupported {
        let rule = deterministic::unsupported_numbers(
            context,
            output,
            grounding,
            params.numeric_deviation_threshold,
        );
        out.findings = rule.findings;
        out.uncounted_numbers = rule.uncounted;
    }
    if direction {
        out.findings
            .extend(deterministic::direction_findings(context, output));
    }
    out
}

/// The model-free check of one case: the number check and both deterministic rules, whatever
/// the strategy's toggles say (they decide whether an audit counts them; a check is only them).
/// `params` are the strategy's for the profile (its deviation threshold).
pub fn check(context: &str, output: &str, params: &AuditParams) -> CheckReport {
    let number_grounding = grounding::ground_numbers(context, output);
    let RuleFindings {
        findings,
        uncounted_numbers,
    } = deterministic_findings(context, output, &number_grounding, params, true, true);
    CheckReport {
        number_grounding,
        deterministic_findings: findings,
        uncounted_numbers,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::deterministic::Leniency;

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

    #[test]
    fn a_number_not_found_that_counts_nothing_says_why() {
        let p = AuditParams::default();
        let r = check(
            "Police found 116 bodies. Tickets cost $7.50. The two actresses met.",
            "More than 100 bodies were found. Tickets cost about $7.60. The two actresses met three \
times.",
            &p,
        );
        assert_eq!(r.counted(), 0, "{r:#?}");
        let why: Vec<(&str, Leniency, Option<&str>)> = r
            .uncounted_numbers
            .iter()
            .map(|u| (u.text.as_str(), u.leniency, u.near.as_deref()))
            .collect();
        assert_eq!(
            why,
            [
                ("100", Leniency::RoundBound, Some("116")),
                ("7.60", Leniency::SlightChange, Some("7.50")),
                ("three", Leniency::CountInWords, None),
            ],
            "{r:#?}"
        );
        // Each not-found number is either counted or listed with its reason.
        let r = check("Sales were 40.", "Sales were 90 and 41.", &p);
        assert_eq!(r.counted(), 1, "{r:#?}");
        assert_eq!(r.uncounted_numbers.len(), 1, "{r:#?}");
        assert_eq!(r.number_grounding.not_found().count(), 2, "{r:#?}");
    }
}
