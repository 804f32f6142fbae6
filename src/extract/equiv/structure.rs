//! Structured answers: sets, bare lists, tuples, intervals, ratios and matrices, compared
//! element-wise (sets order-free, tuples in order).

use super::*;

/// The structure an answer has at its top level.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Shape {
    Scalar,
    /// `(a,b)`, `[a,b)`: the brackets matter (tuple vs interval).
    Seq {
        open: char,
        close: char,
        items: Vec<String>,
    },
    Set(Vec<String>),
    /// A bare comma list `1, 2, 3`, compared order-free.
    List(Vec<String>),
    Matrix(Vec<Vec<String>>),
    /// A matrix expression with no value (`A B` whose sizes do not fit), with why.
    MatrixUndefined(String),
    /// `A\cup B`: a union of intervals, compared order-free.
    Union(Vec<String>),
    /// `11:21`: a ratio, term by term in order.
    Ratio(Vec<String>),
}

/// How many answers a normalised answer holds: the items of a set, a bare list or `\pm`
/// (two), else one.
pub fn answer_count(s: &str) -> usize {
    match shape(s) {
        Shape::Set(x) | Shape::List(x) => x.len(),
        _ => 1,
    }
}

/// Splits at top-level occurrences of `sep` (outside brackets and braces).
pub(super) fn split_top(s: &str, sep: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes.get(i).copied().unwrap_or(0);
        match b {
            b'\\' if s.get(i..i + 2).is_some_and(|t| t == "\\{") => {
                depth += 1;
                i += 2;
                continue;
            }
            b'\\' if s.get(i..i + 2).is_some_and(|t| t == "\\}") => {
                depth -= 1;
                i += 2;
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
        if depth == 0 && s.get(i..).is_some_and(|r| r.starts_with(sep)) {
            out.push(s.get(start..i).unwrap_or("").trim().to_string());
            i += sep.len();
            start = i;
            continue;
        }
        i += 1;
    }
    out.push(s.get(start..).unwrap_or("").trim().to_string());
    out
}

pub(super) fn matching_close(s: &str) -> bool {
    // `(1,2)+(3,4)` is not one tuple: the opening bracket must close at the very end.
    let mut depth = 0i32;
    for (i, b) in s.bytes().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 && i + 1 != s.len() {
                    return false;
                }
            }
            _ => {}
        }
    }
    true
}

pub(super) fn shape(s: &str) -> Shape {
    // `(5,8)and(8,5)`, `(11,7)or(7,11)` (spaces lost in `\quad\text{and}\quad`): a list.
    if s.contains(")and(") || s.contains(")or(") {
        let joined = s.replace(")and(", "),(").replace(")or(", "),(");
        if let Shape::List(items) = shape(&joined) {
            return Shape::List(items);
        }
    }
    if s.contains("\\begin{") && (s.contains("matrix}") || s.contains("\\begin{array}")) {
        // `A+B`, `AB`, `2A` of written matrices: computed, cell by cell (first: `matrix`
        // would read `A+B` as one matrix from the first `\begin` to the last `\end`).
        match super::matrix_expr::matrix_value(s) {
            Some(super::matrix_expr::MatrixValue::Cells(m)) => return Shape::Matrix(m),
            Some(super::matrix_expr::MatrixValue::Undefined(why)) => {
                return Shape::MatrixUndefined(why)
            }
            None => {}
        }
        if let Some(m) = super::matrix_expr::matrix(s) {
            return Shape::Matrix(m);
        }
    }
    if s.contains("\\cup") {
        let parts = split_top(s, "\\cup");
        if parts.len() >= 2 && parts.iter().all(|p| !p.is_empty()) {
            return Shape::Union(parts);
        }
    }
    if let Some(inner) = s.strip_prefix("\\{").and_then(|r| r.strip_suffix("\\}")) {
        return Shape::Set(split_top(inner, ","));
    }
    // `{1,2,3}` (the set braces without backslashes, as models write them): a set when the
    // braces enclose the whole answer and it has two items or more.
    if let Some(inner) = s.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
        let items = split_top(inner, ",");
        if items.len() >= 2 && matching_close(s) && items.iter().all(|i| !i.is_empty()) {
            return Shape::Set(items);
        }
    }
    if let Some(pm) = plus_minus(s) {
        return Shape::Set(pm);
    }
    let first = s.chars().next().unwrap_or(' ');
    let last = s.chars().last().unwrap_or(' ');
    if matches!(first, '(' | '[') && matches!(last, ')' | ']') && s.len() >= 2 {
        let inner = s.get(1..s.len() - 1).unwrap_or("");
        let mut items = split_top(inner, ",");
        // `(0;-2;6)`: a tuple written with semicolons (a decimal-comma convention).
        if items.len() == 1 && inner.contains(';') {
            items = split_top(inner, ";");
        }
        if items.len() >= 2
            && inner.chars().all(|c| c != '(' || matching_close(s))
            && matching_close(s)
        {
            return Shape::Seq {
                open: first,
                close: last,
                items,
            };
        }
    }
    if let Some(tuples) = labelled_solutions(s) {
        return Shape::List(tuples);
    }
    let items = split_top(s, ",");
    if items.len() >= 2 && items.iter().all(|i| !i.is_empty()) {
        return Shape::List(items);
    }
    // `2; 3`, `5 and 7`, `2 or 3`: a list when every part is a value, not words.
    for sep in [";", " and ", " or "] {
        if s.contains(sep) {
            let items = split_top(s, sep);
            if items.len() >= 2 && items.iter().all(|i| !i.is_empty() && !has_word(i)) {
                return Shape::List(items);
            }
        }
    }
    // `11:21`: a ratio of values (not `V_1:V_2`, a label, which has no value).
    if s.contains(':') && !s.contains("::") {
        let items = split_top(s, ":");
        if items.len() >= 2 && items.iter().all(|i| numeric(i)) {
            return Shape::Ratio(items);
        }
    }
    Shape::Scalar
}

/// `p=5,q=2;p=7,q=2`: solutions separated by `;`, each naming every unknown, read as the
/// tuples `(5,2)`, `(7,2)` in the order the first solution names them (a later solution may
/// name them in another order). `None` unless every solution names the same two or more
/// unknowns once each.
pub(super) fn labelled_solutions(s: &str) -> Option<Vec<String>> {
    if !s.contains(';') || !s.contains('=') {
        return None;
    }
    let solutions = split_top(s, ";");
    if solutions.len() < 2 || solutions.len() > MAX_ITEMS {
        return None;
    }
    let assignments = |sol: &str| -> Option<Vec<(String, String)>> {
        split_top(sol, ",")
            .into_iter()
            .map(|item| {
                let i = top_level_eq(&item)?;
                let (name, value) = (item.get(..i)?.trim(), item.get(i + 1..)?.trim());
                (is_name(name) && !value.is_empty() && !value.contains('='))
                    .then(|| (name.to_string(), value.to_string()))
            })
            .collect()
    };
    let first = assignments(solutions.first()?)?;
    let names: Vec<&str> = first.iter().map(|(n, _)| n.as_str()).collect();
    let once = names
        .iter()
        .enumerate()
        .all(|(i, n)| names.get(..i).is_some_and(|seen| !seen.contains(n)));
    if names.len() < 2 || !once {
        return None;
    }
    let mut out = Vec::with_capacity(solutions.len());
    for sol in &solutions {
        let a = assignments(sol)?;
        if a.len() != names.len() {
            return None;
        }
        let values: Option<Vec<&str>> = names
            .iter()
            .map(|n| a.iter().find(|(m, _)| m == n).map(|(_, v)| v.as_str()))
            .collect();
        out.push(format!("({})", values?.join(",")));
    }
    Some(out)
}

/// `a \pm b` → {a+b, a-b}.
pub(super) fn plus_minus(s: &str) -> Option<Vec<String>> {
    let i = s.find("\\pm")?;
    let a = s.get(..i)?.trim();
    let b = s.get(i + 3..)?.trim();
    if b.is_empty() || b.contains("\\pm") {
        return None;
    }
    let a = if a.is_empty() { "0" } else { a };
    Some(vec![format!("{a}+({b})"), format!("{a}-({b})")])
}

/// Element-wise comparison: `Err` carries a difference, or an undecided element (when no
/// element differs outright) with its reason.
pub(super) fn compare_items(
    xs: &[String],
    ys: &[String],
    ordered: bool,
    preset: Preset,
    depth: usize,
) -> Result<(), (Outcome, String)> {
    if xs.len() != ys.len() {
        return Err((
            Outcome::Different,
            format!("{} items vs {}", xs.len(), ys.len()),
        ));
    }
    if xs.len() > MAX_ITEMS {
        return Err((Outcome::Undecided, format!("more than {MAX_ITEMS} items")));
    }
    let mut open: Option<String> = None;
    if ordered {
        for (k, (x, y)) in xs.iter().zip(ys).enumerate() {
            let c = compare_at(x, y, preset, depth + 1);
            let why = || format!("item {}: `{x}` vs `{y}` ({})", k + 1, c.reason);
            match c.outcome {
                Outcome::Equal => {}
                Outcome::Different => return Err((Outcome::Different, why())),
                Outcome::Undecided => open = open.or_else(|| Some(why())),
            }
        }
        return open.map_or(Ok(()), |w| Err((Outcome::Undecided, w)));
    }
    let mut used = vec![false; ys.len()];
    for x in xs {
        let mut hit = None;
        for (j, y) in ys.iter().enumerate() {
            if used.get(j).copied().unwrap_or(true) {
                continue;
            }
            let c = compare_at(x, y, preset, depth + 1);
            match c.outcome {
                Outcome::Equal => {
                    hit = Some(j);
                    break;
                }
                // A possible partner: if nothing matches, the set is undecided, not different.
                Outcome::Undecided => {
                    open = open.or_else(|| Some(format!("`{x}` vs `{y}`: {}", c.reason)));
                }
                Outcome::Different => {}
            }
        }
        match hit {
            Some(j) => {
                if let Some(u) = used.get_mut(j) {
                    *u = true;
                }
            }
            None => {
                return Err(match open {
                    Some(w) => (Outcome::Undecided, w),
                    None => (Outcome::Different, format!("`{x}` has no match")),
                })
            }
        }
    }
    Ok(())
}

pub(super) fn compare_shapes(
    a: &str,
    b: &str,
    sa: &Shape,
    sb: &Shape,
    preset: Preset,
    depth: usize,
) -> Comparison {
    use Shape::*;
    let res = |path: Path, r: Result<(), (Outcome, String)>| match r {
        Ok(()) => verdict(true, path, format!("`{a}` and `{b}` match element-wise")),
        Err((o, why)) => with_outcome(o, path, format!("`{a}` vs `{b}`: {why}")),
    };
    match (sa, sb) {
        (MatrixUndefined(why), _) | (_, MatrixUndefined(why)) => undecided(
            Path::Matrix,
            format!("`{a}` vs `{b}`: the matrix expression has no value ({why})"),
        ),
        (Matrix(x), Matrix(y)) => {
            if x.len() != y.len() {
                return verdict(
                    false,
                    Path::Matrix,
                    format!("{} rows vs {}", x.len(), y.len()),
                );
            }
            let mut open = None;
            for (r, (rx, ry)) in x.iter().zip(y).enumerate() {
                match compare_items(rx, ry, true, preset, depth) {
                    Ok(()) => {}
                    Err((Outcome::Undecided, why)) => {
                        open = open.or_else(|| Some(format!("row {}: {why}", r + 1)));
                    }
                    Err((o, why)) => {
                        return with_outcome(o, Path::Matrix, format!("row {}: {why}", r + 1))
                    }
                }
            }
            match open {
                Some(why) => with_outcome(Outcome::Undecided, Path::Matrix, why),
                None => verdict(true, Path::Matrix, "matrices equal element-wise"),
            }
        }
        (Set(x) | List(x), Set(y) | List(y)) => {
            // A set lists an element once: `(3,17,3,7)` written twice is one solution. Two
            // bare lists that both repeat an element are multisets (`1, 1, 2` is not
            // `1, 2, 2`: roots with multiplicity).
            let repeats = |v: &[String]| {
                v.iter()
                    .enumerate()
                    .any(|(i, a)| v.iter().skip(i + 1).any(|b| a == b))
            };
            let sets = matches!(sa, Set(_))
                || matches!(sb, Set(_))
                || x.len() > MAX_ITEMS
                || y.len() > MAX_ITEMS
                || !(repeats(x) && repeats(y));
            let once = |v: &[String]| {
                // Bounded: a list past the item limit is refused by `compare_items` anyway.
                if !sets || v.len() > MAX_ITEMS {
                    return v.to_vec();
                }
                let mut out: Vec<String> = Vec::new();
                for i in v {
                    if !out.contains(i) {
                        out.push(i.clone());
                    }
                }
                out
            };
            res(
                Path::Set,
                compare_items(&once(x), &once(y), false, preset, depth),
            )
        }
        (Union(x), Union(y)) => res(Path::RealSet, compare_items(x, y, false, preset, depth)),
        (Ratio(x), Ratio(y)) => res(Path::Tuple, compare_items(x, y, true, preset, depth)),
        (
            Seq {
                open: o1,
                close: c1,
                items: x,
            },
            Seq {
                open: o2,
                close: c2,
                items: y,
            },
        ) => {
            let interval = o1 != c1 && (*o1 == '[' || *c1 == ']' || *o2 == '[' || *c2 == ']');
            let path = if interval {
                Path::Interval
            } else {
                Path::Tuple
            };
            if (o1, c1) != (o2, c2) {
                return verdict(
                    false,
                    path,
                    format!("brackets differ: `{o1}…{c1}` vs `{o2}…{c2}` (open vs closed ends)"),
                );
            }
            res(path, compare_items(x, y, true, preset, depth))
        }
        (
            Seq {
                open: '(',
                close: ')',
                items: x,
            },
            List(y),
        )
        | (
            List(x),
            Seq {
                open: '(',
                close: ')',
                items: y,
            },
        ) if preset == Preset::Lenient => {
            res(Path::Tuple, compare_items(x, y, true, preset, depth))
        }
        _ => verdict(
            false,
            Path::Text,
            format!("different structure: `{a}` vs `{b}`"),
        ),
    }
}
