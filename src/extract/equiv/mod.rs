//! Answer equivalence. Symmetric, exact first, and every verdict says how it was reached.
//!
//! Order: identical text → percent policy → multiple-choice letters → `\pm` / sets / tuples /
//! intervals / matrices / lists (element-wise) → `x = 5` vs `5` → exact rationals (arbitrary
//! precision, bounded) → high-precision floats for irrational values (relative 1e-9, never
//! looser) → symbolic by evaluation at fixed pseudo-random points over the whole real line →
//! text.
//!
//! Soundness first: a verdict is [`Outcome::Undecided`] ("could not decide") whenever an exact
//! answer was out of reach (a value past the size bound, a float overflow or underflow, too few
//! sample points where both sides are defined, the strict preset facing a float), and an
//! undecided verdict is never counted as equal.

use num_rational::BigRational;
use num_traits::{Signed, Zero};
use serde::Serialize;

use super::expr::{self, Expr, Node};
use super::number::{float_str, parse_decimal, parse_decimal_big, pow10, Num};

mod big_operator;
mod complex;
mod exact;
mod matrix_expr;
mod numeric;
mod real_set;
mod relation;
mod sampling;
mod structure;

use big_operator::*;
use complex::*;
use numeric::*;
use real_set::*;
use relation::*;
use sampling::*;
use structure::*;

pub use structure::answer_count;

crate::names::named_enum! {
    /// How forgiving the comparison is. Its names are what users write (`--preset strict`, the
    /// Python package's `preset="strict"`).
    #[derive(Default)]
    pub enum Preset {
        /// Exact values only; `20%` equals `20` only when the question asks for a percent.
        Strict = "strict",
        /// Also: a decimal with ≥ 2 places equals a value that rounds to it (`0.33` vs `1/3`),
        /// a bare list equals a tuple of the same order, case-insensitive text and letters.
        #[default]
        Lenient = "lenient",
        /// For a reward function (RL): lenient's comparison, but what a policy could learn to
        /// game scores nothing: rounding is paid only where the gold is written rounded,
        /// several different final answers, a negated statement and a cut-off text's stray
        /// list marker are no answer (`extract::grade`; docs/extract.md, "Reward preset").
        Reward = "reward",
    }
}

impl Preset {
    /// The preset a name stands for; the error is the CLI's wording for a bad `--preset`
    /// (clap's), so the Python package refuses a name with the same message.
    pub fn from_flag(name: &str) -> Result<Preset, String> {
        Preset::from_name(name).ok_or_else(|| {
            format!(
                "invalid value '{name}' for '--preset <PRESET>' [possible values: {}]",
                Preset::ALL.map(Preset::as_str).join(", ")
            )
        })
    }
}

crate::names::named_enum! {
    /// The comparison step that decided a verdict (a grade record's `path`).
    pub enum Path {
        IdenticalText = "identical_text",
        Choice = "choice",
        Percent = "percent",
        ExactRational = "exact_rational",
        BigInteger = "big_integer",
        Float = "float",
        Rounded = "rounded",
        Symbolic = "symbolic",
        Tuple = "tuple",
        Interval = "interval",
        Set = "set",
        Matrix = "matrix",
        Equation = "equation",
        Text = "text",
        /// One side states a unit the other contradicts (`7 years` vs `7 months`).
        Unit = "unit",
        /// `\infty` against `\infty`, `-\infty` or a number.
        Infinity = "infinity",
        /// Inequalities, intervals and their unions read as one set of reals (`x<3`, `-x>-1`,
        /// `(-\infty,3)`, `x \neq 3`, `x<-1 \text{ or } x>2`), compared exactly.
        RealSet = "real_set",
        /// Two equations with the same solutions up to rearrangement and a non-zero factor
        /// (`2x+4y-3=0` vs `y=-\frac{1}{2}x+\frac{3}{4}`), by evaluation.
        Rearranged = "rearranged",
        /// A label before the answer dropped (`(p,q)=(3,2)`, `V_1:V_2=11:21`).
        Label = "label",
        /// A chain (`x = 5+5+1 = 11`) or an approximation (`\frac{1}{3} \approx 0.33`) read as
        /// its final value.
        Chain = "chain",
        /// A base-n numeral (`2516_8`) compared by value.
        BaseN = "base_n",
        /// `2,74` read with a decimal comma against a decimal gold.
        DecimalComma = "decimal_comma",
        /// Several answers (several `\boxed{}`, "2 or 3", `2; 3`) compared as a set.
        Several = "several",
        /// Complex numbers with `i` (or `I`) in exact Gaussian-rational arithmetic.
        Complex = "complex",
        /// Sums and products over an index compared by their bounds and bodies.
        BigOperator = "big_operator",
        NoAnswer = "no_answer",
    }
}

crate::names::named_enum! {
    /// What a comparison concluded. `Undecided` is its own verdict: counted apart, never as equal.
    pub enum Outcome {
        Equal = "equal",
        Different = "different",
        /// Exact comparison was impossible (see the reason): "could not decide".
        Undecided = "undecided",
    }
}

impl Outcome {
    /// Both parts must hold: one difference decides, else one undecided part leaves it open.
    pub fn and(self, o: Outcome) -> Outcome {
        match (self, o) {
            (Outcome::Different, _) | (_, Outcome::Different) => Outcome::Different,
            (Outcome::Undecided, _) | (_, Outcome::Undecided) => Outcome::Undecided,
            _ => Outcome::Equal,
        }
    }
}

/// A verdict on two normalised answers and why. `equivalent` is `outcome == Equal`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    pub equivalent: bool,
    pub outcome: Outcome,
    pub path: Path,
    pub reason: String,
}

fn verdict(equivalent: bool, path: Path, reason: impl Into<String>) -> Comparison {
    let outcome = if equivalent {
        Outcome::Equal
    } else {
        Outcome::Different
    };
    with_outcome(outcome, path, reason)
}

fn with_outcome(outcome: Outcome, path: Path, reason: impl Into<String>) -> Comparison {
    Comparison {
        equivalent: outcome == Outcome::Equal,
        outcome,
        path,
        reason: reason.into(),
    }
}

/// "Could not decide", with what made an exact answer impossible.
fn undecided(path: Path, reason: impl Into<String>) -> Comparison {
    with_outcome(
        Outcome::Undecided,
        path,
        format!("{}: could not decide", reason.into()),
    )
}

const REL_TOL: f64 = 1e-9;
const MAX_DEPTH: usize = 6;
const MAX_ITEMS: usize = 64;

/// Compares a predicted and a gold answer (both already normalised).
///
/// "Different" needs a proof: where either side holds an operator the grader does not evaluate
/// (a sum, an integral, a limit, a derivative) and no step compared it as such, a difference
/// in form proves nothing, so the verdict is *could not decide* (docs/extract.md, "Strict
/// means exact").
pub fn compare(pred: &str, gold: &str, question: Option<&str>, preset: Preset) -> Comparison {
    // The reward preset compares as lenient does; its refusals are the grader's, which sees
    // both texts (`extract::grade`).
    let preset = if preset == Preset::Reward {
        Preset::Lenient
    } else {
        preset
    };
    let c = compare_answers(pred, gold, question, preset);
    // `60 s` vs `1` (the gold's `\text{ min}` read as its unit): the `s` is a unit, not a
    // variable, so a difference found by giving it values proves nothing.
    let unit_as_variable = |s: &str| unit_tail(s).is_some();
    if c.outcome == Outcome::Different
        && c.path == Path::Symbolic
        && (unit_as_variable(pred) || unit_as_variable(gold))
    {
        return undecided(
            c.path,
            format!(
                "a unit after a number read as a variable proves no difference ({})",
                c.reason
            ),
        );
    }
    if c.outcome == Outcome::Different && (unsolved(pred, gold) || unsolved(gold, pred)) {
        return undecided(
            c.path,
            format!(
                "an equation against values for its unknown: equations are not solved here, \
                 so a difference in form proves nothing ({})",
                c.reason
            ),
        );
    }
    if c.outcome == Outcome::Different && c.path != Path::BigOperator {
        if let Some(op) = unevaluated(pred).or_else(|| unevaluated(gold)) {
            return undecided(
                c.path,
                format!(
                    "`{op}` is not evaluated here, so a difference in form proves nothing ({})",
                    c.reason
                ),
            );
        }
    }
    c
}

fn compare_answers(pred: &str, gold: &str, question: Option<&str>, preset: Preset) -> Comparison {
    if pred == gold {
        // Concatenated, not `format!`: most grades end here.
        return verdict(
            true,
            Path::IdenticalText,
            ["both normalise to `", gold, "`"].concat(),
        );
    }
    if let Some(c) = percent(pred, gold, question, preset) {
        return c;
    }
    if let Some(c) = fast_decimal(pred, gold, preset) {
        return c;
    }
    if let Some(c) = decimal_comma(pred, gold) {
        return c;
    }
    let c = compare_at(pred, gold, preset, 0);
    if preset == Preset::Lenient && c.outcome == Outcome::Different {
        if let Some(r) = numeric::scaled_rounding(pred, gold) {
            return r;
        }
        // `I(0)` and `I_0`: the initial value written two ways (lenient).
        let (pa, ga) = (initial_values(pred, gold), initial_values(gold, pred));
        if pa != pred || ga != gold {
            let again = compare_at(&pa, &ga, preset, 1);
            if again.equivalent {
                return verdict(
                    true,
                    again.path,
                    format!(
                        "`X(0)` read as `X_0` (lenient): `{pa}` vs `{ga}`: {}",
                        again.reason
                    ),
                );
            }
        }
        // Two arbitrary constants named the other way round (`C_1\cos 2t + C_2\sin 2t` vs
        // `C_1\sin 2t + C_2\cos 2t`): constants of integration are names, not values.
        if let Some(swapped) = swap_constants(pred, gold) {
            let again = compare_at(&swapped, gold, preset, 1);
            if again.equivalent {
                return verdict(
                    true,
                    again.path,
                    format!(
                        "the arbitrary constants `C_1` and `C_2` named the other way round \
                         (lenient): {}",
                        again.reason
                    ),
                );
            }
        }
    }
    c
}

/// `s` with its constants `C_1` and `C_2` (any of `C_1`, `C_{1}`, `c_1`) swapped, when both
/// answers name both and neither names a third.
fn swap_constants(s: &str, other: &str) -> Option<String> {
    let names = |t: &str, n: char| {
        [
            format!("C_{n}"),
            format!("C_{{{n}}}"),
            format!("c_{n}"),
            format!("c_{{{n}}}"),
        ]
        .iter()
        .any(|f| t.contains(f.as_str()))
    };
    let both = |t: &str| names(t, '1') && names(t, '2') && !names(t, '3');
    if !(both(s) && both(other)) {
        return None;
    }
    let mut out = s.to_string();
    for (from, to) in [("1", "\u{1}"), ("2", "1"), ("\u{1}", "2")] {
        for (c, open, close) in [
            ("C", "", ""),
            ("C", "{", "}"),
            ("c", "", ""),
            ("c", "{", "}"),
        ] {
            out = out.replace(
                &format!("{c}_{open}{from}{close}"),
                &format!("{c}_{open}{to}{close}"),
            );
        }
    }
    Some(out)
}

/// `s` with each `X(0)` (a single letter, not part of a word or command) written `X_0` when
/// `other` writes that letter's initial value so (`I_0` or `I_{0}`).
fn initial_values(s: &str, other: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        let letter = b.get(i).copied().filter(u8::is_ascii_alphabetic);
        let lone = i == 0
            || !b
                .get(i - 1)
                .is_some_and(|p| p.is_ascii_alphabetic() || *p == b'\\');
        if let (Some(l), true, Some(b"(0)")) = (letter, lone, b.get(i + 1..i + 4)) {
            let (short, braced) = (format!("{}_0", l as char), format!("{}_{{0}}", l as char));
            if other.contains(&short) || other.contains(&braced) {
                out.push_str(&short);
                i += 4;
                continue;
            }
        }
        let ch = s.get(i..).and_then(|r| r.chars().next()).unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8().max(1);
    }
    out
}

/// The decimal-comma policy: `2,74` is read as 2.74 only when (1) it is one comma between
/// digits that is not a valid thousands grouping (the part after the comma is not exactly
/// three digits) and (2) the other answer is a written decimal with a point. Otherwise
/// `2,74` stays the list {2, 74} and `2,740` stays 2740: a comma is a decimal comma only when
/// nothing else can be meant and the gold says decimals are expected.
fn decimal_comma(a: &str, b: &str) -> Option<Comparison> {
    let comma_decimal = |s: &str| -> Option<String> {
        let (int, frac) = s.split_once(',')?;
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit());
        let int_ok = digits(int.strip_prefix('-').unwrap_or(int));
        // `0,111`: no thousands group starts with 0, so a 3-digit part is decimals too.
        let zero = int.trim_start_matches('-') == "0";
        (int_ok && digits(frac) && (frac.len() != 3 || zero)).then(|| format!("{int}.{frac}"))
    };
    let point_decimal = |s: &str| s.contains('.') && parse_decimal(s).is_some();
    let (lit, read, other) = match (comma_decimal(a), comma_decimal(b)) {
        (Some(r), None) if point_decimal(b) => (a, r, b),
        (None, Some(r)) if point_decimal(a) => (b, r, a),
        _ => return None,
    };
    let (x, y) = (parse_decimal(&read)?, parse_decimal(other)?);
    Some(verdict(
        x == y,
        Path::DecimalComma,
        format!(
            "`{lit}` read with a decimal comma as {x} (the other answer is a decimal): {x} {} {y}",
            if x == y { "=" } else { "≠" }
        ),
    ))
}

/// The hot path: two plain decimals (exact; the lenient preset also reads a gold given to
/// N ≥ 2 significant figures as a rounding, `0.1476` for `0.15`).
fn fast_decimal(a: &str, b: &str, preset: Preset) -> Option<Comparison> {
    let (x, y) = (parse_decimal(a)?, parse_decimal(b)?);
    if x != y && preset == Preset::Lenient {
        if let (Some(p), Some(q)) = (parse_decimal_big(a), parse_decimal_big(b)) {
            if let Some(c) = rounded_exact(a, b, &p, &q) {
                return Some(c);
            }
        }
    }
    Some(verdict(
        x == y,
        Path::ExactRational,
        format!("{x} {} {y}", if x == y { "=" } else { "≠" }),
    ))
}

/// True when the question asks for a percentage ("what percent", "percentage", "in %"), not
/// when it only mentions one ("What is 20% of 50?" asks for a number).
pub fn asks_percent(question: Option<&str>) -> bool {
    question.is_some_and(|q| {
        let q = q.to_lowercase();
        const ASKS: &[&str] = &[
            "what percent",
            "which percent",
            "how many percent",
            "percentage",
            "as a percent",
            "in percent",
            "a percent",
            "(in %)",
            "in %",
            "as %",
            "what %",
            "百分比",
            "百分之几",
            "百分数",
        ];
        ASKS.iter().any(|w| q.contains(w))
    })
}

/// The percent policy: decided by the gold and the question, never a blind ×100 / ÷100.
fn percent(pred: &str, gold: &str, question: Option<&str>, preset: Preset) -> Option<Comparison> {
    let p_pct = pred.ends_with('%');
    let g_pct = gold.ends_with('%');
    if !p_pct && !g_pct {
        return fraction_for_percent(pred, gold, question, preset);
    }
    let p = pred.trim_end_matches('%');
    let g = gold.trim_end_matches('%');
    let asked = asks_percent(question);
    let same_number = compare_at(p, g, preset, 1);
    let describe = |how: &str, c: &Comparison| format!("{how}: {}", c.reason);
    if asked && p_pct != g_pct && same_number.outcome == Outcome::Different {
        // Asked for a percent, one side gave the fraction (`0.5` for `50\%`): the same
        // value, but not the number asked for: could not decide, under both presets.
        let (bare, pct) = if p_pct { (g, p) } else { (p, g) };
        let scaled = compare_at(&format!("100({bare})"), pct, preset, 1);
        if scaled.outcome == Outcome::Equal {
            let why = describe("the fraction of the percent asked for", &scaled);
            return Some(undecided(Path::Percent, why));
        }
    }
    if asked || (p_pct && g_pct) {
        return Some(with_outcome(
            same_number.outcome,
            Path::Percent,
            describe("percent number to percent number", &same_number),
        ));
    }
    // Not asked for a percent: the percent sign is a value (20% = 0.2); the lenient preset
    // also accepts the number written without its sign (gold "20%", answer "20").
    let (pv, gv) = if p_pct {
        (format!("({p})/100"), g.to_string())
    } else {
        (p.to_string(), format!("({g})/100"))
    };
    let by_value = compare_at(&pv, &gv, preset, 1);
    if by_value.equivalent {
        return Some(verdict(
            true,
            Path::Percent,
            describe("as values (x% = x/100)", &by_value),
        ));
    }
    // Not when the question computes with a percent ("What is 20% of 50?"): there `10\%`
    // for `10` is a wrong value, not a dropped sign.
    let computes =
        question.is_some_and(|q| q.contains('%') || q.to_lowercase().contains("percent"));
    if preset == Preset::Lenient && same_number.equivalent && !computes {
        return Some(verdict(
            true,
            Path::Percent,
            describe("percent sign dropped (lenient)", &same_number),
        ));
    }
    Some(with_outcome(
        by_value.outcome,
        Path::Percent,
        describe("as values (x% = x/100)", &by_value),
    ))
}

/// Lenient only: the question asks "what percent" and the answer is the fraction
/// (`.8` for gold `80`). Decided by the question, and only for answers within [0, 1].
fn fraction_for_percent(
    pred: &str,
    gold: &str,
    question: Option<&str>,
    preset: Preset,
) -> Option<Comparison> {
    if preset != Preset::Lenient || !asks_percent(question) {
        return None;
    }
    let p = parse_decimal(pred)?;
    let g = parse_decimal(gold)?;
    let hundred = super::number::Rational::from_int(100);
    let in_unit = p >= super::number::Rational::ZERO && p <= super::number::Rational::ONE;
    (in_unit && p.checked_mul(hundred) == Some(g) && p != g).then(|| {
        verdict(
            true,
            Path::Percent,
            format!("the question asks for a percent and `{pred}` = {g}% (lenient)"),
        )
    })
}

fn compare_at(a: &str, b: &str, preset: Preset, depth: usize) -> Comparison {
    if a == b {
        return verdict(true, Path::IdenticalText, format!("`{a}` is `{b}`"));
    }
    if depth > MAX_DEPTH {
        return verdict(false, Path::Text, "nesting too deep to compare");
    }
    if let Some(c) = big_operators(a, b, preset, depth) {
        return c;
    }
    let (ca, cb) = (without_condition(a), without_condition(b));
    if ca != a || cb != b {
        let c = compare_at(ca, cb, preset, depth + 1);
        let reason = format!("the condition after `for` set aside: {}", c.reason);
        return with_outcome(c.outcome, c.path, reason);
    }
    if let Some(c) = chain(a, b, preset, depth) {
        return c;
    }
    if let Some(c) = unlabel(a, b, preset, depth) {
        return c;
    }
    if let Some(c) = base_n(a, b, preset, depth) {
        return c;
    }
    // `x \in (0,\infty)`, `3 \le x \le 5`, `x > 3`, `-x > -1`, `x \neq 3`, unions: the
    // set of reals they describe, in one canonical spelling.
    let (ia, ib) = (as_interval(a), as_interval(b));
    if ia.is_some() || ib.is_some() {
        let a2 = ia.unwrap_or_else(|| a.to_string());
        let b2 = ib.unwrap_or_else(|| b.to_string());
        let c = compare_at(&a2, &b2, preset, depth + 1);
        let reason = format!("as sets of reals `{a2}` vs `{b2}`: {}", c.reason);
        return with_outcome(c.outcome, Path::RealSet, reason);
    }
    if let Some(c) = choice(a, b, preset) {
        return c;
    }
    let (sa, sb) = (shape(a), shape(b));
    if !matches!((&sa, &sb), (Shape::Scalar, Shape::Scalar)) {
        return compare_shapes(a, b, &sa, &sb, preset, depth);
    }
    if let Some(c) = equation(a, b, preset, depth) {
        return c;
    }
    scalar(a, b, preset)
}

/// `A=\frac{1}{4-\omega^2},for\omega^2\neq 4`, `x(t)=…for t>0`: the condition of validity
/// after a final `for` is not part of the value.
fn without_condition(s: &str) -> &str {
    let b = s.as_bytes();
    let at = s.rmatch_indices("for").map(|(i, _)| i).find(|&i| {
        let before = i.checked_sub(1).and_then(|k| b.get(k));
        let after = b.get(i + 3);
        i > 0
            && before.is_some_and(|c| !c.is_ascii_alphabetic())
            && after.is_some_and(|c| !c.is_ascii_alphabetic())
    });
    match at {
        Some(i) => {
            let head = s.get(..i).unwrap_or(s).trim_end_matches([',', ' ', ';']);
            if head.is_empty() {
                s
            } else {
                head
            }
        }
        None => s,
    }
}

fn choice(a: &str, b: &str, preset: Preset) -> Option<Comparison> {
    let is_letter = |s: &str| s.len() == 1 && s.bytes().all(|c| (b'A'..=b'J').contains(&c));
    if !is_letter(b) && !is_letter(a) {
        return None;
    }
    let eq = if preset == Preset::Lenient {
        a.eq_ignore_ascii_case(b)
    } else {
        a == b
    };
    // Only decide when both are letters or the gold is: `e` alone is Euler's number.
    if is_letter(b) || (is_letter(a) && b.len() == 1) {
        return Some(verdict(eq, Path::Choice, format!("choice `{a}` vs `{b}`")));
    }
    None
}

/// A run of 2+ letters that is not a `\\command` or a function name: `yes` is a word,
/// not y·e·s.
fn has_word(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b.get(i).is_some_and(u8::is_ascii_alphabetic) {
            let start = i;
            while b.get(i).is_some_and(u8::is_ascii_alphabetic) {
                i += 1;
            }
            let command = start > 0 && b.get(start - 1) == Some(&b'\\');
            let word = s.get(start..i).unwrap_or("");
            let known = ["sin", "cos", "tan", "ln", "log", "exp", "sqrt", "pi"].contains(&word);
            if !command && !known && i - start >= 2 {
                return true;
            }
        } else {
            i += 1;
        }
    }
    false
}

fn same_or_not(eq: bool) -> &'static str {
    if eq {
        "equal"
    } else {
        "different"
    }
}

/// Operators the grader does not evaluate: text that differs around one of them may still be
/// the same value (`\sum_{k=1}^{n} k` and `\frac{n(n+1)}{2}`), so unequal text is no proof.
const UNEVALUATED: [&str; 8] = [
    "\\sum",
    "\\prod",
    "\\int",
    "\\iint",
    "\\oint",
    "\\lim",
    "\\partial",
    "\\frac{d",
];

/// Matrix operations and the complex conjugate are not evaluated either (`A^{T}`, a
/// `vmatrix` determinant, `\overline{2+3i}`): their values may equal the other side's.
const UNEVALUATED_FORMS: [&str; 7] = [
    "^{T}",
    "^T",
    "^{\\top}",
    "^\\top",
    "vmatrix",
    "\\det",
    "\\overline{",
];

/// `eq` is an equation with a power on its left (`x^2 = 4`) and `other` gives
/// several values (`x = \pm 2`, `x=2, x=-2`): its solutions, perhaps.
fn unsolved(eq: &str, other: &str) -> bool {
    let Some((left, _)) = eq.split_once('=') else {
        return false;
    };
    let several = other.contains("\\pm") || other.contains(',') || other.contains("\\text{ or }");
    eq.matches('=').count() == 1 && left.contains('^') && several
}

fn unevaluated(s: &str) -> Option<&'static str> {
    if let Some(op) = UNEVALUATED.iter().copied().find(|op| s.contains(op)) {
        return Some(op);
    }
    // `\overline` over digits is a repeating decimal, which is evaluated.
    let conjugate = |s: &str| {
        s.match_indices("\\overline{").any(|(i, m)| {
            let body = s.get(i + m.len()..).unwrap_or("");
            let body = body.split('}').next().unwrap_or("");
            body.bytes().any(|c| c.is_ascii_alphabetic())
        })
    };
    UNEVALUATED_FORMS
        .iter()
        .copied()
        .find(|op| s.contains(op) && (*op != "\\overline{" || conjugate(s)))
}

fn text(a: &str, b: &str, preset: Preset) -> Comparison {
    let canon = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    let (x, y) = (canon(a), canon(b));
    let eq = if preset == Preset::Lenient {
        x.eq_ignore_ascii_case(&y)
    } else {
        x == y
    };
    verdict(eq, Path::Text, format!("compared as text: `{a}` vs `{b}`"))
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_identity;
#[cfg(test)]
mod tests_strict;
