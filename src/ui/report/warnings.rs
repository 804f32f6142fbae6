//! What the evaluator warns about (unknown fields, skipped profiles…).

use leptos::prelude::*;

use crate::band::BandReport;

pub fn warnings_view(r: &BandReport) -> Option<AnyView> {
    (!r.warnings.is_empty()).then(|| {
        view! {
            <div class="notice" data-testid="report-warnings">
                <ul>{r.warnings.iter().map(|w| view! { <li>{w.clone()}</li> }.into_any()).collect::<Vec<_>>()}</ul>
            </div>
        }
        .into_any()
    })
}
