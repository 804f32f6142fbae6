//! Answer extraction and grading (pure: native and wasm).
//!
//! [`extract`] finds a final answer in a solution text with a rule chain ranked by priority
//! and position (see [`candidates`]), normalises it ([`normalize`]) and reports how sure it
//! is. [`grade`] extracts both sides and compares them with [`equiv::compare`], which says
//! which path decided. An optional LLM fallback is injected by the caller: [`needs_fallback_for`]
//! says when to ask, [`from_fallback_reply`] reads the reply with the same normaliser.

pub mod batch;
mod candidates;
pub mod choice;
mod cutoff;
pub mod doubt;
pub mod equiv;
pub mod expr;
pub mod fallback_batch;
mod guards;
pub mod normalize;
pub mod number;
pub mod patterns;
mod real;
pub mod records;
mod scan;
pub mod units;
pub mod words;

use std::sync::Arc;

pub use doubt::Doubt;
pub use equiv::{Comparison, Outcome, Path, Preset};
pub use patterns::{AnswerPatternSpec, AnswerPatterns, PatternError};
use serde::Serialize;

/// The rule that produced an answer. Not a `crate::names::named_enum!`: `Pattern` carries the
/// user's pattern name, which is its name in records.
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
    /// With no answer stated, the text's last display, introduced as the conclusion ("So, the
    /// differential equation would be: `\[…\]`") and named again by the closing remark ("… the
    /// correct differential equation.").
    ConcludingDisplay,
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
    /// The built-in rules (every method but a pattern's).
    const BUILT_IN: [Method; 12] = [
        Method::AnswerTag,
        Method::Boxed,
        Method::FinalAnswerMarker,
        Method::AnswerHeading,
        Method::JsonField,
        Method::HashMarker,
        Method::WholeText,
        Method::ConcludingDisplay,
        Method::FinalEquation,
        Method::MainClause,
        Method::LastNumber,
        Method::Fallback,
    ];

    /// The method a record names: a built-in rule by its name, otherwise an answer pattern's
    /// (records write both the same way, so either reads back as written).
    pub fn named(name: &str) -> Method {
        Method::BUILT_IN
            .into_iter()
            .find(|m| m.as_str() == name)
            .unwrap_or_else(|| Method::Pattern(name.into()))
    }

    /// Whether a pattern may not take this name: a built-in rule's, or `none` (a record's
    /// `method` must say unambiguously which rule found the answer).
    pub(crate) fn is_reserved(name: &str) -> bool {
        name == "none" || Method::BUILT_IN.iter().any(|m| m.as_str() == name)
    }

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
            Method::ConcludingDisplay => "concluding_display",
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
            Method::FinalEquation | Method::ConcludingDisplay => 0.8,
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
    let start = text.ceil_char_boundary(text.len() - MAX_TEXT_BYTES);
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
    extract_side(text, question, patterns, candidates::Side::Output)
}

/// [`extract_with`] for one side of a grade: a ground truth is written to be an answer, so
/// the rule that a cut-off text has none does not apply to it.
fn extract_side(
    text: &str,
    question: Option<&str>,
    patterns: &AnswerPatterns,
    side: candidates::Side,
) -> Option<Extraction> {
    if let Some((restored, inserted)) = eaten_backslashes(text) {
        let mut e = extract_side(&restored, question, patterns, side)?;
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
    let mut all = candidates::find_all(input, side);
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
/// [`doubt`]). A plain "≥2 `=` or >3 numbers" trigger fired on every GSM8K text;
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
        Method::ConcludingDisplay => {
            "the closing remark names the display introduced as the conclusion".to_string()
        }
        Method::Pattern(name) => format!("answer pattern {name}"),
        // Concatenated, not `format!`: this runs on each side of every grade.
        m => ["explicit ", m.as_str()].concat(),
    };
    (base, reason)
}

/// Whether the model is asked (the one "ask the model?" predicate: the page, the CLI, the batch
/// fallback and the grade record's doubt all use it): the doubt signal on `text` and what was extracted from it: a doubtful answer, or no answer
/// in a text that concluded. A text cut off before any conclusion (an unclosed thought, a
/// write-up that stops mid-sentence) has no answer for certain: a model asked to read it would
/// find none either (docs/extract.md, "Confidence signal").
pub fn needs_fallback_for(text: &str, result: Option<&Extraction>) -> bool {
    match result {
        Some(r) => r.low_confidence,
        None => !candidates::stops_before_conclusion(bounded(text)),
    }
}

/// Reads a fallback's reply with the same extractor and normaliser. The span points at the
/// answer in `text` when it occurs there verbatim, else it is `(0, 0)`. A reply whose rules
/// find different answers is not read: it may quote the solution's planted answers before its
/// own (docs/audit.md, "Reading replies"), and the rules' answer stands.
pub fn from_fallback_reply(text: &str, reply: &str) -> Option<Extraction> {
    let got = extract(reply, None)?;
    // "The final answer is none." reports that there is no answer; it is not the answer `none`.
    if says_no_answer(&got.answer) {
        return None;
    }
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

/// A model's way of saying the text has no answer ("none", "N/A", "无"): read as no reply.
fn says_no_answer(answer: &str) -> bool {
    let a = answer
        .trim()
        .trim_matches(|c: char| {
            c.is_ascii_punctuation() || c.is_whitespace() || "。．！".contains(c)
        })
        .to_lowercase();
    let a = a
        .strip_prefix("\\text{")
        .and_then(|x| x.strip_suffix('}'))
        .unwrap_or(&a);
    matches!(
        a.trim(),
        "none"
            | "no answer"
            | "n/a"
            | "na"
            | "null"
            | "nil"
            | "unknown"
            | "undefined"
            | "nothing"
            | "not given"
            | "not found"
            | "not stated"
            | "no final answer"
            | "cannot be determined"
            | "can't be determined"
            | "undetermined"
            | "无"
            | "没有"
            | "无答案"
            | "无法确定"
            | "不确定"
    )
}

/// Whether a verdict may be wrong even though both answers were read: *could not decide*, or
/// *different* only because no value comparison could read the two answers and their texts
/// differ (`s^2+b s+1` vs `s^{2}+bs+1`, `299.4 km/s` vs `300`). On the real long-CoT outputs
/// two in three such verdicts are wrong (docs/extract.md, "Confidence signal"), while a value
/// comparison's "different" almost never is.
pub fn verdict_in_doubt(v: &Verdict) -> bool {
    let mathy = |e: &Option<Extraction>| {
        e.as_ref().is_some_and(|x| {
            x.answer
                .bytes()
                .any(|b| b.is_ascii_digit() || matches!(b, b'\\' | b'^' | b'_' | b'{'))
        })
    };
    match v.outcome {
        Outcome::Undecided => true,
        Outcome::Different => {
            ((v.path == Path::Text || v.reason.contains("compared as text"))
                && (mathy(&v.predicted) || mathy(&v.ground_truth)))
                || near_miss(v)
                || close_call(v)
        }
        Outcome::Equal => false,
    }
}

/// Two numbers found different though one rounds to the other as written (to half a unit of
/// the coarser side's last digit), or does so a factor 100 apart: a rounded gold (`0.15` for
/// `0.1476`, `3.3e12` for `3.275 \times 10^{12}`) or a percent written as a fraction (`19.19`
/// for `0.192`). The verdict stands (docs/extract.md, "Equivalence policy"), but it is worth a
/// second look: on the dev long-CoT outputs such pairs were labelled equal and different alike.
fn near_miss(v: &Verdict) -> bool {
    let side = |e: &Option<Extraction>| -> Option<(f64, f64)> {
        let a = &e.as_ref()?.answer;
        let parsed = expr::parse(a)?;
        if !parsed.vars.is_empty() {
            return None;
        }
        let x = expr::eval(&parsed.root, &[]).to_f64()?;
        (x != 0.0).then_some((x, written_unit(a)?))
    };
    let decimal = |e: &Option<Extraction>| e.as_ref().is_some_and(|x| x.answer.contains('.'));
    if !(decimal(&v.predicted) || decimal(&v.ground_truth)) {
        return false;
    }
    let (Some((a, ua)), Some((b, ub))) = (side(&v.predicted), side(&v.ground_truth)) else {
        return false;
    };
    // The coarser side must be written as a rounding (a decimal point or an exponent): an
    // integer gold such as `1` says nothing about rounding.
    let (ra, rb) = (rounded(&v.predicted), rounded(&v.ground_truth));
    let rounds = |x: f64, ux: f64, y: f64, uy: f64| {
        let (unit, written) = if ux >= uy { (ux, ra) } else { (uy, rb) };
        written && x.is_finite() && y.is_finite() && (x - y).abs() <= 0.5 * unit * (1.0 + 1e-9)
    };
    rounds(a, ua, b, ub)
        || rounds(a, ua, 100.0 * b, 100.0 * ub)
        || rounds(100.0 * a, 100.0 * ua, b, ub)
}

/// A "different" verdict of the kind that real physics and engineering answers get wrong
/// (docs/extract.md, "Confidence signal"): the two values lie within 1 % of each other (a
/// rounded gold such as `300` for `299.4 km/s`, `2.2\tau` for `\tau\ln 9`), an answer with
/// arbitrary constants (`C_1`, `C_2` may be named the other way round), a differential
/// equation (the same law written in another arrangement), or a comparison decided at a
/// point where one side is undefined. The verdict stands; it is worth a second look.
fn close_call(v: &Verdict) -> bool {
    let (Some(p), Some(g)) = (&v.predicted, &v.ground_truth) else {
        return false;
    };
    let (p, g) = (p.answer.as_str(), g.answer.as_str());
    let constants = |a: &str| a.contains("C_") || a.contains("c_");
    let derivative = |a: &str| {
        a.contains("\\frac{d")
            || a.contains("\\dot")
            || a.contains("\\ddot")
            || a.contains("\\partial")
            || a.contains("'")
    };
    constants(p)
        || constants(g)
        || derivative(p)
        || derivative(g)
        || v.reason.contains("undefined")
        || within_one_percent(p, g)
}

/// Whether two answers' values (a bare number with a unit set aside, or one expression in
/// the same variables at two fixed points) lie within 1 % of each other.
fn within_one_percent(p: &str, g: &str) -> bool {
    // The value after a label (`t_r=\tau\ln 9`), the number before a unit (`299.4 km/s`).
    let value = |a: &str| -> Option<expr::Expr> {
        let a = a.rsplit('=').next().unwrap_or(a);
        let a = normalize::normalize(a);
        let end = a
            .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
            .unwrap_or(a.len());
        let (num, rest) = a.split_at(end);
        let unit = rest.trim();
        let with_unit = !num.is_empty()
            && rest.starts_with(' ')
            && !unit.is_empty()
            && !unit.bytes().any(|b| b.is_ascii_digit());
        if with_unit {
            expr::parse(num)
        } else {
            expr::parse(&a)
        }
    };
    let (Some(a), Some(b)) = (value(p), value(g)) else {
        return false;
    };
    // Two numbers are a close call only when one is written rounded: integers 809 and 810
    // are simply different answers.
    let decimal = |x: &str| x.contains('.') && !x.ends_with(".0");
    if a.vars.is_empty() && !(decimal(p) || decimal(g)) {
        return false;
    }
    let mut names_a = a.vars.clone();
    let mut names_b = b.vars.clone();
    names_a.sort();
    names_b.sort();
    if names_a != names_b || a.vars.len() > 4 {
        return false;
    }
    // Both at the same points: variable values by name, so the two orders agree.
    let at = |e: &expr::Expr, k: usize| -> Option<f64> {
        let xs: Vec<f64> = e
            .vars
            .iter()
            .map(|n| {
                let i = names_a.iter().position(|m| m == n).unwrap_or(0);
                1.3 + 0.7 * (i + k) as f64
            })
            .collect();
        expr::eval(&e.root, &xs).to_f64()
    };
    (0..2).all(|k| match (at(&a, k), at(&b, k)) {
        (Some(x), Some(y)) => {
            x.is_finite() && y.is_finite() && x != y && (x - y).abs() <= 0.01 * x.abs().max(y.abs())
        }
        _ => false,
    })
}

/// Whether an answer is written as a rounded number: a decimal point or a power of ten.
fn rounded(e: &Option<Extraction>) -> bool {
    e.as_ref().is_some_and(|x| {
        let a = x.answer.as_str();
        (a.contains('.') && !a.ends_with(".0")) || a.contains('e') || a.contains("10^")
    })
}

/// The unit of the last written digit of a plain number (`0.15` → 0.01, `3.3e12` → 1e11,
/// `3.275*10^{12}` → 1e9, `42` → 1); `None` for anything else.
fn written_unit(s: &str) -> Option<f64> {
    let s = s.trim_start_matches('-');
    let digits_end = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (mantissa, rest) = s.split_at(digits_end);
    if mantissa.is_empty() || mantissa.matches('.').count() > 1 {
        return None;
    }
    let places = mantissa.split_once('.').map_or(0, |(_, f)| f.len()) as i32;
    let exponent: i32 = if rest.is_empty() {
        0
    } else {
        let e = ["e", "E", "*10^", "\\times10^", "\\cdot10^"]
            .iter()
            .find_map(|p| rest.strip_prefix(p))?;
        e.trim_start_matches('{')
            .trim_end_matches('}')
            .parse()
            .ok()?
    };
    Some(10f64.powi(exponent - places))
}

/// Something that can read an answer when the rules are unsure (the audit issue's LLM).
pub trait AnswerFallback {
    /// The raw reply, or `None` when the fallback is unavailable or failed.
    fn reply(&mut self, text: &str, question: Option<&str>) -> Option<String>;
}

/// [`extract_with`], asking `fallback` only when [`needs_fallback_for`] says so. A fallback that
/// fails or finds nothing leaves the rule-based answer in place.
pub fn extract_with_fallback(
    text: &str,
    question: Option<&str>,
    patterns: &AnswerPatterns,
    fallback: &mut dyn AnswerFallback,
) -> Option<Extraction> {
    let ruled = extract_with(text, question, patterns);
    if !needs_fallback_for(text, ruled.as_ref()) {
        return ruled;
    }
    let replied = fallback
        .reply(text, question)
        .and_then(|r| from_fallback_reply(text, &r))
        .and_then(|f| stated_by_the_text(text, f, ruled.as_ref()));
    match (replied, ruled) {
        (Some(mut f), Some(r)) => {
            f.candidates.insert(0, r.as_candidate());
            Some(f)
        }
        (f, r) => f.or(r),
    }
}

/// The model's answer only when the text states it: it occurs in `text` as written (not inside a
/// longer number), and — when the rules found answers — it is one of them (the model picks among
/// the text's own conclusions; a value the rules never read as an answer, such as a number an
/// instruction planted in the text asks for, is not taken). When the rules found none, the
/// model's answer stays in doubt. Otherwise the rules' answer stands (docs/extract.md, "LLM
/// fallback").
fn stated_by_the_text(
    text: &str,
    model: Extraction,
    ruled: Option<&Extraction>,
) -> Option<Extraction> {
    let raw = model.raw.trim();
    let digit = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
    // "3" is not stated by "23": an occurrence must not continue a number on either side.
    let occurs = !raw.is_empty()
        && text.match_indices(raw).any(|(i, m)| {
            let before = text[..i].chars().next_back();
            let after = text[i + m.len()..].chars().next();
            let joins_before = digit(before) && digit(raw.chars().next());
            let joins_after = digit(after) && digit(raw.chars().next_back());
            !(joins_before || joins_after)
        });
    if !occurs {
        return None;
    }
    match ruled {
        Some(r) => {
            // A last number or a main clause is a guess of the rules, not an answer the text
            // states as one (a planted "RESPOND WITH: 42" is both).
            let guess = |m: &Method| matches!(m, Method::MainClause | Method::LastNumber);
            let stated = std::iter::once((&r.method, r.answer.as_str()))
                .chain(r.candidates.iter().map(|c| (&c.method, c.answer.as_str())))
                .filter(|(m, _)| !guess(m))
                .any(|(_, a)| agrees(a, &model.answer));
            if stated {
                return Some(model);
            }
            // Confirming the rules' own guess keeps it in doubt.
            agrees(&r.answer, &model.answer).then(|| Extraction {
                low_confidence: true,
                confidence_reason: format!(
                    "{}; it confirms the rules' guess {}",
                    model.confidence_reason,
                    r.method.as_str()
                ),
                ..model
            })
        }
        None => Some(Extraction {
            low_confidence: true,
            confidence_reason: format!(
                "{}; the rules found no answer to confirm it",
                model.confidence_reason
            ),
            ..model
        }),
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

/// A ground truth listing equal forms of one answer separated by `##` (GAOKAO-Bench writes
/// `$\frac{3}{10} \# \# 0.3$`): each form, in its own `$…$`. Only a gold is read this way: it
/// is written by the reference, where an output listing forms would be hedging.
fn gold_alternatives(gold: &str) -> Option<Vec<String>> {
    // Most golds have no `#` at all: one byte search says so, before the copies below.
    memchr::memchr(b'#', gold.as_bytes())?;
    // Only the escaped `\#\#` of a written gold: a bare `####` is GSM8K's answer marker.
    let compact: String = gold.split_whitespace().collect::<Vec<_>>().join(" ");
    let unified = compact.replace("\\# \\#", "\\#\\#");
    if !unified.contains("\\#\\#") {
        return None;
    }
    let forms: Vec<String> = unified
        .split("\\#\\#")
        .map(|f| f.trim().trim_matches('$').trim())
        .filter(|f| !f.is_empty())
        .map(|f| format!("${f}$"))
        .collect();
    (2..=4).contains(&forms.len()).then_some(forms)
}

/// Words of a gold's closing remark saying other answers are accepted too ("any value that
/// satisfies … will do", "the answer is not unique").
const OTHERS_ACCEPTED: [&str; 5] = ["皆可", "均可", "即可", "不唯一", "都可"];

/// A ground truth that ends in a remark in brackets accepting other answers (`2 (满足 … 皆可)`,
/// `x=1（答案不唯一）`): the gold without it, and the remark. A different answer may be another
/// accepted one, so it is not called different (docs/extract.md, "Exam outputs").
fn one_of_many(gold: &str) -> (&str, Option<&str>) {
    let t = gold.trim_end().trim_end_matches(['.', '。']);
    let Some(body) = t.strip_suffix(')').or_else(|| t.strip_suffix('）')) else {
        return (gold, None);
    };
    let Some(open) = body.rfind(['(', '（']) else {
        return (gold, None);
    };
    let note = body.get(open..).unwrap_or("");
    let head = body.get(..open).unwrap_or("").trim_end();
    if head.is_empty() || !OTHERS_ACCEPTED.iter().any(|w| note.contains(w)) {
        return (gold, None);
    }
    (head, Some(note.trim_start_matches(['(', '（'])))
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
    grade_as(output, ground_truth, question, preset, patterns, false)
}

/// [`grade_with`] in multiple-choice mode, asked for by the caller (`verifyfast grade
/// --choices`, a record's `"answer_type": "choice"`): the answer is the set of option letters
/// the output commits to, and an answer that is one option's text (the question's option list)
/// counts as that option's letter ([`choice`]; docs/extract.md, "Multiple choice"). A gold that
/// names no option is graded as a value, as by [`grade_with`].
pub fn grade_choices(
    output: &str,
    ground_truth: &str,
    question: Option<&str>,
    preset: Preset,
    patterns: &AnswerPatterns,
) -> Verdict {
    grade_as(output, ground_truth, question, preset, patterns, true)
}

/// One output graded, in multiple-choice mode or not: what [`grade_with`], [`grade_choices`]
/// and a record's line (`records::grade_line`, which knows the mode from the line) share.
pub(crate) fn grade_as(
    output: &str,
    ground_truth: &str,
    question: Option<&str>,
    preset: Preset,
    patterns: &AnswerPatterns,
    choices: bool,
) -> Verdict {
    let predicted = extract_with(output, question, patterns);
    grade_read(
        predicted,
        Some(output),
        (ground_truth, question),
        preset,
        patterns,
        choices,
    )
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
    grade_read(
        predicted,
        None,
        (ground_truth, question),
        preset,
        patterns,
        false,
    )
}

/// [`grade_predicted`] with the output's text when there is one: the words right after each
/// answer (`5 million`, `3 GHz`) are part of its value (see [`with_units`]). `choices`: the
/// caller asked for multiple-choice grading (without it, it applies when the gold names options
/// the question lists: [`choice::auto`]).
fn grade_read(
    predicted: Option<Extraction>,
    output: Option<&str>,
    (ground_truth, question): (&str, Option<&str>),
    preset: Preset,
    patterns: &AnswerPatterns,
    choices: bool,
) -> Verdict {
    // `$\frac{3}{10} \# \# 0.3$`: a gold listing equal forms of its answer; any one is right.
    if let Some(forms) = gold_alternatives(ground_truth) {
        let mut first: Option<Verdict> = None;
        for form in &forms {
            let v = grade_read(
                predicted.clone(),
                output,
                (form, question),
                preset,
                patterns,
                choices,
            );
            if v.equivalent {
                return Verdict {
                    reason: format!(
                        "{} (one of the ground truth's {} forms)",
                        v.reason,
                        forms.len()
                    ),
                    ..v
                };
            }
            first.get_or_insert(v);
        }
        if let Some(v) = first {
            return v;
        }
    }
    // `2 (满足 $1<e \leq \sqrt{5}$ 皆可)`: a gold that gives one of many accepted answers.
    let (ground_truth, others_accepted) = one_of_many(ground_truth);
    let gold = extract_side(
        ground_truth,
        question,
        patterns,
        candidates::Side::GroundTruth,
    )
    .or_else(|| bare_ground_truth(ground_truth));
    let as_choice = gold
        .as_ref()
        .is_some_and(|g| choices || choice::auto(g, question));
    let refused = match (&predicted, &gold) {
        (Some(p), Some(g)) => guards::restates_question(p, g, question)
            .or_else(|| guards::copied_from_question(p, output, question, as_choice))
            .or_else(|| {
                (preset == Preset::Reward)
                    .then(|| guards::reward_refusal(p, g, output))
                    .flatten()
            }),
        _ => None,
    };
    let by_letters = match (&predicted, &gold) {
        (Some(p), Some(g)) if as_choice => choice::compare(p, g, question, choices),
        _ => None,
    };
    let (outcome, path, reason) = match (&predicted, &gold, refused) {
        // An answer that is no answer (the question copied back; under the reward preset,
        // what a policy would learn to game): see `guards`.
        (Some(_), Some(_), Some(r)) => (Outcome::Different, Path::NoAnswer, r),
        // Option letters, compared as sets of letters: see `choice`.
        (Some(p), Some(g), None) if by_letters.is_some() => {
            let c = by_letters.unwrap_or_else(|| compare_answers(p, g, question, preset));
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
        (Some(p), Some(g), None) => {
            // `$\boxed{28}$ pct`: a percent word right after the answer is its `%`.
            let (pp, gp) = (
                percent_after(p, output, g),
                percent_after(g, Some(ground_truth), p),
            );
            let (p, g) = (pp.as_ref().unwrap_or(p), gp.as_ref().unwrap_or(g));
            let c = with_units(
                (p, output),
                (g, Some(ground_truth)),
                question,
                compare_answers(p, g, question, preset),
            );
            // The text of the `format!` above, concatenated (every grade writes one).
            let how = [
                "predicted `",
                &p.answer,
                "` (",
                p.method.as_str(),
                ") vs ground truth `",
                &g.answer,
                "` (",
                g.method.as_str(),
                "): ",
                &c.reason,
            ]
            .concat();
            (c.outcome, c.path, how)
        }
        (None, Some(_), _) => (
            Outcome::Different,
            Path::NoAnswer,
            "no answer found in the output".to_string(),
        ),
        (Some(_), None, _) => (
            Outcome::Different,
            Path::NoAnswer,
            "no answer found in the ground truth".to_string(),
        ),
        (None, None, _) => (
            Outcome::Different,
            Path::NoAnswer,
            "no answer found on either side".to_string(),
        ),
    };
    let (outcome, reason) = match others_accepted {
        Some(note) if outcome == Outcome::Different && predicted.is_some() => (
            Outcome::Undecided,
            format!(
                "{reason}; but the ground truth accepts other answers ({note}): could not decide"
            ),
        ),
        _ => (outcome, reason),
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
    let c = equiv::compare(&p.answer, &g.answer, question, preset);
    if preset != Preset::Reward || c.outcome != Outcome::Equal || !guards::has_decimal(&p.answer) {
        return c;
    }
    // The reward preset pays lenient's rounding only where the gold is written rounded.
    if equiv::compare(&p.answer, &g.answer, question, Preset::Strict).outcome == Outcome::Equal {
        return c;
    }
    match guards::rounded_answer(&p.answer, &g.answer) {
        Some(reason) => Comparison {
            equivalent: false,
            outcome: Outcome::Different,
            reason,
            ..c
        },
        None => c,
    }
}

/// The scale word and unit of an answer: written before it (`\$5`), inside it
/// (`5\text{ kB}`), or right after it in the text (`5 million`, `3 GHz`).
fn suffix_of(e: &Extraction, text: Option<&str>) -> Option<units::Suffix> {
    if let Some(s) = units::prefix_unit(&e.raw) {
        return Some(s);
    }
    if let Some(u) = normalize::unit_of(&e.raw) {
        if let Some(s) = units::suffix(&u) {
            return Some(s);
        }
    }
    // The next 40 characters, borrowed.
    let after = text.and_then(|t| t.get(e.span.1..))?;
    units::suffix(first_chars(after, 40))
}

/// The first `n` characters of `s` (all of it when it is shorter), borrowed. Without decoding
/// them when those bytes are ASCII, as they mostly are (this runs four times per grade).
fn first_chars(s: &str, n: usize) -> &str {
    if s.as_bytes().get(..=n).is_some_and(<[u8]>::is_ascii) {
        return s.get(..n).unwrap_or(s);
    }
    s.char_indices()
        .nth(n)
        .and_then(|(at, _)| s.get(..at))
        .unwrap_or(s)
}

/// The answer with a `%` when the text right after it says percent (`$\boxed{28}$ pct`,
/// `\boxed{28} percent`, `$28$\%`): read like `28 pct` inside the answer, which the
/// normaliser writes `28%` (docs/extract.md, "Percent policy"). Only against an `other`
/// answer that is a percent too, or a number between −1 and 1 (`19.19` then `%` for the gold
/// `0.192`): against a bare `40`, GSM8K's golds for "40%", the percent rules would turn an
/// equal verdict into a different one under strict. `None` when nothing changes.
fn percent_after(e: &Extraction, text: Option<&str>, other: &Extraction) -> Option<Extraction> {
    if e.answer.ends_with('%') {
        return None;
    }
    // The next 24 characters, borrowed.
    let mut rest = first_chars(text?.get(e.span.1..)?, 24);
    // `str::trim_start_matches` with a `&str` builds a substring searcher per call.
    fn strip_all<'a>(mut s: &'a str, p: &str) -> &'a str {
        while let Some(r) = s.strip_prefix(p) {
            s = r;
        }
        s
    }
    loop {
        let next = strip_all(
            strip_all(rest.trim_start_matches(['}', '$', ' ']), "\\)"),
            "\\]",
        );
        if next.len() == rest.len() {
            break;
        }
        rest = next;
    }
    // Compared ignoring ASCII case in place (the words are lower-case ASCII): no copy.
    let bytes = rest.as_bytes();
    let word = ["percentage", "percent", "pct"].iter().any(|w| {
        bytes
            .get(..w.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(w.as_bytes()))
            && !bytes.get(w.len()).is_some_and(u8::is_ascii_alphabetic)
    });
    if !(word || rest.starts_with('%') || rest.starts_with("\\%")) {
        return None;
    }
    // Parsed only now: most answers have no percent word after them (the hot path).
    let one = num_rational::BigRational::from_integer(1.into());
    let fraction = exact_number(&other.answer).is_some_and(|v| num_traits::Signed::abs(&v) < one);
    if exact_number(&e.answer).is_none() || !(other.answer.ends_with('%') || fraction) {
        return None;
    }
    Some(Extraction {
        answer: format!("{}%", e.answer),
        ..e.clone()
    })
}

/// The exact value of a normalised answer that is a plain number (`5`, `\frac12`, `2.5`).
fn exact_number(answer: &str) -> Option<num_rational::BigRational> {
    let e = expr::parse(answer).filter(|e| e.vars.is_empty())?;
    match expr::eval(&e.root, &[]) {
        number::Num::Exact(r) => Some(r),
        _ => None,
    }
}

/// Units and scale words are part of the value (docs/extract.md, "Units"). The
/// normaliser drops them so that a unit-less gold matches (`7 years` vs `7`: the values
/// decide); but a scale word changes the number (`5 million` ≠ `5`), units convert exactly
/// (`2 L` = `2000 mL`), and units that differ and do not convert are different (`5 kB` vs
/// `5 MB` is a conversion, `7 years` vs `7 months`, `90 degrees` vs `90 radians` are not).
fn with_units(
    (p, p_text): (&Extraction, Option<&str>),
    (g, g_text): (&Extraction, Option<&str>),
    question: Option<&str>,
    c: Comparison,
) -> Comparison {
    let (mut sp, mut sg) = (suffix_of(p, p_text), suffix_of(g, g_text));
    // A word the unit table cannot convert, against a different one: no verdict either way
    // (`3 dozen` vs `3` or `36`, `5 mmol` vs `5 mol`).
    // A question that counts in the word ("how many dozen") has bare answers in it.
    let asked_in = |w: &str| {
        let stem = w.trim_end_matches('s').to_lowercase();
        question.is_some_and(|q| q.to_lowercase().contains(&stem))
    };
    if let Some(word) = units::unread(sp.as_ref(), sg.as_ref()).filter(|w| !asked_in(w)) {
        return Comparison {
            equivalent: false,
            outcome: Outcome::Undecided,
            path: Path::Unit,
            reason: format!(
                "`{word}` is not a unit or scale word this grader converts, and the other \
                 answer does not say the same ({}): could not decide",
                c.reason
            ),
        };
    }
    // A question that counts in a scale ("how many million …") has bare answers in it: the
    // side without the word is read with it (GSM8K: `4 million` for gold `4`).
    let (op, og) = (sp.clone(), sg.clone());
    for (s, other) in [(&mut sp, og), (&mut sg, op)] {
        let other_scale = other.as_ref().map_or(0, |o| o.scale);
        let own_scale = s.as_ref().map_or(0, |o| o.scale);
        if own_scale == 0 && other_scale != 0 && units::question_counts_in(question, other_scale) {
            s.get_or_insert_with(units::Suffix::default).scale = other_scale;
        }
    }
    let scaled = |s: &Option<units::Suffix>| s.as_ref().is_some_and(|s| s.scale != 0);
    let with_unit = |s: &Option<units::Suffix>| s.as_ref().and_then(|s| s.unit);
    let decided = |equal: bool, reason: String| Comparison {
        equivalent: equal,
        outcome: if equal {
            Outcome::Equal
        } else {
            Outcome::Different
        },
        path: Path::Unit,
        reason,
    };
    let both_units = with_unit(&sp).is_some() && with_unit(&sg).is_some();
    if both_units || scaled(&sp) || scaled(&sg) {
        let (a, b) = (
            sp.clone().unwrap_or_default(),
            sg.clone().unwrap_or_default(),
        );
        let show = |s: &units::Suffix| {
            let scale = if s.scale != 0 {
                format!("×10^{} ", s.scale)
            } else {
                String::new()
            };
            format!("{scale}{}", s.unit.map_or("", |u| u.0))
        };
        if !units::same_dimension(&a, &b) {
            return decided(
                false,
                format!(
                    "different units: {} vs {} (the values: {})",
                    show(&a),
                    show(&b),
                    c.reason
                ),
            );
        }
        // The value without its unit word (`60 s`: the `s` is the unit read above).
        let number = |answer: &str| {
            exact_number(answer).or_else(|| {
                let bare = answer.trim_end_matches(|c: char| c.is_alphabetic() || c == ' ');
                (bare.len() < answer.len())
                    .then(|| exact_number(bare))
                    .flatten()
            })
        };
        let values = number(&p.answer).zip(number(&g.answer));
        // One side without a unit is read in the other's unit (`5 million` vs `5000000`).
        let one_unit = a.unit.is_none() || b.unit.is_none();
        let based = values.and_then(|(x, y)| {
            if one_unit {
                Some((x * number::pow10(a.scale), y * number::pow10(b.scale)))
            } else {
                Some((units::base_value(&x, &a)?, units::base_value(&y, &b)?))
            }
        });
        if let Some((x, y)) = based {
            let same = x == y;
            return decided(
                same,
                format!(
                    "with units and scale words, {} {} vs {} {}: {}",
                    p.answer,
                    show(&a),
                    g.answer,
                    show(&b),
                    if same { "equal" } else { "different" }
                ),
            );
        }
        if a != b && c.outcome == Outcome::Equal {
            return Comparison {
                equivalent: false,
                outcome: Outcome::Undecided,
                path: Path::Unit,
                reason: format!(
                    "{}, but the units or scale words differ ({} vs {}) and the values are not \
                     plain numbers: could not decide",
                    c.reason,
                    show(&a),
                    show(&b)
                ),
            };
        }
    }
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
mod tests_exam;
#[cfg(test)]
mod tests_selection;

/// `count` random texts of up to `max_pieces` of `pieces`, each with a random range `a..b` in
/// it (`b` up to one past its end), reproducible from `seed` (xorshift64): what the tests that
/// compare a fast reader with the plain one it replaced read.
#[cfg(test)]
fn random_texts<'a>(
    pieces: &'a [&'a str],
    max_pieces: usize,
    seed: u64,
    count: usize,
) -> impl Iterator<Item = (String, usize, usize)> + 'a {
    let mut state = seed;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        usize::try_from(state % n as u64).unwrap_or(0)
    };
    (0..count).map(move |_| {
        let len = next(max_pieces);
        let text: String = (0..len).map(|_| pieces[next(pieces.len())]).collect();
        let (a, b) = (next(text.len() + 2), next(text.len() + 2));
        (text, a.min(b), a.max(b))
    })
}

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
