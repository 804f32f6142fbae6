//! Exact rational arithmetic for `algebra` and `linarith` steps.
//!
//! Numbers are `i128` fractions with checked operations: an overflow is reported, never wrapped,
//! and the step is then rejected as "could not be checked" rather than accepted on a guess.

use thiserror::Error;

use crate::extract::number::{parse_decimal, Rational};
use crate::sorted_map::SortedMap;

use super::formula::{ArithOp, Formula, RelOp, Term};

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ArithError {
    #[error("arithmetic overflow (numbers too large for exact checking)")]
    Overflow,
    #[error("division by zero")]
    DivisionByZero,
    #[error("unsupported term: {0}")]
    Unsupported(String),
    #[error("search budget exceeded ({0})")]
    Budget(String),
}

/// An exact fraction, always reduced, denominator positive.
///
/// The arithmetic is the answer grader's `Rational` (the same i128 code, once in the wasm), with
/// this module's error type: `None` from a checked operation is an overflow here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rat(Rational);

// Checked operations return `Result`, so they cannot be the `std::ops` traits.
#[allow(clippy::should_implement_trait)]
impl Rat {
    pub const ZERO: Rat = Rat(Rational::ZERO);
    pub const ONE: Rat = Rat(Rational::ONE);

    pub fn new(num: i128, den: i128) -> Result<Rat, ArithError> {
        if den == 0 {
            return Err(ArithError::DivisionByZero);
        }
        Rational::new(num, den).map(Rat).ok_or(ArithError::Overflow)
    }
    pub fn int(n: i128) -> Rat {
        Rat(Rational::from_int(n))
    }
    fn num(self) -> i128 {
        self.0.numer()
    }
    fn den(self) -> i128 {
        self.0.denom()
    }
    pub fn is_zero(self) -> bool {
        self.num() == 0
    }
    pub fn is_positive(self) -> bool {
        self.num() > 0
    }
    pub fn is_negative(self) -> bool {
        self.num() < 0
    }
    pub fn add(self, o: Rat) -> Result<Rat, ArithError> {
        self.0.checked_add(o.0).map(Rat).ok_or(ArithError::Overflow)
    }
    pub fn neg(self) -> Result<Rat, ArithError> {
        self.0.checked_neg().map(Rat).ok_or(ArithError::Overflow)
    }
    pub fn sub(self, o: Rat) -> Result<Rat, ArithError> {
        self.add(o.neg()?)
    }
    pub fn mul(self, o: Rat) -> Result<Rat, ArithError> {
        self.0.checked_mul(o.0).map(Rat).ok_or(ArithError::Overflow)
    }
    pub fn recip(self) -> Result<Rat, ArithError> {
        Rat::new(self.den(), self.num())
    }
    pub fn div(self, o: Rat) -> Result<Rat, ArithError> {
        self.mul(o.recip()?)
    }
    pub fn pow(self, e: i128) -> Result<Rat, ArithError> {
        if e.unsigned_abs() > 256 {
            return Err(ArithError::Overflow);
        }
        let mut out = Rat::ONE;
        for _ in 0..e.unsigned_abs() {
            out = out.mul(self)?;
        }
        if e < 0 {
            out.recip()
        } else {
            Ok(out)
        }
    }
    /// Parses `12`, `2.5`, `-3/4`.
    pub fn parse(s: &str) -> Result<Rat, ArithError> {
        let s = s.trim();
        if let Some((a, b)) = s.split_once('/') {
            return Rat::parse(a)?.div(Rat::parse(b)?);
        }
        let digits = s.strip_prefix('-').unwrap_or(s);
        let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
        if int.is_empty() && frac.is_empty()
            || !int.chars().chain(frac.chars()).all(|c| c.is_ascii_digit())
        {
            return Err(ArithError::Unsupported(format!("number '{s}'")));
        }
        // A plain decimal now, which the grader's exact reader takes; it fails only on overflow.
        parse_decimal(s).map(Rat).ok_or(ArithError::Overflow)
    }
}

impl std::fmt::Display for Rat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

// ---------------------------------------------------------------- coefficient maps

// Maps here are `crate::sorted_map::SortedMap`s: ordering compares the pairs in key order, so
// a `Monomial` sorts exactly as the `BTreeMap<String, u32>` it replaced did, and a `Poly` is
// walked in the same order.

impl<K: Ord + Clone> SortedMap<K, Rat> {
    /// Adds `delta` to the value of `key` (a missing key counts as 0) and drops the entry when
    /// the sum is 0, so that a map never holds a zero coefficient.
    fn add(&mut self, key: &K, delta: Rat) -> Result<(), ArithError> {
        let slot = self.slot(key);
        let entries = self.entries_mut();
        match slot {
            Ok(i) => {
                let sum = entries[i].1.add(delta)?;
                if sum.is_zero() {
                    entries.remove(i);
                } else {
                    entries[i].1 = sum;
                }
            }
            // 0 + delta is delta itself (Rat values are always reduced).
            Err(i) if !delta.is_zero() => entries.insert(i, (key.clone(), delta)),
            Err(_) => {}
        }
        Ok(())
    }
}

// ---------------------------------------------------------------- random evaluation (`algebra`)

/// Fixed-seed generator so that every run checks the same points.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn value(&mut self, range: u64) -> Rat {
        let n = (self.next() % (2 * range + 1)) as i128 - range as i128;
        // Mostly integers, sometimes halves and thirds, to catch denominators.
        let den = [1, 1, 1, 2, 3][(self.next() % 5) as usize];
        Rat::new(n, den).unwrap_or(Rat::ONE)
    }
}

/// Evaluation points per `algebra` check and the seed that fixes them.
pub const ALGEBRA_POINTS: usize = 12;
pub const ALGEBRA_SEED: u64 = 0x5eed_1234_abcd_0001;
const ALGEBRA_ATTEMPTS: usize = 200;

fn eval(
    t: &Term,
    point: &mut SortedMap<String, Rat>,
    rng: &mut Rng,
    range: u64,
) -> Result<Rat, ArithError> {
    match t {
        Term::Number(n) => Rat::parse(n),
        Term::Name(_) | Term::App(..) => {
            let key = t.canonical();
            if let Some(v) = point.get(&key) {
                return Ok(*v);
            }
            let v = rng.value(range);
            point.insert(key, v);
            Ok(v)
        }
        Term::Neg(x) => eval(x, point, rng, range)?.neg(),
        Term::Arith(op, a, b) => {
            let x = eval(a, point, rng, range)?;
            let y = eval(b, point, rng, range)?;
            match op {
                ArithOp::Add => x.add(y),
                ArithOp::Sub => x.sub(y),
                ArithOp::Mul => x.mul(y),
                ArithOp::Div => x.div(y),
                ArithOp::Pow => {
                    if y.den() != 1 {
                        return Err(ArithError::Unsupported(format!(
                            "non-integer exponent in {}",
                            t.canonical()
                        )));
                    }
                    x.pow(y.num())
                }
            }
        }
    }
}

/// Values of `d` at the fixed pseudo-random points (points where `d` is undefined are skipped).
/// Several differences are evaluated at the same points so that their ratio can be compared.
pub fn sample(diffs: &[&Term]) -> Result<Vec<Vec<Rat>>, ArithError> {
    let mut rng = Rng(ALGEBRA_SEED);
    let mut rows = Vec::new();
    let mut last_err = None;
    for attempt in 0..ALGEBRA_ATTEMPTS {
        if rows.len() >= ALGEBRA_POINTS {
            break;
        }
        // Shrink the range when large values overflow (high powers).
        let range = match attempt {
            0..=39 => 1000,
            40..=99 => 30,
            _ => 4,
        };
        let mut point = SortedMap::new();
        // Names in exponents (`x^{n+1}`) get small natural numbers: an exponent must be an
        // integer, and `x^{700}` would only overflow.
        for name in exponent_names(diffs) {
            let n = (rng.next() % 6) as i128;
            point.insert(name, Rat::new(n, 1).unwrap_or(Rat::ONE));
        }
        let row: Result<Vec<Rat>, ArithError> = diffs
            .iter()
            .map(|d| eval(d, &mut point, &mut rng, range))
            .collect();
        match row {
            Ok(r) => rows.push(r),
            Err(e @ ArithError::Unsupported(_)) => return Err(e),
            Err(e) => last_err = Some(e),
        }
    }
    if rows.len() < ALGEBRA_POINTS {
        return Err(last_err.unwrap_or(ArithError::Budget("too few evaluation points".into())));
    }
    Ok(rows)
}

/// Every name (or application) that occurs inside an exponent of one of `terms`.
fn exponent_names(terms: &[&Term]) -> Vec<String> {
    fn walk(t: &Term, in_exponent: bool, out: &mut Vec<String>) {
        match t {
            Term::Number(_) => {}
            Term::Name(_) | Term::App(..) => {
                let key = t.canonical();
                if in_exponent && !out.contains(&key) {
                    out.push(key);
                }
            }
            Term::Neg(x) => walk(x, in_exponent, out),
            Term::Arith(op, a, b) => {
                walk(a, in_exponent, out);
                walk(b, in_exponent || *op == ArithOp::Pow, out);
            }
        }
    }
    let mut out = Vec::new();
    for t in terms {
        walk(t, false, &mut out);
    }
    out
}

/// `l - r` as a term.
pub fn difference(l: &Term, r: &Term) -> Term {
    Term::Arith(ArithOp::Sub, Box::new(l.clone()), Box::new(r.clone()))
}

// ---------------------------------------------------------------- linear forms (`linarith`)

/// A product of atoms with exponents, e.g. `A·B²`; the empty monomial is the constant 1.
type Monomial = SortedMap<String, u32>;
type Poly = SortedMap<Monomial, Rat>;

const MAX_POLY_TERMS: usize = 400;

fn poly_const(r: Rat) -> Poly {
    let mut p = Poly::new();
    if !r.is_zero() {
        p.insert(Monomial::new(), r);
    }
    p
}

fn poly_atom(key: String) -> Poly {
    let mut m = Monomial::new();
    m.insert(key, 1);
    let mut p = Poly::new();
    p.insert(m, Rat::ONE);
    p
}

fn poly_add(mut a: Poly, b: &Poly, sign: Rat) -> Result<Poly, ArithError> {
    for (m, c) in b.iter() {
        a.add(m, c.mul(sign)?)?;
    }
    Ok(a)
}

fn poly_mul(a: &Poly, b: &Poly) -> Result<Poly, ArithError> {
    if a.len().saturating_mul(b.len()) > MAX_POLY_TERMS * 4 {
        return Err(ArithError::Budget("polynomial too large".into()));
    }
    let mut out = Poly::new();
    for (ma, ca) in a.iter() {
        for (mb, cb) in b.iter() {
            let mut m = ma.clone();
            for (k, e) in mb.iter() {
                *m.get_or_default(k) += e;
            }
            out.add(&m, ca.mul(*cb)?)?;
        }
    }
    if out.len() > MAX_POLY_TERMS {
        return Err(ArithError::Budget("polynomial too large".into()));
    }
    Ok(out)
}

fn constant_of(p: &Poly) -> Option<Rat> {
    match p.len() {
        0 => Some(Rat::ZERO),
        1 => p.get(&Monomial::new()).copied(),
        _ => None,
    }
}

/// Expands a term into a polynomial; divisions by non-constants and odd powers stay opaque atoms.
fn poly_of(t: &Term) -> Result<Poly, ArithError> {
    match t {
        Term::Number(n) => Ok(poly_const(Rat::parse(n)?)),
        Term::Name(_) | Term::App(..) => Ok(poly_atom(t.canonical())),
        Term::Neg(x) => poly_add(Poly::new(), &poly_of(x)?, Rat::int(-1)),
        Term::Arith(op, a, b) => {
            let (pa, pb) = (poly_of(a)?, poly_of(b)?);
            match op {
                ArithOp::Add => poly_add(pa, &pb, Rat::ONE),
                ArithOp::Sub => poly_add(pa, &pb, Rat::int(-1)),
                ArithOp::Mul => poly_mul(&pa, &pb),
                ArithOp::Div => match constant_of(&pb) {
                    Some(c) if !c.is_zero() => poly_mul(&pa, &poly_const(c.recip()?)),
                    Some(_) => Err(ArithError::DivisionByZero),
                    None => Ok(poly_atom(t.canonical())),
                },
                ArithOp::Pow => match (constant_of(&pa), constant_of(&pb)) {
                    // A constant power such as 2^{-1} is a number.
                    (Some(base), Some(e)) if e.den() == 1 => Ok(poly_const(base.pow(e.num())?)),
                    (_, Some(e)) if e.den() == 1 && (0..=12).contains(&e.num()) => {
                        let mut out = poly_const(Rat::ONE);
                        for _ in 0..e.num() {
                            out = poly_mul(&out, &pa)?;
                        }
                        Ok(out)
                    }
                    _ => Ok(poly_atom(t.canonical())),
                },
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Strictness {
    /// `expr < 0`
    Lt,
    /// `expr ≤ 0`
    Le,
    /// `expr = 0`
    Eq,
}

/// `Σ coef·atom + constant ⋈ 0`, non-linear monomials counted as atoms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    pub coefs: SortedMap<String, Rat>,
    pub constant: Rat,
    pub kind: Strictness,
}

fn monomial_key(m: &Monomial) -> String {
    m.iter()
        .map(|(k, e)| {
            if *e == 1 {
                k.clone()
            } else {
                format!("{k}^{e}")
            }
        })
        .collect::<Vec<_>>()
        .join("·")
}

/// `l - r ⋈ 0` as a constraint.
pub fn constraint(l: &Term, r: &Term, kind: Strictness) -> Result<Constraint, ArithError> {
    let p = poly_add(poly_of(l)?, &poly_of(r)?, Rat::int(-1))?;
    let mut coefs = SortedMap::new();
    let mut constant = Rat::ZERO;
    for (m, c) in p {
        if m.is_empty() {
            constant = c;
        } else {
            coefs.insert(monomial_key(&m), c);
        }
    }
    Ok(Constraint {
        coefs,
        constant,
        kind,
    })
}

/// `a op b` as one constraint; `None` for `≠`, which no single constraint states.
fn rel_constraint(op: RelOp, a: &Term, b: &Term) -> Result<Option<Constraint>, ArithError> {
    let (l, r, kind) = match op {
        RelOp::Lt => (a, b, Strictness::Lt),
        RelOp::Le => (a, b, Strictness::Le),
        RelOp::Gt => (b, a, Strictness::Lt),
        RelOp::Ge => (b, a, Strictness::Le),
        RelOp::Eq => (a, b, Strictness::Eq),
        RelOp::Ne => return Ok(None),
    };
    constraint(l, r, kind).map(Some)
}

/// The relation that holds exactly when `op` does not (`<` ↔ `≥`, `=` ↔ `≠`).
fn negated(op: RelOp) -> RelOp {
    match op {
        RelOp::Lt => RelOp::Ge,
        RelOp::Le => RelOp::Gt,
        RelOp::Gt => RelOp::Le,
        RelOp::Ge => RelOp::Lt,
        RelOp::Eq => RelOp::Ne,
        RelOp::Ne => RelOp::Eq,
    }
}

/// What a comparison says, as constraints that all hold (None: not usable, e.g. `≠`).
pub fn constraints_of(f: &Formula) -> Result<Option<Vec<Constraint>>, ArithError> {
    Ok(match f {
        Formula::Rel(op, a, b) => rel_constraint(*op, a, b)?.map(|c| vec![c]),
        Formula::Not(inner) => match inner.as_ref() {
            Formula::Rel(op, a, b) => rel_constraint(negated(*op), a, b)?.map(|c| vec![c]),
            _ => None,
        },
        Formula::And(a, b) => match (constraints_of(a)?, constraints_of(b)?) {
            (Some(mut x), Some(y)) => {
                x.extend(y);
                Some(x)
            }
            (x, y) => x.or(y),
        },
        Formula::Top => Some(Vec::new()),
        _ => None,
    })
}

/// The ways the conclusion could fail: each alternative is a set of constraints that must be
/// refuted. `⊥` gives one empty alternative; `a = b` fails as `a < b` or `a > b`.
pub fn negations_of(f: &Formula) -> Result<Option<Vec<Vec<Constraint>>>, ArithError> {
    Ok(match f {
        Formula::Bottom => Some(vec![Vec::new()]),
        Formula::Rel(RelOp::Eq, a, b) => Some(vec![
            vec![constraint(a, b, Strictness::Lt)?],
            vec![constraint(b, a, Strictness::Lt)?],
        ]),
        // The negation of any other relation is a single constraint (that of `≠` is `=`).
        Formula::Rel(op, a, b) => rel_constraint(negated(*op), a, b)?.map(|c| vec![vec![c]]),
        Formula::Not(inner) => constraints_of(inner)?.map(|cs| vec![cs]),
        Formula::And(a, b) => match (negations_of(a)?, negations_of(b)?) {
            (Some(mut x), Some(y)) => {
                x.extend(y);
                Some(x)
            }
            _ => None,
        },
        _ => None,
    })
}

/// Fourier–Motzkin budget: the most constraints alive at once.
pub const FM_MAX_CONSTRAINTS: usize = 5_000;

fn scale(c: &Constraint, k: Rat) -> Result<Constraint, ArithError> {
    let mut coefs = SortedMap::new();
    for (a, v) in c.coefs.iter() {
        let x = v.mul(k)?;
        if !x.is_zero() {
            coefs.insert(a.clone(), x);
        }
    }
    Ok(Constraint {
        coefs,
        constant: c.constant.mul(k)?,
        kind: c.kind,
    })
}

fn combine(a: &Constraint, b: &Constraint) -> Result<Constraint, ArithError> {
    let mut coefs = a.coefs.clone();
    for (k, v) in b.coefs.iter() {
        coefs.add(k, *v)?;
    }
    let kind = a.kind.min(b.kind);
    Ok(Constraint {
        coefs,
        constant: a.constant.add(b.constant)?,
        kind,
    })
}

/// Keeps numbers small: scale so that the first coefficient is ±1.
fn normalise(c: Constraint) -> Result<Constraint, ArithError> {
    match c.coefs.iter().next().map(|(_, v)| *v) {
        Some(first) => {
            let k = if first.is_negative() {
                first.neg()?.recip()?
            } else {
                first.recip()?
            };
            let k = if c.kind == Strictness::Eq {
                first.recip()?
            } else {
                k
            };
            scale(&c, k)
        }
        None => Ok(c),
    }
}

fn contradictory(c: &Constraint) -> bool {
    c.coefs.is_empty()
        && match c.kind {
            Strictness::Lt => !c.constant.is_negative(),
            Strictness::Le => c.constant.is_positive(),
            Strictness::Eq => !c.constant.is_zero(),
        }
}

/// True when the constraints have no solution over the rationals (Fourier–Motzkin).
pub fn infeasible(constraints: &[Constraint]) -> Result<bool, ArithError> {
    let mut work: Vec<Constraint> = constraints.to_vec();
    // Equalities first: solve for one atom and substitute it everywhere.
    while let Some(i) = work
        .iter()
        .position(|c| c.kind == Strictness::Eq && !c.coefs.is_empty())
    {
        let eq = work.swap_remove(i);
        let Some((atom, coef)) = eq.coefs.iter().next().map(|(a, c)| (a.clone(), *c)) else {
            break;
        };
        let mut next = Vec::with_capacity(work.len());
        for c in work {
            match c.coefs.get(&atom).copied() {
                Some(v) => next.push(combine(&c, &scale(&eq, v.div(coef)?.neg()?)?)?),
                None => next.push(c),
            }
        }
        work = next;
    }
    if work.iter().any(contradictory) {
        return Ok(true);
    }
    work.retain(|c| !c.coefs.is_empty());
    loop {
        if work.iter().any(contradictory) {
            return Ok(true);
        }
        // Every atom still present, sorted and without repeats (a Vec: no BTreeSet code in wasm).
        let mut atoms: Vec<String> = work
            .iter()
            .flat_map(|c| c.coefs.iter().map(|(a, _)| a.clone()))
            .collect();
        atoms.sort();
        atoms.dedup();
        // Eliminate the atom that creates the fewest new constraints.
        let best = atoms
            .iter()
            .map(|a| {
                let pos = work
                    .iter()
                    .filter(|c| c.coefs.get(a).is_some_and(|v| v.is_positive()))
                    .count();
                let neg = work
                    .iter()
                    .filter(|c| c.coefs.get(a).is_some_and(|v| v.is_negative()))
                    .count();
                (pos * neg, a.clone())
            })
            .min();
        let Some((_, atom)) = best else {
            return Ok(false);
        };
        let (mut pos, mut neg, mut rest) = (Vec::new(), Vec::new(), Vec::new());
        for c in work {
            match c.coefs.get(&atom).copied() {
                Some(v) if v.is_positive() => pos.push(scale(&c, v.recip()?)?),
                Some(v) if v.is_negative() => neg.push(scale(&c, v.neg()?.recip()?)?),
                _ => rest.push(c),
            }
        }
        if rest.len() + pos.len() * neg.len() > FM_MAX_CONSTRAINTS {
            return Err(ArithError::Budget(format!(
                "more than {FM_MAX_CONSTRAINTS} constraints"
            )));
        }
        for p in &pos {
            for n in &neg {
                let c = normalise(combine(p, n)?)?;
                if contradictory(&c) {
                    return Ok(true);
                }
                if !c.coefs.is_empty() && !rest.contains(&c) {
                    rest.push(c);
                }
            }
        }
        work = rest;
    }
}

/// Farkas check: non-negative multipliers (any sign on equalities) whose combination of the
/// constraints cancels every atom and leaves a false constant comparison.
pub fn certificate_refutes(
    constraints: &[Constraint],
    multipliers: &[Rat],
) -> Result<bool, String> {
    if constraints.len() != multipliers.len() {
        return Err(format!(
            "the certificate has {} multipliers for {} constraints (premises in order, then the negated conclusion)",
            multipliers.len(),
            constraints.len()
        ));
    }
    let mut sum = Constraint {
        coefs: SortedMap::new(),
        constant: Rat::ZERO,
        kind: Strictness::Eq,
    };
    for (c, m) in constraints.iter().zip(multipliers) {
        if m.is_negative() && c.kind != Strictness::Eq {
            return Err(format!("multiplier {m} is negative on an inequality"));
        }
        if m.is_zero() {
            continue;
        }
        let scaled = scale(c, *m).map_err(|e| e.to_string())?;
        sum = combine(&sum, &scaled).map_err(|e| e.to_string())?;
    }
    Ok(contradictory(&sum))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::formula::parse_formula;

    fn f(s: &str) -> Formula {
        parse_formula(s).unwrap_or(Formula::Top)
    }

    fn cs(s: &str) -> Vec<Constraint> {
        constraints_of(&f(s)).ok().flatten().unwrap_or_default()
    }

    #[test]
    fn rationals_are_exact_and_overflow_is_reported() {
        let third = Rat::new(1, 3).unwrap_or(Rat::ZERO);
        assert_eq!(third.add(third).and_then(|x| x.add(third)), Ok(Rat::ONE));
        assert_eq!(Rat::parse("2.5"), Rat::new(5, 2));
        assert_eq!(Rat::int(i128::MAX).add(Rat::ONE), Err(ArithError::Overflow));
        assert_eq!(Rat::ONE.div(Rat::ZERO), Err(ArithError::DivisionByZero));
        assert_eq!(Rat::int(10).pow(200), Err(ArithError::Overflow));
        // Reduced even at the edge of i128 (the old own gcd left -2^127/2 unreduced).
        assert_eq!(Rat::new(i128::MIN, 2), Ok(Rat::int(i128::MIN / 2)));
    }

    #[test]
    fn numbers_parse_exactly_and_say_why_not() {
        let r = |n, d| Rat::new(n, d);
        let unsupported = |s: &str| Err(ArithError::Unsupported(format!("number '{s}'")));
        assert_eq!(Rat::parse(" 12 "), r(12, 1));
        assert_eq!(Rat::parse("-3/4"), r(-3, 4));
        assert_eq!(Rat::parse(".5"), r(1, 2));
        assert_eq!(Rat::parse("5."), r(5, 1));
        assert_eq!(Rat::parse("-0.250"), r(-1, 4));
        assert_eq!(Rat::parse("1/0"), Err(ArithError::DivisionByZero));
        for bad in ["-", ".", "1e3", "+5", "1.2.3", "--5", ""] {
            assert_eq!(Rat::parse(bad), unsupported(bad), "{bad}");
        }
        let long = "1".repeat(40);
        assert_eq!(Rat::parse(&long), Err(ArithError::Overflow));
        let tiny = format!("0.{}1", "0".repeat(38));
        assert_eq!(Rat::parse(&tiny), Err(ArithError::Overflow));
    }

    #[test]
    fn fourier_motzkin_finds_contradictions() {
        let mut all = cs("a < b");
        all.extend(cs("b < a"));
        assert_eq!(infeasible(&all), Ok(true));
        let mut ok = cs("a < b");
        ok.extend(cs("b < c"));
        assert_eq!(infeasible(&ok), Ok(false));
        let mut eq = cs("x = 2 \\cdot y");
        eq.extend(cs("y = 3"));
        eq.extend(cs("x > 6"));
        assert_eq!(infeasible(&eq), Ok(true));
        // Non-linear monomials are atoms: A·B > 0 and A·B < 0 clash.
        let mut nl = cs("A \\cdot B > 0");
        nl.extend(cs("B \\cdot A < 0"));
        assert_eq!(infeasible(&nl), Ok(true));
    }

    #[test]
    fn farkas_certificates_are_checked() {
        let mut all = cs("a < b");
        all.extend(cs("b < a"));
        assert_eq!(certificate_refutes(&all, &[Rat::ONE, Rat::ONE]), Ok(true));
        assert_eq!(
            certificate_refutes(&all, &[Rat::ONE, Rat::int(2)]),
            Ok(false)
        );
        assert!(certificate_refutes(&all, &[Rat::ONE, Rat::int(-1)]).is_err());
        assert!(certificate_refutes(&all, &[Rat::ONE]).is_err());
    }

    #[test]
    fn sorted_maps_order_like_btreemaps() {
        // Polynomials are walked in monomial order, so a Monomial must sort exactly as the
        // BTreeMap<String, u32> it replaced.
        let raw: [&[(&str, u32)]; 6] = [
            &[],
            &[("a", 1)],
            &[("a", 2)],
            &[("a", 1), ("b", 1)],
            &[("b", 1)],
            &[("a", 1), ("b", 3), ("c", 1)],
        ];
        let mut ours: Vec<Monomial> = Vec::new();
        let mut theirs: Vec<std::collections::BTreeMap<String, u32>> = Vec::new();
        for pairs in raw.iter().rev() {
            let mut m = Monomial::new();
            for (k, e) in pairs.iter().rev() {
                m.insert(k.to_string(), *e);
            }
            ours.push(m);
            theirs.push(pairs.iter().map(|(k, e)| (k.to_string(), *e)).collect());
        }
        ours.sort();
        theirs.sort();
        let ours: Vec<Vec<(String, u32)>> =
            ours.into_iter().map(|m| m.into_iter().collect()).collect();
        let theirs: Vec<Vec<(String, u32)>> = theirs
            .into_iter()
            .map(|m| m.into_iter().collect())
            .collect();
        assert_eq!(ours, theirs);
    }

    #[test]
    fn sampling_is_deterministic() {
        let t = Term::Name("x".into());
        let a = sample(&[&t]);
        let b = sample(&[&t]);
        assert_eq!(a, b);
        assert_eq!(a.map(|r| r.len()), Ok(ALGEBRA_POINTS));
    }
}
