//! The world engine end to end: the seed's a+b>0 example with two researchers, replay,
//! retraction, blocking, the accept protocol and dependency sets.

use serde_json::json;
use verifyfast::logic::engine::{Action, Engine, EngineConfig, RuleChecking};
use verifyfast::logic::events::{Event, RejectCode};
use verifyfast::logic::replay::{derivation_chain, parse_event_log, replay, EventLog, Replayer};
use verifyfast::logic::world::{GoalSpec, Hypothesis, ItemStatus, Problem};

fn hyp(id: &str, latex: &str) -> Hypothesis {
    Hypothesis {
        id: id.into(),
        latex: latex.into(),
        kind: Some("given".into()),
    }
}

/// The seed's problem, with its axiom H-3 exactly as the seed writes it
/// (`\forall x, y > 0: x + y > 0`, read as `∀x ∀y (x > 0 ∧ y > 0 → x + y > 0)`). The seed's
/// single `extend … modus_ponens` step needs the instance `a > 0 ∧ b > 0 → a + b > 0`, so two
/// ∀E steps (C-002, C-003) come before it; the rule `conjunction` is spelled `and_intro`.
fn seed_problem() -> Problem {
    Problem {
        id: "prob-001".into(),
        title: "Prove: a + b > 0".into(),
        hypotheses: vec![
            hyp("H-1", "a > 0"),
            hyp("H-2", "b > 0"),
            Hypothesis {
                id: "H-3".into(),
                latex: "\\forall x, y > 0: x + y > 0".into(),
                kind: Some("axiom".into()),
            },
        ],
        goals: vec![GoalSpec {
            id: "G-1".into(),
            latex: "a + b > 0".into(),
        }],
        agents: vec!["researcher-1".into(), "researcher-2".into()],
        protocol: None,
    }
}

fn derive(agent: &str, conclusion: &str, premises: &[&str], rule: &str) -> Action {
    Action::new(
        agent,
        "derive",
        json!({"conclusion": conclusion, "premises": premises, "rule": rule}),
    )
}

fn accept(agent: &str, id: &str) -> Action {
    Action::new(agent, "accept", json!({"proposalId": id}))
}

/// Runs the seed's rounds; returns the engine.
fn seed_run() -> Engine {
    let mut e = Engine::new(seed_problem(), EngineConfig::default()).unwrap();
    let steps = [
        derive(
            "researcher-1",
            "$a > 0 \\land b > 0$",
            &["H-1", "H-2"],
            "and_intro",
        ),
        accept("researcher-2", "C-001"),
        derive(
            "researcher-1",
            "\\forall y\\, ((a > 0 \\land y > 0) \\to a + y > 0)",
            &["H-3"],
            "forall_elim",
        ),
        accept("researcher-2", "C-002"),
        derive(
            "researcher-1",
            "(a > 0 \\land b > 0) \\to a + b > 0",
            &["C-002"],
            "forall_elim",
        ),
        accept("researcher-2", "C-003"),
        Action::new(
            "researcher-1",
            "extend",
            json!({"baseConclusionId": "C-001", "extension": "$a + b > 0$",
                   "rule": "modus_ponens", "premises": ["C-003"]}),
        ),
        accept("researcher-2", "C-004"),
    ];
    for (i, a) in steps.iter().enumerate() {
        let out = e.submit(a);
        assert!(out.result.is_ok(), "round {i}: {:?}", out.result);
    }
    e
}

#[test]
fn seed_example_proves_the_goal_with_the_seed_event_shapes() {
    let e = seed_run();
    let log = serde_json::to_value(e.events()).unwrap();
    let types: Vec<&str> = log
        .as_array()
        .unwrap()
        .iter()
        .map(|ev| ev["eventType"].as_str().unwrap())
        .collect();
    assert_eq!(
        types,
        [
            "PROPOSAL",
            "ACCEPTED",
            "PROPOSAL",
            "ACCEPTED",
            "PROPOSAL",
            "ACCEPTED",
            "PROPOSAL",
            "ACCEPTED",
            "GOAL_PROVED"
        ]
    );
    let first = &log[0];
    assert_eq!(first["source"], "researcher-1");
    assert_eq!(first["content"]["proposalId"], "C-001");
    assert_eq!(first["content"]["latex"], "$a > 0 \\land b > 0$");
    assert_eq!(first["content"]["premises"], json!(["H-1", "H-2"]));
    assert_eq!(first["content"]["rule"], "and_intro");
    let accepted = &log[1];
    assert_eq!(accepted["content"]["conclusionId"], "C-001");
    assert_eq!(accepted["content"]["derivedFrom"], json!(["H-1", "H-2"]));
    assert_eq!(accepted["content"]["proposedBy"], "researcher-1");
    assert_eq!(accepted["content"]["verifiedBy"], "researcher-2");
    // The extend's base conclusion is its first premise.
    assert_eq!(log[6]["content"]["premises"], json!(["C-001", "C-003"]));
    assert_eq!(log[8]["content"]["goalId"], "G-1");
    assert_eq!(log[8]["content"]["proofConclusionId"], "C-004");

    let chain = derivation_chain(e.state(), "G-1").expect("proved");
    let ids: Vec<&str> = chain.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids, ["C-001", "C-002", "C-003", "C-004"]);
    assert_eq!(chain[3].rule, "modus_ponens");
    assert_eq!(chain[3].verified_by.as_deref(), Some("researcher-2"));
}

#[test]
fn replay_of_the_log_alone_rebuilds_the_same_state_at_every_step() {
    let e = seed_run();
    let doc = serde_json::to_string(&EventLog::new(seed_problem(), e.events().to_vec())).unwrap();
    let log = parse_event_log(&doc).unwrap();
    let (end, issues) = replay(&log.problem, &log.events);
    assert!(issues.is_empty(), "{issues:?}");
    assert_eq!(&end, e.state());
    let stepper = Replayer::with_snapshot_interval(log.problem.clone(), log.events.clone(), 3);
    for k in 0..=log.events.len() {
        let (direct, _) = replay(&log.problem, &log.events[..k]);
        assert_eq!(stepper.state_at(k), direct, "step {k}");
    }
    // Twice the same input, twice the same log.
    assert_eq!(seed_run().events(), e.events());
}

#[test]
fn a_researcher_cannot_accept_their_own_proposal() {
    let mut e = Engine::new(seed_problem(), EngineConfig::default()).unwrap();
    e.submit(&derive(
        "researcher-1",
        "a > 0 \\land b > 0",
        &["H-1", "H-2"],
        "and_intro",
    ));
    let own = e.submit(&accept("researcher-1", "C-001"));
    assert_eq!(own.result.unwrap_err().code, RejectCode::Unauthorized);
    assert_eq!(e.state().item("C-001").unwrap().status, ItemStatus::Pending);
    let ghost = e.submit(&accept("ghost", "C-001"));
    assert_eq!(ghost.result.unwrap_err().code, RejectCode::Unauthorized);
    assert!(e.submit(&accept("researcher-2", "C-001")).result.is_ok());
    // Pending items cannot be cited until accepted.
    let mut e2 = Engine::new(seed_problem(), EngineConfig::default()).unwrap();
    e2.submit(&derive(
        "researcher-1",
        "a > 0 \\land b > 0",
        &["H-1", "H-2"],
        "and_intro",
    ));
    let early = e2.submit(&derive("researcher-1", "a > 0", &["C-001"], "and_elim"));
    assert_eq!(early.result.unwrap_err().code, RejectCode::MissingPremise);
}

#[test]
fn structural_checks_give_their_codes() {
    let mut e = Engine::new(seed_problem(), EngineConfig::auto_accept()).unwrap();
    let cases = [
        (
            derive("nobody", "a > 0", &["H-1"], "reit"),
            RejectCode::Unauthorized,
        ),
        (
            derive("researcher-1", "  $ $ ", &["H-1"], "reit"),
            RejectCode::Malformed,
        ),
        (
            derive("researcher-1", "a > ", &["H-1"], "reit"),
            RejectCode::Malformed,
        ),
        (
            derive("researcher-1", "a > 0", &["H-9"], "reit"),
            RejectCode::MissingPremise,
        ),
        (
            derive("researcher-1", "a > 0", &["H-1", "H-2"], "reit"),
            RejectCode::MissingPremise,
        ),
        (
            derive("researcher-1", "a > 0", &["G-1"], "reit"),
            RejectCode::Circular,
        ),
        (
            derive("researcher-1", "a > 0", &["C-007"], "reit"),
            RejectCode::Circular,
        ),
        (
            derive("researcher-1", "b > 0", &["H-1"], "reit"),
            RejectCode::InvalidDerivation,
        ),
        (
            Action::new(
                "researcher-1",
                "refute",
                json!({"targetId": "C-404", "type": "circular"}),
            ),
            RejectCode::MissingPremise,
        ),
        (
            Action::new("researcher-1", "dance", json!({})),
            RejectCode::Malformed,
        ),
    ];
    for (i, (action, code)) in cases.iter().enumerate() {
        let got = e.submit(action).result;
        assert_eq!(
            got.as_ref().map_err(|r| r.code),
            Err(*code),
            "case {i}: {got:?}"
        );
    }
    assert_eq!(e.state().items_with(ItemStatus::Accepted).count(), 0);
}

#[test]
fn a_goal_needs_a_conclusion_without_open_assumptions() {
    let problem = Problem {
        goals: vec![GoalSpec {
            id: "G-1".into(),
            latex: "P \\to P".into(),
        }],
        hypotheses: vec![],
        agents: vec!["r".into()],
        ..Default::default()
    };
    let mut e = Engine::new(problem.clone(), EngineConfig::auto_accept()).unwrap();
    let assumed = e.submit(&Action::new("r", "assume", json!({"formula": "P"})));
    assert_eq!(assumed.result.as_deref(), Ok("A-1"));
    e.submit(&derive("r", "P", &["A-1"], "reit"));
    assert_eq!(e.state().item("C-001").unwrap().depends_on, ["A-1"]);
    e.submit(&derive("r", "P \\to P", &["A-1", "C-001"], "imp_intro"));
    let c2 = e.state().item("C-002").unwrap();
    assert_eq!(c2.status, ItemStatus::Accepted);
    assert!(c2.depends_on.is_empty(), "{:?}", c2.depends_on);
    assert_eq!(e.state().goals[0].proved_by.as_deref(), Some("C-002"));

    // The same formula still resting on an assumption does not prove the goal.
    let mut e = Engine::new(problem, EngineConfig::auto_accept()).unwrap();
    e.submit(&Action::new("r", "assume", json!({"formula": "P \\to P"})));
    e.submit(&derive("r", "P \\to P", &["A-1"], "reit"));
    assert_eq!(
        e.state().item("C-001").unwrap().status,
        ItemStatus::Accepted
    );
    assert_eq!(e.state().goals[0].proved_by, None);
}

#[test]
fn an_upheld_refutation_retracts_the_conclusion_and_everything_built_on_it() {
    // Structural-only engine (the seed's original): a wrong step gets through on a colleague's
    // word, and the refutation's re-check with the real checker removes it.
    let config = EngineConfig {
        auto_accept: false,
        rule_checking: RuleChecking::StructuralOnly,
    };
    let mut e = Engine::new(seed_problem(), config).unwrap();
    let steps = [
        derive("researcher-1", "a + b > 0", &["H-1"], "reit"), // wrong
        accept("researcher-2", "C-001"),
        derive(
            "researcher-1",
            "a + b > 0 \\land a > 0",
            &["C-001", "H-1"],
            "and_intro",
        ),
        accept("researcher-2", "C-002"),
        derive(
            "researcher-1",
            "a > 0 \\land b > 0",
            &["H-1", "H-2"],
            "and_intro",
        ), // unrelated
        accept("researcher-2", "C-003"),
    ];
    for a in &steps {
        assert!(e.submit(a).result.is_ok());
    }
    assert_eq!(e.state().goals[0].proved_by.as_deref(), Some("C-001"));
    let before = e.events().len();
    let out = e.submit(&Action::new(
        "researcher-2",
        "refute",
        json!({"targetId": "C-001", "type": "invalid_derivation", "reason": "reit cannot change the formula"}),
    ));
    assert_eq!(out.result.as_deref(), Ok("R-1"));
    let new: Vec<&Event> = e.events()[before..].iter().collect();
    let types: Vec<&str> = new.iter().map(|ev| ev.event_type()).collect();
    assert_eq!(types, ["CONTRADICTION", "RETRACTED", "RETRACTED"]);
    let s = e.state();
    assert_eq!(s.item("C-001").unwrap().status, ItemStatus::Retracted);
    assert_eq!(s.item("C-002").unwrap().status, ItemStatus::Retracted);
    assert_eq!(s.item("C-003").unwrap().status, ItemStatus::Accepted);
    assert_eq!(s.goals[0].proved_by, None, "the goal is open again");
    assert!(s.refutations[0].upheld);
    // Retracted items cannot be cited any more.
    let late = e.submit(&derive("researcher-1", "a + b > 0", &["C-001"], "reit"));
    let r = late.result.unwrap_err();
    assert!(r.blocked);
    assert_eq!(r.code, RejectCode::MissingPremise);
    // The replay agrees.
    let (replayed, issues) = replay(&seed_problem(), e.events());
    assert!(issues.is_empty());
    assert_eq!(&replayed, e.state());
}

#[test]
fn a_refutation_of_a_correct_conclusion_is_dismissed() {
    let mut e = Engine::new(seed_problem(), EngineConfig::auto_accept()).unwrap();
    e.submit(&derive(
        "researcher-1",
        "a > 0 \\land b > 0",
        &["H-1", "H-2"],
        "and_intro",
    ));
    let out = e.submit(&Action::new(
        "researcher-2",
        "refute",
        json!({"targetId": "C-001", "type": "contradiction", "reason": "I doubt it"}),
    ));
    assert!(out.result.is_ok());
    assert!(!e.state().refutations[0].upheld);
    assert_eq!(
        e.state().item("C-001").unwrap().status,
        ItemStatus::Accepted
    );
}

#[test]
fn blocked_proposals_name_the_rejected_item_once() {
    let mut e = Engine::new(seed_problem(), EngineConfig::auto_accept()).unwrap();
    e.submit(&derive("researcher-1", "a + b > 0", &["H-1"], "reit")); // rejected
    let a = e.submit(&derive("researcher-1", "a + b > 0", &["C-001"], "reit"));
    let b = e.submit(&derive("researcher-1", "a + b > 0", &["C-002"], "reit"));
    for out in [&a, &b] {
        let r = out.result.as_ref().unwrap_err();
        assert!(r.blocked);
        assert_eq!(r.code, RejectCode::MissingPremise);
    }
    let types: Vec<&str> = e.events().iter().map(Event::event_type).collect();
    assert_eq!(
        types,
        ["PROPOSAL", "REJECTED", "PROPOSAL", "BLOCKED", "PROPOSAL", "BLOCKED"]
    );
    let v = serde_json::to_value(&e.events()[3]).unwrap();
    assert_eq!(v["content"]["blockedBy"], json!(["C-001"]));
    assert_eq!(v["content"]["code"], "missing_premise");
    assert_eq!(e.state().items_with(ItemStatus::Blocked).count(), 2);
}

#[test]
fn broken_logs_are_reported_not_panicked_on() {
    assert!(parse_event_log("{").is_err());
    assert!(parse_event_log("42").is_err());
    let err = parse_event_log(r#"[{"eventType":"PROPOSAL","source":"x","content":{}}]"#)
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("event 1:"), "{err}");
    let log = parse_event_log(
        r#"[{"eventType":"ACCEPTED","source":"system","content":{"conclusionId":"C-001","latex":"a"}},
            {"eventType":"RETRACTED","source":"system","content":{"conclusionId":"C-404","causeId":"C-404"}}]"#,
    )
    .unwrap();
    let (state, issues) = replay(&log.problem, &log.events);
    assert_eq!(state.items.len(), 1);
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].index, 2, "the second event, counted from 1");
}

#[test]
fn the_bundled_examples_load_and_the_seed_example_proves_its_goal() {
    use verifyfast::logic::document::load;
    let seed = load(include_str!("../public/examples/proof-seed-a-plus-b.json")).unwrap();
    assert!(!seed.config.auto_accept, "the seed example is multi-agent");
    assert!(seed.warnings.is_empty(), "{:?}", seed.warnings);
    let (state, issues) = replay(&seed.problem, &seed.events);
    assert!(issues.is_empty());
    assert_eq!(state.goals[0].proved_by.as_deref(), Some("C-004"));
    for text in [
        include_str!("../public/examples/proof-or-elim.json"),
        include_str!("../public/examples/proof-exists-unique.json"),
        include_str!("../public/examples/proof-linarith.json"),
    ] {
        let loaded = load(text).unwrap();
        let (state, _) = replay(&loaded.problem, &loaded.events);
        assert!(state.all_goals_proved(), "{}", loaded.problem.id);
    }
    let wrong = load(include_str!(
        "../public/examples/proof-wrong-instantiation.json"
    ))
    .unwrap();
    assert!(wrong.events.iter().any(|e| e.event_type() == "BLOCKED"));
}
