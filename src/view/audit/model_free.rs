//! "Check without a model" on the Audit page: the number check and the deterministic findings
//! (`audit::grounding`, `audit::deterministic`) of the two texts, at once and with no model,
//! so a first-time user without an endpoint gets value in one click. The page calls
//! [`check`] only; it is the one place that composes the rules for it.

use crate::audit::check::CheckReport;
use crate::audit::deterministic::UncountedNumber;
use crate::audit::grounding::NumberGrounding;
use crate::audit::report::DeterministicFinding;
use crate::config::AuditParams;

/// What the rules found, with no model.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelFree {
    pub grounding: NumberGrounding,
    /// Each counts as one High error in an audit (unless the fact check derives the number).
    pub findings: Vec<DeterministicFinding>,
    /// Numbers not found in the context that the rules do not count, with why: without a
    /// model nothing judges them.
    pub uncounted: Vec<UncountedNumber>,
}

impl ModelFree {
    /// The headline: how many findings, and what the check does not cover.
    pub fn summary(&self) -> String {
        let found = match (self.findings.len(), self.uncounted.len()) {
            (0, 0) => "The rules found nothing: every number of the output is supported by the context and no direction is reversed".to_string(),
            (0, 1) => "The rules count nothing, but 1 number is not found in the context: it is left to the fact check (below, with why)".to_string(),
            (0, u) => format!("The rules count nothing, but {u} numbers are not found in the context: they are left to the fact check (below, with why)"),
            (1, _) => "The rules found 1 problem, a High error in an audit".to_string(),
            (n, _) => format!("The rules found {n} problems, each a High error in an audit"),
        };
        let found = match (self.findings.len(), self.uncounted.len()) {
            (0, _) | (_, 0) => found,
            (_, 1) => format!("{found}; 1 other number not found is left to the fact check"),
            (_, u) => format!("{found}; {u} other numbers not found are left to the fact check"),
        };
        format!(
            "{found}. Only numbers and directions are checked: claims and logic need a model (Run audit)."
        )
    }
}

/// The number check and both deterministic rules, as `verifyfast check` runs them
/// (`audit::check::check`, the one composition; an audit computes the same before it asks any
/// model), with the strategy's `params` for the deviation threshold.
pub fn check(context: &str, output: &str, params: &AuditParams) -> ModelFree {
    let CheckReport {
        number_grounding,
        deterministic_findings,
        uncounted_numbers,
    } = crate::audit::check::check(context, output, params);
    ModelFree {
        grounding: number_grounding,
        findings: deterministic_findings,
        uncounted: uncounted_numbers,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::report::DeterministicCheck;

    const CONTEXT: &str = "Revenue rose 8% to $5 million in 2023.";

    #[test]
    fn finds_an_unsupported_number_and_a_reversed_direction() {
        let r = check(
            CONTEXT,
            "Revenue fell 8% to $7 million in 2023.",
            &AuditParams::default(),
        );
        let checks: Vec<DeterministicCheck> = r.findings.iter().map(|f| f.check).collect();
        assert!(
            checks.contains(&DeterministicCheck::UnsupportedNumber),
            "{checks:?}"
        );
        assert!(
            checks.contains(&DeterministicCheck::Direction),
            "{checks:?}"
        );
        assert!(
            r.summary()
                .starts_with("The rules found 2 problems, each a High error in an audit."),
            "{}",
            r.summary()
        );
        let r = check(
            CONTEXT,
            "Revenue fell 8% to about $5.2 million in 2023.",
            &AuditParams::default(),
        );
        assert!(
            r.summary().starts_with(
                "The rules found 1 problem, a High error in an audit; 1 other number not found \
is left to the fact check."
            ),
            "{}",
            r.summary()
        );
    }

    #[test]
    fn a_faithful_output_finds_nothing_and_the_check_runs_every_rule() {
        let r = check(CONTEXT, "Revenue rose 8% in 2023.", &AuditParams::default());
        assert!(r.findings.is_empty(), "{:?}", r.findings);
        assert!(r.summary().starts_with("The rules found nothing"));
        // A number the rules leave to the fact check is not called supported.
        let r = check(
            CONTEXT,
            "Revenue rose 8% to $5.2 million in 2023.",
            &AuditParams::default(),
        );
        assert!(r.findings.is_empty(), "{:?}", r.findings);
        assert!(
            r.summary()
                .starts_with("The rules count nothing, but 1 number is not found"),
            "{}",
            r.summary()
        );
        let off = AuditParams {
            unsupported_number_is_high: false,
            direction_check: false,
            ..AuditParams::default()
        };
        // The strategy's toggles decide what an audit counts; the check is the rules themselves,
        // as `verifyfast check` runs them.
        let r = check(CONTEXT, "Revenue fell 8% to $7 million.", &off);
        assert_eq!(r.findings.len(), 2, "{:?}", r.findings);
        assert!(!r.grounding.numbers.is_empty());
    }
}
