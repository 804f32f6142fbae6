//! The Extract page: paste a solution (and optionally a ground truth and question) to see
//! the extracted answer, where it is in the text, how it was found and the verdict; or
//! upload a `grade`-format JSONL for a summary, a filterable table and exports.
//! All logic is in `crate::extract` (tested natively); the parts are in `crate::ui::extract`.

pub mod answer_math;
pub mod asker;
pub mod batch;
pub mod batch_load;
pub mod controls;
pub mod fallback_batch;
pub mod fallback_single;
pub mod grade_row_detail;
pub mod grade_run;
pub mod grade_table;
pub mod single;
pub mod single_result;
pub mod verify_model;

use crate::extract::AnswerPatterns;
use crate::ui::boxed::part;
use crate::ui::math_text::MathText;
use crate::ui::settings_store::settings_store;
use crate::ui::text_field::TextField;
use batch::BatchGrade;
use leptos::prelude::*;
use single::SingleExtract;

/// The answer patterns of Settings, compiled once per change (tracked). Stored settings were
/// checked when read, so a failure here cannot happen; it would mean the built-in rules only.
fn settings_patterns() -> Memo<AnswerPatterns> {
    let settings = settings_store().settings;
    Memo::new(move |_| settings.with(|s| s.compiled_answer_patterns().unwrap_or_default()))
}

#[component]
pub fn ExtractPage() -> impl IntoView {
    let patterns = settings_patterns();
    view! {
        <section data-testid="page-extract">
            <h1>"Answer extraction"</h1>
            <p class="lead">
                "Paste a solution text to pull out its final answer and grade it against a ground truth, or upload a JSONL to grade many."
            </p>
            {part(move || patterns.with(|p| (!p.is_empty()).then(|| {
                let names = p.names().collect::<Vec<_>>().join(", ");
                view! {
                    <p class="muted" data-testid="extract-patterns">
                        "Answer patterns from Settings, tried first in this order: " {names}
                    </p>
                }.into_any()
            })))}
            <SingleExtract patterns/>
            <BatchGrade patterns/>
            <MathPreview/>
        </section>
    }
}

// The Extract page's scratchpad: pasted model text with its LaTeX rendered.

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
