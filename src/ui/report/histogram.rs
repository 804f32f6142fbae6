//! Expected and judged score counts side by side.

use leptos::prelude::*;

use crate::band::GroupMetrics;
use crate::view::report::drill::score_histogram;

pub fn histogram_view(g: &GroupMetrics) -> AnyView {
    let h = score_histogram(g);
    let max = h
        .iter()
        .map(|(e, a)| (*e).max(*a))
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let bars = h
        .iter()
        .enumerate()
        .map(|(i, (e, a))| {
            let height = |v: u64| format!("height: {:.0}px", 4.0 + 120.0 * v as f64 / max);
            view! {
                <div class="hist-score">
                    <div class="hist-bars">
                        <div class="hist-bar expected" style=height(*e) title=format!("expected {}: {e}", i + 1)>
                            <small>{e.to_string()}</small>
                        </div>
                        <div class="hist-bar actual" style=height(*a) title=format!("judged {}: {a}", i + 1)>
                            <small>{a.to_string()}</small>
                        </div>
                    </div>
                    <div class="hist-label">{(i + 1).to_string()}</div>
                </div>
            }
            .into_any()
        })
        .collect::<Vec<_>>();
    view! {
        <div class="card">
            <h2>"Scores"</h2>
            <p class="muted">
                <span class="legend expected"></span>" expected  "
                <span class="legend actual"></span>" judged (credit_score)"
            </p>
            <div class="histogram" data-testid="report-histogram">{bars}</div>
        </div>
    }
    .into_any()
}
