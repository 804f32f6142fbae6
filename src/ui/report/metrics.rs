//! Every overall metric in one table.

use crate::ui::dynamic::td;
use leptos::prelude::*;

use crate::band::render::{ci, num, pct};
use crate::band::GroupMetrics;

pub fn metrics_view(o: &GroupMetrics) -> AnyView {
    let rows: Vec<(&str, String)> = vec![
        ("Cases", o.n.to_string()),
        ("Band accuracy", pct(o.band_accuracy)),
        (
            "Cross-band rate (95 % Wilson interval)",
            format!("{} {}", pct(o.cross_band_rate), ci(o)),
        ),
        ("Verdict", o.verdict.label().to_string()),
        ("Missed: BAD judged GOOD", o.missed.to_string()),
        ("False alarm: GOOD judged BAD", o.false_alarm.to_string()),
        ("Boundary deviations (one side MID)", o.boundary.to_string()),
        ("In-band deviations (1↔2, 4↔5)", o.in_band.to_string()),
        ("Exact match", pct(o.exact)),
        ("±1 match", pct(o.within_one)),
        ("Mean absolute error (5-point score)", num(o.mae)),
        ("Quadratic weighted kappa (5-point score)", num(o.qwk)),
    ];
    view! {
        <div class="card">
            <h2>"Metrics"</h2>
            <table data-testid="report-metrics">
                <tbody>
                    {rows
                        .into_iter()
                        .map(|(k, v)| view! { <tr><th>{k}</th>{td(Some("num"), v)}</tr> }.into_any())
                        .collect::<Vec<_>>()}
                </tbody>
            </table>
        </div>
    }
    .into_any()
}
