//! Live mode of the Proof page: LLM researchers take turns on the loaded problem; every
//! action goes through the engine, and the resulting event log is handed back to the stepper.

use leptos::prelude::*;

use super::bind::live;
use super::bind::number_input;
use super::bind::set_to;
use crate::logic::events::Event;
use crate::logic::world::Problem;
use crate::ui::options::options;
use crate::ui::settings_store::settings_store;

use super::research_run::start;
use super::research_run::ResearchFields;

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
    let f = ResearchFields::new();
    let ResearchFields {
        profile,
        agents,
        rounds,
        running,
        turns,
        status,
        ..
    } = f;
    // Leaving the page stops a running research run and its call in flight.
    on_cleanup(move || f.stop());
    let run = move |_| start(f, &store, problem(), on_events);

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
                <button class="primary" data-testid="proof-research-run" disabled=live(move || running.get()) on:click=run>"Run"</button>
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
