//! `verifyfast audit` / `verifyfast batch` argument and input handling that needs no LLM:
//! bad settings, unknown profiles, missing key variables all stop with exit code 3 and a
//! message naming the problem.

use std::path::PathBuf;
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_verifyfast"))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vf-audit-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("public/examples")
}

#[test]
fn wrong_type_in_settings_names_the_key_path() {
    let dir = temp_dir("badsettings");
    let settings = dir.join("settings.yaml");
    std::fs::write(
        &settings,
        "llms:\n  a:\n    base_url: http://x\n    model: [1]\n",
    )
    .unwrap();
    let out = bin()
        .args(["batch", "cases.jsonl", "--settings"])
        .arg(&settings)
        .args(["-o"])
        .arg(dir.join("r.jsonl"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("llms.a.model: expected a string, found a list"),
        "{err}"
    );
}

#[test]
fn unknown_profile_lists_the_known_ones() {
    let dir = temp_dir("profile");
    std::fs::write(dir.join("c.txt"), "ctx").unwrap();
    let out = bin()
        .args(["audit", "--profile", "nope", "--settings"])
        .arg(examples().join("settings.yaml"))
        .arg("--context")
        .arg(dir.join("c.txt"))
        .arg("--output")
        .arg(dir.join("c.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no profile named `nope`"), "{err}");
    assert!(err.contains("cross-verify, local-full"), "{err}");
}

#[test]
fn unset_api_key_variable_is_reported_before_any_call() {
    let dir = temp_dir("keyenv");
    let out = bin()
        .args(["batch"])
        .arg(examples().join("cases.jsonl"))
        .arg("--settings")
        .arg(examples().join("settings.yaml"))
        .args(["--profiles", "cross-verify", "-o"])
        .arg(dir.join("r.jsonl"))
        .env_remove("VLLM_API_KEY")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("VLLM_API_KEY"), "{err}");
    assert!(!dir.join("r.jsonl").exists(), "nothing written");
}

#[test]
fn invalid_strategy_is_refused() {
    let dir = temp_dir("strategy");
    let strategy = dir.join("strategy.json");
    std::fs::write(&strategy, r#"{"defaults":{"params":{"max_claims":0}}}"#).unwrap();
    let out = bin()
        .args(["batch"])
        .arg(examples().join("cases.jsonl"))
        .arg("--settings")
        .arg(examples().join("settings.yaml"))
        .arg("--strategy")
        .arg(&strategy)
        .args(["--profiles", "local-full", "-o"])
        .arg(dir.join("r.jsonl"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("defaults.params.max_claims: must be at least 1"),
        "{err}"
    );
}

/// `verifyfast check`: the rules alone, no settings and no model; exit 5 when a finding counts,
/// 0 when none, one JSON line per case with `--batch` and each finding on stderr.
#[test]
fn check_needs_no_model_and_gates_on_counted_findings() {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_verifyfast"))
            .arg("check")
            .args(args)
            .output()
            .unwrap()
    };
    let flipped = run(&[
        "--context",
        "Exports fell 12% in March.",
        "--output",
        "Exports rose 12% in March.",
    ]);
    assert_eq!(flipped.status.code(), Some(5), "{flipped:?}");
    let stderr = String::from_utf8_lossy(&flipped.stderr);
    assert!(stderr.contains("deterministic finding"), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&flipped.stdout).unwrap();
    assert_eq!(report["deterministic_findings"][0]["check"], "direction");
    let clean = run(&[
        "--context",
        "Exports fell 12%.",
        "--output",
        "Exports fell 12%.",
    ]);
    assert_eq!(clean.status.code(), Some(0), "{clean:?}");
    let d = std::env::temp_dir().join(format!("vf-check-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let cases = d.join("cases.jsonl");
    std::fs::write(
        &cases,
        "{\"id\":1,\"context_input\":\"Sales rose 5%.\",\"model_output\":\"Sales rose 5%.\"}\n\
{\"id\":2,\"context_input\":\"Sales rose 5%.\",\"model_output\":\"Sales fell 5%.\"}\n",
    )
    .unwrap();
    let batch = run(&["--batch", cases.to_str().unwrap()]);
    assert_eq!(batch.status.code(), Some(5), "{batch:?}");
    assert_eq!(String::from_utf8_lossy(&batch.stdout).lines().count(), 2);
    assert!(String::from_utf8_lossy(&batch.stderr).contains("id 2: deterministic finding"));
    let _ = std::fs::remove_dir_all(&d);
}
