//! What the single-solution LLM fallback shows: why the rules were unsure, the rule answer,
//! the model's reply and its answer as the extractor read it, which one the verdict used, and
//! the call's latency and tokens. A failure says so and keeps the rule answer.

use leptos::prelude::*;

use super::asker::Asked;
use super::single_result::outcome_label;
use crate::extract::{grade_predicted, AnswerPatterns, Extraction, Preset};

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
