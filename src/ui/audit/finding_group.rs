//! One phase's errors on the Audit report (fact check or logic check), with why the phase has
//! none when it did not run or failed.

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
            {evidence.map(|e| view! { <blockquote><mark>{e}</mark></blockquote> }.into_any())}
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
