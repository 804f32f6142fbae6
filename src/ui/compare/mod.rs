//! Compare two runs case by case (the way Braintrust compares experiments): two results
//! files, two profiles of one file, or the Report page's file against another. Every
//! number comes from `crate::band::compare`; inputs are `CompareInput`s, so a stored run
//! can be a side too: a kept run (batch or report) from the run store. The chosen profiles
//! and kept runs are in the URL (`compare?a=…&b=…&ra=<id>&rb=<id>`), so a reload or a
//! shared link shows the same comparison. A case opened from the table (`case=<id>`, and
//! `profile=<p>` when pairing by profile) shows both sides' texts and findings; opening it
//! is a history entry, so Back closes it and a reload shows it again.

pub mod case_panel;
pub mod handoff;
pub mod side;
pub mod side_picker;
pub mod summary;
pub mod table;

use std::sync::Arc;

use crate::ui::boxed::effect;
use crate::ui::boxed::{on_click, part};
use crate::view::compare::side::{DEMO_NOTE, DEMO_PROFILES};
use crate::view::report::load::DEMO;
use leptos::prelude::*;

use crate::band::compare::Selection;
use crate::band::compare_input::{compare_runs, kept_choices};
use crate::ui::query;
use crate::ui::run_store;
use crate::view::compare::case::OpenCase;
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
    let mut a_named = false;
    for (side, key) in [(a, "ra"), (b, "rb")] {
        if let Some(id) = param(key).filter(|id| !id.is_empty()) {
            a_named |= key == "ra";
            side.load_kept(id);
        }
    }
    // Report's "Compare with…" names its kept run in the link (`ra`); only a file that could
    // not be kept comes in memory.
    let handed = handoff::take();
    if let Some(f) = handed.filter(|_| !a_named) {
        a.kept.set(String::new());
        a.load(f);
    } else if !a_named && now.example.as_deref() == Some(DEMO) {
        if a.profile.get_untracked().is_empty() && b.profile.get_untracked().is_empty() {
            a.profile.set(DEMO_PROFILES[0].into());
            b.profile.set(DEMO_PROFILES[1].into());
        }
        a.load_demo();
    }
    let open = RwSignal::new(OpenCase::from_view(&now));
    query::on_history_move(move |v| open.set(OpenCase::from_view(&v)));
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
        let demo = a.demo.get();
        let case = open.get();
        let mut v = query::current();
        // Opening a case is a new entry (Back closes it); another case or close replaces it.
        let opened = v.case.is_none() && case.is_some();
        OpenCase::to_view(case.as_ref(), &mut v);
        v.example = demo.then(|| DEMO.to_string());
        v.unknown
            .retain(|(k, _)| !["a", "b", "ra", "rb"].contains(&k.as_str()));
        for (k, p) in [("a", pa), ("b", pb), ("ra", ra), ("rb", rb)] {
            if !p.is_empty() {
                v.unknown.push((k.to_string(), p));
            }
        }
        query::set(&v, opened);
    });
    // Worked out again by the view below when a side or a profile changes (no memo: one
    // less reactive value type in the wasm; the view is the only reader).
    let comparison = move || {
        let ra = a.run.get()?;
        let b_picked = b.run.with(Option::is_some);
        let rb = b.run.get().unwrap_or_else(|| ra.clone());
        let (sa, sb) = (selection(a.profile.get()), selection(b.profile.get()));
        if Arc::ptr_eq(&ra, &rb) && sa == sb {
            // Nothing picked for B yet (say, Compare from Runs): what to do next, not an error.
            if !b_picked {
                return Some(Err((
                    false,
                    "Now pick B: another results file or kept run, or a profile on each side."
                        .to_string(),
                )));
            }
            return Some(Err((true, "Both sides are the same lines: pick another file for B, or a different profile on each side.".to_string())));
        }
        Some(
            compare_runs(&ra, &sa, &rb, &sb)
                .map(Arc::new)
                .map_err(|e| (true, e.to_string())),
        )
    };
    view! {
        <section data-testid="page-compare" class="compare">
            <h1>"Compare runs"</h1>
            <p class="lead">
                "Two runs of the same cases, case by case: which cases crossed bands, which improved or regressed, and whether the cross-band rate really changed (exact McNemar test on the paired cases). Pick two results files or two kept runs, or one of them and a profile on each side; then open a case to see both runs' texts and findings side by side. Files never leave your browser."
            </p>
            <div class="grid">
                {side_picker("A", a, None, kept)}
                {side_picker("B", b, Some(a), kept)}
            </div>
            {part(move || a.demo.get().then(|| view! { <div class="notice demo" data-testid="compare-demo">{DEMO_NOTE}</div> }.into_any()))}
            {part(move || error.get().map(|e| view! { <div class="error" role="alert">{e}</div> }.into_any()))}
            {part(move || Some(match comparison() {
                None => view! {
                    <div class="card stack empty-state" data-testid="compare-empty">
                        <p>"Pick run A's results file or kept run to begin (and B's, or a profile on each side)."</p>
                        <div class="row">
                            <button class="primary" data-testid="compare-open-demo" on:click=on_click(move |_| {
                                a.profile.set(DEMO_PROFILES[0].into());
                                b.profile.set(DEMO_PROFILES[1].into());
                                b.load_kept(String::new());
                                a.load_demo();
                            })>"Compare the demo's two profiles"</button>
                            <span class="muted">"Sample results bundled with the app; no server needed."</span>
                        </div>
                    </div>
                }.into_any(),
                Some(Err((true, e))) => view! { <div class="error" role="alert" data-testid="compare-error">{e}</div> }.into_any(),
                Some(Err((false, e))) => view! { <div class="notice" data-testid="compare-pick-b">{e}</div> }.into_any(),
                Some(Ok(c)) => view! {
                    {summary::summary_view(c.clone(), error)}
                    {case_panel::case_panel(c.clone(), open, a, b)}
                    {table::paired_table(c, open)}
                }
                .into_any(),
            }))}
        </section>
    }
}
