//! The confidence signal's measurement, shared by tests/extract_confidence.rs and
//! benches/extract.rs: on a fixture set, how often the low-confidence flag fires and how many
//! wrong verdicts it flags (the LLM fallback is asked exactly when it fires).
// The bench uses part of it, the test another part.
#![allow(dead_code)]

use verifyfast::extract::{grade, needs_fallback_for, verdict_in_doubt, Outcome, Preset, Verdict};

/// One solution with the reference answer a benchmark holds for its problem.
pub struct Item {
    pub id: String,
    /// What kind of case it is (the fixture's `category`; `gsm8k` for GSM8K).
    pub category: String,
    pub text: String,
    pub gold: String,
    pub question: Option<String>,
    /// The true verdict: whether the solution's own final answer equals `gold`.
    pub correct: bool,
}

/// GSM8K train lines (1-based) whose solution text itself concludes with another value than
/// its `####` line (an arithmetic slip or another quantity in the reference solution): there
/// "different" is the right verdict for the text, so they are not extraction errors. Each was
/// read by hand; the value the text concludes with is in the comment.
const GSM8K_TEXT_DISAGREES: &[usize] = &[
    357,  // "a total of 48 + 16 = 64 points" vs #### 66
    787,  // "he needs 4500/500 = 9 reams" (a year's paper) vs #### 3 (12 weeks)
    1155, // "162+45 = 207.00" vs #### 1035
    2771, // "$70 + $38 = 108" vs #### 106
    3264, // "16 canes / 4 canes/cavity = 4 cavities" vs #### 16
    3335, // "$4200+$3000 = $8600" (an addition slip) vs #### 7200
    4797, // "100+20 = 120 trucks and tanks" vs #### 140
    5351, // "13 + 4 + 16 = 45 marbles" (an addition slip) vs #### 33
    6158, // "70 + 40 = 100 people" (an addition slip) vs #### 110
    6761, // "4+4+6 = 18 hot dogs" (an addition slip) vs #### 14
    7183, // "3*x=30, x=10" vs #### 4
    7445, // "14*20=140 minutes" vs #### 280
];

/// GSM8K train: each solution without its `####` line, graded against the `####` value.
/// The reference solutions are right except [`GSM8K_TEXT_DISAGREES`], so every other "not
/// equal" is an extraction error.
pub fn gsm8k() -> Vec<Item> {
    let data = include_str!("../fixtures/gsm8k_train.jsonl");
    data.lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let v: serde_json::Value = serde_json::from_str(l).ok()?;
            let answer = v.get("answer")?.as_str()?;
            let at = answer.rfind("####")?;
            Some(Item {
                id: format!("gsm8k-{}", i + 1),
                category: "gsm8k".into(),
                text: answer.get(..at)?.to_string(),
                gold: answer.get(at + 4..)?.trim().to_string(),
                question: v.get("question")?.as_str().map(str::to_string),
                correct: !GSM8K_TEXT_DISAGREES.contains(&(i + 1)),
            })
        })
        .collect()
}

/// Our hand-written MATH-style solutions (tests/fixtures/extract_math_style.jsonl).
pub fn math_style() -> Vec<Item> {
    read_fixture(include_str!("../fixtures/extract_math_style.jsonl"))
}

/// 24 trap-heavy solutions written after the doubts were designed, as a check of how they
/// carry over (tests/fixtures/extract_math_style_fresh.jsonl).
pub fn math_style_fresh() -> Vec<Item> {
    read_fixture(include_str!("../fixtures/extract_math_style_fresh.jsonl"))
}

fn read_fixture(data: &str) -> Vec<Item> {
    data.lines()
        .filter_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).ok()?;
            Some(Item {
                id: v.get("id")?.as_str()?.to_string(),
                category: v.get("category")?.as_str()?.to_string(),
                text: v.get("text")?.as_str()?.to_string(),
                gold: v.get("gold")?.as_str()?.to_string(),
                question: None,
                correct: v.get("correct")?.as_bool()?,
            })
        })
        .collect()
}

/// The grader's verdict on one item, whether it is wrong, and whether the flag fired.
pub struct Scored {
    pub verdict: Verdict,
    pub wrong: bool,
    pub flagged: bool,
}

pub fn score(item: &Item) -> Scored {
    let verdict = grade(
        &item.text,
        &item.gold,
        item.question.as_deref(),
        Preset::Lenient,
    );
    let wrong = (verdict.outcome == Outcome::Equal) != item.correct;
    // The grade record's `low_confidence` (what the fallback runs on): a doubtful answer, no
    // answer in a text that concluded, or a verdict decided only by comparing texts.
    let flagged =
        needs_fallback_for(&item.text, verdict.predicted.as_ref()) || verdict_in_doubt(&verdict);
    Scored {
        verdict,
        wrong,
        flagged,
    }
}

#[derive(Debug, Default, Clone, Copy)]
pub struct Stats {
    pub items: usize,
    pub fired: usize,
    pub wrong: usize,
    pub wrong_flagged: usize,
}

impl Stats {
    pub fn firing_rate(&self) -> f64 {
        100.0 * self.fired as f64 / self.items.max(1) as f64
    }
    /// Share of the wrong verdicts the flag catches (100 % when there are none).
    pub fn recall(&self) -> f64 {
        if self.wrong == 0 {
            return 100.0;
        }
        100.0 * self.wrong_flagged as f64 / self.wrong as f64
    }
}

pub fn measure(items: &[Item]) -> Stats {
    let mut s = Stats {
        items: items.len(),
        ..Stats::default()
    };
    for it in items {
        let r = score(it);
        s.fired += usize::from(r.flagged);
        s.wrong += usize::from(r.wrong);
        s.wrong_flagged += usize::from(r.wrong && r.flagged);
    }
    s
}

/// [`measure`] per category, in the order the categories first appear.
pub fn by_category(items: &[Item]) -> Vec<(String, Stats)> {
    let mut out: Vec<(String, Stats)> = Vec::new();
    for it in items {
        let r = score(it);
        let at = match out.iter().position(|(c, _)| *c == it.category) {
            Some(at) => at,
            None => {
                out.push((it.category.clone(), Stats::default()));
                out.len() - 1
            }
        };
        if let Some((_, s)) = out.get_mut(at) {
            s.items += 1;
            s.fired += usize::from(r.flagged);
            s.wrong += usize::from(r.wrong);
            s.wrong_flagged += usize::from(r.wrong && r.flagged);
        }
    }
    out
}
