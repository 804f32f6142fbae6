//! Sort, search and page any table the views show (Report cases, Extract grades, Runs),
//! without a cap on the rows. Pure, so the ordering rules are tested natively and every
//! table behaves the same.
//!
//! Rows are anything that can give a cell per column ([`Row`]). The module never moves
//! rows: [`view`] returns indices into the caller's slice, so a 50,000-row table is sorted
//! as 50,000 `usize`s and the rows stay where they are.

use std::cmp::Ordering;

/// Case folding for search and text order. `str::to_lowercase` (Unicode's full mapping:
/// `ÉCOLE` finds `école`), as the audit's target comparison uses.
fn fold_case(s: &str) -> String {
    s.to_lowercase()
}

/// One cell's value as the table orders it.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell<'a> {
    /// Ordered as numbers (`2` before `10`); NaN after every number.
    Num(f64),
    /// Ordered as text, ignoring case; numbers inside the text are compared by value, so
    /// `case 2` comes before `case 10`.
    Text(&'a str),
    /// No value: last in either direction, so blanks never crowd the top of a sort.
    Empty,
}

/// A row of a table.
pub trait Row {
    fn cell(&self, column: usize) -> Cell<'_>;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Direction {
    #[default]
    Ascending,
    Descending,
}

impl Direction {
    /// What a click on a column header does: the same column flips, another starts ascending.
    pub fn toggled(self) -> Direction {
        match self {
            Direction::Ascending => Direction::Descending,
            Direction::Descending => Direction::Ascending,
        }
    }
}

/// What the user asked of the table.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Query {
    /// `None`: the rows' own order.
    pub sort: Option<(usize, Direction)>,
    /// Words that must all appear (case-insensitively) in one of `search_columns`.
    pub search: String,
    /// The columns the search looks in; empty means every column up to `columns`.
    pub search_columns: Vec<usize>,
    pub page: usize,
    /// Rows per page; 0 means one page with every row.
    pub page_size: usize,
}

impl Query {
    /// Sort by `column`: a second click on the same column flips the direction.
    pub fn click_header(&mut self, column: usize) {
        self.sort = match self.sort {
            Some((c, d)) if c == column => Some((c, d.toggled())),
            _ => Some((column, Direction::Ascending)),
        };
        self.page = 0;
    }
}

/// The visible part of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    /// Indices into the rows, for this page, in display order.
    pub rows: Vec<usize>,
    /// Rows that match the search (on every page).
    pub matching: usize,
    /// The page shown (clamped to the last page).
    pub page: usize,
    pub pages: usize,
}

/// Compare two cells ascending, with [`Cell::Empty`] handled by the caller.
fn compare_cells(a: &Cell, b: &Cell) -> Ordering {
    match (a, b) {
        (Cell::Num(x), Cell::Num(y)) => x.partial_cmp(y).unwrap_or_else(|| {
            // NaN after every number, NaNs equal to each other.
            x.is_nan().cmp(&y.is_nan())
        }),
        (Cell::Text(x), Cell::Text(y)) => natural_cmp(x, y),
        // Mixed column: numbers before text.
        (Cell::Num(_), Cell::Text(_)) => Ordering::Less,
        (Cell::Text(_), Cell::Num(_)) => Ordering::Greater,
        _ => Ordering::Equal,
    }
}

/// Text order ignoring case, with runs of ASCII digits compared as numbers (`a2` < `a10`);
/// ties broken by the exact text so the order is total.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (fa, fb) = (fold_case(a), fold_case(b));
    let (mut x, mut y) = (fa.as_str(), fb.as_str());
    loop {
        match (x.chars().next(), y.chars().next()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let dx = x.len() - x.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                let dy = y.len() - y.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                let (nx, ny) = (&x[..dx], &y[..dy]);
                // By value without parsing (any length): fewer significant digits is smaller.
                let (tx, ty) = (nx.trim_start_matches('0'), ny.trim_start_matches('0'));
                let by_value = tx.len().cmp(&ty.len()).then_with(|| tx.cmp(ty));
                if by_value != Ordering::Equal {
                    return by_value;
                }
                x = &x[dx..];
                y = &y[dy..];
            }
            (Some(c), Some(d)) if c != d => return c.cmp(&d),
            (Some(c), Some(_)) => {
                x = &x[c.len_utf8()..];
                y = &y[c.len_utf8()..];
            }
        }
    }
}

fn matches<'a>(cell: &dyn Fn(usize) -> Cell<'a>, words: &[String], columns: &[usize]) -> bool {
    words.iter().all(|w| {
        columns.iter().any(|&c| match cell(c) {
            Cell::Text(t) => fold_case(t).contains(w.as_str()),
            Cell::Num(n) => n.to_string().contains(w.as_str()),
            Cell::Empty => false,
        })
    })
}

/// Search, sort (stable: equal cells keep the rows' order) and cut out one page.
/// `columns` is the table's column count, used when the query names no search columns.
pub fn view<R: Row>(rows: &[R], columns: usize, q: &Query) -> View {
    view_cells(rows.len(), &|i, c| rows[i].cell(c), columns, q)
}

/// [`view`] over `n` rows whose cells `cell(row, column)` gives. Not generic, so every table
/// shares one copy of the sort in the wasm (a stable sort is several KB per row type).
fn view_cells<'a>(
    n: usize,
    cell: &dyn Fn(usize, usize) -> Cell<'a>,
    columns: usize,
    q: &Query,
) -> View {
    let words: Vec<String> = fold_case(&q.search)
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let search_columns: Vec<usize> = if q.search_columns.is_empty() {
        (0..columns).collect()
    } else {
        q.search_columns.clone()
    };
    let mut order: Vec<usize> = (0..n)
        .filter(|&i| words.is_empty() || matches(&|c| cell(i, c), &words, &search_columns))
        .collect();
    if let Some((column, direction)) = q.sort {
        order.sort_by(|&i, &j| {
            let (a, b) = (cell(i, column), cell(j, column));
            match (&a, &b) {
                (Cell::Empty, Cell::Empty) => Ordering::Equal,
                (Cell::Empty, _) => Ordering::Greater,
                (_, Cell::Empty) => Ordering::Less,
                _ => match direction {
                    Direction::Ascending => compare_cells(&a, &b),
                    Direction::Descending => compare_cells(&b, &a),
                },
            }
        });
    }
    let matching = order.len();
    let (page, pages, rows) = if q.page_size == 0 {
        (0, 1, order)
    } else {
        let pages = matching.div_ceil(q.page_size).max(1);
        let page = q.page.min(pages - 1);
        let start = page * q.page_size;
        let end = (start + q.page_size).min(matching);
        (page, pages, order[start..end].to_vec())
    };
    View {
        rows,
        matching,
        page,
        pages,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct R {
        id: &'static str,
        score: Option<f64>,
        note: &'static str,
    }

    impl Row for R {
        fn cell(&self, column: usize) -> Cell<'_> {
            match column {
                0 => Cell::Text(self.id),
                1 => self.score.map_or(Cell::Empty, Cell::Num),
                2 if self.note.is_empty() => Cell::Empty,
                2 => Cell::Text(self.note),
                _ => Cell::Empty,
            }
        }
    }

    fn rows() -> Vec<R> {
        vec![
            R {
                id: "case 10",
                score: Some(3.0),
                note: "Fabricated number",
            },
            R {
                id: "case 2",
                score: Some(10.0),
                note: "",
            },
            R {
                id: "Case 1",
                score: None,
                note: "clean",
            },
            R {
                id: "case 3",
                score: Some(3.0),
                note: "fabricated quote",
            },
            R {
                id: "case 20",
                score: Some(f64::NAN),
                note: "ÉCOLE",
            },
        ]
    }

    fn ids(rows: &[R], v: &View) -> Vec<&'static str> {
        v.rows.iter().map(|&i| rows[i].id).collect()
    }

    #[test]
    fn numbers_sort_as_numbers_and_text_naturally() {
        let rs = rows();
        let mut q = Query::default();
        q.click_header(1);
        let v = view(&rs, 3, &q);
        // Stable: the two 3s keep their order; NaN after numbers; empty last.
        assert_eq!(
            ids(&rs, &v),
            vec!["case 10", "case 3", "case 2", "case 20", "Case 1"]
        );
        q.click_header(1);
        let v = view(&rs, 3, &q);
        assert_eq!(q.sort, Some((1, Direction::Descending)));
        assert_eq!(
            ids(&rs, &v),
            vec!["case 20", "case 2", "case 10", "case 3", "Case 1"]
        );
        q.click_header(0);
        let v = view(&rs, 3, &q);
        assert_eq!(
            ids(&rs, &v),
            vec!["Case 1", "case 2", "case 3", "case 10", "case 20"]
        );
    }

    #[test]
    fn natural_order() {
        assert_eq!(natural_cmp("a2", "a10"), Ordering::Less);
        assert_eq!(natural_cmp("a010", "a9"), Ordering::Greater);
        assert_eq!(natural_cmp("B", "a"), Ordering::Greater);
        assert_eq!(
            natural_cmp("a", "A"),
            "a".cmp("A"),
            "total: ties by exact text"
        );
        assert_eq!(
            natural_cmp("x99999999999999999999999", "x100000000000000000000000"),
            Ordering::Less,
            "digit runs longer than u64"
        );
        assert_eq!(natural_cmp("", "a"), Ordering::Less);
    }

    #[test]
    fn search_is_case_insensitive_all_words() {
        let rs = rows();
        let q = Query {
            search: "FABRICATED".into(),
            ..Query::default()
        };
        assert_eq!(ids(&rs, &view(&rs, 3, &q)), vec!["case 10", "case 3"]);
        let q = Query {
            search: "fabricated quote".into(),
            ..Query::default()
        };
        assert_eq!(ids(&rs, &view(&rs, 3, &q)), vec!["case 3"]);
        let q = Query {
            search: "école".into(),
            ..Query::default()
        };
        assert_eq!(ids(&rs, &view(&rs, 3, &q)), vec!["case 20"]);
        let q = Query {
            search: "10".into(),
            search_columns: vec![1],
            ..Query::default()
        };
        assert_eq!(
            ids(&rs, &view(&rs, 3, &q)),
            vec!["case 2"],
            "numbers searched as written"
        );
    }

    #[test]
    fn paging_has_no_cap_and_clamps() {
        struct N(f64);
        impl Row for N {
            fn cell(&self, _: usize) -> Cell<'_> {
                Cell::Num(self.0)
            }
        }
        let rs: Vec<N> = (0..1001).map(|i| N(f64::from(i))).collect();
        let mut q = Query {
            page_size: 200,
            ..Query::default()
        };
        let v = view(&rs, 1, &q);
        assert_eq!((v.pages, v.matching, v.rows.len()), (6, 1001, 200));
        q.page = 5;
        assert_eq!(view(&rs, 1, &q).rows, vec![1000]);
        q.page = 99;
        let v = view(&rs, 1, &q);
        assert_eq!((v.page, v.rows.clone()), (5, vec![1000]));
        q.page_size = 0;
        assert_eq!(view(&rs, 1, &q).rows.len(), 1001);
        let empty: Vec<N> = Vec::new();
        let v = view(
            &empty,
            1,
            &Query {
                page_size: 10,
                page: 3,
                ..Query::default()
            },
        );
        assert_eq!((v.page, v.pages, v.matching), (0, 1, 0));
    }
}
