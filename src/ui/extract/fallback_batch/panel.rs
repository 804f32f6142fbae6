//! The controls of the JSONL LLM fallback: the toggle, the profile, the concurrency, Run and
//! Cancel, the progress bar and the summary (sent, changed, failed).

use leptos::prelude::*;

use crate::ui::boxed::{on_change, on_click, text};

use super::BatchFallback;
use crate::extract::fallback_batch::{summary_text, MAX_CONCURRENCY};
use crate::ui::boxed::part;
use crate::ui::extract::controls::on_off_box;
use crate::ui::extract::verify_model::ProfilePicker;

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
