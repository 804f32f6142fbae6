//! Grading measured on real outputs, shared by tests/extract_real.rs and benches/extract.rs:
//! accuracy on labelled items, false positives and negatives, undecided verdicts, and the
//! doubt signal (the LLM fallback's trigger): how often it fires, which share of the wrong
//! verdicts it flags, and per doubt kind how often it fires and how often it is right to
//! (docs/extract.md, "Confidence signal"). One computation, so the test's floors and the
//! bench's figures cannot drift apart.
// The bench uses part of it, the test another part.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fmt::Write as _;

use verifyfast::extract::{grade, Outcome, Preset, Verdict};

/// One output with its reference answer and, when known, whether the output's own final
/// answer equals it.
pub struct Labelled {
    pub id: String,
    /// The benchmark it answers (`AIME2024`, `MATH-500`, …; `gsm8k` for GSM8K).
    pub benchmark: String,
    pub output: String,
    pub gold: String,
    pub question: Option<String>,
    /// `None` where a careful human could not decide (counted, never scored).
    pub label: Option<bool>,
}

/// tests/fixtures/reasoning_dev.jsonl: 770 real long chain-of-thought outputs (Sky-T1
/// variants, Apache-2.0; tests/fixtures/README.md), read at run time (21 MB).
pub fn dev() -> Vec<Labelled> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/reasoning_dev.jsonl"
    );
    let data = std::fs::read_to_string(path).unwrap_or_default();
    data.lines()
        .filter_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).ok()?;
            let s = |k: &str| v.get(k).and_then(|x| x.as_str()).map(str::to_string);
            Some(Labelled {
                id: s("id")?,
                benchmark: s("benchmark")?,
                output: s("output")?,
                gold: s("gold")?,
                question: s("question"),
                label: v.get("label").and_then(serde_json::Value::as_bool),
            })
        })
        .collect()
}

/// GSM8K train with the `####` line removed, graded against the `####` value (the labels of
/// [`super::confidence::gsm8k`]: the reference solutions are right except a listed few).
pub fn gsm8k() -> Vec<Labelled> {
    super::confidence::gsm8k()
        .into_iter()
        .map(|i| Labelled {
            id: i.id,
            benchmark: i.category,
            output: i.text,
            gold: i.gold,
            question: i.question,
            label: Some(i.correct),
        })
        .collect()
}

/// One item's grade (default preset, question passed) and what it says about the grader.
pub struct Scored {
    pub verdict: Verdict,
    /// The verdict disagrees with the label (an undecided verdict on a true label is wrong;
    /// on a false label it is not "equivalent", so it is right).
    pub wrong: bool,
    /// The doubt signal fired (no answer, or a low-confidence one): the fallback would run.
    pub flagged: bool,
    /// The kinds of doubt that fired (`no_answer` when nothing was extracted).
    pub kinds: Vec<String>,
}

pub fn score(item: &Labelled) -> Scored {
    let verdict = grade(
        &item.output,
        &item.gold,
        item.question.as_deref(),
        Preset::Lenient,
    );
    let equal = verdict.outcome == Outcome::Equal;
    let wrong = item.label.is_some_and(|l| l != equal);
    let flagged = verdict.predicted.as_ref().is_none_or(|p| p.low_confidence);
    let kinds = match &verdict.predicted {
        None => vec!["no_answer".to_string()],
        Some(p) => {
            let mut k: Vec<String> = p
                .doubts
                .iter()
                .filter_map(|d| {
                    serde_json::to_value(d)
                        .ok()?
                        .get("kind")?
                        .as_str()
                        .map(str::to_string)
                })
                .collect();
            k.dedup();
            k
        }
    };
    Scored {
        verdict,
        wrong,
        flagged,
        kinds,
    }
}

/// Counts for one set or one benchmark.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    pub items: usize,
    pub labelled: usize,
    /// Labelled items whose verdict agrees with the label.
    pub right: usize,
    /// "Equal" where the label is false.
    pub false_positives: usize,
    /// "Different" where the label is true.
    pub false_negatives: usize,
    /// Undecided verdicts (on labelled items; on a true label they are also wrong).
    pub undecided: usize,
    /// Items the doubt signal flags (all items, labelled or not).
    pub fired: usize,
    /// Labelled items with a wrong verdict, and how many of them are flagged.
    pub wrong: usize,
    pub wrong_flagged: usize,
    /// Per doubt kind: (items it fires on, of which the verdict is wrong).
    pub kinds: BTreeMap<String, (usize, usize)>,
}

impl Tally {
    fn add(&mut self, item: &Labelled, r: &Scored) {
        self.items += 1;
        self.fired += usize::from(r.flagged);
        for k in &r.kinds {
            let e = self.kinds.entry(k.clone()).or_default();
            e.0 += 1;
            e.1 += usize::from(r.wrong);
        }
        let Some(label) = item.label else { return };
        self.labelled += 1;
        self.right += usize::from(!r.wrong);
        match r.verdict.outcome {
            Outcome::Equal => self.false_positives += usize::from(!label),
            Outcome::Different => self.false_negatives += usize::from(label),
            Outcome::Undecided => self.undecided += 1,
        }
        self.wrong += usize::from(r.wrong);
        self.wrong_flagged += usize::from(r.wrong && r.flagged);
    }

    pub fn accuracy(&self) -> f64 {
        100.0 * self.right as f64 / self.labelled.max(1) as f64
    }
    pub fn firing_rate(&self) -> f64 {
        100.0 * self.fired as f64 / self.items.max(1) as f64
    }
    /// Share of the wrong verdicts the signal flags (100 % when there are none).
    pub fn recall(&self) -> f64 {
        if self.wrong == 0 {
            return 100.0;
        }
        100.0 * self.wrong_flagged as f64 / self.wrong as f64
    }

    /// One line of figures.
    pub fn line(&self) -> String {
        format!(
            "{} items, {} labelled: accuracy {:.2}% ({}), {} false positives, {} false \
             negatives, {} undecided; signal fires on {} ({:.2}%), flags {} of {} wrong \
             verdicts ({:.1}%)",
            self.items,
            self.labelled,
            self.accuracy(),
            self.right,
            self.false_positives,
            self.false_negatives,
            self.undecided,
            self.fired,
            self.firing_rate(),
            self.wrong_flagged,
            self.wrong,
            self.recall()
        )
    }
}

/// A whole set: overall, per benchmark (in order of first appearance), and each item's
/// score kept for dumps.
pub struct Report {
    pub overall: Tally,
    pub per_benchmark: Vec<(String, Tally)>,
}

pub fn measure(items: &[Labelled]) -> (Report, Vec<Scored>) {
    let mut overall = Tally::default();
    let mut per: Vec<(String, Tally)> = Vec::new();
    let mut scored = Vec::with_capacity(items.len());
    for it in items {
        let r = score(it);
        overall.add(it, &r);
        let at = match per.iter().position(|(b, _)| *b == it.benchmark) {
            Some(at) => at,
            None => {
                per.push((it.benchmark.clone(), Tally::default()));
                per.len() - 1
            }
        };
        if let Some((_, t)) = per.get_mut(at) {
            t.add(it, &r);
        }
        scored.push(r);
    }
    (
        Report {
            overall,
            per_benchmark: per,
        },
        scored,
    )
}

impl Report {
    /// Everything, as the test and the bench print it.
    pub fn render(&self, name: &str) -> String {
        let mut out = format!("{name}: {}\n", self.overall.line());
        if self.per_benchmark.len() > 1 {
            for (b, t) in &self.per_benchmark {
                let _ = writeln!(out, "  {b}: {}", t.line());
            }
        }
        let _ = writeln!(
            out,
            "  doubt kinds (fires on / of which wrong = precision):"
        );
        for (k, (fires, wrong)) in &self.overall.kinds {
            let _ = writeln!(
                out,
                "    {k}: {fires} ({:.2}% of items), {wrong} wrong ({:.1}%)",
                100.0 * *fires as f64 / self.overall.items.max(1) as f64,
                100.0 * *wrong as f64 / (*fires).max(1) as f64
            );
        }
        out
    }
}

/// With `VERIFYFAST_REAL_DUMP=path`, one line per item that is wrong or flagged: what to read
/// when a figure moves.
pub fn dump(name: &str, items: &[Labelled], scored: &[Scored]) {
    let Some(path) = std::env::var_os("VERIFYFAST_REAL_DUMP") else {
        return;
    };
    let mut out = String::new();
    for (it, r) in items.iter().zip(scored) {
        let tag = match (r.wrong, r.flagged) {
            (true, false) => "MISSED",
            (true, true) => "CAUGHT",
            (false, true) => "ALARM",
            _ => "ok",
        };
        let tail: String = {
            let t = it.output.trim_end();
            let start = t.char_indices().rev().nth(300).map_or(0, |(i, _)| i);
            t.get(start..).unwrap_or("").replace('\n', "⏎")
        };
        let reason = r
            .verdict
            .predicted
            .as_ref()
            .map_or("no answer".to_string(), |p| p.confidence_reason.clone());
        let _ = writeln!(
            out,
            "{name}\t{tag}\t{}\tlabel={:?}\t{:?}\t{}\t[{}]\t{}\n    …{tail}",
            it.id,
            it.label,
            r.verdict.outcome,
            r.verdict.reason,
            r.kinds.join(","),
            reason
        );
    }
    let mut file = std::path::PathBuf::from(path);
    file.set_extension(format!("{name}.txt"));
    let _ = std::fs::write(&file, out);
}

/// A long-CoT output of `bytes` bytes made of real dev outputs one after another, cut at the
/// front (so the last one's conclusion ends it), and that last one's gold: for timing one
/// long text.
pub fn long_output(items: &[Labelled], bytes: usize) -> (String, String) {
    let mut out = String::new();
    let mut gold = String::new();
    for it in items {
        if out.len() >= bytes {
            break;
        }
        out.push_str(&it.output);
        out.push_str("\n\n");
        gold.clone_from(&it.gold);
    }
    let mut cut = out.len().saturating_sub(bytes);
    while !out.is_char_boundary(cut) {
        cut += 1;
    }
    (out.split_off(cut), gold)
}
