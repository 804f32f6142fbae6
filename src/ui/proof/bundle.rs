//! The Proof page's side of the code split: the logic engine, the stepper and the research
//! panel are a wasm bundle of their own (`src/proof_bundle.rs`, built by Trunk next to the app),
//! loaded only when someone opens the Proof page; `ui::proof::host` loads it and hands it the
//! element to draw into. Users of Audit, Report and Extract never download the engine
//! (docs/architecture.md, "Decisions").
//!
//! The two bundles are separate wasm instances: they share the page, its URL and its storage,
//! not memory. The Proof page already keeps its state in the URL (`ui::query`) and its drafts
//! in storage, and reads the settings from storage, so nothing else has to cross.

use std::cell::RefCell;

use leptos::prelude::Owner;

use super::ProofPage;
use crate::ui::settings_store::settings_store;

/// The mounted page: its root owner, and what takes the mounted view off the page (a closure
/// that owns the view, whose type is Leptos's and need not be named here).
type Mounted = (Owner, Box<dyn FnOnce()>);

thread_local! {
    static MOUNTED: RefCell<Option<Mounted>> = const { RefCell::new(None) };
}

/// Draw the Proof page into `host` (replacing one drawn before).
pub fn mount(host: web_sys::HtmlElement) {
    unmount();
    // Settings may have changed on the Settings page since this bundle last read them.
    settings_store().reload();
    // The page's owners are children of this one, so `unmount` can clean them all up.
    let owner = Owner::new();
    let view = owner.with(|| leptos::mount::mount_to(host, ProofPage));
    let remove: Box<dyn FnOnce()> = Box::new(move || drop(view));
    MOUNTED.with(|m| *m.borrow_mut() = Some((owner, remove)));
}

/// Remove the Proof page (the app navigated away). Dropping the mounted view alone would not
/// run the page's cleanups while a task it spawned (a research run) still holds its owner, so
/// the owner is cleaned up explicitly: every `on_cleanup` runs (key listeners removed, the
/// research run and its in-flight call aborted), then the view leaves the page.
pub fn unmount() {
    // Take it out first: the cleanups must not find the cell borrowed.
    if let Some((owner, remove)) = MOUNTED.with(|m| m.borrow_mut().take()) {
        owner.cleanup();
        remove();
    }
}
