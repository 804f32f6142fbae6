//! The Extract page's grade table in the URL: its search (and whether it is a regular
//! expression), the "Show" filter and the sort, so reload, Back and a shared link show the same
//! rows, as the Report page's table does. Pure: the page reads and writes the URL around it.

use crate::extract::batch::Show;
use crate::route::state::ViewState;
use crate::table::Direction;

use super::grade_columns::COLUMNS;

/// The URL key of the "Show" filter (`show=no_answer`; absent for all rows).
const SHOW_KEY: &str = "show";

/// What the table shows besides its rows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TableView {
    pub search: String,
    pub regex: bool,
    pub show: Show,
    /// A column of `COLUMNS` and its direction.
    pub sort: Option<(usize, Direction)>,
}

impl TableView {
    /// Read from a URL; values this table does not know (a column it lacks, `show=purple`)
    /// are ignored.
    pub fn from_view(v: &ViewState) -> TableView {
        TableView {
            search: v.filter.clone().unwrap_or_default(),
            regex: v.regex,
            show: v
                .unknown
                .iter()
                .find(|(k, _)| k == SHOW_KEY)
                .and_then(|(_, s)| Show::from_name(s))
                .unwrap_or_default(),
            sort: v
                .sort
                .as_ref()
                .and_then(|(name, d)| COLUMNS.iter().position(|c| c == name).map(|i| (i, *d))),
        }
    }

    /// Write into `v`, keeping its other keys (the run).
    pub fn to_view(&self, v: &mut ViewState) {
        v.filter = (!self.search.is_empty()).then(|| self.search.clone());
        v.regex = self.regex && !self.search.is_empty();
        v.unknown.retain(|(k, _)| k != SHOW_KEY);
        if self.show != Show::All {
            v.unknown
                .push((SHOW_KEY.to_string(), self.show.as_str().to_string()));
        }
        v.sort = self
            .sort
            .and_then(|(i, d)| COLUMNS.get(i).map(|c| (c.to_string(), d)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_view_round_trips_through_the_url_and_keeps_the_run() {
        let t = TableView {
            search: "frac & 100%".into(),
            regex: true,
            show: Show::NoAnswer,
            sort: Some((4, Direction::Descending)),
        };
        let mut v = ViewState {
            run: Some("g-1".into()),
            ..Default::default()
        };
        t.to_view(&mut v);
        let q = v.encode();
        assert!(q.contains("sort=-before%20the%20model"), "{q}");
        assert!(q.contains("show=no_answer"), "{q}");
        let back = ViewState::decode(&q);
        assert_eq!(TableView::from_view(&back), t);
        assert_eq!(back.run.as_deref(), Some("g-1"));
        // The default view leaves nothing behind.
        let mut v = back;
        TableView::default().to_view(&mut v);
        assert_eq!(v.encode(), "run=g-1");
    }

    #[test]
    fn unknown_values_are_ignored() {
        let v = ViewState::decode("show=purple&sort=colour&filter=x");
        assert_eq!(
            TableView::from_view(&v),
            TableView {
                search: "x".into(),
                ..Default::default()
            }
        );
    }
}
