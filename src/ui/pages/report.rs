//! The Report page: pick or drop a results JSONL, read it in chunks, and show the band
//! report with drill-down, the case table and the open case beside it. Every number comes
//! from `crate::band`; the parts are components in `ui::report`; this file loads the file
//! and keeps the URL (cell, tag, search, open case) in step with the view.

use leptos::prelude::*;

use crate::ui::boxed::part;
use crate::ui::report::body::report_body;
use crate::ui::report::load::{loader, open_start, LoadState};
use crate::ui::report::{file_picker, state::ReportState, url};

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
    let on_file = Callback::new(move |f: web_sys::File| load(f, None));

    view! {
        <section data-testid="page-report" class="report">
            <h1>"Band report"</h1>
            <p class="lead">
                "Open a results JSONL (from a batch run: case fields plus profile and credit_score). Scores fold into BAD (1–2), MID (3) and GOOD (4–5); the one error that matters most is cross-band confusion, BAD judged GOOD or GOOD judged BAD. The file never leaves your browser."
            </p>
            {file_picker::file_picker(on_file, progress, timing, s.file_name)}
            {part(move || s.error.get().map(|e| view! { <div class="error" role="alert" data-testid="report-error">{e}</div> }.into_any()))}
            {part(move || notice.get().map(|n| view! { <div class="notice" data-testid="report-notice">{n}</div> }.into_any()))}
            {report_body(s, l.baseline)}
        </section>
    }
}
