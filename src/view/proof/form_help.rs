//! What the Proof page's action form says while you type: whether the formula parses (and
//! where it does not), and what the picked rule needs. Pure, tested natively.

use crate::logic::events::ActionKind;
use crate::logic::formula::parse_formula;
use crate::logic::rules::rule_help;

/// The parser's verdict on a formula being typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseFeedback {
    /// Nothing typed yet.
    Empty,
    /// Parses; the notation-independent reading (`∀x (F(x) → G(x))`).
    Parses(String),
    /// Does not parse: 1-based character column, the parser's message, and the text up to
    /// and from that point (so the view can mark it).
    Error {
        column: usize,
        message: String,
        before: String,
        after: String,
    },
}

pub fn parse_feedback(latex: &str) -> ParseFeedback {
    if latex.trim().is_empty() {
        return ParseFeedback::Empty;
    }
    match parse_formula(latex) {
        Ok(f) => ParseFeedback::Parses(f.canonical()),
        Err(e) => {
            // The position is a byte offset; step back to a character boundary.
            let at = latex.floor_char_boundary(e.position);
            ParseFeedback::Error {
                column: latex[..at].chars().count() + 1,
                message: e.message,
                before: latex[..at].to_string(),
                after: latex[at..].to_string(),
            }
        }
    }
}

/// One part of a rule's help text: formulas (written between backticks in the rule table)
/// apart from prose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HelpPart {
    Text(String),
    Formula(String),
}

/// What `rule` needs, from the rule table: a summary (citations, subproof slots) and the
/// help text split into prose and formulas. `None` for a name not in the table.
pub fn rule_requirements(rule: &str) -> Option<(String, Vec<HelpPart>)> {
    let spec = rule_help(rule)?;
    let count = match (spec.arity.min, spec.arity.max) {
        (0, Some(0)) => "no citations".to_string(),
        (min, Some(max)) if min == max => format!("cites {min}"),
        (min, Some(max)) => format!("cites {min}–{max}"),
        (min, None) => format!("cites {min} or more"),
    };
    let mut summary = format!("{}: {count}", spec.id);
    if !spec.aliases.is_empty() {
        summary = format!("{} (also {}): {count}", spec.id, spec.aliases.join(", "));
    }
    if !spec.discharges.is_empty() {
        let slots: Vec<String> = spec
            .discharges
            .iter()
            .map(|s| (s + 1).to_string())
            .collect();
        summary.push_str(&format!(
            "; citation {} must be an assumption, discharged with the subproof ending at the next citation",
            slots.join(" and ")
        ));
    }
    let parts = spec
        .help
        .split('`')
        .enumerate()
        .filter(|(_, s)| !s.is_empty())
        .map(|(i, s)| {
            if i % 2 == 1 {
                HelpPart::Formula(s.to_string())
            } else {
                HelpPart::Text(s.to_string())
            }
        })
        .collect();
    Some((summary, parts))
}

/// The params of the action form's action: its kind, the formula field, the comma-separated premise ids, the target id field and
/// the picked rule. Built as a plain map (not `json!`), so the browser carries one copy.
pub fn action_params(
    kind: ActionKind,
    text: String,
    premises: &str,
    target: &str,
    rule: String,
) -> serde_json::Value {
    use serde_json::Value;
    let cited = || {
        Value::Array(
            premises
                .split(',')
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(|p| Value::String(p.to_string()))
                .collect(),
        )
    };
    let target = || Value::String(target.trim().to_string());
    let fields: Vec<(&str, Value)> = match kind {
        ActionKind::Derive => vec![
            ("conclusion", Value::String(text)),
            ("premises", cited()),
            ("rule", Value::String(rule)),
        ],
        ActionKind::Extend => vec![
            ("baseConclusionId", target()),
            ("extension", Value::String(text)),
            ("premises", cited()),
            ("rule", Value::String(rule)),
        ],
        ActionKind::Assume => vec![("formula", Value::String(text))],
        ActionKind::Accept => vec![("proposalId", target())],
        ActionKind::Refute => vec![
            ("targetId", target()),
            ("type", Value::String("invalid_derivation".to_string())),
            ("reason", Value::String(text)),
        ],
    };
    Value::Object(
        fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feedback_reads_the_formula_or_points_at_the_error() {
        assert_eq!(parse_feedback("  "), ParseFeedback::Empty);
        assert_eq!(
            parse_feedback("P \\land Q"),
            ParseFeedback::Parses("P ∧ Q".into())
        );
        match parse_feedback("∀x (P(x) \\in Q") {
            ParseFeedback::Error {
                column,
                message,
                before,
                after,
            } => {
                assert!(!message.is_empty());
                assert_eq!(before.chars().count() + 1, column);
                assert_eq!(format!("{before}{after}"), "∀x (P(x) \\in Q");
                assert!(after.starts_with("\\in") || column > 1, "{before}|{after}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn rule_requirements_come_from_the_rule_table() {
        let (summary, parts) = rule_requirements("modus_ponens").expect("alias");
        assert!(
            summary.starts_with("imp_elim (also modus_ponens, mp): cites 2"),
            "{summary}"
        );
        assert_eq!(
            parts.first(),
            Some(&HelpPart::Formula("A → B, A ⊢ B".into()))
        );
        let (summary, _) = rule_requirements("imp_intro").expect("rule");
        assert!(
            summary.contains("citation 1 must be an assumption"),
            "{summary}"
        );
        let (summary, _) = rule_requirements("eq_intro").expect("rule");
        assert!(summary.contains("no citations"), "{summary}");
        assert!(rule_requirements("magic").is_none());
    }

    #[test]
    fn action_params_match_the_engine_s_field_names() {
        use serde_json::json;
        assert_eq!(
            action_params(
                ActionKind::Derive,
                "p".into(),
                " H-1, ,C-002 ",
                " x ",
                "∧I".into()
            ),
            json!({"conclusion": "p", "premises": ["H-1", "C-002"], "rule": "∧I"})
        );
        assert_eq!(
            action_params(ActionKind::Extend, "q".into(), "", " C-001 ", "∨I".into()),
            json!({"baseConclusionId": "C-001", "extension": "q", "premises": [], "rule": "∨I"})
        );
        assert_eq!(
            action_params(ActionKind::Assume, "r".into(), "H-1", "", String::new()),
            json!({"formula": "r"})
        );
        assert_eq!(
            action_params(ActionKind::Accept, String::new(), "", " P-1", String::new()),
            json!({"proposalId": "P-1"})
        );
        assert_eq!(
            action_params(
                ActionKind::Refute,
                "wrong".into(),
                "",
                "C-3 ",
                String::new()
            ),
            json!({"targetId": "C-3", "type": "invalid_derivation", "reason": "wrong"})
        );
    }
}
