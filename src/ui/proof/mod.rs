//! The Proof page: a logic world's derivations stepped through, drawn as a DAG.
pub(crate) mod bind;
pub mod bundle;
mod controls;
pub mod dag;
mod dag_items;
mod event_card;
pub mod fitch;
pub mod form;
pub mod host;
mod item_panel;
mod keys;
mod loader;
mod page_state;
pub mod panels;
pub mod research_panel;
mod research_run;
pub mod reveal;
mod url_sync;

use leptos::prelude::*;

use crate::logic::dag::Dag;
use crate::logic::events::Event;
use crate::logic::fitch::Fitch;
use crate::logic::world::WorldState;
use crate::view::proof::steps::views_at;
use bind::live;
use dag::ProofDag;
use fitch::ProofFitch;
use form::ProofForm;
use panels::ProofPanels;
use research_panel::ResearchPanel;

use controls::ProofControls;
use loader::ProofLoader;
use page_state::ProofState;
use url_sync::open_linked;
use url_sync::sync_url;

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
    let keys = window_event_listener(leptos::ev::keydown, move |ev| keys::on_key(page, ev));
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
