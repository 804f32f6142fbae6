//! An opened grade row: the verdict, both normal forms, the texts with their answers marked.
use leptos::prelude::*;

use crate::ui::boxed::{effect, on_click, on_key};

use super::answer_math::answer_math;
use super::single_result::outcome_label;
use crate::extract::fallback_batch::LlmFallbackNote;
use crate::ui::boxed::part;
use crate::view::extract::row_detail::RowDetail;
use crate::view::extract::row_detail::Side;

/// What an opened row holds while its line is read back from the file.
pub type Opened = Option<(usize, Result<RowDetail, String>)>;

/// An opened grade row: the verdict with both normal forms and the path that decided, then
/// the full solution and ground truth with the extracted answers marked. The marked part is
/// a plain text node inside `<mark>` (model text is never HTML). Focus moves here on open;
/// Esc or the Close button closes it.
#[component]
pub fn GradeRowDetail(line: usize, opened: RwSignal<Opened>, close: Callback<()>) -> impl IntoView {
    let panel = NodeRef::<leptos::html::Div>::new();
    effect(move || {
        if let Some(el) = panel.get() {
            // Where the user looks next; a failed focus only costs the keyboard shortcut.
            let _ = el.focus();
        }
    });
    let on_esc = move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Escape" {
            ev.prevent_default();
            close.run(());
        }
    };
    view! {
        <div class="grade-detail stack" tabindex="-1" node_ref=panel on:keydown=on_key(on_esc)
            data-testid="extract-detail" role="region" aria-label=format!("line {line} in full")>
            <div class="row">
                <strong>{format!("Line {line}")}</strong>
                <button data-testid="extract-detail-close" on:click=on_click(move |_| close.run(()))>"Close (Esc)"</button>
            </div>
            {part(move || opened.with(|o| Some(match o {
                Some((l, Ok(d))) if *l == line => detail_view(d),
                Some((l, Err(e))) if *l == line => {
                    view! { <p class="error" data-testid="extract-detail-error">{e.clone()}</p> }.into_any()
                }
                _ => view! { <p class="muted">"Reading the line back from the file…"</p> }.into_any(),
            })))}
        </div>
    }
}

fn detail_view(d: &RowDetail) -> AnyView {
    let v = &d.verdict;
    let (_, label) = outcome_label(v.outcome);
    let id = crate::jsonl::text_of(&d.id);
    view! {
        <div class="stack">
            {d.stale.clone().map(|s| view! { <p class="notice" data-testid="extract-detail-stale">{s}</p> }.into_any())}
            {d.fallback.as_ref().map(fallback_view)}
            <p data-testid="extract-detail-verdict" data-outcome=v.outcome.as_str()>
                <strong>{label}</strong>
                " by path "
                <span class="chip" data-testid="extract-detail-path">{v.path.as_str()}</span>
                {format!(" · id {id}")}
            </p>
            <table class="grade-normal-forms">
                <tbody>
                    <tr>
                        <th>"predicted"</th>
                        <td data-testid="extract-detail-predicted">{answer_math(d.output.answer.clone())}</td>
                        <td><span class="chip">{d.output.method.clone()}</span></td>
                    </tr>
                    <tr>
                        <th>"ground truth"</th>
                        <td data-testid="extract-detail-gold">{answer_math(d.ground_truth.answer.clone())}</td>
                        <td><span class="chip">{d.ground_truth.method.clone()}</span></td>
                    </tr>
                </tbody>
            </table>
            <p data-testid="extract-detail-reason">{v.reason.clone()}</p>
            {side_view("Model output", "extract-detail-output", &d.output)}
            {side_view("Ground truth", "extract-detail-ground-truth", &d.ground_truth)}
            {d.question.clone().map(|q| view! {
                <details>
                    <summary>"Question"</summary>
                    <pre class="extract-highlight">{q}</pre>
                </details>
            }.into_any())}
        </div>
    }
    .into_any()
}

/// What the LLM fallback did for this row: the table shows the model's verdict, the lines
/// below the rules' own (graded again from the file).
fn fallback_view(n: &LlmFallbackNote) -> AnyView {
    let what = match (&n.error, &n.model_answer) {
        (Some(e), _) => format!("The verify model was asked and the call failed: {e}. The rule answer stands."),
        (None, Some(a)) if n.used => format!(
            "The table's verdict used the verify model's answer {a} ({} ms, {} tokens); below is what the rules alone read.",
            n.latency_ms, n.total_tokens
        ),
        _ => "The verify model gave no readable answer; the rule answer stands.".to_string(),
    };
    view! { <p class="notice" data-testid="extract-detail-fallback">{what}</p> }.into_any()
}

/// One side's full text, the answer span marked; where the span is, in characters and bytes.
fn side_view(title: &'static str, testid: &'static str, s: &Side) -> AnyView {
    let whereabouts = match &s.marked {
        Some(m) => format!(
            " — answer at characters {}–{} (bytes {}–{}), found by {}",
            m.chars.0, m.chars.1, m.bytes.0, m.bytes.1, s.method
        ),
        None => String::from(" — no answer found in this text"),
    };
    let body = match &s.marked {
        Some(m) => view! {
            {m.before.clone()}<mark class="hl" data-testid="extract-detail-mark">{m.mark.clone()}</mark>{m.after.clone()}
        }
        .into_any(),
        None => view! { {s.text.clone()} }.into_any(),
    };
    view! {
        <div class="stack">
            <p><strong>{title}</strong><span class="muted">{whereabouts}</span></p>
            <pre class="extract-highlight" data-testid=testid>{body}</pre>
        </div>
    }
    .into_any()
}
