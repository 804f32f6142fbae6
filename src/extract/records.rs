//! JSONL record shapes of `verifyfast extract` / `verifyfast grade`, shared by the CLI and
//! the Extract page so both read and write exactly the same lines.

use super::{
    extract_with, needs_fallback_for, verdict_in_doubt, AnswerPatterns, Candidate, Doubt,
    Extraction, Outcome, Preset, Verdict,
};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;

use crate::json::{FieldError, Fields, FromJson, Named, Path};

/// Why an input line could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("line {line}: not valid JSON: {detail}")]
    Json { line: usize, detail: String },
    #[error("line {line}: expected a JSON object")]
    NotObject { line: usize },
    /// A field missing or of the wrong kind.
    #[error("line {line}: {error}")]
    Field { line: usize, error: FieldError },
    #[error("{0}")]
    Unreadable(String),
}

impl RecordError {
    /// The error line as JSONL (`{"line": 3, "error": "..."}`), id kept when it was readable.
    pub fn record(&self, line: usize, id: Option<Value>) -> String {
        #[derive(Serialize)]
        struct ErrorRecord {
            id: Value,
            line: usize,
            error: String,
        }
        let r = ErrorRecord {
            id: id.unwrap_or(Value::Null),
            line,
            error: self.to_string(),
        };
        serde_json::to_string(&r).unwrap_or_default()
    }
}

/// One `extract` input line.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtractInput {
    pub id: Value,
    pub text: String,
    pub question: Option<String>,
}

/// One `grade` input line.
#[derive(Debug, Clone, PartialEq)]
pub struct GradeInput {
    pub id: Value,
    pub output: String,
    pub ground_truth: String,
    pub question: Option<String>,
    /// Graded as multiple choice (`"answer_type": "choice"` on the line, or the caller's
    /// `--choices`): docs/extract.md, "Multiple choice".
    pub choices: bool,
}

fn object(text: &str, line: usize) -> Result<Value, RecordError> {
    match serde_json::from_str::<Value>(text) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err(RecordError::NotObject { line }),
        Err(e) => Err(RecordError::Json {
            line,
            detail: e.to_string(),
        }),
    }
}

/// The text fields of a line as written, for numbers: a `Value::Number` has gone through f64
/// (or i64/u64), so `12345678901234567890123` would come back as `1.2345678901234568e22` and
/// grade equal to a different integer. Read only when a field is a number.
#[derive(Deserialize)]
struct RawFields<'a> {
    #[serde(borrow, default)]
    text: Option<&'a RawValue>,
    #[serde(borrow, default)]
    output: Option<&'a RawValue>,
    #[serde(borrow, default)]
    ground_truth: Option<&'a RawValue>,
    #[serde(borrow, default)]
    question: Option<&'a RawValue>,
}

impl RawFields<'_> {
    fn get(&self, field: &str) -> Option<&RawValue> {
        match field {
            "text" => self.text,
            "output" => self.output,
            "ground_truth" => self.ground_truth,
            "question" => self.question,
            _ => None,
        }
    }
}

/// One line's fields, with its raw text for number fields and its number for errors.
struct Line<'a> {
    fields: Fields<'a>,
    raw: &'a str,
    number: usize,
}

impl Line<'_> {
    /// A text field (absent or `null` is `None`); numbers are accepted (`"ground_truth": 72`)
    /// with exactly the digits written.
    fn text(&self, field: &'static str) -> Result<Option<String>, RecordError> {
        match self.fields.present(field) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(Value::Number(n)) => {
                let written = serde_json::from_str::<RawFields>(self.raw)
                    .ok()
                    .and_then(|r| r.get(field).map(|v| v.get().trim().to_string()));
                Ok(Some(written.unwrap_or_else(|| n.to_string())))
            }
            Some(other) => Err(self.error(FieldError::wrong(
                self.fields.path.key(field),
                "a string or a number",
                other,
            ))),
        }
    }

    fn required(&self, field: &'static str) -> Result<String, RecordError> {
        self.text(field)?
            .ok_or_else(|| self.error(self.fields.missing(field)))
    }

    fn error(&self, error: FieldError) -> RecordError {
        RecordError::Field {
            line: self.number,
            error,
        }
    }

    /// The id of a line, or its line number when it has none.
    fn id(&self) -> Value {
        self.fields
            .get("id")
            .cloned()
            .unwrap_or_else(|| Value::from(self.number))
    }
}

/// The whole line, for the paths of its fields.
const LINE: Path<'static> = Path::Root("the line");

/// Best-effort id of a bad line, so its error record can still be matched up.
pub fn id_hint(text: &str) -> Option<Value> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(m)) => m.get("id").cloned(),
        _ => None,
    }
}

pub fn parse_extract_line(text: &str, line: usize) -> Result<ExtractInput, RecordError> {
    let value = object(text, line)?;
    let l = Line {
        fields: Fields::of(&value, LINE).map_err(|error| RecordError::Field { line, error })?,
        raw: text,
        number: line,
    };
    Ok(ExtractInput {
        id: l.id(),
        text: l.required("text")?,
        question: l.text("question")?,
    })
}

pub fn parse_grade_line(text: &str, line: usize) -> Result<GradeInput, RecordError> {
    let value = object(text, line)?;
    let l = Line {
        fields: Fields::of(&value, LINE).map_err(|error| RecordError::Field { line, error })?,
        raw: text,
        number: line,
    };
    Ok(GradeInput {
        id: l.id(),
        output: l.required("output")?,
        ground_truth: l.required("ground_truth")?,
        question: l.text("question")?,
        // Other answer types (the data sets' `integer`, `expression`, …) grade as values.
        choices: l.text("answer_type")?.is_some_and(|t| t.trim() == "choice"),
    })
}

/// An `extract` output line. `answer`, `raw`, `span` are null when no answer was found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExtractRecord {
    pub id: Value,
    pub answer: Option<String>,
    pub raw: Option<String>,
    pub span: Option<(usize, usize)>,
    /// The rule that fired (a built-in rule or an answer pattern's name), or `"none"`.
    pub method: String,
    pub confidence: f64,
    pub low_confidence: bool,
    /// Why the confidence is what it is, in words (the doubts, when there are some).
    pub confidence_reason: String,
    /// The reasons to doubt the answer (see `extract::Doubt`); absent when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub doubts: Vec<Doubt>,
    pub candidates: Vec<Candidate>,
    /// The distinct boxed answers when there were several (`\boxed{2}` and `\boxed{3}`);
    /// absent otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub several: Vec<String>,
}

impl ExtractRecord {
    pub fn new(id: Value, e: Option<Extraction>) -> ExtractRecord {
        match e {
            Some(e) => ExtractRecord {
                id,
                answer: Some(e.answer),
                raw: Some(e.raw),
                span: Some(e.span),
                method: e.method.as_str().to_string(),
                confidence: e.confidence,
                low_confidence: e.low_confidence,
                confidence_reason: e.confidence_reason,
                doubts: e.doubts,
                candidates: e.candidates,
                several: e.several,
            },
            None => ExtractRecord {
                id,
                answer: None,
                raw: None,
                span: None,
                method: "none".into(),
                confidence: 0.0,
                low_confidence: true,
                confidence_reason: "no rule found an answer".into(),
                doubts: Vec::new(),
                candidates: Vec::new(),
                several: Vec::new(),
            },
        }
    }
}

pub fn extract_record(input: &ExtractInput, patterns: &AnswerPatterns) -> ExtractRecord {
    let e = extract_with(&input.text, input.question.as_deref(), patterns);
    let low = needs_fallback_for(&input.text, e.as_ref());
    let mut record = ExtractRecord::new(input.id.clone(), e);
    if !low && record.answer.is_none() {
        record.low_confidence = false;
        record.confidence_reason = "the text stops before it concludes: no answer".into();
    }
    record
}

/// A `grade` output line. `method` is the comparison path that decided the verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GradeRecord {
    pub id: Value,
    pub predicted_answer: Option<String>,
    pub ground_truth_answer: Option<String>,
    /// True only for `verdict == equal`.
    pub equivalent: bool,
    /// `equal`, `different` or `undecided` ("could not decide": never counted as equal).
    pub verdict: Outcome,
    pub method: &'static str,
    pub reason: String,
    /// Rules (built-in or answer patterns' names) that found each side (`"none"` when
    /// nothing was found).
    pub predicted_method: String,
    pub ground_truth_method: String,
    pub low_confidence: bool,
    /// What the verify model did for this line when the Extract page's LLM fallback asked it
    /// (absent otherwise, so `verifyfast grade`'s lines are unchanged). When its answer was
    /// used, `predicted_method` is `fallback`, as in `verifyfast extract --llm-fallback`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub llm_fallback: Option<Box<LlmFallbackNote>>,
}

/// What the verify model did for one line (the Extract page's LLM fallback,
/// `extract::fallback_batch`); kept on the row and in both exports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LlmFallbackNote {
    /// The verdict used the model's answer (then `predicted_method` is `fallback`).
    pub used: bool,
    /// The rules' answer and rule before the call (`None` / `"none"`: no answer found).
    pub rule_answer: Option<String>,
    pub rule_method: String,
    /// The rules-only verdict, to see what the model changed.
    pub rule_verdict: Outcome,
    /// The model's reply as sent (untrusted text: shown escaped), and its answer as the
    /// extractor read it (`None`: no readable answer, the rules' answer stands).
    pub reply: Option<String>,
    pub model_answer: Option<String>,
    /// Why the call failed (the client's message, keys redacted); the rules' answer stands.
    pub error: Option<String>,
    pub latency_ms: u64,
    pub total_tokens: u64,
}

/// A grade line read back (a kept grade run: `view::extract::kept`), field by field as
/// [`GradeRecord`]'s `Serialize` writes it.
impl FromJson for GradeRecord {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        let verdict = f.required::<Named<Outcome>>("verdict")?.0;
        let llm_fallback = f.optional::<LlmFallbackNote>("llm_fallback")?.map(Box::new);
        Ok(GradeRecord {
            id: f.or_default("id")?,
            predicted_answer: f.optional("predicted_answer")?,
            ground_truth_answer: f.optional("ground_truth_answer")?,
            equivalent: f.required("equivalent")?,
            verdict,
            method: f.required::<Named<super::Path>>("method")?.0.as_str(),
            reason: f.required("reason")?,
            predicted_method: f.required("predicted_method")?,
            ground_truth_method: f.required("ground_truth_method")?,
            low_confidence: f.required("low_confidence")?,
            llm_fallback,
        })
    }
}

impl FromJson for LlmFallbackNote {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        Ok(LlmFallbackNote {
            used: f.required("used")?,
            rule_answer: f.optional("rule_answer")?,
            rule_method: f.required("rule_method")?,
            rule_verdict: f.required::<Named<Outcome>>("rule_verdict")?.0,
            reply: f.optional("reply")?,
            model_answer: f.optional("model_answer")?,
            error: f.optional("error")?,
            latency_ms: f.required("latency_ms")?,
            total_tokens: f.required("total_tokens")?,
        })
    }
}

impl LlmFallbackNote {
    /// The CSV's `llm_fallback` cell.
    pub fn status(&self) -> String {
        match (&self.error, self.used) {
            (Some(e), _) => format!("failed (rule answer kept): {e}"),
            (None, true) => "used".into(),
            (None, false) => "no readable answer (rule answer kept)".into(),
        }
    }
}

impl GradeRecord {
    pub fn new(id: Value, v: Verdict) -> GradeRecord {
        GradeRecord::of(id, &v)
    }

    /// The record of `v`, its answers copied (the verdict stays whole for the caller).
    fn of(id: Value, v: &Verdict) -> GradeRecord {
        let method_of =
            |e: &Option<Extraction>| e.as_ref().map_or("none", |x| x.method.as_str()).to_string();
        GradeRecord {
            predicted_method: method_of(&v.predicted),
            ground_truth_method: method_of(&v.ground_truth),
            low_confidence: v.predicted.as_ref().is_none_or(|p| p.low_confidence),
            predicted_answer: v.predicted_answer().map(str::to_string),
            ground_truth_answer: v.ground_truth_answer().map(str::to_string),
            equivalent: v.equivalent,
            verdict: v.outcome,
            method: v.path.as_str(),
            reason: v.reason.clone(),
            id,
            llm_fallback: None,
        }
    }

    /// No answer could be read from the model output.
    pub fn no_answer(&self) -> bool {
        self.predicted_answer.is_none()
    }

    /// The grader could not decide (exact comparison was impossible).
    pub fn undecided(&self) -> bool {
        self.verdict == Outcome::Undecided
    }
}

/// One line graded: the record `verifyfast grade` writes for it, and the verdict it was made
/// from (both extractions whole: the spans the Extract page marks, the doubts the Python
/// package returns; the record keeps neither).
#[derive(Debug, Clone, PartialEq)]
pub struct GradedLine {
    pub record: GradeRecord,
    pub verdict: Verdict,
}

/// Grades one line. The only place a grade record is composed from a text: `verifyfast grade`
/// ([`grade_record`]), the Extract page's opened row and the Python package's `grade` /
/// `grade_many` all call it, so an unchanged line always gets the same record (a row opened
/// again is compared with the table's record to tell whether its file changed).
pub fn grade_line(input: &GradeInput, preset: Preset, patterns: &AnswerPatterns) -> GradedLine {
    let verdict = super::grade_as(
        &input.output,
        &input.ground_truth,
        input.question.as_deref(),
        preset,
        patterns,
        input.choices,
    );
    GradedLine {
        record: GradeRecord::graded(input.id.clone(), &input.output, &verdict),
        verdict,
    }
}

/// The record of one `grade` input line ([`grade_line`]).
pub fn grade_record(input: &GradeInput, preset: Preset, patterns: &AnswerPatterns) -> GradeRecord {
    grade_line(input, preset, patterns).record
}

impl GradeRecord {
    /// The record of `output` graded as `v`: `low_confidence` also weighs the text itself. A
    /// text cut off before any conclusion has no answer, surely: not a doubt. A verdict
    /// decided only by comparing texts is one (docs/extract.md, "Confidence signal").
    fn graded(id: Value, output: &str, v: &Verdict) -> GradeRecord {
        let low = needs_fallback_for(output, v.predicted.as_ref()) || verdict_in_doubt(v);
        GradeRecord {
            low_confidence: low,
            ..GradeRecord::of(id, v)
        }
    }
}

/// Running totals of a `grade` run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct GradeSummary {
    pub n: usize,
    pub equivalent: usize,
    /// Graded lines the grader could not decide: neither equivalent nor wrong.
    pub undecided: usize,
    pub no_answer: usize,
    pub bad_lines: usize,
}

impl GradeSummary {
    pub fn add(&mut self, r: &GradeRecord) {
        self.n += 1;
        self.equivalent += usize::from(r.equivalent);
        self.undecided += usize::from(r.undecided());
        self.no_answer += usize::from(r.no_answer());
    }

    /// Equivalent over graded lines (bad lines excluded), 0 when nothing was graded.
    pub fn accuracy(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.equivalent as f64 / self.n as f64
        }
    }
}

impl std::fmt::Display for GradeSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "graded {} lines: {} equivalent ({:.2}%), {} with no answer, {} bad lines, {} could not be decided",
            self.n,
            self.equivalent,
            100.0 * self.accuracy(),
            self.no_answer,
            self.bad_lines,
            self.undecided
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grade_line_accepts_numbers_and_defaults_id_to_line() {
        let g = parse_grade_line(r#"{"output":"so 72","ground_truth":72}"#, 4).unwrap();
        assert_eq!(g.id, Value::from(4));
        assert_eq!(g.ground_truth, "72");
        let r = grade_record(&g, Preset::Lenient, &AnswerPatterns::NONE);
        assert!(r.equivalent);
        assert_eq!(r.predicted_answer.as_deref(), Some("72"));
    }

    // Cause: number fields went through f64, so a 23-digit integer became 1.2345678901234568e22
    // and graded equal to any integer sharing its first 17 digits.
    #[test]
    fn number_fields_keep_every_digit() {
        let g = parse_grade_line(
            r#"{"output": 12345678901234567890123, "ground_truth": "12345678901234567890123"}"#,
            1,
        )
        .unwrap();
        assert_eq!(g.output, "12345678901234567890123");
        let r = grade_record(&g, Preset::Strict, &AnswerPatterns::NONE);
        assert!(r.equivalent, "{}", r.reason);
        let g = parse_grade_line(
            r#"{"output": 12345678901234567890124, "ground_truth": "12345678901234567890123"}"#,
            1,
        )
        .unwrap();
        assert!(!grade_record(&g, Preset::Lenient, &AnswerPatterns::NONE).equivalent);
        let g = parse_grade_line(
            r#"{"output": 12345678901234567890124, "ground_truth": 12345678901234567890123}"#,
            1,
        )
        .unwrap();
        assert!(!grade_record(&g, Preset::Lenient, &AnswerPatterns::NONE).equivalent);
        let g = parse_grade_line(r#"{"output": -0.10, "ground_truth": 1e-1}"#, 1).unwrap();
        assert_eq!(
            (g.output.as_str(), g.ground_truth.as_str()),
            ("-0.10", "1e-1")
        );
    }

    #[test]
    fn grade_line_is_the_record_grade_writes_and_keeps_the_verdict() {
        // A cut-off text with no answer is low-confidence only through the text itself, an
        // undecided verdict only through the verdict: both are weighed by the one composition.
        for (output, gold) in [
            ("so the answer is \\boxed{1/2}", "0.5"),
            ("Let me compute the cases:", "1"),
            ("$\\sum_{k=1}^{n} k$", "\\frac{n(n+1)}{2}"),
        ] {
            let input = GradeInput {
                id: Value::from("x"),
                output: output.into(),
                ground_truth: gold.into(),
                question: None,
                choices: false,
            };
            let line = grade_line(&input, Preset::Lenient, &AnswerPatterns::NONE);
            let record = grade_record(&input, Preset::Lenient, &AnswerPatterns::NONE);
            assert_eq!(line.record, record);
            assert_eq!(
                line.record.predicted_answer.as_deref(),
                line.verdict.predicted_answer()
            );
            assert_eq!(line.record.verdict, line.verdict.outcome);
        }
    }

    #[test]
    fn bad_lines_name_their_line() {
        let e = parse_grade_line("{oops", 7).unwrap_err();
        assert!(e.to_string().starts_with("line 7: not valid JSON"), "{e}");
        let e = parse_grade_line(r#"{"output":"1"}"#, 2).unwrap_err();
        assert_eq!(e.to_string(), "line 2: missing field `ground_truth`");
        let e = parse_extract_line("[1]", 3).unwrap_err();
        assert_eq!(e, RecordError::NotObject { line: 3 });
        let e = parse_extract_line(r#"{"text":{"a":1}}"#, 5).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 5: text: expected a string or a number, found an object"
        );
        assert_eq!(
            e.record(5, Some(Value::from("x"))),
            r#"{"id":"x","line":5,"error":"line 5: text: expected a string or a number, found an object"}"#
        );
    }

    #[test]
    fn no_answer_record_is_null_not_wrong() {
        let r = extract_record(
            &parse_extract_line(r#"{"id":"a","text":"no idea"}"#, 1).unwrap(),
            &AnswerPatterns::NONE,
        );
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["answer"], Value::Null);
        assert_eq!(v["method"], "none");
    }

    #[test]
    fn summary_counts() {
        let mut s = GradeSummary::default();
        // `2^{100000}` is past the exact size bound: could not decide, not equal and not wrong.
        for (o, g) in [
            ("5", "5"),
            ("no idea", "5"),
            ("4", "5"),
            ("2^{100000}", "2^{100000}+1"),
        ] {
            let r = grade_record(
                &parse_grade_line(&format!(r#"{{"output":"{o}","ground_truth":"{g}"}}"#), 1)
                    .unwrap(),
                Preset::Lenient,
                &AnswerPatterns::NONE,
            );
            s.add(&r);
        }
        assert_eq!((s.n, s.equivalent, s.no_answer, s.undecided), (4, 1, 1, 1));
        assert!(s.to_string().contains("25.00%"), "{s}");
        assert!(s.to_string().ends_with("1 could not be decided"), "{s}");
    }
}
