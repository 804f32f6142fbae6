//! One row of the grade table, with keyboard movement between rows.
use leptos::prelude::*;

use crate::ui::boxed::{on_click, on_key, text};

use super::answer_math::answer_math;
use super::grade_row_detail::GradeRowDetail;
use super::grade_row_detail::Opened;
use crate::extract::batch::Row;
use crate::ui::boxed::part;
use crate::view::extract::grade_columns::{answer_note, answer_type, verdict_label};

/// `j` / `k` on a row: focus the next / previous graded row of the page (as on the Report's
/// case table), past bad lines and an open detail.
fn focus_row(ev: &web_sys::KeyboardEvent, next: bool) {
    use wasm_bindgen::JsCast;
    let mut at = ev
        .current_target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    while let Some(el) = at {
        let sibling = if next {
            el.next_element_sibling()
        } else {
            el.previous_element_sibling()
        };
        if let Some(row) = sibling
            .as_ref()
            .filter(|s| s.matches("tr.grade-row").unwrap_or(false))
        {
            if let Some(row) = row.dyn_ref::<web_sys::HtmlElement>() {
                let _ = row.focus();
            }
            return;
        }
        at = sibling;
    }
}

/// One row of the grade table. A graded row is focusable and opens (click, or Enter) into
/// a detail row right under it while `open` holds its line; a bad line shows its error.
/// `choice`: the row was graded as multiple choice (the answer-type column).
pub fn row_view(
    r: Row,
    choice: bool,
    open: RwSignal<Option<usize>>,
    opened: RwSignal<Opened>,
    toggle: Callback<usize>,
    close: Callback<()>,
) -> AnyView {
    let (line, record) = match r {
        Row::Graded { line, record } => (line, record),
        Row::Bad { line, error } => {
            return view! {
                <tr class="error">
                    <td class="num">{line}</td>
                    <td colspan="9">{error}</td>
                </tr>
            }
            .into_any()
        }
    };
    let id = crate::jsonl::text_of(&record.id);
    let verdict = verdict_label(&record);
    let note = answer_note(&record);
    let on_enter = move |ev: web_sys::KeyboardEvent| {
        if ev.ctrl_key() || ev.alt_key() || ev.meta_key() {
            return;
        }
        match ev.key().as_str() {
            "Enter" => {
                ev.prevent_default();
                toggle.run(line);
            }
            "j" | "k" => {
                ev.prevent_default();
                focus_row(&ev, ev.key() == "j");
            }
            _ => {}
        }
    };
    view! {
        <tr class="grade-row" class:ok=record.equivalent tabindex="0" data-testid="extract-row"
            data-line=line.to_string() aria-expanded=text(move || (open.get() == Some(line)).to_string())
            title="Open the full solution (Enter); j / k: next / previous row"
            on:click=on_click(move |_| toggle.run(line)) on:keydown=on_key(on_enter)>
            <td class="num">{line}</td>
            <td>{id}</td>
            <td data-testid="extract-row-predicted">{answer_math(record.predicted_answer.clone())}</td>
            <td><span class="chip" data-testid="extract-row-rule">{record.predicted_method.clone()}</span></td>
            <td data-testid="extract-row-before">{before_model(&record)}</td>
            <td data-testid="extract-row-gold">{answer_math(record.ground_truth_answer.clone())}</td>
            <td>{verdict}</td>
            <td><span class="chip">{record.method}</span></td>
            <td data-testid="extract-row-type">
                <span data-testid="extract-row-answer-type">{answer_type(choice)}</span>
                {note.map(|n| view! { <span class="chip sev-High answer-note" data-testid="extract-row-answer-note">{n}</span> }.into_any())}
            </td>
            <td class="muted">{record.reason.clone()}</td>
        </tr>
        {part(move || (open.get() == Some(line)).then(|| view! {
            <tr class="grade-detail-row">
                <td colspan="10"><GradeRowDetail line opened close/></td>
            </tr>
        }.into_any()))}
    }
    .into_any()
}

/// The "before the model" cell: what the rules answered, for a row the verify model was asked
/// about (empty otherwise), so the two answers sit side by side.
fn before_model(record: &crate::extract::records::GradeRecord) -> AnyView {
    let Some(n) = record.llm_fallback.as_ref() else {
        return ().into_any();
    };
    let changed = crate::extract::batch::changed_by_model(record);
    let said = if n.error.is_some() {
        " (the call failed: rule answer kept)"
    } else if !n.used {
        " (no readable answer: rule answer kept)"
    } else if changed {
        " (changed by the model)"
    } else {
        ""
    };
    view! {
        <span data-changed=changed.to_string()>
            {answer_math(n.rule_answer.clone())}
            " "
            <span class="chip">{n.rule_method.clone()}</span>
            <span class="muted">{said}</span>
        </span>
    }
    .into_any()
}
