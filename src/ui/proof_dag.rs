//! The derivation DAG of the Proof page (SVG): hypotheses on top, each item under its premises,
//! the current step and its premises highlighted. Layout lives in `logic::dag` (tested natively).

use leptos::prelude::*;

use crate::logic::dag::{Dag, Mark, NODE_H, NODE_W};

fn mark_class(mark: Mark) -> &'static str {
    match mark {
        Mark::Current => "current",
        Mark::Premise => "premise",
        Mark::None => "",
    }
}

/// Formulas are shown as text (the panels render them with KaTeX); the full LaTeX is the tooltip.
fn short(latex: &str) -> String {
    let bare = latex.trim().trim_matches('$').trim();
    let mut out: String = bare.chars().take(16).collect();
    if bare.chars().count() > 16 {
        out.push('…');
    }
    out
}

#[component]
pub fn ProofDag(#[prop(into)] dag: Signal<Dag>) -> impl IntoView {
    view! {
        <div class="proof-dag-wrap table-wrap">
            {move || {
                let dag = dag.get();
                let view_box = format!("0 0 {:.0} {:.0}", dag.width, dag.height.max(NODE_H));
                let edges = dag
                    .edges
                    .iter()
                    .map(|e| {
                        let class = if e.marked { "dag-edge marked" } else { "dag-edge" };
                        view! {
                            <line class=class x1=e.x1 y1=e.y1 x2=e.x2 y2=e.y2 data-from=e.from.clone() data-to=e.to.clone()></line>
                        }
                    })
                    .collect_view();
                let nodes = dag
                    .nodes
                    .iter()
                    .map(|n| {
                        let class = format!("dag-node {} {}", n.status, mark_class(n.mark));
                        let title = format!("{}: {} ({})", n.id, n.latex, n.rule);
                        view! {
                            <g class=class data-id=n.id.clone() data-mark=mark_class(n.mark)>
                                <title>{title}</title>
                                <rect x=n.x y=n.y width=NODE_W height=NODE_H rx="6"></rect>
                                <text x=n.x + 6.0 y=n.y + 16.0 class="dag-id">{n.id.clone()}</text>
                                <text x=n.x + 6.0 y=n.y + 32.0 class="dag-formula">{short(&n.latex)}</text>
                            </g>
                        }
                    })
                    .collect_view();
                let hidden = (dag.hidden > 0).then(|| view! {
                    <p class="muted small" data-testid="proof-dag-hidden">
                        {format!("Showing the current step's derivation and the latest items; {} others not drawn.", dag.hidden)}
                    </p>
                });
                view! {
                    {hidden}
                    <svg data-testid="proof-dag" class="proof-dag" viewBox=view_box
                        width=dag.width height=dag.height role="img" aria-label="derivation graph">
                        {edges}
                        {nodes}
                    </svg>
                }
            }}
        </div>
    }
}
