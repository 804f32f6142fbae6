//! A table's search box with its "Regex" toggle and, when the regex does not compile, the
//! reason next to it. What a search matches is `crate::search::SearchQuery`'s rule. The page
//! owns the text and the toggle (plain signals, or fields of a filter) and passes them in
//! with their setters; [`query_memo`] turns two signals into a query.

use leptos::prelude::*;

use crate::search::SearchQuery;

/// The query the box asks for; an unusable regex filters nothing (every row is kept) while
/// the box shows why.
pub fn query_memo(text: RwSignal<String>, regex: RwSignal<bool>) -> Memo<SearchQuery> {
    Memo::new(move |_| SearchQuery::parse_or_everything(&text.get(), regex.get()))
}

/// `testid` names the text box; the toggle and the error add `-regex` / `-error` to it.
#[component]
pub fn SearchBox(
    testid: &'static str,
    placeholder: &'static str,
    #[prop(into)] text: Signal<String>,
    #[prop(into)] regex: Signal<bool>,
    set_text: Callback<String>,
    set_regex: Callback<bool>,
) -> impl IntoView {
    let error = move || {
        SearchQuery::parse(&text.get(), regex.get())
            .err()
            .map(|e| e.to_string())
    };
    view! {
        <span class="row search-box">
            <input
                type="search"
                placeholder=placeholder
                aria-label=placeholder
                data-testid=testid
                aria-invalid=move || error().is_some().to_string()
                prop:value=move || text.get()
                on:input=crate::ui::boxed::on_change(move |ev| set_text.run(event_target_value(&ev)))
            />
            <label class="row" title="Search with a regular expression (case-insensitive)">
                <input
                    type="checkbox"
                    data-testid=format!("{testid}-regex")
                    prop:checked=move || regex.get()
                    on:change=crate::ui::boxed::on_change(move |ev| set_regex.run(event_target_checked(&ev)))
                />
                "Regex"
            </label>
            {move || error().map(|e| view! {
                <span class="error search-error" role="alert" data-testid=format!("{testid}-error")>{e}</span>
            }.into_any())}
        </span>
    }
}
