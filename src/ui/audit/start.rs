//! Run an audit from the page: check the input and the profile, run the three phases with live
//! progress, then show the report and keep it as a run.

use std::rc::Rc;

use futures::future::{AbortHandle, Abortable};
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::run;
use crate::audit::{run_audit, AuditInput, PhaseUpdate};
use crate::llm::ChatTransport;
use crate::ui::settings_store::SettingsStore;
use crate::view::audit::progress::apply_update;
use crate::view::audit::progress::ended;
use crate::view::audit::progress::initial_phases;
use crate::view::audit::progress::kept_name;
use crate::view::audit::progress::not_ready;
use crate::view::audit::progress::settle;
use crate::view::audit::progress::Ended;
use crate::view::audit::shown::ReportShown;

use super::state::now_ms;
use super::state::AuditState;

/// The browser transport of the LLM client (retries, timeouts, CORS explanations).
pub fn transport() -> Result<Rc<dyn ChatTransport>, String> {
    Ok(Rc::new(crate::llm::RetryingClient::new(
        crate::llm::browser::BrowserTransport::new(crate::llm::CALL_TIMEOUT_MS),
        crate::llm::RetryPolicy::default(),
    )))
}

pub fn start(page: AuditState, store: &SettingsStore) {
    page.clear();
    // A new audit is no longer the kept run the URL names: a new entry, so Back still reaches
    // that one (the new audit's run replaces this entry when it is kept).
    let after_kept = crate::ui::query::current().run.is_some();
    crate::ui::query::set(&Default::default(), after_kept);
    let input = AuditInput {
        context_input: page.context.get_untracked(),
        model_output: page.output.get_untracked(),
    };
    if let Some(why) = not_ready(&input) {
        return page.error.set(Some(why));
    }
    let (settings, strategy) = (
        store.settings.get_untracked(),
        store.strategy.get_untracked(),
    );
    let chosen = page.profile.get_untracked();
    // Said in the page's words before anything is sent: the missing field, where to click.
    let plan = match crate::view::settings::page_plan(&settings, &strategy, &chosen) {
        Ok(plan) => plan,
        Err(why) => return page.error.set(Some(why)),
    };
    let transport = match transport() {
        Ok(t) => t,
        Err(e) => return page.error.set(Some(e)),
    };
    let shown = page.shown;
    shown.update(|s| s.phases = initial_phases(plan.params.reverse_verify));
    let (handle, registration) = AbortHandle::new_pair();
    page.abort.set_value(Some(handle));
    page.running.set(true);
    page.start_ticker();
    let started = js_sys::Date::now();
    spawn_local(async move {
        let progress = |u: PhaseUpdate| {
            shown.update(|s| {
                apply_update(&mut s.phases, &u, now_ms());
                s.landed.take(&u);
            })
        };
        let audit = run_audit(&*transport, &plan, &input, &progress);
        match Abortable::new(audit, registration).await {
            Ok(r) => {
                let end = ended(&r);
                shown.update(|s| settle(&mut s.phases, end == Ended::Cancelled));
                match &end {
                    Ended::Cancelled => page.notice.set(Some("Audit cancelled.".into())),
                    Ended::CouldNotAudit { cause, fix } => {
                        page.failure_fix.set(fix.to_string());
                        page.failure.set(Some(cause.clone()));
                    }
                    Ended::Scored => {}
                }
                // The page shows the typed report; its pretty JSON is for the raw view, the
                // download and the run store.
                match serde_json::to_string_pretty(&r) {
                    Ok(json) => {
                        let report = ReportShown::fresh(&r);
                        if end != Ended::Cancelled {
                            let (c, o) = (input.context_input, input.model_output);
                            let (p, s) = (&settings, &strategy);
                            let name = kept_name(&o, &chosen, &end);
                            run::keep(c, o, chosen, p, s, &r, &json, started, name, page.kept);
                        }
                        shown.update(|s| s.report = Some((report, json)));
                    }
                    Err(e) => page.error.set(Some(format!(
                        "The report could not be written as JSON: {e}"
                    ))),
                }
            }
            Err(_) => {
                shown.update(|s| settle(&mut s.phases, true));
                page.notice.set(Some("Audit cancelled.".into()));
            }
        }
        page.abort.try_set_value(None);
        page.stop_ticker();
        page.running.try_set(false);
    });
}
