//! GSM8K regression: each training solution with its `####` line removed must grade
//! equivalent to the `####` value, with no LLM. Fixture: tests/fixtures/gsm8k_train.jsonl
//! (MIT, openai/grade-school-math; see tests/fixtures/GSM8K_LICENSE).

use verifyfast::extract::{grade, Preset};

#[derive(serde::Deserialize)]
struct Item {
    question: String,
    answer: String,
}

/// The solution without its `####` line, and the `####` value.
fn split(answer: &str) -> Option<(&str, &str)> {
    let at = answer.rfind("####")?;
    Some((answer.get(..at)?, answer.get(at + 4..)?.trim()))
}

#[test]
fn gsm8k_solutions_grade_equal_to_their_final_value() {
    let data = include_str!("fixtures/gsm8k_train.jsonl");
    let (mut n, mut ok, mut ok_strict, mut low) = (0usize, 0usize, 0usize, 0usize);
    let mut missed_low = 0usize;
    let mut misses = Vec::new();
    // `VERIFYFAST_GSM8K_DUMP=path` writes one verdict per item (index, strict, lenient), so a
    // change to the extractor can be compared item by item against the previous build's file.
    let mut dump = String::new();
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let item: Item = serde_json::from_str(line).expect("fixture line is valid JSON");
        let (solution, value) = split(&item.answer).expect("fixture line has ####");
        n += 1;
        let s = grade(solution, value, Some(&item.question), Preset::Strict);
        if s.equivalent {
            ok_strict += 1;
        }
        let v = grade(solution, value, Some(&item.question), Preset::Lenient);
        dump.push_str(&format!(
            "{n}\t{:?}\t{:?}\t{}\n",
            s.outcome, v.outcome, v.reason
        ));
        let is_low = v.predicted.as_ref().is_none_or(|p| p.low_confidence);
        low += usize::from(is_low);
        missed_low += usize::from(is_low && !v.equivalent);
        if v.equivalent {
            ok += 1;
        } else if misses.len() < 80 {
            misses.push(format!("{value}: {}", v.reason));
        }
    }
    if let Ok(path) = std::env::var("VERIFYFAST_GSM8K_DUMP") {
        std::fs::write(&path, &dump).expect("dump file is writable");
    }
    let rate = 100.0 * ok as f64 / n as f64;
    let strict = 100.0 * ok_strict as f64 / n as f64;
    println!("GSM8K regression: {ok}/{n} = {rate:.2}% lenient, {ok_strict}/{n} = {strict:.2}% strict (no LLM)");
    println!(
        "low_confidence (LLM fallback would run): {low}/{n} = {:.2}%, covering {missed_low} of the {} misses",
        100.0 * low as f64 / n as f64,
        n - ok
    );
    for m in &misses {
        println!("  miss: {m}");
    }
    assert_eq!(n, 7473);
    assert!(rate >= 99.5, "rate {rate:.2}% below 99.5%");
    // Floors at today's counts (the final-answer selection rules: 7441 -> 7442, 7439 -> 7440).
    assert!(ok >= 7442, "lenient {ok} below 7442");
    assert!(ok_strict >= 7440, "strict {ok_strict} below 7440");
}
