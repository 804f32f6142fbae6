//! Live mode of the Proof page: LLM researchers take turns on the loaded problem; every
//! action goes through the engine, and the resulting event log is handed back to the stepper.

use std::rc::Rc;

use futures::future::{AbortHandle, Abortable};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::llm::browser::BrowserTransport;
use crate::llm::{RetryPolicy, RetryingClient, CALL_TIMEOUT_MS};
use crate::logic::document::catalogue_rules;
use crate::logic::engine::{Engine, EngineConfig};
use crate::logic::events::Event;
use crate::logic::researchers::{run_research, ResearchConfig, StopReason, Turn};
use crate::logic::world::Problem;
use crate::ui::options::options;
use crate::ui::proof_form::bind::{live, number_input, set_to};
use crate::ui::settings_store::settings_store;

fn turn_line(t: &Turn) -> (bool, String) {
    let action = t
        .action
        .as_ref()
        .map_or("(no action)".to_string(), |a| a.action_type.clone());
    match &t.verdict {
        Ok(id) => (
            true,
            format!("round {} · {} · {action} → {id}", t.round, t.agent),
        ),
        Err(why) => (
            false,
            format!("round {} · {} · {action} → {why}", t.round, t.agent),
        ),
    }
}

/// `problem`: the loaded problem (None: nothing loaded; read untracked, when Run is pressed). `on_events`: the engine's log after
/// each turn, so the stepper follows the run live.
#[component]
pub fn ResearchPanel(
    problem: impl Fn() -> Option<Problem> + Copy + 'static,
    on_events: impl Fn(Vec<Event>) + Copy + 'static,
) -> impl IntoView {
    let store = settings_store();
    let profiles = {
        let store = store.clone();
        move || store.profile_names()
    };
    let profile = RwSignal::new(String::new());
    let agents = RwSignal::new(2usize);
    let rounds = RwSignal::new(6usize);
    let running = RwSignal::new(false);
    let turns = RwSignal::new(Vec::<(bool, String)>::new());
    let status = RwSignal::new(None::<String>);
    // Leaving the page (or the page's bundle being unmounted) drops the running loop, and with
    // it the call in flight, whose AbortController then aborts the request.
    let stop = StoredValue::new(None::<AbortHandle>);
    on_cleanup(move || {
        if let Some(h) = stop.try_get_value().flatten() {
            h.abort();
        }
    });

    let run = move |_| {
        let Some(problem) = problem() else {
            status.set(Some("Load a problem first.".into()));
            return;
        };
        let settings = store.settings.get_untracked();
        let name = {
            let p = profile.get_untracked();
            if p.is_empty() {
                settings.profiles.keys().next().cloned().unwrap_or_default()
            } else {
                p
            }
        };
        let endpoint = match settings
            .profile(&name)
            .and_then(|p| settings.endpoint(&p.verify, &|_| None))
        {
            Ok(e) => e,
            Err(e) => {
                status.set(Some(format!(
                    "{e}. Check the profile on the Settings page."
                )));
                return;
            }
        };
        let names: Vec<String> = (1..=agents.get_untracked().clamp(2, 6))
            .map(|i| format!("researcher-{i}"))
            .collect();
        let mut problem = problem;
        for n in &names {
            if !problem.agents.contains(n) {
                problem.agents.push(n.clone());
            }
        }
        let config = ResearchConfig {
            agents: names,
            max_rounds: rounds.get_untracked().clamp(1, 50),
            temperature: settings.defaults.temperature,
            ..Default::default()
        };
        turns.set(Vec::new());
        status.set(Some(format!(
            "running with profile {name} (verify model {})…",
            endpoint.model
        )));
        running.set(true);
        let transport = Rc::new(RetryingClient::new(
            BrowserTransport::new(CALL_TIMEOUT_MS),
            RetryPolicy::default(),
        ));
        let (handle, registration) = AbortHandle::new_pair();
        stop.set_value(Some(handle));
        let research = async move {
            // Proposals wait for another researcher's accept: the seed's protocol, not auto-accept.
            let mut engine = match Engine::new(problem, EngineConfig::default()) {
                Ok(e) => e,
                Err(e) => {
                    status.set(Some(format!("problem refused: {e}")));
                    running.set(false);
                    return;
                }
            };
            let rules = catalogue_rules();
            let on_turn = |t: &Turn, e: &Engine| {
                turns.update(|v| v.push(turn_line(t)));
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
            status.set(Some(match outcome.stop {
                StopReason::AllGoalsProved => "every goal proved".to_string(),
                StopReason::RoundLimit => format!("stopped after {} rounds", config.max_rounds),
                StopReason::NoProgress => "stopped: a whole round without progress".to_string(),
            }));
            running.set(false);
        };
        spawn_local(async move {
            let _ = Abortable::new(research, registration).await;
        });
    };

    view! {
        <details class="card" data-testid="proof-research">
            <summary>"LLM researchers (live)"</summary>
            <p class="muted">
                "Researchers driven by the profile's verify model take turns; the engine checks every action and feeds its verdict back."
            </p>
            <div class="row">
                <label>"Profile"
                    <select data-testid="proof-research-profile" on:change=set_to(profile)>
                        {live(move || options(profiles()))}
                    </select>
                </label>
                <label>"Researchers"
                    {number_input(agents, "2", "6", 2)}
                </label>
                <label>"Rounds"
                    {number_input(rounds, "1", "50", 6)}
                </label>
                <button class="primary" data-testid="proof-research-run" disabled=live(move || running.get()) on:click=crate::ui::boxed::on_click(run)>"Run"</button>
            </div>
            {live(move || status.get().map(|s| view! { <p class="notice" data-testid="proof-research-status">{s}</p> }.into_any()))}
            <ol class="stack" data-testid="proof-research-turns">
                {live(move || turns.get().into_iter().map(|(ok, line)| {
                    let class = if ok { "ok" } else { "muted" };
                    view! { <li class=class>{line}</li> }.into_any()
                }).collect_view())}
            </ol>
        </details>
    }
}
