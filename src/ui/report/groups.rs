//! Metrics per tag or difficulty; a click on a name drills down to its cases.

use crate::ui::dynamic::td;
use leptos::prelude::*;

const NUM: Option<&str> = Some("num");

use crate::band::render::{ci, num, pct};
use crate::band::GroupMetrics;
use crate::view::report::drill::CaseFilter;

pub fn groups_view(
    title: &'static str,
    kind: &'static str,
    groups: &crate::sorted_map::SortedMap<String, GroupMetrics>,
    filter: RwSignal<CaseFilter>,
) -> Option<AnyView> {
    if groups.is_empty() {
        return None;
    }
    let rows = groups
        .iter()
        .map(|(name, g)| {
            let n2 = name.clone();
            let pick = move |_| {
                let mut f = CaseFilter::default();
                if kind == "tag" {
                    f.tag = Some(n2.clone());
                } else {
                    f.difficulty = Some(n2.clone());
                }
                filter.set(f);
            };
            view! {
                <tr>
                    <td>
                        <button class="link" data-testid=format!("report-{kind}-{name}") on:click=pick>
                            {name.clone()}
                        </button>
                    </td>
                    {td(NUM, g.n.to_string())}
                    {td(NUM, pct(g.band_accuracy))}
                    {td(NUM, pct(g.cross_band_rate))}
                    {td(None, ci(g))}
                    {td(NUM, g.missed.to_string())}
                    {td(NUM, g.false_alarm.to_string())}
                    {td(NUM, pct(g.exact))}
                    {td(NUM, pct(g.within_one))}
                    {td(NUM, num(g.mae))}
                    {td(None, g.verdict.label().to_string())}
                </tr>
            }
            .into_any()
        })
        .collect::<Vec<_>>();
    Some(view! {
        <div class="card">
            <h2>{title}</h2>
            <div class="table-wrap">
                <table data-testid=format!("report-{kind}s")>
                    <thead>
                        <tr>
                            <th>{kind}</th><th class="num">"n"</th><th class="num">"band acc."</th>
                            <th class="num">"cross-band"</th><th>"95 % CI"</th>
                            <th class="num">"missed"</th><th class="num">"false alarm"</th>
                            <th class="num">"exact"</th><th class="num">"±1"</th><th class="num">"MAE"</th>
                            <th>"verdict"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </div>
    }.into_any())
}
