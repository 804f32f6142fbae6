//! The Proof page's stepper keys (which key does what is `view::proof::stepper_keys`).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::view::proof::stepper_keys::step_key;
use crate::view::proof::stepper_keys::KeyTarget;

use super::page_state::ProofState;

/// The stepper's keys, unless focus is in a field that needs them.
pub fn on_key(page: ProofState, ev: web_sys::KeyboardEvent) {
    if page.session.with_untracked(|s| s.is_none()) {
        return;
    }
    let el = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok());
    let tag = el.as_ref().map(|e| e.tag_name()).unwrap_or_default();
    let input_type = el
        .as_ref()
        .and_then(|e| e.get_attribute("type"))
        .unwrap_or_default()
        .to_ascii_lowercase();
    let target = KeyTarget {
        tag: &tag,
        input_type: &input_type,
        content_editable: el.as_ref().is_some_and(|e| e.is_content_editable()),
        modifier: ev.ctrl_key() || ev.alt_key() || ev.meta_key(),
    };
    let Some(command) = step_key(&ev.key(), &target) else {
        return;
    };
    ev.prevent_default();
    page.command(command);
}
