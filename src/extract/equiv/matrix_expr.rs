//! Sums, products and scalar multiples of matrices (`\begin{pmatrix}1&2\\3&4\end{pmatrix} +
//! \begin{pmatrix}5&6\\7&8\end{pmatrix}`, `2\begin{bmatrix}…\end{bmatrix}`, `A B` for two written
//! matrices) computed into one matrix whose cells are the exact expressions of the result
//! (`(1)+(5)`, `(1)*(5)+(2)*(7)`), so each cell is then compared like any answer: exactly, never
//! through a float (docs/extract.md, "matrix"). Bounded: at most [`MAX_MATRICES`] matrices of at
//! most [`MAX_SIDE`] rows and columns; a product or sum whose dimensions do not fit has no value,
//! which is "could not decide", not "different".

/// Matrices in one expression, rows or columns of one matrix, and bytes of one computed cell:
/// past them the expression is not computed (could not decide).
const MAX_MATRICES: usize = 8;
const MAX_SIDE: usize = 8;
const MAX_CELL: usize = 1024;

type Cells = Vec<Vec<String>>;

/// What a matrix expression computes to.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum MatrixValue {
    Cells(Cells),
    /// No value (dimensions that do not fit, sizes past the bounds), with why.
    Undefined(String),
}

/// One written matrix and where it ends in `s` (`\begin{env}` … its `\end{env}`, nested
/// environments counted). Determinants (`vmatrix`, `Vmatrix`) are numbers, not matrices.
fn block(s: &str, at: usize) -> Option<(Cells, usize)> {
    let rest = s.get(at..)?;
    let env_start = "\\begin{".len();
    let close = rest.get(env_start..)?.find('}')? + env_start;
    let env = rest.get(env_start..close)?;
    if !(env.ends_with("matrix") || env == "array") || env.starts_with(['v', 'V']) {
        return None;
    }
    let (open_tag, end_tag) = (format!("\\begin{{{env}}}"), format!("\\end{{{env}}}"));
    let mut depth = 0usize;
    let mut i = 0;
    while i < rest.len() {
        let r = rest.get(i..)?;
        if r.starts_with(&open_tag) {
            depth += 1;
            i += open_tag.len();
        } else if r.starts_with(&end_tag) {
            depth = depth.checked_sub(1)?;
            i += end_tag.len();
            if depth == 0 {
                let cells = matrix(rest.get(..i)?)?;
                return Some((cells, at + i));
            }
        } else {
            i += r.chars().next().map_or(1, char::len_utf8);
        }
    }
    None
}

/// One term of the sum: its sign, an optional scalar factor written before its matrices, and
/// the matrices multiplied left to right.
struct Term {
    negative: bool,
    scalar: Option<String>,
    factors: Vec<Cells>,
}

/// Reads `s` as a sum of terms `±[scalar] M1 [*] M2 …`; `None` when it is not one (a single
/// matrix alone, a matrix beside a scalar term, a power `^{-1}`, text after a matrix).
fn terms(s: &str) -> Option<Vec<Term>> {
    let b = s.as_bytes();
    let mut out: Vec<Term> = Vec::new();
    let mut i = 0;
    let mut matrices = 0;
    loop {
        while b.get(i) == Some(&b' ') {
            i += 1;
        }
        let mut negative = false;
        match b.get(i) {
            Some(b'+') if !out.is_empty() => i += 1,
            Some(b'-') => {
                negative = true;
                i += 1;
            }
            None if !out.is_empty() => break,
            _ if out.is_empty() => {}
            _ => return None,
        }
        // The scalar: everything before the term's first matrix, outside brackets.
        let start = i;
        let mut depth = 0i32;
        while i < b.len() && !(depth == 0 && s.get(i..)?.starts_with("\\begin{")) {
            match b.get(i) {
                Some(b'(' | b'[' | b'{') => depth += 1,
                Some(b')' | b']' | b'}') => depth -= 1,
                // A scalar term (`M + 1`) or an operator with no matrix after it.
                Some(b'+' | b'-') if depth == 0 => return None,
                _ => {}
            }
            i += 1;
        }
        let scalar = s.get(start..i)?.trim().trim_end_matches('*').trim();
        let scalar = (!scalar.is_empty()).then(|| scalar.to_string());
        let mut factors = Vec::new();
        loop {
            while matches!(b.get(i), Some(b' ' | b'*')) {
                i += 1;
            }
            if !s.get(i..)?.starts_with("\\begin{") {
                break;
            }
            let (cells, end) = block(s, i)?;
            factors.push(cells);
            matrices += 1;
            i = end;
        }
        if factors.is_empty() || matrices > MAX_MATRICES {
            return None;
        }
        out.push(Term {
            negative,
            scalar,
            factors,
        });
    }
    // One matrix with nothing else is an answer, not an expression: the caller reads it.
    let single = out.len() == 1
        && out
            .first()
            .is_some_and(|t| t.factors.len() == 1 && t.scalar.is_none() && !t.negative);
    (!single).then_some(out)
}

fn dims(m: &Cells) -> Option<(usize, usize)> {
    let cols = m.first()?.len();
    m.iter().all(|r| r.len() == cols).then_some((m.len(), cols))
}

fn product(x: &Cells, y: &Cells) -> Result<Cells, String> {
    let ((r1, c1), (r2, c2)) = match (dims(x), dims(y)) {
        (Some(a), Some(b)) => (a, b),
        _ => return Err("a matrix with rows of different lengths".into()),
    };
    if c1 != r2 {
        return Err(format!("a {r1}×{c1} matrix times a {r2}×{c2} matrix"));
    }
    let mut out = Vec::with_capacity(r1);
    for row in x {
        let mut cells = Vec::with_capacity(c2);
        for j in 0..c2 {
            let sum: Vec<String> = row
                .iter()
                .zip(y)
                .map(|(a, yrow)| format!("({a})*({})", yrow.get(j).map_or("", String::as_str)))
                .collect();
            cells.push(sum.join("+"));
        }
        out.push(cells);
    }
    Ok(out)
}

/// The value of a matrix expression, or `None` when `s` is not one (see [`terms`]).
pub(super) fn matrix_value(s: &str) -> Option<MatrixValue> {
    let terms = terms(s)?;
    let fail = |why: String| Some(MatrixValue::Undefined(why));
    let mut total: Option<Cells> = None;
    for t in terms {
        for f in &t.factors {
            match dims(f) {
                Some((r, c)) if r <= MAX_SIDE && c <= MAX_SIDE => {}
                Some((r, c)) => return fail(format!("a {r}×{c} matrix is past the size bound")),
                None => return fail("a matrix with rows of different lengths".into()),
            }
        }
        let mut factors = t.factors.into_iter();
        let mut m = factors.next()?;
        for f in factors {
            m = match product(&m, &f) {
                Ok(p) => p,
                Err(why) => return fail(why),
            };
            // Checked after each product: cells grow with every factor (bounded memory).
            if too_long(&m) {
                return fail("a computed cell past the size bound".into());
            }
        }
        let scale = match (&t.scalar, t.negative) {
            (Some(k), true) => Some(format!("-({k})")),
            (Some(k), false) => Some(k.clone()),
            (None, true) => Some("-1".to_string()),
            (None, false) => None,
        };
        if let Some(k) = scale {
            for cell in m.iter_mut().flatten() {
                *cell = format!("({k})*({cell})");
            }
        }
        total = Some(match total {
            None => m,
            Some(acc) => {
                if dims(&acc) != dims(&m) {
                    return fail("a sum of matrices of different sizes".into());
                }
                acc.into_iter()
                    .zip(m)
                    .map(|(ra, rb)| {
                        ra.into_iter()
                            .zip(rb)
                            .map(|(a, b)| format!("({a})+({b})"))
                            .collect()
                    })
                    .collect()
            }
        });
    }
    let cells = total?;
    if too_long(&cells) {
        return fail("a computed cell past the size bound".into());
    }
    Some(MatrixValue::Cells(cells))
}

fn too_long(m: &Cells) -> bool {
    m.iter().flatten().any(|c| c.len() > MAX_CELL)
}

/// The cells of a matrix in any environment: `pmatrix`, `bmatrix`, `vmatrix`… or `array`
/// (its column spec `{cc}` skipped) inside `[…]`/`(…)` (`\left[\begin{array}…\right]`).
pub(super) fn matrix(s: &str) -> Option<Vec<Vec<String>>> {
    let s = s.trim();
    let s = match (s.chars().next(), s.chars().last()) {
        (Some('[' | '('), Some(']' | ')')) if s.len() >= 2 => s.get(1..s.len() - 1)?.trim(),
        _ => s,
    };
    // One environment only: `A\begin{pmatrix}…` with something before it is not a matrix.
    if !s.starts_with("\\begin{") || !s.ends_with('}') {
        return None;
    }
    let start = if let Some(rest) = s.strip_prefix("\\begin{array}") {
        let (_, _, end) = crate::extract::normalize::braced(rest, 0)?;
        s.len() - rest.len() + end
    } else {
        s.find("matrix}")? + "matrix}".len()
    };
    let end = s.rfind("\\end{")?;
    // `…\end{pmatrix}^{-1}` is the inverse, not the matrix: nothing may follow the end.
    let (_, _, after_end) = crate::extract::normalize::braced(s, end + 4)?;
    if after_end != s.len() {
        return None;
    }
    let body = s.get(start..end)?;
    let rows: Vec<Vec<String>> = body
        .split("\\\\")
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(|r| r.split('&').map(|c| c.trim().to_string()).collect())
        .collect();
    (!rows.is_empty()).then_some(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}";
    const B: &str = "\\begin{pmatrix}5&6\\\\7&8\\end{pmatrix}";

    fn cells(s: &str) -> Cells {
        match matrix_value(s) {
            Some(MatrixValue::Cells(c)) => c,
            other => panic!("{s}: {other:?}"),
        }
    }

    #[test]
    fn sums_products_and_scalars_are_cell_expressions() {
        assert_eq!(cells(&format!("{A}+{B}"))[0][0], "(1)+(5)");
        assert_eq!(cells(&format!("{A}{B}"))[0][1], "(1)*(6)+(2)*(8)");
        assert_eq!(cells(&format!("{A}*{B}"))[1][0], "(3)*(5)+(4)*(7)");
        assert_eq!(cells(&format!("2{A}"))[1][1], "(2)*(4)");
        assert_eq!(cells(&format!("{A}-{B}"))[0][0], "(1)+((-1)*(5))");
        assert_eq!(cells(&format!("-{A}"))[0][0], "(-1)*(1)");
    }

    #[test]
    fn not_expressions_stay_for_the_caller() {
        // One matrix alone, an inverse, a matrix plus a number, a determinant.
        assert!(matrix_value(A).is_none());
        assert!(matrix_value(&format!("{A}^{{-1}}")).is_none());
        assert!(matrix_value(&format!("{A}+1")).is_none());
        assert!(matrix_value(&format!("{A}x")).is_none());
        let det = "\\begin{vmatrix}1&2\\\\3&4\\end{vmatrix}";
        assert!(matrix_value(&format!("{det}+{det}")).is_none());
    }

    #[test]
    fn sizes_that_do_not_fit_have_no_value() {
        let row = "\\begin{pmatrix}1&2&3\\end{pmatrix}";
        assert!(matches!(
            matrix_value(&format!("{A}{row}")),
            Some(MatrixValue::Undefined(_))
        ));
        assert!(matches!(
            matrix_value(&format!("{A}+{row}")),
            Some(MatrixValue::Undefined(_))
        ));
        // Cells grow with every product: stopped at the cell bound, not computed to megabytes.
        let full = format!(
            "\\begin{{pmatrix}}{}\\end{{pmatrix}}",
            vec![["123456789"; MAX_SIDE].join("&"); MAX_SIDE].join("\\\\")
        );
        assert!(matches!(
            matrix_value(&full.repeat(MAX_MATRICES)),
            Some(MatrixValue::Undefined(_))
        ));
        let many = A.repeat(MAX_MATRICES + 1);
        assert!(matrix_value(&many).is_none());
        let big = format!(
            "\\begin{{pmatrix}}{}\\end{{pmatrix}}",
            ["1"; MAX_SIDE + 1].join("&")
        );
        assert!(matches!(
            matrix_value(&format!("2{big}")),
            Some(MatrixValue::Undefined(_))
        ));
    }
}
