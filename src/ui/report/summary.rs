//! The verdict line: cross-band rate, its interval, and whether the target is met.

use leptos::prelude::*;

use crate::band::render::{ci, pct};
use crate::band::BandReport;

pub fn summary_view(r: &BandReport) -> AnyView {
    let o = &r.overall;
    let band_class = match o.verdict {
        crate::band::Verdict::Met => "badge band-GOOD",
        crate::band::Verdict::NotMet => "badge band-BAD",
        _ => "badge band-MID",
    };
    view! {
        <div class="row summary">
            <span class=band_class>
                <span data-testid="report-cross-band-rate">{pct(o.cross_band_rate)}</span>
                <small>{ci(o)}</small>
            </span>
            <div class="stack">
                <div>
                    "Cross-band rate ("{o.cross_band.to_string()}" of "{o.n.to_string()}
                    " cases), target below "{format!("{:.1} %", r.target * 100.0)}": "
                    <strong data-testid="report-verdict">{o.verdict.label()}</strong>
                </div>
                <div class="muted">
                    "Met: the whole 95 % Wilson interval is below the target. Not shown: the rate is below it but the interval is not — more cases are needed. Not met: the rate is at or above it."
                </div>
            </div>
        </div>
    }
    .into_any()
}
