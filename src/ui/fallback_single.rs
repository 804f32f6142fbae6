//! The Extract page's LLM fallback for one solution: when the rules are not confident, ask
//! the profile's verify model for the final answer (a button, or automatically once the text
//! rests), and show both answers, which one the verdict used, the call's cost, and why the
//! confidence was low. A failed call leaves the rule answer in place and says so.

use std::time::Duration;

use futures::future::{AbortHandle, Abortable};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::extract::{needs_fallback, AnswerPatterns, Extraction, Preset, Verdict};
use crate::llm::answer_fallback::{extract_with_llm_using, FallbackOutcome};
use crate::ui::drafts_store::draft_signal;
use crate::ui::fallback_single_view::outcome_view;
use crate::ui::verify_model::{profile_signal, transport, verify_endpoint, ProfilePicker};

/// The extraction memo of the page: (text, rule extraction, rule verdict).
pub type SingleResult = Memo<(String, Option<Extraction>, Option<Verdict>)>;

/// Quiet time before an automatic ask, so typing does not send a call per keystroke.
const AUTO_DELAY_MS: u64 = 800;

/// One ask: for which text and question, and its state.
#[derive(Debug, Clone, PartialEq)]
pub enum Asked {
    Running,
    Failed(String),
    Done(FallbackOutcome),
}

#[component]
pub fn SingleFallback(
    result: SingleResult,
    question: RwSignal<String>,
    gold: RwSignal<String>,
    strict: RwSignal<bool>,
    patterns: Memo<AnswerPatterns>,
) -> impl IntoView {
    let auto = draft_signal("extract", "llm_auto", || String::from("off"));
    let profile = profile_signal("extract");
    let asked = RwSignal::new(None::<((String, String), Asked)>);
    let abort = StoredValue::new(None::<AbortHandle>);
    // Only the latest ask may write its result (an aborted older one would say "cancelled").
    let generation = StoredValue::new(0u64);
    let timer = StoredValue::new(None::<TimeoutHandle>);
    let needs = Memo::new(move |_| {
        result.with(|(t, rule, _)| !t.trim().is_empty() && needs_fallback(rule.as_ref()))
    });
    let key = move || (result.with(|r| r.0.clone()), question.get_untracked());
    let stop = move || {
        if let Some(Some(h)) = abort.try_get_value() {
            h.abort();
        }
        if let Some(Some(t)) = timer.try_get_value() {
            t.clear();
        }
    };
    let ask = move || {
        stop();
        let k = key();
        let endpoint = match verify_endpoint(&profile.get_untracked()) {
            Ok(e) => e,
            Err(e) => return asked.set(Some((k, Asked::Failed(e)))),
        };
        let (text, q) = k.clone();
        let pats = patterns.get_untracked();
        asked.set(Some((k.clone(), Asked::Running)));
        let mine = generation.get_value() + 1;
        generation.set_value(mine);
        let (handle, registration) = AbortHandle::new_pair();
        abort.set_value(Some(handle));
        spawn_local(async move {
            let client = transport();
            let q = (!q.trim().is_empty()).then_some(q.as_str());
            let call = extract_with_llm_using(&*client, &endpoint, &text, q, &pats);
            let state = match Abortable::new(call, registration).await {
                Ok(out) => Asked::Done(out),
                Err(_) => Asked::Failed("cancelled".into()),
            };
            // A page left meanwhile has disposed the signals: nothing to show.
            if generation.try_get_value() == Some(mine) {
                let _ = asked.try_set(Some((k, state)));
            }
        });
    };
    // Ask automatically once the text rests, when the setting is on and the rules are unsure.
    Effect::new(move |_| {
        let on = auto.get() == "on" && needs.get();
        let k = (result.with(|r| r.0.clone()), question.get());
        if let Some(t) = timer.get_value() {
            t.clear();
        }
        let done = asked.with_untracked(|a| a.as_ref().is_some_and(|(ak, _)| *ak == k));
        if on && !done {
            let h = set_timeout_with_handle(ask, Duration::from_millis(AUTO_DELAY_MS));
            timer.set_value(h.ok());
        }
    });
    // Leaving the page aborts the call in flight (its fetch through the AbortController).
    on_cleanup(stop);

    let current = move || {
        let k = (result.with(|r| r.0.clone()), question.get());
        asked.with(|a| {
            a.as_ref()
                .filter(|(ak, _)| *ak == k)
                .map(|(_, s)| s.clone())
        })
    };
    let body = move || -> AnyView {
        let (_, rule, _) = result.get();
        let preset = if strict.get() {
            Preset::Strict
        } else {
            Preset::Lenient
        };
        let g = gold.get();
        let q = question.get();
        patterns.with(|p| outcome_view(rule.as_ref(), current(), &g, &q, preset, p))
    };
    move || {
        needs.get().then(|| {
            view! {
                <div class="stack fallback" data-testid="fallback-single">
                    <h3>"LLM fallback"</h3>
                    <div class="row">
                        <ProfilePicker profile testid="fallback-profile"/>
                        <button
                            data-testid="fallback-ask"
                            disabled=move || matches!(current(), Some(Asked::Running))
                            on:click=move |_| ask()
                        >"Ask the verify model"</button>
                        {move || matches!(current(), Some(Asked::Running)).then(|| view! {
                            <button data-testid="fallback-cancel" on:click=move |_| stop()>"Cancel"</button>
                        }.into_any())}
                        <label class="row">
                            <input
                                type="checkbox"
                                data-testid="fallback-auto"
                                prop:checked=move || auto.get() == "on"
                                on:change=move |ev| auto.set(String::from(if event_target_checked(&ev) { "on" } else { "off" }))
                            />
                            "Ask automatically when the rules are unsure"
                        </label>
                    </div>
                    {move || body()}
                </div>
            }
            .into_any()
        })
    }
}
