//! One phase's errors of an audit report (fact check or logic check), with why the phase has
//! none when it did not run or failed: the Audit page's report and the Report page's case panel.

use leptos::prelude::*;

use crate::audit::contract::Severity;
use crate::audit::Phase;
use crate::view::audit::shown::FindingShown;
use crate::view::audit::shown::ReportShown;

/// One error as the Audit page lists it (also the Report's case panel).
pub fn finding_view(f: &FindingShown) -> AnyView {
    let severity = match f.severity {
        Severity::High => "High",
        Severity::Low => "Low",
    };
    let evidence = (!f.evidence.is_empty()).then(|| f.evidence.clone());
    // Evidence that is not a quote is shown as the judge wrote it, never highlighted.
    let not_found = f.evidence_not_found;
    view! {
        <li class="stack" data-testid="audit-finding">
            <div class="row">
                <span class=format!("chip sev-{severity}")>{severity}</span>
                <span class="chip">{f.kind}</span>
                <strong>{f.target.clone()}</strong>
                <span class="muted">{f.target_text.clone()}</span>
                <span class="muted">{f.note}</span>
            </div>
            <div>{f.explanation.clone()}</div>
            {not_found.then(|| view! {
                <div class="row">
                    <span class="chip sev-High" data-testid="audit-evidence-not-found">"evidence not found"</span>
                    <span class="muted">"The judge's evidence is not in the context or the output."</span>
                </div>
            }.into_any())}
            {evidence.map(|e| if not_found {
                view! { <blockquote class="not-a-quote">{e}</blockquote> }.into_any()
            } else {
                view! { <blockquote><mark>{e}</mark></blockquote> }.into_any()
            })}
        </li>
    }
    .into_any()
}

/// The card of one phase: its errors, and its status when it did not answer.
pub fn finding_group(report: &ReportShown, phase: Phase) -> AnyView {
    let items: Vec<AnyView> = report.findings_of(phase).map(finding_view).collect();
    let body = match (report.phase_status(phase), items.is_empty()) {
        (Some(s), true) => {
            view! { <p class="muted" data-testid="audit-phase-status">{s}</p> }.into_any()
        }
        (Some(s), false) => view! {
            <p class="muted" data-testid="audit-phase-status">{s}</p>
            <ul class="stack">{items}</ul>
        }
        .into_any(),
        (None, true) => view! { <p class="muted">"No errors reported."</p> }.into_any(),
        (None, false) => view! { <ul class="stack">{items}</ul> }.into_any(),
    };
    view! {
        <section class="card">
            <h3>{phase.label()}</h3>
            {body}
        </section>
    }
    .into_any()
}
