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
        return worded(a, b, preset);
    }
    let (Some(ea), Some(eb)) = (expr::parse(a), expr::parse(b)) else {
        // `6*10^{-3}m/s²`: no expression, but maybe a number with a unit.
        return worded(a, b, preset);
    };
    let imaginary = |e: &Expr| e.vars.iter().any(|v| v == "i" || v == "I");
    if imaginary(&ea) || imaginary(&eb) {
        return complex(a, b, &ea, &eb, preset);
    }
    if ea.vars.is_empty() && eb.vars.is_empty() {
        return constant(a, b, &ea, &eb, preset);
    }
    symbolic(a, b, &ea, &eb, preset)
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
        _ => {
            // Strict: decide exactly, with `\pi`, `e` and square roots as symbols
            // (`2\sqrt2` = `\sqrt8`, `\frac{\pi}{2}` = `\pi/2`); floats can then only prove
            // a difference.
            if preset == Preset::Strict && exact::constants_equal(ea, eb) == Some(true) {
                return verdict(
                    true,
                    Path::ExactRational,
                    format!(
                        "`{a}` and `{b}` are the same exact value (computed with \\pi, e and \
                         square roots as symbols)"
                    ),
                );
            }
            floats(a, b, &x, &y, preset)
        }
    }
}

/// Lenient rounding, which forgives only the side written as a rounded decimal:
/// the predicted answer written as a decimal with ≥ 2 places that an exact gold rounds to
/// (`0.33` for `\frac13`), or a gold given to N ≥ 2 significant figures as a decimal (`0.15`,
/// `3.3e12`) that a more precise answer rounds to (physics-style, `0.1476`). Two written
/// decimals of the same precision are both exact (`1.50` is not `1.499`), and a repeating
/// decimal is exact, never a rounding (`0.\overline{35625}` is not `.35625` = 57/160).
pub(super) fn rounded_exact(
    a: &str,
    b: &str,
    p: &BigRational,
    q: &BigRational,
) -> Option<Comparison> {
    if let Some(places) = decimal_places(a).filter(|n| *n >= 2) {
        if !written(b) && rounds_to_exact(q, p, places) {
            return Some(verdict(
                true,
                Path::Rounded,
                format!(
                    "the ground truth {} rounds to the answer `{a}` at {places} decimal places \
                     (lenient)",
                    Num::Exact(q.clone())
                ),
            ));
        }
    }
    let place = gold_rounding_place(a, b)?;
    let scale = pow10(-place);
    ((p * &scale).round() == (q * &scale).round()).then(|| {
        verdict(
            true,
            Path::Rounded,
            format!(
                "the answer {} rounds to the ground truth `{b}`, given to {} significant figures \
                 (lenient)",
                Num::Exact(p.clone()),
                significant_figures(b).unwrap_or(0)
            ),
        )
    })
}

/// Significant figures of a plain decimal literal (`0.15` → 2, `3.3e12` → 2, `6630` → 4).
fn significant_figures(s: &str) -> Option<usize> {
    parse_decimal_big(s)?;
    let mantissa = s.split(['e', 'E']).next()?;
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    Some(digits.trim_start_matches('0').len())
}

/// The power of ten of a literal's last written digit (`0.15` → −2, `3.3e12` → 11).
fn last_place(s: &str) -> Option<i64> {
    parse_decimal_big(s)?;
    let (mantissa, exp) = match s.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i64>().ok()?),
        None => (s, 0),
    };
    let frac = mantissa.split_once('.').map_or(0, |(_, f)| f.len());
    Some(exp - i64::try_from(frac).ok()?)
}

/// The place to round the answer at when the gold `b` is a decimal given to N ≥ 2
/// significant figures (a point or an exponent: integers such as `12` are exact counts) and the
/// answer `a` is more precise (an exact value, or a decimal with a later last digit).
fn gold_rounding_place(a: &str, b: &str) -> Option<i64> {
    if !b.contains(['.', 'e', 'E']) || a.contains("\\overline") || b.contains("\\overline") {
        return None;
    }
    if significant_figures(b)? < 2 {
        return None;
    }
    let place = last_place(b)?;
    if written(a) && last_place(a).is_none_or(|pa| pa >= place) {
        return None;
    }
    Some(place)
}

pub(super) fn written(s: &str) -> bool {
    s.contains("\\overline")
        || decimal_places(s).is_some()
        || parse_decimal(s).is_some()
        || parse_decimal_big(s).is_some()
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
    if close(fx, fy) {
        // Strict: a tolerance never decides "equal" (`\pi+10^{-12}` vs `\pi`); the exact
        // comparison (exact.rs) already had its chance.
        if preset == Preset::Strict {
            return undecided(
                Path::Float,
                format!(
                    "`{a}` = {x} and `{b}` = {y} agree to 1e-9 but could not be compared exactly \
                     (strict)"
                ),
            );
        }
        return verdict(
            true,
            Path::Float,
            format!("`{a}` ≈ `{b}` = {} (relative 1e-9)", float_str(fy)),
        );
    }
    // Lenient rounding, the same two rules as `rounded_exact`: the answer written as a
    // rounded decimal, or a gold given to N significant figures.
    if preset == Preset::Lenient {
        if let Some(places) = decimal_places(a).filter(|n| *n >= 2) {
            if !written(b) && rounds_to(fy, fx, places) {
                return verdict(
                    true,
                    Path::Rounded,
                    format!(
                        "the ground truth {} rounds to the answer `{a}` at {places} decimal \
                         places (lenient)",
                        float_str(fy)
                    ),
                );
            }
        }
        if let Some(place) = gold_rounding_place(a, b) {
            let scale = 10f64.powi(i32::try_from(-place).unwrap_or(i32::MAX));
            if scale.is_finite() && ((fx * scale).round() - (fy * scale).round()).abs() < 0.5 {
                return verdict(
                    true,
                    Path::Rounded,
                    format!(
                        "the answer {} rounds to the ground truth `{b}`, given to {} significant \
                         figures (lenient)",
                        float_str(fx),
                        significant_figures(b).unwrap_or(0)
                    ),
                );
            }
        }
    }
    verdict(
        false,
        Path::Float,
        format!("`{a}` = {x}, `{b}` = {y}: different"),
    )
}

/// Lenient, for a physics answer with a unit against a bare integer gold ending in zeros
/// (`299.4 km/s` for `300`, `6631.6 Å` for `6630`): the gold is read as given to its last
/// non-zero digit, and the answer, a written decimal, must round to it there and lie within
/// 1 % of it (a gold `300` does not take `250`). Only the side written as a rounding is
/// forgiven: the answer is the more precise one (docs/extract.md, "Equivalence policy").
fn physics_integer_gold(a: &str, b: &str) -> Option<Comparison> {
    if !a.contains('.') || !b.bytes().all(|c| c.is_ascii_digit()) || !b.ends_with('0') {
        return None;
    }
    let zeros = b.len() - b.trim_end_matches('0').len();
    if zeros == b.len() {
        return None;
    }
    let x = parse_decimal_big(a)?;
    let y = parse_decimal_big(b)?;
    let scale = pow10(-i64::try_from(zeros).ok()?);
    let close = {
        let diff = (&x - &y).abs();
        let limit = y.abs() / BigRational::from_integer(100.into());
        diff <= limit
    };
    (close && (&x * &scale).round() == (&y * &scale).round()).then(|| {
        verdict(
            true,
            Path::Rounded,
            format!(
                "the answer `{a}` rounds to the ground truth `{b}`, read as given to its last \
                 non-zero digit, and lies within 1 % of it (lenient)"
            ),
        )
    })
}

/// Lenient, physics-style rounding of a coefficient: the gold is a decimal given to N ≥ 2
/// significant figures times one variable (`2.2\tau`), the answer an exact multiple of that
/// variable (`t_r=\tau\ln 9`, a label dropped) whose coefficient rounds to the gold's at its
/// last digit (ln 9 = 2.197… → 2.2). Only the gold's side, written as a rounding, is forgiven
/// (docs/extract.md, "Equivalence policy").
pub(super) fn scaled_rounding(a: &str, b: &str) -> Option<Comparison> {
    let value = match a.split_once('=') {
        Some((_, v)) if !v.contains('=') => v,
        Some(_) => return None,
        None => a,
    };
    if value.contains('.') || b.contains('=') {
        return None;
    }
    let end = b.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
    let (num, rest) = b.split_at(end);
    if !num.contains('.') || significant_figures(num)? < 2 {
        return None;
    }
    let place = last_place(num)?;
    let (ea, er) = (expr::parse(value)?, expr::parse(rest)?);
    if er.vars.len() != 1 || ea.vars != er.vars {
        return None;
    }
    let at = |e: &Expr, x: f64| expr::eval(&e.root, &[x]).to_f64();
    // The rest is the variable itself, and the answer is proportional to it.
    if at(&er, 2.0)? != 2.0 || at(&er, 3.0)? != 3.0 {
        return None;
    }
    let k = at(&ea, 1.0)?;
    let proportional = [2.0, 3.5]
        .iter()
        .all(|&x| at(&ea, x).is_some_and(|y| (y - k * x).abs() <= 1e-12 * (k * x).abs()));
    let g = parse_decimal(num)?.to_f64();
    let scale = 10f64.powi(i32::try_from(-place).ok()?);
    let rounds =
        k.is_finite() && k != 0.0 && ((k * scale).round() - (g * scale).round()).abs() < 0.5;
    (proportional && rounds).then(|| {
        verdict(
            true,
            Path::Rounded,
            format!(
                "`{value}` = {} times the variable rounds to the ground truth's coefficient `{num}`, \
                 given to {} significant figures (lenient)",
                float_str(k),
                significant_figures(num).unwrap_or(0)
            ),
        )
    })
}

/// Answers with a run of letters. Text first (`yes` vs `Yes`); then a number with a unit
/// against a number (`1000 rad/s` vs `1000`, `3.83*10^{35} ergs/s` vs `3.83e35`: the unit is
/// dropped, in both presets, when the other side has none or the same one); then, when both
/// are written as mathematics and no run of letters is longer than three (`bs`, `ce^{-2t}`,
/// not `hexagon`), as products of single-letter variables (`b s` = `bs`), which only an
/// equal verdict is taken from.
fn worded(a: &str, b: &str, preset: Preset) -> Comparison {
    let t = text(a, b, preset);
    if t.equivalent {
        return t;
    }
    let (ua, ub) = (unit_tail(a), unit_tail(b));
    if ua.is_some() || ub.is_some() {
        let (na, ta) = ua.unwrap_or((a, ""));
        let (nb, tb) = ub.unwrap_or((b, ""));
        let compatible = ta.is_empty() || tb.is_empty() || squeeze(ta) == squeeze(tb);
        if compatible && !has_word(na) && !has_word(nb) {
            let mut c = compare_at(na, nb, preset, 1);
            let unit = if ta.is_empty() { tb } else { ta };
            if !c.equivalent && preset == Preset::Lenient && !ta.is_empty() && tb.is_empty() {
                if let Some(r) = physics_integer_gold(na, nb) {
                    c = r;
                }
            }
            return with_outcome(
                c.outcome,
                Path::Unit,
                format!("the unit `{unit}` set aside: {}", c.reason),
            );
        }
        return t;
    }
    if !(mathy(a) && mathy(b)) {
        return t;
    }
    let (Some(ea), Some(eb)) = (expr::parse(a), expr::parse(b)) else {
        return t;
    };
    let imaginary = |e: &Expr| e.vars.iter().any(|v| v == "i" || v == "I");
    let c = if imaginary(&ea) || imaginary(&eb) {
        // `e^{it}` reads as the word `it` until parsed: `i` is still the imaginary unit.
        complex(a, b, &ea, &eb, preset)
    } else if ea.vars.is_empty() && eb.vars.is_empty() {
        constant(a, b, &ea, &eb, preset)
    } else {
        symbolic(a, b, &ea, &eb, preset)
    };
    if c.outcome == Outcome::Equal {
        return c;
    }
    t
}

fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Mathematics, not prose: an operator or a command, and no run of more than three letters
/// outside a `\command`.
fn mathy(s: &str) -> bool {
    if !s.contains(['^', '+', '-', '/', '\\', '(', '*', '_']) {
        return false;
    }
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b.get(i).is_some_and(u8::is_ascii_alphabetic) {
            let start = i;
            while b.get(i).is_some_and(u8::is_ascii_alphabetic) {
                i += 1;
            }
            let command = start > 0 && b.get(start - 1) == Some(&b'\\');
            let function = s.get(start..i).is_some_and(|w| FUNCTION_WORDS.contains(&w));
            if !command && !function && i - start > 3 {
                return false;
            }
        } else {
            i += 1;
        }
    }
    true
}

/// Function names written without a backslash (`arcsin(10/13)`).
const FUNCTION_WORDS: &[&str] = &[
    "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "sqrt", "exp",
];

/// Single letters that are units after a number (`5 m`, `3 s`, `2 g`); any other unit needs
/// two letters or more, so `3 x` stays 3x.
const UNIT_LETTERS: &[&str] = &["m", "s", "g", "K", "A", "V", "W", "J", "N", "L", "Å"];

/// `(number, unit)` when `s` is a constant followed by a space and a unit-like tail: words of
/// letters with `/`, powers and products (`rad/s`, `kcal m^{-2}yr^{-1}`, `ergs/s`, `Å`).
pub(super) fn unit_tail(s: &str) -> Option<(&str, &str)> {
    // After a space, or where letters follow a digit or a brace (`10^{35}ergs/s`).
    // Linear: only before the first command (`\\frac{10^4\\pi}{648}microns` is no number).
    let b = s.as_bytes();
    let first_command = s.find('\\').unwrap_or(b.len());
    let glued = (1..first_command).find(|&i| {
        b.get(i).is_some_and(u8::is_ascii_alphabetic)
            && b.get(i - 1)
                .is_some_and(|p| p.is_ascii_digit() || *p == b'}')
    });
    let cut = s.find(' ').into_iter().chain(glued).min()?;
    let (num, tail) = (s.get(..cut)?.trim(), s.get(cut..)?.trim());
    if num.is_empty() || tail.is_empty() || !numeric(num) {
        return None;
    }
    let mut letters = 0;
    let mut rest = tail;
    while !rest.is_empty() {
        rest = rest.trim_start_matches([' ', '/', '*', '.', '·']);
        if rest.is_empty() {
            break;
        }
        let word: String = rest
            .chars()
            .take_while(|c| c.is_alphabetic() || *c == '\\')
            .collect();
        let bare = word.trim_start_matches('\\');
        if bare.is_empty()
            || bare.contains('\\')
            || !(bare.chars().count() >= 2 || UNIT_LETTERS.contains(&bare))
        {
            return None;
        }
        letters += bare.len();
        rest = rest.get(word.len()..).unwrap_or("");
        // An optional power: `^2`, `^{-2}`, `²`, `³`.
        if let Some(p) = rest.strip_prefix('^') {
            let len = match p.strip_prefix('{') {
                Some(inner) => {
                    let close = inner.find('}')?;
                    let body = inner.get(..close)?;
                    if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit() || b == b'-') {
                        return None;
                    }
                    close + 2
                }
                None => {
                    let n = p
                        .bytes()
                        .take_while(|b| b.is_ascii_digit() || *b == b'-')
                        .count();
                    if n == 0 {
                        return None;
                    }
                    n
                }
            };
            rest = p.get(len..).unwrap_or("");
        } else if let Some(p) = rest.strip_prefix(['²', '³']) {
            rest = p;
        }
    }
    (letters > 0).then_some((num, tail))
}
