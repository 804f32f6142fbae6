//! The batch panel's buttons: Run, Cancel, Download, Retry failed, Clear, New run, the link
//! to this run on Report, and how many results are stored.

use super::state::cancel;
use super::state::BatchState;
use crate::audit::batch;
use crate::llm::ChatTransport;
use crate::ui::download::download_text;
use crate::ui::links::BATCH_RUN;
use crate::ui::run_store;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::rc::Rc;

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
            <button class="primary" data-testid="batch-run" disabled=move || running.get() on:click=move |_| run.start(false, transport)>
                "Run batch"
            </button>
            <button data-testid="batch-cancel" disabled=move || !running.get() on:click=move |_| cancel(abort)>
                "Cancel"
            </button>
            <button data-testid="batch-download" on:click=move |_| download.download()>"Download results JSONL"</button>
            <button
                data-testid="batch-retry"
                disabled=move || running.get() || failed() == 0
                on:click=move |_| retry.start(true, transport)
            >
                {move || format!("Retry failed ({})", failed())}
            </button>
            <button data-testid="batch-clear" on:click=move |_| clear.clear() disabled=move || running.get()>"Clear results"</button>
            <button data-testid="batch-new-run" on:click=move |_| state.new_run() disabled=move || running.get()>"New run"</button>
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

// The batch panel's other buttons: download the results, start a new run, and clear
// (delete) the run after asking.

impl BatchState {
    /// The results as JSONL, in case then profile order when the cases are loaded.
    pub fn download(&self) {
        let cases = self.cases.borrow().clone();
        let mut parsed: Vec<serde_json::Value> = self
            .results
            .get_untracked()
            .iter()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        // The results file holds one row per pair; the kept reports stay with the run.
        parsed.iter_mut().for_each(batch::without_report);
        if let Some(set) = cases {
            batch::sort_results(&mut parsed, &set.cases, &self.chosen.get_untracked());
        }
        let text: String = parsed
            .iter()
            .map(|v| crate::jsonl::compact(v) + "\n")
            .collect();
        if let Err(e) = download_text("results.jsonl", "application/x-ndjson", &text) {
            self.error.set(Some(e));
        }
    }

    /// A fresh run: the current one stays kept (Runs page), the next Run batch starts empty.
    pub fn new_run(&self) {
        self.forget_run();
        self.notice.set(Some(
            "New run: the previous one is kept on the Runs page.".into(),
        ));
    }

    /// Empty the page's results and let go of the run they belong to.
    fn forget_run(&self) -> Option<String> {
        self.results.set(Vec::new());
        self.progress.set(None);
        *self.run_meta.borrow_mut() = None;
        let id = self.run_id.get_untracked();
        self.run_id.set(None);
        id
    }

    /// Delete this run and all its results, after asking (good results are lost too).
    pub fn clear(&self) {
        let n = self.results.with_untracked(Vec::len);
        let sure = window()
            .confirm_with_message(&format!(
                "Delete this batch run and all {n} of its results, the good ones too? Retry failed redoes only the failed ones; New run keeps this one on the Runs page."
            ))
            .unwrap_or(false);
        if !sure {
            return;
        }
        let id = self.forget_run();
        let (notice, error) = (self.notice, self.error);
        spawn_local(async move {
            let deleted = match id {
                Some(id) => run_store::delete(&id).await,
                None => Ok(()),
            };
            match deleted {
                Ok(()) => notice.set(Some("Results cleared: the run is deleted.".into())),
                Err(e) => error.set(Some(format!("Could not delete the run: {e}"))),
            }
        });
    }
}
