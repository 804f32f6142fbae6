//! Every problem of `dev_cases.jsonl` (copied to tests/fixtures/, licence note beside it),
//! replayed with `auto-accept-v1`, reproduces its labels: goal status, the set of rejected
//! steps, and each rejected step's code.

use verifyfast::logic::events::Event;
use verifyfast::logic::protocol::{run_case, Case};

const CASES: &str = include_str!("fixtures/logic_dev_cases.jsonl");

/// Cases kept out of the exact-match test because their label is wrong (see docs/logic.md).
/// None so far.
const EXCLUDED: &[(&str, &str)] = &[];

fn cases() -> Vec<Case> {
    CASES
        .lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("fixture line {}: {e}", i + 1))
        })
        .collect()
}

#[test]
fn the_fixture_has_all_102_problems() {
    assert_eq!(cases().len(), 102);
}

#[test]
fn every_dev_case_reproduces_its_labels() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in cases() {
        if EXCLUDED.iter().any(|(id, _)| *id == case.id) {
            continue;
        }
        let expect = case.expect.clone().expect("every dev case is labelled");
        let run = run_case(&case);
        checked += 1;
        if !run.matches(&expect) {
            let messages: Vec<String> = run
                .steps
                .iter()
                .filter_map(|s| {
                    s.result
                        .as_ref()
                        .err()
                        .map(|r| format!("{}: {}", s.index, r.message))
                })
                .collect();
            failures.push(format!(
                "{}: got proved={} rejected={:?} reasons={:?} ({:?}); want proved={} rejected={:?} reasons={:?}",
                case.id,
                run.goal_proved,
                run.rejected_steps(),
                run.reasons(),
                messages,
                expect.goal_proved,
                expect.rejected_steps,
                expect.reject_reasons
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn a_step_citing_a_refused_step_is_blocked_not_rejected_again() {
    let case = cases()
        .into_iter()
        .find(|c| c.id == "forallx-solfol-034--nonexistent_premise")
        .expect("fixture case");
    let run = run_case(&case);
    let kinds: Vec<&str> = run.events().iter().map(Event::event_type).collect();
    // Step 1 cites C-999 (REJECTED once); steps 2-4 only cite what was refused (BLOCKED).
    assert_eq!(kinds.iter().filter(|k| **k == "REJECTED").count(), 1);
    assert_eq!(kinds.iter().filter(|k| **k == "BLOCKED").count(), 3);
    assert_eq!(run.rejected_steps(), vec![1, 2, 3, 4]);
}

#[test]
fn citing_a_later_step_is_circular_and_its_follower_is_blocked() {
    let case = cases()
        .into_iter()
        .find(|c| c.id == "prontoqa-modusponens-1hop-02--circular_forward")
        .expect("fixture case");
    let run = run_case(&case);
    let reasons = run.reasons();
    assert_eq!(reasons.get("0").map(String::as_str), Some("circular"));
    assert_eq!(
        reasons.get("1").map(String::as_str),
        Some("missing_premise")
    );
    assert!(!run.goal_proved);
}
