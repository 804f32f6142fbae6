//! What the Report page shows besides the report itself: row percentages for the heat map,
//! the score histogram, profile deltas against a baseline, drill-down filters over the
//! case index, and one case read back from its line. Pure, so it is tested natively.

use crate::search::SearchQuery;

use crate::audit::batch::ResultCase;
use crate::audit::Band;
use crate::band::evaluate::BandReport;
use crate::band::evaluate::CaseRef;
use crate::band::metrics::band_index;
use crate::band::metrics::is_cross_band;
use crate::band::metrics::GroupMetrics;

/// Row percentages of a band matrix (share of each expected band); `None` for empty rows.
pub fn row_shares(matrix: &[[u64; 3]; 3]) -> [[Option<f64>; 3]; 3] {
    let mut out = [[None; 3]; 3];
    for (row, shares) in matrix.iter().zip(out.iter_mut()) {
        let total: u64 = row.iter().sum();
        if total > 0 {
            for (c, s) in row.iter().zip(shares.iter_mut()) {
                *s = Some(*c as f64 / total as f64);
            }
        }
    }
    out
}

/// The two cells users cannot afford: BAD judged GOOD, GOOD judged BAD.
pub fn is_cross_band_cell(expected_band: usize, actual_band: usize) -> bool {
    Band::at(expected_band)
        .zip(Band::at(actual_band))
        .is_some_and(|(e, a)| e.crosses(a))
}

/// How many cases were expected / judged each score 1–5: `[(expected, actual); 5]`.
pub fn score_histogram(g: &GroupMetrics) -> [(u64, u64); 5] {
    let m = &g.score_matrix.0;
    let mut out = [(0, 0); 5];
    for (i, slot) in out.iter_mut().enumerate() {
        slot.0 = m.get(i).map_or(0, |row| row.iter().sum());
        slot.1 = m.iter().filter_map(|row| row.get(i)).sum();
    }
    out
}

/// A metric difference against the baseline profile, and whether it is an improvement.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Delta {
    pub value: f64,
    pub better: bool,
}

/// One profile's row next to the baseline. Deltas are `None` for the baseline itself or
/// when either side has no cases.
#[derive(Debug, Clone, PartialEq)]
pub struct ProfileComparison {
    pub profile: String,
    pub is_baseline: bool,
    pub cross_band_rate: Option<Delta>,
    pub band_accuracy: Option<Delta>,
    pub exact: Option<Delta>,
    pub mae: Option<Delta>,
}

/// Compare every profile with `baseline` (lower is better for cross-band and MAE).
pub fn compare_profiles(report: &BandReport, baseline: &str) -> Vec<ProfileComparison> {
    let base = report.profiles.get(baseline);
    report
        .profiles
        .iter()
        .map(|(name, g)| {
            let is_baseline = name == baseline;
            let delta = |pick: fn(&GroupMetrics) -> Option<f64>, lower_is_better: bool| {
                if is_baseline {
                    return None;
                }
                let value = pick(g)? - pick(base?)?;
                let better = if lower_is_better {
                    value < 0.0
                } else {
                    value > 0.0
                };
                Some(Delta { value, better })
            };
            ProfileComparison {
                profile: name.clone(),
                is_baseline,
                cross_band_rate: delta(|m| m.cross_band_rate, true),
                band_accuracy: delta(|m| m.band_accuracy, false),
                exact: delta(|m| m.exact, false),
                mae: delta(|m| m.mae, true),
            }
        })
        .collect()
}

/// Which cases the drill-down lists.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CaseFilter {
    /// (expected band, actual band), 0 BAD · 1 MID · 2 GOOD.
    pub cell: Option<(usize, usize)>,
    pub cross_band_only: bool,
    pub profile: Option<String>,
    pub tag: Option<String>,
    pub difficulty: Option<String>,
    /// The search box: matched against a case's id, profile, tag and difficulty.
    pub search: String,
    /// Whether `search` is a (case-insensitive) regex rather than plain text.
    pub regex: bool,
}

impl CaseFilter {
    /// The filter a URL's view state selects: its matrix cell or tag (the rest starts empty).
    pub fn from_view(v: &crate::route::state::ViewState) -> CaseFilter {
        CaseFilter {
            cell: v.cell.map(|(e, a)| (usize::from(e), usize::from(a))),
            tag: v.tag.clone(),
            profile: v.profile.clone(),
            difficulty: v.difficulty.clone(),
            cross_band_only: v.cross,
            search: v.filter.clone().unwrap_or_default(),
            regex: v.regex && v.filter.is_some(),
        }
    }

    /// Write this filter into `v` (what a link to this drill-down carries).
    pub fn to_view(&self, v: &mut crate::route::state::ViewState) {
        v.cell = self
            .cell
            .and_then(|(e, a)| Some((u8::try_from(e).ok()?, u8::try_from(a).ok()?)));
        v.tag = self.tag.clone();
        v.profile = self.profile.clone();
        v.difficulty = self.difficulty.clone();
        v.cross = self.cross_band_only;
        v.filter = (!self.search.is_empty()).then(|| self.search.clone());
        v.regex = self.regex && !self.search.is_empty();
    }

    /// What the search box asks for; a regex that does not compile filters nothing (the
    /// page shows its error next to the box).
    pub fn search_query(&self) -> SearchQuery {
        SearchQuery::parse_or_everything(&self.search, self.regex)
    }

    /// `search` is [`search_query`](Self::search_query), compiled once by the caller.
    pub fn matches(&self, report: &BandReport, c: &CaseRef, search: &SearchQuery) -> bool {
        let (e, a) = (band_index(c.expected), band_index(c.actual));
        let named = |want: &Option<String>, id: Option<u32>| {
            want.as_deref().is_none_or(|w| report.name(id) == Some(w))
        };
        self.cell.is_none_or(|cell| cell == (e, a))
            && (!self.cross_band_only || is_cross_band(c.expected, c.actual))
            && named(&self.profile, c.profile)
            && named(&self.tag, c.tag)
            && named(&self.difficulty, c.difficulty)
            && (search.is_everything() || search.matches(&case_text(report, c)))
    }

    /// The first `limit` matching cases in file order, and how many match in all.
    pub fn apply<'a>(&self, report: &'a BandReport, limit: usize) -> (Vec<&'a CaseRef>, usize) {
        let mut shown = Vec::new();
        let mut total = 0;
        let search = self.search_query();
        for c in report
            .cases
            .iter()
            .filter(|c| self.matches(report, c, &search))
        {
            total += 1;
            if shown.len() < limit {
                shown.push(c);
            }
        }
        (shown, total)
    }

    /// A short description for the list heading and export file names.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some((e, a)) = self.cell {
            let name = |i: usize| Band::at(i).map_or("?", Band::as_str);
            parts.push(format!("expected {} → judged {}", name(e), name(a)));
        }
        if self.cross_band_only {
            parts.push("cross-band only".into());
        }
        for (label, v) in [
            ("profile", &self.profile),
            ("tag", &self.tag),
            ("difficulty", &self.difficulty),
        ] {
            if let Some(v) = v {
                parts.push(format!("{label} {v}"));
            }
        }
        if !self.search.trim().is_empty() {
            let how = if self.regex { "regex" } else { "search" };
            parts.push(format!("{how} \"{}\"", self.search));
        }
        if parts.is_empty() {
            "all cases".into()
        } else {
            parts.join(" · ")
        }
    }
}

/// What a case's search looks at: its id, profile, tag and difficulty, one per line (so a
/// regex's `(?m)^…$` anchors to one of them and plain text never matches across two).
fn case_text(report: &BandReport, c: &CaseRef) -> String {
    let name = |id: Option<u32>| report.name(id).unwrap_or("");
    format!(
        "{}\n{}\n{}\n{}",
        c.id.as_deref().unwrap_or(""),
        name(c.profile),
        name(c.tag),
        name(c.difficulty)
    )
}

/// Length of a UTF-8 BOM at the start of a file: line offsets count from after it.
pub fn bom_len(first_bytes: &[u8]) -> u64 {
    if first_bytes.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    }
}

/// One case read back from its results line, for the case view. Model text stays text.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CaseDetail {
    pub id: Option<String>,
    pub description: Option<String>,
    pub context_input: Option<String>,
    pub model_output: Option<String>,
    /// The line's `errors`, one pretty-printed JSON entry each.
    pub errors: Vec<String>,
    /// The same errors read as the Audit page reads a report's (`view::audit::shown`), so
    /// the case panel shows them as the audit view does; an entry that does not read is left
    /// out here and shown from `errors` (raw) instead.
    pub findings: Vec<crate::view::audit::shown::FindingShown>,
    /// The audit error when the case could not be audited.
    pub error: Option<String>,
    /// The line keeps the case's whole report (a browser batch run): it opens on the Audit
    /// page like a single audit, with no new call.
    pub kept_report: bool,
}

pub fn case_detail(line: &str) -> Result<CaseDetail, String> {
    // A line that is JSON but not an object shows no fields; it is not an error here.
    let case = ResultCase::parse(line).map_err(|e| format!("line is not JSON: {e}"))?;
    let findings = crate::view::audit::shown::ReportShown::read(
        &serde_json::json!({ "errors": &case.errors }),
    )
    .findings;
    Ok(CaseDetail {
        findings,
        errors: case
            .errors
            .iter()
            .map(|e| serde_json::to_string_pretty(e).unwrap_or_default())
            .collect(),
        id: case.id,
        description: case.description,
        context_input: case.context_input,
        model_output: case.model_output,
        error: case.error,
        kept_report: case.kept.is_some(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::band::Options;

    #[test]
    fn filter_round_trips_through_the_url() {
        use crate::route::state::ViewState;
        let v = ViewState::decode("run=batch&cell=bad-good&case=7");
        let f = CaseFilter::from_view(&v);
        assert_eq!(f.cell, Some((0, 2)));
        let mut back = ViewState::default();
        f.to_view(&mut back);
        assert_eq!(back.encode(), "cell=bad-good");
        let t = CaseFilter::from_view(&ViewState::decode("tag=clean"));
        assert_eq!(t.tag.as_deref(), Some("clean"));
        // Every filter of the table is in the URL, and only what is set.
        let q = "filter=%5EM&regex=1&cell=mid-mid&tag=a%20b&profile=p%26q&difficulty=hard&cross=1";
        let all = CaseFilter::from_view(&ViewState::decode(q));
        assert_eq!(all.profile.as_deref(), Some("p&q"));
        assert_eq!(all.difficulty.as_deref(), Some("hard"));
        assert!(all.cross_band_only && all.regex);
        assert_eq!(all.search, "^M");
        let mut back = ViewState::default();
        all.to_view(&mut back);
        assert_eq!(back.encode(), q);
        // `regex=1` without a search is not a regex search.
        assert!(!CaseFilter::from_view(&ViewState::decode("regex=1")).regex);
    }

    const TEXT: &str = concat!(
        r#"{"id":1,"profile":"a","tag":"clean","expected_credit_score":5,"credit_score":5}"#,
        "\n",
        r#"{"id":2,"profile":"a","tag":"sycophancy","expected_credit_score":1,"credit_score":5}"#,
        "\n",
        r#"{"id":1,"profile":"b","tag":"clean","expected_credit_score":5,"credit_score":1}"#,
        "\n",
        r#"{"id":2,"profile":"b","tag":"sycophancy","expected_credit_score":1,"credit_score":1}"#,
        "\n",
        r#"{"id":3,"profile":"b","tag":"multi_minor","expected_credit_score":3,"credit_score":4}"#,
        "\n",
    );

    fn report() -> BandReport {
        BandReport::from_text(TEXT, Options::default())
    }

    #[test]
    fn heat_map_shares_and_histogram() {
        let r = report();
        let s = row_shares(&r.overall.matrix);
        assert_eq!(s[0], [Some(0.5), Some(0.0), Some(0.5)]);
        assert_eq!(s[1], [Some(0.0), Some(0.0), Some(1.0)]);
        assert_eq!(row_shares(&[[0; 3]; 3])[0], [None; 3]);
        assert_eq!(
            score_histogram(&r.overall),
            [(2, 2), (0, 0), (1, 0), (0, 1), (2, 2)]
        );
        assert!(is_cross_band_cell(0, 2) && is_cross_band_cell(2, 0) && !is_cross_band_cell(1, 2));
    }

    #[test]
    fn profile_deltas_against_a_baseline() {
        let r = report();
        let rows = compare_profiles(&r, "a");
        assert_eq!(rows.len(), 2);
        assert!(rows[0].is_baseline && rows[0].cross_band_rate.is_none());
        // a: 1/2 cross-band; b: 1/3 → −1/6, an improvement.
        let d = rows[1].cross_band_rate.unwrap_or(Delta {
            value: 0.0,
            better: false,
        });
        assert!((d.value + 1.0 / 6.0).abs() < 1e-12 && d.better);
        // band accuracy a 1/2, b 1/3 → worse.
        let d = rows[1].band_accuracy.unwrap_or(Delta {
            value: 0.0,
            better: true,
        });
        assert!(!d.better);
        assert!(compare_profiles(&r, "missing")
            .iter()
            .all(|p| p.exact.is_none()));
    }

    #[test]
    fn filters_select_the_right_cases() {
        let r = report();
        let ids = |f: &CaseFilter| -> Vec<(usize, Option<String>)> {
            f.apply(&r, 100)
                .0
                .iter()
                .map(|c| (c.line, c.id.clone()))
                .collect()
        };
        let cell = CaseFilter {
            cell: Some((0, 2)),
            ..CaseFilter::default()
        };
        assert_eq!(ids(&cell), vec![(2, Some("2".into()))]);
        let cross = CaseFilter {
            cross_band_only: true,
            ..CaseFilter::default()
        };
        assert_eq!(ids(&cross).iter().map(|c| c.0).collect::<Vec<_>>(), [2, 3]);
        let b_clean = CaseFilter {
            profile: Some("b".into()),
            tag: Some("clean".into()),
            ..CaseFilter::default()
        };
        assert_eq!(ids(&b_clean), vec![(3, Some("1".into()))]);
        let (shown, total) = CaseFilter::default().apply(&r, 2);
        assert_eq!((shown.len(), total), (2, 5));
        assert_eq!(b_clean.describe(), "profile b · tag clean");
        assert_eq!(cell.describe(), "expected BAD → judged GOOD");
    }

    #[test]
    fn search_matches_ids_and_names_plain_or_regex() {
        let r = report();
        let lines = |f: &CaseFilter| {
            f.apply(&r, 100)
                .0
                .iter()
                .map(|c| c.line)
                .collect::<Vec<_>>()
        };
        let search = |text: &str, regex: bool| CaseFilter {
            search: text.into(),
            regex,
            ..CaseFilter::default()
        };
        let all = lines(&CaseFilter::default());
        assert_eq!(
            lines(&search("CLEAN", false)),
            lines(&search("(?m)^clean$", true))
        );
        assert!(!lines(&search("clean", false)).is_empty());
        assert!(lines(&search("clean", false)).len() < all.len());
        assert_eq!(lines(&search("^no such case", true)), Vec::<usize>::new());
        // Plain text is literal; the same text as a regex means "any character".
        assert_eq!(lines(&search("c.ean", false)), Vec::<usize>::new());
        assert_eq!(
            lines(&search("c.ean", true)),
            lines(&search("clean", false))
        );
        // A regex that does not compile filters nothing.
        assert_eq!(lines(&search("(unclosed", true)), all);
        assert_eq!(
            CaseFilter {
                tag: Some("clean".into()),
                ..search("^1$", true)
            }
            .describe(),
            "tag clean · regex \"^1$\""
        );
        // Combined with the other filters.
        let b_only = CaseFilter {
            profile: Some("b".into()),
            ..search("clean", false)
        };
        assert_eq!(lines(&b_only), [3]);
    }

    #[test]
    fn case_detail_reads_text_and_errors() {
        let d = case_detail(
            r#"{"id":13,"context_input":"招生计划3200人","model_output":"<b>985录取率95%</b>","errors":[{"severity":"Low"}],"credit_score":4}"#,
        )
        .unwrap_or_default();
        assert_eq!(d.id.as_deref(), Some("13"));
        assert_eq!(d.model_output.as_deref(), Some("<b>985录取率95%</b>"));
        assert_eq!(d.errors, vec!["{\n  \"severity\": \"Low\"\n}".to_string()]);
        assert!(
            d.findings.is_empty(),
            "an entry that does not read is not a finding"
        );
        let d = case_detail(
            r#"{"id":1,"errors":[{"phase":"fact_check","target":"C1","type":"unsupported","severity":"High","evidence":"40 people","explanation":"not in the context","counting":"counted"}]}"#,
        )
        .unwrap();
        assert_eq!(d.findings.len(), 1, "{d:?}");
        assert_eq!(d.findings[0].explanation, "not in the context");
        assert_eq!(d.findings[0].evidence, "40 people");
        assert!(case_detail("{oops").is_err());
        let bare = case_detail("[1]").unwrap();
        assert!(bare.id.is_none() && bare.errors.is_empty() && !bare.kept_report);
        let kept =
            case_detail(r#"{"id":"a","description":{"k":1},"error":null,"audit_report":{}}"#)
                .unwrap();
        assert_eq!(
            (kept.description.as_deref(), kept.error, kept.kept_report),
            (Some(r#"{"k":1}"#), None, true)
        );
        assert_eq!(bom_len(b"\xEF\xBB\xBF{"), 3);
        assert_eq!(bom_len(b"{}"), 0);
    }
}
