//! An audit's report on the Audit page: score and band, the texts with the quoted evidence
//! marked, errors by phase, the number check, inferences, severity changes, claims, phases and
//! the JSON. The same view for a fresh audit and a kept one (both read by `view::audit::shown`).

use leptos::prelude::*;

use super::number_check::NumberCheck;
use crate::audit::Phase;
use crate::view::audit::highlight::highlight;
use crate::view::audit::shown::ReportShown;

use super::phase_table::phase_table;
use super::report_json::report_json;
use super::report_lists::report_lists;
use crate::ui::finding_group::finding_group;

fn marked_text(text: &str, needles: &[&str]) -> impl IntoView {
    highlight(text, needles)
        .into_iter()
        .map(|s| {
            if s.marked {
                view! { <mark>{s.text}</mark> }.into_any()
            } else {
                view! { <span>{s.text}</span> }.into_any()
            }
        })
        .collect_view()
}

/// A plain function rather than a component: the page calls it from its own closure.
pub fn audit_report_view(
    report: ReportShown,
    json: String,
    context: &str,
    output: &str,
) -> AnyView {
    let band = report.band_name();
    let evidence = report.evidence();
    let context_view = marked_text(context, &evidence);
    let output_view = marked_text(output, &evidence);
    let score = match report.credit_score {
        Some(score) => view! {
            <div class=format!("badge band-{band}") data-testid="audit-score">{score.to_string()}</div>
            <span class=format!("chip band-{band}") data-testid="audit-band">{band}</span>
        }
        .into_any(),
        None => view! {
            <span class="chip band-BAD" data-testid="audit-unscored">{report.unscored()}</span>
        }
        .into_any(),
    };
    let numbers = match report.numbers.clone() {
        Some(grounding) => view! { <NumberCheck grounding=grounding/> }.into_any(),
        None => view! {
            <section class="card" data-testid="audit-numbers">
                <h3>"Number check (deterministic, no model)"</h3>
                <p class="muted">"Not in this report."</p>
            </section>
        }
        .into_any(),
    };
    // The rules' own findings, apart from the models' (docs/audit.md, "Deterministic findings"),
    // and what the audit left out of the models' bookkeeping.
    let rules = report
        .rules
        .iter()
        .map(|r| view! { <li data-testid="audit-rule">{r.clone()}</li> }.into_any())
        .collect_view();
    let no_rules = report
        .rules
        .is_empty()
        .then(|| view! { <p class="muted">"None."</p> }.into_any());
    let warnings = (!report.warnings.is_empty()).then(|| {
        let items = report
            .warnings
            .iter()
            .map(|w| view! { <li data-testid="audit-warning">{w.clone()}</li> }.into_any())
            .collect_view();
        view! {
            <section class="card" data-testid="audit-warnings">
                <h3>"Warnings: the models' bookkeeping"</h3>
                <ul>{items}</ul>
            </section>
        }
        .into_any()
    });
    view! {
        <section class="stack" data-testid="audit-report">
            <div class="row">
                {score}
                <span class="muted" data-testid="audit-totals">{report.totals.clone()}</span>
            </div>
            <div class="grid">
                <section class="card">
                    <h3>"Context"</h3>
                    <p class="prewrap">{context_view}</p>
                </section>
                <section class="card">
                    <h3>"Model output"</h3>
                    <p class="prewrap">{output_view}</p>
                </section>
            </div>
            {warnings}
            <section class="card" data-testid="audit-rules">
                <h3>"Deterministic findings (rules, no model)"</h3>
                {no_rules}
                <ul>{rules}</ul>
            </section>
            {finding_group(&report, Phase::FactCheck)}
            {numbers}
            {finding_group(&report, Phase::LogicCheck)}
            {report_lists(&report)}
            {phase_table(&report.phases)}
            {super::transcript::transcript(&report.phases)}
            {report_json(json)}
        </section>
    }
    .into_any()
}
