//! The derivation DAG of the Proof page: hypotheses on top, each item under its premises,
//! formulas rendered by KaTeX in HTML nodes over an SVG of the edges; the current step and its
//! premises highlighted and kept in view; zoom buttons, drag (or scroll) to pan; a click on
//! a node jumps to the step that proposed it. Layout lives in `logic::dag` (tested natively).

use leptos::prelude::*;

use super::reveal::keep_revealed;
use crate::logic::dag::{Dag, Edge, Mark, Node, NODE_H, NODE_W};
use crate::logic::fitch::Fitch;
use std::sync::Arc;

use crate::ui::keyed::{keyed_rows, Row};
use crate::ui::proof_form::bind::{formula, live};

fn mark_class(mark: Mark) -> &'static str {
    match mark {
        Mark::Current => "current",
        Mark::Premise => "premise",
        Mark::None => "",
    }
}

fn node_view(n: Node, on_pick: Callback<String>) -> AnyView {
    let class = format!("dag-node {} {}", n.status, mark_class(n.mark));
    let title = format!("{}: {} ({}, {})", n.id, n.latex, n.rule, n.status);
    let style = format!(
        "left:{}px;top:{}px;width:{}px;height:{}px",
        px(n.x),
        px(n.y),
        NODE_W,
        NODE_H
    );
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

fn edge_view(e: Edge) -> AnyView {
    let class = if e.marked {
        "dag-edge marked"
    } else {
        "dag-edge"
    };
    view! {
        <line class=class x1=px(e.x1).to_string() y1=px(e.y1).to_string() x2=px(e.x2).to_string() y2=px(e.y2).to_string() data-from=e.from data-to=e.to></line>
    }
    .into_any()
}

/// Whole pixels are enough to tell whether a node or edge moved.
fn px(v: f64) -> i64 {
    v.round() as i64
}

/// An edge's key: everything drawn (a `String`, like every `<For>` key in the app).
fn edge_key(e: &Edge) -> String {
    let (x1, y1, x2, y2) = (px(e.x1), px(e.y1), px(e.x2), px(e.y2));
    format!("{} {} {} {x1} {y1} {x2} {y2}", e.from, e.to, e.marked)
}

/// A node's key: everything drawn.
fn node_key(n: &Node) -> String {
    let (x, y) = (px(n.x), px(n.y));
    format!("{} {} {} {x} {y}", n.id, n.status, mark_class(n.mark))
}

const ZOOMS: [u32; 7] = [40, 55, 70, 85, 100, 125, 150];

#[component]
pub fn ProofDag(
    /// The DAG (and the Fitch lines, drawn by `ProofFitch`) at the current step.
    views: Memo<(Dag, Fitch)>,
    on_pick: Callback<String>,
) -> impl IntoView {
    let zoom = RwSignal::new(4usize);
    let pct = move || ZOOMS[zoom.get().min(ZOOMS.len() - 1)];
    let scale = move || f64::from(pct()) / 100.0;
    let scroller = NodeRef::<leptos::html::Div>::new();
    keep_revealed(
        scroller,
        ".dag-node.current",
        Signal::<(Dag, Fitch)>::from(views),
    );
    let zoom_by = move |d: isize| {
        zoom.update(|z| *z = z.saturating_add_signed(d).min(ZOOMS.len() - 1));
        if let Some(el) = scroller.get_untracked() {
            request_animation_frame(move || super::reveal::reveal(&el, ".dag-node.current"));
        }
    };
    // Drag to pan: where the press started and the scroll offsets then.
    let drag = StoredValue::new(None::<(i32, i32, i32, i32)>);
    let hidden = move || {
        let hidden = views.with(|(d, _)| d.hidden);
        (hidden > 0).then(|| view! {
            <p class="muted small" data-testid="proof-dag-hidden">
                {format!("Showing the current step's derivation and the latest items; {hidden} others not drawn.")}
            </p>
        }
        .into_any())
    };
    let size =
        move |w: f64, h: f64, s: f64| format!("width:{}px;height:{}px", px(w * s), px(h * s));
    view! {
        <div class="card proof-dag-card">
            <div class="row dag-toolbar">
                <h3>"Derivation graph"</h3>
                <button type="button" aria-label="zoom out" data-testid="proof-dag-zoom-out" on:click=crate::ui::boxed::on_click(move |_| zoom_by(-1))>"−"</button>
                <span class="small" data-testid="proof-dag-zoom">{live(move || format!("{} %", pct()))}</span>
                <button type="button" aria-label="zoom in" data-testid="proof-dag-zoom-in" on:click=crate::ui::boxed::on_click(move |_| zoom_by(1))>"+"</button>
                <span class="dag-legend small" aria-label="legend">
                    <span class="dag-key hypothesis">"hypothesis"</span>
                    <span class="dag-key accepted">"accepted"</span>
                    <span class="dag-key pending">"pending"</span>
                    <span class="dag-key rejected">"refused / retracted"</span>
                    <span class="dag-key current">"current step"</span>
                    <span class="dag-key premise">"its premises"</span>
                </span>
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
                    style=live(move || views.with(|(d, _)| size(d.width, d.height.max(NODE_H), scale())))>
                    <div class="dag-canvas" style=live(move || views.with(|(d, _)| format!(
                        "{};transform:scale({}.{:02})", size(d.width, d.height.max(NODE_H), 1.0), pct() / 100, pct() % 100)))>
                        <svg class="dag-edges" width=live(move || views.with(|(d, _)| px(d.width).to_string()))
                            height=live(move || views.with(|(d, _)| px(d.height).to_string())) aria-hidden="true">
                            {keyed_rows(
                                Arc::new(move || views.with(|(d, _)| d.edges.iter().cloned().map(Row::Edge).collect())),
                                |row| match row { Row::Edge(e) => edge_key(e), _ => String::new() },
                                Arc::new(|row| match row { Row::Edge(e) => edge_view(e), _ => ().into_any() }),
                            )}
                        </svg>
                        {keyed_rows(
                            Arc::new(move || views.with(|(d, _)| d.nodes.iter().cloned().map(Row::Node).collect())),
                            |row| match row { Row::Node(n) => node_key(n), _ => String::new() },
                            Arc::new(move |row| match row { Row::Node(n) => node_view(n, on_pick), _ => ().into_any() }),
                        )}
                    </div>
                </div>
            </div>
        </div>
    }
}
