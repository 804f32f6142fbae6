//! The Audit page: one audit or a batch of cases against the configured profiles.
pub mod batch;
mod form;
mod kept_from;
mod kept_note;
mod landed;
mod messages;
mod model_free;
pub mod number_check;
mod open_kept;
mod phase_list;
mod phase_table;
mod report_json;
mod report_lists;
mod report_view;
pub mod run;
mod start;
mod state;
mod transcript;

use leptos::prelude::*;

use crate::ui::settings_store::settings_store;
use batch::BatchRunner;

// The page's parts are the modules above;
// its decisions are in `view::audit::progress` and `view::audit::shown` (pure, tested natively).

use form::audit_form;
use kept_from::kept_from_note;
use kept_note::KeptNote;
use messages::audit_messages;
use phase_list::phase_list;
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
                        <button data-testid="audit-open-demo" on:click=crate::ui::boxed::on_click(move |_| open_kept::open_demo(page))>
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
