//! The rule engine: takes researchers' actions, checks them, and emits the events that change
//! the world state.
//!
//! Order of checks for `derive`/`extend` (the order decides which code a user sees when a
//! step has several faults, and follows the labels of `dev_cases.jsonl`):
//! registered agent → well-formed params and parseable conclusion (no proposal id yet) →
//! PROPOSAL → premises (circular before missing before blocked) → rule arity → rule check.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::events::{
    AcceptedEvent, ActionKind, ContradictionEvent, Event, GoalProvedEvent, ProposalEvent,
    RejectCategory, RejectCode, RejectedEvent, RetractedEvent, SYSTEM,
};
use super::formula::{parse_formula, Formula};
use super::rules::{check_step, known_rule, CheckContext, Premise};
use super::world::{ItemStatus, Problem, WorldState};

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

/// What the engine remembers about a pending proposal until it is accepted.
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
    pending: HashMap<String, PendingCheck>,
    /// Ids that live items of a loaded log cite before they were issued; only a proposal that
    /// receives such an id can close a citation cycle (see `cites_back_to`).
    forward_cited: HashSet<String>,
}

/// Rules whose subproof slots discharge the assumption cited there; the slot positions follow
/// the fixed citation order of the data README.
fn subproof_assumption_slots(rule: &str) -> &'static [usize] {
    match rule {
        "imp_intro" | "not_intro" | "ip" => &[0],
        "or_elim" => &[1, 3],
        "exists_elim" => &[1],
        "iff_intro" | "lem" => &[0, 2],
        _ => &[],
    }
}

/// The number of cited ids a rule takes (`None`: any number). Counted after `extend` has put
/// its base conclusion first.
pub fn rule_arity(rule: &str) -> Option<std::ops::RangeInclusive<usize>> {
    let n = match rule {
        "eq_intro" => 0,
        "reit" | "and_elim" | "or_intro" | "explosion" | "forall_elim" | "forall_intro"
        | "exists_intro" | "dne" | "dem" | "cq" => 1,
        "and_intro" | "imp_intro" | "imp_elim" | "modus_ponens" | "mp" | "not_elim"
        | "not_intro" | "ip" | "iff_elim" | "eq_elim" | "ds" | "mt" | "hs" => 2,
        "exists_elim" => 3,
        "iff_intro" | "lem" => 4,
        "or_elim" => 5,
        "algebra" => return Some(0..=1),
        _ => return None,
    };
    Some(n..=n)
}

fn param_str<'a>(params: &'a Value, key: &str) -> Option<&'a str> {
    params.get(key).and_then(Value::as_str)
}

fn param_ids(params: &Value, key: &str) -> Result<Vec<String>, String> {
    match params.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| format!("`{key}` must list ids as strings"))
            })
            .collect(),
        Some(_) => Err(format!("`{key}` must be a list of ids")),
    }
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

struct DeriveRequest {
    latex: String,
    premises: Vec<String>,
    rule: String,
    kind: ActionKind,
    explanation: Option<String>,
}

impl Engine {
    pub fn new(problem: Problem, config: EngineConfig) -> Self {
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
            pending: HashMap::new(),
            forward_cited: Default::default(),
        }
    }

    /// Continue from a recorded log (the page's action form after loading a log). The events are
    /// applied as recorded; formulas are re-parsed so later steps can be checked.
    pub fn from_log(problem: Problem, config: EngineConfig, events: &[Event]) -> Self {
        let mut engine = Engine::new(problem, config);
        for event in events {
            engine.push(event.clone());
        }
        let parsed: Vec<(String, Formula)> = engine
            .state
            .items
            .iter()
            .filter_map(|i| parse_formula(&i.latex).ok().map(|f| (i.id.clone(), f)))
            .collect();
        engine.formulas.extend(parsed);
        let forward: Vec<String> = engine
            .state
            .items
            .iter()
            .filter(|i| matches!(i.status, ItemStatus::Accepted | ItemStatus::Pending))
            .flat_map(|i| i.premises.iter())
            .filter(|p| engine.is_not_yet_issued(p))
            .cloned()
            .collect();
        engine.forward_cited.extend(forward);
        engine
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
        // Issues only arise for hand-made logs; the engine's own events always fit.
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

    fn dispatch(
        &mut self,
        action: &Action,
        hints: &[Option<CitationHint>],
    ) -> Result<String, StepRejection> {
        let kind = match action.action_type.as_str() {
            "derive" => ActionKind::Derive,
            "extend" => ActionKind::Extend,
            "assume" => ActionKind::Assume,
            "refute" => ActionKind::Refute,
            "accept" => ActionKind::Accept,
            other => {
                return Err(self.reject_action(
                    action,
                    ActionKind::Derive,
                    "",
                    RejectCode::Malformed,
                    format!(
                        "unknown actionType `{other}` (derive, extend, assume, refute, accept)"
                    ),
                ))
            }
        };
        if !self.state.problem.agents.iter().any(|a| a == &action.agent) {
            let latex = self.action_latex(action);
            return Err(self.reject_action(
                action,
                kind,
                &latex,
                RejectCode::Unauthorized,
                format!("agent {} is not registered", action.agent),
            ));
        }
        match kind {
            ActionKind::Derive | ActionKind::Extend => {
                let request = match self.derive_request(action, kind) {
                    Ok(r) => r,
                    Err(message) => {
                        let latex = self.action_latex(action);
                        return Err(self.reject_action(
                            action,
                            kind,
                            &latex,
                            RejectCode::Malformed,
                            message,
                        ));
                    }
                };
                self.derive(action, request, hints)
            }
            ActionKind::Assume => self.assume(action),
            ActionKind::Accept => self.accept(action),
            ActionKind::Refute => self.refute(action),
        }
    }

    fn action_latex(&self, action: &Action) -> String {
        ["conclusion", "extension", "formula"]
            .iter()
            .find_map(|k| param_str(&action.params, k))
            .unwrap_or_default()
            .to_string()
    }

    fn derive_request(&self, action: &Action, kind: ActionKind) -> Result<DeriveRequest, String> {
        let p = &action.params;
        let (latex_key, mut premises) = if kind == ActionKind::Extend {
            let base = param_str(p, "baseConclusionId")
                .filter(|s| !s.trim().is_empty())
                .ok_or("extend needs `baseConclusionId`")?;
            ("extension", vec![base.to_string()])
        } else {
            ("conclusion", Vec::new())
        };
        premises.extend(param_ids(p, "premises")?);
        let latex = param_str(p, latex_key).unwrap_or_default().to_string();
        if latex.trim().trim_matches('$').trim().is_empty() {
            return Err(format!(
                "`{latex_key}` is empty: a proposal needs a LaTeX formula"
            ));
        }
        let rule = param_str(p, "rule").unwrap_or_default().trim().to_string();
        if rule.is_empty() {
            return Err("`rule` is missing".to_string());
        }
        if let Err(e) = parse_formula(&latex) {
            return Err(format!(
                "the formula does not parse at position {}: {}",
                e.position, e.message
            ));
        }
        Ok(DeriveRequest {
            latex,
            premises,
            rule,
            kind,
            explanation: param_str(p, "explanation").map(str::to_string),
        })
    }

    fn derive(
        &mut self,
        action: &Action,
        request: DeriveRequest,
        hints: &[Option<CitationHint>],
    ) -> Result<String, StepRejection> {
        let id = self.state.peek_conclusion_id();
        self.push(Event::Proposal {
            source: action.agent.clone(),
            content: ProposalEvent {
                proposal_id: id.clone(),
                latex: request.latex.clone(),
                premises: request.premises.clone(),
                rule: request.rule.clone(),
                kind: request.kind,
                parent: None,
                explanation: request.explanation.clone(),
            },
        });
        // The parse succeeded in derive_request.
        if let Ok(f) = parse_formula(&request.latex) {
            self.formulas.insert(id.clone(), f);
        }
        let verdict = self.check_derivation(&id, &request, &action.params, hints);
        match verdict {
            Err(rejection) => {
                Err(self.reject_proposal(&id, &request.latex, request.kind, rejection))
            }
            Ok(check) => {
                if self.config.auto_accept {
                    self.accept_checked(&id, ENGINE_VERIFIER, check);
                } else {
                    self.pending.insert(id.clone(), check);
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
        params: &Value,
        hints: &[Option<CitationHint>],
    ) -> Result<PendingCheck, StepRejection> {
        self.check_citations(own_id, &request.premises, hints)?;
        if let Some(arity) = rule_arity(&request.rule) {
            if !arity.contains(&request.premises.len()) {
                let need = if arity.start() == arity.end() {
                    arity.start().to_string()
                } else {
                    format!("{} to {}", arity.start(), arity.end())
                };
                return Err(rejection(
                    RejectCode::MissingPremise,
                    RejectCategory::Structure,
                    format!(
                        "{} needs {need} premises, got {}",
                        request.rule,
                        request.premises.len()
                    ),
                ));
            }
        }
        self.check_rule(own_id, request, params, self.config.rule_checking)
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
                None => {
                    self.is_not_yet_issued(id)
                        || id == own_id
                        || self.state.goal(id).is_some()
                        || (self.forward_cited.contains(own_id) && self.cites_back_to(id, own_id))
                }
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
            let mut r = with_ids(
                rejection(
                    RejectCode::MissingPremise,
                    RejectCategory::Structure,
                    format!(
                        "premise {} does not exist (it was rejected)",
                        blocked.join(", ")
                    ),
                ),
                blocked,
            );
            r.blocked = true;
            return Err(r);
        }
        Ok(())
    }

    /// A chain of citations from `id` that leads back to `own_id`. New proposals get fresh ids
    /// and may only cite issued ids, so this cannot happen through `submit` alone; it guards
    /// against logs that were edited by hand before being continued (`from_log`).
    fn cites_back_to(&self, id: &str, own_id: &str) -> bool {
        let mut seen: HashSet<String> = HashSet::new();
        let mut stack = vec![id.to_string()];
        while let Some(current) = stack.pop() {
            if !seen.insert(current.clone()) {
                continue;
            }
            // Refused items cite nothing real: their premise lists may hold forward refs.
            let live = self
                .state
                .item(&current)
                .filter(|i| matches!(i.status, ItemStatus::Accepted | ItemStatus::Pending));
            if let Some(item) = live {
                for p in &item.premises {
                    if p == own_id {
                        return true;
                    }
                    stack.push(p.clone());
                }
            }
        }
        false
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
        params: &Value,
        checking: RuleChecking,
    ) -> Result<PendingCheck, StepRejection> {
        let slots = subproof_assumption_slots(&request.rule);
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
        if !known_rule(&request.rule) {
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
        match check_step(&request.rule, &premises, conclusion, params, &ctx) {
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

    fn assume(&mut self, action: &Action) -> Result<String, StepRejection> {
        let latex = param_str(&action.params, "formula")
            .unwrap_or_default()
            .to_string();
        let formula = if latex.trim().trim_matches('$').trim().is_empty() {
            Err("`formula` is empty: an assumption needs a LaTeX formula".to_string())
        } else {
            parse_formula(&latex).map_err(|e| {
                format!(
                    "the formula does not parse at position {}: {}",
                    e.position, e.message
                )
            })
        };
        let formula = match formula {
            Ok(f) => f,
            Err(message) => {
                return Err(self.reject_action(
                    action,
                    ActionKind::Assume,
                    &latex,
                    RejectCode::Malformed,
                    message,
                ))
            }
        };
        let id = self.state.peek_assumption_id();
        self.formulas.insert(id.clone(), formula);
        self.push(Event::Proposal {
            source: action.agent.clone(),
            content: ProposalEvent {
                proposal_id: id.clone(),
                latex,
                premises: Vec::new(),
                rule: "assume".to_string(),
                kind: ActionKind::Assume,
                parent: param_str(&action.params, "parent").map(str::to_string),
                explanation: param_str(&action.params, "explanation").map(str::to_string),
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
        Ok(id)
    }

    fn accept(&mut self, action: &Action) -> Result<String, StepRejection> {
        let Some(id) = param_str(&action.params, "proposalId").map(str::to_string) else {
            return Err(self.reject_action(
                action,
                ActionKind::Accept,
                "",
                RejectCode::Malformed,
                "accept needs `proposalId`".to_string(),
            ));
        };
        let (status, proposer, premises) = match self.state.item(&id) {
            Some(i) => (i.status, i.proposed_by.clone(), i.premises.clone()),
            None => {
                return Err(self.reject_target(
                    action,
                    ActionKind::Accept,
                    &id,
                    RejectCode::MissingPremise,
                    format!("there is no proposal {id}"),
                ))
            }
        };
        if status != ItemStatus::Pending {
            return Err(self.reject_target(
                action,
                ActionKind::Accept,
                &id,
                RejectCode::MissingPremise,
                format!("{id} is not pending (it is {status:?})").to_ascii_lowercase(),
            ));
        }
        if proposer == action.agent {
            return Err(self.reject_target(
                action,
                ActionKind::Accept,
                &id,
                RejectCode::Unauthorized,
                format!(
                    "{} proposed {id} and cannot accept it: a different researcher must verify",
                    action.agent
                ),
            ));
        }
        // A premise may have been retracted while the proposal waited.
        if let Err(r) = self.check_citations(&id, &premises, &[]) {
            let latex = self
                .state
                .item(&id)
                .map(|i| i.latex.clone())
                .unwrap_or_default();
            self.pending.remove(&id);
            return Err(self.reject_proposal(&id, &latex, ActionKind::Derive, r));
        }
        let check = self.pending.remove(&id).unwrap_or(PendingCheck {
            depends_on: Vec::new(),
            discharged: Vec::new(),
            checked: false,
        });
        self.accept_checked(&id, &action.agent, check);
        Ok(id)
    }

    fn refute(&mut self, action: &Action) -> Result<String, StepRejection> {
        let p = &action.params;
        let Some(target) = param_str(p, "targetId").map(str::to_string) else {
            return Err(self.reject_action(
                action,
                ActionKind::Refute,
                "",
                RejectCode::Malformed,
                "refute needs `targetId`".to_string(),
            ));
        };
        let kind = param_str(p, "type")
            .unwrap_or("invalid_derivation")
            .to_string();
        let reason = param_str(p, "reason").unwrap_or_default().to_string();
        let status = self.state.item(&target).map(|i| i.status);
        if !matches!(status, Some(ItemStatus::Pending | ItemStatus::Accepted)) {
            return Err(self.reject_target(
                action,
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
            source: action.agent.clone(),
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
                self.pending.remove(&target);
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
                    refuted_by: action.agent.clone(),
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
        let request = DeriveRequest {
            latex: item.latex.clone(),
            premises: item.premises.clone(),
            rule: item.rule.clone(),
            kind: item.kind,
            explanation: None,
        };
        let citations = self
            .check_citations(id, &request.premises, &[])
            .and_then(|_| self.check_rule(id, &request, &Value::Null, RuleChecking::Full));
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
            self.pending.remove(&id);
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
        _action: &Action,
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
        _action: &Action,
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
