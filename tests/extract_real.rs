//! Grading on real outputs nobody here wrote: the 770 long chain-of-thought outputs
//! of tests/fixtures/reasoning_dev.jsonl (labels checked by hand) and GSM8K train without its
//! `####` line. Prints accuracy, false positives and negatives, undecided verdicts and the
//! doubt signal's firing rate, recall and per-kind precision, overall and per benchmark; the
//! floors are today's figures, so a change that loses accuracy or sharpness fails.
//! `VERIFYFAST_REAL_DUMP=/tmp/real` writes every wrong or flagged item to
//! `/tmp/real.<set>.txt`. `cargo bench --bench extract` prints the same figures.

mod common;

use common::real::{dev, dump, gsm8k, held_out, measure, tally_by};

#[test]
fn long_cot_dev_set() {
    let items = dev();
    assert_eq!(items.len(), 770, "tests/fixtures/reasoning_dev.jsonl");
    let (report, scored) = measure(&items);
    print!("{}", report.render("dev long-CoT"));
    dump("dev", &items, &scored);
    // The doubt signal was designed on this whole file; its figures on the part the exam rules'
    // split holds out (common::real::held_out) are printed apart, and the exam set's held-out
    // part (tests/extract_exam.rs) is where it meets outputs it was not tuned on.
    let split = tally_by(&items, &scored, |it| {
        if held_out(&it.id) {
            "held-out part"
        } else {
            "tuning part"
        }
        .to_string()
    });
    for (part, t) in &split.per_benchmark {
        println!("  {part}: {}", t.line());
    }
    let t = &report.overall;
    assert_eq!(t.labelled, 763);
    // Floors: the figures measured when this test was written (raise them as rules pay).
    assert!(
        t.right >= 757,
        "accuracy {:.2}% ({})",
        t.accuracy(),
        t.right
    );
    assert!(
        t.false_positives == 0,
        "{} false positives",
        t.false_positives
    );
    assert!(t.fired <= 43, "signal fires on {}", t.fired);
    // The signal flags every one of the 6 wrong verdicts left (close calls: a value within
    // 1 %, arbitrary constants, differential equations; docs/extract.md, "Confidence
    // signal"); the issue's aim is ≥ 90 %, kept as a share so fewer wrong verdicts still pass.
    assert!(
        t.wrong_flagged >= 11.min(t.wrong),
        "signal flags {}",
        t.wrong_flagged
    );
    assert!(
        t.wrong_flagged * 10 >= t.wrong * 9,
        "signal flags {} of {}",
        t.wrong_flagged,
        t.wrong
    );
}

#[test]
fn gsm8k_without_hash_line() {
    let items = gsm8k();
    assert_eq!(items.len(), 7473);
    let (report, scored) = measure(&items);
    print!("{}", report.render("GSM8K train (no ####)"));
    dump("gsm8k", &items, &scored);
    let t = &report.overall;
    assert!(
        t.right >= 7454,
        "accuracy {:.2}% ({})",
        t.accuracy(),
        t.right
    );
    assert_eq!(t.false_positives, 0);
    assert!(t.fired <= 255, "signal fires on {}", t.fired);
    assert_eq!(t.wrong_flagged, t.wrong, "every wrong verdict is flagged");
}
