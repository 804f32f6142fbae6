//! `verifyfast band` run as a binary: formats, stdin, exit codes of the gate.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_verifyfast");
const BASELINE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/band_baseline_v3.jsonl"
);
const BAD_LINES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/band_bad_lines.jsonl"
);

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("band")
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"))
}

fn run_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(BIN)
        .arg("band")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"));
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input.as_bytes());
    }
    child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("wait: {e}"))
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn markdown_report_without_gate_exits_0() {
    let o = run(&[BASELINE]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let md = stdout(&o);
    assert!(md.contains("**Verdict: not met**"));
    assert!(md.contains("## By tag"));
    assert!(md.contains("| multi_minor | 4 |"));
}

#[test]
fn gate_not_met_exits_1() {
    let o = run(&[BASELINE, "--max-cross-band", "0.05"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("gate not met"), "{}", stderr(&o));
}

#[test]
fn gate_met_with_a_looser_target_exits_0() {
    // 1/20 has a Wilson upper bound of 23.6 %: a 25 % target is shown met, 10 % is not shown.
    assert_eq!(
        run(&[BASELINE, "--max-cross-band", "0.25"]).status.code(),
        Some(0)
    );
    let o = run(&[BASELINE, "--max-cross-band", "0.10", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap_or_default();
    assert_eq!(json["verdict"], "not_shown");
    assert_eq!(json["target"], 0.10);
}

#[test]
fn json_and_csv_formats() {
    let o = run(&[BASELINE, "--format", "json", "--by", "tag"]);
    assert_eq!(o.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap_or_default();
    assert_eq!(json["overall"]["n"], 20);
    assert_eq!(
        json["overall"]["matrix"],
        serde_json::json!([[8, 0, 1], [0, 0, 4], [0, 1, 6]])
    );
    assert_eq!(json["profiles"], serde_json::json!({}));
    assert_eq!(json["tags"]["clean"]["n"], 3);
    let o = run(&[BASELINE, "--format", "csv", "--by", "difficulty"]);
    let csv = stdout(&o);
    assert!(csv.starts_with("dimension,group,n,"));
    assert_eq!(csv.lines().count(), 1 + 1 + 3, "{csv}");
    assert!(csv.lines().any(|l| l.starts_with("difficulty,hard,")));
}

#[test]
fn stdin_dash() {
    let input = std::fs::read_to_string(BASELINE).unwrap_or_default();
    let o = run_stdin(&["-", "--format", "json"], &input);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("\"cross_band\": 1"));
}

#[test]
fn bad_lines_exit_2_with_line_numbers() {
    let o = run(&[BAD_LINES]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("line 3: not JSON"), "{err}");
    assert!(
        err.contains("line 8: credit_score is 7, outside 1–5"),
        "{err}"
    );
    assert!(err.contains("9 bad line(s) skipped"), "{err}");
    assert!(stdout(&o).contains("## Bad lines (9 skipped)"));
}

#[test]
fn gate_failure_wins_over_bad_lines() {
    // The bad-lines file has 1 cross-band case out of 2.
    assert_eq!(
        run(&[BAD_LINES, "--max-cross-band", "0.05"]).status.code(),
        Some(1)
    );
}

#[test]
fn cases_only_file_points_to_the_batch_run() {
    let o = run_stdin(
        &["-"],
        "{\"id\":1,\"tag\":\"clean\",\"expected_credit_score\":5}\n{\"id\":2,\"tag\":\"sycophancy\",\"expected_credit_score\":1}\n",
    );
    assert_eq!(o.status.code(), Some(3));
    assert!(stderr(&o).contains("verifyfast batch"));
    assert!(stdout(&o).contains("No scores"));
    assert!(!stdout(&o).contains("Band matrix"));
}

#[test]
fn usage_errors_exit_3() {
    assert_eq!(run(&["/nonexistent/results.jsonl"]).status.code(), Some(3));
    assert_eq!(run(&[BASELINE, "--by", "colour"]).status.code(), Some(3));
    assert_eq!(
        run(&[BASELINE, "--max-cross-band", "5"]).status.code(),
        Some(3)
    );
    assert_eq!(run(&[BASELINE, "--format", "xml"]).status.code(), Some(3));
}
