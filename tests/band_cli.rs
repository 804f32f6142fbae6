//! `verifyfast band`: the seed's baseline reproduced end to end, the gate, bad lines.

use std::io::Write;
use std::process::{Command, Stdio};

const BASELINE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/band_baseline_v3.jsonl"
);

fn band(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_verifyfast"))
        .arg("band")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn verifyfast");
    if let Some(input) = stdin {
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("write stdin");
    } else {
        drop(child.stdin.take());
    }
    let out = child.wait_with_output().expect("wait");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn baseline_table_reproduced_in_json() {
    let (code, out, err) = band(&[BASELINE, "--format", "json"], None);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json report");
    let o = &v["overall"];
    assert_eq!(o["n"], 20);
    assert_eq!(
        o["matrix"],
        serde_json::json!([[8, 0, 1], [0, 0, 4], [0, 1, 6]])
    );
    assert_eq!(o["band_accuracy"], 0.7);
    assert_eq!(o["cross_band_rate"], 0.05);
    assert_eq!(o["exact"], 0.5);
    assert_eq!(o["within_one"], 0.9);
    let ci = o["cross_band_ci"].as_array().expect("ci");
    assert!((ci[0].as_f64().unwrap_or(0.0) - 0.0089).abs() < 1e-4);
    assert!((ci[1].as_f64().unwrap_or(0.0) - 0.2361).abs() < 1e-4);
    assert_eq!(o["verdict"], "not_met");
    assert_eq!(v["profiles"]["kimi-full"]["n"], 20);
    assert_eq!(
        v["tags"]["multi_minor"]["matrix"],
        serde_json::json!([[0, 0, 0], [0, 0, 4], [0, 0, 0]])
    );
    for key in ["overall", "profiles", "tags", "difficulties", "bad_lines"] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert!(o.get("mae").is_some() && o.get("qwk").is_some());
}

#[test]
fn markdown_names_the_verdict_and_the_cross_band_cell() {
    let (code, out, _) = band(&[BASELINE], None);
    assert_eq!(code, 0);
    assert!(
        out.contains("Cross-band confusion rate: **5.0 %** [0.9 %, 23.6 %]"),
        "{out}"
    );
    assert!(out.contains("**not met**"), "{out}");
    assert!(out.contains("| BAD (1–2) | 8 | 0 | **1** ⚠ |"), "{out}");
}

#[test]
fn gate_fails_when_target_not_met_and_passes_when_loose() {
    let (code, _, err) = band(&[BASELINE, "--max-cross-band", "0.05"], None);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not met"), "{err}");
    let (code, _, err) = band(&[BASELINE, "--max-cross-band", "0.5"], None);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn bad_lines_are_listed_and_the_rest_counted() {
    let input = "{\"expected_credit_score\":5,\"credit_score\":5}\nnot json\n{\"expected_credit_score\":9,\"credit_score\":5}\n{\"expected_credit_score\":4,\"credit_score\":4}\n";
    let (code, out, err) = band(&["-", "--format", "json"], Some(input));
    assert_eq!(code, 2, "bad lines give exit 2: {err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["overall"]["n"], 2);
    assert_eq!(v["bad_lines"][0]["line"], 2);
    assert_eq!(v["bad_lines"][1]["line"], 3);
    assert!(err.contains("line 3"), "{err}");
}

#[test]
fn csv_and_group_selection() {
    let (code, out, _) = band(&[BASELINE, "--format", "csv", "--by", "profile"], None);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("group_kind,group,n,"));
    assert!(lines[1].starts_with("overall,overall,20,0.700000,0.050000,"));
    assert!(lines[2].starts_with("profile,kimi-full,20,"));
    assert_eq!(lines.len(), 3, "only profiles were asked for: {out}");
}

#[test]
fn cases_file_points_to_the_batch_run() {
    let (code, out, _) = band(&["-"], Some("{\"expected_credit_score\":3}\n"));
    assert_eq!(code, 0);
    assert!(out.contains("Run a batch audit first"), "{out}");
}

#[test]
fn missing_file_is_a_usage_error() {
    let (code, _, err) = band(&["/nonexistent/results.jsonl"], None);
    assert_eq!(code, 3);
    assert!(err.contains("/nonexistent/results.jsonl"));
}
