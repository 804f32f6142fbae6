//! Profiles side by side, with deltas against a chosen baseline profile.

use std::sync::Arc;

use leptos::prelude::*;

use crate::band::drill::{compare_profiles, Delta};
use crate::band::render::{num, pct};
use crate::band::BandReport;

/// `text` with a `+` in front unless it has a sign (as `{:+}` writes numbers).
fn signed(text: String) -> String {
    if text.starts_with('-') {
        text
    } else {
        format!("+{text}")
    }
}

fn delta_cell(d: Option<Delta>, as_pct: bool) -> impl IntoView {
    match d {
        None => view! { <td class="num muted">"–"</td> }.into_any(),
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
            view! { <td class=class>{text}</td> }.into_any()
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
                            <td>{p.profile.clone()}</td>
                            <td class="num">{g.n.to_string()}</td>
                            <td class="num">{pct(g.cross_band_rate)}</td>
                            {delta_cell(p.cross_band_rate, true)}
                            <td class="num">{pct(g.band_accuracy)}</td>
                            {delta_cell(p.band_accuracy, true)}
                            <td class="num">{pct(g.exact)}</td>
                            {delta_cell(p.exact, true)}
                            <td class="num">{num(g.mae)}</td>
                            {delta_cell(p.mae, false)}
                            <td>{g.verdict.label()}</td>
                        </tr>
                    }
                    .into_any(),
                )
            })
            .collect::<Vec<_>>()
    };
    Some(view! {
        <div class="card">
            <h2>"Profiles"</h2>
            <label>
                "Baseline profile "
                <select
                    data-testid="report-baseline"
                    prop:value=move || baseline.get()
                    on:change=move |ev| baseline.set(event_target_value(&ev))
                >
                    {names.into_iter().map(|n| view! { <option value=n.clone()>{n.clone()}</option> }.into_any()).collect::<Vec<_>>()}
                </select>
            </label>
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
                    <tbody>{move || table()}</tbody>
                </table>
            </div>
        </div>
    }.into_any())
}
