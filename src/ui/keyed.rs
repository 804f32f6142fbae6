//! The app's one keyed list. Leptos compiles its keyed-list code (`<For>`) once per row type,
//! several KB of wasm each; every list of the app (the Proof page's panels, DAG and Fitch
//! lines, Settings' LLMs and profiles, the Runs table) draws rows of this one type.

use leptos::prelude::*;

use crate::runs::RunMeta;

/// A row of one of the app's keyed lists.
pub enum Row {
    Item(std::sync::Arc<crate::logic::world::Item>),
    Node(crate::logic::dag::Node),
    Edge(crate::logic::dag::Edge),
    Line(crate::logic::fitch::Line),
    /// An LLM's or a profile's name (Settings).
    Name(String),
    /// A kept run (Runs).
    Run(Box<RunMeta>),
}

/// A keyed list: `each` gives the rows (tracked), `key` says what a row draws (a row whose key
/// is unchanged is kept as it is), `children` draws one.
#[inline(never)]
pub fn keyed_rows(
    each: std::sync::Arc<dyn Fn() -> Vec<Row> + Send + Sync>,
    key: fn(&Row) -> String,
    children: std::sync::Arc<dyn Fn(Row) -> AnyView + Send + Sync>,
) -> AnyView {
    view! { <For each=move || each() key=key children=move |row| children(row)/> }.into_any()
}
