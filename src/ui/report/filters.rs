//! The case list's filters: cross-band only, profile, tag, the search box, clear, and the
//! JSONL export of what they keep.

use leptos::prelude::*;

use crate::band::drill::CaseFilter;
use crate::ui::search_box::SearchBox;

use super::state::ReportState;

fn option_list(names: Vec<String>) -> Vec<AnyView> {
    names
        .into_iter()
        .map(|n| view! { <option value=n.clone()>{n.clone()}</option> }.into_any())
        .collect()
}

pub fn filters_view(
    s: ReportState,
    export_cases: impl Fn(web_sys::MouseEvent) + Copy + Send + Sync + 'static,
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
            <label>
                "Profile "
                <select
                    data-testid="report-filter-profile"
                    prop:value=move || filter.with(|f| f.profile.clone().unwrap_or_default())
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        filter.update(|f| f.profile = (!v.is_empty()).then_some(v));
                    }
                >
                    <option value="">"all"</option>
                    {option_list(profiles)}
                </select>
            </label>
            <label>
                "Tag "
                <select
                    data-testid="report-filter-tag"
                    prop:value=move || filter.with(|f| f.tag.clone().unwrap_or_default())
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        filter.update(|f| f.tag = (!v.is_empty()).then_some(v));
                    }
                >
                    <option value="">"all"</option>
                    {option_list(tags)}
                </select>
            </label>
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
