//! The Report page below the file picker: the report's parts once a file is read (or, for a
//! file of cases without scores, what it holds), with the case table and the open case.

use leptos::prelude::*;

use crate::ui::boxed::{flag, on_click};

use super::state::ReportState;
use super::{
    bad_lines, case_panel, cases, exports, filters, groups, histogram, matrix, metrics, profiles,
    summary, warnings,
};
use crate::ui::boxed::{part, Part};

/// The report (nothing until one is read); `baseline` is the profile others are compared with.
pub fn report_body(s: ReportState, l: super::load::LoadState) -> Part {
    let baseline = l.baseline;
    part(move || {
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
                    {exports::export_buttons(s, l.run, l.demo)}
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
                            {filters::filters_view(s, on_click(move |_| exports::export_cases(s)))}
                            {cases::cases_table(s)}
                        </div>
                        {part(move || {
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
    })
}
