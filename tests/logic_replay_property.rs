//! Replay property, with a fixed-seed generator like `logic_property.rs`:
//! - random sessions of actions (two researchers, manual accepts or auto-accept): for every
//!   prefix, an engine rebuilt with `Engine::from_log` from the prefix's events and then given
//!   the remaining actions ends with exactly the events and world state of the uninterrupted run;
//! - every accepted item, live or rebuilt, is entailed by the hypotheses plus the assumptions
//!   it depends on (checked by truth tables), so no unentailed goal is ever proved;
//! - randomly corrupted logs are refused, or rebuild to a state that keeps that invariant
//!   however the session continues.

use serde_json::{json, Value};
use verifyfast::logic::engine::{Action, Engine, EngineConfig};
use verifyfast::logic::events::Event;
use verifyfast::logic::formula::{parse_formula, Formula};
use verifyfast::logic::world::{GoalSpec, Hypothesis, ItemStatus, Problem, WorldState};

mod common;
use common::Rng;

const AGENTS: [&str; 2] = ["r1", "r2"];
const ATOMS: [&str; 4] = ["P", "Q", "R", "S"];

/// H: P, P → Q, Q → R. Goals: R (entailed) and S (not entailed).
fn problem(auto: bool) -> Problem {
    let hyp = |id: &str, latex: &str| Hypothesis {
        id: id.into(),
        latex: latex.into(),
        kind: None,
    };
    Problem {
        id: "replay".into(),
        title: "replay property".into(),
        hypotheses: vec![
            hyp("H-1", "P"),
            hyp("H-2", "P \\to Q"),
            hyp("H-3", "Q \\to R"),
        ],
        goals: vec![
            GoalSpec {
                id: "G-1".into(),
                latex: "R".into(),
            },
            GoalSpec {
                id: "G-2".into(),
                latex: "S".into(),
            },
        ],
        agents: AGENTS.iter().map(|a| a.to_string()).collect(),
        protocol: auto.then(|| "auto-accept-v1".to_string()),
    }
}

fn config(auto: bool) -> EngineConfig {
    if auto {
        EngineConfig::auto_accept()
    } else {
        EngineConfig::default()
    }
}

/// Truth value under `v` (bit i = ATOMS[i]); `None` outside the propositional fragment.
fn eval(f: &Formula, v: u32) -> Option<bool> {
    Some(match f {
        Formula::Bottom => false,
        Formula::Top => true,
        Formula::Atom(a) => {
            let i = ATOMS.iter().position(|x| x == a)?;
            v & (1 << i) != 0
        }
        Formula::Not(a) => !eval(a, v)?,
        Formula::And(a, b) => eval(a, v)? && eval(b, v)?,
        Formula::Or(a, b) => eval(a, v)? || eval(b, v)?,
        Formula::Implies(a, b) => !eval(a, v)? || eval(b, v)?,
        Formula::Iff(a, b) => eval(a, v)? == eval(b, v)?,
        _ => return None,
    })
}

/// `premises ⊨ conclusion` by truth table (`None` if some formula is not propositional).
fn entails(premises: &[Formula], conclusion: &Formula) -> Option<bool> {
    for v in 0..(1u32 << ATOMS.len()) {
        let mut all = true;
        for p in premises {
            all &= eval(p, v)?;
        }
        if all && !eval(conclusion, v)? {
            return Some(false);
        }
    }
    Some(true)
}

/// Every accepted item follows from the hypotheses and the assumptions it depends on, and
/// every proved goal is proved by such an item with no open assumption.
fn assert_sound(state: &WorldState, context: &str) {
    let parse = |latex: &str| parse_formula(latex).expect("generated formulas parse");
    let hyps: Vec<Formula> = state
        .problem
        .hypotheses
        .iter()
        .map(|h| parse(&h.latex))
        .collect();
    for item in state.items_with(ItemStatus::Accepted) {
        let mut premises = hyps.clone();
        for a in &item.depends_on {
            let Some(assumption) = state.item(a).filter(|i| i.is_assumption()) else {
                panic!(
                    "{context}: {} depends on {a}, which is no assumption",
                    item.id
                );
            };
            premises.push(parse(&assumption.latex));
        }
        assert_eq!(
            entails(&premises, &parse(&item.latex)),
            Some(true),
            "{context}: accepted {} `{}` (depends on {:?}) is not entailed",
            item.id,
            item.latex,
            item.depends_on
        );
    }
    for goal in &state.goals {
        if let Some(by) = &goal.proved_by {
            let item = state.item(by).expect("a goal is proved by an item");
            assert_eq!(item.status, ItemStatus::Accepted, "{context}");
            assert!(
                item.depends_on.is_empty(),
                "{context}: {} rests on {:?}",
                by,
                item.depends_on
            );
            assert_eq!(
                entails(&hyps, &parse(&goal.latex)),
                Some(true),
                "{context}: unentailed goal {} proved by {by}",
                goal.id
            );
        }
    }
}

fn formula_pool(rng: &mut Rng) -> String {
    let atom = |rng: &mut Rng| rng.pick(&ATOMS).to_string();
    match rng.below(6) {
        0 | 1 => atom(rng),
        2 => format!("{} \\land {}", atom(rng), atom(rng)),
        3 => format!("{} \\to {}", atom(rng), atom(rng)),
        4 => format!("\\neg {}", atom(rng)),
        _ => "\\bot".to_string(),
    }
}

/// Ids a step may cite: hypotheses, goals, issued and not-yet-issued engine ids.
fn some_id(rng: &mut Rng, state: &WorldState) -> String {
    match rng.below(8) {
        0 => format!("H-{}", 1 + rng.below(4)),
        1 => format!("G-{}", 1 + rng.below(2)),
        2 => format!("A-{}", 1 + rng.below(state.next_assumption + 1)),
        _ => format!("C-{:03}", 1 + rng.below(state.next_conclusion + 1)),
    }
}

/// The formulas one may cite right now, with their ids.
fn citable(state: &WorldState) -> Vec<(String, Formula)> {
    let hyps = state
        .problem
        .hypotheses
        .iter()
        .map(|h| (h.id.clone(), h.latex.clone()));
    let items = state
        .items_with(ItemStatus::Accepted)
        .map(|i| (i.id.clone(), i.latex.clone()));
    hyps.chain(items)
        .filter_map(|(id, latex)| parse_formula(&latex).ok().map(|f| (id, f)))
        .collect()
}

fn derive(agent: &str, conclusion: String, premises: Vec<String>, rule: &str) -> Action {
    Action::new(
        agent,
        "derive",
        json!({"conclusion": conclusion, "premises": premises, "rule": rule}),
    )
}

/// A step that is often correct, built from what the world holds now.
fn sensible_derive(rng: &mut Rng, state: &WorldState, agent: &str) -> Option<Action> {
    let known = citable(state);
    let (id, f) = rng.pick(&known).clone();
    match rng.below(5) {
        0 => Some(derive(agent, f.to_latex(), vec![id], "reit")),
        1 => match f {
            Formula::And(a, b) => {
                let side = if rng.below(2) == 0 { a } else { b };
                Some(derive(agent, side.to_latex(), vec![id], "and_elim"))
            }
            _ => None,
        },
        2 => {
            let (id2, g) = rng.pick(&known).clone();
            let both = Formula::And(Box::new(f), Box::new(g));
            Some(derive(agent, both.to_latex(), vec![id, id2], "and_intro"))
        }
        3 => {
            // Modus ponens on any conditional whose antecedent is known (this is what
            // reaches the goal R).
            let usable: Vec<(String, Formula, String)> = known
                .iter()
                .filter_map(|(id, f)| match f {
                    Formula::Implies(a, b) => known
                        .iter()
                        .find(|(_, g)| g.same_up_to_bound_renaming(a))
                        .map(|(minor, _)| (id.clone(), (**b).clone(), minor.clone())),
                    _ => None,
                })
                .collect();
            if usable.is_empty() {
                return None;
            }
            let (imp, b, minor) = rng.pick(&usable).clone();
            Some(derive(
                agent,
                b.to_latex(),
                vec![imp, minor],
                "modus_ponens",
            ))
        }
        _ => {
            // →I: an assumption and an accepted item resting on it.
            let item = state
                .items_with(ItemStatus::Accepted)
                .filter(|i| !i.depends_on.is_empty())
                .last()?;
            let a = state.item(&item.depends_on[0])?;
            let imp = Formula::Implies(
                Box::new(parse_formula(&a.latex).ok()?),
                Box::new(parse_formula(&item.latex).ok()?),
            );
            Some(derive(
                agent,
                imp.to_latex(),
                vec![a.id.clone(), item.id.clone()],
                "imp_intro",
            ))
        }
    }
}

/// One random action given the live world.
fn random_action(rng: &mut Rng, state: &WorldState) -> Action {
    let agent = if rng.below(30) == 0 {
        "intruder"
    } else {
        *rng.pick(&AGENTS)
    };
    let other = if agent == "r1" { "r2" } else { "r1" };
    for _ in 0..4 {
        let action = match rng.below(11) {
            0..=3 => sensible_derive(rng, state, agent),
            4 => {
                let n = rng.below(3);
                let premises = (0..n).map(|_| some_id(rng, state)).collect();
                let rule = *rng.pick(&[
                    "reit",
                    "and_intro",
                    "imp_elim",
                    "magic",
                    "explosion",
                    "imp_intro",
                ]);
                Some(derive(agent, formula_pool(rng), premises, rule))
            }
            5 => Some(Action::new(
                agent,
                "assume",
                json!({"formula": formula_pool(rng)}),
            )),
            6 | 7 => {
                // Accept a pending proposal, mostly by the other researcher.
                let pending: Vec<String> = state
                    .items_with(ItemStatus::Pending)
                    .map(|i| i.id.clone())
                    .collect();
                let id = if pending.is_empty() || rng.below(6) == 0 {
                    some_id(rng, state)
                } else {
                    rng.pick(&pending).clone()
                };
                let by = if rng.below(5) == 0 { agent } else { other };
                Some(Action::new(by, "accept", json!({"proposalId": id})))
            }
            8 => Some(Action::new(
                agent,
                "refute",
                json!({"targetId": some_id(rng, state), "type": "invalid_derivation", "reason": "looks wrong"}),
            )),
            9 => {
                let known = citable(state);
                let (base, _) = rng.pick(&known).clone();
                let premise = some_id(rng, state);
                Some(Action::new(
                    agent,
                    "extend",
                    json!({"baseConclusionId": base, "extension": formula_pool(rng),
                           "premises": [premise], "rule": "modus_ponens"}),
                ))
            }
            _ => Some(derive(agent, String::new(), vec![], "reit")),
        };
        if let Some(a) = action {
            return a;
        }
    }
    Action::new(agent, "assume", json!({"formula": "P"}))
}

/// A live run: the actions, and after each action the number of events so far.
struct Session {
    auto: bool,
    actions: Vec<Action>,
    boundaries: Vec<usize>,
    engine: Engine,
}

fn session(rng: &mut Rng, auto: bool, length: usize) -> Session {
    let mut engine = Engine::new(problem(auto), config(auto)).expect("the problem is valid");
    let mut actions = Vec::new();
    let mut boundaries = vec![0];
    for _ in 0..length {
        let action = random_action(rng, engine.state());
        engine.submit(&action);
        actions.push(action);
        boundaries.push(engine.events().len());
        assert_sound(engine.state(), "live run");
    }
    Session {
        auto,
        actions,
        boundaries,
        engine,
    }
}

#[test]
fn an_engine_rebuilt_from_any_prefix_continues_exactly_like_the_live_one() {
    let mut rng = Rng(0x0017_5eed_0000_0001);
    let mut rebuilt = 0;
    let mut accepted = 0;
    let mut proved = 0;
    for round in 0..80 {
        let auto = round % 3 == 0;
        let s = session(&mut rng, auto, 24);
        accepted += s.engine.state().items_with(ItemStatus::Accepted).count();
        proved += s
            .engine
            .events()
            .iter()
            .filter(|e| matches!(e, Event::GoalProved { .. }))
            .count();
        let full = s.engine.events();
        for (k, &end) in s.boundaries.iter().enumerate() {
            let prefix = &full[..end];
            let mut e =
                Engine::from_log(problem(s.auto), config(s.auto), prefix).unwrap_or_else(|err| {
                    panic!("round {round}, prefix {k}: the engine's own log is refused: {err}")
                });
            assert_eq!(e.events(), prefix, "round {round}, prefix {k}");
            for action in &s.actions[k..] {
                e.submit(action);
            }
            assert_eq!(e.events(), full, "round {round}: rebuilt after action {k}");
            assert_eq!(
                e.state(),
                s.engine.state(),
                "round {round}: rebuilt after action {k}"
            );
            rebuilt += 1;
        }
    }
    // The generator must exercise acceptances and proofs, not only refusals.
    assert!(rebuilt > 1_500, "{rebuilt}");
    assert!(accepted > 300, "{accepted} accepted items");
    assert!(proved >= 5, "{proved} goals proved");
}

/// One random corruption of a log (as JSON, the way a hand edit would make it).
fn corrupt(rng: &mut Rng, log: &mut Vec<Value>) {
    if log.is_empty() {
        return;
    }
    let i = rng.below(log.len());
    let ids = [
        "C-001", "C-002", "C-003", "C-009", "A-1", "A-2", "H-1", "G-1", "G-2",
    ];
    let pick_id = |rng: &mut Rng| rng.pick(&ids).to_string();
    match rng.below(12) {
        0 => {
            log.remove(i);
        }
        1 => {
            let e = log[i].clone();
            log.insert(rng.below(log.len() + 1), e);
        }
        2 => {
            let j = rng.below(log.len());
            log.swap(i, j);
        }
        3 => log[i]["content"]["rule"] = json!("magic"),
        4 => log[i]["content"]["checked"] = json!(rng.below(2) == 0),
        5 => log[i]["content"]["dependsOn"] = json!([]),
        6 => log[i]["content"]["premises"] = json!([pick_id(rng)]),
        7 => log[i]["content"]["latex"] = json!(*rng.pick(&["S", "R", "P", "\\bot"])),
        8 => log[i]["content"]["proposalId"] = json!(pick_id(rng)),
        9 => log.insert(
            i,
            json!({"eventType": "ACCEPTED", "source": "r2", "content": {
                "conclusionId": pick_id(rng), "latex": "S", "derivedFrom": [], "rule": "reit",
                "proposedBy": "r1", "verifiedBy": "r2", "dependsOn": [], "checked": true}}),
        ),
        10 => log.insert(
            i,
            json!({"eventType": "GOAL_PROVED", "source": "system", "content": {
                "goalId": "G-2", "proofConclusionId": pick_id(rng)}}),
        ),
        _ => log[i]["content"]["conclusionId"] = json!(pick_id(rng)),
    }
}

#[test]
fn corrupted_logs_are_refused_or_stay_sound() {
    let mut rng = Rng(0x0017_bad0_0000_0002);
    let (mut refused, mut loaded) = (0, 0);
    for round in 0..1_500 {
        let auto = round % 3 == 0;
        let length = 1 + rng.below(16);
        let s = session(&mut rng, auto, length);
        let mut log: Vec<Value> = s
            .engine
            .events()
            .iter()
            .map(|e| serde_json::to_value(e).expect("events serialise"))
            .collect();
        for _ in 0..1 + rng.below(3) {
            corrupt(&mut rng, &mut log);
        }
        // A corruption may make an event unreadable: that is a refusal too.
        let Ok(events) = serde_json::from_value::<Vec<Event>>(Value::Array(log)) else {
            refused += 1;
            continue;
        };
        match Engine::from_log(problem(auto), config(auto), &events) {
            Err(e) => {
                let text = e.to_string();
                assert!(text.starts_with("event "), "round {round}: {text}");
                refused += 1;
            }
            Ok(mut e) => {
                loaded += 1;
                assert_sound(e.state(), &format!("round {round}: rebuilt"));
                for _ in 0..12 {
                    let action = random_action(&mut rng, e.state());
                    e.submit(&action);
                    assert_sound(e.state(), &format!("round {round}: continued"));
                }
            }
        }
    }
    assert!(
        refused > 300 && loaded > 100,
        "refused {refused}, loaded {loaded}"
    );
}
