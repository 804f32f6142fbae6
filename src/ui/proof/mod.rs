//! The Proof page: a logic world's derivations stepped through, drawn as a DAG. Its
//! keyboard (the stepper keys) and its URL (the step and actions kept in the query string) are
//! below the page component; the panels are the modules declared here.

pub(crate) mod bind;
pub mod bundle;
mod controls;
pub mod dag;
pub mod fitch;
pub mod form;
pub mod host;
mod loader;
mod page_state;
pub mod panels;
pub mod research_panel;
mod research_run;
pub mod reveal;

use crate::logic::dag::Dag;
use crate::logic::events::Event;
use crate::logic::fitch::Fitch;
use crate::logic::world::WorldState;
use crate::ui::{drafts_store, query};
use crate::view::proof::link::at_step;
use crate::view::proof::link::encode_actions;
use crate::view::proof::link::start_at;
use crate::view::proof::stepper_keys::step_key;
use crate::view::proof::stepper_keys::KeyTarget;
use crate::view::proof::steps::views_at;
use bind::live;
use controls::ProofControls;
use dag::ProofDag;
use fitch::ProofFitch;
use form::ProofForm;
use leptos::prelude::*;
use loader::ProofLoader;
use page_state::ProofState;
use panels::ProofPanels;
use research_panel::ResearchPanel;
use wasm_bindgen::JsCast;

/// Step through a logic world derivation: every proposal, acceptance and rejection, with
/// formulas rendered and the proof DAG.
#[component]
pub fn ProofPage() -> impl IntoView {
    let page = ProofState::new();
    let (session, step) = (page.session, page.step);

    // The world at the current step and the event that led to it. Every recomputation is a new
    // step or session: skip the equality check, which on a 50,000-item world would cost more
    // than the replay itself. (One memo for both: each memo type is its own copy of the
    // reactive code in the wasm.)
    let state = Memo::new_with_compare(
        move |_| -> (WorldState, Option<Event>) {
            session.with(|s| match s.as_ref() {
                Some(s) => {
                    let at = step.get();
                    (
                        s.replayer.state_at(at),
                        s.replayer.event_before(at).cloned(),
                    )
                }
                None => Default::default(),
            })
        },
        |_, _| true,
    );
    // The DAG and the Fitch lines, both focused on the current event's subject.
    let views = Memo::new(move |_| -> (Dag, Fitch) {
        state.with(|(st, event)| views_at(st, event.as_ref()))
    });
    let on_pick = Callback::new(move |id: String| page.pick(id));

    on_cleanup(move || page.clear_interval());
    let keys = window_event_listener(leptos::ev::keydown, move |ev| on_key(page, ev));
    on_cleanup(move || keys.remove());

    // A link (`proof?example=…&step=12`) wins over the kept draft.
    open_linked(page);
    Effect::new(move |_| sync_url(page));

    let on_action = move |(agent, kind, params)| page.act(agent, kind, params);
    let agents = move || {
        session.with(|s| {
            s.as_ref()
                .map(|s| s.problem.agents.clone())
                .unwrap_or_default()
        })
    };
    // Read when Run is pressed; live researchers then replace the log as each turn lands.
    let research_problem =
        move || session.with_untracked(|s| s.as_ref().map(|s| s.problem.clone()));
    let on_research_events = move |events| page.research_events(events);

    // Built once when a session opens, not at every step: the panels below keep their own state.
    let has_session = Memo::new(move |_| session.with(|s| s.is_some()));
    view! {
        <section data-testid="page-proof">
            <h1>"Proof stepper"</h1>
            <p class="lead">"Step through a logic world derivation: every proposal, acceptance and rejection, with formulas rendered and the proof DAG."</p>
            <ProofLoader page=page/>
            {live(move || has_session.get().then(|| view! {
                <ProofControls page=page state=state/>
                <div class="proof-views">
                    <ProofFitch views=views on_pick=on_pick/>
                    <ProofDag views=views on_pick=on_pick/>
                </div>
                <ProofPanels state=state/>

                <ResearchPanel problem=research_problem on_events=on_research_events/>
                <ProofForm agents=agents on_action=on_action/>
            }.into_any()))}
        </section>
    }
}

// The Proof page's stepper keys (which key does what is `view::proof::stepper_keys`).

/// The stepper's keys, unless focus is in a field that needs them.
pub fn on_key(page: ProofState, ev: web_sys::KeyboardEvent) {
    if page.session.with_untracked(|s| s.is_none()) {
        return;
    }
    let el = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok());
    let tag = el.as_ref().map(|e| e.tag_name()).unwrap_or_default();
    let input_type = el
        .as_ref()
        .and_then(|e| e.get_attribute("type"))
        .unwrap_or_default()
        .to_ascii_lowercase();
    let target = KeyTarget {
        tag: &tag,
        input_type: &input_type,
        content_editable: el.as_ref().is_some_and(|e| e.is_content_editable()),
        modifier: ev.ctrl_key() || ev.alt_key() || ev.meta_key(),
    };
    let Some(command) = step_key(&ev.key(), &target) else {
        return;
    };
    ev.prevent_default();
    page.command(command);
}

// The Proof page and its URL: a link or the kept draft opens an example at a step, and the
// URL follows the step shown (replaced in place, so stepping does not fill the history). The
// choices are `view::proof::link`.

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
            .or_else(|| self::page_state::kept_actions(&key));
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
