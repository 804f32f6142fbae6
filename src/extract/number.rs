//! Exact rationals on i128 with checked arithmetic (the fast path for plain decimals, and the
//! logic checker's numbers), and the `Num` value the answer evaluator works in.
//!
//! Answers are compared exactly whenever they can be: a float tolerance is what lets other
//! graders call 120006 equal to 120000, and an i128 overflow that fell back to floats made
//! `2^{128}` equal `2^{128}+1`. So `Num` is an arbitrary-precision rational, bounded in size
//! ([`MAX_EXACT_BITS`]): past the bound a value is [`Num::Unknown`] and the verdict "could not
//! decide", never a float guess. Only irrational values (`\sqrt 2`, `\pi`, `\sin 1`) are
//! floats, and the comparison path says so.

use std::cmp::Ordering;
use std::fmt;

use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// A reduced fraction `num/den` with `den > 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rational {
    num: i128,
    den: i128,
}

fn gcd(a: i128, b: i128) -> i128 {
    // unsigned_abs avoids the overflow of i128::MIN.abs().
    let (mut x, mut y) = (a.unsigned_abs(), b.unsigned_abs());
    while y != 0 {
        let t = x % y;
        x = y;
        y = t;
    }
    i128::try_from(x).unwrap_or(1)
}

impl Rational {
    pub const ZERO: Rational = Rational { num: 0, den: 1 };
    pub const ONE: Rational = Rational { num: 1, den: 1 };

    /// `None` when the denominator is zero or the reduced value does not fit.
    pub fn new(num: i128, den: i128) -> Option<Rational> {
        if den == 0 {
            return None;
        }
        let g = gcd(num, den).max(1);
        let (mut n, mut d) = (num / g, den / g);
        if d < 0 {
            n = n.checked_neg()?;
            d = d.checked_neg()?;
        }
        Some(Rational { num: n, den: d })
    }

    pub fn from_int(n: i128) -> Rational {
        Rational { num: n, den: 1 }
    }

    pub fn numer(&self) -> i128 {
        self.num
    }

    pub fn denom(&self) -> i128 {
        self.den
    }

    pub fn is_integer(&self) -> bool {
        self.den == 1
    }

    pub fn to_f64(&self) -> f64 {
        self.num as f64 / self.den as f64
    }

    pub fn checked_add(self, o: Rational) -> Option<Rational> {
        let g = gcd(self.den, o.den).max(1);
        let l = (self.den / g).checked_mul(o.den)?;
        let a = self.num.checked_mul(l / self.den)?;
        let b = o.num.checked_mul(l / o.den)?;
        Rational::new(a.checked_add(b)?, l)
    }

    pub fn checked_neg(self) -> Option<Rational> {
        Some(Rational {
            num: self.num.checked_neg()?,
            den: self.den,
        })
    }

    pub fn checked_sub(self, o: Rational) -> Option<Rational> {
        self.checked_add(o.checked_neg()?)
    }

    pub fn checked_mul(self, o: Rational) -> Option<Rational> {
        // Cross-reduce first so products of already-reduced fractions overflow later.
        let g1 = gcd(self.num, o.den).max(1);
        let g2 = gcd(o.num, self.den).max(1);
        let n = (self.num / g1).checked_mul(o.num / g2)?;
        let d = (self.den / g2).checked_mul(o.den / g1)?;
        Rational::new(n, d)
    }

    pub fn checked_recip(self) -> Option<Rational> {
        Rational::new(self.den, self.num)
    }

    pub fn checked_div(self, o: Rational) -> Option<Rational> {
        self.checked_mul(o.checked_recip()?)
    }

    /// Integer powers only; `None` on overflow, huge exponents or `0^-n`.
    pub fn checked_pow(self, exp: i128) -> Option<Rational> {
        if exp.unsigned_abs() > 256 {
            return None;
        }
        let base = if exp < 0 { self.checked_recip()? } else { self };
        let mut acc = Rational::ONE;
        for _ in 0..exp.unsigned_abs() {
            acc = acc.checked_mul(base)?;
        }
        Some(acc)
    }

    /// Exact square root when numerator and denominator are perfect squares.
    pub fn exact_sqrt(self) -> Option<Rational> {
        if self.num < 0 {
            return None;
        }
        Rational::new(isqrt_exact(self.num)?, isqrt_exact(self.den)?)
    }
}

fn isqrt_exact(n: i128) -> Option<i128> {
    if n < 0 {
        return None;
    }
    let mut r = (n as f64).sqrt() as i128;
    // Correct the float guess by a few steps either way.
    while r > 0 && r.checked_mul(r).is_none_or(|sq| sq > n) {
        r -= 1;
    }
    while (r + 1).checked_mul(r + 1).is_some_and(|sq| sq <= n) {
        r += 1;
    }
    (r.checked_mul(r)? == n).then_some(r)
}

impl PartialOrd for Rational {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Rational {
    fn cmp(&self, other: &Self) -> Ordering {
        match (
            self.num.checked_mul(other.den),
            other.num.checked_mul(self.den),
        ) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => self
                .to_f64()
                .partial_cmp(&other.to_f64())
                .unwrap_or(Ordering::Equal),
        }
    }
}

impl fmt::Display for Rational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_fraction(f, self.num, self.den)
    }
}

/// Writes `num` (when `den` is 1) or `num/den`, as `write!(f, "{num}/{den}")` would.
///
/// Hand-written because the standard `i128` formatting is ~1 KB of wasm code, and exact
/// fractions (these, which `logic::arith::Rat` wraps too) and number words are the only `i128`
/// values the app prints.
fn write_fraction(f: &mut fmt::Formatter<'_>, num: i128, den: i128) -> fmt::Result {
    write_i128(f, num)?;
    if den != 1 {
        f.write_str("/")?;
        write_i128(f, den)?;
    }
    Ok(())
}

/// `n.to_string()`, through the same small printer.
pub(crate) fn int_text(n: i128) -> String {
    Rational::from_int(n).to_string()
}

fn write_i128(f: &mut fmt::Formatter<'_>, n: i128) -> fmt::Result {
    // 39 digits for |i128::MIN| = 2^127, and the sign.
    let mut text = [0u8; 40];
    let mut at = text.len();
    // The digits beyond 64 bits first: u128 division is a slow library call, and nearly every
    // number printed fits in a u64 (grading prints two per answer pair).
    let mut wide = n.unsigned_abs();
    while wide > u128::from(u64::MAX) {
        at -= 1;
        text[at] = b'0' + (wide % 10) as u8;
        wide /= 10;
    }
    let mut rest = u64::try_from(wide).unwrap_or_default();
    loop {
        at -= 1;
        text[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    if n < 0 {
        at -= 1;
        text[at] = b'-';
    }
    // Only ASCII digits and '-' were written, so the text is always valid UTF-8.
    f.write_str(std::str::from_utf8(&text[at..]).unwrap_or_default())
}

/// Parses a plain decimal literal (`-12`, `0.25`, `.5`, `3.`, `1.5e-3`) exactly.
pub fn parse_decimal(s: &str) -> Option<Rational> {
    let (neg, body) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let (mantissa, exp) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], body[i + 1..].parse::<i32>().ok()?),
        None => (body, 0),
    };
    let (int_part, frac_part) = match mantissa.find('.') {
        Some(i) => (&mantissa[..i], &mantissa[i + 1..]),
        None => (mantissa, ""),
    };
    if int_part.is_empty() && frac_part.is_empty() {
        return None;
    }
    if !int_part
        .bytes()
        .chain(frac_part.bytes())
        .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let mut num: i128 = 0;
    for b in int_part.bytes().chain(frac_part.bytes()) {
        num = num.checked_mul(10)?.checked_add(i128::from(b - b'0'))?;
    }
    let scale = i32::try_from(frac_part.len()).ok()?;
    let ten = Rational::from_int(10);
    let mut r = Rational::new(num, 1)?.checked_mul(ten.checked_pow(i128::from(exp - scale))?)?;
    if neg {
        r = r.checked_neg()?;
    }
    Some(r)
}

/// The most bits an exact value may take (numerator plus denominator), about 10,000 decimal
/// digits: `2006!` (≈ 19,000 bits) and `2^{-10001}` fit, and anything larger is "could not
/// decide" instead of an unbounded computation (a pasted `10^{10^{9}}` must not hang a tab).
pub const MAX_EXACT_BITS: u64 = 34_000;

/// Largest `n` for which `n!` is attempted exactly (its bits are checked as it grows).
const MAX_FACTORIAL: u64 = 3_000;

/// Largest exponent of a decimal literal (`1e-400` is fine, `1e99999` is not computed).
const MAX_DECIMAL_EXPONENT: i64 = 10_000;

/// A value as the evaluator knows it. Only `Exact` values are compared exactly; `Real` ones are
/// floating point (irrational constants and functions); the last three say why there is no
/// number at all, because "undefined here" and "too big to know" lead to different verdicts.
#[derive(Debug, Clone, PartialEq)]
pub enum Num {
    Exact(BigRational),
    /// A finite float, neither overflowed nor underflowed.
    Real(f64),
    /// `\infty` (`true`) or `-\infty`.
    Infinity(bool),
    /// Outside the domain: `1/0`, `\ln(-1)`, `\sqrt{-4}`, `\infty-\infty`.
    Undefined(&'static str),
    /// A value exists but could not be computed within the bounds (huge exact results, float
    /// overflow or underflow): never compared, the verdict is "could not decide".
    Unknown(&'static str),
}

fn bits(r: &BigRational) -> u64 {
    r.numer().bits() + r.denom().bits()
}

/// `r` when it is within the size bound.
fn bounded(r: BigRational) -> Num {
    if bits(&r) > MAX_EXACT_BITS {
        Num::Unknown("an exact value of more than 10,000 digits")
    } else {
        Num::Exact(r)
    }
}

/// A float result: NaN is outside the domain, ±inf is an overflow (true infinities are
/// [`Num::Infinity`], never a float), and a zero or subnormal result of operands that were not
/// zero is an underflow: `10^{-400}` must not become `0`.
fn real(x: f64, nonzero_inputs: bool) -> Num {
    if x.is_nan() {
        Num::Undefined("not a real number")
    } else if x.is_infinite() {
        Num::Unknown("a floating-point overflow")
    } else if nonzero_inputs && x.abs() < f64::MIN_POSITIVE {
        Num::Unknown("a floating-point underflow")
    } else {
        Num::Real(x)
    }
}

/// An exact value as a float, when the float is faithful (not overflowed or flushed to 0).
fn exact_f64(r: &BigRational) -> Option<f64> {
    let x = r.to_f64()?;
    let lost = !x.is_finite() || (!r.is_zero() && x.abs() < f64::MIN_POSITIVE);
    (!lost).then_some(x)
}

/// Parses a plain decimal literal (`-12`, `0.25`, `.5`, `1.5e-3`) exactly, at any length.
pub fn parse_decimal_big(s: &str) -> Option<BigRational> {
    let (neg, body) = match s.as_bytes().first()? {
        b'-' => (true, s.get(1..)?),
        b'+' => (false, s.get(1..)?),
        _ => (false, s),
    };
    let (mantissa, exp) = match body.find(['e', 'E']) {
        Some(i) => (body.get(..i)?, body.get(i + 1..)?.parse::<i64>().ok()?),
        None => (body, 0),
    };
    if exp.abs() > MAX_DECIMAL_EXPONENT {
        return None;
    }
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int_part.is_empty() && frac_part.is_empty() {
        return None;
    }
    let digits = format!("{int_part}{frac_part}");
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let num: BigInt = digits.parse().ok()?;
    let scale = exp - i64::try_from(frac_part.len()).ok()?;
    let r = BigRational::from_integer(num) * pow10(scale);
    Some(if neg { -r } else { r })
}

/// `10^k` exactly (|k| is bounded by the callers).
pub fn pow10(k: i64) -> BigRational {
    let p = num_traits::pow(
        BigInt::from(10u8),
        usize::try_from(k.unsigned_abs()).unwrap_or(0),
    );
    if k < 0 {
        BigRational::new(BigInt::one(), p)
    } else {
        BigRational::from_integer(p)
    }
}

/// The exact `n`-th root of a non-negative integer, when it is one.
fn exact_root(x: &BigInt, n: u32) -> Option<BigInt> {
    let r = x.nth_root(n);
    (num_traits::pow(r.clone(), n as usize) == *x).then_some(r)
}

/// `r^(1/n)` exactly, when numerator and denominator are perfect `n`-th powers.
fn exact_rational_root(r: &BigRational, n: u32) -> Option<BigRational> {
    if r.is_negative() {
        // Odd roots of negatives are real: -(|r|^(1/n)).
        return (n % 2 == 1)
            .then(|| exact_rational_root(&-r.clone(), n))
            .flatten()
            .map(|x| -x);
    }
    Some(BigRational::new(
        exact_root(r.numer(), n)?,
        exact_root(r.denom(), n)?,
    ))
}

impl Num {
    pub fn exact_int(n: i64) -> Num {
        Num::Exact(BigRational::from_integer(BigInt::from(n)))
    }

    /// The value as a float, for points and tolerances; `None` for non-numbers and for exact
    /// values that a float cannot hold faithfully.
    pub fn to_f64(&self) -> Option<f64> {
        match self {
            Num::Exact(r) => exact_f64(r),
            Num::Real(x) => Some(*x),
            _ => None,
        }
    }

    pub fn is_exact(&self) -> bool {
        matches!(self, Num::Exact(_))
    }

    /// The non-number cases pass through: an undefined operand makes the result undefined,
    /// an unknown one unknown (undefined wins: it is a fact, not a limitation).
    fn passthrough(&self, o: &Num) -> Option<Num> {
        for v in [self, o] {
            if let Num::Undefined(_) = v {
                return Some(v.clone());
            }
        }
        for v in [self, o] {
            if let Num::Unknown(_) = v {
                return Some(v.clone());
            }
        }
        None
    }

    /// Both operands as faithful floats, or why not.
    fn floats(&self, o: &Num) -> Result<(f64, f64), Num> {
        match (self.to_f64(), o.to_f64()) {
            (Some(a), Some(b)) => Ok((a, b)),
            _ => Err(Num::Unknown("an exact value beyond floating-point range")),
        }
    }

    // Named like the std operators on purpose, but not the traits: they take references and
    // know about undefined and unknown values, which callers should see at the call site.
    #[allow(clippy::should_implement_trait)]
    pub fn add(&self, o: &Num) -> Num {
        if let Some(p) = self.passthrough(o) {
            return p;
        }
        match (self, o) {
            (Num::Exact(a), Num::Exact(b)) => bounded(a + b),
            (Num::Infinity(a), Num::Infinity(b)) if a != b => Num::Undefined("∞ − ∞"),
            (Num::Infinity(s), _) | (_, Num::Infinity(s)) => Num::Infinity(*s),
            _ => match self.floats(o) {
                // A sum that cancels to 0 is a legitimate float result (`\pi-\pi`).
                Ok((a, b)) => real(a + b, false),
                Err(e) => e,
            },
        }
    }

    #[allow(clippy::should_implement_trait)]
    pub fn neg(&self) -> Num {
        match self {
            Num::Exact(r) => Num::Exact(-r.clone()),
            Num::Real(x) => Num::Real(-x),
            Num::Infinity(s) => Num::Infinity(!s),
            other => other.clone(),
        }
    }

    #[allow(clippy::should_implement_trait)]
    pub fn sub(&self, o: &Num) -> Num {
        self.add(&o.neg())
    }

    fn is_zero(&self) -> bool {
        match self {
            Num::Exact(r) => r.is_zero(),
            Num::Real(x) => *x == 0.0,
            _ => false,
        }
    }

    #[allow(clippy::should_implement_trait)]
    pub fn mul(&self, o: &Num) -> Num {
        if let Some(p) = self.passthrough(o) {
            return p;
        }
        match (self, o) {
            (Num::Exact(a), Num::Exact(b)) => bounded(a * b),
            (Num::Infinity(_), _) | (_, Num::Infinity(_)) => {
                Num::Unknown("arithmetic with an infinity")
            }
            _ => match self.floats(o) {
                Ok((a, b)) => real(a * b, a != 0.0 && b != 0.0),
                Err(e) => e,
            },
        }
    }

    #[allow(clippy::should_implement_trait)]
    pub fn div(&self, o: &Num) -> Num {
        if let Some(p) = self.passthrough(o) {
            return p;
        }
        if o.is_zero() {
            return Num::Undefined("division by zero");
        }
        match (self, o) {
            (Num::Exact(a), Num::Exact(b)) => bounded(a / b),
            (Num::Infinity(_), _) | (_, Num::Infinity(_)) => {
                Num::Unknown("arithmetic with an infinity")
            }
            _ => match self.floats(o) {
                Ok((a, b)) => real(a / b, a != 0.0),
                Err(e) => e,
            },
        }
    }

    pub fn pow(&self, e: &Num) -> Num {
        if let Some(p) = self.passthrough(e) {
            return p;
        }
        match (self, e) {
            (Num::Exact(b), Num::Exact(x)) => exact_pow(b, x),
            // `x^{1/3}` is the real cube root, also of a negative `x` (as `\sqrt[3]{x}` is).
            (Num::Real(_), Num::Exact(x)) if !x.is_integer() => match small_fraction(x) {
                Some((p, q)) => self.root(q).pow(&Num::exact_int(p)),
                None => self.float_pow(e),
            },
            (Num::Infinity(_), _) | (_, Num::Infinity(_)) => {
                Num::Unknown("a power with an infinity")
            }
            _ => self.float_pow(e),
        }
    }

    fn float_pow(&self, e: &Num) -> Num {
        match self.floats(e) {
            Ok((0.0, y)) if y < 0.0 => Num::Undefined("0 to a negative power"),
            Ok((a, b)) => real(super::real::pow(a, b), a != 0.0),
            Err(e) => e,
        }
    }

    pub fn sqrt(&self) -> Num {
        self.root(2)
    }

    /// The real `n`-th root: exact when it is one, undefined for even roots of negatives.
    pub fn root(&self, n: u32) -> Num {
        match self {
            Num::Exact(r) if r.is_negative() && n.is_multiple_of(2) => {
                Num::Undefined("an even root of a negative number")
            }
            Num::Exact(r) => match exact_rational_root(r, n) {
                Some(x) => Num::Exact(x),
                None => match exact_f64(r) {
                    Some(x) => real_root(x, n),
                    None => Num::Unknown("an exact value beyond floating-point range"),
                },
            },
            Num::Real(x) if *x < 0.0 && n.is_multiple_of(2) => {
                Num::Undefined("an even root of a negative number")
            }
            Num::Real(x) => real_root(*x, n),
            Num::Infinity(true) => Num::Infinity(true),
            Num::Infinity(false) => Num::Unknown("a root of an infinity"),
            other => other.clone(),
        }
    }

    /// `n!` for a non-negative integer, exactly (bounded). Integer-valued floats (symbolic
    /// sample points) up to 170 get a float factorial, so `n!` vs `n` can be tested.
    pub fn factorial(&self) -> Num {
        match self {
            Num::Exact(r) if r.is_integer() => {
                if r.is_negative() {
                    return Num::Undefined("a factorial of a negative integer");
                }
                match r.to_integer().to_u64() {
                    Some(n) if n <= MAX_FACTORIAL => {
                        let mut acc = BigInt::one();
                        for k in 2..=n {
                            acc *= k;
                            if acc.bits() > MAX_EXACT_BITS {
                                return Num::Unknown("an exact value of more than 10,000 digits");
                            }
                        }
                        Num::Exact(BigRational::from_integer(acc))
                    }
                    _ => Num::Unknown("an exact value of more than 10,000 digits"),
                }
            }
            Num::Real(x) if x.fract() == 0.0 && (0.0..=170.0).contains(x) => {
                let mut acc = 1.0f64;
                let mut k = 2.0;
                while k <= *x {
                    acc *= k;
                    k += 1.0;
                }
                Num::Real(acc)
            }
            Num::Real(x) if x.fract() == 0.0 && *x < 0.0 => {
                Num::Undefined("a factorial of a negative integer")
            }
            Num::Undefined(_) | Num::Unknown(_) => self.clone(),
            _ => Num::Unknown("a factorial of a non-integer"),
        }
    }

    /// `n!!` = n·(n−2)·… for a non-negative integer (0!! = 1!! = 1), exactly (bounded).
    pub fn double_factorial(&self) -> Num {
        match self {
            Num::Exact(r) if r.is_integer() => {
                if r.is_negative() {
                    return Num::Undefined("a double factorial of a negative integer");
                }
                match r.to_integer().to_u64() {
                    Some(n) if n <= 2 * MAX_FACTORIAL => {
                        let mut acc = BigInt::one();
                        let mut k = n;
                        while k >= 2 {
                            acc *= k;
                            if acc.bits() > MAX_EXACT_BITS {
                                return Num::Unknown("an exact value of more than 10,000 digits");
                            }
                            k -= 2;
                        }
                        Num::Exact(BigRational::from_integer(acc))
                    }
                    _ => Num::Unknown("an exact value of more than 10,000 digits"),
                }
            }
            Num::Real(x) if x.fract() == 0.0 && (0.0..=300.0).contains(x) => {
                let (mut acc, mut k) = (1.0f64, *x);
                while k >= 2.0 {
                    acc *= k;
                    k -= 2.0;
                }
                Num::Real(acc)
            }
            Num::Undefined(_) | Num::Unknown(_) => self.clone(),
            _ => Num::Unknown("a double factorial of a non-integer"),
        }
    }

    /// `\lfloor x \rfloor` (`up`: `\lceil x \rceil`), exact for exact values.
    pub fn rounded(&self, up: bool) -> Num {
        match self {
            Num::Exact(r) => Num::Exact(if up { r.ceil() } else { r.floor() }),
            Num::Real(x) => Num::Real(if up { x.ceil() } else { x.floor() }),
            other => other.clone(),
        }
    }

    /// `\binom{n}{k}` for integers, exactly (multiplicative formula, bounded).
    pub fn binomial(&self, k: &Num) -> Num {
        if let Some(p) = self.passthrough(k) {
            return p;
        }
        let (Num::Exact(n), Num::Exact(k)) = (self, k) else {
            return Num::Unknown("a binomial coefficient of non-integers");
        };
        if !(n.is_integer() && k.is_integer()) || n.is_negative() {
            return Num::Unknown("a binomial coefficient of non-integers");
        }
        let (n, k) = (n.to_integer(), k.to_integer());
        if k.is_negative() || k > n {
            return Num::exact_int(0);
        }
        let k = std::cmp::min(k.clone(), &n - &k);
        let Some(steps) = k.to_u64().filter(|s| *s <= MAX_FACTORIAL * 4) else {
            return Num::Unknown("an exact value of more than 10,000 digits");
        };
        let mut acc = BigInt::one();
        for i in 0..steps {
            // acc · (n−i) / (i+1) stays an integer at every step (it is C(n, i+1)).
            acc = acc * (&n - BigInt::from(i)) / BigInt::from(i + 1);
            if acc.bits() > MAX_EXACT_BITS {
                return Num::Unknown("an exact value of more than 10,000 digits");
            }
        }
        Num::Exact(BigRational::from_integer(acc))
    }

    /// A float function `f` of this value, with `at_zero` the exact result at an exact 0
    /// (`\sin 0` = 0 exactly) and `domain` the inputs it is defined for.
    pub fn func(
        &self,
        f: fn(f64) -> f64,
        exact: Option<fn(&BigRational) -> Option<BigRational>>,
        domain: fn(f64) -> bool,
    ) -> Num {
        match self {
            Num::Exact(r) => {
                if let Some(v) = exact.and_then(|g| g(r)) {
                    return Num::Exact(v);
                }
                match exact_f64(r) {
                    Some(x) if !domain(x) => Num::Undefined("outside the function's domain"),
                    Some(x) => real(f(x), false),
                    None if r.is_zero() => real(f(0.0), false),
                    None => Num::Unknown("an exact value beyond floating-point range"),
                }
            }
            Num::Real(x) if !domain(*x) => Num::Undefined("outside the function's domain"),
            Num::Real(x) => real(f(*x), false),
            Num::Infinity(_) => Num::Unknown("a function of an infinity"),
            other => other.clone(),
        }
    }

    pub fn abs(&self) -> Num {
        match self {
            Num::Exact(r) => Num::Exact(r.abs()),
            Num::Real(x) => Num::Real(x.abs()),
            Num::Infinity(_) => Num::Infinity(true),
            other => other.clone(),
        }
    }
}

/// `p/q` with a denominator small enough for a root (`x^{2/3}`).
fn small_fraction(x: &BigRational) -> Option<(i64, u32)> {
    let q = x.denom().to_u32().filter(|q| *q <= 64)?;
    Some((x.numer().to_i64()?, q))
}

fn real_root(x: f64, n: u32) -> Num {
    let r = super::real::pow(x.abs(), 1.0 / f64::from(n));
    real(if x < 0.0 { -r } else { r }, x != 0.0)
}

/// `b^x` for exact `b` and `x`: exact for integer `x` (bounded, with `0`, `1`, `-1` as bases
/// decided for any exponent: `(-1)^{10^{40}+1}` is −1), exact roots for `p/q`, else a float.
fn exact_pow(b: &BigRational, x: &BigRational) -> Num {
    if x.is_integer() {
        let k = x.to_integer();
        if b.is_zero() {
            return match k.sign() {
                Sign::Minus => Num::Undefined("0 to a negative power"),
                Sign::NoSign => Num::exact_int(1),
                Sign::Plus => Num::exact_int(0),
            };
        }
        if b.abs().is_one() {
            let odd = k.is_odd();
            return Num::Exact(if b.is_negative() && odd {
                -BigRational::one()
            } else {
                BigRational::one()
            });
        }
        // The result has at least (bits − 2)·|k| bits: refuse before computing it.
        let size = b.numer().bits() + b.denom().bits() - 2;
        let Some(e) = k
            .magnitude()
            .to_u64()
            .filter(|e| size.saturating_mul(*e) <= MAX_EXACT_BITS)
        else {
            return Num::Unknown("an exact value of more than 10,000 digits");
        };
        let Ok(e) = usize::try_from(e) else {
            return Num::Unknown("an exact value of more than 10,000 digits");
        };
        let p = BigRational::new(
            num_traits::pow(b.numer().clone(), e),
            num_traits::pow(b.denom().clone(), e),
        );
        return bounded(if k.is_negative() { p.recip() } else { p });
    }
    // p/q with a small q: the real q-th root to the p (`8^{2/3}` = 4, `(-8)^{1/3}` = -2).
    if let Some((p, q)) = small_fraction(x) {
        return Num::Exact(b.clone()).root(q).pow(&Num::exact_int(p));
    }
    match (exact_f64(b), exact_f64(x)) {
        (Some(a), Some(y)) => real(super::real::pow(a, y), true),
        _ => Num::Unknown("an exact value beyond floating-point range"),
    }
}

/// A float for reasons: plain when readable, scientific when tiny or huge.
pub fn float_str(x: f64) -> String {
    let a = x.abs();
    if a == 0.0 || (1e-4..1e15).contains(&a) {
        let s = format!("{x:.12}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        s.to_string()
    } else {
        format!("{x:.12e}")
    }
}

/// An exact value for reasons; a huge one is summarised, not printed in full.
pub fn exact_str(r: &BigRational) -> String {
    let show = |n: &BigInt| {
        let s = n.to_string();
        if s.len() > 48 {
            let head = s.get(..20).unwrap_or("");
            let tail = s.get(s.len() - 10..).unwrap_or("");
            format!("{head}…{tail} ({} digits)", s.trim_start_matches('-').len())
        } else {
            s
        }
    };
    if r.is_integer() {
        show(r.numer())
    } else {
        format!("{}/{}", show(r.numer()), show(r.denom()))
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Num::Exact(r) => f.write_str(&exact_str(r)),
            Num::Real(x) => f.write_str(&float_str(*x)),
            Num::Infinity(true) => f.write_str("∞"),
            Num::Infinity(false) => f.write_str("-∞"),
            Num::Undefined(why) => write!(f, "undefined ({why})"),
            Num::Unknown(why) => write!(f, "not computed ({why})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i128, d: i128) -> Rational {
        Rational::new(n, d).unwrap()
    }

    #[test]
    fn reduces_and_normalises_sign() {
        assert_eq!(r(2, -4), r(-1, 2));
        assert_eq!(r(-1, 2).to_string(), "-1/2");
        assert!(Rational::new(1, 0).is_none());
    }

    #[test]
    fn fractions_print_like_the_standard_formatting() {
        for n in [
            0,
            1,
            -1,
            9,
            10,
            -10,
            123_456_789,
            i128::MAX,
            i128::MIN,
            i128::MIN + 1,
            i128::from(u64::MAX),
            i128::from(u64::MAX) + 1,
            -i128::from(u64::MAX) - 1,
        ] {
            assert_eq!(Rational::from_int(n).to_string(), n.to_string());
        }
        assert_eq!(r(-7, 300).to_string(), "-7/300");
        assert_eq!(r(i128::MAX, 2).to_string(), format!("{}/2", i128::MAX));
    }

    #[test]
    fn decimals_are_exact() {
        assert_eq!(parse_decimal("0.25"), Some(r(1, 4)));
        assert_eq!(parse_decimal("54.0"), Some(r(54, 1)));
        assert_eq!(parse_decimal("-.5"), Some(r(-1, 2)));
        assert_eq!(parse_decimal("1.5e3"), Some(r(1500, 1)));
        assert_eq!(parse_decimal("2e-2"), Some(r(1, 50)));
        assert_eq!(parse_decimal("1.2.3"), None);
        assert_eq!(parse_decimal("."), None);
    }

    #[test]
    fn overflow_is_reported_not_wrapped() {
        let big = Rational::from_int(i128::MAX);
        assert!(big.checked_add(Rational::ONE).is_none());
        assert!(big.checked_mul(Rational::from_int(2)).is_none());
        assert!(Rational::from_int(i128::MIN).checked_neg().is_none());
        assert!(Rational::new(i128::MIN, -1).is_none());
    }

    #[test]
    fn powers_of_two_stay_exact_and_distinct() {
        let a = Rational::from_int(2).checked_pow(-98).unwrap();
        let b = Rational::from_int(2).checked_pow(-99).unwrap();
        assert_ne!(a, b);
        assert_eq!(a, b.checked_mul(Rational::from_int(2)).unwrap());
    }

    #[test]
    fn exact_sqrt_only_of_squares() {
        assert_eq!(r(9, 4).exact_sqrt(), Some(r(3, 2)));
        assert_eq!(r(2, 1).exact_sqrt(), None);
        let big = |n: i64, d: i64| Num::Exact(BigRational::new(BigInt::from(n), BigInt::from(d)));
        assert!(!big(2, 1).sqrt().is_exact());
        assert_eq!(big(9, 4).sqrt(), big(3, 2));
        assert_eq!(big(4, 1).pow(&big(1, 2)), big(2, 1));
        assert_eq!(big(8, 1).pow(&big(2, 3)), big(4, 1));
    }

    #[test]
    fn big_decimals_are_exact_at_any_length() {
        let a = parse_decimal_big("1234567890123456789012345678901234567890").unwrap();
        let b = parse_decimal_big("1234567890123456789012345678901234567891").unwrap();
        assert_ne!(a, b);
        assert_eq!(
            parse_decimal_big("0.0000000000000000000000000000000000000001").unwrap(),
            pow10(-40)
        );
        assert!(parse_decimal_big("1e99999999").is_none());
    }
}
