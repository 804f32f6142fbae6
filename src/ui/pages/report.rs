use leptos::prelude::*;

/// Upload a results JSONL and get the band report: confusion matrix, cross-band confusion rate with its interval, per-profile and per-tag tables.
#[component]
pub fn ReportPage() -> impl IntoView {
    view! {
        <section data-testid="page-report">
            <h1>"Band report"</h1>
            <p class="lead">"Upload a results JSONL and get the band report: confusion matrix, cross-band confusion rate with its interval, per-profile and per-tag tables."</p>
            <p class="muted">"Coming soon."</p>
        </section>
    }
}
