//! The view state in the address bar: read `location.search` as a `route::state::ViewState`,
//! and write one back as a new history entry (a drill-down the user opened, so Back closes
//! it) or in place of the current one (a step, a reload target).

use leptos::prelude::*;

use crate::route::state::ViewState;

/// The view state of the current URL.
pub fn current() -> ViewState {
    ViewState::decode(&window().location().search().unwrap_or_default())
}

/// Put `state` in the URL of the current page: `push` adds a history entry, otherwise the
/// current one is replaced. Nothing happens when the URL already says so.
pub fn set(state: &ViewState, push: bool) {
    let location = window().location();
    let path = location.pathname().unwrap_or_default();
    let url = state.href(&path);
    let now = format!("{path}{}", location.search().unwrap_or_default());
    if url == now {
        return;
    }
    let Ok(history) = window().history() else {
        return;
    };
    let null = wasm_bindgen::JsValue::NULL;
    let _ = if push {
        history.push_state_with_url(&null, "", Some(&url))
    } else {
        history.replace_state_with_url(&null, "", Some(&url))
    };
}

/// Calls `f` with the URL's view state on every back/forward move while the caller lives.
pub fn on_history_move(f: impl Fn(ViewState) + 'static) {
    let listener = window_event_listener(leptos::ev::popstate, move |_| f(current()));
    on_cleanup(move || listener.remove());
}
