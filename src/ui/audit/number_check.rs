//! The deterministic number check on the Audit page, next to the LLM's findings: the numbers
//! not found in the context first (what a fabricated specific looks like), then the others
//! with where they were found. The check itself is `audit::grounding` (pure, tested natively).

use leptos::prelude::*;

use crate::audit::deterministic::UncountedNumber;
use crate::audit::grounding::{CheckedNumber, NumberGrounding, Status};

/// One number; `why` is the rules' reason for not counting it (a check without a model).
fn row(n: &CheckedNumber, why: Option<String>) -> AnyView {
    let status = n.status.as_str();
    view! {
        <li data-testid="audit-number">
            <code>{n.text.clone()}</code>
            " "
            <span class=format!("chip number-{status}")>{status.replace('_', " ")}</span>
            " "
            <span class="muted">{n.describe()}</span>
            {why.map(|why| view! {
                <span class="muted" data-testid="audit-number-uncounted">{format!("; not counted: {why}")}</span>
            })}
        </li>
    }
    .into_any()
}

/// `grounding` is the report's `number_grounding`. `uncounted` is given when no audit ran (the
/// check without a model): the rules' reason for each number they do not count, and the card
/// does not say Phase 2 judged anything.
#[component]
pub fn NumberCheck(
    grounding: NumberGrounding,
    #[prop(optional)] uncounted: Option<Vec<UncountedNumber>>,
) -> impl IntoView {
    let without_model = uncounted.is_some();
    let why = |n: &CheckedNumber| {
        uncounted
            .iter()
            .flatten()
            .find(|u| u.text == n.text)
            .map(UncountedNumber::describe)
    };
    let missing: Vec<AnyView> = grounding.not_found().map(|n| row(n, why(n))).collect();
    let found: Vec<AnyView> = grounding
        .numbers
        .iter()
        .filter(|n| n.status != Status::NotFound)
        .map(|n| row(n, None))
        .collect();
    let summary = if grounding.numbers.is_empty() {
        String::from("No numbers, percentages or dates in the model output.")
    } else {
        format!(
            "{}, against {} numbers in the context.",
            grounding.summary(),
            grounding.context_numbers
        )
    };
    let has_missing = !missing.is_empty();
    let has_found = !found.is_empty();
    view! {
        <section class="card" data-testid="audit-numbers">
            <h3>"Number check (deterministic, no model)"</h3>
            <p class="muted" data-testid="audit-numbers-summary">{summary}</p>
            {has_missing.then(|| view! {
                <p>{if without_model {
                    "Not found in the context, verbatim, in another notation, rounded or one plausible arithmetic step away (an audit asks Phase 2 to judge them):"
                } else {
                    "Not found in the context, verbatim, in another notation, rounded or one plausible arithmetic step away; Phase 2 was asked to judge them:"
                }}</p>
                <ul data-testid="audit-numbers-missing">{missing}</ul>
            }.into_any())}
            {has_found.then(|| view! {
                <details>
                    <summary>{format!("Found or derived ({})", found.len())}</summary>
                    <ul>{found}</ul>
                </details>
            }.into_any())}
        </section>
    }
}
