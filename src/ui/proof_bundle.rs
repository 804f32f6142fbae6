//! The Proof page's side of the code split: the logic engine, the stepper and the research
//! panel are a wasm bundle of their own (`src/proof_bundle.rs`, built by Trunk next to the app),
//! loaded only when someone opens the Proof page; `ui::proof_host` loads it and hands it the
//! element to draw into. Users of Audit, Report and Extract never download the engine
//! (README, "Size").
//!
//! The two bundles are separate wasm instances: they share the page, its URL and its storage,
//! not memory. The Proof page already keeps its state in the URL (`ui::query`) and its drafts
//! in storage, and reads the settings from storage, so nothing else has to cross.

use std::cell::RefCell;

use super::pages::ProofPage;
use super::settings_store::settings_store;

thread_local! {
    /// The mounted page; dropping it unmounts the view and disposes its reactive owner (its
    /// key listeners and in-flight LLM calls go with it).
    static MOUNTED: RefCell<Option<Box<dyn std::any::Any>>> = const { RefCell::new(None) };
}

/// Draw the Proof page into `host` (replacing one drawn before).
pub fn mount(host: web_sys::HtmlElement) {
    unmount();
    // Settings may have changed on the Settings page since this bundle last read them.
    settings_store().reload();
    let handle = leptos::mount::mount_to(host, ProofPage);
    MOUNTED.with(|m| *m.borrow_mut() = Some(Box::new(handle)));
}

/// Remove the Proof page (the app navigated away).
pub fn unmount() {
    // Take it out first: dropping runs the page's cleanups, which must not find the cell borrowed.
    let old = MOUNTED.with(|m| m.borrow_mut().take());
    drop(old);
}
