//! `verifyfast prove` and `verifyfast replay` run as the binary.

use std::path::PathBuf;
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_verifyfast"))
}

fn temp_file(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("verifyfast-logic-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

const FIXTURE: &str = include_str!("fixtures/logic_dev_cases.jsonl");

#[test]
fn prove_writes_one_line_per_problem_and_reports_bad_lines() {
    let mut lines: Vec<&str> = FIXTURE.lines().take(3).collect();
    lines.insert(1, "{not json");
    let cases = temp_file("cases.jsonl", &lines.join("\n"));
    let out = bin().arg("prove").arg(&cases).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "bad line → exit 2");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let rows: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["id"], "forallx-solfol-034");
    assert_eq!(rows[0]["goal_proved"], true);
    assert_eq!(rows[0]["rejected_steps"], serde_json::json!([]));
    assert!(rows[0]["events"].as_u64().unwrap() >= 10);
    assert!(stderr.contains("line 2"), "{stderr}");
    assert!(stderr.contains("3 problems"), "{stderr}");
}

#[test]
fn prove_reports_rejected_steps_with_their_codes() {
    let line = FIXTURE
        .lines()
        .find(|l| l.contains("\"forallx-solfol-050--circular_goal\""))
        .unwrap();
    let cases = temp_file("circular.jsonl", line);
    let out = bin().arg("prove").arg(&cases).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let row: serde_json::Value =
        serde_json::from_str(String::from_utf8(out.stdout).unwrap().trim()).unwrap();
    assert_eq!(row["goal_proved"], false);
    assert_eq!(row["rejected_steps"], serde_json::json!([5]));
    assert_eq!(row["reasons"]["5"], "circular");
}

#[test]
fn replay_shows_the_state_at_a_step_and_the_chains() {
    let line = FIXTURE.lines().next().unwrap();
    let cases = temp_file("one.jsonl", line);
    let events = cases.with_file_name("one-events.jsonl");
    let out = bin()
        .arg("prove")
        .arg(&cases)
        .arg("--events-out")
        .arg(&events)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    // Turn the per-problem events line into an event log document.
    let row: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(&events).unwrap().trim()).unwrap();
    let case: serde_json::Value = serde_json::from_str(line).unwrap();
    let doc = serde_json::json!({
        "problem": {"id": case["id"], "hypotheses": case["hypotheses"], "goals": case["goals"],
                    "agents": case["agents"]},
        "events": row["events"],
    });
    let log = temp_file("log.json", &doc.to_string());

    let end = bin().arg("replay").arg(&log).output().unwrap();
    assert_eq!(end.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&end.stdout).unwrap();
    assert_eq!(report["goals"][0]["proved_by"], "C-005");
    let chain = report["chains"]["G-1"].as_array().unwrap();
    assert_eq!(chain.len(), 5);
    assert_eq!(chain[4]["rule"], "not_elim");

    let early = bin()
        .arg("replay")
        .arg(&log)
        .args(["--step", "2"])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&early.stdout).unwrap();
    assert_eq!(report["step"], 2);
    assert_eq!(report["accepted"].as_array().unwrap().len(), 1);
    assert!(report["chains"]["G-1"].is_null());

    let missing = bin()
        .arg("replay")
        .arg("/nonexistent/log.json")
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(3));
}
