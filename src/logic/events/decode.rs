//! Reading events back from their JSON shape, `{"eventType", "source", "content": {...}}`.
//!
//! Why not `#[derive(Deserialize)]` with `#[serde(tag = "eventType")]`: an internally tagged
//! enum buffers every event in serde's private `Content` tree before it knows the variant, and
//! each content struct's deserializer is then compiled once for the JSON reader and once more
//! for that buffer. In the browser build that was tens of KB of wasm. Here one flat struct,
//! `Content`, holds the union of all content fields (all optional), is read in one pass by a
//! small visitor, and the event type then picks the variant and checks its required fields.
//! The visitors are written by hand (with one key table per level) because derived ones inline
//! the reading code once per field.
//!
//! A streaming visitor, not the JSON reader (`crate::json`, docs/architecture.md): reading each
//! event through a `Value` made a 100,000-event log (18.7 MB) 3.3 times slower to parse
//! (`cargo bench --bench logic`, 2026-11-27: 402 ms against 120 ms).
//!
//! The defaults are the log format's: a field a variant may omit gets the value below, and a
//! field it may not omit is reported as a missing [`FieldError`] naming the event type and the
//! field's path (`content.proposalId`).

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;

use crate::json::{FieldError, Path};

use super::{
    AcceptedEvent, ActionKind, ContradictionEvent, Event, GoalProvedEvent, ProposalEvent,
    RejectCategory, RejectCode, RejectedEvent, RetractedEvent,
};

/// Why a JSON object is not an event.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EventError {
    #[error("missing field `eventType`")]
    MissingType,
    #[error(
        "unknown eventType `{0}`, expected one of PROPOSAL, ACCEPTED, REJECTED, BLOCKED, \
         CONTRADICTION, RETRACTED, GOAL_PROVED"
    )]
    UnknownType(String),
    /// A field the event's type needs is missing.
    #[error("{event_type} event: {error}")]
    Field {
        event_type: &'static str,
        error: FieldError,
    },
}

/// An event as written, before its type is known. Every field is optional here; which ones
/// an event needs depends on its type (see the `Content` builders).
#[derive(Default)]
pub(super) struct WireEvent {
    event_type: Option<String>,
    source: Option<String>,
    content: Option<Content>,
}

/// The keys of an event object.
#[derive(Clone, Copy)]
enum EventKey {
    EventType,
    Source,
    Content,
}

const EVENT_KEYS: [(&str, EventKey); 3] = [
    ("eventType", EventKey::EventType),
    ("source", EventKey::Source),
    ("content", EventKey::Content),
];

impl<'de> Deserialize<'de> for WireEvent {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(WireEventVisitor)
    }
}

struct WireEventVisitor;

impl<'de> Visitor<'de> for WireEventVisitor {
    type Value = WireEvent;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an event object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<WireEvent, A::Error> {
        let mut event = WireEvent::default();
        while let Some(key) = map.next_key_seed(KeyIndex(&EVENT_KEYS))? {
            let Some(i) = key else {
                skip_value(&mut map)?;
                continue;
            };
            let at = EVENT_KEYS[i].0;
            match EVENT_KEYS[i].1 {
                EventKey::EventType => event.event_type = field(&mut map, "", at)?,
                EventKey::Source => event.source = field(&mut map, "", at)?,
                // Its fields name their own path (`content.goalId`).
                EventKey::Content => event.content = Some(map.next_value()?),
            }
        }
        Ok(event)
    }
}

/// The union of every event type's content fields. Text that a variant may omit is `None`
/// here and becomes the variant's default in the `Content` builders below.
#[derive(Default)]
struct Content {
    proposal_id: Option<String>,
    conclusion_id: Option<String>,
    target_id: Option<String>,
    refutation_id: Option<String>,
    cause_id: Option<String>,
    goal_id: Option<String>,
    proof_conclusion_id: Option<String>,
    latex: Option<String>,
    message: Option<String>,
    parent: Option<String>,
    explanation: Option<String>,
    rule: Option<String>,
    reason: Option<String>,
    proposed_by: Option<String>,
    verified_by: Option<String>,
    refuted_by: Option<String>,
    /// The refuter's claim (CONTRADICTION's `type`); not the proposal's `kind`.
    claim: Option<String>,
    contradiction_reason: Option<String>,
    engine_note: Option<String>,
    premises: Vec<String>,
    derived_from: Vec<String>,
    depends_on: Vec<String>,
    discharged: Vec<String>,
    premise_ids: Vec<String>,
    blocked_by: Vec<String>,
    certificate: Option<Vec<String>>,
    kind: Option<ActionKind>,
    action_type: Option<ActionKind>,
    category: Option<RejectCategory>,
    code: Option<RejectCode>,
    checked: Option<bool>,
    upheld: Option<bool>,
}

/// Where the value of one content key is stored. Keys are grouped by the type of their value
/// so that `ContentVisitor` reads each type in one place: a derived visitor has its own inlined
/// copy of the reading code for each of the ~30 fields.
#[derive(Clone, Copy)]
enum Slot {
    Text(fn(&mut Content) -> &mut Option<String>),
    List(fn(&mut Content) -> &mut Vec<String>),
    /// A list whose absence differs from an empty one (a linarith certificate).
    OptList(fn(&mut Content) -> &mut Option<Vec<String>>),
    Kind(fn(&mut Content) -> &mut Option<ActionKind>),
    Flag(fn(&mut Content) -> &mut Option<bool>),
    Category,
    Code,
}

/// Every content key of the log format (camelCase, but for the older `premise_ids`).
const CONTENT_KEYS: [(&str, Slot); 32] = [
    ("proposalId", Slot::Text(|c| &mut c.proposal_id)),
    ("conclusionId", Slot::Text(|c| &mut c.conclusion_id)),
    ("targetId", Slot::Text(|c| &mut c.target_id)),
    ("refutationId", Slot::Text(|c| &mut c.refutation_id)),
    ("causeId", Slot::Text(|c| &mut c.cause_id)),
    ("goalId", Slot::Text(|c| &mut c.goal_id)),
    (
        "proofConclusionId",
        Slot::Text(|c| &mut c.proof_conclusion_id),
    ),
    ("latex", Slot::Text(|c| &mut c.latex)),
    ("message", Slot::Text(|c| &mut c.message)),
    ("parent", Slot::Text(|c| &mut c.parent)),
    ("explanation", Slot::Text(|c| &mut c.explanation)),
    ("rule", Slot::Text(|c| &mut c.rule)),
    ("reason", Slot::Text(|c| &mut c.reason)),
    ("proposedBy", Slot::Text(|c| &mut c.proposed_by)),
    ("verifiedBy", Slot::Text(|c| &mut c.verified_by)),
    ("refutedBy", Slot::Text(|c| &mut c.refuted_by)),
    ("type", Slot::Text(|c| &mut c.claim)),
    (
        "contradictionReason",
        Slot::Text(|c| &mut c.contradiction_reason),
    ),
    ("engineNote", Slot::Text(|c| &mut c.engine_note)),
    ("premises", Slot::List(|c| &mut c.premises)),
    ("derivedFrom", Slot::List(|c| &mut c.derived_from)),
    ("dependsOn", Slot::List(|c| &mut c.depends_on)),
    ("discharged", Slot::List(|c| &mut c.discharged)),
    ("premise_ids", Slot::List(|c| &mut c.premise_ids)),
    ("blockedBy", Slot::List(|c| &mut c.blocked_by)),
    ("certificate", Slot::OptList(|c| &mut c.certificate)),
    ("kind", Slot::Kind(|c| &mut c.kind)),
    ("actionType", Slot::Kind(|c| &mut c.action_type)),
    ("category", Slot::Category),
    ("code", Slot::Code),
    ("checked", Slot::Flag(|c| &mut c.checked)),
    ("upheld", Slot::Flag(|c| &mut c.upheld)),
];

impl<'de> Deserialize<'de> for Content {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ContentVisitor)
    }
}

struct ContentVisitor;

impl<'de> Visitor<'de> for ContentVisitor {
    type Value = Content;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an event's content object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Content, A::Error> {
        let mut content = Content::default();
        while let Some(key) = map.next_key_seed(KeyIndex(&CONTENT_KEYS))? {
            let Some(i) = key else {
                skip_value(&mut map)?;
                continue;
            };
            let (at, slot) = (CONTENT_KEYS[i].0, CONTENT_KEYS[i].1);
            let m = &mut map;
            match slot {
                Slot::Text(f) => *f(&mut content) = field(m, "content.", at)?,
                Slot::List(f) => *f(&mut content) = field(m, "content.", at)?,
                Slot::OptList(f) => *f(&mut content) = field(m, "content.", at)?,
                Slot::Kind(f) => *f(&mut content) = field(m, "content.", at)?,
                Slot::Flag(f) => *f(&mut content) = field(m, "content.", at)?,
                Slot::Category => content.category = field(m, "content.", at)?,
                Slot::Code => content.code = field(m, "content.", at)?,
            }
        }
        Ok(content)
    }
}

/// Reads an object key as its index in a key table (`None` for a key not in it), without
/// allocating the key. Use with `MapAccess::next_key_seed`.
struct KeyIndex<T: 'static>(&'static [(&'static str, T)]);

impl<'de, T> DeserializeSeed<'de> for KeyIndex<T> {
    type Value = Option<usize>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<usize>, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<T> Visitor<'_> for KeyIndex<T> {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Option<usize>, E> {
        Ok(self.0.iter().position(|(name, _)| *name == key))
    }
}

/// A known key's value, read in place; a value of the wrong type names the field's path
/// (`content.goalId: invalid type: integer `7`, expected a string`), as a [`FieldError`] does.
fn field<'de, A: MapAccess<'de>, T: Deserialize<'de>>(
    map: &mut A,
    prefix: &str,
    key: &str,
) -> Result<T, A::Error> {
    map.next_value().map_err(|e| {
        let text = e.to_string();
        de::Error::custom(format_args!("{prefix}{key}: {}", without_position(&text)))
    })
}

/// serde_json's message without its " at line L column C": the outer error adds its own, which
/// the log reader removes (it points into a re-written event, not the user's file).
fn without_position(text: &str) -> &str {
    match text.rfind(" at line ") {
        Some(at)
            if text[at + " at line ".len()..]
                .split(" column ")
                .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())) =>
        {
            &text[..at]
        }
        _ => text,
    }
}

/// Keys this version does not know are skipped, as a derived visitor would.
fn skip_value<'de, A: MapAccess<'de>>(map: &mut A) -> Result<(), A::Error> {
    map.next_value::<IgnoredAny>().map(|_| ())
}

/// Builds one variant from the source and content; the `Required` names the event type.
type Build = fn(String, Content, Required) -> Result<Event, EventError>;

/// Every event type: its `eventType` and how its variant is built.
const EVENT_TYPES: [(&str, Build); 7] = [
    ("PROPOSAL", |source, c, need| {
        let content = c.proposal(need)?;
        Ok(Event::Proposal { source, content })
    }),
    ("ACCEPTED", |source, c, need| {
        let content = c.accepted(need)?;
        Ok(Event::Accepted { source, content })
    }),
    ("REJECTED", |source, c, need| {
        let content = c.rejected(need)?;
        Ok(Event::Rejected { source, content })
    }),
    ("BLOCKED", |source, c, need| {
        let content = c.rejected(need)?;
        Ok(Event::Blocked { source, content })
    }),
    ("CONTRADICTION", |source, c, need| {
        let content = c.contradiction(need)?;
        Ok(Event::Contradiction { source, content })
    }),
    ("RETRACTED", |source, c, need| {
        let content = c.retracted(need)?;
        Ok(Event::Retracted { source, content })
    }),
    ("GOAL_PROVED", |source, c, need| {
        let content = c.goal_proved(need)?;
        Ok(Event::GoalProved { source, content })
    }),
];

impl WireEvent {
    /// The event this object describes, or what is wrong with it.
    pub(super) fn into_event(self) -> Result<Event, EventError> {
        let name = self.event_type.ok_or(EventError::MissingType)?;
        let Some(&(event_type, build)) = EVENT_TYPES.iter().find(|(t, _)| *t == name) else {
            return Err(EventError::UnknownType(name));
        };
        let need = Required(event_type);
        let source = need.top(self.source, "source")?;
        let content = need.top(self.content, "content")?;
        build(source, content, need)
    }
}

/// Checks a required field of one event type, so a missing one is reported with both names.
#[derive(Clone, Copy)]
struct Required(&'static str);

/// The event as a whole, for the paths of its fields.
const EVENT: Path<'static> = Path::Root("the event");

impl Required {
    /// A required key of the event object (`source`, `content`).
    fn top<T>(self, value: Option<T>, key: &'static str) -> Result<T, EventError> {
        value.ok_or_else(|| self.missing(EVENT.key(key)))
    }

    /// A required key of the event's content (`content.proposalId`).
    fn field<T>(self, value: Option<T>, key: &'static str) -> Result<T, EventError> {
        value.ok_or_else(|| self.missing(EVENT.key("content").key(key)))
    }

    fn missing(self, path: Path) -> EventError {
        EventError::Field {
            event_type: self.0,
            error: FieldError::missing(path, "a value"),
        }
    }
}

impl Content {
    fn proposal(self, need: Required) -> Result<ProposalEvent, EventError> {
        Ok(ProposalEvent {
            proposal_id: need.field(self.proposal_id, "proposalId")?,
            latex: need.field(self.latex, "latex")?,
            premises: self.premises,
            rule: self.rule.unwrap_or_default(),
            kind: self.kind.unwrap_or_default(),
            parent: self.parent,
            explanation: self.explanation,
            certificate: self.certificate,
        })
    }

    fn accepted(self, need: Required) -> Result<AcceptedEvent, EventError> {
        Ok(AcceptedEvent {
            conclusion_id: need.field(self.conclusion_id, "conclusionId")?,
            latex: need.field(self.latex, "latex")?,
            derived_from: self.derived_from,
            rule: self.rule.unwrap_or_default(),
            proposed_by: self.proposed_by.unwrap_or_default(),
            verified_by: self.verified_by.unwrap_or_default(),
            depends_on: self.depends_on,
            discharged: self.discharged,
            checked: self.checked.unwrap_or(true),
        })
    }

    /// REJECTED and BLOCKED share their content.
    fn rejected(self, need: Required) -> Result<RejectedEvent, EventError> {
        Ok(RejectedEvent {
            proposal_id: self.proposal_id,
            action_type: self.action_type.unwrap_or_default(),
            latex: self.latex.unwrap_or_default(),
            reason: self.reason.unwrap_or_default(),
            refuted_by: self.refuted_by.unwrap_or_default(),
            target_id: self.target_id,
            category: need.field(self.category, "category")?,
            code: need.field(self.code, "code")?,
            message: need.field(self.message, "message")?,
            premise_ids: self.premise_ids,
            blocked_by: self.blocked_by,
        })
    }

    fn contradiction(self, need: Required) -> Result<ContradictionEvent, EventError> {
        Ok(ContradictionEvent {
            refutation_id: need.field(self.refutation_id, "refutationId")?,
            target_id: need.field(self.target_id, "targetId")?,
            kind: self.claim.unwrap_or_default(),
            contradiction_reason: self.contradiction_reason.unwrap_or_default(),
            upheld: need.field(self.upheld, "upheld")?,
            engine_note: self.engine_note.unwrap_or_default(),
        })
    }

    fn retracted(self, need: Required) -> Result<RetractedEvent, EventError> {
        Ok(RetractedEvent {
            conclusion_id: need.field(self.conclusion_id, "conclusionId")?,
            latex: self.latex.unwrap_or_default(),
            cause_id: need.field(self.cause_id, "causeId")?,
            refutation_id: self.refutation_id,
            reason: self.reason.unwrap_or_default(),
        })
    }

    fn goal_proved(self, need: Required) -> Result<GoalProvedEvent, EventError> {
        Ok(GoalProvedEvent {
            goal_id: need.field(self.goal_id, "goalId")?,
            proof_conclusion_id: need.field(self.proof_conclusion_id, "proofConclusionId")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn every_content_key_is_one_the_writer_uses() {
        // Each key of the table appears in what the writer produces for some event, so a
        // renamed field cannot leave the reader looking for the old name.
        let written: Vec<String> = one_of_each()
            .iter()
            .map(|e| serde_json::to_value(e).unwrap())
            .flat_map(|v| {
                v["content"]
                    .as_object()
                    .unwrap()
                    .keys()
                    .cloned()
                    .collect::<Vec<_>>()
            })
            .collect();
        for (key, _) in CONTENT_KEYS {
            assert!(written.iter().any(|k| k == key), "{key} is never written");
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
        assert!(err.contains("expected a boolean"), "{err}");
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
