//! An audit's report on the Audit page: score and band, the texts with the quoted evidence
//! marked, errors by phase, the number check, inferences, severity changes, claims, phases and
//! the JSON. The same view for a fresh audit and a kept one (both read by `view::audit::shown`).

use super::number_check::NumberCheck;
use crate::audit::Phase;
use crate::ui::download::download_text;
use crate::ui::finding_group::finding_group;
use crate::view::audit::highlight::highlight;
use crate::view::audit::shown::PhaseRow;
use crate::view::audit::shown::ReportShown;
use leptos::prelude::*;

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

// The Audit report's table of phases: model, calls, time, tokens, re-asks, cut-off replies and
// what was repaired in each accepted reply.

fn row(p: &PhaseRow) -> AnyView {
    view! {
        <tr>
            <td>{p.phase.label()}</td>
            <td>{p.llm.clone()}</td>
            <td class="num">{p.calls.to_string()}</td>
            <td class="num">{p.latency_ms.to_string()}</td>
            <td class="num">{p.tokens.to_string()}</td>
            <td class="num">{p.tokens_per_s.clone()}</td>
            <td>{if p.reasked { "yes" } else { "" }}</td>
            <td data-testid="audit-phase-cut">{p.cut.clone()}</td>
            <td data-testid="audit-phase-repairs">{p.repairs.clone()}</td>
        </tr>
    }
    .into_any()
}

pub fn phase_table(phases: &[PhaseRow]) -> AnyView {
    let rows: Vec<AnyView> = phases.iter().map(row).collect();
    view! {
        <div class="table-wrap">
            <table>
                <thead>
                    <tr><th>"Phase"</th><th>"LLM"</th><th>"Calls"</th><th>"ms"</th><th>"Tokens"</th><th>"Tokens/s"</th><th>"Re-asked"</th><th>"Cut off"</th><th>"Repairs of the reply"</th></tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
    .into_any()
}

// The Audit report's JSON: show it, copy it, download it.

/// A plain function rather than a component (each component has its own props code).
pub fn report_json(json: String) -> AnyView {
    let show_raw = RwSignal::new(false);
    let copied = RwSignal::new(None::<String>);
    let json_for_copy = json.clone();
    let json_for_download = json.clone();
    let copy = move |_| {
        let Some(clipboard) = web_sys::window().map(|w| w.navigator().clipboard()) else {
            return;
        };
        let _ = clipboard.write_text(&json_for_copy);
        copied.set(Some("Copied.".into()));
    };
    let download = move |_| {
        if let Err(e) = download_text("audit-report.json", "application/json", &json_for_download) {
            copied.set(Some(e));
        }
    };
    view! {
        <div class="row">
            <button on:click=move |_| show_raw.update(|v| *v = !*v)>
                {move || String::from(if show_raw.get() { "Hide raw JSON" } else { "Show raw JSON" })}
            </button>
            <button on:click=copy>"Copy JSON"</button>
            <button data-testid="audit-download" on:click=download>"Download JSON"</button>
            <span class="muted">{move || copied.get().unwrap_or_default()}</span>
        </div>
        {move || show_raw.get().then(|| view! { <pre data-testid="audit-raw">{json.clone()}</pre> }.into_any())}
    }
    .into_any()
}

// The Audit report's lists: reasonable inferences (not errors), the reverse check's severity
// changes, and Phase 1's claims and deductions.

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
