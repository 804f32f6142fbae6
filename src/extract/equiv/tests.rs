//! Equivalence tests under `lenient`: each pair checked both ways (equality is symmetric).
use super::*;

fn eq(a: &str, b: &str) -> bool {
    let x = compare(a, b, None, Preset::Lenient).equivalent;
    let y = compare(b, a, None, Preset::Lenient).equivalent;
    assert_eq!(x, y, "not symmetric: {a} vs {b}");
    x
}

fn strict(a: &str, b: &str) -> bool {
    compare(a, b, None, Preset::Strict).equivalent
}

#[test]
fn exact_numbers() {
    assert!(eq("54", "54.0"));
    assert!(!eq("120006", "120000"));
    assert!(eq("\\frac{5}{324}", "5/324"));
    assert!(eq("0.5", "\\frac12"));
    assert!(eq("3\\frac{1}{2}", "3.5"));
    assert!(eq("1.5e3", "1500"));
    assert!(!eq("1/2^{98}", "1/2^{99}"));
    assert!(!eq("0", "10000"));
    assert!(eq("-7", "-7.00"));
    assert!(!eq(
        "1000000000000000000000000000000000001",
        "1000000000000000000000000000000000000"
    ));
}

#[test]
fn irrationals_and_rounding() {
    assert!(eq("2\\sqrt{2}", "\\sqrt{8}"));
    assert!(eq("\\frac{\\pi}{2}", "\\pi/2"));
    assert!(!eq("3.14", "\\pi") || !strict("3.14", "\\pi"));
    assert!(eq("0.33", "\\frac{1}{3}"));
    assert!(!strict("0.33", "\\frac{1}{3}"));
    assert!(!eq("0.3", "\\frac{1}{3}"));
    assert!(eq("\\sqrt{2}", "1.4142"));
    assert!(!strict("1.4142", "\\sqrt{2}"));
    assert!(!eq("\\sqrt{2}", "1.4143"));
    assert!(eq("\\sqrt{2}", "1.41421356237"));
}

#[test]
fn symbolic() {
    assert!(eq("x^2+2x+1", "(x+1)^2"));
    assert!(!eq("x^2+1", "(x+1)^2"));
    assert!(eq("\\frac{x}{2}", "0.5x"));
}

#[test]
fn structures() {
    assert!(!eq("(2,5)", "[2,5)"));
    assert!(eq("[2,5)", "[2, 5)"));
    assert!(eq("\\{3,1,2\\}", "\\{1,2,3\\}"));
    assert!(!eq("\\{3,1\\}", "\\{1,2,3\\}"));
    assert!(eq("(1,2)", "(1,2.0)"));
    assert!(!eq("(1,2)", "(2,1)"));
    assert!(eq("1,2,3", "3,2,1"));
    assert!(eq(
        "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}",
        "\\begin{pmatrix}1&2.0\\\\3&\\frac{8}{2}\\end{pmatrix}"
    ));
    assert!(!eq(
        "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}",
        "\\begin{pmatrix}1&3\\\\2&4\\end{pmatrix}"
    ));
    assert!(eq("3\\pm\\sqrt{2}", "3+\\sqrt{2},3-\\sqrt{2}"));
}

#[test]
fn equations() {
    assert!(eq("x=5", "5"));
    assert!(eq("y = 2x+1", "2x+1"));
    assert!(!eq("x=5", "6"));
    assert!(eq("x=5", "x=5.0"));
}

#[test]
fn percent_policy() {
    let q = Some("What percent of the class passed?");
    assert!(compare("20", "20%", q, Preset::Strict).equivalent);
    assert!(!compare("0.2", "20%", q, Preset::Lenient).equivalent);
    assert!(compare("0.2", "20%", None, Preset::Strict).equivalent);
    assert!(!compare("20", "20%", None, Preset::Strict).equivalent);
    assert!(compare("20", "20%", None, Preset::Lenient).equivalent);
    assert!(compare("20%", "20", q, Preset::Strict).equivalent);
    assert!(!compare("21%", "20", q, Preset::Lenient).equivalent);
    assert_eq!(compare("20", "20%", q, Preset::Strict).path, Path::Percent);
    assert!(compare(".8", "80", q, Preset::Lenient).equivalent);
    assert!(!compare(".8", "80", q, Preset::Strict).equivalent);
    assert!(!compare(".8", "80", None, Preset::Lenient).equivalent);
}

#[test]
fn choices_and_text() {
    assert!(eq("E", "E"));
    assert!(!eq("C", "E"));
    assert!(eq("yes", "Yes"));
    assert!(!strict("yes", "Yes"));
}

#[test]
fn reasons_name_both_sides() {
    let c = compare("120006", "120000", None, Preset::Lenient);
    assert_eq!(c.path, Path::ExactRational);
    assert!(
        c.reason.contains("120006") && c.reason.contains("120000"),
        "{}",
        c.reason
    );
}

#[test]
fn unevaluated_operators_are_never_different_by_text() {
    // The grader does not evaluate sums, integrals, limits or derivatives: when the texts
    // differ, that proves nothing (a pair it cannot decide is never "different").
    for (pred, gold) in [
        ("\\sum_{k=1}^{n} k", "\\frac{n(n+1)}{2}"),
        ("\\int_0^1 x\\,dx", "\\frac12"),
        ("\\lim_{x\\to 0}\\frac{\\sin x}{x}", "1"),
        ("\\frac{dy}{dx}=2x", "y'=2x"),
    ] {
        for preset in [Preset::Lenient, Preset::Strict] {
            let c = compare(pred, gold, None, preset);
            assert_eq!(
                c.outcome,
                Outcome::Undecided,
                "{pred} vs {gold}: {}",
                c.reason
            );
        }
    }
    // The same text is still equal.
    let c = compare("\\int_0^1 x dx", "\\int_0^1 x  dx", None, Preset::Strict);
    assert_eq!(c.outcome, Outcome::Equal, "{}", c.reason);
}
