//! Markdown, JSON and CSV renderings of a [`BandReport`].

use super::{BandReport, Dimension, GroupMetrics, CASES_ONLY_HINT};
use std::collections::BTreeMap;
use std::fmt::Write;

fn pct(x: Option<f64>) -> String {
    x.map(|v| format!("{:.1} %", v * 100.0))
        .unwrap_or_else(|| "–".into())
}

fn num(x: Option<f64>) -> String {
    x.map(|v| format!("{v:.3}")).unwrap_or_else(|| "–".into())
}

fn ci(m: &GroupMetrics) -> String {
    m.cross_band_ci
        .map(|[lo, hi]| format!("[{:.1} %, {:.1} %]", lo * 100.0, hi * 100.0))
        .unwrap_or_else(|| "–".into())
}

/// Markdown cells come from user data (tags, profiles): keep them from breaking the table.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

fn groups_of(report: &BandReport, dim: Dimension) -> &BTreeMap<String, GroupMetrics> {
    match dim {
        Dimension::Profile => &report.profiles,
        Dimension::Tag => &report.tags,
        Dimension::Difficulty => &report.difficulties,
    }
}

pub fn render_markdown(report: &BandReport) -> String {
    let mut out = String::from("# Band report\n\n");
    if report.cases_only {
        let _ = writeln!(out, "**No scores:** {CASES_ONLY_HINT}\n");
        write_bad_lines(&mut out, report);
        return out;
    }
    let m = &report.overall;
    let _ = writeln!(
        out,
        "Target: cross-band rate < {:.1} % · **Verdict: {}** · n = {}\n",
        report.target * 100.0,
        report.verdict.label(),
        m.n
    );
    write_matrix(&mut out, m);
    write_metrics(&mut out, m);
    for dim in &report.dimensions {
        let groups = groups_of(report, *dim);
        if groups.is_empty() {
            continue;
        }
        let _ = writeln!(out, "## By {}\n", dim.name());
        let _ = writeln!(
            out,
            "| {} | n | band acc. | cross-band | 95 % CI | missed | false alarm | exact | ±1 | MAE | QWK | verdict |",
            dim.name()
        );
        out.push_str("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---|\n");
        for (name, g) in groups {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                cell(name),
                g.n,
                pct(g.band_accuracy),
                pct(g.cross_band_rate),
                ci(g),
                g.missed,
                g.false_alarm,
                pct(g.exact),
                pct(g.within_one),
                num(g.mae),
                num(g.qwk),
                g.verdict.label()
            );
        }
        out.push('\n');
    }
    if !report.warnings.is_empty() {
        out.push_str("## Warnings\n\n");
        for w in &report.warnings {
            let _ = writeln!(out, "- {}", cell(w));
        }
        out.push('\n');
    }
    write_bad_lines(&mut out, report);
    out
}

fn write_matrix(out: &mut String, m: &GroupMetrics) {
    out.push_str("## Band matrix (rows expected, columns actual)\n\n");
    out.push_str(
        "| expected \\ actual | BAD (1–2) | MID (3) | GOOD (4–5) |\n|---|---:|---:|---:|\n",
    );
    for (name, row) in ["BAD (1–2)", "MID (3)", "GOOD (4–5)"]
        .iter()
        .zip(m.matrix.iter())
    {
        let total: u64 = row.iter().sum();
        let cells: Vec<String> = row
            .iter()
            .map(|c| {
                if total == 0 {
                    c.to_string()
                } else {
                    format!("{c} ({:.0} %)", *c as f64 * 100.0 / total as f64)
                }
            })
            .collect();
        let _ = writeln!(out, "| {name} | {} |", cells.join(" | "));
    }
    out.push_str("\nBAD→GOOD and GOOD→BAD are the cross-band cells.\n\n");
}

fn write_metrics(out: &mut String, m: &GroupMetrics) {
    let n = m.n;
    let rows = [
        ("Band accuracy", pct(m.band_accuracy)),
        (
            "Cross-band rate (BAD↔GOOD)",
            format!(
                "{}/{n} = {} {}",
                m.cross_band,
                pct(m.cross_band_rate),
                ci(m)
            ),
        ),
        ("Missed (BAD→GOOD)", m.missed.to_string()),
        ("False alarm (GOOD→BAD)", m.false_alarm.to_string()),
        ("Boundary deviations (touching MID)", m.boundary.to_string()),
        ("In-band deviations (1↔2, 4↔5)", m.in_band.to_string()),
        (
            "Exact match",
            format!("{}/{n} = {}", m.exact_count, pct(m.exact)),
        ),
        (
            "±1 match",
            format!("{}/{n} = {}", m.within_one_count, pct(m.within_one)),
        ),
        ("MAE (5-point score)", num(m.mae)),
        ("Quadratic weighted kappa (5-point score)", num(m.qwk)),
        ("Verdict", m.verdict.label().to_string()),
    ];
    out.push_str("## Metrics\n\n| metric | value |\n|---|---|\n");
    for (k, v) in rows {
        let _ = writeln!(out, "| {k} | {v} |");
    }
    out.push('\n');
}

fn write_bad_lines(out: &mut String, report: &BandReport) {
    if report.bad_line_count == 0 {
        return;
    }
    let _ = writeln!(out, "## Bad lines ({} skipped)\n", report.bad_line_count);
    for b in &report.bad_lines {
        let _ = writeln!(out, "- line {}: {}", b.line, cell(&b.reason.to_string()));
    }
    out.push('\n');
}

pub fn render_json(report: &BandReport) -> String {
    serde_json::to_string_pretty(report).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// One row per group (overall first), the band matrix flattened into nine columns.
pub fn render_csv(report: &BandReport) -> String {
    let mut out = String::from(
        "dimension,group,n,band_accuracy,cross_band,cross_band_rate,ci_low,ci_high,missed,false_alarm,\
boundary,in_band,exact,within_one,mae,qwk,verdict,\
bad_bad,bad_mid,bad_good,mid_bad,mid_mid,mid_good,good_bad,good_mid,good_good\n",
    );
    write_csv_row(&mut out, "overall", "all", &report.overall);
    for dim in &report.dimensions {
        for (name, g) in groups_of(report, *dim) {
            write_csv_row(&mut out, dim.name(), name, g);
        }
    }
    out
}

fn csv_field(s: &str) -> String {
    // Formula-looking cells are prefixed so a spreadsheet shows them as text.
    let s = if s.starts_with(['=', '+', '-', '@']) {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

fn opt(x: Option<f64>) -> String {
    x.map(|v| format!("{v:.6}")).unwrap_or_default()
}

fn write_csv_row(out: &mut String, dim: &str, name: &str, g: &GroupMetrics) {
    let [lo, hi] = g
        .cross_band_ci
        .map(|[a, b]| [Some(a), Some(b)])
        .unwrap_or([None, None]);
    let matrix: Vec<String> = g.matrix.iter().flatten().map(u64::to_string).collect();
    let _ = writeln!(
        out,
        "{dim},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
        csv_field(name),
        g.n,
        opt(g.band_accuracy),
        g.cross_band,
        opt(g.cross_band_rate),
        opt(lo),
        opt(hi),
        g.missed,
        g.false_alarm,
        g.boundary,
        g.in_band,
        opt(g.exact),
        opt(g.within_one),
        opt(g.mae),
        opt(g.qwk),
        g.verdict.label(),
        matrix.join(",")
    );
}
