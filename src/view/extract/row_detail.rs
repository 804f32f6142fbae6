//! One graded row opened in full: the solution text with the answer's span marked, the
//! ground truth likewise, and the verdict with both normal forms and the path that decided.
//!
//! A batch keeps only each line's place in the file ([`LineSource`](crate::extract::batch::LineSource)), not its text: a
//! 50,000-line upload of long solutions would otherwise hold the whole file in memory. The
//! row is read back and graded again on open, with the batch's preset and patterns; grading
//! is deterministic, so it gives the record the table shows (checked: a file changed since
//! the upload is reported, not shown as if it matched).

use serde_json::Value;

use crate::extract::fallback_batch::LlmFallbackNote;
use crate::extract::records::parse_grade_line;
use crate::extract::records::{grade_line, GradeRecord, GradedLine};
use crate::extract::AnswerPatterns;
use crate::extract::Extraction;
use crate::extract::Preset;
use crate::extract::Verdict;

/// A text split around a span for highlighting: plain text, the marked part, plain text.
/// `chars` is the span in characters (what a reader counts), `bytes` in UTF-8 bytes (what
/// the extractor and the CLI's `span` report).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marked {
    pub before: String,
    pub mark: String,
    pub after: String,
    pub bytes: (usize, usize),
    pub chars: (usize, usize),
}

/// `text` split at `span` (a byte range), or `None` when the span is empty, out of range or
/// not on character boundaries (no highlight rather than a panic). Linear in the text.
pub fn mark(text: &str, span: (usize, usize)) -> Option<Marked> {
    let (s, e) = span;
    if s >= e {
        return None;
    }
    let (before, mark, after) = (text.get(..s)?, text.get(s..e)?, text.get(e..)?);
    let start = before.chars().count();
    Some(Marked {
        before: before.to_string(),
        mark: mark.to_string(),
        after: after.to_string(),
        bytes: span,
        chars: (start, start + mark.chars().count()),
    })
}

/// One side (model output or ground truth) as opened.
#[derive(Debug, Clone, PartialEq)]
pub struct Side {
    /// The full text as written in the line.
    pub text: String,
    /// The text split around the extracted answer's span; `None` when no answer was found.
    pub marked: Option<Marked>,
    /// The normalised answer (what the comparison saw), `None` when no answer was found.
    pub answer: Option<String>,
    /// The rule that found it, `"none"` when nothing was found.
    pub method: String,
}

impl Side {
    fn new(text: String, e: Option<&Extraction>) -> Side {
        Side {
            marked: e.and_then(|e| mark(&text, e.span)),
            answer: e.map(|e| e.answer.clone()),
            method: e.map_or_else(|| "none".to_string(), |e| e.method.as_str().to_string()),
            text,
        }
    }
}

/// The opened row.
#[derive(Debug, Clone, PartialEq)]
pub struct RowDetail {
    pub line: usize,
    pub id: Value,
    pub question: Option<String>,
    pub output: Side,
    pub ground_truth: Side,
    /// The verdict: outcome, path and the reason naming both normal forms.
    pub verdict: Verdict,
    /// Set when grading the line again does not give the record the table holds (the file
    /// was changed on disk since the upload): says so rather than show another row's text.
    pub stale: Option<String>,
    /// What the LLM fallback did for this row (the table's verdict then is the model's;
    /// `verdict` above stays the rules' own, graded again).
    pub fallback: Option<LlmFallbackNote>,
}

/// Why a row could not be opened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DetailError {
    /// The line read back is not a grade line any more (its error names the line).
    #[error("{0}")]
    Unreadable(String),
}

/// Grade `text` (line `line` of the file, read back) again and lay it out for opening.
/// `shown` is the record the table holds for that line, to detect a changed file.
pub fn open_row(
    text: &str,
    line: usize,
    preset: Preset,
    patterns: &AnswerPatterns,
    shown: Option<&GradeRecord>,
) -> Result<RowDetail, DetailError> {
    let input = parse_grade_line(text, line).map_err(|e| DetailError::Unreadable(e.to_string()))?;
    // The record `grade` wrote for this line when the table was filled, if the line is unchanged.
    let GradedLine {
        record: again,
        verdict,
    } = grade_line(&input, preset, patterns);
    // A row the LLM fallback answered holds the model's verdict; grading again gives the
    // rules' one, which is what its note kept from before the call.
    let fallback = shown.and_then(|s| s.llm_fallback.as_deref().cloned());
    let same = |s: &GradeRecord| match &s.llm_fallback {
        Some(n) => {
            n.rule_answer == again.predicted_answer
                && n.rule_method == again.predicted_method
                && n.rule_verdict == again.verdict
        }
        None => *s == again,
    };
    let stale = shown.filter(|s| !same(s)).map(|_| {
        format!(
            "line {line} reads differently now than when it was graded (was the file changed since the upload?)"
        )
    });
    Ok(RowDetail {
        line,
        output: Side::new(input.output, verdict.predicted.as_ref()),
        ground_truth: Side::new(input.ground_truth, verdict.ground_truth.as_ref()),
        id: input.id,
        question: input.question,
        verdict,
        stale,
        fallback,
    })
}

/// An answer the table can show as plain text: a number as models and golds write it
/// (`72`, `-3.5`, `1,000`). Anything else goes through KaTeX.
pub fn is_plain_number(answer: &str) -> bool {
    let digits = answer.trim_start_matches('-');
    !digits.is_empty()
        && digits.bytes().any(|b| b.is_ascii_digit())
        && digits
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b',')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::records::grade_record;

    fn line(output: &str, gold: &str) -> String {
        serde_json::json!({ "id": "r1", "output": output, "ground_truth": gold }).to_string()
    }

    #[test]
    fn mark_splits_by_bytes_and_counts_chars() {
        let m = mark("é = 54 €", (5, 7)).unwrap_or_else(|| panic!("no mark"));
        assert_eq!(
            (m.before.as_str(), m.mark.as_str(), m.after.as_str()),
            ("é = ", "54", " €")
        );
        assert_eq!((m.bytes, m.chars), ((5, 7), (4, 6)));
        // Not a char boundary, empty, out of range: no highlight, no panic.
        assert_eq!(mark("é", (1, 2)), None);
        assert_eq!(mark("ab", (1, 1)), None);
        assert_eq!(mark("ab", (1, 9)), None);
    }

    #[test]
    fn a_row_whose_verdict_is_in_doubt_is_not_stale_when_opened() {
        // Undecided verdicts are low-confidence in the table's record (records::grade_line);
        // opening the unchanged line must grade it to the same record, not call it changed.
        let text = line("$\\sum_{k=1}^{n} k$", "\\frac{n(n+1)}{2}");
        let shown = grade_record(
            &parse_grade_line(&text, 1).unwrap_or_else(|e| panic!("{e}")),
            Preset::Lenient,
            &AnswerPatterns::NONE,
        );
        assert!(shown.undecided() && shown.low_confidence, "{shown:?}");
        let d = open_row(
            &text,
            1,
            Preset::Lenient,
            &AnswerPatterns::NONE,
            Some(&shown),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(d.stale, None);
    }

    #[test]
    fn opened_row_marks_the_span_the_extractor_took() {
        let output = "Half of 10 is 5.\nSo the answer is $\\boxed{\\frac{1}{2}}$ of it, not 7.";
        let text = line(output, "0.5");
        let shown = grade_record(
            &parse_grade_line(&text, 3).unwrap_or_else(|e| panic!("{e}")),
            Preset::Lenient,
            &AnswerPatterns::NONE,
        );
        let d = open_row(
            &text,
            3,
            Preset::Lenient,
            &AnswerPatterns::NONE,
            Some(&shown),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(d.output.text, output);
        let m = d.output.marked.clone().unwrap_or_else(|| panic!("no mark"));
        assert_eq!(m.mark, "\\frac{1}{2}");
        assert_eq!(format!("{}{}{}", m.before, m.mark, m.after), output);
        assert_eq!(d.output.method, "boxed");
        assert_eq!(d.output.answer.as_deref(), Some("\\frac{1}{2}"));
        // The gold is a bare answer: its own whole text is marked.
        assert_eq!(
            d.ground_truth.marked.map(|m| m.mark).as_deref(),
            Some("0.5")
        );
        assert!(d.verdict.equivalent);
        assert_eq!(d.verdict.path.as_str(), "exact_rational");
        assert!(d.verdict.reason.contains("= 1/2"), "{}", d.verdict.reason);
        assert_eq!(d.stale, None);
    }

    #[test]
    fn no_answer_and_changed_file_and_bad_line() {
        let text = line("I do not know.", "3");
        let d = open_row(&text, 1, Preset::Strict, &AnswerPatterns::NONE, None)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((d.output.marked, d.output.answer), (None, None));
        assert_eq!(d.output.method, "none");
        // The table's record came from other text: the row says so.
        let other = grade_record(
            &parse_grade_line(&line("So 3", "3"), 1).unwrap_or_else(|e| panic!("{e}")),
            Preset::Strict,
            &AnswerPatterns::NONE,
        );
        let d = open_row(
            &text,
            1,
            Preset::Strict,
            &AnswerPatterns::NONE,
            Some(&other),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(d
            .stale
            .is_some_and(|s| s.starts_with("line 1 reads differently")));
        let e = open_row("{oops", 9, Preset::Strict, &AnswerPatterns::NONE, None).unwrap_err();
        assert!(e.to_string().starts_with("line 9: not valid JSON"), "{e}");
    }

    #[test]
    fn a_row_the_fallback_answered_is_not_stale() {
        // The rules read 2 (the last number); the table holds the model's answer 8, with a
        // note of what the rules said. Opening grades with the rules again: it matches the
        // note, so the row is not "changed on disk", and the note rides along to be shown.
        let text = line("He had 8 apples. Then 2 friends came.", "8");
        let input = parse_grade_line(&text, 1).unwrap_or_else(|e| panic!("{e}"));
        let rules = grade_record(&input, Preset::Strict, &AnswerPatterns::NONE);
        let note = LlmFallbackNote {
            used: true,
            rule_answer: rules.predicted_answer.clone(),
            rule_method: rules.predicted_method.clone(),
            rule_verdict: rules.verdict,
            reply: Some("8".into()),
            model_answer: Some("8".into()),
            error: None,
            latency_ms: 12,
            total_tokens: 3,
        };
        let mut shown = rules.clone();
        shown.predicted_answer = Some("8".into());
        shown.predicted_method = "fallback".into();
        shown.llm_fallback = Some(Box::new(note.clone()));
        let open = |s: &GradeRecord| {
            open_row(&text, 1, Preset::Strict, &AnswerPatterns::NONE, Some(s))
                .unwrap_or_else(|e| panic!("{e}"))
        };
        let d = open(&shown);
        assert_eq!(d.stale, None);
        assert_eq!(d.fallback.as_ref(), Some(&note));
        // A note whose rule answer is not what the rules read now: the file changed.
        let mut other = note;
        other.rule_answer = Some("5".into());
        shown.llm_fallback = Some(Box::new(other));
        assert!(open(&shown).stale.is_some());
    }

    #[test]
    fn plain_numbers_stay_text() {
        for s in ["72", "-3.5", "1,000", "0.5"] {
            assert!(is_plain_number(s), "{s}");
        }
        for s in [
            "",
            "-",
            "\\frac{1}{2}",
            "x=5",
            "2^{10}",
            "(2,5)",
            "1e5",
            ".",
            "3\\%",
        ] {
            assert!(!is_plain_number(s), "{s}");
        }
    }
}
