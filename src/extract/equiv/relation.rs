//! Equations and what surrounds an answer's value: labels, chains and approximations,
//! base-n numerals, rearranged equations.

use super::*;

/// Sides of a top-level equation, for `x = 5` vs `5`.
pub(super) fn sides(s: &str) -> Option<(&str, &str)> {
    let i = s.rfind('=')?;
    let (l, r) = (s.get(..i)?, s.get(i + 1..)?);
    if l.is_empty() || r.is_empty() || l.ends_with(['<', '>', '!', '\\']) {
        return None;
    }
    Some((l, r))
}

/// A left side that only names the answer: `x`, `y_1`, `\theta`, `λ`, `f(x)`, `k`, and a
/// function's value at a point, `f(-1)`, `g\left(\frac{1}{2}\right)`.
pub(super) fn is_name(l: &str) -> bool {
    let l = l.trim();
    if is_unicode_greek_name(l) || is_function_value(l) {
        return true;
    }
    is_plain_name(l)
}

/// One Greek letter typed as Unicode (`λ`, `θ_1`), as outputs write `\lambda`; not π, a number.
fn is_unicode_greek_name(l: &str) -> bool {
    let mut chars = l.chars();
    let Some(c) = chars.next() else {
        return false;
    };
    let greek = matches!(c, '\u{391}'..='\u{3A9}' | '\u{3B1}'..='\u{3C9}') && c != 'π' && c != 'Π';
    let rest = chars.as_str();
    greek
        && (rest.is_empty()
            || rest.strip_prefix('_').is_some_and(|sub| {
                sub.len() <= 6
                    && sub
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'{' | b'}'))
            }))
}

/// A function's value at a point: a short name (`f`, `g_1`, `\varphi`) applied to one
/// bracketed argument that does not mention the name itself — `x(x+1)` is a product, and the
/// whole left side must be the call (`f(1)+f(2)` is not one).
fn is_function_value(l: &str) -> bool {
    let Some(open) = l.find('(') else {
        return false;
    };
    let (head, call) = l.split_at(open);
    let head = head.strip_suffix("\\left").unwrap_or(head).trim();
    let Some(arg) = call
        .strip_suffix("\\right)")
        .or_else(|| call.strip_suffix(')'))
    else {
        return false;
    };
    let Some(arg) = arg.strip_prefix('(') else {
        return false;
    };
    // The argument is balanced on its own: `f(1)+g(2)` splits into two calls.
    let mut depth = 0i32;
    for b in arg.bytes() {
        match b {
            b'(' | b'{' | b'[' => depth += 1,
            b')' | b'}' | b']' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    depth == 0
        && !arg.trim().is_empty()
        && arg.len() <= 40
        && !arg.contains('=')
        && !head.is_empty()
        && !head.contains('(')
        && is_plain_name(head)
        && !without_commands(arg).contains(head)
}

/// `s` without its LaTeX command words (`\frac`, `\pi`), so `f` is not found in `\frac`.
fn without_commands(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            while chars.peek().is_some_and(char::is_ascii_alphabetic) {
                chars.next();
            }
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

fn is_plain_name(l: &str) -> bool {
    // `\theta` names a value; `\frac12` is one (`\frac12 \approx 7` is not a label).
    let command_ok = l.strip_prefix('\\').is_none_or(|rest| {
        let word: String = rest.chars().take_while(char::is_ascii_alphabetic).collect();
        expr::is_greek(&word)
    });
    command_ok
        && !l.is_empty()
        && l.len() <= 12
        && l.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'_' | b'\\' | b'(' | b')' | b'{' | b'}')
        })
        && l.bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'\\')
}

/// A label: a left side that only names the answer — a name (`x`, `f(x)`), a tuple of names
/// (`(p,q)`), a ratio of names (`V_1:V_2`), a quotient of names (`\frac{NO}{BO}`), a product
/// of letters (`AB`). No digits outside subscripts, no operators, so `2x+4y-3` is not one.
pub(super) fn is_label(l: &str) -> bool {
    let l = l.trim();
    if is_name(l) {
        return true;
    }
    if l.is_empty() || l.len() > 40 {
        return false;
    }
    let b = l.as_bytes();
    let mut i = 0;
    let mut letters = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'_' => {
                // A subscript may hold digits: `V_1`, `x_{12}`.
                i += 1;
                if b.get(i) == Some(&b'{') {
                    while b.get(i).is_some_and(|&c| c != b'}') {
                        i += 1;
                    }
                }
            }
            // Only naming commands: `\sin x = \frac12` states a function's value, not a label.
            b'\\' => {
                let word: String = b
                    .get(i + 1..)
                    .unwrap_or(&[])
                    .iter()
                    .take_while(|c| c.is_ascii_alphabetic())
                    .map(|&c| char::from(c))
                    .collect();
                let naming = ["frac", "angle", "overline", "triangle", "vec", "hat", "bar"];
                if !naming.contains(&word.as_str()) && !expr::is_greek(&word) {
                    return false;
                }
                i += word.len();
            }
            c if c.is_ascii_alphabetic() => letters += 1,
            b'{' | b'}' | b'(' | b')' | b',' | b':' | b' ' | b'\'' | b'|' => {}
            _ => return false,
        }
        i += 1;
    }
    letters > 0
}

/// The top-level `=` of `s` that separates a label from the answer, if `s` is labelled.
pub(super) fn label_split(s: &str) -> Option<(&str, &str)> {
    let i = top_level_eq(s)?;
    let (l, r) = (s.get(..i)?, s.get(i + 1..)?);
    if r.is_empty() || r.contains('=') || l.ends_with(['<', '>', '!', '\\']) || !is_label(l) {
        return None;
    }
    // `x = 5` stays for `equation` (it also handles `x=5` vs `x=5.0` side by side); only the
    // labels `equation` does not know are dropped here.
    (!is_name(l)).then_some((l.trim(), r.trim()))
}

/// First `=` outside brackets.
pub(super) fn top_level_eq(s: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (i, b) in s.bytes().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b'=' if depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

/// `(p,q)=(3,2)` vs `(3,2)`: a label on one side (or the same label on both) is dropped.
pub(super) fn unlabel(a: &str, b: &str, preset: Preset, depth: usize) -> Option<Comparison> {
    let (la, lb) = (label_split(a), label_split(b));
    let (x, y, what) = match (la, lb) {
        (Some((l1, r1)), Some((l2, r2))) if l1 == l2 => (r1, r2, format!("label `{l1}` on both")),
        (Some(_), Some(_)) => return None,
        (Some((l, r)), None) => (r, b, format!("label `{l}` dropped")),
        (None, Some((l, r))) => (a, r, format!("label `{l}` dropped")),
        (None, None) => return None,
    };
    let c = compare_at(x, y, preset, depth + 1);
    Some(with_outcome(
        c.outcome,
        Path::Label,
        format!("{what}: {}", c.reason),
    ))
}

/// A chain `x = 5+5+1 = 11` (three or more sides) is its final value `x = 11`; an
/// approximation `x = \frac{1}{3} \approx 0.33` is its exact value `x = \frac{1}{3}`, and the
/// lenient preset also accepts the approximation when the exact value does not match.
pub(super) fn chain(a: &str, b: &str, preset: Preset, depth: usize) -> Option<Comparison> {
    let (ra, rb) = (reduce_chain(a), reduce_chain(b));
    if ra.is_none() && rb.is_none() {
        return None;
    }
    let (xa, approx_a) = ra.unwrap_or_else(|| (a.to_string(), None));
    let (xb, approx_b) = rb.unwrap_or_else(|| (b.to_string(), None));
    let c = compare_at(&xa, &xb, preset, depth + 1);
    let head = format!("as `{xa}` vs `{xb}`");
    if c.outcome != Outcome::Equal && preset == Preset::Lenient {
        let alt = match (&approx_a, &approx_b) {
            (Some(p), None) => Some((p.clone(), xb.clone())),
            (None, Some(q)) => Some((xa.clone(), q.clone())),
            _ => None,
        };
        if let Some((p, q)) = alt {
            let d = compare_at(&p, &q, preset, depth + 1);
            if d.outcome == Outcome::Equal {
                return Some(verdict(
                    true,
                    Path::Chain,
                    format!(
                        "the stated approximation `{p}` vs `{q}` (lenient): {}",
                        d.reason
                    ),
                ));
            }
        }
    }
    Some(with_outcome(
        c.outcome,
        Path::Chain,
        format!("{head}: {}", c.reason),
    ))
}

/// (the value a chain or approximation stands for, the approximation if any).
pub(super) fn reduce_chain(s: &str) -> Option<(String, Option<String>)> {
    // Cheap test first: most answers have neither two `=` nor an approximation.
    let approximate = s.contains("\\approx") || s.contains('≈');
    if !approximate && s.bytes().filter(|&b| b == b'=').count() < 2 {
        return None;
    }
    // `x=2 \text{ or } x=3` is a list of answers, not a chain.
    if !matches!(shape(s), Shape::Scalar) {
        return None;
    }
    let (exact, approx) = match s.find("\\approx").or_else(|| s.find('≈')) {
        Some(i) => {
            let op = if s.get(i..)?.starts_with('≈') {
                '≈'.len_utf8()
            } else {
                7
            };
            let tail = s.get(i + op..)?;
            // The last approximation of `a \approx b \approx c`.
            let last = tail.rsplit("\\approx").next()?.rsplit('≈').next()?.trim();
            (
                s.get(..i)?.trim(),
                Some(last.to_string()).filter(|t| !t.is_empty()),
            )
        }
        None => (s, None),
    };
    let sides = split_top(exact, "=");
    if sides.iter().any(String::is_empty) {
        return None;
    }
    let value = match sides.as_slice() {
        // `x \approx 0.33`: only a label before the approximation, which is then the value.
        [one] if is_label(one) => {
            let p = approx?;
            return Some((format!("{one}={p}"), None));
        }
        [one] if approx.is_some() => one.clone(),
        [label, .., last] if sides.len() >= 3 && is_label(label) => format!("{label}={last}"),
        [.., last] if sides.len() >= 3 => last.clone(),
        [_, _] if approx.is_some() => exact.to_string(),
        _ => return None,
    };
    // `x = 3 \approx …`: the approximation keeps the label.
    let approx = approx.map(|p| match sides.first() {
        Some(l) if sides.len() >= 2 && is_label(l) => format!("{l}={p}"),
        _ => p,
    });
    Some((value, approx))
}

/// `2516_{8}` (as the normaliser spells base-n numerals): (value, digits, base).
pub(super) fn base_literal(s: &str) -> Option<(num_bigint::BigInt, &str, u32)> {
    let (digits, base) = s.split_once("_{")?;
    let base: u32 = base.strip_suffix('}')?.parse().ok()?;
    if !(2..=36).contains(&base) || digits.is_empty() || digits.len() > 256 {
        return None;
    }
    let value = num_bigint::BigInt::parse_bytes(digits.as_bytes(), base)?;
    Some((value, digits, base))
}

/// Base-n numerals compare by value (`2516_8` = `1358` = `2516_{8}`); the lenient preset also
/// accepts the same digits written without the base (`2516` for "express in base 8").
pub(super) fn base_n(a: &str, b: &str, preset: Preset, depth: usize) -> Option<Comparison> {
    let (x, y) = (base_literal(a), base_literal(b));
    let show = |l: &Option<(num_bigint::BigInt, &str, u32)>, s: &str| match l {
        Some((v, d, n)) => (v.to_string(), format!("`{d}` in base {n} = {v}")),
        None => (s.to_string(), format!("`{s}`")),
    };
    if x.is_none() && y.is_none() {
        return None;
    }
    if preset == Preset::Lenient {
        let same_digits = match (&x, &y) {
            (Some((_, d, _)), None) => *d == b,
            (None, Some((_, d, _))) => *d == a,
            _ => false,
        };
        if same_digits {
            return Some(verdict(
                true,
                Path::BaseN,
                format!("`{a}` and `{b}`: the same digits, the base left implicit (lenient)"),
            ));
        }
    }
    let ((va, da), (vb, db)) = (show(&x, a), show(&y, b));
    let c = compare_at(&va, &vb, preset, depth + 1);
    Some(with_outcome(
        c.outcome,
        Path::BaseN,
        format!("{da} vs {db}: {}", c.reason),
    ))
}

/// Two equations with the same solution set up to rearrangement and a non-zero factor: the
/// differences `l − r` of both are proportional, `f_a = k·f_b` with one constant `k ≠ 0`, at
/// the symbolic comparison's sample points (a point where exactly one of them is zero, or a
/// ratio that changes, proves them different).
pub(super) fn rearranged(a: (&str, &str), b: (&str, &str), preset: Preset) -> Option<Comparison> {
    let fa = expr::parse(&format!("({})-({})", a.0, a.1))?;
    let fb = expr::parse(&format!("({})-({})", b.0, b.1))?;
    if fa.vars.is_empty() || fb.vars.is_empty() {
        return None;
    }
    let names = shared_names(&fa, &fb);
    let assign = |e: &Expr, point: &[f64]| assign_point(&names, e, point);
    let (ta, tb) = (format!("{}={}", a.0, a.1), format!("{}={}", b.0, b.1));
    let mut rng = Xorshift(0x9E37_79B9_7F4A_7C15);
    let mut k: Option<f64> = None;
    let mut agreed = 0;
    for _ in 0..POINTS_TRIED {
        let point: Vec<f64> = names.iter().map(|_| rng.sample(false)).collect();
        let (Some(x), Some(y)) = (
            expr::eval(&fa.root, &assign(&fa, &point)).to_f64(),
            expr::eval(&fb.root, &assign(&fb, &point)).to_f64(),
        ) else {
            continue;
        };
        let different = |why: String| Some(verdict(false, Path::Rearranged, why));
        match (x == 0.0, y == 0.0) {
            (true, true) => {
                agreed += 1;
                continue;
            }
            (true, false) | (false, true) => {
                return different(format!(
                    "`{ta}` and `{tb}`: one side holds and the other not at a sample point"
                ))
            }
            _ => {}
        }
        let ratio = x / y;
        match k {
            None => k = Some(ratio),
            Some(k) if !close(k, ratio) => {
                // A factor that changes is no proof when one equation's curve lies on the
                // other's (`y=1/x` vs `xy=1`: the factor is x, never 0 on the curve).
                if on_curve(a, &fb) || on_curve(b, &fa) {
                    return Some(undecided(
                        Path::Rearranged,
                        format!(
                            "`{ta}` and `{tb}`: l − r differ by a factor that changes, but one \
                             curve lies on the other"
                        ),
                    ));
                }
                return different(format!(
                    "`{ta}` and `{tb}` are not proportional: l − r ratios {} and {}",
                    float_str(k),
                    float_str(ratio)
                ));
            }
            _ => {}
        }
        agreed += 1;
        if agreed >= POINTS_NEEDED && preset == Preset::Strict {
            return Some(strict_rearranged(&fa, &fb, &ta, &tb));
        }
        if agreed >= POINTS_NEEDED {
            let k = k.map_or_else(|| "1".to_string(), float_str);
            return Some(verdict(
                true,
                Path::Rearranged,
                format!(
                    "`{ta}` and `{tb}` are the same equation rearranged: l − r differ by the \
                     factor {k} at {agreed} sample points"
                ),
            ));
        }
    }
    Some(undecided(
        Path::Rearranged,
        format!("`{ta}` and `{tb}`: only {agreed} usable sample points ({POINTS_NEEDED} needed)"),
    ))
}

pub(super) fn equation(a: &str, b: &str, preset: Preset, depth: usize) -> Option<Comparison> {
    let (ea, eb) = (sides(a), sides(b));
    let explain = |c: Comparison, what: &str| {
        with_outcome(c.outcome, Path::Equation, format!("{what}; {}", c.reason))
    };
    match (ea, eb) {
        (Some((la, ra)), Some((lb, rb))) => {
            let l = compare_at(la, lb, preset, depth + 1);
            let r = compare_at(ra, rb, preset, depth + 1);
            let sided = l.outcome.and(r.outcome);
            if sided != Outcome::Equal {
                // Not equal side by side; the same equation rearranged or scaled?
                if let Some(c) = rearranged((la, ra), (lb, rb), preset) {
                    if c.outcome != Outcome::Different || sided == Outcome::Different {
                        return Some(c);
                    }
                }
            }
            Some(with_outcome(
                sided,
                Path::Equation,
                format!("left sides: {}; right sides: {}", l.reason, r.reason),
            ))
        }
        (Some((la, ra)), None) if is_name(la) || numeric(la) => {
            let v = value_side(la, ra);
            Some(explain(
                compare_at(v, b, preset, depth + 1),
                &format!("`{a}` read as its value `{v}`"),
            ))
        }
        (None, Some((lb, rb))) if is_name(lb) || numeric(lb) => {
            let v = value_side(lb, rb);
            Some(explain(
                compare_at(a, v, preset, depth + 1),
                &format!("`{b}` read as its value `{v}`"),
            ))
        }
        _ => None,
    }
}

/// Strict: the floats found one factor `k`; it must hold exactly at rational points
/// (exact.rs), else the verdict is "could not decide".
fn strict_rearranged(fa: &Expr, fb: &Expr, ta: &str, tb: &str) -> Comparison {
    let mut k: Option<BigRational> = None;
    let same = |x: &BigRational, y: &BigRational| -> Option<bool> {
        match (x.is_zero(), y.is_zero()) {
            (true, true) => return Some(true),
            (true, false) | (false, true) => return None,
            _ => {}
        }
        let r = x / y;
        match &k {
            None => {
                k = Some(r);
                Some(true)
            }
            Some(k) => (k == &r).then_some(true),
        }
    };
    match exact::sample(fa, fb, same) {
        exact::Sampled::Equal(n) => verdict(
            true,
            Path::Rearranged,
            format!("`{ta}` and `{tb}`: l − r differ by one exact factor at {n} rational points"),
        ),
        _ => undecided(
            Path::Rearranged,
            format!("`{ta}` and `{tb}` agree as rearranged to 1e-9 but not provably (strict)"),
        ),
    }
}

/// `eq` is `name = value` (the value free of the name), the other equation has two or more
/// variables, and its `l − r` vanishes (to 1e-9 of the point's size) wherever `name` takes
/// that value: `eq`'s curve lies on the other's, at every usable sample point (at least
/// [`POINTS_NEEDED`]).
fn on_curve(eq: (&str, &str), other: &Expr) -> bool {
    let name = eq.0.trim();
    let Some(val) = expr::parse(eq.1) else {
        return false;
    };
    // Curves in the plane only (`y=1/x` vs `xy=1`); one-variable equations keep the
    // proportionality test (`x^2=4` vs `x=2` differ).
    if other.vars.len() < 2
        || !is_name(name)
        || val.vars.iter().any(|v| v == name)
        || !other.vars.iter().any(|v| v == name)
    {
        return false;
    }
    let mut rng = Xorshift(0x9E37_79B9_7F4A_7C15);
    let mut held = 0;
    for _ in 0..POINTS_TRIED {
        let mut point: Vec<f64> = other.vars.iter().map(|_| rng.sample(false)).collect();
        let args: Vec<f64> = val
            .vars
            .iter()
            .map(|v| {
                other
                    .vars
                    .iter()
                    .position(|o| o == v)
                    .and_then(|i| point.get(i).copied())
                    .unwrap_or(f64::NAN)
            })
            .collect();
        let Some(v) = expr::eval(&val.root, &args).to_f64() else {
            continue;
        };
        if let Some(slot) = other
            .vars
            .iter()
            .position(|o| o == name)
            .and_then(|i| point.get_mut(i))
        {
            *slot = v;
        }
        let Some(f) = expr::eval(&other.root, &point).to_f64() else {
            continue;
        };
        let scale = 1.0 + point.iter().map(|x| x.abs()).fold(0.0, f64::max);
        if f.abs() > 1e-9 * scale {
            return false;
        }
        held += 1;
    }
    held >= POINTS_NEEDED
}

/// The side of `l = r` that is the value: `r` after a name (`x = 5`), but the number when the
/// other side is an expression (`7 = 11a+c` states that 11a+c is 7: its value is 7).
fn value_side<'a>(l: &'a str, r: &'a str) -> &'a str {
    if !is_name(l) && numeric(l) && !numeric(r) {
        l
    } else {
        r
    }
}
