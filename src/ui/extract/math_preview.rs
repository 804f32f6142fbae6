//! The Extract page's scratchpad: pasted model text with its LaTeX rendered.
use leptos::prelude::*;

use crate::ui::math_text::MathText;
use crate::ui::text_field::TextField;

/// A scratchpad: paste model text, see it with its LaTeX rendered (and its HTML inert).
#[component]
pub fn MathPreview() -> impl IntoView {
    let text = RwSignal::new(String::from("The ratio is $\\frac{a}{b}$."));
    view! {
        <section class="card">
            <h3>"LaTeX preview"</h3>
            <TextField label="LaTeX" testid="math-preview-input" value=text rows=3/>
            <div class="preview" data-testid="math-preview-output">
                <MathText text=text/>
            </div>
        </section>
    }
}
