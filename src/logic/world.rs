//! The world state of a problem, and how one event changes it.
//!
//! `apply_event` is the only way the state changes: the live engine emits an event and then
//! applies it through this same function, so a replay of the log reaches exactly the state the
//! engine had (determinism by construction, not by a second implementation).

use std::collections::HashMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::events::{ActionKind, Event, RejectCode, RejectedEvent};

/// A problem as docs/logic.md and `dev_cases.jsonl` describe it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Problem {
    #[serde(default)]
    pub id: String,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub hypotheses: Vec<Hypothesis>,
    #[serde(default)]
    pub goals: Vec<GoalSpec>,
    #[serde(default)]
    pub agents: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hypothesis {
    pub id: String,
    pub latex: String,
    /// The problem file's `type` (docs/logic.md): `given`, `axiom`, ...
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GoalSpec {
    pub id: String,
    pub latex: String,
}

crate::names::named_enum! {
    pub enum ItemStatus {
        Pending = "pending",
        Accepted = "accepted",
        Rejected = "rejected",
        Blocked = "blocked",
        Retracted = "retracted",
    }
}

/// The id series the engine issues: proposals `C-001`, assumptions `A-1`, refutations `R-1`.
/// A problem's own ids (hypotheses, goals) must not start with these prefixes, so an id always
/// names exactly one thing: a goal `C-001` would otherwise be overwritten by the first proposal.
pub const ENGINE_ID_PREFIXES: [&str; 3] = ["C-", "A-", "R-"];

/// Why a problem cannot be given to the engine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProblemError {
    #[error(
        "{what} id `{id}` is in the engine's namespace: ids starting with C-, A- or R- name \
         the engine's proposals, assumptions and refutations; rename it (e.g. H-… or G-…)"
    )]
    ReservedId { what: &'static str, id: String },
    #[error("id `{id}` is used twice in the problem (hypotheses and goals need distinct ids)")]
    DuplicateId { id: String },
    #[error("a {what} has an empty id")]
    EmptyId { what: &'static str },
}

impl Problem {
    /// Hypothesis and goal ids are non-empty, distinct, and outside the engine's id series.
    pub fn check_ids(&self) -> Result<(), ProblemError> {
        let ids = self
            .hypotheses
            .iter()
            .map(|h| ("hypothesis", h.id.as_str()))
            .chain(self.goals.iter().map(|g| ("goal", g.id.as_str())));
        let mut seen: Vec<&str> = Vec::new();
        for (what, id) in ids {
            if id.trim().is_empty() {
                return Err(ProblemError::EmptyId { what });
            }
            if ENGINE_ID_PREFIXES.iter().any(|p| id.starts_with(p)) {
                return Err(ProblemError::ReservedId {
                    what,
                    id: id.to_string(),
                });
            }
            if seen.contains(&id) {
                return Err(ProblemError::DuplicateId { id: id.to_string() });
            }
            seen.push(id);
        }
        Ok(())
    }
}

/// A proposal, conclusion or assumption, whatever became of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Item {
    pub id: String,
    pub kind: ActionKind,
    pub latex: String,
    pub premises: Vec<String>,
    pub rule: String,
    pub proposed_by: String,
    pub parent: Option<String>,
    pub explanation: Option<String>,
    /// A `linarith` certificate given with the proposal (re-checks use it too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certificate: Option<Vec<String>>,
    pub status: ItemStatus,
    pub verified_by: Option<String>,
    /// Open assumptions this item rests on (known once accepted).
    pub depends_on: Vec<String>,
    pub discharged: Vec<String>,
    pub checked: bool,
    pub code: Option<RejectCode>,
    pub message: Option<String>,
    /// Index of the event that last changed this item (for the stepper).
    pub last_event: usize,
}

impl Item {
    pub fn is_assumption(&self) -> bool {
        self.kind == ActionKind::Assume
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GoalState {
    pub id: String,
    pub latex: String,
    pub proved_by: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Refutation {
    pub id: String,
    pub target_id: String,
    pub kind: String,
    pub reason: String,
    pub by: String,
    pub upheld: bool,
    pub note: String,
}

/// Everything the panels show at one step of the log.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct WorldState {
    pub problem: Problem,
    /// Proposals in the order they were made. Shared, so a snapshot of a world with 50,000
    /// items costs 50,000 reference counts, not 50,000 deep copies; a changed item is copied
    /// on write.
    pub items: Vec<Arc<Item>>,
    #[serde(skip)]
    index: HashMap<Arc<str>, usize>,
    pub goals: Vec<GoalState>,
    pub refutations: Vec<Refutation>,
    /// Every REJECTED/BLOCKED verdict, including actions that never became proposals.
    pub rejections: Vec<RejectedEvent>,
    /// Number of events applied so far.
    pub step: usize,
    pub next_conclusion: usize,
    pub next_assumption: usize,
    pub next_refutation: usize,
}

/// An event that does not fit the state it is applied to (a hand-edited or truncated log).
/// Replay reports it and keeps going.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("event {index} ({event_type}): {message}")]
pub struct ReplayIssue {
    pub index: usize,
    pub event_type: &'static str,
    pub message: String,
}

impl WorldState {
    pub fn new(problem: Problem) -> Self {
        let goals = problem
            .goals
            .iter()
            .map(|g| GoalState {
                id: g.id.clone(),
                latex: g.latex.clone(),
                proved_by: None,
            })
            .collect();
        WorldState {
            problem,
            goals,
            next_conclusion: 1,
            next_assumption: 1,
            next_refutation: 1,
            ..Default::default()
        }
    }

    /// The last `limit` items whose status is one of `statuses`, oldest first, and how many
    /// earlier ones matched but were left out (panels of a huge world show the newest).
    pub fn latest_items(&self, statuses: &[ItemStatus], limit: usize) -> (Vec<Arc<Item>>, usize) {
        let mut matching = self
            .items
            .iter()
            .filter(|i| statuses.contains(&i.status))
            .cloned();
        let total = matching.clone().count();
        let skipped = total.saturating_sub(limit);
        let shown = matching.by_ref().skip(skipped).collect();
        (shown, skipped)
    }

    /// Where `id` is in `items` (the order proposals were made).
    pub fn item_position(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied()
    }

    pub fn item(&self, id: &str) -> Option<&Item> {
        self.index
            .get(id)
            .and_then(|&i| self.items.get(i))
            .map(|i| &**i)
    }

    fn item_mut(&mut self, id: &str) -> Option<&mut Item> {
        match self.index.get(id) {
            Some(&i) => self.items.get_mut(i).map(Arc::make_mut),
            None => None,
        }
    }

    pub fn hypothesis(&self, id: &str) -> Option<&Hypothesis> {
        self.problem.hypotheses.iter().find(|h| h.id == id)
    }

    pub fn goal(&self, id: &str) -> Option<&GoalState> {
        self.goals.iter().find(|g| g.id == id)
    }

    pub fn items_with(&self, status: ItemStatus) -> impl Iterator<Item = &Item> {
        self.items
            .iter()
            .map(|i| &**i)
            .filter(move |i| i.status == status)
    }

    pub fn all_goals_proved(&self) -> bool {
        !self.goals.is_empty() && self.goals.iter().all(|g| g.proved_by.is_some())
    }

    /// The next conclusion id, `C-001` style as in docs/logic.md.
    pub fn peek_conclusion_id(&self) -> String {
        format!("C-{:03}", self.next_conclusion)
    }

    pub fn peek_assumption_id(&self) -> String {
        format!("A-{}", self.next_assumption)
    }

    pub fn peek_refutation_id(&self) -> String {
        format!("R-{}", self.next_refutation)
    }

    fn note_id(&mut self, id: &str) {
        let number = |prefix: &str| {
            id.strip_prefix(prefix)
                .and_then(|n| n.parse::<usize>().ok())
        };
        if let Some(n) = number("C-") {
            self.next_conclusion = self.next_conclusion.max(n.saturating_add(1));
        } else if let Some(n) = number("A-") {
            self.next_assumption = self.next_assumption.max(n.saturating_add(1));
        } else if let Some(n) = number("R-") {
            self.next_refutation = self.next_refutation.max(n.saturating_add(1));
        }
    }

    fn insert_item(&mut self, item: Item) {
        self.note_id(&item.id);
        match self.index.get(item.id.as_str()) {
            Some(&i) => {
                if let Some(slot) = self.items.get_mut(i) {
                    *slot = Arc::new(item);
                }
            }
            None => {
                self.index
                    .insert(Arc::from(item.id.as_str()), self.items.len());
                self.items.push(Arc::new(item));
            }
        }
    }

    /// Apply one event. Inconsistent events are applied as far as they make sense and
    /// reported; the state never panics on a bad log.
    pub fn apply(&mut self, event: &Event) -> Result<(), ReplayIssue> {
        self.step += 1;
        // Counted from 1, as docs/logic.md and the engine's refusals count events.
        let index = self.step;
        let issue = |message: String| ReplayIssue {
            index,
            event_type: event.event_type(),
            message,
        };
        match event {
            Event::Proposal { source, content } => {
                if self.index.contains_key(content.proposal_id.as_str()) {
                    return Err(issue(format!(
                        "{} was already proposed; ignored",
                        content.proposal_id
                    )));
                }
                self.insert_item(Item {
                    id: content.proposal_id.clone(),
                    kind: content.kind,
                    latex: content.latex.clone(),
                    premises: content.premises.clone(),
                    rule: content.rule.clone(),
                    proposed_by: source.clone(),
                    parent: content.parent.clone(),
                    explanation: content.explanation.clone(),
                    certificate: content.certificate.clone(),
                    status: ItemStatus::Pending,
                    verified_by: None,
                    depends_on: Vec::new(),
                    discharged: Vec::new(),
                    checked: true,
                    code: None,
                    message: None,
                    last_event: index,
                });
                Ok(())
            }
            Event::Accepted { content, .. } => {
                if let Some(item) = self.item_mut(&content.conclusion_id) {
                    item.status = ItemStatus::Accepted;
                    item.verified_by = Some(content.verified_by.clone());
                    item.depends_on = content.depends_on.clone();
                    item.discharged = content.discharged.clone();
                    item.checked = content.checked;
                    item.last_event = index;
                    return Ok(());
                }
                // Condensed logs (docs/logic.md) carry ACCEPTED without a PROPOSAL: the ACCEPTED
                // content has everything a conclusion needs.
                let kind = if content.conclusion_id.starts_with("A-") {
                    ActionKind::Assume
                } else {
                    ActionKind::Derive
                };
                self.insert_item(Item {
                    id: content.conclusion_id.clone(),
                    kind,
                    latex: content.latex.clone(),
                    premises: content.derived_from.clone(),
                    rule: content.rule.clone(),
                    proposed_by: content.proposed_by.clone(),
                    parent: None,
                    explanation: None,
                    certificate: None,
                    status: ItemStatus::Accepted,
                    verified_by: Some(content.verified_by.clone()),
                    depends_on: content.depends_on.clone(),
                    discharged: content.discharged.clone(),
                    checked: content.checked,
                    code: None,
                    message: None,
                    last_event: index,
                });
                Ok(())
            }
            Event::Rejected { content, .. } | Event::Blocked { content, .. } => {
                let blocked = matches!(event, Event::Blocked { .. });
                self.rejections.push(content.clone());
                let about_proposal = matches!(
                    content.action_type,
                    ActionKind::Derive | ActionKind::Extend | ActionKind::Assume
                );
                let Some(id) = content.proposal_id.as_deref().filter(|_| about_proposal) else {
                    return Ok(());
                };
                match self.item_mut(id) {
                    Some(item) => {
                        item.status = if blocked {
                            ItemStatus::Blocked
                        } else {
                            ItemStatus::Rejected
                        };
                        item.code = Some(content.code);
                        item.message = Some(content.message.clone());
                        item.last_event = index;
                        Ok(())
                    }
                    None => Err(issue(format!("no proposal {id} to reject"))),
                }
            }
            Event::Contradiction { source, content } => {
                self.note_id(&content.refutation_id);
                self.refutations.push(Refutation {
                    id: content.refutation_id.clone(),
                    target_id: content.target_id.clone(),
                    kind: content.kind.clone(),
                    reason: content.contradiction_reason.clone(),
                    by: source.clone(),
                    upheld: content.upheld,
                    note: content.engine_note.clone(),
                });
                Ok(())
            }
            Event::Retracted { content, .. } => {
                for goal in &mut self.goals {
                    if goal.proved_by.as_deref() == Some(content.conclusion_id.as_str()) {
                        goal.proved_by = None;
                    }
                }
                match self.item_mut(&content.conclusion_id) {
                    Some(item) => {
                        item.status = ItemStatus::Retracted;
                        item.message = Some(content.reason.clone());
                        item.last_event = index;
                        Ok(())
                    }
                    None => Err(issue(format!(
                        "no conclusion {} to retract",
                        content.conclusion_id
                    ))),
                }
            }
            Event::GoalProved { content, .. } => {
                match self.goals.iter_mut().find(|g| g.id == content.goal_id) {
                    Some(goal) => {
                        goal.proved_by = Some(content.proof_conclusion_id.clone());
                        Ok(())
                    }
                    None => Err(issue(format!("no goal {}", content.goal_id))),
                }
            }
        }
    }
}
