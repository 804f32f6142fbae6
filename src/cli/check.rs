//! `verifyfast check`: the audit's number check and deterministic findings with no model
//! (docs/audit.md, "A check without a model"). One case (`--context`, `--output`) prints its
//! report as JSON; `--batch cases.jsonl` prints one JSON line per case. Each finding is also
//! described on stderr. Exit code 0: nothing counted; 5: at least one finding counts; 2: some
//! case lines were bad (the rest checked); 3: usage or I/O error.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::audit::batch::CaseSet;
use crate::audit::check::{check, CheckReport};

/// Exit code of `check` when a finding counts (a CI gate): distinct from 1 (a band gate), 2
/// (bad lines), 3 (usage) and 4 (unaudited pairs).
pub const EXIT_FINDINGS: u8 = 5;

/// Largest cases file `check --batch` reads whole (the batch streams; a check is instant).
const MAX_CASES_BYTES: usize = 256 * 1024 * 1024;

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The source material (context_input), as text.
    #[arg(long, required_unless_present = "batch", conflicts_with = "batch")]
    pub context: Option<String>,
    /// The text under audit (model_output), as text.
    #[arg(long, required_unless_present = "batch", conflicts_with = "batch")]
    pub output: Option<String>,
    /// A JSONL of cases (`id`, `context_input`, `model_output`, as `batch` reads them).
    #[arg(long)]
    pub batch: Option<PathBuf>,
    /// Strategy file (its profile's `numeric_deviation_threshold` is used).
    #[arg(long)]
    pub strategy: Option<PathBuf>,
    /// Profile of the strategy.
    #[arg(long, default_value = "default")]
    pub profile: String,
}

fn describe(prefix: &str, r: &CheckReport) {
    eprintln!("{prefix}number check: {}", r.number_grounding.summary());
    for d in &r.deterministic_findings {
        eprintln!("{prefix}deterministic finding: {}", d.describe());
    }
    for u in &r.uncounted_numbers {
        eprintln!("{prefix}not counted: {}: {}", u.text, u.describe());
    }
}

pub fn run(a: CheckArgs) -> ExitCode {
    let strategy = match super::audit::load_strategy(a.strategy.as_deref()) {
        Ok(s) => s,
        Err(e) => return super::fail(e),
    };
    let params = strategy.params_for(&a.profile);
    let mut counted = 0;
    let mut bad = 0;
    if let Some(path) = &a.batch {
        let text = match super::read_file_capped(path, MAX_CASES_BYTES, "cases file") {
            Ok(t) => t,
            Err(e) => return super::fail(e),
        };
        let set = CaseSet::from_text(&text);
        for (line, why) in &set.bad_lines {
            eprintln!("{}:{line}: {why} (skipped)", path.display());
            bad += 1;
        }
        for case in &set.cases {
            let r = check(&case.input.context_input, &case.input.model_output, &params);
            describe(&format!("id {}: ", case.key), &r);
            counted += usize::from(r.counted() > 0);
            let line = serde_json::json!({ "id": case.fields.get("id"), "check": r });
            println!("{line}");
        }
        eprintln!(
            "{} cases checked, {counted} with a counted finding",
            set.cases.len()
        );
    } else {
        let (Some(context), Some(output)) = (&a.context, &a.output) else {
            return super::fail("give --context and --output, or --batch cases.jsonl");
        };
        let r = check(context, output, &params);
        describe("", &r);
        counted = usize::from(r.counted() > 0);
        match serde_json::to_string_pretty(&r) {
            Ok(json) => println!("{json}"),
            Err(e) => return super::fail(e),
        }
    }
    if bad > 0 {
        ExitCode::from(super::EXIT_BAD_LINES)
    } else if counted > 0 {
        ExitCode::from(EXIT_FINDINGS)
    } else {
        ExitCode::SUCCESS
    }
}
