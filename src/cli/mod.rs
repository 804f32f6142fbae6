//! The native `verifyfast` command line. Each subcommand lives in its own file and
//! only parses arguments, reads/writes files and calls the pure domain modules.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod audit;
mod band;
mod check;
mod extract;
mod prove;

#[derive(Parser, Debug)]
#[command(
    name = "verifyfast",
    version = crate::VERSION,
    about = "Audit LLM reasoning: extract and grade answers, run VerifyFast audits, band reports, check proofs",
    long_about = "VerifyFast command line. The same pure core as the browser app.\n\n\
Exit codes: 0 success; 1 a gate failed (e.g. band --max-cross-band); 2 some input lines were bad \
(each reported with its line number, the rest processed); 3 a usage or I/O error; 4 batch: some \
(case, profile) pairs could not be audited (rerun with --retry-failed); 5 check: a deterministic \
finding counts."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Extract final answers from solution texts (JSONL in, JSONL out).
    Extract(extract::ExtractArgs),
    /// Grade model outputs against ground truths (JSONL in, JSONL out, summary on stderr).
    Grade(extract::GradeArgs),
    /// Audit one case with the VerifyFast three-phase protocol.
    Audit(audit::AuditArgs),
    /// Audit a JSONL of cases for one or more profiles, resumable.
    Batch(audit::BatchArgs),
    /// The number check and the deterministic findings only, no model: instant, for CI
    /// (exit 5 when a finding counts).
    Check(check::CheckArgs),
    /// Band report (confusion matrix, cross-band rate) of a results JSONL.
    Band(band::BandArgs),
    /// Replay logic problems (dev_cases.jsonl format) with the auto-accept protocol.
    Prove(prove::ProveArgs),
    /// Show the world state of an event log at a step, and its derivation chains.
    Replay(prove::ReplayArgs),
}

/// Exit code for usage and I/O errors (clap itself uses 2 for usage errors, which we keep
/// distinct from "bad lines" by mapping them here).
pub const EXIT_USAGE: u8 = 3;
/// Exit code when some input lines were bad but the run went on.
pub const EXIT_BAD_LINES: u8 = 2;
/// Exit code when a gate (e.g. `--max-cross-band`) was not met.
pub const EXIT_GATE: u8 = 1;
/// Exit code of `batch` when (case, profile) pairs remain unscored ("could not be audited")
/// at the end of the run. Distinct from 1/2 so a script can tell "rerun with
/// `--retry-failed`" from a missed gate or a bad input line.
pub const EXIT_UNAUDITED: u8 = 4;

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match cli.command {
        Command::Extract(a) => extract::run_extract(a),
        Command::Grade(a) => extract::run_grade(a),
        Command::Audit(a) => audit::run_audit(a),
        Command::Batch(a) => audit::run_batch(a),
        Command::Check(a) => check::run(a),
        Command::Band(a) => band::run(a),
        Command::Prove(a) => prove::run_prove(a),
        Command::Replay(a) => prove::run_replay(a),
    }
}

/// Report a fatal error the user can act on and return the usage/I-O exit code.
pub(crate) fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("verifyfast: {msg}");
    ExitCode::from(EXIT_USAGE)
}

/// Largest settings or strategy file read (`--settings`, `--strategy`); the same limit as
/// the Settings page's import (`config::MAX_FILE_BYTES`).
pub(crate) use crate::config::MAX_FILE_BYTES as MAX_CONFIG_BYTES;
/// Largest event log `replay` reads: a 100,000-event log is 18.7 MB (docs/logic.md).
pub(crate) const MAX_EVENT_LOG_BYTES: usize = 64 * 1024 * 1024;

/// The whole text of `reader` (a file or stdin called `name`, holding `what`), read with a cap:
/// never more than `limit + 1` bytes are buffered, and a text over the limit or not UTF-8 is
/// an error that names the file, its size (when known) and the limit (docs/audit.md, "Size
/// limits"). A 2 GiB settings file once took 4.2 GB of memory.
pub(crate) fn read_capped(
    reader: impl std::io::Read,
    known_size: Option<u64>,
    limit: usize,
    what: &str,
    name: &str,
) -> Result<String, String> {
    use std::io::Read;
    let over = |size: String| {
        format!(
            "{name}: the {what} is {size}, over the limit of {limit} bytes ({}) for a {what}",
            crate::audit::limits::human(limit)
        )
    };
    if let Some(size) = known_size.filter(|&s| s > limit as u64) {
        return Err(over(format!("{size} bytes")));
    }
    let mut bytes = Vec::new();
    reader
        .take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {what} {name}: {e}"))?;
    if bytes.len() > limit {
        return Err(over(format!("more than {limit} bytes")));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{name}: the {what} is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// [`read_capped`] of a file: its size is checked before anything is read.
pub(crate) fn read_file_capped(
    path: &std::path::Path,
    limit: usize,
    what: &str,
) -> Result<String, String> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {what} {name}: {e}"))?;
    // Only a regular file's length is its size (a pipe or /dev/zero says 0).
    let size = file
        .metadata()
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len());
    read_capped(file, size, limit, what, &name)
}
