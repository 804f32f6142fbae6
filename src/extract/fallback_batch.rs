//! The extractor's LLM fallback over a graded JSONL (the Extract page's "Grade a JSONL"):
//! which lines go to the verify model (only the low-confidence ones), merging its answers into
//! the rows and the summary, and the run's counts and work queue. Pure, so it is tested
//! natively; the page only performs the calls (through the audit's LLM client).

use std::collections::VecDeque;

use super::batch::{GradeBatch, Row};
pub use super::records::LlmFallbackNote;
use super::records::{parse_grade_line, GradeInput, GradeRecord, GradeSummary};
use super::{extract_with_fallback, grade_predicted, AnswerFallback, Method, Preset};

/// Most calls in flight at once (a local server serialises them anyway; a hosted one rate
/// limits).
pub const MAX_CONCURRENCY: usize = 8;

/// A low-confidence line waiting for the model: its row in the batch and its input.
#[derive(Debug, Clone, PartialEq)]
pub struct Pending {
    /// Index into `GradeBatch::rows`, and the input line (checked before merging).
    pub row: usize,
    pub line: usize,
    pub input: GradeInput,
}

/// Notes the low-confidence lines while a file is graded, so the texts of the other lines
/// need not be kept.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FallbackQueue {
    pub pending: Vec<Pending>,
}

impl FallbackQueue {
    /// Call right after `batch.push_line(_, line_text)`: keeps the line if its row is a
    /// graded, low-confidence one.
    pub fn note_last(&mut self, batch: &GradeBatch, line_text: &str) {
        let row = batch.rows.len().saturating_sub(1);
        let Some(Row::Graded { line, record }) = batch.rows.get(row) else {
            return;
        };
        if !record.low_confidence {
            return;
        }
        if let Ok(input) = parse_grade_line(line_text, *line) {
            self.pending.push(Pending {
                row,
                line: *line,
                input,
            });
        }
    }
}

/// The pending lines to send now: those never asked, and those whose call failed (so a run
/// can be resumed after a cancel or an outage). Indices into `pending`.
pub fn to_send(batch: &GradeBatch, pending: &[Pending]) -> Vec<usize> {
    (0..pending.len())
        .filter(|&i| match batch.rows.get(pending[i].row) {
            Some(Row::Graded { record, .. }) => record
                .llm_fallback
                .as_ref()
                .is_none_or(|n| n.error.is_some()),
            _ => false,
        })
        .collect()
}

/// One finished call, as the page hands it over.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelReply {
    /// The model's answer as the reply reader read it (between the call's answer lines).
    pub content: String,
    pub latency_ms: u64,
    pub total_tokens: u64,
}

/// What merging one call did to its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applied {
    /// The model's answer is used; `changed`: the verdict differs from the rules' one.
    Used { changed: bool },
    /// The reply held no readable answer: the rules' answer stands.
    Unreadable,
    /// The call failed: the rules' answer stands.
    Failed,
    /// The row is gone or is another line (a new file was loaded): nothing done.
    Stale,
}

struct Fetched(Option<String>);

impl AnswerFallback for Fetched {
    fn reply(&mut self, _text: &str, _question: Option<&str>) -> Option<String> {
        self.0.take()
    }
}

fn unadd(s: &mut GradeSummary, r: &GradeRecord) {
    s.n = s.n.saturating_sub(1);
    s.equivalent = s.equivalent.saturating_sub(usize::from(r.equivalent));
    s.undecided = s.undecided.saturating_sub(usize::from(r.undecided()));
    s.no_answer = s.no_answer.saturating_sub(usize::from(r.no_answer()));
}

/// Merges one call's result into its row (and the summary). The model's reply is read by the
/// same extractor as the CLI's `--llm-fallback`; a failed call or an unreadable reply keeps
/// the rules' answer and says so in the row's note.
pub fn apply(batch: &mut GradeBatch, p: &Pending, result: Result<ModelReply, String>) -> Applied {
    let preset: Preset = batch.preset;
    let Some(Row::Graded { line, record }) = batch.rows.get_mut(p.row) else {
        return Applied::Stale;
    };
    if *line != p.line {
        return Applied::Stale;
    }
    // A retry of a failed call starts from the rules' verdict again.
    let rule_verdict = record
        .llm_fallback
        .as_ref()
        .map_or(record.verdict, |n| n.rule_verdict);
    let mut note = LlmFallbackNote {
        used: false,
        rule_answer: record.predicted_answer.clone(),
        rule_method: record.predicted_method.clone(),
        rule_verdict,
        reply: None,
        model_answer: None,
        error: None,
        latency_ms: 0,
        total_tokens: 0,
    };
    let reply = match result {
        Err(e) => {
            note.error = Some(e);
            record.llm_fallback = Some(Box::new(note));
            return Applied::Failed;
        }
        Ok(r) => r,
    };
    note.latency_ms = reply.latency_ms;
    note.total_tokens = reply.total_tokens;
    note.reply = Some(reply.content.clone());
    let q = p.input.question.as_deref();
    let read = extract_with_fallback(
        &p.input.output,
        q,
        &batch.patterns,
        &mut Fetched(Some(reply.content)),
    );
    let Some(model) = read.filter(|e| e.method == Method::Fallback) else {
        record.llm_fallback = Some(Box::new(note));
        return Applied::Unreadable;
    };
    note.used = true;
    note.model_answer = Some(model.answer.clone());
    let verdict = grade_predicted(
        Some(model),
        &p.input.ground_truth,
        q,
        preset,
        &batch.patterns,
    );
    let mut fresh = GradeRecord::new(record.id.clone(), verdict);
    let changed = fresh.verdict != rule_verdict;
    fresh.llm_fallback = Some(Box::new(note));
    let old = std::mem::replace(record, fresh);
    unadd(&mut batch.summary, &old);
    if let Some(Row::Graded { record, .. }) = batch.rows.get(p.row) {
        batch.summary.add(record);
    }
    Applied::Used { changed }
}

/// Counts of one fallback run, for the progress bar and the summary.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FallbackCounts {
    /// Low-confidence lines this run will send.
    pub to_send: usize,
    /// Calls finished (answered or failed).
    pub sent: usize,
    /// Lines whose verdict now uses the model's answer.
    pub used: usize,
    /// Of those, lines whose verdict changed.
    pub changed: usize,
    /// Calls that failed (the rules' answer stands).
    pub failed: usize,
    /// Replies with no readable answer (the rules' answer stands).
    pub unreadable: usize,
    pub in_flight: usize,
    pub cancelled: bool,
}

impl FallbackCounts {
    pub fn finished(&self) -> bool {
        self.cancelled || (self.sent == self.to_send && self.in_flight == 0)
    }
}

/// The work queue shared by the page's concurrent callers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FallbackRun {
    queue: VecDeque<usize>,
    pub counts: FallbackCounts,
}

impl FallbackRun {
    pub fn new(order: Vec<usize>) -> Self {
        FallbackRun {
            counts: FallbackCounts {
                to_send: order.len(),
                ..FallbackCounts::default()
            },
            queue: order.into(),
        }
    }

    /// The next pending index to send, or `None` when the queue is empty or cancelled.
    pub fn take_next(&mut self) -> Option<usize> {
        if self.counts.cancelled {
            return None;
        }
        let i = self.queue.pop_front()?;
        self.counts.in_flight += 1;
        Some(i)
    }

    pub fn finish(&mut self, applied: Applied) {
        let c = &mut self.counts;
        c.in_flight = c.in_flight.saturating_sub(1);
        c.sent += 1;
        match applied {
            Applied::Used { changed } => {
                c.used += 1;
                c.changed += usize::from(changed);
            }
            Applied::Unreadable => c.unreadable += 1,
            Applied::Failed => c.failed += 1,
            Applied::Stale => {}
        }
    }

    /// Stops handing out work; calls in flight are aborted by the page (never merged).
    pub fn cancel(&mut self) {
        self.counts.cancelled = true;
        self.counts.in_flight = 0;
        self.queue.clear();
    }
}

/// The concurrency setting as typed: 1..=[`MAX_CONCURRENCY`], 2 when unreadable.
pub fn concurrency(text: &str) -> usize {
    text.trim()
        .parse::<usize>()
        .map_or(2, |n| n.clamp(1, MAX_CONCURRENCY))
}

/// The summary line of a run.
pub fn summary_text(c: &FallbackCounts) -> String {
    let head = if c.cancelled {
        format!(
            "Cancelled: {} of {} low-confidence lines sent",
            c.sent, c.to_send
        )
    } else if c.finished() {
        format!("{} low-confidence lines sent to the verify model", c.sent)
    } else {
        format!("{} of {} low-confidence lines sent", c.sent, c.to_send)
    };
    format!(
        "{head}: {} answered by the model (its answer used), {} changed the verdict, {} failed, {} gave no readable answer (rule answer kept for failed and unreadable).",
        c.used, c.changed, c.failed, c.unreadable
    )
}

#[cfg(test)]
mod tests;
