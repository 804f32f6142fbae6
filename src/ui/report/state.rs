//! The Report page's shared state: the loaded file and report, the drill-down filter, the
//! case table's sort, page and selection, and the open case. One `Copy` struct of signals
//! so each component takes what it needs; the rules live in `crate::view::report::case_table`.

use std::sync::Arc;

use crate::ui::dynamic::memo_rows;
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::band::BandReport;
use crate::table::Direction;
use crate::view::report::case_table;
use crate::view::report::case_table::page_of;
use crate::view::report::drill::case_detail;
use crate::view::report::drill::CaseDetail;
use crate::view::report::drill::CaseFilter;

use super::read::read_case_line;

#[derive(Clone, Copy)]
pub struct ReportState {
    pub file: StoredValue<Option<web_sys::File>, LocalStorage>,
    pub bom: StoredValue<u64>,
    pub file_name: RwSignal<String>,
    pub report: RwSignal<Option<Arc<BandReport>>>,
    pub error: RwSignal<Option<String>>,
    pub filter: RwSignal<CaseFilter>,
    pub sort: RwSignal<Option<(usize, Direction)>>,
    pub page: RwSignal<usize>,
    /// The selected row's position in `order` (moved by j/k).
    pub selected: RwSignal<Option<usize>>,
    /// The open case (an index into `report.cases`), set at once: it is what the URL carries.
    pub open: RwSignal<Option<usize>>,
    /// The open case's text, read back from the file afterwards.
    pub detail: RwSignal<Option<(usize, Result<CaseDetail, String>)>>,
    /// Every case the filter keeps, sorted: indices into `report.cases`.
    pub order: Memo<Vec<usize>>,
}

impl Default for ReportState {
    fn default() -> Self {
        Self::new()
    }
}

impl ReportState {
    pub fn new() -> Self {
        let report = RwSignal::new(None::<Arc<BandReport>>);
        let filter = RwSignal::new(CaseFilter::default());
        let sort = RwSignal::new(None);
        let order = memo_rows(Box::new(move || {
            report.with(|r| {
                r.as_ref()
                    .map(|r| filter.with(|f| case_table::ordered(r, f, sort.get())))
                    .unwrap_or_default()
            })
        }));
        let s = ReportState {
            file: StoredValue::new_local(None),
            bom: StoredValue::new(0),
            file_name: RwSignal::new(String::new()),
            report,
            error: RwSignal::new(None),
            filter,
            sort,
            page: RwSignal::new(0),
            selected: RwSignal::new(None),
            open: RwSignal::new(None),
            detail: RwSignal::new(None),
            order,
        };
        // A new filter or sort starts at the page of the open case, or the first page.
        Effect::new(move |_| {
            order.track();
            let pos = s.position(s.open.get_untracked());
            s.page.set(pos.map_or(0, page_of));
            s.selected.set(pos);
        });
        s
    }

    /// Where case `index` is in the shown order.
    pub fn position(&self, index: Option<usize>) -> Option<usize> {
        let index = index?;
        self.order
            .with_untracked(|o| o.iter().position(|&i| i == index))
    }

    /// Open case `index` (of `report.cases`): the side panel shows it and takes the focus.
    pub fn open_case(&self, index: usize) {
        let s = *self;
        let Some(f) = s.file.get_value() else { return };
        let Some(c) = s
            .report
            .with_untracked(|r| r.as_ref().and_then(|r| r.cases.get(index).cloned()))
        else {
            return;
        };
        s.open.set(Some(index));
        if let Some(pos) = s.position(Some(index)) {
            s.selected.set(Some(pos));
            s.page.set(page_of(pos));
        }
        let b = s.bom.get_value();
        spawn_local(async move {
            let detail = read_case_line(&f, b, &c)
                .await
                .and_then(|l| case_detail(&l));
            // A case closed (or another opened) meanwhile wins.
            if s.open.get_untracked() == Some(index) {
                s.detail.set(Some((index, detail)));
                focus_soon("report-case".to_string());
            }
        });
    }

    /// Close the open case and give the focus back to its row.
    pub fn close_case(&self) {
        if let Some(i) = self.open.get_untracked() {
            self.open.set(None);
            self.detail.set(None);
            focus_soon(format!("report-row-{i}"));
        }
    }

    /// Open the case `step` rows away from the open one in the shown order.
    pub fn open_neighbour(&self, forward: bool) {
        let n = self.order.with_untracked(Vec::len);
        let at = self.position(self.open.get_untracked());
        if let Some(pos) = case_table::step(at, n, forward) {
            if let Some(i) = self.order.with_untracked(|o| o.get(pos).copied()) {
                self.open_case(i);
            }
        }
    }
}

/// Move the focus to the element with this id once the view has drawn it. One closure type
/// for every such move (each one handed to the browser costs its own glue code).
pub fn focus_soon(id: String) {
    request_animation_frame(move || focus(&id));
}

/// Move the keyboard focus to the element with this id (and into view).
pub fn focus(id: &str) {
    use wasm_bindgen::JsCast;
    if let Some(el) = document()
        .get_element_by_id(id)
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}
