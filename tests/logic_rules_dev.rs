//! Every step of every dev case checked in isolation by the rule checker: premises are looked up
//! by `ref` among hypotheses and earlier steps (no dependency tracking, no engine). Steps whose
//! label is `invalid_derivation` must be rejected; steps that are not labelled rejected at all
//! must be accepted. Steps labelled with other codes (missing premise, circular, ...) are the
//! engine's business and only counted.

use std::collections::HashMap;

use serde_json::Value;
use verifyfast::logic::formula::{parse_formula, Formula};
use verifyfast::logic::rules::{check_step, CheckContext, Premise, RejectCode};

const CASES: &str = include_str!("fixtures/logic/dev_cases.jsonl");

#[derive(Default)]
struct Tally {
    agree: usize,
    disagree: Vec<String>,
    engine_only: usize,
}

fn text(v: &Value, key: &str) -> String {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

fn check_case(case: &Value, tally: &mut Tally) {
    let id = text(case, "id");
    let mut known: HashMap<String, (Formula, bool)> = HashMap::new();
    // Open assumptions each item depends on, so that freshness sees what the engine would pass.
    let mut deps: HashMap<String, Vec<String>> = HashMap::new();
    let mut hyps = Vec::new();
    for h in case["hypotheses"].as_array().into_iter().flatten() {
        let f = parse_formula(&text(h, "latex"))
            .unwrap_or_else(|e| panic!("{id} {}: {e}", text(h, "id")));
        known.insert(text(h, "id"), (f.clone(), false));
        hyps.push(f);
    }
    let reasons = &case["expect"]["reject_reasons"];
    let rejected: Vec<u64> = case["expect"]["rejected_steps"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_u64)
        .collect();
    for (i, action) in case["actions"].as_array().into_iter().flatten().enumerate() {
        let params = &action["params"];
        let kind = text(action, "actionType");
        let reference = text(action, "ref");
        if kind == "assume" {
            let f = parse_formula(&text(params, "formula"))
                .unwrap_or_else(|e| panic!("{id} step {i}: {e}"));
            deps.insert(reference.clone(), vec![reference.clone()]);
            known.insert(reference, (f, true));
            continue;
        }
        let (latex, cited) = if kind == "extend" {
            let mut cited = vec![text(params, "baseConclusionId")];
            cited.extend(
                params["premises"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .map(String::from),
            );
            (text(params, "extension"), cited)
        } else {
            let cited = params["premises"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect();
            (text(params, "conclusion"), cited)
        };
        let label = reasons.get(i.to_string()).and_then(Value::as_str);
        let conclusion =
            parse_formula(&latex).unwrap_or_else(|e| panic!("{id} step {i}: {latex}: {e}"));
        if label.is_some_and(|l| l != "invalid_derivation") {
            tally.engine_only += 1;
            continue;
        }
        let Some(premises) = cited
            .iter()
            .map(|r| {
                known.get(r).map(|(f, a)| Premise {
                    id: r,
                    formula: f,
                    is_assumption: *a,
                })
            })
            .collect::<Option<Vec<_>>>()
        else {
            // Cites an unknown id: only possible for steps the engine rejects.
            assert!(
                rejected.contains(&(i as u64)),
                "{id} step {i} cites an unknown id but is not labelled rejected"
            );
            tally.engine_only += 1;
            continue;
        };
        let mut dep_ids: Vec<String> = cited
            .iter()
            .flat_map(|r| deps.get(r).cloned().unwrap_or_default())
            .collect();
        dep_ids.sort();
        dep_ids.dedup();
        let open: Vec<Formula> = dep_ids
            .iter()
            .filter_map(|d| known.get(d).map(|(f, _)| f.clone()))
            .collect();
        let ctx = CheckContext {
            hypotheses: &hyps,
            open_assumptions: &open,
        };
        let result = check_step(&text(params, "rule"), &premises, &conclusion, params, &ctx);
        let expect_reject = label == Some("invalid_derivation");
        let got_reject = matches!(&result, Err(r) if r.code == RejectCode::InvalidDerivation);
        if expect_reject == got_reject && (expect_reject || result.is_ok()) {
            tally.agree += 1;
        } else {
            tally.disagree.push(format!(
                "{id} step {i} ({}): expected {:?}, got {:?}",
                text(params, "rule"),
                label,
                result
            ));
        }
        if !rejected.contains(&(i as u64)) {
            let discharged = result.map(|a| a.discharged).unwrap_or_default();
            dep_ids.retain(|d| !discharged.contains(d));
            deps.insert(reference.clone(), dep_ids);
            known.insert(reference, (conclusion, false));
        }
    }
}

#[test]
fn dev_case_steps_agree_with_their_labels() {
    let mut tally = Tally::default();
    for line in CASES.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).expect("fixture line is JSON");
        check_case(&case, &mut tally);
    }
    eprintln!(
        "dev steps: {} agree, {} disagree, {} left to the engine",
        tally.agree,
        tally.disagree.len(),
        tally.engine_only
    );
    for d in &tally.disagree {
        eprintln!("  {d}");
    }
    assert!(tally.agree > 300, "too few steps checked: {}", tally.agree);
    assert!(
        tally.disagree.is_empty(),
        "{} steps disagree",
        tally.disagree.len()
    );
}
