use leptos::prelude::*;

use super::math_text::MathText;

/// A scratchpad: paste model text, see it with its LaTeX rendered (and its HTML inert).
#[component]
pub fn MathPreview() -> impl IntoView {
    let text = RwSignal::new(String::from("The ratio is $\\frac{a}{b}$."));
    view! {
        <section class="card">
            <h3>"LaTeX preview"</h3>
            <textarea
                data-testid="math-preview-input"
                rows="3"
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))
            ></textarea>
            <div class="preview" data-testid="math-preview-output">
                <MathText text=text/>
            </div>
        </section>
    }
}
