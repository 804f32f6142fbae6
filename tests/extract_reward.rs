//! The reward preset and the restatement guard on real outputs nobody here wrote: the 770 long
//! chain-of-thought outputs of tests/fixtures/reasoning_dev.jsonl, GSM8K train without its
//! `####` line, and the two exam sets. A guard that refuses a right answer costs a policy its reward for being right,
//! so each run prints, per set and per half of a fixed split (by a hash of the `id`; the guards
//! were written on the examples and checked on half A, half B is held out), how often
//! each refusal fires on items labelled correct, and lists every such item.
//! `cargo test --test extract_reward -- --nocapture` prints the figures.

mod common;

use std::collections::BTreeMap;

use common::real::{dev, exam, exam_more, gsm8k, Labelled};
use verifyfast::extract::{grade, grade_choices, AnswerPatterns, Outcome, Path, Preset};

/// Which half of the split an item is in: FNV-1a of its id, even → `A` (looked at while the
/// guards were written), odd → `B` (held out).
fn half(id: &str) -> char {
    let h = id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    if h % 2 == 0 {
        'A'
    } else {
        'B'
    }
}

/// The refusal a verdict's reason names, if it is one.
fn refusal(reason: &str) -> Option<&'static str> {
    [
        ("restates the question", "restates the question"),
        ("several different final answers", "several answers"),
        ("a negated statement", "negated"),
        ("list marker", "cut-off list marker"),
        ("only rounded", "rounded answer"),
    ]
    .into_iter()
    .find(|(needle, _)| reason.contains(needle))
    .map(|(_, name)| name)
}

#[derive(Default)]
struct Counts {
    labelled_correct: usize,
    /// Labelled correct and equal under lenient, refused under reward (or under lenient by the
    /// restatement guard): per refusal.
    refused_right: BTreeMap<&'static str, usize>,
    /// Labelled wrong and refused (the guards catching wrong answers).
    refused_wrong: BTreeMap<&'static str, usize>,
    /// Labelled correct, graded equal under reward.
    paid_right: usize,
    /// Labelled wrong, graded equal under reward (a false positive).
    paid_wrong: usize,
}

fn measure(name: &str, items: &[Labelled]) -> BTreeMap<char, Counts> {
    let mut by_half: BTreeMap<char, Counts> = BTreeMap::new();
    let mut listed = Vec::new();
    for item in items {
        let Some(label) = item.label else { continue };
        let q = item.question.as_deref();
        let lenient = grade(&item.output, &item.gold, q, Preset::Lenient);
        let reward = grade(&item.output, &item.gold, q, Preset::Reward);
        let c = by_half.entry(half(&item.id)).or_default();
        let refused = [&lenient, &reward].into_iter().find_map(|v| {
            (v.outcome == Outcome::Different)
                .then(|| refusal(&v.reason))
                .flatten()
        });
        if label {
            c.labelled_correct += 1;
            c.paid_right += usize::from(reward.equivalent);
            if let Some(r) = refused {
                *c.refused_right.entry(r).or_default() += 1;
                listed.push(format!("  {} [{}]: {}", item.id, r, reward.reason));
            }
        } else {
            c.paid_wrong += usize::from(reward.equivalent);
            if let Some(r) = refused {
                *c.refused_wrong.entry(r).or_default() += 1;
            }
        }
        // The restatement guard answers "no answer" whatever the preset.
        if lenient.reason.contains("restates the question") {
            assert_eq!(lenient.path, Path::NoAnswer, "{}", item.id);
        }
    }
    for (h, c) in &by_half {
        println!(
            "{name} half {h}{}: {} labelled correct, {} paid under reward; refused though right: \
             {:?}; refused and wrong: {:?}; wrong but paid: {}",
            if *h == 'A' { " (dev)" } else { " (held out)" },
            c.labelled_correct,
            c.paid_right,
            c.refused_right,
            c.refused_wrong,
            c.paid_wrong
        );
    }
    for l in &listed {
        println!("{l}");
    }
    by_half
}

fn refused_right(counts: &BTreeMap<char, Counts>, what: &str) -> usize {
    counts
        .values()
        .map(|c| c.refused_right.get(what).copied().unwrap_or(0))
        .sum()
}

#[test]
fn long_cot_dev_set_under_the_reward_preset() {
    let items = dev();
    assert_eq!(items.len(), 770);
    let counts = measure("dev long-CoT", &items);
    // No right answer is called a restatement or a negation, or refused for several answers
    // or rounding.
    for what in [
        "restates the question",
        "negated",
        "several answers",
        "rounded answer",
    ] {
        assert_eq!(refused_right(&counts, what), 0, "{what}");
    }
    assert!(refused_right(&counts, "cut-off list marker") <= LIST_MARKER_DEV);
    let wrong_paid: usize = counts.values().map(|c| c.paid_wrong).sum();
    assert_eq!(wrong_paid, 0, "a false positive under the reward preset");
}

#[test]
fn gsm8k_under_the_reward_preset() {
    let items = gsm8k();
    assert_eq!(items.len(), 7473);
    let counts = measure("GSM8K train (no ####)", &items);
    for what in [
        "restates the question",
        "negated",
        "cut-off list marker",
        "several answers",
        "rounded answer",
    ] {
        assert_eq!(refused_right(&counts, what), 0, "{what}");
    }
}

#[test]
fn exam_sets_under_the_reward_preset() {
    for (name, items) in [("exam dev", exam()), ("exam more", exam_more())] {
        assert!(items.len() > 400, "{name}");
        let counts = measure(name, &items);
        assert_eq!(refused_right(&counts, "restates the question"), 0, "{name}");
    }
}

/// The question copied back as the whole output, graded against the gold with the question
/// passed: the rules read the question's own numbers and options, and on about one item in
/// thirty that is the gold. None may be paid, under any preset. Printed per set and half.
#[test]
fn a_copied_question_is_paid_nothing() {
    let sets = [
        ("dev long-CoT", dev()),
        ("GSM8K train", gsm8k()),
        ("exam dev", exam()),
        ("exam more", exam_more()),
    ];
    let mut paid = Vec::new();
    for (name, items) in &sets {
        let mut by_half: BTreeMap<char, (usize, usize, usize)> = BTreeMap::new();
        for item in items {
            let Some(q) = item.question.as_deref() else {
                continue;
            };
            let c = by_half.entry(half(&item.id)).or_default();
            c.0 += 1;
            // Multiple choice as the set says (the CLI's `answer_type`).
            let graded = |question: Option<&str>, preset: Preset| {
                if item.answer_type.as_deref() == Some("choice") {
                    grade_choices(q, &item.gold, question, preset, &AnswerPatterns::NONE)
                } else {
                    grade(q, &item.gold, question, preset)
                }
            };
            // What the grader paid before it knew a copy: the same text, no question given.
            c.1 += usize::from(graded(None, Preset::Lenient).equivalent);
            for preset in Preset::ALL {
                let v = graded(Some(q), preset);
                if v.equivalent {
                    c.2 += 1;
                    paid.push(format!("  {name} {} ({preset:?}): {}", item.id, v.reason));
                }
            }
        }
        for (h, (n, without, with)) in &by_half {
            println!(
                "{name} half {h}: {n} questions copied back; paid without the question {without}, \
                 with it {with} (all presets)"
            );
        }
    }
    assert!(
        paid.is_empty(),
        "a copied question was paid:\n{}",
        paid.join("\n")
    );
}

/// The one right answer refused on the long-CoT dev file (a ceiling: lower it as the guards get
/// sharper, never raise it silently). MATH-500/139 (27B): the visible solution stops at `Next, we compute the partial
/// derivatives:\n\n1.` after its thought block; the label credits the thought's "the maximum
/// value is 1". A reward must not pay a text cut off there (the issue's own example), so this
/// refusal is the guard doing its job.
const LIST_MARKER_DEV: usize = 1;
