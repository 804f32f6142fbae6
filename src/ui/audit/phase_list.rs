//! The phases of the audit on the page, each with its chip: live while it runs (with the
//! elapsed time), as it ended afterwards, and as stored for a kept audit.

use leptos::prelude::*;

use crate::audit::Phase;
use crate::view::audit::progress::phase_chip;
use crate::view::audit::progress::PhaseView;

/// `now` is the page's clock in whole ms, ticking while an audit runs. A plain function
/// called from the page's closure, not a component with a `Signal` prop: each signal type
/// costs its own copy of the reactive code in the wasm.
pub fn phase_list(phases: Vec<(Phase, PhaseView)>, now: usize) -> Option<AnyView> {
    (!phases.is_empty()).then(|| {
        let items = phases
            .into_iter()
            .map(|(phase, view)| {
                let (text, class) = phase_chip(&view, now as f64);
                view! {
                    <li>
                        <strong>{phase.label()}</strong>
                        " "
                        <span class=class>{text}</span>
                    </li>
                }
                .into_any()
            })
            .collect_view();
        view! { <ol class="stack" data-testid="audit-phases">{items}</ol> }.into_any()
    })
}
