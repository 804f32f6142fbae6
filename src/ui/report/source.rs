//! Where the Report page's results come from: the browser batch's kept results, or what it
//! showed last (moved here verbatim from `pages/report.rs`).

use crate::ui::batch_runner::stored_results;

/// Local-storage key of what the Report page showed last: `batch`, or `file:<name>`.
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

/// The browser batch's kept results as a file, so they go through the same chunked reader
/// and drill-down as a picked one.
pub fn batch_file() -> Result<web_sys::File, String> {
    let lines = stored_results();
    if lines.is_empty() {
        return Err(
            "No batch results are kept in this browser: run a batch on the Audit page first."
                .into(),
        );
    }
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(&lines.join("\n")));
    web_sys::File::new_with_str_sequence(&parts, "batch-results.jsonl")
        .map_err(|_| "could not read the kept batch results".to_string())
}
