//! One paired case opened on the Compare page, without the browser: which cases changed,
//! which results line of a side is the case's, and what each side shows of it (its texts and
//! its findings, or why its findings are not kept). The findings are read by the Audit page's
//! reader (`view::audit::shown`), from the line as the results line's reader reads it
//! (`audit::batch::ResultCase`: the report a browser batch keeps with each line, or the
//! line's own findings), so a case shows here as it does on the Audit page.

use crate::audit::batch::ResultCase;
use crate::band::compare::{Change, PairedCase, Selection};
use crate::band::record::{parse_record, ParsedLine};
use crate::route::state::ViewState;
use crate::view::audit::shown::{FindingShown, ReportShown};

/// Whether a case's score (and so maybe its band) differs between A and B: the cases the
/// page offers to open first. Any case can be opened.
pub fn changed(p: &PairedCase) -> bool {
    p.change != Change::Unchanged
}

/// The chip class of a change, in the table and on the opened case: a flip in the band's
/// colour, a move by its direction.
pub fn change_class(c: Change) -> &'static str {
    match c {
        Change::NewCrossBand => "chip band-BAD",
        Change::FixedCrossBand => "chip band-GOOD",
        Change::Regressed => "chip delta-worse",
        Change::Improved => "chip delta-better",
        _ => "chip",
    }
}

/// The case opened, as the URL names it: its id, and its profile when the comparison pairs
/// by (id, profile).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenCase {
    pub id: String,
    pub profile: Option<String>,
}

impl OpenCase {
    pub fn of(p: &PairedCase) -> OpenCase {
        OpenCase {
            id: p.id.clone(),
            profile: p.profile.clone(),
        }
    }

    /// The open case of a URL (`case=<id>`, and `profile=<p>` when pairing by profile).
    pub fn from_view(v: &ViewState) -> Option<OpenCase> {
        let id = v.case.clone().filter(|id| !id.is_empty())?;
        Some(OpenCase {
            id,
            profile: v.profile.clone(),
        })
    }

    /// Put the open case (or none) in a URL's state.
    pub fn to_view(open: Option<&OpenCase>, v: &mut ViewState) {
        v.case = open.map(|o| o.id.clone());
        v.profile = open.and_then(|o| o.profile.clone());
    }

    /// Its place in the comparison's cases (`None`: the comparison has no such case).
    pub fn index_in(&self, cases: &[PairedCase]) -> Option<usize> {
        cases
            .iter()
            .position(|p| p.id == self.id && (p.profile.is_none() || p.profile == self.profile))
    }
}

/// The changed case before or after `at` in the comparison's order (flips first), for the
/// panel's previous / next.
pub fn neighbour_changed(cases: &[PairedCase], at: usize, forward: bool) -> Option<usize> {
    if forward {
        (at + 1..cases.len()).find(|&i| changed(&cases[i]))
    } else {
        (0..at.min(cases.len())).rev().find(|&i| changed(&cases[i]))
    }
}

/// The results line of `case` in a side's JSONL `text`: the first scored line with its id
/// (and its profile when the pairing has one, and the side's chosen profile), the line the
/// comparison paired (`band::compare` keeps the first of duplicates). Lines are read by the
/// results reader the comparison used (`band::record`).
pub fn find_line<'t>(text: &'t str, case: &OpenCase, sel: &Selection) -> Option<&'t str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines().find(|line| match parse_record(line) {
        ParsedLine::Scored(r) => {
            r.id.as_deref() == Some(case.id.as_str())
                && (case.profile.is_none() || r.profile == case.profile)
                && (sel.profile.is_none() || r.profile == sel.profile)
        }
        _ => false,
    })
}

/// Where a side's findings come from.
#[derive(Debug, Clone, PartialEq)]
pub enum Findings {
    /// The case's whole report was kept with its line (a batch run in this browser): its
    /// findings per phase and the rules' findings, as the Audit page shows them.
    Kept(Box<ReportShown>),
    /// A results line's own `errors` and `deterministic_findings` (a results file keeps them,
    /// not the claims, phases or transcript); `note` says so.
    FromLine {
        findings: Vec<FindingShown>,
        rules: Vec<String>,
        note: String,
    },
    /// Nothing to show: why, and how to get them.
    NotKept(String),
}

/// What one side shows of the open case.
#[derive(Debug, Clone, PartialEq)]
pub struct SideCase {
    pub context: Option<String>,
    pub output: Option<String>,
    /// Why the case could not be audited on this side.
    pub error: Option<String>,
    /// The profile of the line (for the link to its audit).
    pub profile: Option<String>,
    pub findings: Findings,
}

/// How to get a side's findings when its lines keep none.
pub const HOW_TO_KEEP: &str = "To see them, run these cases as a batch on the Audit page (each case's report is kept with the run) and pick that kept run on this side.";

/// What a side shows of the open case: `line` is its results line (`None`: the side has no
/// line for it), `label` names the side's file or run.
pub fn side_case(line: Option<&str>, label: &str) -> SideCase {
    let not_kept = |why: String| SideCase {
        context: None,
        output: None,
        error: None,
        profile: None,
        findings: Findings::NotKept(why),
    };
    let Some(line) = line else {
        return not_kept(format!("{label} has no results line for this case."));
    };
    let case = match ResultCase::parse(line) {
        Ok(case) => case,
        Err(e) => return not_kept(format!("{label}: this case's line is not JSON ({e}).")),
    };
    let findings = match (case.kept, case.line_findings) {
        (Some(kept), _) => Findings::Kept(Box::new(ReportShown::of(&kept))),
        (None, Some(part)) => {
            // The line's errors and rules, read as a report with only those parts: the reader
            // of the Audit page, so a finding shows (and its evidence is marked) the same way.
            let shown = ReportShown::of(&part);
            Findings::FromLine {
                findings: shown.findings,
                rules: shown.rules,
                note: format!("From {label}'s results line: its whole report (claims, each phase's status, the transcript) is not kept. {HOW_TO_KEEP}"),
            }
        }
        (None, None) => Findings::NotKept(format!(
            "This side's findings are not kept: {label} has the scores but no report and no errors for its cases. {HOW_TO_KEEP}"
        )),
    };
    SideCase {
        context: case.context_input,
        output: case.model_output,
        error: case.error,
        profile: case.profile,
        findings,
    }
}

/// What a side shows when its file could not be read again for the case.
pub fn unreadable(label: &str, why: &str) -> SideCase {
    SideCase {
        context: None,
        output: None,
        error: None,
        profile: None,
        findings: Findings::NotKept(format!(
            "{label} could not be read again for this case: {why}."
        )),
    }
}

/// Whether a text is shown once for both sides (equal on both) rather than once per side.
pub fn shared(a: &Option<String>, b: &Option<String>) -> bool {
    a.is_some() && a == b
}

/// What a side says when it has no text of a kind.
pub fn no_text(what: &str) -> String {
    format!("Not in this side's results line (it has no {what}).")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::batch::KEPT_REPORT;
    use crate::band::compare::compare;
    use crate::band::compare::RunLines;
    use serde_json::Value;

    const A: &str = concat!(
        r#"{"id":"q1","profile":"p","expected_credit_score":1,"credit_score":5,"context_input":"ctx","model_output":"out A"}"#,
        "\n",
        r#"{"id":"q2","profile":"p","expected_credit_score":4,"credit_score":4}"#,
        "\n",
        r#"{"id":"q1","profile":"p","expected_credit_score":1,"credit_score":2}"#,
        "\n",
    );
    const B: &str = concat!(
        r#"{"id":"q2","profile":"p","expected_credit_score":4,"credit_score":4}"#,
        "\n",
        r#"{"id":"q1","profile":"p","expected_credit_score":1,"credit_score":1}"#,
        "\n",
    );

    fn finding(evidence: &str, not_found: bool) -> Value {
        let mut f = serde_json::json!({"phase":"fact_check","target":"C1","type":"unsupported",
            "severity":"High","evidence":evidence,"explanation":"why","status":"counted"});
        if not_found {
            f["evidence_not_found"] = Value::Bool(true);
        }
        f
    }

    #[test]
    fn changed_cases_are_the_ones_whose_score_moved() {
        let c = compare(
            &RunLines::from_text("a", A),
            &Selection::default(),
            &RunLines::from_text("b", B),
            &Selection::default(),
        );
        let by_id = |id: &str| c.cases.iter().find(|p| p.id == id).expect("paired");
        assert!(changed(by_id("q1")));
        assert!(!changed(by_id("q2")));
        // Flips first: q1 at 0; the next changed case after it: none; before q2: q1.
        assert_eq!(neighbour_changed(&c.cases, 0, true), None);
        assert_eq!(neighbour_changed(&c.cases, 1, false), Some(0));
        assert_eq!(neighbour_changed(&c.cases, 0, false), None);
        assert_eq!(OpenCase::of(by_id("q2")).index_in(&c.cases), Some(1));
        assert_eq!(change_class(by_id("q1").change), "chip band-GOOD");
        assert_eq!(change_class(by_id("q2").change), "chip");
    }

    #[test]
    fn the_line_is_the_one_the_comparison_paired() {
        let q1 = OpenCase {
            id: "q1".into(),
            profile: None,
        };
        // The first of duplicates, as `band::compare` pairs it.
        let line = find_line(A, &q1, &Selection::default()).expect("q1");
        assert!(line.contains("out A"));
        let other = Selection {
            profile: Some("x".into()),
        };
        assert_eq!(find_line(A, &q1, &other), None);
        let by_profile = OpenCase {
            id: "q1".into(),
            profile: Some("p".into()),
        };
        assert!(find_line(B, &by_profile, &Selection::default()).is_some());
        let bom = format!("\u{feff}{B}");
        assert!(find_line(&bom, &by_profile, &Selection::default()).is_some());
        assert_eq!(find_line("not json\n", &q1, &Selection::default()), None);
    }

    #[test]
    fn a_kept_report_shows_its_findings_as_the_audit_page_does() {
        let line = serde_json::json!({
            "id": "q1", "profile": "p", "credit_score": 1, "context_input": "c", "model_output": "o",
            "errors": [finding("o", false)],
            KEPT_REPORT: {"errors": [finding("o", false), finding("context_input", true)],
                "deterministic_findings": [{"check":"unsupported_number","severity":"High",
                    "output_text":"41%","explanation":"41% is nowhere","status":"counted"}]},
        })
        .to_string();
        let s = side_case(Some(&line), "run A");
        assert_eq!(s.context.as_deref(), Some("c"));
        assert_eq!(s.output.as_deref(), Some("o"));
        assert_eq!(s.profile.as_deref(), Some("p"));
        let Findings::Kept(r) = s.findings else {
            panic!("kept: {:?}", s.findings)
        };
        assert_eq!(r.findings.len(), 2);
        assert!(!r.findings[0].evidence_not_found);
        assert!(r.findings[1].evidence_not_found);
        assert_eq!(r.rules.len(), 1);
        assert!(r.rules[0].starts_with("unsupported number 41% (High, counted)"));
    }

    #[test]
    fn a_results_line_shows_its_own_errors_and_says_what_is_not_kept() {
        let line = serde_json::json!({
            "id": 7, "profile": "p", "credit_score": 2, "context_input": "c", "model_output": "o",
            "errors": [finding("not there", true)], "error": null,
        })
        .to_string();
        let s = side_case(Some(&line), "b.jsonl");
        assert_eq!(s.error, None);
        let Findings::FromLine {
            findings,
            rules,
            note,
        } = s.findings
        else {
            panic!("from the line: {:?}", s.findings)
        };
        assert_eq!(findings.len(), 1);
        assert!(findings[0].evidence_not_found);
        assert!(rules.is_empty());
        assert!(note.starts_with("From b.jsonl's results line: its whole report"));
        assert!(note.ends_with(HOW_TO_KEEP));
    }

    #[test]
    fn a_side_without_findings_says_so_and_invents_none() {
        let s = side_case(
            Some(r#"{"id":"q1","profile":"p","expected_credit_score":1,"credit_score":1}"#),
            "plain.jsonl",
        );
        assert_eq!(s.context, None);
        assert_eq!(
            s.findings,
            Findings::NotKept(format!("This side's findings are not kept: plain.jsonl has the scores but no report and no errors for its cases. {HOW_TO_KEEP}"))
        );
        let failed = side_case(
            Some(r#"{"id":"q1","profile":"p","credit_score":null,"error":"server down"}"#),
            "r",
        );
        assert_eq!(failed.error.as_deref(), Some("server down"));
        let none = side_case(None, "run B");
        assert_eq!(
            none.findings,
            Findings::NotKept("run B has no results line for this case.".into())
        );
        assert_eq!(
            unreadable("a.jsonl", "gone").findings,
            Findings::NotKept("a.jsonl could not be read again for this case: gone.".into())
        );
        assert!(matches!(
            side_case(Some("{"), "x").findings,
            Findings::NotKept(m) if m.starts_with("x: this case's line is not JSON")
        ));
    }

    #[test]
    fn equal_texts_show_once() {
        assert!(shared(&Some("c".into()), &Some("c".into())));
        assert!(!shared(&Some("c".into()), &Some("d".into())));
        assert!(!shared(&None, &None));
        assert_eq!(
            no_text("context_input"),
            "Not in this side's results line (it has no context_input)."
        );
    }

    #[test]
    fn the_open_case_round_trips_through_the_url() {
        let open = OpenCase {
            id: "q 1".into(),
            profile: Some("p&q".into()),
        };
        let mut v = ViewState::default();
        OpenCase::to_view(Some(&open), &mut v);
        assert_eq!(v.encode(), "profile=p%26q&case=q%201");
        assert_eq!(
            OpenCase::from_view(&ViewState::decode(&v.encode())),
            Some(open)
        );
        OpenCase::to_view(None, &mut v);
        assert_eq!(v.encode(), "");
        assert_eq!(OpenCase::from_view(&ViewState::decode("case=")), None);
    }
}
