//! The LLM fallback of the Extract page's JSONL grading: after the rules have graded every
//! line, the low-confidence ones (only those) go to the profile's verify model, a few at a
//! time; each answer is merged into its row as it arrives, so Cancel, a failure or leaving the
//! page never loses a computed result. The decisions live in `crate::extract::fallback_batch`.

mod run;

use super::verify_model::profile_signal;
use crate::extract::batch::GradeBatch;
use crate::extract::fallback_batch::{summary_text, MAX_CONCURRENCY};
use crate::extract::fallback_batch::{to_send, FallbackCounts, FallbackQueue, Pending};
use crate::ui::boxed::part;
use crate::ui::boxed::{on_change, on_click, text};
use crate::ui::drafts_store::draft_signal;
use crate::ui::extract::controls::on_off_box;
use crate::ui::extract::verify_model::ProfilePicker;
use futures::future::AbortHandle;
use leptos::prelude::*;
use std::sync::Arc;

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

// The controls of the JSONL LLM fallback: the toggle, the profile, the concurrency, Run and
// Cancel, the progress bar and the summary (sent, changed, failed).

#[component]
pub fn BatchFallbackPanel(fb: BatchFallback) -> impl IntoView {
    let enabled = fb.enabled;
    let conc = fb.concurrency;
    let can_run = move || !fb.running.get() && fb.batch.with(Option::is_some) && fb.sendable() > 0;
    view! {
        <div class="stack fallback" data-testid="fallback-batch">
            <div class="row">
                {on_off_box(enabled, "fallback-batch-toggle", "LLM fallback: after grading, send the low-confidence lines to the verify model")}
                <ProfilePicker profile=fb.profile testid="fallback-batch-profile"/>
                <label>
                    "Calls at once "
                    <input
                        type="number"
                        min="1"
                        max=MAX_CONCURRENCY.to_string()
                        data-testid="fallback-concurrency"
                        prop:value=text(move || conc.get())
                        on:change=on_change(move |ev| conc.set(event_target_value(&ev)))
                    />
                </label>
            </div>
            <div class="row">
                {part(move || can_run().then(|| view! {
                    <button data-testid="fallback-batch-run" on:click=on_click(move |_| fb.start())>
                        {format!("Ask the verify model for {} low-confidence lines", fb.sendable())}
                    </button>
                }.into_any()))}
                {part(move || fb.running.get().then(|| view! {
                    <button data-testid="fallback-batch-cancel" on:click=on_click(move |_| fb.cancel())>"Cancel"</button>
                }.into_any()))}
            </div>
            {part(move || fb.error.get().map(|e| view! {
                <p class="error" data-testid="fallback-batch-error">{e}</p>
            }.into_any()))}
            {part(move || fb.counts.get().map(|c| view! {
                <progress
                    data-testid="fallback-progress"
                    max=c.to_send.max(1).to_string()
                    value=c.sent.to_string()
                ></progress>
                <p
                    data-testid="fallback-summary"
                    data-sent=c.sent.to_string()
                    data-used=c.used.to_string()
                    data-changed=c.changed.to_string()
                    data-failed=c.failed.to_string()
                    data-finished=c.finished().to_string()
                    data-cancelled=c.cancelled.to_string()
                >{summary_text(&c)}</p>
            }.into_any()))}
        </div>
    }
}
