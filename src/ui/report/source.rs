//! What the Report page showed last (a kept run's id, or `file:<name>` for a file that
//! could not be kept), so coming back to the page shows it again. The runs themselves come
//! from the run store (`ui::run_file`).

/// Local-storage key of what the Report page showed last: a run id, or `file:<name>`.
const SOURCE_KEY: &str = "verifyfast.report.source";

pub fn remember_source(source: &str) {
    if let Some(s) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = s.set_item(SOURCE_KEY, source);
    }
}

pub fn last_source() -> Option<String> {
    web_sys::window()?
        .local_storage()
        .ok()
        .flatten()?
        .get_item(SOURCE_KEY)
        .ok()
        .flatten()
}
