//! The Runs table: which runs are listed and in what order. Of one kind (or all), matching
//! the search (name, kind, profiles, id; plain text or a regex, the rule of every table's
//! search box), sorted by any column with the sort every table uses (`crate::table`), 50 a
//! page; and how that view is written in the URL (`runs?kind=batch&filter=…&sort=-results&page=2`),
//! so reload, back/forward and a shared link land on the same view.
//!
//! Pure: the Runs page draws what [`listing`] returns and keeps a [`RunsQuery`] in its signals.

use crate::route::state::ViewState;
use crate::search::SearchQuery;
use crate::table::{self, Cell, Direction, Query};

use crate::runs::RunKind;
use crate::runs::RunMeta;

/// Column headers, in display order (what `Cell` index `i` is); also their names in the URL.
pub const COLUMNS: [&str; 7] = [
    "name", "kind", "created", "duration", "profiles", "results", "outcome",
];

/// Columns shown right-aligned (numbers).
pub fn numeric(column: usize) -> bool {
    column == 3 || column == 5
}

const CREATED: usize = 2;

/// The order without a `sort` in the URL: newest first, as the page always listed them.
pub const DEFAULT_SORT: (usize, Direction) = (CREATED, Direction::Descending);

/// Runs per page.
pub const PAGE_SIZE: usize = 50;

/// What the user asked of the Runs table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunsQuery {
    /// `None`: every kind.
    pub kind: Option<RunKind>,
    pub search: String,
    pub regex: bool,
    /// `None`: newest first (the store's order).
    pub sort: Option<(usize, Direction)>,
    /// Counted from 0; clamped to the last page when shown.
    pub page: usize,
}

impl Default for RunsQuery {
    fn default() -> Self {
        RunsQuery {
            kind: None,
            search: String::new(),
            regex: false,
            sort: Some(DEFAULT_SORT),
            page: 0,
        }
    }
}

impl RunsQuery {
    /// The view a URL asks for. Unknown kinds and column names are ignored (all kinds, the
    /// default order), as every bad URL value is.
    pub fn from_view(v: &ViewState) -> RunsQuery {
        let sort = v.sort.as_ref().and_then(|(name, direction)| {
            let column = COLUMNS.iter().position(|c| c == name)?;
            Some((column, *direction))
        });
        RunsQuery {
            kind: v.kind.as_deref().and_then(RunKind::from_name),
            search: v.filter.clone().unwrap_or_default(),
            regex: v.regex,
            sort: sort.or(Some(DEFAULT_SORT)),
            page: v.page.unwrap_or(0),
        }
    }

    /// Write this view into `v` (other keys untouched); defaults are left out, so the plain
    /// page is `runs`.
    pub fn to_view(&self, v: &mut ViewState) {
        v.kind = self.kind.map(|k| k.as_str().to_string());
        v.filter = (!self.search.is_empty()).then(|| self.search.clone());
        v.regex = self.regex && !self.search.is_empty();
        v.sort = self
            .sort
            .filter(|s| *s != DEFAULT_SORT)
            .and_then(|(c, d)| Some((COLUMNS.get(c)?.to_string(), d)));
        v.page = (self.page > 0).then_some(self.page);
    }
}

/// The runs one page of the table shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Listing {
    /// This page's runs, in display order.
    pub runs: Vec<RunMeta>,
    /// Runs of the kind that match the search (on every page).
    pub matching: usize,
    /// Runs of the kind, searched or not.
    pub of_kind: usize,
    /// The page shown (clamped to the last page) and how many there are (at least 1).
    pub page: usize,
    pub pages: usize,
}

impl Listing {
    /// How many runs are listed, in words ("1 run", "2 of 5 runs match the search").
    pub fn count_words(&self, searching: bool) -> String {
        let runs = |n: usize| if n == 1 { "run" } else { "runs" };
        if searching {
            let verb = if self.matching == 1 {
                "matches"
            } else {
                "match"
            };
            format!(
                "{} of {} {} {verb} the search",
                self.matching,
                self.of_kind,
                runs(self.of_kind)
            )
        } else {
            format!("{} {}", self.of_kind, runs(self.of_kind))
        }
    }
}

/// A listed run with its profiles as one text (a cell borrows its text).
struct Listed<'a> {
    meta: &'a RunMeta,
    profiles: String,
}

impl table::Row for Listed<'_> {
    fn cell(&self, column: usize) -> Cell<'_> {
        let m = self.meta;
        match column {
            0 => Cell::Text(&m.name),
            1 => Cell::Text(m.kind.as_str()),
            2 => Cell::Num(m.created_ms),
            // An unfinished run has no duration: last in either direction.
            3 => m
                .finished_ms
                .map_or(Cell::Empty, |f| Cell::Num(f - m.created_ms)),
            4 if self.profiles.is_empty() => Cell::Empty,
            4 => Cell::Text(&self.profiles),
            5 => Cell::Num(m.result_count as f64),
            6 => m
                .outcome
                .as_ref()
                .map_or(Cell::Empty, |o| Cell::Text(&o.text)),
            _ => Cell::Empty,
        }
    }
}

/// The text a run's search looks in: its name, kind, profiles and id, one per line (so a
/// search never matches across two of them).
fn haystack(m: &RunMeta, profiles: &str) -> String {
    format!("{}\n{}\n{profiles}\n{}", m.name, m.kind.as_str(), m.id)
}

/// The page of the Runs table `q` asks for. A regex that does not compile filters nothing
/// (the search box says why), as in every table.
pub fn listing(runs: &[RunMeta], q: &RunsQuery) -> Listing {
    let search = SearchQuery::parse_or_everything(&q.search, q.regex);
    let of_kind = crate::runs::newest_first(runs, q.kind);
    let total = of_kind.len();
    let rows: Vec<Listed> = of_kind
        .into_iter()
        .map(|meta| Listed {
            meta,
            profiles: meta.profiles.join(", "),
        })
        .filter(|r| search.matches(&haystack(r.meta, &r.profiles)))
        .collect();
    let view = table::view(
        &rows,
        COLUMNS.len(),
        &Query {
            sort: q.sort,
            page: q.page,
            page_size: PAGE_SIZE,
            ..Query::default()
        },
    );
    Listing {
        runs: view
            .rows
            .iter()
            .filter_map(|&i| rows.get(i))
            .map(|r| r.meta.clone())
            .collect(),
        matching: view.matching,
        of_kind: total,
        page: view.page,
        pages: view.pages,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_in_words() {
        let l = |matching, of_kind| Listing {
            runs: Vec::new(),
            matching,
            of_kind,
            page: 0,
            pages: 1,
        };
        assert_eq!(l(1, 1).count_words(false), "1 run");
        assert_eq!(l(0, 0).count_words(false), "0 runs");
        assert_eq!(l(1, 1).count_words(true), "1 of 1 run matches the search");
        assert_eq!(l(2, 5).count_words(true), "2 of 5 runs match the search");
    }
    use serde_json::Value;

    fn meta(id: &str, name: &str, kind: RunKind, created: f64, results: u64) -> RunMeta {
        RunMeta {
            id: id.into(),
            name: name.into(),
            kind,
            created_ms: created,
            finished_ms: Some(created + results as f64 * 1000.0),
            profiles: vec![format!("p{results}")],
            settings: Value::Null,
            strategy: Value::Null,
            inputs: Value::Null,
            result_count: results,
            outcome: None,
        }
    }

    fn runs() -> Vec<RunMeta> {
        let mut unfinished = meta("r-e", "Batch 10 · 营收", RunKind::Batch, 5.0, 0);
        unfinished.finished_ms = None;
        unfinished.profiles.clear();
        vec![
            meta("r-a", "audit two", RunKind::Audit, 1.0, 1),
            meta("r-b", "Batch 2", RunKind::Batch, 2.0, 12),
            meta("r-c", "grades", RunKind::Grade, 3.0, 300),
            meta("r-d", "report in", RunKind::Report, 4.0, 7),
            unfinished,
        ]
    }

    fn ids(l: &Listing) -> Vec<&str> {
        l.runs.iter().map(|m| m.id.as_str()).collect()
    }

    fn sorted(column: &str, direction: Direction) -> RunsQuery {
        let column = COLUMNS.iter().position(|c| *c == column).unwrap();
        RunsQuery {
            sort: Some((column, direction)),
            ..RunsQuery::default()
        }
    }

    #[test]
    fn newest_first_by_default() {
        let l = listing(&runs(), &RunsQuery::default());
        assert_eq!(ids(&l), ["r-e", "r-d", "r-c", "r-b", "r-a"]);
        assert_eq!((l.matching, l.of_kind, l.page, l.pages), (5, 5, 0, 1));
        let mut same_time = runs();
        for r in &mut same_time {
            r.created_ms = 1.0;
        }
        let l = listing(&same_time, &RunsQuery::default());
        assert_eq!(ids(&l), ["r-e", "r-d", "r-c", "r-b", "r-a"], "ties by id");
    }

    #[test]
    fn every_column_sorts_both_ways() {
        use Direction::{Ascending as Up, Descending as Down};
        let rs = runs();
        let by = |c, d| ids(&listing(&rs, &sorted(c, d))).join(" ");
        // Names in natural order ignoring case: `Batch 2` before `Batch 10`.
        assert_eq!(by("name", Up), "r-a r-b r-e r-c r-d");
        assert_eq!(by("name", Down), "r-d r-c r-e r-b r-a");
        // Ties (two batches) keep newest first.
        assert_eq!(by("kind", Up), "r-a r-e r-b r-c r-d");
        assert_eq!(by("created", Up), "r-a r-b r-c r-d r-e");
        // The unfinished run has no duration: last both ways.
        assert_eq!(by("duration", Up), "r-a r-d r-b r-c r-e");
        assert_eq!(by("duration", Down), "r-c r-b r-d r-a r-e");
        // No profiles: last both ways; `p12` after `p7` (numbers by value).
        assert_eq!(by("profiles", Up), "r-a r-d r-b r-c r-e");
        assert_eq!(by("profiles", Down), "r-c r-b r-d r-a r-e");
        assert_eq!(by("results", Up), "r-e r-a r-d r-b r-c");
        assert_eq!(by("results", Down), "r-c r-b r-d r-a r-e");
    }

    #[test]
    fn kind_and_search_filter() {
        let rs = runs();
        let q = |kind, search: &str, regex| RunsQuery {
            kind,
            search: search.into(),
            regex,
            ..RunsQuery::default()
        };
        let l = listing(&rs, &q(Some(RunKind::Batch), "", false));
        assert_eq!((ids(&l), l.of_kind), (vec!["r-e", "r-b"], 2));
        // Case-insensitive, in the name, the kind, the profiles or the id.
        assert_eq!(ids(&listing(&rs, &q(None, "BATCH", false))), ["r-e", "r-b"]);
        assert_eq!(ids(&listing(&rs, &q(None, "grade", false))), ["r-c"]);
        assert_eq!(ids(&listing(&rs, &q(None, "p300", false))), ["r-c"]);
        assert_eq!(ids(&listing(&rs, &q(None, "r-d", false))), ["r-d"]);
        assert_eq!(ids(&listing(&rs, &q(None, "营收", false))), ["r-e"]);
        let l = listing(&rs, &q(Some(RunKind::Audit), "batch", false));
        assert_eq!((l.matching, l.of_kind, l.runs.len()), (0, 1, 0));
        // A regex (`(?m)` anchors to one field); one that does not compile filters nothing.
        assert_eq!(
            ids(&listing(&rs, &q(None, "(?m)^batch \\d$", true))),
            ["r-b"]
        );
        assert_eq!(
            ids(&listing(&rs, &q(None, "^batch \\d$", false))),
            Vec::<&str>::new(),
            "plain text is literal"
        );
        assert_eq!(listing(&rs, &q(None, "(", true)).matching, 5);
    }

    #[test]
    fn pages_of_fifty_without_a_cap() {
        let rs: Vec<RunMeta> = (0..123)
            .map(|i| {
                meta(
                    &format!("r-{i:03}"),
                    &format!("run {i}"),
                    RunKind::Audit,
                    f64::from(i),
                    1,
                )
            })
            .collect();
        let mut q = RunsQuery::default();
        let l = listing(&rs, &q);
        assert_eq!((l.runs.len(), l.pages, l.matching), (50, 3, 123));
        assert_eq!(l.runs[0].name, "run 122");
        q.page = 2;
        let l = listing(&rs, &q);
        assert_eq!(
            (l.page, ids(&l).first().copied(), l.runs.len()),
            (2, Some("r-022"), 23)
        );
        q.page = 40;
        let l = listing(&rs, &q);
        assert_eq!((l.page, l.runs.len()), (2, 23), "clamped to the last page");
        let l = listing(&[], &q);
        assert_eq!((l.page, l.pages, l.matching), (0, 1, 0));
    }

    #[test]
    fn url_round_trip() {
        let q = RunsQuery {
            kind: Some(RunKind::Grade),
            search: "营收 & co".into(),
            regex: true,
            sort: Some((5, Direction::Ascending)),
            page: 3,
        };
        let mut v = ViewState {
            run: Some("kept".into()),
            ..ViewState::default()
        };
        q.to_view(&mut v);
        let text = v.encode();
        assert_eq!(
            text,
            "run=kept&filter=%E8%90%A5%E6%94%B6%20%26%20co&regex=1&kind=grade&sort=results&page=4"
        );
        assert_eq!(RunsQuery::from_view(&ViewState::decode(&text)), q);
        // The default view is the bare page, and a bare page is the default view.
        let mut v = ViewState::default();
        RunsQuery::default().to_view(&mut v);
        assert_eq!(v.encode(), "");
        assert_eq!(RunsQuery::from_view(&v), RunsQuery::default());
        // Bad values: every kind, the default order.
        let bad = ViewState::decode("kind=nope&sort=-colour&page=two");
        assert_eq!(RunsQuery::from_view(&bad), RunsQuery::default());
        let q = RunsQuery::from_view(&ViewState::decode("sort=-name"));
        assert_eq!(q.sort, Some((0, Direction::Descending)));
        // A regex flag without a search is not written.
        let mut v = ViewState::default();
        RunsQuery {
            regex: true,
            ..RunsQuery::default()
        }
        .to_view(&mut v);
        assert_eq!(v.encode(), "");
    }
}
