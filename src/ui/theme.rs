//! Theme persistence: `data-theme` on <html> (read by style/main.css) and local storage.
//! No stored choice means "follow the system" (`prefers-color-scheme`).

use wasm_bindgen::JsCast;

const KEY: &str = "verifyfast.theme";

crate::names::named_enum! {
    pub enum Theme {
        Light = "light",
        Dark = "dark",
    }
}

impl Theme {
    pub fn toggled(self) -> Theme {
        match self {
            Theme::Light => Theme::Dark,
            Theme::Dark => Theme::Light,
        }
    }
}

/// The theme in effect now: the stored choice, else the system preference.
pub fn current() -> Theme {
    let stored = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .and_then(|e| e.get_attribute("data-theme"));
    match stored.as_deref() {
        Some("dark") => Theme::Dark,
        Some("light") => Theme::Light,
        _ if system_prefers_dark() => Theme::Dark,
        _ => Theme::Light,
    }
}

fn system_prefers_dark() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches())
}

/// Apply and remember a theme.
pub fn apply(theme: Theme) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if let Some(el) = window.document().and_then(|d| d.document_element()) {
        let _ = el
            .unchecked_ref::<web_sys::Element>()
            .set_attribute("data-theme", theme.as_str());
    }
    if let Ok(Some(storage)) = window.local_storage() {
        // Storage can be full or disabled (private mode); the theme still applies for this page.
        let _ = storage.set_item(KEY, theme.as_str());
    }
}
