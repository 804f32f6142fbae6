//! The prompts of the three LLM phases and the reverse check. They carry the design
//! note's rubric in meaning: three levels (contradiction, unsupported, reasonable
//! inference — the last is not an error), the factual and logic severity tables, the
//! numeric threshold and per-phase cap from the strategy, and the note's two fixes for
//! known failures: fabricated specifics are always High (case #13, a made-up admission
//! rate judged Low), and several Low errors each count (multi_minor cases scored too high).

use crate::config::AuditParams;
use crate::llm::{Boundary, ChatMessage};

use super::contract::{Claim, Deduction};
use super::grounding::NumberGrounding;
use super::report::Finding;

const LANGUAGE_RULE: &str = "The texts may be in Chinese or English. Quote evidence verbatim \
in the language of the text you quote; write explanations in the same language as the model output.";

/// Where the answer goes and what the quoted texts are (docs/audit.md, "Reading replies").
fn reply_rules(b: &Boundary) -> String {
    format!(
        "{}\n{}",
        b.data_rule(),
        b.answer_rule("your answer as one JSON object in the shape below")
    )
}

/// The three-level rubric shared by Phases 2 and 3.
fn levels(what: &str) -> String {
    format!(
        "Judge each {what} against context_input on three levels:\n\
1. Contradiction (矛盾): it conflicts directly with context_input (opposite numbers, reversed direction). \
This IS an error: type \"contradiction\".\n\
2. Unsupported (无支撑): context_input does not mention it at all and it cannot reasonably be derived \
from context_input. This IS an error: type \"unsupported\".\n\
3. Reasonable inference (合理推断): it can be generalised or summarised from data already in \
context_input. This is NOT an error: list it under \"reasonable_inferences\", never under the errors."
    )
}

fn counting_rules(params: &AuditParams, target: &str) -> String {
    format!(
        "Counting rules:\n\
- Report every error you find, up to {max} errors, most severe first.\n\
- Several Low errors each count: report each one separately. Never drop an error because it is \
\"only minor\", and never merge distinct errors into one.\n\
- One entry per error; \"target\" is the id of the {target} it concerns.\n\
- \"evidence\" quotes the exact words of context_input (or of model_output when context_input \
says nothing on the point) that show the problem.",
        max = params.max_errors_per_phase,
    )
}

fn percent(params: &AuditParams) -> String {
    let pct = params.numeric_deviation_threshold * 100.0;
    if (pct - pct.round()).abs() < 1e-9 {
        format!("{}%", pct.round())
    } else {
        format!("{:.1}%", pct)
    }
}

fn inputs(b: &Boundary, context_input: &str, model_output: &str) -> String {
    format!(
        "context_input (the source material):\n{}\n\nmodel_output (the text under audit):\n{}",
        b.data("context_input", context_input),
        b.data("model_output", model_output),
    )
}

/// Phase 1 (run model): decompose the output, judge nothing.
pub fn decompose(
    b: &Boundary,
    params: &AuditParams,
    context_input: &str,
    model_output: &str,
) -> Vec<ChatMessage> {
    let rules_of_reply = reply_rules(b);
    let system = format!(
        "You prepare a model output for a fact and logic audit. Do not judge correctness.\n\
Extract from model_output:\n\
- \"claims\": at most {max} atomic factual statements OF model_output (never of context_input), \
the most consequential first (specific numbers, directions of change, named facts, causal \
statements). One fact per claim, in the output's own words and with its own numbers. Ids C1, C2, …\n\
- \"deductions\": at most {max_d} steps where model_output concludes something from premises: the \
premises (as stated or clearly relied on) and the conclusion. Ids D1, D2, …\n\
{LANGUAGE_RULE}\n{rules_of_reply}\n\
Shape: {{\"claims\":[{{\"id\":\"C1\",\"text\":\"…\"}}],\
\"deductions\":[{{\"id\":\"D1\",\"premises\":[\"…\"],\"conclusion\":\"…\"}}]}}",
        max = params.max_claims,
        max_d = params.max_deductions,
    );
    vec![
        ChatMessage::system(system),
        ChatMessage::user(inputs(b, context_input, model_output)),
    ]
}

/// Phase 2 (verify model): check each claim against the context.
pub fn fact_check(
    b: &Boundary,
    params: &AuditParams,
    context_input: &str,
    model_output: &str,
    claims: &[Claim],
) -> Vec<ChatMessage> {
    let pct = percent(params);
    let rules_of_reply = reply_rules(b);
    let system = format!(
        "You are a strict fact checker. {levels}\n\n\
Severity of a factual error:\n\
- High: the opposite direction to context_input, or a number that deviates by more than {pct} and \
in the opposite direction; enough to change the core conclusion.\n\
- High, always: a specific number, percentage, date, name or fact that appears nowhere in \
context_input (a fabricated specific). Never rate a fabricated specific Low.\n\
- Low: a number that deviates by at most {pct} in the same direction; an unsupported qualitative \
judgement; an over-generalisation.\n\
- A number off by more than {pct} in the same direction: High if it changes the core conclusion, \
otherwise Low.\n\
Deviation = |stated − source| / |source|.\n\n\
{rules}\n{LANGUAGE_RULE}\n{rules_of_reply}\n\
Shape: {{\"factual_errors\":[{{\"target\":\"C1\",\"type\":\"contradiction|unsupported\",\
\"severity\":\"High|Low\",\"evidence\":\"…\",\"explanation\":\"…\"}}],\
\"reasonable_inferences\":[{{\"target\":\"C2\",\"explanation\":\"…\"}}],\
\"number_derivations\":[{{\"number\":\"…\",\"explanation\":\"…\"}}]}}\n\
If there is no error, \"factual_errors\" is an empty list.",
        levels = levels("claim"),
        rules = counting_rules(params, "claim"),
    );
    let listed = claims
        .iter()
        .map(|c| format!("{}: {}", c.id, c.text))
        .collect::<Vec<_>>()
        .join("\n");
    let user = format!(
        "{}\n\nClaims to check (from model_output):\n{}",
        inputs(b, context_input, model_output),
        if listed.is_empty() {
            "(none extracted: check the statements of model_output directly, target \"output\")"
                .to_string()
        } else {
            b.data("claims", &listed)
        },
    );
    vec![ChatMessage::system(system), ChatMessage::user(user)]
}

/// The deterministic number check's misses, appended to the Phase 2 request as evidence for the
/// model to judge (not as verdicts: a number can be absent from the context and still be a
/// reasonable inference, e.g. one computed in two steps). Unchanged when every number was found.
pub fn with_number_evidence(
    b: &Boundary,
    mut messages: Vec<ChatMessage>,
    grounding: &NumberGrounding,
    deterministic: bool,
) -> Vec<ChatMessage> {
    let missing: Vec<String> = grounding
        .not_found()
        .map(|n| format!("- \"{}\"", n.text))
        .collect();
    if missing.is_empty() {
        return messages;
    }
    let note = format!(
        "\n\nA deterministic number check found these numbers of model_output nowhere in \
context_input: not verbatim, not in another notation (1,200 = 1.2k = 一千二百; 8% = 0.08), not \
rounded, and not one sum, difference, ratio or percent change of two context numbers:\n{}\n\
Judge each: a number that context_input does not support is a fabricated specific (High) unless \
it follows from context_input by reasoning you can state.{}",
        b.data("numbers_not_found", &missing.join("\n")),
        if deterministic {
            " Such a number counts as a High factual error by a fixed rule unless you list it under \
\"number_derivations\" with the reasoning that derives it from the numbers of context_input (name \
those numbers)."
        } else {
            ""
        }
    );
    if let Some(user) = messages.iter_mut().rev().find(|m| m.role == "user") {
        user.content.push_str(&note);
    }
    messages
}

/// Phase 3 (verify model): check each deduction's reasoning.
pub fn logic_check(
    b: &Boundary,
    params: &AuditParams,
    context_input: &str,
    model_output: &str,
    deductions: &[Deduction],
) -> Vec<ChatMessage> {
    let rules_of_reply = reply_rules(b);
    let system = format!(
        "You are a strict logic checker. For each deduction, decide whether its premises and \
context_input support its conclusion. {levels}\n\n\
Severity of a logic error:\n\
- High: the causal direction is completely reversed; or sycophancy (going along with the asker's \
framing or a premise) twists the direction of the facts; enough to change the core conclusion.\n\
- Low: over-generalisation; intermediate steps missing but the conclusion's direction is right; \
a concept substituted without changing the conclusion's direction.\n\n\
{rules}\n{LANGUAGE_RULE}\n{rules_of_reply}\n\
Shape: {{\"logic_errors\":[{{\"target\":\"D1\",\"type\":\"contradiction|unsupported\",\
\"severity\":\"High|Low\",\"evidence\":\"…\",\"explanation\":\"…\"}}],\
\"reasonable_inferences\":[{{\"target\":\"D2\",\"explanation\":\"…\"}}]}}\n\
If there is no error, \"logic_errors\" is an empty list.",
        levels = levels("deduction"),
        rules = counting_rules(params, "deduction"),
    );
    let listed = deductions
        .iter()
        .map(|d| {
            format!(
                "{}: premises: {} => conclusion: {}",
                d.id,
                d.premises.join(" | "),
                d.conclusion
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    let user = format!(
        "{}\n\nDeductions to check (from model_output):\n{}",
        inputs(b, context_input, model_output),
        if listed.is_empty() {
            "(none extracted: check the reasoning of model_output directly, target \"output\")"
                .to_string()
        } else {
            b.data("deductions", &listed)
        },
    );
    vec![ChatMessage::system(system), ChatMessage::user(user)]
}

/// Reverse check (verify model): re-judge only the severity of each reported error.
pub fn reverse_check(
    b: &Boundary,
    params: &AuditParams,
    context_input: &str,
    model_output: &str,
    findings: &[(usize, &Finding)],
) -> Vec<ChatMessage> {
    let pct = percent(params);
    let rules_of_reply = reply_rules(b);
    let system = format!(
        "You double-check the severity of errors another checker reported. For each numbered \
error decide High or Low. You may only change severity: do not remove, add or merge errors.\n\
Factual High: opposite direction to context_input, or a number off by more than {pct} in the \
opposite direction, enough to change the core conclusion; and always a specific number or fact that \
appears nowhere in context_input. Factual Low: a number off by at most {pct} in the same direction, \
an unsupported qualitative judgement, an over-generalisation.\n\
Logic High: causal direction completely reversed, or sycophancy twisting the direction of facts, \
enough to change the core conclusion. Logic Low: over-generalisation, missing intermediate steps \
with the right direction, a concept substituted without changing the direction.\n\
{LANGUAGE_RULE}\n{rules_of_reply}\n\
Shape: {{\"decisions\":[{{\"index\":1,\"severity\":\"High|Low\",\"reason\":\"…\"}}]}}"
    );
    let listed = findings
        .iter()
        .map(|(i, f)| {
            format!(
                "{i}. [{kind}, {sev:?}] target {t}: {ex} (evidence: {ev})",
                kind = f.phase.label(),
                sev = f.severity,
                t = f.target,
                ex = f.explanation,
                ev = f.evidence
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    let user = format!(
        "{}\n\nErrors to re-judge:\n{}",
        inputs(b, context_input, model_output),
        b.data("errors", &listed)
    );
    vec![ChatMessage::system(system), ChatMessage::user(user)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b() -> Boundary {
        Boundary::fixed("00112233aabbccdd")
    }

    fn all_text(m: &[ChatMessage]) -> String {
        m.iter()
            .map(|m| m.content.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn fact_check_prompt_carries_the_rubric_and_strategy_values() {
        let params = AuditParams {
            numeric_deviation_threshold: 0.08,
            max_errors_per_phase: 4,
            ..AuditParams::default()
        };
        let claims = [Claim {
            id: "C1".into(),
            text: "营收增长12%".into(),
        }];
        let text = all_text(&fact_check(
            &b(),
            &params,
            "营收增长10%",
            "营收增长12%",
            &claims,
        ));
        for needle in [
            "Contradiction (矛盾)",
            "Unsupported (无支撑)",
            "Reasonable inference (合理推断)",
            "NOT an error",
            "more than 8%",
            "at most 8%",
            "up to 4 errors",
            "appears nowhere in",
            "Never rate a fabricated specific Low",
            "Several Low errors each count",
            "\"factual_errors\"",
            "C1: 营收增长12%",
            "营收增长10%",
        ] {
            assert!(text.contains(needle), "missing `{needle}`");
        }
    }

    #[test]
    fn fact_check_gets_the_numbers_not_found_as_evidence() {
        let ctx = "该校2023年本科招生4200人，其中省内生源占70%。";
        let out = "该校2023年本科招生4200人，985高校录取率达到35%。";
        let g = crate::audit::grounding::ground_numbers(ctx, out);
        let m = with_number_evidence(
            &b(),
            fact_check(&b(), &AuditParams::default(), ctx, out, &[]),
            &g,
            true,
        );
        let user = &m[m.len() - 1].content;
        assert!(user.contains("- \"35%\""), "{user}");
        assert!(user.contains("- \"985\""));
        assert!(!user.contains("- \"4200\""));
        assert!(user.contains("fabricated specific (High)"));
        // Nothing to add when every number is grounded.
        let clean = crate::audit::grounding::ground_numbers(ctx, "招生4200人");
        let plain = fact_check(&b(), &AuditParams::default(), ctx, "招生4200人", &[]);
        assert_eq!(
            with_number_evidence(&b(), plain.clone(), &clean, true),
            plain
        );
    }

    #[test]
    fn logic_prompt_has_the_logic_severity_table() {
        let d = [Deduction {
            id: "D1".into(),
            premises: vec!["A".into()],
            conclusion: "B".into(),
        }];
        let text = all_text(&logic_check(
            &b(),
            &AuditParams::default(),
            "ctx",
            "out",
            &d,
        ));
        for needle in [
            "causal direction is completely reversed",
            "sycophancy",
            "intermediate steps missing",
            "concept substituted",
            "NOT an error",
            "up to 3 errors",
            "Several Low errors each count",
            "\"logic_errors\"",
            "D1: premises: A => conclusion: B",
        ] {
            assert!(text.contains(needle), "missing `{needle}`");
        }
    }

    #[test]
    fn decompose_prompt_caps_claims() {
        let params = AuditParams {
            max_claims: 7,
            ..AuditParams::default()
        };
        let text = all_text(&decompose(&b(), &params, "ctx", "out"));
        assert!(text.contains("at most 7 atomic factual statements"));
        assert!(text.contains("Do not judge correctness"));
        assert!(text.contains("\"deductions\""));
    }

    #[test]
    fn percent_formats_fractional_thresholds() {
        let p = |x| {
            percent(&AuditParams {
                numeric_deviation_threshold: x,
                ..AuditParams::default()
            })
        };
        assert_eq!(p(0.10), "10%");
        assert_eq!(p(0.075), "7.5%");
    }
}
