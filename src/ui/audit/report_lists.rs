//! The Audit report's lists: reasonable inferences (not errors), the reverse check's severity
//! changes, and Phase 1's claims and deductions.

use leptos::prelude::*;

use crate::view::audit::shown::ReportShown;

pub fn report_lists(report: &ReportShown) -> AnyView {
    // An empty list says so rather than leaving a bare heading.
    let none = report
        .exempted
        .is_empty()
        .then(|| view! { <p class="muted">"None reported."</p> }.into_any());
    let exempted = report
        .exempted
        .iter()
        .map(|e| {
            view! { <li><strong>{e.target.clone()}</strong>" "{e.text.clone()}</li> }.into_any()
        })
        .collect_view();
    let changes = report.changes.as_ref().map(|c| {
        let items = c
            .iter()
            .map(|(line, reason)| {
                view! { <li>{line.clone()}" "<span class="muted">{reason.clone()}</span></li> }
                    .into_any()
            })
            .collect_view();
        view! { <section class="card"><h3>"Reverse check: severity changes"</h3><ul>{items}</ul></section> }
            .into_any()
    });
    let claims = report
        .claims
        .iter()
        .map(|c| {
            view! { <li data-testid="audit-claim"><strong>{c.id.clone()}</strong>" "{c.text.clone()}</li> }
                .into_any()
        })
        .collect_view();
    let deductions = report
        .deductions
        .iter()
        .map(|d| {
            view! {
                <li>
                    <strong>{d.id.clone()}</strong>
                    " "
                    {d.premises.join(" · ")}
                    " ⇒ "
                    {d.conclusion.clone()}
                </li>
            }
            .into_any()
        })
        .collect_view();
    view! {
        <section class="card">
            <h3>"Reasonable inferences (not errors)"</h3>
            {none}
            <ul>{exempted}</ul>
        </section>
        {changes}
        <section class="card">
            <h3>"Claims and deductions (Phase 1)"</h3>
            <ul>{claims}</ul>
            <ul>{deductions}</ul>
        </section>
    }
    .into_any()
}
