//! The batch panel's progress bar and line, and its error and notice.

use leptos::prelude::*;

use super::state::BatchState;

#[component]
pub fn BatchStatus(state: BatchState) -> impl IntoView {
    let BatchState {
        progress,
        done_count,
        total_count,
        error,
        notice,
        ..
    } = state;
    view! {
        {move || {
            progress
                .get()
                .map(|summary| {
                    view! {
                        <div class="stack">
                            <progress
                                data-testid="batch-progress"
                                max=total_count.get().to_string()
                                value=done_count.get().to_string()
                            ></progress>
                            <span data-testid="batch-progress-text">{summary}</span>
                        </div>
                    }
                    .into_any()
                })
        }}
        {move || error.get().map(|e| view! { <div class="error" role="alert" data-testid="batch-error">{e}</div> }.into_any())}
        {move || notice.get().map(|n| view! { <div class="notice" data-testid="batch-notice">{n}</div> }.into_any())}
    }
}
