//! The paired cases: cross-band flips first (the comparison's order), sortable by any
//! column, searchable, paged.

use std::sync::Arc;

use crate::ui::boxed;
use crate::ui::boxed::effect;
use crate::ui::boxed::part;
use crate::ui::dynamic::{memo_count, memo_rows, td};
use leptos::prelude::*;

const NUM: Option<&str> = Some("num");

use crate::band::compare::Comparison;
use crate::band::compare_input::{search_text, PairedRow, COLUMNS};
use crate::search::SearchQuery;
use crate::table::{self, Direction, Query};
use crate::ui::boxed::on_click;
use crate::ui::report::state::focus_soon;
use crate::ui::search_box::SearchBox;
use crate::ui::sort_header::sort_header;
use crate::view::compare::case::{change_class, OpenCase};
use crate::view::report::case_table::page_range;
use crate::view::report::case_table::pages;

use super::case_panel::PANEL_ID;

/// `open` is the page's open case: a case's id opens it.
pub fn paired_table(c: Arc<Comparison>, open: RwSignal<Option<OpenCase>>) -> AnyView {
    // Column 1 (profile) only when cases were paired by profile; otherwise it would be empty.
    let by_profile = c.by_profile();
    let shown: Vec<usize> = (0..COLUMNS.len())
        .filter(|&col| by_profile || COLUMNS[col] != "profile")
        .collect();
    let sort = RwSignal::new(None::<(usize, Direction)>);
    let page = RwSignal::new(0usize);
    let text = RwSignal::new(String::new());
    let regex = RwSignal::new(false);
    let c2 = c.clone();
    let order = memo_rows(Box::new(move || {
        let q = SearchQuery::parse_or_everything(&text.get(), regex.get());
        let kept: Vec<usize> = (0..c2.cases.len())
            .filter(|&i| q.matches(&search_text(&c2.cases[i])))
            .collect();
        let rows: Vec<PairedRow> = kept.iter().map(|&i| PairedRow(&c2.cases[i])).collect();
        let q = Query {
            sort: sort.get(),
            ..Query::default()
        };
        table::view(&rows, COLUMNS.len(), &q)
            .rows
            .into_iter()
            .map(|i| kept[i])
            .collect::<Vec<_>>()
    }));
    effect(move || {
        order.track();
        page.set(0);
    });
    let rows = move || {
        let o = order.get();
        page_range(o.len(), page.get())
            .map(|pos| {
                let p = &c.cases[o[pos]];
                let case = OpenCase::of(p);
                let this = case.clone();
                let selected = move || open.with(|o| o.as_ref() == Some(&this));
                view! {
                    <tr data-testid="compare-row" class=boxed::text(move || if selected() { "selected".to_string() } else { String::new() })>
                        <td>
                            <button class="link" data-testid="compare-open" title="Show both runs' texts and findings" on:click=on_click(move |_| {
                                open.set(Some(case.clone()));
                                focus_soon(PANEL_ID.to_string());
                            })>{p.id.clone()}</button>
                        </td>
                        {by_profile.then(|| td(None, p.profile.clone().unwrap_or_default()))}
                        {td(NUM, p.expected.to_string())}
                        {td(NUM, format!("{} {}", p.score_a, p.band_a))}
                        {td(NUM, format!("{} {}", p.score_b, p.band_b))}
                        <td data-testid="compare-change"><span class=change_class(p.change)>{p.change.label()}</span></td>
                    </tr>
                }
                .into_any()
            })
            .collect::<Vec<_>>()
    };
    let count = move || pages(order.with(Vec::len));
    view! {
        <div class="card" data-testid="compare-cases">
            <h2>"Cases"</h2>
            <SearchBox
                testid="compare-search"
                placeholder="search ids, profiles, changes"
                text=Signal::derive(move || text.get())
                regex=Signal::derive(move || regex.get())
                set_text=Callback::new(move |t| text.set(t))
                set_regex=Callback::new(move |r| regex.set(r))
            />
            <p class="muted">"Click a case's id to see both runs' texts and findings side by side."</p>
            <p class="muted" data-testid="compare-cases-count">{boxed::text(move || format!("{} case(s)", order.with(Vec::len)))}</p>
            <div class="table-wrap">
                <table>
                    <thead><tr>{shown.iter().map(|&c| sort_header("compare-sort", COLUMNS[c], c, (2..5).contains(&c), sort, page)).collect::<Vec<_>>()}</tr></thead>
                    <tbody>{part(move || Some(rows().into_any()))}</tbody>
                </table>
            </div>
            {crate::ui::pager::pager("compare-page", page, memo_count(Box::new(count)), "")}
        </div>
    }
    .into_any()
}
