use leptos::prelude::*;

/// Paste a context and a model output, pick a profile, and get a VerifyFast audit: claims, factual and logic errors with evidence, and a deterministic 1-5 credit score.
#[component]
pub fn AuditPage() -> impl IntoView {
    view! {
        <section data-testid="page-audit">
            <h1>"Quick audit"</h1>
            <p class="lead">"Paste a context and a model output, pick a profile, and get a VerifyFast audit: claims, factual and logic errors with evidence, and a deterministic 1-5 credit score."</p>
            <p class="muted">"Coming soon."</p>
        </section>
    }
}
