//! Previous / next page buttons and "page 2 of 5" under a paged table (the Report's cases,
//! the Compare page's cases). The page shown is clamped to the last page.

use crate::ui::boxed::{flag, on_click, text};
use leptos::prelude::*;

/// `testid` names the parts: `{testid}-prev`, `{testid}-next` and `{testid}` (the text).
pub fn pager(
    testid: &'static str,
    page: RwSignal<usize>,
    pages: Memo<usize>,
    hint: &'static str,
) -> AnyView {
    let shown = move || page.get().min(pages.get().max(1) - 1);
    view! {
        <div class="row pager">
            <button
                data-testid=format!("{testid}-prev")
                disabled=flag(move || shown() == 0)
                on:click=on_click(move |_| page.set(shown().saturating_sub(1)))
            >"‹ Previous page"</button>
            <span data-testid=testid>{text(move || format!("page {} of {}", shown() + 1, pages.get().max(1)))}</span>
            <button
                data-testid=format!("{testid}-next")
                disabled=flag(move || shown() + 1 >= pages.get())
                on:click=on_click(move |_| page.set(shown() + 1))
            >"Next page ›"</button>
            <span class="muted">{hint}</span>
        </div>
    }
    .into_any()
}
