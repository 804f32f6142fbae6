//! Profiles side by side, with deltas against a chosen baseline profile.

use std::sync::Arc;

use crate::ui::dynamic::td;
use crate::ui::options::bound_select;
use leptos::prelude::*;

const NUM: Option<&str> = Some("num");

use crate::band::render::{num, pct};
use crate::band::BandReport;
use crate::view::report::drill::compare_profiles;
use crate::view::report::drill::Delta;

/// `text` with a `+` in front unless it has a sign (as `{:+}` writes numbers).
fn signed(text: String) -> String {
    if text.starts_with('-') {
        text
    } else {
        format!("+{text}")
    }
}

fn delta_cell(d: Option<Delta>, as_pct: bool) -> AnyView {
    match d {
        None => td(Some("num muted"), "–".to_string()),
        Some(d) => {
            let text = if as_pct {
                format!("{} pt", signed(format!("{:.1}", d.value * 100.0)))
            } else {
                signed(format!("{:.3}", d.value))
            };
            let class = if d.value == 0.0 {
                "num muted"
            } else if d.better {
                "num delta-better"
            } else {
                "num delta-worse"
            };
            td(Some(class), text)
        }
    }
}

pub fn profiles_view(r: Arc<BandReport>, baseline: RwSignal<String>) -> Option<AnyView> {
    if r.profiles.len() < 2 {
        return None;
    }
    let names: Vec<String> = r.profiles.keys().cloned().collect();
    let table = move || {
        let rows = compare_profiles(&r, &baseline.get());
        rows.into_iter()
            .filter_map(|p| {
                let g = r.profiles.get(&p.profile)?.clone();
                Some(
                    view! {
                        <tr class:baseline=p.is_baseline>
                            {td(None, p.profile.clone())}
                            {td(NUM, g.n.to_string())}
                            {td(NUM, pct(g.cross_band_rate))}
                            {delta_cell(p.cross_band_rate, true)}
                            {td(NUM, pct(g.band_accuracy))}
                            {delta_cell(p.band_accuracy, true)}
                            {td(NUM, pct(g.exact))}
                            {delta_cell(p.exact, true)}
                            {td(NUM, num(g.mae))}
                            {delta_cell(p.mae, false)}
                            {td(None, g.verdict.label().to_string())}
                        </tr>
                    }
                    .into_any(),
                )
            })
            .collect::<Vec<_>>()
    };
    Some(
        view! {
            <div class="card">
                <h2>"Profiles"</h2>
                {bound_select("Baseline profile ", String::from("report-baseline"), baseline, None, Box::new(move || names.clone()))}
                <div class="table-wrap">
                    <table data-testid="report-profiles">
                        <thead>
                            <tr>
                                <th>"profile"</th><th class="num">"n"</th>
                                <th class="num">"cross-band"</th><th class="num">"Δ"</th>
                                <th class="num">"band acc."</th><th class="num">"Δ"</th>
                                <th class="num">"exact"</th><th class="num">"Δ"</th>
                                <th class="num">"MAE"</th><th class="num">"Δ"</th>
                                <th>"verdict"</th>
                            </tr>
                        </thead>
                        <tbody>{move || Some(table().into_any())}</tbody>
                    </table>
                </div>
            </div>
        }
        .into_any(),
    )
}
