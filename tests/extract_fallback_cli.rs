//! `verifyfast extract --llm-fallback`: the verify model is asked only when the rules are
//! not confident, its reply is normalised by the extractor, and a confident text never
//! reaches the model. Real HTTP against tests/mock_llm/server.mjs.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

#[test]
fn asks_the_model_only_for_low_confidence_texts() {
    // The model answers `{"final_answer": "3"}` between the call's answer lines (the mock's
    // default without JSON mode).
    let script = r#"{"default_reply": {"final_answer": "3"}}"#;
    let mut server = Command::new("node")
        .args([
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mock_llm/server.mjs"),
            "--port",
            "0",
            "--script-json",
            script,
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node runs the mock server");
    let mut first = String::new();
    BufReader::new(server.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("LISTENING line");
    let port = first
        .trim()
        .strip_prefix("LISTENING ")
        .expect("LISTENING <port>")
        .to_string();
    let dir = std::env::temp_dir().join(format!("vf-fallback-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let settings = dir.join("settings.yaml");
    std::fs::write(
        &settings,
        format!("llms:\n  mock:\n    base_url: \"http://127.0.0.1:{port}/v1\"\n    model: m\nprofiles:\n  p:\n    run: mock\n    verify: mock\n"),
    )
    .expect("write settings");

    let mut cli = Command::new(env!("CARGO_BIN_EXE_verifyfast"))
        .args(["extract", "--llm-fallback", "--settings"])
        .arg(&settings)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn verifyfast");
    let input = "{\"id\": 1, \"text\": \"\\\\boxed{5}\\nThe answer is 3\"}\n\
                 {\"id\": 2, \"text\": \"So the final answer is \\\\boxed{42}.\"}\n";
    cli.stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let out = cli.wait_with_output().expect("wait");
    let _ = server.kill();
    let _ = server.wait();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(lines.len(), 2, "{stdout}\n{stderr}");
    assert_eq!(
        (&lines[0]["answer"], &lines[0]["method"]),
        (&serde_json::json!("3"), &serde_json::json!("fallback")),
        "low confidence → the model's answer, one the text states: {stdout}\n{stderr}"
    );
    assert_eq!(lines[1]["answer"], "42");
    assert!(
        stderr.contains("asked 1 time"),
        "only the unsure text went to the model: {stderr}"
    );
}
