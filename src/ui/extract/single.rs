//! One solution: live extraction and, when a ground truth is given, the verdict.

use leptos::prelude::*;

use super::asker::Evaluated;
use super::controls::{bool_box, preset_of};
use super::fallback_single::SingleFallback;
use super::single_result::single_result;
use crate::extract::{extract_with, grade_choices, grade_with, AnswerPatterns};
use crate::ui::boxed::part;
use crate::ui::drafts_store::draft_signal;
use crate::ui::text_field::TextField;
use crate::view::extract::single_mode::{choice_found, SingleMode};

const EXAMPLE: &str = "Natalia sold 48/2 = <<48/2=24>>24 clips in May.\nNatalia sold 48+24 = <<48+24=72>>72 clips altogether in April and May.";

/// The memo's body, out of the closure so it is compiled once (wasm size).
#[inline(never)]
fn evaluate(t: String, g: &str, q: &str, mode: SingleMode, p: &AnswerPatterns) -> Evaluated {
    let q = (!q.trim().is_empty()).then_some(q);
    let extraction = extract_with(&t, q, p);
    let grade = if mode.choices {
        grade_choices
    } else {
        grade_with
    };
    let verdict = (!g.trim().is_empty()).then(|| grade(&t, g, q, preset_of(mode.strict), p));
    let choice = choice_found(&t, extraction.as_ref(), verdict.as_ref(), mode.choices);
    (t, extraction, verdict, choice)
}

#[component]
pub fn SingleExtract(patterns: Memo<AnswerPatterns>) -> impl IntoView {
    let text = draft_signal("extract", "text", || String::from(EXAMPLE));
    let gold = draft_signal("extract", "gold", || String::from("72"));
    let question = draft_signal("extract", "question", String::new);
    // The grading mode starts as the URL says, and the URL follows it (replaced, not pushed).
    let linked = SingleMode::from_view(&crate::ui::query::current());
    let strict = RwSignal::new(linked.strict);
    let choices = RwSignal::new(linked.choices);
    let mode = Memo::new(move |_| SingleMode {
        strict: strict.get(),
        choices: choices.get(),
    });
    crate::ui::boxed::effect(move || {
        let m = mode.get();
        let mut v = crate::ui::query::current();
        m.to_view(&mut v);
        if v != crate::ui::query::current() {
            crate::ui::query::set(&v, false);
        }
    });
    let result = Memo::new(move |_| {
        let t = text.get();
        gold.with(|g| question.with(|q| patterns.with(|p| evaluate(t, g, q, mode.get(), p))))
    });

    view! {
        <div class="card stack">
            <h2>"One solution"</h2>
            <TextField label="Solution text" testid="extract-text" value=text rows=7/>
            <div class="grid">
                <TextField label="Ground truth (optional: an answer or a full solution)" testid="extract-gold" value=gold/>
                <TextField label="Question (optional: decides the percent policy)" testid="extract-question" value=question/>
            </div>
            <div class="row">
                {bool_box(strict, Some("extract-strict"), "Strict preset (exact values only; lenient also accepts rounded decimals)")}
                {bool_box(choices, Some("extract-choices"), "Multiple choice (the answer is a set of option letters)")}
            </div>
            {part(move || result.with(|(t, extraction, verdict, choice)| Some(single_result(t, extraction.as_ref(), verdict.as_ref(), choice.as_ref()))))}
            <SingleFallback result question gold strict patterns/>
        </div>
    }
}
