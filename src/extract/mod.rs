//! Answer extraction and grading (pure: native and wasm).
//!
//! [`extract`] finds a final answer in a solution text with a rule chain ranked by priority
//! and position (see [`candidates`]), normalises it ([`normalize`]) and reports how sure it
//! is. [`grade`] extracts both sides and compares them with [`equiv::compare`], which says
//! which path decided. An optional LLM fallback is injected by the caller: [`needs_fallback`]
//! says when to ask, [`from_fallback_reply`] reads the reply with the same normaliser.

pub mod batch;
mod candidates;
pub mod doubt;
pub mod equiv;
pub mod expr;
pub mod fallback_batch;
pub mod normalize;
pub mod number;
pub mod patterns;
mod real;
pub mod records;
mod scan;
pub mod words;

use std::sync::Arc;

pub use doubt::Doubt;
pub use equiv::{Comparison, Outcome, Path, Preset};
pub use patterns::{AnswerPatternSpec, AnswerPatterns, PatternError};
use serde::Serialize;

/// The rule that produced an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Method {
    /// A user-defined answer pattern, by its name (tried before every built-in rule).
    Pattern(Arc<str>),
    /// The last non-empty `<answer>…</answer>`.
    AnswerTag,
    /// The last `\boxed{…}` / `\fbox{…}` (`\boxed 5` too).
    Boxed,
    /// The last "final answer is" / "Answer:" / "答案是" style marker.
    FinalAnswerMarker,
    /// A `# Answer` heading line, the answer on the lines below it (PRM800K's format).
    AnswerHeading,
    /// The last `"answer"` / `"final_answer"` field of JSON output (often in a ```json fence).
    JsonField,
    /// `#### 42` (GSM8K style).
    HashMarker,
    /// The whole text is a bare answer (`54.0`, `x = 5`).
    WholeText,
    /// The first number after the last `=` on the last line.
    FinalEquation,
    /// The last number of the last line's main clause (no equation there): "He has 22
    /// apples because 22 > 21" → 22.
    MainClause,
    /// The last number anywhere.
    LastNumber,
    /// The injected fallback (an LLM) read the answer.
    Fallback,
}

/// Written as the rule's name (`"boxed"`, or the pattern's own name), as records show it.
impl Serialize for Method {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl Method {
    pub fn as_str(&self) -> &str {
        match self {
            Method::Pattern(name) => name,
            Method::AnswerTag => "answer_tag",
            Method::Boxed => "boxed",
            Method::FinalAnswerMarker => "final_answer_marker",
            Method::AnswerHeading => "answer_heading",
            Method::JsonField => "json_field",
            Method::HashMarker => "hash_marker",
            Method::WholeText => "whole_text",
            Method::FinalEquation => "final_equation",
            Method::MainClause => "main_clause",
            Method::LastNumber => "last_number",
            Method::Fallback => "fallback",
        }
    }

    /// How much an answer found by this rule is trusted on its own.
    fn base_confidence(&self) -> f64 {
        match self {
            Method::AnswerTag => 0.98,
            // The user said this is how their answers are written: as sure as a marker.
            Method::Pattern(_) => 0.95,
            Method::Boxed | Method::JsonField => 0.97,
            Method::AnswerHeading => 0.95,
            Method::FinalAnswerMarker | Method::HashMarker => 0.95,
            Method::WholeText => 0.9,
            Method::FinalEquation => 0.8,
            Method::Fallback => 0.75,
            // Sure only when its line states one value (see `doubt`).
            Method::MainClause => 0.75,
            Method::LastNumber => 0.5,
        }
    }

    /// Rules that are an explicit statement of the answer, not a guess from position.
    fn is_explicit(&self) -> bool {
        matches!(
            self,
            Method::Pattern(_)
                | Method::AnswerTag
                | Method::Boxed
                | Method::JsonField
                | Method::FinalAnswerMarker
                | Method::AnswerHeading
                | Method::HashMarker
        )
    }
}

/// One answer a rule found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Candidate {
    pub method: Method,
    /// Normalised answer.
    pub answer: String,
    /// The matched text, verbatim.
    pub raw: String,
    /// Byte range of `raw` in the input.
    pub span: (usize, usize),
    /// Every distinct answer the rule found when it found several (`\boxed{2}` and
    /// `\boxed{3}`), normalised, in text order; empty otherwise. `answer` stays the last one;
    /// the grader compares these as a set only when the gold has several answers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub several: Vec<String>,
}

/// Below this confidence an answer is flagged `low_confidence` (the fallback trigger).
pub const LOW_CONFIDENCE: f64 = 0.7;

/// The extracted answer, how it was found, and the runner-ups.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Extraction {
    pub answer: String,
    pub raw: String,
    pub span: (usize, usize),
    pub method: Method,
    /// See [`Candidate::several`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub several: Vec<String>,
    pub confidence: f64,
    pub low_confidence: bool,
    /// Why the confidence is what it is.
    pub confidence_reason: String,
    /// The reasons to doubt the answer (empty when sure); any makes it low-confidence.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub doubts: Vec<Doubt>,
    /// Answers of the other rules that fired, best first.
    pub candidates: Vec<Candidate>,
}

/// Texts longer than this are cut (at a char boundary) before extraction: bounded work.
pub const MAX_TEXT_BYTES: usize = 1 << 20;

fn bounded(text: &str) -> &str {
    if text.len() <= MAX_TEXT_BYTES {
        return text;
    }
    // Keep the end: final answers live there.
    let mut start = text.len() - MAX_TEXT_BYTES;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    text.get(start..).unwrap_or("")
}

/// `\boxed`, `\fbox` and `\frac` whose backslash a string escape ate: Python's `'\boxed{5}'` and
/// JSON's `"\boxed{5}"` hold a backspace (U+0008) then `oxed{5}`, `\frac` a form feed (U+000C)
/// then `rac`. Neither character occurs in text a model writes, so the pair can only be that
/// command: the text is read with it put back. Returns that text and where each put-back letter
/// sits in it (to map spans back to the caller's text), or `None` when there is nothing to put
/// back. docs/extract.md, "Extraction rules".
fn eaten_backslashes(text: &str) -> Option<(String, Vec<usize>)> {
    const EATEN: [(u8, &str, &str); 3] = [
        (0x08, "oxed", "\\b"),
        (0x0c, "box", "\\f"),
        (0x0c, "rac", "\\f"),
    ];
    let bytes = text.as_bytes();
    let mut out: Option<(String, Vec<usize>)> = None;
    let mut copied = 0;
    for at in memchr::memchr2_iter(0x08, 0x0c, bytes) {
        let rest = text.get(at + 1..).unwrap_or("");
        let Some((_, _, command)) = EATEN
            .iter()
            .find(|(c, tail, _)| bytes[at] == *c && rest.starts_with(tail))
        else {
            continue;
        };
        let (restored, inserted) =
            out.get_or_insert_with(|| (String::with_capacity(text.len() + 8), Vec::new()));
        restored.push_str(text.get(copied..at).unwrap_or(""));
        inserted.push(restored.len() + 1);
        restored.push_str(command);
        copied = at + 1;
    }
    let (mut restored, inserted) = out?;
    restored.push_str(text.get(copied..).unwrap_or(""));
    Some((restored, inserted))
}

/// A byte offset of the restored text (see [`eaten_backslashes`]) in the caller's text.
fn before_restoring(pos: usize, inserted: &[usize]) -> usize {
    pos - inserted.partition_point(|&i| i < pos)
}

/// The final answer in `text`, or `None` when no rule finds one ("no answer" is not a
/// wrong answer). `question` is accepted for callers' symmetry with [`grade`].
pub fn extract(text: &str, question: Option<&str>) -> Option<Extraction> {
    extract_with(text, question, &AnswerPatterns::NONE)
}

/// [`extract`] with the user's answer patterns tried first: the first pattern (in order)
/// that matches gives the answer and the built-in rules' answers become its runner-ups.
pub fn extract_with(
    text: &str,
    question: Option<&str>,
    patterns: &AnswerPatterns,
) -> Option<Extraction> {
    if let Some((restored, inserted)) = eaten_backslashes(text) {
        let mut e = extract_with(&restored, question, patterns)?;
        let back = |s: &mut (usize, usize)| {
            *s = (
                before_restoring(s.0, &inserted),
                before_restoring(s.1, &inserted),
            );
        };
        back(&mut e.span);
        e.candidates.iter_mut().for_each(|c| back(&mut c.span));
        return Some(e);
    }
    let input = bounded(text);
    let offset = text.len() - input.len();
    let mut all = candidates::find_all(input);
    if let Some(p) = patterns.find(input) {
        all.insert(0, p);
    }
    if all.is_empty() {
        return None;
    }
    let mut winner = all.remove(0);
    let doubts = doubt::find(input, &winner, &all, question);
    let (confidence, confidence_reason) = confidence(&winner, &doubts);
    if offset > 0 {
        for c in std::iter::once(&mut winner).chain(all.iter_mut()) {
            c.span = (c.span.0 + offset, c.span.1 + offset);
        }
    }
    Some(Extraction {
        answer: winner.answer,
        raw: winner.raw,
        span: winner.span,
        method: winner.method,
        several: winner.several,
        confidence,
        low_confidence: confidence < LOW_CONFIDENCE,
        confidence_reason,
        doubts,
        candidates: all,
    })
}

fn agrees(a: &str, b: &str) -> bool {
    equiv::compare(a, b, None, Preset::Strict).equivalent
}

/// Confidence is the rule's trust, lowered below [`LOW_CONFIDENCE`] by any doubt (see
/// [`doubt`]). The design note's "≥2 `=` or >3 numbers" trigger fired on every GSM8K text;
/// the doubts fire on what actually goes wrong.
fn confidence(winner: &Candidate, doubts: &[Doubt]) -> (f64, String) {
    let base = winner.method.base_confidence();
    if !doubts.is_empty() {
        let reason = doubts
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ");
        return ((base - 0.3).min(0.65), reason);
    }
    let reason = match &winner.method {
        Method::FinalEquation => {
            return (0.85, "final equation result is also the last number".into())
        }
        Method::MainClause => "the last line states one value".to_string(),
        Method::Pattern(name) => format!("answer pattern {name}"),
        m => format!("explicit {}", m.as_str()),
    };
    (base, reason)
}

/// Whether an injected fallback (an LLM) should be asked: no answer, or a doubtful one.
pub fn needs_fallback(result: Option<&Extraction>) -> bool {
    result.is_none_or(|r| r.low_confidence)
}

/// Reads a fallback's reply with the same extractor and normaliser. The span points at the
/// answer in `text` when it occurs there verbatim, else it is `(0, 0)`. A reply whose rules
/// find different answers is not read: it may quote the solution's planted answers before its
/// own (docs/audit.md, "Reading replies"), and the rules' answer stands.
pub fn from_fallback_reply(text: &str, reply: &str) -> Option<Extraction> {
    let got = extract(reply, None)?;
    // One answer: the rules agree, and every digit run of the reply is part of the answer as
    // written (a quoted "the answer is 99" before or after it makes the reply ambiguous).
    let one_answer = got.several.len() <= 1
        && got
            .candidates
            .iter()
            .all(|c| agrees(&c.answer, &got.answer))
        && reply
            .split(|c: char| !c.is_ascii_digit())
            .filter(|run| !run.is_empty())
            .all(|run| got.raw.contains(run));
    if !one_answer {
        return None;
    }
    let span = text
        .rfind(got.raw.as_str())
        .map_or((0, 0), |s| (s, s + got.raw.len()));
    let method = Method::Fallback;
    let confidence = method.base_confidence();
    Some(Extraction {
        confidence,
        low_confidence: confidence < LOW_CONFIDENCE,
        confidence_reason: format!("fallback reply read by {}", got.method.as_str()),
        doubts: Vec::new(),
        span,
        method,
        ..got
    })
}

/// Something that can read an answer when the rules are unsure (the audit issue's LLM).
pub trait AnswerFallback {
    /// The raw reply, or `None` when the fallback is unavailable or failed.
    fn reply(&mut self, text: &str, question: Option<&str>) -> Option<String>;
}

/// [`extract_with`], asking `fallback` only when [`needs_fallback`] says so. A fallback that
/// fails or finds nothing leaves the rule-based answer in place.
pub fn extract_with_fallback(
    text: &str,
    question: Option<&str>,
    patterns: &AnswerPatterns,
    fallback: &mut dyn AnswerFallback,
) -> Option<Extraction> {
    let ruled = extract_with(text, question, patterns);
    if !needs_fallback(ruled.as_ref()) {
        return ruled;
    }
    let replied = fallback
        .reply(text, question)
        .and_then(|r| from_fallback_reply(text, &r));
    match (replied, ruled) {
        (Some(mut f), Some(r)) => {
            f.candidates.insert(0, r.as_candidate());
            Some(f)
        }
        (f, r) => f.or(r),
    }
}

impl Extraction {
    fn as_candidate(&self) -> Candidate {
        Candidate {
            method: self.method.clone(),
            answer: self.answer.clone(),
            raw: self.raw.clone(),
            span: self.span,
            several: self.several.clone(),
        }
    }
}

/// A grading verdict with everything needed to explain it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    pub predicted: Option<Extraction>,
    pub ground_truth: Option<Extraction>,
    /// `outcome == Outcome::Equal`: an undecided verdict is not equivalent.
    pub equivalent: bool,
    /// Equal, different, or could not decide (counted apart from both).
    pub outcome: Outcome,
    pub path: Path,
    pub reason: String,
}

impl Verdict {
    pub fn predicted_answer(&self) -> Option<&str> {
        self.predicted.as_ref().map(|e| e.answer.as_str())
    }
    pub fn ground_truth_answer(&self) -> Option<&str> {
        self.ground_truth.as_ref().map(|e| e.answer.as_str())
    }
}

/// A short one-line ground truth in which no rule finds an answer ("No solution", "Monday")
/// is its own answer: a gold is written to be one, where a model's prose is not.
fn bare_ground_truth(text: &str) -> Option<Extraction> {
    let trimmed = text.trim();
    let start = text.len() - text.trim_start().len();
    if trimmed.is_empty() || trimmed.len() > 160 || trimmed.contains('\n') {
        return None;
    }
    let answer = normalize::normalize(trimmed);
    (!answer.is_empty()).then(|| Extraction {
        answer,
        raw: trimmed.to_string(),
        span: (start, start + trimmed.len()),
        method: Method::WholeText,
        several: Vec::new(),
        confidence: Method::WholeText.base_confidence(),
        low_confidence: false,
        confidence_reason: "a short ground truth is its own answer".into(),
        doubts: Vec::new(),
        candidates: Vec::new(),
    })
}

/// Extracts both sides (each may be a full solution or a bare answer) and compares them.
pub fn grade(output: &str, ground_truth: &str, question: Option<&str>, preset: Preset) -> Verdict {
    grade_with(
        output,
        ground_truth,
        question,
        preset,
        &AnswerPatterns::NONE,
    )
}

/// [`grade`] with the user's answer patterns tried first on both sides (a ground truth may
/// be a full solution written the same way, e.g. GSM8K's `#### 72`).
pub fn grade_with(
    output: &str,
    ground_truth: &str,
    question: Option<&str>,
    preset: Preset,
    patterns: &AnswerPatterns,
) -> Verdict {
    let predicted = extract_with(output, question, patterns);
    grade_predicted(predicted, ground_truth, question, preset, patterns)
}

/// [`grade_with`] for an output whose answer was already read (the LLM fallback's answer on the
/// Extract page): the ground truth is extracted and compared exactly as there.
pub fn grade_predicted(
    predicted: Option<Extraction>,
    ground_truth: &str,
    question: Option<&str>,
    preset: Preset,
    patterns: &AnswerPatterns,
) -> Verdict {
    let gold =
        extract_with(ground_truth, question, patterns).or_else(|| bare_ground_truth(ground_truth));
    let (outcome, path, reason) = match (&predicted, &gold) {
        (Some(p), Some(g)) => {
            let c = with_units(p, g, compare_answers(p, g, question, preset));
            let how = format!(
                "predicted `{}` ({}) vs ground truth `{}` ({}): {}",
                p.answer,
                p.method.as_str(),
                g.answer,
                g.method.as_str(),
                c.reason
            );
            (c.outcome, c.path, how)
        }
        (None, Some(_)) => (
            Outcome::Different,
            Path::NoAnswer,
            "no answer found in the output".to_string(),
        ),
        (Some(_), None) => (
            Outcome::Different,
            Path::NoAnswer,
            "no answer found in the ground truth".to_string(),
        ),
        (None, None) => (
            Outcome::Different,
            Path::NoAnswer,
            "no answer found on either side".to_string(),
        ),
    };
    Verdict {
        predicted,
        ground_truth: gold,
        equivalent: outcome == Outcome::Equal,
        outcome,
        path,
        reason,
    }
}

/// Compares the extracted answers. When one side gave several answers (several `\boxed{}`)
/// and the other has several too (`2, 3`, `\{2,3\}`, `\pm 2`, or several boxes), they are
/// compared as sets; otherwise each side's last answer is compared, as before (an earlier box
/// may be an intermediate result).
fn compare_answers(
    p: &Extraction,
    g: &Extraction,
    question: Option<&str>,
    preset: Preset,
) -> Comparison {
    // The set of several boxes, when every box holds one answer.
    let set_of = |e: &Extraction| -> Option<String> {
        let single = |a: &String| equiv::answer_count(a) == 1;
        (e.several.len() >= 2 && e.several.iter().all(single))
            .then(|| format!("\\{{{}\\}}", e.several.join(",")))
    };
    let many = |e: &Extraction| e.several.len() >= 2 || equiv::answer_count(&e.answer) >= 2;
    let (ps, gs) = (set_of(p), set_of(g));
    if (ps.is_some() || gs.is_some()) && many(p) && many(g) {
        let pa = ps.clone().unwrap_or_else(|| p.answer.clone());
        let ga = gs.clone().unwrap_or_else(|| g.answer.clone());
        let c = equiv::compare(&pa, &ga, question, preset);
        let boxes = |e: &Extraction| e.several.len();
        let side = match (ps.is_some(), gs.is_some()) {
            (true, true) => format!("{} and {} boxed answers", boxes(p), boxes(g)),
            (true, false) => format!("the {} boxed answers", boxes(p)),
            _ => format!("the ground truth's {} boxed answers", boxes(g)),
        };
        return Comparison {
            path: Path::Several,
            reason: format!("{side} as sets `{pa}` vs `{ga}`: {}", c.reason),
            ..c
        };
    }
    equiv::compare(&p.answer, &g.answer, question, preset)
}

/// Units are dropped by the normaliser (`18 dollars` → `18`) so that a unit-less gold matches;
/// but when both sides state a unit and the units differ (`7 years` vs `7 months`), the answers
/// are different whatever the numbers say. Same unit, or a unit on one side only: the value
/// comparison stands.
fn with_units(p: &Extraction, g: &Extraction, c: Comparison) -> Comparison {
    if c.outcome == Outcome::Different {
        return c;
    }
    match (normalize::unit_of(&p.raw), normalize::unit_of(&g.raw)) {
        (Some(up), Some(ug)) if up != ug => Comparison {
            equivalent: false,
            outcome: Outcome::Different,
            path: Path::Unit,
            reason: format!("different units: {up} vs {ug} (the values: {})", c.reason),
        },
        _ => c,
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_answers;

#[cfg(test)]
mod eaten_backslash_tests {
    use super::*;

    // Cause: `python -c "grade('so the answer is \\boxed{1/2}', '0.5')"` hands the grader a
    // backspace and `oxed{1/2}` (the shell keeps one backslash, Python reads `\b`), which was
    // graded as the text `\x08oxed{1/2}`: different.
    #[test]
    fn a_backslash_eaten_by_a_string_escape_is_put_back() {
        let v = grade(
            "so the answer is \u{8}oxed{1/2}",
            "0.5",
            None,
            Preset::Lenient,
        );
        assert!(v.equivalent, "{}", v.reason);
        let text = "so \u{c}rac{1}{3} and so \u{c}box{7}";
        let e = extract(text, None).unwrap();
        assert_eq!((e.answer.as_str(), e.method.as_str()), ("7", "boxed"));
        // One byte for one: the span is a range of the caller's text.
        assert_eq!(text.get(e.span.0..e.span.1), Some("7"), "{e:?}");
        assert_eq!(e.raw, "7");
        let e = extract("so the answer is \u{8}oxed{12}. Done", None).unwrap();
        assert_eq!((e.answer.as_str(), e.span), ("12", (23, 25)));
        // Other control characters are left alone.
        assert_eq!(eaten_backslashes("a\u{8}b \u{c}x"), None);
    }
}
