//! Sums and products over an index (`\sum_{k=0}^{n-1} F_k F_{n-k-1}`): two of them with the
//! same bounds are equal when their bodies are the same function of the index and the other
//! variables, with subscripted names read as unknown sequences (`F_{n-k-1}` is F at n−k−1;
//! expr::parse_opaque). Decided by exact sampling only (equiv/exact.rs), so the verdict is
//! *equal* or *could not decide*: bodies or bounds that differ may still give the same sum
//! (docs/extract.md, "sums and products").

use num_bigint::BigInt;
use num_traits::ToPrimitive;

use super::*;

/// `head \sum_{idx=lo}^{hi} body`, the sum or product last in the answer.
struct BigOp<'a> {
    head: &'a str,
    product: bool,
    index: &'a str,
    lo: &'a str,
    hi: &'a str,
    body: &'a str,
}

fn big_op(s: &str) -> Option<BigOp<'_>> {
    let (at, product, len) = match (s.find("\\sum"), s.find("\\prod")) {
        (Some(i), p) if p.is_none_or(|p| i < p) => (i, false, 4),
        (_, Some(p)) => (p, true, 5),
        _ => return None,
    };
    let mut rest = s.get(at + len..)?;
    rest = rest.strip_prefix("\\limits").unwrap_or(rest).trim_start();
    let sub = rest.strip_prefix('_')?.trim_start();
    let sub_at = s.len() - sub.len();
    let (from, to, end) = crate::extract::normalize::braced(s, sub_at)?;
    let (index, lo) = s.get(from..to)?.split_once('=')?;
    let (index, lo) = (index.trim(), lo.trim());
    let sup = s.get(end..)?.trim_start().strip_prefix('^')?.trim_start();
    let sup_at = s.len() - sup.len();
    let (hi, body) = if sup.starts_with('{') {
        let (from, to, end) = crate::extract::normalize::braced(s, sup_at)?;
        (s.get(from..to)?, s.get(end..)?)
    } else {
        let c = sup.chars().next().filter(char::is_ascii_alphanumeric)?;
        (sup.get(..c.len_utf8())?, sup.get(c.len_utf8()..)?)
    };
    let body = body.trim();
    let one_letter = index.len() == 1 && index.bytes().all(|b| b.is_ascii_alphabetic());
    (one_letter && !lo.is_empty() && !body.is_empty()).then_some(BigOp {
        head: s.get(..at)?.trim(),
        product,
        index,
        lo,
        hi: hi.trim(),
        body,
    })
}

/// Two sums (or two products) after the same text: *equal* when the bounds are equal and the
/// bodies agree exactly at every sample point, else *could not decide*. `None` when the two
/// answers are not both such sums after the same text.
pub(super) fn big_operators(a: &str, b: &str, preset: Preset, depth: usize) -> Option<Comparison> {
    if !(a.contains("\\sum") || a.contains("\\prod")) {
        return None;
    }
    let (x, y) = (big_op(a)?, big_op(b)?);
    if x.head != y.head || x.product != y.product {
        return None;
    }
    let what = if x.product { "products" } else { "sums" };
    let open = |why: String| {
        Some(undecided(
            Path::BigOperator,
            format!("{what} `{a}` vs `{b}`: {why}"),
        ))
    };
    let (Some(ea), Some(mut eb)) = (expr::parse_opaque(x.body), expr::parse_opaque(y.body)) else {
        return open("a body is not an expression".into());
    };
    if let Some(why) = differ_at_integers(&x, &ea, &y, &eb) {
        return Some(verdict(
            false,
            Path::BigOperator,
            format!("{what} `{a}` vs `{b}`: {why}"),
        ));
    }
    let lo = compare_at(x.lo, y.lo, preset, depth + 1);
    let hi = compare_at(x.hi, y.hi, preset, depth + 1);
    if !(lo.equivalent && hi.equivalent) {
        return open(format!(
            "the bounds differ or were not compared ({}; {})",
            lo.reason, hi.reason
        ));
    }
    // The same sum over another index letter: rename it when the name is free.
    if x.index != y.index {
        if eb.vars.iter().any(|v| v == x.index) {
            return open("the index letters differ".into());
        }
        for v in eb.vars.iter_mut().filter(|v| *v == y.index) {
            *v = x.index.to_string();
        }
    }
    match exact::sample(&ea, &eb, |p, q| Some(p == q)) {
        exact::Sampled::Equal(n) => Some(verdict(
            true,
            Path::BigOperator,
            format!(
                "{what} with equal bounds whose bodies `{}` and `{}` are exactly equal at {n} \
                 rational points (subscripts read as unknown sequences)",
                x.body, y.body
            ),
        )),
        _ => open(format!(
            "the bodies `{}` and `{}` were not shown equal",
            x.body, y.body
        )),
    }
}

/// Terms summed at most per evaluation, and the integer values tried for the variables of
/// the bounds (`n` in `\sum_{k=0}^{n-1}`).
const MAX_TERMS: i64 = 64;
const BOUND_VALUES: [i64; 6] = [2, 3, 4, 5, 7, 9];

/// True when `n` holds a value exact sampling stands in for by a symbol (`\pi`, `e`, a root):
/// a difference then proves nothing.
fn has_symbol(n: &Node) -> bool {
    use Node::*;
    match n {
        Pi | E | Root(..) | Call(expr::Func::Sqrt, _) => true,
        Lit(_) | Infinity | Var(_) => false,
        Neg(a) | Call(_, a) | Fact(a) | Apply(_, a) => has_symbol(a),
        Add(a, b) | Sub(a, b) | Mul(a, b) | Div(a, b) | Pow(a, b) | Binom(a, b) | LogBase(a, b) => {
            has_symbol(a) || has_symbol(b)
        }
    }
}

/// The two sums evaluated exactly, term by term, at integer values of the bounds' variables,
/// with each unknown sequence given one fixed value per argument: a difference there is a
/// sequence for which the two answers differ, so they are different expressions. `Some(why)`
/// only for such a difference; equal values prove nothing.
fn differ_at_integers(x: &BigOp, ea: &Expr, y: &BigOp, eb: &Expr) -> Option<String> {
    if has_symbol(&ea.root) || has_symbol(&eb.root) {
        return None;
    }
    let bounds = [x.lo, x.hi, y.lo, y.hi].map(expr::parse);
    let mut names: Vec<&str> = Vec::new();
    for e in bounds.iter().flatten() {
        if has_symbol(&e.root) {
            return None;
        }
        names.extend(e.vars.iter().map(String::as_str));
    }
    names.sort_unstable();
    names.dedup();
    if names.contains(&x.index) || names.contains(&y.index) {
        return None;
    }
    let [Some(xl), Some(xh), Some(yl), Some(yh)] = &bounds else {
        return None;
    };
    for (at, &n) in BOUND_VALUES.iter().enumerate() {
        let seed = 7_000 + at as u64;
        // The bounds' variables take `n`; any other variable a fixed rational per name.
        let value_of = |name: &str| {
            if names.contains(&name) {
                return BigRational::from_integer(BigInt::from(n));
            }
            let h = name
                .bytes()
                .fold(at as i64 + 3, |h, b| (h * 31 + i64::from(b)) % 997);
            BigRational::new(BigInt::from(h - 498), BigInt::from(7))
        };
        let exact_at = |e: &Expr, index: Option<(&str, i64)>| {
            let vars: Vec<BigRational> = e
                .vars
                .iter()
                .map(|v| match index {
                    Some((i, k)) if v == i => BigRational::from_integer(BigInt::from(k)),
                    _ => value_of(v),
                })
                .collect();
            let mut formal = false;
            exact::value(&e.root, &exact::Point::new(&vars, seed), &mut formal).ok()
        };
        let total = |op: &BigOp, body: &Expr, lo: &Expr, hi: &Expr| -> Option<BigRational> {
            let bound = |b: &Expr| {
                let r = exact_at(b, None).filter(|r| r.is_integer())?;
                r.to_integer().to_i64()
            };
            let (lo, hi) = (bound(lo)?, bound(hi)?);
            if hi.saturating_sub(lo) > MAX_TERMS {
                return None;
            }
            let mut acc = BigRational::from_integer(BigInt::from(i64::from(op.product)));
            for k in lo..=hi {
                let t = exact_at(body, Some((op.index, k)))?;
                acc = if op.product { acc * t } else { acc + t };
            }
            Some(acc)
        };
        let (p, q) = (total(x, ea, xl, xh)?, total(y, eb, yl, yh)?);
        if p != q {
            let at: Vec<String> = names.iter().map(|v| format!("{v} = {n}")).collect();
            return Some(format!(
                "with each unknown sequence given one value per argument, the two differ at {} \
                 (exact)",
                at.join(", ")
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(a: &str, b: &str) -> Option<Outcome> {
        big_operators(a, b, Preset::Strict, 0).map(|c| c.outcome)
    }

    #[test]
    fn sums_with_the_same_bounds_compare_by_their_bodies() {
        let gold = "F_n=\\sum_{k=0}^{n-1}F_kF_{n-k-1}";
        assert_eq!(
            outcome("F_n=\\sum_{k=0}^{n-1}F_{n-k-1}F_k", gold),
            Some(Outcome::Equal)
        );
        assert_eq!(
            outcome("F_n=\\sum_{k=0}^{n-1}F_{n-1-k}F_{k}", gold),
            Some(Outcome::Equal)
        );
        assert_eq!(
            outcome("F_n=\\sum_{j=0}^{n-1}F_jF_{n-j-1}", gold),
            Some(Outcome::Equal)
        );
        assert_eq!(
            outcome("\\prod_{i=1}^{n}(i+1)", "\\prod_{i=1}^{n}(1+i)"),
            Some(Outcome::Equal)
        );
        // The same sum with the index shifted: the bodies differ, the sums do not.
        assert_eq!(
            outcome("F_n=\\sum_{k=1}^{n}F_{k-1}F_{n-k}", gold),
            Some(Outcome::Undecided)
        );
        // A sequence for which they differ (each unknown value fixed per argument): different.
        assert_eq!(
            outcome("F_n=\\sum_{k=0}^{n-1}F_kF_{n-k}", gold),
            Some(Outcome::Different)
        );
        assert_eq!(
            outcome("F_n=\\sum_{k=0}^{n-2}F_kF_{n-k-2}", gold),
            Some(Outcome::Different)
        );
        assert_eq!(
            outcome("\\sum_{k=1}^{n}k", "\\sum_{k=1}^{n}k^2"),
            Some(Outcome::Different)
        );
        // F_{k}+F_{1} is not F_{k+1}: an unknown sequence is not linear.
        let (p, q) = ("\\sum_{k=1}^{n}F_{k+1}", "\\sum_{k=1}^{n}(F_k+F_1)");
        assert_eq!(outcome(p, q), Some(Outcome::Different));
        // Not decided either way: a symbol (`\pi`, a root) in the body, bounds past the term
        // limit, a body that is not an expression.
        let (p, q) = ("\\sum_{k=1}^{n}\\pi k", "\\sum_{k=1}^{n}3k");
        assert_eq!(outcome(p, q), Some(Outcome::Undecided));
        let (p, q) = ("\\sum_{k=1}^{100n}k", "\\sum_{k=1}^{100n}k^2");
        assert_eq!(outcome(p, q), Some(Outcome::Undecided));
        let (p, q) = ("\\sum_{k=1}^{n}k!!!", "\\sum_{k=1}^{n}k");
        assert_eq!(outcome(p, q), Some(Outcome::Undecided));
        // Not both sums after the same text: left to the other steps.
        assert_eq!(outcome("\\sum_{k=1}^{n}k", "\\frac{n(n+1)}{2}"), None);
        assert_eq!(
            outcome("G_n=\\sum_{k=1}^{n}k", "F_n=\\sum_{k=1}^{n}k"),
            None
        );
    }
}
