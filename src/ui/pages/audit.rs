use std::rc::Rc;
use std::time::Duration;

use futures::future::{AbortHandle, Abortable};
use leptos::prelude::*;

use crate::ui::options::options;

use crate::ui::boxed::{on_change, on_click};
use leptos::task::spawn_local;

use crate::audit::batch::CaseSet;
use crate::audit::progress::{apply_update, initial_phases, settle, PhaseView};
use crate::audit::shown::ReportShown;
use crate::audit::{run_audit, AuditInput, AuditPlan, FailureKind, Phase, PhaseUpdate};
use crate::llm::ChatTransport;
use crate::ui::audit_run::{self, KeptNote};
use crate::ui::batch_runner::BatchRunner;
use crate::ui::browser_file::fetch_example;
use crate::ui::drafts_store::draft_signal;
use crate::ui::settings_store::settings_store;
use crate::ui::text_field::TextField;

// The page's parts live in `src/ui/audit/` (declared here, so `src/ui/mod.rs` stays as it is).
#[path = "../audit/finding_group.rs"]
mod finding_group;
#[path = "../audit/kept_from.rs"]
mod kept_from;
#[path = "../audit/phase_list.rs"]
mod phase_list;
#[path = "../audit/phase_table.rs"]
mod phase_table;
#[path = "../audit/report_json.rs"]
mod report_json;
#[path = "../audit/report_lists.rs"]
mod report_lists;
#[path = "../audit/report_view.rs"]
mod report_view;

use kept_from::{KeptFrom, KeptFromNote};
use phase_list::phase_list;
use report_view::AuditReportView;

/// The example cases (Chinese and English) in `public/examples/`, for "Load an example".
const EXAMPLE_CASES: &str = "cases.jsonl";

/// The browser transport of the LLM client (retries, timeouts, CORS explanations).
fn transport() -> Result<Rc<dyn ChatTransport>, String> {
    Ok(Rc::new(crate::llm::RetryingClient::new(
        crate::llm::browser::BrowserTransport::new(crate::llm::CALL_TIMEOUT_MS),
        crate::llm::RetryPolicy::default(),
    )))
}

/// What the page shows of the current audit: its phases, then its report (read by
/// `audit::shown`, with its JSON), and which kept run it is when one was opened.
#[derive(Clone, Default)]
struct Shown {
    phases: Vec<(Phase, PhaseView)>,
    report: Option<(ReportShown, String)>,
    kept_from: Option<KeptFrom>,
}

/// Whole milliseconds since the page loaded (the browser's monotonic clock).
fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now().floor())
        .unwrap_or(0.0)
}

/// Paste a context and a model output, pick a profile, and get a VerifyFast audit.
#[component]
pub fn AuditPage() -> impl IntoView {
    let store = settings_store();
    let context = draft_signal("audit", "context", String::new);
    let output = draft_signal("audit", "output", String::new);
    let first_profile = store
        .settings
        .with_untracked(|s| s.profiles.keys().next().cloned().unwrap_or_default());
    let profile = draft_signal("audit", "profile", || first_profile.clone());
    // A kept profile that Settings no longer has falls back to the first one.
    if !store.profile_names().contains(&profile.get_untracked()) {
        profile.set(first_profile);
    }
    let running = RwSignal::new(false);
    // The phases and the report in one signal: each signal type costs its own copy of the
    // reactive code in the wasm.
    let shown = RwSignal::new(Shown::default());
    let error = RwSignal::new(None::<String>);
    // A could-not-audit: its cause and what to do, shown first.
    // (Its cause and its fix in two signals of types other pages use too: each signal type
    // costs its own copy of the reactive code in the wasm.)
    let failure = RwSignal::new(None::<String>);
    let failure_fix = RwSignal::new(String::new());
    let notice = RwSignal::new(None::<String>);
    let abort = StoredValue::new(None::<AbortHandle>);
    // (kept, run id or why not), a signal type other components use too (each type costs its
    // own reactive code).
    let kept = RwSignal::new(None::<(bool, String)>);
    // The live elapsed timer: `now` ticks while an audit runs.
    // Whole milliseconds in a `usize` (a signal type other pages use too).
    let now = RwSignal::new(0usize);
    let ticker = StoredValue::new_local(None::<IntervalHandle>);
    let stop_ticker = move || {
        if let Some(h) = ticker.get_value() {
            h.clear();
        }
        ticker.set_value(None);
    };
    on_cleanup(stop_ticker);

    let profile_names = {
        let store = store.clone();
        move || store.profile_names()
    };

    let start = {
        let store = store.clone();
        move |_: ()| {
            error.set(None);
            failure.set(None);
            notice.set(None);
            shown.update(|s| {
                s.report = None;
                s.kept_from = None;
            });
            kept.set(None);
            // A new audit is no longer the kept run the URL names.
            crate::ui::query::set(&Default::default(), false);
            let input = AuditInput {
                context_input: context.get_untracked(),
                model_output: output.get_untracked(),
            };
            if input.context_input.trim().is_empty() || input.model_output.trim().is_empty() {
                error.set(Some(
                    "Paste both the context (source material) and the model output to audit."
                        .into(),
                ));
                return;
            }
            let plan = match AuditPlan::from_settings(
                &store.settings.get_untracked(),
                &store.strategy.get_untracked(),
                &profile.get_untracked(),
                &|_| None,
            ) {
                Ok(plan) => plan,
                Err(e) => {
                    error.set(Some(format!(
                        "{e}. Check the profile on the Settings page."
                    )));
                    return;
                }
            };
            let transport = match transport() {
                Ok(t) => t,
                Err(e) => {
                    error.set(Some(e));
                    return;
                }
            };
            shown.update(|s| s.phases = initial_phases(plan.params.reverse_verify));
            let (handle, registration) = AbortHandle::new_pair();
            abort.set_value(Some(handle));
            running.set(true);
            stop_ticker();
            now.set(now_ms() as usize);
            let tick = set_interval_with_handle(
                move || now.set(now_ms() as usize),
                Duration::from_millis(100),
            );
            ticker.set_value(tick.ok());
            let (settings, strategy) = (
                store.settings.get_untracked(),
                store.strategy.get_untracked(),
            );
            let (started, chosen) = (js_sys::Date::now(), profile.get_untracked());
            spawn_local(async move {
                let progress =
                    |u: PhaseUpdate| shown.update(|s| apply_update(&mut s.phases, &u, now_ms()));
                let audit = run_audit(&*transport, &plan, &input, &progress);
                match Abortable::new(audit, registration).await {
                    Ok(r) => {
                        let cancelled = r
                            .could_not_audit
                            .as_ref()
                            .is_some_and(|c| c.kind == FailureKind::Cancelled);
                        shown.update(|s| settle(&mut s.phases, cancelled));
                        match &r.could_not_audit {
                            Some(_) if cancelled => notice.set(Some("Audit cancelled.".into())),
                            Some(cna) => {
                                failure_fix.set(cna.kind.fix().to_string());
                                failure.set(Some(cna.to_string()));
                            }
                            None => {}
                        }
                        match audit_run::as_json(&r) {
                            Ok((json, tree)) => {
                                let report = ReportShown::read(&tree);
                                if !cancelled {
                                    let (c, o) = (input.context_input, input.model_output);
                                    let (p, s) = (&settings, &strategy);
                                    audit_run::keep(c, o, chosen, p, s, tree, started, kept);
                                }
                                shown.update(|s| s.report = Some((report, json)));
                            }
                            Err(e) => error.set(Some(format!(
                                "The report could not be written as JSON: {e}"
                            ))),
                        }
                    }
                    Err(_) => {
                        shown.update(|s| settle(&mut s.phases, true));
                        notice.set(Some("Audit cancelled.".into()));
                    }
                }
                abort.set_value(None);
                stop_ticker();
                running.set(false);
            });
        }
    };
    // Report's "Open in Audit" filled the drafts and asked for one run (in session storage,
    // set by that click only: a URL alone never starts LLM calls).
    if crate::ui::report::open_in_audit::take_run_once() {
        let start = start.clone();
        request_animation_frame(move || start(()));
    }
    let cancel = move |_| {
        if let Some(h) = abort.get_value() {
            h.abort();
        }
    };
    // Leaving the page stops its LLM calls (dropping the future aborts their fetches).
    on_cleanup(move || {
        if let Some(Some(h)) = abort.try_get_value() {
            h.abort();
        }
    });
    // `audit?run=<id>` (Open on the Runs page, or a reload) shows a kept audit in the same
    // view as a fresh one, its texts in the fields and its profile picked, ready to run again.
    if let Some(id) = crate::ui::query::current().run {
        let known = store.profile_names();
        spawn_local(async move {
            let k = match audit_run::open(&id).await {
                Ok(k) => k,
                Err(e) => return error.set(Some(format!("Cannot show kept audit {id}: {e}."))),
            };
            context.set(k.context);
            output.set(k.output);
            let profile_known = known.contains(&k.profile);
            if profile_known {
                profile.set(k.profile.clone());
            }
            let report = ReportShown::read(&k.report);
            if let Some((cause, fix)) = report.failure() {
                failure_fix.set(fix.to_string());
                failure.set(Some(cause));
            }
            shown.set(Shown {
                phases: crate::audit::progress::from_stored(&report),
                report: Some((report, crate::jsonl::compact(&k.report))),
                kept_from: Some(KeptFrom {
                    name: k.name,
                    when: crate::ui::run_row::local_time(k.created_ms),
                    profile: k.profile,
                    profile_known,
                }),
            });
        });
    }
    // A plain cell (each `StoredValue` type costs its own copy of the reactive code).
    let example = Rc::new(std::cell::Cell::new(0usize));
    let load_example = move |_| {
        let example = example.clone();
        spawn_local(async move {
            let text = match fetch_example(EXAMPLE_CASES).await {
                Ok(text) => text,
                Err(e) => return error.set(Some(e)),
            };
            let set = CaseSet::from_text(&text);
            let i = example.get();
            if let Some(case) = set.cases.get(i % set.cases.len().max(1)) {
                context.set(case.input.context_input.clone());
                output.set(case.input.model_output.clone());
            }
            example.set(i + 1);
        });
    };

    view! {
        <section data-testid="page-audit">
            <h1>"Quick audit"</h1>
            <p class="lead">
                "Paste a context and a model output, pick a profile, and get a VerifyFast audit: claims, factual and logic errors with evidence, and a deterministic 1-5 credit score."
            </p>
            <div class="grid">
                <TextField label="Context (source material)" testid="audit-context" value=context rows=8/>
                <TextField label="Model output (text under audit)" testid="audit-output" value=output rows=8/>
            </div>
            <div class="row">
                <label>
                    "Profile "
                    <select
                        data-testid="audit-profile"
                        prop:value=move || profile.get()
                        on:change=on_change(move |ev| profile.set(event_target_value(&ev)))
                    >
                        {move || options(profile_names())}
                    </select>
                </label>
                <button
                    class="primary"
                    data-testid="audit-run"
                    disabled=move || running.get()
                    on:click={
                        let start = start.clone();
                        move |_| start(())
                    }
                >
                    "Run audit"
                </button>
                <button data-testid="audit-cancel" disabled=move || !running.get() on:click=on_click(cancel)>
                    "Cancel"
                </button>
                <button data-testid="audit-example" on:click=on_click(load_example)>"Load an example"</button>
            </div>
            {move || error.get().map(|e| view! {
                <div class="error row" role="alert" data-testid="audit-error">
                    <span>{e}</span>
                    <button on:click=on_click(move |_| error.set(None))>"Dismiss"</button>
                </div>
            }.into_any())}
            {move || failure.get().map(|cause| view! {
                <div class="error stack" role="alert" data-testid="audit-error">
                    <strong data-testid="audit-failure-cause">{cause}</strong>
                    <span data-testid="audit-failure-fix">{format!("What to do: {}", failure_fix.get_untracked())}</span>
                    <div><button on:click=on_click(move |_| failure.set(None))>"Dismiss"</button></div>
                </div>
            }.into_any())}
            {move || notice.get().map(|n| view! {
                <div class="notice row" role="status" data-testid="audit-notice">
                    <span>{n}</span>
                    <button on:click=on_click(move |_| notice.set(None))>"Dismiss"</button>
                </div>
            }.into_any())}
            {move || phase_list(shown.with(|s| s.phases.clone()), now.get())}
            {move || {
                shown.with(|s| s.kept_from.clone()).map(|from| {
                    let not_stored = shown.with_untracked(|s| {
                        s.report.as_ref().map(|r| r.0.not_stored.clone()).unwrap_or_default()
                    });
                    view! { <KeptFromNote from=from not_stored=not_stored/> }.into_any()
                })
            }}
            {move || {
                shown.with(|s| s.report.clone()).map(|(report, json)| {
                    view! {
                        <AuditReportView
                            report=report
                            json=json
                            context=context.get_untracked()
                            output=output.get_untracked()
                        />
                    }
                    .into_any()
                })
            }}
            <KeptNote kept=kept/>
            <BatchRunner transport=transport/>
        </section>
    }
}
