//! Formula parser tests: what parses, how it prints back, what is refused and why.
use super::*;

fn p(s: &str) -> Formula {
    match parse_formula(s) {
        Ok(f) => f,
        Err(e) => panic!("{s}: {e}"),
    }
}

#[test]
fn connectives_and_notation_share_a_canonical_form() {
    assert_eq!(p("$A \\land B$").canonical(), p("A \\wedge B").canonical());
    assert_eq!(
        p("A \\to B").canonical(),
        p("((A) \\implies (B))").canonical()
    );
    assert_eq!(p("\\lnot P").canonical(), "¬P");
    assert_eq!(
        p("\\text{Red}(\\mathrm{alex})"),
        p("\\mathrm{Red}(\\text{alex})")
    );
    assert_eq!(p("A \\lor B \\land C").canonical(), "A ∨ B ∧ C");
    assert_eq!(p("(A \\lor B) \\land C").canonical(), "(A ∨ B) ∧ C");
    assert_eq!(p("A \\to B \\to C"), p("A \\to (B \\to C)"));
    assert_ne!(p("A \\to B \\to C"), p("(A \\to B) \\to C"));
}

#[test]
fn quantifiers_bind_tightly_unless_followed_by_a_colon() {
    let f = p("\\forall x\\, F(x) \\to G(a)");
    assert!(matches!(f, Formula::Implies(..)));
    let g = p("\\forall x: F(x) \\to G(a)");
    assert!(matches!(g, Formula::Quant(..)));
    assert_eq!(p("\\forall x (F(x))"), p("\\forall x\\, F(x)"));
    assert_eq!(
        p("\\exists u \\forall y (F(y) \\leftrightarrow u = y)").canonical(),
        "∃u ∀y (F(y) ↔ u = y)"
    );
    assert_eq!(
        p("\\forall x, y\\, R(x, y)"),
        p("\\forall x\\, \\forall y\\, R(x, y)")
    );
}

#[test]
fn bounded_quantifier_from_the_design_note() {
    let f = p("\\forall x, y > 0: x + y > 0");
    assert_eq!(f.canonical(), "∀x ∀y (x > 0 ∧ y > 0 → x + y > 0)");
}

#[test]
fn arithmetic_terms() {
    assert_eq!(p("\\frac{a}{b} < 1"), p("a / b < 1"));
    assert_eq!(p("(x + y)^{3} = x^3").canonical(), "(x + y)^{3} = x^{3}");
    assert_eq!(p("2x \\le 3"), p("2 \\cdot x \\leq 3"));
    assert_eq!(p("a - (b - c) = 0").canonical(), "a - (b - c) = 0");
    assert_eq!(
        p("v_0 + v_{12} \\geq -(A - l)").canonical(),
        "v_0 + v_{12} ≥ -(A - l)"
    );
    assert_eq!(p("0 < x < 1"), p("0 < x \\land x < 1"));
}

#[test]
fn older_quantifier_notations() {
    let modern = p("\\forall x\\, (F(x) \\to G(x))");
    assert_eq!(p("(\\forall x)(F(x) \\to G(x))"), modern);
    assert_eq!(p("\\forall{x} (F(x) \\to G(x))"), modern);
    assert_eq!(p("(\\exists y) F(y)"), p("\\exists y\\, F(y)"));
    // A parenthesised quantified formula is still a group.
    assert_eq!(
        p("(\\forall x F(x)) \\land P"),
        p("\\forall x F(x) \\land P")
    );
}

#[test]
fn names_written_apart_multiply_names_run_together_are_one_word() {
    assert_eq!(p("x y > 0"), p("x \\cdot y > 0"));
    assert_eq!(p("3 a^{2} b = c"), p("3 \\cdot a^{2} \\cdot b = c"));
    assert_eq!(p("a \\frac{1}{2} = c"), p("a \\cdot \\frac{1}{2} = c"));
    // A word is a name, and a name before `(` is an application, not a product.
    assert_eq!(p("ab = c").canonical(), "ab = c");
    assert_eq!(p("Wumpus(x)").canonical(), "Wumpus(x)");
    assert_eq!(p("f(x) = y").canonical(), "f(x) = y");
    // Juxtaposed propositions are still an error, not a product.
    assert!(parse_formula("P Q").is_err());
}

#[test]
fn latex_printing_round_trips() {
    for s in [
        "\\neg \\exists x\\, \\exists y\\, L(x, y)",
        "(n + 1 / 2)^{2} \\cdot (n + 1 + 1 / 4) = 1 / 3 + n \\cdot (19 / 12)",
        "\\forall x\\, (\\mathrm{Brimpus}(x) \\to \\neg \\mathrm{Amenable}(x))",
        "x \\cdot (2^{-1} + 2 / 3) = 1",
        "(A \\to B) \\to C \\leftrightarrow \\bot",
        "a - (b - c) / (d / e) \\neq -x",
        "\\varepsilon / 2 < \\varepsilon",
        "v_{10} = 5",
    ] {
        let f = p(s);
        let again = p(&f.to_latex());
        assert_eq!(f, again, "{s} -> {}", f.to_latex());
    }
}

#[test]
fn bound_renaming() {
    assert!(p("\\forall x\\, F(x)").same_up_to_bound_renaming(&p("\\forall y\\, F(y)")));
    assert!(!p("\\forall x\\, F(x)").same_up_to_bound_renaming(&p("\\forall y\\, F(x)")));
    assert!(!p("\\forall x\\, \\forall y\\, R(x, y)")
        .same_up_to_bound_renaming(&p("\\forall y\\, \\forall x\\, R(x, y)")));
    assert!(p("\\forall x\\, \\forall y\\, R(x, y)")
        .same_up_to_bound_renaming(&p("\\forall y\\, \\forall x\\, R(y, x)")));
}

#[test]
fn errors_point_at_the_position() {
    let e = parse_formula("A \\land").unwrap_err();
    assert_eq!(e.position, 7);
    let e = parse_formula("P(a,, b)").unwrap_err();
    assert_eq!(e.position, 4);
    let e = parse_formula("A \\foo B").unwrap_err();
    assert_eq!(e.position, 2);
    assert!(e.to_string().contains("\\foo"));
    let e = parse_formula("A \\land P(\\neg B)").unwrap_err();
    assert_eq!(e.position, 8);
    assert!(e.message.contains("term"));
    let e = parse_formula("A \\lor x + 1").unwrap_err();
    assert_eq!(e.position, 9);
    assert!(parse_formula("").is_err());
    assert!(parse_formula("$$").is_err());
    assert!(parse_formula("x + 1").is_err());
    assert!(parse_formula("(A").is_err());
    assert!(parse_formula("\\forall x, y > 0 P").is_err());
}

#[test]
fn hostile_input_is_refused_without_panicking() {
    let deep = "(".repeat(100_000);
    assert!(parse_formula(&deep).is_err());
    let nots = "\\neg ".repeat(5_000) + "A";
    assert!(parse_formula(&nots).is_err());
    let minus = "-".repeat(5_000) + "x = 1";
    let long_and = "A \\land ".repeat(20_000) + "A";
    assert!(parse_formula(&long_and).is_err());
    let long_sum = "x + ".repeat(20_000) + "x = 1";
    assert!(parse_formula(&long_sum).is_err());
    let long_product = "x \\cdot ".repeat(20_000) + "x = 1";
    assert!(parse_formula(&long_product).is_err());
    // Moderate sizes still parse.
    assert!(parse_formula(&("A \\land ".repeat(100) + "A")).is_ok());
    assert!(parse_formula(&("(".repeat(60) + "A" + &")".repeat(60))).is_ok());
    assert!(parse_formula(&minus).is_err());
    for s in [
        "\\",
        "_",
        "x_",
        "x_{",
        "\\text{",
        "\\frac{1}",
        "é ∧ ü",
        "∀",
        "a^",
        "P(",
        "$",
    ] {
        let _ = parse_formula(s);
    }
}

use super::testgen::Gen;

/// Negative literals print as `-2`, which reads back as `Neg(2)`; compare modulo that.
fn without_negative_numbers(f: &Formula) -> bool {
    !f.canonical().contains("--")
}

#[test]
fn random_formulas_round_trip_through_latex_and_canonical_text() {
    let mut g = Gen(0x00c0_ffee_1234_5678);
    for _ in 0..2_000 {
        let f = g.formula(4);
        if !without_negative_numbers(&f) {
            continue;
        }
        let latex = f.to_latex();
        let back = parse_formula(&latex).unwrap_or_else(|e| panic!("{latex}: {e}"));
        assert_eq!(back, f, "{latex}");
        let canon =
            parse_formula(&f.canonical()).unwrap_or_else(|e| panic!("{}: {e}", f.canonical()));
        assert_eq!(canon, f, "{}", f.canonical());
        assert!(f.same_up_to_bound_renaming(&back));
    }
}

#[test]
fn random_token_soup_never_panics() {
    let pieces = [
        "\\forall", "\\exists", "x", "y", ",", ":", ".", "(", ")", "{", "}", "\\land", "\\lor",
        "\\neg", "\\to", "\\iff", "=", "<", "\\leq", "+", "-", "\\cdot", "/", "^", "\\frac", "2",
        "P", "F(", "\\text{", "\\,", "$", "_", "\\bot", "\\", "∀", "é", " ",
    ];
    let mut g = Gen(0x0bad_5eed_0000_0001);
    for _ in 0..20_000 {
        let n = g.next() % 12;
        let s: String = (0..n).map(|_| g.pick(&pieces)).collect();
        if let Err(e) = parse_formula(&s) {
            assert!(
                e.position <= s.len(),
                "{s}: position {} past the end",
                e.position
            );
        }
    }
}

#[test]
fn unexpected_token_names_are_those_debug_printed() {
    let plain = [
        Tok::Ident("x".into()),
        Tok::Num("12".into()),
        Tok::LParen,
        Tok::LBrace,
        Tok::Colon,
        Tok::Dot,
        Tok::Plus,
        Tok::Minus,
        Tok::Times,
        Tok::Slash,
        Tok::Caret,
        Tok::Not,
        Tok::Forall,
        Tok::Exists,
        Tok::Bottom,
        Tok::Top,
        Tok::Frac,
    ];
    for tok in plain {
        assert_eq!(describe(&tok), format!("{tok:?}"));
    }
    assert_eq!(
        parse_formula("A \\land :").map_err(|e| e.message),
        Err("unexpected Colon".to_string())
    );
}
