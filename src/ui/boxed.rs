//! Event handlers and reactive attribute values as boxed closures. Leptos compiles its
//! listener and attribute code once per closure type; boxed, every handler of a kind (every
//! click, every change...) in the app shares one compiled copy (wasm size). Used only where the
//! cold load was measured to need it (Extract, Settings and the shared widgets; see
//! docs/architecture.md, "Decisions"); the other pages write their closures in place.

use leptos::prelude::AnyView;
use web_sys::{Event, KeyboardEvent, MouseEvent};

pub type OnClick = Box<dyn FnMut(MouseEvent)>;
pub type OnChange = Box<dyn FnMut(Event)>;
pub type OnKey = Box<dyn FnMut(KeyboardEvent)>;
/// A reactive `bool` attribute or property (`disabled`, `selected`, `prop:checked`).
pub type Flag = Box<dyn FnMut() -> bool + Send>;
/// A reactive text attribute or property (`aria-*`, `prop:value`).
pub type Text = Box<dyn FnMut() -> String + Send>;

pub fn on_click(f: impl FnMut(MouseEvent) + 'static) -> OnClick {
    Box::new(f)
}

pub fn on_change(f: impl FnMut(Event) + 'static) -> OnChange {
    Box::new(f)
}

pub fn on_key(f: impl FnMut(KeyboardEvent) + 'static) -> OnKey {
    Box::new(f)
}

pub fn flag(f: impl FnMut() -> bool + Send + 'static) -> Flag {
    Box::new(f)
}

pub fn text(f: impl FnMut() -> String + Send + 'static) -> Text {
    Box::new(f)
}

/// A reactive part of a view: nothing, or one view. Put `part(move || …)` where the closure
/// itself would go in `view!`; every such part in the app shares one compiled copy.
pub type Part = Box<dyn FnMut() -> Option<AnyView> + Send>;

pub fn part(f: impl FnMut() -> Option<AnyView> + Send + 'static) -> Part {
    Box::new(f)
}

/// An effect (`effect(move || …)`), boxed: every effect of the app shares one copy of
/// reactive_graph's effect code instead of one per closure.
#[inline(never)]
pub fn effect(f: impl FnMut() + 'static) {
    let mut f: Box<dyn FnMut()> = Box::new(f);
    leptos::prelude::Effect::new(move |_: Option<()>| f());
}
