//! `verifyfast audit` (one case) and `verifyfast batch` (a JSONL of cases × profiles).
//! Files and the terminal live here; the protocol is `crate::audit`.

use crate::sorted_map::SortedMap;
use std::fs::{self, File, OpenOptions};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use serde_json::Value;

use crate::audit::batch::{self, CaseSet, Progress};
use crate::audit::{self as protocol, AuditInput, AuditPlan, PhaseStatus, PhaseUpdate};
use crate::config::{Format, Settings, Strategy};
use crate::llm::ChatTransport;

use super::{fail, EXIT_BAD_LINES, EXIT_GATE};

#[derive(clap::Args, Debug)]
pub struct AuditArgs {
    /// Profile name from the settings file (its run model does Phase 1, its verify model
    /// Phases 2 and 3).
    #[arg(long)]
    pub profile: String,
    /// File holding context_input (the source material).
    #[arg(long)]
    pub context: PathBuf,
    /// File holding model_output (the text under audit).
    #[arg(long)]
    pub output: PathBuf,
    /// Settings file (YAML or JSON, the design note's settings.yaml shape).
    #[arg(long, default_value = "settings.yaml")]
    pub settings: PathBuf,
    /// Strategy file (YAML or JSON); the built-in defaults when absent.
    #[arg(long)]
    pub strategy: Option<PathBuf>,
    /// Write the report JSON here instead of stdout.
    #[arg(long = "report")]
    pub report: Option<PathBuf>,
    /// Per-call timeout in seconds (each retry gets its own).
    #[arg(long = "timeout-s", default_value_t = 120)]
    pub timeout_s: u64,
}

#[derive(clap::Args, Debug)]
pub struct BatchArgs {
    /// Cases JSONL (id, tag, difficulty, description, context_input, model_output,
    /// expected_credit_score).
    pub cases: PathBuf,
    /// Settings file (YAML or JSON).
    #[arg(long, default_value = "settings.yaml")]
    pub settings: PathBuf,
    /// Strategy file (YAML or JSON); the built-in defaults when absent.
    #[arg(long)]
    pub strategy: Option<PathBuf>,
    /// Profiles to run, each case once per profile (default: every profile in the settings).
    #[arg(long, num_args = 1..)]
    pub profiles: Vec<String>,
    /// Audits in flight at once.
    #[arg(long, default_value_t = 4)]
    pub concurrency: usize,
    /// Results JSONL. If it exists, (id, profile) pairs already in it are skipped.
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
    /// Per-call timeout in seconds (each retry gets its own).
    #[arg(long = "timeout-s", default_value_t = 120)]
    pub timeout_s: u64,
}

fn read_text(path: &Path, what: &str) -> Result<String, String> {
    fs::read_to_string(path).map_err(|e| format!("cannot read {what} {}: {e}", path.display()))
}

pub(super) fn load_settings(path: &Path) -> Result<Settings, String> {
    let text = read_text(path, "settings")?;
    let name = path.to_string_lossy();
    let (settings, notes) = Settings::from_text_with_notes(&text, Format::from_file_name(&name))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    for note in notes {
        eprintln!("{}: {note}", path.display());
    }
    Ok(settings)
}

fn load_strategy(path: Option<&Path>) -> Result<Strategy, String> {
    let Some(path) = path else {
        return Ok(Strategy::default());
    };
    let text = read_text(path, "strategy")?;
    let name = path.to_string_lossy();
    Strategy::from_text(&text, Format::from_file_name(&name))
        .map_err(|e| format!("{}: {e}", path.display()))
}

pub(super) fn env_var(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

fn plan(settings: &Settings, strategy: &Strategy, profile: &str) -> Result<AuditPlan, String> {
    AuditPlan::from_settings(settings, strategy, profile, &env_var).map_err(|e| e.to_string())
}

/// The native HTTP client: one thread per call (so audits and Phases 2/3 overlap),
/// retries with backoff on 408/409/429/5xx/network errors, a per-call timeout.
fn transport(timeout_s: u64) -> Box<dyn ChatTransport> {
    Box::new(crate::llm::native::client(
        timeout_s.saturating_mul(1000),
        None,
    ))
}

fn phase_line(u: &PhaseUpdate) -> String {
    let label = u.phase.label();
    match &u.status {
        PhaseStatus::Started => format!("{label}: started"),
        PhaseStatus::Reasking { parse_error } => {
            format!("{label}: asking once more: {parse_error}")
        }
        PhaseStatus::Done { latency_ms, tokens } => {
            format!("{label}: done in {latency_ms} ms, {tokens} tokens")
        }
        PhaseStatus::Failed { reason } => format!("{label}: failed: {reason}"),
    }
}

pub fn run_audit_cmd(a: AuditArgs) -> Result<ExitCode, String> {
    let settings = load_settings(&a.settings)?;
    let strategy = load_strategy(a.strategy.as_deref())?;
    let plan = plan(&settings, &strategy, &a.profile)?;
    let input = AuditInput {
        context_input: read_text(&a.context, "context")?,
        model_output: read_text(&a.output, "model output")?,
    };
    let transport = transport(a.timeout_s);
    let progress = |u: PhaseUpdate| eprintln!("{}", phase_line(&u));
    let report =
        futures::executor::block_on(protocol::run_audit(&*transport, &plan, &input, &progress));
    let json = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())? + "\n";
    match &a.report {
        Some(path) => {
            fs::write(path, &json).map_err(|e| format!("cannot write {}: {e}", path.display()))?
        }
        None => print!("{json}"),
    }
    match (&report.could_not_audit, report.credit_score, report.band) {
        (Some(cna), _, _) => {
            eprintln!("{cna}");
            eprintln!("What to do: {}", cna.kind.fix());
            Ok(ExitCode::from(EXIT_GATE))
        }
        (None, Some(score), Some(band)) => {
            eprintln!(
                "credit_score {score} ({}) · {} High, {} Low",
                band.as_str(),
                report.high_count,
                report.low_count
            );
            Ok(ExitCode::SUCCESS)
        }
        _ => Ok(ExitCode::from(EXIT_GATE)),
    }
}

pub fn run_audit(a: AuditArgs) -> ExitCode {
    run_audit_cmd(a).unwrap_or_else(fail)
}

pub fn run_batch(a: BatchArgs) -> ExitCode {
    run_batch_cmd(a).unwrap_or_else(fail)
}

fn read_cases(path: &Path) -> Result<CaseSet, String> {
    let file = File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut set = CaseSet::default();
    crate::jsonl::for_each_line(file, |line| match line.text {
        Ok(t) => set.push_line(line.number, &t),
        Err(e) => set.bad_lines.push((line.number, e.to_string())),
    })
    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(set)
}

/// The lines of an earlier results file. A last line without its newline is the trace
/// of a crash mid-write: it is cut off so the append starts on a clean line.
fn existing_results(path: &Path) -> Result<Vec<String>, String> {
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let complete = bytes
        .iter()
        .rposition(|&b| b == b'\n')
        .map(|i| i + 1)
        .unwrap_or(0);
    if complete < bytes.len() {
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        file.set_len(complete as u64)
            .map_err(|e| format!("cannot repair {}: {e}", path.display()))?;
        eprintln!(
            "{}: dropped a half-written last line ({} bytes); its pair will be redone",
            path.display(),
            bytes.len() - complete
        );
    }
    Ok(String::from_utf8_lossy(&bytes[..complete])
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect())
}

fn draw(progress: &Progress, tty: bool) {
    let bar = progress.bar(30);
    if tty {
        eprint!("\r{bar}\x1b[K");
    } else if progress.done == progress.total || progress.done.is_multiple_of(10) {
        eprintln!("{bar}");
    }
}

/// Rewrite a finished results file in case × profile order (atomically, via rename), so
/// the file of a run does not depend on which audit happened to finish first.
fn sort_file(path: &Path, cases: &CaseSet, profiles: &[String]) -> Result<(), String> {
    let lines = existing_results(path)?;
    let mut parsed = Vec::new();
    let mut foreign = Vec::new();
    for l in lines {
        match serde_json::from_str::<Value>(&l) {
            Ok(v) => parsed.push(v),
            Err(_) => foreign.push(l),
        }
    }
    batch::sort_results(&mut parsed, &cases.cases, profiles);
    let mut out = String::new();
    for v in &parsed {
        out.push_str(&serde_json::to_string(v).map_err(|e| e.to_string())?);
        out.push('\n');
    }
    for l in foreign {
        out.push_str(&l);
        out.push('\n');
    }
    let tmp = path.with_extension("jsonl.sorting");
    fs::write(&tmp, out).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    fs::rename(&tmp, path).map_err(|e| format!("cannot replace {}: {e}", path.display()))
}

pub fn run_batch_cmd(a: BatchArgs) -> Result<ExitCode, String> {
    let settings = load_settings(&a.settings)?;
    let strategy = load_strategy(a.strategy.as_deref())?;
    let profiles: Vec<String> = if a.profiles.is_empty() {
        settings.profiles.keys().cloned().collect()
    } else {
        a.profiles.clone()
    };
    if profiles.is_empty() {
        return Err(format!("{}: no profiles defined", a.settings.display()));
    }
    let plans = profiles
        .iter()
        .map(|p| plan(&settings, &strategy, p).map(|plan| (p.clone(), plan)))
        .collect::<Result<SortedMap<_, _>, _>>()?;
    let cases = read_cases(&a.cases)?;
    for (line, why) in &cases.bad_lines {
        eprintln!("{}:{line}: {why} (skipped)", a.cases.display());
    }
    let earlier = existing_results(&a.output)?;
    let done = batch::done_pairs(earlier.iter().map(String::as_str));
    let (jobs, skipped) = batch::plan_jobs(&cases.cases, &profiles, &done);
    if skipped > 0 {
        eprintln!(
            "resuming: {skipped} (id, profile) pairs already in {}",
            a.output.display()
        );
    }
    let transport = transport(a.timeout_s);
    let mut out = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&a.output)
        .map_err(|e| format!("cannot open {}: {e}", a.output.display()))?;
    let started = Instant::now();
    let clock = move || started.elapsed().as_secs_f64() * 1000.0;
    let tty = std::io::stderr().is_terminal();
    let mut write_error: Option<String> = None;
    let mut on_result = |line: serde_json::Map<String, Value>, progress: &Progress| {
        if write_error.is_some() {
            return;
        }
        let text = match serde_json::to_string(&line) {
            Ok(t) => t + "\n",
            Err(e) => {
                write_error = Some(e.to_string());
                return;
            }
        };
        // One write per line, flushed at once: a crash loses at most the audits in flight.
        if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
            write_error = Some(format!("cannot write {}: {e}", a.output.display()));
        }
        draw(progress, tty);
    };
    let progress = futures::executor::block_on(batch::run_batch(
        &*transport,
        &plans,
        jobs,
        skipped,
        a.concurrency,
        &clock,
        &mut on_result,
    ))
    .map_err(|e| e.to_string())?;
    if tty {
        eprintln!();
    }
    if let Some(e) = write_error {
        return Err(e);
    }
    sort_file(&a.output, &cases, &profiles)?;
    eprintln!(
        "{} audited, {} could not be audited, {} skipped as done, in {:.1} s → {}",
        progress.done,
        progress.failures,
        progress.skipped,
        progress.elapsed_ms / 1000.0,
        a.output.display()
    );
    Ok(if cases.bad_lines.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_BAD_LINES)
    })
}
