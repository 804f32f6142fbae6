//! The page shown for a path that names no page.
use leptos::prelude::*;

/// Shown for unknown paths.
#[component]
pub fn NotFound() -> impl IntoView {
    view! {
        <section data-testid="page-not-found">
            <h1>"Page not found"</h1>
            <p>"Pick a page from the navigation above."</p>
        </section>
    }
}
