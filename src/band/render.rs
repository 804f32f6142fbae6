//! The report as Markdown, JSON and CSV (CLI output and page exports).

use std::fmt::Write;

use serde::Serialize;

use crate::audit::Band;
use crate::sorted_map::SortedMap;

use super::evaluate::{BadLine, BandReport};
use super::metrics::GroupMetrics;

/// Which groupings to include.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct By {
    pub profile: bool,
    pub tag: bool,
    pub difficulty: bool,
}

impl Default for By {
    fn default() -> Self {
        By {
            profile: true,
            tag: true,
            difficulty: true,
        }
    }
}

/// A rate as a percentage with one decimal (`12.5 %`), `–` when there is none.
pub fn pct(x: Option<f64>) -> String {
    x.map_or("–".into(), |v| format!("{:.1} %", v * 100.0))
}

/// A metric with three decimals, `–` when there is none.
pub fn num(x: Option<f64>) -> String {
    x.map_or("–".into(), |v| format!("{:.3}", v))
}

/// The cross-band rate's 95 % interval, `[2.1 %, 9.8 %]`.
pub fn ci(g: &GroupMetrics) -> String {
    g.cross_band_ci.map_or("–".into(), |[lo, hi]| {
        format!("[{:.1} %, {:.1} %]", lo * 100.0, hi * 100.0)
    })
}

pub fn markdown(r: &BandReport, by: By) -> String {
    let mut s = String::new();
    let o = &r.overall;
    let _ = writeln!(s, "# Band report\n");
    if r.cases_only {
        let _ = writeln!(
            s,
            "**{}**\n",
            r.warnings.first().map(String::as_str).unwrap_or("")
        );
        return s;
    }
    let _ = writeln!(
        s,
        "Cross-band confusion rate: **{}** {} (target < {:.1} %): **{}**\n",
        pct(o.cross_band_rate),
        ci(o),
        r.target * 100.0,
        o.verdict.label()
    );
    let _ = writeln!(s, "## Confusion matrix (rows expected, columns actual)\n");
    let headers: Vec<&str> = Band::ALL.iter().map(|b| b.with_scores()).collect();
    let _ = writeln!(s, "| expected \\ actual | {} |", headers.join(" | "));
    let _ = writeln!(s, "|---|---:|---:|---:|");
    for (i, row) in o.matrix.iter().enumerate() {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(j, c)| {
                if Band::at(i)
                    .zip(Band::at(j))
                    .is_some_and(|(e, a)| e.crosses(a))
                {
                    format!("**{c}** ⚠")
                } else {
                    c.to_string()
                }
            })
            .collect();
        let name = Band::at(i).map_or("?", Band::with_scores);
        let _ = writeln!(s, "| {name} | {} |", cells.join(" | "));
    }
    let _ = writeln!(s, "\n## Metrics\n");
    let _ = writeln!(s, "{}", metrics_table(&[("overall".to_string(), o)]));
    let sections = [
        (by.profile, "Profiles", &r.profiles),
        (by.tag, "Tags", &r.tags),
        (by.difficulty, "Difficulties", &r.difficulties),
    ];
    for (on, title, groups) in sections {
        if on && !groups.is_empty() {
            let _ = writeln!(s, "\n## {title}\n");
            let rows: Vec<(String, &GroupMetrics)> =
                groups.iter().map(|(k, v)| (k.clone(), v)).collect();
            let _ = writeln!(s, "{}", metrics_table(&rows));
        }
    }
    if !r.warnings.is_empty() {
        let _ = writeln!(s, "\n## Warnings\n");
        for w in &r.warnings {
            let _ = writeln!(s, "- {w}");
        }
    }
    if r.bad_line_count > 0 {
        let _ = writeln!(s, "\n## Bad lines ({})\n", r.bad_line_count);
        for b in &r.bad_lines {
            let _ = writeln!(s, "- line {}: {}", b.line, b.reason);
        }
    }
    s
}

fn metrics_table(rows: &[(String, &GroupMetrics)]) -> String {
    let mut s = String::from(
        "| group | n | band acc. | cross-band | 95 % CI | verdict | missed (BAD→GOOD) | false alarm (GOOD→BAD) | boundary | in-band | exact | ±1 | MAE | QWK |\n\
         |---|---:|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for (name, g) in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            name.replace('|', "\\|"),
            g.n,
            pct(g.band_accuracy),
            pct(g.cross_band_rate),
            ci(g),
            g.verdict.label(),
            g.missed,
            g.false_alarm,
            g.boundary,
            g.in_band,
            pct(g.exact),
            pct(g.within_one),
            num(g.mae),
            num(g.qwk)
        );
    }
    s
}

/// The JSON report: the report's fields in order, a grouping left out by `by` written as `{}`.
/// (`cases` and `names` serve drill-down and are not exported.)
#[derive(Serialize)]
struct JsonReport<'a> {
    target: f64,
    overall: &'a GroupMetrics,
    profiles: &'a SortedMap<String, GroupMetrics>,
    tags: &'a SortedMap<String, GroupMetrics>,
    difficulties: &'a SortedMap<String, GroupMetrics>,
    bad_lines: &'a [BadLine],
    bad_line_count: u64,
    unscored: u64,
    cases_only: bool,
    warnings: &'a [String],
}

/// The JSON report: `overall`, `profiles`, `tags`, `difficulties`, `bad_lines`, ….
pub fn json(r: &BandReport, by: By) -> String {
    let none = SortedMap::new();
    let shown = |on: bool, groups| if on { groups } else { &none };
    let report = JsonReport {
        target: r.target,
        overall: &r.overall,
        profiles: shown(by.profile, &r.profiles),
        tags: shown(by.tag, &r.tags),
        difficulties: shown(by.difficulty, &r.difficulties),
        bad_lines: &r.bad_lines,
        bad_line_count: r.bad_line_count,
        unscored: r.unscored,
        cases_only: r.cases_only,
        warnings: &r.warnings,
    };
    // Writing to a `Vec` cannot fail: every key is a string.
    serde_json::to_string_pretty(&report).unwrap_or_default()
}

/// One CSV row per group: `group_kind,group,n,...`.
pub fn csv(r: &BandReport, by: By) -> String {
    let mut s = String::from(
        "group_kind,group,n,band_accuracy,cross_band_rate,cross_band_ci_low,cross_band_ci_high,verdict,missed,false_alarm,boundary,in_band,exact,within_one,mae,qwk\n",
    );
    let mut put = |kind: &str, name: &str, g: &GroupMetrics| {
        let f = |x: Option<f64>| x.map_or(String::new(), |v| format!("{:.6}", v));
        let [lo, hi] = g
            .cross_band_ci
            .map_or([None, None], |[a, b]| [Some(a), Some(b)]);
        let _ = writeln!(
            s,
            "{kind},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            csv_field(name),
            g.n,
            f(g.band_accuracy),
            f(g.cross_band_rate),
            f(lo),
            f(hi),
            g.verdict.label(),
            g.missed,
            g.false_alarm,
            g.boundary,
            g.in_band,
            f(g.exact),
            f(g.within_one),
            f(g.mae),
            f(g.qwk)
        );
    };
    put("overall", "overall", &r.overall);
    let groups: [(bool, &str, &SortedMap<String, GroupMetrics>); 3] = [
        (by.profile, "profile", &r.profiles),
        (by.tag, "tag", &r.tags),
        (by.difficulty, "difficulty", &r.difficulties),
    ];
    for (on, kind, map) in groups {
        if on {
            for (name, g) in map {
                put(kind, name, g);
            }
        }
    }
    s
}

/// Quote a CSV field when it needs it (RFC 4180).
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}
