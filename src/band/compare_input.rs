//! The browser's Compare view, minus the browser: what a side of a comparison is (a label
//! and a results JSONL text — a picked file, a profile of one, later a stored run), why two
//! sides cannot be compared (said plainly), and the paired cases as a sortable table.
//! The statistics are `super::compare`'s.

use crate::runs::{list_view, RunKind, RunMeta};
use crate::table::{Cell, Row};

use super::compare::{compare, Comparison, PairedCase, RunLines, Selection};

/// One side of a comparison, whatever it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompareInput {
    pub label: String,
    pub jsonl_text: String,
}

/// Why a comparison could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompareError {
    #[error("{label}: this file is empty, it has no results")]
    Empty { label: String },
    #[error("{label}: this is not JSONL of results (line {line}: {why})")]
    NotJsonl {
        label: String,
        line: usize,
        why: String,
    },
    #[error("{label}: these are cases without a credit_score; run a batch on them first")]
    Unscored { label: String },
    #[error("{label}: no results for profile {profile}")]
    NoProfile { label: String, profile: String },
    #[error("these runs share no case ids ({a} results in {label_a}, {b} in {label_b})")]
    NothingShared {
        label_a: String,
        label_b: String,
        a: usize,
        b: usize,
    },
}

/// A side read: its lines, or why it holds no results.
pub fn read(input: &CompareInput) -> Result<RunLines, CompareError> {
    let run = RunLines::from_text(&input.label, &input.jsonl_text);
    if !run.records.is_empty() {
        return Ok(run);
    }
    let label = input.label.clone();
    let unscored = |why: &str| why.starts_with("no credit_score");
    match run.bad_lines.first() {
        None => Err(CompareError::Empty { label }),
        Some(_) if run.bad_lines.iter().all(|(_, w)| unscored(w)) => {
            Err(CompareError::Unscored { label })
        }
        Some((line, why)) => Err(CompareError::NotJsonl {
            label,
            line: *line,
            why: why.clone(),
        }),
    }
}

/// The profiles a run's results name, sorted (for the per-side profile picker).
pub fn profiles(run: &RunLines) -> Vec<String> {
    let mut names: Vec<String> = run
        .records
        .iter()
        .filter_map(|r| r.profile.clone())
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

fn selected(run: &RunLines, sel: &Selection) -> usize {
    run.records
        .iter()
        .filter(|r| sel.profile.is_none() || r.profile == sel.profile)
        .count()
}

/// Compare B against A, or say why not.
pub fn compare_runs(
    a: &RunLines,
    sel_a: &Selection,
    b: &RunLines,
    sel_b: &Selection,
) -> Result<Comparison, CompareError> {
    for (run, sel) in [(a, sel_a), (b, sel_b)] {
        if let Some(p) = &sel.profile {
            if selected(run, sel) == 0 {
                return Err(CompareError::NoProfile {
                    label: run.label.clone(),
                    profile: p.clone(),
                });
            }
        }
    }
    let c = compare(a, sel_a, b, sel_b);
    if c.paired == 0 {
        return Err(CompareError::NothingShared {
            label_a: a.label.clone(),
            label_b: b.label.clone(),
            a: selected(a, sel_a),
            b: selected(b, sel_b),
        });
    }
    Ok(c)
}

/// The kept runs a side can be (batch and report runs hold results JSONL), newest first,
/// for the side's "Kept run" choice.
pub fn kept_choices(runs: &[RunMeta]) -> Vec<RunMeta> {
    let mut kept = list_view(runs, None);
    kept.retain(|r| matches!(r.kind, RunKind::Batch | RunKind::Report));
    kept
}

/// Column headers of the paired-case table.
pub const COLUMNS: [&str; 6] = ["id", "profile", "expected", "A", "B", "change"];

/// A paired case as a table row; `change` sorts in the comparison's order (flips first).
pub struct PairedRow<'a>(pub &'a PairedCase);

impl Row for PairedRow<'_> {
    fn cell(&self, column: usize) -> Cell<'_> {
        let p = self.0;
        match column {
            0 => Cell::Text(&p.id),
            1 => p.profile.as_deref().map_or(Cell::Empty, Cell::Text),
            2 => Cell::Num(f64::from(p.expected)),
            3 => Cell::Num(f64::from(p.score_a)),
            4 => Cell::Num(f64::from(p.score_b)),
            5 => Cell::Num(p.change as u8 as f64),
            _ => Cell::Empty,
        }
    }
}

/// The words a search over the paired cases looks in (id, profile, bands, change).
pub fn search_text(p: &PairedCase) -> String {
    format!(
        "{}\n{}\n{}\n{}\n{}",
        p.id,
        p.profile.as_deref().unwrap_or(""),
        p.band_a,
        p.band_b,
        p.change.label()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::band::compare::Change;
    use crate::table::{view, Query};

    fn input(label: &str, text: &str) -> CompareInput {
        CompareInput {
            label: label.into(),
            jsonl_text: text.into(),
        }
    }

    fn line(id: u32, profile: &str, expected: u8, score: u8) -> String {
        format!(
            r#"{{"id":{id},"profile":"{profile}","expected_credit_score":{expected},"credit_score":{score}}}"#
        )
    }

    #[test]
    fn bad_sides_say_why() {
        let e = read(&input("a.jsonl", "")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a.jsonl: this file is empty, it has no results"
        );
        let e = read(&input("b.csv", "id,score\n1,5\n")).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("b.csv: this is not JSONL of results (line 1:"),
            "{e}"
        );
        let e = read(&input("c", r#"{"id":1,"expected_credit_score":5}"#)).unwrap_err();
        assert!(matches!(e, CompareError::Unscored { .. }), "{e}");
        let a = read(&input("a", &line(1, "p", 5, 5))).unwrap();
        let b = read(&input("b", &line(2, "p", 5, 5))).unwrap();
        let e = compare_runs(&a, &Selection::default(), &b, &Selection::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "these runs share no case ids (1 results in a, 1 in b)"
        );
        let sel = Selection {
            profile: Some("zz".into()),
        };
        let e = compare_runs(&a, &sel, &a, &Selection::default()).unwrap_err();
        assert_eq!(e.to_string(), "a: no results for profile zz");
    }

    #[test]
    fn kept_choices_are_batch_and_report_runs_newest_first() {
        let meta = |id: &str, kind, created_ms| RunMeta {
            id: id.into(),
            name: format!("run {id}"),
            kind,
            created_ms,
            finished_ms: None,
            profiles: Vec::new(),
            settings: serde_json::Value::Null,
            strategy: serde_json::Value::Null,
            inputs: serde_json::Value::Null,
            result_count: 0,
            outcome: None,
        };
        let runs = [
            meta("old", RunKind::Batch, 1.0),
            meta("audit", RunKind::Audit, 5.0),
            meta("new", RunKind::Batch, 3.0),
            meta("rep", RunKind::Report, 2.0),
        ];
        let ids: Vec<String> = kept_choices(&runs).into_iter().map(|r| r.id).collect();
        assert_eq!(ids, ["new", "rep", "old"]);
        assert_eq!(kept_choices(&runs)[0].name, "run new");
    }

    #[test]
    fn two_profiles_of_one_file_and_the_table_order() {
        let text = [
            line(1, "x", 1, 1),
            line(2, "x", 5, 5),
            line(3, "x", 3, 3),
            line(1, "y", 1, 5),
            line(2, "y", 5, 4),
            line(3, "y", 3, 3),
        ]
        .join("\n");
        let run = read(&input("f", &text)).unwrap();
        assert_eq!(profiles(&run), ["x", "y"]);
        let sx = Selection {
            profile: Some("x".into()),
        };
        let sy = Selection {
            profile: Some("y".into()),
        };
        let c = compare_runs(&run, &sx, &run, &sy).unwrap();
        assert_eq!(c.paired, 3);
        assert_eq!(c.cases[0].change, Change::NewCrossBand);
        let rows: Vec<PairedRow> = c.cases.iter().map(PairedRow).collect();
        let mut q = Query::default();
        q.click_header(5);
        q.click_header(5);
        let v = view(&rows, COLUMNS.len(), &q);
        assert_eq!(
            c.cases[v.rows[0]].change,
            Change::Unchanged,
            "descending: flips last"
        );
        assert!(search_text(&c.cases[0]).contains("new cross-band"));
    }
}
