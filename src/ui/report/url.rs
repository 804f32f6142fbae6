//! The Report page's view in the URL: the cell, tag and search, and the open case
//! (`case=<id>&line=<n>`), so reload, Back and a shared link return to the same view.

use leptos::prelude::*;

use crate::route::state::ViewState;
use crate::ui::query;
use crate::view::report::case_table::find_case;
use crate::view::report::drill::CaseFilter;

use super::state::ReportState;

/// The URL key that tells apart cases with one id (one line per profile).
const LINE_KEY: &str = "line";

/// Keep the URL in step with the view (and the view with back/forward); returns what shows
/// a URL's view state, for the page to call once a report is loaded.
pub fn follow_url(
    s: ReportState,
    run: RwSignal<Option<String>>,
) -> impl Fn(ViewState) + Copy + 'static {
    // Show what a URL's view state selects: its cell, tag and search, and its open case.
    let apply_view = move |v: ViewState| {
        s.filter.set(CaseFilter::from_view(&v));
        let line = v
            .unknown
            .iter()
            .find(|(k, _)| k == LINE_KEY)
            .and_then(|(_, l)| l.parse().ok());
        let wanted = v.case.as_deref().and_then(|id| {
            s.report
                .with_untracked(|r| r.as_ref().and_then(|r| find_case(r, id, line)))
        });
        match wanted {
            Some(i) if s.open.get_untracked() != Some(i) => s.open_case(i),
            Some(_) => {}
            None => s.close_case(),
        }
    };
    query::on_history_move(apply_view);
    // The URL follows the view: a new drill-down (cell, tag, an opened case) is a history entry.
    Effect::new(move |_| {
        let f = s.filter.get();
        let open = s.open.get();
        let r = run.get();
        let Some(report) = s.report.get() else { return };
        let now = query::current();
        let case = open.and_then(|i| report.cases.get(i));
        let mut unknown: Vec<_> = now
            .unknown
            .iter()
            .filter(|(k, _)| k != LINE_KEY)
            .cloned()
            .collect();
        if let Some(c) = case {
            unknown.push((LINE_KEY.to_string(), c.line.to_string()));
        }
        // The demo is not a kept run: its URL keeps naming it.
        let example = r.is_none().then(|| now.example.clone()).flatten();
        let mut v = ViewState {
            example,
            run: r,
            case: case.map(|c| c.id.clone().unwrap_or_default()),
            unknown,
            ..ViewState::default()
        };
        f.to_view(&mut v);
        // Opening a case is a new entry (Back closes it); next/previous and close replace it.
        let opened = now.case.is_none() && v.case.is_some();
        let drilled = v.cell != now.cell || v.tag != now.tag || opened;
        query::set(&v, drilled);
    });
    apply_view
}
