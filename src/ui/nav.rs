//! The top navigation: one link per page of `route::PAGES`, a menu on a phone.
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

/// The current page's label, for the phone menu's button.
fn current_label(here: Option<Page>) -> String {
    PAGES
        .iter()
        .zip(LABELS)
        .find(|((p, _), _)| Some(*p) == here)
        .map_or("Pages", |(_, (label, _))| label)
        .to_string()
}

/// Top navigation; the current page's link has `aria-current="page"`.
#[component]
pub fn Nav() -> impl IntoView {
    let page = use_context::<CurrentPage>().map(|p| p.0);
    let current = move |this: Page| {
        let here = page.map(|p| p.get());
        (here == Some(this)).then_some("page")
    };
    // Phones: the links fold into a menu (style/main.css shows the button below 640 px); a
    // click on a link closes it.
    let open = RwSignal::new(false);
    view! {
        <header class="topbar">
            <a class="brand" href="audit" aria-label="VerifyFast">
                <img src="favicon.svg" alt="" width="24" height="24"/>
                <span>"VerifyFast"</span>
            </a>
            <button
                class="menu-toggle"
                data-testid="nav-menu"
                aria-label="Pages"
                aria-controls="nav-pages"
                aria-expanded=crate::ui::boxed::text(move || open.get().to_string())
                on:click=crate::ui::boxed::on_click(move |_| open.update(|o| *o = !*o))
            >
                {super::icons::menu()}
                <span>{move || current_label(page.map(|p| p.get()))}</span>
            </button>
            <nav
                id="nav-pages"
                class="nav"
                class:open=crate::ui::boxed::flag(move || open.get())
                aria-label="Pages"
                on:click=crate::ui::boxed::on_click(move |_| open.set(false))
            >
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
