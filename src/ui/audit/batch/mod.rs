//! Batch audits in the browser: upload a cases JSONL, pick profiles and concurrency, run
//! with a progress bar, cancel, and download the results JSONL. Results are kept as a run in
//! the run store (`batch_run`) as they arrive, so a reload (or a cancel) resumes where the
//! run stopped. The profile and concurrency choices are below the panel; its other parts are
//! the files beside this one. What they decide and say is `crate::view::audit::batch_panel`.

mod controls;
pub mod run;
mod start;
mod state;
mod status;
mod upload;

use crate::llm::ChatTransport;
use crate::ui::settings_store::settings_store;
use controls::BatchControls;
use leptos::prelude::*;
use state::BatchState;
use status::BatchStatus;
use std::rc::Rc;
use upload::BatchUpload;

#[component]
pub fn BatchRunner(transport: fn() -> Result<Rc<dyn ChatTransport>, String>) -> impl IntoView {
    let state = BatchState::resume();
    // Leaving the page stops the batch's LLM calls; what arrived is kept, Run resumes.
    let abort = state.abort;
    on_cleanup(move || state::cancel(abort));
    view! {
        <section class="card stack" data-testid="batch">
            <h2>"Batch audit"</h2>
            <p class="muted">
                "Upload cases (JSONL: id, context_input, model_output, and optionally tag, difficulty, description, expected_credit_score). Each case is audited once per ticked profile. Results are kept in this browser as a run (see Runs) as they arrive; running again resumes."
            </p>
            <BatchUpload state=state.clone()/>
            <BatchOptions chosen=state.chosen concurrency=state.concurrency/>
            <BatchControls state=state.clone() transport=transport/>
            <BatchStatus state=state/>
        </section>
    }
}

// The batch panel's choices: which profiles to audit each case with, and how many audits
// run at once.

#[component]
pub fn BatchOptions(chosen: RwSignal<Vec<String>>, concurrency: RwSignal<usize>) -> impl IntoView {
    let store = settings_store();
    let profile_names = move || store.profile_names();
    view! {
        <div class="row">
            {move || {
                profile_names()
                    .into_iter()
                    .map(|p| {
                        let name = p.clone();
                        let name2 = p.clone();
                        view! {
                            <label>
                                <input
                                    type="checkbox"
                                    data-testid="batch-profile"
                                    value=p.clone()
                                    prop:checked=move || chosen.with(|c| c.contains(&name))
                                    on:change=move |ev| {
                                        let on = event_target_checked(&ev);
                                        chosen.update(|c| {
                                            c.retain(|x| x != &name2);
                                            if on {
                                                c.push(name2.clone());
                                            }
                                        })
                                    }
                                />
                                " "
                                {p}
                            </label>
                        }
                        .into_any()
                    })
                    .collect_view()
            }}
            <label>
                "Concurrency "
                <input
                    type="number"
                    min="1"
                    max="32"
                    data-testid="batch-concurrency"
                    prop:value=move || concurrency.get().to_string()
                    on:change=move |ev| {
                        let v = event_target_value(&ev).parse::<usize>().unwrap_or(4).clamp(1, 32);
                        concurrency.set(v)
                    }
                />
            </label>
        </div>
    }
}
