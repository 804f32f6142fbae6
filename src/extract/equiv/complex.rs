//! Complex answers in exact Gaussian-rational arithmetic.

use super::*;

/// A Gaussian rational `re + im·i`.
pub(super) type Gauss = (BigRational, BigRational);

/// Complex answers: `i` (or `I`) is the imaginary unit, and both sides are computed exactly
/// as Gaussian rationals (`+ − · /` and integer powers: `i^2` = −1, `\frac{1}{1+i}` =
/// `\frac{1-i}{2}`). Anything else with `i` in it — another variable beside it, `\sqrt{i}`,
/// `e^{i\pi}`, an irrational coefficient — is "could not decide": treating `i` as a real
/// variable made `i^2` differ from −1, so no verdict is safer than that one.
pub(super) fn complex(a: &str, b: &str, ea: &Expr, eb: &Expr) -> Comparison {
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
pub(super) fn gauss(n: &Node) -> Result<Gauss, &'static str> {
    let bounded = |g: Gauss| {
        let bits = |r: &BigRational| r.numer().bits() + r.denom().bits();
        if bits(&g.0) + bits(&g.1) > crate::extract::number::MAX_EXACT_BITS {
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
