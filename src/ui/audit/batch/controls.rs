//! The batch panel's buttons: Run, Cancel, Download, Retry failed, Clear, New run, the link
//! to this run on Report, and how many results are stored.

use std::rc::Rc;

use leptos::prelude::*;

use crate::audit::batch;
use crate::llm::ChatTransport;
use crate::ui::boxed::on_click;
use crate::ui::links::BATCH_RUN;

use super::state::cancel;
use super::state::BatchState;

/// Report's link to this batch's run (`report?run=<id>`); before any run, the latest batch.
fn report_link(id: Option<String>) -> String {
    crate::route::state::ViewState {
        run: Some(id.unwrap_or_else(|| BATCH_RUN.into())),
        ..Default::default()
    }
    .href("report")
}

#[component]
pub fn BatchControls(
    state: BatchState,
    transport: fn() -> Result<Rc<dyn ChatTransport>, String>,
) -> impl IntoView {
    let (running, results, run_id) = (state.running, state.results, state.run_id);
    // A plain derived value, not a `Memo`: each `Memo` costs its own copy of the memo code.
    let failed = move || results.with(|r| batch::failed_count(r));
    let abort = state.abort;
    // One clone per handler (the panel's `Rc` cells are shared, not copied).
    let (run, download, retry, clear) =
        (state.clone(), state.clone(), state.clone(), state.clone());
    view! {
        <div class="row">
            <button class="primary" data-testid="batch-run" disabled=move || running.get() on:click=on_click(move |_| run.start(false, transport))>
                "Run batch"
            </button>
            <button data-testid="batch-cancel" disabled=move || !running.get() on:click=on_click(move |_| cancel(abort))>
                "Cancel"
            </button>
            <button data-testid="batch-download" on:click=on_click(move |_| download.download())>"Download results JSONL"</button>
            <button
                data-testid="batch-retry"
                disabled=move || running.get() || failed() == 0
                on:click=on_click(move |_| retry.start(true, transport))
            >
                {move || format!("Retry failed ({})", failed())}
            </button>
            <button data-testid="batch-clear" on:click=on_click(move |_| clear.clear()) disabled=move || running.get()>"Clear results"</button>
            <button data-testid="batch-new-run" on:click=on_click(move |_| state.new_run()) disabled=move || running.get()>"New run"</button>
            // No run yet (or after New run): nothing to open, rather than another batch's run.
            <a
                href=move || run_id.get().map(|id| report_link(Some(id)))
                aria-disabled=move || run_id.with(Option::is_none).to_string()
                title=move || run_id.with(Option::is_none).then_some("No results in this run yet: run the batch first")
                data-testid="batch-open-report"
            >"Open the band report"</a>
            <span class="muted" data-testid="batch-count">
                {move || format!("{} results stored", results.with(Vec::len))}
            </span>
        </div>
    }
}
