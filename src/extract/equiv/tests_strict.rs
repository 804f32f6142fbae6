//! Under `strict` no tolerance yields "equal". Every pair the issue lists as
//! graded equal for different answers is here, each different or undecided; the equal pairs
//! it lists are equal or undecided, never different (docs/extract.md, "Strict").

use crate::extract::{grade, Outcome, Preset};

fn outcome(pred: &str, gold: &str, question: Option<&str>, preset: Preset) -> (Outcome, String) {
    let v = grade(pred, gold, question, preset);
    (v.outcome, v.reason)
}

/// Different answers: never "equal" under strict (both ways round).
const DIFFERENT: &[(&str, &str)] = &[
    ("\\pi+10^{-12}", "\\pi"),
    ("\\sqrt{2}+10^{-12}", "\\sqrt2"),
    ("x^2+1", "x^2+1.0000000001"),
    ("10^{100}x", "10^{100}x+1"),
    ("\\sqrt{3}", "\\sqrt{3.0000000001}"),
    ("\\sqrt[1000000]{2}", "\\sqrt[1000001]{2}"),
    ("7^{50}", "7^{50}+1"),
    ("7^{50}", "1798465042647412146620280340569649349251250"),
    ("(x+1)^2+10^{-12}", "x^2+2x+1"),
    ("5!!", "120"),
    ("\\sin 30^\\circ", "\\sin 30"),
    ("5 million", "5"),
    ("5 billion", "5 million"),
    ("5 kB", "5 MB"),
    ("3 GHz", "3 MHz"),
    ("2 L", "2 mL"),
    ("2 liters", "2 milliliters"),
    ("60 mph", "60 km/h"),
    ("90 degrees", "90 radians"),
    ("\\$5", "5 cents"),
    ("\\frac12 \\approx 7", "7"),
    (
        "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}^{-1}",
        "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}",
    ),
    ("x+2^{128}", "x+2^{128}+1"),
    ("y=2x+1", "y=2x+1.0000000001"),
    ("\\pi+10^{-15}", "\\pi"),
    ("e^{709}+1", "e^{709}"),
];

#[test]
fn strict_never_equal_on_different_answers() {
    let mut wrong = Vec::new();
    for &(a, b) in DIFFERENT {
        for (p, g) in [(a, b), (b, a)] {
            let (o, why) = outcome(p, g, None, Preset::Strict);
            if o == Outcome::Equal {
                wrong.push(format!("strict `{p}` vs `{g}`: {why}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Pairs whose fix is which text is the final answer (src/extract/candidates.rs): `7!` after
/// a marker is a factorial, and a list of values joined by "and" is one answer, every part of
/// it (read by the last number, `21, 36, and 82` was `19, 46, and 82`). Different in both
/// presets, both ways round.
const EXTRACTION_SIDE: &[(&str, &str)] = &[
    ("Final Answer: 7!", "7"),
    ("x>1 \\text{ and } x<3", "x>5 \\text{ and } x<3"),
    ("$21, 36, and 82$", "$19, 46, and 82$"),
];

#[test]
fn extraction_side_pairs_are_different() {
    let mut wrong = Vec::new();
    for preset in [Preset::Strict, Preset::Lenient] {
        for &(a, b) in EXTRACTION_SIDE {
            for (p, g) in [(a, b), (b, a)] {
                let (o, why) = outcome(p, g, None, preset);
                if o == Outcome::Equal {
                    wrong.push(format!("{preset:?} `{p}` vs `{g}`: {why}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The same list written with `\text{ and }` is the same answer.
    let (o, why) = outcome(
        "$19, 46, \\text{ and } 82$",
        "$19, 46, and 82$",
        None,
        Preset::Strict,
    );
    assert_eq!(o, Outcome::Equal, "{why}");
}

/// A final equation's named left side (`\angle ABC`) is part of the answer: two different
/// angles of the same size are different answers, while the angle against its bare size
/// is the label dropped.
#[test]
fn named_left_side_counts() {
    for preset in [Preset::Strict, Preset::Lenient] {
        for (p, g) in [
            ("\\angle ABC = 30", "\\angle ABD = 30"),
            ("\\angle ABD = 30", "\\angle ABC = 30"),
        ] {
            let (o, why) = outcome(p, g, None, preset);
            assert_ne!(o, Outcome::Equal, "{preset:?} `{p}` vs `{g}`: {why}");
        }
        let (o, why) = outcome("\\angle ABC = 30", "\\angle ABC = 30", None, preset);
        assert_eq!(o, Outcome::Equal, "{why}");
        let (o, why) = outcome("\\angle ABC = 30", "30", None, preset);
        assert_eq!(o, Outcome::Equal, "{why}");
    }
}

/// The percent rules turn on when the question asks for a percent, not when it mentions one.
#[test]
fn percent_only_when_asked() {
    let q = Some("What is 20% of 50?");
    let (o, why) = outcome("10\\%", "10", q, Preset::Strict);
    assert_ne!(o, Outcome::Equal, "{why}");
    let (o, why) = outcome("0.1", "10", q, Preset::Lenient);
    assert_ne!(o, Outcome::Equal, "{why}");
    let asked = Some("What percent of 50 is 10?");
    let (o, why) = outcome("20\\%", "20", asked, Preset::Strict);
    assert_eq!(o, Outcome::Equal, "{why}");
}

/// Lenient rounding forgives only the side written as a rounded decimal: `0.\overline{35625}`
/// is an exact rational, not a rounding of `.35625` (= 57/160).
#[test]
fn rounding_forgives_only_the_rounded_side() {
    for preset in [Preset::Lenient, Preset::Strict] {
        for (p, g) in [
            ("0.\\overline{35625}", ".35625"),
            (".35625", "0.\\overline{35625}"),
        ] {
            let (o, why) = outcome(p, g, None, preset);
            assert_ne!(o, Outcome::Equal, "{preset:?} `{p}` vs `{g}`: {why}");
        }
    }
}

/// Equal answers the grader could not decide before: decided or undecided, never different.
const EQUAL: &[(&str, &str)] = &[
    ("\\sin(\\pi)", "0"),
    ("\\lfloor 2.5 \\rfloor", "2"),
    ("\\lceil 2.5 \\rceil", "3"),
    ("7 \\bmod 3", "1"),
    ("5!!", "15"),
    ("\\sin 30^\\circ", "\\frac12"),
    ("y=1/x", "xy=1"),
];

#[test]
fn equal_pairs_are_never_different() {
    let mut wrong = Vec::new();
    for preset in [Preset::Strict, Preset::Lenient] {
        for &(a, b) in EQUAL {
            for (p, g) in [(a, b), (b, a)] {
                let (o, why) = outcome(p, g, None, preset);
                if o == Outcome::Different {
                    wrong.push(format!("{preset:?} `{p}` vs `{g}`: {why}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Hostile input: huge exponents and deep nesting end in a verdict (the exact sampling bounds
/// every value to 4096 bits and 60 points; exact values to ~10,000 digits).
#[test]
fn hostile_input_is_bounded() {
    let tower = "(((x+1)^{200})^{200})^{200}";
    for preset in [Preset::Strict, Preset::Lenient] {
        let (o, _) = outcome(tower, &format!("{tower}+1"), None, preset);
        assert_ne!(o, Outcome::Equal);
        let (o, _) = outcome("2^{10^{8}}", "2^{10^{8}}+1", None, preset);
        assert_ne!(o, Outcome::Equal);
        let nested = format!("{}x{}", "(".repeat(10), ")".repeat(10));
        let (o, _) = outcome(&nested, "x", None, preset);
        assert_eq!(o, Outcome::Equal);
        // Past the parser's depth cap an answer is not an expression (compared as text).
        let deep = format!("{}x{}", "(".repeat(5000), ")".repeat(5000));
        let (o, _) = outcome(&deep, "x+1", None, preset);
        assert_ne!(o, Outcome::Equal);
    }
}

/// A physics answer with a unit against a bare integer gold ending in zeros (dev long-CoT,
/// Minerva-Math): lenient reads the gold as given to its last non-zero digit, within 1 %;
/// strict keeps the exact values apart.
#[test]
fn physics_answer_with_unit_against_a_round_gold() {
    for (p, g) in [
        ("\\boxed{299.4 km/s}", "300"),
        ("\\boxed{6631.6 Å}", "6630"),
    ] {
        let (o, why) = outcome(p, g, None, Preset::Lenient);
        assert_eq!(o, Outcome::Equal, "lenient `{p}` vs `{g}`: {why}");
        let (o, why) = outcome(p, g, None, Preset::Strict);
        assert_ne!(o, Outcome::Equal, "strict `{p}` vs `{g}`: {why}");
    }
    // Rounding alone is not enough (`250` rounds to `300` at the hundreds), nor is a bare
    // number (no unit: an exact count), nor an integer answer.
    for (p, g) in [
        ("\\boxed{250.0 km/s}", "300"),
        ("\\boxed{299.4}", "300"),
        ("\\boxed{299 km/s}", "300"),
    ] {
        let (o, why) = outcome(p, g, None, Preset::Lenient);
        assert_ne!(o, Outcome::Equal, "lenient `{p}` vs `{g}`: {why}");
    }
}

/// Lenient: an exact multiple of a variable against a gold coefficient given to N ≥ 2
/// significant figures (dev long-CoT, Minerva-Math: `\tau\ln 9` for `2.2\tau`); strict keeps
/// them apart, and a coefficient that does not round to the gold's stays different.
#[test]
fn exact_coefficient_against_a_rounded_gold_coefficient() {
    let (o, why) = outcome(
        "\\boxed{t_r = \\tau \\ln 9}",
        "2.2\\tau",
        None,
        Preset::Lenient,
    );
    assert_eq!(o, Outcome::Equal, "{why}");
    let (o, why) = outcome(
        "\\boxed{t_r = \\tau \\ln 9}",
        "2.2\\tau",
        None,
        Preset::Strict,
    );
    assert_ne!(o, Outcome::Equal, "{why}");
    for (p, g) in [
        ("\\tau\\ln 10", "2.2\\tau"),
        ("\\tau^2\\ln 9", "2.2\\tau"),
        ("\\tau\\ln 9", "2\\tau"),
    ] {
        let (o, why) = outcome(p, g, None, Preset::Lenient);
        assert_ne!(o, Outcome::Equal, "`{p}` vs `{g}`: {why}");
    }
}

/// Lenient: an initial value written `I(0)` on one side and `I_0` on the other is the same
/// symbol (dev long-CoT, Minerva-Math); other function values stay apart.
#[test]
fn initial_value_notation() {
    let (o, why) = outcome(
        "\\boxed{I(t)=I_0 e^{-\\frac{t}{RC}}}",
        "I(0)e^{-\\frac{t}{RC}}",
        None,
        Preset::Lenient,
    );
    assert_eq!(o, Outcome::Equal, "{why}");
    let (o, why) = outcome("I_0 e^{-t}", "I(1)e^{-t}", None, Preset::Lenient);
    assert_ne!(o, Outcome::Equal, "{why}");
    let (o, why) = outcome("2I_0", "I(0)", None, Preset::Lenient);
    assert_ne!(o, Outcome::Equal, "{why}");
}

/// Lenient: two arbitrary constants named the other way round are the same general solution
/// (dev long-CoT, Minerva-Math); a different solution stays different.
#[test]
fn constants_named_the_other_way_round() {
    let (o, why) = outcome(
        "\\boxed{-\\frac{1}{5}\\sin(3t)+C_1\\cos(2t)+C_2\\sin(2t)}",
        "-\\sin(3t)/5+C_{1}\\sin(2t)+C_{2}\\cos(2t)",
        None,
        Preset::Lenient,
    );
    assert_eq!(o, Outcome::Equal, "{why}");
    let (o, why) = outcome(
        "C_1\\cos(2t)+C_2\\sin(3t)",
        "C_1\\sin(2t)+C_2\\cos(2t)",
        None,
        Preset::Lenient,
    );
    assert_ne!(o, Outcome::Equal, "{why}");
}

/// Math-Verify's suite: sums, products and scalar multiples of written matrices are
/// computed exactly, cell by cell; sizes that do not fit are "could not decide"; the inverse
/// `^{-1}` and a determinant are not summed or multiplied here.
#[test]
fn matrix_arithmetic_is_exact() {
    let a = "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}";
    let b = "\\begin{pmatrix}5&6\\\\7&8\\end{pmatrix}";
    let sum = "\\begin{pmatrix}6&8\\\\10&12\\end{pmatrix}";
    let prod = "\\begin{bmatrix}19&22\\\\43&50\\end{bmatrix}";
    for preset in [Preset::Strict, Preset::Lenient] {
        for (p, g, want) in [
            (format!("{a}+{b}"), sum.to_string(), Outcome::Equal),
            (format!("{a} {b}"), prod.to_string(), Outcome::Equal),
            (format!("{a}\\cdot{b}"), prod.to_string(), Outcome::Equal),
            (format!("{b}{a}"), prod.to_string(), Outcome::Different),
            (format!("2{a}"), format!("{a}+{a}"), Outcome::Equal),
            (
                format!("{b}-{a}"),
                "\\begin{pmatrix}4&4\\\\4&4\\end{pmatrix}".into(),
                Outcome::Equal,
            ),
            (
                format!("\\frac12{a}"),
                "\\begin{pmatrix}0.5&1\\\\1.5&2\\end{pmatrix}".into(),
                Outcome::Equal,
            ),
            (format!("{a}+{b}"), prod.to_string(), Outcome::Different),
            (
                format!("{a}\\begin{{pmatrix}}1&2&3\\end{{pmatrix}}"),
                sum.to_string(),
                Outcome::Undecided,
            ),
        ] {
            for (x, y) in [(&p, &g), (&g, &p)] {
                let (o, why) = outcome(x, y, None, preset);
                assert_eq!(o, want, "{preset:?} `{x}` vs `{y}`: {why}");
            }
        }
    }
}

/// A relation in `|z|` is the set of reals it describes (Math-Verify's numina case 3), and a
/// set named with `\in` is read whole, its union included.
#[test]
fn absolute_value_relations_are_sets() {
    for preset in [Preset::Strict, Preset::Lenient] {
        for (p, g, want) in [
            (
                "1\\leq|z|\\leq\\frac{3}{2}",
                "z\\in[-\\frac32,-1]\\cup[1,\\frac32]",
                Outcome::Equal,
            ),
            ("|x|<2", "(-2,2)", Outcome::Equal),
            ("|x|\\le 2", "-2\\le x\\le 2", Outcome::Equal),
            ("|x|>3", "(-\\infty,-3)\\cup(3,\\infty)", Outcome::Equal),
            ("|x|>0", "(-\\infty,0)\\cup(0,\\infty)", Outcome::Equal),
            ("|x|<2", "[-2,2]", Outcome::Different),
            ("1\\le|z|\\le 2", "[1,2]", Outcome::Different),
            ("x\\in(0,1)\\cup(2,3)", "(2,3)\\cup(0,1)", Outcome::Equal),
        ] {
            for (x, y) in [(p, g), (g, p)] {
                let (o, why) = outcome(x, y, None, preset);
                assert_eq!(o, want, "{preset:?} `{x}` vs `{y}`: {why}");
            }
        }
    }
}

/// Solutions separated by `;`, each naming its unknowns (`p=5,q=2;p=7,q=2`), are the tuples
/// in the order the first one names them (Math-Verify's numina case 9).
#[test]
fn labelled_solutions_are_tuples() {
    for preset in [Preset::Strict, Preset::Lenient] {
        for (p, g, want) in [
            ("p=5,q=2;p=7,q=2", "(5,2),(7,2)", Outcome::Equal),
            ("p=5,q=2;p=7,q=2", "(7,2),(5,2)", Outcome::Equal),
            ("p=5,q=2;q=2,p=7", "(5,2),(7,2)", Outcome::Equal),
            ("p=5,q=2;p=7,q=2", "(2,5),(2,7)", Outcome::Different),
            ("p=5,q=2;p=7,q=3", "(5,2),(7,2)", Outcome::Different),
        ] {
            for (x, y) in [(p, g), (g, p)] {
                let (o, why) = outcome(x, y, None, preset);
                assert_eq!(o, want, "{preset:?} `{x}` vs `{y}`: {why}");
            }
        }
    }
}

/// A percent word right after the answer (`$\boxed{28}$ pct`, Math-Verify's percent case 5)
/// is its `%`, in both presets, against a percent or a number between −1 and 1; the percent
/// policy then decides as for `28\%`. Against a bare `28` (GSM8K's golds for "28%") it stays
/// `28`, as before.
#[test]
fn percent_word_after_the_answer() {
    for preset in [Preset::Strict, Preset::Lenient] {
        for (p, g, want) in [
            ("$\\boxed{28}$ pct", "$28\\%$", Outcome::Equal),
            (
                "The answer is \\boxed{28} percent.",
                "28\\%",
                Outcome::Equal,
            ),
            ("$\\boxed{28}$ pct", "0.28", Outcome::Equal),
            ("$\\boxed{28}$ pct", "$29\\%$", Outcome::Different),
            ("$\\boxed{28}$ pctx", "0.28", Outcome::Different),
            ("The chance is 10\\% + 20\\% = 30%.", "30", Outcome::Equal),
            ("$\\boxed{19.19}$ percent", "0.1919", Outcome::Equal),
        ] {
            let (o, why) = outcome(p, g, None, preset);
            assert_eq!(o, want, "{preset:?} `{p}` vs `{g}`: {why}");
        }
    }
}

/// `|·|` and `\sqrt{u^2}` of a variable are piecewise: agreement at random points proves
/// equality only on the sign regions the points fell in (docs/extract.md, "Identity
/// testing"), so strict cannot decide `\sqrt{x^2}` vs `|x|`; lenient's floats call it equal,
/// and `\sqrt{x^2}` vs `x` differs at a negative point.
#[test]
fn piecewise_identities_are_undecided_under_strict() {
    let (o, why) = outcome("\\sqrt{x^2}", "|x|", None, Preset::Strict);
    assert_eq!(o, Outcome::Undecided, "{why}");
    let (o, why) = outcome("\\sqrt{x^2}", "|x|", None, Preset::Lenient);
    assert_eq!(o, Outcome::Equal, "{why}");
    let (o, why) = outcome("\\sqrt{(x^2-1)^2}", "x^2-1", None, Preset::Strict);
    assert_ne!(o, Outcome::Equal, "{why}");
}

/// Strict decides more identities exactly: sines and cosines of one angle are a
/// rational point of the unit circle, and functions with no rational value are symbols fixed
/// by their arguments' exact values (equiv/exact.rs). Pairs that differ stay apart.
#[test]
fn strict_identities_beyond_rational_functions() {
    for (p, g) in [
        ("\\sec^2(y)", "\\tan^2(y)+1"),
        ("\\sin^2 x+\\cos^2 x", "1"),
        ("\\sin 2x", "2\\sin x\\cos x"),
        ("\\cos 2x", "1-2\\sin^2 x"),
        ("\\frac{\\cos x}{\\sin x}", "\\cot x"),
        (
            "\\frac{\\sqrt{\\sqrt{11}+\\sqrt{194}}}{2\\sqrt{33}+15}",
            "\\frac{\\sqrt{\\sqrt{11}+\\sqrt{194}}}{15+2\\sqrt{33}}",
        ),
        (
            "10^{\\frac{\\sqrt{13}-5}{6}}",
            "10^{\\frac{-5+\\sqrt{13}}{6}}",
        ),
        ("\\ln(x)+1", "1+\\ln x"),
        ("e^{2x}\\sin x", "\\sin(x) e^{2x}"),
    ] {
        for (x, y) in [(p, g), (g, p)] {
            let (o, why) = outcome(x, y, None, Preset::Strict);
            assert_eq!(o, Outcome::Equal, "strict `{x}` vs `{y}`: {why}");
        }
    }
    for (p, g) in [
        ("\\sin 2x", "2\\sin x"),
        ("\\sqrt{x^2}", "x"),
        ("\\ln(x^2)", "2\\ln x"),
        ("\\sin^2 x+\\cos^2 x", "1.0000000001"),
        ("\\sin(x+\\pi)", "\\sin x"),
        ("\\sqrt{\\sqrt{2}+1}", "\\sqrt{\\sqrt{2}+1}+10^{-12}"),
    ] {
        for (x, y) in [(p, g), (g, p)] {
            let (o, why) = outcome(x, y, None, Preset::Strict);
            assert_ne!(o, Outcome::Equal, "strict `{x}` vs `{y}`: {why}");
        }
    }
}

/// Complex answers with other variables (dev long-CoT, Minerva-Math: a phasor) are equal when
/// they agree exactly as Gaussian rationals at rational points, `e^{i\theta}` a point of the
/// unit circle; nothing else is decided equal by this reading.
#[test]
fn complex_answers_with_variables() {
    for preset in [Preset::Strict, Preset::Lenient] {
        for (p, g, want) in [
            (
                "\\frac{2 A(1-i)}{3}e^{i t}",
                "\\frac{4A}{3+3i}e^{it}",
                Outcome::Equal,
            ),
            ("x+iy", "iy+x", Outcome::Equal),
            ("(x+iy)^2", "x^2-y^2+2ixy", Outcome::Equal),
        ] {
            for (x, y) in [(p, g), (g, p)] {
                let (o, why) = outcome(x, y, None, preset);
                assert_eq!(o, want, "{preset:?} `{x}` vs `{y}`: {why}");
            }
        }
        // Not shown equal: never "equal" (`e^{2it}` is not computed from `e^{it}`).
        for (p, g) in [
            ("\\frac{2A}{3}e^{it}", "\\frac{4A}{3+3i}e^{it}"),
            ("e^{2it}", "(e^{it})^2"),
            ("x+iy", "x-iy"),
        ] {
            for (x, y) in [(p, g), (g, p)] {
                let (o, why) = outcome(x, y, None, preset);
                assert_ne!(o, Outcome::Equal, "{preset:?} `{x}` vs `{y}`: {why}");
            }
        }
    }
}

/// A function's value at a point (`f(-1)`, `f(\tfrac{2\pi}{3})`) and a Greek letter typed as
/// Unicode (`λ`) name the answer like `x` does: the value side is the answer, under both
/// presets; a different value stays different.
#[test]
fn function_values_and_unicode_names_are_labels() {
    for preset in [Preset::Strict, Preset::Lenient] {
        for (p, g) in [
            ("f(-1)=3", "3"),
            ("λ=8/5", "\\frac{8}{5}"),
            ("g\\left(\\frac{1}{2}\\right)=\\sqrt{2}", "\\sqrt{2}"),
            (
                "\\theta=\\frac{3\\pi}{2},\\quad f(\\tfrac{2\\pi}{3})=1",
                "\\frac{3\\pi}{2}, 1",
            ),
        ] {
            let (o, why) = outcome(p, g, None, preset);
            assert_eq!(o, Outcome::Equal, "{preset:?} `{p}` vs `{g}`: {why}");
        }
        for (p, g) in [("f(-1)=3", "4"), ("λ=8/5", "\\frac{5}{8}"), ("f(3)=2", "3")] {
            let (o, why) = outcome(p, g, None, preset);
            assert_ne!(o, Outcome::Equal, "{preset:?} `{p}` vs `{g}`: {why}");
        }
    }
}
