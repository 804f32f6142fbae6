//! What the Proof page (and anyone else) can load: an event log, or a problem with a script of
//! actions (the `dev_cases.jsonl` line format, or the multi-agent form of the bundled example, docs/logic.md with `accept`s).

use serde_json::Value;

use super::engine::{Action, Engine, EngineConfig, ENGINE_VERIFIER};
use super::events::Event;
use super::protocol::{run_case, Case, AUTO_ACCEPT_V1};
use super::replay::{decode_event_log, log_from_value, EventLog};
use super::rules::catalogue;
use super::world::Problem;

/// A loaded derivation: the problem, the engine configuration to continue with, and its log.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub problem: Problem,
    pub config: EngineConfig,
    pub events: Vec<Event>,
    /// Problems found while loading (unparseable hypotheses or goals).
    pub warnings: Vec<String>,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum LoadError {
    #[error("not JSON (line {line}, column {column}): {message}")]
    NotJson {
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{0}")]
    Shape(String),
}

/// The engine configuration a problem asks for (`protocol: auto-accept-v1` or manual accepts).
pub fn config_for(problem: &Problem) -> EngineConfig {
    if problem.protocol.as_deref() == Some(AUTO_ACCEPT_V1) {
        EngineConfig::auto_accept()
    } else {
        EngineConfig::default()
    }
}

fn warnings_of(engine: &Engine) -> Vec<String> {
    engine
        .problem_issues()
        .iter()
        .map(|p| {
            format!(
                "{} does not parse at position {}: {}",
                p.id, p.position, p.message
            )
        })
        .collect()
}

/// Largest file the Proof page reads: the whole text, its decoded events and the snapshots are
/// in memory at once (a 100,000-event log is 19 MB), and a browser tab has a few GB at most.
pub const MAX_PAGE_FILE_BYTES: f64 = 200e6;

/// Whether a file of `bytes` may be loaded into the page; the message says why not and what
/// reads it instead.
pub fn fits_in_a_tab(bytes: f64) -> Result<(), String> {
    if bytes > MAX_PAGE_FILE_BYTES {
        return Err(format!(
            "{:.0} MB is more than the stepper reads in a browser tab ({:.0} MB); \
             `verifyfast replay FILE --step K` reads any size",
            bytes / 1e6,
            MAX_PAGE_FILE_BYTES / 1e6
        ));
    }
    Ok(())
}

/// The configuration a log was written with: its problem's protocol, or auto-accept when the
/// log shows the engine accepting a proposal by itself (logs exported by `verifyfast prove`
/// carry no protocol). Either way every acceptance is checked again when the log is replayed.
pub fn config_for_log(problem: &Problem, events: &[Event]) -> EngineConfig {
    let engine_accepts = events.iter().any(|e| {
        matches!(e, Event::Accepted { content, .. }
            if content.verified_by == ENGINE_VERIFIER && content.conclusion_id.starts_with("C-"))
    });
    if engine_accepts {
        EngineConfig::auto_accept()
    } else {
        config_for(problem)
    }
}

/// An event log as loaded: the engine replays it to check that it could have written it
/// (`Engine::from_log`); a log it could not have written is refused with the event's number.
fn loaded_log(log: EventLog) -> Result<Loaded, LoadError> {
    let config = config_for_log(&log.problem, &log.events);
    let engine = Engine::from_log(log.problem.clone(), config, &log.events)
        .map_err(|e| LoadError::Shape(format!("event log refused: {e}")))?;
    Ok(Loaded {
        warnings: warnings_of(&engine),
        problem: log.problem,
        config,
        events: log.events,
    })
}

/// The proof examples shipped in `public/examples/`, for tests that must cover each of them.
#[cfg(test)]
pub(crate) const BUNDLED_EXAMPLES: [&str; 6] = [
    "proof-seed-a-plus-b.json",
    "proof-or-elim.json",
    "proof-exists-unique.json",
    "proof-linarith.json",
    "proof-wrong-instantiation.json",
    "proof-circular-goal.json",
];

/// Load an event log or a problem. A problem runs through the engine: with `auto-accept-v1`
/// (its `protocol`) through the ref-mapping protocol, otherwise action by action as written.
pub fn load(text: &str) -> Result<Loaded, LoadError> {
    let text = text.trim_start_matches('\u{feff}');
    if let Some(log) = decode_event_log(text) {
        return loaded_log(log);
    }
    let value: Value = serde_json::from_str(text).map_err(|e| LoadError::NotJson {
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    let is_log = value.is_array() || value.get("events").is_some();
    if is_log {
        // The fast path already failed: read the tree we have, to say which event is wrong.
        let log: EventLog =
            log_from_value(value).map_err(|e| LoadError::Shape(format!("event log: {e}")))?;
        return loaded_log(log);
    }
    if value.get("actions").is_none() && value.get("hypotheses").is_none() {
        return Err(LoadError::Shape(
            "expected an event log {\"problem\", \"events\"} or a problem with \"hypotheses\", \"goals\" and \"actions\"".into(),
        ));
    }
    // Read from the text, not from `value`: the types are then decoded by the same (`from_str`)
    // code as everywhere else, and the wasm build carries no `&Value`-driven copy of them.
    let case: Case =
        serde_json::from_str(text).map_err(|e| LoadError::Shape(format!("problem: {e}")))?;
    if case.protocol.as_deref() == Some(AUTO_ACCEPT_V1) {
        let run = run_case(&case);
        if let Some(e) = run.problem_error {
            return Err(LoadError::Shape(format!("problem refused: {e}")));
        }
        return Ok(Loaded {
            problem: case.problem(),
            config: EngineConfig::auto_accept(),
            warnings: warnings_of(&run.engine),
            events: run.engine.events().to_vec(),
        });
    }
    let mut problem = case.problem();
    problem.protocol = case.protocol.clone();
    let config = config_for(&problem);
    let mut engine = Engine::new(problem.clone(), config)
        .map_err(|e| LoadError::Shape(format!("problem refused: {e}")))?;
    for a in &case.actions {
        engine.submit(&Action {
            agent: a.agent.clone(),
            action_type: a.action_type.clone(),
            params: a.params.clone(),
        });
    }
    Ok(Loaded {
        warnings: warnings_of(&engine),
        problem,
        config,
        events: engine.events().to_vec(),
    })
}

/// The rule ids of the catalogue (for the page's rule picker), in catalogue order.
pub fn catalogue_rules() -> Vec<String> {
    catalogue().iter().map(|rule| rule.id.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_too_large_for_a_tab_are_refused_with_the_cli_named() {
        assert!(fits_in_a_tab(19e6).is_ok());
        assert!(fits_in_a_tab(MAX_PAGE_FILE_BYTES).is_ok());
        let e = fits_in_a_tab(350e6).unwrap_err();
        assert!(
            e.starts_with("350 MB") && e.contains("200 MB") && e.contains("verifyfast replay"),
            "{e}"
        );
    }

    #[test]
    fn loads_a_problem_with_accepts_and_an_event_log_of_it() {
        let problem = r#"{"id":"p","hypotheses":[{"id":"H-1","latex":"P"}],
            "goals":[{"id":"G-1","latex":"P"}],"agents":["r1","r2"],
            "actions":[{"agent":"r1","actionType":"derive","params":{"conclusion":"P","premises":["H-1"],"rule":"reit"}},
                       {"agent":"r2","actionType":"accept","params":{"proposalId":"C-001"}}]}"#;
        let loaded = load(problem).unwrap();
        assert!(!loaded.config.auto_accept);
        let types: Vec<&str> = loaded.events.iter().map(Event::event_type).collect();
        assert_eq!(types.first(), Some(&"PROPOSAL"));
        let log = serde_json::to_string(&EventLog::new(
            loaded.problem.clone(),
            loaded.events.clone(),
        ))
        .unwrap();
        let again = load(&log).unwrap();
        assert_eq!(again.events, loaded.events);
        assert_eq!(again.problem, loaded.problem);
    }

    #[test]
    fn refuses_what_is_neither() {
        assert!(matches!(load("{]"), Err(LoadError::NotJson { .. })));
        assert!(matches!(load(r#"{"x":1}"#), Err(LoadError::Shape(_))));
        assert!(matches!(
            load(r#"{"events":[{"eventType":"NOPE"}]}"#),
            Err(LoadError::Shape(_))
        ));
    }

    #[test]
    fn the_catalogue_lists_its_rules() {
        let rules = catalogue_rules();
        assert!(rules.contains(&"imp_elim".to_string()));
        assert!(rules.contains(&"linarith".to_string()));
    }
}
