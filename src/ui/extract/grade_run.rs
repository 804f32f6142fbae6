//! The Extract page's grade upload kept as a `grade` run: the graded lines (what
//! `verifyfast grade` writes, plus each row's line number: `view::extract::kept`) are its results,
//! the file name and line count its inputs; `extract?run=<id>` opens it again.

use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::json;

use crate::extract::batch::GradeBatch;
use crate::route::state::ViewState;
use crate::runs::{self, RunKind, RunMeta};
use crate::ui::router::{self, Page};
use crate::ui::{query, run_store};

/// Keep a graded upload as a run; a failure is said in `error` (the table stays on the page).
pub fn keep(file: String, batch: &GradeBatch, started_ms: f64, error: RwSignal<Option<String>>) {
    let results = crate::view::extract::kept::to_kept_jsonl(batch);
    let count = batch.rows.len() as u64;
    spawn_local(async move {
        let meta = RunMeta {
            id: run_store::new_run_id().await,
            name: runs::default_name(RunKind::Grade, &file, &[]),
            kind: RunKind::Grade,
            created_ms: started_ms,
            finished_ms: Some(js_sys::Date::now()),
            profiles: Vec::new(),
            settings: serde_json::Value::Null,
            strategy: serde_json::Value::Null,
            inputs: json!({"file": file, "lines": count}),
            result_count: count,
        };
        match run_store::save(&meta, &results).await {
            // The URL names the run, so a reload (or a shared link, in this browser) shows it
            // again; not when the user has left the Extract page meanwhile.
            Ok(()) if router::current_page() == Page::Extract => query::set(
                &ViewState {
                    run: Some(meta.id),
                    ..Default::default()
                },
                false,
            ),
            Ok(()) => {}
            Err(e) => error.set(Some(format!(
                "The grades could not be kept as a run: {e}. Download them to keep them."
            ))),
        }
    });
}
