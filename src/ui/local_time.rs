//! A kept run's time as users read it (Runs, Audit's "open a kept audit", Compare's pickers).

/// A time in the user's locale and time zone.
pub fn local_time(ms: f64) -> String {
    js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(ms))
        .to_locale_string("default", &wasm_bindgen::JsValue::UNDEFINED)
        .into()
}
