//! The batch protocol `auto-accept-v1` (see the data README): replay a prepared script of
//! actions, with the checker as the verifier.
//!
//! A script names each step's result with its own `ref`. Engine ids can drift from the refs
//! once a step is refused, so every cited ref is rewritten through a ref → engine id map, and
//! what the engine cannot know by itself (that a ref belongs to a later step, or to nothing) is
//! passed along as a `CitationHint`.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::engine::{Action, CitationHint, Engine, EngineConfig, StepRejection};
use super::events::{code_str, Event};
use super::world::{GoalSpec, Hypothesis, Problem, ProblemError};

pub const AUTO_ACCEPT_V1: &str = "auto-accept-v1";

/// One line of `dev_cases.jsonl` (fields this engine does not use are ignored).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Case {
    pub id: String,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub label: Option<String>,
    #[serde(default)]
    pub protocol: Option<String>,
    #[serde(default)]
    pub agents: Vec<String>,
    #[serde(default)]
    pub hypotheses: Vec<Hypothesis>,
    #[serde(default)]
    pub goals: Vec<GoalSpec>,
    #[serde(default)]
    pub actions: Vec<CaseAction>,
    /// The labels the CLI checks a run against (`verifyfast prove`). The browser only runs a
    /// case and never reads them, so its build skips the field (it stays `None`) and carries no
    /// decoder for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", serde(skip_deserializing))]
    pub expect: Option<Expectation>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseAction {
    pub agent: String,
    pub action_type: String,
    #[serde(default)]
    pub params: Value,
    #[serde(default, rename = "ref")]
    pub reference: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Expectation {
    pub goal_proved: bool,
    #[serde(default)]
    pub rejected_steps: Vec<usize>,
    #[serde(default)]
    pub reject_reasons: BTreeMap<String, String>,
}

impl Case {
    pub fn problem(&self) -> Problem {
        Problem {
            id: self.id.clone(),
            title: self.title.clone(),
            hypotheses: self.hypotheses.clone(),
            goals: self.goals.clone(),
            agents: self.agents.clone(),
            protocol: Some(AUTO_ACCEPT_V1.to_string()),
        }
    }
}

/// What became of one step of the script.
#[derive(Clone, Debug, PartialEq)]
pub struct StepResult {
    pub index: usize,
    pub result: Result<String, StepRejection>,
}

/// The replay of one case.
pub struct CaseRun {
    pub id: String,
    pub goal_proved: bool,
    pub steps: Vec<StepResult>,
    pub engine: Engine,
    /// Set when the problem itself was refused (its ids collide with the engine's, or repeat):
    /// then no step ran and nothing is proved.
    pub problem_error: Option<ProblemError>,
}

impl CaseRun {
    pub fn rejected_steps(&self) -> Vec<usize> {
        self.steps
            .iter()
            .filter(|s| s.result.is_err())
            .map(|s| s.index)
            .collect()
    }

    /// Step index (as a string, like the case files) → refute-vocabulary code.
    pub fn reasons(&self) -> BTreeMap<String, String> {
        self.steps
            .iter()
            .filter_map(|s| match &s.result {
                Err(r) => Some((s.index.to_string(), code_str(r.code).to_string())),
                Ok(_) => None,
            })
            .collect()
    }

    pub fn events(&self) -> &[Event] {
        self.engine.events()
    }

    /// The CLI's output line: `{"id","goal_proved","rejected_steps","reasons","events"}`.
    pub fn summary_json(&self) -> Value {
        serde_json::json!({
            "id": self.id,
            "goal_proved": self.goal_proved,
            "rejected_steps": self.rejected_steps(),
            "reasons": self.reasons(),
            "events": self.events().len(),
        })
    }

    /// Whether the run reproduces the case's labels (goal status, rejected set, codes).
    pub fn matches(&self, expect: &Expectation) -> bool {
        let mut want = expect.rejected_steps.clone();
        want.sort_unstable();
        self.goal_proved == expect.goal_proved
            && self.rejected_steps() == want
            && self.reasons() == expect.reject_reasons
    }
}

/// Where a script's ref points in the engine.
#[derive(Clone, Debug)]
enum RefTarget {
    Real(String),
    /// A refused step; `Some` when it had become a proposal with an engine id.
    Refused(Option<String>),
}

pub fn run_case(case: &Case) -> CaseRun {
    let mut engine = match Engine::new(case.problem(), EngineConfig::auto_accept()) {
        Ok(e) => e,
        Err(e) => {
            return CaseRun {
                id: case.id.clone(),
                goal_proved: false,
                steps: Vec::new(),
                engine: Engine::empty(&case.id, EngineConfig::auto_accept()),
                problem_error: Some(e),
            }
        }
    };
    let mut refs: HashMap<String, RefTarget> = HashMap::new();
    let mut steps = Vec::with_capacity(case.actions.len());
    for (index, action) in case.actions.iter().enumerate() {
        // Refs of this step and the ones after it: citing them is circular.
        let later: HashSet<&str> = case
            .actions
            .get(index..)
            .unwrap_or_default()
            .iter()
            .filter_map(|a| a.reference.as_deref())
            .filter(|r| !refs.contains_key(*r))
            .collect();
        let (rewritten, hints) = rewrite(action, &refs, &later);
        let outcome = engine.submit_with_hints(&rewritten, &hints);
        if let Some(reference) = &action.reference {
            let target = match &outcome.result {
                Ok(id) => RefTarget::Real(id.clone()),
                Err(r) => RefTarget::Refused(r.proposal_id.clone()),
            };
            refs.insert(reference.clone(), target);
        }
        steps.push(StepResult {
            index,
            result: outcome.result,
        });
    }
    CaseRun {
        id: case.id.clone(),
        goal_proved: engine.state().all_goals_proved(),
        steps,
        engine,
        problem_error: None,
    }
}

fn resolve(
    cited: &str,
    refs: &HashMap<String, RefTarget>,
    later: &HashSet<&str>,
) -> (String, Option<CitationHint>) {
    match refs.get(cited) {
        Some(RefTarget::Real(id)) => (id.clone(), None),
        // The engine knows this id as refused and reports the step as blocked.
        Some(RefTarget::Refused(Some(id))) => (id.clone(), None),
        Some(RefTarget::Refused(None)) => (cited.to_string(), Some(CitationHint::Rejected)),
        None if later.contains(cited) => (cited.to_string(), Some(CitationHint::Later)),
        // Hypotheses and goals are not refs: the engine knows them by their own ids.
        None if cited.starts_with("H-") || cited.starts_with("G-") => (cited.to_string(), None),
        None => (cited.to_string(), Some(CitationHint::Unknown)),
    }
}

/// Rewrite every cited ref of an action; hints line up with the engine's premise order
/// (`extend`: base first).
fn rewrite(
    action: &CaseAction,
    refs: &HashMap<String, RefTarget>,
    later: &HashSet<&str>,
) -> (Action, Vec<Option<CitationHint>>) {
    let mut params = action.params.clone();
    let mut hints = Vec::new();
    if let Some(obj) = params.as_object_mut() {
        for key in ["baseConclusionId", "targetId", "proposalId"] {
            if let Some(Value::String(cited)) = obj.get(key).cloned() {
                let (id, hint) = resolve(&cited, refs, later);
                if key == "baseConclusionId" {
                    hints.push(hint);
                }
                obj.insert(key.to_string(), Value::String(id));
            }
        }
        if let Some(Value::Array(list)) = obj.get("premises").cloned() {
            let rewritten: Vec<Value> = list
                .into_iter()
                .map(|v| match v {
                    Value::String(cited) => {
                        let (id, hint) = resolve(&cited, refs, later);
                        hints.push(hint);
                        Value::String(id)
                    }
                    other => {
                        hints.push(None);
                        other
                    }
                })
                .collect();
            obj.insert("premises".to_string(), Value::Array(rewritten));
        }
    }
    (
        Action {
            agent: action.agent.clone(),
            action_type: action.action_type.clone(),
            params,
        },
        hints,
    )
}
