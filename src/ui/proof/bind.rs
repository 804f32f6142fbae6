//! Two-way bindings shared by the Proof page's inputs. Each returns the same closure type for
//! every signal, so the event-listener and render-effect code is compiled once for all the
//! fields instead of once per field.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// A listener that writes the event target's value into `value`.
pub fn set_to<E: JsCast + 'static>(value: RwSignal<String>) -> impl Fn(E) + Clone + 'static {
    move |ev: E| value.set(event_target_value(&ev))
}

/// The reactive value of a text field.
pub fn text_of(value: RwSignal<String>) -> impl Fn() -> String + Copy + 'static {
    move || value.get()
}

/// A whole-number field bound to `value`; what does not parse counts as `fallback`.
#[inline(never)]
pub fn number_input(
    value: RwSignal<usize>,
    min: &'static str,
    max: &'static str,
    fallback: usize,
) -> AnyView {
    view! {
        <input type="number" min=min max=max prop:value=move || value.get().to_string()
            on:input=move |ev| value.set(event_target_value(&ev).parse().unwrap_or(fallback))/>
    }
    .into_any()
}
