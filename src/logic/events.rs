//! The event log: everything the world state is rebuilt from, in the JSON shapes of docs/logic.md
//! (`{"eventType", "source", "content": {...}}`, camelCase content keys).
//!
//! Events record the engine's verdicts, not just the actions, so a replay never re-runs the
//! checker: it is deterministic and fast, and a log made by an older checker still replays
//! to the state its users saw.

use serde::{Deserialize, Deserializer, Serialize};

pub use super::rules::RejectCode;

mod decode;
pub use decode::EventError;

/// Who emits engine verdicts in the log (logs write `"source": "system"`).
pub const SYSTEM: &str = "system";

/// Written by the derived `Serialize`; read by a hand-written `Deserialize` (see `decode`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "eventType")]
pub enum Event {
    #[serde(rename = "PROPOSAL")]
    Proposal {
        source: String,
        content: ProposalEvent,
    },
    #[serde(rename = "ACCEPTED")]
    Accepted {
        source: String,
        content: AcceptedEvent,
    },
    #[serde(rename = "REJECTED")]
    Rejected {
        source: String,
        content: RejectedEvent,
    },
    /// A proposal that cites a rejected (or blocked) item: the error is reported once, at
    /// the item that was wrong, and the followers are marked blocked instead.
    #[serde(rename = "BLOCKED")]
    Blocked {
        source: String,
        content: RejectedEvent,
    },
    #[serde(rename = "CONTRADICTION")]
    Contradiction {
        source: String,
        content: ContradictionEvent,
    },
    /// An accepted conclusion removed from the world after an upheld refutation (or because
    /// something it was derived from was removed).
    #[serde(rename = "RETRACTED")]
    Retracted {
        source: String,
        content: RetractedEvent,
    },
    #[serde(rename = "GOAL_PROVED")]
    GoalProved {
        source: String,
        content: GoalProvedEvent,
    },
}

impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = decode::WireEvent::deserialize(deserializer)?;
        wire.into_event().map_err(serde::de::Error::custom)
    }
}

crate::names::named_enum! {
    /// What kind of action produced a proposal (`derive` when a log does not say). Written and
    /// read as its `as_str` name.
    #[derive(Default)]
    pub enum ActionKind {
        #[default]
        Derive = "derive",
        Extend = "extend",
        Assume = "assume",
        Refute = "refute",
        Accept = "accept",
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProposalEvent {
    pub proposal_id: String,
    pub latex: String,
    pub premises: Vec<String>,
    pub rule: String,
    pub kind: ActionKind,
    /// For assumptions: the assumption this one is nested in (display only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
    /// A `linarith` step's multipliers as written (numbers as their decimal text), so a replay
    /// or a later re-check runs the same check as the proposal did. Absent in older logs and
    /// for every other step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificate: Option<Vec<String>>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AcceptedEvent {
    pub conclusion_id: String,
    pub latex: String,
    pub derived_from: Vec<String>,
    pub rule: String,
    pub proposed_by: String,
    pub verified_by: String,
    /// The open assumptions (`A-n`) this item rests on; empty means it follows from the
    /// hypotheses alone.
    pub depends_on: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub discharged: Vec<String>,
    /// False when the engine could not check the rule and a verifier vouched for it.
    pub checked: bool,
}

crate::names::named_enum! {
    /// Which stage of the engine refused an action. Written and read as its `as_str` name.
    pub enum RejectCategory {
        /// Agent, well-formedness, premise existence, rule arity.
        Structure = "structure",
        /// Citing a goal, itself, a later step, or a chain that returns to itself.
        Circularity = "circularity",
        /// The rule checker found the step wrong.
        Rule = "rule",
        /// Accept/refute protocol violations (self-acceptance, unknown target).
        Protocol = "protocol",
        /// A refutation by an agent that the engine upheld.
        Refutation = "refutation",
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RejectedEvent {
    /// The proposal's id, or `None` when the action never became a proposal
    /// (unregistered agent, unparseable formula, an `accept`/`refute` action).
    pub proposal_id: Option<String>,
    pub action_type: ActionKind,
    pub latex: String,
    /// The log format's human-readable field; the same text as `message`.
    pub reason: String,
    pub refuted_by: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_id: Option<String>,
    pub category: RejectCategory,
    pub code: RejectCode,
    pub message: String,
    #[serde(rename = "premise_ids")]
    pub premise_ids: Vec<String>,
    /// For BLOCKED: the rejected items that were cited.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub blocked_by: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContradictionEvent {
    pub refutation_id: String,
    pub target_id: String,
    /// The refuter's claim: `contradiction`, `invalid_derivation`, `missing_premise`, `circular`.
    #[serde(rename = "type")]
    pub kind: String,
    pub contradiction_reason: String,
    /// The engine's verdict after re-checking the target.
    pub upheld: bool,
    pub engine_note: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RetractedEvent {
    pub conclusion_id: String,
    pub latex: String,
    /// The item whose removal caused this one (itself for the refuted item).
    pub cause_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refutation_id: Option<String>,
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GoalProvedEvent {
    pub goal_id: String,
    pub proof_conclusion_id: String,
}

impl Event {
    pub fn event_type(&self) -> &'static str {
        match self {
            Event::Proposal { .. } => "PROPOSAL",
            Event::Accepted { .. } => "ACCEPTED",
            Event::Rejected { .. } => "REJECTED",
            Event::Blocked { .. } => "BLOCKED",
            Event::Contradiction { .. } => "CONTRADICTION",
            Event::Retracted { .. } => "RETRACTED",
            Event::GoalProved { .. } => "GOAL_PROVED",
        }
    }

    pub fn source(&self) -> &str {
        match self {
            Event::Proposal { source, .. }
            | Event::Accepted { source, .. }
            | Event::Rejected { source, .. }
            | Event::Blocked { source, .. }
            | Event::Contradiction { source, .. }
            | Event::Retracted { source, .. }
            | Event::GoalProved { source, .. } => source,
        }
    }

    /// The id of the item this event is about (for highlighting a step in the DAG).
    pub fn subject_id(&self) -> Option<&str> {
        match self {
            Event::Proposal { content, .. } => Some(&content.proposal_id),
            Event::Accepted { content, .. } => Some(&content.conclusion_id),
            Event::Rejected { content, .. } | Event::Blocked { content, .. } => content
                .proposal_id
                .as_deref()
                .or(content.target_id.as_deref()),
            Event::Contradiction { content, .. } => Some(&content.target_id),
            Event::Retracted { content, .. } => Some(&content.conclusion_id),
            Event::GoalProved { content, .. } => Some(&content.proof_conclusion_id),
        }
    }

    /// A one-line summary for logs and the event card.
    pub fn summary(&self) -> String {
        match self {
            Event::Proposal { source, content } => format!(
                "{source} proposes {} by {} from [{}]",
                content.proposal_id,
                if content.rule.is_empty() {
                    "?"
                } else {
                    &content.rule
                },
                content.premises.join(", ")
            ),
            Event::Accepted { content, .. } => format!(
                "{} accepted (verified by {})",
                content.conclusion_id, content.verified_by
            ),
            Event::Rejected { content, .. } => format!(
                "{} rejected ({}): {}",
                content
                    .proposal_id
                    .as_deref()
                    .unwrap_or(content.action_type.as_str()),
                code_str(content.code),
                content.message
            ),
            Event::Blocked { content, .. } => format!(
                "{} blocked: {}",
                content.proposal_id.as_deref().unwrap_or("action"),
                content.message
            ),
            Event::Contradiction { source, content } => format!(
                "{source} refutes {} ({}): {}",
                content.target_id,
                if content.upheld {
                    "upheld"
                } else {
                    "dismissed"
                },
                content.engine_note
            ),
            Event::Retracted { content, .. } => {
                format!("{} retracted: {}", content.conclusion_id, content.reason)
            }
            Event::GoalProved { content, .. } => format!(
                "goal {} proved by {}",
                content.goal_id, content.proof_conclusion_id
            ),
        }
    }
}

/// The refute-vocabulary spelling of a code (as in `dev_cases.jsonl`).
pub fn code_str(code: RejectCode) -> &'static str {
    code.as_str()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proposal_serialises_to_the_seed_shape() {
        let ev = Event::Proposal {
            source: "researcher-1".into(),
            content: ProposalEvent {
                proposal_id: "C-001".into(),
                latex: "$a + b = c$".into(),
                premises: vec!["H-1".into(), "H-2".into()],
                rule: "algebraic".into(),
                kind: ActionKind::Derive,
                parent: None,
                explanation: None,
                certificate: None,
            },
        };
        let v = serde_json::to_value(&ev).unwrap();
        assert_eq!(v["eventType"], "PROPOSAL");
        assert_eq!(v["source"], "researcher-1");
        assert_eq!(v["content"]["proposalId"], "C-001");
        assert_eq!(v["content"]["premises"][1], "H-2");
        assert_eq!(v["content"]["rule"], "algebraic");
        let back: Event = serde_json::from_value(v).unwrap();
        assert_eq!(back, ev);
    }

    #[test]
    fn rejected_carries_category_code_message_and_premise_ids() {
        let ev = Event::Rejected {
            source: SYSTEM.into(),
            content: RejectedEvent {
                proposal_id: Some("C-002".into()),
                action_type: ActionKind::Derive,
                latex: "$x = y$".into(),
                reason: "premise H-99 does not exist".into(),
                refuted_by: "engine".into(),
                target_id: None,
                category: RejectCategory::Structure,
                code: RejectCode::MissingPremise,
                message: "premise H-99 does not exist".into(),
                premise_ids: vec!["H-99".into()],
                blocked_by: vec![],
            },
        };
        let v = serde_json::to_value(&ev).unwrap();
        assert_eq!(v["eventType"], "REJECTED");
        assert_eq!(v["content"]["code"], "missing_premise");
        assert_eq!(v["content"]["category"], "structure");
        assert_eq!(v["content"]["premise_ids"][0], "H-99");
        assert_eq!(v["content"]["reason"], "premise H-99 does not exist");
        assert!(v["content"].get("blockedBy").is_none());
    }

    /// Each value is written as its name and read back from it; the names are distinct.
    fn names_round_trip<T>(all: &[T], name: fn(T) -> &'static str)
    where
        T: Copy + PartialEq + std::fmt::Debug + Serialize + for<'de> Deserialize<'de>,
    {
        for &value in all {
            let json = serde_json::to_string(&value).unwrap();
            assert_eq!(json, format!("\"{}\"", name(value)));
            assert_eq!(serde_json::from_str::<T>(&json).unwrap(), value);
            assert_eq!(all.iter().filter(|v| name(**v) == name(value)).count(), 1);
        }
        let err = serde_json::from_str::<T>("\"nope\"")
            .unwrap_err()
            .to_string();
        assert!(err.contains(name(all[0])), "{err}");
        assert!(serde_json::from_str::<T>("0").is_err());
    }

    #[test]
    fn enums_are_written_and_read_as_their_names() {
        names_round_trip(&ActionKind::ALL, ActionKind::as_str);
        names_round_trip(&RejectCategory::ALL, RejectCategory::as_str);
        names_round_trip(&RejectCode::ALL, RejectCode::as_str);
        assert_eq!(
            code_str(RejectCode::InvalidDerivation),
            "invalid_derivation"
        );
    }
}
