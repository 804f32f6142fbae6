//! Exact rationals on i128 with checked arithmetic, and the `Num` value the evaluator works in.
//!
//! Answers are compared exactly whenever they can be: a float tolerance is what lets other
//! graders call 120006 equal to 120000. When an exact operation would overflow (or is
//! irrational, like `\sqrt 2`), the value degrades to an `f64` and the comparison path says so.

use std::cmp::Ordering;
use std::fmt;

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

/// A value: exact when possible, otherwise a float (the comparison path reports which).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    Exact(Rational),
    Real(f64),
}

impl Num {
    pub fn to_f64(self) -> f64 {
        match self {
            Num::Exact(r) => r.to_f64(),
            Num::Real(x) => x,
        }
    }

    pub fn is_exact(self) -> bool {
        matches!(self, Num::Exact(_))
    }

    /// `exact` when both are exact and it does not overflow, else `real` on floats. Plain `fn`
    /// pointers, not generics: one copy of this in the wasm for all four operators.
    fn lift(
        self,
        o: Num,
        exact: fn(Rational, Rational) -> Option<Rational>,
        real: fn(f64, f64) -> f64,
    ) -> Num {
        if let (Num::Exact(a), Num::Exact(b)) = (self, o) {
            if let Some(r) = exact(a, b) {
                return Num::Exact(r);
            }
        }
        Num::Real(real(self.to_f64(), o.to_f64()))
    }

    // Named like the std operators on purpose, but not the traits: each falls back from exact
    // to float on overflow, which callers should see at the call site.
    #[allow(clippy::should_implement_trait)]
    pub fn add(self, o: Num) -> Num {
        self.lift(o, Rational::checked_add, |a, b| a + b)
    }
    #[allow(clippy::should_implement_trait)]
    pub fn sub(self, o: Num) -> Num {
        self.lift(o, Rational::checked_sub, |a, b| a - b)
    }
    #[allow(clippy::should_implement_trait)]
    pub fn mul(self, o: Num) -> Num {
        self.lift(o, Rational::checked_mul, |a, b| a * b)
    }
    #[allow(clippy::should_implement_trait)]
    pub fn div(self, o: Num) -> Num {
        self.lift(o, Rational::checked_div, |a, b| a / b)
    }
    #[allow(clippy::should_implement_trait)]
    pub fn neg(self) -> Num {
        match self {
            Num::Exact(r) => r.checked_neg().map_or(Num::Real(-r.to_f64()), Num::Exact),
            Num::Real(x) => Num::Real(-x),
        }
    }

    pub fn pow(self, e: Num) -> Num {
        if let (Num::Exact(b), Num::Exact(x)) = (self, e) {
            if x.is_integer() {
                if let Some(r) = b.checked_pow(x.numer()) {
                    return Num::Exact(r);
                }
            } else if x == Rational::new(1, 2).unwrap_or(Rational::ONE) {
                return self.sqrt();
            }
        }
        Num::Real(super::real::pow(self.to_f64(), e.to_f64()))
    }

    pub fn sqrt(self) -> Num {
        if let Num::Exact(r) = self {
            if let Some(s) = r.exact_sqrt() {
                return Num::Exact(s);
            }
        }
        Num::Real(self.to_f64().sqrt())
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Num::Exact(r) => write!(f, "{r}"),
            Num::Real(x) => f.write_str(&format!("{}", *x)),
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
        assert!(!Num::Exact(r(2, 1)).sqrt().is_exact());
        assert_eq!(
            Num::Exact(r(4, 1)).pow(Num::Exact(r(1, 2))),
            Num::Exact(r(2, 1))
        );
    }
}
