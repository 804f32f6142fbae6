//! A kept grade run read back. The Extract page keeps a graded upload as a `grade` run: each
//! row as `verifyfast grade` writes it, plus the row's `line` in the file (`to_kept_jsonl`).
//! Opening the run (`extract?run=<id>`) rebuilds the table from those lines
//! (`batch_from_kept`): the verdicts as they were graded then, never graded again (the texts
//! they judged are not kept). A line that is not such a record becomes a bad row that says
//! which field is wrong; `equivalent` must agree with `verdict`, or the row is refused rather
//! than shown with a verdict it may not have had.

use serde::Serialize;
use serde_json::Value;

use crate::extract::batch::GradeBatch;
use crate::extract::batch::Row;
use crate::extract::equiv::Outcome;
use crate::extract::fallback_batch::FallbackCounts;
use crate::extract::records::GradeRecord;
use crate::json::{FieldError, Fields, Path as JsonPath};

/// Why a kept line could not be read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeptLineError {
    #[error("line {line} of the run is not a JSON object")]
    NotObject { line: usize },
    #[error("line {line} of the run: {error}")]
    Field { line: usize, error: FieldError },
    #[error("line {line} of the run: `equivalent` says {equivalent} but `verdict` is {verdict}")]
    Disagrees {
        line: usize,
        equivalent: bool,
        verdict: &'static str,
    },
}

/// A graded row as the run keeps it: the grade line, then the row's `line` in the file.
#[derive(Serialize)]
struct KeptRow<'a> {
    #[serde(flatten)]
    record: &'a GradeRecord,
    line: usize,
}

/// The rows of `batch` as the run keeps them, one JSON object per line.
pub fn to_kept_jsonl(batch: &GradeBatch) -> String {
    let mut out = String::new();
    for row in &batch.rows {
        let text = match row {
            Row::Graded { line, record } => serde_json::to_string(&KeptRow {
                record,
                line: *line,
            })
            .unwrap_or_default(),
            Row::Bad { line, error } => crate::jsonl::compact(
                &serde_json::json!({ "id": null, "line": line, "error": error }),
            ),
        };
        out.push_str(&text);
        out.push('\n');
    }
    out
}

/// A kept line as a whole, for the paths of its fields.
const LINE: JsonPath<'static> = JsonPath::Root("the line");

/// The table of a kept run from its lines (`to_kept_jsonl`); `line` is the fallback line
/// number for a kept line without one (its position among the run's lines).
pub fn batch_from_kept(lines: &[Value]) -> GradeBatch {
    let mut batch = GradeBatch::default();
    for (i, value) in lines.iter().enumerate() {
        let position = i + 1;
        let Ok(f) = Fields::of(value, LINE) else {
            batch.bad_line(
                position,
                KeptLineError::NotObject { line: position }.to_string(),
            );
            continue;
        };
        // Written by `to_kept_jsonl`: a `line` that does not read is the line's position, an
        // `error` that is not text is no error (the record's own reader then says what is wrong).
        let line = f
            .optional::<usize>("line")
            .ok()
            .flatten()
            .unwrap_or(position);
        if let Ok(Some(error)) = f.optional::<String>("error") {
            batch.bad_line(line, error);
            continue;
        }
        match record_of(value, position) {
            Ok(record) => {
                batch.summary.add(&record);
                batch.rows.push(Row::Graded { line, record });
            }
            Err(e) => batch.bad_line(line, e.to_string()),
        }
    }
    batch
}

/// A digest of a grade run's lines as the rules graded them (FNV-1a, 64 bits, hex): the same
/// file graded the same way has the same digest, so a re-upload finds its earlier run. Not a
/// security check: a match also needs the same file name, and only reuses a run of this browser.
pub fn digest(kept_jsonl: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in kept_jsonl.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The fallback summary of a kept run, from its rows' notes (`None`: the model was never
/// asked), so a reopened run says what the model did, as it said when the run was made.
pub fn fallback_counts(batch: &GradeBatch) -> Option<FallbackCounts> {
    let mut c = FallbackCounts::default();
    for row in &batch.rows {
        let Row::Graded { record, .. } = row else {
            continue;
        };
        let Some(n) = record.llm_fallback.as_ref() else {
            continue;
        };
        c.sent += 1;
        if n.error.is_some() {
            c.failed += 1;
        } else if n.used {
            c.used += 1;
            c.changed += usize::from(n.rule_verdict != record.verdict);
        } else {
            c.unreadable += 1;
        }
    }
    c.to_send = c.sent;
    (c.sent > 0).then_some(c)
}

/// A re-uploaded file whose grade run was kept before: the model's answers that run holds are
/// carried onto the freshly graded rows, so they are not asked again and not lost. A kept row
/// is carried only when it is the same line with the same id and the rules graded it the same
/// way as the note says they did then (answer, rule and verdict); otherwise the fresh row
/// stands. Returns how many rows were carried.
pub fn carry_fallback(fresh: &mut GradeBatch, kept: &GradeBatch) -> usize {
    let mut carried = 0;
    for row in &kept.rows {
        let Row::Graded { line, record: old } = row else {
            continue;
        };
        let Some(n) = old.llm_fallback.as_ref() else {
            continue;
        };
        let Ok(i) = fresh.rows.binary_search_by_key(line, Row::line) else {
            continue;
        };
        let Some(Row::Graded { record: now, .. }) = fresh.rows.get_mut(i) else {
            continue;
        };
        let same = now.id == old.id
            && now.llm_fallback.is_none()
            && now.predicted_answer == n.rule_answer
            && now.predicted_method == n.rule_method
            && now.verdict == n.rule_verdict
            && now.ground_truth_answer == old.ground_truth_answer;
        if !same {
            continue;
        }
        let before = std::mem::replace(now, old.clone());
        unadd(&mut fresh.summary, &before);
        fresh.summary.add(old);
        carried += 1;
    }
    carried
}

fn unadd(s: &mut crate::extract::records::GradeSummary, r: &GradeRecord) {
    s.n = s.n.saturating_sub(1);
    s.equivalent = s.equivalent.saturating_sub(usize::from(r.equivalent));
    s.undecided = s.undecided.saturating_sub(usize::from(r.undecided()));
    s.no_answer = s.no_answer.saturating_sub(usize::from(r.no_answer()));
}

/// The line's fields, read through the one JSON reader (`crate::json`); a record whose
/// `equivalent` contradicts its `verdict` is refused rather than shown with either.
fn record_of(value: &Value, line: usize) -> Result<GradeRecord, KeptLineError> {
    let record = crate::json::read::<GradeRecord>(value, "the line")
        .map_err(|error| KeptLineError::Field { line, error })?;
    if record.equivalent != (record.verdict == Outcome::Equal) {
        return Err(KeptLineError::Disagrees {
            line,
            equivalent: record.equivalent,
            verdict: record.verdict.as_str(),
        });
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::equiv::Path;
    use crate::extract::records::LlmFallbackNote;
    use crate::extract::{AnswerPatterns, Preset};

    fn graded() -> GradeBatch {
        let mut b = GradeBatch::new(Preset::default(), AnswerPatterns::NONE);
        b.push_line(
            1,
            r#"{"id":"a","output":"so the answer is 12","ground_truth":"12"}"#,
        );
        b.push_line(2, "not json");
        b.push_line(
            4,
            r#"{"id":7,"output":"\\boxed{\\frac{1}{2}}","ground_truth":"0.5"}"#,
        );
        b.push_line(5, r#"{"id":"c","output":"I think 3","ground_truth":"4"}"#);
        b.push_line(6, r#"{"id":"d","output":"no idea","ground_truth":"4"}"#);
        b
    }

    fn values(text: &str) -> Vec<Value> {
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn a_kept_line_is_the_grade_line_then_its_line_number() {
        // The text is what `digest` hashes: a re-upload finds its earlier run only while the
        // kept lines are written exactly as before.
        let b = graded();
        let Row::Graded { line, record } = &b.rows[0] else {
            panic!("row 1 is graded")
        };
        let mut v = serde_json::to_value(record).unwrap();
        v.as_object_mut()
            .unwrap()
            .insert("line".into(), Value::from(*line));
        let kept = to_kept_jsonl(&b);
        assert_eq!(
            kept.lines().next(),
            Some(crate::jsonl::compact(&v).as_str())
        );
        assert!(kept.lines().next().unwrap().ends_with(",\"line\":1}"));
    }

    #[test]
    fn a_kept_run_reads_back_as_the_same_table() {
        let b = graded();
        let back = batch_from_kept(&values(&to_kept_jsonl(&b)));
        assert_eq!(
            back.rows, b.rows,
            "same rows, lines, verdicts and bad lines"
        );
        assert_eq!(back.summary, b.summary);
        assert!(
            back.sources.is_empty(),
            "no texts: rows cannot be read back from a file"
        );
    }

    #[test]
    fn kept_lines_are_what_grade_writes_plus_the_line() {
        let b = graded();
        let kept = values(&to_kept_jsonl(&b));
        let everything = crate::search::SearchQuery::parse_or_everything("", false);
        let cli: Vec<Value> = values(&b.to_jsonl(Default::default(), &everything));
        assert_eq!(kept.len(), cli.len());
        for (mut k, c) in kept.into_iter().zip(cli) {
            let line = k.as_object_mut().unwrap().remove("line");
            assert!(line.is_some_and(|l| l.is_u64()));
            let mut c = c;
            c.as_object_mut().unwrap().remove("line");
            assert_eq!(k, c);
        }
    }

    #[test]
    fn the_model_s_part_is_kept() {
        let mut b = graded();
        if let Row::Graded { record, .. } = &mut b.rows[3] {
            record.llm_fallback = Some(Box::new(LlmFallbackNote {
                used: false,
                rule_answer: Some("3".into()),
                rule_method: "last_number".into(),
                rule_verdict: Outcome::Different,
                reply: None,
                model_answer: None,
                error: Some("HTTP 401".into()),
                latency_ms: 12,
                total_tokens: 0,
            }));
        }
        let back = batch_from_kept(&values(&to_kept_jsonl(&b)));
        assert_eq!(back.rows, b.rows);
    }

    #[test]
    fn a_line_that_is_not_a_record_says_which_field_and_the_rest_stay() {
        let lines = values(concat!(
            r#"{"id":"a","predicted_answer":"1","ground_truth_answer":"1","equivalent":true,"verdict":"equal","method":"identical_text","reason":"r","predicted_method":"m","ground_truth_method":"m","low_confidence":false,"line":3}"#,
            "\n",
            r#"{"id":"b","predicted_answer":"1","ground_truth_answer":"2","equivalent":true,"verdict":"different","method":"float","reason":"r","predicted_method":"m","ground_truth_method":"m","low_confidence":false}"#,
            "\n",
            r#"{"id":"c","verdict":"maybe"}"#,
            "\n",
            r#"{"id":"d","predicted_answer":"1","ground_truth_answer":"2","equivalent":false,"verdict":"different","method":"telepathy","reason":"r","predicted_method":"m","ground_truth_method":"m","low_confidence":false}"#,
            "\n",
            "[1]\n",
        ));
        let mut lines = lines;
        lines.push(serde_json::json!({"id":"e","predicted_answer":"1","ground_truth_answer":"1","equivalent":true,"verdict":"equal","method":"float","reason":"r","predicted_method":"fallback","ground_truth_method":"m","low_confidence":true,"llm_fallback":{"used":"yes"}}));
        let b = batch_from_kept(&lines);
        assert_eq!(b.summary.n, 1, "only the sound record is counted");
        assert_eq!(b.rows[0].line(), 3, "its own line number");
        let bad: Vec<(usize, &str)> = b.bad_rows().collect();
        assert_eq!(bad.len(), 5);
        assert_eq!(bad[0].0, 2, "no line field: its position in the run");
        assert!(
            bad[0]
                .1
                .contains("`equivalent` says true but `verdict` is different"),
            "{}",
            bad[0].1
        );
        assert!(
            bad[1]
                .1
                .contains("line 3 of the run: verdict: expected one of equal, different, undecided, found the string \"maybe\""),
            "{}",
            bad[1].1
        );
        assert!(
            bad[2].1.contains("method: expected one of identical_text,"),
            "{}",
            bad[2].1
        );
        assert!(bad[3].1.contains("not a JSON object"), "{}", bad[3].1);
        assert!(
            bad[4]
                .1
                .contains("llm_fallback.used: expected true or false, found the string \"yes\""),
            "{}",
            bad[4].1
        );
    }

    fn with_model_answer(b: &mut GradeBatch) {
        // Line 5 ("I think 3", gold 4): the model answered 4, which changed the verdict.
        if let Row::Graded { record, .. } = &mut b.rows[3] {
            let note = LlmFallbackNote {
                used: true,
                rule_answer: record.predicted_answer.clone(),
                rule_method: record.predicted_method.clone(),
                rule_verdict: record.verdict,
                reply: Some("4".into()),
                model_answer: Some("4".into()),
                error: None,
                latency_ms: 5,
                total_tokens: 9,
            };
            unadd(&mut b.summary, record);
            record.predicted_answer = Some("4".into());
            record.predicted_method = "fallback".into();
            record.verdict = Outcome::Equal;
            record.equivalent = true;
            record.llm_fallback = Some(Box::new(note));
            b.summary.add(record);
        }
    }

    #[test]
    fn the_digest_names_the_grades() {
        let a = to_kept_jsonl(&graded());
        assert_eq!(digest(&a), digest(&a.clone()));
        assert_eq!(digest(&a).len(), 16);
        let mut b = graded();
        with_model_answer(&mut b);
        assert_ne!(digest(&a), digest(&to_kept_jsonl(&b)));
    }

    #[test]
    fn a_reopened_run_says_what_the_model_did() {
        let mut b = graded();
        assert_eq!(fallback_counts(&b), None);
        with_model_answer(&mut b);
        let back = batch_from_kept(&values(&to_kept_jsonl(&b)));
        let c = fallback_counts(&back).unwrap();
        assert_eq!((c.sent, c.used, c.changed, c.failed), (1, 1, 1, 0));
        assert!(c.finished());
        assert_eq!(
            back.summary, b.summary,
            "the summary counts the model's verdict"
        );
        assert_eq!(back.summary.equivalent, 3);
    }

    #[test]
    fn a_re_upload_carries_the_model_s_answers_of_the_same_lines_only() {
        let mut kept = graded();
        with_model_answer(&mut kept);
        let kept = batch_from_kept(&values(&to_kept_jsonl(&kept)));
        let mut fresh = graded();
        assert_eq!(carry_fallback(&mut fresh, &kept), 1);
        assert_eq!(fresh.rows, kept.rows);
        assert_eq!(fresh.summary, kept.summary);
        // The file changed under the same line: the fresh grade stands.
        let mut other = GradeBatch::new(Preset::default(), AnswerPatterns::NONE);
        other.push_line(5, r#"{"id":"c","output":"I think 7","ground_truth":"4"}"#);
        let before = other.clone();
        assert_eq!(carry_fallback(&mut other, &kept), 0);
        assert_eq!(other, before);
    }

    #[test]
    fn every_path_and_outcome_name_reads_back() {
        for p in Path::ALL {
            assert_eq!(Path::from_name(p.as_str()), Some(p));
        }
        for o in Outcome::ALL {
            assert_eq!(Outcome::from_name(o.as_str()), Some(o));
        }
        assert_eq!(Path::from_name("Float"), None);
    }
}
