//! LLM client figures against the scripted mock server (tests/mock_llm/server.mjs):
//! per-call overhead, concurrency of calls on one executor thread, and the cost of retries.
//! Run: `cargo bench --bench llm` (or `cargo bench --bench llm -- faults` for the fault
//! campaign alone: 31 audits against 20 % injected 429/500/truncated-body faults, printing
//! "cases lost at 20 % faults: N").

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures::executor::block_on;
use futures::future::join_all;
use verifyfast::llm::native::NativeTransport;
use verifyfast::llm::{
    ChatMessage, ChatRequest, ChatTransport, Endpoint, JsonMode, RetryPolicy, RetryingClient,
};

struct Mock(Child, String);

impl Drop for Mock {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start(script: &str) -> Result<Mock, String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mock_llm/server.mjs");
    let mut child = Command::new("node")
        .args([path, "--port", "0", "--script-json", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start node: {e}"))?;
    let out = child.stdout.take().ok_or("no stdout")?;
    let mut line = String::new();
    BufReader::new(out)
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    let port = line
        .trim()
        .strip_prefix("LISTENING ")
        .ok_or("no port")?
        .to_string();
    Ok(Mock(child, format!("http://127.0.0.1:{port}/v1")))
}

fn endpoint(base: &str) -> Endpoint {
    Endpoint {
        base_url: base.into(),
        model: "mock-model".into(),
        api_key: Some("sk-bench".into()),
        json_mode: JsonMode::JsonObject,
    }
}

fn request() -> ChatRequest {
    ChatRequest {
        messages: vec![
            ChatMessage::system("s"),
            ChatMessage::user("q ".repeat(500)),
        ],
        temperature: 0.0,
        max_tokens: 100,
    }
}

fn client(policy: RetryPolicy) -> RetryingClient<NativeTransport> {
    RetryingClient::new(NativeTransport::new(Duration::from_secs(30)), policy)
}

/// The fault model of docs/llm.md ("Faults bench"): 20 % of chat calls fail with a 429 (Retry-After 1 s), a
/// 500 or a 200 whose body is cut in half; 31 cases, one profile, 8 audits in flight.
/// A case is lost when it ends "could not audit".
fn fault_campaign() -> Result<(), String> {
    let first = fault_run(1)?;
    println!("cases lost at 20 % faults: {first}");
    let mut total = first;
    for seed in 2..=5 {
        total += fault_run(seed)?;
    }
    println!(
        "cases lost at 20 % faults over seeds 1-5: {total} of {}",
        5 * 31
    );
    Ok(())
}

/// One campaign with the mock's fault RNG seeded `seed`; returns the cases lost.
fn fault_run(seed: u32) -> Result<usize, String> {
    use verifyfast::audit::batch::{self, CaseSet};
    use verifyfast::audit::AuditPlan;
    use verifyfast::config::{Format, Settings, Strategy};
    use verifyfast::sorted_map::SortedMap;

    let script = r#"{
        "fault_rate": 0.2, "fault_kinds": ["429", "500", "truncated"], "seed": SEED,
        "default_reply": {
            "claims": [{"id": "C1", "text": "a"}],
            "deductions": [{"id": "D1", "premises": ["C1"], "conclusion": "b"}],
            "factual_errors": [], "logic_errors": []
        }
    }"#;
    let mock = start(&script.replace("SEED", &seed.to_string()))?;
    let settings = format!(
        "llms:\n  m:\n    base_url: \"{}\"\n    model: mock-model\nprofiles:\n  p:\n    run: m\n    verify: m\n",
        mock.1
    );
    let settings = Settings::from_text(&settings, Format::Yaml).map_err(|e| e.to_string())?;
    let plan = AuditPlan::from_settings(&settings, &Strategy::default(), "p", &|_| None)
        .map_err(|e| e.to_string())?;
    let plans: SortedMap<String, AuditPlan> = [("p".to_string(), plan)].into_iter().collect();
    let lines: String = (0..31)
        .map(|i| format!("{{\"id\":{i},\"context_input\":\"c{i}\",\"model_output\":\"o{i}\"}}\n"))
        .collect();
    let cases = CaseSet::from_text(&lines);
    let (jobs, _) = batch::plan_jobs(&cases.cases, &["p".to_string()], &Default::default());
    let transport = verifyfast::llm::native::client(30_000, None);
    let started = Instant::now();
    let clock = move || started.elapsed().as_secs_f64() * 1000.0;
    let mut lost = Vec::new();
    let progress = block_on(batch::run_batch(
        &transport,
        &plans,
        jobs,
        0,
        8,
        &clock,
        &mut |line, _, _| {
            if let Some(e) = line.get("error").and_then(|e| e.as_str()) {
                lost.push(e.to_string());
            }
        },
    ))
    .map_err(|e| e.to_string())?;
    let stats = transport.stats();
    println!(
        "fault campaign, seed {seed}: {} audits, {} lost, {} calls, {} attempts ({} retries), {:.1} s",
        progress.done,
        lost.len(),
        stats.calls,
        stats.attempts,
        stats.attempts - stats.calls,
        started.elapsed().as_secs_f64()
    );
    for e in lost.iter().take(3) {
        println!("  lost: {e}");
    }
    Ok(lost.len())
}

fn main() -> Result<(), String> {
    if std::env::args().any(|a| a == "faults") {
        return fault_campaign();
    }
    let req = request();

    let fast = start("{}")?;
    let e = endpoint(&fast.1);
    let c = client(RetryPolicy::default());
    let n = 200;
    let t = Instant::now();
    for _ in 0..n {
        block_on(c.chat(&e, &req)).map_err(|e| e.to_string())?;
    }
    let per_call = t.elapsed().as_secs_f64() * 1000.0 / f64::from(n);
    println!("sequential calls, 0 ms server latency: {per_call:.2} ms/call over {n} calls (thread + HTTP + JSON)");

    let slow = start(r#"{"latency_ms": 300}"#)?;
    let e = endpoint(&slow.1);
    for k in [1usize, 2, 8, 32] {
        let t = Instant::now();
        let calls: Vec<_> = (0..k).map(|_| c.chat(&e, &req)).collect();
        let results = block_on(join_all(calls));
        let wall = t.elapsed().as_millis();
        let ok = results.iter().filter(|r| r.is_ok()).count();
        println!(
            "{k:>2} concurrent calls, 300 ms latency, one executor thread: wall {wall} ms (sequential would be {} ms), {ok}/{k} ok",
            300 * k
        );
    }

    let flaky = start(
        r#"{"rules":[{"match":"q","fault":"503","times":2},{"match":"q","fault":{"kind":"429","retry_after":"1"},"times":1}]}"#,
    )?;
    let e = endpoint(&flaky.1);
    let t = Instant::now();
    let r = block_on(c.chat(&e, &req)).map_err(|e| e.to_string())?;
    println!(
        "503, 503, 429 (Retry-After 1), then success: {} attempts, wall {} ms (backoff ~250-500 + ~500-1000 ms, then 1000 ms)",
        r.attempts,
        t.elapsed().as_millis()
    );
    fault_campaign()
}
