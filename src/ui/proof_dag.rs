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

fn node_view(n: Node) -> AnyView {
    let class = format!("dag-node {} {}", n.status, mark_class(n.mark));
    let title = format!("{}: {} ({})", n.id, n.latex, n.rule);
    view! {
        <g class=class data-id=n.id.clone() data-mark=mark_class(n.mark)>
            <title>{title}</title>
            <rect x=format!("{}", n.x) y=format!("{}", n.y) width=format!("{}", NODE_W) height=format!("{}", NODE_H) rx="6"></rect>
            <text x=format!("{}", n.x + 6.0) y=format!("{}", n.y + 16.0) class="dag-id">{n.id.clone()}</text>
            <text x=format!("{}", n.x + 6.0) y=format!("{}", n.y + 32.0) class="dag-formula">{short(&n.latex)}</text>
        </g>
    }
    .into_any()
}

fn edge_view(e: Edge) -> AnyView {
    let class = if e.marked {
        "dag-edge marked"
    } else {
        "dag-edge"
    };
    view! {
        <line class=class x1=format!("{}", e.x1) y1=format!("{}", e.y1) x2=format!("{}", e.x2) y2=format!("{}", e.y2) data-from=e.from data-to=e.to></line>
    }
    .into_any()
}

/// Whole pixels are enough to tell whether a node or edge moved.
fn px(v: f64) -> i64 {
    v.round() as i64
}

/// An edge's key: everything drawn. (Keys are strings like every other `<For>`'s in the app,
/// so they all share one copy of Leptos's keyed-list code.)
fn edge_key(e: &Edge) -> String {
    let (x1, y1, x2, y2) = (px(e.x1), px(e.y1), px(e.x2), px(e.y2));
    format!("{} {} {} {x1} {y1} {x2} {y2}", e.from, e.to, e.marked)
}

/// A node's key: everything drawn (a string, as for `edge_key`).
fn node_key(n: &Node) -> String {
    let (x, y) = (px(n.x), px(n.y));
    format!("{} {} {} {x} {y}", n.id, n.status, mark_class(n.mark))
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
            {move || hidden()}
            <svg data-testid="proof-dag" class="proof-dag" viewBox=view_box
                width=move || dag.with(|d| format!("{}", d.width)) height=move || dag.with(|d| format!("{}", d.height))
                role="img" aria-label="derivation graph">
                <For each=move || dag.with(|d| d.edges.clone())
                    key=edge_key
                    children=edge_view/>
                <For each=move || dag.with(|d| d.nodes.clone())
                    key=node_key
                    children=node_view/>
            </svg>
        </div>
    }
}
