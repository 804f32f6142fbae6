use leptos::prelude::*;
use leptos_router::components::A;

use super::theme_toggle::ThemeToggle;

/// The pages, in the order the top navigation shows them: (path, label, test id).
pub const PAGES: [(&str, &str, &str); 5] = [
    ("/audit", "Audit", "nav-audit"),
    ("/report", "Report", "nav-report"),
    ("/extract", "Extract", "nav-extract"),
    ("/proof", "Proof", "nav-proof"),
    ("/settings", "Settings", "nav-settings"),
];

/// Top navigation. `A` marks the current page with `aria-current="page"`.
#[component]
pub fn Nav() -> impl IntoView {
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
                            <A href=*href attr:data-testid=*testid>
                                {*label}
                            </A>
                        }
                    })
                    .collect_view()}
            </nav>
            <ThemeToggle/>
        </header>
    }
}
