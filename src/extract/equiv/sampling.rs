//! Symbolic comparison by evaluation at fixed pseudo-random points.

use super::*;

/// A tiny deterministic xorshift so verdicts are reproducible everywhere (native and wasm).
pub(super) struct Xorshift(pub(super) u64);

impl Xorshift {
    pub(super) fn next_unit(&mut self) -> f64 {
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
    pub(super) fn sample(&mut self, integers: bool) -> f64 {
        if integers && self.next_unit() < 0.34 {
            return (self.next_unit() * 25.0).floor() - 4.0;
        }
        let sign = if self.next_unit() < 0.5 { -1.0 } else { 1.0 };
        let magnitude = 10f64.powf(self.next_unit() * 3.6 - 1.3);
        sign * magnitude
    }
}

/// Points tried and agreeing points (both sides defined) needed for symbolic equality.
pub(super) const POINTS_TRIED: usize = 60;
pub(super) const POINTS_NEEDED: usize = 12;

pub(super) fn has_integer_node(n: &Node) -> bool {
    use Node::*;
    match n {
        Fact(_) | Binom(..) | Call(expr::Func::DoubleFact, _) => true,
        Neg(a) | Call(_, a) => has_integer_node(a),
        Add(a, b) | Sub(a, b) | Mul(a, b) | Div(a, b) | Pow(a, b) | Root(a, b) | LogBase(a, b) => {
            has_integer_node(a) || has_integer_node(b)
        }
        _ => false,
    }
}

/// The variables of both sides, sorted, once each: the coordinates of a sample point.
pub(super) fn shared_names<'a>(a: &'a Expr, b: &'a Expr) -> Vec<&'a str> {
    let mut names: Vec<&str> = a.vars.iter().chain(&b.vars).map(String::as_str).collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// `e`'s variables' values at `point` (whose coordinates follow `names`); NaN for a name the
/// point lacks, so an unassigned variable can never make two sides agree.
pub(super) fn assign_point(names: &[&str], e: &Expr, point: &[f64]) -> Vec<f64> {
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
}

pub(super) fn symbolic(a: &str, b: &str, ea: &Expr, eb: &Expr, preset: Preset) -> Comparison {
    let integers = has_integer_node(&ea.root) || has_integer_node(&eb.root);
    // Exact first (rational functions at rational points, exact.rs): a proof either way. The
    // float sampling below decides only what this leaves open, and under strict it can prove
    // a difference but never an equality.
    match exact::sample(ea, eb, |x, y| Some(x == y)) {
        exact::Sampled::Equal(n) => {
            return verdict(
                true,
                Path::Symbolic,
                format!("`{a}` and `{b}` are exactly equal at {n} rational points"),
            )
        }
        exact::Sampled::Different(at) => {
            return verdict(false, Path::Symbolic, format!("`{a}` vs `{b}`: {at}"))
        }
        exact::Sampled::Open => {}
    }
    let names = shared_names(ea, eb);
    let assign = |e: &Expr, point: &[f64]| assign_point(&names, e, point);
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
        if agreed >= POINTS_NEEDED && preset == Preset::Strict {
            return undecided(
                Path::Symbolic,
                format!(
                    "`{a}` and `{b}` agree to 1e-9 at {agreed} sample points but could not be \
                     compared exactly (strict)"
                ),
            );
        }
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
