//! The LLM fallback of the Extract page's JSONL grading: after the rules have graded every
//! line, the low-confidence ones (only those) go to the profile's verify model, a few at a
//! time; each answer is merged into its row as it arrives, so Cancel, a failure or leaving the
//! page never loses a computed result. The decisions live in `crate::extract::fallback_batch`.

pub mod panel;
mod run;

use std::sync::Arc;

use futures::future::AbortHandle;
use leptos::prelude::*;

use super::verify_model::profile_signal;
use crate::extract::batch::GradeBatch;
use crate::extract::fallback_batch::{to_send, FallbackCounts, FallbackQueue, Pending};
use crate::ui::drafts_store::draft_signal;

// Starting a run and its callers (they reach the private abort handles and generation).

/// The fallback's settings and run state, shared by the page's grading and the panel.
#[derive(Clone, Copy)]
pub struct BatchFallback {
    pub batch: RwSignal<Option<Arc<GradeBatch>>>,
    /// "on" / "off", kept as a draft like the page's other settings.
    pub enabled: RwSignal<String>,
    pub concurrency: RwSignal<String>,
    pub profile: RwSignal<String>,
    pub pending: RwSignal<Arc<Vec<Pending>>>,
    pub counts: RwSignal<Option<FallbackCounts>>,
    pub running: RwSignal<bool>,
    pub error: RwSignal<Option<String>>,
    /// The kept grade run the table is (`grade_run.rs`): the model's answers are written into
    /// it as they land, so reopening the run shows them (docs/runs.md).
    pub run: StoredValue<Option<crate::runs::RunMeta>>,
    /// One per caller task.
    abort: StoredValue<Vec<AbortHandle>>,
    /// Bumped by every start and reset: an aborted run's ending must not touch a newer one.
    generation: StoredValue<u64>,
}

impl BatchFallback {
    /// Leaving the page aborts a run (dropping its calls aborts their fetches).
    pub fn new(batch: RwSignal<Option<Arc<GradeBatch>>>) -> Self {
        let fb = BatchFallback {
            batch,
            enabled: draft_signal("extract", "llm_batch", || String::from("off")),
            concurrency: draft_signal("extract", "llm_concurrency", || String::from("2")),
            profile: profile_signal("extract"),
            pending: RwSignal::new(Arc::new(Vec::new())),
            counts: RwSignal::new(None),
            running: RwSignal::new(false),
            error: RwSignal::new(None),
            run: StoredValue::new(None),
            abort: StoredValue::new(Vec::new()),
            generation: StoredValue::new(0),
        };
        on_cleanup(move || fb.cancel());
        fb
    }

    pub fn cancel(self) {
        self.abort
            .try_with_value(|hs| hs.iter().for_each(AbortHandle::abort));
    }

    /// A new file: stop the run of the old one and forget its state.
    pub fn reset(self) {
        self.cancel();
        self.generation.update_value(|g| *g += 1);
        self.running.set(false);
        self.counts.set(None);
        self.error.set(None);
        self.run.set_value(None);
        self.pending.set(Arc::new(Vec::new()));
    }

    /// The rules have graded a file: show it, and send its unsure lines if the toggle is on.
    pub fn graded(self, b: GradeBatch, queue: FallbackQueue) {
        self.pending.set(Arc::new(queue.pending));
        self.batch.set(Some(Arc::new(b)));
        if self.enabled.get_untracked() == "on" {
            self.start();
        }
    }

    /// Lines a run would send now (never asked, or failed before).
    pub fn sendable(self) -> usize {
        self.batch.with(|b| {
            b.as_ref()
                .map_or(0, |b| self.pending.with(|p| to_send(b, p).len()))
        })
    }
}
