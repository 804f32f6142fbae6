//! The picker of one Compare side: a results file or a kept run, and the profile that takes
//! part; it shows what the side holds and why a file was refused.

use std::sync::Arc;

use leptos::prelude::*;

use crate::band::compare::RunLines;
use crate::band::compare_input;
use crate::runs::RunMeta;
use crate::ui::boxed::part;
use crate::ui::boxed::{on_change, text};
use crate::ui::browser_file::picked_file;
use crate::ui::options::bound_select;
use crate::view::compare::side::kept_option_label;
use crate::view::compare::side::side_id;
use crate::view::compare::side::side_label;

use super::side::Side;

/// The kept runs as options; the side's own is selected (it may come from the URL before
/// the list arrives, so the choice is made when the options are).
fn kept_options(runs: Vec<RunMeta>, chosen: &str) -> Vec<AnyView> {
    runs.into_iter()
        .map(|r| {
            let selected = r.id == chosen;
            let label = kept_option_label(&r, &crate::ui::local_time::local_time(r.created_ms));
            view! { <option value=r.id selected=selected>{label}</option> }.into_any()
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
    let id = side_id(name);
    let shown = move || shown_run(side, fallback);
    let names = move || {
        shown()
            .map(|r| compare_input::profiles(&r))
            .unwrap_or_default()
    };
    let label = text(move || side_label(shown().as_deref()));
    view! {
        <div class="card stack" data-testid=format!("compare-side-{id}")>
            <h2>{format!("Run {name}")}</h2>
            <label>
                "Results JSONL "
                <input
                    type="file"
                    accept=".jsonl,.json,.txt"
                    data-testid=format!("compare-file-{id}")
                    on:change=on_change(move |ev| if let Some(f) = picked_file(&ev) { side.kept.set(String::new()); side.demo.set(false); side.load(f) })
                />
            </label>
            <label>
                "Kept run "
                <select
                    data-testid=format!("compare-run-{id}")
                    on:change=on_change(move |ev| side.load_kept(event_target_value(&ev)))
                >
                    <option value="">"none"</option>
                    {part(move || Some(kept_options(kept.get(), &side.kept.get()).into_any()))}
                </select>
            </label>
            // Only while B has no run of its own (then it is A's).
            {fallback.map(|_| view! {
                {part(move || side.run.with(Option::is_none).then(|| view! { <p class="muted side-note">"Without a file, B is A's file (pick another profile)."</p> }.into_any()))}
            }.into_any())}
            <p class="muted side-note" data-testid=format!("compare-label-{id}")>{label}</p>
            {bound_select("Profile ", format!("compare-profile-{id}"), side.profile, Some("all"), Box::new(names))}
            {part(move || side.error.get().map(|e| view! { <div class="error" role="alert" data-testid=format!("compare-error-{id}")>{e}</div> }.into_any()))}
        </div>
    }
    .into_any()
}
