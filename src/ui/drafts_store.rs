//! The browser half of `crate::drafts`: a signal that starts from the kept draft and writes
//! every change back to local storage 400 ms after the last keystroke, or at once when the
//! page is hidden (reload, closed tab).

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

/// Where the last "not kept" notice is kept, so a reload still says why the field is empty:
/// `page.field` of the draft, a line break, the message.
const NOT_KEPT: (&str, &str) = ("app", "not_kept");

thread_local! {
    /// The notice every page shows (`App`): reference counted, so no page's cleanup drops it.
    static NOTICE: ArcRwSignal<Option<(String, String)>> = ArcRwSignal::new(
        read(NOT_KEPT.0, NOT_KEPT.1)
            .and_then(|n| n.split_once('\n').map(|(k, m)| (k.to_string(), m.to_string())))
    );
}

/// Why the last draft was not kept (a text over `drafts::MAX_BYTES`), until a draft of that
/// field is kept again or the user dismisses it.
pub fn not_kept() -> ArcRwSignal<Option<(String, String)>> {
    NOTICE.with(Clone::clone)
}

/// Forget the notice (the user read it).
pub fn dismiss_not_kept() {
    if let Some(s) = storage() {
        let _ = s.remove_item(&drafts::key(NOT_KEPT.0, NOT_KEPT.1));
    }
    not_kept().set(None);
}

/// Keep `value` as the draft of `page.field` now. A refused draft (a secret's name, too
/// large, storage full) is not kept: the page still has it. A text too large to keep also
/// removes the field's older draft (a reload would otherwise show that older text as if it
/// were the last one) and says so on every page, also after a reload.
pub fn write(page: &str, field: &str, value: &str) {
    let Some(s) = storage() else { return };
    let which = format!("{page}.{field}");
    match drafts::to_store(page, field, value) {
        Ok((key, value)) => {
            let _ = s.set_item(&key, &value);
            let notice = not_kept();
            if notice.with_untracked(|n| n.as_ref().is_some_and(|(k, _)| *k == which)) {
                dismiss_not_kept();
            }
        }
        Err(e @ drafts::DraftError::TooLarge { .. }) => {
            let _ = s.remove_item(&drafts::key(page, field));
            let message = format!(
                "Not kept as a draft: {page} {e}; a reload or another visit shows the field empty (the older draft was removed)."
            );
            let _ = s.set_item(
                &drafts::key(NOT_KEPT.0, NOT_KEPT.1),
                &format!("{which}\n{message}"),
            );
            not_kept().set(Some((which, message)));
        }
        Err(drafts::DraftError::Secret(_)) => {}
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
    // A reload or a closed tab within the 400 ms would lose the last keystrokes: the page
    // being hidden writes a pending draft at once.
    let flush = window_event_listener(leptos::ev::pagehide, move |_| {
        if let Some(h) = pending.get_value() {
            h.clear();
            pending.set_value(None);
            write(page, field, &value.get_untracked());
        }
    });
    on_cleanup(move || flush.remove());
    value
}
