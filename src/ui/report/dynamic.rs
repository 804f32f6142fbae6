//! Boxed forms of the reactive parts of the Report views that `ui::boxed` (text, flags,
//! handlers) does not cover. tachys instantiates
//! its render-effect and event code once per closure *type*; a boxed closure is one type
//! per output, so the many small `move ||` parts of these pages share one copy (wasm size).

use leptos::prelude::*;

/// A part of the view that follows signals (shown when `Some`).
pub type DynView = Box<dyn FnMut() -> Option<AnyView> + Send>;

pub fn dyn_view(f: impl Fn() -> Option<AnyView> + Send + 'static) -> DynView {
    Box::new(f)
}

/// A table cell with text (`class` e.g. `num`); one shared type for every plain cell.
#[inline(never)]
pub fn td(class: Option<&'static str>, text: String) -> AnyView {
    view! { <td class=class>{text}</td> }.into_any()
}

/// An effect. Boxed so every effect of these pages shares one copy of reactive_graph's
/// effect code instead of one per closure.
#[inline(never)]
pub fn effect(mut f: Box<dyn FnMut()>) {
    Effect::new(move |_: Option<()>| f());
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
