//! The Runs table: a header per column that sorts (the one every table uses), one row per run
//! of the page shown, how many match, and the pager. What is listed is
//! `crate::view::runs::listing`; the page owns the query.

use std::sync::Arc;

use leptos::prelude::*;

use super::row::RunRow;
use crate::table::Direction;
use crate::ui::boxed::part;
use crate::ui::boxed::text;
use crate::ui::dynamic::memo_count;
use crate::ui::keyed::keyed_rows;
use crate::ui::pager::pager;
use crate::ui::sort_header::sort_header;
use crate::view::runs::listing::numeric;
use crate::view::runs::listing::Listing;
use crate::view::runs::listing::COLUMNS;

#[component]
pub fn RunsTable(
    /// The page of runs the query asks for (tracked).
    shown: Arc<dyn Fn() -> Listing + Send + Sync>,
    searching: Signal<bool>,
    sort: RwSignal<Option<(usize, Direction)>>,
    page: RwSignal<usize>,
    loaded: RwSignal<bool>,
    on_change: Callback<()>,
) -> impl IntoView {
    let (s1, s2, s3) = (shown.clone(), shown.clone(), shown.clone());
    let pages = memo_count(Box::new(move || s1().pages));
    // One message when nothing is listed: none kept of this kind, or none match the search.
    let empty = part(move || {
        if !loaded.get() {
            return None;
        }
        let l = s2();
        let text = if l.of_kind == 0 {
            "No runs kept yet."
        } else if l.matching == 0 {
            "No run matches the search."
        } else {
            return None;
        };
        Some(view! { <p class="muted" data-testid="runs-empty">{text}</p> }.into_any())
    });
    view! {
        <p class="muted" data-testid="runs-count">{text(move || s3().count_words(searching.get()))}</p>
        {empty}
        <div class="table-wrap">
            <table data-testid="runs-table">
                <thead>
                    <tr>
                        {(0..COLUMNS.len())
                            .map(|c| sort_header("runs-sort", COLUMNS[c], c, numeric(c), sort, page))
                            .collect::<Vec<_>>()}
                        <th>"actions"</th>
                    </tr>
                </thead>
                <tbody>
                    {keyed_rows(
                        Arc::new(move || shown().runs),
                        |m| format!("{}\u{1f}{}", m.id, m.name),
                        Arc::new(move |m| view! { <RunRow meta=m on_change=on_change/> }.into_any()),
                    )}
                </tbody>
            </table>
        </div>
        {pager("runs-page", page, pages, "")}
    }
}
