use leptos::prelude::*;

/// Configure the OpenAI-compatible endpoints, the run/verify profiles and the audit strategy.
#[component]
pub fn SettingsPage() -> impl IntoView {
    view! {
        <section data-testid="page-settings">
            <h1>"Settings"</h1>
            <p class="lead">"Configure the OpenAI-compatible endpoints, the run/verify profiles and the audit strategy."</p>
            <p class="muted">"Coming soon."</p>
        </section>
    }
}
