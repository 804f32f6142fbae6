//! `extract?run=<id>` (Runs → Open on a grade run, or a reload after an upload): the kept
//! grade run back in the table, as graded then (`view::extract::kept`).

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::batch_load::BatchState;
use crate::extract::fallback_batch::FallbackQueue;
use crate::route::state::ViewState;
use crate::runs::RunKind;
use crate::ui::{query, run_store};
use crate::view::extract::kept::batch_from_kept;

impl BatchState {
    /// Open the kept grade run the URL names; a bare `extract` (the nav link) reopens the
    /// newest grade run, so coming back to the page finds the last table (docs/runs.md).
    pub fn open_from_url(self) {
        let named = query::current().run;
        // Only a named run blocks a file pick while it loads; the newest run is looked up
        // without it, and a file picked meanwhile wins.
        if named.is_some() {
            self.loading.set(true);
        }
        spawn_local(async move {
            let id = match named {
                Some(id) => id,
                None => match newest_grade_run().await {
                    // A file picked meanwhile wins.
                    Some(id)
                        if self.batch.with_untracked(Option::is_none)
                            && !self.loading.get_untracked() =>
                    {
                        // The table's search, filter and sort in the URL stay.
                        let v = ViewState {
                            run: Some(id.clone()),
                            ..query::current()
                        };
                        query::set(&v, false);
                        id
                    }
                    _ => return,
                },
            };
            self.loading.set(true);
            match run_store::load(&id).await {
                Ok(run) if run.meta.kind == RunKind::Grade => {
                    let batch = batch_from_kept(&run.results);
                    self.kept.set(Some(format!(
                        "Kept run “{}”: the verdicts as they were graded. The run keeps verdicts, \
                         not the texts they judged: pick the file again to open a line's text or \
                         to ask the verify model.",
                        run.meta.name
                    )));
                    // Downloads are named after the file graded, as after an upload.
                    let file = run.meta.read_inputs().file;
                    self.file_name
                        .set(file.unwrap_or_else(|| run.meta.name.clone()));
                    self.file.set_value(None);
                    // What the model did is part of the run: the same summary as when it ran.
                    let counts = crate::view::extract::kept::fallback_counts(&batch);
                    self.fallback.graded(batch, FallbackQueue::default());
                    self.fallback.counts.set(counts);
                    self.fallback.run.set_value(Some(run.meta.clone()));
                }
                Ok(run) => self.error.set(Some(format!(
                    "Run {id} is a {} run, not a grade upload: open it from the Runs page.",
                    run.meta.kind.as_str()
                ))),
                Err(e) => self
                    .error
                    .set(Some(format!("The kept run could not be opened: {e}."))),
            }
            self.loading.set(false);
        });
    }
}

async fn newest_grade_run() -> Option<String> {
    let (runs, _) = run_store::list().await.ok()?;
    crate::runs::newest_first(&runs, Some(RunKind::Grade))
        .first()
        .map(|m| m.id.clone())
}
