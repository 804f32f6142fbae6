//! Tests of the grade-upload fallback queue: which lines ask the model, and what its answers change.
use super::*;
use crate::extract::{AnswerPatterns, Outcome};
use crate::search::SearchQuery;

use super::super::batch::Show;

/// Lines 1 and 4 are confident; 2 has no answer; 3's rules doubt their boxed 5 against a
/// stated 3; 5 is bad.
fn graded() -> (GradeBatch, FallbackQueue) {
    let lines = [
        r#"{"id":"a","output":"So the final answer is \\boxed{7}.","ground_truth":"7"}"#,
        r#"{"id":"b","output":"I am not sure what to do here.","ground_truth":"12"}"#,
        r#"{"id":"c","output":"\\boxed{5}\nThe answer is 3","ground_truth":"3"}"#,
        r#"{"id":"d","output":"The answer is 5","ground_truth":"6"}"#,
        "{broken",
    ];
    let mut b = GradeBatch::new(Preset::Lenient, AnswerPatterns::NONE);
    let mut q = FallbackQueue::default();
    for (i, l) in lines.iter().enumerate() {
        b.push_line(i + 1, l);
        q.note_last(&b, l);
    }
    (b, q)
}

fn reply(s: &str) -> Result<ModelReply, String> {
    Ok(ModelReply {
        content: s.into(),
        latency_ms: 12,
        total_tokens: 104,
    })
}

fn record(b: &GradeBatch, row: usize) -> &GradeRecord {
    match &b.rows[row] {
        Row::Graded { record, .. } => record,
        Row::Bad { .. } => panic!("row {row} is bad"),
    }
}

#[test]
fn only_low_confidence_lines_are_queued() {
    let (b, q) = graded();
    let lines: Vec<usize> = q.pending.iter().map(|p| p.line).collect();
    assert_eq!(lines, [2, 3]);
    assert_eq!(q.pending[0].input.output, "I am not sure what to do here.");
    assert_eq!(to_send(&b, &q.pending), [0, 1]);
}

#[test]
fn a_used_answer_regrades_the_line_and_the_summary() {
    let (mut b, q) = graded();
    assert_eq!(
        (b.summary.n, b.summary.equivalent, b.summary.no_answer),
        (4, 1, 1)
    );
    let got = apply(&mut b, &q.pending[1], reply("3"));
    assert_eq!(got, Applied::Used { changed: true });
    let r = record(&b, 2);
    assert_eq!(r.predicted_answer.as_deref(), Some("3"));
    assert_eq!(r.predicted_method, "fallback");
    assert!(r.equivalent);
    let n = r.llm_fallback.as_ref().unwrap();
    assert!(n.used);
    assert_eq!(n.rule_answer.as_deref(), Some("5"));
    assert_eq!(n.rule_verdict, Outcome::Different);
    assert_eq!((n.latency_ms, n.total_tokens), (12, 104));
    assert_eq!(
        (b.summary.n, b.summary.equivalent, b.summary.no_answer),
        (4, 2, 1)
    );
    // Done lines are not sent again.
    assert_eq!(to_send(&b, &q.pending), [0]);
}

/// The model's answer must be one the text states: a 12 the text never says is not used.
#[test]
fn an_answer_the_text_does_not_state_keeps_the_rule_answer() {
    let (mut b, q) = graded();
    assert_eq!(
        apply(&mut b, &q.pending[0], reply("12")),
        Applied::Unreadable
    );
    assert!(record(&b, 1).predicted_answer.is_none());
}

#[test]
fn same_verdict_is_used_but_not_changed() {
    let (mut b, q) = graded();
    // Line 3's rules read `5` (not 3): the model saying 5 keeps the verdict.
    assert_eq!(record(&b, 2).predicted_answer.as_deref(), Some("5"));
    assert_eq!(
        apply(&mut b, &q.pending[1], reply("5")),
        Applied::Used { changed: false }
    );
    assert_eq!(record(&b, 2).predicted_method, "fallback");
}

#[test]
fn a_failed_call_keeps_the_rule_answer_says_why_and_is_retried() {
    let (mut b, q) = graded();
    let before = b.summary;
    let got = apply(
        &mut b,
        &q.pending[1],
        Err("HTTP 503 from the server: busy".into()),
    );
    assert_eq!(got, Applied::Failed);
    let r = record(&b, 2);
    assert_eq!(r.predicted_answer.as_deref(), Some("5"));
    assert_ne!(r.predicted_method, "fallback");
    let note = r.llm_fallback.as_ref().unwrap();
    assert_eq!(
        note.error.as_deref(),
        Some("HTTP 503 from the server: busy")
    );
    assert!(note
        .status()
        .starts_with("failed (rule answer kept): HTTP 503"));
    assert_eq!(b.summary, before);
    assert_eq!(to_send(&b, &q.pending), [0, 1]);
    // The retry succeeds: the verdict is compared with the rules' one, not the failed note.
    assert_eq!(
        apply(&mut b, &q.pending[1], reply("3")),
        Applied::Used { changed: true }
    );
    assert!(record(&b, 2).equivalent);
}

#[test]
fn an_unreadable_reply_keeps_the_rule_answer() {
    let (mut b, q) = graded();
    assert_eq!(
        apply(&mut b, &q.pending[0], reply("I cannot tell.")),
        Applied::Unreadable
    );
    let r = record(&b, 1);
    assert!(r.predicted_answer.is_none());
    assert_eq!(
        r.llm_fallback.as_ref().unwrap().reply.as_deref(),
        Some("I cannot tell.")
    );
}

#[test]
fn a_stale_pending_line_changes_nothing() {
    let (mut b, q) = graded();
    let mut other = q.pending[0].clone();
    other.line = 99;
    let before = b.clone();
    assert_eq!(apply(&mut b, &other, reply("12")), Applied::Stale);
    assert_eq!(b, before);
}

#[test]
fn exports_record_which_lines_used_the_model() {
    let (mut b, q) = graded();
    apply(&mut b, &q.pending[1], reply("3"));
    apply(&mut b, &q.pending[0], Err("cancelled".into()));
    let all = SearchQuery::Everything;
    let jsonl = b.to_jsonl(Show::All, &all);
    let lines: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        lines[0].get("llm_fallback").is_none(),
        "confident lines as the CLI writes them"
    );
    assert_eq!(lines[2]["predicted_method"], "fallback");
    assert_eq!(lines[2]["llm_fallback"]["used"], true);
    assert_eq!(lines[2]["llm_fallback"]["model_answer"], "3");
    assert_eq!(lines[1]["llm_fallback"]["error"], "cancelled");
    let csv = b.to_csv(Show::All, &all);
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = header.iter().position(|h| *h == "llm_fallback").unwrap();
    let cell = |row: usize| {
        csv.lines()
            .nth(row)
            .unwrap()
            .split("\",\"")
            .nth(col)
            .unwrap()
            .to_string()
    };
    assert_eq!(cell(3).trim_end_matches('"'), "used");
    assert!(cell(2).starts_with("failed (rule answer kept): cancelled"));
    assert_eq!(cell(1), "");
}

#[test]
fn the_queue_hands_out_work_counts_and_stops_on_cancel() {
    let mut run = FallbackRun::new(vec![0, 1, 2, 3]);
    assert_eq!((run.take_next(), run.take_next()), (Some(0), Some(1)));
    assert_eq!(run.counts.in_flight, 2);
    run.finish(Applied::Used { changed: true });
    run.finish(Applied::Failed);
    assert_eq!(run.take_next(), Some(2));
    run.finish(Applied::Used { changed: false });
    let c = run.counts;
    assert_eq!(
        (c.sent, c.used, c.changed, c.failed, c.in_flight),
        (3, 2, 1, 1, 0)
    );
    assert!(!c.finished());
    assert_eq!(
        summary_text(&c),
        "3 of 4 low-confidence lines sent: 2 answered by the model (its answer used), 1 changed the verdict, 1 failed, 0 gave no readable answer (rule answer kept for failed and unreadable)."
    );
    run.cancel();
    assert_eq!(run.take_next(), None);
    assert!(run.counts.finished());
    assert!(summary_text(&run.counts).starts_with("Cancelled: 3 of 4"));
    let mut done = FallbackRun::new(vec![5]);
    assert_eq!(done.take_next(), Some(5));
    done.finish(Applied::Unreadable);
    assert_eq!(done.take_next(), None);
    assert!(done.counts.finished());
    assert!(summary_text(&done.counts).starts_with("1 low-confidence lines sent"));
}

#[test]
fn concurrency_is_bounded() {
    assert_eq!(concurrency("4"), 4);
    assert_eq!(concurrency(" 0 "), 1);
    assert_eq!(concurrency("99"), MAX_CONCURRENCY);
    assert_eq!(concurrency("x"), 2);
}
