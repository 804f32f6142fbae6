//! Scalar answers: exact rationals, big integers, floats for irrational values, and the
//! lenient rounding rule.

use super::*;

pub(super) fn numeric(s: &str) -> bool {
    expr::parse(s).is_some_and(|e| e.vars.is_empty())
}

pub(super) fn digits_only(s: &str) -> Option<&str> {
    let body = s.strip_prefix('-').unwrap_or(s);
    (!body.is_empty() && body.bytes().all(|b| b.is_ascii_digit())).then_some(s)
}

pub(super) fn strip_leading_zeros(s: &str) -> String {
    let (neg, body) = s.strip_prefix('-').map_or((false, s), |b| (true, b));
    let t = body.trim_start_matches('0');
    let t = if t.is_empty() { "0" } else { t };
    if neg && t != "0" {
        format!("-{t}")
    } else {
        t.to_string()
    }
}

pub(super) fn close(x: f64, y: f64) -> bool {
    if !(x.is_finite() && y.is_finite()) {
        return false;
    }
    // Relative only: an absolute floor would make 1/2^200 equal 1/2^201.
    x == y || (x - y).abs() <= REL_TOL * x.abs().max(y.abs())
}

/// Decimal places written in a plain decimal literal (`0.33` → 2), if it is one.
pub(super) fn decimal_places(s: &str) -> Option<usize> {
    parse_decimal(s)?;
    if s.contains(['e', 'E']) {
        return None;
    }
    s.split_once('.').map(|(_, f)| f.len())
}

pub(super) fn rounds_to(value: f64, literal: f64, places: usize) -> bool {
    let Ok(p) = i32::try_from(places) else {
        return false;
    };
    let scale = 10f64.powi(p);
    ((value * scale).round() - (literal * scale).round()).abs() < 0.5
}

/// Exact rounding of a rational to `places` decimals (half away from zero), for the lenient
/// rounding rule when both values are exact (`0.33` vs `1/3`).
pub(super) fn rounds_to_exact(value: &BigRational, literal: &BigRational, places: usize) -> bool {
    let Ok(p) = i64::try_from(places) else {
        return false;
    };
    let scale = pow10(p);
    (value * &scale).round() == (literal * &scale).round()
}

pub(super) fn scalar(a: &str, b: &str, preset: Preset) -> Comparison {
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

pub(super) fn constant(a: &str, b: &str, ea: &Expr, eb: &Expr, preset: Preset) -> Comparison {
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
pub(super) fn rounded_exact(
    a: &str,
    b: &str,
    p: &BigRational,
    q: &BigRational,
) -> Option<Comparison> {
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

pub(super) fn written(s: &str) -> bool {
    decimal_places(s).is_some() || parse_decimal(s).is_some() || parse_decimal_big(s).is_some()
}

/// At least one side is a float (an irrational value). Two floats agree within relative 1e-9;
/// an exact value against a float may be a decimal approximation of an irrational, so the strict
/// preset does not accept it (`\pi` vs `3.1415926535`): it is "could not decide" when the two
/// agree to float precision, different otherwise.
pub(super) fn floats(a: &str, b: &str, x: &Num, y: &Num, preset: Preset) -> Comparison {
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
