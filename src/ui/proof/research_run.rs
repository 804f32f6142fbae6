//! Starting a live research run from the panel's fields: the researchers take turns through
//! the engine, each turn's line and the engine's log are handed back as they land. The choices
//! (profile, researchers, rounds, the words) are in `view::proof::research_plan`.

use std::rc::Rc;

use futures::future::{AbortHandle, Abortable};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::llm::browser::BrowserTransport;
use crate::llm::{RetryPolicy, RetryingClient, CALL_TIMEOUT_MS};
use crate::logic::document::catalogue_rules;
use crate::logic::engine::{Engine, EngineConfig};
use crate::logic::events::Event;
use crate::logic::researchers::{run_research, Turn};
use crate::logic::world::Problem;
use crate::ui::settings_store::SettingsStore;
use crate::view::proof::research_plan::profile_name;
use crate::view::proof::research_plan::research_config;
use crate::view::proof::research_plan::stop_text;
use crate::view::proof::research_plan::turn_line;
use crate::view::proof::research_plan::with_agents;

/// The panel's fields and what it shows of a run.
#[derive(Clone, Copy)]
pub struct ResearchFields {
    pub profile: RwSignal<String>,
    pub agents: RwSignal<usize>,
    pub rounds: RwSignal<usize>,
    pub running: RwSignal<bool>,
    pub turns: RwSignal<Vec<(bool, String)>>,
    pub status: RwSignal<Option<String>>,
    /// Aborts the running loop: leaving the page drops it, and with it the call in flight,
    /// whose AbortController then aborts the request (`stop`).
    pub abort: StoredValue<Option<AbortHandle>>,
}

impl Default for ResearchFields {
    fn default() -> Self {
        Self::new()
    }
}

impl ResearchFields {
    pub fn new() -> Self {
        ResearchFields {
            profile: RwSignal::new(String::new()),
            agents: RwSignal::new(2),
            rounds: RwSignal::new(6),
            running: RwSignal::new(false),
            turns: RwSignal::new(Vec::new()),
            status: RwSignal::new(None),
            abort: StoredValue::new(None),
        }
    }

    /// Stop a running research run (the page is left).
    pub fn stop(self) {
        if let Some(h) = self.abort.try_get_value().flatten() {
            h.abort();
        }
    }
}

/// Run the researchers on `problem` (None: nothing loaded, say so); `on_events` gets the
/// engine's log after each turn.
pub fn start(
    f: ResearchFields,
    store: &SettingsStore,
    problem: Option<Problem>,
    on_events: impl Fn(Vec<Event>) + Copy + 'static,
) {
    let Some(problem) = problem else {
        f.status.set(Some("Load a problem first.".into()));
        return;
    };
    let settings = store.settings.get_untracked();
    let name = profile_name(f.profile.get_untracked(), settings.profiles.keys().next());
    let endpoint = match settings
        .profile(&name)
        .and_then(|p| settings.endpoint(&p.verify, &|_| None))
    {
        Ok(e) => e,
        Err(e) => {
            f.status.set(Some(crate::view::settings::page_message(&e)));
            return;
        }
    };
    let config = research_config(
        f.agents.get_untracked(),
        f.rounds.get_untracked(),
        settings.defaults.temperature,
    );
    let problem = with_agents(problem, &config);
    f.turns.set(Vec::new());
    f.status.set(Some(format!(
        "running with profile {name} (verify model {})…",
        endpoint.model
    )));
    f.running.set(true);
    let transport = Rc::new(RetryingClient::new(
        BrowserTransport::new(CALL_TIMEOUT_MS),
        RetryPolicy::default(),
    ));
    let (handle, registration) = AbortHandle::new_pair();
    f.abort.set_value(Some(handle));
    let research = async move {
        // Proposals wait for another researcher's accept: the world engine's protocol (docs/logic.md), not auto-accept.
        let mut engine = match Engine::new(problem, EngineConfig::default()) {
            Ok(e) => e,
            Err(e) => {
                f.status.set(Some(format!("problem refused: {e}")));
                f.running.set(false);
                return;
            }
        };
        let rules = catalogue_rules();
        let on_turn = |t: &Turn, e: &Engine| {
            f.turns.update(|v| v.push(turn_line(t)));
            on_events(e.events().to_vec());
        };
        let outcome = run_research(
            &*transport,
            &endpoint,
            &mut engine,
            &config,
            &rules,
            &on_turn,
        )
        .await;
        f.status
            .set(Some(stop_text(outcome.stop, config.max_rounds)));
        f.running.set(false);
    };
    spawn_local(async move {
        let _ = Abortable::new(research, registration).await;
    });
}
