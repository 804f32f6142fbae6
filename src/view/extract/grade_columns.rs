//! The grade table's columns for [`crate::table`]: the Extract page sorts and pages the rows
//! the Show filter and the search keep with the same rules as every other table.

use serde_json::Value;

use crate::extract::batch::{restated, Row};
use crate::extract::records::GradeRecord;
use crate::table::{self, Cell, Query, View};

/// Column headers, in order.
pub const COLUMNS: [&str; 10] = [
    "line",
    "id",
    "predicted",
    "rule",
    "before the model",
    "ground truth",
    "verdict",
    "path",
    "answer type",
    "reason",
];

pub use crate::extract::batch::verdict_label;

/// A kept row, by reference (the batch's rows stay where they are), and whether it was graded
/// as multiple choice ([`crate::extract::batch::GradeBatch::is_choice`]).
pub struct Kept<'a>(pub &'a Row, pub bool);

/// The answer-type column: what the row was graded as.
pub fn answer_type(choice: bool) -> &'static str {
    if choice {
        "multiple choice"
    } else {
        "other"
    }
}

/// What the answer-type column adds about the answer: none was found, or the one found only
/// restates the question (graded as no answer). Same words as the table's filters.
pub fn answer_note(record: &GradeRecord) -> Option<&'static str> {
    if record.no_answer() {
        Some("no answer found")
    } else if restated(record) {
        Some("restated the question")
    } else {
        None
    }
}

/// The answer-type cell as one text (sorting): the type, then the note.
fn answer_type_text(choice: bool, record: &GradeRecord) -> &'static str {
    match (choice, answer_note(record)) {
        (true, None) => "multiple choice",
        (true, Some("no answer found")) => "multiple choice · no answer found",
        (true, Some(_)) => "multiple choice · restated the question",
        (false, None) => "other",
        (false, Some("no answer found")) => "other · no answer found",
        (false, Some(_)) => "other · restated the question",
    }
}

impl table::Row for Kept<'_> {
    fn cell(&self, column: usize) -> Cell<'_> {
        match self.0 {
            Row::Graded { line, record } => match column {
                0 => Cell::Num(*line as f64),
                1 => match &record.id {
                    Value::String(s) => Cell::Text(s),
                    Value::Number(n) => n.as_f64().map_or(Cell::Empty, Cell::Num),
                    _ => Cell::Empty,
                },
                2 => optional(record.predicted_answer.as_deref()),
                3 => Cell::Text(&record.predicted_method),
                4 => record
                    .llm_fallback
                    .as_ref()
                    .map_or(Cell::Empty, |n| optional(n.rule_answer.as_deref())),
                5 => optional(record.ground_truth_answer.as_deref()),
                6 => Cell::Text(verdict_label(record)),
                7 => Cell::Text(record.method),
                8 => Cell::Text(answer_type_text(self.1, record)),
                9 => Cell::Text(&record.reason),
                _ => Cell::Empty,
            },
            // A bad line sorts by its line number and its error (in the reason column).
            Row::Bad { line, error } => match column {
                0 => Cell::Num(*line as f64),
                9 => Cell::Text(error),
                _ => Cell::Empty,
            },
        }
    }
}

/// No answer is an empty cell: last in either direction.
fn optional(s: Option<&str>) -> Cell<'_> {
    s.map_or(Cell::Empty, Cell::Text)
}

/// Sort (when `query.sort` is set) and cut out one page of `kept`; indices are into `kept`.
/// The search was applied by the batch already, so `query.search` is ignored.
pub fn page(kept: &[Kept], query: &Query) -> View {
    let q = Query {
        search: String::new(),
        ..query.clone()
    };
    table::view(kept, COLUMNS.len(), &q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::batch::GradeBatch;
    use crate::extract::{AnswerPatterns, Preset};
    use crate::table::Direction;

    #[test]
    fn sorts_by_any_column_and_pages() {
        let mut b = GradeBatch::new(Preset::Lenient, AnswerPatterns::NONE);
        b.push_line(
            1,
            r#"{"id":"case 10","output":"so 10","ground_truth":"10"}"#,
        );
        b.push_line(
            2,
            r#"{"id":"case 2","output":"\\boxed{\\frac{1}{2}}","ground_truth":"3"}"#,
        );
        b.bad_line(3, "line 3: not valid JSON".into());
        b.push_line(
            4,
            r#"{"id":"case 9","output":"I give up","ground_truth":"9"}"#,
        );
        let kept: Vec<Kept> = b.rows.iter().map(|r| Kept(r, b.is_choice(r))).collect();
        let lines = |q: &Query| -> Vec<usize> {
            page(&kept, q)
                .rows
                .iter()
                .filter_map(|&i| kept.get(i).map(|k| k.0.line()))
                .collect()
        };
        let mut q = Query::default();
        assert_eq!(lines(&q), [1, 2, 3, 4]);
        // Ids naturally (case 2 < case 9 < case 10); the bad line has no id: last.
        q.click_header(1);
        assert_eq!(lines(&q), [2, 4, 1, 3]);
        q.click_header(1);
        assert_eq!(q.sort, Some((1, Direction::Descending)));
        assert_eq!(lines(&q), [1, 4, 2, 3]);
        // Verdicts as words; rows with no answer are "no answer".
        q.click_header(6);
        assert_eq!(lines(&q), [1, 4, 2, 3]);
        // Pages of two after sorting by line, descending.
        q.click_header(0);
        q.click_header(0);
        q.page_size = 2;
        q.page = 1;
        assert_eq!(lines(&q), [2, 1]);
        let v = page(&kept, &q);
        assert_eq!((v.page, v.pages, v.matching), (1, 2, 4));
    }

    #[test]
    fn the_answer_type_column_says_choice_and_what_is_wrong_with_the_answer() {
        let mut b = GradeBatch::new(Preset::Lenient, AnswerPatterns::NONE);
        b.push_line(
            1,
            r#"{"output":"【答案】 C <eoa>","ground_truth":"C","answer_type":"choice"}"#,
        );
        b.push_line(2, r#"{"output":"I give up","ground_truth":"9"}"#);
        b.push_line(
            3,
            r#"{"question":"Simplify $\\sqrt{8}$.","output":"$\\boxed{\\sqrt{8}}$","ground_truth":"2\\sqrt{2}"}"#,
        );
        let kept: Vec<Kept> = b.rows.iter().map(|r| Kept(r, b.is_choice(r))).collect();
        let texts: Vec<String> = kept
            .iter()
            .map(|k| match table::Row::cell(k, 8) {
                Cell::Text(t) => t.to_string(),
                _ => String::new(),
            })
            .collect();
        assert_eq!(
            texts,
            [
                "multiple choice",
                "other · no answer found",
                "other · restated the question"
            ]
        );
        assert_eq!(COLUMNS[8], "answer type");
    }
}
