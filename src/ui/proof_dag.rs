//! The derivation DAG of the Proof page (SVG): hypotheses on top, each item under its premises,
//! the current step and its premises highlighted. Layout lives in `logic::dag` (tested natively).

use leptos::prelude::*;

use crate::logic::dag::{Dag, Edge, Mark, Node, NODE_H, NODE_W};

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

fn node_view(n: Node) -> impl IntoView {
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
}

fn edge_view(e: Edge) -> impl IntoView {
    let class = if e.marked {
        "dag-edge marked"
    } else {
        "dag-edge"
    };
    view! {
        <line class=class x1=e.x1 y1=e.y1 x2=e.x2 y2=e.y2 data-from=e.from data-to=e.to></line>
    }
}

/// Whole pixels are enough to tell whether a node or edge moved.
fn px(v: f64) -> i64 {
    v.round() as i64
}

#[component]
pub fn ProofDag(#[prop(into)] dag: Signal<Dag>) -> impl IntoView {
    let view_box = move || dag.with(|d| format!("0 0 {:.0} {:.0}", d.width, d.height.max(NODE_H)));
    let hidden = move || {
        let hidden = dag.with(|d| d.hidden);
        (hidden > 0).then(|| view! {
            <p class="muted small" data-testid="proof-dag-hidden">
                {format!("Showing the current step's derivation and the latest items; {hidden} others not drawn.")}
            </p>
        }
        .into_any())
    };
    // Keyed by everything drawn: a step redraws only the nodes and edges it moved or re-marked.
    view! {
        <div class="proof-dag-wrap table-wrap">
            {hidden}
            <svg data-testid="proof-dag" class="proof-dag" viewBox=view_box
                width=move || dag.with(|d| d.width.to_string()) height=move || dag.with(|d| d.height.to_string())
                role="img" aria-label="derivation graph">
                <For each=move || dag.with(|d| d.edges.clone())
                    key=|e| (e.from.clone(), e.to.clone(), e.marked, px(e.x1), px(e.y1), px(e.x2), px(e.y2))
                    children=edge_view/>
                <For each=move || dag.with(|d| d.nodes.clone())
                    key=|n| (n.id.clone(), n.status, mark_class(n.mark), px(n.x), px(n.y))
                    children=node_view/>
            </svg>
        </div>
    }
}
