//! Math-Verify's own test pairs (tests/fixtures/math_verify_cases.jsonl, ported as data from
//! huggingface/Math-Verify, Apache-2.0; see tests/fixtures/README.md) graded by VerifyFast, and
//! how often the verdict agrees with Math-Verify's expected one. Shared by
//! tests/extract_math_verify.rs and the extract bench (include it with `#[path]`): one call,
//! [`figures`], gives the same numbers in both.
// The bench uses part of it, the test another part.
#![allow(dead_code)]

use verifyfast::extract::{grade, Outcome, Preset};

/// The fixture, read at compile time so the bench and the test need no working directory.
pub const CASES: &str = include_str!("../fixtures/math_verify_cases.jsonl");

/// One ported pair.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Case {
    pub gold: String,
    pub prediction: String,
    /// Math-Verify's expected verdict: does the prediction verify against the gold?
    pub expected: bool,
    /// The Math-Verify test file and test (with its row index) the pair comes from.
    pub source: String,
    pub test: String,
    /// Math-Verify's `strict` option (variables compared by name); absent = its default, true.
    #[serde(default)]
    pub strict: Option<bool>,
    #[serde(default)]
    pub allow_set_relation_comp: Option<bool>,
}

/// Why a pair has no counterpart here (`None`: it is graded). Only configurations VerifyFast
/// does not have are skipped, never a pair because it is hard.
pub fn skipped(c: &Case) -> Option<&'static str> {
    if c.strict == Some(false) {
        // `f(x)` = `f(y)` with strict=False: Math-Verify renames variables; here a variable's
        // name is part of the answer in both presets.
        return Some("Math-Verify's strict=False (variables matched up to renaming)");
    }
    if c.allow_set_relation_comp == Some(true) {
        // `x > 1` = `(1,\infty)` only when the option is on; here a relation in one variable
        // is always the set it describes (docs/extract.md, "set of reals").
        return Some("Math-Verify's allow_set_relation_comp=True");
    }
    None
}

/// The ported pairs, in file order.
pub fn cases() -> Vec<Case> {
    CASES
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("math_verify_cases.jsonl line is valid"))
        .collect()
}

/// One pair whose verdict is not Math-Verify's.
#[derive(Debug, Clone)]
pub struct Disagreement {
    pub case: Case,
    pub outcome: Outcome,
    pub reason: String,
}

/// Agreement with Math-Verify's expected verdicts on the pairs that have a counterpart.
#[derive(Debug, Clone, Default)]
pub struct Figures {
    pub graded: usize,
    pub skipped: usize,
    /// Verdict `equal` where Math-Verify expects a match, or `different` where it expects none.
    pub agree: usize,
    /// `equal` where Math-Verify expects no match.
    pub false_equal: usize,
    /// `different` where Math-Verify expects a match.
    pub false_different: usize,
    /// Could not decide (never counted as agreement).
    pub undecided: usize,
    pub disagreements: Vec<Disagreement>,
}

impl Figures {
    pub fn agreement(&self) -> f64 {
        100.0 * self.agree as f64 / self.graded.max(1) as f64
    }

    /// One line for a test or bench log.
    pub fn summary(&self, preset: Preset) -> String {
        format!(
            "Math-Verify suite ({preset:?}): {}/{} = {:.2}% agree; {} false equal, {} false \
             different, {} undecided; {} skipped (no counterpart)",
            self.agree,
            self.graded,
            self.agreement(),
            self.false_equal,
            self.false_different,
            self.undecided,
            self.skipped
        )
    }
}

/// Grades every ported pair (the prediction as the output, the gold as the ground truth, no
/// question: Math-Verify's tests have none) and counts agreement with the expected verdicts.
pub fn figures(preset: Preset) -> Figures {
    let mut f = Figures::default();
    for case in cases() {
        if skipped(&case).is_some() {
            f.skipped += 1;
            continue;
        }
        f.graded += 1;
        let v = grade(&case.prediction, &case.gold, None, preset);
        let agrees = match v.outcome {
            Outcome::Equal => case.expected,
            Outcome::Different => !case.expected,
            Outcome::Undecided => false,
        };
        match (v.outcome, case.expected) {
            _ if agrees => f.agree += 1,
            (Outcome::Equal, _) => f.false_equal += 1,
            (Outcome::Different, _) => f.false_different += 1,
            (Outcome::Undecided, _) => f.undecided += 1,
        }
        if !agrees {
            f.disagreements.push(Disagreement {
                case,
                outcome: v.outcome,
                reason: v.reason,
            });
        }
    }
    f
}
