//! The Proof page and its URL: a link or the kept draft opens an example at a step, and the
//! URL follows the step shown (replaced in place, so stepping does not fill the history). The
//! choices are `view::proof::link`.

use leptos::prelude::*;

use crate::ui::{drafts_store, query};
use crate::view::proof::link::at_step;
use crate::view::proof::link::encode_actions;
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
        // The link's actions; without any, the ones kept for this example.
        let actions = query::current()
            .actions
            .filter(|_| query::current().example.as_deref() == Some(key.as_str()))
            .or_else(|| super::page_state::kept_actions(&key));
        page.open_example(key, at, actions);
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
    let mut v = at_step(query::current(), key, at);
    v.actions = v
        .example
        .as_ref()
        .and_then(|_| page.typed.with(|t| encode_actions(t)));
    query::set(&v, false);
}
