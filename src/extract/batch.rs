//! Grading a whole `grade`-format JSONL in the browser: rows in line order, the summary,
//! filtering, and the JSONL / CSV exports. Pure so it is tested natively; the Extract page
//! only feeds lines and lays the rows out.

use crate::search::SearchQuery;

use super::equiv::Path;
use super::guards::RESTATES_QUESTION;
use super::records::{grade_record, parse_grade_line, GradeRecord, GradeSummary};
use super::{AnswerPatterns, Preset};

/// One input line's outcome.
#[derive(Debug, Clone, PartialEq)]
pub enum Row {
    Graded { line: usize, record: GradeRecord },
    Bad { line: usize, error: String },
}

impl Row {
    pub fn line(&self) -> usize {
        match self {
            Row::Graded { line, .. } | Row::Bad { line, .. } => *line,
        }
    }
}

crate::names::named_enum! {
    /// Which rows the table shows; its name is the picker's value.
    #[derive(Default)]
    pub enum Show {
        #[default]
        All = "all",
        Equivalent = "equivalent",
        NotEquivalent = "not_equivalent",
        Undecided = "undecided",
        NoAnswer = "no_answer",
        LowConfidence = "low_confidence",
        /// Rows whose verdict the verify model's answer changed (the LLM fallback).
        ChangedByModel = "changed_by_model",
        /// Rows graded as multiple choice ([`GradeBatch::is_choice`]).
        Choice = "choice",
        /// Rows whose answer only restates the question ([`restated`]).
        Restated = "restated",
        Bad = "bad",
    }
}

impl Show {
    pub fn label(self) -> &'static str {
        match self {
            Show::All => "all rows",
            Show::Equivalent => "equivalent",
            Show::NotEquivalent => "not equivalent",
            Show::Undecided => "could not decide",
            Show::NoAnswer => "no answer",
            Show::LowConfidence => "low confidence",
            Show::ChangedByModel => "changed by the model",
            Show::Choice => "multiple choice",
            Show::Restated => "restated the question",
            Show::Bad => "bad lines",
        }
    }

    /// The picker's value read back (all rows for a value it does not offer).
    pub fn from_key(k: &str) -> Show {
        Show::from_name(k).unwrap_or_default()
    }

    /// `choice`: the row was graded as multiple choice ([`GradeBatch::is_choice`]).
    fn keeps(self, row: &Row, choice: bool) -> bool {
        match (self, row) {
            (Show::All, _) => true,
            (Show::Bad, Row::Bad { .. }) => true,
            (Show::Equivalent, Row::Graded { record, .. }) => record.equivalent,
            // "Not equivalent" means decided different; undecided rows have their own filter.
            (Show::NotEquivalent, Row::Graded { record, .. }) => {
                !record.equivalent && !record.undecided()
            }
            (Show::Undecided, Row::Graded { record, .. }) => record.undecided(),
            (Show::NoAnswer, Row::Graded { record, .. }) => record.no_answer(),
            (Show::LowConfidence, Row::Graded { record, .. }) => record.low_confidence,
            (Show::ChangedByModel, Row::Graded { record, .. }) => changed_by_model(record),
            (Show::Choice, Row::Graded { .. }) => choice,
            (Show::Restated, Row::Graded { record, .. }) => restated(record),
            _ => false,
        }
    }
}

/// Where a line is in the uploaded file: byte offset in the stream (after a BOM, as
/// [`crate::jsonl::Line::offset`]) and its length in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineSource {
    pub line: usize,
    pub offset: u64,
    pub len: usize,
}

/// Accumulates a grading run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GradeBatch {
    pub preset: Preset,
    /// The user's answer patterns, tried before the built-in rules on every line.
    pub patterns: AnswerPatterns,
    pub rows: Vec<Row>,
    pub summary: GradeSummary,
    /// Where each line fed by [`GradeBatch::push_line_at`] is in the file, in line order, so
    /// a row can be read back and opened without keeping every line's text in memory.
    pub sources: Vec<LineSource>,
    /// The lines that asked for multiple-choice grading (`"answer_type": "choice"`), in line
    /// order: the record does not say so itself ([`GradeBatch::is_choice`]).
    pub choice_lines: Vec<usize>,
}

impl GradeBatch {
    pub fn new(preset: Preset, patterns: AnswerPatterns) -> GradeBatch {
        GradeBatch {
            preset,
            patterns,
            ..GradeBatch::default()
        }
    }

    pub fn push_line(&mut self, line: usize, text: &str) {
        match parse_grade_line(text, line) {
            Ok(input) => {
                if input.choices {
                    self.choice_lines.push(line);
                }
                let record = grade_record(&input, self.preset, &self.patterns);
                self.summary.add(&record);
                self.rows.push(Row::Graded { line, record });
            }
            Err(e) => self.bad_line(line, e.to_string()),
        }
    }

    /// [`GradeBatch::push_line`], remembering where the line is in the file (its offset as
    /// [`crate::jsonl::Line::offset`] and its length) so the row can be opened later.
    pub fn push_line_at(&mut self, line: usize, offset: u64, text: &str) {
        self.sources.push(LineSource {
            line,
            offset,
            len: text.len(),
        });
        self.push_line(line, text);
    }

    /// Where line `line` is in the file, if it was fed with [`GradeBatch::push_line_at`].
    pub fn source_of(&self, line: usize) -> Option<LineSource> {
        let i = self.sources.binary_search_by_key(&line, |s| s.line).ok()?;
        self.sources.get(i).copied()
    }

    /// The record the table shows for line `line`, if it was graded.
    pub fn record_of(&self, line: usize) -> Option<&GradeRecord> {
        let i = self.rows.binary_search_by_key(&line, Row::line).ok()?;
        match self.rows.get(i)? {
            Row::Graded { record, .. } => Some(record),
            Row::Bad { .. } => None,
        }
    }

    /// Whether a row was graded as multiple choice: its line asked for it (`"answer_type":
    /// "choice"`), or the comparison was of option letters (the gold names options the question
    /// lists; a kept run, which keeps records only, knows this much). docs/extract.md, "Multiple
    /// choice".
    pub fn is_choice(&self, row: &Row) -> bool {
        match row {
            Row::Graded { line, record } => {
                record.method == Path::Choice.as_str()
                    || self.choice_lines.binary_search(line).is_ok()
            }
            Row::Bad { .. } => false,
        }
    }

    pub fn bad_line(&mut self, line: usize, error: String) {
        self.summary.bad_lines += 1;
        self.rows.push(Row::Bad { line, error });
    }

    pub fn bad_rows(&self) -> impl Iterator<Item = (usize, &str)> {
        self.rows.iter().filter_map(|r| match r {
            Row::Bad { line, error } => Some((*line, error.as_str())),
            Row::Graded { .. } => None,
        })
    }

    /// Rows kept by `show` whose id, answers, rules or reason `search` matches.
    pub fn filtered<'a>(
        &'a self,
        show: Show,
        search: &'a SearchQuery,
    ) -> impl Iterator<Item = &'a Row> + 'a {
        self.rows.iter().filter(move |r| {
            show.keeps(r, self.is_choice(r))
                && (search.is_everything() || search.matches(&row_text(r)))
        })
    }

    /// The same lines `verifyfast grade` writes (error records for bad lines).
    pub fn to_jsonl(&self, show: Show, search: &SearchQuery) -> String {
        let mut out = String::new();
        for r in self.filtered(show, search) {
            let line = match r {
                Row::Graded { record, .. } => serde_json::to_string(record).unwrap_or_default(),
                Row::Bad { line, error } => crate::jsonl::compact(
                    &serde_json::json!({ "id": null, "line": line, "error": error }),
                ),
            };
            out.push_str(&line);
            out.push('\n');
        }
        out
    }

    /// CSV with a header; every field quoted; cells that a spreadsheet would run as a
    /// formula (`=`, `+`, `-`, `@` first) are prefixed with `'`.
    pub fn to_csv(&self, show: Show, search: &SearchQuery) -> String {
        let mut out = String::from(
            "line,id,predicted_answer,ground_truth_answer,equivalent,verdict,method,predicted_method,ground_truth_method,low_confidence,llm_fallback,reason,error\n",
        );
        for r in self.filtered(show, search) {
            let cells: Vec<String> = match r {
                Row::Graded { line, record } => vec![
                    line.to_string(),
                    id_text(&record.id),
                    record.predicted_answer.clone().unwrap_or_default(),
                    record.ground_truth_answer.clone().unwrap_or_default(),
                    record.equivalent.to_string(),
                    record.verdict.as_str().to_string(),
                    record.method.to_string(),
                    record.predicted_method.to_string(),
                    record.ground_truth_method.to_string(),
                    record.low_confidence.to_string(),
                    record
                        .llm_fallback
                        .as_ref()
                        .map(|n| n.status())
                        .unwrap_or_default(),
                    record.reason.clone(),
                    String::new(),
                ],
                Row::Bad { line, error } => {
                    let mut v = vec![String::new(); 13];
                    if let Some(c) = v.first_mut() {
                        *c = line.to_string();
                    }
                    if let Some(c) = v.last_mut() {
                        *c = error.clone();
                    }
                    v
                }
            };
            let quoted: Vec<String> = cells.iter().map(|c| csv_cell(c)).collect();
            out.push_str(&quoted.join(","));
            out.push('\n');
        }
        out
    }
}

fn id_text(id: &serde_json::Value) -> String {
    crate::jsonl::text_of(id)
}

/// Whether the verify model's answer was used and gave another verdict than the rules'.
pub fn changed_by_model(record: &GradeRecord) -> bool {
    record
        .llm_fallback
        .as_ref()
        .is_some_and(|n| n.used && n.rule_verdict != record.verdict)
}

/// The output's answer only restates the question (an expression it asks to compute): graded
/// as no answer, though an answer was read (`extract::guards`).
pub fn restated(record: &GradeRecord) -> bool {
    record.method == Path::NoAnswer.as_str() && record.reason.starts_with(RESTATES_QUESTION)
}

/// The grade table's verdict column, in users' words.
pub fn verdict_label(record: &GradeRecord) -> &'static str {
    if record.equivalent {
        "equivalent"
    } else if record.undecided() {
        "could not decide"
    } else if record.no_answer() {
        "no answer"
    } else {
        "not equivalent"
    }
}

/// What a search looks at: every column the table shows (line, id, answers, rules, verdict,
/// path, reason, and the rule answer from before the model), one per line, so a regex's
/// `^…$` anchors to one column (`crate::search`) and a plain search never matches across two.
fn row_text(r: &Row) -> String {
    match r {
        Row::Graded { line, record } => {
            let (rule_answer, rule_method) = record.llm_fallback.as_ref().map_or(("", ""), |n| {
                (
                    n.rule_answer.as_deref().unwrap_or(""),
                    n.rule_method.as_str(),
                )
            });
            format!(
                "{line}\n{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}",
                id_text(&record.id),
                record.predicted_answer.as_deref().unwrap_or(""),
                record.predicted_method,
                rule_answer,
                rule_method,
                record.ground_truth_answer.as_deref().unwrap_or(""),
                record.ground_truth_method,
                verdict_label(record),
                record.method,
                record.reason
            )
        }
        Row::Bad { line, error } => format!("{line}\n{error}"),
    }
}

fn csv_cell(c: &str) -> String {
    let guarded = if c.starts_with(['=', '+', '-', '@']) {
        format!("'{c}")
    } else {
        c.to_string()
    };
    format!("\"{}\"", guarded.replace('"', "\"\""))
}

/// Splits `text` around `span` for highlighting; a span that is out of range or not on
/// character boundaries yields no highlight rather than a panic.
pub fn highlight(text: &str, span: (usize, usize)) -> Option<(&str, &str, &str)> {
    let (s, e) = span;
    if s >= e {
        return None;
    }
    Some((text.get(..s)?, text.get(s..e)?, text.get(e..)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn batch() -> GradeBatch {
        let mut b = GradeBatch::new(Preset::Lenient, AnswerPatterns::NONE);
        b.push_line(1, r#"{"id":"a","output":"So 3+4=7","ground_truth":"7"}"#);
        b.push_line(2, "{broken");
        b.push_line(3, r#"{"id":"c","output":"no idea","ground_truth":"-2"}"#);
        b.push_line(
            4,
            r#"{"id":"=HYPERLINK(1)","output":"The answer is 5","ground_truth":"6"}"#,
        );
        b.bad_line(5, "line 5: not valid UTF-8 (byte 3 of the line)".into());
        // Past the exact size bound: could not decide.
        b.push_line(
            6,
            r#"{"id":"f","output":"2^{100000}","ground_truth":"2^{100000}+1"}"#,
        );
        b
    }

    #[test]
    fn multiple_choice_and_restated_rows_have_their_filters() {
        let mut b = GradeBatch::new(Preset::Lenient, AnswerPatterns::NONE);
        b.push_line(
            1,
            r#"{"id":"mc","output":"【解析】故选 C。<eoe>\n【答案】 C <eoa>","ground_truth":"C","answer_type":"choice"}"#,
        );
        b.push_line(
            2,
            r#"{"id":"r","question":"Simplify $\\sqrt{8}$.","output":"The answer is $\\boxed{\\sqrt{8}}$.","ground_truth":"2\\sqrt{2}"}"#,
        );
        b.push_line(
            3,
            r#"{"id":"p","output":"so it is 10","ground_truth":"10"}"#,
        );
        // Not asked, but the gold names options the question lists: letters compared.
        b.push_line(
            4,
            r#"{"id":"auto","question":"Pick one.\nA. 1\nB. 2","output":"The answer is B","ground_truth":"B"}"#,
        );
        // Asked, with no answer found: still a multiple-choice row.
        b.push_line(
            5,
            r#"{"id":"n","output":"I cannot tell.","ground_truth":"A","answer_type":"choice"}"#,
        );
        b.bad_line(6, "line 6: not valid JSON".into());
        let everything = SearchQuery::Everything;
        let lines =
            |show: Show| -> Vec<usize> { b.filtered(show, &everything).map(Row::line).collect() };
        assert_eq!(lines(Show::Choice), [1, 4, 5]);
        assert_eq!(lines(Show::Restated), [2]);
        assert_eq!(lines(Show::NoAnswer), [5]);
        assert_eq!(Show::from_key("restated"), Show::Restated);
        let Some(Row::Graded { record, .. }) = b.rows.get(1) else {
            panic!("line 2 is graded");
        };
        assert!(restated(record) && !record.no_answer(), "{record:?}");
    }

    #[test]
    fn summary_and_bad_lines_keep_line_numbers() {
        let b = batch();
        assert_eq!(
            (
                b.summary.n,
                b.summary.equivalent,
                b.summary.no_answer,
                b.summary.bad_lines
            ),
            (4, 1, 1, 2)
        );
        assert_eq!(b.summary.undecided, 1);
        let bad: Vec<usize> = b.bad_rows().map(|(l, _)| l).collect();
        assert_eq!(bad, [2, 5]);
        assert!(b
            .bad_rows()
            .next()
            .is_some_and(|(_, e)| e.starts_with("line 2:")));
    }

    #[test]
    fn filters_and_search() {
        let b = batch();
        let lines = |show, q| {
            let q = SearchQuery::parse(q, false).unwrap_or(SearchQuery::Everything);
            b.filtered(show, &q).map(Row::line).collect::<Vec<_>>()
        };
        assert_eq!(lines(Show::All, ""), [1, 2, 3, 4, 5, 6]);
        assert_eq!(lines(Show::Equivalent, ""), [1]);
        assert_eq!(lines(Show::NotEquivalent, ""), [3, 4]);
        assert_eq!(lines(Show::Undecided, ""), [6]);
        assert_eq!(lines(Show::NoAnswer, ""), [3]);
        assert_eq!(lines(Show::Bad, ""), [2, 5]);
        assert_eq!(lines(Show::All, "UTF-8"), [5]);
        assert_eq!(lines(Show::All, " utf-8 "), [5]);
        assert_eq!(lines(Show::NotEquivalent, "HYPERLINK"), [4]);
        assert_eq!(Show::from_key("no_answer"), Show::NoAnswer);
        assert_eq!(Show::from_key("??"), Show::All);
    }

    #[test]
    fn exports_match_the_cli_and_defuse_formulas() {
        let b = batch();
        let all = SearchQuery::Everything;
        let jsonl = b.to_jsonl(Show::All, &all);
        let first: serde_json::Value =
            serde_json::from_str(jsonl.lines().next().unwrap_or("")).unwrap();
        assert_eq!(first["predicted_answer"], "7");
        assert_eq!(first["method"], "identical_text");
        assert!(jsonl
            .lines()
            .nth(1)
            .is_some_and(|l| l.contains("\"line\":2")));
        let csv = b.to_csv(Show::All, &all);
        assert_eq!(csv.lines().count(), 7);
        assert!(
            csv.lines()
                .last()
                .is_some_and(|l| l.contains("\"undecided\"")),
            "{csv}"
        );
        assert!(csv.contains("\"'-2\""), "{csv}");
        assert!(csv.contains("\"'=HYPERLINK(1)\""), "{csv}");
        assert!(csv.lines().nth(2).is_some_and(|l| l.starts_with("\"2\",")));
    }

    #[test]
    fn regex_search_filters_rows_and_exports() {
        let b = batch();
        let q = |text: &str| SearchQuery::parse(text, true).unwrap_or(SearchQuery::Everything);
        let lines = |text: &str| {
            b.filtered(Show::All, &q(text))
                .map(Row::line)
                .collect::<Vec<_>>()
        };
        // Case-insensitive; `(?m)` anchors to one field (here the id).
        assert_eq!(lines("(?m)^[ac]$"), [1, 3]);
        assert_eq!(lines("^=hyperlink"), [4]);
        assert_eq!(lines("line \\d+: not valid"), [2, 5]);
        assert_eq!(lines("final_equation"), [1]);
        assert_eq!(b.to_csv(Show::All, &q("hyperlink")).lines().count(), 2);
        assert_eq!(b.to_jsonl(Show::All, &q("^zzz")), "");
    }

    #[test]
    fn answer_patterns_grade_every_line() {
        let patterns = AnswerPatterns::compile(&[super::super::AnswerPatternSpec {
            name: "final".into(),
            regex: "FINAL=(\\d+)".into(),
        }])
        .unwrap_or_default();
        let mut b = GradeBatch::new(Preset::Lenient, patterns);
        b.push_line(
            1,
            r#"{"output":"FINAL=4 but 5 is the last","ground_truth":"4"}"#,
        );
        b.push_line(2, r#"{"output":"it is 5","ground_truth":"5"}"#);
        let methods: Vec<String> = b
            .rows
            .iter()
            .filter_map(|r| match r {
                Row::Graded { record, .. } => Some(record.predicted_method.clone()),
                Row::Bad { .. } => None,
            })
            .collect();
        assert_eq!(methods, ["final", "main_clause"]);
        assert_eq!(b.summary.equivalent, 2);
    }

    #[test]
    fn line_sources_find_rows_to_open() {
        let mut b = GradeBatch::new(Preset::Lenient, AnswerPatterns::NONE);
        let l1 = r#"{"id":"a","output":"So 3+4=7","ground_truth":"7"}"#;
        let l3 = r#"{"id":"c","output":"It is 5","ground_truth":"6"}"#;
        b.push_line_at(1, 0, l1);
        b.bad_line(2, "line 2: not valid UTF-8 (byte 0 of the line)".into());
        b.push_line_at(3, 60, l3);
        assert_eq!(
            b.source_of(3),
            Some(LineSource {
                line: 3,
                offset: 60,
                len: l3.len()
            })
        );
        assert_eq!(b.source_of(2), None);
        assert_eq!(
            b.record_of(3).and_then(|r| r.predicted_answer.as_deref()),
            Some("5")
        );
        assert_eq!(b.record_of(2), None);
        assert_eq!(b.record_of(9), None);
    }

    #[test]
    fn highlight_is_safe() {
        assert_eq!(highlight("ab54c", (2, 4)), Some(("ab", "54", "c")));
        assert_eq!(highlight("é", (1, 2)), None);
        assert_eq!(highlight("ab", (1, 9)), None);
        assert_eq!(highlight("ab", (0, 0)), None);
    }
}
