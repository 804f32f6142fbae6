//! The Audit page's side of the run store: every finished single audit is kept as an
//! `audit` run (its context and output as inputs, its report as the one result), and
//! `audit?run=<id>` shows a kept one again.

use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::json;

use crate::audit::AuditReport;
use crate::config::{Settings, Strategy};
use crate::runs::{self, RunKind, RunMeta};
use crate::ui::run_store;

/// The report as the page shows it and the run store keeps it: its pretty JSON (raw view,
/// copy, download) and that JSON read back as a tree (for `view::audit::shown` and the store). Through
/// the text rather than `to_value`: a second serializer for the whole report tree would be
/// compiled into the wasm (batch::as_tree).
pub fn as_json(report: &AuditReport) -> Result<(String, serde_json::Value), String> {
    let text = serde_json::to_string_pretty(report).map_err(|e| e.to_string())?;
    let tree = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    Ok((text, tree))
}

/// Keep an audit (`result`: its report from [`as_json`]) as a run; `kept` says where it went
/// (or why it could not be kept: the report stays on the page either way).
#[allow(clippy::too_many_arguments)]
pub fn keep(
    context: String,
    output: String,
    profile: String,
    settings: &Settings,
    strategy: &Strategy,
    result: serde_json::Value,
    started_ms: f64,
    name: String,
    kept: RwSignal<Option<(bool, String)>>,
) {
    let (settings, strategy) = runs::snapshot(settings, strategy);
    spawn_local(async move {
        let meta = RunMeta {
            id: run_store::new_run_id().await,
            name,
            kind: RunKind::Audit,
            created_ms: started_ms,
            finished_ms: Some(js_sys::Date::now()),
            profiles: vec![profile],
            settings,
            strategy,
            inputs: json!({"context_input": context, "model_output": output}),
            result_count: 1,
            outcome: Some(runs::RunOutcome::of_audit(&result)),
        };
        let body = crate::jsonl::compact(&result) + "\n";
        let saved = run_store::save(&meta, &body).await;
        // The URL names the kept run (replacing the entry: a reload, Back and Forward bring
        // this result back), unless the user has left the page or started another audit.
        if saved.is_ok()
            && kept.try_get_untracked() == Some(None)
            && crate::ui::router::current_page() == crate::ui::router::Page::Audit
        {
            let v = crate::route::state::ViewState {
                run: Some(meta.id.clone()),
                ..Default::default()
            };
            crate::ui::query::set(&v, false);
        }
        kept.try_set(Some(match saved {
            Ok(()) => (true, meta.id),
            Err(e) => (false, e.to_string()),
        }));
    });
}

/// A kept audit as the Audit page shows it again: its run's name and time, its texts, profile
/// and report (as JSON).
#[derive(Clone)]
pub struct KeptAudit {
    pub name: String,
    pub created_ms: f64,
    pub context: String,
    pub output: String,
    pub profile: String,
    pub report: serde_json::Value,
}

/// Read a kept audit. The report stays JSON, read for the page by `view::audit::shown`: a derived
/// deserializer for the whole report tree would cost ~28 KB of the gzipped wasm.
pub async fn open(id: &str) -> Result<KeptAudit, String> {
    let run = run_store::load(id).await.map_err(|e| e.to_string())?;
    if run.meta.kind != RunKind::Audit {
        return Err(format!(
            "run {id} is a {} run, not an audit: open it from the Runs page",
            run.meta.kind.as_str()
        ));
    }
    let text = |k: &str| {
        run.meta
            .inputs
            .get(k)
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string()
    };
    let report = run
        .results
        .first()
        .cloned()
        .ok_or_else(|| format!("run {id} has no report"))?;
    Ok(KeptAudit {
        name: run.meta.name.clone(),
        created_ms: run.meta.created_ms,
        context: text("context_input"),
        output: text("model_output"),
        profile: run.meta.profiles.first().cloned().unwrap_or_default(),
        report,
    })
}
