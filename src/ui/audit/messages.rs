//! The Audit page's messages: an error (dismissable), a could-not-audit with its cause and what
//! to do, and a notice (cancelled).

use leptos::prelude::*;

use crate::ui::boxed::on_click;

use super::state::AuditState;

/// A plain function rather than a component (each component has its own props code).
pub fn audit_messages(page: AuditState) -> AnyView {
    let AuditState {
        error,
        failure,
        failure_fix,
        notice,
        ..
    } = page;
    view! {
        {move || error.get().map(|e| view! {
            <div class="error row" role="alert" data-testid="audit-error">
                <span>{e}</span>
                <button on:click=on_click(move |_| error.set(None))>"Dismiss"</button>
            </div>
        }.into_any())}
        {move || failure.get().map(|cause| view! {
            <div class="error stack" role="alert" data-testid="audit-error">
                // Paragraphs, so the cause and what to do never run together when copied.
                <p class="failure-cause"><strong data-testid="audit-failure-cause">{cause}</strong></p>
                <p class="failure-fix" data-testid="audit-failure-fix">{format!("What to do: {}", failure_fix.get_untracked())}</p>
                <div><button on:click=on_click(move |_| failure.set(None))>"Dismiss"</button></div>
            </div>
        }.into_any())}
        {move || notice.get().map(|n| view! {
            <div class="notice row" role="status" data-testid="audit-notice">
                <span>{n}</span>
                <button on:click=on_click(move |_| notice.set(None))>"Dismiss"</button>
            </div>
        }.into_any())}
    }
    .into_any()
}
