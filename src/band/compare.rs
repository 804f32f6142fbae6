//! Two runs compared case by case (the way Braintrust compares experiments): the same case
//! ids scored under run A and run B (two results files, or two profiles of one file), what
//! changed for each case, and whether the cross-band rate really moved.
//!
//! The test is paired because the cases are the same: exact McNemar on the discordant
//! cases (cross-band in A only, in B only), and Newcombe's hybrid score interval (his
//! method 10, built from the two Wilson intervals and the phi correlation of the pairs) for
//! the difference in rates. Both stay honest at the small n and rates near 0 this report
//! lives with, where a Wald interval collapses to zero width.

use serde::Serialize;

use super::metrics::{is_cross_band, wilson_interval};
use super::record::{parse_record, ParsedLine, ResultRecord};
use super::render::csv_field;
use crate::audit::score::band;

/// Which lines of a run take part: all of them, or one profile's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    pub profile: Option<String>,
}

/// One run's scored lines, read from JSONL, with what could not be used.
#[derive(Debug, Clone, Default)]
pub struct RunLines {
    pub label: String,
    pub records: Vec<ResultRecord>,
    /// (1-based line number, why) for lines that are not scored results.
    pub bad_lines: Vec<(usize, String)>,
}

impl RunLines {
    pub fn new(label: impl Into<String>) -> Self {
        RunLines {
            label: label.into(),
            ..RunLines::default()
        }
    }

    pub fn push_line(&mut self, number: usize, text: &str) {
        match parse_record(text) {
            ParsedLine::Scored(r) => self.records.push(r),
            ParsedLine::Unscored => self
                .bad_lines
                .push((number, "no credit_score (an input case)".into())),
            ParsedLine::Bad(why) => self.bad_lines.push((number, why)),
        }
    }

    pub fn from_text(label: &str, text: &str) -> Self {
        let mut run = RunLines::new(label);
        for line in crate::jsonl::lines_of(text) {
            match line.text {
                Ok(t) => run.push_line(line.number, &t),
                Err(e) => run.bad_lines.push((line.number, e.to_string())),
            }
        }
        run
    }
}

/// How a case moved from A to B, judged by the distance of the score from the expected one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    /// Cross-band in B, not in A.
    NewCrossBand,
    /// Cross-band in A, not in B.
    FixedCrossBand,
    /// Further from the expected score in B.
    Regressed,
    /// Closer to the expected score in B.
    Improved,
    /// A different score at the same distance (e.g. expected 3, 2 → 4).
    Moved,
    Unchanged,
}

impl Change {
    pub fn label(self) -> &'static str {
        match self {
            Change::NewCrossBand => "new cross-band",
            Change::FixedCrossBand => "fixed cross-band",
            Change::Regressed => "regressed",
            Change::Improved => "improved",
            Change::Moved => "moved",
            Change::Unchanged => "unchanged",
        }
    }

    fn of(expected: u8, a: u8, b: u8) -> Change {
        match (is_cross_band(expected, a), is_cross_band(expected, b)) {
            (false, true) => return Change::NewCrossBand,
            (true, false) => return Change::FixedCrossBand,
            _ => {}
        }
        let (da, db) = (expected.abs_diff(a), expected.abs_diff(b));
        match (a == b, db.cmp(&da)) {
            (true, _) => Change::Unchanged,
            (false, std::cmp::Ordering::Greater) => Change::Regressed,
            (false, std::cmp::Ordering::Less) => Change::Improved,
            (false, std::cmp::Ordering::Equal) => Change::Moved,
        }
    }
}

/// One case scored in both runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PairedCase {
    pub id: String,
    /// The profile when the pairing is by (id, profile); `None` when by id.
    pub profile: Option<String>,
    /// From run A (B's is reported in `expected_differs` when it is not the same).
    pub expected: u8,
    pub score_a: u8,
    pub score_b: u8,
    pub band_a: &'static str,
    pub band_b: &'static str,
    pub change: Change,
}

/// Exact McNemar test on the cross-band indicator.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct McNemar {
    /// Cross-band in A only.
    pub a_only: u64,
    /// Cross-band in B only.
    pub b_only: u64,
    /// Two-sided exact p-value (binomial(n = a_only + b_only, 1/2)); 1 when nothing is discordant.
    pub p_value: f64,
}

/// The whole comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    pub label_a: String,
    pub label_b: String,
    /// `id` or `id+profile`: how cases were matched.
    pub paired_by: &'static str,
    pub paired: u64,
    pub cross_band_a: u64,
    pub cross_band_b: u64,
    pub rate_a: Option<f64>,
    pub rate_b: Option<f64>,
    /// rate B − rate A.
    pub difference: Option<f64>,
    /// 95 % Newcombe (method 10) interval of the difference.
    pub difference_ci: Option<[f64; 2]>,
    pub mcnemar: McNemar,
    pub improved: u64,
    pub regressed: u64,
    pub moved: u64,
    pub unchanged: u64,
    pub band_changed: u64,
    /// Cases whose expected score is not the same in both files (A's is used).
    pub expected_differs: Vec<String>,
    /// Keys scored in one run only.
    pub only_in_a: Vec<String>,
    pub only_in_b: Vec<String>,
    /// Keys seen more than once in a run (the first line is used).
    pub duplicates_a: Vec<String>,
    pub duplicates_b: Vec<String>,
    /// Lines without an id, which cannot be paired.
    pub without_id_a: u64,
    pub without_id_b: u64,
    /// Every paired case: cross-band flips first, then regressions, improvements, other
    /// moves and unchanged cases; in A's order within each kind.
    pub cases: Vec<PairedCase>,
}

fn band_name(score: u8) -> &'static str {
    band(score).as_str()
}

/// The selected records of one run keyed for pairing, in the run's order.
struct Keyed<'a> {
    order: Vec<(String, &'a ResultRecord)>,
    duplicates: Vec<String>,
    without_id: u64,
}

/// The keys of `items` with their positions, sorted by key (then position), for lookups by
/// binary search. A sorted vector rather than a `HashMap`: the same speed here, and one small
/// sort in the wasm instead of a hash map per key type.
fn sorted_keys<T>(items: &[(String, T)]) -> Vec<(&str, usize)> {
    let mut keys: Vec<(&str, usize)> = items
        .iter()
        .enumerate()
        .map(|(i, (k, _))| (k.as_str(), i))
        .collect();
    keys.sort_unstable();
    keys
}

fn find(sorted: &[(&str, usize)], key: &str) -> Option<usize> {
    sorted
        .binary_search_by(|(k, _)| (*k).cmp(key))
        .ok()
        .map(|at| sorted[at].1)
}

impl Comparison {
    /// Whether cases were paired by (id, profile): only then does a case row have a profile
    /// to show (two profiles of one file pair by id, and each side's label names its profile).
    pub fn by_profile(&self) -> bool {
        self.paired_by == "id+profile"
    }
}

fn keyed<'a>(run: &'a RunLines, sel: &Selection, with_profile: bool) -> Keyed<'a> {
    let mut k = Keyed {
        order: Vec::new(),
        duplicates: Vec::new(),
        without_id: 0,
    };
    let mut all = Vec::new();
    for r in &run.records {
        if sel.profile.is_some() && r.profile != sel.profile {
            continue;
        }
        let Some(id) = &r.id else {
            k.without_id += 1;
            continue;
        };
        let key = match (&r.profile, with_profile) {
            (Some(p), true) => format!("{id}\u{1f}{p}"),
            _ => id.clone(),
        };
        all.push((key, r));
    }
    // Every line after the first with its key is a duplicate.
    let mut repeated = vec![false; all.len()];
    for w in sorted_keys(&all).windows(2) {
        if w[0].0 == w[1].0 {
            repeated[w[1].1] = true;
        }
    }
    for ((key, r), again) in all.into_iter().zip(repeated) {
        if again {
            k.duplicates.push(shown(&key));
        } else {
            k.order.push((key, r));
        }
    }
    k
}

/// A pairing key as users read it: `id` or `id · profile`.
fn shown(key: &str) -> String {
    key.replace('\u{1f}', " · ")
}

fn distinct_profiles(run: &RunLines, sel: &Selection) -> usize {
    // Lines without a profile do not count as one more profile: they pair by id.
    let mut names: Vec<&str> = run
        .records
        .iter()
        .filter(|r| sel.profile.is_none() || r.profile == sel.profile)
        .filter_map(|r| r.profile.as_deref())
        .collect();
    names.sort_unstable();
    names.dedup();
    names.len()
}

/// Compare run B against run A. Cases are paired by `id` when each side (after the
/// selection) holds one profile at most — the usual "same cases, another run/profile" —
/// and by (`id`, `profile`) when a side holds several, so a two-profile run compares with
/// another two-profile run profile by profile.
pub fn compare(a: &RunLines, sel_a: &Selection, b: &RunLines, sel_b: &Selection) -> Comparison {
    let with_profile = distinct_profiles(a, sel_a) > 1 || distinct_profiles(b, sel_b) > 1;
    let ka = keyed(a, sel_a, with_profile);
    let kb = keyed(b, sel_b, with_profile);
    let b_index = sorted_keys(&kb.order);
    let a_keys = sorted_keys(&ka.order);

    let mut cases = Vec::new();
    let mut expected_differs = Vec::new();
    let mut only_in_a = Vec::new();
    for (key, ra) in &ka.order {
        let Some(rb) = find(&b_index, key).map(|i| kb.order[i].1) else {
            only_in_a.push(shown(key));
            continue;
        };
        if ra.expected != rb.expected {
            expected_differs.push(shown(key));
        }
        let e = ra.expected;
        cases.push(PairedCase {
            id: ra.id.clone().unwrap_or_default(),
            profile: if with_profile {
                ra.profile.clone()
            } else {
                None
            },
            expected: e,
            score_a: ra.actual,
            score_b: rb.actual,
            band_a: band_name(ra.actual),
            band_b: band_name(rb.actual),
            change: Change::of(e, ra.actual, rb.actual),
        });
    }
    let only_in_b = kb
        .order
        .iter()
        .filter(|(k, _)| find(&a_keys, k).is_none())
        .map(|(k, _)| shown(k))
        .collect();
    // Grouped by kind of change in `Change`'s order, A's order kept within each kind (a
    // linear pass per kind rather than a stable sort, whose code is several KB in the wasm).
    let kinds = [
        Change::NewCrossBand,
        Change::FixedCrossBand,
        Change::Regressed,
        Change::Improved,
        Change::Moved,
        Change::Unchanged,
    ];
    let mut grouped = Vec::with_capacity(cases.len());
    for kind in kinds {
        grouped.extend(cases.iter().filter(|c| c.change == kind).cloned());
    }
    let cases = grouped;

    let n = cases.len() as u64;
    let count = |f: &dyn Fn(&PairedCase) -> bool| cases.iter().filter(|c| f(c)).count() as u64;
    let both =
        count(&|c| is_cross_band(c.expected, c.score_a) && is_cross_band(c.expected, c.score_b));
    let a_only = count(&|c| c.change == Change::FixedCrossBand);
    let b_only = count(&|c| c.change == Change::NewCrossBand);
    let rate = |x: u64| (n > 0).then(|| x as f64 / n as f64);
    // Two profiles of one file would read `f.jsonl → f.jsonl`: each side names its profile.
    let label = |run: &RunLines, sel: &Selection| match &sel.profile {
        Some(p) if a.label == b.label => format!("{} ({p})", run.label),
        _ => run.label.clone(),
    };
    Comparison {
        label_a: label(a, sel_a),
        label_b: label(b, sel_b),
        paired_by: if with_profile { "id+profile" } else { "id" },
        paired: n,
        cross_band_a: both + a_only,
        cross_band_b: both + b_only,
        rate_a: rate(both + a_only),
        rate_b: rate(both + b_only),
        difference: rate(b_only).zip(rate(a_only)).map(|(x, y)| x - y),
        difference_ci: (n > 0).then(|| newcombe_paired(both, b_only, a_only, n)),
        mcnemar: McNemar {
            a_only,
            b_only,
            p_value: mcnemar_exact(a_only, b_only),
        },
        improved: count(&|c| matches!(c.change, Change::Improved | Change::FixedCrossBand)),
        regressed: count(&|c| matches!(c.change, Change::Regressed | Change::NewCrossBand)),
        moved: count(&|c| c.change == Change::Moved),
        unchanged: count(&|c| c.change == Change::Unchanged),
        band_changed: count(&|c| c.band_a != c.band_b),
        expected_differs,
        only_in_a,
        only_in_b,
        duplicates_a: ka.duplicates,
        duplicates_b: kb.duplicates,
        without_id_a: ka.without_id,
        without_id_b: kb.without_id,
        cases,
    }
}

/// Two-sided exact McNemar p-value: under "no difference" each of the n = b + c discordant
/// cases falls either way with probability 1/2, so p = min(1, 2 · P(X ≤ min(b, c))) for
/// X ~ Binomial(n, 1/2). The binomial terms are summed in log space so n in the millions
/// neither overflows nor underflows to a wrong 0.
pub fn mcnemar_exact(b: u64, c: u64) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    let k = b.min(c);
    let ln_half_n = n as f64 * std::f64::consts::LN_2;
    // ln C(n, i) by the recurrence C(n, i) = C(n, i-1) · (n-i+1)/i.
    let mut ln_choose = 0.0_f64;
    let mut terms = Vec::with_capacity(k as usize + 1);
    for i in 0..=k {
        if i > 0 {
            ln_choose += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        terms.push(ln_choose - ln_half_n);
    }
    let max = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let tail = max.exp() * terms.iter().map(|t| (t - max).exp()).sum::<f64>();
    (2.0 * tail).min(1.0)
}

/// Newcombe's (1998) method 10 for a difference of paired proportions, θ = p1 − p2, where
/// p1 = (both + only1)/n and p2 = (both + only2)/n: the Wilson intervals (l, u) of each rate
/// combined with the phi coefficient of the 2×2 table,
///
/// δ = √((p1−l1)² − 2φ(p1−l1)(u2−p2) + (u2−p2)²),  ε = √((u1−p1)² − 2φ(u1−p1)(p2−l2) + (p2−l2)²),
///
/// interval [θ − δ, θ + ε]. φ is 0 when a margin is empty (the formula's denominator is 0).
pub fn newcombe_paired(both: u64, only1: u64, only2: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [-1.0, 1.0];
    }
    let neither = n.saturating_sub(both + only1 + only2);
    let (x1, x2) = (both + only1, both + only2);
    let nf = n as f64;
    let (p1, p2) = (x1 as f64 / nf, x2 as f64 / nf);
    let (l1, u1) = wilson_interval(x1, n);
    let (l2, u2) = wilson_interval(x2, n);
    let (a, b, c, d) = (both as f64, only1 as f64, only2 as f64, neither as f64);
    let denom = ((a + b) * (c + d) * (a + c) * (b + d)).sqrt();
    let phi = if denom > 0.0 {
        (a * d - b * c) / denom
    } else {
        0.0
    };
    let theta = p1 - p2;
    let delta = ((p1 - l1).powi(2) - 2.0 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2).powi(2))
        .max(0.0)
        .sqrt();
    let eps = ((u1 - p1).powi(2) - 2.0 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2).powi(2))
        .max(0.0)
        .sqrt();
    [(theta - delta).max(-1.0), (theta + eps).min(1.0)]
}

pub fn pct(x: Option<f64>) -> String {
    x.map_or("–".into(), |v| format!("{:.1} %", v * 100.0))
}

/// A difference of two percentages, in percentage points: 25 % − 0 % is `-25.0 pt`, never
/// `-25.0 %` (which would read as a relative change).
pub fn signed_pt(x: f64) -> String {
    format!("{:+.1} pt", x * 100.0)
}

/// Text for a p-value: four significant figures, or `< 0.0001`.
pub fn p_text(p: f64) -> String {
    if p < 1e-4 {
        "< 0.0001".into()
    } else {
        format!("{p:.4}")
    }
}

/// Rows of changed cases the Markdown lists; the CSV always has every paired case.
pub const MARKDOWN_CASES: usize = 1000;

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// The comparison as Markdown: the summary, the paired test, then the changed cases with
/// cross-band flips first.
pub fn markdown(c: &Comparison) -> String {
    let mut s = format!(
        "# Comparison: {} → {}\n\n",
        md_cell(&c.label_a),
        md_cell(&c.label_b)
    );
    s.push_str(&format!(
        "{} cases paired by {}. Improved {}, regressed {}, moved within the same distance {}, unchanged {}; band changed in {}.\n\n",
        c.paired, c.paired_by, c.improved, c.regressed, c.moved, c.unchanged, c.band_changed
    ));
    s.push_str("| | A | B | B − A |\n|---|---|---|---|\n");
    let diff = c.difference.map_or("–".into(), signed_pt);
    let ci = c.difference_ci.map_or("–".into(), |[lo, hi]| {
        format!("[{}, {}]", signed_pt(lo), signed_pt(hi))
    });
    s.push_str(&format!(
        "| cross-band | {} ({}) | {} ({}) | {diff}, 95 % CI {ci} |\n\n",
        c.cross_band_a,
        pct(c.rate_a),
        c.cross_band_b,
        pct(c.rate_b)
    ));
    let m = &c.mcnemar;
    s.push_str(&format!(
        "Exact McNemar test: cross-band in A only {}, in B only {}, two-sided p = {}.\n",
        m.a_only,
        m.b_only,
        p_text(m.p_value)
    ));
    s.push_str(
        "The interval is Newcombe's hybrid score interval for paired proportions (method 10).\n\n",
    );
    let mut notes = Vec::new();
    let list = |v: &[String]| {
        let shown: Vec<&str> = v.iter().take(20).map(String::as_str).collect();
        let more = v.len().saturating_sub(20);
        let tail = if more > 0 {
            format!(", … {more} more")
        } else {
            String::new()
        };
        format!("{}{tail}", md_cell(&shown.join(", ")))
    };
    if !c.only_in_a.is_empty() {
        notes.push(format!(
            "only in A ({}): {}",
            c.only_in_a.len(),
            list(&c.only_in_a)
        ));
    }
    if !c.only_in_b.is_empty() {
        notes.push(format!(
            "only in B ({}): {}",
            c.only_in_b.len(),
            list(&c.only_in_b)
        ));
    }
    if !c.expected_differs.is_empty() {
        notes.push(format!(
            "expected score differs ({}, A's used): {}",
            c.expected_differs.len(),
            list(&c.expected_differs)
        ));
    }
    for (side, d) in [("A", &c.duplicates_a), ("B", &c.duplicates_b)] {
        if !d.is_empty() {
            notes.push(format!(
                "repeated in {side} ({}, first line used): {}",
                d.len(),
                list(d)
            ));
        }
    }
    for (side, n) in [("A", c.without_id_a), ("B", c.without_id_b)] {
        if n > 0 {
            notes.push(format!(
                "{n} lines in {side} have no id and cannot be paired"
            ));
        }
    }
    if !notes.is_empty() {
        s.push_str("## Unmatched\n\n");
        for n in notes {
            s.push_str(&format!("- {n}\n"));
        }
        s.push('\n');
    }
    let changed: Vec<&PairedCase> = c
        .cases
        .iter()
        .filter(|p| p.change != Change::Unchanged)
        .collect();
    s.push_str(&format!("## Changed cases ({})\n\n", changed.len()));
    if changed.is_empty() {
        s.push_str("No case changed.\n");
        return s;
    }
    // The profile column only when cases were paired by profile; the CSV keeps every column.
    let by_profile = c.by_profile();
    s.push_str(if by_profile {
        "| id | profile | expected | A | B | change |\n|---|---|---|---|---|---|\n"
    } else {
        "| id | expected | A | B | change |\n|---|---|---|---|---|\n"
    });
    for p in changed.iter().take(MARKDOWN_CASES) {
        let id = match (&p.profile, by_profile) {
            (Some(profile), true) => format!("{} | {}", md_cell(&p.id), md_cell(profile)),
            (None, true) => format!("{} | ", md_cell(&p.id)),
            (_, false) => md_cell(&p.id),
        };
        s.push_str(&format!(
            "| {} | {} | {} {} | {} {} | {} |\n",
            id,
            p.expected,
            p.score_a,
            p.band_a,
            p.score_b,
            p.band_b,
            p.change.label()
        ));
    }
    if changed.len() > MARKDOWN_CASES {
        s.push_str(&format!(
            "\n… {} more in the CSV export.\n",
            changed.len() - MARKDOWN_CASES
        ));
    }
    s
}

/// Every paired case as CSV, in the comparison's order (cross-band flips first).
pub fn csv(c: &Comparison) -> String {
    let mut s = String::from("id,profile,expected,score_a,score_b,band_a,band_b,change\n");
    for p in &c.cases {
        s.push_str(&format!(
            "{},{},{},{},{},{},{},{}\n",
            csv_field(&p.id),
            csv_field(p.profile.as_deref().unwrap_or("")),
            p.expected,
            p.score_a,
            p.score_b,
            p.band_a,
            p.band_b,
            p.change.label()
        ));
    }
    s
}

/// The comparison as pretty JSON (every field of [`Comparison`]).
pub fn json(c: &Comparison) -> String {
    // Serializing plain numbers, strings and lists cannot fail; the fallback is for form.
    serde_json::to_string_pretty(c).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn mcnemar_hand_computed() {
        // b=1, c=9: n=10, P(X≤1) = (1+10)/1024, p = 22/1024.
        assert!(close(mcnemar_exact(1, 9), 22.0 / 1024.0, 1e-12));
        assert!(close(mcnemar_exact(9, 1), 0.021_484_375, 1e-12));
        // b=0, c=5: 2/32.
        assert!(close(mcnemar_exact(0, 5), 0.0625, 1e-12));
        // b=2, c=8: (1+10+45)·2/1024 = 112/1024.
        assert!(close(mcnemar_exact(2, 8), 0.109_375, 1e-12));
        // b=3, c=3 and nothing discordant: no evidence at all.
        assert_eq!(mcnemar_exact(3, 3), 1.0);
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        // b=0, c=20: 2/2^20.
        assert!(close(mcnemar_exact(0, 20), 2.0 / 1_048_576.0, 1e-15));
        // Large n stays finite and tiny, not NaN.
        let p = mcnemar_exact(100, 10_000);
        assert!((0.0..1e-100).contains(&p), "{p}");
    }

    #[test]
    fn newcombe_interval_properties() {
        // both 12, A only 9, B only 2, neither 21 (Newcombe 1998's example): θ = 7/44.
        let [lo, hi] = newcombe_paired(12, 9, 2, 44);
        let theta = 7.0 / 44.0;
        assert!(lo < theta && theta < hi, "[{lo}, {hi}]");
        // 0.0182 to 0.2892: the paper's method 10 figures, recomputed independently in
        // Python from its formulas (0.018210, 0.289157).
        assert!(close(lo, 0.018_210, 1e-5), "{lo}");
        assert!(close(hi, 0.289_157, 1e-5), "{hi}");
        // Swapping the runs negates the interval.
        let [lo2, hi2] = newcombe_paired(12, 2, 9, 44);
        assert!(close(lo2, -hi, 1e-12) && close(hi2, -lo, 1e-12));
        // No discordant pairs, no cross-band at all: an interval around 0 that is not empty.
        let [lo, hi] = newcombe_paired(0, 0, 0, 20);
        assert!(lo < 0.0 && hi > 0.0 && hi < 0.2, "[{lo}, {hi}]");
    }

    const A: &str = r#"{"id":1,"expected_credit_score":1,"credit_score":5,"profile":"p"}
{"id":2,"expected_credit_score":5,"credit_score":5,"profile":"p"}
{"id":3,"expected_credit_score":3,"credit_score":2,"profile":"p"}
{"id":4,"expected_credit_score":4,"credit_score":4,"profile":"p"}
{"id":5,"expected_credit_score":2,"credit_score":2,"profile":"p"}
{"id":6,"expected_credit_score":5,"credit_score":5,"profile":"p"}
{"expected_credit_score":5,"credit_score":5}
{"id":7,"expected_credit_score":5,"credit_score":null,"error":"could not audit"}
"#;
    const B: &str = r#"{"id":6,"expected_credit_score":5,"credit_score":1,"profile":"q"}
{"id":5,"expected_credit_score":2,"credit_score":2,"profile":"q"}
{"id":4,"expected_credit_score":4,"credit_score":3,"profile":"q"}
{"id":3,"expected_credit_score":3,"credit_score":4,"profile":"q"}
{"id":2,"expected_credit_score":5,"credit_score":4,"profile":"q"}
{"id":1,"expected_credit_score":1,"credit_score":2,"profile":"q"}
{"id":1,"expected_credit_score":1,"credit_score":5,"profile":"q"}
{"id":8,"expected_credit_score":3,"credit_score":3,"profile":"q"}
"#;

    fn ab() -> Comparison {
        let a = RunLines::from_text("A", A);
        let b = RunLines::from_text("B", B);
        compare(&a, &Selection::default(), &b, &Selection::default())
    }

    #[test]
    fn cases_pair_by_id_and_flips_come_first() {
        let c = ab();
        assert_eq!(c.paired_by, "id");
        assert_eq!(c.paired, 6);
        let order: Vec<(&str, Change)> =
            c.cases.iter().map(|p| (p.id.as_str(), p.change)).collect();
        assert_eq!(
            order,
            vec![
                ("6", Change::NewCrossBand),
                ("1", Change::FixedCrossBand),
                ("2", Change::Regressed),
                ("4", Change::Regressed),
                ("3", Change::Moved),
                ("5", Change::Unchanged),
            ]
        );
        assert_eq!(
            (c.improved, c.regressed, c.moved, c.unchanged),
            (1, 3, 1, 1)
        );
        // 1: GOOD→BAD, 2: same band, 3: BAD→GOOD, 4: GOOD→MID, 6: GOOD→BAD.
        assert_eq!(c.band_changed, 4);
        assert_eq!(c.only_in_a, Vec::<String>::new());
        assert_eq!(c.only_in_b, vec!["8".to_string()]);
        assert_eq!(c.duplicates_b, vec!["1".to_string()]);
        assert_eq!(c.without_id_a, 1);
        assert_eq!((c.cross_band_a, c.cross_band_b), (1, 1));
        assert_eq!(c.difference, Some(0.0));
        assert_eq!((c.mcnemar.a_only, c.mcnemar.b_only), (1, 1));
        assert_eq!(c.mcnemar.p_value, 1.0);
    }

    #[test]
    fn two_profiles_of_one_file() {
        let text = r#"{"id":1,"expected_credit_score":1,"credit_score":5,"profile":"p"}
{"id":1,"expected_credit_score":1,"credit_score":1,"profile":"q"}
{"id":2,"expected_credit_score":5,"credit_score":5,"profile":"p"}
{"id":2,"expected_credit_score":5,"credit_score":5,"profile":"q"}
"#;
        let run = RunLines::from_text("run", text);
        let sel = |p: &str| Selection {
            profile: Some(p.into()),
        };
        let c = compare(&run, &sel("p"), &run, &sel("q"));
        assert_eq!(c.paired_by, "id");
        assert_eq!(c.paired, 2);
        // One file on both sides: each side is named by its profile too.
        assert_eq!(
            (c.label_a.as_str(), c.label_b.as_str()),
            ("run (p)", "run (q)")
        );
        assert_eq!(c.cases[0].change, Change::FixedCrossBand);
        // Without a selection, each side has two profiles: pairing by (id, profile).
        let c = compare(&run, &Selection::default(), &run, &Selection::default());
        assert_eq!(c.paired_by, "id+profile");
        assert!(c.by_profile());
        assert_eq!(c.paired, 4);
        assert_eq!(c.unchanged, 4);
        // Paired by profile, the markdown has a profile column (nothing changed here, so the
        // table is empty: check with a changed case).
        let mut changed = c.clone();
        changed.cases[0].change = Change::Regressed;
        let md = markdown(&changed);
        assert!(
            md.contains("| id | profile | expected | A | B | change |"),
            "{md}"
        );
        assert!(md.contains(" | p | 1 | "), "{md}");
    }

    #[test]
    fn exports_list_changes_and_quote_fields() {
        let mut c = ab();
        c.cases[4].id = "a,\"b\"".into();
        let md = markdown(&c);
        assert!(md.contains("6 cases paired by id"), "{md}");
        assert!(md.contains("two-sided p = 1.0000"), "{md}");
        assert!(md.contains("only in B (1): 8"), "{md}");
        assert!(
            md.contains("| 6 | 5 | 5 GOOD | 1 BAD | new cross-band |"),
            "{md}"
        );
        assert!(md.contains("| id | expected | A | B | change |"), "{md}");
        assert!(md.contains("## Changed cases (5)"), "{md}");
        let csv = csv(&c);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 7);
        assert_eq!(lines[1], "6,,5,5,1,GOOD,BAD,new cross-band");
        assert_eq!(lines[5], "\"a,\"\"b\"\"\",,3,2,4,BAD,GOOD,moved");
        let v: serde_json::Value = serde_json::from_str(&json(&c)).unwrap();
        assert_eq!(v["paired"], 6);
        assert_eq!(v["cases"][0]["change"], "new_cross_band");
    }

    #[test]
    fn empty_runs_do_not_panic() {
        let c = compare(
            &RunLines::new("A"),
            &Selection::default(),
            &RunLines::new("B"),
            &Selection::default(),
        );
        assert_eq!(c.paired, 0);
        assert_eq!(c.rate_a, None);
        assert_eq!(c.difference_ci, None);
        assert!(markdown(&c).contains("No case changed."));
    }
}
