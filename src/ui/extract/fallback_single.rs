//! The Extract page's LLM fallback for one solution: when the rules are not confident, ask
//! the profile's verify model for the final answer (a button, or automatically once the text
//! rests), and show both answers, which one the verdict used, the call's cost, and why the
//! confidence was low. A failed call leaves the rule answer in place and says so.

use super::asker::Asked;
use super::asker::{Asker, SingleResult};
use super::controls::on_off_box;
use super::controls::preset_of;
use super::single_result::outcome_label;
use super::verify_model::profile_signal;
use super::verify_model::ProfilePicker;
use crate::extract::{grade_predicted, Extraction, Preset};
use crate::extract::{needs_fallback_for, AnswerPatterns};
use crate::ui::boxed::part;
use crate::ui::boxed::{effect, flag, on_click};
use crate::ui::drafts_store::draft_signal;
use leptos::prelude::*;
use std::time::Duration;

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

// What the single-solution LLM fallback shows: why the rules were unsure, the rule answer,
// the model's reply and its answer as the extractor read it, which one the verdict used, and
// the call's latency and tokens. A failure says so and keeps the rule answer.

fn rule_text(rule: Option<&Extraction>) -> String {
    rule.map_or_else(
        || String::from("none (the rules found no answer)"),
        |e| format!("{} ({})", e.answer, e.method.as_str()),
    )
}

fn failed(rule: Option<&Extraction>, message: String) -> AnyView {
    let text = if message == "cancelled" {
        format!(
            "The call was cancelled. The rule answer stands: {}.",
            rule_text(rule)
        )
    } else {
        format!(
            "The verify model call failed: {message}. The rule answer stands: {}.",
            rule_text(rule)
        )
    };
    view! { <p class="error" data-testid="fallback-error">{text}</p> }.into_any()
}

pub fn outcome_view(
    rule: Option<&Extraction>,
    state: Option<Asked>,
    gold: &str,
    question: &str,
    preset: Preset,
    patterns: &AnswerPatterns,
) -> AnyView {
    let why = rule.map_or_else(
        || String::from("the rules found no answer"),
        |e| format!("confidence {:.2}: {}", e.confidence, e.confidence_reason),
    );
    let head = view! {
        <p data-testid="fallback-why">
            "The rules are not sure (" {why} "). Rule answer: "
            <code data-testid="fallback-rule-answer">{rule_text(rule)}</code>
        </p>
    }
    .into_any();
    let rest = match state {
        None => {
            view! { <p class="muted">"The verify model has not been asked about this text."</p> }
                .into_any()
        }
        Some(Asked::Running) => {
            view! { <p data-testid="fallback-status">"Asking the verify model…"</p> }.into_any()
        }
        Some(Asked::Failed(m)) => failed(rule, m),
        Some(Asked::Done(out)) => match &out.error {
            Some(e) => failed(rule, e.to_string()),
            None => done(rule, &out, gold, question, preset, patterns),
        },
    };
    view! { {head} {rest} }.into_any()
}

fn done(
    rule: Option<&Extraction>,
    out: &crate::llm::answer_fallback::FallbackOutcome,
    gold: &str,
    question: &str,
    preset: Preset,
    patterns: &AnswerPatterns,
) -> AnyView {
    let model = out.model_answer().cloned();
    let used_by = String::from(if model.is_some() { "model" } else { "rule" });
    let reply = out.reply.clone().unwrap_or_default();
    let cost = format!(
        "{} ms · {} tokens ({} prompt + {} completion)",
        out.latency_ms,
        out.usage.total_tokens,
        out.usage.prompt_tokens,
        out.usage.completion_tokens
    );
    let used = if model.is_some() {
        String::from(
            "The verdict below uses the model's answer (the verdict above is the rules' alone).",
        )
    } else {
        format!(
            "The reply holds no readable answer: the verdict uses the rule answer, {}.",
            rule_text(rule)
        )
    };
    let q = (!question.trim().is_empty()).then_some(question);
    let verdict = model
        .clone()
        .filter(|_| !gold.trim().is_empty())
        .map(|m| grade_predicted(Some(m), gold, q, preset, patterns));
    let model_answer = model.map(|m| m.answer).unwrap_or_else(|| String::from("—"));
    view! {
        <p>
            "Model reply: " <code data-testid="fallback-reply">{reply}</code>
            " → read as " <code data-testid="fallback-model-answer">{model_answer}</code>
        </p>
        <p data-testid="fallback-used" data-used=used_by>
            {used}
        </p>
        <p class="muted" data-testid="fallback-cost">{cost}</p>
        {verdict.map(|v| {
            let (class, label) = outcome_label(v.outcome);
            view! {
                <div class=class data-testid="fallback-verdict" data-outcome=v.outcome.as_str()>
                    <strong>{format!("{label} (with the model's answer)")}</strong>
                    <p>{v.reason}</p>
                </div>
            }
            .into_any()
        })}
    }
    .into_any()
}
