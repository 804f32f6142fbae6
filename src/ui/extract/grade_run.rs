//! The Extract page's grade upload kept as a `grade` run: the graded lines (what
//! `verifyfast grade` writes, plus each row's line number: `view::extract::kept`) are its results,
//! the file name, line count and a digest of the rules' grades its inputs; `extract?run=<id>`
//! opens it again. The same file graded again the same way reuses its run (no duplicate), with
//! the verify model's answers that run holds (docs/runs.md).

use crate::runs::RunInputs;
use leptos::prelude::*;

use crate::extract::batch::GradeBatch;
use crate::route::state::ViewState;
use crate::runs::{self, RunKind, RunMeta};
use crate::ui::router::{self, Page};
use crate::ui::{query, run_store};
use crate::view::extract::kept::{batch_from_kept, carry_fallback, digest, to_kept_jsonl};

/// What keeping a graded upload did.
pub struct Kept {
    /// The run the table is now (`None`: it could not be kept; `error` says why).
    pub meta: Option<RunMeta>,
    /// Set when an earlier run of the same file was reused: says so, for the page.
    pub reused: Option<String>,
}

/// Keep a graded upload as a run, or reuse the run of the same file graded the same way
/// (carrying that run's model answers onto `batch`); a failure is said in `error` (the table
/// stays on the page).
pub async fn keep(
    file: String,
    batch: &mut GradeBatch,
    started_ms: f64,
    error: RwSignal<Option<String>>,
) -> Kept {
    let results = to_kept_jsonl(batch);
    let digest = digest(&results);
    let count = batch.rows.len() as u64;
    if let Some(old) = same_upload(&file, &digest).await {
        let mut carried = 0;
        if let Ok(run) = run_store::load(&old.id).await {
            carried = carry_fallback(batch, &batch_from_kept(&run.results));
        }
        name_in_url(&old.id);
        let answers = match carried {
            0 => String::new(),
            1 => ", with what the verify model said on 1 line".into(),
            n => format!(", with what the verify model said on {n} lines"),
        };
        return Kept {
            reused: Some(format!(
                "This file was graded before: its run “{}” is reused{answers} (no new run).",
                old.name
            )),
            meta: Some(old),
        };
    }
    let meta = RunMeta {
        id: run_store::new_run_id().await,
        name: runs::default_name(RunKind::Grade, &format!("{file} · {count} lines"), &[]),
        kind: RunKind::Grade,
        created_ms: started_ms,
        finished_ms: Some(js_sys::Date::now()),
        profiles: Vec::new(),
        settings: serde_json::Value::Null,
        strategy: serde_json::Value::Null,
        inputs: RunInputs {
            file: Some(file),
            lines: Some(count),
            digest: Some(digest),
            ..RunInputs::default()
        }
        .to_value(),
        result_count: count,
        outcome: Some(outcome_of(batch)),
    };
    match run_store::save(&meta, &results).await {
        Ok(()) => {
            name_in_url(&meta.id);
            Kept {
                meta: Some(meta),
                reused: None,
            }
        }
        Err(e) => {
            error.set(Some(format!(
                "The grades could not be kept as a run: {e}. Download them to keep them."
            )));
            Kept {
                meta: None,
                reused: None,
            }
        }
    }
}

/// The newest kept grade run of a file with this name whose rules' grades had this digest.
async fn same_upload(file: &str, digest: &str) -> Option<RunMeta> {
    let (runs, _) = run_store::list().await.ok()?;
    runs.into_iter()
        .filter(|m| {
            let inputs = m.read_inputs();
            m.kind == RunKind::Grade
                && inputs.file.as_deref() == Some(file)
                && inputs.digest.as_deref() == Some(digest)
        })
        .max_by(|a, b| a.created_ms.total_cmp(&b.created_ms))
}

/// The URL names the run, so a reload (or a shared link, in this browser) shows it again; not
/// when the user has left the Extract page meanwhile.
fn name_in_url(id: &str) {
    if router::current_page() == Page::Extract {
        // The table's search, filter and sort in the URL stay.
        let v = ViewState {
            run: Some(id.to_string()),
            ..query::current()
        };
        query::set(&v, false);
    }
}

/// The run's outcome: the accuracy of its rows, the model's answers included.
pub fn outcome_of(batch: &GradeBatch) -> runs::RunOutcome {
    let s = &batch.summary;
    runs::RunOutcome::of_grade(s.equivalent, s.n, s.bad_lines)
}
