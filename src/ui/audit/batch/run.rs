//! The browser batch's results as a run in the run store (`run_store`): which run the batch
//! resumes, the one-time move of results an older version kept in local storage, and
//! saving as results arrive (at most every couple of seconds, and at the end).

use crate::runs::RunInputs;

use crate::config::{Settings, Strategy};
use crate::runs::{self, RunKind, RunMeta, StoreError};
use crate::ui::run_store;

/// Local-storage key where versions before the run store kept the batch results (JSONL).
pub const LEGACY_RESULTS_KEY: &str = "verifyfast.batch.results";

/// Saves during a batch are this far apart at least (a 50k-result run is ~50 MB of text).
pub const SAVE_EVERY_MS: f64 = 2_000.0;

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Results an older version left in local storage become a batch run, once: the key is
/// removed only after the run is saved, so a failed save keeps them for the next try.
async fn migrate_legacy() -> Result<(), StoreError> {
    let Some(storage) = local_storage() else {
        return Ok(());
    };
    let Some(text) = storage.get_item(LEGACY_RESULTS_KEY).ok().flatten() else {
        return Ok(());
    };
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if !lines.is_empty() {
        let now = js_sys::Date::now();
        let meta = RunMeta {
            id: run_store::new_run_id().await,
            name: runs::default_name(RunKind::Batch, "results kept before runs", &[]),
            kind: RunKind::Batch,
            created_ms: now,
            finished_ms: Some(now),
            profiles: crate::audit::batch::profiles_of(lines.iter().copied()),
            settings: serde_json::Value::Null,
            strategy: serde_json::Value::Null,
            inputs: RunInputs {
                migrated_from: Some("local storage".into()),
                ..RunInputs::default()
            }
            .to_value(),
            result_count: lines.len() as u64,
            outcome: None,
        };
        let mut body = lines.join("\n");
        body.push('\n');
        run_store::save(&meta, &body).await?;
    }
    let _ = storage.remove_item(LEGACY_RESULTS_KEY);
    Ok(())
}

/// The batch run the page resumes (the newest), with its result lines.
pub async fn resume() -> Result<Option<(RunMeta, Vec<String>)>, StoreError> {
    migrate_legacy().await?;
    let (all, _) = run_store::list().await?;
    let Some(meta) = runs::latest(&all, RunKind::Batch).cloned() else {
        return Ok(None);
    };
    let lines = run_store::result_lines(&meta.id).await?;
    Ok(Some((meta, lines)))
}

/// The run a batch writes to: `current` continued (profiles and settings updated, not
/// finished while it runs), or a new one.
pub async fn begin(
    current: Option<RunMeta>,
    file: &str,
    case_count: usize,
    profiles: &[String],
    settings: &Settings,
    strategy: &Strategy,
) -> RunMeta {
    let (settings, strategy) = runs::snapshot(settings, strategy);
    let inputs = RunInputs {
        file: Some(file.to_string()),
        cases: Some(case_count as u64),
        ..RunInputs::default()
    }
    .to_value();
    match current {
        Some(mut m) => {
            for p in profiles {
                if !m.profiles.contains(p) {
                    m.profiles.push(p.clone());
                }
            }
            m.settings = settings;
            m.strategy = strategy;
            m.inputs = inputs;
            m.finished_ms = None;
            m.outcome = None;
            m
        }
        None => RunMeta {
            id: run_store::new_run_id().await,
            name: runs::default_name(
                RunKind::Batch,
                &format!("{file} · {case_count} cases"),
                profiles,
            ),
            kind: RunKind::Batch,
            created_ms: js_sys::Date::now(),
            finished_ms: None,
            profiles: profiles.to_vec(),
            settings,
            strategy,
            inputs,
            result_count: 0,
            outcome: None,
        },
    }
}

/// Save the run with these result lines; `last` (the save when the batch stops) also
/// stamps its end time when `finished`.
///
/// Order matters: saves made while the batch runs are spawned one after another and must
/// land in that order (IndexedDB runs overlapping write transactions in the order they
/// were created). They therefore create their transaction at once, with no read before it
/// (`run_store::open` is cached). Only the last save first reads the kept name, so a
/// rename on the Runs page made before the batch started (or after its last interim save)
/// is kept.
pub async fn persist(
    meta: &mut RunMeta,
    lines: &[String],
    last: bool,
    finished: bool,
) -> Result<(), StoreError> {
    if last {
        if let Ok(kept) = run_store::load_meta(&meta.id).await {
            meta.name = kept.name;
        }
    }
    meta.result_count = lines.len() as u64;
    // Counted once, at the end (it reads every line): a run in progress has no outcome yet.
    meta.outcome = last.then(|| runs::RunOutcome::of_batch(lines));
    if finished {
        meta.finished_ms = Some(js_sys::Date::now());
    }
    let mut body = lines.join("\n");
    if !body.is_empty() {
        body.push('\n');
    }
    run_store::save(meta, &body).await
}
