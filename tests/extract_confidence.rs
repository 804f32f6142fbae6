//! The low-confidence flag (the LLM fallback's trigger) must be sharp: fire on at most 10 % of
//! items and flag at least 90 % of the wrong verdicts, on GSM8K train (no `####`) and on our
//! hand-written MATH-style solutions. `VERIFYFAST_CONFIDENCE_DUMP=1` prints every missed wrong
//! verdict and every false alarm with its reason.

mod common;

use common::confidence::{by_category, gsm8k, math_style, math_style_fresh, measure, score, Item};

fn dump(name: &str, items: &[Item]) {
    if std::env::var_os("VERIFYFAST_CONFIDENCE_DUMP").is_none() {
        return;
    }
    for it in items {
        let r = score(it);
        let tag = match (r.wrong, r.flagged) {
            (true, false) => "MISSED",
            (false, true) => "ALARM",
            (true, true) => "CAUGHT",
            _ => continue,
        };
        let reason = r
            .verdict
            .predicted
            .as_ref()
            .map_or("no answer".to_string(), |p| p.confidence_reason.clone());
        let tail: String = {
            let t = it.text.trim_end();
            let start = t.char_indices().rev().nth(160).map_or(0, |(i, _)| i);
            t[start..].replace('\n', "⏎")
        };
        println!(
            "{name} {tag} {}: {} [{reason}]\n    …{tail}",
            it.id, r.verdict.reason
        );
    }
}

fn check(name: &str, items: &[Item]) {
    let s = measure(items);
    dump(name, items);
    println!(
        "{name}: {} items, fires on {} ({:.2}%), {} wrong verdicts, {} flagged ({:.1}%)",
        s.items,
        s.fired,
        s.firing_rate(),
        s.wrong,
        s.wrong_flagged,
        s.recall()
    );
    for (category, c) in by_category(items) {
        println!(
            "  {category}: {} items, fires on {}, {} wrong, {} flagged",
            c.items, c.fired, c.wrong, c.wrong_flagged
        );
    }
    assert!(
        s.firing_rate() <= 10.0,
        "{name}: fires on {:.2}%",
        s.firing_rate()
    );
    assert!(s.recall() >= 90.0, "{name}: recall {:.1}%", s.recall());
}

#[test]
fn flag_is_sharp_on_gsm8k() {
    check("gsm8k", &gsm8k());
}

#[test]
fn flag_is_sharp_on_math_style() {
    let items = math_style();
    assert!(items.len() >= 700, "fixture has {} items", items.len());
    check("math_style", &items);
}

/// The cases written after the doubts were designed are mostly traps, so their firing rate
/// says little; the flag must catch every wrong verdict. (7 were wrong when they were written;
/// one, a cut-off text, has no answer under the cut-off rule, which is its right verdict; the
/// answer restated in parentheses, "Final answer: 1/2 (i.e., 0.5)", is flagged since a
/// verdict decided only by comparing texts is a doubt. "The probability is 3/8, or 37.5%."
/// is right since a `%` right after the answer is part of it: 37.5% = 3/8.) The real sets of tests/extract_real.rs
/// are the yardstick for the rates; these hand-written sets only pin behaviour.
#[test]
fn flag_carries_over_to_fresh_cases() {
    let items = math_style_fresh();
    dump("fresh", &items);
    let s = measure(&items);
    println!(
        "fresh: {} items, fires on {}, {} wrong verdicts, {} flagged",
        s.items, s.fired, s.wrong, s.wrong_flagged
    );
    assert_eq!((s.items, s.wrong), (24, 5));
    assert_eq!(s.wrong_flagged, 5, "flags {} of 5", s.wrong_flagged);
}
