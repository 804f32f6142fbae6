//! Compare two runs case by case (the way Braintrust compares experiments): two results
//! files, two profiles of one file, or the Report page's file against another. Every
//! number comes from `crate::band::compare`; inputs are `CompareInput`s, so a stored run
//! can be a side too: a kept run (batch or report) from the run store. The chosen profiles
//! and kept runs are in the URL (`compare?a=…&b=…&ra=<id>&rb=<id>`), so a reload or a
//! shared link shows the same comparison.

pub mod handoff;
pub mod side;
pub mod side_picker;
pub mod summary;
pub mod table;

use std::sync::Arc;

use crate::ui::boxed::effect;
use crate::ui::boxed::part;
use leptos::prelude::*;

use crate::band::compare::Selection;
use crate::band::compare_input::{compare_runs, kept_choices};
use crate::ui::query;
use crate::ui::run_store;
use side::Side;
use side_picker::side_picker;

fn selection(profile: String) -> Selection {
    Selection {
        profile: (!profile.is_empty()).then_some(profile),
    }
}

#[component]
pub fn ComparePage() -> impl IntoView {
    let a = Side::new();
    let b = Side::new();
    let error = RwSignal::new(None::<String>);
    let now = query::current();
    let param = |key: &str| {
        now.unknown
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    };
    a.profile.set(param("a").unwrap_or_default());
    b.profile.set(param("b").unwrap_or_default());
    for (side, key) in [(a, "ra"), (b, "rb")] {
        if let Some(id) = param(key).filter(|id| !id.is_empty()) {
            side.load_kept(id);
        }
    }
    if let Some(f) = handoff::take() {
        a.kept.set(String::new());
        a.load(f);
    }
    let kept = RwSignal::new(Vec::new());
    leptos::task::spawn_local(async move {
        match run_store::list().await {
            Ok((all, _)) => kept.set(kept_choices(&all)),
            Err(e) => error.set(Some(format!("Kept runs could not be listed: {e}"))),
        }
    });
    // The chosen profiles and kept runs go into the URL, so the view can be linked.
    effect(move || {
        let (pa, pb) = (a.profile.get(), b.profile.get());
        let (ra, rb) = (a.kept.get(), b.kept.get());
        let mut v = query::current();
        v.unknown
            .retain(|(k, _)| !["a", "b", "ra", "rb"].contains(&k.as_str()));
        for (k, p) in [("a", pa), ("b", pb), ("ra", ra), ("rb", rb)] {
            if !p.is_empty() {
                v.unknown.push((k.to_string(), p));
            }
        }
        query::set(&v, false);
    });
    // Worked out again by the view below when a side or a profile changes (no memo: one
    // less reactive value type in the wasm; the view is the only reader).
    let comparison = move || {
        let ra = a.run.get()?;
        let rb = b.run.get().unwrap_or_else(|| ra.clone());
        let (sa, sb) = (selection(a.profile.get()), selection(b.profile.get()));
        if Arc::ptr_eq(&ra, &rb) && sa == sb {
            return Some(Err("Both sides are the same lines: pick another file for B, or a different profile on each side.".to_string()));
        }
        Some(
            compare_runs(&ra, &sa, &rb, &sb)
                .map(Arc::new)
                .map_err(|e| e.to_string()),
        )
    };
    view! {
        <section data-testid="page-compare" class="compare">
            <h1>"Compare runs"</h1>
            <p class="lead">
                "Two runs of the same cases, case by case: which cases crossed bands, which improved or regressed, and whether the cross-band rate really changed (exact McNemar test on the paired cases). Pick two results files or two kept runs, or one of them and a profile on each side. Files never leave your browser."
            </p>
            <div class="grid">
                {side_picker("A", a, None, kept)}
                {side_picker("B", b, Some(a), kept)}
            </div>
            {part(move || error.get().map(|e| view! { <div class="error" role="alert">{e}</div> }.into_any()))}
            {part(move || Some(match comparison() {
                None => view! { <p class="muted" data-testid="compare-empty">"Pick run A's results file to begin."</p> }.into_any(),
                Some(Err(e)) => view! { <div class="error" role="alert" data-testid="compare-error">{e}</div> }.into_any(),
                Some(Ok(c)) => view! {
                    {summary::summary_view(c.clone(), error)}
                    {table::paired_table(c)}
                }
                .into_any(),
            }))}
        </section>
    }
}
