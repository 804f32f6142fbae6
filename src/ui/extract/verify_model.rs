//! The verify model of a Settings profile, for the Extract page's LLM fallback: the same
//! browser client as the audit (retries, timeouts, key redaction, CORS explanations) and a
//! profile picker kept as a draft.

use std::rc::Rc;

use leptos::prelude::*;

use crate::ui::options::bound_select;

use crate::llm::{ChatTransport, Endpoint};
use crate::ui::drafts_store::draft_signal;
use crate::ui::settings_store::settings_store;

/// The audit's client: retries with backoff around the browser transport, whose
/// AbortController stops the request when its future is dropped (Cancel, leaving the page).
pub fn transport() -> Rc<dyn ChatTransport> {
    Rc::new(crate::llm::RetryingClient::new(
        crate::llm::browser::BrowserTransport::new(crate::llm::CALL_TIMEOUT_MS),
        crate::llm::RetryPolicy::default(),
    ))
}

/// The endpoint of `profile`'s verify model, or why it cannot be used.
pub fn verify_endpoint(profile: &str) -> Result<Endpoint, String> {
    settings_store().settings.with_untracked(|s| {
        if s.profiles.is_empty() {
            return Err(String::from(
                "no profile in Settings: add an LLM and a profile on the Settings page to ask the verify model",
            ));
        }
        let p = s.profile(profile).map_err(|e| e.to_string())?;
        if let Some(why) = crate::view::settings::llm_problem(s, &p.verify) {
            return Err(why);
        }
        s.endpoint(&p.verify, &|_| None)
            .map_err(|e| crate::view::settings::page_message(&e))
    })
}

/// The chosen profile, kept as a draft of `page`; a profile Settings no longer has falls back
/// to the first one.
pub fn profile_signal(page: &'static str) -> RwSignal<String> {
    let store = settings_store();
    let first = store
        .settings
        .with_untracked(|s| s.profiles.keys().next().cloned().unwrap_or_default());
    let profile = draft_signal(page, "llm_profile", || first.clone());
    if !store.profile_names().contains(&profile.get_untracked()) {
        profile.set(first);
    }
    profile
}

/// A "Profile" select over Settings' profiles (tracked: it follows Settings edits).
#[component]
pub fn ProfilePicker(profile: RwSignal<String>, testid: &'static str) -> impl IntoView {
    let store = settings_store();
    bound_select(
        "Verify model of profile ",
        testid.to_string(),
        profile,
        None,
        Box::new(move || store.profile_names()),
    )
}
