//! What Audit and Report say to each other: the Report page's id of the latest batch run, the
//! Audit page's link to one case of a kept batch, and the one-shot "run it once" request Report's
//! "Open in Audit" hands the Audit page.
//!
//! The run request travels in session storage, set by a click only: a URL alone never starts
//! paid LLM calls.

/// The Report page's id for the latest batch run (`report?run=batch`, links from before
/// runs had ids).
pub const BATCH_RUN: &str = "batch";

/// The Audit page's link to one case of a batch run.
pub fn case_href(run: &str, case: &str, profile: &str) -> String {
    crate::route::state::ViewState {
        run: Some(run.to_string()),
        case: Some(case.to_string()),
        profile: Some(profile.to_string()),
        ..Default::default()
    }
    .href("audit")
}

/// Session-storage key of the one-shot run request the Audit page takes (and removes).
const RUN_ONCE_KEY: &str = "verifyfast.audit.run-once";

fn session_storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.session_storage().ok().flatten())
}

/// Asks the Audit page to run once when it opens (Report's "Open in Audit" click).
pub fn ask_run_once() {
    if let Some(s) = session_storage() {
        let _ = s.set_item(RUN_ONCE_KEY, "1");
    }
}

/// Whether a run was asked for; the request is removed, so it is taken once.
pub fn take_run_once() -> bool {
    let Some(s) = session_storage() else {
        return false;
    };
    let asked = s.get_item(RUN_ONCE_KEY).ok().flatten().is_some();
    let _ = s.remove_item(RUN_ONCE_KEY);
    asked
}
