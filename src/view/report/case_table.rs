//! The Report page's case list as a table: the drill-down filter, then sort by any column
//! (`crate::table`'s natural order) and page through every match (no cap), plus the
//! keyboard rules (`j`/`k`/`Enter`/`Esc`) and next/previous in the shown order. Pure, so
//! the view only lays out what this returns.

use crate::table::{self, Cell, Direction, Row};

use crate::band::evaluate::BandReport;
use crate::band::evaluate::CaseRef;
use crate::view::report::drill::CaseFilter;

/// Column headers, in display order (what `Cell` index `i` is).
pub const COLUMNS: [&str; 7] = [
    "line",
    "id",
    "profile",
    "tag",
    "difficulty",
    "expected",
    "judged",
];

/// Rows per page of the case list.
pub const PAGE_SIZE: usize = 100;

struct CaseRow<'a> {
    report: &'a BandReport,
    case: &'a CaseRef,
}

impl Row for CaseRow<'_> {
    fn cell(&self, column: usize) -> Cell<'_> {
        fn text(t: Option<&str>) -> Cell<'_> {
            t.filter(|s| !s.is_empty()).map_or(Cell::Empty, Cell::Text)
        }
        let c = self.case;
        match column {
            0 => Cell::Num(c.line as f64),
            1 => text(c.id.as_deref()),
            2 => text(self.report.name(c.profile)),
            3 => text(self.report.name(c.tag)),
            4 => text(self.report.name(c.difficulty)),
            5 => Cell::Num(f64::from(c.expected)),
            6 => Cell::Num(f64::from(c.actual)),
            _ => Cell::Empty,
        }
    }
}

/// Every case the filter keeps, as indices into `report.cases`, in the sorted order (file
/// order when `sort` is `None`; stable, so ties keep file order).
pub fn ordered(
    report: &BandReport,
    filter: &CaseFilter,
    sort: Option<(usize, Direction)>,
) -> Vec<usize> {
    let search = filter.search_query();
    let kept: Vec<usize> = (0..report.cases.len())
        .filter(|&i| filter.matches(report, &report.cases[i], &search))
        .collect();
    let rows: Vec<CaseRow> = kept
        .iter()
        .map(|&i| CaseRow {
            report,
            case: &report.cases[i],
        })
        .collect();
    let q = table::Query {
        sort,
        ..table::Query::default()
    };
    table::view(&rows, COLUMNS.len(), &q)
        .rows
        .into_iter()
        .map(|i| kept[i])
        .collect()
}

/// The page count of `n` rows (at least one).
pub fn pages(n: usize) -> usize {
    n.div_ceil(PAGE_SIZE).max(1)
}

/// The positions in the order shown on `page` (clamped to the last page).
pub fn page_range(n: usize, page: usize) -> std::ops::Range<usize> {
    let page = page.min(pages(n) - 1);
    let start = page * PAGE_SIZE;
    start..(start + PAGE_SIZE).min(n)
}

/// The page that shows position `pos`.
pub fn page_of(pos: usize) -> usize {
    pos / PAGE_SIZE
}

/// `aria-sort` of a column header.
pub fn aria_sort(sort: Option<(usize, Direction)>, column: usize) -> &'static str {
    match sort {
        Some((c, Direction::Ascending)) if c == column => "ascending",
        Some((c, Direction::Descending)) if c == column => "descending",
        _ => "none",
    }
}

/// What a key does in the case list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyAction {
    Next,
    Previous,
    Open,
    Close,
}

/// The action of a key (`KeyboardEvent.key`), unless a modifier is held.
pub fn key_action(key: &str, modifier: bool) -> Option<KeyAction> {
    if modifier {
        return None;
    }
    match key {
        "j" | "ArrowDown" => Some(KeyAction::Next),
        "k" | "ArrowUp" => Some(KeyAction::Previous),
        "Enter" => Some(KeyAction::Open),
        "Escape" => Some(KeyAction::Close),
        _ => None,
    }
}

/// The position one `step` from `at` in a list of `n`, stopping at the ends; with nothing
/// selected, a step down selects the first row and a step up the last.
pub fn step(at: Option<usize>, n: usize, forward: bool) -> Option<usize> {
    if n == 0 {
        return None;
    }
    Some(match (at, forward) {
        (None, true) => 0,
        (None, false) => n - 1,
        (Some(i), true) => (i + 1).min(n - 1),
        (Some(i), false) => i.saturating_sub(1).min(n - 1),
    })
}

/// The case a URL names: by id, and by line when the id repeats (one id per profile).
pub fn find_case(report: &BandReport, id: &str, line: Option<usize>) -> Option<usize> {
    let mut first = None;
    for (i, c) in report.cases.iter().enumerate() {
        if c.id.as_deref() == Some(id) {
            if line.is_none_or(|l| l == c.line) {
                return Some(i);
            }
            first.get_or_insert(i);
        }
    }
    first
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::band::{Evaluator, Options};

    fn report(n: usize) -> BandReport {
        let mut ev = Evaluator::new(Options::default());
        let mut offset = 0;
        for i in 0..n {
            let profile = if i % 2 == 0 { "a" } else { "b" };
            let line = format!(
                r#"{{"id":"case {}","profile":"{profile}","tag":"t{}","expected_credit_score":{},"credit_score":{}}}"#,
                i / 2,
                i % 3,
                1 + i % 5,
                5 - i % 5
            );
            ev.push_line(i + 1, offset, &line);
            offset += line.len() as u64 + 1;
        }
        ev.finish()
    }

    #[test]
    fn every_case_is_listed_and_paged() {
        let r = report(450);
        let order = ordered(&r, &CaseFilter::default(), None);
        assert_eq!(order.len(), 450, "no cap");
        assert_eq!(pages(order.len()), 5);
        assert_eq!(page_range(450, 4), 400..450);
        assert_eq!(page_range(450, 99), 400..450);
        assert_eq!(page_range(0, 0), 0..0);
        assert_eq!(page_of(399), 3);
    }

    #[test]
    fn sorts_by_any_column_naturally_after_filtering() {
        let r = report(30);
        let f = CaseFilter {
            profile: Some("b".into()),
            ..CaseFilter::default()
        };
        let order = ordered(&r, &f, Some((1, Direction::Descending)));
        let ids: Vec<&str> = order
            .iter()
            .map(|&i| r.cases[i].id.as_deref().unwrap_or(""))
            .collect();
        assert_eq!(ids.len(), 15);
        assert_eq!(
            &ids[..3],
            ["case 14", "case 13", "case 12"],
            "natural, not 9 > 14"
        );
        let by_judged = ordered(&r, &f, Some((6, Direction::Ascending)));
        let judged: Vec<u8> = by_judged.iter().map(|&i| r.cases[i].actual).collect();
        assert!(judged.windows(2).all(|w| w[0] <= w[1]), "{judged:?}");
        let f = CaseFilter {
            search: "case 1".into(),
            ..CaseFilter::default()
        };
        assert_eq!(
            ordered(&r, &f, None).len(),
            12,
            "case 1, case 10–14, both profiles"
        );
    }

    #[test]
    fn keys_steps_and_lookup() {
        assert_eq!(key_action("j", false), Some(KeyAction::Next));
        assert_eq!(key_action("k", false), Some(KeyAction::Previous));
        assert_eq!(key_action("Escape", false), Some(KeyAction::Close));
        assert_eq!(key_action("j", true), None);
        assert_eq!(key_action("x", false), None);
        assert_eq!(step(None, 3, true), Some(0));
        assert_eq!(step(None, 3, false), Some(2));
        assert_eq!(step(Some(2), 3, true), Some(2));
        assert_eq!(step(Some(0), 3, false), Some(0));
        assert_eq!(step(Some(9), 3, false), Some(2));
        assert_eq!(step(Some(0), 0, true), None);
        assert_eq!(aria_sort(Some((2, Direction::Descending)), 2), "descending");
        assert_eq!(aria_sort(Some((2, Direction::Descending)), 1), "none");
        let r = report(6);
        assert_eq!(find_case(&r, "case 1", None), Some(2));
        assert_eq!(find_case(&r, "case 1", Some(4)), Some(3));
        assert_eq!(find_case(&r, "case 1", Some(99)), Some(2));
        assert_eq!(find_case(&r, "nope", None), None);
    }
}
