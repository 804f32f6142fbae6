//! Rule checker tests: each rule's valid and invalid uses.
use super::*;
use crate::logic::formula::parse_formula;

fn f(s: &str) -> Formula {
    match parse_formula(s) {
        Ok(f) => f,
        Err(e) => panic!("{s}: {e}"),
    }
}

/// Checks `rule` with premises given as (id, LaTeX); ids starting with `A-` are assumptions.
fn run_with(
    rule: &str,
    premises: &[(&str, &str)],
    conclusion: &str,
    hyps: &[&str],
    open: &[&str],
    params: serde_json::Value,
) -> Result<Accepted, Rejection> {
    let formulas: Vec<Formula> = premises.iter().map(|(_, s)| f(s)).collect();
    let cited: Vec<Premise> = premises
        .iter()
        .zip(&formulas)
        .map(|((id, _), formula)| Premise {
            id,
            formula,
            is_assumption: id.starts_with("A-"),
        })
        .collect();
    let hyps: Vec<Formula> = hyps.iter().map(|s| f(s)).collect();
    let open: Vec<Formula> = open.iter().map(|s| f(s)).collect();
    let ctx = CheckContext {
        hypotheses: &hyps,
        open_assumptions: &open,
    };
    check_step(rule, &cited, &f(conclusion), &params, &ctx)
}

fn run(rule: &str, premises: &[(&str, &str)], conclusion: &str) -> Result<Accepted, Rejection> {
    run_with(
        rule,
        premises,
        conclusion,
        &[],
        &[],
        serde_json::Value::Null,
    )
}

fn ok(rule: &str, premises: &[(&str, &str)], conclusion: &str) {
    if let Err(e) = run(rule, premises, conclusion) {
        panic!(
            "{rule} {premises:?} ⊢ {conclusion} should pass: {}",
            e.message
        );
    }
}

fn bad(rule: &str, premises: &[(&str, &str)], conclusion: &str) -> String {
    match run(rule, premises, conclusion) {
        Ok(_) => panic!("{rule} {premises:?} ⊢ {conclusion} should be rejected"),
        Err(e) => {
            assert_eq!(e.code, RejectCode::InvalidDerivation, "{}", e.message);
            e.message
        }
    }
}

#[test]
fn catalogue_matches_rules_json() {
    let file: serde_json::Value = match serde_json::from_str(include_str!("../rules.json")) {
        Ok(v) => v,
        Err(e) => panic!("rules.json: {e}"),
    };
    let from_file: Vec<(String, Vec<String>)> = file["rules"]
        .as_array()
        .map(|rules| {
            rules
                .iter()
                .map(|r| {
                    let names = |v: &serde_json::Value| -> Vec<String> {
                        v.as_array()
                            .map(|a| {
                                a.iter()
                                    .filter_map(|x| x.as_str().map(String::from))
                                    .collect()
                            })
                            .unwrap_or_default()
                    };
                    (
                        r["id"].as_str().unwrap_or("").to_string(),
                        names(&r["aliases"]),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let ours: Vec<(String, Vec<String>)> = catalogue()
        .iter()
        .map(|r| {
            (
                r.id.to_string(),
                r.aliases.iter().map(|a| a.to_string()).collect(),
            )
        })
        .collect();
    assert_eq!(ours, from_file);
}

#[test]
fn catalogue_loads_with_aliases() {
    assert!(catalogue().len() >= 28);
    assert!(
        known_rule("modus_ponens")
            && known_rule("mp")
            && known_rule("imp_elim")
            && known_rule("linarith")
    );
    assert!(!known_rule("magic"));
    assert_eq!(rule_id("mp"), Some("imp_elim"));
    let e = run("magic", &[], "A").unwrap_err();
    assert_eq!(e.code, RejectCode::Malformed);
}

#[test]
fn reit() {
    ok("reit", &[("H-1", "A \\land B")], "(A \\wedge B)");
    bad("reit", &[("H-1", "A \\land B")], "B \\land A");
}

#[test]
fn citation_count_must_match_except_for_extend() {
    let two = run("reit", &[("A-2", "C"), ("C-002", "C")], "C").unwrap_err();
    assert_eq!(two.code, RejectCode::MissingPremise);
    let extend = run_with(
        "modus_ponens",
        &[("C-001", "A"), ("H-3", "A \\to B"), ("H-4", "Z")],
        "B",
        &[],
        &[],
        serde_json::json!({"baseConclusionId": "C-001"}),
    );
    assert!(extend.is_ok());
    let eq = run("eq_intro", &[("H-1", "A")], "a = a").unwrap_err();
    assert_eq!(eq.code, RejectCode::MissingPremise);
}

#[test]
fn design_note_example() {
    ok(
        "conjunction",
        &[("H-1", "a > 0"), ("H-2", "b > 0")],
        "a > 0 \\land b > 0",
    );
    let hyps = ["a > 0", "b > 0", "\\forall x, y > 0: x + y > 0"];
    let extend = serde_json::json!({"baseConclusionId": "C-001", "extension": "$a + b > 0$", "rule": "modus_ponens"});
    let step = |concl: &str| {
        run_with(
            "modus_ponens",
            &[("C-001", "a > 0 \\land b > 0")],
            concl,
            &hyps,
            &[],
            extend.clone(),
        )
    };
    assert!(step("a + b > 0").is_ok());
    assert_eq!(
        step("a + b > 1").map_err(|e| e.code),
        Err(RejectCode::MissingPremise)
    );
    // A plain derive must cite the conditional.
    let derive = run_with(
        "modus_ponens",
        &[("C-001", "a > 0 \\land b > 0")],
        "a + b > 0",
        &hyps,
        &[],
        serde_json::Value::Null,
    );
    assert_eq!(derive.map_err(|e| e.code), Err(RejectCode::MissingPremise));
}

#[test]
fn and_intro() {
    ok("and_intro", &[("H-1", "A"), ("H-2", "B")], "A \\land B");
    ok("and_intro", &[("H-1", "A"), ("H-1", "A")], "A \\land A");
    bad("and_intro", &[("H-1", "A"), ("H-2", "B")], "A \\land C");
    let e = run("and_intro", &[("H-1", "A")], "A \\land B").unwrap_err();
    assert_eq!(e.code, RejectCode::MissingPremise);
}

#[test]
fn and_elim() {
    ok("and_elim", &[("H-1", "A \\land B")], "B");
    bad("and_elim", &[("H-1", "A \\lor B")], "B");
}

#[test]
fn or_intro() {
    ok("or_intro", &[("H-1", "A")], "B \\lor A");
    bad("or_intro", &[("H-1", "A")], "B \\lor C");
}

#[test]
fn imp_elim_either_order_and_through_quantifiers() {
    ok("imp_elim", &[("H-1", "A \\to B"), ("H-2", "A")], "B");
    ok("modus_ponens", &[("H-2", "A"), ("H-1", "A \\to B")], "B");
    bad("mp", &[("H-1", "A \\to B"), ("H-2", "B")], "A");
    // The bundled example's step (docs/logic.md): H-3 applied to C-001.
    ok(
        "modus_ponens",
        &[
            ("C-001", "a > 0 \\land b > 0"),
            ("H-3", "\\forall x, y > 0: x + y > 0"),
        ],
        "a + b > 0",
    );
    bad(
        "modus_ponens",
        &[
            ("C-001", "a > 0 \\land b > 0"),
            ("H-3", "\\forall x, y > 0: x + y > 0"),
        ],
        "a + a > 0",
    );
}

#[test]
fn not_elim() {
    ok("not_elim", &[("H-1", "\\neg P"), ("H-2", "P")], "\\bot");
    bad("not_elim", &[("H-1", "\\neg P"), ("H-2", "Q")], "\\bot");
}

#[test]
fn explosion() {
    ok("explosion", &[("C-001", "\\bot")], "Z \\lor Q");
    bad("explosion", &[("C-001", "\\neg P")], "Q");
}

#[test]
fn iff_elim() {
    ok(
        "iff_elim",
        &[("H-1", "A \\leftrightarrow B"), ("H-2", "B")],
        "A",
    );
    bad("iff_elim", &[("H-1", "A \\to B"), ("H-2", "B")], "A");
}

#[test]
fn derived_rules() {
    ok("ds", &[("H-1", "A \\lor B"), ("H-2", "\\neg B")], "A");
    bad("ds", &[("H-1", "A \\lor B"), ("H-2", "\\neg B")], "B");
    ok("mt", &[("H-1", "A \\to B"), ("H-2", "\\neg B")], "\\neg A");
    bad("mt", &[("H-1", "A \\to B"), ("H-2", "\\neg A")], "\\neg B");
    ok("dne", &[("H-1", "\\neg \\neg A")], "A");
    bad("dne", &[("H-1", "\\neg A")], "A");
    ok(
        "hs",
        &[("H-1", "A \\to B"), ("H-2", "B \\to C")],
        "A \\to C",
    );
    bad(
        "hs",
        &[("H-1", "A \\to B"), ("H-2", "C \\to B")],
        "A \\to C",
    );
    ok(
        "dem",
        &[("H-1", "\\neg (A \\lor B)")],
        "\\neg A \\land \\neg B",
    );
    ok(
        "dem",
        &[("H-1", "\\neg A \\lor \\neg B")],
        "\\neg (A \\land B)",
    );
    bad(
        "dem",
        &[("H-1", "\\neg (A \\lor B)")],
        "\\neg A \\lor \\neg B",
    );
    ok(
        "cq",
        &[("H-1", "\\neg \\forall x\\, F(x)")],
        "\\exists y\\, \\neg F(y)",
    );
    ok(
        "cq",
        &[("H-1", "\\forall x\\, \\neg F(x)")],
        "\\neg \\exists x\\, F(x)",
    );
    bad(
        "cq",
        &[("H-1", "\\neg \\forall x\\, F(x)")],
        "\\forall x\\, \\neg F(x)",
    );
}

#[test]
fn forall_elim_needs_one_term_everywhere() {
    ok(
        "forall_elim",
        &[("H-1", "\\forall x\\, (F(x) \\to G(x))")],
        "F(a) \\to G(a)",
    );
    ok(
        "forall_elim",
        &[("H-1", "\\forall x\\, \\exists y\\, L(x, y)")],
        "\\exists y\\, L(f(a), y)",
    );
    bad(
        "forall_elim",
        &[("H-1", "\\forall x\\, (F(x) \\to G(x))")],
        "F(a) \\to G(b)",
    );
    // Capture: instantiating x with y under ∃y changes the meaning.
    let msg = bad(
        "forall_elim",
        &[("H-1", "\\forall x\\, \\exists y\\, L(x, y)")],
        "\\exists y\\, L(y, y)",
    );
    assert!(msg.contains("∀E"));
}

#[test]
fn forall_intro_needs_a_fresh_name() {
    ok(
        "forall_intro",
        &[("C-001", "F(a) \\to F(a)")],
        "\\forall x\\, (F(x) \\to F(x))",
    );
    bad(
        "forall_intro",
        &[("C-001", "F(a) \\to G(a)")],
        "\\forall x\\, (F(x) \\to G(a))",
    );
    let hyp = run_with(
        "forall_intro",
        &[("C-001", "F(a)")],
        "\\forall x\\, F(x)",
        &["F(a)"],
        &[],
        serde_json::Value::Null,
    );
    assert!(hyp.unwrap_err().message.contains("hypothesis"));
    let open = run_with(
        "forall_intro",
        &[("C-001", "F(a)")],
        "\\forall x\\, F(x)",
        &[],
        &["G(a)"],
        serde_json::Value::Null,
    );
    assert!(open.unwrap_err().message.contains("open assumption"));
}

#[test]
fn exists_intro_replaces_some_occurrences() {
    ok(
        "exists_intro",
        &[("H-1", "L(a, a)")],
        "\\exists x\\, L(x, a)",
    );
    ok(
        "exists_intro",
        &[("H-1", "L(a, a)")],
        "\\exists x\\, L(x, x)",
    );
    bad(
        "exists_intro",
        &[("H-1", "L(a, b)")],
        "\\exists x\\, L(x, x)",
    );
}

#[test]
fn exists_elim_checks_freshness_and_discharges() {
    let good = run_with(
        "exists_elim",
        &[
            ("H-1", "\\exists x\\, F(x)"),
            ("A-1", "F(c)"),
            ("C-002", "\\exists y\\, F(y)"),
        ],
        "\\exists y\\, F(y)",
        &["\\exists x\\, F(x)"],
        &["F(c)"],
        serde_json::Value::Null,
    );
    assert_eq!(good.map(|a| a.discharged), Ok(vec!["A-1".to_string()]));
    let stale = run_with(
        "exists_elim",
        &[
            ("H-1", "\\exists x\\, L(a, x)"),
            ("A-1", "L(a, a)"),
            ("C-002", "\\exists x\\, L(x, x)"),
        ],
        "\\exists x\\, L(x, x)",
        &["\\exists x\\, L(a, x)"],
        &[],
        serde_json::Value::Null,
    );
    assert!(stale.unwrap_err().message.contains("not new"));
    let not_assumption = run(
        "exists_elim",
        &[("H-1", "\\exists x\\, F(x)"), ("C-1", "F(c)"), ("C-2", "P")],
        "P",
    );
    assert_eq!(
        not_assumption.unwrap_err().code,
        RejectCode::InvalidDerivation
    );
    let short = run(
        "exists_elim",
        &[("H-1", "\\exists x\\, F(x)"), ("A-1", "F(c)")],
        "P",
    );
    assert_eq!(short.unwrap_err().code, RejectCode::MissingPremise);
}

#[test]
fn identity_rules() {
    ok("eq_intro", &[], "n = n");
    bad("eq_intro", &[], "n = m");
    ok(
        "eq_elim",
        &[("H-1", "a = b"), ("H-2", "F(a) \\land G(a)")],
        "F(b) \\land G(a)",
    );
    ok(
        "eq_elim",
        &[("H-2", "R(b, b)"), ("H-1", "a = b")],
        "R(a, b)",
    );
    bad("eq_elim", &[("H-1", "a = b"), ("H-2", "F(a)")], "F(c)");
}

#[test]
fn subproof_rules_check_slots_and_discharge() {
    let imp = run("imp_intro", &[("A-1", "A"), ("C-002", "B")], "A \\to B");
    assert_eq!(imp.map(|a| a.discharged), Ok(vec!["A-1".to_string()]));
    bad("imp_intro", &[("A-1", "A"), ("C-002", "B")], "B \\to A");
    assert!(bad("imp_intro", &[("H-1", "A"), ("C-002", "B")], "A \\to B").contains("assumption"));

    ok("not_intro", &[("A-1", "P"), ("C-003", "\\bot")], "\\neg P");
    bad("not_intro", &[("A-1", "P"), ("C-003", "Q")], "\\neg P");
    ok("ip", &[("A-1", "\\neg P"), ("C-003", "\\bot")], "P");
    bad("ip", &[("A-1", "P"), ("C-003", "\\bot")], "P");

    let or = run(
        "or_elim",
        &[
            ("H-1", "A \\lor B"),
            ("A-1", "A"),
            ("C-1", "C"),
            ("A-2", "B"),
            ("C-2", "C"),
        ],
        "C",
    );
    assert_eq!(
        or.map(|a| a.discharged),
        Ok(vec!["A-1".to_string(), "A-2".to_string()])
    );
    bad(
        "or_elim",
        &[
            ("H-1", "A \\lor B"),
            ("A-1", "A"),
            ("C-1", "C"),
            ("A-2", "B"),
            ("C-2", "D"),
        ],
        "C",
    );

    ok(
        "iff_intro",
        &[("A-1", "A"), ("C-1", "B"), ("A-2", "B"), ("C-2", "A")],
        "A \\leftrightarrow B",
    );
    bad(
        "iff_intro",
        &[("A-1", "A"), ("C-1", "B"), ("A-2", "B"), ("C-2", "B")],
        "A \\leftrightarrow B",
    );

    ok(
        "lem",
        &[("A-1", "A"), ("C-1", "B"), ("A-2", "\\neg A"), ("C-2", "B")],
        "B",
    );
    bad(
        "lem",
        &[("A-1", "A"), ("C-1", "B"), ("A-2", "C"), ("C-2", "B")],
        "B",
    );
}

#[test]
fn algebra_identities_and_scaled_premises() {
    ok(
        "algebra",
        &[],
        "(x + y)^{3} = x^{3} + y^{3} + 3 \\cdot (x \\cdot y^{2} + x^{2} \\cdot y)",
    );
    ok("algebra", &[], "\\frac{x^2 - 1}{x - 1} = x + 1");
    // Names in exponents are evaluated at small natural numbers.
    ok("algebra", &[], "x^{n+1} = x \\cdot x^{n}");
    ok("algebra", &[], "(a + b)^{n+2} = (a+b)^{n} (a+b)^{2}");
    bad("algebra", &[], "x^{n+1} = x^{n} + x");
    bad("algebra", &[], "2^{n} = 2 n");
    bad("algebra", &[], "(x + 2)^{6} = (1 + x)^{6}");
    bad(
        "algebra",
        &[],
        "22 + 7 \\cdot 4 + 3 \\cdot 8 = 0 + 7 \\cdot 4 + 47",
    );
    ok("algebra", &[("H-1", "2x + 2 = 4y")], "x + 1 = 2y");
    ok("algebra", &[("H-1", "a < b")], "2b > 2a");
    bad("algebra", &[("H-1", "a < b")], "-2a < -2b");
    bad("algebra", &[("H-1", "x = y")], "x = y + 1");
}

#[test]
fn linarith_decides_and_checks_certificates() {
    ok("linarith", &[("H-1", "a < b"), ("H-2", "b < a")], "\\bot");
    ok(
        "linarith",
        &[("H-1", "x \\cdot (2^{-1} + 2 / 3) = 1")],
        "x = 6 / 7",
    );
    ok("linarith", &[("H-1", "x < y")], "x \\neq y");
    ok(
        "linarith",
        &[("H-1", "0 < A \\cdot B")],
        "0 < A \\cdot B / 8",
    );
    bad("linarith", &[("H-1", "a \\leq 1")], "a < 1");
    bad("linarith", &[("H-1", "P")], "Q");
    let cert = |c: serde_json::Value| {
        run_with(
            "linarith",
            &[("H-1", "a < b"), ("H-2", "b < c")],
            "a < c",
            &[],
            &[],
            serde_json::json!({ "certificate": c }),
        )
    };
    // a - b < 0, b - c < 0, negated goal c - a ≤ 0: the sum is 0 < 0.
    assert!(cert(serde_json::json!([1, 1, 1])).is_ok());
    assert!(cert(serde_json::json!(["1", 2, 1])).is_err());
    assert!(cert(serde_json::json!([1, -1, 1])).is_err());
}

/// Random formulas: no rule ever panics, correct applications of the simple rules are accepted,
/// and single corruptions of them are rejected.
#[test]
fn random_steps_never_panic_and_corruptions_are_rejected() {
    use crate::logic::formula::testgen::Gen;
    let mut g = Gen(0x1234_5678_9abc_def1);
    let hyps: Vec<Formula> = Vec::new();
    let ctx = CheckContext {
        hypotheses: &hyps,
        open_assumptions: &hyps,
    };
    let rules: Vec<&str> = catalogue().iter().map(|r| r.id).collect();
    for _ in 0..300 {
        let (a, b) = (g.formula(3), g.formula(3));
        let premise = |id: &'static str, f: &'static Formula| Premise {
            id,
            formula: f,
            is_assumption: false,
        };
        let a: &'static Formula = Box::leak(Box::new(a));
        let b: &'static Formula = Box::leak(Box::new(b));
        let both = [premise("H-1", a), premise("H-2", b)];
        for rule in &rules {
            for n in 0..=2 {
                let _ = check_step(rule, &both[..n], a, &serde_json::Value::Null, &ctx);
                let _ = check_step(rule, &both[..n], b, &serde_json::Value::Null, &ctx);
            }
        }
        let and = Formula::And(Box::new(a.clone()), Box::new(b.clone()));
        // Premise order is free, so B ∧ A is fine; A ∧ A is not (B is not A).
        let doubled = Formula::And(Box::new(a.clone()), Box::new(a.clone()));
        assert!(check_step("and_intro", &both, &and, &serde_json::Value::Null, &ctx).is_ok());
        assert!(check_step("reit", &both[..1], a, &serde_json::Value::Null, &ctx).is_ok());
        let imp = Formula::Implies(Box::new(a.clone()), Box::new(b.clone()));
        let mp = [
            premise("H-1", a),
            Premise {
                id: "H-3",
                formula: &imp,
                is_assumption: false,
            },
        ];
        assert!(check_step("mp", &mp, b, &serde_json::Value::Null, &ctx).is_ok());
        if !a.same_up_to_bound_renaming(b) {
            assert!(
                check_step("and_intro", &both, &doubled, &serde_json::Value::Null, &ctx).is_err()
            );
            assert!(check_step("reit", &both[..1], b, &serde_json::Value::Null, &ctx).is_err());
            assert!(check_step(
                "and_elim",
                &[premise("H-1", a)],
                b,
                &serde_json::Value::Null,
                &ctx
            )
            .is_err());
        }
    }
}
