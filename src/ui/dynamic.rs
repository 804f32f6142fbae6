//! Boxed forms of the reactive parts of the tables (Report, Compare, Runs) that `ui::boxed`
//! (text, flags, handlers, view parts) does not cover. tachys instantiates
//! its render-effect and event code once per closure *type*; a boxed closure is one type
//! per output, so the many small `move ||` parts of these pages share one copy (wasm size).

use leptos::prelude::*;

/// A table cell with text (`class` e.g. `num`); one shared type for every plain cell.
#[inline(never)]
pub fn td(class: Option<&'static str>, text: String) -> AnyView {
    view! { <td class=class>{text}</td> }.into_any()
}

/// A memo of a table's shown order (indices); boxed for the same reason.
#[inline(never)]
pub fn memo_rows(f: Box<dyn Fn() -> Vec<usize> + Send + Sync>) -> Memo<Vec<usize>> {
    Memo::new(move |_| f())
}

/// A memo of a count (pages of a table); boxed for the same reason.
#[inline(never)]
pub fn memo_count(f: Box<dyn Fn() -> usize + Send + Sync>) -> Memo<usize> {
    Memo::new(move |_| f())
}
