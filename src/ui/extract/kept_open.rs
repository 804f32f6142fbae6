//! `extract?run=<id>` (Runs → Open on a grade run, or a reload after an upload): the kept
//! grade run back in the table, as graded then (`view::extract::kept`).

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::batch_load::BatchState;
use crate::extract::fallback_batch::FallbackQueue;
use crate::runs::RunKind;
use crate::ui::{query, run_store};
use crate::view::extract::kept::batch_from_kept;

impl BatchState {
    /// Open the kept grade run the URL names, if it names one.
    pub fn open_from_url(self) {
        let Some(id) = query::current().run else {
            return;
        };
        self.loading.set(true);
        spawn_local(async move {
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
                    let file = run.meta.inputs.get("file").and_then(|f| f.as_str());
                    self.file_name
                        .set(file.unwrap_or(&run.meta.name).to_string());
                    self.file.set_value(None);
                    self.fallback.graded(batch, FallbackQueue::default());
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
