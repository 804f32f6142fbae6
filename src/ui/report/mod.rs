//! The Report page: pick or drop a results JSONL, read it in chunks, and show the band
//! report with drill-down, the case table and the open case beside it. Every number comes
//! from `crate::band`; the parts are components in `ui::report`; this file loads the file
//! and keeps the URL (cell, tag, search, open case) in step with the view.

pub mod body;
pub mod case_panel;
pub mod cases;
pub mod exports;
pub mod file_picker;
pub mod filters;
pub mod groups;
pub mod load;
pub mod matrix;
pub mod metrics;
pub mod open_in_audit;
pub mod profiles;
pub mod read;
pub mod state;
pub mod url;

use leptos::prelude::*;

use crate::view::report::load::DEMO_NOTE;
use body::report_body;
use load::{loader, open_start, LoadState};
use state::ReportState;

#[component]
pub fn ReportPage() -> impl IntoView {
    let s = ReportState::new();
    let l = LoadState::new();
    let LoadState {
        progress,
        timing,
        notice,
        ..
    } = l;
    let apply_view = url::follow_url(s, l.run);
    let load = loader(s, l, apply_view);
    open_start(s, l, load);
    let on_file = Callback::new(move |f: web_sys::File| {
        l.demo.set(false);
        load(f, None)
    });
    let demo = l.demo;
    let loading = l.loading;
    let empty =
        move || s.report.with(Option::is_none) && !loading.get() && s.error.with(Option::is_none);

    view! {
        <section data-testid="page-report" class="report">
            <h1>"Band report"</h1>
            <p class="lead">
                "Open a results JSONL (from a batch run: case fields plus profile and credit_score). Scores fold into BAD (1–2), MID (3) and GOOD (4–5); the one error that matters most is cross-band confusion, BAD judged GOOD or GOOD judged BAD. The file never leaves your browser."
            </p>
            {file_picker::file_picker(on_file, progress, timing, s.file_name)}
            {move || s.error.get().map(|e| view! { <div class="error" role="alert" data-testid="report-error">{e}</div> }.into_any())}
            {move || notice.get().map(|n| view! { <div class="notice" data-testid="report-notice">{n}</div> }.into_any())}
            {move || demo.get().then(|| view! { <div class="notice demo" data-testid="report-demo">{DEMO_NOTE}</div> }.into_any())}
            {move || empty().then(|| view! {
                <div class="card stack empty-state" data-testid="report-empty">
                    <p>"Nothing to show yet. A results file comes from a batch on the Audit page (or the CLI's "<code>"verifyfast batch"</code>"); kept batches open from the Runs page."</p>
                    <div class="row">
                        <button class="primary" data-testid="report-open-demo" on:click=move |_| load::open_demo(s, l, load)>
                            "Open the demo results"
                        </button>
                        <span class="muted">"20 sample cases under two profiles; no server needed."</span>
                    </div>
                </div>
            }.into_any())}
            {report_body(s, l)}
        </section>
    }
}
