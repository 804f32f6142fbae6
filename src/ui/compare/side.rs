//! One side of a comparison: a results file (or, for side B, the same file as A) and which
//! of its profiles takes part.

use std::sync::Arc;

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::band::compare::RunLines;
use crate::band::compare_input::{self, CompareInput};
use crate::ui::browser_file::{picked_file, read_slice};

/// What a side holds. `run` is `None` until a file is read (side B then uses A's).
#[derive(Clone, Copy)]
pub struct Side {
    pub run: RwSignal<Option<Arc<RunLines>>>,
    /// The chosen profile; empty = every line.
    pub profile: RwSignal<String>,
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
            error: RwSignal::new(None),
        }
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

/// `name` is "A" or "B"; `fallback` is the run this side uses without a file of its own.
pub fn side_picker(name: &'static str, side: Side, fallback: Option<Side>) -> AnyView {
    let id: &'static str = if name == "A" { "a" } else { "b" };
    let shown = move || {
        side.run
            .get()
            .or_else(|| fallback.and_then(|f| f.run.get()))
    };
    let names = move || {
        shown()
            .map(|r| compare_input::profiles(&r))
            .unwrap_or_default()
    };
    let label = move || {
        shown().map_or("no file yet".to_string(), |r| {
            format!("{} ({} results)", r.label, r.records.len())
        })
    };
    view! {
        <div class="card stack" data-testid=format!("compare-side-{id}")>
            <h2>{format!("Run {name}")}</h2>
            <label>
                "Results JSONL "
                <input
                    type="file"
                    accept=".jsonl,.json,.txt"
                    data-testid=format!("compare-file-{id}")
                    on:change=move |ev| if let Some(f) = picked_file(&ev) { side.load(f) }
                />
            </label>
            {fallback.map(|_| view! { <span class="muted">"Without a file, B is A's file (pick another profile)."</span> }.into_any())}
            <span class="muted" data-testid=format!("compare-label-{id}")>{label}</span>
            <label>
                "Profile "
                <select
                    data-testid=format!("compare-profile-{id}")
                    prop:value=move || side.profile.get()
                    on:change=move |ev| side.profile.set(event_target_value(&ev))
                >
                    <option value="">"all"</option>
                    {move || names().into_iter().map(|n| view! { <option value=n.clone()>{n.clone()}</option> }.into_any()).collect::<Vec<_>>()}
                </select>
            </label>
            {move || side.error.get().map(|e| view! { <div class="error" role="alert" data-testid=format!("compare-error-{id}")>{e}</div> }.into_any())}
        </div>
    }
    .into_any()
}
