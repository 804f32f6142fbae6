//! The native client pipeline against the scripted server (tests/mock_llm/server.mjs) over
//! real HTTP: success, each error kind, retries, Retry-After, timeout, cancel, concurrency,
//! and the headers that actually reach the server.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures::executor::block_on;
use serde_json::{json, Value};
use verifyfast::llm::native::NativeTransport;
use verifyfast::llm::{
    CancelToken, ChatMessage, ChatRequest, ChatTransport, Endpoint, JsonMode, LlmError,
    RetryPolicy, RetryingClient,
};

struct Mock {
    child: Child,
    base: String,
}

impl Mock {
    fn start(script: Value) -> Mock {
        Self::start_with(script, &[])
    }

    fn start_with(script: Value, extra: &[&str]) -> Mock {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mock_llm/server.mjs");
        let mut child = Command::new("node")
            .arg(path)
            .args(["--port", "0", "--script-json", &script.to_string()])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("node must be installed to run the mock LLM server");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("mock server prints its port");
        let port = line
            .trim()
            .strip_prefix("LISTENING ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        Mock {
            child,
            base: format!("http://127.0.0.1:{port}"),
        }
    }

    fn endpoint(&self, key: Option<&str>) -> Endpoint {
        Endpoint {
            base_url: format!("{}/v1", self.base),
            model: "mock-model".into(),
            api_key: key.map(str::to_string),
            json_mode: JsonMode::None,
        }
    }

    fn log(&self) -> Vec<Value> {
        let body = ureq::get(&format!("{}/__log", self.base))
            .call()
            .expect("log")
            .into_string()
            .expect("log body");
        let v: Value = serde_json::from_str(&body).expect("log JSON");
        v["requests"].as_array().cloned().unwrap_or_default()
    }

    fn chat_requests(&self) -> usize {
        self.log()
            .iter()
            .filter(|e| e["path"] == "/v1/chat/completions")
            .count()
    }

    fn set_script(&self, script: Value) {
        ureq::post(&format!("{}/__script", self.base))
            .send_string(&script.to_string())
            .expect("set script");
    }
}

impl Drop for Mock {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Short backoff so retry tests take milliseconds, not seconds.
fn fast_policy(max_attempts: u32) -> RetryPolicy {
    RetryPolicy {
        max_attempts,
        base_delay_ms: 20,
        max_delay_ms: 100,
        max_retry_after_ms: 5_000,
    }
}

fn client(timeout_ms: u64, attempts: u32) -> RetryingClient<NativeTransport> {
    RetryingClient::new(
        NativeTransport::new(Duration::from_millis(timeout_ms)),
        fast_policy(attempts),
    )
}

fn ask(text: &str) -> ChatRequest {
    ChatRequest {
        messages: vec![ChatMessage::system("sys"), ChatMessage::user(text)],
        temperature: 0.0,
        max_tokens: 20,
    }
}

fn fault(kind: &str) -> Value {
    json!({ "rules": [ { "match": "q", "fault": kind } ] })
}

#[test]
fn success_returns_text_usage_and_one_attempt() {
    let mock = Mock::start(json!({
        "latency_ms": 50,
        "rules": [ { "match": "capital", "reply": "Paris", "usage": {"prompt_tokens": 11, "completion_tokens": 1} } ]
    }));
    let c = client(5_000, 4);
    let r = block_on(c.chat(&mock.endpoint(None), &ask("capital of France?"))).unwrap();
    assert_eq!(r.content, "Paris");
    assert_eq!(r.attempts, 1);
    assert_eq!(
        (
            r.usage.prompt_tokens,
            r.usage.completion_tokens,
            r.usage.total_tokens
        ),
        (11, 1, 12)
    );
    assert!(r.latency_ms >= 50, "{}", r.latency_ms);
    assert_eq!(c.stats().usage.total_tokens, 12);
}

#[test]
fn request_body_has_model_messages_sampling_and_json_mode() {
    let mock = Mock::start(json!({}));
    let mut e = mock.endpoint(None);
    e.json_mode = JsonMode::JsonObject;
    block_on(client(5_000, 1).chat(&e, &ask("q"))).unwrap();
    let log = mock.log();
    let body = &log[0]["body"];
    assert_eq!(body["model"], "mock-model");
    assert_eq!(body["messages"][0]["role"], "system");
    assert_eq!(body["messages"][1]["content"], "q");
    assert_eq!(body["temperature"], 0.0);
    assert_eq!(body["max_tokens"], 20);
    assert_eq!(body["response_format"]["type"], "json_object");
}

fn single_error(kind: &str) -> (LlmError, usize) {
    let mock = Mock::start(fault(kind));
    let err = block_on(client(5_000, 4).chat(&mock.endpoint(None), &ask("q"))).unwrap_err();
    (err, mock.chat_requests())
}

#[test]
fn final_errors_are_typed_and_not_retried() {
    type Check = fn(&LlmError) -> bool;
    let cases: Vec<(&str, Check)> = vec![
        ("400", |e| matches!(e, LlmError::Http { status: 400, .. })),
        ("401", |e| {
            matches!(e, LlmError::Unauthorized { status: 401 })
        }),
        ("403", |e| {
            matches!(e, LlmError::Unauthorized { status: 403 })
        }),
        (
            "404",
            |e| matches!(e, LlmError::NotFound { model, .. } if model == "mock-model"),
        ),
        ("413", |e| matches!(e, LlmError::TooLarge)),
        ("422", |e| matches!(e, LlmError::Http { status: 422, .. })),
        ("html", |e| matches!(e, LlmError::HtmlInsteadOfJson)),
        (
            "malformed",
            |e| matches!(e, LlmError::BadResponse { detail } if detail.contains("not valid JSON")),
        ),
        ("empty_choices", |e| matches!(e, LlmError::EmptyChoices)),
        (
            "non_chat",
            |e| matches!(e, LlmError::BadResponse { detail } if detail.contains("model list")),
        ),
    ];
    for (kind, is_expected) in cases {
        let (err, requests) = single_error(kind);
        assert!(is_expected(&err), "{kind}: got {err:?}");
        // A 2xx body that is not a chat completion gets one more attempt (as a 5xx does),
        // never more; every other final error none.
        let expected = if matches!(err, LlmError::BadResponse { .. }) {
            2
        } else {
            1
        };
        assert_eq!(requests, expected, "{kind}: attempts");
    }
}

#[test]
fn retryable_errors_are_retried_until_the_limit() {
    // What the OpenAI clients retry: 408, 409, 429 (own test), every 5xx, connection
    // errors; and a 2xx body cut off in transit.
    for (kind, check) in [
        (
            "500",
            (|e| matches!(e, LlmError::Server { status: 500, body } if body.contains("mock fault 500")))
                as fn(&LlmError) -> bool,
        ),
        ("408", |e| matches!(e, LlmError::Http { status: 408, .. })),
        ("409", |e| matches!(e, LlmError::Http { status: 409, .. })),
        ("501", |e| matches!(e, LlmError::Server { status: 501, .. })),
        ("502", |e| matches!(e, LlmError::Server { status: 502, .. })),
        (
            "truncated",
            |e| matches!(e, LlmError::CutOff { detail } if detail.contains("truncated")),
        ),
        ("503", |e| matches!(e, LlmError::Server { status: 503, .. })),
        ("504", |e| matches!(e, LlmError::Server { status: 504, .. })),
        ("drop", |e| matches!(e, LlmError::Network { .. })),
    ] {
        let (err, requests) = single_error(kind);
        assert!(check(&err), "{kind}: got {err:?}");
        assert_eq!(requests, 4, "{kind}: 4 attempts");
    }
}

#[test]
fn transient_failures_then_success() {
    let mock = Mock::start(json!({ "rules": [
        { "match": "q", "fault": "503", "times": 2 },
        { "match": "q", "reply": "ok" }
    ]}));
    let r = block_on(client(5_000, 4).chat(&mock.endpoint(None), &ask("q"))).unwrap();
    assert_eq!((r.content.as_str(), r.attempts), ("ok", 3));
    assert_eq!(mock.chat_requests(), 3);
}

#[test]
fn rate_limit_waits_for_retry_after() {
    let mock = Mock::start(json!({ "rules": [
        { "match": "q", "fault": {"kind": "429", "retry_after": "1"}, "times": 1 },
        { "match": "q", "reply": "after the wait" }
    ]}));
    let started = Instant::now();
    let r = block_on(client(5_000, 4).chat(&mock.endpoint(None), &ask("q"))).unwrap();
    let wall = started.elapsed();
    assert_eq!((r.content.as_str(), r.attempts), ("after the wait", 2));
    assert!(wall >= Duration::from_millis(1000), "{wall:?}");
    assert!(r.latency_ms >= 1000, "{}", r.latency_ms);
}

#[test]
fn rate_limit_with_too_long_retry_after_is_returned() {
    let mock = Mock::start(fault_with_retry_after("600"));
    let err = block_on(client(5_000, 4).chat(&mock.endpoint(None), &ask("q"))).unwrap_err();
    assert_eq!(
        err,
        LlmError::RateLimited {
            retry_after_s: Some(600)
        }
    );
    assert_eq!(mock.chat_requests(), 1);
}

fn fault_with_retry_after(s: &str) -> Value {
    json!({ "rules": [ { "match": "q", "fault": {"kind": "429", "retry_after": s} } ] })
}

#[test]
fn a_hanging_server_times_out_per_attempt() {
    let mock = Mock::start(fault("hang"));
    let started = Instant::now();
    let err = block_on(client(300, 2).chat(&mock.endpoint(None), &ask("q"))).unwrap_err();
    let wall = started.elapsed();
    assert_eq!(err, LlmError::Timeout { seconds: 1 });
    assert_eq!(mock.chat_requests(), 2);
    assert!(wall >= Duration::from_millis(600), "{wall:?}");
    assert!(wall < Duration::from_millis(3000), "{wall:?}");
}

#[test]
fn cancel_ends_a_call_in_flight() {
    let mock = Mock::start(fault("hang"));
    let token = CancelToken::new();
    let c = RetryingClient::new(
        NativeTransport::new(Duration::from_secs(30)).with_cancel(token.clone()),
        fast_policy(4),
    )
    .with_cancel(token.clone());
    let remote = token.clone();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(150));
        remote.cancel();
    });
    let started = Instant::now();
    let err = block_on(c.chat(&mock.endpoint(None), &ask("q"))).unwrap_err();
    assert_eq!(err, LlmError::Cancelled);
    assert!(started.elapsed() < Duration::from_secs(2));
    canceller.join().unwrap();
    assert_eq!(mock.chat_requests(), 1);
}

#[test]
fn two_calls_run_concurrently_on_one_thread() {
    let mock = Mock::start(json!({ "latency_ms": 500 }));
    let c = client(5_000, 1);
    let e = mock.endpoint(None);
    let (a, b) = (ask("first"), ask("second"));
    let started = Instant::now();
    let (ra, rb) = block_on(async { futures::join!(c.chat(&e, &a), c.chat(&e, &b)) });
    let wall = started.elapsed();
    assert!(ra.is_ok() && rb.is_ok());
    // Sequential would be >= 1000 ms.
    assert!(wall < Duration::from_millis(900), "{wall:?}");
    assert!(wall >= Duration::from_millis(500), "{wall:?}");
}

/// Headers a transport adds by itself; anything else would be ours.
const TRANSPORT_HEADERS: &[&str] = &[
    "host",
    "content-length",
    "user-agent",
    "accept",
    "accept-encoding",
    "connection",
];

fn our_headers(entry: &Value) -> Vec<String> {
    let mut names: Vec<String> = entry["headers"]
        .as_object()
        .map(|h| h.keys().cloned().collect())
        .unwrap_or_default();
    names.retain(|n| !TRANSPORT_HEADERS.contains(&n.as_str()));
    names.sort();
    names
}

#[test]
fn only_authorization_and_content_type_are_sent_and_the_key_only_when_set() {
    let mock = Mock::start(json!({}));
    let c = client(5_000, 1);
    block_on(c.chat(&mock.endpoint(Some("sk-test-123")), &ask("q"))).unwrap();
    block_on(c.chat(&mock.endpoint(None), &ask("q"))).unwrap();
    block_on(c.list_models(&mock.endpoint(Some("sk-test-123")))).unwrap();
    let log = mock.log();
    assert_eq!(log.len(), 3);
    assert_eq!(our_headers(&log[0]), vec!["authorization", "content-type"]);
    assert_eq!(log[0]["headers"]["authorization"], "Bearer sk-test-123");
    assert_eq!(log[0]["headers"]["content-type"], "application/json");
    assert_eq!(our_headers(&log[1]), vec!["content-type"]);
    assert_eq!(our_headers(&log[2]), vec!["authorization"]);
    // The key travels in the header only, never in the body.
    assert!(!log[0]["body"].to_string().contains("sk-test-123"));
}

#[test]
fn the_key_goes_only_to_its_own_endpoint() {
    let first = Mock::start(json!({}));
    let second = Mock::start(json!({}));
    let c = client(5_000, 1);
    block_on(c.chat(&first.endpoint(Some("key-for-first")), &ask("q"))).unwrap();
    block_on(c.chat(&second.endpoint(None), &ask("q"))).unwrap();
    let second_log = second.log().to_vec();
    assert!(!Value::Array(second_log.clone())
        .to_string()
        .contains("key-for-first"));
    assert!(second_log[0]["headers"].get("authorization").is_none());
}

#[test]
fn wrong_key_is_unauthorized() {
    let mock = Mock::start_with(json!({}), &["--api-key", "right"]);
    let c = client(5_000, 4);
    let err = block_on(c.chat(&mock.endpoint(Some("wrong")), &ask("q"))).unwrap_err();
    assert_eq!(err, LlmError::Unauthorized { status: 401 });
    assert!(err.to_string().contains("API key"));
    assert!(block_on(c.chat(&mock.endpoint(Some("right")), &ask("q"))).is_ok());
}

#[test]
fn list_models_for_test_connection() {
    let mock = Mock::start(json!({ "models": ["run-model", "verify-model"] }));
    let ids = block_on(client(5_000, 1).list_models(&mock.endpoint(None))).unwrap();
    assert_eq!(ids, vec!["run-model", "verify-model"]);
    let log = mock.log();
    assert_eq!(log[0]["method"], "GET");
    assert_eq!(log[0]["path"], "/v1/models");
}

#[test]
fn wrong_base_url_gives_html_or_not_found() {
    let mock = Mock::start(json!({}));
    let mut e = mock.endpoint(None);
    e.base_url = mock.base.clone(); // missing /v1
    let err = block_on(client(5_000, 1).chat(&e, &ask("q"))).unwrap_err();
    assert!(matches!(err, LlmError::NotFound { .. }), "{err:?}");
}

#[test]
fn nothing_listening_is_a_network_error_naming_the_url() {
    // Bind and drop a listener to get a port that is very likely closed.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let e = Endpoint {
        base_url: format!("http://127.0.0.1:{port}/v1"),
        model: "m".into(),
        api_key: None,
        json_mode: JsonMode::None,
    };
    let err = block_on(client(2_000, 2).chat(&e, &ask("q"))).unwrap_err();
    let LlmError::Network { url, .. } = &err else {
        panic!("expected a network error, got {err:?}")
    };
    assert!(url.ends_with("/v1/chat/completions"));
}

#[test]
fn script_can_be_replaced_at_run_time() {
    let mock = Mock::start(json!({ "default_reply": "before" }));
    let c = client(5_000, 1);
    let e = mock.endpoint(None);
    assert_eq!(block_on(c.chat(&e, &ask("q"))).unwrap().content, "before");
    mock.set_script(json!({ "default_reply": {"after": true} }));
    assert_eq!(
        block_on(c.chat(&e, &ask("q"))).unwrap().content,
        r#"{"after":true}"#
    );
}

#[test]
fn seeded_fault_rate_fails_about_the_asked_fraction() {
    let mock = Mock::start(json!({ "fault_rate": 0.3, "seed": 7 }));
    let c = client(5_000, 1);
    let e = mock.endpoint(None);
    let failures = (0..60)
        .filter(|_| block_on(c.chat(&e, &ask("q"))).is_err())
        .count();
    assert!((8..=30).contains(&failures), "{failures} of 60");
}
