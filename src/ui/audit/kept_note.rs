//! The line under a finished audit saying whether it was kept as a run.

use leptos::prelude::*;

/// The line under a finished audit saying whether it was kept.
#[component]
pub fn KeptNote(kept: RwSignal<Option<(bool, String)>>) -> impl IntoView {
    move || {
        kept.get().map(|k| match k {
            (true, _) => view! {
                <p class="muted" data-testid="audit-kept">"Kept as a run: see "<a href="runs">"Runs"</a>"."</p>
            }
            .into_any(),
            (false, e) => view! {
                <p class="error" role="alert" data-testid="audit-kept">
                    {format!("This audit could not be kept as a run: {e}. Download the report to keep it.")}
                </p>
            }
            .into_any(),
        })
    }
}
