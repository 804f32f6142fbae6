//! The stepper controls of the Proof page: first/prev/next/last, autoplay, the step slider, the
//! current event and the exports. One click handler serves every button (by its test id), so
//! the wasm carries one listener instead of eight.

use super::bind::formula;
use super::bind::live;
use super::page_state::ProofState;
use crate::logic::events::code_str;
use crate::logic::events::Event;
use crate::logic::world::WorldState;
use crate::view::proof::stepper_keys::StepKey;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// What a control button does, by its `data-testid`.
fn on_button(page: ProofState, testid: &str) {
    match testid {
        "proof-first" => page.command(StepKey::First),
        "proof-prev" => page.command(StepKey::Prev),
        "proof-next" => page.command(StepKey::Next),
        "proof-last" => page.command(StepKey::Last),
        "proof-play" => page.command(StepKey::TogglePlay),
        "proof-export-log" => page.export_log(),
        "proof-export-latex" => page.export_proof(false),
        "proof-export-markdown" => page.export_proof(true),
        _ => {}
    }
}

fn clicked_button(ev: &web_sys::MouseEvent) -> Option<String> {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|e| e.closest("button").ok().flatten())
        .and_then(|b| b.get_attribute("data-testid"))
}

#[component]
pub fn ProofControls(page: ProofState, state: Memo<(WorldState, Option<Event>)>) -> impl IntoView {
    let step = page.step;
    view! {
        <div class="card stack proof-controls" on:click=move |ev| {
            if let Some(id) = clicked_button(&ev) {
                on_button(page, &id);
            }
        }>
            <div class="row">
                <button data-testid="proof-first">{crate::ui::icons::first()}" First"</button>
                <button data-testid="proof-prev">{crate::ui::icons::prev()}" Prev"</button>
                <button data-testid="proof-next">"Next "{crate::ui::icons::next()}</button>
                <button data-testid="proof-last">"Last "{crate::ui::icons::last()}</button>
                <button data-testid="proof-play">{live(move || String::from(if page.playing.get() { "Pause" } else { "Autoplay" }))}</button>
                <input type="range" min="0" max=live(move || page.total().to_string()) data-testid="proof-step"
                    aria-label="step" prop:value=live(move || step.get().to_string())
                    on:input=move |ev| page.go(event_target_value(&ev).parse().unwrap_or(0))/>
                <span data-testid="proof-step-label">{live(move || format!("{} / {}", step.get(), page.total()))}</span>
                <span class="muted small">"Keys: ← → step, Home / End, Space plays"</span>
            </div>
            <div class="proof-event" data-testid="proof-event">
                {live(move || event_card(step.get(), page.total(), state.with(|(_, e)| e.clone())))}
            </div>
            <div class="row">
                <button data-testid="proof-export-log">"Export event log (JSON)"</button>
                <button data-testid="proof-export-latex">"Export proof (LaTeX, fitch.sty)"</button>
                <button data-testid="proof-export-markdown">"Export proof (Markdown)"</button>
            </div>
        </div>
    }
}

// The stepper's card for the current event: what happened at this step, formulas rendered.

pub fn event_card(step: usize, total: usize, event: Option<Event>) -> AnyView {
    let Some(event) = event else {
        return view! {
            <p class="muted">{format!("Step 0 of {total}: the problem as given. Press → (or Space to play) to replay.")}</p>
        }
        .into_any();
    };
    let kind = event.event_type();
    let detail = match &event {
        Event::Proposal { content, .. } => view! {
            <div>
                {formula(&content.latex)}
                <div class="muted">{format!("{} by {} from [{}]", content.proposal_id, content.rule, content.premises.join(", "))}</div>
            </div>
        }
        .into_any(),
        Event::Accepted { content, .. } => view! {
            <div>
                {formula(&content.latex)}
                <div class="muted">{format!(
                    "{} accepted: {} from [{}], proposed by {}, verified by {}{}",
                    content.conclusion_id, content.rule, content.derived_from.join(", "),
                    content.proposed_by, content.verified_by,
                    if content.depends_on.is_empty() { String::new() } else { format!("; rests on {}", content.depends_on.join(", ")) }
                )}</div>
            </div>
        }
        .into_any(),
        Event::Rejected { content, .. } | Event::Blocked { content, .. } => view! {
            <div>
                {(!content.latex.is_empty()).then(|| formula(&content.latex))}
                <div class="error">{format!("{}: {}", code_str(content.code), content.message)}</div>
            </div>
        }
        .into_any(),
        // The summary line above already says all there is.
        _ => ().into_any(),
    };
    let badge = match kind {
        "ACCEPTED" | "GOAL_PROVED" => "badge ok",
        "REJECTED" | "BLOCKED" | "RETRACTED" => "badge error",
        _ => "badge",
    };
    view! {
        <div>
            <div class="row">
                <strong>{format!("Step {step} of {total}")}</strong>" "
                <span class=badge data-testid="proof-event-type">{kind}</span>" "
                <span class="muted">{event.source().to_string()}</span>
            </div>
            <p>{event.summary()}</p>
            {detail}
        </div>
    }
    .into_any()
}
