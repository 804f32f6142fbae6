//! Inequalities, intervals and unions read as one set of reals in a canonical spelling.

use super::*;

/// The set of reals an inequality, a set-builder answer or a union describes, in one canonical
/// spelling: `x \in S` → `S`; one variable bounded by values, `a \le x < b` → `[a,b)`, `x > a` →
/// `(a,\infty)`; a linear side solved exactly (`-x > -1` → `(-\infty,1)`, `2x+1 \le 5` →
/// `(-\infty,2]`); `x \neq 3` → `(-\infty,3)\cup(3,\infty)`; parts joined by `\cup`, "or" or
/// `\lor` → their union, sorted and merged when every end is exact. `None` for anything else,
/// and when the spelling is already canonical (so the comparison does not loop).
pub(super) fn as_interval(s: &str) -> Option<String> {
    // The hot path: most answers have no relation at all.
    if !s.contains(['<', '>', '\\', '≤', '≥', '≠', '!', 'o']) {
        return None;
    }
    // `z \in [a,b] \cup [c,d]`: the set after `\in` first, so its union is read whole.
    if let Some(rest) = member_of(s) {
        return Some(rest);
    }
    let parts = union_parts(s);
    let out = if parts.len() >= 2 {
        let mut all = Vec::new();
        for p in &parts {
            all.extend(one_set(p)?);
        }
        render_union(all)
    } else {
        let ivs = relation_set(s).or_else(|| real_line(s))?;
        render_union(ivs)
    };
    (out != s).then_some(out)
}

/// `S` of `x \in S` (`\in` itself, not the start of `\infty` or `\int`).
pub(super) fn member_of(s: &str) -> Option<String> {
    let i = s.match_indices("\\in").map(|(i, _)| i).find(|&i| {
        !s.get(i + 3..)
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_alphabetic()))
    })?;
    let name = s.get(..i)?.trim();
    is_name(name).then(|| s.get(i + 3..).unwrap_or("").trim().to_string())
}

/// `\mathbb{R}`, `(-\infty,\infty)`: all reals.
pub(super) fn real_line(s: &str) -> Option<Vec<Iv>> {
    matches!(s, "\\mathbb{R}" | "\\mathbb R" | "\\mathbb{r}").then(|| vec![Iv::all()])
}

/// Splits at top-level `\cup`, ` or `, `\lor`, `∪` (outside brackets).
pub(super) fn union_parts(s: &str) -> Vec<String> {
    let mut parts = vec![s.to_string()];
    for sep in ["\\cup", "∪", "\\lor", " or "] {
        if s.contains(sep) {
            parts = parts.iter().flat_map(|p| split_top(p, sep)).collect();
        }
    }
    parts.retain(|p| !p.is_empty());
    parts
}

/// One part of a union: a relation, an interval in bracket notation, or `\mathbb{R}`.
pub(super) fn one_set(p: &str) -> Option<Vec<Iv>> {
    if let Some(v) = relation_set(p).or_else(|| real_line(p)) {
        return Some(v);
    }
    let first = p.chars().next()?;
    let last = p.chars().last()?;
    if !matches!(first, '(' | '[') || !matches!(last, ')' | ']') || !matching_close(p) {
        return None;
    }
    let inner = p.get(1..p.len() - 1)?;
    let items = split_top(inner, ",");
    let [lo, hi] = items.as_slice() else {
        return None;
    };
    Some(vec![Iv {
        lo: End::new(lo, first == '['),
        hi: End::new(hi, last == ']'),
    }])
}

/// One end of an interval: its text, its exact value when it has one (`None` for `\pm\infty`
/// and for irrational ends such as `\sqrt2`, which are compared as text by the caller),
/// whether it is infinite, and whether it is included.
#[derive(Debug, Clone)]
pub(super) struct End {
    text: String,
    exact: Option<BigRational>,
    inf: bool,
    closed: bool,
}

impl End {
    fn new(text: &str, closed: bool) -> End {
        let t = text.trim();
        let inf = matches!(t, "\\infty" | "-\\infty" | "+\\infty" | "\\inf" | "-\\inf");
        let exact = if inf {
            None
        } else {
            expr::parse(t).filter(|e| e.vars.is_empty()).and_then(|e| {
                match expr::eval(&e.root, &[]) {
                    Num::Exact(r) => Some(r),
                    _ => None,
                }
            })
        };
        End {
            text: exact.as_ref().map_or_else(|| t.to_string(), rational_text),
            exact,
            inf,
            closed: closed && !inf,
        }
    }

    fn infinite(negative: bool) -> End {
        End {
            text: if negative { "-\\infty" } else { "\\infty" }.to_string(),
            exact: None,
            inf: true,
            closed: false,
        }
    }

    fn value(v: BigRational, closed: bool) -> End {
        End {
            text: rational_text(&v),
            exact: Some(v),
            inf: false,
            closed,
        }
    }
}

/// An exact value as an answer string the parser reads back (`-7/3`).
pub(super) fn rational_text(r: &BigRational) -> String {
    if r.is_integer() {
        r.numer().to_string()
    } else {
        format!("{}/{}", r.numer(), r.denom())
    }
}

#[derive(Debug, Clone)]
pub(super) struct Iv {
    lo: End,
    hi: End,
}

impl Iv {
    fn all() -> Iv {
        Iv {
            lo: End::infinite(true),
            hi: End::infinite(false),
        }
    }

    /// Sort key of the lower end (−∞ first), when the end is exact or infinite.
    fn lo_key(&self) -> Option<(i8, Option<&BigRational>, bool)> {
        if self.lo.inf {
            return Some((-1, None, false));
        }
        self.lo
            .exact
            .as_ref()
            .map(|v| (0, Some(v), !self.lo.closed))
    }
}

/// Renders a union: when every end is exact or infinite, the parts sorted and overlapping or
/// touching parts merged (`(-\infty,3)\cup[3,5]` = `(-\infty,5]`), so one set has one spelling.
pub(super) fn render_union(mut ivs: Vec<Iv>) -> String {
    let all_exact = ivs
        .iter()
        .all(|iv| (iv.lo.inf || iv.lo.exact.is_some()) && (iv.hi.inf || iv.hi.exact.is_some()));
    if all_exact && ivs.len() <= MAX_ITEMS {
        ivs.sort_by(|a, b| a.lo_key().cmp(&b.lo_key()));
        let mut merged: Vec<Iv> = Vec::new();
        for iv in ivs {
            if let Some(last) = merged.last_mut() {
                if reaches(&last.hi, &iv.lo) {
                    if beyond(&iv.hi, &last.hi) {
                        last.hi = iv.hi;
                    }
                    continue;
                }
            }
            merged.push(iv);
        }
        ivs = merged;
    }
    let one = |iv: &Iv| {
        format!(
            "{}{},{}{}",
            if iv.lo.closed { '[' } else { '(' },
            iv.lo.text,
            iv.hi.text,
            if iv.hi.closed { ']' } else { ')' }
        )
    };
    ivs.iter().map(one).collect::<Vec<_>>().join("\\cup")
}

/// The upper end `hi` reaches the lower end `lo` of the next part: they overlap or touch
/// with the meeting point included on at least one side.
pub(super) fn reaches(hi: &End, lo: &End) -> bool {
    // An upper +∞ swallows everything after it; a lower −∞ after the sort means both parts
    // start at −∞ (`(-\infty,3)\cup(-\infty,5)`), so they overlap.
    if hi.inf || lo.inf {
        return true;
    }
    match (&hi.exact, &lo.exact) {
        (Some(h), Some(l)) => h > l || (h == l && (hi.closed || lo.closed)),
        _ => false,
    }
}

/// `a` is a larger upper end than `b` (or the same value, included where `b` is not).
pub(super) fn beyond(a: &End, b: &End) -> bool {
    if b.inf {
        return false;
    }
    if a.inf {
        return true;
    }
    match (&a.exact, &b.exact) {
        (Some(x), Some(y)) => x > y || (x == y && a.closed && !b.closed),
        _ => false,
    }
}

/// One relation chain over one variable: `x < 3`, `3 \ge x`, `-2 \le x \le 7`, `-x > -1`,
/// `2x+1 \le 5`, `x \neq 3`.
pub(super) fn relation_set(s: &str) -> Option<Vec<Iv>> {
    if s.contains('|') {
        if let Some(v) = abs_relation(s) {
            return Some(v);
        }
    }
    plain_relation_set(s)
}

/// A relation in `|x|` (`1 \le |z| \le \frac32`, `|x| > 2`) as the set of reals `x` it
/// describes: the set of values of `|x|` (read as if `|x|` were the variable), cut to `|x| ≥ 0`
/// and mirrored to both signs: `[1,\frac32]` → `[-\frac32,-1]\cup[1,\frac32]`. Only with
/// exact ends; `None` for anything else (an empty set has no spelling here).
fn abs_relation(s: &str) -> Option<Vec<Iv>> {
    let open = s.find('|')?;
    let close = open + 1 + s.get(open + 1..)?.find('|')?;
    let name = s.get(open + 1..close)?.trim();
    if !is_name(name) || s.get(close + 1..)?.contains('|') {
        return None;
    }
    let plain = format!("{}{name}{}", s.get(..open)?, s.get(close + 1..)?);
    let zero = BigRational::zero();
    let mut out = Vec::new();
    for iv in plain_relation_set(&plain)? {
        // Cut to [0, ∞): a lower end below 0 (or −∞) becomes a closed 0.
        let lo = match (&iv.lo.exact, iv.lo.inf) {
            (_, true) => End::value(zero.clone(), true),
            (Some(v), false) if *v < zero => End::value(zero.clone(), true),
            (Some(_), false) => iv.lo.clone(),
            (None, false) => return None,
        };
        let hi = iv.hi.clone();
        if !hi.inf && hi.exact.is_none() {
            return None;
        }
        let (lv, hv) = (
            lo.exact.clone().unwrap_or_else(|| zero.clone()),
            hi.exact.clone(),
        );
        if let Some(h) = &hv {
            if *h < lv || (*h == lv && !(lo.closed && hi.closed)) {
                continue; // empty after the cut
            }
        }
        let mirror = |e: &End| match &e.exact {
            Some(v) => End::value(-v.clone(), e.closed),
            None => End::infinite(true),
        };
        out.push(Iv {
            lo: mirror(&hi),
            hi: mirror(&lo),
        });
        out.push(Iv { lo, hi });
    }
    (!out.is_empty()).then_some(out)
}

fn plain_relation_set(s: &str) -> Option<Vec<Iv>> {
    // Split into operands and relations: `3`, `\le`, `x`, `\le`, `5`.
    let mut parts: Vec<&str> = Vec::new();
    let mut rels: Vec<Rel> = Vec::new();
    let mut rest = s;
    loop {
        let next = RELATIONS
            .iter()
            .filter_map(|&(op, rel)| rest.find(op).map(|at| (at, op, rel)))
            .min_by_key(|&(at, op, _)| (at, std::cmp::Reverse(op.len())));
        match next {
            Some((at, op, rel)) => {
                parts.push(rest.get(..at)?.trim());
                rels.push(rel);
                rest = rest.get(at + op.len()..)?;
            }
            None => {
                parts.push(rest.trim());
                break;
            }
        }
        if rels.len() > 2 {
            return None;
        }
    }
    let bound = |p: &str| !p.is_empty() && (numeric(p) || p.contains("\\infty"));
    match (parts.as_slice(), rels.as_slice()) {
        // x ≠ a
        ([v, n], [Rel::Ne]) | ([n, v], [Rel::Ne]) if is_name(v) && bound(n) => Some(vec![
            Iv {
                lo: End::infinite(true),
                hi: End::new(n, false),
            },
            Iv {
                lo: End::new(n, false),
                hi: End::infinite(false),
            },
        ]),
        // x < b, x > a
        ([v, n], [Rel::Cmp(less, incl)]) if is_name(v) && bound(n) => {
            Some(vec![half(*less, *incl, n)])
        }
        // a < x, a > x
        ([n, v], [Rel::Cmp(less, incl)]) if is_name(v) && bound(n) => {
            Some(vec![half(!*less, *incl, n)])
        }
        // a < x < b (both relations the same way)
        ([a, v, b], [Rel::Cmp(l1, i1), Rel::Cmp(l2, i2)])
            if is_name(v) && bound(a) && bound(b) && l1 == l2 =>
        {
            let (low, low_incl, high, high_incl) =
                if *l1 { (a, i1, b, i2) } else { (b, i2, a, i1) };
            Some(vec![Iv {
                lo: End::new(low, *low_incl),
                hi: End::new(high, *high_incl),
            }])
        }
        // A linear side: `-x > -1`, `2x + 1 \le 5`, `3 < 2x-1`.
        ([l, r], [rel]) => linear_relation(l, r, *rel),
        _ => None,
    }
}

/// `x < n` (`less`) or `x > n`, inclusive or not.
pub(super) fn half(less: bool, incl: bool, n: &str) -> Iv {
    if less {
        Iv {
            lo: End::infinite(true),
            hi: End::new(n, incl),
        }
    } else {
        Iv {
            lo: End::new(n, incl),
            hi: End::infinite(false),
        }
    }
}

/// `l rel r` with `l − r = a·x + b` linear in its one variable (exact `a ≠ 0`, `b`): solved
/// exactly, the direction flipped when `a < 0`.
pub(super) fn linear_relation(l: &str, r: &str, rel: Rel) -> Option<Vec<Iv>> {
    let e = expr::parse(&format!("({l})-({r})"))?;
    let [_] = e.vars.as_slice() else {
        return None;
    };
    let (a, b) = expr::linear(&e.root, 0)?;
    if a.is_zero() {
        return None;
    }
    let root = -b / &a;
    match rel {
        Rel::Ne => Some(vec![
            Iv {
                lo: End::infinite(true),
                hi: End::value(root.clone(), false),
            },
            Iv {
                lo: End::value(root, false),
                hi: End::infinite(false),
            },
        ]),
        Rel::Cmp(less, incl) => {
            // a·x + b < 0  ⇔  x < −b/a when a > 0, x > −b/a when a < 0.
            let less = if a.is_negative() { !less } else { less };
            Some(vec![if less {
                Iv {
                    lo: End::infinite(true),
                    hi: End::value(root, incl),
                }
            } else {
                Iv {
                    lo: End::value(root, incl),
                    hi: End::infinite(false),
                }
            }])
        }
    }
}

/// A relation between two sides.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Rel {
    /// (points from smaller to larger, inclusive)
    Cmp(bool, bool),
    Ne,
}

/// Relation spellings after normalisation.
pub(super) const RELATIONS: &[(&str, Rel)] = &[
    ("\\leqslant", Rel::Cmp(true, true)),
    ("\\geqslant", Rel::Cmp(false, true)),
    ("\\leq", Rel::Cmp(true, true)),
    ("\\le", Rel::Cmp(true, true)),
    ("\\geq", Rel::Cmp(false, true)),
    ("\\ge", Rel::Cmp(false, true)),
    ("\\lt", Rel::Cmp(true, false)),
    ("\\gt", Rel::Cmp(false, false)),
    ("\\neq", Rel::Ne),
    ("\\ne", Rel::Ne),
    ("≠", Rel::Ne),
    ("!=", Rel::Ne),
    ("≤", Rel::Cmp(true, true)),
    ("≥", Rel::Cmp(false, true)),
    ("<=", Rel::Cmp(true, true)),
    (">=", Rel::Cmp(false, true)),
    ("<", Rel::Cmp(true, false)),
    (">", Rel::Cmp(false, false)),
];
