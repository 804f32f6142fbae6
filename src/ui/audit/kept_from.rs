//! The note above a kept audit opened again (`audit?run=<id>`): which run it is, when and
//! under which profile it ran, and what the stored run does not have.

use leptos::prelude::*;

/// Where a shown report comes from, when it is a kept run.
#[derive(Debug, Clone, PartialEq)]
pub struct KeptFrom {
    pub name: String,
    /// When it ran, in the user's locale.
    pub when: String,
    pub profile: String,
    /// Whether Settings still has that profile (Run audit then uses it).
    pub profile_known: bool,
}

/// A plain function rather than a component: the page calls it from its own closure.
pub fn kept_from_note(from: KeptFrom, not_stored: Vec<String>) -> AnyView {
    let rerun = if from.profile_known {
        "Run audit runs it again under this profile (or pick another)."
    } else {
        "That profile is no longer in Settings: pick one to run it again."
    };
    let missing = (!not_stored.is_empty()).then(|| {
        view! {
            <p data-testid="audit-kept-missing">
                {format!("Not in the stored run, so not shown: {}.", not_stored.join("; "))}
            </p>
        }
        .into_any()
    });
    view! {
        <section class="notice stack" role="status" data-testid="audit-kept-run">
            <p data-testid="audit-kept-from">
                "This is kept run "<strong data-testid="audit-kept-name">{from.name}</strong>
                {format!(" from {}, audited under profile {}. ", from.when, from.profile)}
                "The texts, score and findings below are the stored ones. "
                {rerun}
            </p>
            {missing}
        </section>
    }
    .into_any()
}
