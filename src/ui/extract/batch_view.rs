//! The graded file's summary (accuracy, bad lines) and how long grading took.

use leptos::prelude::*;

use crate::extract::batch::GradeBatch;

/// Bad lines listed in the summary.
const BAD_LIST_LIMIT: usize = 50;

pub fn summary_view(b: &GradeBatch) -> AnyView {
    let s = b.summary;
    let bad: Vec<AnyView> = b
        .bad_rows()
        .take(BAD_LIST_LIMIT)
        .map(|(line, e)| view! { <li data-line=line.to_string()>{e.to_string()}</li> }.into_any())
        .collect();
    view! {
        <div class="stack" data-testid="extract-summary">
            <p>
                <strong data-testid="extract-accuracy">{format!("{:.2} %", 100.0 * s.accuracy())}</strong>
                {format!(
                    " accuracy: {} of {} graded lines equivalent; {} with no answer; {} bad lines; {} could not be decided",
                    s.equivalent, s.n, s.no_answer, s.bad_lines, s.undecided
                )}
            </p>
            {(!bad.is_empty()).then(|| view! {
                <ul class="error" data-testid="extract-bad-lines">{bad}</ul>
            }.into_any())}
        </div>
    }
    .into_any()
}

/// "N lines graded in M ms (K items/s in this browser)" from (lines, milliseconds).
pub fn timing_view(timing: Option<(f64, f64)>) -> Option<AnyView> {
    let (n, ms) = timing?;
    let per_s = if ms > 0.0 { n * 1000.0 / ms } else { 0.0 };
    let text = format!(
        "{} lines graded in {:.0} ms ({:.0} items/s in this browser)",
        n as usize, ms, per_s
    );
    Some(
        view! {
            <p class="muted" data-testid="extract-timing" data-items-per-second=format!("{:.0}", per_s)>{text}</p>
        }
        .into_any(),
    )
}
