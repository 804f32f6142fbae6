use std::sync::Arc;
use std::time::Duration;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::logic::dag::{layout_window, Dag};
use crate::logic::document::{fits_in_a_tab, load, Loaded};
use crate::logic::engine::{Action, Engine, EngineConfig};
use crate::logic::events::{code_str, Event};
use crate::logic::fitch::{creating_step, layout as fitch_layout, Fitch, FitchOptions};
use crate::logic::fitch_export::{to_latex, to_markdown};
use crate::logic::replay::{EventLog, Replayer};
use crate::logic::stepper_keys::{step_key, KeyTarget, StepKey};
use crate::logic::world::{Problem, WorldState};
use crate::ui::browser_file::{fetch_example, now_ms};
use crate::ui::download::download_text;
use crate::ui::drafts_store::{self, draft_signal};
use crate::ui::math_text::MathText;
use crate::ui::proof_dag::ProofDag;
use crate::ui::proof_fitch::ProofFitch;
use crate::ui::proof_form::{ActionRequest, ProofForm};
use crate::ui::proof_panels::ProofPanels;
use crate::ui::query;
use crate::ui::research_panel::ResearchPanel;

/// The examples in `public/examples/`: key, title, file (fetched when picked).
const EXAMPLES: &[(&str, &str, &str)] = &[
    (
        "seed",
        "Design note: a + b > 0 (two researchers)",
        "proof-seed-a-plus-b.json",
    ),
    ("or-elim", "Proof by cases (∨E)", "proof-or-elim.json"),
    (
        "exists-unique",
        "∃E, ↔I, ∀I with nested assumptions",
        "proof-exists-unique.json",
    ),
    ("linarith", "Linear arithmetic", "proof-linarith.json"),
    (
        "wrong-instantiation",
        "A wrong ∀E and the steps it blocks",
        "proof-wrong-instantiation.json",
    ),
    (
        "circular-goal",
        "Citing the goal (circular)",
        "proof-circular-goal.json",
    ),
];

/// Nodes the DAG draws at most: past that it shows the current step's ancestry and the latest
/// items (and says how many it left out).
const DAG_NODES: usize = 40;
/// Lines the Fitch view draws at most, centred on the current one.
const FITCH_LINES: usize = 40;

/// A loaded derivation and its stepper.
struct Session {
    problem: Problem,
    config: EngineConfig,
    replayer: Replayer,
    warnings: Vec<String>,
}

impl Session {
    fn new(loaded: Loaded) -> Self {
        Session {
            replayer: Replayer::new(loaded.problem.clone(), loaded.events),
            problem: loaded.problem,
            config: loaded.config,
            warnings: loaded.warnings,
        }
    }
}

fn math(latex: &str) -> String {
    format!("${}$", latex.trim().trim_matches('$').trim())
}

fn event_card(step: usize, total: usize, event: Option<Event>) -> AnyView {
    let Some(event) = event else {
        return view! {
            <p class="muted">{format!("Step 0 of {total}: the problem as given. Press → (or Space to play) to replay.")}</p>
        }
        .into_any();
    };
    let kind = event.event_type();
    let detail = match &event {
        Event::Proposal { content, .. } => view! {
            <div>
                <MathText text=math(&content.latex)/>
                <div class="muted">{format!("{} by {} from [{}]", content.proposal_id, content.rule, content.premises.join(", "))}</div>
            </div>
        }
        .into_any(),
        Event::Accepted { content, .. } => view! {
            <div>
                <MathText text=math(&content.latex)/>
                <div class="muted">{format!(
                    "{} accepted: {} from [{}], proposed by {}, verified by {}{}",
                    content.conclusion_id, content.rule, content.derived_from.join(", "),
                    content.proposed_by, content.verified_by,
                    if content.depends_on.is_empty() { String::new() } else { format!("; rests on {}", content.depends_on.join(", ")) }
                )}</div>
            </div>
        }
        .into_any(),
        Event::Rejected { content, .. } | Event::Blocked { content, .. } => view! {
            <div>
                {(!content.latex.is_empty()).then(|| view! { <MathText text=math(&content.latex)/> }.into_any())}
                <div class="error">{format!("{}: {}", code_str(content.code), content.message)}</div>
            </div>
        }
        .into_any(),
        // The summary line above already says all there is.
        _ => ().into_any(),
    };
    let badge = match kind {
        "ACCEPTED" | "GOAL_PROVED" => "badge ok",
        "REJECTED" | "BLOCKED" | "RETRACTED" => "badge error",
        _ => "badge",
    };
    view! {
        <div>
            <div class="row">
                <strong>{format!("Step {step} of {total}")}</strong>" "
                <span class=badge data-testid="proof-event-type">{kind}</span>" "
                <span class="muted">{event.source().to_string()}</span>
            </div>
            <p>{event.summary()}</p>
            {detail}
        </div>
    }
    .into_any()
}

/// Step through a logic world derivation: every proposal, acceptance and rejection, with
/// formulas rendered and the proof DAG.
#[component]
pub fn ProofPage() -> impl IntoView {
    let session = RwSignal::new(None::<Arc<Session>>);
    let step = RwSignal::new(0usize);
    let error = RwSignal::new(None::<String>);
    let notice = RwSignal::new(None::<String>);
    let playing = RwSignal::new(false);
    let interval = StoredValue::new_local(None::<IntervalHandle>);
    let pasted = draft_signal("proof", "pasted", String::new);
    let example_key = RwSignal::new(String::new());

    let total = move || session.with(|s| s.as_ref().map_or(0, |s| s.replayer.len()));
    // The notice says where loading time went (JSON vs replay), which is what a user of a huge
    // log wants to know.
    let open = move |text: &str, name: &str| {
        let started = now_ms();
        let loaded = match load(text) {
            Ok(loaded) => loaded,
            Err(e) => return error.set(Some(format!("{name}: {e}"))),
        };
        let parsed = now_ms();
        let s = Session::new(loaded);
        let mut note = format!(
            "{name}: {} events (JSON {:.0} ms, replay and snapshots {:.0} ms)",
            s.replayer.len(),
            parsed - started,
            now_ms() - parsed
        );
        if !s.warnings.is_empty() {
            note.push_str(&format!(" ({})", s.warnings.join("; ")));
        }
        notice.set(Some(note));
        error.set(None);
        step.set(0);
        session.set(Some(Arc::new(s)));
    };

    // Every recomputation is a new step or session: skip the equality check, which on a
    // 50,000-item world would cost more than the replay itself.
    let state = Memo::new_with_compare(
        move |_| {
            session.with(|s| {
                s.as_ref()
                    .map(|s| s.replayer.state_at(step.get()))
                    .unwrap_or_default()
            })
        },
        |_, _| true,
    );
    let current_event = Memo::new(move |_| {
        session.with(|s| {
            s.as_ref()
                .and_then(|s| s.replayer.event_before(step.get()).cloned())
        })
    });
    let dag = Memo::new(move |_| {
        let focus =
            current_event.with(|e| e.as_ref().and_then(|e| e.subject_id().map(str::to_string)));
        state.with(|st| layout_window(st, focus.as_deref(), DAG_NODES))
    });
    let fitch = Memo::new(move |_| {
        let focus =
            current_event.with(|e| e.as_ref().and_then(|e| e.subject_id().map(str::to_string)));
        state.with(|st| {
            fitch_layout(
                st,
                &FitchOptions {
                    focus: focus.as_deref(),
                    window: FITCH_LINES,
                    ..Default::default()
                },
            )
        })
    });
    let state_signal: Signal<WorldState> = state.into();
    let dag_signal: Signal<Dag> = dag.into();
    let fitch_signal: Signal<Fitch> = fitch.into();
    // A click on a DAG node or a Fitch line: the step that proposed it (hypotheses: step 0).
    let on_pick = Callback::new(move |id: String| {
        let to = session.with_untracked(|s| {
            s.as_ref()
                .map_or(0, |s| creating_step(s.replayer.events(), &id).unwrap_or(0))
        });
        step.set(to);
    });

    let go = move |to: usize| step.set(to.min(total()));
    let stop = move || {
        playing.set(false);
        if let Some(h) = interval.get_value() {
            h.clear();
        }
        interval.set_value(None);
    };
    let toggle_play = move || {
        if playing.get_untracked() {
            stop();
            return;
        }
        if step.get_untracked() >= total() {
            step.set(0);
        }
        playing.set(true);
        let handle = set_interval_with_handle(
            move || {
                if step.get_untracked() >= total() {
                    stop();
                } else {
                    step.update(|s| *s += 1);
                }
            },
            Duration::from_millis(700),
        );
        interval.set_value(handle.ok());
    };
    on_cleanup(move || {
        if let Some(h) = interval.get_value() {
            h.clear();
        }
    });

    let keys = window_event_listener(leptos::ev::keydown, move |ev: web_sys::KeyboardEvent| {
        if session.with_untracked(|s| s.is_none()) {
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
        match command {
            StepKey::Prev => step.update(|s| *s = s.saturating_sub(1)),
            StepKey::Next => go(step.get_untracked() + 1),
            StepKey::First => go(0),
            StepKey::Last => go(total()),
            StepKey::TogglePlay => toggle_play(),
        }
    });
    on_cleanup(move || keys.remove());

    // The loaded bundled example and its step are kept as drafts: back on this page (or after
    // a reload) the same example opens at the same step.
    let open_example = move |key: String, at: Option<usize>| {
        let Some(&(_, title, file)) = EXAMPLES.iter().find(|(k, _, _)| *k == key) else {
            return;
        };
        example_key.set(key.clone());
        drafts_store::write("proof", "example", &key);
        leptos::task::spawn_local(async move {
            match fetch_example(file).await {
                Ok(text) => {
                    open(&text, title);
                    if let Some(at) = at {
                        go(at);
                    }
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    // A link (`proof?example=…&step=12`) wins over the kept draft.
    let linked = query::current();
    if let Some(key) = linked.example.clone() {
        open_example(key, linked.step.map(|s| s as usize));
    } else if let Some(key) = drafts_store::read("proof", "example").filter(|k| !k.is_empty()) {
        let at = drafts_store::read("proof", "step").and_then(|s| s.parse().ok());
        open_example(key, at);
    }
    // The URL says which example and step are shown (replaced in place, so stepping does
    // not fill the history).
    Effect::new(move |_| {
        let at = step.get();
        let key = example_key.get();
        if session.with_untracked(Option::is_none) {
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
    });

    let forget_example = move || {
        example_key.set(String::new());
        drafts_store::write("proof", "example", "");
    };
    let upload = move |ev: web_sys::Event| {
        let Some(file) = crate::ui::browser_file::picked_file(&ev) else {
            return;
        };
        if let Err(e) = fits_in_a_tab(file.size()) {
            error.set(Some(format!("{}: {e}", file.name())));
            return;
        }
        leptos::task::spawn_local(async move {
            match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                Ok(text) => {
                    forget_example();
                    open(&text.as_string().unwrap_or_default(), &file.name())
                }
                Err(_) => error.set(Some(format!("could not read {}", file.name()))),
            }
        });
    };

    let export_log = move |_| {
        let Some(s) = session.get_untracked() else {
            return;
        };
        let log = EventLog::new(s.problem.clone(), s.replayer.events().to_vec());
        match serde_json::to_string_pretty(&log) {
            Ok(text) => {
                if let Err(e) = download_text("proof-events.json", "application/json", &text) {
                    error.set(Some(e));
                }
            }
            Err(e) => error.set(Some(format!("could not export: {e}"))),
        }
    };
    // The Fitch proof (accepted lines) at the last step, for fitch.sty or as Markdown.
    let export_proof = move |markdown: bool| {
        let Some(s) = session.get_untracked() else {
            return;
        };
        let end = s.replayer.state_at(s.replayer.len());
        let (file, mime, text) = if markdown {
            ("proof.md", "text/markdown", to_markdown(&end))
        } else {
            ("proof.tex", "application/x-tex", to_latex(&end))
        };
        if let Err(e) = download_text(file, mime, &text) {
            error.set(Some(e));
        }
    };

    // The action form: continue the loaded derivation with one more action.
    let on_action = Callback::new(move |(agent, kind, params): ActionRequest| {
        let Some(s) = session.get_untracked() else {
            return (false, "load a problem first".to_string());
        };
        let agent = if agent.is_empty() {
            s.problem.agents.first().cloned().unwrap_or_default()
        } else {
            agent
        };
        let mut engine = match Engine::from_log(s.problem.clone(), s.config, s.replayer.events()) {
            Ok(e) => e,
            Err(e) => return (false, format!("this log cannot be continued: {e}")),
        };
        let outcome = engine.submit(&Action::new(&agent, &kind, params));
        let verdict = match &outcome.result {
            Ok(id) => (true, format!("{kind}: {id}")),
            Err(r) => (false, format!("{}: {}", code_str(r.code), r.message)),
        };
        let next = Session {
            problem: s.problem.clone(),
            config: s.config,
            replayer: Replayer::new(s.problem.clone(), engine.events().to_vec()),
            warnings: s.warnings.clone(),
        };
        let end = next.replayer.len();
        session.set(Some(Arc::new(next)));
        step.set(end);
        verdict
    });
    let agents = Signal::derive(move || {
        session.with(|s| {
            s.as_ref()
                .map(|s| s.problem.agents.clone())
                .unwrap_or_default()
        })
    });

    // Live researchers replace the log with the engine's as each turn lands.
    let research_problem =
        Signal::derive(move || session.with(|s| s.as_ref().map(|s| s.problem.clone())));
    let on_research_events = Callback::new(move |events: Vec<Event>| {
        let Some(s) = session.get_untracked() else {
            return;
        };
        let next = Session {
            problem: s.problem.clone(),
            config: EngineConfig::default(),
            replayer: Replayer::new(s.problem.clone(), events),
            warnings: s.warnings.clone(),
        };
        let end = next.replayer.len();
        session.set(Some(Arc::new(next)));
        step.set(end);
    });

    // Built once when a session opens, not at every step: the panels below keep their own state.
    let has_session = Memo::new(move |_| session.with(|s| s.is_some()));
    view! {
        <section data-testid="page-proof">
            <h1>"Proof stepper"</h1>
            <p class="lead">"Step through a logic world derivation: every proposal, acceptance and rejection, with formulas rendered and the proof DAG."</p>

            <div class="card stack">
                <div class="row">
                    <label>"Example "
                        <select data-testid="proof-example" prop:value=move || example_key.get()
                            on:change=move |ev| {
                                // Leave the picker, so ←/→ step the proof rather than pick the next example.
                                if let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) {
                                    let _ = el.blur();
                                }
                                open_example(event_target_value(&ev), None)
                            }>
                            <option value="">"Choose an example…"</option>
                            {EXAMPLES.iter().map(|(key, title, _)| view! { <option value=*key>{*title}</option> }.into_any()).collect_view()}
                        </select>
                    </label>
                    <label>"or a file (problem or event log JSON) "
                        <input type="file" accept=".json,application/json" data-testid="proof-file" on:change=upload/>
                    </label>
                </div>
                <details>
                    <summary>"Paste JSON"</summary>
                    <textarea rows="6" aria-label="Problem or event log JSON" data-testid="proof-paste" prop:value=move || pasted.get()
                        on:input=move |ev| pasted.set(event_target_value(&ev))></textarea>
                    <button data-testid="proof-paste-load" on:click=move |_| {
                        forget_example();
                        open(&pasted.get_untracked(), "pasted text")
                    }>"Load pasted"</button>
                </details>
                {move || error.get().map(|e| view! { <p class="error" data-testid="proof-error">{e}</p> }.into_any())}
                {move || notice.get().map(|n| view! { <p class="muted" data-testid="proof-notice">{n}</p> }.into_any())}
            </div>

            {move || has_session.get().then(|| view! {
                <div class="card stack proof-controls">
                    <div class="row">
                        <button data-testid="proof-first" on:click=move |_| go(0)>"⏮ First"</button>
                        <button data-testid="proof-prev" on:click=move |_| step.update(|s| *s = s.saturating_sub(1))>"◀ Prev"</button>
                        <button data-testid="proof-next" on:click=move |_| go(step.get_untracked() + 1)>"Next ▶"</button>
                        <button data-testid="proof-last" on:click=move |_| go(total())>"Last ⏭"</button>
                        <button data-testid="proof-play" on:click=move |_| toggle_play()>{move || String::from(if playing.get() { "Pause" } else { "Autoplay" })}</button>
                        <input type="range" min="0" max=move || total().to_string() data-testid="proof-step"
                            aria-label="step" prop:value=move || step.get().to_string()
                            on:input=move |ev| go(event_target_value(&ev).parse().unwrap_or(0))/>
                        <span data-testid="proof-step-label">{move || format!("{} / {}", step.get(), total())}</span>
                        <span class="muted small">"Keys: ← → step, Home / End, Space plays"</span>
                    </div>
                    <div class="proof-event" data-testid="proof-event">
                        {move || event_card(step.get(), total(), current_event.get())}
                    </div>
                    <div class="row">
                        <button data-testid="proof-export-log" on:click=export_log>"Export event log (JSON)"</button>
                        <button data-testid="proof-export-latex" on:click=move |_| export_proof(false)>"Export proof (LaTeX, fitch.sty)"</button>
                        <button data-testid="proof-export-markdown" on:click=move |_| export_proof(true)>"Export proof (Markdown)"</button>
                    </div>
                </div>

                <div class="proof-views">
                    <ProofFitch fitch=fitch_signal on_pick=on_pick/>
                    <ProofDag dag=dag_signal on_pick=on_pick/>
                </div>
                <ProofPanels state=state_signal/>

                <ResearchPanel problem=research_problem on_events=on_research_events/>
                <ProofForm agents=agents on_action=on_action/>
            }.into_any())}
        </section>
    }
}
