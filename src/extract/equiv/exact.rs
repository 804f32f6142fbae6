//! Exact evaluation for the strict preset (docs/extract.md, "Strict means exact"): an
//! expression is computed in big rationals at rational points, with `\pi`, `e` and the square
//! root of each square-free integer standing as independent symbols (each given a rational
//! value per point). Two answers that agree exactly at every point are the same rational
//! function of those symbols, hence equal; a tolerance never decides. Where the symbols stand
//! in for real numbers, a difference at a point proves nothing (`\sqrt2\sqrt2` vs `2`), so the
//! callers then fall back to floats, which under strict can only prove a difference.
//!
//! The points and the symbols' values are drawn at random, from a key drawn once per process
//! from the operating system (the browser's `crypto`), never from a fixed public list: a
//! polynomial built to vanish at known points (`x(x+4)(x-34)…` vs `0`) would otherwise be
//! "equal". Schwartz–Zippel bounds the error: two different rational functions of total degree
//! D agree at one point drawn here with probability at most D/2^40 (every coordinate takes
//! any one value with probability at most 2^-40), so at [`EXACT_POINTS`] independent points
//! with probability at most (D/2^40)^12. An identity agrees at every point, so the draw never
//! changes its verdict (docs/extract.md, "Identity testing").

use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive};

use super::*;

/// Why an expression has no exact value at a point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NoValue {
    /// Undefined there (a division by zero): the point says nothing.
    Undefined,
    /// Not a rational function of the symbols (`\ln x`, `e^{x}`, `\sqrt{x}`): no exact answer.
    NotExact,
}

/// One point: the variables' values and a seed for the symbols' values.
pub(super) struct Point<'a> {
    pub(super) vars: &'a [BigRational],
    pub(super) seed: u64,
    /// Set when `|u|` of a variable was taken: the value is then piecewise rational, and
    /// agreement at random points proves equality only on the sign regions they fell in
    /// (`|x^2-1|` vs `x^2-1`), so it is no proof of equality.
    pub(super) piecewise: std::cell::Cell<bool>,
}

impl<'a> Point<'a> {
    pub(super) fn new(vars: &'a [BigRational], seed: u64) -> Point<'a> {
        Point {
            vars,
            seed,
            piecewise: std::cell::Cell::new(false),
        }
    }
}

/// The process's secret key for the random draws: 64 bits from the operating system (the
/// browser's `crypto.getRandomValues`), drawn once, so no answer can be written for the
/// points it leads to, while one process grades the same pair the same way every time.
fn process_key() -> u64 {
    #[cfg(test)]
    if let Some(k) = TEST_KEY.with(std::cell::Cell::get) {
        return k;
    }
    static KEY: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *KEY.get_or_init(crate::llm::boundary::random_u64)
}

#[cfg(test)]
thread_local! {
    static TEST_KEY: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with the draws keyed by `key` on this thread (tests: the verdicts must not depend
/// on the key).
#[cfg(test)]
pub(super) fn with_key<T>(key: u64, f: impl FnOnce() -> T) -> T {
    TEST_KEY.with(|k| k.set(Some(key)));
    let out = f();
    TEST_KEY.with(|k| k.set(None));
    out
}

/// SplitMix64's output function: a bijection of 64-bit words that mixes every bit.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A stream of random words: SplitMix64 started from the process key and a stream number
/// (each comparison step draws its own stream).
pub(super) struct Draw(u64);

impl Draw {
    pub(super) fn new(stream: u64) -> Draw {
        Draw(mix(process_key() ^ mix(stream)))
    }

    pub(super) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }
}

/// The common denominator of the drawn values: a prime, so `m/Q` and `m'/Q` are the same
/// number only when `m = m'` (every value has probability at most 2^-40).
const POINT_DENOM: i64 = 1_048_573;

/// Draws one coordinate: `±m/Q` with `m` uniform in 1…2^40 (magnitudes up to 2^20).
fn coordinate(d: &mut Draw) -> BigRational {
    let r = d.next_u64();
    let m = (r >> 24) as i64 + 1;
    let m = if r & 1 == 1 { -m } else { m };
    BigRational::new(BigInt::from(m), BigInt::from(POINT_DENOM))
}

/// A rational stand-in for a symbol (`\pi`, `e`, `\sqrt d`) at a seed: positive, `(2^40+m)/Q`
/// with `m` a hash of the symbol and the seed (the seed is drawn at random per point, so each
/// value has probability at most 2^-40), different per symbol and per seed.
fn symbol_value(symbol: u64, seed: u64) -> BigRational {
    let m = (mix(mix(symbol) ^ seed) >> 24) as i64;
    BigRational::new(BigInt::from((1i64 << 40) + m), BigInt::from(POINT_DENOM))
}

const PI_SYMBOL: u64 = 1;
const E_SYMBOL: u64 = 2;

/// Size bound of every intermediate value at a sample point (bits of numerator and
/// denominator): 60 points of a 512-node expression stay cheap; past it, no exact verdict.
/// A drawn coordinate takes about 61 bits, so this admits `x^{130}`.
const SAMPLE_BITS: u64 = 8192;

fn bounded(r: BigRational) -> Result<BigRational, NoValue> {
    let bits = r.numer().bits() + r.denom().bits();
    if bits > SAMPLE_BITS {
        Err(NoValue::NotExact)
    } else {
        Ok(r)
    }
}

/// `r = s²·d` with `d` square-free, for `0 < r < 2^40` (trial division to 10⁴; what is left
/// has at most two prime factors, so it is a square or square-free). `None` past the bound.
fn square_free(m: u64) -> Option<(u64, u64)> {
    if m == 0 || m >= 1 << 40 {
        return None;
    }
    let (mut s, mut d, mut rest) = (1u64, 1u64, m);
    let mut p = 2u64;
    while p <= 10_000 && p * p <= rest {
        let mut k = 0;
        while rest % p == 0 {
            rest /= p;
            k += 1;
        }
        s *= p.pow(k / 2);
        if k % 2 == 1 {
            d *= p;
        }
        p += 1;
    }
    let r = (rest as f64).sqrt().round() as u64;
    if r > 1 && r * r == rest {
        s *= r;
    } else {
        d *= rest;
    }
    Some((s, d))
}

/// `\sqrt{r}` for an exact constant `r ≥ 0`: exact when `r` is a square, else `c·√d` with the
/// symbol `√d` (`d` square-free), so `\sqrt8` and `2\sqrt2` are the same value.
fn sqrt_const(r: &BigRational, seed: u64, formal: &mut bool) -> Result<BigRational, NoValue> {
    if r.is_negative() {
        return Err(NoValue::Undefined);
    }
    if let Num::Exact(x) = Num::Exact(r.clone()).sqrt() {
        return Ok(x);
    }
    // √(p/q) = √(pq)/q
    let m = (r.numer() * r.denom()).to_u64().ok_or(NoValue::NotExact)?;
    let (s, d) = square_free(m).ok_or(NoValue::NotExact)?;
    *formal = true;
    let c = BigRational::new(BigInt::from(s), r.denom().clone());
    Ok(c * symbol_value(1000 + d, seed))
}

/// True when `n` has no variable, `\pi` or `e` in it: its ordinary value is exact or a float.
fn plain_constant(n: &Node) -> bool {
    !crate::extract::expr::any_leaf(n, &|l| matches!(l, Node::Var(_) | Node::Pi | Node::E))
}

/// The exact value of `n` at `pt`; `formal` is set when a symbol (`\pi`, `e`, `\sqrt d`) was
/// used, so that a difference at this point does not prove the numbers differ.
pub(super) fn value(n: &Node, pt: &Point, formal: &mut bool) -> Result<BigRational, NoValue> {
    use Node::*;
    let num = |v: Num| match v {
        Num::Exact(r) => Ok(r),
        Num::Undefined(_) => Err(NoValue::Undefined),
        _ => Err(NoValue::NotExact),
    };
    match n {
        Lit(r) => Ok(r.clone()),
        Pi => {
            *formal = true;
            Ok(symbol_value(PI_SYMBOL, pt.seed))
        }
        E => {
            *formal = true;
            Ok(symbol_value(E_SYMBOL, pt.seed))
        }
        Infinity => Err(NoValue::NotExact),
        Var(i) => pt.vars.get(*i).cloned().ok_or(NoValue::NotExact),
        Neg(a) => Ok(-value(a, pt, formal)?),
        Add(a, b) => bounded(value(a, pt, formal)? + value(b, pt, formal)?),
        Sub(a, b) => bounded(value(a, pt, formal)? - value(b, pt, formal)?),
        Mul(a, b) => bounded(value(a, pt, formal)? * value(b, pt, formal)?),
        Div(a, b) => {
            let d = value(b, pt, formal)?;
            if d.is_zero() {
                return Err(NoValue::Undefined);
            }
            bounded(value(a, pt, formal)? / d)
        }
        Pow(a, b) => {
            // Only an exponent that is an exact integer whatever the point (`x^{2}`,
            // `(1+\sqrt2)^{3}`); `e^{x}`, `2^{\pi}`, `x^{1/2}` are not rational functions.
            if !plain_constant(b) {
                return opaque_pow(a, b, pt, formal);
            }
            let k = match expr::eval(b, &[]) {
                Num::Exact(k) => k,
                _ => return opaque_pow(a, b, pt, formal),
            };
            if !k.is_integer() {
                if k == BigRational::new(BigInt::one(), BigInt::from(2)) && plain_constant(a) {
                    if let Num::Exact(r) = expr::eval(a, &[]) {
                        return sqrt_const(&r, pt.seed, formal);
                    }
                }
                return opaque_pow(a, b, pt, formal);
            }
            let k = k.to_integer().to_i64().filter(|k| k.abs() <= 256);
            let k = k.ok_or(NoValue::NotExact)?;
            let base = value(a, pt, formal)?;
            let size = (base.numer().bits() + base.denom().bits()).saturating_mul(k.unsigned_abs());
            if size > SAMPLE_BITS {
                return Err(NoValue::NotExact);
            }
            bounded(num(Num::Exact(base).pow(&Num::exact_int(k)))?)
        }
        Call(expr::Func::Sqrt, a) if plain_constant(a) => match expr::eval(a, &[]) {
            Num::Exact(r) => sqrt_const(&r, pt.seed, formal),
            _ => opaque_call(n, pt, formal),
        },
        Root(x, k) if plain_constant(x) && plain_constant(k) => match expr::eval(n, &[]) {
            Num::Exact(r) => Ok(r),
            Num::Undefined(_) => Err(NoValue::Undefined),
            _ => match expr::eval(k, &[]) {
                Num::Exact(two) if two == BigRational::from_integer(BigInt::from(2)) => {
                    match expr::eval(x, &[]) {
                        Num::Exact(r) => sqrt_const(&r, pt.seed, formal),
                        _ => opaque_root(x, k, pt, formal),
                    }
                }
                _ => opaque_root(x, k, pt, formal),
            },
        },
        Call(expr::Func::Abs, a) => {
            let mut own = false;
            let x = value(a, pt, &mut own)?;
            // A stand-in's sign is not the number's (`|\pi-4|`): no exact value.
            if own {
                return Err(NoValue::NotExact);
            }
            if expr::mentions(a, None) {
                pt.piecewise.set(true);
            }
            Ok(x.abs())
        }
        // An unknown function at an exact argument: a value fixed by the function's name and
        // the argument, so equal arguments give equal values. Formal: a difference proves
        // nothing (some sequence may satisfy the identity).
        Apply(name, a) => {
            let x = value(a, pt, formal)?;
            *formal = true;
            let h = x
                .numer()
                .to_string()
                .bytes()
                .chain([b'/'])
                .chain(x.denom().to_string().bytes())
                .fold(*name, |h, b| {
                    (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
                });
            Ok(symbol_value(5000 + (h >> 8), pt.seed))
        }
        // Factorials, binomials, floors, logarithms, trigonometric functions: exact only when
        // their ordinary value is (`5!!`, `\lfloor 2.5 \rfloor`, `\sin\pi`, `\log_2 8`).
        Fact(_) | Binom(..) | Call(..) | LogBase(..) | Root(..) => {
            if !expr::mentions(n, None) {
                match expr::eval(n, &[]) {
                    Num::Exact(r) => return Ok(r),
                    Num::Undefined(_) => return Err(NoValue::Undefined),
                    _ => {}
                }
            }
            opaque_call(n, pt, formal)
        }
    }
}

/// Values past rational functions, as symbols (strict): a function with no exact
/// value at a point (`\sqrt{\sqrt{11}+\sqrt{194}}`, `10^{\frac{\sqrt{13}-5}{6}}`, `\ln x`,
/// `\sin x`) is a symbol fixed by the function and the exact value of its arguments there, so
/// equal arguments give equal values and nothing else is assumed. Always formal: a difference
/// proves nothing. Sines and cosines of one angle lie on the unit circle (below), so
/// `\sec^2 y` = `\tan^2 y + 1` is exact.
pub(super) fn opaque(
    tag: &str,
    args: &[&BigRational],
    seed: u64,
    formal: &mut bool,
) -> BigRational {
    *formal = true;
    let mut h = tag.bytes().fold(0xcbf2_9ce4_8422_2325u64, fnv);
    for a in args {
        h = a.numer().to_string().bytes().fold(fnv(h, b'|'), fnv);
        h = a.denom().to_string().bytes().fold(fnv(h, b'/'), fnv);
    }
    symbol_value(10_000 + (h >> 8), seed)
}

fn fnv(h: u64, b: u8) -> u64 {
    (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
}

/// `a^b` with no rational value: the symbol of the power at the values of `a` and `b` (a
/// root `\sqrt[k]{x}` is the power `1/k`, so the two spellings agree).
fn opaque_pow(a: &Node, b: &Node, pt: &Point, formal: &mut bool) -> Result<BigRational, NoValue> {
    let (x, k) = (value(a, pt, formal)?, value(b, pt, formal)?);
    Ok(opaque("pow", &[&x, &k], pt.seed, formal))
}

fn opaque_root(x: &Node, k: &Node, pt: &Point, formal: &mut bool) -> Result<BigRational, NoValue> {
    let (x, k) = (value(x, pt, formal)?, value(k, pt, formal)?);
    if k.is_zero() {
        return Err(NoValue::Undefined);
    }
    Ok(opaque("pow", &[&x, &k.recip()], pt.seed, formal))
}

/// Largest multiple `m` of one angle computed as `(cos + i sin)^m`.
const MAX_ANGLE_MULTIPLE: i64 = 16;

fn opaque_call(n: &Node, pt: &Point, formal: &mut bool) -> Result<BigRational, NoValue> {
    use expr::Func;
    use Node::*;
    match n {
        Call(Func::Sqrt, a) => {
            let mut own = false;
            let x = value(a, pt, &mut own)?;
            *formal |= own;
            let half = || BigRational::new(BigInt::one(), BigInt::from(2));
            if own {
                Ok(opaque("pow", &[&x, &half()], pt.seed, formal))
            } else {
                // `\sqrt{x^2}` is `|x|`: piecewise, as `|·|` is.
                if expr::mentions(a, None) {
                    pt.piecewise.set(true);
                }
                // A drawn point is too big to split into a square and a square-free part:
                // `\sqrt{x}` is then the symbol of `x^{1/2}`, as the power is.
                match sqrt_const(&x, pt.seed, formal) {
                    Err(NoValue::NotExact) => Ok(opaque("pow", &[&x, &half()], pt.seed, formal)),
                    r => r,
                }
            }
        }
        Call(f @ (Func::Sin | Func::Cos | Func::Tan | Func::Cot | Func::Sec | Func::Csc), a) => {
            let (c, s) = circle(a, pt, formal)?;
            let ratio = |p: BigRational, q: BigRational| {
                if q.is_zero() {
                    Err(NoValue::Undefined)
                } else {
                    bounded(p / q)
                }
            };
            let one = BigRational::one();
            match f {
                Func::Sin => Ok(s),
                Func::Cos => Ok(c),
                Func::Tan => ratio(s, c),
                Func::Cot => ratio(c, s),
                Func::Sec => ratio(one, c),
                _ => ratio(one, s),
            }
        }
        Call(f, a) => {
            let x = value(a, pt, formal)?;
            Ok(opaque(&format!("{f:?}"), &[&x], pt.seed, formal))
        }
        Root(x, k) => opaque_root(x, k, pt, formal),
        Fact(a) => {
            let x = value(a, pt, formal)?;
            Ok(opaque("fact", &[&x], pt.seed, formal))
        }
        Binom(a, b) | LogBase(a, b) => {
            let (x, y) = (value(a, pt, formal)?, value(b, pt, formal)?);
            let tag = if matches!(n, Binom(..)) {
                "binom"
            } else {
                "log"
            };
            Ok(opaque(tag, &[&x, &y], pt.seed, formal))
        }
        _ => Err(NoValue::NotExact),
    }
}

/// (cos θ, sin θ) for the angle `a` as a rational point of the unit circle,
/// ((1−t²)/(1+t²), 2t/(1+t²)) with `t` a symbol, so cos² + sin² = 1 holds exactly. An angle
/// `m·x` (one variable, integer `m`, |m| ≤ 16) is the m-th power of the point of `x`, so
/// `\sin 2x` = `2\sin x\cos x`; any other angle gets its own point, keyed by its value.
fn circle(a: &Node, pt: &Point, formal: &mut bool) -> Result<(BigRational, BigRational), NoValue> {
    let mentioned: Vec<usize> = (0..pt.vars.len())
        .filter(|&i| expr::mentions(a, Some(i)))
        .collect();
    let multiple = match mentioned.as_slice() {
        [i] => expr::linear(a, *i)
            .filter(|(m, b)| m.is_integer() && b.is_zero())
            .and_then(|(m, _)| m.to_integer().to_i64())
            .filter(|m| m.abs() <= MAX_ANGLE_MULTIPLE)
            .map(|m| (*i, m)),
        _ => None,
    };
    let (key, m) = match multiple {
        Some((i, m)) => (pt.vars.get(i).cloned().ok_or(NoValue::NotExact)?, m),
        None => (value(a, pt, formal)?, 1),
    };
    let t = opaque("angle", &[&key], pt.seed, formal);
    let one = BigRational::one();
    let d = &one + &t * &t;
    let (c1, s1) = ((&one - &t * &t) / &d, (&t + &t) / &d);
    let (mut c, mut s) = (one, BigRational::zero());
    for _ in 0..m.unsigned_abs() {
        let next_c = bounded(&c * &c1 - &s * &s1)?;
        s = bounded(&s * &c1 + &c * &s1)?;
        c = next_c;
    }
    if m < 0 {
        s = -s;
    }
    Ok((c, s))
}

/// Random seeds of the symbol values tried for a constant: a false "equal" needs the
/// stand-ins to be roots of the difference at every one (Schwartz–Zippel, above).
const CONSTANT_SEEDS: usize = 4;

/// Two constants compared exactly with `\pi`, `e` and square roots as symbols: `Some(true)`
/// when they agree at every seed (the same rational function of the symbols, so equal),
/// `Some(false)` when they differ and no symbol was involved (exact rationals that differ),
/// `None` otherwise (not exact, or a difference that may vanish for the real symbols).
pub(super) fn constants_equal(ea: &Expr, eb: &Expr) -> Option<bool> {
    let mut formal = false;
    let mut draw = Draw::new(3);
    for _ in 0..CONSTANT_SEEDS {
        let seed = draw.next_u64();
        let x = value(&ea.root, &Point::new(&[], seed), &mut formal).ok()?;
        let y = value(&eb.root, &Point::new(&[], seed), &mut formal).ok()?;
        if x != y {
            return (!formal).then_some(false);
        }
    }
    Some(true)
}

/// Agreeing rational points needed before two expressions with variables are called equal.
pub(super) const EXACT_POINTS: usize = 12;

/// A random rational point for `n` variables (see [`coordinate`]).
pub(super) fn rational_point(draw: &mut Draw, n: usize) -> Vec<BigRational> {
    (0..n).map(|_| coordinate(draw)).collect()
}

/// The outcome of sampling two expressions exactly.
pub(super) enum Sampled {
    /// Equal at this many rational points (all exact).
    Equal(usize),
    /// Different at a point, with no symbol involved: proven.
    Different(String),
    /// No exact verdict (not rational functions, symbols involved in a difference, or too few
    /// defined points).
    Open,
}

/// Samples `f(a, b)` exactly at rational points: `same(x, y)` decides agreement at a point
/// (equality, or a fixed ratio for rearranged equations).
pub(super) fn sample(
    ea: &Expr,
    eb: &Expr,
    mut same: impl FnMut(&BigRational, &BigRational) -> Option<bool>,
) -> Sampled {
    let names = shared_names(ea, eb);
    let mut draw = Draw::new(1);
    let (mut agreed, mut seen_piecewise) = (0, false);
    for _ in 0..POINTS_TRIED {
        let point = rational_point(&mut draw, names.len());
        let pick = |e: &Expr| -> Vec<BigRational> {
            e.vars
                .iter()
                .filter_map(|v| {
                    let i = names.iter().position(|n| n == v)?;
                    point.get(i).cloned()
                })
                .collect()
        };
        let (va, vb) = (pick(ea), pick(eb));
        let mut formal = false;
        let seed = draw.next_u64();
        let (pa, pb) = (Point::new(&va, seed), Point::new(&vb, seed));
        let x = value(&ea.root, &pa, &mut formal);
        let y = value(&eb.root, &pb, &mut formal);
        let piecewise = pa.piecewise.get() || pb.piecewise.get();
        let (x, y) = match (x, y) {
            (Ok(x), Ok(y)) => (x, y),
            (Err(NoValue::NotExact), _) | (_, Err(NoValue::NotExact)) => return Sampled::Open,
            _ => continue,
        };
        seen_piecewise |= piecewise;
        match same(&x, &y) {
            Some(true) => agreed += 1,
            Some(false) if !formal => {
                // The point is drawn at random per process: printing it would make the same
                // pair's reason differ from run to run (and the CLI's from the Python
                // package's), so the reason names the evidence, not the draw.
                return Sampled::Different(if names.is_empty() {
                    "their exact values differ (exact)".to_string()
                } else {
                    format!(
                        "they differ at a rational point of {} drawn at random (exact)",
                        names.join(", ")
                    )
                });
            }
            _ => return Sampled::Open,
        }
        if agreed >= EXACT_POINTS {
            // Agreement of piecewise values proves nothing (see `Point::piecewise`); a
            // difference above still did.
            if seen_piecewise {
                return Sampled::Open;
            }
            return Sampled::Equal(agreed);
        }
    }
    Sampled::Open
}
