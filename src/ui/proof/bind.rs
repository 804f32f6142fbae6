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
pub fn text_of(value: RwSignal<String>) -> Live<String> {
    live(move || value.get())
}

/// A whole-number field bound to `value`; what does not parse counts as `fallback`.
pub fn number_input(
    value: RwSignal<usize>,
    min: &'static str,
    max: &'static str,
    fallback: usize,
) -> AnyView {
    view! {
        <input type="number" min=min max=max prop:value=live(move || value.get().to_string())
            on:input=move |ev| value.set(event_target_value(&ev).parse().unwrap_or(fallback))/>
    }
    .into_any()
}

/// A reactive view or attribute value behind one shared pointer type (the one Leptos itself
/// converts reactive closures to). Leptos compiles its render-effect code once per closure
/// type; every `live(...)` of the same output type shares one copy.
pub type Live<T> = std::sync::Arc<std::sync::Mutex<dyn FnMut() -> T + Send>>;

pub fn live<T>(f: impl FnMut() -> T + Send + 'static) -> Live<T> {
    std::sync::Arc::new(std::sync::Mutex::new(f))
}

/// A formula of the derivation, typeset: `$…$` around its trimmed LaTeX (one copy of the
/// `MathText` construction for every formula the page draws).
pub fn formula(latex: &str) -> AnyView {
    prose(format!("${}$", latex.trim().trim_matches('$').trim()))
}

/// Prose with inline math, typeset.
pub fn prose(text: String) -> AnyView {
    view! { <crate::ui::math_text::MathText text=text/> }.into_any()
}
