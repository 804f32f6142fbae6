//! The 3×3 band matrix as a heat map; a click on a cell drills down to its cases.

use leptos::prelude::*;

use crate::audit::Band;
use crate::band::render::pct;
use crate::band::BandReport;
use crate::view::report::drill::is_cross_band_cell;
use crate::view::report::drill::row_shares;
use crate::view::report::drill::CaseFilter;

pub fn matrix_view(r: &BandReport, filter: RwSignal<CaseFilter>) -> AnyView {
    let m = r.overall.matrix;
    let shares = row_shares(&m);
    let rows = (0..3)
        .map(|e| {
            let cells = (0..3)
                .map(|a| {
                    let count = m[e][a];
                    let share = shares[e][a];
                    let alpha = 0.06 + 0.6 * share.unwrap_or(0.0);
                    let cross = is_cross_band_cell(e, a);
                    let style = if cross && count > 0 {
                        format!("background: rgba(220, 38, 38, {:.2})", alpha)
                    } else {
                        format!("background: rgba(37, 99, 235, {:.2})", alpha)
                    };
                    let selected = move || filter.with(|f| f.cell == Some((e, a)));
                    view! {
                        <td class="num heat" class:cross=cross class:selected=selected style=style>
                            <button
                                class="cell"
                                data-testid=format!("report-cell-{e}-{a}")
                                title=if cross { "cross-band: the user's decision is reversed" } else { "" }
                                on:click=move |_| {
                                    filter.set(CaseFilter { cell: Some((e, a)), ..CaseFilter::default() });
                                    scroll_to_cases();
                                }
                            >
                                <strong>{count.to_string()}</strong>
                                <small>{pct(share)}</small>
                                {cross.then(|| view! { <span class="cross-mark">"⚠ cross-band"</span> }.into_any())}
                            </button>
                        </td>
                    }
                    .into_any()
                })
                .collect::<Vec<_>>();
            view! {
                <tr>
                    <th>{Band::at(e).map_or("?", Band::with_scores)}</th>
                    {cells}
                </tr>
            }
            .into_any()
        })
        .collect::<Vec<_>>();
    view! {
        <div class="card">
            <h2>"Band matrix"</h2>
            <p class="muted">"Rows: expected band; columns: judged band. Counts with row percentages; click a cell to list its cases."</p>
            <table class="matrix" data-testid="report-matrix">
                <thead>
                    <tr>
                        <th>"expected \\ judged"</th>
                        {Band::ALL.iter().map(|b| view! { <th class="num">{b.with_scores()}</th> }.into_any()).collect::<Vec<_>>()}
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
    .into_any()
}

/// Bring the cell's cases into view (they are far below the matrix), once the list has been
/// drawn for the new filter.
fn scroll_to_cases() {
    request_animation_frame(|| {
        if let Some(el) = document().get_element_by_id("report-cases") {
            el.scroll_into_view();
        }
    });
}
