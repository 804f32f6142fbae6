//! The Report page below the file picker: the report's parts once a file is read (or, for a
//! file of cases without scores, what it holds), with the case table and the open case.

use super::state::ReportState;
use super::{case_panel, cases, exports, filters, groups, matrix, metrics, profiles};
use crate::band::render::{ci, pct};
use crate::band::BandReport;
use crate::band::GroupMetrics;

use crate::view::report::drill::score_histogram;
use leptos::prelude::*;

/// The report (nothing until one is read); `baseline` is the profile others are compared with.
pub fn report_body(
    s: ReportState,
    l: super::load::LoadState,
) -> impl FnMut() -> Option<AnyView> + Send + 'static {
    let baseline = l.baseline;
    move || {
        s.report.get().map(|r| {
            if r.cases_only {
                view! {
                    <div class="notice" data-testid="report-cases-only">
                        {r.warnings.first().cloned().unwrap_or_default()}
                    </div>
                    {bad_lines_view(&r)}
                }
                .into_any()
            } else {
                view! {
                    {summary_view(&r)}
                    {exports::export_buttons(s, l.run, l.demo)}
                    <div class="grid">
                        {matrix::matrix_view(&r, s.filter)}
                        {histogram_view(&r.overall)}
                    </div>
                    {metrics::metrics_view(&r.overall)}
                    {profiles::profiles_view(r.clone(), baseline)}
                    {groups::groups_view("Tags", "tag", &r.tags, s.filter)}
                    {groups::groups_view("Difficulties", "difficulty", &r.difficulties, s.filter)}
                    {warnings_view(&r)}
                    {bad_lines_view(&r)}
                    <div class="cases-layout" class:with-panel=move || s.open.with(Option::is_some)>
                        <div class="card" data-testid="report-cases">
                            <h2>"Cases"</h2>
                            {filters::filters_view(s, move |_| exports::export_cases(s))}
                            {cases::cases_table(s)}
                        </div>
                        {move || {
                            s.detail
                                .get()
                                .filter(|(i, _)| s.open.get() == Some(*i))
                                .map(|(i, d)| case_panel::case_panel(s, i, d))
                        }}
                    </div>
                }
                .into_any()
            }
        })
    }
}

// What the evaluator warns about (unknown fields, skipped profiles…).

pub fn warnings_view(r: &BandReport) -> Option<AnyView> {
    (!r.warnings.is_empty()).then(|| {
        view! {
            <div class="notice" data-testid="report-warnings">
                <ul>{r.warnings.iter().map(|w| view! { <li>{w.clone()}</li> }.into_any()).collect::<Vec<_>>()}</ul>
            </div>
        }
        .into_any()
    })
}

// The lines that were skipped, with their numbers and why.

pub fn bad_lines_view(r: &BandReport) -> AnyView {
    let items = r
        .bad_lines
        .iter()
        .map(|b| view! { <li><span class="mono">"line "{b.line.to_string()}</span>": "{b.reason.clone()}</li> }.into_any())
        .collect::<Vec<_>>();
    let more = r.bad_line_count.saturating_sub(r.bad_lines.len() as u64);
    view! {
        <div class="card" data-testid="report-bad-lines">
            <h2>{format!("Bad lines ({})", r.bad_line_count)}</h2>
            {if r.bad_line_count == 0 {
                view! { <p class="muted">"None: every line was counted."</p> }.into_any()
            } else {
                view! {
                    <p class="muted">"These lines were skipped; the rest were counted."</p>
                    <ul>{items}</ul>
                    {(more > 0).then(|| view! { <p class="muted">{format!("…and {more} more")}</p> }.into_any())}
                }
                    .into_any()
            }}
        </div>
    }
    .into_any()
}

// The verdict line: cross-band rate, its interval, and whether the target is met.

pub fn summary_view(r: &BandReport) -> AnyView {
    let o = &r.overall;
    let band_class = match o.verdict {
        crate::band::Verdict::Met => "badge band-GOOD",
        crate::band::Verdict::NotMet => "badge band-BAD",
        _ => "badge band-MID",
    };
    view! {
        <div class="row summary">
            <span class=band_class>
                <span data-testid="report-cross-band-rate">{pct(o.cross_band_rate)}</span>
                <small>{ci(o)}</small>
            </span>
            <div class="stack">
                <div>
                    "Cross-band rate ("{o.cross_band.to_string()}" of "{o.n.to_string()}
                    " cases), target below "{format!("{:.1} %", r.target * 100.0)}": "
                    <strong data-testid="report-verdict">{o.verdict.label()}</strong>
                </div>
                <div class="muted">
                    "Met: the whole 95 % Wilson interval is below the target. Not shown: the rate is below it but the interval is not — more cases are needed. Not met: the rate is at or above it."
                </div>
            </div>
        </div>
    }
    .into_any()
}

// Expected and judged score counts side by side.

pub fn histogram_view(g: &GroupMetrics) -> AnyView {
    let h = score_histogram(g);
    let max = h
        .iter()
        .map(|(e, a)| (*e).max(*a))
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let bars = h
        .iter()
        .enumerate()
        .map(|(i, (e, a))| {
            let height = |v: u64| format!("height: {:.0}px", 4.0 + 120.0 * v as f64 / max);
            view! {
                <div class="hist-score">
                    <div class="hist-bars">
                        <div class="hist-bar expected" style=height(*e) title=format!("expected {}: {e}", i + 1)>
                            <small>{e.to_string()}</small>
                        </div>
                        <div class="hist-bar actual" style=height(*a) title=format!("judged {}: {a}", i + 1)>
                            <small>{a.to_string()}</small>
                        </div>
                    </div>
                    <div class="hist-label">{(i + 1).to_string()}</div>
                </div>
            }
            .into_any()
        })
        .collect::<Vec<_>>();
    view! {
        <div class="card">
            <h2>"Scores"</h2>
            <p class="muted">
                <span class="legend expected"></span>" expected  "
                <span class="legend actual"></span>" judged (credit_score)"
            </p>
            <div class="histogram" data-testid="report-histogram">{bars}</div>
        </div>
    }
    .into_any()
}
