//! Batch audits in the browser: upload a cases JSONL, pick profiles and concurrency, run
//! with a progress bar, cancel, and download the results JSONL. Results are kept as a run in
//! the run store (`batch_run`) as they arrive, so a reload (or a cancel) resumes where the
//! run stopped. Each part is its own file in `src/ui/batch/`; what they decide and say is
//! `crate::view::audit::batch_panel`.

mod actions;
mod controls;
mod options;
pub mod run;
mod start;
mod state;
mod status;
mod upload;

use std::rc::Rc;

use leptos::prelude::*;

use crate::llm::ChatTransport;

use controls::BatchControls;
use options::BatchOptions;
use state::BatchState;
use status::BatchStatus;
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
