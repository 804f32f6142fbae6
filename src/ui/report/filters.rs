//! The case list's filters: cross-band only, profile, tag, the search box, clear, and the
//! JSONL export of what they keep.

use crate::ui::options::options;
use leptos::prelude::*;

use crate::ui::search_box::SearchBox;
use crate::view::report::drill::CaseFilter;

use super::state::ReportState;

/// A `<select>` over one optional field of the filter; "all" (the value "") is no filter.
fn field_select(
    label: &'static str,
    testid: &'static str,
    filter: RwSignal<CaseFilter>,
    get: fn(&CaseFilter) -> &Option<String>,
    set: fn(&mut CaseFilter) -> &mut Option<String>,
    choices: Vec<String>,
) -> AnyView {
    view! {
        <label>
            {label}
            <select
                data-testid=testid
                prop:value=move || filter.with(|f| get(f).clone().unwrap_or_default())
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    filter.update(|f| *set(f) = (!v.is_empty()).then_some(v));
                }
            >
                <option value="">"all"</option>
                {options(choices)}
            </select>
        </label>
    }
    .into_any()
}

pub fn filters_view(
    s: ReportState,
    export_cases: impl FnMut(web_sys::MouseEvent) + 'static,
) -> AnyView {
    let filter = s.filter;
    let (profiles, tags) = s.report.with_untracked(|r| {
        r.as_ref().map_or((Vec::new(), Vec::new()), |r| {
            (
                r.profiles.keys().cloned().collect(),
                r.tags.keys().cloned().collect(),
            )
        })
    });
    view! {
        <div class="row">
            <label class="row">
                <input
                    type="checkbox"
                    data-testid="report-filter-cross"
                    prop:checked=move || filter.with(|f| f.cross_band_only)
                    on:change=move |ev| filter.update(|f| f.cross_band_only = event_target_checked(&ev))
                />
                "cross-band only"
            </label>
            {field_select("Profile ", "report-filter-profile", filter, |f| &f.profile, |f| &mut f.profile, profiles)}
            {field_select("Tag ", "report-filter-tag", filter, |f| &f.tag, |f| &mut f.tag, tags)}
            <SearchBox
                testid="report-search"
                placeholder="search ids, profiles, tags"
                text=Signal::derive(move || filter.with(|f| f.search.clone()))
                regex=Signal::derive(move || filter.with(|f| f.regex))
                set_text=Callback::new(move |t| filter.update(|f| f.search = t))
                set_regex=Callback::new(move |r| filter.update(|f| f.regex = r))
            />
            <button data-testid="report-filter-clear" on:click=move |_| filter.set(CaseFilter::default())>
                "Clear filters"
            </button>
            <button data-testid="report-export-cases" on:click=export_cases>"Export these cases (JSONL)"</button>
        </div>
    }
    .into_any()
}
