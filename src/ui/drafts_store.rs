//! The browser half of `crate::drafts`: a signal that starts from the kept draft and writes
//! every change back to local storage 400 ms after the last keystroke.

use std::time::Duration;

use leptos::prelude::*;

use crate::drafts;

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The kept draft of `page.field`, if any.
pub fn read(page: &str, field: &str) -> Option<String> {
    storage()?
        .get_item(&drafts::key(page, field))
        .ok()
        .flatten()
}

/// Keep `value` as the draft of `page.field` now. A refused draft (a secret's name, too
/// large, storage full) is simply not kept: the page still has it.
pub fn write(page: &str, field: &str, value: &str) {
    if let (Ok((key, value)), Some(s)) = (drafts::to_store(page, field, value), storage()) {
        let _ = s.set_item(&key, &value);
    }
}

/// A signal for `page.field` that starts from its draft (or `default()`) and is kept as the
/// user edits it. A write still pending when the page is left happens anyway.
pub fn draft_signal(
    page: &'static str,
    field: &'static str,
    default: impl FnOnce() -> String,
) -> RwSignal<String> {
    let value = RwSignal::new(read(page, field).unwrap_or_else(default));
    let pending = StoredValue::new(None::<TimeoutHandle>);
    Effect::new(move |previous: Option<()>| {
        let text = value.get();
        if previous.is_none() {
            return; // the first run only subscribes: nothing changed yet
        }
        if let Some(h) = pending.get_value() {
            h.clear();
        }
        let handle = set_timeout_with_handle(
            move || write(page, field, &text),
            Duration::from_millis(400),
        );
        pending.set_value(handle.ok());
    });
    value
}
