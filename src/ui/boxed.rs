//! Event handlers and reactive attribute values as boxed closures, shared by every page. Leptos compiles its
//! listener and attribute code once per closure type; boxed, every handler of a kind (every
//! click, every change...) in the app shares one compiled copy (wasm size).

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

/// An effect's body (`Effect::new(effect(...))`): all such effects share one compiled copy.
pub type EffectFn = Box<dyn FnMut(Option<()>)>;

pub fn effect(f: impl FnMut(Option<()>) + 'static) -> EffectFn {
    Box::new(f)
}
