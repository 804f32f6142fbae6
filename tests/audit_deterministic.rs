//! The deterministic findings (docs/audit.md, "Deterministic findings") measured alone, no model:
//! on the design note's baseline cases (public/examples/cases.jsonl, one per tag of the note)
//! and on a planted set of our own (tests/fixtures/audit_planted.jsonl: for five contexts in
//! English and five in Chinese, one output per tag — fabricated number, opposite direction,
//! more than 10 % deviation, ≤ 10 % deviation, clean). Every planted fabricated number and direction flip
//! must be caught by the rule for it, and no clean output may get any finding. Prints the
//! catch and false-alarm rates quoted in docs/audit.md.

use serde_json::Value;
use verifyfast::audit::deterministic::{direction_findings, unsupported_number_findings};
use verifyfast::audit::grounding::ground_numbers;
use verifyfast::audit::report::{DeterministicCheck, DeterministicFinding};
use verifyfast::config::AuditParams;

fn findings(context: &str, output: &str) -> Vec<DeterministicFinding> {
    let threshold = AuditParams::default().numeric_deviation_threshold;
    let mut f =
        unsupported_number_findings(context, output, &ground_numbers(context, output), threshold);
    f.extend(direction_findings(context, output));
    f
}

fn lines(path: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{path}: {e}: {l}")))
        .collect()
}

fn field<'a>(v: &'a Value, k: &str) -> &'a str {
    v[k].as_str().unwrap_or_default()
}

#[test]
fn planted_fabrications_and_flips_are_all_caught_and_clean_outputs_never_flagged() {
    let cases = lines("tests/fixtures/audit_planted.jsonl");
    assert_eq!(cases.len(), 50);
    let mut misses = Vec::new();
    let mut false_alarms = Vec::new();
    println!("tag                  lang  cases  with a finding  planted item caught");
    for tag in [
        "fabricated_number",
        "opposite_direction",
        "deviation_over_10",
        "deviation_within_10",
        "clean",
    ] {
        for lang in ["en", "zh"] {
            let of: Vec<&Value> = cases
                .iter()
                .filter(|c| field(c, "tag") == tag && field(c, "lang") == lang)
                .collect();
            let (mut fired, mut caught) = (0, 0);
            for c in &of {
                let f = findings(field(c, "context_input"), field(c, "model_output"));
                let planted = field(c, "planted");
                let hit = f.iter().any(|d| match tag {
                    "opposite_direction" => {
                        d.check == DeterministicCheck::Direction && d.output_text.contains(planted)
                    }
                    _ => {
                        d.check == DeterministicCheck::UnsupportedNumber && d.output_text == planted
                    }
                });
                fired += usize::from(!f.is_empty());
                caught += usize::from(hit && !planted.is_empty());
                match tag {
                    "fabricated_number" | "opposite_direction" if !hit => {
                        misses.push(format!("{}: {f:?}", c["id"]))
                    }
                    "clean" if !f.is_empty() => false_alarms.push(format!("{}: {f:?}", c["id"])),
                    _ => {}
                }
            }
            println!(
                "{tag:<20} {lang:<5} {:>5}  {fired:>14}  {caught:>19}",
                of.len()
            );
        }
    }
    let count = |tag: &str| cases.iter().filter(|c| field(c, "tag") == tag).count();
    let planted = count("fabricated_number") + count("opposite_direction");
    println!(
        "catch rate (fabricated numbers and direction flips): {}/{planted}; false alarms on clean outputs: {}/{}",
        planted - misses.len(),
        false_alarms.len(),
        count("clean")
    );
    assert!(misses.is_empty(), "missed: {misses:#?}");
    assert!(false_alarms.is_empty(), "false alarms: {false_alarms:#?}");
}

#[test]
fn the_design_note_baseline_cases() {
    let cases = lines("public/examples/cases.jsonl");
    assert_eq!(cases.len(), 12);
    let mut flagged_bad = 0;
    let mut bad = 0;
    let mut flagged_good = Vec::new();
    println!("id  tag                 expected  findings");
    for c in &cases {
        let f = findings(field(c, "context_input"), field(c, "model_output"));
        let expected = c["expected_credit_score"].as_u64().unwrap_or(0);
        let shown: Vec<String> = f
            .iter()
            .map(|d| format!("{} \"{}\"", d.check.label(), d.output_text))
            .collect();
        println!(
            "{:<3} {:<19} {expected:<9} {}",
            c["id"],
            field(c, "tag"),
            shown.join("; ")
        );
        if expected <= 2 {
            bad += 1;
            flagged_bad += usize::from(!f.is_empty());
        } else if !f.is_empty() {
            flagged_good.push(c["id"].clone());
        }
    }
    println!(
        "BAD cases with a finding: {flagged_bad}/{bad}; MID/GOOD cases with a finding: {}/{}",
        flagged_good.len(),
        cases.len() - bad
    );
    // The note's #13-like case (a made-up rate, here id 7) and the reversed direction (id 8):
    let by_id = |id: u64| {
        let c = cases.iter().find(|c| c["id"] == id).unwrap();
        findings(field(c, "context_input"), field(c, "model_output"))
    };
    assert!(by_id(7)
        .iter()
        .any(|d| d.check == DeterministicCheck::UnsupportedNumber && d.output_text == "35%"));
    assert!(by_id(8)
        .iter()
        .any(|d| d.check == DeterministicCheck::Direction && d.output_text == "rose 12%"));
    // No finding on a case whose expected band is MID or GOOD.
    assert!(flagged_good.is_empty(), "{flagged_good:?}");
}

/// Real text nobody here wrote: GSM8K's 7,473 training solutions (tests/fixtures, MIT) restate
/// their question's quantities, correctly, with words like "more", "less", "increase". Read as
/// context (the question) and output (the solution), every direction finding is a false alarm.
#[test]
fn direction_check_false_alarms_on_gsm8k_solutions() {
    let cases = lines("tests/fixtures/gsm8k_train.jsonl");
    let mut alarms = Vec::new();
    for c in &cases {
        let f = direction_findings(field(c, "question"), field(c, "answer"));
        if !f.is_empty() {
            alarms.push(format!("{}: {}", field(c, "question"), f[0].explanation));
        }
    }
    println!(
        "direction check on GSM8K question/solution pairs: {} of {} flagged ({:.2} %)",
        alarms.len(),
        cases.len(),
        100.0 * alarms.len() as f64 / cases.len() as f64
    );
    for a in alarms.iter().take(10) {
        println!("  {a}");
    }
    // What the check reaches (docs/audit.md, "Deterministic findings"): raised, never
    // lowered silently.
    assert!(alarms.len() <= 1, "more than 1 flag: {}", alarms.len());
}
