//! A sortable column header: a click sorts by the column (again: the other way), `aria-sort`
//! says how, and the table goes back to its first page (`crate::table::Query::click_header`).

use crate::ui::boxed::{on_click, text};
use leptos::prelude::*;

use crate::table::{Direction, Query};
use crate::view::report::case_table::aria_sort;

/// `testid` is `{prefix}-{label}`; `numeric` right-aligns the column.
pub fn sort_header(
    prefix: &'static str,
    label: &'static str,
    column: usize,
    numeric: bool,
    sort: RwSignal<Option<(usize, Direction)>>,
    page: RwSignal<usize>,
) -> AnyView {
    let click = on_click(move |_| {
        let mut q = Query {
            sort: sort.get_untracked(),
            ..Query::default()
        };
        q.click_header(column);
        sort.set(q.sort);
        page.set(q.page);
    });
    let aria = text(move || aria_sort(sort.get(), column).to_string());
    view! {
        <th class=if numeric { "num" } else { "" } aria-sort=aria>
            <button class="link sort" data-testid=format!("{prefix}-{label}") on:click=click>{label}</button>
        </th>
    }
    .into_any()
}
