use leptos::prelude::*;

/// Step through a logic world derivation: every proposal, acceptance and rejection, with formulas rendered and the proof DAG.
#[component]
pub fn ProofPage() -> impl IntoView {
    view! {
        <section data-testid="page-proof">
            <h1>"Proof stepper"</h1>
            <p class="lead">"Step through a logic world derivation: every proposal, acceptance and rejection, with formulas rendered and the proof DAG."</p>
            <p class="muted">"Coming soon."</p>
        </section>
    }
}
