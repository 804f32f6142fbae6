//! What the extraction of one solution shows: the answer, where it is in the text, how it was
//! found and how sure, the other candidates, and the verdict.

use leptos::prelude::*;

use crate::extract::batch::highlight;
use crate::extract::{Extraction, Outcome, Verdict};
use crate::ui::math_text::MathText;
use crate::view::extract::single_mode::ChoiceFound;

/// The class and words of a verdict (shared by the fallback's and the opened row's verdicts).
/// Undecided is neither green nor red: the grader could not compare exactly (the reason says why).
pub fn outcome_label(o: Outcome) -> (&'static str, &'static str) {
    match o {
        Outcome::Equal => ("ok", "Equivalent"),
        Outcome::Different => ("error", "Not equivalent"),
        Outcome::Undecided => ("notice", "Could not decide"),
    }
}

pub fn single_result(
    text: &str,
    extraction: Option<&Extraction>,
    verdict: Option<&Verdict>,
    choice: Option<&ChoiceFound>,
) -> AnyView {
    if text.trim().is_empty() {
        return view! { <p class="muted">"Paste a solution text above."</p> }.into_any();
    }
    let verdict_view = verdict.map(verdict_view);
    let Some(e) = extraction else {
        return view! {
            <div class="stack">
                <p class="notice" data-testid="extract-answer">"No answer found"</p>
                <p>"Method: " <span class="chip" data-testid="extract-method">"none"</span></p>
                {verdict_view}
            </div>
        }
        .into_any();
    };
    let math = format!("${}$", e.answer);
    let (before, mid, after) = highlight(text, e.span)
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .unwrap_or((text.to_string(), String::new(), String::new()));
    let confidence = format!("{:.2}", e.confidence);
    let low = e.low_confidence;
    let candidates: Vec<AnyView> = e
        .candidates
        .iter()
        .map(|c| {
            view! {
                <li>
                    <span class="chip">{c.method.as_str().to_string()}</span>
                    " "
                    <code>{c.answer.clone()}</code>
                    {format!(" at bytes {}–{}", c.span.0, c.span.1)}
                </li>
            }
            .into_any()
        })
        .collect();
    view! {
        <div class="stack">
            <div class="row">
                <strong>"Answer: "</strong>
                <span data-testid="extract-answer" data-answer=e.answer.clone()>
                    <MathText text=math/>
                </span>
                <span class="muted">
                    " matched text: "
                    <code data-testid="extract-raw">{e.raw.clone()}</code>
                    {format!(" (bytes {}–{})", e.span.0, e.span.1)}
                </span>
            </div>
            <p>
                "Method: "
                <span class="chip" data-testid="extract-method">{e.method.as_str().to_string()}</span>
                " · confidence "
                <span data-testid="extract-confidence">{confidence}</span>
                {low.then(|| view! { <span class="chip sev-High">" low confidence"</span> }.into_any())}
                <span class="muted">" — " {e.confidence_reason.clone()}</span>
            </p>
            {choice.map(choice_view)}
            <pre class="extract-highlight" data-testid="extract-highlight">
                {before}<mark class="hl">{mid}</mark>{after}
            </pre>
            {(!candidates.is_empty()).then(|| view! {
                <details>
                    <summary>{format!("Other candidates ({})", candidates.len())}</summary>
                    <ul data-testid="extract-candidates">{candidates}</ul>
                </details>
            }.into_any())}
            {verdict_view}
        </div>
    }
    .into_any()
}

/// The option letters of a multiple-choice answer and the rule (and its matched text) that
/// found them.
fn choice_view(c: &ChoiceFound) -> AnyView {
    let letters = if c.letters.is_empty() {
        view! { <strong class="notice" data-testid="extract-choice-letters">"none (the answer names no option)"</strong> }.into_any()
    } else {
        view! { <strong data-testid="extract-choice-letters">{c.letters.clone()}</strong> }
            .into_any()
    };
    view! {
        <p data-testid="extract-choice">
            "Option letters: " {letters}
            " · found by "
            <span class="chip" data-testid="extract-choice-rule">{c.rule.clone()}</span>
            " on the line "
            <code data-testid="extract-choice-line">{c.line.clone()}</code>
        </p>
    }
    .into_any()
}

fn verdict_view(v: &Verdict) -> AnyView {
    let (class, label) = outcome_label(v.outcome);
    view! {
        <div class=class data-testid="extract-verdict" data-equivalent=v.equivalent.to_string()
            data-outcome=v.outcome.as_str()>
            <strong>{label}</strong>
            " "
            <span class="chip">{v.path.as_str()}</span>
            <p data-testid="extract-reason">{v.reason.clone()}</p>
        </div>
    }
    .into_any()
}
