//! The Proof page's state and every action on it, as methods of one `Copy` handle. Handlers in
//! the views just call these: each body exists once in the wasm instead of being inlined into
//! every closure that uses it (the page used to carry three copies of `open`).

use std::sync::Arc;
use std::time::Duration;

use leptos::prelude::*;

use crate::logic::document::{fits_in_a_tab, load, Loaded};
use crate::logic::engine::{Action, Engine, EngineConfig};
use crate::logic::events::{code_str, Event};
use crate::logic::fitch::creating_step;
use crate::logic::fitch_export::{to_latex, to_markdown};
use crate::logic::replay::{EventLog, Replayer};
use crate::logic::world::Problem;
use crate::ui::browser_file::{fetch_example, now_ms};
use crate::ui::download::download_text;
use crate::ui::drafts_store;
use crate::view::proof::link::{decode_actions, encode_actions, TypedAction};
use crate::view::proof::stepper_keys::StepKey;

/// The examples in `public/examples/`: key, title, file (fetched when picked).
pub const EXAMPLES: &[(&str, &str, &str)] = &[
    (
        "seed",
        "a + b > 0 from a > 0 and b > 0 (two researchers)",
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

/// The drafts of the example the user added actions to, and of those actions (as the URL
/// writes them: `view::proof::link::encode_actions`).
const ACTED_EXAMPLE: &str = "acted_example";
const ACTED_ACTIONS: &str = "acted_actions";

fn forget_actions() {
    drafts_store::write("proof", ACTED_EXAMPLE, "");
    drafts_store::write("proof", ACTED_ACTIONS, "");
}

/// The actions kept as a draft for example `key`, if any.
pub fn kept_actions(key: &str) -> Option<String> {
    (drafts_store::read("proof", ACTED_EXAMPLE).as_deref() == Some(key))
        .then(|| drafts_store::read("proof", ACTED_ACTIONS))
        .flatten()
        .filter(|a| !a.is_empty())
}

/// A loaded derivation and its stepper.
pub struct Session {
    pub problem: Problem,
    pub config: EngineConfig,
    pub replayer: Replayer,
    pub warnings: Vec<String>,
}

/// The page's signals; `Copy`, so every handler captures it whole.
#[derive(Clone, Copy)]
pub struct ProofState {
    pub session: RwSignal<Option<Arc<Session>>>,
    pub step: RwSignal<usize>,
    pub error: RwSignal<Option<String>>,
    pub notice: RwSignal<Option<String>>,
    pub playing: RwSignal<bool>,
    pub interval: StoredValue<Option<IntervalHandle>, LocalStorage>,
    pub example_key: RwSignal<String>,
    /// The actions typed into the form since the derivation was loaded, in order (in the URL
    /// and the draft, so a link or a reload replays them).
    pub typed: RwSignal<Vec<TypedAction>>,
    /// What was loaded ("Proof by cases (∨E)", a file name), for the events line.
    pub loaded_name: StoredValue<String>,
}

impl ProofState {
    pub fn new() -> Self {
        ProofState {
            session: RwSignal::new(None),
            step: RwSignal::new(0),
            error: RwSignal::new(None),
            notice: RwSignal::new(None),
            playing: RwSignal::new(false),
            interval: StoredValue::new_local(None),
            example_key: RwSignal::new(String::new()),
            typed: RwSignal::new(Vec::new()),
            loaded_name: StoredValue::new(String::new()),
        }
    }

    /// Steps in the loaded log (tracked).
    pub fn total(self) -> usize {
        self.session
            .with(|s| s.as_ref().map_or(0, |s| s.replayer.len()))
    }

    pub fn go(self, to: usize) {
        self.step.set(to.min(self.total()));
    }

    /// One stepper command, from a key or a control button.
    pub fn command(self, command: StepKey) {
        match command {
            StepKey::Prev => self.step.update(|s| *s = s.saturating_sub(1)),
            StepKey::Next => self.go(self.step.get_untracked() + 1),
            StepKey::First => self.go(0),
            StepKey::Last => self.go(self.total()),
            StepKey::TogglePlay => self.toggle_play(),
        }
    }

    pub fn stop(self) {
        self.playing.set(false);
        self.clear_interval();
        self.interval.set_value(None);
    }

    pub fn clear_interval(self) {
        if let Some(h) = self.interval.get_value() {
            h.clear();
        }
    }

    fn toggle_play(self) {
        if self.playing.get_untracked() {
            self.stop();
            return;
        }
        if self.step.get_untracked() >= self.total() {
            self.step.set(0);
        }
        self.playing.set(true);
        let handle = set_interval_with_handle(
            move || {
                if self.step.get_untracked() >= self.total() {
                    self.stop();
                } else {
                    self.step.update(|s| *s += 1);
                }
            },
            Duration::from_millis(700),
        );
        self.interval.set_value(handle.ok());
    }

    /// Load a problem or event log. The notice says where loading time went (JSON vs replay),
    /// which is what a user of a huge log wants to know.
    pub fn open(self, text: &str, name: &str) -> bool {
        let started = now_ms();
        let loaded: Loaded = match load(text) {
            Ok(loaded) => loaded,
            Err(e) => {
                self.error.set(Some(format!("{name}: {e}")));
                return false;
            }
        };
        let parsed = now_ms();
        let s = Session {
            replayer: Replayer::new(loaded.problem.clone(), loaded.events),
            problem: loaded.problem,
            config: loaded.config,
            warnings: loaded.warnings,
        };
        let mut note = format!(
            "{name}: {} events (JSON {:.0} ms, replay and snapshots {:.0} ms)",
            s.replayer.len(),
            parsed - started,
            now_ms() - parsed
        );
        if !s.warnings.is_empty() {
            note.push_str(&format!(" ({})", s.warnings.join("; ")));
        }
        self.notice.set(Some(note));
        self.error.set(None);
        self.step.set(0);
        self.session.set(Some(Arc::new(s)));
        self.loaded_name.set_value(name.to_string());
        self.typed.set(Vec::new());
        true
    }

    /// The loaded bundled example and its step are kept as drafts: back on this page (or after
    /// a reload) the same example opens at the same step. `actions` (from a link or the draft,
    /// `encode_actions`' text) are replayed on it, in order, before stepping to `at`.
    pub fn open_example(self, key: String, at: Option<usize>, actions: Option<String>) {
        if key.is_empty() {
            return;
        }
        let Some(&(_, title, file)) = EXAMPLES.iter().find(|(k, _, _)| *k == key) else {
            // A mistyped or outdated link: say so rather than show an empty page.
            self.error.set(Some(format!(
                "There is no example named `{key}`: pick one from the list ({}).",
                EXAMPLES
                    .iter()
                    .map(|(k, _, _)| *k)
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
            return;
        };
        self.example_key.set(key.clone());
        drafts_store::write("proof", "example", &key);
        // Actions typed into this example's form are kept with it (`act`); another example
        // forgets them.
        let actions = match actions.as_deref().map(decode_actions).transpose() {
            Ok(actions) => actions.unwrap_or_default(),
            Err(e) => {
                self.error.set(Some(e));
                Vec::new()
            }
        };
        if actions.is_empty() {
            forget_actions();
        }
        leptos::task::spawn_local(async move {
            match fetch_example(file).await {
                Ok(text) => {
                    if self.open(&text, title) {
                        // Replayed as typed: the engine is deterministic, so a refused action
                        // is refused again and logged as it was.
                        for a in actions {
                            self.act(a.agent, a.kind, a.params);
                        }
                    }
                    if let Some(at) = at {
                        self.go(at);
                    }
                }
                Err(e) => self.error.set(Some(e)),
            }
        });
    }

    pub fn forget_example(self) {
        self.example_key.set(String::new());
        drafts_store::write("proof", "example", "");
        forget_actions();
    }

    /// A load that failed leaves nothing of the previous derivation on screen: the URL (which
    /// no longer names an example) and the page say the same thing.
    pub fn failed_load(self) {
        self.forget_example();
        self.stop();
        self.session.set(None);
        self.step.set(0);
        self.notice.set(None);
        let mut v = crate::ui::query::current();
        v.example = None;
        v.step = None;
        crate::ui::query::set(&v, false);
    }

    pub fn upload(self, ev: web_sys::Event) {
        let Some(file) = crate::ui::browser_file::picked_file(&ev) else {
            return;
        };
        if let Err(e) = fits_in_a_tab(file.size()) {
            self.failed_load();
            self.error.set(Some(format!("{}: {e}", file.name())));
            return;
        }
        leptos::task::spawn_local(async move {
            match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                Ok(text) => {
                    if self.open(&text.as_string().unwrap_or_default(), &file.name()) {
                        self.forget_example();
                    } else {
                        self.failed_load();
                    }
                }
                Err(_) => {
                    self.failed_load();
                    self.error
                        .set(Some(format!("could not read {}", file.name())))
                }
            }
        });
    }

    pub fn export_log(self) {
        let Some(s) = self.session.get_untracked() else {
            return;
        };
        let log = EventLog::new(s.problem.clone(), s.replayer.events().to_vec());
        match serde_json::to_string_pretty(&log) {
            Ok(text) => {
                if let Err(e) = download_text("proof-events.json", "application/json", &text) {
                    self.error.set(Some(e));
                }
            }
            Err(e) => self.error.set(Some(format!("could not export: {e}"))),
        }
    }

    /// The Fitch proof (accepted lines) at the last step, for fitch.sty or as Markdown.
    pub fn export_proof(self, markdown: bool) {
        let Some(s) = self.session.get_untracked() else {
            return;
        };
        let end = s.replayer.state_at(s.replayer.len());
        let (file, mime, text) = if markdown {
            ("proof.md", "text/markdown", to_markdown(&end))
        } else {
            ("proof.tex", "application/x-tex", to_latex(&end))
        };
        if let Err(e) = download_text(file, mime, &text) {
            self.error.set(Some(e));
        }
    }

    /// A click on a DAG node or a Fitch line: the step that proposed it (hypotheses: step 0).
    pub fn pick(self, id: String) {
        let to = self.session.with_untracked(|s| {
            s.as_ref()
                .map_or(0, |s| creating_step(s.replayer.events(), &id).unwrap_or(0))
        });
        self.step.set(to);
    }

    /// Replace the log (same problem) and show its last step; the events line says the new
    /// count.
    fn replace_log(self, s: &Session, config: EngineConfig, events: Vec<Event>) {
        let next = Session {
            problem: s.problem.clone(),
            config,
            replayer: Replayer::new(s.problem.clone(), events),
            warnings: s.warnings.clone(),
        };
        let end = next.replayer.len();
        self.session.set(Some(Arc::new(next)));
        self.step.set(end);
        let name = self.loaded_name.get_value();
        self.notice.set(Some(format!(
            "{name}: {end} events, after the changes made here"
        )));
    }

    /// The action form: continue the loaded derivation with one more action.
    pub fn act(self, agent: String, kind: String, params: serde_json::Value) -> (bool, String) {
        let Some(s) = self.session.get_untracked() else {
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
        let outcome = engine.submit(&Action::new(&agent, &kind, params.clone()));
        let verdict = match &outcome.result {
            Ok(id) => (true, format!("{kind}: {id}")),
            Err(r) => (false, format!("{}: {}", code_str(r.code), r.message)),
        };
        self.replace_log(&s, s.config, engine.events().to_vec());
        // A refused action is an event of the log too: it is kept, so the link replays it.
        self.typed.update(|t| {
            t.push(TypedAction {
                agent,
                kind,
                params,
            })
        });
        self.keep_actions();
        verdict
    }

    /// Keep the example's typed actions as a draft, so a reload (whose URL names the new last
    /// step) shows them. Only for a bundled example: a picked file is not kept.
    fn keep_actions(self) {
        let key = self.example_key.get_untracked();
        if key.is_empty() {
            return;
        }
        if let Some(text) = self.typed.with_untracked(|t| encode_actions(t)) {
            drafts_store::write("proof", ACTED_ACTIONS, &text);
            drafts_store::write("proof", ACTED_EXAMPLE, &key);
        }
    }

    /// Live researchers replace the log with the engine's as each turn lands.
    pub fn research_events(self, events: Vec<Event>) {
        let Some(s) = self.session.get_untracked() else {
            return;
        };
        self.replace_log(&s, EngineConfig::default(), events);
    }
}
