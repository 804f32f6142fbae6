//! The open case as a side panel next to the list (below it on phones): its texts, the
//! errors found, previous / next in the list's order, close, and "Open in Audit".

use leptos::prelude::*;

use crate::view::report::drill::CaseDetail;

use super::open_in_audit::open_in_audit;
use super::state::ReportState;
use crate::ui::finding_group::finding_view;

fn band(s: u8) -> String {
    format!("chip band-{}", crate::audit::Band::of(s).as_str())
}

fn body(detail: Result<CaseDetail, String>) -> AnyView {
    match detail {
        Err(e) => view! { <div class="error">{e}</div> }.into_any(),
        Ok(d) => {
            let section = |title: &'static str, text: Option<String>| {
                text.map(|t| view! { <h3>{title}</h3><pre>{t}</pre> }.into_any())
            };
            let audit = open_in_audit(d.context_input.clone(), d.model_output.clone());
            view! {
                {d.description.map(|t| view! { <p class="muted">{t}</p> }.into_any())}
                {d.error.map(|e| view! { <div class="error">"Could not be audited: "{e}</div> }.into_any())}
                {audit}
                {section("Context", d.context_input)}
                {section("Model output", d.model_output)}
                {(!d.errors.is_empty()).then(|| {
                    // As the Audit page shows them; raw JSON only when an entry does not read.
                    let items: Vec<AnyView> = if d.findings.len() == d.errors.len() {
                        d.findings.iter().map(finding_view).collect()
                    } else {
                        d.errors.into_iter().map(|e| view! { <pre>{e}</pre> }.into_any()).collect()
                    };
                    view! {
                        <h3>{format!("Errors found ({})", items.len())}</h3>
                        <ul class="stack" data-testid="report-case-findings">{items}</ul>
                    }
                    .into_any()
                })}
            }
            .into_any()
        }
    }
}

pub fn case_panel(s: ReportState, index: usize, detail: Result<CaseDetail, String>) -> AnyView {
    let Some(c) = s
        .report
        .with_untracked(|r| r.as_ref().and_then(|r| r.cases.get(index).cloned()))
    else {
        return ().into_any();
    };
    let profile = s.report.with_untracked(|r| {
        r.as_ref()
            .and_then(|r| r.name(c.profile).map(str::to_string))
    });
    // A case whose run kept its report opens like a single audit (claims, findings,
    // transcript) without new calls; `batch`, the latest-run alias, names no run to open.
    let run = crate::ui::query::current()
        .run
        .filter(|r| r != crate::ui::links::BATCH_RUN);
    let explain = match (&detail, run, &c.id, &profile) {
        (Ok(d), Some(run), Some(id), Some(p)) if d.kept_report => {
            let href = crate::ui::links::case_href(&run, id, p);
            Some(view! { <a class="button" href=href data-testid="report-case-explain">"Why this score: open its audit (no new calls)"</a> }.into_any())
        }
        _ => None,
    };
    let place = move || {
        let n = s.order.with(Vec::len);
        s.position(Some(index))
            .map_or("not in the filtered list".to_string(), |p| {
                format!("{} of {n}", p + 1)
            })
    };
    view! {
        <aside class="card case-panel" id="report-case" tabindex="-1" data-testid="report-case" aria-label="Case">
            <div class="row">
                <button data-testid="report-case-prev" on:click=move |_| s.open_neighbour(false)>"‹ Previous"</button>
                <span class="muted" data-testid="report-case-place">{place}</span>
                <button data-testid="report-case-next" on:click=move |_| s.open_neighbour(true)>"Next ›"</button>
                <button data-testid="report-case-close" aria-label="Close the case (Esc)" on:click=move |_| s.close_case()>
                    "Close"
                </button>
            </div>
            <h2>{format!("Case {} (line {})", c.id.clone().unwrap_or_default(), c.line)}</h2>
            <div class="row">
                {profile.map(|p| view! { <span class="chip">{p}</span> }.into_any())}
                <span class=band(c.expected)>{format!("expected {}", c.expected)}</span>
                <span class=band(c.actual)>{format!("judged {}", c.actual)}</span>
            </div>
            {explain}
            {body(detail)}
        </aside>
    }
    .into_any()
}
