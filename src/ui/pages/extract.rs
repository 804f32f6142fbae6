use leptos::prelude::*;

use crate::ui::math_preview::MathPreview;

/// Answer extraction and grading.
#[component]
pub fn ExtractPage() -> impl IntoView {
    view! {
        <section data-testid="page-extract">
            <h1>"Answer extraction"</h1>
            <p class="lead">
                "Paste a solution text to pull out its final answer and grade it against a ground truth, or upload a JSONL to grade many."
            </p>
            <MathPreview/>
        </section>
    }
}
