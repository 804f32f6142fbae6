//! One solution: live extraction and, when a ground truth is given, the verdict.

use leptos::prelude::*;

use super::controls::{bool_box, preset_of};
use super::fallback_single::SingleFallback;
use super::single_result::single_result;
use crate::extract::{extract_with, grade_with, AnswerPatterns, Extraction, Verdict};
use crate::ui::boxed::part;
use crate::ui::drafts_store::draft_signal;
use crate::ui::text_field::TextField;

const EXAMPLE: &str = "Natalia sold 48/2 = <<48/2=24>>24 clips in May.\nNatalia sold 48+24 = <<48+24=72>>72 clips altogether in April and May.";

/// The memo's body, out of the closure so it is compiled once (wasm size).
#[inline(never)]
fn evaluate(
    t: String,
    g: &str,
    q: &str,
    strict: bool,
    p: &AnswerPatterns,
) -> (String, Option<Extraction>, Option<Verdict>) {
    let q = (!q.trim().is_empty()).then_some(q);
    let extraction = extract_with(&t, q, p);
    let verdict = (!g.trim().is_empty()).then(|| grade_with(&t, g, q, preset_of(strict), p));
    (t, extraction, verdict)
}

#[component]
pub fn SingleExtract(patterns: Memo<AnswerPatterns>) -> impl IntoView {
    let text = draft_signal("extract", "text", || String::from(EXAMPLE));
    let gold = draft_signal("extract", "gold", || String::from("72"));
    let question = draft_signal("extract", "question", String::new);
    let strict = RwSignal::new(false);
    let result = Memo::new(move |_| {
        let t = text.get();
        gold.with(|g| question.with(|q| patterns.with(|p| evaluate(t, g, q, strict.get(), p))))
    });

    view! {
        <div class="card stack">
            <h2>"One solution"</h2>
            <TextField label="Solution text" testid="extract-text" value=text rows=7/>
            <div class="grid">
                <TextField label="Ground truth (optional: an answer or a full solution)" testid="extract-gold" value=gold/>
                <TextField label="Question (optional: decides the percent policy)" testid="extract-question" value=question/>
            </div>
            {bool_box(strict, Some("extract-strict"), "Strict preset (exact values only; lenient also accepts rounded decimals)")}
            {part(move || result.with(|(t, extraction, verdict)| Some(single_result(t, extraction.as_ref(), verdict.as_ref()))))}
            <SingleFallback result question gold strict patterns/>
        </div>
    }
}
