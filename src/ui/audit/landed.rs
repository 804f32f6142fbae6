//! While an audit runs: each phase's result as soon as it lands (Phase 1's claims and
//! deductions first, then each checking phase's errors), before the score exists. The report
//! replaces this when the audit ends.

use leptos::prelude::*;

use crate::view::audit::progress::Landed;

pub fn landed_view(l: &Landed) -> Option<AnyView> {
    if !l.decomposed && l.findings.is_empty() {
        return None;
    }
    let claims: Vec<AnyView> = l
        .claims
        .iter()
        .map(|c| {
            view! { <li data-testid="audit-live-claim"><strong>{c.id.clone()}</strong>" "{c.text.clone()}</li> }
                .into_any()
        })
        .collect();
    let deductions: Vec<AnyView> = l
        .deductions
        .iter()
        .map(|d| {
            view! { <li><strong>{d.id.clone()}</strong>" "{d.premises.join(" · ")}" ⇒ "{d.conclusion.clone()}</li> }
                .into_any()
        })
        .collect();
    let findings: Vec<AnyView> = l
        .findings
        .iter()
        .map(|(phase, fs)| {
            let items: Vec<AnyView> = fs
                .iter()
                .map(|f| {
                    view! {
                        <li data-testid="audit-live-finding">
                            <span class="chip">{format!("{:?}", f.severity)}</span>" "
                            <strong>{f.target.clone()}</strong>" "{f.explanation.clone()}
                        </li>
                    }
                    .into_any()
                })
                .collect();
            let none = items
                .is_empty()
                .then(|| view! { <p class="muted">"No errors reported."</p> });
            view! { <h4>{format!("{}: answered", phase.label())}</h4>{none}<ul>{items}</ul> }
                .into_any()
        })
        .collect();
    Some(
        view! {
            <section class="card stack" data-testid="audit-landed">
                <h3>"So far (the score comes when every phase has answered)"</h3>
                {l.decomposed.then(|| view! {
                    <h4>{format!("Phase 1: {} claims, {} deductions", l.claims.len(), l.deductions.len())}</h4>
                    <ul>{claims}</ul>
                    <ul>{deductions}</ul>
                })}
                {findings}
            </section>
        }
        .into_any(),
    )
}
