//! Reading events back from their JSON shape, `{"eventType", "source", "content": {...}}`,
//! through the one JSON reader (`crate::json`): an event is read into a `Value` and its
//! content by the `FromJson`-style builders below, each field at its path
//! (`content.proposalId`).
//!
//! Why not `#[derive(Deserialize)]` with `#[serde(tag = "eventType")]`: an internally tagged
//! enum buffers every event in serde's private `Content` tree before it knows the variant, and
//! each content struct's deserializer is then compiled once for the JSON reader and once more
//! for that buffer (tens of KB of wasm). A `Value` reader is in the wasm anyway, and one
//! event's tree is dropped as soon as the event is built, so a long log never holds two copies.
//!
//! The defaults are the log format's: a field a variant may omit gets the value below, and a
//! field it may not omit is reported as missing, naming the event type and the field's path.

use std::str::FromStr;

use serde_json::Value;

use crate::json::{word, FieldError, Fields, Path};
use crate::names::UnknownName;

use super::{
    AcceptedEvent, ContradictionEvent, Event, GoalProvedEvent, ProposalEvent, RejectedEvent,
    RetractedEvent,
};

/// Why a JSON value is not an event.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EventError {
    #[error(
        "unknown eventType `{0}`, expected one of PROPOSAL, ACCEPTED, REJECTED, BLOCKED, \
         CONTRADICTION, RETRACTED, GOAL_PROVED"
    )]
    UnknownType(String),
    /// Not an object, or no `eventType`.
    #[error(transparent)]
    Shape(FieldError),
    /// A field of an event of a known type missing or of the wrong kind.
    #[error("{event_type} event: {error}")]
    Field {
        event_type: &'static str,
        error: FieldError,
    },
}

/// Builds one variant from the source and content.
type Build = fn(String, &Fields) -> Result<Event, FieldError>;

/// Every event type: its `eventType` and how its variant is built.
const EVENT_TYPES: [(&str, Build); 7] = [
    ("PROPOSAL", |source, c| {
        let content = proposal(c)?;
        Ok(Event::Proposal { source, content })
    }),
    ("ACCEPTED", |source, c| {
        let content = accepted(c)?;
        Ok(Event::Accepted { source, content })
    }),
    ("REJECTED", |source, c| {
        let content = rejected(c)?;
        Ok(Event::Rejected { source, content })
    }),
    ("BLOCKED", |source, c| {
        let content = rejected(c)?;
        Ok(Event::Blocked { source, content })
    }),
    ("CONTRADICTION", |source, c| {
        let content = contradiction(c)?;
        Ok(Event::Contradiction { source, content })
    }),
    ("RETRACTED", |source, c| {
        let content = retracted(c)?;
        Ok(Event::Retracted { source, content })
    }),
    ("GOAL_PROVED", |source, c| {
        let content = goal_proved(c)?;
        Ok(Event::GoalProved { source, content })
    }),
];

/// The event `value` describes, or what is wrong with it.
pub(super) fn read_event(value: &Value) -> Result<Event, EventError> {
    let event = Fields::of(value, Path::Root("the event")).map_err(EventError::Shape)?;
    let name: String = event.not_null("eventType").map_err(EventError::Shape)?;
    let Some(&(event_type, build)) = EVENT_TYPES.iter().find(|(t, _)| *t == name) else {
        return Err(EventError::UnknownType(name));
    };
    let field = |error| EventError::Field { event_type, error };
    let source: String = event.not_null("source").map_err(field)?;
    let content = event.object("content").map_err(field)?;
    let content = content.ok_or_else(|| field(event.missing("content")))?;
    build(source, &content).map_err(field)
}

/// A word of a closed vocabulary (`kind`, `category`, `code`), if the field is there.
fn named<T: FromStr<Err = UnknownName>>(f: &Fields, key: &str) -> Result<Option<T>, FieldError> {
    let Some(value) = f.present(key) else {
        return Ok(None);
    };
    let path = f.path.key(key);
    word(value, path)?
        .parse()
        .map(Some)
        .map_err(|e: UnknownName| FieldError::wrong(path, format!("one of {}", e.expected), value))
}

/// A text a variant may omit: absent or `null` is empty.
fn text(f: &Fields, key: &str) -> Result<String, FieldError> {
    Ok(f.optional(key)?.unwrap_or_default())
}

fn proposal(c: &Fields) -> Result<ProposalEvent, FieldError> {
    Ok(ProposalEvent {
        proposal_id: c.not_null("proposalId")?,
        latex: c.not_null("latex")?,
        premises: c.or_default("premises")?,
        rule: text(c, "rule")?,
        kind: named(c, "kind")?.unwrap_or_default(),
        parent: c.optional("parent")?,
        explanation: c.optional("explanation")?,
        certificate: c.optional("certificate")?,
    })
}

fn accepted(c: &Fields) -> Result<AcceptedEvent, FieldError> {
    Ok(AcceptedEvent {
        conclusion_id: c.not_null("conclusionId")?,
        latex: c.not_null("latex")?,
        derived_from: c.or_default("derivedFrom")?,
        rule: text(c, "rule")?,
        proposed_by: text(c, "proposedBy")?,
        verified_by: text(c, "verifiedBy")?,
        depends_on: c.or_default("dependsOn")?,
        discharged: c.or_default("discharged")?,
        // A log without `checked` predates unchecked steps.
        checked: c.optional("checked")?.unwrap_or(true),
    })
}

/// REJECTED and BLOCKED share their content.
fn rejected(c: &Fields) -> Result<RejectedEvent, FieldError> {
    Ok(RejectedEvent {
        proposal_id: c.optional("proposalId")?,
        action_type: named(c, "actionType")?.unwrap_or_default(),
        latex: text(c, "latex")?,
        reason: text(c, "reason")?,
        refuted_by: text(c, "refutedBy")?,
        target_id: c.optional("targetId")?,
        category: named(c, "category")?.ok_or_else(|| c.missing("category"))?,
        code: named(c, "code")?.ok_or_else(|| c.missing("code"))?,
        message: c.not_null("message")?,
        // The older snake_case key, as logs have always written it.
        premise_ids: c.or_default("premise_ids")?,
        blocked_by: c.or_default("blockedBy")?,
    })
}

fn contradiction(c: &Fields) -> Result<ContradictionEvent, FieldError> {
    Ok(ContradictionEvent {
        refutation_id: c.not_null("refutationId")?,
        target_id: c.not_null("targetId")?,
        kind: text(c, "type")?,
        contradiction_reason: text(c, "contradictionReason")?,
        upheld: c.not_null("upheld")?,
        engine_note: text(c, "engineNote")?,
    })
}

fn retracted(c: &Fields) -> Result<RetractedEvent, FieldError> {
    Ok(RetractedEvent {
        conclusion_id: c.not_null("conclusionId")?,
        latex: text(c, "latex")?,
        cause_id: c.not_null("causeId")?,
        refutation_id: c.optional("refutationId")?,
        reason: text(c, "reason")?,
    })
}

fn goal_proved(c: &Fields) -> Result<GoalProvedEvent, FieldError> {
    Ok(GoalProvedEvent {
        goal_id: c.not_null("goalId")?,
        proof_conclusion_id: c.not_null("proofConclusionId")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::events::{ActionKind, RejectCategory, RejectCode};

    fn decode(json: &str) -> Result<Event, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    fn ids(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// One event of every type, with every optional field set to a non-default value.
    fn one_of_each() -> Vec<Event> {
        let rejected = RejectedEvent {
            proposal_id: Some("C-002".into()),
            action_type: ActionKind::Extend,
            latex: "$x = y$".into(),
            reason: "premise H-99 does not exist".into(),
            refuted_by: "engine".into(),
            target_id: Some("C-001".into()),
            category: RejectCategory::Structure,
            code: RejectCode::MissingPremise,
            message: "premise H-99 does not exist".into(),
            premise_ids: ids(&["H-99"]),
            blocked_by: ids(&["C-000"]),
        };
        vec![
            Event::Proposal {
                source: "researcher-1".into(),
                content: ProposalEvent {
                    proposal_id: "A-001".into(),
                    latex: "P".into(),
                    premises: ids(&["H-1"]),
                    rule: "assume".into(),
                    kind: ActionKind::Assume,
                    parent: Some("A-000".into()),
                    explanation: Some("why".into()),
                    certificate: Some(vec!["1/2".into(), "3".into()]),
                },
            },
            Event::Accepted {
                source: "system".into(),
                content: AcceptedEvent {
                    conclusion_id: "C-001".into(),
                    latex: "P \\to Q".into(),
                    derived_from: ids(&["A-001", "C-000"]),
                    rule: "imp_intro".into(),
                    proposed_by: "researcher-1".into(),
                    verified_by: "researcher-2".into(),
                    depends_on: ids(&["A-000"]),
                    discharged: ids(&["A-001"]),
                    checked: false,
                },
            },
            Event::Rejected {
                source: "system".into(),
                content: rejected.clone(),
            },
            Event::Blocked {
                source: "system".into(),
                content: RejectedEvent {
                    category: RejectCategory::Circularity,
                    code: RejectCode::Circular,
                    ..rejected
                },
            },
            Event::Contradiction {
                source: "researcher-2".into(),
                content: ContradictionEvent {
                    refutation_id: "R-001".into(),
                    target_id: "C-001".into(),
                    kind: "invalid_derivation".into(),
                    contradiction_reason: "does not follow".into(),
                    upheld: true,
                    engine_note: "re-checked".into(),
                },
            },
            Event::Retracted {
                source: "system".into(),
                content: RetractedEvent {
                    conclusion_id: "C-001".into(),
                    latex: "P \\to Q".into(),
                    cause_id: "C-001".into(),
                    refutation_id: Some("R-001".into()),
                    reason: "refuted".into(),
                },
            },
            Event::GoalProved {
                source: "system".into(),
                content: GoalProvedEvent {
                    goal_id: "G-1".into(),
                    proof_conclusion_id: "C-001".into(),
                },
            },
        ]
    }

    #[test]
    fn every_event_type_round_trips() {
        let events = one_of_each();
        let types: Vec<&str> = events.iter().map(Event::event_type).collect();
        let known: Vec<&str> = EVENT_TYPES.iter().map(|(t, _)| *t).collect();
        assert_eq!(types, known, "one event of each type, in table order");
        for event in events {
            let json = serde_json::to_string(&event).unwrap();
            assert_eq!(decode(&json), Ok(event), "{json}");
        }
    }

    #[test]
    fn omitted_optional_fields_get_the_format_defaults() {
        let accepted = decode(
            r#"{"eventType":"ACCEPTED","source":"s","content":{"conclusionId":"C-1","latex":"P"}}"#,
        );
        let Ok(Event::Accepted { content, .. }) = accepted else {
            panic!("{accepted:?}");
        };
        assert!(
            content.checked,
            "a log without `checked` predates unchecked steps"
        );
        assert!(content.rule.is_empty() && content.derived_from.is_empty());

        let proposal = decode(
            r#"{"eventType":"PROPOSAL","source":"s","content":{"proposalId":"C-1","latex":"P"}}"#,
        );
        let Ok(Event::Proposal { content, .. }) = proposal else {
            panic!("{proposal:?}");
        };
        assert_eq!(content.kind, ActionKind::Derive);
        assert_eq!((content.parent, content.explanation), (None, None));

        let rejected = decode(
            r#"{"eventType":"REJECTED","source":"s","content":{"proposalId":null,"category":"protocol","code":"unauthorized","message":"m","futureField":[1,{"a":2}]}}"#,
        );
        let Ok(Event::Rejected { content, .. }) = rejected else {
            panic!("{rejected:?}");
        };
        assert_eq!(content.proposal_id, None);
        assert_eq!(content.action_type, ActionKind::Derive);
        assert_eq!(content.code, RejectCode::Unauthorized);
    }

    #[test]
    fn a_missing_required_field_names_the_event_type_and_the_field() {
        let cases = [
            (
                r#"{"eventType":"PROPOSAL","source":"s","content":{"latex":"P"}}"#,
                "PROPOSAL event: missing field `content.proposalId`",
            ),
            (
                r#"{"eventType":"BLOCKED","source":"s","content":{"category":"rule","message":"m"}}"#,
                "BLOCKED event: missing field `content.code`",
            ),
            (
                r#"{"eventType":"CONTRADICTION","source":"s","content":{"refutationId":"R-1","targetId":"C-1"}}"#,
                "CONTRADICTION event: missing field `content.upheld`",
            ),
            (
                r#"{"eventType":"RETRACTED","source":"s","content":{"conclusionId":"C-1"}}"#,
                "RETRACTED event: missing field `content.causeId`",
            ),
            (
                r#"{"eventType":"GOAL_PROVED","source":"s","content":{"goalId":"G-1"}}"#,
                "GOAL_PROVED event: missing field `content.proofConclusionId`",
            ),
            (
                r#"{"eventType":"ACCEPTED","content":{"conclusionId":"C-1","latex":"P"}}"#,
                "ACCEPTED event: missing field `source`",
            ),
            (
                r#"{"eventType":"ACCEPTED","source":"s"}"#,
                "ACCEPTED event: missing field `content`",
            ),
            (
                r#"{"source":"s","content":{}}"#,
                "missing field `eventType`",
            ),
        ];
        for (json, expected) in cases {
            let err = decode(json).unwrap_err();
            assert!(err.starts_with(expected), "{json}: {err}");
        }
    }

    #[test]
    fn an_unknown_event_type_or_a_badly_typed_value_is_an_error() {
        let err = decode(r#"{"eventType":"NOPE","source":"s","content":{}}"#).unwrap_err();
        assert!(err.starts_with("unknown eventType `NOPE`"), "{err}");
        let err = decode(
            r#"{"eventType":"CONTRADICTION","source":"s","content":{"refutationId":"R-1","targetId":"C-1","upheld":"yes"}}"#,
        )
        .unwrap_err();
        assert_eq!(
            err,
            "CONTRADICTION event: content.upheld: expected true or false, found the string \"yes\""
        );
        let err = decode(
            r#"{"eventType":"REJECTED","source":"s","content":{"category":"rule","code":"wrong","message":"m"}}"#,
        )
        .unwrap_err();
        assert!(
            err.contains("\"wrong\"") && err.contains("expected one of"),
            "{err}"
        );
        assert!(decode(r#"{"eventType":"GOAL_PROVED","source":"s","content":[]}"#).is_err());
    }
}
