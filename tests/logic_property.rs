//! Property test with a fixed-seed generator (no proptest dependency): random valid derivations
//! stay accepted; a random single-step corruption is rejected, exactly the steps built on it are
//! refused after it, and no refused item ever shows up among the accepted ones.

use serde_json::json;
use verifyfast::logic::events::RejectCode;
use verifyfast::logic::protocol::{run_case, Case, CaseAction};
use verifyfast::logic::world::{GoalSpec, Hypothesis, ItemStatus};

mod common;
use common::Rng;

#[derive(Clone, Debug, PartialEq)]
enum F {
    Atom(char),
    And(Box<F>, Box<F>),
    Imp(Box<F>, Box<F>),
}

impl F {
    fn latex(&self) -> String {
        match self {
            F::Atom(c) => c.to_string(),
            F::And(a, b) => format!("{} \\land {}", a.wrapped(), b.wrapped()),
            F::Imp(a, b) => format!("{} \\to {}", a.wrapped(), b.wrapped()),
        }
    }
    fn wrapped(&self) -> String {
        match self {
            F::Atom(_) => self.latex(),
            _ => format!("({})", self.latex()),
        }
    }
}

fn atom(c: char) -> F {
    F::Atom(c)
}

/// A known formula and the id it is cited by.
struct Known {
    id: String,
    formula: F,
}

struct Script {
    hypotheses: Vec<Hypothesis>,
    actions: Vec<CaseAction>,
    /// For each action, the refs it cites.
    cites: Vec<Vec<String>>,
}

fn hypotheses() -> Vec<(F, String)> {
    let facts = [atom('A'), atom('B')];
    let rules = [
        F::Imp(Box::new(atom('A')), Box::new(atom('C'))),
        F::Imp(Box::new(atom('B')), Box::new(atom('D'))),
        F::Imp(
            Box::new(F::And(Box::new(atom('C')), Box::new(atom('D')))),
            Box::new(atom('E')),
        ),
    ];
    facts
        .into_iter()
        .chain(rules)
        .enumerate()
        .map(|(i, f)| (f, format!("H-{}", i + 1)))
        .collect()
}

/// One valid step from what is known, or `None` if the picked move does not apply.
fn valid_step(rng: &mut Rng, known: &[Known]) -> Option<(F, Vec<String>, &'static str)> {
    let pick = |rng: &mut Rng| &known[rng.below(known.len())];
    match rng.below(4) {
        0 => {
            let (a, b) = (pick(rng), pick(rng));
            let f = F::And(Box::new(a.formula.clone()), Box::new(b.formula.clone()));
            Some((f, vec![a.id.clone(), b.id.clone()], "and_intro"))
        }
        1 => {
            let a = pick(rng);
            match &a.formula {
                F::And(l, r) => {
                    let f = if rng.below(2) == 0 { l } else { r };
                    Some(((**f).clone(), vec![a.id.clone()], "and_elim"))
                }
                _ => None,
            }
        }
        2 => {
            let imp = pick(rng);
            let F::Imp(ante, cons) = &imp.formula else {
                return None;
            };
            let arg = known.iter().find(|k| k.formula == **ante)?;
            Some((
                (**cons).clone(),
                vec![imp.id.clone(), arg.id.clone()],
                "imp_elim",
            ))
        }
        _ => {
            let a = pick(rng);
            Some((a.formula.clone(), vec![a.id.clone()], "reit"))
        }
    }
}

fn valid_script(rng: &mut Rng, length: usize) -> (Script, Vec<F>) {
    let hyps = hypotheses();
    let mut known: Vec<Known> = hyps
        .iter()
        .map(|(f, id)| Known {
            id: id.clone(),
            formula: f.clone(),
        })
        .collect();
    let mut actions = Vec::new();
    let mut cites = Vec::new();
    let mut conclusions = Vec::new();
    let mut guard = 0;
    while actions.len() < length && guard < length * 50 {
        guard += 1;
        let Some((f, premises, rule)) = valid_step(rng, &known) else {
            continue;
        };
        let reference = format!("C-{:03}", actions.len() + 1);
        actions.push(CaseAction {
            agent: "researcher-1".into(),
            action_type: "derive".into(),
            params: json!({"conclusion": f.latex(), "premises": premises, "rule": rule}),
            reference: Some(reference.clone()),
        });
        cites.push(premises);
        conclusions.push(f.clone());
        known.push(Known {
            id: reference,
            formula: f,
        });
    }
    let hypotheses = hyps
        .into_iter()
        .map(|(f, id)| Hypothesis {
            id,
            latex: f.latex(),
            kind: None,
        })
        .collect();
    (
        Script {
            hypotheses,
            actions,
            cites,
        },
        conclusions,
    )
}

fn case_of(script: &Script, id: String) -> Case {
    Case {
        id,
        title: String::new(),
        label: None,
        protocol: Some("auto-accept-v1".into()),
        agents: vec!["researcher-1".into(), "researcher-2".into()],
        hypotheses: script.hypotheses.clone(),
        goals: vec![GoalSpec {
            id: "G-1".into(),
            latex: "E".into(),
        }],
        actions: script.actions.clone(),
        expect: None,
    }
}

/// Steps that (transitively) cite step `bad`.
fn dependants(script: &Script, bad: usize) -> Vec<usize> {
    let mut tainted = vec![false; script.actions.len()];
    tainted[bad] = true;
    let refs: Vec<String> = script
        .actions
        .iter()
        .map(|a| a.reference.clone().unwrap_or_default())
        .collect();
    for i in bad + 1..script.actions.len() {
        tainted[i] = script.cites[i]
            .iter()
            .any(|c| refs.iter().position(|r| r == c).is_some_and(|j| tainted[j]));
    }
    (bad + 1..script.actions.len())
        .filter(|&i| tainted[i])
        .collect()
}

fn assert_no_refused_item_is_accepted(case: &Case) {
    let run = run_case(case);
    let s = run.engine.state();
    for item in s.items_with(ItemStatus::Accepted) {
        for p in &item.premises {
            let ok = s.hypothesis(p).is_some()
                || s.item(p).is_some_and(|i| i.status == ItemStatus::Accepted);
            assert!(ok, "{}: accepted {} cites refused {p}", case.id, item.id);
        }
    }
}

#[test]
fn random_valid_derivations_stay_accepted() {
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    for round in 0..60 {
        let (script, _) = valid_script(&mut rng, 12);
        let case = case_of(&script, format!("valid-{round}"));
        let run = run_case(&case);
        assert!(
            run.rejected_steps().is_empty(),
            "round {round}: {:?}",
            run.steps
                .iter()
                .filter_map(|s| s
                    .result
                    .as_ref()
                    .err()
                    .map(|e| (s.index, e.message.clone())))
                .collect::<Vec<_>>()
        );
        assert_eq!(
            run.engine.state().items_with(ItemStatus::Accepted).count(),
            script.actions.len()
        );
        assert_no_refused_item_is_accepted(&case);
    }
}

#[derive(Clone, Copy, Debug)]
enum Corruption {
    WrongConclusion,
    UnknownPremise,
    LaterPremise,
    DroppedPremise,
    Unregistered,
}

fn corrupt(script: &mut Script, step: usize, how: Corruption) -> RejectCode {
    let action = &mut script.actions[step];
    let params = &mut action.params;
    match how {
        Corruption::WrongConclusion => {
            // Z is in no hypothesis, so no rule derives it here.
            params["conclusion"] = json!("Z");
            RejectCode::InvalidDerivation
        }
        Corruption::UnknownPremise => {
            params["premises"][0] = json!("H-99");
            RejectCode::MissingPremise
        }
        Corruption::LaterPremise => {
            params["premises"][0] = json!(format!("C-{:03}", step + 1));
            RejectCode::Circular
        }
        Corruption::DroppedPremise => {
            let list = params["premises"].as_array().cloned().unwrap_or_default();
            let fewer = if list.len() > 1 {
                list[..1].to_vec()
            } else {
                Vec::new()
            };
            params["premises"] = json!(fewer);
            RejectCode::MissingPremise
        }
        Corruption::Unregistered => {
            action.agent = "ghost-agent".into();
            RejectCode::Unauthorized
        }
    }
}

#[test]
fn random_single_step_corruptions_are_rejected_and_only_their_dependants_follow() {
    let mut rng = Rng(0xC0FF_EE00_1234_5678);
    let kinds = [
        Corruption::WrongConclusion,
        Corruption::UnknownPremise,
        Corruption::LaterPremise,
        Corruption::DroppedPremise,
        Corruption::Unregistered,
    ];
    for round in 0..100 {
        let (mut script, _) = valid_script(&mut rng, 10);
        let step = rng.below(script.actions.len());
        let how = kinds[rng.below(kinds.len())];
        let code = corrupt(&mut script, step, how);
        let case = case_of(&script, format!("corrupt-{round}-{how:?}"));
        let run = run_case(&case);
        let mut want = vec![step];
        want.extend(dependants(&script, step));
        assert_eq!(run.rejected_steps(), want, "{}: step {step}", case.id);
        let first = run.steps[step].result.as_ref().unwrap_err();
        assert_eq!(first.code, code, "{}: {}", case.id, first.message);
        for &later in &want[1..] {
            let r = run.steps[later].result.as_ref().unwrap_err();
            assert_eq!(
                r.code,
                RejectCode::MissingPremise,
                "{}: step {later}",
                case.id
            );
        }
        assert_no_refused_item_is_accepted(&case);
    }
}
