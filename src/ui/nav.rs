use leptos::prelude::*;

use super::router::{CurrentPage, Page};
use super::theme_toggle::ThemeToggle;

/// The pages, in the order the top navigation shows them: (path, label, test id).
pub const PAGES: [(&str, &str, &str); 5] = [
    ("/audit", "Audit", "nav-audit"),
    ("/report", "Report", "nav-report"),
    ("/extract", "Extract", "nav-extract"),
    ("/proof", "Proof", "nav-proof"),
    ("/settings", "Settings", "nav-settings"),
];

/// Top navigation; the current page's link has `aria-current="page"`.
#[component]
pub fn Nav() -> impl IntoView {
    let page = use_context::<CurrentPage>().map(|p| p.0);
    let current = move |href: &str| {
        let here = page.map(|p| p.get());
        (here == Some(Page::from_path(href))).then_some("page")
    };
    view! {
        <header class="topbar">
            <a class="brand" href="/audit">
                <img src="/favicon.svg" alt="" width="24" height="24"/>
                <span>"VerifyFast"</span>
            </a>
            <nav class="nav" aria-label="Pages">
                {PAGES
                    .iter()
                    .map(|(href, label, testid)| {
                        view! {
                            <a href=*href data-testid=*testid aria-current=move || current(href)>
                                {*label}
                            </a>
                        }
                        .into_any()
                    })
                    .collect_view()}
            </nav>
            <ThemeToggle/>
        </header>
    }
}
