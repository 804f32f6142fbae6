//! The Extract page's LLM fallback for one solution: when the rules are not confident, ask
//! the profile's verify model for the final answer (a button, or automatically once the text
//! rests), and show both answers, which one the verdict used, the call's cost, and why the
//! confidence was low. A failed call leaves the rule answer in place and says so.

use std::time::Duration;

use leptos::prelude::*;

use crate::ui::boxed::{effect, flag, on_click};

use super::asker::{Asker, SingleResult};
use super::controls::on_off_box;
use super::controls::preset_of;
use super::fallback_single_view::outcome_view;
use super::verify_model::profile_signal;
use super::verify_model::ProfilePicker;
use crate::extract::{needs_fallback_for, AnswerPatterns};
use crate::ui::boxed::part;
use crate::ui::drafts_store::draft_signal;

/// Quiet time before an automatic ask, so typing does not send a call per keystroke.
const AUTO_DELAY_MS: u64 = 800;

#[component]
pub fn SingleFallback(
    result: SingleResult,
    question: RwSignal<String>,
    gold: RwSignal<String>,
    strict: RwSignal<bool>,
    patterns: Memo<AnswerPatterns>,
) -> impl IntoView {
    let auto = draft_signal("extract", "llm_auto", || String::from("off"));
    let a = Asker {
        result,
        question,
        patterns,
        profile: profile_signal("extract"),
        asked: RwSignal::new(None),
        abort: StoredValue::new(None),
        generation: StoredValue::new(0u64),
        timer: StoredValue::new(None),
    };
    let needs = Memo::new(move |_| {
        result.with(|(t, rule, _, _)| !t.trim().is_empty() && needs_fallback_for(t, rule.as_ref()))
    });
    // Ask automatically once the text rests, when the setting is on and the rules are unsure.
    effect(move || {
        let on = auto.get() == "on" && needs.get();
        let k = (result.with(|r| r.0.clone()), question.get());
        if let Some(t) = a.timer.get_value() {
            t.clear();
        }
        let done = a
            .asked
            .with_untracked(|x| x.as_ref().is_some_and(|(ak, _)| *ak == k));
        if on && !done {
            let h = set_timeout_with_handle(move || a.ask(), Duration::from_millis(AUTO_DELAY_MS));
            a.timer.set_value(h.ok());
        }
    });
    // Leaving the page aborts the call in flight (its fetch through the AbortController).
    on_cleanup(move || a.stop());

    let body = move || -> AnyView {
        let preset = preset_of(strict.get());
        let state = a.current();
        gold.with(|g| {
            question.with(|q| {
                result.with(|(_, rule, _, _)| {
                    patterns.with(|p| outcome_view(rule.as_ref(), state, g, q, preset, p))
                })
            })
        })
    };
    part(move || {
        needs.get().then(|| {
            view! {
                <div class="stack fallback" data-testid="fallback-single">
                    <h3>"LLM fallback"</h3>
                    <div class="row">
                        <ProfilePicker profile=a.profile testid="fallback-profile"/>
                        <button
                            data-testid="fallback-ask"
                            disabled=flag(move || a.running())
                            on:click=on_click(move |_| a.ask())
                        >"Ask the verify model"</button>
                        {part(move || a.running().then(|| view! {
                            <button data-testid="fallback-cancel" on:click=on_click(move |_| a.stop())>"Cancel"</button>
                        }.into_any()))}
                        {on_off_box(auto, "fallback-auto", "Ask automatically when the rules are unsure")}
                    </div>
                    {part(move || Some(body()))}
                </div>
            }
            .into_any()
        })
    })
}
