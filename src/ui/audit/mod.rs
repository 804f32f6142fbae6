//! The Audit page: one audit or a batch of cases against the configured profiles, with its
//! messages, the phase list and the "kept as a run" note below the page component. The larger
//! parts are the modules declared here; the page's decisions are in `view::audit::progress` and
//! `view::audit::shown` (pure, tested natively).

pub mod batch;
mod form;
mod kept_from;
mod landed;
mod model_free;
pub mod number_check;
mod open_kept;
mod report_view;
pub mod run;
mod start;
mod state;
mod transcript;

use crate::audit::Phase;
use crate::ui::settings_store::settings_store;
use crate::view::audit::progress::phase_chip;
use crate::view::audit::progress::PhaseView;
use batch::BatchRunner;
use form::audit_form;
use kept_from::kept_from_note;
use leptos::prelude::*;
use report_view::audit_report_view;
use state::AuditState;

/// Paste a context and a model output, pick a profile, and get a VerifyFast audit.
#[component]
pub fn AuditPage() -> impl IntoView {
    let store = settings_store();
    let page = AuditState::new(&store);
    // Leaving the page stops its clock and its LLM calls.
    on_cleanup(move || {
        page.stop_ticker();
        page.abort();
    });
    // Report's "Open in Audit" filled the drafts and asked for one run (in session storage,
    // set by that click only: a URL alone never starts LLM calls).
    if crate::ui::links::take_run_once() {
        let store = store.clone();
        request_animation_frame(move || start::start(page, &store));
    }
    let url = crate::ui::query::current();
    if let Some(id) = url.run {
        open_kept::open_kept(page, id, store.profile_names());
    } else if url.example.as_deref() == Some(crate::view::report::load::DEMO) {
        open_kept::open_demo(page);
    }
    // Back and Forward between two kept audits change only the query, which the router does
    // not route on: the page shows the run the URL names now.
    let moves = {
        let names = store.profile_names();
        window_event_listener(leptos::ev::popstate, move |_| {
            if crate::ui::router::current_page() != crate::ui::router::Page::Audit {
                return;
            }
            page.clear();
            if let Some(id) = crate::ui::query::current().run {
                open_kept::open_kept(page, id, names.clone());
            }
        })
    };
    on_cleanup(move || moves.remove());
    let no_server = {
        let store = store.clone();
        move || store.settings.with(|s| s.profiles.is_empty())
    };
    let demo = page.demo;
    let checked: model_free::Checked = RwSignal::new(None);
    let AuditState {
        shown,
        now,
        context,
        output,
        kept,
        ..
    } = page;

    view! {
        <section data-testid="page-audit">
            <h1>"Quick audit"</h1>
            <p class="lead">
                "Paste a context and a model output, pick a profile, and get a VerifyFast audit: claims, factual and logic errors with evidence, and a deterministic 1-5 credit score."
            </p>
            {move || no_server().then(|| view! {
                <div class="notice stack" data-testid="audit-no-server">
                    <span>{crate::view::settings::NO_SERVER}</span>
                    <div class="row">
                        <a class="button" href="settings">"Open Settings"</a>
                        <button data-testid="audit-open-demo" on:click=move |_| open_kept::open_demo(page)>
                            "Show the demo audit"
                        </button>
                    </div>
                </div>
            })}
            {audit_form(page, checked)}
            {model_free::model_free_view(checked)}
            {audit_messages(page)}
            {move || demo.get().then(|| view! {
                <div class="notice demo" data-testid="audit-demo">
                    "Demo: a recorded audit bundled with the app (a scripted model's replies, no live call), not your data. Run audit runs these texts under your own profile."
                </div>
            })}
            {move || phase_list(shown.with(|s| s.phases.clone()), now.get())}
            {move || shown.with(|s| if s.report.is_none() { landed::landed_view(&s.landed) } else { None })}
            {move || {
                shown.with(|s| s.kept_from.clone()).map(|from| {
                    let not_stored = shown.with_untracked(|s| {
                        s.report.as_ref().map(|r| r.0.not_stored.clone()).unwrap_or_default()
                    });
                    kept_from_note(from, not_stored)
                })
            }}
            {move || {
                shown.with(|s| s.report.clone()).map(|(report, json)| {
                    let (c, o) = (context.get_untracked(), output.get_untracked());
                    audit_report_view(report, json, &c, &o)
                })
            }}
            <KeptNote kept=kept/>
            <BatchRunner transport=start::transport/>
        </section>
    }
}

// The line under a finished audit saying whether it was kept as a run.

/// The line under a finished audit saying whether it was kept.
#[component]
pub fn KeptNote(kept: RwSignal<Option<(bool, String)>>) -> impl IntoView {
    move || {
        kept.get().map(|k| match k {
            (true, _) => view! {
                <p class="muted" data-testid="audit-kept">"Kept as a run: see "<a href="runs">"Runs"</a>"."</p>
            }
            .into_any(),
            (false, e) => view! {
                <p class="error" role="alert" data-testid="audit-kept">
                    {format!("This audit could not be kept as a run: {e}. Download the report to keep it.")}
                </p>
            }
            .into_any(),
        })
    }
}

// The phases of the audit on the page, each with its chip: live while it runs (with the
// elapsed time), as it ended afterwards, and as stored for a kept audit.

/// `now` is the page's clock in whole ms, ticking while an audit runs. A plain function
/// called from the page's closure, not a component with a `Signal` prop: each signal type
/// costs its own copy of the reactive code in the wasm.
pub fn phase_list(phases: Vec<(Phase, PhaseView)>, now: usize) -> Option<AnyView> {
    (!phases.is_empty()).then(|| {
        let items = phases
            .into_iter()
            .map(|(phase, view)| {
                let (text, class) = phase_chip(&view, now as f64);
                view! {
                    <li>
                        <strong>{phase.label()}</strong>
                        " "
                        <span class=class>{text}</span>
                    </li>
                }
                .into_any()
            })
            .collect_view();
        view! { <ol class="stack" data-testid="audit-phases">{items}</ol> }.into_any()
    })
}

// The Audit page's messages: an error (dismissable), a could-not-audit with its cause and what
// to do, and a notice (cancelled).

/// A plain function rather than a component (each component has its own props code).
pub fn audit_messages(page: AuditState) -> AnyView {
    let AuditState {
        error,
        failure,
        failure_fix,
        notice,
        ..
    } = page;
    view! {
        {move || error.get().map(|e| view! {
            <div class="error row" role="alert" data-testid="audit-error">
                <span>{e}</span>
                <button on:click=move |_| error.set(None)>"Dismiss"</button>
            </div>
        }.into_any())}
        {move || failure.get().map(|cause| view! {
            <div class="error stack" role="alert" data-testid="audit-error">
                // Paragraphs, so the cause and what to do never run together when copied.
                <p class="failure-cause"><strong data-testid="audit-failure-cause">{cause}</strong></p>
                <p class="failure-fix" data-testid="audit-failure-fix">{format!("What to do: {}", failure_fix.get_untracked())}</p>
                <div><button on:click=move |_| failure.set(None)>"Dismiss"</button></div>
            </div>
        }.into_any())}
        {move || notice.get().map(|n| view! {
            <div class="notice row" role="status" data-testid="audit-notice">
                <span>{n}</span>
                <button on:click=move |_| notice.set(None)>"Dismiss"</button>
            </div>
        }.into_any())}
    }
    .into_any()
}
