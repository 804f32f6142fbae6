//! The light/dark switch in the navigation bar (the choice is kept in `ui::theme`).
use leptos::prelude::*;

use super::theme::{self, Theme};

/// Light/dark switch. Starts from the stored choice or the system preference.
#[component]
pub fn ThemeToggle() -> impl IntoView {
    let theme = RwSignal::new(theme::current());
    let label = move || {
        String::from(match theme.get() {
            Theme::Light => "Dark theme",
            Theme::Dark => "Light theme",
        })
    };
    view! {
        <button
            class="theme-toggle"
            data-testid="theme-toggle"
            title=label
            aria-label=label
            on:click=crate::ui::boxed::on_click(move |_| {
                let next = theme.get_untracked().toggled();
                theme::apply(next);
                theme.set(next);
            })
        >
            {move || if theme.get() == Theme::Dark { super::icons::sun() } else { super::icons::moon() }}
        </button>
    }
}
