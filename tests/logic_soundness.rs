//! The unsound paths a fault campaign found, one test each: a goal is never proved
//! that the hypotheses do not entail, whether the engine runs live, is rebuilt from its log
//! before an action, or is given a hand-written log or a problem whose ids collide with the
//! engine's.

use serde_json::{json, Value};
use verifyfast::logic::engine::{Action, Engine, EngineConfig};
use verifyfast::logic::events::Event;
use verifyfast::logic::protocol::{run_case, Case};
use verifyfast::logic::world::{GoalSpec, Hypothesis, Problem};

fn problem() -> Problem {
    Problem {
        id: "p".into(),
        title: "b > 0 does not follow from a > 0".into(),
        hypotheses: vec![Hypothesis {
            id: "H-1".into(),
            latex: "a > 0".into(),
            kind: None,
        }],
        goals: vec![GoalSpec {
            id: "G-1".into(),
            latex: "b > 0".into(),
        }],
        agents: vec!["researcher-1".into(), "researcher-2".into()],
        protocol: None,
    }
}

fn events(value: Value) -> Vec<Event> {
    serde_json::from_value(value).expect("events decode")
}

fn proposal(id: &str, latex: &str, premises: &[&str], rule: &str) -> Value {
    json!({"eventType": "PROPOSAL", "source": "researcher-1",
           "content": {"proposalId": id, "latex": latex, "premises": premises, "rule": rule, "kind": "derive"}})
}

fn accept(agent: &str, id: &str) -> Action {
    Action::new(agent, "accept", json!({"proposalId": id}))
}

/// Rebuild from `log` as the Proof page does and let researcher-2 accept `id`; the goal must
/// stay open (or the log be refused).
fn accept_after_rebuild(log: &[Event], id: &str) -> Result<Engine, String> {
    let mut engine = rebuild(log)?;
    engine.submit(&accept("researcher-2", id));
    Ok(engine)
}

fn rebuild(log: &[Event]) -> Result<Engine, String> {
    Engine::from_log(problem(), EngineConfig::default(), log).map_err(|e| e.to_string())
}

fn goal_open(engine: &Engine) -> bool {
    engine.state().goals.iter().all(|g| g.proved_by.is_none())
        && !engine
            .events()
            .iter()
            .any(|e| matches!(e, Event::GoalProved { .. }))
}

#[test]
fn replay_then_accept_keeps_the_open_assumption() {
    let mut live = Engine::new(problem(), EngineConfig::default()).unwrap();
    let a = live.submit(&Action::new(
        "researcher-1",
        "assume",
        json!({"formula": "b > 0"}),
    ));
    assert_eq!(a.result.as_deref(), Ok("A-1"));
    let c = live.submit(&Action::new(
        "researcher-1",
        "derive",
        json!({"conclusion": "b > 0", "premises": ["A-1"], "rule": "reit"}),
    ));
    assert_eq!(c.result.as_deref(), Ok("C-001"));
    let rebuilt = accept_after_rebuild(live.events(), "C-001").unwrap();
    live.submit(&accept("researcher-2", "C-001"));
    assert!(goal_open(&live));
    assert!(goal_open(&rebuilt), "{:#?}", rebuilt.events());
    let item = rebuilt.state().item("C-001").unwrap();
    assert_eq!(item.depends_on, ["A-1"]);
    assert!(item.checked);
    assert_eq!(rebuilt.events(), live.events());
    assert_eq!(rebuilt.state(), live.state());
}

#[test]
fn a_hand_written_proposal_by_an_unknown_rule_is_refused_on_load() {
    let log = events(json!([proposal("C-001", "b > 0", &[], "magic")]));
    let err = rebuild(&log).err().expect("the log is refused");
    assert!(err.starts_with("event 1"), "{err}");
    assert!(err.contains("magic"), "{err}");
}

#[test]
fn hand_edited_circular_citations_are_refused_on_load() {
    let log = events(json!([
        proposal("C-001", "b > 0", &["C-002"], "reit"),
        proposal("C-002", "b > 0", &["C-001"], "reit"),
    ]));
    let err = rebuild(&log).err().expect("the log is refused");
    assert!(err.starts_with("event 1"), "{err}");
    assert!(err.contains("C-002"), "{err}");
    // And accepting either one after a rebuild never proves the goal.
    for id in ["C-001", "C-002"] {
        if let Ok(e) = accept_after_rebuild(&log, id) {
            assert!(goal_open(&e));
        }
    }
}

#[test]
fn an_unchecked_acceptance_is_refused_on_load() {
    let log = events(json!([
        proposal("C-001", "b > 0", &["H-1"], "reit"),
        {"eventType": "ACCEPTED", "source": "researcher-2",
         "content": {"conclusionId": "C-001", "latex": "b > 0", "derivedFrom": ["H-1"], "rule": "reit",
                     "proposedBy": "researcher-1", "verifiedBy": "researcher-2", "dependsOn": [], "checked": false}},
        {"eventType": "GOAL_PROVED", "source": "system", "content": {"goalId": "G-1", "proofConclusionId": "C-001"}},
    ]));
    let err = rebuild(&log).err().expect("the log is refused");
    assert!(err.starts_with("event 1"), "{err}");
}

#[test]
fn duplicate_and_skipped_ids_are_refused_on_load() {
    let dup = events(json!([
        proposal("C-001", "a > 0", &["H-1"], "reit"),
        proposal("C-001", "b > 0", &["H-1"], "reit"),
    ]));
    let err = rebuild(&dup).err().expect("the log is refused");
    assert!(err.starts_with("event 2"), "{err}");
    let skipped = events(json!([proposal("C-007", "a > 0", &["H-1"], "reit")]));
    let err = rebuild(&skipped).err().expect("the log is refused");
    assert!(err.starts_with("event 1") && err.contains("C-001"), "{err}");
}

fn case(hypotheses: Value, goals: Value, actions: Value) -> Case {
    serde_json::from_value(json!({
        "id": "collide", "protocol": "auto-accept-v1", "agents": ["r1"],
        "hypotheses": hypotheses, "goals": goals, "actions": actions
    }))
    .unwrap()
}

#[test]
fn a_goal_with_an_engine_id_is_refused_not_proved() {
    let c = case(
        json!([{"id": "H-1", "latex": "a > 0"}]),
        json!([{"id": "C-001", "latex": "b > 0"}]),
        json!([{"agent": "r1", "actionType": "derive", "ref": "C-001",
                "params": {"conclusion": "a > 0", "premises": ["H-1"], "rule": "reit"}}]),
    );
    let run = run_case(&c);
    assert!(!run.goal_proved);
    let err = run
        .problem_error
        .expect("the problem is refused")
        .to_string();
    assert!(err.contains("C-001"), "{err}");
}

#[test]
fn a_hypothesis_with_an_engine_id_is_refused_not_overwritten() {
    let c = case(
        json!([{"id": "C-001", "latex": "a > 0"}]),
        json!([{"id": "G-1", "latex": "b > 0"}]),
        json!([
            {"agent": "r1", "actionType": "derive", "ref": "C-001",
             "params": {"conclusion": "b > 0", "premises": ["C-001"], "rule": "and_elim"}},
            {"agent": "r1", "actionType": "derive", "ref": "s2",
             "params": {"conclusion": "b > 0", "premises": ["C-001"], "rule": "reit"}}
        ]),
    );
    let run = run_case(&c);
    assert!(!run.goal_proved);
    assert!(run.problem_error.is_some());
}

#[test]
fn messages_keep_ids_as_written_and_say_what_blocked_a_premise() {
    let mut e = Engine::new(problem(), EngineConfig::default()).unwrap();
    // C-001 is wrong (reit of a > 0 as b > 0) and is rejected; C-002 cites it and is blocked;
    // C-003 cites C-002.
    let step = |e: &mut Engine, premises: &[&str]| {
        e.submit(&Action::new(
            "researcher-1",
            "derive",
            json!({"conclusion": "b > 0", "premises": premises, "rule": "reit"}),
        ))
    };
    step(&mut e, &["H-1"]);
    let blocked = step(&mut e, &["C-001"]).result.unwrap_err();
    assert!(blocked.blocked);
    assert!(
        blocked
            .message
            .contains("C-001 was rejected (invalid_derivation"),
        "{}",
        blocked.message
    );
    let second = step(&mut e, &["C-002"]).result.unwrap_err();
    assert!(
        second.message.contains("C-002 was blocked by C-001"),
        "{}",
        second.message
    );
    let not_pending = e
        .submit(&accept("researcher-2", "C-001"))
        .result
        .unwrap_err();
    assert_eq!(not_pending.message, "C-001 is not pending (it is rejected)");
}
