//! A reactive part of a view as one boxed type. Leptos compiles its reactive rendering once per
//! closure type; boxed, all parts of the Extract page share one copy (wasm size).

use leptos::prelude::*;

/// What a reactive part shows: nothing, or one view.
pub type Part = Box<dyn FnMut() -> Option<AnyView> + Send>;

/// Boxes `f` as a [`Part`] (put it where the closure itself would go in `view!`).
pub fn part(f: impl FnMut() -> Option<AnyView> + Send + 'static) -> Part {
    Box::new(f)
}
