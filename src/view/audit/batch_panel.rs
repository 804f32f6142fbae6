//! What the browser batch panel (Audit page) decides and says before and after a run: the
//! uploaded cases in a line, an audit plan per ticked profile, why nothing needs running,
//! and the end of a run. Pure, so the wording and the checks are tested natively; the panel
//! (`ui::audit::batch`) only shows them.

use crate::config::{Settings, Strategy};
use crate::sorted_map::SortedMap;

use crate::audit::batch::CaseSet;
use crate::audit::batch::Progress;
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
        if let Some(why) = crate::view::settings::profile_problem(settings, p) {
            return Err(why);
        }
        let plan = AuditPlan::from_settings(settings, strategy, p, &|_| None)
            .map_err(|e| crate::view::settings::page_message(&e))?;
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

/// The notice at the end of a run that was not cancelled.
pub fn done_summary(p: &Progress) -> String {
    format!(
        "Done: {} audited, {} could not be audited, {} already done.",
        p.done, p.failures, p.skipped
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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
