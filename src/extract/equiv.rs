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
    NoAnswer,
}

impl Path {
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
    compare_at(pred, gold, preset, 0)
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
    // `x \in (0,\infty)`, `3 \le x \le 5`, `x > 3`: the set they describe, as an interval.
    let (ia, ib) = (as_interval(a), as_interval(b));
    if ia.is_some() || ib.is_some() {
        let a2 = ia.unwrap_or_else(|| a.to_string());
        let b2 = ib.unwrap_or_else(|| b.to_string());
        let c = compare_at(&a2, &b2, preset, depth + 1);
        let reason = format!("as intervals `{a2}` vs `{b2}`: {}", c.reason);
        return with_outcome(c.outcome, c.path, reason);
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
    if s.contains("\\begin{") && s.contains("matrix}") {
        if let Some(m) = matrix(s) {
            return Shape::Matrix(m);
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
    // `5 and 7`: a list when every part is a value, not words.
    let items = if s.contains(" and ") {
        split_top(s, " and ")
    } else {
        Vec::new()
    };
    if items.len() >= 2 && items.iter().all(|i| !i.is_empty() && !has_word(i)) {
        return Shape::List(items);
    }
    Shape::Scalar
}

fn matrix(s: &str) -> Option<Vec<Vec<String>>> {
    let start = s.find("matrix}")? + "matrix}".len();
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

/// The interval a set-builder answer describes: `x \in S` → `S`; one variable bounded by
/// numbers, `a \le x < b` → `[a,b)`, `x > a` → `(a,\infty)`. `None` for anything else.
fn as_interval(s: &str) -> Option<String> {
    // The hot path: most answers have no relation at all.
    if !s.contains(['<', '>', '\\', '≤', '≥']) {
        return None;
    }
    // `\in` itself, not the start of `\infty` or `\int`.
    let member = s
        .match_indices("\\in")
        .map(|(i, _)| i)
        .find(|&i| !s[i + 3..].starts_with(|c: char| c.is_ascii_alphabetic()));
    if let Some(i) = member {
        let name = s.get(..i)?.trim();
        return is_name(name).then(|| s[i + 3..].trim().to_string());
    }
    // Split into operands and relations: `3`, `\le`, `x`, `\le`, `5`.
    let mut parts: Vec<&str> = Vec::new();
    let mut rels: Vec<(bool, bool)> = Vec::new(); // (less-than direction, inclusive)
    let mut rest = s;
    loop {
        let next = RELATIONS
            .iter()
            .filter_map(|&(op, less, incl)| rest.find(op).map(|at| (at, op, less, incl)))
            .min_by_key(|&(at, op, ..)| (at, std::cmp::Reverse(op.len())));
        match next {
            Some((at, op, less, incl)) => {
                parts.push(rest.get(..at)?.trim());
                rels.push((less, incl));
                rest = rest.get(at + op.len()..)?;
            }
            None => {
                parts.push(rest.trim());
                break;
            }
        }
    }
    let bound = |p: &str| !p.is_empty() && (numeric(p) || p.contains("\\infty"));
    let (lo, hi) = match (parts.as_slice(), rels.as_slice()) {
        // x < b, x > a
        ([v, n], [(less, incl)]) if is_name(v) && bound(n) => {
            if *less {
                (("(", "-\\infty"), (if *incl { "]" } else { ")" }, *n))
            } else {
                ((if *incl { "[" } else { "(" }, *n), (")", "\\infty"))
            }
        }
        // a < x, a > x
        ([n, v], [(less, incl)]) if is_name(v) && bound(n) => {
            if *less {
                ((if *incl { "[" } else { "(" }, *n), (")", "\\infty"))
            } else {
                (("(", "-\\infty"), (if *incl { "]" } else { ")" }, *n))
            }
        }
        // a < x < b (both relations the same way)
        ([a, v, b], [(l1, i1), (l2, i2)]) if is_name(v) && bound(a) && bound(b) && l1 == l2 => {
            let (low, low_incl, high, high_incl) =
                if *l1 { (a, i1, b, i2) } else { (b, i2, a, i1) };
            (
                (if *low_incl { "[" } else { "(" }, *low),
                (if *high_incl { "]" } else { ")" }, *high),
            )
        }
        _ => return None,
    };
    Some(format!("{}{},{}{}", lo.0, lo.1, hi.1, hi.0))
}

/// Relation spellings after normalisation: (text, points from smaller to larger, inclusive).
const RELATIONS: &[(&str, bool, bool)] = &[
    ("\\leq", true, true),
    ("\\le", true, true),
    ("\\geq", false, true),
    ("\\ge", false, true),
    ("≤", true, true),
    ("≥", false, true),
    ("<=", true, true),
    (">=", false, true),
    ("<", true, false),
    (">", false, false),
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

fn equation(a: &str, b: &str, preset: Preset, depth: usize) -> Option<Comparison> {
    let (ea, eb) = (sides(a), sides(b));
    let explain = |c: Comparison, what: &str| {
        with_outcome(c.outcome, Path::Equation, format!("{what}; {}", c.reason))
    };
    match (ea, eb) {
        (Some((la, ra)), Some((lb, rb))) => {
            let l = compare_at(la, lb, preset, depth + 1);
            let r = compare_at(ra, rb, preset, depth + 1);
            Some(with_outcome(
                l.outcome.and(r.outcome),
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
    if ea.vars.is_empty() && eb.vars.is_empty() {
        return constant(a, b, &ea, &eb, preset);
    }
    symbolic(a, b, &ea, &eb)
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

fn symbolic(a: &str, b: &str, ea: &Expr, eb: &Expr) -> Comparison {
    let mut names: Vec<&str> = ea.vars.iter().chain(&eb.vars).map(String::as_str).collect();
    names.sort_unstable();
    names.dedup();
    let assign = |e: &Expr, point: &[f64]| -> Vec<f64> {
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
    };
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
