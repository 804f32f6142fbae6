//! Logic engine figures: `cargo bench --bench logic` (add `--profile release-native` for the
//! CLI's optimisation level). Prints:
//! - replay of a 100,000-event log (target < 1 s), from parsed events and from JSON text;
//! - a step jump on a 1,000-event log with snapshots (target < 16 ms), mean and worst.

use std::time::{Duration, Instant};

use serde_json::json;
use verifyfast::logic::engine::{Action, Engine, EngineConfig};
use verifyfast::logic::events::Event;
use verifyfast::logic::fitch;
use verifyfast::logic::replay::{parse_event_log, replay, snapshot_interval, EventLog, Replayer};
use verifyfast::logic::world::{GoalSpec, Hypothesis, Problem};

fn problem() -> Problem {
    Problem {
        id: "bench".into(),
        title: "bench".into(),
        hypotheses: vec![
            Hypothesis {
                id: "H-1".into(),
                latex: "A".into(),
                kind: None,
            },
            Hypothesis {
                id: "H-2".into(),
                latex: "B".into(),
                kind: None,
            },
        ],
        goals: vec![GoalSpec {
            id: "G-1".into(),
            latex: "Z".into(),
        }],
        agents: vec!["researcher-1".into()],
        // The logs are made with auto-accept; the protocol says so, so that the Proof page
        // (which replays a log through the engine on load) reads them with the same config.
        protocol: Some("auto-accept-v1".into()),
    }
}

/// A log of at least `events` events made by the engine itself (two events per step:
/// PROPOSAL and ACCEPTED).
fn make_log(events: usize) -> Vec<Event> {
    let mut engine = Engine::new(problem(), EngineConfig::auto_accept()).unwrap();
    let mut step = 0usize;
    while engine.events().len() < events {
        let last = format!("C-{:03}", step);
        let (conclusion, premises, rule) = match step % 3 {
            0 => (
                "A \\land B",
                vec!["H-1".to_string(), "H-2".to_string()],
                "and_intro",
            ),
            1 => ("A", vec![last], "and_elim"),
            _ => ("A", vec![last], "reit"),
        };
        let out = engine.submit(&Action::new(
            "researcher-1",
            "derive",
            json!({"conclusion": conclusion, "premises": premises, "rule": rule}),
        ));
        assert!(
            out.result.is_ok(),
            "bench log step {step}: {:?}",
            out.result
        );
        step += 1;
    }
    let mut log = engine.events().to_vec();
    log.truncate(events);
    log
}

fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(f());
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let t = Instant::now();
    let big = make_log(100_000);
    println!(
        "built a {}-event log with the engine in {:.2?}",
        big.len(),
        t.elapsed()
    );
    let p = problem();
    let from_events = best_of(5, || replay(&p, &big));
    let text = serde_json::to_string(&EventLog::new(p.clone(), big.clone())).unwrap_or_default();
    // The same logs for the browser measurement (tests/e2e/proof_bench.spec.mjs).
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target")
        .join("bench-logic");
    if std::fs::create_dir_all(&dir).is_ok() {
        let small =
            serde_json::to_string(&EventLog::new(p.clone(), make_log(1_000))).unwrap_or_default();
        let _ = std::fs::write(dir.join("log-100000.json"), &text);
        let _ = std::fs::write(dir.join("log-1000.json"), small);
    }
    let from_json = best_of(3, || {
        let log = parse_event_log(&text).map(|l| replay(&l.problem, &l.events));
        log.map(|(s, _)| s.items.len()).unwrap_or(0)
    });
    println!(
        "replay 100,000 events: {:.1} ms from parsed events, {:.1} ms including JSON parsing ({:.1} MB) [target < 1000 ms]",
        from_events.as_secs_f64() * 1e3,
        from_json.as_secs_f64() * 1e3,
        text.len() as f64 / 1e6
    );

    measure_stepper("1,000-event log", &p, make_log(1_000), 2_000);
    // The page keeps a stepper over whatever log it is given, the 100,000-event one included.
    measure_stepper("100,000-event log", &p, big, 200);
}

/// Build a stepper over `events` and jump around it in a scattered but fixed order.
fn measure_stepper(name: &str, p: &Problem, events: Vec<Event>, jumps: usize) {
    let runs = if events.len() > 10_000 { 2 } else { 5 };
    let build = best_of(runs, || Replayer::new(p.clone(), events.clone()));
    let stepper = Replayer::new(p.clone(), events);
    let mut position: usize = 1;
    let mut worst = Duration::ZERO;
    let mut total = Duration::ZERO;
    for _ in 0..jumps {
        position = (position * 7919 + 13) % (stepper.len() + 1);
        let t = Instant::now();
        std::hint::black_box(stepper.state_at(position));
        let d = t.elapsed();
        worst = worst.max(d);
        total += d;
    }
    println!(
        "{name}: stepper built in {:.2} ms (a snapshot every {} events); step jump mean {:.1} µs, worst {:.1} µs over {jumps} jumps [target < 16 ms on the 1,000-event log]",
        build.as_secs_f64() * 1e3,
        snapshot_interval(stepper.len()),
        total.as_secs_f64() * 1e6 / jumps as f64,
        worst.as_secs_f64() * 1e6
    );
    // The Proof page's Fitch view at each of those steps (40 lines around the current one, as the page draws it).
    let (mut worst, mut total) = (Duration::ZERO, Duration::ZERO);
    let mut position: usize = 1;
    for _ in 0..jumps {
        position = (position * 7919 + 13) % (stepper.len() + 1);
        let state = stepper.state_at(position);
        let focus = stepper
            .event_before(position)
            .and_then(|e| e.subject_id().map(str::to_string));
        let t = Instant::now();
        std::hint::black_box(fitch::layout(
            &state,
            &fitch::FitchOptions {
                focus: focus.as_deref(),
                window: 40,
                ..Default::default()
            },
        ));
        let d = t.elapsed();
        worst = worst.max(d);
        total += d;
    }
    println!(
        "{name}: Fitch layout mean {:.1} µs, worst {:.1} µs",
        total.as_secs_f64() * 1e6 / jumps as f64,
        worst.as_secs_f64() * 1e6
    );
}
