//! Complex answers in exact Gaussian-rational arithmetic.

use super::*;

/// A Gaussian rational `re + im·i`.
pub(super) type Gauss = (BigRational, BigRational);

/// Complex answers: `i` (or `I`) is the imaginary unit, and both sides are computed exactly
/// as Gaussian rationals (`+ − · /` and integer powers: `i^2` = −1, `\frac{1}{1+i}` =
/// `\frac{1-i}{2}`). Anything else with `i` in it — another variable beside it, `\sqrt{i}`,
/// `e^{i\pi}`, an irrational coefficient — is "could not decide": treating `i` as a real
/// variable made `i^2` differ from −1, so no verdict is safer than that one.
pub(super) fn complex(a: &str, b: &str, ea: &Expr, eb: &Expr, preset: Preset) -> Comparison {
    let only_i = |e: &Expr| e.vars.iter().all(|v| v == "i" || v == "I");
    if !only_i(ea) || !only_i(eb) {
        if let Some(n) = sampled(ea, eb) {
            return verdict(
                true,
                Path::Complex,
                format!(
                    "`{a}` and `{b}` are exactly equal as complex values at {n} rational points \
                     (`e^{{i\\theta}}` a point of the unit circle)"
                ),
            );
        }
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
        (Err(why), _) | (_, Err(why)) => match (cfloat(&ea.root), cfloat(&eb.root)) {
            // Not exact (`1+i\sqrt{3}`, `\ln 2+i\frac{\pi}{3}`, `e^{i\pi}`): in floating point,
            // which can prove a difference; an agreement is equal in lenient only.
            (Some(x), Some(y)) => {
                let show = |z: (f64, f64)| format!("{} + {}i", float_str(z.0), float_str(z.1));
                let near = |p: f64, q: f64| close(p, q) || (p.abs() < 1e-300 && q.abs() < 1e-300);
                let scale = x.0.abs().max(x.1.abs()).max(y.0.abs()).max(y.1.abs());
                let part = |p: f64, q: f64| near(p, q) || (p - q).abs() <= REL_TOL * scale;
                let agree = part(x.0, y.0) && part(x.1, y.1);
                // Float noise is no proof: `e^{i\pi}+1` is 1.2e-16·i in floats. Values
                // within 1e-9 of each other on the scale of 1 are not told apart.
                let gap = (x.0 - y.0).abs().max((x.1 - y.1).abs());
                if !agree && gap <= REL_TOL * scale.max(1.0) {
                    return undecided(
                        Path::Complex,
                        format!(
                            "`{a}` ≈ {} and `{b}` ≈ {} differ by no more than float noise",
                            show(x),
                            show(y)
                        ),
                    );
                }
                if !agree {
                    return verdict(
                        false,
                        Path::Complex,
                        format!("`{a}` ≈ {} and `{b}` ≈ {}: different", show(x), show(y)),
                    );
                }
                if preset == Preset::Strict {
                    return undecided(
                        Path::Complex,
                        format!(
                            "`{a}` and `{b}` agree to 1e-9 as complex numbers ({}) but not \
                             exactly: {why} (strict)",
                            show(x)
                        ),
                    );
                }
                verdict(
                    true,
                    Path::Complex,
                    format!("`{a}` ≈ `{b}` ≈ {} (complex, relative 1e-9)", show(y)),
                )
            }
            _ => undecided(
                Path::Complex,
                format!("`{a}` vs `{b}`: {why}, beyond exact complex arithmetic"),
            ),
        },
    }
}

/// Exact value of an expression whose variables all stand for `i` (no exponential: `e^{i\pi}`
/// has no Gaussian-rational value).
pub(super) fn gauss(n: &Node) -> Result<Gauss, &'static str> {
    gauss_at(n, &[], None)
}

/// Complex answers with other variables (a phasor `\frac{2A(1-i)}{3}e^{it}` vs
/// `\frac{4A}{3+3i}e^{it}`): both sides computed as Gaussian rationals at rational points of
/// the real variables, `e^{i\theta}` being a rational point of the unit circle fixed by the
/// exact value of θ (equiv/exact.rs). `Some(points)` when they agree at every point; a
/// difference proves nothing (the circle points are symbols), so this only ever decides
/// *equal*.
fn sampled(ea: &Expr, eb: &Expr) -> Option<usize> {
    let names: Vec<&str> = shared_names(ea, eb)
        .into_iter()
        .filter(|v| *v != "i" && *v != "I")
        .collect();
    let mut draw = exact::Draw::new(2);
    let mut agreed = 0;
    for _ in 0..POINTS_TRIED {
        let point = exact::rational_point(&mut draw, names.len());
        let vals = |e: &Expr| -> Vec<Option<BigRational>> {
            e.vars
                .iter()
                .map(|v| {
                    let i = names.iter().position(|n| n == v)?;
                    point.get(i).cloned()
                })
                .collect()
        };
        let seed = draw.next_u64();
        match (
            gauss_at(&ea.root, &vals(ea), Some(seed)),
            gauss_at(&eb.root, &vals(eb), Some(seed)),
        ) {
            (Ok(x), Ok(y)) if x == y => agreed += 1,
            (Ok(_), Ok(_)) => return None,
            (Err("a division by zero"), _) | (_, Err("a division by zero")) => continue,
            _ => return None,
        }
        if agreed >= exact::EXACT_POINTS {
            return Some(agreed);
        }
    }
    None
}

/// The exact value with values for the real variables (`None`: the variable is `i`) and, given a
/// `seed`, `e^{z}` for a purely imaginary `z` as a rational point of the unit circle fixed by
/// `z` (a symbol: such values only ever show two forms *equal*, see [`sampled`]).
fn gauss_at(
    n: &Node,
    vals: &[Option<BigRational>],
    seed: Option<u64>,
) -> Result<Gauss, &'static str> {
    let bounded = |g: Gauss| {
        let bits = |r: &BigRational| r.numer().bits() + r.denom().bits();
        if bits(&g.0) + bits(&g.1) > crate::extract::number::MAX_EXACT_BITS {
            Err("a value past the exact size bound")
        } else {
            Ok(g)
        }
    };
    let zero = BigRational::zero;
    let one = || BigRational::from_integer(1.into());
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
    let at = |x: &Node| gauss_at(x, vals, seed);
    match n {
        Node::Var(k) => Ok(match vals.get(*k).cloned().flatten() {
            Some(r) => (r, zero()),
            None => (zero(), one()),
        }),
        Node::Neg(x) => at(x).map(|g| (-g.0, -g.1)),
        Node::Add(x, y) => {
            let (p, q) = (at(x)?, at(y)?);
            bounded((p.0 + q.0, p.1 + q.1))
        }
        Node::Sub(x, y) => {
            let (p, q) = (at(x)?, at(y)?);
            bounded((p.0 - q.0, p.1 - q.1))
        }
        Node::Mul(x, y) => mul(&at(x)?, &at(y)?),
        Node::Div(x, y) => mul(&at(x)?, &recip(&at(y)?)?),
        Node::Pow(x, e) if matches!(x.as_ref(), Node::E) && seed.is_some() => {
            let z = at(e)?;
            if !z.0.is_zero() {
                return Err("an exponential with a real part");
            }
            let mut formal = false;
            let t = exact::opaque("angle", &[&z.1], seed.unwrap_or_default(), &mut formal);
            let d = one() + &t * &t;
            bounded(((one() - &t * &t) / &d, (&t + &t) / &d))
        }
        Node::Pow(x, e) => {
            let base = at(x)?;
            let k = match (expr::mentions(e, None), expr::eval(e, &[])) {
                (false, Num::Exact(k)) if k.is_integer() => k.to_integer(),
                _ => return Err("a power that is not an integer"),
            };
            let k: i64 = num_traits::ToPrimitive::to_i64(&k)
                .filter(|k| k.abs() <= 256)
                .ok_or("a power too large")?;
            let mut acc: Gauss = (one(), zero());
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

/// A complex value in floating point, for an expression whose variables all stand for `i`:
/// `+ − · /`, integer powers, and `e^{z}` / `\exp z`. `None` for anything else.
fn cfloat(n: &Node) -> Option<(f64, f64)> {
    let finite = |z: (f64, f64)| (z.0.is_finite() && z.1.is_finite()).then_some(z);
    let mul = |x: (f64, f64), y: (f64, f64)| (x.0 * y.0 - x.1 * y.1, x.0 * y.1 + x.1 * y.0);
    let cexp = |z: (f64, f64)| {
        let m = crate::extract::real::exp(z.0);
        (
            m * crate::extract::real::cos(z.1),
            m * crate::extract::real::sin(z.1),
        )
    };
    if !expr::mentions(n, None) {
        return Some((expr::eval(n, &[]).to_f64()?, 0.0));
    }
    let z = match n {
        Node::Var(_) => (0.0, 1.0),
        Node::Neg(x) => {
            let v = cfloat(x)?;
            (-v.0, -v.1)
        }
        Node::Add(x, y) => {
            let (p, q) = (cfloat(x)?, cfloat(y)?);
            (p.0 + q.0, p.1 + q.1)
        }
        Node::Sub(x, y) => {
            let (p, q) = (cfloat(x)?, cfloat(y)?);
            (p.0 - q.0, p.1 - q.1)
        }
        Node::Mul(x, y) => mul(cfloat(x)?, cfloat(y)?),
        Node::Div(x, y) => {
            let (p, q) = (cfloat(x)?, cfloat(y)?);
            let d = q.0 * q.0 + q.1 * q.1;
            if d == 0.0 {
                return None;
            }
            mul(p, (q.0 / d, -q.1 / d))
        }
        Node::Pow(x, e) if matches!(x.as_ref(), Node::E) => cexp(cfloat(e)?),
        Node::Call(expr::Func::Exp, x) => cexp(cfloat(x)?),
        Node::Pow(x, e) if !expr::mentions(e, None) => {
            let k = match expr::eval(e, &[]) {
                Num::Exact(k) if k.is_integer() => {
                    num_traits::ToPrimitive::to_i64(&k.to_integer())?
                }
                _ => return None,
            };
            if k.abs() > 256 {
                return None;
            }
            let base = cfloat(x)?;
            let mut acc = (1.0, 0.0);
            for _ in 0..k.abs() {
                acc = mul(acc, base);
            }
            if k < 0 {
                let d = acc.0 * acc.0 + acc.1 * acc.1;
                if d == 0.0 {
                    return None;
                }
                (acc.0 / d, -acc.1 / d)
            } else {
                acc
            }
        }
        _ => return None,
    };
    finite(z)
}
