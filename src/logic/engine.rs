//! The rule engine: takes researchers' actions, checks them, and emits the events that change
//! the world state.
//!
//! Order of checks for `derive`/`extend` (the order decides which code a user sees when a
//! step has several faults, and follows the labels of `dev_cases.jsonl`):
//! registered agent → well-formed params and parseable conclusion (no proposal id yet) →
//! PROPOSAL → premises (circular before missing before blocked) → rule arity → rule check.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::events::{
    AcceptedEvent, ActionKind, ContradictionEvent, Event, GoalProvedEvent, ProposalEvent,
    RejectCategory, RejectCode, RejectedEvent, RetractedEvent, SYSTEM,
};
use super::formula::{parse_formula, Formula};
use super::rules::{
    certificate_of, check_step_with, rule_spec, CheckContext, Premise, StepOptions,
};
use super::world::{ItemStatus, Problem, ProblemError, WorldState};

/// The verifier name written into ACCEPTED events when the engine itself accepts
/// (the `auto-accept-v1` protocol).
pub const ENGINE_VERIFIER: &str = "engine";

/// One researcher action, in the seed's JSON shape: `{"agent", "actionType", "params"}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Action {
    pub agent: String,
    pub action_type: String,
    #[serde(default)]
    pub params: Value,
}

impl Action {
    pub fn new(agent: &str, action_type: &str, params: Value) -> Self {
        Action {
            agent: agent.to_string(),
            action_type: action_type.to_string(),
            params,
        }
    }
}

/// How much the engine checks by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleChecking {
    /// Every step goes through the rule checker; unknown rules are rejected.
    Full,
    /// The seed's original engine: structural checks only, correctness left to the verifying
    /// agent. Refutations are still re-checked with the real checker.
    StructuralOnly,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineConfig {
    /// The checker itself accepts every proposal that passes (`auto-accept-v1`); otherwise
    /// proposals wait for an `accept` by a different registered agent.
    pub auto_accept: bool,
    pub rule_checking: RuleChecking,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            auto_accept: false,
            rule_checking: RuleChecking::Full,
        }
    }
}

impl EngineConfig {
    pub fn auto_accept() -> Self {
        EngineConfig {
            auto_accept: true,
            rule_checking: RuleChecking::Full,
        }
    }
}

/// What a caller that replays a prepared script knows about a cited id that the engine cannot
/// know by itself (see `protocol`): the id belongs to a later step, to nothing, or to a step
/// that was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CitationHint {
    Later,
    Unknown,
    Rejected,
}

/// Why an action was refused.
#[derive(Clone, Debug, PartialEq)]
pub struct StepRejection {
    pub code: RejectCode,
    pub category: RejectCategory,
    pub message: String,
    /// True when the action only cited something rejected (event BLOCKED).
    pub blocked: bool,
    /// Set when the action had become a proposal before it was refused.
    pub proposal_id: Option<String>,
    /// The cited ids at fault (all cited ids when the rule check failed).
    pub premise_ids: Vec<String>,
}

/// The result of one action and the events it produced (`events` indexes the engine's log).
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The id of the new (or accepted, or refutation) item.
    pub result: Result<String, StepRejection>,
    pub events: std::ops::Range<usize>,
}

/// A problem whose hypotheses or goals do not parse still loads; these say which and where.
#[derive(Clone, Debug, PartialEq)]
pub struct ProblemIssue {
    pub id: String,
    pub position: usize,
    pub message: String,
}

/// What a passing check yields: the accepted item's dependencies. Not stored for pending
/// proposals: `accept` checks again, so the world state is the engine's only state and a
/// rebuilt engine cannot lose it.
#[derive(Clone, Debug)]
struct PendingCheck {
    depends_on: Vec<String>,
    discharged: Vec<String>,
    checked: bool,
}

pub struct Engine {
    config: EngineConfig,
    state: WorldState,
    events: Vec<Event>,
    /// Parsed formulas of hypotheses, goals and proposals, by id.
    formulas: HashMap<String, Formula>,
    hypothesis_formulas: Vec<Formula>,
    problem_issues: Vec<ProblemIssue>,
}

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

fn param_str<'a>(params: &'a Value, key: &str) -> Option<&'a str> {
    params.get(key).and_then(Value::as_str)
}

fn param_ids(params: &Value, key: &'static str) -> Result<Vec<String>, ActionError> {
    match params.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or(ActionError::IdsNotStrings(key))
            })
            .collect(),
        Some(_) => Err(ActionError::NotAList(key)),
    }
}

/// The formula text of a refused action, for its REJECTED event.
fn action_latex(action: &Action) -> String {
    ["conclusion", "extension", "formula"]
        .iter()
        .find_map(|k| param_str(&action.params, k))
        .unwrap_or_default()
        .to_string()
}

/// Like `Formula::same_up_to_bound_renaming`, for goals that did not parse: compare text.
fn normalised_latex(latex: &str) -> String {
    latex
        .trim()
        .trim_matches('$')
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A `derive` or `extend` action, read from its params (`extend`: the base conclusion is the
/// first premise).
#[derive(Clone, Debug, PartialEq)]
pub struct DeriveRequest {
    pub latex: String,
    pub premises: Vec<String>,
    pub rule: String,
    pub kind: ActionKind,
    pub explanation: Option<String>,
    pub certificate: Option<Vec<String>>,
}

impl DeriveRequest {
    /// The request a proposal was made from (for the check at accept and refute time).
    fn of_item(item: &super::world::Item) -> Self {
        DeriveRequest {
            latex: item.latex.clone(),
            premises: item.premises.clone(),
            rule: item.rule.clone(),
            kind: item.kind,
            explanation: item.explanation.clone(),
            certificate: item.certificate.clone(),
        }
    }
}

/// An action read once at the edge: nothing after `ParsedAction::parse` looks at JSON.
#[derive(Clone, Debug, PartialEq)]
pub enum ParsedAction {
    Derive(DeriveRequest),
    Assume {
        latex: String,
        parent: Option<String>,
        explanation: Option<String>,
    },
    Accept {
        proposal_id: String,
    },
    Refute {
        target_id: String,
        claim: String,
        reason: String,
    },
}

/// Why an action's params cannot be read (all `malformed`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    #[error("unknown actionType `{0}` (derive, extend, assume, refute, accept)")]
    UnknownType(String),
    #[error("extend needs `baseConclusionId`")]
    MissingBase,
    #[error("`{0}` must list ids as strings")]
    IdsNotStrings(&'static str),
    #[error("`{0}` must be a list of ids")]
    NotAList(&'static str),
    #[error("`{0}` is empty: a proposal needs a LaTeX formula")]
    EmptyConclusion(&'static str),
    #[error("`formula` is empty: an assumption needs a LaTeX formula")]
    EmptyAssumption,
    #[error("`rule` is missing")]
    MissingRule,
    #[error("the formula does not parse at position {position}: {message}")]
    Unparsable { position: usize, message: String },
    #[error("{0}")]
    Certificate(String),
    #[error("accept needs `proposalId`")]
    MissingProposalId,
    #[error("refute needs `targetId`")]
    MissingTarget,
}

/// The action type named by `actionType`.
pub fn action_kind(action_type: &str) -> Result<ActionKind, ActionError> {
    ActionKind::ALL
        .into_iter()
        .find(|k| k.as_str() == action_type)
        .ok_or_else(|| ActionError::UnknownType(action_type.to_string()))
}

fn parsed_formula(latex: &str) -> Result<Formula, ActionError> {
    parse_formula(latex).map_err(|e| ActionError::Unparsable {
        position: e.position,
        message: e.message,
    })
}

fn blank(latex: &str) -> bool {
    latex.trim().trim_matches('$').trim().is_empty()
}

impl ParsedAction {
    pub fn parse(kind: ActionKind, p: &Value) -> Result<Self, ActionError> {
        let text = |key: &str| param_str(p, key).map(str::to_string);
        match kind {
            ActionKind::Derive | ActionKind::Extend => {
                let (latex_key, mut premises) = if kind == ActionKind::Extend {
                    let base = param_str(p, "baseConclusionId")
                        .filter(|s| !s.trim().is_empty())
                        .ok_or(ActionError::MissingBase)?;
                    ("extension", vec![base.to_string()])
                } else {
                    ("conclusion", Vec::new())
                };
                premises.extend(param_ids(p, "premises")?);
                let latex = text(latex_key).unwrap_or_default();
                if blank(&latex) {
                    return Err(ActionError::EmptyConclusion(latex_key));
                }
                let rule = param_str(p, "rule").unwrap_or_default().trim().to_string();
                if rule.is_empty() {
                    return Err(ActionError::MissingRule);
                }
                parsed_formula(&latex)?;
                Ok(ParsedAction::Derive(DeriveRequest {
                    latex,
                    premises,
                    rule,
                    kind,
                    explanation: text("explanation"),
                    certificate: certificate_of(p).map_err(ActionError::Certificate)?,
                }))
            }
            ActionKind::Assume => {
                let latex = text("formula").unwrap_or_default();
                if blank(&latex) {
                    return Err(ActionError::EmptyAssumption);
                }
                parsed_formula(&latex)?;
                Ok(ParsedAction::Assume {
                    latex,
                    parent: text("parent"),
                    explanation: text("explanation"),
                })
            }
            ActionKind::Accept => Ok(ParsedAction::Accept {
                proposal_id: text("proposalId").ok_or(ActionError::MissingProposalId)?,
            }),
            ActionKind::Refute => Ok(ParsedAction::Refute {
                target_id: text("targetId").ok_or(ActionError::MissingTarget)?,
                claim: text("type").unwrap_or_else(|| "invalid_derivation".to_string()),
                reason: text("reason").unwrap_or_default(),
            }),
        }
    }
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
    /// An engine for `problem`; refused when a hypothesis or goal id is empty, repeated, or in
    /// the engine's own id series (see `world::ENGINE_ID_PREFIXES`).
    pub fn new(problem: Problem, config: EngineConfig) -> Result<Self, ProblemError> {
        problem.check_ids()?;
        Ok(Self::build(problem, config))
    }

    /// An engine over a problem with no hypotheses, goals or agents (nothing to cite, nothing
    /// to prove): what a run of a refused problem holds.
    pub(crate) fn empty(problem_id: &str, config: EngineConfig) -> Self {
        let problem = Problem {
            id: problem_id.to_string(),
            ..Problem::default()
        };
        Self::build(problem, config)
    }

    /// `new` after the ids were checked.
    fn build(problem: Problem, config: EngineConfig) -> Self {
        let mut formulas = HashMap::new();
        let mut hypothesis_formulas = Vec::new();
        let mut problem_issues = Vec::new();
        let specs = problem
            .hypotheses
            .iter()
            .map(|h| (h.id.clone(), h.latex.clone(), true))
            .chain(
                problem
                    .goals
                    .iter()
                    .map(|g| (g.id.clone(), g.latex.clone(), false)),
            );
        for (id, latex, is_hypothesis) in specs {
            match parse_formula(&latex) {
                Ok(f) => {
                    if is_hypothesis {
                        hypothesis_formulas.push(f.clone());
                    }
                    formulas.insert(id, f);
                }
                Err(e) => problem_issues.push(ProblemIssue {
                    id,
                    position: e.position,
                    message: e.message,
                }),
            }
        }
        Engine {
            config,
            state: WorldState::new(problem),
            events: Vec::new(),
            formulas,
            hypothesis_formulas,
            problem_issues,
        }
    }

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

    pub fn state(&self) -> &WorldState {
        &self.state
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    pub fn config(&self) -> EngineConfig {
        self.config
    }

    pub fn problem_issues(&self) -> &[ProblemIssue] {
        &self.problem_issues
    }

    fn push(&mut self, event: Event) {
        // The engine's own events always fit its state, and `from_log` lets only those and
        // checked refusals through.
        let _ = self.state.apply(&event);
        self.events.push(event);
    }

    pub fn submit(&mut self, action: &Action) -> Outcome {
        self.submit_with_hints(action, &[])
    }

    /// `hints[i]` overrides what the engine would conclude about the i-th cited id (after
    /// `extend` put its base first).
    pub fn submit_with_hints(
        &mut self,
        action: &Action,
        hints: &[Option<CitationHint>],
    ) -> Outcome {
        let start = self.events.len();
        let result = self.dispatch(action, hints);
        Outcome {
            result,
            events: start..self.events.len(),
        }
    }

    fn check_agent(&self, agent: &str) -> Result<(), String> {
        if self.state.problem.agents.iter().any(|a| a == agent) {
            Ok(())
        } else {
            Err(format!("agent {agent} is not registered"))
        }
    }

    fn dispatch(
        &mut self,
        action: &Action,
        hints: &[Option<CitationHint>],
    ) -> Result<String, StepRejection> {
        let kind = match action_kind(&action.action_type) {
            Ok(k) => k,
            Err(e) => {
                return Err(self.reject_action(
                    ActionKind::Derive,
                    "",
                    RejectCode::Malformed,
                    e.to_string(),
                ))
            }
        };
        if let Err(message) = self.check_agent(&action.agent) {
            let latex = action_latex(action);
            return Err(self.reject_action(kind, &latex, RejectCode::Unauthorized, message));
        }
        let parsed = match ParsedAction::parse(kind, &action.params) {
            Ok(p) => p,
            Err(e) => {
                let latex = match kind {
                    ActionKind::Accept | ActionKind::Refute => String::new(),
                    _ => action_latex(action),
                };
                return Err(self.reject_action(kind, &latex, RejectCode::Malformed, e.to_string()));
            }
        };
        let agent = action.agent.as_str();
        match parsed {
            ParsedAction::Derive(request) => self.derive(agent, request, hints),
            ParsedAction::Assume {
                latex,
                parent,
                explanation,
            } => Ok(self.assume(agent, latex, parent, explanation)),
            ParsedAction::Accept { proposal_id } => self.accept(agent, proposal_id),
            ParsedAction::Refute {
                target_id,
                claim,
                reason,
            } => self.refute(agent, target_id, claim, reason),
        }
    }

    /// Push the PROPOSAL of a derive/extend request under the next conclusion id.
    fn open_proposal(&mut self, agent: &str, request: &DeriveRequest) -> String {
        let id = self.state.peek_conclusion_id();
        self.push(Event::Proposal {
            source: agent.to_string(),
            content: ProposalEvent {
                proposal_id: id.clone(),
                latex: request.latex.clone(),
                premises: request.premises.clone(),
                rule: request.rule.clone(),
                kind: request.kind,
                parent: None,
                explanation: request.explanation.clone(),
                certificate: request.certificate.clone(),
            },
        });
        // The parse succeeded in `ParsedAction::parse`.
        if let Ok(f) = parse_formula(&request.latex) {
            self.formulas.insert(id.clone(), f);
        }
        id
    }

    fn derive(
        &mut self,
        agent: &str,
        request: DeriveRequest,
        hints: &[Option<CitationHint>],
    ) -> Result<String, StepRejection> {
        let id = self.open_proposal(agent, &request);
        match self.check_derivation(&id, &request, hints) {
            Err(rejection) => {
                Err(self.reject_proposal(&id, &request.latex, request.kind, rejection))
            }
            Ok(check) => {
                if self.config.auto_accept {
                    self.accept_checked(&id, ENGINE_VERIFIER, check);
                }
                Ok(id)
            }
        }
    }

    /// Circularity, existence, arity and the rule itself, against the current state.
    fn check_derivation(
        &self,
        own_id: &str,
        request: &DeriveRequest,
        hints: &[Option<CitationHint>],
    ) -> Result<PendingCheck, StepRejection> {
        self.check_citations(own_id, &request.premises, hints)?;
        if let Some(spec) = rule_spec(&request.rule) {
            if !spec.arity.allows(request.premises.len()) {
                return Err(rejection(
                    RejectCode::MissingPremise,
                    RejectCategory::Structure,
                    format!(
                        "{} needs {} premises, got {}",
                        request.rule,
                        spec.arity.describe(),
                        request.premises.len()
                    ),
                ));
            }
        }
        self.check_rule(own_id, request, self.config.rule_checking)
    }

    /// Every cited id must be an accepted item or a hypothesis, earlier than the step.
    fn check_citations(
        &self,
        own_id: &str,
        premises: &[String],
        hints: &[Option<CitationHint>],
    ) -> Result<(), StepRejection> {
        let mut circular = Vec::new();
        let mut missing = Vec::new();
        let mut blocked = Vec::new();
        let mut pending = Vec::new();
        for (i, id) in premises.iter().enumerate() {
            let hint = hints.get(i).copied().flatten();
            // A hint comes from a script's ref map and outranks what the raw id looks like
            // (after a refused step, a dangling ref can coincide with this step's own id).
            let circular_here = match hint {
                Some(h) => h == CitationHint::Later,
                // Items only cite issued ids (`from_log` refuses logs that do otherwise), so
                // no chain of citations can lead back to a new step.
                None => self.is_not_yet_issued(id) || id == own_id || self.state.goal(id).is_some(),
            };
            if circular_here {
                circular.push(id.clone());
                continue;
            }
            match hint {
                Some(CitationHint::Unknown) => {
                    missing.push(id.clone());
                    continue;
                }
                Some(CitationHint::Rejected) => {
                    blocked.push(id.clone());
                    continue;
                }
                _ => {}
            }
            if self.state.hypothesis(id).is_some() {
                continue;
            }
            match self.state.item(id).map(|i| i.status) {
                Some(ItemStatus::Accepted) => {}
                Some(ItemStatus::Pending) => pending.push(id.clone()),
                Some(ItemStatus::Rejected | ItemStatus::Blocked | ItemStatus::Retracted) => {
                    blocked.push(id.clone())
                }
                None => missing.push(id.clone()),
            }
        }
        if !circular.is_empty() {
            let message = format!(
                "premise {} is the step itself, a goal, or a later step",
                circular.join(", ")
            );
            return Err(with_ids(
                rejection(RejectCode::Circular, RejectCategory::Circularity, message),
                circular,
            ));
        }
        if !missing.is_empty() {
            return Err(with_ids(
                rejection(
                    RejectCode::MissingPremise,
                    RejectCategory::Structure,
                    format!("premise {} does not exist", missing.join(", ")),
                ),
                missing,
            ));
        }
        if !pending.is_empty() {
            return Err(with_ids(
                rejection(
                    RejectCode::MissingPremise,
                    RejectCategory::Structure,
                    format!(
                        "premise {} is still pending: only accepted conclusions can be cited",
                        pending.join(", ")
                    ),
                ),
                pending,
            ));
        }
        if !blocked.is_empty() {
            let why: Vec<String> = blocked.iter().map(|id| self.why_uncitable(id)).collect();
            let mut r = with_ids(
                rejection(
                    RejectCode::MissingPremise,
                    RejectCategory::Structure,
                    format!("premise {}", why.join("; premise ")),
                ),
                blocked,
            );
            r.blocked = true;
            return Err(r);
        }
        Ok(())
    }

    /// Why a refused item cannot be cited, and what refused it: "C-002 was rejected
    /// (invalid_derivation: …)", "C-003 was blocked by C-002", "C-004 was retracted (…)".
    fn why_uncitable(&self, id: &str) -> String {
        let Some(item) = self.state.item(id) else {
            // A script's ref to one of its refused steps that never became a proposal.
            return format!("{id} was refused");
        };
        let message = item.message.as_deref().unwrap_or_default();
        match item.status {
            ItemStatus::Blocked => {
                let by = self
                    .state
                    .rejections
                    .iter()
                    .rev()
                    .find(|r| r.proposal_id.as_deref() == Some(id))
                    .map(|r| r.blocked_by.join(", "))
                    .filter(|by| !by.is_empty());
                match by {
                    Some(by) => format!("{id} was blocked by {by}, so it cannot be cited"),
                    None => format!("{id} was blocked ({message}), so it cannot be cited"),
                }
            }
            ItemStatus::Rejected => {
                let code = item.code.map_or("rejected", RejectCode::as_str);
                format!("{id} was rejected ({code}: {message}), so it cannot be cited")
            }
            ItemStatus::Retracted => {
                format!("{id} was retracted ({message}), so it cannot be cited")
            }
            status => format!("{id} is {}", status.as_str()),
        }
    }

    /// An id of the engine's own series that has not been handed out yet names a later step.
    fn is_not_yet_issued(&self, id: &str) -> bool {
        let number = |prefix: &str| {
            id.strip_prefix(prefix)
                .and_then(|n| n.parse::<usize>().ok())
        };
        match (number("C-"), number("A-")) {
            (Some(n), _) => n >= self.state.next_conclusion,
            (_, Some(n)) => n >= self.state.next_assumption,
            _ => false,
        }
    }

    fn premise_is_assumption(&self, id: &str) -> bool {
        self.state.item(id).is_some_and(|i| i.is_assumption())
    }

    fn depends_on(&self, id: &str) -> Vec<String> {
        self.state
            .item(id)
            .map(|i| i.depends_on.clone())
            .unwrap_or_default()
    }

    fn check_rule(
        &self,
        own_id: &str,
        request: &DeriveRequest,
        checking: RuleChecking,
    ) -> Result<PendingCheck, StepRejection> {
        let spec = rule_spec(&request.rule);
        let slots: &[usize] = spec.map_or(&[], |s| s.discharges);
        let in_subproof_slot =
            |i: usize, id: &str| slots.contains(&i) && self.premise_is_assumption(id);
        // The assumptions the premises rest on, sorted and without repeats. A sorted Vec rather
        // than a BTreeSet: the set type is compiled into the wasm for nothing else.
        let mut union: Vec<String> = Vec::new();
        for id in &request.premises {
            union.extend(self.depends_on(id));
        }
        union.sort();
        union.dedup();
        if checking == RuleChecking::StructuralOnly {
            let discharged: Vec<String> = request
                .premises
                .iter()
                .enumerate()
                .filter(|(i, id)| in_subproof_slot(*i, id))
                .map(|(_, id)| id.clone())
                .collect();
            return Ok(finish_dependencies(union, discharged, false));
        }
        if spec.is_none() {
            return Err(rejection(
                RejectCode::InvalidDerivation,
                RejectCategory::Rule,
                format!("rule `{}` is not in the catalogue", request.rule),
            ));
        }
        let mut cited = Vec::with_capacity(request.premises.len());
        for id in &request.premises {
            match self.formulas.get(id.as_str()) {
                Some(f) => cited.push((id.as_str(), f, self.premise_is_assumption(id))),
                None => {
                    let why = self
                        .problem_issues
                        .iter()
                        .find(|p| &p.id == id)
                        .map(|p| format!(" (position {}: {})", p.position, p.message))
                        .unwrap_or_default();
                    return Err(rejection(
                        RejectCode::Malformed,
                        RejectCategory::Structure,
                        format!("premise {id} has no formula the checker can read{why}"),
                    ));
                }
            }
        }
        let Some(conclusion) = self.formulas.get(own_id) else {
            return Err(rejection(
                RejectCode::Malformed,
                RejectCategory::Structure,
                "the conclusion does not parse".to_string(),
            ));
        };
        // The assumptions the checker must treat as open: those the premises rest on, except the
        // ones cited in a subproof slot, which this very step discharges.
        let open: Vec<Formula> = union
            .iter()
            .filter(|a| {
                !request
                    .premises
                    .iter()
                    .enumerate()
                    .any(|(i, id)| id == *a && in_subproof_slot(i, id))
            })
            .filter_map(|a| self.formulas.get(a.as_str()).cloned())
            .collect();
        let premises: Vec<Premise> = cited
            .iter()
            .map(|(id, formula, is_assumption)| Premise {
                id,
                formula,
                is_assumption: *is_assumption,
            })
            .collect();
        let ctx = CheckContext {
            hypotheses: &self.hypothesis_formulas,
            open_assumptions: &open,
        };
        let options = StepOptions {
            extend: request.kind == ActionKind::Extend,
            certificate: request.certificate.as_deref(),
        };
        match check_step_with(&request.rule, &premises, conclusion, &options, &ctx) {
            Ok(accepted) => Ok(finish_dependencies(union, accepted.discharged, true)),
            Err(r) => Err(StepRejection {
                category: match r.code {
                    RejectCode::Circular => RejectCategory::Circularity,
                    RejectCode::InvalidDerivation => RejectCategory::Rule,
                    _ => RejectCategory::Structure,
                },
                code: r.code,
                message: r.message,
                blocked: false,
                proposal_id: None,
                premise_ids: request.premises.clone(),
            }),
        }
    }

    fn accept_checked(&mut self, id: &str, verifier: &str, check: PendingCheck) {
        let Some(item) = self.state.item(id) else {
            return;
        };
        let content = AcceptedEvent {
            conclusion_id: id.to_string(),
            latex: item.latex.clone(),
            derived_from: item.premises.clone(),
            rule: item.rule.clone(),
            proposed_by: item.proposed_by.clone(),
            verified_by: verifier.to_string(),
            depends_on: check.depends_on,
            discharged: check.discharged,
            checked: check.checked,
        };
        let source = if verifier == ENGINE_VERIFIER {
            SYSTEM.to_string()
        } else {
            verifier.to_string()
        };
        self.push(Event::Accepted { source, content });
        self.prove_goals_with(id);
    }

    /// A goal is proved by an accepted item that rests on no open assumption and states the
    /// goal up to notation and renaming of bound variables.
    fn prove_goals_with(&mut self, id: &str) {
        let Some(item) = self.state.item(id) else {
            return;
        };
        if item.status != ItemStatus::Accepted || !item.depends_on.is_empty() {
            return;
        }
        let item_text = normalised_latex(&item.latex);
        let proved: Vec<String> = self
            .state
            .goals
            .iter()
            .filter(|g| g.proved_by.is_none())
            .filter(
                |g| match (self.formulas.get(g.id.as_str()), self.formulas.get(id)) {
                    (Some(goal), Some(f)) => f.same_up_to_bound_renaming(goal),
                    _ => normalised_latex(&g.latex) == item_text,
                },
            )
            .map(|g| g.id.clone())
            .collect();
        for goal_id in proved {
            self.push(Event::GoalProved {
                source: SYSTEM.to_string(),
                content: GoalProvedEvent {
                    goal_id,
                    proof_conclusion_id: id.to_string(),
                },
            });
        }
    }

    fn assume(
        &mut self,
        agent: &str,
        latex: String,
        parent: Option<String>,
        explanation: Option<String>,
    ) -> String {
        let id = self.state.peek_assumption_id();
        // The parse succeeded in `ParsedAction::parse`.
        if let Ok(formula) = parse_formula(&latex) {
            self.formulas.insert(id.clone(), formula);
        }
        self.push(Event::Proposal {
            source: agent.to_string(),
            content: ProposalEvent {
                proposal_id: id.clone(),
                latex,
                premises: Vec::new(),
                rule: "assume".to_string(),
                kind: ActionKind::Assume,
                parent,
                explanation,
                certificate: None,
            },
        });
        // An assumption needs no verification: it is harmless because everything derived from
        // it carries its id until a rule discharges it.
        self.accept_checked(
            &id,
            ENGINE_VERIFIER,
            PendingCheck {
                depends_on: vec![id.clone()],
                discharged: Vec::new(),
                checked: true,
            },
        );
        id
    }

    fn accept(&mut self, agent: &str, id: String) -> Result<String, StepRejection> {
        let Some(item) = self.state.item(&id) else {
            return Err(self.reject_target(
                ActionKind::Accept,
                &id,
                RejectCode::MissingPremise,
                format!("there is no proposal {id}"),
            ));
        };
        if item.status != ItemStatus::Pending {
            let status = item.status.as_str();
            return Err(self.reject_target(
                ActionKind::Accept,
                &id,
                RejectCode::MissingPremise,
                format!("{id} is not pending (it is {status})"),
            ));
        }
        if item.proposed_by == agent {
            return Err(self.reject_target(
                ActionKind::Accept,
                &id,
                RejectCode::Unauthorized,
                format!(
                    "{agent} proposed {id} and cannot accept it: a different researcher must verify"
                ),
            ));
        }
        // The step is checked again in full: a premise may have been retracted while the
        // proposal waited, and the acceptance records what this check finds (nothing about
        // it is remembered from proposal time, so no rebuilt engine can forget it).
        let request = DeriveRequest::of_item(item);
        match self.check_derivation(&id, &request, &[]) {
            Err(r) => Err(self.reject_proposal(&id, &request.latex, ActionKind::Derive, r)),
            Ok(check) => {
                self.accept_checked(&id, agent, check);
                Ok(id)
            }
        }
    }

    fn refute(
        &mut self,
        agent: &str,
        target: String,
        kind: String,
        reason: String,
    ) -> Result<String, StepRejection> {
        let status = self.state.item(&target).map(|i| i.status);
        if !matches!(status, Some(ItemStatus::Pending | ItemStatus::Accepted)) {
            return Err(self.reject_target(
                ActionKind::Refute,
                &target,
                RejectCode::MissingPremise,
                format!("refutation target {target} is not a pending or accepted conclusion"),
            ));
        }
        let verdict = self.recheck(&target);
        let refutation_id = self.state.peek_refutation_id();
        let (upheld, note) = match &verdict {
            Some(r) => (true, r.message.clone()),
            None => (
                false,
                format!("re-check of {target} passed; the refutation is not upheld"),
            ),
        };
        self.push(Event::Contradiction {
            source: agent.to_string(),
            content: ContradictionEvent {
                refutation_id: refutation_id.clone(),
                target_id: target.clone(),
                kind,
                contradiction_reason: reason,
                upheld,
                engine_note: note,
            },
        });
        if let Some(r) = verdict {
            if status == Some(ItemStatus::Pending) {
                let latex = self
                    .state
                    .item(&target)
                    .map(|i| i.latex.clone())
                    .unwrap_or_default();
                let rejected = RejectedEvent {
                    proposal_id: Some(target.clone()),
                    action_type: ActionKind::Derive,
                    latex,
                    reason: r.message.clone(),
                    refuted_by: agent.to_string(),
                    target_id: None,
                    category: RejectCategory::Refutation,
                    code: r.code,
                    message: r.message.clone(),
                    premise_ids: r.premise_ids.clone(),
                    blocked_by: Vec::new(),
                };
                self.push(Event::Rejected {
                    source: SYSTEM.to_string(),
                    content: rejected,
                });
            } else {
                self.retract_cascade(&target, &refutation_id, &r.message);
            }
        }
        Ok(refutation_id)
    }

    /// Re-check a conclusion with the full checker against the current world. `Some` is the
    /// reason it fails; an item the engine could not check at all counts as failing, because a
    /// challenged result must be backed by a check to stay.
    fn recheck(&self, id: &str) -> Option<StepRejection> {
        let item = self.state.item(id)?;
        if item.is_assumption() {
            return None;
        }
        let request = DeriveRequest::of_item(item);
        let citations = self
            .check_citations(id, &request.premises, &[])
            .and_then(|_| self.check_rule(id, &request, RuleChecking::Full));
        citations.err()
    }

    /// Retract `root` and every accepted or pending item that (transitively) cites it.
    fn retract_cascade(&mut self, root: &str, refutation_id: &str, reason: &str) {
        let mut doomed: HashSet<String> = HashSet::new();
        doomed.insert(root.to_string());
        // Items only cite earlier items, so one pass in proposal order finds every dependant.
        let mut order = vec![(root.to_string(), root.to_string())];
        for item in &self.state.items {
            if !matches!(item.status, ItemStatus::Accepted | ItemStatus::Pending) || item.id == root
            {
                continue;
            }
            if let Some(cause) = item.premises.iter().find(|p| doomed.contains(p.as_str())) {
                order.push((item.id.clone(), cause.clone()));
                doomed.insert(item.id.clone());
            }
        }
        for (id, cause) in order {
            let Some(item) = self.state.item(&id) else {
                continue;
            };
            let latex = item.latex.clone();
            let why = if id == root {
                format!("refutation {refutation_id} upheld: {reason}")
            } else {
                format!("depends on {cause}, which was retracted")
            };
            self.push(Event::Retracted {
                source: SYSTEM.to_string(),
                content: RetractedEvent {
                    conclusion_id: id,
                    latex,
                    cause_id: cause,
                    refutation_id: Some(refutation_id.to_string()),
                    reason: why,
                },
            });
        }
        // A goal that lost its proof may still be proved by another conclusion.
        let candidates: Vec<String> = self
            .state
            .items_with(ItemStatus::Accepted)
            .map(|i| i.id.clone())
            .collect();
        for id in candidates {
            self.prove_goals_with(&id);
        }
    }

    fn reject_proposal(
        &mut self,
        id: &str,
        latex: &str,
        kind: ActionKind,
        mut r: StepRejection,
    ) -> StepRejection {
        r.proposal_id = Some(id.to_string());
        let content = RejectedEvent {
            proposal_id: Some(id.to_string()),
            action_type: kind,
            latex: latex.to_string(),
            reason: r.message.clone(),
            refuted_by: ENGINE_VERIFIER.to_string(),
            target_id: None,
            category: r.category,
            code: r.code,
            message: r.message.clone(),
            premise_ids: r.premise_ids.clone(),
            blocked_by: if r.blocked {
                r.premise_ids.clone()
            } else {
                Vec::new()
            },
        };
        let source = SYSTEM.to_string();
        self.push(if r.blocked {
            Event::Blocked { source, content }
        } else {
            Event::Rejected { source, content }
        });
        r
    }

    /// Refuse an action that never became a proposal.
    fn reject_action(
        &mut self,
        kind: ActionKind,
        latex: &str,
        code: RejectCode,
        message: String,
    ) -> StepRejection {
        let category = if code == RejectCode::Unauthorized {
            RejectCategory::Protocol
        } else {
            RejectCategory::Structure
        };
        self.push(Event::Rejected {
            source: SYSTEM.to_string(),
            content: RejectedEvent {
                proposal_id: None,
                action_type: kind,
                latex: latex.to_string(),
                reason: message.clone(),
                refuted_by: ENGINE_VERIFIER.to_string(),
                target_id: None,
                category,
                code,
                message: message.clone(),
                premise_ids: Vec::new(),
                blocked_by: Vec::new(),
            },
        });
        rejection(code, category, message)
    }

    /// Refuse an `accept` or `refute` about `target` (the target itself is unchanged).
    fn reject_target(
        &mut self,
        kind: ActionKind,
        target: &str,
        code: RejectCode,
        message: String,
    ) -> StepRejection {
        self.push(Event::Rejected {
            source: SYSTEM.to_string(),
            content: RejectedEvent {
                proposal_id: None,
                action_type: kind,
                latex: String::new(),
                reason: message.clone(),
                refuted_by: ENGINE_VERIFIER.to_string(),
                target_id: Some(target.to_string()),
                category: RejectCategory::Protocol,
                code,
                message: message.clone(),
                premise_ids: vec![target.to_string()],
                blocked_by: Vec::new(),
            },
        });
        rejection(code, RejectCategory::Protocol, message)
    }
}

fn rejection(code: RejectCode, category: RejectCategory, message: String) -> StepRejection {
    StepRejection {
        code,
        category,
        message,
        blocked: false,
        proposal_id: None,
        premise_ids: Vec::new(),
    }
}

fn with_ids(mut r: StepRejection, ids: Vec<String>) -> StepRejection {
    r.premise_ids = ids;
    r
}

fn finish_dependencies(
    mut union: Vec<String>,
    discharged: Vec<String>,
    checked: bool,
) -> PendingCheck {
    union.retain(|a| !discharged.contains(a));
    PendingCheck {
        depends_on: union,
        discharged,
        checked,
    }
}
