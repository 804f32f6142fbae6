//! The Report page: pick or drop a results JSONL, read it in chunks, and show the band
//! report with drill-down, the case table and the open case beside it. Every number comes
//! from `crate::band`; the parts are components in `ui::report`; this file loads the file
//! and keeps the URL (cell, tag, search, open case) in step with the view.

use std::sync::Arc;

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::band::drill::CaseFilter;
use crate::route::state::ViewState;
use crate::ui::boxed::{flag, on_click};
use crate::ui::browser_file::now_ms;
use crate::ui::query;
use crate::ui::report::dynamic::dyn_view;
use crate::ui::report::source::{last_source, remember_source};
use crate::ui::report::{
    bad_lines, case_panel, cases, exports, file_picker, groups, histogram, matrix, metrics,
    profiles, read, state::ReportState, summary, url, warnings,
};
use crate::ui::run_file;

#[component]
pub fn ReportPage() -> impl IntoView {
    let s = ReportState::new();
    let progress = RwSignal::new(None::<(f64, f64)>);
    let timing = RwSignal::new(None::<String>);
    let loading = RwSignal::new(false);
    let baseline = RwSignal::new(String::new());
    let run = RwSignal::new(None::<String>);
    let notice = RwSignal::new(None::<String>);

    let apply_view = url::follow_url(s, run);

    let load = move |f: web_sys::File, from_run: Option<String>| {
        if loading.get_untracked() {
            return;
        }
        s.error.set(None);
        notice.set(None);
        s.report.set(None);
        s.open.set(None);
        s.detail.set(None);
        timing.set(None);
        s.filter.set(CaseFilter::default());
        let picked = from_run.is_none();
        if let Some(id) = from_run {
            remember_source(&id);
            run.set(Some(id));
        } else {
            run.set(None);
            remember_source(&format!("file:{}", f.name()));
            query::set(&ViewState::default(), false);
        }
        s.file_name.set(f.name());
        s.file.set_value(Some(f.clone()));
        loading.set(true);
        spawn_local(async move {
            let t0 = now_ms();
            match read::evaluate_file(&f, progress).await {
                Ok((r, b)) => {
                    s.bom.set_value(b);
                    baseline.set(r.profiles.keys().next().cloned().unwrap_or_default());
                    let mb = f.size() / 1e6;
                    let secs = (now_ms() - t0) / 1000.0;
                    let rate = if secs > 0.0 { mb / secs } else { 0.0 };
                    timing.set(Some(format!(
                        "{mb:.1} MB read in {secs:.2} s ({rate:.0} MB/s)"
                    )));
                    if let Some(empty) = r.emptiness() {
                        s.error
                            .set(Some(format!("{}: {}", f.name(), empty.message())));
                    } else {
                        let (names, n) = (r.profiles.keys().cloned().collect(), r.cases.len());
                        s.report.set(Some(Arc::new(r)));
                        apply_view(query::current());
                        // A picked file becomes a run, so a reload shows it again.
                        if picked {
                            match run_file::keep(&f, names, n).await {
                                Ok(id) => {
                                    remember_source(&id);
                                    run.set(Some(id))
                                }
                                Err(e) => notice.set(Some(format!("Not kept as a run: {e}"))),
                            }
                        }
                    }
                }
                Err(e) => s.error.set(Some(e)),
            }
            loading.set(false);
        });
    };
    let load_run = move |id: String| {
        spawn_local(async move {
            match run_file::open(&id).await {
                Ok((id, f)) => load(f, Some(id)),
                Err(e) => s.error.set(Some(e)),
            }
        })
    };
    // `report?run=<id>` opens that kept run (`batch`: the newest batch run); so does coming
    // back to this page after showing one. A picked file that could not be kept is named.
    let from_url = query::current().run;
    match (from_url, last_source()) {
        (Some(id), _) => load_run(id),
        (None, Some(src)) if !src.starts_with("file:") => load_run(src),
        (None, Some(src)) => {
            if let Some(name) = src.strip_prefix("file:") {
                notice.set(Some(format!(
                    "Last shown here: {name}. A picked file is not kept by the browser: pick it again to see its report."
                )));
            }
        }
        _ => {}
    }
    let on_file = Callback::new(move |f: web_sys::File| load(f, None));

    view! {
        <section data-testid="page-report" class="report">
            <h1>"Band report"</h1>
            <p class="lead">
                "Open a results JSONL (from a batch run: case fields plus profile and credit_score). Scores fold into BAD (1–2), MID (3) and GOOD (4–5); the one error that matters most is cross-band confusion, BAD judged GOOD or GOOD judged BAD. The file never leaves your browser."
            </p>
            {file_picker::file_picker(on_file, progress, timing, s.file_name)}
            {dyn_view(move || s.error.get().map(|e| view! { <div class="error" role="alert" data-testid="report-error">{e}</div> }.into_any()))}
            {dyn_view(move || notice.get().map(|n| view! { <div class="notice" data-testid="report-notice">{n}</div> }.into_any()))}
            {dyn_view(move || {
                s.report.get().map(|r| {
                    if r.cases_only {
                        view! {
                            <div class="notice" data-testid="report-cases-only">
                                {r.warnings.first().cloned().unwrap_or_default()}
                            </div>
                            {bad_lines::bad_lines_view(&r)}
                        }
                        .into_any()
                    } else {
                        view! {
                            {summary::summary_view(&r)}
                            {exports::export_buttons(s)}
                            <div class="grid">
                                {matrix::matrix_view(&r, s.filter)}
                                {histogram::histogram_view(&r.overall)}
                            </div>
                            {metrics::metrics_view(&r.overall)}
                            {profiles::profiles_view(r.clone(), baseline)}
                            {groups::groups_view("Tags", "tag", &r.tags, s.filter)}
                            {groups::groups_view("Difficulties", "difficulty", &r.difficulties, s.filter)}
                            {warnings::warnings_view(&r)}
                            {bad_lines::bad_lines_view(&r)}
                            <div class="cases-layout" class:with-panel=flag(move || s.open.with(Option::is_some))>
                                <div class="card" data-testid="report-cases">
                                    <h2>"Cases"</h2>
                                    {crate::ui::report::filters::filters_view(s, on_click(move |_| exports::export_cases(s)))}
                                    {cases::cases_table(s)}
                                </div>
                                {dyn_view(move || {
                                    s.detail
                                        .get()
                                        .filter(|(i, _)| s.open.get() == Some(*i))
                                        .map(|(i, d)| case_panel::case_panel(s, i, d))
                                })}
                            </div>
                        }
                        .into_any()
                    }
                })
            })}
        </section>
    }
}
