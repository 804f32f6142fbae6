//! Rebuilding the world from the event log alone: the log document, a stepper with snapshots
//! (any step of a long log is one snapshot clone plus at most `K - 1` events away), and the
//! derivation chain of a goal.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::tex::escape_text;

use super::events::Event;
use super::world::{ItemStatus, Problem, ReplayIssue, WorldState};

pub const LOG_FORMAT: &str = "verifyfast.logic.events/1";

/// A snapshot is kept every this many events (at least; see [`snapshot_interval`]).
pub const SNAPSHOT_EVERY: usize = 64;

/// About how many item copies all snapshots of one log may hold together. A world grows with
/// its log, so a fixed interval would keep O(n²) items: a 100,000-event log at 64 would hold
/// tens of millions of item copies (gigabytes, far beyond a browser tab).
pub const SNAPSHOT_ITEM_BUDGET: usize = 1_000_000;

/// The snapshot interval for a log of `events` events: `SNAPSHOT_EVERY` for ordinary logs,
/// widened for long ones so snapshots (≈ `n / every` of them, ≈ `n / 4` items on average when
/// half the events add an item) stay within [`SNAPSHOT_ITEM_BUDGET`]. A 1,000-event log keeps
/// 64; a 100,000-event log gets 2,500 (40 snapshots).
pub fn snapshot_interval(events: usize) -> usize {
    let widened = events.saturating_mul(events) / (4 * SNAPSHOT_ITEM_BUDGET);
    widened.max(SNAPSHOT_EVERY)
}

/// The exported event log: the problem it is about, and the events in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventLog {
    #[serde(default = "log_format")]
    pub format: String,
    #[serde(default)]
    pub problem: Problem,
    pub events: Vec<Event>,
}

fn log_format() -> String {
    LOG_FORMAT.to_string()
}

impl EventLog {
    pub fn new(problem: Problem, events: Vec<Event>) -> Self {
        EventLog {
            format: log_format(),
            problem,
            events,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LogError {
    #[error("not JSON (line {line}, column {column}): {message}")]
    NotJson {
        line: usize,
        column: usize,
        message: String,
    },
    /// `number` counts from 1, as docs/logic.md and the engine's refusals do.
    #[error("event {number}: {message}")]
    BadEvent { number: usize, message: String },
    #[error("problem: {0}")]
    BadProblem(String),
    #[error("expected an event log object {{\"problem\", \"events\"}} or an array of events")]
    WrongShape,
}

/// Read an event log: the document form, or a bare array of events (no hypotheses then).
/// Each event is decoded separately so an error names the event that is wrong.
pub fn parse_event_log(text: &str) -> Result<EventLog, LogError> {
    // Only a log that fails the fast path is decoded again through `Value` to say which event
    // is wrong.
    if let Some(log) = decode_event_log(text) {
        return Ok(log);
    }
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| LogError::NotJson {
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    log_from_value(value)
}

/// A log already read as a JSON tree (the slow path), each event decoded on its own so an
/// error names the event that is wrong.
pub fn log_from_value(value: serde_json::Value) -> Result<EventLog, LogError> {
    let (problem, raw_events) = match value {
        serde_json::Value::Array(events) => (Problem::default(), events),
        serde_json::Value::Object(mut obj) => {
            let problem = match obj.remove("problem") {
                Some(p) => decode_part(&p).map_err(LogError::BadProblem)?,
                None => Problem::default(),
            };
            match obj.remove("events") {
                Some(serde_json::Value::Array(events)) => (problem, events),
                _ => return Err(LogError::WrongShape),
            }
        }
        _ => return Err(LogError::WrongShape),
    };
    let events = raw_events
        .iter()
        .enumerate()
        .map(|(i, v)| {
            decode_part(v).map_err(|message| LogError::BadEvent {
                number: i + 1,
                message,
            })
        })
        .collect::<Result<Vec<Event>, _>>()?;
    Ok(EventLog::new(problem, events))
}

/// One part of a log read as a JSON tree, decoded by writing it back to text and reading
/// that. This is slower than `serde_json::from_value`, but it runs only for logs the fast path
/// refused, and it decodes with the same code as the fast path: the wasm build then carries no
/// second, `Value`-driven copy of every deserializer.
fn decode_part<T: DeserializeOwned>(value: &serde_json::Value) -> Result<T, String> {
    serde_json::from_str(&crate::jsonl::compact(value)).map_err(|e| without_position(&e))
}

/// An error's text without serde_json's " at line L column C", which would point into the
/// re-written part rather than the user's file.
fn without_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let position = format!(" at line {} column {}", e.line(), e.column());
    match text.strip_suffix(&position) {
        Some(message) => message.to_string(),
        None => text,
    }
}

/// The fast path: a well-formed log decoded straight into events, with no `Value` tree in
/// between (which for a 100,000-event log costs as much again in time and memory).
pub fn decode_event_log(text: &str) -> Option<EventLog> {
    if text.trim_start().starts_with('[') {
        serde_json::from_str::<Vec<Event>>(text)
            .ok()
            .map(|events| EventLog::new(Problem::default(), events))
    } else {
        serde_json::from_str::<EventLog>(text).ok()
    }
}

/// The state after all events, and any events that did not fit.
pub fn replay(problem: &Problem, events: &[Event]) -> (WorldState, Vec<ReplayIssue>) {
    let mut state = WorldState::new(problem.clone());
    let mut issues = Vec::new();
    for event in events {
        if let Err(issue) = state.apply(event) {
            issues.push(issue);
        }
    }
    (state, issues)
}

/// Random access to every step of a log. Step `k` is the state after the first `k` events
/// (step 0: only the problem).
pub struct Replayer {
    events: Vec<Event>,
    snapshots: Vec<WorldState>,
    every: usize,
    issues: Vec<ReplayIssue>,
}

impl Replayer {
    pub fn new(problem: Problem, events: Vec<Event>) -> Self {
        let every = snapshot_interval(events.len());
        Self::with_snapshot_interval(problem, events, every)
    }

    pub fn with_snapshot_interval(problem: Problem, events: Vec<Event>, every: usize) -> Self {
        let every = every.max(1);
        let mut state = WorldState::new(problem);
        let mut snapshots = vec![state.clone()];
        let mut issues = Vec::new();
        for (i, event) in events.iter().enumerate() {
            if let Err(issue) = state.apply(event) {
                issues.push(issue);
            }
            if (i + 1) % every == 0 {
                snapshots.push(state.clone());
            }
        }
        Replayer {
            events,
            snapshots,
            every,
            issues,
        }
    }

    /// Number of events; valid steps are `0..=len()`.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    pub fn issues(&self) -> &[ReplayIssue] {
        &self.issues
    }

    /// The event that leads to step `k` (`None` at step 0).
    pub fn event_before(&self, step: usize) -> Option<&Event> {
        step.checked_sub(1).and_then(|i| self.events.get(i))
    }

    /// The state at `step` (clamped to the end).
    pub fn state_at(&self, step: usize) -> WorldState {
        let step = step.min(self.events.len());
        let slot = (step / self.every).min(self.snapshots.len().saturating_sub(1));
        let mut state = match self.snapshots.get(slot) {
            Some(s) => s.clone(),
            None => return WorldState::default(),
        };
        let from = slot * self.every;
        for event in self.events.get(from..step).unwrap_or_default() {
            // Issues were collected once in `new`.
            let _ = state.apply(event);
        }
        state
    }
}

/// One node of a goal's proof: a conclusion or assumption with how it was obtained.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChainLink {
    pub id: String,
    pub latex: String,
    pub derived_from: Vec<String>,
    pub rule: String,
    pub proposed_by: String,
    pub verified_by: Option<String>,
    pub depends_on: Vec<String>,
}

/// The proof DAG of a proved goal, in derivation order (every link after the links it cites;
/// hypotheses are leaves named in `derivedFrom`). `None` if the goal is not proved.
pub fn derivation_chain(state: &WorldState, goal_id: &str) -> Option<Vec<ChainLink>> {
    let root = state.goal(goal_id)?.proved_by.clone()?;
    Some(chain_below(state, &root))
}

/// The accepted items `root` rests on, itself included, in derivation order.
pub fn chain_below(state: &WorldState, root: &str) -> Vec<ChainLink> {
    let mut wanted = std::collections::HashSet::new();
    let mut stack = vec![root.to_string()];
    while let Some(id) = stack.pop() {
        if !wanted.insert(id.clone()) {
            continue;
        }
        if let Some(item) = state.item(&id) {
            stack.extend(item.premises.iter().cloned());
        }
    }
    state
        .items
        .iter()
        .filter(|i| wanted.contains(&i.id) && i.status == ItemStatus::Accepted)
        .map(|i| ChainLink {
            id: i.id.clone(),
            latex: i.latex.clone(),
            derived_from: i.premises.clone(),
            rule: i.rule.clone(),
            proposed_by: i.proposed_by.clone(),
            verified_by: i.verified_by.clone(),
            depends_on: i.depends_on.clone(),
        })
        .collect()
}

fn bare(latex: &str) -> &str {
    latex.trim().trim_matches('$').trim()
}

/// A LaTeX document fragment for the proof of every proved goal (the page's export).
pub fn chains_to_latex(state: &WorldState) -> String {
    let mut out = String::new();
    let title = if state.problem.title.is_empty() {
        &state.problem.id
    } else {
        &state.problem.title
    };
    out.push_str(&format!("\\section*{{{}}}\n", escape_text(title)));
    out.push_str("\\subsection*{Hypotheses}\n\\begin{itemize}\n");
    for h in &state.problem.hypotheses {
        out.push_str(&format!("  \\item ({}) ${}$\n", h.id, bare(&h.latex)));
    }
    out.push_str("\\end{itemize}\n");
    for goal in &state.goals {
        out.push_str(&format!(
            "\\subsection*{{Goal {}: ${}$}}\n",
            goal.id,
            bare(&goal.latex)
        ));
        let Some(chain) = derivation_chain(state, &goal.id) else {
            out.push_str("Not proved.\n");
            continue;
        };
        out.push_str("\\begin{enumerate}\n");
        for link in chain {
            let from = if link.derived_from.is_empty() {
                String::new()
            } else {
                format!(" from {}", link.derived_from.join(", "))
            };
            out.push_str(&format!(
                "  \\item ({}) ${}$ \\quad \\textit{{{}{}}}\n",
                link.id,
                bare(&link.latex),
                escape_text(&link.rule),
                from
            ));
        }
        out.push_str("\\end{enumerate}\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_logs_keep_the_fine_interval() {
        assert_eq!(snapshot_interval(0), SNAPSHOT_EVERY);
        assert_eq!(snapshot_interval(1_000), SNAPSHOT_EVERY);
        assert_eq!(snapshot_interval(10_000), SNAPSHOT_EVERY);
    }

    #[test]
    fn long_logs_widen_it_so_snapshots_stay_within_budget() {
        assert_eq!(snapshot_interval(100_000), 2_500);
        for n in [20_000usize, 100_000, 1_000_000] {
            let every = snapshot_interval(n);
            let snapshots = n / every;
            // ≈ n/4 items per snapshot on average (half the events add an item).
            assert!(
                snapshots * n / 4 <= SNAPSHOT_ITEM_BUDGET + n,
                "n={n} every={every}"
            );
        }
        assert_eq!(
            snapshot_interval(usize::MAX),
            usize::MAX / (4 * SNAPSHOT_ITEM_BUDGET)
        );
    }

    #[test]
    fn the_slow_path_reads_what_the_fast_path_reads() {
        let text = r#"{"problem":{"id":"p","hypotheses":[{"id":"H-1","latex":"P"}]},"events":[
            {"eventType":"PROPOSAL","source":"r1","content":{"proposalId":"C-001","latex":"P","premises":["H-1"],"rule":"reit"}},
            {"eventType":"ACCEPTED","source":"system","content":{"conclusionId":"C-001","latex":"P","checked":false}}]}"#;
        let fast = decode_event_log(text).unwrap();
        let slow = log_from_value(serde_json::from_str(text).unwrap()).unwrap();
        assert_eq!(slow, fast);
        assert_eq!(fast.problem.hypotheses[0].id, "H-1");
    }

    #[test]
    fn a_bad_event_is_named_by_index_and_reason() {
        let log = |events: &str| format!(r#"{{"problem":{{"id":"p"}},"events":[{events}]}}"#);
        let good = r#"{"eventType":"GOAL_PROVED","source":"s","content":{"goalId":"G-1","proofConclusionId":"C-1"}}"#;
        let err = |text: &str| parse_event_log(text).unwrap_err().to_string();
        // No "at line 1 column N": that would point into the re-written event, not the file.
        assert_eq!(
            err(&log(&format!(
                r#"{good},{{"eventType":"REJECTED","source":"s","content":{{"category":"rule","message":"m"}}}}"#
            ))),
            "event 2: REJECTED event: missing field `content.code`"
        );
        assert!(
            err(&log(r#"{"eventType":"NOPE","source":"s","content":{}}"#))
                .starts_with("event 1: unknown eventType `NOPE`")
        );
        assert_eq!(
            err(&log(&format!(
                r#"{good},{good},{{"eventType":"GOAL_PROVED","source":"s","content":{{"goalId":7}}}}"#
            ))),
            "event 3: content.goalId: invalid type: integer `7`, expected a string"
        );
        assert_eq!(
            err(&log(r#"{"eventType":7,"source":"s","content":{}}"#)),
            "event 1: eventType: invalid type: integer `7`, expected a string"
        );
        assert_eq!(
            err(&log(
                r#"{"eventType":"PROPOSAL","source":"s","content":{"premises":["H-1",2]}}"#
            )),
            "event 1: content.premises: invalid type: integer `2`, expected a string"
        );
        assert!(err(r#"{"problem":{"hypotheses":3},"events":[]}"#).starts_with("problem: "));
    }
}
