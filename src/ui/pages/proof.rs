use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::logic::dag::{layout_window, Dag};
use crate::logic::events::Event;
use crate::logic::fitch::{layout as fitch_layout, Fitch, FitchOptions};
use crate::logic::stepper_keys::{step_key, KeyTarget};
use crate::logic::world::WorldState;
use crate::ui::drafts_store;
use crate::ui::proof_dag::ProofDag;
use crate::ui::proof_fitch::ProofFitch;
use crate::ui::proof_form::bind::live;
use crate::ui::proof_form::ProofForm;
use crate::ui::proof_panels::ProofPanels;
use crate::ui::query;
use crate::ui::research_panel::ResearchPanel;

// The page's parts live in `src/ui/proof/` (declared here, so `src/ui/mod.rs` stays as it is).
#[path = "../proof/controls.rs"]
mod controls;
#[path = "../proof/event_card.rs"]
mod event_card;
#[path = "../proof/loader.rs"]
mod loader;
#[path = "../proof/page_state.rs"]
mod page_state;

use controls::ProofControls;
use loader::ProofLoader;
use page_state::ProofState;

/// Nodes the DAG draws at most: past that it shows the current step's ancestry and the latest
/// items (and says how many it left out).
const DAG_NODES: usize = 40;
/// Lines the Fitch view draws at most, centred on the current one.
const FITCH_LINES: usize = 40;

/// The stepper's keys, unless focus is in a field that needs them.
fn on_key(page: ProofState, ev: web_sys::KeyboardEvent) {
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

/// The URL says which example and step are shown (replaced in place, so stepping does not fill
/// the history).
fn sync_url(page: ProofState) {
    let at = page.step.get();
    let key = page.example_key.get();
    if page.session.with_untracked(Option::is_none) {
        return;
    }
    let mut v = query::current();
    if key.is_empty() {
        v.example = None;
        v.step = None;
    } else {
        drafts_store::write("proof", "step", &at.to_string());
        v.example = Some(key);
        v.step = u32::try_from(at).ok();
    }
    query::set(&v, false);
}

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
        state.with(|(st, event)| {
            let focus = event.as_ref().and_then(|e| e.subject_id());
            let dag = layout_window(st, focus, DAG_NODES);
            let fitch = fitch_layout(
                st,
                &FitchOptions {
                    focus,
                    window: FITCH_LINES,
                    ..Default::default()
                },
            );
            (dag, fitch)
        })
    });
    let on_pick = Callback::new(move |id: String| page.pick(id));

    on_cleanup(move || page.clear_interval());
    let keys = window_event_listener(leptos::ev::keydown, move |ev| on_key(page, ev));
    on_cleanup(move || keys.remove());

    // A link (`proof?example=…&step=12`) wins over the kept draft.
    let linked = query::current();
    if let Some(key) = linked.example.clone() {
        page.open_example(key, linked.step.map(|s| s as usize));
    } else if let Some(key) = drafts_store::read("proof", "example").filter(|k| !k.is_empty()) {
        let at = drafts_store::read("proof", "step").and_then(|s| s.parse().ok());
        page.open_example(key, at);
    }
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
