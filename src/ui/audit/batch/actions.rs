//! The batch panel's other buttons: download the results, start a new run, and clear
//! (delete) the run after asking.

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::audit::batch;
use crate::ui::download::download_text;
use crate::ui::run_store;

use super::state::BatchState;

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
