//! The world-state panels of the Proof page: hypotheses, pending, accepted (with the open
//! assumptions each rests on), refused, refutations and goals.

use leptos::prelude::*;

use crate::logic::events::Event;
use crate::logic::world::{GoalState, Hypothesis, ItemStatus, Refutation, WorldState};
use crate::view::proof::world_labels::goal_badge;
use crate::view::proof::world_labels::refutation_head;
use crate::view::proof::world_labels::refutation_verdict;

use super::bind::formula;
use super::bind::live;
use super::bind::prose;

use super::item_panel::item_panel;

#[component]
pub fn ProofPanels(
    /// The world at the current step (and the event that led to it, not used here).
    state: Memo<(WorldState, Option<Event>)>,
) -> impl IntoView {
    // One small memo over the parts of the state these panels show, so a step that leaves them
    // alone does not rebuild (and re-typeset) them. (One memo, not three: each memo type is its
    // own copy of the reactive code in the wasm.)
    let parts = Memo::new(
        move |_| -> (Vec<GoalState>, Vec<Hypothesis>, Vec<Refutation>) {
            state.with(|(st, _)| {
                (
                    st.goals.clone(),
                    st.problem.hypotheses.clone(),
                    st.refutations.clone(),
                )
            })
        },
    );
    view! {
        <div class="proof-panels grid">
            <div class="card proof-panel" data-testid="proof-goals">
                <h3>"Goals"</h3>
                <p class="muted small">"Matched up to notation and renaming of bound variables, not logical equivalence."</p>
                <ul class="proof-list">
                    {live(move || parts.with(|p| p.0.clone()).into_iter().map(|g| {
                        let (class, label) = goal_badge(&g);
                        view! {
                            <li data-id=g.id.clone()>
                                <span class="chip">{g.id.clone()}</span>" "
                                {formula(&g.latex)}" "
                                <span class=class>{label}</span>
                            </li>
                        }
                        .into_any()
                    }).collect_view())}
                </ul>
            </div>
            <div class="card proof-panel" data-testid="proof-hypotheses">
                <h3>"Hypotheses"</h3>
                <ul class="proof-list">
                    {live(move || parts.with(|p| p.1.clone()).into_iter().map(|h| view! {
                        <li data-id=h.id.clone()>
                            <span class="chip">{h.id.clone()}</span>" "
                            {formula(&h.latex)}
                            {h.kind.clone().map(|k| view! { <span class="muted">" " {k}</span> }.into_any())}
                        </li>
                    }
                    .into_any()).collect_view())}
                </ul>
            </div>
            {item_panel(state, "Accepted", "proof-accepted", &[ItemStatus::Accepted])}
            {item_panel(state, "Pending", "proof-pending", &[ItemStatus::Pending])}
            {item_panel(state, "Rejected, blocked, retracted", "proof-refused", &[ItemStatus::Rejected, ItemStatus::Blocked, ItemStatus::Retracted])}
            <div class="card proof-panel" data-testid="proof-refutations">
                <h3>"Refutations"</h3>
                {live(move || {
                    let refutations = parts.with(|p| p.2.clone());
                    if refutations.is_empty() {
                        view! { <p class="muted">"none"</p> }.into_any()
                    } else {
                        view! {
                            <ul class="proof-list">
                                {refutations.into_iter().map(|r| {
                                    let (class, verdict) = refutation_verdict(r.upheld);
                                    view! {
                                        <li>
                                            <span class="chip">{r.id.clone()}</span>
                                            {refutation_head(&r)}
                                            {prose(r.reason.clone())}
                                            <span class=class>{verdict}</span>
                                            <div class="muted small">{r.note.clone()}</div>
                                        </li>
                                    }
                                    .into_any()
                                }).collect_view()}
                            </ul>
                        }.into_any()
                    }
                })}
            </div>
        </div>
    }
}
