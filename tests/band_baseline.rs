//! The seed's baseline table (seed 002, 基线测试结果 v3, kimi-full, n=20) checked metric by
//! metric through the library, the drill-down to case #13, and every bad-line kind read
//! from a file with a BOM, CRLF line ends, a blank line and no final newline.

use verifyfast::band::render::{self, By};
use verifyfast::band::{BandReport, Evaluator, Options, Verdict};

const BASELINE: &str = include_str!("fixtures/band_baseline_v3.jsonl");
const BAD_LINES: &[u8] = include_bytes!("fixtures/band_bad_lines.jsonl");

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() < 1e-9)
}

fn report_of_bytes(bytes: &[u8], chunk: usize, options: Options) -> BandReport {
    let mut ev = Evaluator::new(options);
    let mut splitter = verifyfast::jsonl::LineSplitter::default();
    let mut feed = |l: verifyfast::jsonl::Line| match l.text {
        Ok(t) => ev.push_line(l.number, l.offset, &t),
        Err(e) => ev.bad_line(l.number, e.to_string()),
    };
    for c in bytes.chunks(chunk) {
        splitter.push(c, &mut feed);
    }
    splitter.finish(&mut feed);
    ev.finish()
}

#[test]
fn baseline_v3_every_metric() {
    let r = BandReport::from_text(BASELINE, Options::default());
    let m = &r.overall;
    assert_eq!(m.n, 20);
    assert_eq!(m.matrix, [[8, 0, 1], [0, 0, 4], [0, 1, 6]]);
    assert!(close(m.band_accuracy, 0.70));
    assert_eq!(m.cross_band, 1);
    assert!(close(m.cross_band_rate, 0.05));
    assert_eq!((m.missed, m.false_alarm), (1, 0));
    // MID→GOOD ×4 and GOOD→MID ×1; in-band 1→2, 2→1, 5→4, 4→5.
    assert_eq!(m.boundary, 5);
    assert_eq!(m.in_band, 4);
    assert!(close(m.exact, 0.50));
    assert!(close(m.within_one, 0.90));
    assert!(close(m.mae, 12.0 / 20.0));
    // Hand-computed on the 5-point table: observed Σw·O = 16/16, chance Σw·r·c/n = 86.8/16,
    // kappa = 1 − 16/86.8 = 177/217.
    assert!(close(m.qwk, 177.0 / 217.0), "{:?}", m.qwk);
    let [lo, hi] = m.cross_band_ci.unwrap_or_default();
    assert!(
        (lo - 0.00889).abs() < 5e-5 && (hi - 0.23613).abs() < 5e-5,
        "{lo} {hi}"
    );
    // 5 % is not below the 5 % target.
    assert_eq!(m.verdict, Verdict::NotMet);
    assert_eq!(r.bad_line_count, 0);
}

#[test]
fn baseline_verdict_moves_with_the_target() {
    let at = |t: f64| {
        let o = Options {
            max_cross_band: t,
            ..Options::default()
        };
        BandReport::from_text(BASELINE, o).overall.verdict
    };
    assert_eq!(at(0.05), Verdict::NotMet);
    // Point estimate 5 % is below 10 %, but the upper bound 23.6 % is not.
    assert_eq!(at(0.10), Verdict::NotShown);
    assert_eq!(at(0.25), Verdict::Met);
}

#[test]
fn baseline_drill_down_finds_case_13() {
    let r = BandReport::from_text(BASELINE, Options::default());
    let cross: Vec<_> = r.cases_in_cell(0, 2).collect();
    assert_eq!(cross.len(), 1);
    let c = cross[0];
    assert_eq!(c.id.as_deref(), Some("13"));
    assert_eq!(r.name(c.tag), Some("major_factual"));
    assert_eq!((c.expected, c.actual, c.line), (2, 4, 13));
    // The offset and length give back exactly the line, for the page's File.slice.
    let start = c.offset as usize;
    let text = BASELINE.get(start..start + c.len as usize).unwrap_or("");
    assert_eq!(Some(text), BASELINE.lines().nth(12));
    let mid_good: Vec<_> = r.cases_in_cell(1, 2).filter_map(|c| c.id.clone()).collect();
    assert_eq!(mid_good, ["9", "10", "11", "12"]);
    assert_eq!(r.cases_in_cell(2, 0).count(), 0);
}

#[test]
fn baseline_groups_and_warnings() {
    let r = BandReport::from_text(BASELINE, Options::default());
    assert_eq!(r.profiles.keys().collect::<Vec<_>>(), ["kimi-full"]);
    assert_eq!(r.profiles["kimi-full"], r.overall);
    let mm = &r.tags["multi_minor"];
    assert_eq!((mm.n, mm.matrix[1][2]), (4, 4));
    assert!(close(mm.exact, 0.0));
    assert_eq!(r.tags["major_factual"].missed, 1);
    assert_eq!(r.difficulties.values().map(|g| g.n).sum::<u64>(), 20);
    // 9/20 expected BAD is above the recommended 30–40 %; every tag agrees with the table.
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    assert!(
        r.warnings[0].contains("BAD cases are 45 %"),
        "{:?}",
        r.warnings
    );
}

#[test]
fn baseline_chunking_does_not_change_the_report() {
    let whole = BandReport::from_text(BASELINE, Options::default());
    for chunk in [1, 3, 64, 4096] {
        let r = report_of_bytes(BASELINE.as_bytes(), chunk, Options::default());
        assert_eq!(r, whole, "chunk {chunk}");
    }
}

#[test]
fn baseline_renderers_agree() {
    let r = BandReport::from_text(BASELINE, Options::default());
    let md = render::markdown(&r, By::default());
    assert!(md.contains("**not met**"));
    assert!(md.contains("| multi_minor | 4 |"), "{md}");
    let json: serde_json::Value =
        serde_json::from_str(&render::json(&r, By::default())).unwrap_or_default();
    assert_eq!(
        json["overall"]["qwk"].as_f64().map(|q| (q * 1e6).round()),
        Some(815668.0)
    );
    assert_eq!(json["tags"]["major_factual"]["missed"], 1);
    let csv = render::csv(&r, By::default());
    assert_eq!(csv.lines().count(), 1 + 1 + 1 + 11 + 3, "{csv}");
}

#[test]
fn every_bad_line_kind_from_a_file() {
    for chunk in [1, 5, 1 << 16] {
        let r = report_of_bytes(BAD_LINES, chunk, Options::default());
        let got: Vec<(usize, &str)> = r
            .bad_lines
            .iter()
            .map(|b| (b.line, b.reason.as_str()))
            .collect();
        let want: [(usize, &str); 9] = [
            (3, "not a JSON object"),
            (4, "not a JSON object"),
            (5, "missing expected_credit_score"),
            (6, "missing credit_score"),
            (7, "not audited"),
            (8, "credit_score 7 is outside 1–5"),
            (9, "credit_score 2.5 is not an integer"),
            (10, "expected_credit_score \"high\" is not an integer"),
            (11, "not valid UTF-8"),
        ];
        assert_eq!(got.len(), want.len(), "{got:?}");
        for ((line, reason), (want_line, want_reason)) in got.iter().zip(want) {
            assert_eq!(*line, want_line);
            assert!(reason.contains(want_reason), "line {line}: {reason}");
        }
        assert_eq!(r.bad_line_count, 9);
        // Line 1 (after the BOM) and line 12 (no final newline) are counted.
        assert_eq!(r.overall.n, 2);
        assert_eq!(r.unscored, 1);
        assert_eq!(r.overall.missed, 1);
        assert!(!r.cases_only);
    }
}

#[test]
fn overlong_line_is_reported_and_skipped() {
    let text = format!(
        "{{\"expected_credit_score\":5,\"credit_score\":5,\"context_input\":\"{}\"}}\n{{\"expected_credit_score\":5,\"credit_score\":4}}\n",
        "长".repeat(100)
    );
    let mut ev = Evaluator::new(Options::default());
    let mut splitter = verifyfast::jsonl::LineSplitter::with_max_line_bytes(100);
    let mut feed = |l: verifyfast::jsonl::Line| match l.text {
        Ok(t) => ev.push_line(l.number, l.offset, &t),
        Err(e) => ev.bad_line(l.number, e.to_string()),
    };
    splitter.push(text.as_bytes(), &mut feed);
    splitter.finish(&mut feed);
    let r = ev.finish();
    assert_eq!(r.bad_lines.len(), 1);
    assert_eq!(r.bad_lines[0].line, 1);
    assert!(r.bad_lines[0].reason.contains("longer than 100 bytes"));
    assert_eq!(r.overall.n, 1);
}

#[test]
fn group_names_are_capped() {
    let text: String = (0..50)
        .map(|i| format!("{{\"expected_credit_score\":5,\"credit_score\":5,\"tag\":\"t{i}\"}}\n"))
        .collect();
    let o = Options {
        max_group_names: 10,
        ..Options::default()
    };
    let r = BandReport::from_text(&text, o);
    assert_eq!(r.tags.len(), 11);
    assert_eq!(r.tags[verifyfast::band::evaluate::OTHER_GROUP].n, 40);
    assert_eq!(r.overall.n, 50);
    assert!(
        r.warnings.iter().any(|w| w.contains("distinct")),
        "{:?}",
        r.warnings
    );
}

#[test]
fn drill_down_index_is_capped_and_says_so() {
    let text = "{\"expected_credit_score\":1,\"credit_score\":5}\n".repeat(30);
    let o = Options {
        max_case_refs: 7,
        ..Options::default()
    };
    let r = BandReport::from_text(&text, o);
    assert_eq!(r.overall.missed, 30);
    assert_eq!(r.cases_in_cell(0, 2).count(), 7);
    assert!(
        r.warnings.iter().any(|w| w.contains("first 7 of 30")),
        "{:?}",
        r.warnings
    );
}

#[test]
fn zero_errors_need_73_cases_to_show_below_5_percent() {
    let clean = |n: usize| "{\"expected_credit_score\":5,\"credit_score\":5}\n".repeat(n);
    let v = |n| {
        BandReport::from_text(&clean(n), Options::default())
            .overall
            .verdict
    };
    assert_eq!(v(20), Verdict::NotShown);
    assert_eq!(v(72), Verdict::NotShown);
    assert_eq!(v(73), Verdict::Met);
}
