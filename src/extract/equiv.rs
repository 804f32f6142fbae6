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

/// How forgiving the comparison is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// Exact values only; `20%` equals `20` only when the question asks for a percent.
    Strict,
    /// Also: a decimal with ≥ 2 places equals a value that rounds to it (`0.33` vs `1/3`),
    /// a bare list equals a tuple of the same order, case-insensitive text and letters.
    #[default]
    Lenient,
}

impl Preset {
    pub const ALL: [Preset; 2] = [Preset::Strict, Preset::Lenient];

    /// The name users write (`--preset strict`, the Python package's `preset="strict"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Preset::Strict => "strict",
            Preset::Lenient => "lenient",
        }
    }

    /// The preset a name stands for; the error is the CLI's wording for a bad `--preset`.
    pub fn from_name(name: &str) -> Result<Preset, String> {
        Preset::ALL
            .into_iter()
            .find(|p| p.as_str() == name)
            .ok_or_else(|| {
                format!("invalid value '{name}' for '--preset <PRESET>' [possible values: strict, lenient]")
            })
    }
}

/// The comparison step that decided a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Path {
    IdenticalText,
    Choice,
    Percent,
    ExactRational,
    BigInteger,
    Float,
    Rounded,
    Symbolic,
    Tuple,
    Interval,
    Set,
    Matrix,
    Equation,
    Text,
    /// One side states a unit the other contradicts (`7 years` vs `7 months`).
    Unit,
    /// `\infty` against `\infty`, `-\infty` or a number.
    Infinity,
    /// Inequalities, intervals and their unions read as one set of reals (`x<3`, `-x>-1`,
    /// `(-\infty,3)`, `x \neq 3`, `x<-1 \text{ or } x>2`), compared exactly.
    RealSet,
    /// Two equations with the same solutions up to rearrangement and a non-zero factor
    /// (`2x+4y-3=0` vs `y=-\frac{1}{2}x+\frac{3}{4}`), by evaluation.
    Rearranged,
    /// A label before the answer dropped (`(p,q)=(3,2)`, `V_1:V_2=11:21`).
    Label,
    /// A chain (`x = 5+5+1 = 11`) or an approximation (`\frac{1}{3} \approx 0.33`) read as
    /// its final value.
    Chain,
    /// A base-n numeral (`2516_8`) compared by value.
    BaseN,
    /// `2,74` read with a decimal comma against a decimal gold.
    DecimalComma,
    /// Several answers (several `\boxed{}`, "2 or 3", `2; 3`) compared as a set.
    Several,
    /// Complex numbers with `i` (or `I`) in exact Gaussian-rational arithmetic.
    Complex,
    NoAnswer,
}

impl Path {
    /// Every path, for reading a name back (`from_name`); `as_str` is where the names live.
    pub const ALL: [Path; 25] = [
        Path::IdenticalText,
        Path::Choice,
        Path::Percent,
        Path::ExactRational,
        Path::BigInteger,
        Path::Float,
        Path::Rounded,
        Path::Symbolic,
        Path::Tuple,
        Path::Interval,
        Path::Set,
        Path::Matrix,
        Path::Equation,
        Path::Text,
        Path::Unit,
        Path::Infinity,
        Path::RealSet,
        Path::Rearranged,
        Path::Label,
        Path::Chain,
        Path::BaseN,
        Path::DecimalComma,
        Path::Several,
        Path::Complex,
        Path::NoAnswer,
    ];

    /// The path a name written by `as_str` stands for.
    pub fn from_name(name: &str) -> Option<Path> {
        Path::ALL.into_iter().find(|p| p.as_str() == name)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Path::IdenticalText => "identical_text",
            Path::Choice => "choice",
            Path::Percent => "percent",
            Path::ExactRational => "exact_rational",
            Path::BigInteger => "big_integer",
            Path::Float => "float",
            Path::Rounded => "rounded",
            Path::Symbolic => "symbolic",
            Path::Tuple => "tuple",
            Path::Interval => "interval",
            Path::Set => "set",
            Path::Matrix => "matrix",
            Path::Equation => "equation",
            Path::Text => "text",
            Path::Unit => "unit",
            Path::Infinity => "infinity",
            Path::RealSet => "real_set",
            Path::Rearranged => "rearranged",
            Path::Label => "label",
            Path::Chain => "chain",
            Path::BaseN => "base_n",
            Path::DecimalComma => "decimal_comma",
            Path::Several => "several",
            Path::Complex => "complex",
            Path::NoAnswer => "no_answer",
        }
    }
}

/// What a comparison concluded. `Undecided` is its own verdict: counted apart, never as equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Equal,
    Different,
    /// Exact comparison was impossible (see the reason): "could not decide".
    Undecided,
}

impl Outcome {
    pub const ALL: [Outcome; 3] = [Outcome::Equal, Outcome::Different, Outcome::Undecided];

    /// The outcome a name written by `as_str` stands for.
    pub fn from_name(name: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.as_str() == name)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Equal => "equal",
            Outcome::Different => "different",
            Outcome::Undecided => "undecided",
        }
    }

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
pub fn compare(pred: &str, gold: &str, question: Option<&str>, preset: Preset) -> Comparison {
    if pred == gold {
        return verdict(
            true,
            Path::IdenticalText,
            format!("both normalise to `{gold}`"),
        );
    }
    if let Some(c) = percent(pred, gold, question, preset) {
        return c;
    }
    if let Some(c) = fast_decimal(pred, gold) {
        return c;
    }
    if let Some(c) = decimal_comma(pred, gold) {
        return c;
    }
    compare_at(pred, gold, preset, 0)
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
        (int_ok && digits(frac) && frac.len() != 3).then(|| format!("{int}.{frac}"))
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

/// The hot path: two plain decimals.
fn fast_decimal(a: &str, b: &str) -> Option<Comparison> {
    let (x, y) = (parse_decimal(a)?, parse_decimal(b)?);
    Some(verdict(
        x == y,
        Path::ExactRational,
        format!("{x} {} {y}", if x == y { "=" } else { "≠" }),
    ))
}

/// True when the question asks for a percentage ("what percent", "percentage", "%").
pub fn asks_percent(question: Option<&str>) -> bool {
    question.is_some_and(|q| {
        let q = q.to_ascii_lowercase();
        q.contains("percent") || q.contains('%') || q.contains("百分")
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
    if preset == Preset::Lenient && same_number.equivalent {
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

/// The structure an answer has at its top level.
#[derive(Debug, Clone, PartialEq)]
enum Shape {
    Scalar,
    /// `(a,b)`, `[a,b)`: the brackets matter (tuple vs interval).
    Seq {
        open: char,
        close: char,
        items: Vec<String>,
    },
    Set(Vec<String>),
    /// A bare comma list `1, 2, 3`, compared order-free.
    List(Vec<String>),
    Matrix(Vec<Vec<String>>),
    /// `A\cup B`: a union of intervals, compared order-free.
    Union(Vec<String>),
    /// `11:21`: a ratio, term by term in order.
    Ratio(Vec<String>),
}

/// How many answers a normalised answer holds: the items of a set, a bare list or `\pm`
/// (two), else one.
pub fn answer_count(s: &str) -> usize {
    match shape(s) {
        Shape::Set(x) | Shape::List(x) => x.len(),
        _ => 1,
    }
}

/// Splits at top-level occurrences of `sep` (outside brackets and braces).
fn split_top(s: &str, sep: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes.get(i).copied().unwrap_or(0);
        match b {
            b'\\' if s.get(i..i + 2).is_some_and(|t| t == "\\{") => {
                depth += 1;
                i += 2;
                continue;
            }
            b'\\' if s.get(i..i + 2).is_some_and(|t| t == "\\}") => {
                depth -= 1;
                i += 2;
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
        if depth == 0 && s.get(i..).is_some_and(|r| r.starts_with(sep)) {
            out.push(s.get(start..i).unwrap_or("").trim().to_string());
            i += sep.len();
            start = i;
            continue;
        }
        i += 1;
    }
    out.push(s.get(start..).unwrap_or("").trim().to_string());
    out
}

fn matching_close(s: &str) -> bool {
    // `(1,2)+(3,4)` is not one tuple: the opening bracket must close at the very end.
    let mut depth = 0i32;
    for (i, b) in s.bytes().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 && i + 1 != s.len() {
                    return false;
                }
            }
            _ => {}
        }
    }
    true
}

fn shape(s: &str) -> Shape {
    if s.contains("\\begin{") && (s.contains("matrix}") || s.contains("\\begin{array}")) {
        if let Some(m) = matrix(s) {
            return Shape::Matrix(m);
        }
    }
    if s.contains("\\cup") {
        let parts = split_top(s, "\\cup");
        if parts.len() >= 2 && parts.iter().all(|p| !p.is_empty()) {
            return Shape::Union(parts);
        }
    }
    if let Some(inner) = s.strip_prefix("\\{").and_then(|r| r.strip_suffix("\\}")) {
        return Shape::Set(split_top(inner, ","));
    }
    if let Some(pm) = plus_minus(s) {
        return Shape::Set(pm);
    }
    let first = s.chars().next().unwrap_or(' ');
    let last = s.chars().last().unwrap_or(' ');
    if matches!(first, '(' | '[') && matches!(last, ')' | ']') && s.len() >= 2 {
        let inner = s.get(1..s.len() - 1).unwrap_or("");
        let items = split_top(inner, ",");
        if items.len() >= 2
            && inner.chars().all(|c| c != '(' || matching_close(s))
            && matching_close(s)
        {
            return Shape::Seq {
                open: first,
                close: last,
                items,
            };
        }
    }
    let items = split_top(s, ",");
    if items.len() >= 2 && items.iter().all(|i| !i.is_empty()) {
        return Shape::List(items);
    }
    // `2; 3`, `5 and 7`, `2 or 3`: a list when every part is a value, not words.
    for sep in [";", " and ", " or "] {
        if s.contains(sep) {
            let items = split_top(s, sep);
            if items.len() >= 2 && items.iter().all(|i| !i.is_empty() && !has_word(i)) {
                return Shape::List(items);
            }
        }
    }
    // `11:21`: a ratio of values (not `V_1:V_2`, a label, which has no value).
    if s.contains(':') && !s.contains("::") {
        let items = split_top(s, ":");
        if items.len() >= 2 && items.iter().all(|i| numeric(i)) {
            return Shape::Ratio(items);
        }
    }
    Shape::Scalar
}

/// The cells of a matrix in any environment: `pmatrix`, `bmatrix`, `vmatrix`… or `array`
/// (its column spec `{cc}` skipped) inside `[…]`/`(…)` (`\left[\begin{array}…\right]`).
fn matrix(s: &str) -> Option<Vec<Vec<String>>> {
    let s = s.trim();
    let s = match (s.chars().next(), s.chars().last()) {
        (Some('[' | '('), Some(']' | ')')) if s.len() >= 2 => s.get(1..s.len() - 1)?.trim(),
        _ => s,
    };
    // One environment only: `A\begin{pmatrix}…` with something before it is not a matrix.
    if !s.starts_with("\\begin{") || !s.ends_with('}') {
        return None;
    }
    let start = if let Some(rest) = s.strip_prefix("\\begin{array}") {
        let (_, _, end) = super::normalize::braced(rest, 0)?;
        s.len() - rest.len() + end
    } else {
        s.find("matrix}")? + "matrix}".len()
    };
    let end = s.rfind("\\end{")?;
    let body = s.get(start..end)?;
    let rows: Vec<Vec<String>> = body
        .split("\\\\")
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(|r| r.split('&').map(|c| c.trim().to_string()).collect())
        .collect();
    (!rows.is_empty()).then_some(rows)
}

/// `a \pm b` → {a+b, a-b}.
fn plus_minus(s: &str) -> Option<Vec<String>> {
    let i = s.find("\\pm")?;
    let a = s.get(..i)?.trim();
    let b = s.get(i + 3..)?.trim();
    if b.is_empty() || b.contains("\\pm") {
        return None;
    }
    let a = if a.is_empty() { "0" } else { a };
    Some(vec![format!("{a}+({b})"), format!("{a}-({b})")])
}

/// Element-wise comparison: `Err` carries a difference, or an undecided element (when no
/// element differs outright) with its reason.
fn compare_items(
    xs: &[String],
    ys: &[String],
    ordered: bool,
    preset: Preset,
    depth: usize,
) -> Result<(), (Outcome, String)> {
    if xs.len() != ys.len() {
        return Err((
            Outcome::Different,
            format!("{} items vs {}", xs.len(), ys.len()),
        ));
    }
    if xs.len() > MAX_ITEMS {
        return Err((Outcome::Undecided, format!("more than {MAX_ITEMS} items")));
    }
    let mut open: Option<String> = None;
    if ordered {
        for (k, (x, y)) in xs.iter().zip(ys).enumerate() {
            let c = compare_at(x, y, preset, depth + 1);
            let why = || format!("item {}: `{x}` vs `{y}` ({})", k + 1, c.reason);
            match c.outcome {
                Outcome::Equal => {}
                Outcome::Different => return Err((Outcome::Different, why())),
                Outcome::Undecided => open = open.or_else(|| Some(why())),
            }
        }
        return open.map_or(Ok(()), |w| Err((Outcome::Undecided, w)));
    }
    let mut used = vec![false; ys.len()];
    for x in xs {
        let mut hit = None;
        for (j, y) in ys.iter().enumerate() {
            if used.get(j).copied().unwrap_or(true) {
                continue;
            }
            let c = compare_at(x, y, preset, depth + 1);
            match c.outcome {
                Outcome::Equal => {
                    hit = Some(j);
                    break;
                }
                // A possible partner: if nothing matches, the set is undecided, not different.
                Outcome::Undecided => {
                    open = open.or_else(|| Some(format!("`{x}` vs `{y}`: {}", c.reason)));
                }
                Outcome::Different => {}
            }
        }
        match hit {
            Some(j) => {
                if let Some(u) = used.get_mut(j) {
                    *u = true;
                }
            }
            None => {
                return Err(match open {
                    Some(w) => (Outcome::Undecided, w),
                    None => (Outcome::Different, format!("`{x}` has no match")),
                })
            }
        }
    }
    Ok(())
}

fn compare_shapes(
    a: &str,
    b: &str,
    sa: &Shape,
    sb: &Shape,
    preset: Preset,
    depth: usize,
) -> Comparison {
    use Shape::*;
    let res = |path: Path, r: Result<(), (Outcome, String)>| match r {
        Ok(()) => verdict(true, path, format!("`{a}` and `{b}` match element-wise")),
        Err((o, why)) => with_outcome(o, path, format!("`{a}` vs `{b}`: {why}")),
    };
    match (sa, sb) {
        (Matrix(x), Matrix(y)) => {
            if x.len() != y.len() {
                return verdict(
                    false,
                    Path::Matrix,
                    format!("{} rows vs {}", x.len(), y.len()),
                );
            }
            let mut open = None;
            for (r, (rx, ry)) in x.iter().zip(y).enumerate() {
                match compare_items(rx, ry, true, preset, depth) {
                    Ok(()) => {}
                    Err((Outcome::Undecided, why)) => {
                        open = open.or_else(|| Some(format!("row {}: {why}", r + 1)));
                    }
                    Err((o, why)) => {
                        return with_outcome(o, Path::Matrix, format!("row {}: {why}", r + 1))
                    }
                }
            }
            match open {
                Some(why) => with_outcome(Outcome::Undecided, Path::Matrix, why),
                None => verdict(true, Path::Matrix, "matrices equal element-wise"),
            }
        }
        (Set(x) | List(x), Set(y) | List(y)) => {
            res(Path::Set, compare_items(x, y, false, preset, depth))
        }
        (Union(x), Union(y)) => res(Path::RealSet, compare_items(x, y, false, preset, depth)),
        (Ratio(x), Ratio(y)) => res(Path::Tuple, compare_items(x, y, true, preset, depth)),
        (
            Seq {
                open: o1,
                close: c1,
                items: x,
            },
            Seq {
                open: o2,
                close: c2,
                items: y,
            },
        ) => {
            let interval = o1 != c1 && (*o1 == '[' || *c1 == ']' || *o2 == '[' || *c2 == ']');
            let path = if interval {
                Path::Interval
            } else {
                Path::Tuple
            };
            if (o1, c1) != (o2, c2) {
                return verdict(
                    false,
                    path,
                    format!("brackets differ: `{o1}…{c1}` vs `{o2}…{c2}` (open vs closed ends)"),
                );
            }
            res(path, compare_items(x, y, true, preset, depth))
        }
        (
            Seq {
                open: '(',
                close: ')',
                items: x,
            },
            List(y),
        )
        | (
            List(x),
            Seq {
                open: '(',
                close: ')',
                items: y,
            },
        ) if preset == Preset::Lenient => {
            res(Path::Tuple, compare_items(x, y, true, preset, depth))
        }
        _ => verdict(
            false,
            Path::Text,
            format!("different structure: `{a}` vs `{b}`"),
        ),
    }
}

/// The set of reals an inequality, a set-builder answer or a union describes, in one canonical
/// spelling: `x \in S` → `S`; one variable bounded by values, `a \le x < b` → `[a,b)`, `x > a` →
/// `(a,\infty)`; a linear side solved exactly (`-x > -1` → `(-\infty,1)`, `2x+1 \le 5` →
/// `(-\infty,2]`); `x \neq 3` → `(-\infty,3)\cup(3,\infty)`; parts joined by `\cup`, "or" or
/// `\lor` → their union, sorted and merged when every end is exact. `None` for anything else,
/// and when the spelling is already canonical (so the comparison does not loop).
fn as_interval(s: &str) -> Option<String> {
    // The hot path: most answers have no relation at all.
    if !s.contains(['<', '>', '\\', '≤', '≥', '≠', '!', 'o']) {
        return None;
    }
    let parts = union_parts(s);
    let out = if parts.len() >= 2 {
        let mut all = Vec::new();
        for p in &parts {
            all.extend(one_set(p)?);
        }
        render_union(all)
    } else {
        // `x \in S`: the set itself, whatever it is (an interval, a union, `\{1,2\}`).
        if let Some(rest) = member_of(s) {
            return Some(rest);
        }
        let ivs = relation_set(s).or_else(|| real_line(s))?;
        render_union(ivs)
    };
    (out != s).then_some(out)
}

/// `S` of `x \in S` (`\in` itself, not the start of `\infty` or `\int`).
fn member_of(s: &str) -> Option<String> {
    let i = s.match_indices("\\in").map(|(i, _)| i).find(|&i| {
        !s.get(i + 3..)
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_alphabetic()))
    })?;
    let name = s.get(..i)?.trim();
    is_name(name).then(|| s.get(i + 3..).unwrap_or("").trim().to_string())
}

/// `\mathbb{R}`, `(-\infty,\infty)`: all reals.
fn real_line(s: &str) -> Option<Vec<Iv>> {
    matches!(s, "\\mathbb{R}" | "\\mathbb R" | "\\mathbb{r}").then(|| vec![Iv::all()])
}

/// Splits at top-level `\cup`, ` or `, `\lor`, `∪` (outside brackets).
fn union_parts(s: &str) -> Vec<String> {
    let mut parts = vec![s.to_string()];
    for sep in ["\\cup", "∪", "\\lor", " or "] {
        if s.contains(sep) {
            parts = parts.iter().flat_map(|p| split_top(p, sep)).collect();
        }
    }
    parts.retain(|p| !p.is_empty());
    parts
}

/// One part of a union: a relation, an interval in bracket notation, or `\mathbb{R}`.
fn one_set(p: &str) -> Option<Vec<Iv>> {
    if let Some(v) = relation_set(p).or_else(|| real_line(p)) {
        return Some(v);
    }
    let first = p.chars().next()?;
    let last = p.chars().last()?;
    if !matches!(first, '(' | '[') || !matches!(last, ')' | ']') || !matching_close(p) {
        return None;
    }
    let inner = p.get(1..p.len() - 1)?;
    let items = split_top(inner, ",");
    let [lo, hi] = items.as_slice() else {
        return None;
    };
    Some(vec![Iv {
        lo: End::new(lo, first == '['),
        hi: End::new(hi, last == ']'),
    }])
}

/// One end of an interval: its text, its exact value when it has one (`None` for `\pm\infty`
/// and for irrational ends such as `\sqrt2`, which are compared as text by the caller),
/// whether it is infinite, and whether it is included.
#[derive(Debug, Clone)]
struct End {
    text: String,
    exact: Option<BigRational>,
    inf: bool,
    closed: bool,
}

impl End {
    fn new(text: &str, closed: bool) -> End {
        let t = text.trim();
        let inf = matches!(t, "\\infty" | "-\\infty" | "+\\infty" | "\\inf" | "-\\inf");
        let exact = if inf {
            None
        } else {
            expr::parse(t).filter(|e| e.vars.is_empty()).and_then(|e| {
                match expr::eval(&e.root, &[]) {
                    Num::Exact(r) => Some(r),
                    _ => None,
                }
            })
        };
        End {
            text: exact.as_ref().map_or_else(|| t.to_string(), rational_text),
            exact,
            inf,
            closed: closed && !inf,
        }
    }

    fn infinite(negative: bool) -> End {
        End {
            text: if negative { "-\\infty" } else { "\\infty" }.to_string(),
            exact: None,
            inf: true,
            closed: false,
        }
    }

    fn value(v: BigRational, closed: bool) -> End {
        End {
            text: rational_text(&v),
            exact: Some(v),
            inf: false,
            closed,
        }
    }
}

/// An exact value as an answer string the parser reads back (`-7/3`).
fn rational_text(r: &BigRational) -> String {
    if r.is_integer() {
        r.numer().to_string()
    } else {
        format!("{}/{}", r.numer(), r.denom())
    }
}

#[derive(Debug, Clone)]
struct Iv {
    lo: End,
    hi: End,
}

impl Iv {
    fn all() -> Iv {
        Iv {
            lo: End::infinite(true),
            hi: End::infinite(false),
        }
    }

    /// Sort key of the lower end (−∞ first), when the end is exact or infinite.
    fn lo_key(&self) -> Option<(i8, Option<&BigRational>, bool)> {
        if self.lo.inf {
            return Some((-1, None, false));
        }
        self.lo
            .exact
            .as_ref()
            .map(|v| (0, Some(v), !self.lo.closed))
    }
}

/// Renders a union: when every end is exact or infinite, the parts sorted and overlapping or
/// touching parts merged (`(-\infty,3)\cup[3,5]` = `(-\infty,5]`), so one set has one spelling.
fn render_union(mut ivs: Vec<Iv>) -> String {
    let all_exact = ivs
        .iter()
        .all(|iv| (iv.lo.inf || iv.lo.exact.is_some()) && (iv.hi.inf || iv.hi.exact.is_some()));
    if all_exact && ivs.len() <= MAX_ITEMS {
        ivs.sort_by(|a, b| a.lo_key().cmp(&b.lo_key()));
        let mut merged: Vec<Iv> = Vec::new();
        for iv in ivs {
            if let Some(last) = merged.last_mut() {
                if reaches(&last.hi, &iv.lo) {
                    if beyond(&iv.hi, &last.hi) {
                        last.hi = iv.hi;
                    }
                    continue;
                }
            }
            merged.push(iv);
        }
        ivs = merged;
    }
    let one = |iv: &Iv| {
        format!(
            "{}{},{}{}",
            if iv.lo.closed { '[' } else { '(' },
            iv.lo.text,
            iv.hi.text,
            if iv.hi.closed { ']' } else { ')' }
        )
    };
    ivs.iter().map(one).collect::<Vec<_>>().join("\\cup")
}

/// The upper end `hi` reaches the lower end `lo` of the next part: they overlap or touch
/// with the meeting point included on at least one side.
fn reaches(hi: &End, lo: &End) -> bool {
    // An upper +∞ swallows everything after it; a lower −∞ after the sort means both parts
    // start at −∞ (`(-\infty,3)\cup(-\infty,5)`), so they overlap.
    if hi.inf || lo.inf {
        return true;
    }
    match (&hi.exact, &lo.exact) {
        (Some(h), Some(l)) => h > l || (h == l && (hi.closed || lo.closed)),
        _ => false,
    }
}

/// `a` is a larger upper end than `b` (or the same value, included where `b` is not).
fn beyond(a: &End, b: &End) -> bool {
    if b.inf {
        return false;
    }
    if a.inf {
        return true;
    }
    match (&a.exact, &b.exact) {
        (Some(x), Some(y)) => x > y || (x == y && a.closed && !b.closed),
        _ => false,
    }
}

/// One relation chain over one variable: `x < 3`, `3 \ge x`, `-2 \le x \le 7`, `-x > -1`,
/// `2x+1 \le 5`, `x \neq 3`.
fn relation_set(s: &str) -> Option<Vec<Iv>> {
    // Split into operands and relations: `3`, `\le`, `x`, `\le`, `5`.
    let mut parts: Vec<&str> = Vec::new();
    let mut rels: Vec<Rel> = Vec::new();
    let mut rest = s;
    loop {
        let next = RELATIONS
            .iter()
            .filter_map(|&(op, rel)| rest.find(op).map(|at| (at, op, rel)))
            .min_by_key(|&(at, op, _)| (at, std::cmp::Reverse(op.len())));
        match next {
            Some((at, op, rel)) => {
                parts.push(rest.get(..at)?.trim());
                rels.push(rel);
                rest = rest.get(at + op.len()..)?;
            }
            None => {
                parts.push(rest.trim());
                break;
            }
        }
        if rels.len() > 2 {
            return None;
        }
    }
    let bound = |p: &str| !p.is_empty() && (numeric(p) || p.contains("\\infty"));
    match (parts.as_slice(), rels.as_slice()) {
        // x ≠ a
        ([v, n], [Rel::Ne]) | ([n, v], [Rel::Ne]) if is_name(v) && bound(n) => Some(vec![
            Iv {
                lo: End::infinite(true),
                hi: End::new(n, false),
            },
            Iv {
                lo: End::new(n, false),
                hi: End::infinite(false),
            },
        ]),
        // x < b, x > a
        ([v, n], [Rel::Cmp(less, incl)]) if is_name(v) && bound(n) => {
            Some(vec![half(*less, *incl, n)])
        }
        // a < x, a > x
        ([n, v], [Rel::Cmp(less, incl)]) if is_name(v) && bound(n) => {
            Some(vec![half(!*less, *incl, n)])
        }
        // a < x < b (both relations the same way)
        ([a, v, b], [Rel::Cmp(l1, i1), Rel::Cmp(l2, i2)])
            if is_name(v) && bound(a) && bound(b) && l1 == l2 =>
        {
            let (low, low_incl, high, high_incl) =
                if *l1 { (a, i1, b, i2) } else { (b, i2, a, i1) };
            Some(vec![Iv {
                lo: End::new(low, *low_incl),
                hi: End::new(high, *high_incl),
            }])
        }
        // A linear side: `-x > -1`, `2x + 1 \le 5`, `3 < 2x-1`.
        ([l, r], [rel]) => linear_relation(l, r, *rel),
        _ => None,
    }
}

/// `x < n` (`less`) or `x > n`, inclusive or not.
fn half(less: bool, incl: bool, n: &str) -> Iv {
    if less {
        Iv {
            lo: End::infinite(true),
            hi: End::new(n, incl),
        }
    } else {
        Iv {
            lo: End::new(n, incl),
            hi: End::infinite(false),
        }
    }
}

/// `l rel r` with `l − r = a·x + b` linear in its one variable (exact `a ≠ 0`, `b`): solved
/// exactly, the direction flipped when `a < 0`.
fn linear_relation(l: &str, r: &str, rel: Rel) -> Option<Vec<Iv>> {
    let e = expr::parse(&format!("({l})-({r})"))?;
    let [_] = e.vars.as_slice() else {
        return None;
    };
    let (a, b) = expr::linear(&e.root, 0)?;
    if a.is_zero() {
        return None;
    }
    let root = -b / &a;
    match rel {
        Rel::Ne => Some(vec![
            Iv {
                lo: End::infinite(true),
                hi: End::value(root.clone(), false),
            },
            Iv {
                lo: End::value(root, false),
                hi: End::infinite(false),
            },
        ]),
        Rel::Cmp(less, incl) => {
            // a·x + b < 0  ⇔  x < −b/a when a > 0, x > −b/a when a < 0.
            let less = if a.is_negative() { !less } else { less };
            Some(vec![if less {
                Iv {
                    lo: End::infinite(true),
                    hi: End::value(root, incl),
                }
            } else {
                Iv {
                    lo: End::value(root, incl),
                    hi: End::infinite(false),
                }
            }])
        }
    }
}

/// A relation between two sides.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Rel {
    /// (points from smaller to larger, inclusive)
    Cmp(bool, bool),
    Ne,
}

/// Relation spellings after normalisation.
const RELATIONS: &[(&str, Rel)] = &[
    ("\\leqslant", Rel::Cmp(true, true)),
    ("\\geqslant", Rel::Cmp(false, true)),
    ("\\leq", Rel::Cmp(true, true)),
    ("\\le", Rel::Cmp(true, true)),
    ("\\geq", Rel::Cmp(false, true)),
    ("\\ge", Rel::Cmp(false, true)),
    ("\\lt", Rel::Cmp(true, false)),
    ("\\gt", Rel::Cmp(false, false)),
    ("\\neq", Rel::Ne),
    ("\\ne", Rel::Ne),
    ("≠", Rel::Ne),
    ("!=", Rel::Ne),
    ("≤", Rel::Cmp(true, true)),
    ("≥", Rel::Cmp(false, true)),
    ("<=", Rel::Cmp(true, true)),
    (">=", Rel::Cmp(false, true)),
    ("<", Rel::Cmp(true, false)),
    (">", Rel::Cmp(false, false)),
];

/// Sides of a top-level equation, for `x = 5` vs `5`.
fn sides(s: &str) -> Option<(&str, &str)> {
    let i = s.rfind('=')?;
    let (l, r) = (s.get(..i)?, s.get(i + 1..)?);
    if l.is_empty() || r.is_empty() || l.ends_with(['<', '>', '!', '\\']) {
        return None;
    }
    Some((l, r))
}

/// A left side that only names the answer: `x`, `y_1`, `\theta`, `f(x)`, `k`.
fn is_name(l: &str) -> bool {
    let l = l.trim();
    !l.is_empty()
        && l.len() <= 12
        && l.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'_' | b'\\' | b'(' | b')' | b'{' | b'}')
        })
        && l.bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'\\')
}

/// A label: a left side that only names the answer — a name (`x`, `f(x)`), a tuple of names
/// (`(p,q)`), a ratio of names (`V_1:V_2`), a quotient of names (`\frac{NO}{BO}`), a product
/// of letters (`AB`). No digits outside subscripts, no operators, so `2x+4y-3` is not one.
fn is_label(l: &str) -> bool {
    let l = l.trim();
    if is_name(l) {
        return true;
    }
    if l.is_empty() || l.len() > 40 {
        return false;
    }
    let b = l.as_bytes();
    let mut i = 0;
    let mut letters = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'_' => {
                // A subscript may hold digits: `V_1`, `x_{12}`.
                i += 1;
                if b.get(i) == Some(&b'{') {
                    while b.get(i).is_some_and(|&c| c != b'}') {
                        i += 1;
                    }
                }
            }
            // Only naming commands: `\sin x = \frac12` states a function's value, not a label.
            b'\\' => {
                let word: String = b
                    .get(i + 1..)
                    .unwrap_or(&[])
                    .iter()
                    .take_while(|c| c.is_ascii_alphabetic())
                    .map(|&c| char::from(c))
                    .collect();
                let naming = ["frac", "angle", "overline", "triangle", "vec", "hat", "bar"];
                if !naming.contains(&word.as_str()) && !expr::is_greek(&word) {
                    return false;
                }
                i += word.len();
            }
            c if c.is_ascii_alphabetic() => letters += 1,
            b'{' | b'}' | b'(' | b')' | b',' | b':' | b' ' | b'\'' => {}
            _ => return false,
        }
        i += 1;
    }
    letters > 0
}

/// The top-level `=` of `s` that separates a label from the answer, if `s` is labelled.
fn label_split(s: &str) -> Option<(&str, &str)> {
    let i = top_level_eq(s)?;
    let (l, r) = (s.get(..i)?, s.get(i + 1..)?);
    if r.is_empty() || r.contains('=') || l.ends_with(['<', '>', '!', '\\']) || !is_label(l) {
        return None;
    }
    // `x = 5` stays for `equation` (it also handles `x=5` vs `x=5.0` side by side); only the
    // labels `equation` does not know are dropped here.
    (!is_name(l)).then_some((l.trim(), r.trim()))
}

/// First `=` outside brackets.
fn top_level_eq(s: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (i, b) in s.bytes().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b'=' if depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

/// `(p,q)=(3,2)` vs `(3,2)`: a label on one side (or the same label on both) is dropped.
fn unlabel(a: &str, b: &str, preset: Preset, depth: usize) -> Option<Comparison> {
    let (la, lb) = (label_split(a), label_split(b));
    let (x, y, what) = match (la, lb) {
        (Some((l1, r1)), Some((l2, r2))) if l1 == l2 => (r1, r2, format!("label `{l1}` on both")),
        (Some(_), Some(_)) => return None,
        (Some((l, r)), None) => (r, b, format!("label `{l}` dropped")),
        (None, Some((l, r))) => (a, r, format!("label `{l}` dropped")),
        (None, None) => return None,
    };
    let c = compare_at(x, y, preset, depth + 1);
    Some(with_outcome(
        c.outcome,
        Path::Label,
        format!("{what}: {}", c.reason),
    ))
}

/// A chain `x = 5+5+1 = 11` (three or more sides) is its final value `x = 11`; an
/// approximation `x = \frac{1}{3} \approx 0.33` is its exact value `x = \frac{1}{3}`, and the
/// lenient preset also accepts the approximation when the exact value does not match.
fn chain(a: &str, b: &str, preset: Preset, depth: usize) -> Option<Comparison> {
    let (ra, rb) = (reduce_chain(a), reduce_chain(b));
    if ra.is_none() && rb.is_none() {
        return None;
    }
    let (xa, approx_a) = ra.unwrap_or_else(|| (a.to_string(), None));
    let (xb, approx_b) = rb.unwrap_or_else(|| (b.to_string(), None));
    let c = compare_at(&xa, &xb, preset, depth + 1);
    let head = format!("as `{xa}` vs `{xb}`");
    if c.outcome != Outcome::Equal && preset == Preset::Lenient {
        let alt = match (&approx_a, &approx_b) {
            (Some(p), None) => Some((p.clone(), xb.clone())),
            (None, Some(q)) => Some((xa.clone(), q.clone())),
            _ => None,
        };
        if let Some((p, q)) = alt {
            let d = compare_at(&p, &q, preset, depth + 1);
            if d.outcome == Outcome::Equal {
                return Some(verdict(
                    true,
                    Path::Chain,
                    format!(
                        "the stated approximation `{p}` vs `{q}` (lenient): {}",
                        d.reason
                    ),
                ));
            }
        }
    }
    Some(with_outcome(
        c.outcome,
        Path::Chain,
        format!("{head}: {}", c.reason),
    ))
}

/// (the value a chain or approximation stands for, the approximation if any).
fn reduce_chain(s: &str) -> Option<(String, Option<String>)> {
    // Cheap test first: most answers have neither two `=` nor an approximation.
    let approximate = s.contains("\\approx") || s.contains('≈');
    if !approximate && s.bytes().filter(|&b| b == b'=').count() < 2 {
        return None;
    }
    // `x=2 \text{ or } x=3` is a list of answers, not a chain.
    if !matches!(shape(s), Shape::Scalar) {
        return None;
    }
    let (exact, approx) = match s.find("\\approx").or_else(|| s.find('≈')) {
        Some(i) => {
            let op = if s.get(i..)?.starts_with('≈') {
                '≈'.len_utf8()
            } else {
                7
            };
            let tail = s.get(i + op..)?;
            // The last approximation of `a \approx b \approx c`.
            let last = tail.rsplit("\\approx").next()?.rsplit('≈').next()?.trim();
            (
                s.get(..i)?.trim(),
                Some(last.to_string()).filter(|t| !t.is_empty()),
            )
        }
        None => (s, None),
    };
    let sides = split_top(exact, "=");
    if sides.iter().any(String::is_empty) {
        return None;
    }
    let value = match sides.as_slice() {
        // `x \approx 0.33`: only a label before the approximation, which is then the value.
        [one] if is_label(one) => {
            let p = approx?;
            return Some((format!("{one}={p}"), None));
        }
        [one] if approx.is_some() => one.clone(),
        [label, .., last] if sides.len() >= 3 && is_label(label) => format!("{label}={last}"),
        [.., last] if sides.len() >= 3 => last.clone(),
        [_, _] if approx.is_some() => exact.to_string(),
        _ => return None,
    };
    // `x = 3 \approx …`: the approximation keeps the label.
    let approx = approx.map(|p| match sides.first() {
        Some(l) if sides.len() >= 2 && is_label(l) => format!("{l}={p}"),
        _ => p,
    });
    Some((value, approx))
}

/// `2516_{8}` (as the normaliser spells base-n numerals): (value, digits, base).
fn base_literal(s: &str) -> Option<(num_bigint::BigInt, &str, u32)> {
    let (digits, base) = s.split_once("_{")?;
    let base: u32 = base.strip_suffix('}')?.parse().ok()?;
    if !(2..=36).contains(&base) || digits.is_empty() || digits.len() > 256 {
        return None;
    }
    let value = num_bigint::BigInt::parse_bytes(digits.as_bytes(), base)?;
    Some((value, digits, base))
}

/// Base-n numerals compare by value (`2516_8` = `1358` = `2516_{8}`); the lenient preset also
/// accepts the same digits written without the base (`2516` for "express in base 8").
fn base_n(a: &str, b: &str, preset: Preset, depth: usize) -> Option<Comparison> {
    let (x, y) = (base_literal(a), base_literal(b));
    let show = |l: &Option<(num_bigint::BigInt, &str, u32)>, s: &str| match l {
        Some((v, d, n)) => (v.to_string(), format!("`{d}` in base {n} = {v}")),
        None => (s.to_string(), format!("`{s}`")),
    };
    if x.is_none() && y.is_none() {
        return None;
    }
    if preset == Preset::Lenient {
        let same_digits = match (&x, &y) {
            (Some((_, d, _)), None) => *d == b,
            (None, Some((_, d, _))) => *d == a,
            _ => false,
        };
        if same_digits {
            return Some(verdict(
                true,
                Path::BaseN,
                format!("`{a}` and `{b}`: the same digits, the base left implicit (lenient)"),
            ));
        }
    }
    let ((va, da), (vb, db)) = (show(&x, a), show(&y, b));
    let c = compare_at(&va, &vb, preset, depth + 1);
    Some(with_outcome(
        c.outcome,
        Path::BaseN,
        format!("{da} vs {db}: {}", c.reason),
    ))
}

/// Two equations with the same solution set up to rearrangement and a non-zero factor: the
/// differences `l − r` of both are proportional, `f_a = k·f_b` with one constant `k ≠ 0`, at
/// the symbolic comparison's sample points (a point where exactly one of them is zero, or a
/// ratio that changes, proves them different).
fn rearranged(a: (&str, &str), b: (&str, &str)) -> Option<Comparison> {
    let fa = expr::parse(&format!("({})-({})", a.0, a.1))?;
    let fb = expr::parse(&format!("({})-({})", b.0, b.1))?;
    if fa.vars.is_empty() || fb.vars.is_empty() {
        return None;
    }
    let names = shared_names(&fa, &fb);
    let assign = |e: &Expr, point: &[f64]| assign_point(&names, e, point);
    let (ta, tb) = (format!("{}={}", a.0, a.1), format!("{}={}", b.0, b.1));
    let mut rng = Xorshift(0x9E37_79B9_7F4A_7C15);
    let mut k: Option<f64> = None;
    let mut agreed = 0;
    for _ in 0..POINTS_TRIED {
        let point: Vec<f64> = names.iter().map(|_| rng.sample(false)).collect();
        let (Some(x), Some(y)) = (
            expr::eval(&fa.root, &assign(&fa, &point)).to_f64(),
            expr::eval(&fb.root, &assign(&fb, &point)).to_f64(),
        ) else {
            continue;
        };
        let different = |why: String| Some(verdict(false, Path::Rearranged, why));
        match (x == 0.0, y == 0.0) {
            (true, true) => {
                agreed += 1;
                continue;
            }
            (true, false) | (false, true) => {
                return different(format!(
                    "`{ta}` and `{tb}`: one side holds and the other not at a sample point"
                ))
            }
            _ => {}
        }
        let ratio = x / y;
        match k {
            None => k = Some(ratio),
            Some(k) if !close(k, ratio) => {
                return different(format!(
                    "`{ta}` and `{tb}` are not proportional: l − r ratios {} and {}",
                    float_str(k),
                    float_str(ratio)
                ))
            }
            _ => {}
        }
        agreed += 1;
        if agreed >= POINTS_NEEDED {
            let k = k.map_or_else(|| "1".to_string(), float_str);
            return Some(verdict(
                true,
                Path::Rearranged,
                format!(
                    "`{ta}` and `{tb}` are the same equation rearranged: l − r differ by the \
                     factor {k} at {agreed} sample points"
                ),
            ));
        }
    }
    Some(undecided(
        Path::Rearranged,
        format!("`{ta}` and `{tb}`: only {agreed} usable sample points ({POINTS_NEEDED} needed)"),
    ))
}

fn equation(a: &str, b: &str, preset: Preset, depth: usize) -> Option<Comparison> {
    let (ea, eb) = (sides(a), sides(b));
    let explain = |c: Comparison, what: &str| {
        with_outcome(c.outcome, Path::Equation, format!("{what}; {}", c.reason))
    };
    match (ea, eb) {
        (Some((la, ra)), Some((lb, rb))) => {
            let l = compare_at(la, lb, preset, depth + 1);
            let r = compare_at(ra, rb, preset, depth + 1);
            let sided = l.outcome.and(r.outcome);
            if sided != Outcome::Equal {
                // Not equal side by side; the same equation rearranged or scaled?
                if let Some(c) = rearranged((la, ra), (lb, rb)) {
                    if c.outcome != Outcome::Different || sided == Outcome::Different {
                        return Some(c);
                    }
                }
            }
            Some(with_outcome(
                sided,
                Path::Equation,
                format!("left sides: {}; right sides: {}", l.reason, r.reason),
            ))
        }
        (Some((la, ra)), None) if is_name(la) || numeric(la) => Some(explain(
            compare_at(ra, b, preset, depth + 1),
            &format!("`{a}` read as its value `{ra}`"),
        )),
        (None, Some((lb, rb))) if is_name(lb) || numeric(lb) => Some(explain(
            compare_at(a, rb, preset, depth + 1),
            &format!("`{b}` read as its value `{rb}`"),
        )),
        _ => None,
    }
}

fn numeric(s: &str) -> bool {
    expr::parse(s).is_some_and(|e| e.vars.is_empty())
}

fn digits_only(s: &str) -> Option<&str> {
    let body = s.strip_prefix('-').unwrap_or(s);
    (!body.is_empty() && body.bytes().all(|b| b.is_ascii_digit())).then_some(s)
}

fn strip_leading_zeros(s: &str) -> String {
    let (neg, body) = s.strip_prefix('-').map_or((false, s), |b| (true, b));
    let t = body.trim_start_matches('0');
    let t = if t.is_empty() { "0" } else { t };
    if neg && t != "0" {
        format!("-{t}")
    } else {
        t.to_string()
    }
}

fn close(x: f64, y: f64) -> bool {
    if !(x.is_finite() && y.is_finite()) {
        return false;
    }
    // Relative only: an absolute floor would make 1/2^200 equal 1/2^201.
    x == y || (x - y).abs() <= REL_TOL * x.abs().max(y.abs())
}

/// Decimal places written in a plain decimal literal (`0.33` → 2), if it is one.
fn decimal_places(s: &str) -> Option<usize> {
    parse_decimal(s)?;
    if s.contains(['e', 'E']) {
        return None;
    }
    s.split_once('.').map(|(_, f)| f.len())
}

fn rounds_to(value: f64, literal: f64, places: usize) -> bool {
    let Ok(p) = i32::try_from(places) else {
        return false;
    };
    let scale = 10f64.powi(p);
    ((value * scale).round() - (literal * scale).round()).abs() < 0.5
}

/// Exact rounding of a rational to `places` decimals (half away from zero), for the lenient
/// rounding rule when both values are exact (`0.33` vs `1/3`).
fn rounds_to_exact(value: &BigRational, literal: &BigRational, places: usize) -> bool {
    let Ok(p) = i64::try_from(places) else {
        return false;
    };
    let scale = pow10(p);
    (value * &scale).round() == (literal * &scale).round()
}

fn scalar(a: &str, b: &str, preset: Preset) -> Comparison {
    if let (Some(x), Some(y)) = (digits_only(a), digits_only(b)) {
        let (x, y) = (strip_leading_zeros(x), strip_leading_zeros(y));
        if x.len() > 30 || y.len() > 30 {
            return verdict(
                x == y,
                Path::BigInteger,
                format!("integers {x} vs {y} digit by digit"),
            );
        }
    }
    if has_word(a) || has_word(b) {
        return text(a, b, preset);
    }
    let (Some(ea), Some(eb)) = (expr::parse(a), expr::parse(b)) else {
        return text(a, b, preset);
    };
    let imaginary = |e: &Expr| e.vars.iter().any(|v| v == "i" || v == "I");
    if imaginary(&ea) || imaginary(&eb) {
        return complex(a, b, &ea, &eb);
    }
    if ea.vars.is_empty() && eb.vars.is_empty() {
        return constant(a, b, &ea, &eb, preset);
    }
    symbolic(a, b, &ea, &eb)
}

/// A Gaussian rational `re + im·i`.
type Gauss = (BigRational, BigRational);

/// Complex answers: `i` (or `I`) is the imaginary unit, and both sides are computed exactly
/// as Gaussian rationals (`+ − · /` and integer powers: `i^2` = −1, `\frac{1}{1+i}` =
/// `\frac{1-i}{2}`). Anything else with `i` in it — another variable beside it, `\sqrt{i}`,
/// `e^{i\pi}`, an irrational coefficient — is "could not decide": treating `i` as a real
/// variable made `i^2` differ from −1, so no verdict is safer than that one.
fn complex(a: &str, b: &str, ea: &Expr, eb: &Expr) -> Comparison {
    let only_i = |e: &Expr| e.vars.iter().all(|v| v == "i" || v == "I");
    if !only_i(ea) || !only_i(eb) {
        return undecided(
            Path::Complex,
            format!("`{a}` vs `{b}`: `i` beside other variables (complex analysis not supported)"),
        );
    }
    match (gauss(&ea.root), gauss(&eb.root)) {
        (Ok(x), Ok(y)) => {
            let show = |g: &Gauss| format!("{} + {}i", rational_text(&g.0), rational_text(&g.1));
            verdict(
                x == y,
                Path::Complex,
                format!(
                    "`{a}` = {}, `{b}` = {} (exact complex): {}",
                    show(&x),
                    show(&y),
                    same_or_not(x == y)
                ),
            )
        }
        (Err(why), _) | (_, Err(why)) => undecided(
            Path::Complex,
            format!("`{a}` vs `{b}`: {why}, beyond exact complex arithmetic"),
        ),
    }
}

/// Exact value of an expression whose variables all stand for `i`.
fn gauss(n: &Node) -> Result<Gauss, &'static str> {
    let bounded = |g: Gauss| {
        let bits = |r: &BigRational| r.numer().bits() + r.denom().bits();
        if bits(&g.0) + bits(&g.1) > super::number::MAX_EXACT_BITS {
            Err("a value past the exact size bound")
        } else {
            Ok(g)
        }
    };
    let zero = BigRational::zero;
    if !expr::mentions(n, None) {
        return match expr::eval(n, &[]) {
            Num::Exact(r) => Ok((r, zero())),
            _ => Err("a real part that is not an exact rational"),
        };
    }
    let mul =
        |x: &Gauss, y: &Gauss| bounded((&x.0 * &y.0 - &x.1 * &y.1, &x.0 * &y.1 + &x.1 * &y.0));
    let recip = |x: &Gauss| {
        let d = &x.0 * &x.0 + &x.1 * &x.1;
        if d.is_zero() {
            return Err("a division by zero");
        }
        bounded((&x.0 / &d, -&x.1 / &d))
    };
    match n {
        Node::Var(_) => Ok((zero(), BigRational::from_integer(1.into()))),
        Node::Neg(x) => gauss(x).map(|g| (-g.0, -g.1)),
        Node::Add(x, y) => {
            let (p, q) = (gauss(x)?, gauss(y)?);
            bounded((p.0 + q.0, p.1 + q.1))
        }
        Node::Sub(x, y) => {
            let (p, q) = (gauss(x)?, gauss(y)?);
            bounded((p.0 - q.0, p.1 - q.1))
        }
        Node::Mul(x, y) => mul(&gauss(x)?, &gauss(y)?),
        Node::Div(x, y) => mul(&gauss(x)?, &recip(&gauss(y)?)?),
        Node::Pow(x, e) => {
            let base = gauss(x)?;
            let k = match (expr::mentions(e, None), expr::eval(e, &[])) {
                (false, Num::Exact(k)) if k.is_integer() => k.to_integer(),
                _ => return Err("a power that is not an integer"),
            };
            let k: i64 = num_traits::ToPrimitive::to_i64(&k)
                .filter(|k| k.abs() <= 256)
                .ok_or("a power too large")?;
            let mut acc: Gauss = (BigRational::from_integer(1.into()), zero());
            for _ in 0..k.abs() {
                acc = mul(&acc, &base)?;
            }
            if k < 0 {
                recip(&acc)
            } else {
                Ok(acc)
            }
        }
        _ => Err("a function of `i`"),
    }
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

fn constant(a: &str, b: &str, ea: &Expr, eb: &Expr, preset: Preset) -> Comparison {
    let (x, y) = (expr::eval(&ea.root, &[]), expr::eval(&eb.root, &[]));
    match (&x, &y) {
        (Num::Exact(p), Num::Exact(q)) => {
            if p == q {
                return verdict(
                    true,
                    Path::ExactRational,
                    format!("`{a}` = {x}, `{b}` = {y}: equal"),
                );
            }
            if preset == Preset::Lenient {
                if let Some(c) = rounded_exact(a, b, p, q) {
                    return c;
                }
            }
            verdict(
                false,
                Path::ExactRational,
                format!("`{a}` = {x}, `{b}` = {y}: different"),
            )
        }
        // Past the size bound or a float overflow / underflow: no exact answer is available,
        // and a guess is what made `2^{128}` equal `2^{128}+1`.
        (Num::Unknown(_), _) | (_, Num::Unknown(_)) => {
            undecided(Path::ExactRational, format!("`{a}` is {x}, `{b}` is {y}"))
        }
        (Num::Undefined(_), Num::Undefined(_)) => undecided(
            Path::ExactRational,
            format!("`{a}` is {x} and `{b}` is {y}"),
        ),
        (Num::Undefined(_), _) | (_, Num::Undefined(_)) => verdict(
            false,
            Path::ExactRational,
            format!("`{a}` is {x}, `{b}` is {y}: different"),
        ),
        (Num::Infinity(s), Num::Infinity(t)) => verdict(
            s == t,
            Path::Infinity,
            format!("`{a}` = {x}, `{b}` = {y}: {}", same_or_not(s == t)),
        ),
        (Num::Infinity(_), _) | (_, Num::Infinity(_)) => verdict(
            false,
            Path::Infinity,
            format!("`{a}` = {x}, `{b}` = {y}: different"),
        ),
        _ => floats(a, b, &x, &y, preset),
    }
}

/// Lenient: a written decimal with ≥ 2 places equals an exact value (not another written
/// decimal: 1.50 is not 1.499) that rounds to it, compared exactly.
fn rounded_exact(a: &str, b: &str, p: &BigRational, q: &BigRational) -> Option<Comparison> {
    if written(a) == written(b) {
        return None;
    }
    for (lit, lv, other) in [(a, p, q), (b, q, p)] {
        if let Some(places) = decimal_places(lit).filter(|p| *p >= 2) {
            if rounds_to_exact(other, lv, places) {
                return Some(verdict(
                    true,
                    Path::Rounded,
                    format!(
                        "{} rounds to `{lit}` at {places} decimal places (lenient)",
                        Num::Exact(other.clone())
                    ),
                ));
            }
        }
    }
    None
}

fn written(s: &str) -> bool {
    decimal_places(s).is_some() || parse_decimal(s).is_some() || parse_decimal_big(s).is_some()
}

/// At least one side is a float (an irrational value). Two floats agree within relative 1e-9;
/// an exact value against a float may be a decimal approximation of an irrational, so the strict
/// preset does not accept it (`\pi` vs `3.1415926535`): it is "could not decide" when the two
/// agree to float precision, different otherwise.
fn floats(a: &str, b: &str, x: &Num, y: &Num, preset: Preset) -> Comparison {
    let (Some(fx), Some(fy)) = (x.to_f64(), y.to_f64()) else {
        return undecided(
            Path::Float,
            format!("`{a}` = {x} and `{b}` = {y} cannot be compared in floating point"),
        );
    };
    let mixed = x.is_exact() != y.is_exact();
    if close(fx, fy) {
        if mixed && preset == Preset::Strict {
            return undecided(
                Path::Float,
                format!(
                    "`{a}` = {x} and `{b}` = {y} agree to 1e-9, but one is exact and the other \
                     only known in floating point (strict)"
                ),
            );
        }
        return verdict(
            true,
            Path::Float,
            format!("`{a}` ≈ `{b}` = {} (relative 1e-9)", float_str(fy)),
        );
    }
    // Rounding only when one side is a written decimal and the other is not (two written
    // decimals are both exact: 1.50 is not 1.499).
    if preset == Preset::Lenient && written(a) != written(b) {
        for (lit, lv, other) in [(a, fx, fy), (b, fy, fx)] {
            if let Some(places) = decimal_places(lit).filter(|p| *p >= 2) {
                if rounds_to(other, lv, places) {
                    return verdict(
                        true,
                        Path::Rounded,
                        format!(
                            "{} rounds to `{lit}` at {places} decimal places (lenient)",
                            float_str(other)
                        ),
                    );
                }
            }
        }
    }
    verdict(
        false,
        Path::Float,
        format!("`{a}` = {x}, `{b}` = {y}: different"),
    )
}

/// A tiny deterministic xorshift so verdicts are reproducible everywhere (native and wasm).
struct Xorshift(u64);

impl Xorshift {
    fn next_unit(&mut self) -> f64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        (x >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A sample over the whole real line: either sign, magnitudes from 0.05 to 200 spread
    /// evenly in log scale (negatives tell `|x|` from `x`, values past 5 tell `|x-5|` from
    /// `5-x`). With `integers`, every third value is an integer in [-4, 20] (factorials).
    fn sample(&mut self, integers: bool) -> f64 {
        if integers && self.next_unit() < 0.34 {
            return (self.next_unit() * 25.0).floor() - 4.0;
        }
        let sign = if self.next_unit() < 0.5 { -1.0 } else { 1.0 };
        let magnitude = 10f64.powf(self.next_unit() * 3.6 - 1.3);
        sign * magnitude
    }
}

/// Points tried and agreeing points (both sides defined) needed for symbolic equality.
const POINTS_TRIED: usize = 60;
const POINTS_NEEDED: usize = 12;

fn has_integer_node(n: &Node) -> bool {
    use Node::*;
    match n {
        Fact(_) | Binom(..) => true,
        Neg(a) | Call(_, a) => has_integer_node(a),
        Add(a, b) | Sub(a, b) | Mul(a, b) | Div(a, b) | Pow(a, b) | Root(a, b) | LogBase(a, b) => {
            has_integer_node(a) || has_integer_node(b)
        }
        _ => false,
    }
}

/// The variables of both sides, sorted, once each: the coordinates of a sample point.
fn shared_names<'a>(a: &'a Expr, b: &'a Expr) -> Vec<&'a str> {
    let mut names: Vec<&str> = a.vars.iter().chain(&b.vars).map(String::as_str).collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// `e`'s variables' values at `point` (whose coordinates follow `names`); NaN for a name the
/// point lacks, so an unassigned variable can never make two sides agree.
fn assign_point(names: &[&str], e: &Expr, point: &[f64]) -> Vec<f64> {
    e.vars
        .iter()
        .map(|v| {
            names
                .iter()
                .position(|n| n == v)
                .and_then(|i| point.get(i).copied())
                .unwrap_or(f64::NAN)
        })
        .collect()
}

fn symbolic(a: &str, b: &str, ea: &Expr, eb: &Expr) -> Comparison {
    let names = shared_names(ea, eb);
    let assign = |e: &Expr, point: &[f64]| assign_point(&names, e, point);
    let integers = has_integer_node(&ea.root) || has_integer_node(&eb.root);
    let at = |point: &[f64]| {
        let p: Vec<String> = point.iter().map(|v| float_str(*v)).collect();
        format!("{names:?} = [{}]", p.join(", "))
    };
    let mut rng = Xorshift(0x9E37_79B9_7F4A_7C15);
    let mut agreed = 0;
    for _ in 0..POINTS_TRIED {
        let point: Vec<f64> = names.iter().map(|_| rng.sample(integers)).collect();
        let x = expr::eval(&ea.root, &assign(ea, &point));
        let y = expr::eval(&eb.root, &assign(eb, &point));
        match (&x, &y) {
            // Defined on one side only: the two are different functions.
            (Num::Undefined(_), Num::Exact(_) | Num::Real(_))
            | (Num::Exact(_) | Num::Real(_), Num::Undefined(_)) => {
                return verdict(
                    false,
                    Path::Symbolic,
                    format!("`{a}` = {x} but `{b}` = {y} at {}", at(&point)),
                );
            }
            (Num::Exact(_) | Num::Real(_), Num::Exact(_) | Num::Real(_)) => {}
            // Undefined on both sides, too big or infinite: this point says nothing.
            _ => continue,
        }
        let (Some(fx), Some(fy)) = (x.to_f64(), y.to_f64()) else {
            continue;
        };
        if !close(fx, fy) {
            return verdict(
                false,
                Path::Symbolic,
                format!(
                    "`{a}` = {} but `{b}` = {} at {}",
                    float_str(fx),
                    float_str(fy),
                    at(&point)
                ),
            );
        }
        agreed += 1;
        if agreed >= POINTS_NEEDED {
            return verdict(
                true,
                Path::Symbolic,
                format!(
                    "`{a}` and `{b}` agree at {agreed} sample points across the real line, both \
                     sides defined at each"
                ),
            );
        }
    }
    undecided(
        Path::Symbolic,
        format!(
            "`{a}` and `{b}` are both defined at only {agreed} of {POINTS_TRIED} sample points \
             ({POINTS_NEEDED} needed)"
        ),
    )
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
mod tests {
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
}
