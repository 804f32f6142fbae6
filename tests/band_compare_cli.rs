//! `verifyfast band A --compare B`: two runs compared case by case through the CLI, in every
//! format, with the paired test's figures checked against hand-computed values.

use std::path::PathBuf;
use std::process::Command;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("vf-band-compare-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn band(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_verifyfast"))
        .arg("band")
        .args(args)
        .output()
        .expect("run verifyfast");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn line(id: usize, expected: u8, score: u8, profile: &str) -> String {
    format!("{{\"id\":{id},\"expected_credit_score\":{expected},\"credit_score\":{score},\"profile\":\"{profile}\",\"context_input\":\"c\"}}\n")
}

/// 30 cases, all expected BAD (1). Run A: cases 0–9 judged GOOD (cross-band), the rest 1.
/// Run B: case 0 still GOOD (both), cases 1–9 fixed (A only = 9), case 10 newly GOOD
/// (B only = 1), case 11 moved 1 → 2 (regressed, same band). B also has case 99, A case 98.
/// McNemar b = 9, c = 1: p = 2·11/1024 = 0.021484.
fn two_runs(d: &std::path::Path) -> (String, String) {
    let mut a = String::new();
    let mut b = String::new();
    for i in 0..30 {
        a.push_str(&line(i, 1, if i < 10 { 5 } else { 1 }, "old"));
        let sb = match i {
            0 | 10 => 5,
            11 => 2,
            _ => 1,
        };
        b.push_str(&line(i, 1, sb, "new"));
    }
    a.push_str(&line(98, 1, 1, "old"));
    b.push_str(&line(99, 1, 1, "new"));
    let (pa, pb) = (d.join("a.jsonl"), d.join("b.jsonl"));
    std::fs::write(&pa, a).unwrap();
    std::fs::write(&pb, b).unwrap();
    (
        pa.to_string_lossy().into_owned(),
        pb.to_string_lossy().into_owned(),
    )
}

#[test]
fn json_has_the_paired_test_and_unmatched_ids() {
    let d = dir("json");
    let (a, b) = two_runs(&d);
    let (code, out, err) = band(&[&a, "--compare", &b, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["paired"], 30);
    assert_eq!(v["paired_by"], "id");
    assert_eq!(v["cross_band_a"], 10);
    assert_eq!(v["cross_band_b"], 2);
    assert_eq!(v["mcnemar"]["a_only"], 9);
    assert_eq!(v["mcnemar"]["b_only"], 1);
    let p = v["mcnemar"]["p_value"].as_f64().unwrap();
    assert!((p - 0.021_484_375).abs() < 1e-9, "{p}");
    let diff = v["difference"].as_f64().unwrap();
    assert!((diff - (-8.0 / 30.0)).abs() < 1e-12, "{diff}");
    let ci = v["difference_ci"].as_array().unwrap();
    let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
    assert!(
        lo < diff && diff < hi && hi < 0.0,
        "[{lo}, {hi}]: the drop is significant"
    );
    assert_eq!(v["only_in_a"], serde_json::json!(["98"]));
    assert_eq!(v["only_in_b"], serde_json::json!(["99"]));
    assert_eq!(v["cases"][0]["id"], "10", "the new cross-band case first");
    assert_eq!(v["cases"][0]["change"], "new_cross_band");
    assert_eq!(v["cases"][1]["change"], "fixed_cross_band");
    assert_eq!(v["cases"][10]["id"], "11");
    assert_eq!(v["cases"][10]["change"], "regressed");
    assert_eq!(
        (v["improved"].as_u64(), v["regressed"].as_u64()),
        (Some(9), Some(2))
    );
    assert!(err.contains("McNemar p = 0.0215"), "{err}");
}

#[test]
fn markdown_and_csv_exports() {
    let d = dir("md");
    let (a, b) = two_runs(&d);
    let (code, md, err) = band(&[&a, "--compare", &b]);
    assert_eq!(code, 0, "{err}");
    assert!(md.contains("30 cases paired by id"), "{md}");
    assert!(md.contains("two-sided p = 0.0215"), "{md}");
    // A difference of two rates is in percentage points (docs/band.md).
    assert!(md.contains("| 10 (33.3 %) | 2 (6.7 %) | -26.7 pt"), "{md}");
    assert!(md.contains("only in A (1): 98"), "{md}");
    assert!(md.contains("## Changed cases (11)"), "{md}");
    let (code, csv, _) = band(&[&a, "--compare", &b, "--format", "csv"]);
    assert_eq!(code, 0);
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(
        rows[0],
        "id,profile,expected,score_a,score_b,band_a,band_b,change"
    );
    assert_eq!(rows.len(), 31, "every paired case");
    assert_eq!(rows[1], "10,,1,1,5,BAD,GOOD,new cross-band");
}

#[test]
fn two_profiles_of_one_file_and_bad_lines() {
    let d = dir("profiles");
    let (a, b) = two_runs(&d);
    let both = d.join("both.jsonl");
    let mut text = std::fs::read_to_string(&a).unwrap() + &std::fs::read_to_string(&b).unwrap();
    text.push_str("{\"id\":5,\"expected_credit_score\":1,\"credit_score\":null,\"error\":\"could not audit\",\"profile\":\"new\"}\nnot json\n");
    std::fs::write(&both, text).unwrap();
    let both = both.to_string_lossy().into_owned();
    let (code, out, err) = band(&[
        &both,
        "--profile-a",
        "old",
        "--profile-b",
        "new",
        "--format",
        "json",
    ]);
    assert_eq!(code, 2, "bad lines give 2: {err}");
    assert!(err.contains("line 64: not a JSON object"), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["paired"], 30);
    assert_eq!(v["mcnemar"]["a_only"], 9);
    assert!(v["label_a"].as_str().unwrap().ends_with("· old"));
    // Without a selection, a file with two profiles pairs by (id, profile).
    let (_, out, _) = band(&[&both, "--compare", &both, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["paired_by"], "id+profile");
    assert_eq!(v["paired"], 62);
    assert_eq!(v["unchanged"], 62);
}

#[test]
fn usage_errors_exit_3() {
    let d = dir("usage");
    let (a, b) = two_runs(&d);
    let (code, _, err) = band(&[&a, "--profile-a", "old"]);
    assert_eq!(code, 3);
    assert!(err.contains("--profile-b"), "{err}");
    let (code, _, err) = band(&[&a, "--compare", &b, "--max-cross-band", "0.05"]);
    assert_eq!(code, 3);
    assert!(err.contains("does not combine"), "{err}");
    let missing = d.join("missing.jsonl");
    let (code, _, err) = band(&[&a, "--compare", &missing.to_string_lossy()]);
    assert_eq!(code, 3);
    assert!(err.contains("cannot open"), "{err}");
}
