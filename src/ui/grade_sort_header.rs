use leptos::prelude::*;

use crate::ui::extract::boxed::{on_click, text};

use crate::table::{Direction, Query};

/// A column header: a button that sorts by the column (again: the other way round).
pub fn header(
    column: usize,
    name: &'static str,
    sort: RwSignal<Option<(usize, Direction)>>,
    page: RwSignal<usize>,
) -> AnyView {
    let state = text(move || match sort.get() {
        Some((c, Direction::Ascending)) if c == column => String::from("ascending"),
        Some((c, Direction::Descending)) if c == column => String::from("descending"),
        _ => String::from("none"),
    });
    let click = move |_| {
        let mut q = Query {
            sort: sort.get_untracked(),
            ..Query::default()
        };
        q.click_header(column);
        sort.set(q.sort);
        page.set(0);
    };
    view! {
        <th aria-sort=state>
            <button class="link" data-testid="extract-sort" data-column=name on:click=on_click(click)>{name}</button>
        </th>
    }
    .into_any()
}
