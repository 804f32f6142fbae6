//! Batch properties of the audit pipeline, in process: a 200-case batch against a
//! transport failing 20 % of calls ends with every case scored or typed "could not
//! audit" (none missing), and an interrupted run resumed from its results gives the same
//! final set of results.

use std::cell::Cell;
use std::collections::{HashMap, HashSet};

use futures::executor::block_on;
use futures::future::{AbortHandle, Abortable, LocalBoxFuture};
use serde_json::{Map, Value};

use verifyfast::audit::batch::{self, CaseSet};
use verifyfast::audit::testing::phase_of;
use verifyfast::audit::{AuditPlan, Phase, PlannedModel};
use verifyfast::config::AuditParams;
use verifyfast::llm::{
    ChatRequest, ChatResponse, ChatTransport, Endpoint, JsonMode, LlmError, Usage,
};

/// Answers by phase; every `fail_every`-th call fails, alternating between a server
/// error and an unreadable reply, so both failure paths are exercised.
struct Flaky {
    calls: Cell<u64>,
    fail_every: u64,
}

impl Flaky {
    fn new(fail_every: u64) -> Self {
        Self {
            calls: Cell::new(0),
            fail_every,
        }
    }
}

fn reply(request: &ChatRequest) -> String {
    let user = request
        .messages
        .get(1)
        .map(|m| m.content.as_str())
        .unwrap_or("");
    match phase_of(&request.messages) {
        Some(Phase::Decompose) => {
            r#"{"claims":[{"id":"C1","text":"a"},{"id":"C2","text":"b"}],"deductions":[{"id":"D1","premises":["C1"],"conclusion":"c"}]}"#.into()
        }
        // The case's own text decides the findings, so results are reproducible per case.
        Some(Phase::FactCheck) if user.contains("fabricated") => {
            r#"{"factual_errors":[{"target":"C1","type":"unsupported","severity":"High","evidence":"x"}]}"#.into()
        }
        Some(Phase::FactCheck) => r#"{"factual_errors":[]}"#.into(),
        Some(Phase::LogicCheck) if user.contains("minor") => {
            r#"{"logic_errors":[{"target":"D1","type":"unsupported","severity":"Low"}]}"#.into()
        }
        Some(Phase::LogicCheck) => r#"{"logic_errors":[]}"#.into(),
        _ => "{}".into(),
    }
}

impl ChatTransport for Flaky {
    fn chat<'a>(
        &'a self,
        _endpoint: &'a Endpoint,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, LlmError>> {
        Box::pin(async move {
            // Give way once, as real I/O would, so an abort can land between calls.
            YieldOnce(false).await;
            let n = self.calls.get() + 1;
            self.calls.set(n);
            if n % self.fail_every == 0 {
                if (n / self.fail_every) % 2 == 0 {
                    return Err(LlmError::Server {
                        status: 500,
                        body: "injected".into(),
                    });
                }
                return Ok(response("<html>not json</html>".into()));
            }
            Ok(response(reply(request)))
        })
    }
}

struct YieldOnce(bool);

impl std::future::Future for YieldOnce {
    type Output = ();
    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<()> {
        if self.0 {
            return std::task::Poll::Ready(());
        }
        self.0 = true;
        cx.waker().wake_by_ref();
        std::task::Poll::Pending
    }
}

fn response(content: String) -> ChatResponse {
    ChatResponse {
        content,
        usage: Usage {
            prompt_tokens: 10,
            completion_tokens: 5,
            total_tokens: 15,
        },
        latency_ms: 1,
        attempts: 1,
    }
}

fn plans(profiles: &[&str]) -> HashMap<String, AuditPlan> {
    let model = PlannedModel {
        llm: "mock".into(),
        endpoint: Endpoint {
            base_url: "http://127.0.0.1:9/v1".into(),
            model: "mock".into(),
            api_key: None,
            json_mode: JsonMode::None,
        },
    };
    profiles
        .iter()
        .map(|p| {
            (
                p.to_string(),
                AuditPlan {
                    profile: p.to_string(),
                    run: model.clone(),
                    verify: model.clone(),
                    params: AuditParams::default(),
                    max_tokens: 500,
                    temperature: 0.0,
                },
            )
        })
        .collect()
}

fn cases(n: usize) -> CaseSet {
    let kinds = ["clean", "fabricated", "minor"];
    let text: String = (0..n)
        .map(|i| {
            let kind = kinds[i % kinds.len()];
            format!(
                "{{\"id\":{i},\"tag\":\"{kind}\",\"context_input\":\"ctx {i}\",\"model_output\":\"{kind} output {i}\",\"expected_credit_score\":5}}\n"
            )
        })
        .collect();
    CaseSet::from_text(&text)
}

fn run(
    transport: &dyn ChatTransport,
    set: &CaseSet,
    profiles: &[&str],
    done: &HashSet<(String, String)>,
    stop_after: Option<usize>,
) -> Vec<Map<String, Value>> {
    let names: Vec<String> = profiles.iter().map(|p| p.to_string()).collect();
    let (jobs, _) = batch::plan_jobs(&set.cases, &names, done);
    let plans = plans(profiles);
    let (handle, registration) = AbortHandle::new_pair();
    let mut lines = Vec::new();
    let mut on_result = |line: Map<String, Value>, _: &batch::Progress| {
        lines.push(line);
        if stop_after.is_some_and(|k| lines.len() >= k) {
            handle.abort();
        }
    };
    let work = batch::run_batch(transport, &plans, jobs, 0, 8, &|| 0.0, &mut on_result);
    let _ = block_on(Abortable::new(work, registration));
    lines
}

fn key(line: &Map<String, Value>) -> (String, String) {
    (
        batch::id_key(&line["id"]).unwrap_or_default(),
        line["profile"].as_str().unwrap_or_default().to_string(),
    )
}

#[test]
fn every_case_of_a_flaky_200_case_batch_is_scored_or_could_not_audit() {
    let set = cases(200);
    // One call in five fails; an audit makes at least 3 calls.
    let transport = Flaky::new(5);
    let lines = run(&transport, &set, &["p"], &HashSet::new(), None);
    assert_eq!(lines.len(), 200, "one line per case");
    let ids: HashSet<_> = lines.iter().map(key).collect();
    assert_eq!(ids.len(), 200, "no case twice, none missing");
    let mut failed = 0;
    for line in &lines {
        match (&line["credit_score"], &line["error"]) {
            (Value::Number(n), Value::Null) => {
                let score = n.as_u64().unwrap();
                assert!((1..=5).contains(&score));
                assert!(line["band"].is_string());
            }
            (Value::Null, Value::String(e)) => {
                assert!(e.starts_with("could not audit"), "{e}");
                assert!(line["band"].is_null());
                failed += 1;
            }
            other => panic!("neither scored nor could-not-audit: {other:?}"),
        }
    }
    // Phase-1 server errors fail the case outright; unreadable replies get one re-ask,
    // so roughly a fifth to a half of the cases fail, never all and never none.
    assert!((20..=150).contains(&failed), "failed {failed}");
    // The scored ones follow the case text (so the failures did not corrupt them).
    for line in lines.iter().filter(|l| l["error"].is_null()) {
        let want = match line["tag"].as_str().unwrap() {
            "fabricated" => 2,
            "minor" => 4,
            _ => 5,
        };
        assert_eq!(line["credit_score"], want, "{line:?}");
    }
}

#[test]
fn a_resumed_run_completes_the_same_set_of_results() {
    let set = cases(60);
    let profiles = ["p1", "p2"];
    let full = run(
        &Flaky::new(1_000_000),
        &set,
        &profiles,
        &HashSet::new(),
        None,
    );
    assert_eq!(full.len(), 120);

    // Interrupted after 37 results (as if killed), then resumed from what was written.
    let partial = run(
        &Flaky::new(1_000_000),
        &set,
        &profiles,
        &HashSet::new(),
        Some(37),
    );
    assert!(partial.len() >= 37 && partial.len() < 120);
    let written: Vec<String> = partial
        .iter()
        .map(|l| Value::Object(l.clone()).to_string())
        .collect();
    let done = batch::done_pairs(written.iter().map(String::as_str));
    let rest = run(&Flaky::new(1_000_000), &set, &profiles, &done, None);
    assert_eq!(
        partial.len() + rest.len(),
        120,
        "nothing redone, nothing lost"
    );

    let sorted = |lines: Vec<Map<String, Value>>| {
        let mut v: Vec<Value> = lines.into_iter().map(Value::Object).collect();
        let names: Vec<String> = profiles.iter().map(|p| p.to_string()).collect();
        batch::sort_results(&mut v, &set.cases, &names);
        v
    };
    let resumed = sorted(partial.into_iter().chain(rest).collect());
    assert_eq!(resumed, sorted(full));
}
