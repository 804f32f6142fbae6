//! The Audit report's "Transcript": every prompt sent and every reply received, phase by
//! phase and call by call (keys were redacted when the report was written, docs/audit.md).
//! Closed by default: the texts are long. Model and user text is shown as text, never as HTML.
//! Its own file, not folded into `report_view.rs`: a self-contained section the report only places.

use leptos::prelude::*;

use crate::view::audit::shown::PhaseRow;

fn exchange(phase: &str, n: usize, e: &crate::view::audit::shown::Exchange) -> AnyView {
    let messages: Vec<AnyView> = e
        .messages
        .iter()
        .map(|(role, text)| {
            view! {
                <div class="transcript-message" data-testid="audit-transcript-prompt">
                    <span class="chip">{role.clone()}</span>
                    <pre>{text.clone()}</pre>
                </div>
            }
            .into_any()
        })
        .collect();
    let reply = match &e.reply {
        Some(r) => view! {
            <div class="transcript-message" data-testid="audit-transcript-reply">
                <span class="chip">"reply"</span>
                <pre>{r.clone()}</pre>
            </div>
        }
        .into_any(),
        None => view! { <p class="muted">"No reply: the call failed."</p> }.into_any(),
    };
    view! {
        <section class="stack" data-testid="audit-transcript-call">
            <h4>{format!("{phase} · call {n}")}</h4>
            {messages}
            {reply}
        </section>
    }
    .into_any()
}

pub fn transcript(phases: &[PhaseRow]) -> AnyView {
    let calls: Vec<AnyView> = phases
        .iter()
        .flat_map(|p| {
            p.transcript
                .iter()
                .enumerate()
                .map(|(i, e)| exchange(p.phase.label(), i + 1, e))
                .collect::<Vec<_>>()
        })
        .collect();
    let count = calls.len();
    let body = if calls.is_empty() {
        view! { <p class="muted">"This report does not hold its prompts (kept before they were stored)."</p> }.into_any()
    } else {
        view! { {calls} }.into_any()
    };
    view! {
        <details class="card transcript" data-testid="audit-transcript">
            <summary>{format!("Transcript: every prompt and reply ({count} calls; API keys never shown)")}</summary>
            {body}
        </details>
    }
    .into_any()
}
