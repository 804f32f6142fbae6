//! The Report page's side of the run store: a run's results as a `File` for its chunked
//! reader, and a picked results file kept as a `report` run (so a reload shows it again).

use crate::runs::RunInputs;

use crate::runs::{self, RunKind, RunMeta};
use crate::ui::links::BATCH_RUN;
use crate::ui::run_store;

/// The run `id` (or, for `batch`, the newest batch run: links from before runs had ids)
/// as its id and its results as a file.
pub async fn open(id: &str) -> Result<(String, web_sys::File), String> {
    let meta = if id == BATCH_RUN {
        let (all, _) = run_store::list().await.map_err(|e| e.to_string())?;
        runs::latest(&all, RunKind::Batch).cloned().ok_or_else(|| {
            "No batch run is kept in this browser: run a batch on the Audit page first.".to_string()
        })?
    } else {
        run_store::load_meta(id).await.map_err(|e| e.to_string())?
    };
    let name = format!("{}.jsonl", meta.name);
    let file = run_store::results_file(&meta.id, &name)
        .await
        .map_err(|e| e.to_string())?;
    Ok((meta.id, file))
}

/// Keep a picked results file as a `report` run; returns its id. IndexedDB keeps the `File`
/// itself: its bytes exactly (a bad line reads the same after a reload), no copy in wasm.
pub async fn keep(
    file: &web_sys::File,
    profiles: Vec<String>,
    results: usize,
    outcome: runs::RunOutcome,
) -> Result<String, String> {
    let now = js_sys::Date::now();
    let meta = RunMeta {
        id: run_store::new_run_id().await,
        name: runs::default_name(RunKind::Report, &file.name(), &profiles),
        kind: RunKind::Report,
        created_ms: now,
        finished_ms: Some(now),
        profiles,
        settings: serde_json::Value::Null,
        strategy: serde_json::Value::Null,
        inputs: RunInputs {
            file: Some(file.name()),
            bytes: Some(file.size()),
            ..RunInputs::default()
        }
        .to_value(),
        result_count: results as u64,
        outcome: Some(outcome),
    };
    run_store::save_js(&meta, file.as_ref())
        .await
        .map_err(|e| e.to_string())?;
    Ok(meta.id)
}
