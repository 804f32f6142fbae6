//! Redaction and retry safety, end to end through the CLI against the project's scripted
//! server (tests/mock_llm/server.mjs, needs `node`):
//! - a reply cut off by `max_tokens` is re-asked once with twice the budget and never
//!   becomes a score;
//! - no API key of the settings reaches any output (report JSON, results JSONL, stderr)
//!   by any of the paths a fault campaign found.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{json, Value};

const KEY: &str = "sk-safety-0123456789abcdef";
const OTHER: &str = "sk-other-llm-9876543210";

mod common;
use common::{start_mock_llm, MockLlm as Node};

fn start(script: &Value) -> Node {
    start_mock_llm(script, &[])
}

impl Node {
    fn log(&self) -> Vec<Value> {
        let url = format!("{}/__log", self.1.trim_end_matches("/v1"));
        let body = ureq::get(&url).call().unwrap().into_string().unwrap();
        let v: Value = serde_json::from_str(&body).unwrap();
        v["requests"].as_array().cloned().unwrap_or_default()
    }
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("vf-safety-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Settings with the LLM under test (key `key`, base URL `base_url`) and a second LLM whose
/// key must not leak either.
fn settings(d: &Path, base_url: &str, key: &str) -> PathBuf {
    let path = d.join("settings.json");
    let doc = json!({
        "llms": {
            "m": {"base_url": base_url, "model": "mock-model", "api_key": key},
            "other": {"base_url": "http://127.0.0.1:9/v1", "model": "x", "api_key": OTHER}
        },
        "profiles": {"p": {"run": "m", "verify": "m"}}
    });
    std::fs::write(&path, doc.to_string()).unwrap();
    path
}

fn audit(d: &Path, settings: &Path) -> (Output, String) {
    std::fs::write(d.join("ctx.txt"), "Revenue rose 12% in 2023.").unwrap();
    std::fs::write(d.join("out.txt"), "Revenue rose 12%, so profit rose.").unwrap();
    let report = d.join("report.json");
    let out = Command::new(env!("CARGO_BIN_EXE_verifyfast"))
        .args(["audit", "--profile", "p", "--timeout-s", "10"])
        .arg("--context")
        .arg(d.join("ctx.txt"))
        .arg("--output")
        .arg(d.join("out.txt"))
        .arg("--settings")
        .arg(settings)
        .arg("--report")
        .arg(&report)
        .output()
        .unwrap();
    let report = std::fs::read_to_string(&report).unwrap_or_default();
    (out, report)
}

fn batch(d: &Path, settings: &Path) -> (Output, String) {
    let cases: String = (0..3)
        .map(|i| format!("{{\"id\":{i},\"context_input\":\"c{i}\",\"model_output\":\"o{i}\"}}\n"))
        .collect();
    std::fs::write(d.join("cases.jsonl"), cases).unwrap();
    let results = d.join("results.jsonl");
    let out = Command::new(env!("CARGO_BIN_EXE_verifyfast"))
        .arg("batch")
        .arg(d.join("cases.jsonl"))
        .arg("--settings")
        .arg(settings)
        .args([
            "--profiles",
            "p",
            "--concurrency",
            "2",
            "--timeout-s",
            "10",
            "-o",
        ])
        .arg(&results)
        .output()
        .unwrap();
    (out, std::fs::read_to_string(&results).unwrap_or_default())
}

/// No secret, nor its first 8 characters, in any of `outputs`.
fn assert_no_secret(what: &str, outputs: &[(&str, &str)], secrets: &[&str]) {
    for (name, text) in outputs {
        for s in secrets {
            let head = &s[..s.len().min(8)];
            assert!(
                !text.contains(s) && !text.contains(head),
                "{what}: `{head}…` found in {name}:\n{text}"
            );
        }
    }
}

/// Runs `audit` and `batch` against `script` and checks every output for the keys.
fn no_leak(
    what: &str,
    script: Value,
    base_url: impl Fn(&str) -> String,
    secrets: &[&str],
) -> (String, String) {
    let node = start(&script);
    let d = dir(what);
    let s = settings(&d, &base_url(&node.1), KEY);
    let (a, report) = audit(&d, &s);
    let (b, results) = batch(&d, &s);
    let a_err = String::from_utf8_lossy(&a.stderr).to_string();
    let b_err = String::from_utf8_lossy(&b.stderr).to_string();
    let a_out = String::from_utf8_lossy(&a.stdout).to_string();
    assert!(
        !report.is_empty() && !results.is_empty(),
        "{what}: {a_err}\n{b_err}"
    );
    assert_no_secret(
        what,
        &[
            ("report JSON", &report),
            ("audit stdout", &a_out),
            ("audit stderr", &a_err),
            ("results JSONL", &results),
            ("batch stderr", &b_err),
        ],
        secrets,
    );
    (report, results)
}

#[test]
fn a_200_non_json_body_echoing_the_authorization_header_never_leaks() {
    let (report, results) = no_leak(
        "echo",
        json!({"rules": [{"match_any": "Do not judge correctness", "fault": "echo_auth"}]}),
        str::to_string,
        &[KEY, OTHER],
    );
    assert!(report.contains("[api key]"), "{report}");
    assert!(results.contains("could not audit"), "{results}");
}

#[test]
fn a_key_split_by_the_300_character_cut_of_an_error_body_never_leaks() {
    // Cut at 300 characters: 290 of padding leave the first 10 characters of the key.
    for pad in [290, 296] {
        let body = format!("{}Bearer {KEY} rejected", "x".repeat(pad - 7));
        let (report, results) = no_leak(
            &format!("cut{pad}"),
            json!({"rules": [{"match_any": "Do not judge correctness", "fault": {"kind": "400", "body": body}}]}),
            str::to_string,
            &[KEY],
        );
        // Even the 4 characters a cut at 296 leaves are gone.
        for text in [&report, &results] {
            assert!(!text.contains(&format!("Bearer {}", &KEY[..4])), "{text}");
            assert!(text.contains("Bearer [api key]"), "{text}");
        }
    }
}

#[test]
fn a_model_reply_echoing_the_key_never_leaks() {
    let reply = json!({"claims": [{"id": "C1", "text": format!("the key is {KEY} or {OTHER}")}], "deductions": []});
    let (report, _) = no_leak(
        "reply",
        json!({"default_reply": {"factual_errors": [], "logic_errors": []},
               "rules": [{"match_any": "Do not judge correctness", "reply": reply}]}),
        str::to_string,
        &[KEY, OTHER],
    );
    let v: Value = serde_json::from_str(&report).unwrap();
    assert_eq!(v["credit_score"], 5, "{report}");
    // The claim is not a statement of model_output, so the audit drops it (its bookkeeping
    // check, docs/audit.md); wherever it is listed, its text is redacted.
    let listed = v["claims"]
        .get(0)
        .or_else(|| v["dropped"].get(0))
        .and_then(|c| c["text"].as_str())
        .unwrap_or_default();
    assert!(listed.contains("[api key]"), "{report}");
}

#[test]
fn credentials_in_the_base_url_are_refused_and_never_written() {
    // A server that echoes the Authorization header: had the userinfo been sent, its Basic
    // form would come back in the body.
    let node = start(
        &json!({"rules": [{"match_any": "Do not judge correctness", "fault": "echo_auth"}],
                "default_reply": {"claims": [], "deductions": [], "factual_errors": [], "logic_errors": []}}),
    );
    let d = dir("userinfo");
    let base = node.1.replace("http://", "http://admin:s3cr3t-pass@");
    let s = settings(&d, &base, KEY);
    let (a, report) = audit(&d, &s);
    let (b, results) = batch(&d, &s);
    let a_err = String::from_utf8_lossy(&a.stderr).to_string();
    let b_err = String::from_utf8_lossy(&b.stderr).to_string();
    for (name, out, err) in [("audit", &a, &a_err), ("batch", &b, &b_err)] {
        assert_ne!(out.status.code(), Some(0), "{name}: {err}");
        assert!(
            err.contains("base_url") && err.contains("api_key / api_key_env"),
            "{name}: {err}"
        );
    }
    // `admin:s3cr3t-pass` as HTTP Basic authentication would send it.
    let basic = "YWRtaW46czNjcjN0LXBhc3M=";
    assert_no_secret(
        "userinfo",
        &[
            ("report JSON", &report),
            ("audit stdout", &String::from_utf8_lossy(&a.stdout)),
            ("audit stderr", &a_err),
            ("results JSONL", &results),
            ("batch stdout", &String::from_utf8_lossy(&b.stdout)),
            ("batch stderr", &b_err),
        ],
        &[KEY, OTHER, "s3cr3t-pass", "admin:s3cr3t", basic],
    );
    // Refused when the settings are read: nothing was sent.
    assert!(node.log().is_empty(), "{:?}", node.log());
}

#[test]
fn keys_with_line_breaks_or_non_ascii_are_refused_without_being_echoed() {
    let node = start(&json!({}));
    for (i, key) in [
        format!("{KEY}\r\nX-Injected: 1"),
        format!("{KEY}\n"),
        format!("sk-ключ-{KEY}"),
    ]
    .iter()
    .enumerate()
    {
        let d = dir(&format!("badkey{i}"));
        let s = settings(&d, &node.1, key);
        let (a, report) = audit(&d, &s);
        let (b, results) = batch(&d, &s);
        let a_err = String::from_utf8_lossy(&a.stderr).to_string();
        assert_ne!(a.status.code(), Some(0));
        assert!(a_err.contains("api_key"), "{a_err}");
        assert_no_secret(
            "bad key",
            &[
                ("report JSON", &report),
                ("audit stderr", &a_err),
                ("batch stderr", &String::from_utf8_lossy(&b.stderr)),
                ("results JSONL", &results),
            ],
            &[KEY],
        );
    }
    // And nothing was sent.
    assert!(node.log().is_empty());
}

#[test]
fn a_key_from_the_environment_with_a_line_break_is_refused_before_sending() {
    let node = start(&json!({}));
    let d = dir("envkey");
    let path = d.join("settings.yaml");
    std::fs::write(
        &path,
        format!("llms:\n  m:\n    base_url: \"{}\"\n    model: mock-model\n    api_key_env: VF_SAFETY_KEY\nprofiles:\n  p:\n    run: m\n    verify: m\n", node.1),
    )
    .unwrap();
    std::fs::write(d.join("ctx.txt"), "c").unwrap();
    std::fs::write(d.join("out.txt"), "o").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_verifyfast"))
        .args(["audit", "--profile", "p"])
        .arg("--context")
        .arg(d.join("ctx.txt"))
        .arg("--output")
        .arg(d.join("out.txt"))
        .arg("--settings")
        .arg(&path)
        .env("VF_SAFETY_KEY", format!("{KEY}\r\nX: y"))
        .output()
        .unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_ne!(out.status.code(), Some(0));
    assert!(all.contains("control character"), "{all}");
    assert_no_secret("env key", &[("output", &all)], &[KEY]);
    assert!(node.log().is_empty(), "nothing sent");
}

const DECOMPOSE: &str = "Do not judge correctness";

#[test]
fn a_truncated_reply_never_yields_a_score() {
    // Phase 1 cut at `"text": "Profit` (finish_reason `length`), every time.
    let cut =
        r#"{"claims": [{"id": "C1", "text": "Revenue rose 12%"}, {"id": "C2", "text": "Profit"#;
    let node = start(&json!({
        "default_reply": {"factual_errors": [], "logic_errors": []},
        "rules": [{"match_any": DECOMPOSE, "reply": cut, "finish_reason": "length"}]
    }));
    let d = dir("trunc");
    let s = settings(&d, &node.1, KEY);
    let (a, report) = audit(&d, &s);
    assert_eq!(
        a.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&a.stderr)
    );
    let v: Value = serde_json::from_str(&report).unwrap();
    assert_eq!(v["credit_score"], Value::Null);
    assert_eq!(v["band"], Value::Null);
    assert_eq!(v["could_not_audit"]["kind"], "truncated");
    assert_eq!(v["claims"], json!([]), "no claim \"Profit\"");
    let budgets: Vec<Value> = node
        .log()
        .iter()
        .filter(|r| r["path"] == "/v1/chat/completions")
        .map(|r| r["body"]["max_tokens"].clone())
        .collect();
    assert_eq!(budgets, vec![json!(4000), json!(8000)]);
    let stderr = String::from_utf8_lossy(&a.stderr);
    assert!(stderr.contains("truncated"), "{stderr}");

    // The same reply with finish_reason `stop`: the model ended its answer, so the open JSON is
    // no cut (it may be quoted text ending inside a string) and is never closed: unreadable,
    // asked again with the same budget, never scored.
    let node = start(&json!({
        "default_reply": {"factual_errors": [], "logic_errors": []},
        "rules": [{"match_any": DECOMPOSE, "reply": cut}]
    }));
    let s = settings(&d, &node.1, KEY);
    let (_, report) = audit(&d, &s);
    let v: Value = serde_json::from_str(&report).unwrap();
    assert_eq!(v["credit_score"], Value::Null);
    assert_eq!(v["could_not_audit"]["kind"], "unreadable");
    assert_eq!(v["phases"][0]["truncated_replies"], 0);

    // Cut off once, complete with the larger budget: scored, and the cut is recorded.
    let node = start(&json!({
        "default_reply": {"factual_errors": [], "logic_errors": []},
        "rules": [
            {"match_any": DECOMPOSE, "reply": cut, "finish_reason": "length", "times": 1},
            {"match_any": DECOMPOSE, "reply": {"claims": [{"id": "C1", "text": "Revenue rose 12%"}], "deductions": []}}
        ]
    }));
    let s = settings(&d, &node.1, KEY);
    let (a, report) = audit(&d, &s);
    assert_eq!(
        a.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&a.stderr)
    );
    let v: Value = serde_json::from_str(&report).unwrap();
    assert_eq!(v["credit_score"], 5);
    assert_eq!(v["phases"][0]["truncated_replies"], 1);
    assert_eq!(v["phases"][0]["max_tokens"], 8000);
}

#[test]
fn batch_results_of_truncated_replies_are_could_not_audit() {
    let cut = r#"{"claims": [{"id": "C1", "text": "Profit"#;
    let node = start(&json!({
        "default_reply": {"factual_errors": [], "logic_errors": []},
        "rules": [{"match_any": DECOMPOSE, "reply": cut, "finish_reason": "length"}]
    }));
    let d = dir("trunc-batch");
    let s = settings(&d, &node.1, KEY);
    let (_, results) = batch(&d, &s);
    let lines: Vec<Value> = results
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    for r in lines {
        assert_eq!(r["credit_score"], Value::Null);
        let e = r["error"].as_str().unwrap();
        assert!(
            e.starts_with("could not audit (Phase 1 · decomposition, truncated)"),
            "{e}"
        );
    }
}

/// Kept from before: a redirect never carries the `Authorization` header to where it points.
#[test]
fn redirects_never_forward_the_key() {
    use std::io::{Read, Write};
    use std::net::TcpListener;
    use std::time::Duration;

    use verifyfast::llm::native::NativeTransport;
    use verifyfast::llm::{ChatTransport, Endpoint, JsonMode};

    fn head(stream: &mut std::net::TcpStream) -> String {
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let mut buf = Vec::new();
        let mut byte = [0u8; 1];
        while !buf.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap_or(0) == 1 {
            buf.push(byte[0]);
        }
        String::from_utf8_lossy(&buf).to_string()
    }

    let target = TcpListener::bind("127.0.0.1:0").unwrap();
    let target_port = target.local_addr().unwrap().port();
    let seen = std::thread::spawn(move || {
        let (mut s, _) = target.accept().unwrap();
        let h = head(&mut s);
        let body = r#"{"data":[{"id":"mock-model"}]}"#;
        let _ = write!(
            s,
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        h
    });
    let origin = TcpListener::bind("127.0.0.1:0").unwrap();
    let origin_port = origin.local_addr().unwrap().port();
    let first = std::thread::spawn(move || {
        let (mut s, _) = origin.accept().unwrap();
        let h = head(&mut s);
        let _ = write!(
            s,
            "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:{target_port}/v1/models\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        );
        h
    });
    let endpoint = Endpoint {
        base_url: format!("http://127.0.0.1:{origin_port}/v1"),
        model: "mock-model".into(),
        api_key: Some(KEY.into()),
        json_mode: JsonMode::None,
    };
    let t = NativeTransport::new(Duration::from_secs(5));
    let models = futures::executor::block_on(t.list_models(&endpoint)).unwrap();
    assert_eq!(models, vec!["mock-model"]);
    let first = first.join().unwrap();
    assert!(
        first.contains(&format!("Bearer {KEY}")),
        "the key goes to its endpoint: {first}"
    );
    let redirected = seen.join().unwrap();
    assert!(
        !redirected.to_ascii_lowercase().contains("authorization") && !redirected.contains(KEY),
        "{redirected}"
    );
}
