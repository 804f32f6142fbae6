//! The Fitch view of the Proof page: the derivation at the current step as numbered lines,
//! subproofs indented with a bar, the rule and cited lines on the right, refused and pending
//! lines in place with their reason. The current event's line is highlighted and kept in view;
//! a click on a line jumps to the step that proposed it. Layout: `logic::fitch` (tested natively).

use leptos::prelude::*;

use super::reveal::keep_revealed;
use crate::logic::dag::Dag;
use crate::logic::fitch::{Fitch, Line, LineStatus};
use std::sync::Arc;

use super::bind::formula;
use super::bind::live;
use crate::ui::keyed::keyed_rows;

/// Everything a row draws, so a step re-renders only the rows it changed.
fn line_key(l: &Line) -> String {
    format!(
        "{} {} {} {} {} {} {} {}",
        l.number,
        l.id,
        l.depth,
        l.status.as_str(),
        l.current,
        l.cites,
        l.bar_below,
        l.stray.len()
    )
}

fn line_view(l: Line, on_pick: Callback<String>) -> AnyView {
    let class = format!(
        "fitch-line {}{}",
        l.status.as_str(),
        if l.current { " current" } else { "" }
    );
    let bars = (0..=l.depth)
        .map(|d| {
            let class = if d == l.depth && l.opens {
                "fitch-bar opens"
            } else {
                "fitch-bar"
            };
            view! { <span class=class></span> }.into_any()
        })
        .collect_view();
    let badge = match l.status {
        LineStatus::Hypothesis | LineStatus::Accepted => None,
        s => Some(view! { <span class="badge fitch-status">{s.as_str()}</span> }.into_any()),
    };
    let note = match (&l.reason, l.stray.is_empty()) {
        (Some(r), _) => Some(view! { <div class="error small">{r.clone()}</div> }.into_any()),
        (None, false) => Some(
            view! { <div class="muted small">{format!("rests on {}, closed above", l.stray.join(", "))}</div> }
                .into_any(),
        ),
        _ => None,
    };
    let id = l.id.clone();
    let title = format!("{} (click: go to the step that proposed it)", l.id);
    view! {
        <li class=class data-id=l.id.clone() data-current=l.current.to_string() data-testid="fitch-line"
            title=title on:click=move |_| on_pick.run(id.clone())>
            <span class="fitch-num">{l.number.to_string()}</span>
            {bars}
            <span class="fitch-body">
                <span class=if l.bar_below { "fitch-formula under" } else { "fitch-formula" }>
                    {formula(&l.latex)}
                </span>
                {badge}
                {note}
            </span>
            <span class="fitch-rule">{l.rule.clone()}" "{l.cites.clone()}</span>
        </li>
    }
    .into_any()
}

#[component]
pub fn ProofFitch(
    /// The Fitch lines (and the DAG, drawn by `ProofDag`) at the current step.
    views: Memo<(Dag, Fitch)>,
    /// An id whose line was clicked.
    on_pick: Callback<String>,
) -> impl IntoView {
    let scroller = NodeRef::<leptos::html::Div>::new();
    keep_revealed(
        scroller,
        ".fitch-line.current",
        Signal::<(Dag, Fitch)>::from(views),
    );
    let left_out = move |n: usize, which: &str| {
        (n > 0).then(|| {
            view! { <li class="muted small fitch-more">{format!("{n} {which} lines not shown")}</li> }
                .into_any()
        })
    };
    view! {
        <div class="card proof-fitch" data-testid="proof-fitch">
            <h3>"Proof (Fitch)"</h3>
            <div class="fitch-scroll" node_ref=scroller>
                <ol class="fitch">
                    {live(move || left_out(views.with(|(_, f)| f.before), "earlier"))}
                    {keyed_rows(
                        Arc::new(move || views.with(|(_, f)| f.lines.clone())),
                        line_key,
                        Arc::new(move |l| line_view(l, on_pick)),
                    )}
                    {live(move || left_out(views.with(|(_, f)| f.after), "later"))}
                </ol>
            </div>
        </div>
    }
}
