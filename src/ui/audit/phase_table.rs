//! The Audit report's table of phases: model, calls, time, tokens, re-asks, cut-off replies and
//! what was repaired in each accepted reply.

use leptos::prelude::*;

use crate::view::audit::shown::PhaseRow;

fn row(p: &PhaseRow) -> AnyView {
    view! {
        <tr>
            <td>{p.phase.label()}</td>
            <td>{p.llm.clone()}</td>
            <td class="num">{p.calls.to_string()}</td>
            <td class="num">{p.latency_ms.to_string()}</td>
            <td class="num">{p.tokens.to_string()}</td>
            <td class="num">{p.tokens_per_s.clone()}</td>
            <td>{if p.reasked { "yes" } else { "" }}</td>
            <td data-testid="audit-phase-cut">{p.cut.clone()}</td>
            <td data-testid="audit-phase-repairs">{p.repairs.clone()}</td>
        </tr>
    }
    .into_any()
}

pub fn phase_table(phases: &[PhaseRow]) -> AnyView {
    let rows: Vec<AnyView> = phases.iter().map(row).collect();
    view! {
        <div class="table-wrap">
            <table>
                <thead>
                    <tr><th>"Phase"</th><th>"LLM"</th><th>"Calls"</th><th>"ms"</th><th>"Tokens"</th><th>"Tokens/s"</th><th>"Re-asked"</th><th>"Cut off"</th><th>"Repairs of the reply"</th></tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
    .into_any()
}
