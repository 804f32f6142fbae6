//! The footer: the version and the promise that nothing but LLM calls leaves the page.
use leptos::prelude::*;

/// The "about" footer: version and the privacy promise.
#[component]
pub fn Footer() -> impl IntoView {
    view! {
        <footer class="footer" data-testid="footer">
            <span>"VerifyFast v" {crate::VERSION}</span>
            <span class="muted">
                " · runs entirely in your browser; LLM calls go only to the endpoints you configure in Settings."
            </span>
        </footer>
    }
}
