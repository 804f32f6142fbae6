//! An engine rebuilt from its event log ([`Engine::from_log`]): every recorded action is
//! submitted again and must produce exactly the events that follow it.

use std::fmt::Write as _;

use serde_json::Value;

use super::action::{action_kind, Action, ParsedAction};
use super::{rejection, Engine, EngineConfig, StepRejection};
use crate::logic::events::{
    ActionKind, Event, ProposalEvent, RejectCategory, RejectCode, RejectedEvent, SYSTEM,
};
use crate::logic::world::{ItemStatus, Problem, ProblemError};

/// Why `Engine::from_log` refused a log: the log is not one this engine could have written.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LogRefused {
    #[error("problem: {0}")]
    Problem(#[from] ProblemError),
    /// `number` is 1-based (the first event is event 1).
    #[error("event {number} ({event_type}): {reason}")]
    Event {
        number: usize,
        event_type: &'static str,
        reason: String,
    },
}

/// The action that produced a PROPOSAL (for replaying a log through `submit`).
fn action_of_proposal(source: &str, p: &ProposalEvent) -> Option<Action> {
    let mut params = serde_json::Map::new();
    let mut put = |k: &str, v: Value| {
        params.insert(k.to_string(), v);
    };
    match p.kind {
        ActionKind::Derive => {
            put("conclusion", Value::from(p.latex.as_str()));
            put("premises", Value::from(p.premises.clone()));
            put("rule", Value::from(p.rule.as_str()));
        }
        ActionKind::Extend => {
            let (base, rest) = p.premises.split_first()?;
            put("baseConclusionId", Value::from(base.as_str()));
            put("extension", Value::from(p.latex.as_str()));
            put("premises", Value::from(rest.to_vec()));
            put("rule", Value::from(p.rule.as_str()));
        }
        ActionKind::Assume => {
            put("formula", Value::from(p.latex.as_str()));
            if let Some(parent) = &p.parent {
                put("parent", Value::from(parent.as_str()));
            }
        }
        ActionKind::Accept | ActionKind::Refute => return None,
    }
    if let Some(e) = &p.explanation {
        put("explanation", Value::from(e.as_str()));
    }
    if let Some(c) = &p.certificate {
        put("certificate", Value::from(c.clone()));
    }
    Some(Action {
        agent: source.to_string(),
        action_type: p.kind.as_str().to_string(),
        params: Value::Object(params),
    })
}

impl Engine {
    /// Continue from a recorded log (the page's action form after loading a log).
    ///
    /// The log is replayed through `submit`: every action it records (a PROPOSAL, an ACCEPTED
    /// by a researcher, a CONTRADICTION) is submitted again and must produce exactly the events
    /// that follow it in the log, so the engine ends in the state of the engine that wrote the
    /// log — counters, dependencies and checks included — or the log is refused with the
    /// (1-based) number of the first event the engine would not have written, and why.
    /// Refusals are taken as recorded (a refusal only removes a proposal from play, and a
    /// script's refusals may rest on what the script knew, see `protocol`): a REJECTED or
    /// BLOCKED right after its PROPOSAL, of a pending proposal, or of an action that never
    /// became a proposal.
    pub fn from_log(
        problem: Problem,
        config: EngineConfig,
        events: &[Event],
    ) -> Result<Self, LogRefused> {
        let mut engine = Engine::new(problem, config)?;
        let mut i = 0;
        while i < events.len() {
            i += engine.replay_from(events, i)?;
        }
        Ok(engine)
    }

    /// Replays the action recorded at `log[i]`; returns how many events it accounts for.
    fn replay_from(&mut self, log: &[Event], i: usize) -> Result<usize, LogRefused> {
        let Some(event) = log.get(i) else {
            return Ok(1);
        };
        let refuse = |number: usize, reason: String| LogRefused::Event {
            number: number + 1,
            event_type: log.get(number).map_or("end", Event::event_type),
            reason,
        };
        let action = match event {
            Event::Proposal { source, content } => match action_of_proposal(source, content) {
                Some(a) => a,
                None => {
                    return Err(refuse(
                        i,
                        format!(
                            "a proposal of kind `{}` is not something the engine writes",
                            content.kind.as_str()
                        ),
                    ))
                }
            },
            Event::Accepted { source, content } if source != SYSTEM => Action::new(
                source,
                "accept",
                serde_json::json!({"proposalId": content.conclusion_id}),
            ),
            Event::Contradiction { source, content } => Action::new(
                source,
                "refute",
                serde_json::json!({"targetId": content.target_id, "type": content.kind,
                                   "reason": content.contradiction_reason}),
            ),
            Event::Rejected { content, .. } | Event::Blocked { content, .. } => {
                return self
                    .replay_refusal(event, content)
                    .map(|_| 1)
                    .map_err(|why| refuse(i, why));
            }
            other => {
                return Err(refuse(
                    i,
                    format!(
                        "the engine writes {} only right after the action that causes it",
                        other.event_type()
                    ),
                ))
            }
        };
        // A proposal the log refused at once: the proposal must be the engine's, the refusal
        // is taken as recorded.
        if let (
            Event::Proposal { content, .. },
            Some(next @ (Event::Rejected { content: r, .. } | Event::Blocked { content: r, .. })),
        ) = (event, log.get(i + 1))
        {
            if r.proposal_id.as_deref() == Some(content.proposal_id.as_str())
                && content.kind != ActionKind::Assume
            {
                let start = self.events.len();
                let made = self.open_proposal_of(&action);
                match (made, self.events.get(start)) {
                    (Ok(_), Some(ours)) if ours == event => {}
                    (Ok(_), Some(ours)) => {
                        return Err(refuse(
                            i,
                            format!("the engine writes `{}` here", ours.summary()),
                        ))
                    }
                    (Ok(_), None) => return Err(refuse(i, "no proposal was made".to_string())),
                    (Err(r), _) => {
                        return Err(refuse(
                            i,
                            format!(
                                "the engine refuses this action: {}: {}",
                                r.code.as_str(),
                                r.message
                            ),
                        ))
                    }
                }
                self.replay_refusal(next, r)
                    .map_err(|why| refuse(i + 1, why))?;
                return Ok(2);
            }
        }
        let start = self.events.len();
        let outcome = self.submit(&action);
        let produced = self.events.get(start..).unwrap_or_default();
        for (j, ours) in produced.iter().enumerate() {
            let theirs = log.get(i + j);
            if theirs == Some(ours) {
                continue;
            }
            let theirs_refuses =
                matches!(theirs, Some(Event::Rejected { .. } | Event::Blocked { .. }));
            if let (Err(r), false) = (&outcome.result, theirs_refuses) {
                return Err(refuse(
                    i,
                    format!(
                        "the engine refuses this {}: {}: {}",
                        action.action_type,
                        r.code.as_str(),
                        r.message
                    ),
                ));
            }
            let at = (i + j).min(log.len().saturating_sub(1));
            let mut reason = format!("the engine writes `{}` here", ours.summary());
            match theirs {
                Some(t) => {
                    let _ = write!(reason, "; the log has `{}`", t.summary());
                }
                None => reason.push_str("; the log ends before it"),
            }
            return Err(refuse(at, reason));
        }
        Ok(produced.len().max(1))
    }

    /// A REJECTED or BLOCKED event taken as recorded: it may refuse a pending proposal, or
    /// record the refusal of an action that never became one; nothing else.
    fn replay_refusal(&mut self, event: &Event, content: &RejectedEvent) -> Result<(), String> {
        let about_proposal = matches!(
            content.action_type,
            ActionKind::Derive | ActionKind::Extend | ActionKind::Assume
        );
        if let Some(id) = content.proposal_id.as_deref().filter(|_| about_proposal) {
            match self.state.item(id).map(|i| i.status) {
                Some(ItemStatus::Pending) => {}
                Some(status) => {
                    return Err(format!(
                        "{id} is {}: only a pending proposal can be refused",
                        status.as_str()
                    ))
                }
                None => return Err(format!("there is no proposal {id} to refuse")),
            }
        }
        self.push(event.clone());
        Ok(())
    }

    /// The PROPOSAL of a derive/extend action, without checking the step (replay of a log
    /// that recorded the step's refusal).
    fn open_proposal_of(&mut self, action: &Action) -> Result<String, StepRejection> {
        let kind = action_kind(&action.action_type).map_err(|e| {
            rejection(
                RejectCode::Malformed,
                RejectCategory::Structure,
                e.to_string(),
            )
        })?;
        self.check_agent(&action.agent).map_err(|message| {
            rejection(RejectCode::Unauthorized, RejectCategory::Protocol, message)
        })?;
        match ParsedAction::parse(kind, &action.params) {
            Ok(ParsedAction::Derive(request)) => Ok(self.open_proposal(&action.agent, &request)),
            Ok(_) => Err(rejection(
                RejectCode::Malformed,
                RejectCategory::Structure,
                "not a derive or extend action".to_string(),
            )),
            Err(e) => Err(rejection(
                RejectCode::Malformed,
                RejectCategory::Structure,
                e.to_string(),
            )),
        }
    }
}
