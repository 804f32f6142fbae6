//! The comparison at a glance: counts, the cross-band rates with their difference and its
//! interval, the exact McNemar line, what could not be paired, and the exports.

use std::sync::Arc;

use crate::ui::boxed::on_click;
use leptos::prelude::*;

use crate::band::compare::{self, p_text, pct, signed_pt, Comparison};
use crate::ui::browser_file::file_stem;
use crate::ui::download::download_text;

fn export(c: &Comparison, kind: &str) -> Result<(), String> {
    let stem = format!(
        "{}-vs-{}",
        file_stem(&c.label_a, "a"),
        file_stem(&c.label_b, "b")
    );
    match kind {
        "csv" => download_text(&format!("{stem}.csv"), "text/csv", &compare::csv(c)),
        _ => download_text(
            &format!("{stem}.md"),
            "text/markdown",
            &compare::markdown(c),
        ),
    }
}

pub fn summary_view(c: Arc<Comparison>, error: RwSignal<Option<String>>) -> AnyView {
    let m = c.mcnemar;
    let diff = c.difference.map_or("–".to_string(), signed_pt);
    let ci = c.difference_ci.map_or("–".to_string(), |[lo, hi]| {
        format!("[{}, {}]", signed_pt(lo), signed_pt(hi))
    });
    let unmatched = c.only_in_a.len() + c.only_in_b.len();
    let (c_md, c_csv) = (c.clone(), c.clone());
    view! {
        <div class="card stack" data-testid="compare-summary">
            <h2>{format!("{} → {}", c.label_a, c.label_b)}</h2>
            <p data-testid="compare-counts">
                {format!(
                    "{} cases paired by {}: improved {}, regressed {}, moved {}, unchanged {}; band changed in {}.",
                    c.paired, c.paired_by, c.improved, c.regressed, c.moved, c.unchanged, c.band_changed
                )}
            </p>
            <p data-testid="compare-rates">
                {format!(
                    "Cross-band: A {} ({}), B {} ({}); B − A {diff}, 95 % CI {ci}.",
                    c.cross_band_a, pct(c.rate_a), c.cross_band_b, pct(c.rate_b)
                )}
            </p>
            <p data-testid="compare-mcnemar">
                {format!(
                    "Exact McNemar test: cross-band in A only {}, in B only {}, two-sided p = {}.",
                    m.a_only, m.b_only, p_text(m.p_value)
                )}
            </p>
            <p class="muted">
                "Paired: the same cases under both runs. The interval is Newcombe's hybrid score interval for paired proportions; a p-value above 0.05 means the runs' cross-band rates are not shown to differ."
            </p>
            {(unmatched > 0).then(|| view! {
                <p class="notice" data-testid="compare-unmatched">
                    {format!("Not paired: {} only in A, {} only in B.", c.only_in_a.len(), c.only_in_b.len())}
                </p>
            }.into_any())}
            <div class="row">
                <button data-testid="compare-export-md" on:click=on_click(move |_| {
                    if let Err(e) = export(&c_md, "md") { error.set(Some(e)) }
                })>"Export Markdown"</button>
                <button data-testid="compare-export-csv" on:click=on_click(move |_| {
                    if let Err(e) = export(&c_csv, "csv") { error.set(Some(e)) }
                })>"Export CSV"</button>
            </div>
        </div>
    }
    .into_any()
}
