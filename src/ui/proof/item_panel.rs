//! A panel of the Proof page's world items with given statuses (accepted, pending, refused),
//! latest first, a few at a time; each row names its rule, premises, open assumptions and,
//! when refused, why. The words come from `view::proof::world_labels`.

use std::sync::Arc;

use leptos::prelude::*;

use super::bind::formula;
use super::bind::live;
use crate::logic::events::Event;
use crate::logic::world::{Item, ItemStatus, WorldState};
use crate::ui::keyed::keyed_rows;
use crate::view::proof::world_labels::item_deps;
use crate::view::proof::world_labels::item_how;
use crate::view::proof::world_labels::item_why;

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
#[inline(never)]
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
                        <button class="link" on:click=crate::ui::boxed::on_click(move |_| limit.update(|l| *l += PANEL_ROWS * 5))>
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
