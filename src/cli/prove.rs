//! `verifyfast prove` (batch replay of problems with `auto-accept-v1`) and `verifyfast replay`
//! (the world state of an event log at a step, with its derivation chains).

use std::io::Write;
use std::process::ExitCode;

use crate::jsonl::for_each_line;
use crate::logic::document::config_for_log;
use crate::logic::engine::Engine;
use crate::logic::protocol::{run_case, Case};
use crate::logic::replay::{derivation_chain, parse_event_log, replay};
use crate::logic::world::ItemStatus;

use super::{fail, EXIT_BAD_LINES};

#[derive(clap::Args, Debug)]
pub struct ProveArgs {
    /// Problems JSONL (dev_cases.jsonl format); `-` reads stdin.
    pub cases: Option<String>,
    /// Also write each problem's full event log as JSONL (one {"id", "events"} a line).
    #[arg(long)]
    pub events_out: Option<String>,
}

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// Event log JSON ({"problem", "events"} or an array of events); `-` reads stdin.
    pub events: Option<String>,
    /// Show the state after this many events (default: the end).
    #[arg(long)]
    pub step: Option<usize>,
}

fn open_input(path: Option<&str>) -> Result<Box<dyn std::io::Read>, String> {
    match path {
        None | Some("-") => Ok(Box::new(std::io::stdin())),
        Some(p) => std::fs::File::open(p)
            .map(|f| Box::new(f) as Box<dyn std::io::Read>)
            .map_err(|e| format!("cannot open {p}: {e}")),
    }
}

#[derive(Default)]
struct Tally {
    problems: usize,
    proved: usize,
    with_rejections: usize,
    bad_lines: usize,
    labelled: usize,
    matching: usize,
}

pub fn run_prove(a: ProveArgs) -> ExitCode {
    let input = match open_input(a.cases.as_deref()) {
        Ok(i) => i,
        Err(e) => return fail(e),
    };
    let mut events_out = match a.events_out.as_deref().map(std::fs::File::create) {
        None => None,
        Some(Ok(f)) => Some(std::io::BufWriter::new(f)),
        Some(Err(e)) => return fail(format!("cannot create the events file: {e}")),
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut tally = Tally::default();
    let mut write_error = None;
    let read = for_each_line(input, |line| {
        let text = match line.text {
            Ok(t) => t,
            Err(e) => {
                eprintln!("verifyfast prove: {e}");
                tally.bad_lines += 1;
                return;
            }
        };
        let case: Case = match serde_json::from_str(&text) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("verifyfast prove: line {}: not a problem: {e}", line.number);
                tally.bad_lines += 1;
                return;
            }
        };
        let run = run_case(&case);
        if let Some(e) = &run.problem_error {
            eprintln!(
                "verifyfast prove: line {}: problem {} refused: {e}",
                line.number, case.id
            );
            tally.bad_lines += 1;
            return;
        }
        tally.problems += 1;
        tally.proved += usize::from(run.goal_proved);
        tally.with_rejections += usize::from(!run.rejected_steps().is_empty());
        if let Some(expect) = &case.expect {
            tally.labelled += 1;
            tally.matching += usize::from(run.matches(expect));
        }
        if let Err(e) = writeln!(out, "{}", run.summary_json()) {
            write_error.get_or_insert(e);
        }
        if let Some(w) = events_out.as_mut() {
            let line = serde_json::json!({"id": run.id, "events": run.events()});
            if let Err(e) = writeln!(w, "{line}") {
                write_error.get_or_insert(e);
            }
        }
    });
    if let Err(e) = read {
        return fail(format!("reading the cases failed: {e}"));
    }
    let flushed = out.flush().and_then(|_| match events_out.as_mut() {
        Some(w) => w.flush(),
        None => Ok(()),
    });
    if let Some(e) = write_error.or(flushed.err()) {
        return fail(format!("writing the results failed: {e}"));
    }
    eprintln!(
        "verifyfast prove: {} problems, {} proved, {} with rejected steps, {} bad lines{}",
        tally.problems,
        tally.proved,
        tally.with_rejections,
        tally.bad_lines,
        if tally.labelled > 0 {
            format!(
                "; {}/{} match their expected labels",
                tally.matching, tally.labelled
            )
        } else {
            String::new()
        }
    );
    if tally.bad_lines > 0 {
        ExitCode::from(EXIT_BAD_LINES)
    } else {
        ExitCode::SUCCESS
    }
}

pub fn run_replay(a: ReplayArgs) -> ExitCode {
    let limit = super::MAX_EVENT_LOG_BYTES;
    let read = match a.events.as_deref() {
        None | Some("-") => super::read_capped(std::io::stdin(), None, limit, "event log", "stdin"),
        Some(p) => super::read_file_capped(std::path::Path::new(p), limit, "event log"),
    };
    let text = match read {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let log = match parse_event_log(&text) {
        Ok(l) => l,
        Err(e) => return fail(format!("event log: {e}")),
    };
    // Memory stays proportional to the log: the text goes before the events are replayed, the
    // checking engine before the state is built, and one state is built (no stepper snapshots:
    // the CLI shows a single step).
    drop(text);
    // The state is shown as recorded either way; a log the engine could not have written is
    // reported (exit 2), as the Proof page refuses to load it.
    let refused = Engine::from_log(
        log.problem.clone(),
        config_for_log(&log.problem, &log.events),
        &log.events,
    )
    .err()
    .inspect(|e| eprintln!("verifyfast replay: the engine could not have written this log: {e}"));
    let total = log.events.len();
    let step = a.step.unwrap_or(total).min(total);
    let (state, issues) = replay(&log.problem, log.events.get(..step).unwrap_or_default());
    for issue in &issues {
        eprintln!("verifyfast replay: {issue}");
    }
    let ids = |status: ItemStatus| -> Vec<serde_json::Value> {
        state
            .items_with(status)
            .map(|i| {
                serde_json::json!({
                    "id": i.id, "latex": i.latex, "rule": i.rule,
                    "derivedFrom": i.premises, "dependsOn": i.depends_on,
                    "proposedBy": i.proposed_by, "code": i.code, "message": i.message,
                })
            })
            .collect()
    };
    let chains: serde_json::Map<String, serde_json::Value> = state
        .goals
        .iter()
        .map(|g| {
            let chain = derivation_chain(&state, &g.id);
            (g.id.clone(), serde_json::json!(chain))
        })
        .collect();
    let report = serde_json::json!({
        "step": step,
        "events": total,
        "event": step.checked_sub(1).and_then(|i| log.events.get(i)),
        "hypotheses": state.problem.hypotheses,
        "accepted": ids(ItemStatus::Accepted),
        "pending": ids(ItemStatus::Pending),
        "rejected": ids(ItemStatus::Rejected),
        "blocked": ids(ItemStatus::Blocked),
        "retracted": ids(ItemStatus::Retracted),
        "refutations": state.refutations,
        "goals": state.goals,
        "chains": chains,
    });
    match serde_json::to_string_pretty(&report) {
        Ok(s) => println!("{s}"),
        Err(e) => return fail(format!("cannot write the report: {e}")),
    }
    if issues.is_empty() && refused.is_none() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_BAD_LINES)
    }
}
