//! One side of a comparison: a results file or a kept run (or, for side B, the same as A)
//! and which of its profiles takes part.

use std::sync::Arc;

use crate::ui::boxed::{on_change, text};
use crate::ui::options::options;
use crate::ui::report::dynamic::dyn_view;
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::band::compare::RunLines;
use crate::band::compare_input::{self, CompareInput};
use crate::runs::RunMeta;
use crate::ui::browser_file::{picked_file, read_slice};
use crate::ui::run_file;

/// What a side holds. `run` is `None` until a file is read (side B then uses A's).
#[derive(Clone, Copy)]
pub struct Side {
    pub run: RwSignal<Option<Arc<RunLines>>>,
    /// The chosen profile; empty = every line.
    pub profile: RwSignal<String>,
    /// The kept run shown (its id, as in the URL); empty = a picked file or nothing.
    pub kept: RwSignal<String>,
    pub error: RwSignal<Option<String>>,
}

impl Default for Side {
    fn default() -> Self {
        Self::new()
    }
}

impl Side {
    pub fn new() -> Self {
        Side {
            run: RwSignal::new(None),
            profile: RwSignal::new(String::new()),
            kept: RwSignal::new(String::new()),
            error: RwSignal::new(None),
        }
    }

    /// Show kept run `id` (from the run store) on this side; empty: none (B then uses A's).
    pub fn load_kept(self, id: String) {
        self.kept.set(id.clone());
        if id.is_empty() {
            self.run.set(None);
            self.error.set(None);
            return;
        }
        spawn_local(async move {
            match run_file::open(&id).await {
                // A later choice wins over this one.
                Ok((_, f)) if self.kept.get_untracked() == id => self.load(f),
                Ok(_) => {}
                Err(e) => {
                    self.run.set(None);
                    self.error.set(Some(format!("Kept run {id}: {e}")));
                }
            }
        });
    }

    /// Read a file as this side's input, or say why it cannot be one.
    pub fn load(self, f: web_sys::File) {
        self.error.set(None);
        spawn_local(async move {
            let text = match read_slice(&f, 0.0, f.size()).await {
                Ok(bytes) => String::from_utf8(bytes)
                    .map_err(|_| format!("{}: this is not JSONL (not UTF-8 text)", f.name())),
                Err(e) => Err(e),
            };
            let run = text.and_then(|jsonl_text| {
                compare_input::read(&CompareInput {
                    label: f.name(),
                    jsonl_text,
                })
                .map_err(|e| e.to_string())
            });
            match run {
                Ok(r) => {
                    let names = compare_input::profiles(&r);
                    if !names.contains(&self.profile.get_untracked()) {
                        self.profile.set(String::new());
                    }
                    self.run.set(Some(Arc::new(r)));
                }
                Err(e) => {
                    self.run.set(None);
                    self.error.set(Some(e));
                }
            }
        });
    }
}

/// The kept runs as options; the side's own is selected (it may come from the URL before
/// the list arrives, so the choice is made when the options are).
fn kept_options(runs: Vec<RunMeta>, chosen: &str) -> Vec<AnyView> {
    runs.into_iter()
        .map(|r| {
            let selected = r.id == chosen;
            view! { <option value=r.id selected=selected>{r.name}</option> }.into_any()
        })
        .collect()
}

/// The run a side shows: its own, or (side B) A's.
fn shown_run(side: Side, fallback: Option<Side>) -> Option<Arc<RunLines>> {
    side.run
        .get()
        .or_else(|| fallback.and_then(|f| f.run.get()))
}

/// `name` is "A" or "B"; `fallback` is the run this side uses without a file of its own.
/// `kept` lists the stored runs a side can be, newest first.
pub fn side_picker(
    name: &'static str,
    side: Side,
    fallback: Option<Side>,
    kept: RwSignal<Vec<RunMeta>>,
) -> AnyView {
    let id: &'static str = if name == "A" { "a" } else { "b" };
    let shown = move || shown_run(side, fallback);
    let names = move || {
        shown()
            .map(|r| compare_input::profiles(&r))
            .unwrap_or_default()
    };
    let label = text(move || {
        shown().map_or("no file yet".to_string(), |r| {
            format!("{} ({} results)", r.label, r.records.len())
        })
    });
    view! {
        <div class="card stack" data-testid=format!("compare-side-{id}")>
            <h2>{format!("Run {name}")}</h2>
            <label>
                "Results JSONL "
                <input
                    type="file"
                    accept=".jsonl,.json,.txt"
                    data-testid=format!("compare-file-{id}")
                    on:change=on_change(move |ev| if let Some(f) = picked_file(&ev) { side.kept.set(String::new()); side.load(f) })
                />
            </label>
            <label>
                "Kept run "
                <select
                    data-testid=format!("compare-run-{id}")
                    on:change=on_change(move |ev| side.load_kept(event_target_value(&ev)))
                >
                    <option value="">"none"</option>
                    {dyn_view(move || Some(kept_options(kept.get(), &side.kept.get()).into_any()))}
                </select>
            </label>
            {fallback.map(|_| view! { <span class="muted">"Without a file, B is A's file (pick another profile)."</span> }.into_any())}
            <span class="muted" data-testid=format!("compare-label-{id}")>{label}</span>
            <label>
                "Profile "
                <select
                    data-testid=format!("compare-profile-{id}")
                    prop:value=text(move || side.profile.get())
                    on:change=on_change(move |ev| side.profile.set(event_target_value(&ev)))
                >
                    <option value="">"all"</option>
                    {dyn_view(move || Some(options(names()).into_any()))}
                </select>
            </label>
            {dyn_view(move || side.error.get().map(|e| view! { <div class="error" role="alert" data-testid=format!("compare-error-{id}")>{e}</div> }.into_any()))}
        </div>
    }
    .into_any()
}
