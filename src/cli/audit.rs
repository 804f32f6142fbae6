//! `verifyfast audit` (one case) and `verifyfast batch` (a JSONL of cases × profiles).
//! Files and the terminal live here; the protocol is `crate::audit`.

use crate::sorted_map::SortedMap;
use std::collections::HashSet;
use std::fs::{self, File, OpenOptions};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use serde_json::Value;

use crate::audit::batch::{
    self, Case, CaseError, CaseKey, FailedPair, Job, NotAResultLine, Progress, StoredLine,
};
use crate::audit::limits;
use crate::audit::{self as protocol, AuditInput, AuditPlan, PhaseStatus, PhaseUpdate};
use crate::config::{Format, Settings, Strategy};
use crate::llm::ChatTransport;
use std::rc::Rc;

use super::{fail, EXIT_BAD_LINES, EXIT_GATE, EXIT_UNAUDITED};

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
    /// Settings file (YAML or JSON, the settings.yaml shape of docs/audit.md).
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
    /// Re-run only the (id, profile) pairs whose line in the results says they could not be
    /// audited, and replace those lines; scored lines are kept byte for byte.
    #[arg(long)]
    pub retry_failed: bool,
    /// Per-call timeout in seconds (each retry gets its own).
    #[arg(long = "timeout-s", default_value_t = 120)]
    pub timeout_s: u64,
    /// Replace OUT even when it is not a results file of this batch (it is refused
    /// otherwise). Never replaces the cases, settings or strategy file.
    #[arg(long)]
    pub force: bool,
}

/// An audited text (`--context`, `--output`), read no further than its limit: a larger file
/// is refused with its size and the limit (`audit::limits`), never read whole.
fn read_input(path: &Path, field: &'static str) -> Result<String, String> {
    let limit = limits::FIELD_LIMITS
        .iter()
        .find(|(f, _)| *f == field)
        .map_or(0, |&(_, l)| l);
    let text = super::read_file_capped(path, limit, &format!("{field} file"))?;
    limits::check_field(field, text.len()).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text)
}

pub(super) fn load_settings(path: &Path) -> Result<Settings, String> {
    let text = super::read_file_capped(path, super::MAX_CONFIG_BYTES, "settings file")?;
    let name = path.to_string_lossy();
    let (settings, notes) = Settings::from_text_with_notes(&text, Format::from_file_name(&name))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    for note in notes {
        eprintln!("{}: {note}", path.display());
    }
    Ok(settings)
}

pub(super) fn load_strategy(path: Option<&Path>) -> Result<Strategy, String> {
    let Some(path) = path else {
        return Ok(Strategy::default());
    };
    let text = super::read_file_capped(path, super::MAX_CONFIG_BYTES, "strategy file")?;
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
        PhaseStatus::Findings { findings } => format!("{label}: {} errors", findings.len()),
        PhaseStatus::Claims { claims, deductions } => format!(
            "{label}: {} claims, {} deductions",
            claims.len(),
            deductions.len()
        ),
    }
}

pub fn run_audit_cmd(a: AuditArgs) -> Result<ExitCode, String> {
    let settings = load_settings(&a.settings)?;
    let strategy = load_strategy(a.strategy.as_deref())?;
    let plan = plan(&settings, &strategy, &a.profile)?;
    let input = AuditInput {
        context_input: read_input(&a.context, "context_input")?,
        model_output: read_input(&a.output, "model_output")?,
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
    eprintln!("number check: {}", report.number_grounding.summary());
    for d in &report.deterministic_findings {
        eprintln!("deterministic finding: {}", d.describe());
    }
    for line in report
        .errors
        .iter()
        .filter_map(crate::audit::evidence::describe)
    {
        eprintln!("warning: {line}");
    }
    for d in &report.dropped {
        eprintln!("warning: {}", d.describe());
    }
    for c in &report.contradictions {
        eprintln!("warning: {}", c.describe());
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

/// Where one case is in the cases file, with its `id`: the batch holds this per case, never
/// the case's texts (up to 1.5 MB each); a case's line is read again when its pairs run
/// (docs/audit.md, "Size limits").
#[derive(Debug, Clone, PartialEq, Eq)]
struct CaseEntry {
    key: String,
    offset: u64,
    len: usize,
}

impl batch::CaseKey for CaseEntry {
    fn case_key(&self) -> &str {
        &self.key
    }
}

/// The cases of a cases file as [`CaseEntry`], with its bad lines (1-based line number, why)
/// kept apart, exactly as [`batch::CaseSet`] reads them.
#[derive(Debug, Default)]
struct CaseIndex {
    cases: Vec<CaseEntry>,
    bad_lines: Vec<(usize, String)>,
}

/// One audit of a CLI batch: where its case is, the profile, and the profile's plan.
type PlannedPair<'a> = (&'a CaseEntry, String, &'a AuditPlan);

/// Index the cases file line by line: each line is parsed (and checked) as it passes and only
/// its place and `id` are kept.
fn read_cases(path: &Path) -> Result<CaseIndex, String> {
    use std::io::BufRead;
    let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let file = File::open(path).map_err(cannot)?;
    let mut reader = std::io::BufReader::with_capacity(64 * 1024, file);
    // The splitter's offsets count from after a BOM.
    let bom = if reader
        .fill_buf()
        .map_err(cannot)?
        .starts_with(b"\xEF\xBB\xBF")
    {
        3
    } else {
        0
    };
    let mut index = CaseIndex::default();
    let mut seen: HashSet<String> = HashSet::new();
    let mut add = |line: crate::jsonl::Line| match line.text {
        Ok(t) => match batch::parse_case(&t) {
            Ok(case) if seen.contains(&case.key) => index
                .bad_lines
                .push((line.number, CaseError::DuplicateId(case.key).to_string())),
            Ok(case) => {
                seen.insert(case.key.clone());
                index.cases.push(CaseEntry {
                    key: case.key,
                    offset: line.offset + bom,
                    len: t.len(),
                });
            }
            Err(e) => index.bad_lines.push((line.number, e.to_string())),
        },
        Err(e) => index.bad_lines.push((line.number, e.to_string())),
    };
    let mut splitter = crate::jsonl::LineSplitter::with_max_line_bytes(limits::MAX_CASE_LINE_BYTES);
    loop {
        let buf = reader.fill_buf().map_err(cannot)?;
        if buf.is_empty() {
            break;
        }
        let n = buf.len();
        splitter.push(buf, &mut add);
        reader.consume(n);
    }
    splitter.finish(&mut add);
    Ok(index)
}

/// Read the case at `entry` back from the cases file, for its audits. The file changed since
/// it was indexed when the line is no longer there or no longer that case.
fn read_case(path: &Path, entry: &CaseEntry) -> Result<Case, String> {
    use std::io::{Read, Seek, SeekFrom};
    let changed = || {
        format!(
            "{} changed while the batch ran: case {} is no longer where it was; rerun the batch (finished pairs are kept)",
            path.display(),
            entry.key
        )
    };
    let mut f = File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    f.seek(SeekFrom::Start(entry.offset))
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    Read::take(&mut f, entry.len as u64)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|_| changed())?;
    match batch::parse_case(&text) {
        Ok(case) if case.key == entry.key => Ok(case),
        _ => Err(changed()),
    }
}

/// `path` with `suffix` added to its file name (`results.jsonl` → `results.jsonl.journal`),
/// so helper files sit in the same directory (a rename never crosses file systems).
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// The journal a running batch appends its results to; folded into the results file when
/// the run ends (or, after a crash, when the next run starts).
fn journal_path(out: &Path) -> PathBuf {
    sibling(out, ".journal")
}

/// Where one line of a results file or journal is (which file, byte offset, length), with
/// what merging needs (its pair, whether it failed): a fold copies lines from file to file
/// and never holds their texts (a results line carries its case's texts, up to 1.5 MB).
#[derive(Debug, Clone)]
struct Located {
    pair: Option<(String, String)>,
    failed: bool,
    /// The `error` of a failed line, for the summary of unscored pairs.
    error: Option<String>,
    file: usize,
    offset: u64,
    len: usize,
}

/// The complete lines of a JSONL file (none when it does not exist) as [`Located`], and how
/// many bytes of a half-written last line (the trace of a crash mid-write) were left out.
/// Read line by line; the file is not changed here.
fn index_lines(path: &Path, file: usize) -> Result<(Vec<Located>, u64), String> {
    use std::io::BufRead;
    let f = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), 0)),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let mut reader = std::io::BufReader::with_capacity(64 * 1024, f);
    // The splitter's offsets count from after a BOM.
    let bom = if reader
        .fill_buf()
        .map_err(cannot)?
        .starts_with(b"\xEF\xBB\xBF")
    {
        3
    } else {
        0
    };
    let mut lines = Vec::new();
    let mut total = 0u64;
    let locate = |line: crate::jsonl::Line| {
        let (len, read) = match &line.text {
            Ok(t) => (t.len(), batch::ResultLine::parse(t)),
            // Not UTF-8 or too long: kept where it is, byte for byte, never replaced.
            Err(_) => (0, None),
        };
        let failed = read.as_ref().is_none_or(batch::ResultLine::failed);
        Located {
            pair: read.as_ref().map(batch::ResultLine::pair),
            failed,
            error: read.and_then(|l| l.error).filter(|_| failed),
            file,
            offset: line.offset + bom,
            len,
        }
    };
    let mut splitter = crate::jsonl::LineSplitter::default();
    loop {
        let buf = reader.fill_buf().map_err(cannot)?;
        if buf.is_empty() {
            break;
        }
        let n = buf.len();
        splitter.push(buf, &mut |l| lines.push(locate(l)));
        total += n as u64;
        reader.consume(n);
    }
    // A last line without its newline is a write torn by a crash: left out (its pair is redone).
    let mut torn = 0;
    splitter.finish(&mut |l| torn = total - (l.offset + bom));
    // An unreadable line's length is not in the splitter's report: measure it from the next
    // line's start (or the end of the complete lines).
    let complete_end = total - torn;
    for i in 0..lines.len() {
        if lines[i].len == 0 {
            let next = lines.get(i + 1).map_or(complete_end, |n| n.offset);
            let len = next.saturating_sub(lines[i].offset + 1);
            lines[i].len = usize::try_from(len).unwrap_or(usize::MAX);
        }
    }
    Ok((lines, torn))
}

/// Replace `path` with what `write` produces, atomically: the text goes to a temporary file
/// in the same directory, is flushed to disk, and is renamed over `path`. A reader (or a
/// crash) sees the old file or the new one, never a mix; if `write` fails, `path` is
/// untouched and the temporary file is removed.
pub(crate) fn replace_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), String> {
    let tmp = sibling(path, ".tmp");
    // Never follow a link planted at the temporary name (it would overwrite the file it points
    // to): refuse it. A regular file left by a crash is ours to replace.
    match fs::symlink_metadata(&tmp) {
        Ok(m) if m.file_type().is_symlink() || !m.is_file() => {
            return Err(format!(
                "cannot write {}: {} exists and is not a regular file (a link or a directory); \
remove it and run again",
                path.display(),
                tmp.display()
            ))
        }
        Ok(_) => {
            let _ = fs::remove_file(&tmp);
        }
        Err(_) => {}
    }
    let result = (|| {
        // `create_new` (O_CREAT | O_EXCL) never follows a link, so one planted since the check
        // above makes the write fail instead of landing elsewhere.
        let file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        let mut w = std::io::BufWriter::new(file);
        write(&mut w)?;
        let file = w.into_inner().map_err(|e| e.into_error())?;
        // On disk before the rename, or a power cut could leave an empty file in its place.
        file.sync_all()?;
        fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        format!("cannot write {}: {e}", path.display())
    })
}

/// Replace `out` with `lines` copied from `files` (the results file and the journal), each
/// followed by a newline, atomically.
fn write_located(out: &Path, files: [&Path; 2], lines: &[Located]) -> Result<(), String> {
    use std::io::{Read, Seek, SeekFrom};
    let mut open: [Option<File>; 2] = [None, None];
    replace_atomically(out, |w| {
        for l in lines {
            let slot = &mut open[l.file];
            if slot.is_none() {
                *slot = Some(File::open(files[l.file])?);
            }
            let Some(f) = slot.as_mut() else {
                continue;
            };
            f.seek(SeekFrom::Start(l.offset))?;
            let copied = std::io::copy(&mut Read::take(&mut *f, l.len as u64), w)?;
            if copied != l.len as u64 {
                return Err(std::io::Error::other(format!(
                    "{} changed while it was being folded",
                    files[l.file].display()
                )));
            }
            w.write_all(b"\n")?;
        }
        Ok(())
    })
}

/// Fold a journal left by an earlier (finished or killed) run into the results file:
/// failed lines are replaced by newer ones for their pair, scored lines never
/// (`batch::merge_results`), in case × profile order. The results file is replaced
/// atomically and only then is the journal removed, so a crash at any point loses nothing:
/// until the rename the old file and the journal are both there.
fn fold_journal(
    out: &Path,
    cases: &[impl CaseKey],
    profiles: &[String],
) -> Result<Vec<StoredLine>, String> {
    let journal = journal_path(out);
    let (earlier, torn_out) = index_lines(out, 0)?;
    let (newer, torn_journal) = index_lines(&journal, 1)?;
    for (path, torn) in [(out, torn_out), (journal.as_path(), torn_journal)] {
        if torn > 0 {
            eprintln!(
                "{}: dropped a half-written last line ({torn} bytes); its pair will be redone",
                path.display()
            );
        }
    }
    let journal_exists = journal.exists();
    let mut lines = batch::merge_by(earlier, newer, |l| l.pair.clone(), |l| l.failed);
    if journal_exists || torn_out > 0 {
        batch::sort_by_pair(&mut lines, cases, profiles, |l| l.pair.clone());
        write_located(out, [out, journal.as_path()], &lines)?;
        if journal_exists {
            fs::remove_file(&journal)
                .map_err(|e| format!("cannot remove {}: {e}", journal.display()))?;
        }
    }
    // What resume and the summary need: the pair, failed or not, and a failure's reason.
    Ok(lines
        .into_iter()
        .map(|l| StoredLine {
            text: l
                .error
                .map(|e| crate::jsonl::compact(&serde_json::json!({ "error": e })))
                .unwrap_or_default(),
            pair: l.pair,
            failed: l.failed,
        })
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

/// The identity of an existing file (device and inode), to tell the same file under two
/// names (a symlink, a hard link, `./x` and `x`) apart from two files.
#[cfg(unix)]
fn identity(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn identity(_path: &Path) -> Option<(u64, u64)> {
    None
}

/// `path` made absolute with its directory resolved, also when the file does not exist yet.
fn canonical(path: &Path) -> Option<PathBuf> {
    if let Ok(p) = fs::canonicalize(path) {
        return Some(p);
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => fs::canonicalize(p).ok()?,
        _ => std::env::current_dir().ok()?,
    };
    Some(parent.join(path.file_name()?))
}

/// Whether two paths name one file (same canonical path, or same device and inode).
fn same_file(a: &Path, b: &Path) -> bool {
    if let (Some(x), Some(y)) = (canonical(a), canonical(b)) {
        if x == y {
            return true;
        }
    }
    matches!((identity(a), identity(b)), (Some(x), Some(y)) if x == y)
}

/// Refuses an output that is one of the batch's inputs (never replaced, `--force` or not),
/// and an existing output that is not a regular file.
fn check_output_is_not_an_input(a: &BatchArgs) -> Result<(), String> {
    let out = &a.output;
    let inputs = [
        Some(("cases", a.cases.as_path())),
        Some(("settings", a.settings.as_path())),
        a.strategy.as_deref().map(|s| ("strategy", s)),
    ];
    for (what, input) in inputs.into_iter().flatten() {
        for (role, path) in [
            ("-o", out.clone()),
            ("the journal of -o", journal_path(out)),
            ("the temporary file of -o", sibling(out, ".tmp")),
        ] {
            if same_file(&path, input) {
                return Err(format!(
                    "refusing to write results to {}: {role} is the {what} file {}; choose another -o (--force never replaces an input)",
                    path.display(),
                    input.display()
                ));
            }
        }
    }
    if let Ok(meta) = fs::metadata(out) {
        if !meta.is_file() {
            return Err(format!(
                "refusing to write results to {}: it is not a regular file (a directory or a device); choose another -o",
                out.display()
            ));
        }
    }
    Ok(())
}

/// Why the line `text` (line `number`) is not a results line of a batch over `case_ids`, if
/// it is not one: a results line is a JSON object with the `id` of one of the cases, a
/// `profile`, and a `credit_score` or an `error`.
pub(crate) fn not_a_result_line(
    number: usize,
    text: &str,
    case_ids: &HashSet<&str>,
) -> Option<String> {
    let head: String = text.chars().take(40).collect();
    let id = match batch::ResultLine::check(text) {
        Ok(line) => line.id,
        Err(NotAResultLine::NotObject) => {
            return Some(format!(
                "line {number} is not a JSON object (it starts `{head}`)"
            ))
        }
        Err(NotAResultLine::NoId) => return Some(format!("line {number} has no `id`")),
        Err(NotAResultLine::NoProfile { id }) => {
            return Some(format!(
                "line {number} (id {id}) has no `profile`: a cases line, not a result?"
            ))
        }
        Err(NotAResultLine::NoOutcome { id }) => {
            return Some(format!(
                "line {number} (id {id}) has neither `credit_score` nor `error`"
            ))
        }
    };
    if !case_ids.contains(id.as_str()) {
        return Some(format!(
            "line {number} is for id {id}, which is not a case of this cases file (the results of another batch?)"
        ));
    }
    None
}

/// Why an existing file at `path` is not a results file (or journal) of this batch, if it
/// is not one. Read line by line, never whole; a half-written last line (a crash mid-write)
/// is allowed, it is dropped when the file is folded.
fn foreign_content(path: &Path, cases: &CaseIndex) -> Result<Option<String>, String> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let ids: HashSet<&str> = cases.cases.iter().map(|c| c.key.as_str()).collect();
    let why: std::cell::RefCell<Option<String>> = Default::default();
    let mut splitter = crate::jsonl::LineSplitter::default();
    let mut check = |line: crate::jsonl::Line| {
        let mut why = why.borrow_mut();
        if why.is_none() {
            *why = match &line.text {
                Ok(t) => not_a_result_line(line.number, t, &ids),
                Err(e) => Some(format!("{e} (a binary file?)")),
            };
        }
    };
    let mut reader = std::io::BufReader::with_capacity(64 * 1024, file);
    loop {
        use std::io::BufRead;
        let buf = reader
            .fill_buf()
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if buf.is_empty() {
            break;
        }
        let n = buf.len();
        splitter.push(buf, &mut check);
        reader.consume(n);
        if why.borrow().is_some() {
            return Ok(why.take());
        }
    }
    // The last line without a newline: the start of a JSON object that does not parse is a
    // write torn by a crash (dropped and redone when the file is folded); any other last line
    // is checked like the others.
    let mut last: Option<crate::jsonl::Line> = None;
    splitter.finish(&mut |l| last = Some(l));
    let Some(last) = last else {
        return Ok(None);
    };
    let torn = last.text.as_ref().is_ok_and(|t| {
        t.trim_start().starts_with('{') && serde_json::from_str::<Value>(t).is_err()
    });
    if !torn {
        check(last);
    }
    Ok(why.take())
}

/// Refuses (or with `--force` replaces) an output file or journal that is not this batch's.
fn check_output_content(a: &BatchArgs, cases: &CaseIndex) -> Result<(), String> {
    let journal = journal_path(&a.output);
    for path in [a.output.as_path(), journal.as_path()] {
        let Some(why) = foreign_content(path, cases)? else {
            continue;
        };
        if !a.force {
            return Err(format!(
                "refusing to write results to {}: {} is not a results file of this batch: {why}. \
                 Choose another -o, or pass --force to replace it",
                a.output.display(),
                path.display()
            ));
        }
        eprintln!(
            "replacing {} (--force): it is not a results file of this batch: {why}",
            path.display()
        );
        if path == journal.as_path() {
            fs::remove_file(path).map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
        } else {
            replace_atomically(path, |_| Ok(()))?;
        }
    }
    Ok(())
}

/// `--profiles p p`: each pair would be audited twice.
fn check_profiles_distinct(profiles: &[String]) -> Result<(), String> {
    for (i, p) in profiles.iter().enumerate() {
        if profiles[..i].contains(p) {
            return Err(format!(
                "--profiles names `{p}` more than once: each case is audited once per profile; remove the repeat"
            ));
        }
    }
    Ok(())
}

pub fn run_batch_cmd(a: BatchArgs) -> Result<ExitCode, String> {
    check_profiles_distinct(&a.profiles)?;
    check_output_is_not_an_input(&a)?;
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
    check_output_content(&a, &cases)?;
    // Results of an earlier run that was killed are still in its journal: fold them in
    // first, so they count as done.
    let earlier = fold_journal(&a.output, &cases.cases, &profiles)?;
    let settled = batch::settled_pairs(&earlier, a.retry_failed);
    let (jobs, skipped) = batch::plan_pairs(&cases.cases, &profiles, &settled);
    if a.retry_failed {
        eprintln!(
            "retrying {} pairs that could not be audited; {skipped} scored pairs in {} are kept as they are",
            jobs.len(),
            a.output.display()
        );
    } else if skipped > 0 {
        // Without the flag every pair with a line is done; those of them unscored are failures.
        let failed = batch::unscored_pairs(&earlier, &cases.cases, &profiles)
            .len()
            .saturating_sub(jobs.len());
        let hint = if failed > 0 {
            format!(" ({failed} of them could not be audited: --retry-failed re-runs those)")
        } else {
            String::new()
        };
        eprintln!(
            "resuming: {skipped} (id, profile) pairs already in {}{hint}",
            a.output.display()
        );
    }
    let transport = transport(a.timeout_s);
    // Results go to a journal beside the output, never into the output itself: the output
    // is only ever replaced whole (fold_journal), so it is valid JSONL whenever the process
    // is killed. A kill mid-append can tear the journal's last line; the next run drops it.
    let journal = journal_path(&a.output);
    let mut out = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&journal)
        .map_err(|e| format!("cannot open {}: {e}", journal.display()))?;
    let started = Instant::now();
    let clock = move || started.elapsed().as_secs_f64() * 1000.0;
    let tty = std::io::stderr().is_terminal();
    let mut write_error: Option<String> = None;
    let mut on_result = |line: serde_json::Map<String, Value>,
                         report: &protocol::AuditReport,
                         progress: &Progress| {
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
            write_error = Some(format!("cannot write {}: {e}", journal.display()));
        }
        // Each case's deterministic findings on stderr, as `audit` prints them.
        if !report.deterministic_findings.is_empty() {
            let who = |k: &str| line.get(k).map(|v| v.to_string()).unwrap_or_default();
            if tty {
                eprint!("\r\x1b[2K");
            }
            for d in &report.deterministic_findings {
                eprintln!(
                    "id {} · profile {}: deterministic finding: {}",
                    who("id"),
                    who("profile"),
                    d.describe()
                );
            }
        }
        draw(progress, tty);
    };
    let planned = jobs
        .into_iter()
        .map(|(entry, profile)| match plans.get(&profile) {
            Some(plan) => Ok((entry, profile, plan)),
            None => Err(batch::MissingPlan(profile).to_string()),
        })
        .collect::<Result<Vec<_>, _>>()?;
    // Each case's line is read from the cases file when its audit starts and dropped when it
    // ends, so at most `concurrency` cases' texts are held at once.
    let read_error: std::cell::RefCell<Option<String>> = Default::default();
    let transport = &*transport;
    let cases_path = a.cases.as_path();
    let read_error_ref = &read_error;
    let audit_one = |item| async move {
        let (entry, profile, plan): PlannedPair = item;
        let case = match read_case(cases_path, entry) {
            Ok(case) => case,
            Err(e) => {
                read_error_ref.borrow_mut().get_or_insert(e);
                return None;
            }
        };
        let report = protocol::run_audit(transport, plan, &case.input, &|_| {}).await;
        Some((
            Job {
                case: Rc::new(case),
                profile,
            },
            report,
        ))
    };
    let progress = futures::executor::block_on(batch::run_jobs(
        planned,
        skipped,
        a.concurrency,
        audit_one,
        &clock,
        &mut on_result,
    ));
    if tty {
        eprintln!();
    }
    if let Some(e) = write_error {
        return Err(e);
    }
    let lines = fold_journal(&a.output, &cases.cases, &profiles)?;
    if let Some(e) = read_error.into_inner() {
        return Err(e);
    }
    eprintln!(
        "{} audited, {} could not be audited, {} skipped as done, in {:.1} s → {}",
        progress.done,
        progress.failures,
        progress.skipped,
        progress.elapsed_ms / 1000.0,
        a.output.display()
    );
    let unscored = batch::unscored_pairs(&lines, &cases.cases, &profiles);
    if !unscored.is_empty() {
        report_unscored(&unscored, &a.output);
        return Ok(ExitCode::from(EXIT_UNAUDITED));
    }
    Ok(if cases.bad_lines.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_BAD_LINES)
    })
}

/// How many failed pairs the summary names one by one; the rest are counted (every one is
/// in the results file with its reason).
const FAILED_LISTED: usize = 50;

fn report_unscored(unscored: &[FailedPair], out: &Path) {
    eprintln!(
        "{} (id, profile) pairs remain unscored in {}; rerun with --retry-failed to audit only those:",
        unscored.len(),
        out.display()
    );
    for f in unscored.iter().take(FAILED_LISTED) {
        eprintln!("  id {} · profile {} · {}", f.id, f.profile, f.reason);
    }
    if unscored.len() > FAILED_LISTED {
        eprintln!("  … and {} more", unscored.len() - FAILED_LISTED);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::batch::CaseSet;

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("vf-cli-audit-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    /// A writer that fails after `left` bytes, as a full disk or a kill mid-write would.
    struct FailingAfter<'a> {
        inner: &'a mut dyn Write,
        left: usize,
    }

    impl Write for FailingAfter<'_> {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.left == 0 {
                return Err(std::io::Error::other("injected write error"));
            }
            let n = buf.len().min(self.left);
            self.left -= n;
            self.inner.write(&buf[..n])
        }
        fn flush(&mut self) -> std::io::Result<()> {
            self.inner.flush()
        }
    }

    #[test]
    fn a_write_error_midway_leaves_the_old_file_whole() {
        let d = temp_dir("atomic");
        let path = d.join("results.jsonl");
        let old = "{\"id\":1,\"profile\":\"p\",\"credit_score\":4}\n";
        fs::write(&path, old).unwrap();
        let new_text = "{\"id\":1,\"profile\":\"p\",\"credit_score\":5}\n".repeat(1000);
        let r = replace_atomically(&path, |w| {
            let mut failing = FailingAfter {
                inner: w,
                left: new_text.len() / 2,
            };
            failing.write_all(new_text.as_bytes())
        });
        assert!(r.unwrap_err().contains("injected write error"));
        assert_eq!(fs::read_to_string(&path).unwrap(), old);
        assert!(!sibling(&path, ".tmp").exists(), "temporary file removed");
        replace_atomically(&path, |w| w.write_all(new_text.as_bytes())).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), new_text);
    }

    /// A link planted at `OUT.tmp` is never followed: the file it points to is untouched and the
    /// write is refused with a message saying why.
    #[cfg(unix)]
    #[test]
    fn a_link_at_the_temporary_name_is_refused_not_followed() {
        let d = std::env::temp_dir().join(format!("vf-tmp-link-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        let foreign = d.join("foreign.txt");
        fs::write(&foreign, "precious").unwrap();
        let out = d.join("out.jsonl");
        std::os::unix::fs::symlink(&foreign, sibling(&out, ".tmp")).unwrap();
        let err = replace_atomically(&out, |w| w.write_all(b"new")).unwrap_err();
        assert!(err.contains("not a regular file"), "{err}");
        assert_eq!(fs::read_to_string(&foreign).unwrap(), "precious");
        assert!(!out.exists());
        let _ = fs::remove_dir_all(&d);
    }

    #[test]
    fn a_fold_copies_lines_it_cannot_read_byte_for_byte() {
        let d = temp_dir("fold-bytes");
        let out = d.join("r.jsonl");
        let cases =
            CaseSet::from_text("{\"id\":1,\"context_input\":\"c\",\"model_output\":\"o\"}\n");
        let profiles = vec!["p".to_string()];
        let mut earlier =
            b"{\"id\":1,\"profile\":\"p\",\"credit_score\":null,\"error\":\"x\"}\n".to_vec();
        earlier.extend_from_slice(b"\xFF\xFEnot text\n");
        fs::write(&out, &earlier).unwrap();
        fs::write(
            journal_path(&out),
            "{\"id\":1,\"profile\":\"p\",\"credit_score\":5,\"error\":null}\n",
        )
        .unwrap();
        let lines = fold_journal(&out, &cases.cases, &profiles).unwrap();
        assert_eq!(lines.len(), 2);
        assert_eq!(
            fs::read(&out).unwrap(),
            b"{\"id\":1,\"profile\":\"p\",\"credit_score\":5,\"error\":null}\n\xFF\xFEnot text\n"
        );
    }

    #[test]
    fn a_torn_journal_is_folded_without_its_last_line() {
        let d = temp_dir("fold");
        let out = d.join("r.jsonl");
        let cases = CaseSet::from_text(
            "{\"id\":1,\"context_input\":\"c\",\"model_output\":\"o\"}\n{\"id\":2,\"context_input\":\"c\",\"model_output\":\"o\"}\n",
        );
        let profiles = vec!["p".to_string()];
        let good = r#"{"id":1,"profile":"p","credit_score":4,  "error":null}"#;
        fs::write(
            &out,
            format!("{good}\n{{\"id\":2,\"profile\":\"p\",\"credit_score\":null,\"error\":\"could not audit: x\"}}\n"),
        )
        .unwrap();
        fs::write(
            journal_path(&out),
            "{\"id\":2,\"profile\":\"p\",\"credit_score\":3,\"error\":null}\n{\"id\":1,\"profile\":\"p\",\"cred",
        )
        .unwrap();
        let lines = fold_journal(&out, &cases.cases, &profiles).unwrap();
        assert_eq!(lines.len(), 2);
        let text = fs::read_to_string(&out).unwrap();
        assert_eq!(
            text,
            format!("{good}\n{{\"id\":2,\"profile\":\"p\",\"credit_score\":3,\"error\":null}}\n"),
            "the good line kept byte for byte, the failed one replaced"
        );
        assert!(!journal_path(&out).exists());
        assert!(batch::unscored_pairs(&lines, &cases.cases, &profiles).is_empty());
    }

    #[test]
    fn the_case_index_holds_no_texts_and_reads_each_case_back_as_it_was() {
        let d = temp_dir("case-index");
        let path = d.join("cases.jsonl");
        let big = "营收增长10%，".repeat(40_000);
        let line = |id: &str| {
            serde_json::json!({"id": id, "tag": "t", "context_input": big, "model_output": "o 10%"})
                .to_string()
        };
        // A BOM, CRLF, a bad line and a duplicate id: indexed exactly as CaseSet reads them.
        let text = format!(
            "\u{feff}{}\r\nnot json\n{}\n\n{}\n",
            line("a"),
            line("b"),
            line("a")
        );
        fs::write(&path, &text).unwrap();
        let index = read_cases(&path).unwrap();
        let set = CaseSet::from_text(&text);
        assert_eq!(index.bad_lines, set.bad_lines);
        let keys: Vec<&str> = index.cases.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(keys, ["a", "b"]);
        for (entry, case) in index.cases.iter().zip(&set.cases) {
            assert_eq!(read_case(&path, entry).unwrap(), **case);
        }
        // Per case: the id, an offset and a length, whatever the size of its texts (here
        // 680 KB each), so a batch's memory does not grow with its cases' texts.
        let held: usize = index
            .cases
            .iter()
            .map(|c| std::mem::size_of::<CaseEntry>() + c.key.capacity())
            .sum();
        assert!(held < 200, "{held} bytes for two cases");
        // A cases file edited during the run is an error naming the case, never another case.
        fs::write(&path, text.replacen("\"id\":\"b\"", "\"id\":\"c\"", 1)).unwrap();
        let e = read_case(&path, &index.cases[1]).unwrap_err();
        assert!(e.contains("changed while the batch ran: case b"), "{e}");
    }
}
