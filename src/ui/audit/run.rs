//! The Audit page's side of the run store: every finished single audit is kept as an
//! `audit` run (its context and output as inputs, its report as the one result), and
//! `audit?run=<id>` shows a kept one again.

use crate::runs::RunInputs;
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::audit::AuditReport;
use crate::config::{Settings, Strategy};
use crate::runs::{self, RunKind, RunMeta};
use crate::ui::run_store;

/// Keep an audit (`report`, and `json`: it as written) as a run; `kept` says where it went
/// (or why it could not be kept: the report stays on the page either way).
#[allow(clippy::too_many_arguments)]
pub fn keep(
    context: String,
    output: String,
    profile: String,
    settings: &Settings,
    strategy: &Strategy,
    report: &AuditReport,
    json: &str,
    started_ms: f64,
    name: String,
    kept: RwSignal<Option<(bool, String)>>,
) {
    let (settings, strategy) = runs::snapshot(settings, strategy);
    let outcome = runs::RunOutcome::of_audit(report);
    // One line of the run's results: the report without the pretty printer's line breaks.
    let body = match serde_json::from_str::<serde_json::Value>(json) {
        Ok(v) => crate::jsonl::compact(&v) + "\n",
        Err(e) => return kept.set(Some((false, e.to_string()))),
    };
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
            inputs: RunInputs {
                context_input: Some(context),
                model_output: Some(output),
                ..RunInputs::default()
            }
            .to_value(),
            result_count: 1,
            outcome: Some(outcome),
        };
        let saved = run_store::save(&meta, &body).await;
        // The URL names the kept run (replacing the bare `audit` entry the audit started
        // from: a reload brings this result back), unless the user has left the page or
        // started another audit.
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

/// Read a kept audit: an `audit` run, or one case of a `batch` run (`case` and `profile`
/// name its results line, which keeps the case's report: nothing is called again). The
/// report stays JSON, read for the page by `view::audit::shown`.
pub async fn open(
    id: &str,
    case: Option<&str>,
    profile: Option<&str>,
) -> Result<KeptAudit, String> {
    let run = run_store::load(id).await.map_err(|e| e.to_string())?;
    if run.meta.kind == RunKind::Batch {
        let (Some(case), Some(profile)) = (case, profile) else {
            return Err(format!(
                "run {id} is a batch run: open one of its cases (from the batch table or Report)"
            ));
        };
        let line = run
            .results
            .iter()
            .find(|v| {
                crate::json::read::<crate::audit::batch::ResultLine>(v, "the results line")
                    .is_ok_and(|l| l.id == case && l.profile == profile)
            })
            .ok_or_else(|| {
                format!("run {id} has no result for case {case} with profile {profile}")
            })?;
        let (input, report) = crate::audit::batch::kept_case_of(line).ok_or_else(|| {
            format!("case {case} of run {id} was kept without its report (a batch run before reports were kept): open it in Report and run it again")
        })?;
        return Ok(KeptAudit {
            name: format!("{} · case {case}", run.meta.name),
            created_ms: run.meta.created_ms,
            context: input.context_input,
            output: input.model_output,
            profile: profile.to_string(),
            report: report.clone(),
        });
    }
    if run.meta.kind != RunKind::Audit {
        return Err(format!(
            "run {id} is a {} run, not an audit: open it from the Runs page",
            run.meta.kind.as_str()
        ));
    }
    let inputs = run.meta.read_inputs();
    let report = run
        .results
        .first()
        .cloned()
        .ok_or_else(|| format!("run {id} has no report"))?;
    Ok(KeptAudit {
        name: run.meta.name.clone(),
        created_ms: run.meta.created_ms,
        context: inputs.context_input.unwrap_or_default(),
        output: inputs.model_output.unwrap_or_default(),
        profile: run.meta.profiles.first().cloned().unwrap_or_default(),
        report,
    })
}
