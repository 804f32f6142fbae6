//! Every field of every verdict over the real sets, to prove a speed change changed none.
//!
//! Run: `cargo bench --bench verdicts -- OUT` writes one line per graded item to `OUT` (the
//! verdict's `Debug` form, with both extractions, their candidates and doubts, and the grade
//! record's JSON, as the Python package and `verifyfast grade` return it); without `OUT` it
//! prints one fingerprint per set. Build it before and after a change and `cmp` the two files:
//! docs/extract.md, "Measured".
//!
//! Sets: GSM8K train (`####` removed), the long-CoT dev outputs, both exam sets (each choice
//! item also in multiple-choice mode, as a record line with `"answer_type": "choice"` is), and
//! Math-Verify's test pairs; each under every preset.

use std::fmt::Write as _;
use std::io::Write as _;

use verifyfast::extract::records::{grade_line, GradeInput};
use verifyfast::extract::{extract_with, AnswerPatterns, Preset};

/// The fixture loaders the tests read (one source of truth for the sets).
#[path = "../tests/common/confidence.rs"]
mod confidence;
#[path = "../tests/common/math_verify.rs"]
mod math_verify;
#[path = "../tests/common/real.rs"]
mod real;

/// FNV-1a 64, the fingerprint printed without `OUT`.
fn fnv(text: &str, mut h: u64) -> u64 {
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// One item: `(output, gold, question, choice mode too)`.
type Item = (String, String, Option<String>, bool);

fn sets() -> Vec<(&'static str, Vec<Item>)> {
    let labelled = |items: Vec<real::Labelled>| -> Vec<Item> {
        items
            .into_iter()
            .map(|i| {
                let choice = i.answer_type.as_deref() == Some("choice");
                (i.output, i.gold, i.question, choice)
            })
            .collect()
    };
    vec![
        ("gsm8k", labelled(real::gsm8k())),
        ("reasoning_dev", labelled(real::dev())),
        ("exam_dev", labelled(real::exam())),
        ("exam_more", labelled(real::exam_more())),
        (
            "math_verify",
            math_verify::cases()
                .into_iter()
                .map(|c| (c.prediction, c.gold, None, false))
                .collect(),
        ),
    ]
}

fn main() {
    // `cargo bench` passes `--bench`; the one other argument is the output file.
    let out = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    let mut file = out.as_ref().map(|p| {
        std::io::BufWriter::new(std::fs::File::create(p).expect("the output file can be created"))
    });
    let patterns = AnswerPatterns::NONE;
    for (name, items) in sets() {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        let mut lines = 0usize;
        for (i, (output, gold, question, choice)) in items.iter().enumerate() {
            let mut text = String::new();
            let extraction = extract_with(output, question.as_deref(), &patterns);
            let _ = writeln!(text, "{name} {i} extract {extraction:?}");
            for preset in [Preset::Strict, Preset::Lenient, Preset::Reward] {
                for choices in [false, true].into_iter().filter(|&c| !c || *choice) {
                    let input = GradeInput {
                        id: serde_json::Value::Null,
                        output: output.clone(),
                        ground_truth: gold.clone(),
                        question: question.clone(),
                        choices,
                    };
                    let line = grade_line(&input, preset, &patterns);
                    let record = serde_json::to_string(&line.record).unwrap_or_default();
                    let _ = writeln!(
                        text,
                        "{name} {i} {} choices={choices} {record} {:?}",
                        preset.as_str(),
                        line.verdict
                    );
                    lines += 1;
                }
            }
            h = fnv(&text, h);
            if let Some(f) = file.as_mut() {
                f.write_all(text.as_bytes())
                    .expect("the output file can be written");
            }
        }
        println!(
            "{name}: {} items, {lines} verdicts, fingerprint {h:016x}",
            items.len()
        );
    }
}
