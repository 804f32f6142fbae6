//! Audit timing against fixed-latency replies (no network): one audit's wall time should
//! be Phase 1 + max(Phase 2, Phase 3), and a batch at concurrency 8 should come close to
//! 8× the sequential throughput. Run: `cargo bench --bench audit`.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use futures::channel::oneshot;
use futures::executor::block_on;
use futures::future::LocalBoxFuture;

use verifyfast::audit::batch::{self, CaseSet};
use verifyfast::audit::testing::phase_of;
use verifyfast::audit::{run_audit, AuditInput, AuditPlan, Phase, PlannedModel};
use verifyfast::config::AuditParams;
use verifyfast::llm::{
    ChatRequest, ChatResponse, ChatTransport, Endpoint, JsonMode, LlmError, Usage,
};
use verifyfast::sorted_map::SortedMap;

const PHASE1_MS: u64 = 120;
const PHASE2_MS: u64 = 150;
const PHASE3_MS: u64 = 90;

/// Answers each phase after a fixed delay; the delay runs on a helper thread so the
/// single-threaded executor is free to drive other calls meanwhile, as with real I/O.
struct FixedLatency;

fn reply_for(phase: Option<Phase>) -> (&'static str, u64) {
    match phase {
        Some(Phase::Decompose) => (
            r#"{"claims":[{"id":"C1","text":"a"},{"id":"C2","text":"b"}],"deductions":[{"id":"D1","premises":["C1"],"conclusion":"c"}]}"#,
            PHASE1_MS,
        ),
        Some(Phase::FactCheck) => (
            r#"{"factual_errors":[{"target":"C1","type":"contradiction","severity":"Low","evidence":"e","explanation":"x"}]}"#,
            PHASE2_MS,
        ),
        Some(Phase::LogicCheck) => (r#"{"logic_errors":[]}"#, PHASE3_MS),
        _ => ("{}", 1),
    }
}

impl ChatTransport for FixedLatency {
    fn chat<'a>(
        &'a self,
        _endpoint: &'a Endpoint,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, LlmError>> {
        let (content, ms) = reply_for(phase_of(&request.messages));
        let (tx, rx) = oneshot::channel();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(ms));
            let _ = tx.send(());
        });
        Box::pin(async move {
            rx.await.map_err(|_| LlmError::Cancelled)?;
            Ok(ChatResponse {
                content: content.to_string(),
                usage: Usage::default(),
                latency_ms: ms,
                attempts: 1,
                finish_reason: None,
            })
        })
    }
}

fn plan() -> AuditPlan {
    let endpoint = Endpoint {
        base_url: "http://127.0.0.1:9/v1".into(),
        model: "bench".into(),
        api_key: None,
        json_mode: JsonMode::None,
    };
    let model = PlannedModel {
        llm: "bench".into(),
        endpoint,
    };
    AuditPlan {
        profile: "bench".into(),
        run: model.clone(),
        verify: model,
        params: AuditParams::default(),
        max_tokens: 1000,
        temperature: 0.0,
        secrets: Default::default(),
    }
}

fn batch_wall(cases: &CaseSet, concurrency: usize) -> f64 {
    let plans: SortedMap<String, AuditPlan> = [("bench".to_string(), plan())].into_iter().collect();
    let (jobs, _) = batch::plan_jobs(&cases.cases, &["bench".to_string()], &HashSet::new());
    let start = Instant::now();
    let clock = || start.elapsed().as_secs_f64() * 1000.0;
    let mut n = 0;
    let result = block_on(batch::run_batch(
        &FixedLatency,
        &plans,
        jobs,
        0,
        concurrency,
        &clock,
        &mut |_, _, _| n += 1,
    ));
    assert!(result.is_ok() && n == cases.cases.len());
    start.elapsed().as_secs_f64() * 1000.0
}

fn main() {
    let input = AuditInput {
        context_input: "context".into(),
        model_output: "output".into(),
    };
    let plan = plan();
    let runs = 5;
    let mut walls = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        let report = block_on(run_audit(&FixedLatency, &plan, &input, &|_| {}));
        walls.push(start.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(report.credit_score, Some(4));
    }
    walls.sort_by(f64::total_cmp);
    let median = walls[runs / 2];
    let ideal = (PHASE1_MS + PHASE2_MS.max(PHASE3_MS)) as f64;
    let sequential = (PHASE1_MS + PHASE2_MS + PHASE3_MS) as f64;
    println!("one audit (Phase 1 {PHASE1_MS} ms, Phase 2 {PHASE2_MS} ms, Phase 3 {PHASE3_MS} ms):");
    println!(
        "  wall {median:.1} ms (median of {runs}); Phase 1 + max(Phase 2, Phase 3) = {ideal:.0} ms; \
         sequential would be {sequential:.0} ms; overhead {:.1} ms",
        median - ideal
    );

    let lines: String = (0..32)
        .map(|i| format!("{{\"id\":{i},\"context_input\":\"c\",\"model_output\":\"o\"}}\n"))
        .collect();
    let cases = CaseSet::from_text(&lines);
    let one = batch_wall(&cases, 1);
    let eight = batch_wall(&cases, 8);
    let speedup = one / eight;
    println!("batch of {} audits:", cases.cases.len());
    println!("  concurrency 1: {one:.0} ms; concurrency 8: {eight:.0} ms");
    println!(
        "  speed-up {speedup:.2}x = {:.2} of the ideal 8x (target >= 0.80)",
        speedup / 8.0
    );
}
