//! What the browser batch panel (Audit page) decides and says before and after a run: the
//! uploaded cases in a line, an audit plan per ticked profile, why nothing needs running,
//! and the end of a run. Pure, so the wording and the checks are tested natively; the panel
//! (`ui::audit::batch`) only shows them.

use crate::config::{Settings, Strategy};
use crate::sorted_map::SortedMap;

use crate::audit::batch::CaseSet;
use crate::audit::batch::Progress;
use crate::audit::batch::ResultLine;
use crate::audit::AuditPlan;

/// Bad lines named in the summary; the rest are counted.
const BAD_LINES_LISTED: usize = 5;

/// `cases.jsonl: 12 cases`, then the bad lines skipped (the first few with their reason).
pub fn cases_summary(file_name: &str, set: &CaseSet) -> String {
    let mut summary = format!("{file_name}: {} cases", set.cases.len());
    if !set.bad_lines.is_empty() {
        let listed: Vec<String> = set
            .bad_lines
            .iter()
            .take(BAD_LINES_LISTED)
            .map(|(n, why)| format!("line {n}: {why}"))
            .collect();
        summary.push_str(&format!(
            ", {} bad lines skipped ({})",
            set.bad_lines.len(),
            listed.join("; ")
        ));
    }
    summary
}

/// An audit plan for each ticked profile (keys from the settings only, never from an
/// environment); the first profile that cannot be planned says why.
pub fn plans_for(
    settings: &Settings,
    strategy: &Strategy,
    profiles: &[String],
) -> Result<SortedMap<String, AuditPlan>, String> {
    let mut plans = SortedMap::new();
    for p in profiles {
        let plan = crate::view::settings::page_plan(settings, strategy, p)?;
        plans.insert(p.clone(), plan);
    }
    Ok(plans)
}

/// Why Run (or Retry failed) has nothing to do: `skipped` pairs are in the results already,
/// `failed` of the results could not be audited.
pub fn nothing_to_run(retry: bool, skipped: usize, failed: usize) -> String {
    if retry {
        "No (case, profile) pair of these cases and profiles failed.".into()
    } else if failed > 0 {
        format!("All {skipped} (case, profile) pairs are already in the results; {failed} could not be audited: use Retry failed.")
    } else {
        format!("All {skipped} (case, profile) pairs are already in the results.")
    }
}

/// The notice at the end of a run that was not cancelled. `p.done` counts every finished
/// pair, the failed ones too: "audited" is the pairs that got a score, so the numbers add up
/// to the pairs of the run. `failed_before` of the `p.skipped` pairs were skipped because an
/// earlier line says they could not be audited: they are not "done", Retry failed redoes them.
pub fn done_summary(p: &Progress, retry: bool, failed_before: usize) -> String {
    let scored = p.done.saturating_sub(p.failures);
    if retry {
        return format!(
            "Retry done: {} failed pairs retried: {scored} scored, {} could not be audited again (the table says why).",
            p.done, p.failures
        );
    }
    let mut s = format!(
        "Done: {scored} audited, {} could not be audited, {} already done.",
        p.failures,
        p.skipped.saturating_sub(failed_before)
    );
    if failed_before > 0 {
        s.push_str(&format!(
            " {failed_before} failed in an earlier run and were not retried: use Retry failed."
        ));
    }
    s
}

/// Added to the end-of-batch summary when some cases were kept without their report (the
/// run's budget for reports, `audit::batch::KEPT_REPORTS_MAX_BYTES`, was spent).
pub fn reports_not_kept(count: usize) -> String {
    if count == 0 {
        return String::new();
    }
    format!(
        " {count} cases were kept without their report (this run holds at most {} MB of them): their scores are kept; to see their findings, audit them again or split the batch.",
        crate::audit::batch::KEPT_REPORTS_MAX_BYTES >> 20
    )
}

/// What the panel says when it finds a kept batch run that did not end: the page was left or
/// reloaded while it ran (no end was saved), or it was cancelled.
pub fn stopped_note(meta: &crate::runs::RunMeta) -> Option<String> {
    if meta.finished_ms.is_some() || meta.result_count == 0 {
        return None;
    }
    Some(match meta.outcome {
        None => format!(
            "This batch stopped before it finished (the page was left or reloaded while it ran): {} results are kept. Run batch to resume it.",
            meta.result_count
        ),
        Some(_) => format!(
            "This batch was cancelled before it finished: {} results are kept. Run batch to resume it.",
            meta.result_count
        ),
    })
}

/// The profiles Retry failed uses: those of the failed lines, as they were run (the ticks
/// may have changed, or been lost to a reload), in first-seen order.
pub fn failed_profiles(lines: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for l in lines.iter().filter_map(|l| ResultLine::parse(l)) {
        if l.failed() && !out.contains(&l.profile) {
            out.push(l.profile);
        }
    }
    out
}

/// One (case, profile) result of the batch, for the per-case table.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseRow {
    pub id: String,
    pub profile: String,
    pub score: Option<i64>,
    pub band: Option<String>,
    /// Why the pair could not be audited (`None`: it was scored).
    pub failure: Option<String>,
}

impl CaseRow {
    pub fn status(&self) -> &'static str {
        if self.failure.is_some() {
            "could not be audited"
        } else {
            "scored"
        }
    }
}

/// The per-case table of a batch's result lines, failed pairs first (each with its line's
/// `error`, the same text the results file and Report show), then in line order. A line that
/// is not JSON is left out (it is not a pair).
pub fn case_rows(lines: &[String]) -> Vec<CaseRow> {
    let mut rows: Vec<CaseRow> = lines
        .iter()
        .filter_map(|l| ResultLine::parse(l))
        .map(|l| CaseRow {
            failure: l.failure(),
            score: l.credit_score.map(i64::from),
            band: l.band.map(|b| b.as_str().to_string()),
            id: l.id,
            profile: l.profile,
        })
        .collect();
    // Stable: failed first, each group in line order.
    rows.sort_by_key(|r| r.failure.is_none());
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_says_when_reports_were_not_kept() {
        assert_eq!(reports_not_kept(0), "");
        let said = reports_not_kept(3);
        assert!(said.contains("3 cases were kept without their report") && said.contains("128 MB"));
    }

    #[test]
    fn the_cases_line_names_the_first_bad_lines() {
        let mut text = String::from("{\"id\":1,\"context_input\":\"c\",\"model_output\":\"o\"}\n");
        for _ in 0..7 {
            text.push_str("not json\n");
        }
        let set = CaseSet::from_text(&text);
        let s = cases_summary("cases.jsonl", &set);
        assert!(
            s.starts_with("cases.jsonl: 1 cases, 7 bad lines skipped (line 2: "),
            "{s}"
        );
        assert_eq!(s.matches(": not valid JSON").count(), 5, "five named: {s}");
        assert!(s.contains("line 6: ") && !s.contains("line 7: "), "{s}");
        let clean =
            CaseSet::from_text("{\"id\":1,\"context_input\":\"c\",\"model_output\":\"o\"}\n");
        assert_eq!(cases_summary("a.jsonl", &clean), "a.jsonl: 1 cases");
    }

    #[test]
    fn plans_for_every_profile_or_why_not() {
        let settings = Settings::example();
        let strategy = Strategy::default();
        let first = settings.profiles.keys().next().unwrap().clone();
        let plans = plans_for(&settings, &strategy, std::slice::from_ref(&first)).unwrap();
        assert_eq!(plans.len(), 1);
        let e = plans_for(&settings, &strategy, &[first, "nope".into()]).unwrap_err();
        assert!(
            e.contains("`nope`") && e.starts_with("Pick a profile"),
            "{e}"
        );
        let none = plans_for(&Settings::default(), &strategy, &["x".into()]).unwrap_err();
        assert_eq!(none, crate::view::settings::NO_SERVER);
    }

    #[test]
    fn the_done_counts_add_up() {
        let p = Progress {
            done: 25,
            total: 25,
            failures: 1,
            skipped: 0,
            elapsed_ms: 0.0,
            rate_per_s: 0.0,
            eta_s: None,
        };
        assert_eq!(
            done_summary(&p, false, 0),
            "Done: 24 audited, 1 could not be audited, 0 already done."
        );
        // A resumed run: 8 pairs skipped, 4 of them because they failed before.
        let resumed = Progress {
            done: 4,
            failures: 1,
            skipped: 8,
            ..p.clone()
        };
        assert_eq!(
            done_summary(&resumed, false, 4),
            "Done: 3 audited, 1 could not be audited, 4 already done. 4 failed in an earlier run and were not retried: use Retry failed."
        );
        assert_eq!(
            done_summary(&resumed, true, 0),
            "Retry done: 4 failed pairs retried: 3 scored, 1 could not be audited again (the table says why)."
        );
    }

    #[test]
    fn the_case_table_puts_failures_first_with_their_reason() {
        let lines = [
            r#"{"id":1,"profile":"a","credit_score":4,"band":"GOOD","error":null}"#.to_string(),
            r#"{"id":"two","profile":"a","credit_score":null,"error":"HTTP 400: bad request"}"#
                .to_string(),
            "not json".to_string(),
            r#"{"id":3,"profile":"b"}"#.to_string(),
        ];
        let rows = case_rows(&lines);
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0].id, "two");
        assert_eq!(rows[0].failure.as_deref(), Some("HTTP 400: bad request"));
        assert_eq!(rows[0].status(), "could not be audited");
        assert_eq!(
            rows[1].failure.as_deref(),
            Some("the line has no credit_score")
        );
        assert_eq!(
            (rows[2].score, rows[2].band.as_deref()),
            (Some(4), Some("GOOD"))
        );
        assert_eq!(rows[2].status(), "scored");
    }

    #[test]
    fn a_batch_that_stopped_without_an_end_says_so() {
        let (mut meta, _) = crate::runs::RunMeta::parse_header(
            r#"{"verifyfast_run":1,"id":"r-1","name":"n","kind":"batch","created_ms":1,"result_count":5}"#,
        )
        .unwrap();
        meta.result_count = 5;
        assert!(stopped_note(&meta)
            .unwrap()
            .starts_with("This batch stopped before it finished (the page was left or reloaded"));
        meta.outcome = Some(crate::runs::RunOutcome {
            text: "5 scored".into(),
            failed: false,
        });
        assert!(stopped_note(&meta).unwrap().contains("cancelled"));
        meta.finished_ms = Some(2.0);
        assert_eq!(stopped_note(&meta), None);
    }

    #[test]
    fn retry_uses_the_failed_lines_profiles() {
        let lines = [
            r#"{"id":1,"profile":"a","credit_score":4}"#.to_string(),
            r#"{"id":2,"profile":"b","credit_score":null,"error":"HTTP 500"}"#.to_string(),
            r#"{"id":3,"profile":"b","error":"x"}"#.to_string(),
            r#"{"id":3,"profile":"c","error":"x"}"#.to_string(),
        ];
        assert_eq!(failed_profiles(&lines), vec!["b", "c"]);
    }

    #[test]
    fn nothing_to_run_says_what_to_do() {
        assert_eq!(
            nothing_to_run(true, 9, 0),
            "No (case, profile) pair of these cases and profiles failed."
        );
        assert_eq!(
            nothing_to_run(false, 24, 3),
            "All 24 (case, profile) pairs are already in the results; 3 could not be audited: use Retry failed."
        );
        assert_eq!(
            nothing_to_run(false, 24, 0),
            "All 24 (case, profile) pairs are already in the results."
        );
    }
}
