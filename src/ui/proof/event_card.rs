//! The stepper's card for the current event: what happened at this step, formulas rendered.

use leptos::prelude::*;

use super::bind::formula;
use crate::logic::events::{code_str, Event};

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
