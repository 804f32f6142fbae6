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

use verifyfast::extract::{grade, needs_fallback_for, verdict_in_doubt, Outcome, Preset, Verdict};

/// One output with its reference answer and, when known, whether the output's own final
/// answer equals it.
#[derive(Clone)]
pub struct Labelled {
    pub id: String,
    /// The benchmark it answers (`AIME2024`, `MATH-500`, …; `gsm8k` for GSM8K).
    pub benchmark: String,
    pub output: String,
    pub gold: String,
    pub question: Option<String>,
    /// `None` where a careful human could not decide (counted, never scored).
    pub label: Option<bool>,
    /// The output's language (`zh`, `en`) and the kind of answer the gold is (`choice`,
    /// `integer`, `equation/inequality`, …), where the set says (the exam set does).
    pub language: Option<String>,
    pub answer_type: Option<String>,
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
                language: None,
                answer_type: None,
            })
        })
        .collect()
}

/// Labels the exam measurement does not score (counted, like a label a careful human could not decide):
/// the output's final answer is checked against the gold here, and these labels say otherwise.
const DISPUTED: [(&str, &str); 3] = [
    // `\boxed{\theta = \frac{3\pi}{2}, f(\frac{2\pi}{3}) = 1}` for the gold `\frac{3\pi}{2}, 1`:
    // both asked values equal the gold's; the LLM judge's "wrong" judged the reasoning before
    // them (it lets `a` be ±2, where only ±1 is monotone; f(2π/3) is 1 either way).
    (
        "gaokao2026-iamyb/Qwen3.6-27b-UD-Q2-K-XL-MTP/5",
        "final answer equals the gold",
    ),
    // `【答案】2√2` for the gold `$2 \sqrt{2}$` (b² = a² + c² − ac = 12 − 4 = 8): the final
    // answer equals the gold; the LLM teacher's "wrong" judged the reasoning before it.
    ("gaokaobench/gpt-4-0314/186", "final answer equals the gold"),
    // `0.975` for the gold `0.98`: the data's own policy credits a more precise number that
    // rounds to the gold; the human teacher did not (the exact mean is 0.98, so 0.975 is a
    // wrong computation). Either reading is defensible; not scored.
    (
        "gaokaobench/gpt-3.5-turbo-run-2/26",
        "rounds to the gold; the teacher said wrong",
    ),
];

/// tests/fixtures/exam_dev.jsonl: 470 real outputs on Chinese college-entrance exam math
/// (GAOKAO-Bench, Apache-2.0; iamyb/llm-gaokao-math-eval, MIT; tests/fixtures/README.md).
/// `benchmark` is the subset (source, model family and scoring); [`DISPUTED`] labels are unset.
pub fn exam() -> Vec<Labelled> {
    exam_file(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/exam_dev.jsonl"
    ))
}

/// tests/fixtures/exam_more.jsonl: 417 more real GAOKAO-Bench outputs (other models and runs
/// than [`exam`]'s: Gemini-Pro and GPT-3.5-turbo multiple choice, GPT-3.5-turbo fill-in scored
/// by human teachers, the GPT-4-0314 fill-in items [`exam`] does not hold), first graded before
/// any rule looked at them (tests/fixtures/README.md).
pub fn exam_more() -> Vec<Labelled> {
    exam_file(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/exam_more.jsonl"
    ))
}

/// One exam-format JSONL file (the fields of tests/fixtures/README.md's exam sets).
fn exam_file(path: &str) -> Vec<Labelled> {
    let data = std::fs::read_to_string(path).unwrap_or_default();
    data.lines()
        .filter_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).ok()?;
            let s = |k: &str| v.get(k).and_then(|x| x.as_str()).map(str::to_string);
            Some(Labelled {
                id: s("id")?,
                benchmark: s("subset")?,
                output: s("output")?,
                gold: s("gold")?,
                question: s("question"),
                label: v
                    .get("label")
                    .and_then(serde_json::Value::as_bool)
                    .filter(|_| {
                        !DISPUTED
                            .iter()
                            .any(|(id, _)| Some(*id) == s("id").as_deref())
                    }),
                language: s("language"),
                answer_type: s("answer_type"),
            })
        })
        .collect()
}

/// The fixed hold-out split of a real set: an item is held out when the FNV-1a 64-bit hash of
/// its `id` is 0, 1 or 2 modulo 10 (about 30 %). Rules and the doubt signal are tuned looking
/// only at the other part's failures; the held-out figures say how they carry over to outputs
/// nobody looked at (docs/extract.md, "Exam outputs").
pub fn held_out(id: &str) -> bool {
    fnv(id) % 10 < 3
}

/// FNV-1a 64 of `s`: the fixed splits of the real sets into tune and held-out parts hash an id
/// or a document with it (stable across platforms and Rust versions, unlike `DefaultHasher`).
pub fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
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
            language: None,
            answer_type: None,
        })
        .collect()
}

/// One item's grade (default preset, question passed) and what it says about the grader.
#[derive(Clone)]
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
    let doubtful_verdict = verdict_in_doubt(&verdict);
    let flagged = needs_fallback_for(&item.output, verdict.predicted.as_ref()) || doubtful_verdict;
    let kinds = match &verdict.predicted {
        None if flagged => vec!["no_answer".to_string()],
        None => vec!["no_conclusion (not a doubt)".to_string()],
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
            if doubtful_verdict {
                k.push("verdict_in_doubt".to_string());
            }
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
    measure_by(items, |it| it.benchmark.clone())
}

/// [`measure`] with the items grouped by `key` instead of by benchmark.
pub fn measure_by(items: &[Labelled], key: impl Fn(&Labelled) -> String) -> (Report, Vec<Scored>) {
    let scored: Vec<Scored> = items.iter().map(score).collect();
    (tally_by(items, &scored, key), scored)
}

/// The figures of items already scored, overall and grouped by `key` (groups in order of
/// first appearance).
pub fn tally_by(
    items: &[Labelled],
    scored: &[Scored],
    key: impl Fn(&Labelled) -> String,
) -> Report {
    let mut overall = Tally::default();
    let mut per: Vec<(String, Tally)> = Vec::new();
    for (it, r) in items.iter().zip(scored) {
        overall.add(it, r);
        let group = key(it);
        let at = match per.iter().position(|(b, _)| *b == group) {
            Some(at) => at,
            None => {
                per.push((group, Tally::default()));
                per.len() - 1
            }
        };
        if let Some((_, t)) = per.get_mut(at) {
            t.add(it, r);
        }
    }
    Report {
        overall,
        per_benchmark: per,
    }
}

/// The exam set's figures: the whole set, then each part of the hold-out split ([`held_out`])
/// per language, per answer type and per subset, and the doubt signal on each part.
pub struct ExamFigures {
    pub all: Tally,
    pub tuning: Tally,
    pub held_out: Tally,
    pub text: String,
}

pub fn measure_exam(items: &[Labelled]) -> (ExamFigures, Vec<Scored>) {
    let scored: Vec<Scored> = items.iter().map(score).collect();
    let all = tally_by(items, &scored, |_| String::new()).overall;
    let mut text = format!("exam (all): {}\n", all.line());
    let mut parts = Vec::new();
    for (name, keep) in [("tuning part", false), ("held-out part", true)] {
        let (its, sc): (Vec<&Labelled>, Vec<&Scored>) = items
            .iter()
            .zip(&scored)
            .filter(|(it, _)| held_out(&it.id) == keep)
            .unzip();
        let its: Vec<Labelled> = its.into_iter().cloned().collect();
        let sc: Vec<Scored> = sc.into_iter().cloned().collect();
        let lang = |it: &Labelled| it.language.clone().unwrap_or_else(|| "?".into());
        let kind = |it: &Labelled| it.answer_type.clone().unwrap_or_else(|| "?".into());
        let by_lang = tally_by(&its, &sc, lang);
        let _ = writeln!(text, "exam {name}: {}", by_lang.overall.line());
        for (title, report) in [
            ("language", by_lang),
            ("answer type", tally_by(&its, &sc, kind)),
            ("subset", tally_by(&its, &sc, |it| it.benchmark.clone())),
        ] {
            let _ = writeln!(text, "  per {title}:");
            for (b, t) in &report.per_benchmark {
                let _ = writeln!(text, "    {b}: {}", t.line());
            }
            if title == "subset" {
                let _ = writeln!(
                    text,
                    "  doubt kinds (fires on / of which wrong = precision):"
                );
                for (k, (fires, wrong)) in &report.overall.kinds {
                    let _ = writeln!(
                        text,
                        "    {k}: {fires} ({:.2}% of items), {wrong} wrong ({:.1}%)",
                        100.0 * *fires as f64 / report.overall.items.max(1) as f64,
                        100.0 * *wrong as f64 / (*fires).max(1) as f64
                    );
                }
            }
            parts.push(report.overall);
        }
    }
    let held = parts.pop().unwrap_or_default();
    let tuning = parts.first().cloned().unwrap_or_default();
    (
        ExamFigures {
            all,
            tuning,
            held_out: held,
            text,
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
