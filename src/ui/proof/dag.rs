//! The derivation DAG of the Proof page: hypotheses on top, each item under its premises,
//! formulas rendered by KaTeX in HTML nodes over an SVG of the edges; the current step and its
//! premises highlighted and kept in view; zoom buttons, drag (or scroll) to pan; a click on
//! a node jumps to the step that proposed it. Layout lives in `logic::dag` (tested natively).

use super::bind::formula;
use super::bind::live;
use super::reveal::keep_revealed;
use crate::logic::dag::Dag;
use crate::logic::dag::{Edge, Node};
use crate::logic::fitch::Fitch;
use crate::ui::keyed::keyed_rows;
use crate::view::proof::dag_draw::canvas_style;
use crate::view::proof::dag_draw::edge_class;
use crate::view::proof::dag_draw::edge_key;
use crate::view::proof::dag_draw::fit_zoom;
use crate::view::proof::dag_draw::frame_style;
use crate::view::proof::dag_draw::hidden_note;
use crate::view::proof::dag_draw::mark_class;
use crate::view::proof::dag_draw::node_class;
use crate::view::proof::dag_draw::node_key;
use crate::view::proof::dag_draw::node_style;
use crate::view::proof::dag_draw::node_title;
use crate::view::proof::dag_draw::px;
use crate::view::proof::dag_draw::zoom_pct;
use crate::view::proof::dag_draw::zoom_step;
use crate::view::proof::dag_draw::ZOOM_START;
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn ProofDag(
    /// The DAG (and the Fitch lines, drawn by `ProofFitch`) at the current step.
    views: Memo<(Dag, Fitch)>,
    on_pick: Callback<String>,
) -> impl IntoView {
    let zoom = RwSignal::new(ZOOM_START);
    let pct = move || zoom_pct(zoom.get());
    let scroller = NodeRef::<leptos::html::Div>::new();
    keep_revealed(
        scroller,
        ".dag-node.current",
        Signal::<(Dag, Fitch)>::from(views),
    );
    let zoom_by = move |d: isize| {
        zoom.update(|z| *z = zoom_step(*z, d));
        if let Some(el) = scroller.get_untracked() {
            request_animation_frame(move || super::reveal::reveal(&el, ".dag-node.current"));
        }
    };
    // Fit: the largest zoom at which the whole drawing fits the scroll box.
    let fit = move |_| {
        let Some(el) = scroller.get_untracked() else {
            return;
        };
        let (w, h) = views.with_untracked(|(d, _)| (d.width, d.height));
        let (bw, bh) = (f64::from(el.client_width()), f64::from(el.client_height()));
        zoom.set(fit_zoom(w, h, bw, bh));
        el.set_scroll_left(0);
        el.set_scroll_top(0);
    };
    // Drag to pan: where the press started and the scroll offsets then.
    let drag = StoredValue::new(None::<(i32, i32, i32, i32)>);
    let hidden = move || {
        views.with(|(d, _)| hidden_note(d.hidden)).map(|note| {
            view! { <p class="muted small" data-testid="proof-dag-hidden">{note}</p> }.into_any()
        })
    };
    view! {
        <div class="card proof-dag-card">
            <div class="row dag-toolbar">
                <h3>"Derivation graph"</h3>
                <button type="button" aria-label="zoom out" data-testid="proof-dag-zoom-out" on:click=move |_| zoom_by(-1)>"−"</button>
                <span class="small" data-testid="proof-dag-zoom">{live(move || format!("{} %", pct()))}</span>
                <button type="button" aria-label="zoom in" data-testid="proof-dag-zoom-in" on:click=move |_| zoom_by(1)>"+"</button>
                <button type="button" title="Fit the whole graph in view" data-testid="proof-dag-fit" on:click=fit>
                    {crate::ui::icons::fit()}" Fit"
                </button>
                {legend()}
            </div>
            {live(hidden)}
            <div class="proof-dag-wrap" node_ref=scroller
                on:mousedown=move |ev| {
                    if let Some(el) = scroller.get_untracked() {
                        drag.set_value(Some((ev.client_x(), ev.client_y(), el.scroll_left(), el.scroll_top())));
                    }
                }
                on:mousemove=move |ev| {
                    if let (Some((x, y, l, t)), Some(el)) = (drag.get_value(), scroller.get_untracked()) {
                        if ev.buttons() & 1 == 0 {
                            drag.set_value(None);
                            return;
                        }
                        el.set_scroll_left(l - (ev.client_x() - x));
                        el.set_scroll_top(t - (ev.client_y() - y));
                    }
                }
                on:mouseup=move |_| drag.set_value(None)>
                <div class="proof-dag" data-testid="proof-dag" role="group" aria-label="derivation graph"
                    style=live(move || views.with(|(d, _)| frame_style(d, pct())))>
                    <div class="dag-canvas" style=live(move || views.with(|(d, _)| canvas_style(d, pct())))>
                        <svg class="dag-edges" width=live(move || views.with(|(d, _)| px(d.width).to_string()))
                            height=live(move || views.with(|(d, _)| px(d.height).to_string())) aria-hidden="true">
                            {keyed_rows(
                                Arc::new(move || views.with(|(d, _)| d.edges.clone())),
                                edge_key,
                                Arc::new(edge_view),
                            )}
                        </svg>
                        {keyed_rows(
                            Arc::new(move || views.with(|(d, _)| d.nodes.clone())),
                            node_key,
                            Arc::new(move |n| node_view(n, on_pick)),
                        )}
                    </div>
                </div>
            </div>
        </div>
    }
}

// The DAG view's rows: a node (a button that jumps to its step) and an edge (an SVG line).
// Every string they show comes from `view::proof::dag_draw`.

pub fn node_view(n: Node, on_pick: Callback<String>) -> AnyView {
    let (class, style, title) = (node_class(&n), node_style(&n), node_title(&n));
    let id = n.id.clone();
    view! {
        <button type="button" class=class style=style title=title data-id=n.id.clone() data-mark=mark_class(n.mark)
            on:click=move |_| on_pick.run(id.clone())>
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
