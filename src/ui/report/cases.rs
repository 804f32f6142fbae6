//! The case list: every case the filters keep, sortable by any column (click a header),
//! paged, with `j`/`k` to move the selection, `Enter` to open it and `Esc` to close it.

use crate::ui::dynamic::{memo_count, td};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::band::metrics::band_index;
use crate::view::report::case_table;
use crate::view::report::case_table::key_action;
use crate::view::report::case_table::page_range;
use crate::view::report::case_table::pages;
use crate::view::report::case_table::KeyAction;
use crate::view::report::case_table::COLUMNS;
use crate::view::report::drill::is_cross_band_cell;

use super::state::{focus_soon, ReportState};
use crate::ui::sort_header::sort_header;

/// Keys typed into a field (or pressed on a control) are not the list's.
fn typing(ev: &web_sys::KeyboardEvent) -> bool {
    let Some(el) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return false;
    };
    let tag = el.tag_name().to_ascii_lowercase();
    let control = matches!(tag.as_str(), "button" | "a") && ev.key() == "Enter";
    matches!(tag.as_str(), "input" | "textarea" | "select") || control
}

fn on_key(s: ReportState, ev: web_sys::KeyboardEvent) {
    if typing(&ev) || s.report.with_untracked(Option::is_none) {
        return;
    }
    let modifier = ev.ctrl_key() || ev.meta_key() || ev.alt_key();
    let Some(action) = key_action(&ev.key(), modifier) else {
        return;
    };
    let n = s.order.with_untracked(Vec::len);
    match action {
        KeyAction::Next | KeyAction::Previous => {
            let Some(pos) =
                case_table::step(s.selected.get_untracked(), n, action == KeyAction::Next)
            else {
                return;
            };
            ev.prevent_default();
            s.selected.set(Some(pos));
            s.page.set(case_table::page_of(pos));
            if let Some(i) = s.order.with_untracked(|o| o.get(pos).copied()) {
                focus_soon(format!("report-row-{i}"));
            }
        }
        KeyAction::Open => {
            let pos = s.selected.get_untracked();
            if let Some(i) = pos.and_then(|p| s.order.with_untracked(|o| o.get(p).copied())) {
                ev.prevent_default();
                s.open_case(i);
            }
        }
        KeyAction::Close => s.close_case(),
    }
}

pub fn cases_table(s: ReportState) -> AnyView {
    let keys = window_event_listener(leptos::ev::keydown, move |ev| on_key(s, ev));
    on_cleanup(move || keys.remove());
    let rows = move || {
        let Some(r) = s.report.get() else {
            return Vec::new();
        };
        let order = s.order.get();
        let selected = s.selected.get();
        let open = s.open.get();
        page_range(order.len(), s.page.get())
            .map(|pos| {
                let i = order[pos];
                let c = &r.cases[i];
                let cross = is_cross_band_cell(band_index(c.expected), band_index(c.actual));
                view! {
                    <tr
                        id=format!("report-row-{i}")
                        tabindex="-1"
                        data-testid="report-case-row"
                        class:cross=cross
                        class:selected=selected == Some(pos)
                        aria-selected=(open == Some(i)).to_string()
                        class="clickable"
                        title="Open the case (Enter)"
                        on:click=move |_| s.open_case(i)
                    >
                        {td(Some("num"), c.line.to_string())}
                        <td>
                            // Its click reaches the row, which opens the case.
                            <button class="link">
                                {c.id.clone().unwrap_or_else(|| "(no id)".into())}
                            </button>
                        </td>
                        {td(None, r.name(c.profile).unwrap_or("").to_string())}
                        {td(None, r.name(c.tag).unwrap_or("").to_string())}
                        {td(None, r.name(c.difficulty).unwrap_or("").to_string())}
                        {td(Some("num"), c.expected.to_string())}
                        {td(Some("num"), c.actual.to_string())}
                    </tr>
                }
                .into_any()
            })
            .collect::<Vec<_>>()
    };
    let total = move || s.order.with(Vec::len);
    let page_count = move || pages(total());
    view! {
        <p class="muted" id="report-cases" data-testid="report-cases-count">
            {move || format!("{} — {} case(s)", s.filter.with(|f| f.describe()), total())}
        </p>
        <div class="table-wrap">
            <table data-testid="report-case-table">
                <thead>
                    <tr>{(0..COLUMNS.len()).map(|c| sort_header("report-sort", COLUMNS[c], c, c == 0 || c >= 5, s.sort, s.page)).collect::<Vec<_>>()}</tr>
                </thead>
                <tbody>{move || Some(rows().into_any())}</tbody>
            </table>
        </div>
        {crate::ui::pager::pager("report-page", s.page, memo_count(Box::new(page_count)), "Keys: j / k move, Enter opens, Esc closes.")}
    }
    .into_any()
}
