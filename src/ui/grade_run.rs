//! The Extract page's grade upload kept as a `grade` run: the graded lines (what
//! `verifyfast grade` writes) are its results, the file name and line count its inputs.

use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::json;

use crate::extract::batch::{GradeBatch, Show};
use crate::runs::{self, RunKind, RunMeta};
use crate::search::SearchQuery;
use crate::ui::run_store;

/// Keep a graded upload as a run; a failure is said in `error` (the table stays on the page).
pub fn keep(file: String, batch: &GradeBatch, started_ms: f64, error: RwSignal<Option<String>>) {
    let results = batch.to_jsonl(Show::All, &SearchQuery::parse_or_everything("", false));
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
        if let Err(e) = run_store::save(&meta, &results).await {
            error.set(Some(format!(
                "The grades could not be kept as a run: {e}. Download them to keep them."
            )));
        }
    });
}
