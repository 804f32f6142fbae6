//! The seed's baseline table (seed 002, 基线测试结果 v3, kimi-full, n=20) reproduced from
//! a constructed results fixture, and every bad-line kind read from a file.

use verifyfast::band::{
    evaluate_str, render_csv, render_json, render_markdown, Band, BandOptions, Verdict,
};

const BASELINE: &str = include_str!("fixtures/band_baseline_v3.jsonl");
const BAD_LINES: &[u8] = include_bytes!("fixtures/band_bad_lines.jsonl");

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() < 1e-9)
}

#[test]
fn baseline_v3_table() {
    let r = evaluate_str(BASELINE, BandOptions::default());
    let m = &r.overall;
    assert_eq!(m.n, 20);
    assert_eq!(m.matrix, [[8, 0, 1], [0, 0, 4], [0, 1, 6]]);
    assert!(close(m.band_accuracy, 0.70));
    assert_eq!(m.cross_band, 1);
    assert!(close(m.cross_band_rate, 0.05));
    assert_eq!((m.missed, m.false_alarm), (1, 0));
    assert_eq!(m.boundary, 5);
    assert_eq!(m.in_band, 4);
    assert_eq!(m.exact_count, 10);
    assert!(close(m.exact, 0.50));
    assert_eq!(m.within_one_count, 18);
    assert!(close(m.within_one, 0.90));
    assert!(close(m.mae, 0.6));
    // Hand-computed on the 5-point table: 1 − 16 / 86.8 = 177/217.
    assert!(close(m.qwk, 177.0 / 217.0));
    let [lo, hi] = m.cross_band_ci.unwrap_or_default();
    assert!(
        (lo - 0.00889).abs() < 1e-4 && (hi - 0.2361).abs() < 1e-4,
        "{lo} {hi}"
    );
    // 5 % is not below the 5 % target.
    assert_eq!(r.verdict, Verdict::NotMet);
    assert!(r.bad_lines.is_empty());
}

#[test]
fn baseline_cross_band_case_is_13_major_factual() {
    let r = evaluate_str(BASELINE, BandOptions::default());
    let cases = r.cell_cases(Band::Bad, Band::Good);
    assert_eq!(cases.len(), 1);
    let c = &cases[0];
    assert_eq!(c.id.as_deref(), Some("13"));
    assert_eq!(c.tag.as_deref(), Some("major_factual"));
    assert_eq!((c.expected, c.actual, c.line), (2, 4, 13));
    let mid_to_good: Vec<_> = r
        .cell_cases(Band::Mid, Band::Good)
        .iter()
        .filter_map(|c| c.id.clone())
        .collect();
    assert_eq!(mid_to_good, ["9", "10", "11", "12"]);
}

#[test]
fn baseline_groups_and_warnings() {
    let r = evaluate_str(BASELINE, BandOptions::default());
    assert_eq!(r.profiles.keys().collect::<Vec<_>>(), ["kimi-full"]);
    assert_eq!(r.profiles["kimi-full"], r.overall);
    let mm = &r.tags["multi_minor"];
    assert_eq!((mm.n, mm.matrix[1][2], mm.exact_count), (4, 4, 0));
    assert_eq!(r.tags["major_factual"].missed, 1);
    let n: u64 = r.difficulties.values().map(|g| g.n).sum();
    assert_eq!(n, 20);
    // 9/20 expected BAD is above the recommended 30–40 %; the tags all agree with the table.
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    assert!(r.warnings[0].contains("BAD is 45.0 %"), "{:?}", r.warnings);
}

#[test]
fn baseline_renderers() {
    let r = evaluate_str(BASELINE, BandOptions::default());
    let md = render_markdown(&r);
    assert!(md.contains("**Verdict: not met**"));
    assert!(
        md.contains("| BAD (1–2) | 8 (89 %) | 0 (0 %) | 1 (11 %) |"),
        "{md}"
    );
    assert!(md.contains("1/20 = 5.0 % [0.9 %, 23.6 %]"), "{md}");
    let json: serde_json::Value = serde_json::from_str(&render_json(&r)).unwrap_or_default();
    for key in ["overall", "profiles", "tags", "difficulties", "bad_lines"] {
        assert!(json.get(key).is_some(), "missing {key}");
    }
    let o = &json["overall"];
    for key in [
        "n",
        "matrix",
        "band_accuracy",
        "cross_band_rate",
        "cross_band_ci",
        "exact",
        "within_one",
        "mae",
        "qwk",
    ] {
        assert!(o.get(key).is_some(), "missing overall.{key}");
    }
    assert_eq!(
        o["matrix"],
        serde_json::json!([[8, 0, 1], [0, 0, 4], [0, 1, 6]])
    );
    assert_eq!(json["tags"]["major_factual"]["n"], 2);
    let csv = render_csv(&r);
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[1].starts_with("overall,all,20,0.700000,1,0.050000,0.0088"));
    assert!(lines[1].ends_with("8,0,1,0,0,4,0,1,6"));
    assert!(lines.iter().any(|l| l.starts_with("tag,multi_minor,4,")));
}

#[test]
fn every_bad_line_kind_from_a_file() {
    let mut ev = verifyfast::band::BandEvaluator::new(BandOptions::default());
    for chunk in BAD_LINES.chunks(5) {
        ev.push_bytes(chunk);
    }
    let r = ev.finish();
    let got: Vec<(usize, &str)> = r
        .bad_lines
        .iter()
        .map(|b| (b.line, b.reason.kind()))
        .collect();
    assert_eq!(
        got,
        [
            (3, "not_json"),
            (4, "not_an_object"),
            (5, "missing_expected"),
            (6, "missing_credit_score"),
            (7, "not_audited"),
            (8, "out_of_range"),
            (9, "not_integer"),
            (10, "not_integer"),
            (11, "not_utf8"),
        ]
    );
    assert_eq!(r.bad_line_count, 9);
    assert_eq!(r.overall.n, 2);
    assert_eq!(r.overall.false_alarm, 0);
    assert_eq!(r.overall.cross_band, 1);
    assert!(!r.cases_only);
    assert!(r.bad_lines[4].reason.to_string().contains("HTTP 500"));
}

#[test]
fn overlong_line_is_a_bad_line() {
    let mut ev = verifyfast::band::BandEvaluator::new(BandOptions::default());
    let mut splitter = verifyfast::jsonl::LineSplitter::with_max_line_bytes(100);
    let text = format!(
        "{{\"expected_credit_score\":5,\"credit_score\":5,\"context_input\":\"{}\"}}\n{{\"expected_credit_score\":5,\"credit_score\":5}}\n",
        "长".repeat(100)
    );
    splitter.push(text.as_bytes(), &mut |l| ev.push_line(l));
    splitter.finish(&mut |l| ev.push_line(l));
    let r = ev.finish();
    assert_eq!(r.bad_lines.len(), 1);
    assert_eq!(
        (r.bad_lines[0].line, r.bad_lines[0].reason.kind()),
        (1, "too_long")
    );
    assert_eq!(r.overall.n, 1);
}
