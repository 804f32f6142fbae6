//! The lines that were skipped, with their numbers and why.

use leptos::prelude::*;

use crate::band::BandReport;

pub fn bad_lines_view(r: &BandReport) -> AnyView {
    let items = r
        .bad_lines
        .iter()
        .map(|b| view! { <li><span class="mono">"line "{b.line.to_string()}</span>": "{b.reason.clone()}</li> }.into_any())
        .collect::<Vec<_>>();
    let more = r.bad_line_count.saturating_sub(r.bad_lines.len() as u64);
    view! {
        <div class="card" data-testid="report-bad-lines">
            <h2>{format!("Bad lines ({})", r.bad_line_count)}</h2>
            {if r.bad_line_count == 0 {
                view! { <p class="muted">"None: every line was counted."</p> }.into_any()
            } else {
                view! {
                    <p class="muted">"These lines were skipped; the rest were counted."</p>
                    <ul>{items}</ul>
                    {(more > 0).then(|| view! { <p class="muted">{format!("…and {more} more")}</p> }.into_any())}
                }
                    .into_any()
            }}
        </div>
    }
    .into_any()
}
