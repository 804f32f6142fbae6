//! A researcher's action as it arrives (`{"agent", "actionType", "params"}`) and as the engine
//! reads it once, at the edge: after [`ParsedAction::parse`] nothing looks at JSON.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::logic::events::ActionKind;
use crate::logic::formula::{parse_formula, Formula};
use crate::logic::rules::certificate_of;

/// One researcher action, in the JSON shape of docs/logic.md: `{"agent", "actionType", "params"}`.
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

pub(super) fn param_str<'a>(params: &'a Value, key: &str) -> Option<&'a str> {
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
pub(super) fn action_latex(action: &Action) -> String {
    ["conclusion", "extension", "formula"]
        .iter()
        .find_map(|k| param_str(&action.params, k))
        .unwrap_or_default()
        .to_string()
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
    pub(super) fn of_item(item: &crate::logic::world::Item) -> Self {
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
    #[error("unknown actionType: {0}")]
    UnknownType(crate::names::UnknownName),
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
    action_type.parse().map_err(ActionError::UnknownType)
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
