//! The Proof page and its URL: a link or the kept draft opens an example at a step, and the
//! URL follows the step shown (replaced in place, so stepping does not fill the history). The
//! choices are `view::proof::link`.

use leptos::prelude::*;

use crate::ui::{drafts_store, query};
use crate::view::proof::link::at_step;
use crate::view::proof::link::start_at;

use super::page_state::ProofState;

/// Open what the URL links to, or else the example last shown.
pub fn open_linked(page: ProofState) {
    let start = start_at(
        &query::current(),
        drafts_store::read("proof", "example"),
        drafts_store::read("proof", "step"),
    );
    if let Some((key, at)) = start {
        page.open_example(key, at);
    }
}

/// Write the example and step shown into the URL (and the step into the draft).
pub fn sync_url(page: ProofState) {
    let at = page.step.get();
    let key = page.example_key.get();
    if page.session.with_untracked(Option::is_none) {
        return;
    }
    if !key.is_empty() {
        drafts_store::write("proof", "step", &at.to_string());
    }
    query::set(&at_step(query::current(), key, at), false);
}
