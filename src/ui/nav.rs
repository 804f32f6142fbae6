use leptos::prelude::*;

use super::router::{CurrentPage, Page};
use super::theme_toggle::ThemeToggle;
use crate::route::PAGES;

/// The top navigation's label and test id for each page of `route::PAGES`, in that order.
const LABELS: [(&str, &str); 7] = [
    ("Audit", "nav-audit"),
    ("Report", "nav-report"),
    ("Compare", "nav-compare"),
    ("Extract", "nav-extract"),
    ("Proof", "nav-proof"),
    ("Runs", "nav-runs"),
    ("Settings", "nav-settings"),
];

/// Top navigation; the current page's link has `aria-current="page"`.
#[component]
pub fn Nav() -> impl IntoView {
    let page = use_context::<CurrentPage>().map(|p| p.0);
    let current = move |this: Page| {
        let here = page.map(|p| p.get());
        (here == Some(this)).then_some("page")
    };
    view! {
        <header class="topbar">
            <a class="brand" href="audit" aria-label="VerifyFast">
                <img src="favicon.svg" alt="" width="24" height="24"/>
                <span>"VerifyFast"</span>
            </a>
            <nav class="nav" aria-label="Pages">
                {PAGES
                    .iter()
                    .zip(LABELS)
                    .map(|((page, _), (label, testid))| {
                        let page = *page;
                        view! {
                            <a href=page.href() data-testid=testid aria-current=move || current(page)>
                                {label}
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
