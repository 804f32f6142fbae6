//! The DAG view's rows: a node (a button that jumps to its step) and an edge (an SVG line).
//! Every string they show comes from `view::proof::dag_draw`.

use leptos::prelude::*;

use super::bind::formula;
use crate::logic::dag::{Edge, Node};
use crate::view::proof::dag_draw::edge_class;
use crate::view::proof::dag_draw::mark_class;
use crate::view::proof::dag_draw::node_class;
use crate::view::proof::dag_draw::node_style;
use crate::view::proof::dag_draw::node_title;
use crate::view::proof::dag_draw::px;

pub fn node_view(n: Node, on_pick: Callback<String>) -> AnyView {
    let (class, style, title) = (node_class(&n), node_style(&n), node_title(&n));
    let id = n.id.clone();
    view! {
        <button type="button" class=class style=style title=title data-id=n.id.clone() data-mark=mark_class(n.mark)
            on:click=crate::ui::boxed::on_click(move |_| on_pick.run(id.clone()))>
            <span class="dag-id">{n.id.clone()}</span>
            <span class="dag-formula">{formula(&n.latex)}</span>
        </button>
    }
    .into_any()
}

pub fn edge_view(e: Edge) -> AnyView {
    let class = edge_class(&e);
    view! {
        <line class=class x1=px(e.x1).to_string() y1=px(e.y1).to_string() x2=px(e.x2).to_string() y2=px(e.y2).to_string() data-from=e.from data-to=e.to></line>
    }
    .into_any()
}

/// The graph's legend: what each node colour means.
pub fn legend() -> AnyView {
    view! {
        <span class="dag-legend small" aria-label="legend">
            <span class="dag-key hypothesis">"hypothesis"</span>
            <span class="dag-key accepted">"accepted"</span>
            <span class="dag-key pending">"pending"</span>
            <span class="dag-key rejected">"refused / retracted"</span>
            <span class="dag-key current">"current step"</span>
            <span class="dag-key premise">"its premises"</span>
        </span>
    }
    .into_any()
}
