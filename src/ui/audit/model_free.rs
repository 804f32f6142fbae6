//! The Audit page's "Check without a model": the rules' findings on the two texts, shown at
//! once with no server (`view::audit::model_free::check`).

use std::sync::Arc;

use leptos::prelude::*;

use crate::view::audit::model_free::{check, ModelFree};

use super::number_check::NumberCheck;
use super::state::AuditState;

/// The last check's result, shown under the form until the texts are checked again.
pub type Checked = RwSignal<Option<Arc<ModelFree>>>;

/// Run the check on the page's texts with the strategy's parameters for the chosen profile.
pub fn run_check(page: AuditState, checked: Checked) {
    let (context, output) = (page.context.get_untracked(), page.output.get_untracked());
    if output.trim().is_empty() {
        checked.set(None);
        return page
            .error
            .set(Some("Paste the model output to check first.".into()));
    }
    page.error.set(None);
    let store = crate::ui::settings_store::settings_store();
    let params = store
        .strategy
        .with_untracked(|s| s.params_for(&page.profile.get_untracked()));
    checked.set(Some(Arc::new(check(&context, &output, &params))));
}

/// The result: the headline, each finding, and the number check.
pub fn model_free_view(checked: Checked) -> impl IntoView {
    move || {
        checked.get().map(|r| {
            let findings: Vec<AnyView> = r
                .findings
                .iter()
                .map(|f| {
                    view! {
                        <li data-testid="audit-check-finding">
                            <span class="chip sev-High">{f.check.label()}</span>
                            " "
                            <code>{f.output_text.clone()}</code>
                            " "
                            <span class="muted">{f.explanation.clone()}</span>
                        </li>
                    }
                    .into_any()
                })
                .collect();
            let found = !findings.is_empty();
            view! {
                <section class="card stack" data-testid="audit-check">
                    <h2>"Check without a model"</h2>
                    <p data-testid="audit-check-summary">{r.summary()}</p>
                    {found.then(|| view! { <ul class="stack">{findings}</ul> })}
                    <NumberCheck grounding=r.grounding.clone() uncounted=r.uncounted.clone()/>
                </section>
            }
            .into_any()
        })
    }
}
