//! The world-state panels of the Proof page: hypotheses, pending, accepted (with the open
//! assumptions each rests on), refused, refutations and goals.

use super::bind::formula;
use super::bind::live;
use super::bind::prose;
use crate::logic::events::Event;
use crate::logic::world::Item;
use crate::logic::world::{GoalState, Hypothesis, ItemStatus, Refutation, WorldState};
use crate::ui::keyed::keyed_rows;
use crate::view::proof::world_labels::goal_badge;
use crate::view::proof::world_labels::item_deps;
use crate::view::proof::world_labels::item_how;
use crate::view::proof::world_labels::item_why;
use crate::view::proof::world_labels::refutation_head;
use crate::view::proof::world_labels::refutation_verdict;
use leptos::prelude::*;
use std::sync::Arc;

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

// A panel of the Proof page's world items with given statuses (accepted, pending, refused),
// latest first, a few at a time; each row names its rule, premises, open assumptions and,
// when refused, why. The words come from `view::proof::world_labels`.

fn item_row(item: &Item) -> AnyView {
    let deps = item_deps(&item.depends_on);
    let how = item_how(&item.rule, &item.premises);
    let why = item_why(item.code, item.message.as_deref());
    view! {
        <li class="proof-item" data-id=item.id.clone()>
            <span class="chip">{item.id.clone()}</span>" "
            {formula(&item.latex)}
            <span class="muted">" " {how}</span>
            {(!deps.is_empty()).then(|| view! { " " <span class="badge open-assumptions">{deps.clone()}</span> }.into_any())}
            {(!why.is_empty()).then(|| view! { <div class="error small">{why.clone()}</div> }.into_any())}
        </li>
    }
    .into_any()
}

/// Rows a panel shows at first; each "show more" adds as many. A long log's world holds tens of
/// thousands of items, and rendering all of them (with KaTeX) would stall the page.
const PANEL_ROWS: usize = 20;

/// One panel of items with the given statuses, latest first. A plain function (not a closure
/// called three times), so its code is in the wasm once.
pub fn item_panel(
    state: Memo<(WorldState, Option<Event>)>,
    title: &'static str,
    testid: &'static str,
    statuses: &'static [ItemStatus],
) -> AnyView {
    let limit = RwSignal::new(PANEL_ROWS);
    let rows = Memo::new(move |_| state.with(|(st, _)| st.latest_items(statuses, limit.get())));
    view! {
        <div class="card proof-panel" data-testid=testid>
            <h3>{title}</h3>
            {live(move || rows.with(|(items, _)| items.is_empty()).then(|| view! { <p class="muted">"none"</p> }.into_any()))}
            {live(move || {
                let earlier = rows.with(|(_, earlier)| *earlier);
                (earlier > 0).then(|| view! {
                    <p class="muted small" data-testid="proof-panel-more">
                        {format!("{earlier} earlier not shown ")}
                        <button class="link" on:click=move |_| limit.update(|l| *l += PANEL_ROWS * 5)>
                            {format!("show {} more", earlier.min(PANEL_ROWS * 5))}
                        </button>
                    </p>
                }
                .into_any())
            })}
            // Keyed by the event that last changed an item: a step re-renders (and
            // re-typesets) only the rows it changed. (One row type and a string key for
            // every keyed list of the page: they share one copy of Leptos's keyed-list code.)
            <ul class="proof-list">
                {keyed_rows(
                    Arc::new(move || rows.with(|(items, _)| items.clone())),
                    |item| format!("{} {}", item.id, item.last_event),
                    Arc::new(|item| item_row(&item)),
                )}
            </ul>
        </div>
    }
    .into_any()
}
