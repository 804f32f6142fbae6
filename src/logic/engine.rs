//! The rule engine: takes researchers' actions, checks them, and emits the events that change
//! the world state.
//!
//! Order of checks for `derive`/`extend` (the order decides which code a user sees when a
//! step has several faults, and follows the labels of `dev_cases.jsonl`):
//! registered agent → well-formed params and parseable conclusion (no proposal id yet) →
//! PROPOSAL → premises (circular before missing before blocked) → rule arity → rule check.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::events::{
    AcceptedEvent, ActionKind, ContradictionEvent, Event, GoalProvedEvent, ProposalEvent,
    RejectCategory, RejectCode, RejectedEvent, RetractedEvent, SYSTEM,
};
use super::formula::{parse_formula, Formula};
use super::rules::{check_step_with, rule_spec, CheckContext, Premise, StepOptions};
use super::world::{ItemStatus, Problem, ProblemError, WorldState};

mod action;
mod replay;

use action::action_latex;
pub use action::{action_kind, Action, ActionError, DeriveRequest, ParsedAction};
pub use replay::LogRefused;

/// The verifier name written into ACCEPTED events when the engine itself accepts
/// (the `auto-accept-v1` protocol).
pub const ENGINE_VERIFIER: &str = "engine";

/// How much the engine checks by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleChecking {
    /// Every step goes through the rule checker; unknown rules are rejected.
    Full,
    /// The original engine (docs/logic.md): structural checks only, correctness left to the verifying
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

/// Like `Formula::same_up_to_bound_renaming`, for goals that did not parse: compare text.
fn normalised_latex(latex: &str) -> String {
    latex
        .trim()
        .trim_matches('$')
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
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
