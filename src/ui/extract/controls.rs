//! Checkboxes the Extract page repeats. One non-generic function per kind, so each is compiled
//! once instead of once per place it appears (wasm size).

use leptos::prelude::*;

use crate::extract::Preset;
use crate::ui::boxed::{flag, on_change};

/// A labelled checkbox bound to a bool signal ("Strict preset" of both halves of the page).
#[inline(never)]
pub fn bool_box(
    value: RwSignal<bool>,
    testid: Option<&'static str>,
    label: &'static str,
) -> impl IntoView {
    view! {
        <label class="row">
            <input
                type="checkbox"
                data-testid=testid
                prop:checked=flag(move || value.get())
                on:change=on_change(move |ev| value.set(event_target_checked(&ev)))
            />
            {label}
        </label>
    }
}

/// A labelled checkbox bound to an "on"/"off" draft (kept as text like the page's other drafts).
#[inline(never)]
pub fn on_off_box(
    value: RwSignal<String>,
    testid: &'static str,
    label: &'static str,
) -> impl IntoView {
    view! {
        <label class="row">
            <input
                type="checkbox"
                data-testid=testid
                prop:checked=flag(move || value.with(|v| v == "on"))
                on:change=on_change(move |ev| value.set(String::from(if event_target_checked(&ev) { "on" } else { "off" })))
            />
            {label}
        </label>
    }
}

/// The preset the "Strict preset" box names.
pub fn preset_of(strict: bool) -> Preset {
    if strict {
        Preset::Strict
    } else {
        Preset::Lenient
    }
}
