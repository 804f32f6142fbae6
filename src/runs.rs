//! Runs: every single audit, batch, grade upload and report input kept as one record the
//! Runs view lists, exports and imports. Pure: the browser's IndexedDB layer stores what
//! this module builds and checks, and the same JSONL form is what a user downloads.
//!
//! A run never holds an API key: its settings snapshot is taken through the settings'
//! export-without-keys path (`KeyExport::Omit`), then scrubbed of any key-like member as a
//! second line of defence (unknown keys are kept by the settings reader, so a key pasted
//! under an unexpected name would otherwise ride along). Imported runs are scrubbed too, so
//! a file from elsewhere cannot plant a key in the store.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::config::{KeyExport, Settings, Strategy};
use crate::json::{FieldError, Fields, Path};

crate::names::named_enum! {
    /// What produced a run.
    pub enum RunKind {
        Audit = "audit",
        Batch = "batch",
        Grade = "grade",
        Report = "report",
    }
}

/// One kept run: what the Runs view lists (`meta`) and one JSON object per result line (the
/// same lines as the results JSONL).
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub meta: RunMeta,
    pub results: Vec<Value>,
}

/// A run without its results: what the Runs view lists. The store keeps this (as the
/// export's header line) apart from the results, so listing runs never reads results.
#[derive(Debug, Clone, PartialEq)]
pub struct RunMeta {
    pub id: String,
    /// Editable by the user; starts as a description of what ran.
    pub name: String,
    pub kind: RunKind,
    /// Milliseconds since the Unix epoch (the browser's `Date.now()`).
    pub created_ms: f64,
    /// `None` while running, or when it was cancelled before the end.
    pub finished_ms: Option<f64>,
    pub profiles: Vec<String>,
    /// The settings used, without API keys (`null` when none applied, e.g. a report input).
    pub settings: Value,
    pub strategy: Value,
    /// What went in (cases, a context and output, a file name…), as the page keeps it.
    pub inputs: Value,
    pub result_count: u64,
    /// How it ended, in a few words (score and band, scored/failed counts, accuracy); `None`
    /// while it runs and for runs kept before outcomes were (docs/runs.md).
    pub outcome: Option<RunOutcome>,
}

/// A run's outcome as the Runs table shows it: a short text, and whether the run failed (no
/// score, every pair failed), so a failed run never looks like a success.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOutcome {
    pub text: String,
    pub failed: bool,
}

impl RunOutcome {
    fn to_value(&self) -> Value {
        serde_json::json!({"text": self.text, "failed": self.failed})
    }

    /// Read back from a header; anything else than `{"text": …, "failed": …}` is no outcome
    /// (the run still lists), never an error.
    fn from_value(v: &Value) -> Option<RunOutcome> {
        Some(RunOutcome {
            text: clean_name(v.get("text")?.as_str()?)?,
            failed: v.get("failed")?.as_bool()?,
        })
    }

    /// An audit's outcome from its report: `score 4 · GOOD`, or
    /// `failed: <why>` when it could not be audited.
    pub fn of_audit(report: &crate::audit::AuditReport) -> RunOutcome {
        match (report.credit_score, report.band) {
            (Some(s), Some(b)) => RunOutcome {
                text: format!("score {s} · {}", b.as_str()),
                failed: false,
            },
            (Some(s), None) => RunOutcome {
                text: format!("score {s}"),
                failed: false,
            },
            _ => RunOutcome {
                text: format!(
                    "failed: {}",
                    report
                        .could_not_audit
                        .as_ref()
                        .map_or_else(|| "no score".into(), |c| c.reason.clone())
                ),
                failed: true,
            },
        }
    }

    /// A batch's outcome from its result lines: `24 scored · 1 failed`; failed when no pair
    /// got a score.
    pub fn of_batch(lines: &[String]) -> RunOutcome {
        let (mut scored, mut failed) = (0usize, 0usize);
        for l in lines {
            match crate::audit::batch::ResultLine::parse(l) {
                Some(line) if !line.failed() => scored += 1,
                _ => failed += 1,
            }
        }
        RunOutcome {
            text: if failed == 0 {
                format!("{scored} scored")
            } else {
                format!("{scored} scored · {failed} failed")
            },
            failed: scored == 0 && failed > 0,
        }
    }

    /// A results file's outcome as the Report page read it: `cross-band 16.7 % of 12 cases`
    /// (with its bad lines); failed when no line was a scored result.
    pub fn of_report(cases: u64, cross_band_rate: Option<f64>, bad_lines: u64) -> RunOutcome {
        let bad = bad_lines_note(bad_lines);
        let text = match cross_band_rate {
            Some(r) => format!("cross-band {:.1} % of {cases} cases{bad}", r * 100.0),
            None => format!("no scored case{bad}"),
        };
        RunOutcome {
            text,
            failed: cases == 0,
        }
    }

    /// A grade upload's outcome: `accuracy 96.35 % (137 of 142)` (with its bad lines).
    pub fn of_grade(equivalent: usize, graded: usize, bad_lines: usize) -> RunOutcome {
        let pct = if graded == 0 {
            0.0
        } else {
            equivalent as f64 * 100.0 / graded as f64
        };
        let bad = bad_lines_note(bad_lines as u64);
        RunOutcome {
            text: format!("accuracy {pct:.2} % ({equivalent} of {graded}){bad}"),
            failed: graded == 0,
        }
    }
}

/// ` · 3 bad lines` after an outcome (nothing when there are none).
fn bad_lines_note(bad_lines: u64) -> String {
    match bad_lines {
        0 => String::new(),
        1 => " · 1 bad line".into(),
        n => format!(" · {n} bad lines"),
    }
}

/// A run's `inputs`: what went in, written by the page that made the run and read back by the
/// pages that reopen it (one type both ways). Each kind fills its own fields (an audit: its
/// context and output; a grade run: the file's name, line count and a digest of the rules'
/// grades; a batch: its cases file and count; an imported results file: its name and size), so
/// every field is optional; read back, one that is not of its type is none.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RunInputs {
    /// The file the run read (a grade run's upload, a batch's cases, an imported file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// A grade run's digest of the rules' grades (which upload it was).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// An audit run's texts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context_input: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_output: Option<String>,
    /// A grade run's line count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<u64>,
    /// A batch's case count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cases: Option<u64>,
    /// An imported file's size in bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bytes: Option<f64>,
    /// Where a run moved from (the results the page kept in local storage before the run store).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub migrated_from: Option<String>,
}

impl RunInputs {
    /// As a run header stores them.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

impl RunMeta {
    /// What went in, read ([`RunInputs`]): inputs that are not an object name nothing.
    pub fn read_inputs(&self) -> RunInputs {
        let Ok(f) = Fields::of(&self.inputs, Path::Root("the run's inputs")) else {
            return RunInputs::default();
        };
        let text = |key: &str| f.get(key).and_then(Value::as_str).map(str::to_string);
        let count = |key: &str| f.get(key).and_then(Value::as_u64);
        RunInputs {
            file: text("file"),
            digest: text("digest"),
            context_input: text("context_input"),
            model_output: text("model_output"),
            lines: count("lines"),
            cases: count("cases"),
            bytes: f.get("bytes").and_then(Value::as_f64),
            migrated_from: text("migrated_from"),
        }
    }

    /// The header object (the first line of an export), settings scrubbed of keys.
    pub fn to_header(&self) -> Value {
        let mut h = Map::new();
        h.insert(FORMAT_KEY.into(), Value::from(FORMAT_VERSION));
        h.insert("id".into(), Value::String(self.id.clone()));
        h.insert("name".into(), Value::String(self.name.clone()));
        h.insert("kind".into(), Value::String(self.kind.as_str().into()));
        h.insert("created_ms".into(), Value::from(self.created_ms));
        h.insert(
            "finished_ms".into(),
            self.finished_ms.map_or(Value::Null, Value::from),
        );
        h.insert(
            "profiles".into(),
            Value::Array(self.profiles.iter().cloned().map(Value::String).collect()),
        );
        let mut settings = self.settings.clone();
        let mut strategy = self.strategy.clone();
        // Scrubbed again on the way out: a Run built by hand must not leak either.
        scrub_secrets(&mut settings);
        scrub_secrets(&mut strategy);
        h.insert("settings".into(), settings);
        h.insert("strategy".into(), strategy);
        h.insert("inputs".into(), self.inputs.clone());
        h.insert("result_count".into(), Value::from(self.result_count));
        if let Some(o) = &self.outcome {
            h.insert("outcome".into(), o.to_value());
        }
        Value::Object(h)
    }

    /// The header as one line of JSON text, as the store keeps it.
    pub fn to_header_text(&self) -> String {
        crate::jsonl::compact(&self.to_header())
    }

    /// Read a header line; also returns the result count it announces, if any.
    pub fn parse_header(text: &str) -> Result<(RunMeta, Option<u64>), RunError> {
        let header: Value = serde_json::from_str(text)
            .map_err(|e| RunError::NotAHeader(format!("not JSON: {e}")))?;
        let Value::Object(mut h) = header else {
            return Err(RunError::NotAHeader("not a JSON object".into()));
        };
        let version = h
            .get(FORMAT_KEY)
            .and_then(Value::as_u64)
            .ok_or_else(|| RunError::NotAHeader(format!("no `{FORMAT_KEY}` version")))?;
        if version != FORMAT_VERSION {
            return Err(RunError::UnsupportedVersion(version));
        }
        let f = Fields {
            map: &h,
            path: Path::Root("the header"),
        };
        let text = |key: &'static str| -> Result<String, FieldError> {
            match f.get(key) {
                Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
                Some(other) => Err(FieldError::wrong(
                    f.path.key(key),
                    "a non-empty string",
                    other,
                )),
                None => Err(FieldError::missing(f.path.key(key), "a non-empty string")),
            }
        };
        let id = text("id")?;
        let name = text("name")?;
        let kind_name = text("kind")?;
        let kind = RunKind::from_name(&kind_name).ok_or_else(|| {
            FieldError::wrong(
                f.path.key("kind"),
                "one of audit, batch, grade, report",
                &Value::String(kind_name),
            )
        })?;
        let created_ms: f64 = f.required("created_ms")?;
        let finished_ms: Option<f64> = f.optional("finished_ms")?;
        let profiles: Vec<String> = f.optional("profiles")?.unwrap_or_default();
        let announced = h.get("result_count").and_then(Value::as_u64);
        let mut settings = h.remove("settings").unwrap_or(Value::Null);
        let mut strategy = h.remove("strategy").unwrap_or(Value::Null);
        scrub_secrets(&mut settings);
        scrub_secrets(&mut strategy);
        let inputs = h.remove("inputs").unwrap_or(Value::Null);
        let meta = RunMeta {
            id,
            name,
            kind,
            created_ms,
            finished_ms,
            profiles,
            settings,
            strategy,
            inputs,
            result_count: announced.unwrap_or(0),
            outcome: h.get("outcome").and_then(RunOutcome::from_value),
        };
        Ok((meta, announced))
    }

    pub fn with_results(mut self, results: Vec<Value>) -> Run {
        self.result_count = results.len() as u64;
        Run {
            meta: self,
            results,
        }
    }

    /// How long it ran, in words (`"running or stopped"` while unfinished).
    pub fn duration(&self) -> String {
        match self.finished_ms {
            Some(f) => format_duration(f - self.created_ms),
            None => "not finished".into(),
        }
    }

    /// Where "Open" goes: batch and report runs open on Report (their results are result
    /// lines), an audit on the Audit page showing it, a grade upload on the Extract page as
    /// its table (the verdicts as graded; the texts they judged are not kept).
    pub fn open_href(&self) -> String {
        let page = match self.kind {
            RunKind::Audit => "audit",
            RunKind::Grade => "extract",
            RunKind::Batch | RunKind::Report => "report",
        };
        crate::route::state::ViewState {
            run: Some(self.id.clone()),
            ..Default::default()
        }
        .href(page)
    }

    /// Where "Compare" goes: this run as side A of the Compare page, for the kinds whose
    /// results are result lines (batch and report runs); `None` for the others.
    pub fn compare_href(&self) -> Option<String> {
        matches!(self.kind, RunKind::Batch | RunKind::Report).then(|| {
            crate::route::state::ViewState {
                unknown: vec![("ra".into(), self.id.clone())],
                ..Default::default()
            }
            .href("compare")
        })
    }
}

/// Runs of one kind (or all), newest first (ties by id, so the order is stable). The Runs
/// table's search, sort and pages are `view::runs::listing`.
pub fn list_view(runs: &[RunMeta], kind: Option<RunKind>) -> Vec<RunMeta> {
    newest_first(runs, kind).into_iter().cloned().collect()
}

/// Runs of `kind` (or all), newest first, ties by id (so the order is stable, and any
/// sort's ties keep it).
pub fn newest_first(runs: &[RunMeta], kind: Option<RunKind>) -> Vec<&RunMeta> {
    let mut out: Vec<&RunMeta> = runs
        .iter()
        .filter(|r| kind.is_none_or(|k| r.kind == k))
        .collect();
    out.sort_by(|a, b| {
        b.created_ms
            .total_cmp(&a.created_ms)
            .then_with(|| b.id.cmp(&a.id))
    });
    out
}

/// The newest run of a kind (`report?run=batch`, old links, means the latest batch).
pub fn latest(runs: &[RunMeta], kind: RunKind) -> Option<&RunMeta> {
    runs.iter().filter(|r| r.kind == kind).max_by(|a, b| {
        a.created_ms
            .total_cmp(&b.created_ms)
            .then_with(|| a.id.cmp(&b.id))
    })
}

/// The longest name kept; longer ones are cut (at a character boundary).
pub const MAX_NAME_CHARS: usize = 200;

/// A name as the user typed it, trimmed and bounded; `None` for a blank one (the old
/// name stays).
pub fn clean_name(typed: &str) -> Option<String> {
    let t = typed.trim();
    if t.is_empty() {
        return None;
    }
    Some(t.chars().take(MAX_NAME_CHARS).collect())
}

/// A first name for a run, from what ran (the callers put the counts in `what`):
/// `Batch · cases.jsonl · 12 cases · first, second`; more than three profiles are counted.
pub fn default_name(kind: RunKind, what: &str, profiles: &[String]) -> String {
    let kind_word = match kind {
        RunKind::Audit => "Audit",
        RunKind::Batch => "Batch",
        RunKind::Grade => "Grade",
        RunKind::Report => "Report",
    };
    let mut name = kind_word.to_string();
    let what: String = what.split_whitespace().collect::<Vec<_>>().join(" ");
    if !what.is_empty() {
        name.push_str(" · ");
        name.extend(what.chars().take(60));
        if what.chars().count() > 60 {
            name.push('…');
        }
    }
    match profiles {
        [] => {}
        [one] => name.push_str(&format!(" · {one}")),
        // Named, so two runs of the same file under other profiles read apart.
        few @ [_, _] | few @ [_, _, _] => name.push_str(&format!(" · {}", few.join(", "))),
        many => name.push_str(&format!(" · {} profiles", many.len())),
    }
    clean_name(&name).unwrap_or_else(|| kind_word.to_string())
}

/// Whether a kept run's header could be the same run as an import's (same kind, times,
/// profiles, inputs and count; id and name aside, since a copy may have been renamed or
/// re-id'd): then its results are compared with [`same_content`].
pub fn may_be_same(kept: &RunMeta, import: &RunMeta) -> bool {
    kept.kind == import.kind
        && kept.created_ms == import.created_ms
        && kept.finished_ms == import.finished_ms
        && kept.profiles == import.profiles
        && kept.inputs == import.inputs
        && kept.result_count == import.result_count
}

/// Same results, line for line: an import of this run would add a duplicate.
pub fn same_content(kept: &Run, import: &Run) -> bool {
    may_be_same(&kept.meta, &import.meta) && kept.results == import.results
}

/// An imported run keeps its id unless the store already has it; then it gets a new one
/// (an import never overwrites a kept run).
pub fn import_id(
    run: &Run,
    now_ms: f64,
    random: u64,
    taken: &dyn Fn(&str) -> bool,
) -> Option<String> {
    taken(&run.meta.id).then(|| new_id(now_ms, random, taken))
}

/// `1.2 s`, `3 min 4 s`, `2 h 5 min`.
pub fn format_duration(ms: f64) -> String {
    if !ms.is_finite() || ms < 0.0 {
        return "unknown".into();
    }
    if ms < 60_000.0 {
        return format!("{:.1} s", ms / 1000.0);
    }
    let s = (ms / 1000.0).round() as u64;
    if s < 3600 {
        format!("{} min {} s", s / 60, s % 60)
    } else {
        format!("{} h {} min", s / 3600, (s % 3600) / 60)
    }
}

/// `512 B`, `1.5 KB`, `12.3 MB`, `2.0 GB` (powers of 1000, as browsers report quota).
pub fn format_bytes(b: u64) -> String {
    let f = b as f64;
    if f < 1e3 {
        format!("{b} B")
    } else if f < 1e6 {
        format!("{:.1} KB", f / 1e3)
    } else if f < 1e9 {
        format!("{:.1} MB", f / 1e6)
    } else {
        format!("{:.1} GB", f / 1e9)
    }
}

/// The storage line of the Runs view, with the advice when the store is nearly full.
pub fn storage_summary(usage: u64, quota: u64) -> String {
    if quota == 0 {
        return format!(
            "{} used; this browser does not say how much it allows.",
            format_bytes(usage)
        );
    }
    let share = usage as f64 / quota as f64 * 100.0;
    let mut s = format!(
        "{} used of {} this browser allows for this site ({share:.1} %).",
        format_bytes(usage),
        format_bytes(quota)
    );
    if share > 80.0 {
        s.push_str(" Nearly full: export runs you want to keep, then delete them here.");
    }
    s
}

/// Why the run store could not do something. The messages are shown to the user as they
/// are, so they say what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    #[error("this browser offers no run store (IndexedDB is off, e.g. in a private window): runs are not kept; download results to keep them")]
    Unavailable,
    #[error("the browser's storage for this site is full ({}): the run was not saved; export old runs on the Runs page and delete them, then try again", usage_words(*usage, *quota))]
    QuotaExceeded { usage: u64, quota: u64 },
    #[error("no run {0} is kept in this browser (deleted, or kept in another browser)")]
    NotFound(String),
    #[error("run {id} is damaged in the store: {why}")]
    Damaged { id: String, why: String },
    #[error("the run store failed: {0}")]
    Failed(String),
}

fn usage_words(usage: u64, quota: u64) -> String {
    if quota == 0 {
        format!("{} used", format_bytes(usage))
    } else {
        format!("{} of {} used", format_bytes(usage), format_bytes(quota))
    }
}

/// The first line of an exported run says what it is; a later format bumps the version.
pub const FORMAT_KEY: &str = "verifyfast_run";
pub const FORMAT_VERSION: u64 = 1;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    #[error("the file is empty: a run file starts with its header line")]
    Empty,
    #[error("line 1 is not a run header ({0})")]
    NotAHeader(String),
    #[error(
        "this run file has format version {0}; this VerifyFast reads version {FORMAT_VERSION}"
    )]
    UnsupportedVersion(u64),
    /// A header field missing or of the wrong kind.
    #[error("line 1 (the header): {0}")]
    Header(#[from] FieldError),
    #[error("line {line}: {why}")]
    BadResult { line: usize, why: String },
    #[error("the file is cut short: the header announces {announced} results, {found} are there")]
    Truncated { announced: u64, found: u64 },
}

/// Member names that hold secrets. Compared lower-cased; `api_key_env` (a variable's name,
/// not a key) and `max_tokens` are deliberately not matched.
fn is_secret_key(name: &str) -> bool {
    let n = name.to_ascii_lowercase().replace('-', "_");
    matches!(
        n.as_str(),
        "api_key" | "apikey" | "authorization" | "password" | "secret" | "bearer" | "access_token"
    ) || n.ends_with("_api_key")
        || n.ends_with("_secret")
        || n.ends_with("_password")
}

/// Remove every key-like member, at any depth, and redact every URL member (`base_url`:
/// its userinfo, query values and fragment, `llm::redact::redact_url`).
pub fn scrub_secrets(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|k, _| !is_secret_key(k));
            for (k, value) in m.iter_mut() {
                if let (true, Value::String(url)) =
                    (k.to_ascii_lowercase().ends_with("url"), &mut *value)
                {
                    *url = crate::llm::redact::redact_url(url);
                }
            }
            m.values_mut().for_each(scrub_secrets);
        }
        Value::Array(a) => a.iter_mut().for_each(scrub_secrets),
        _ => {}
    }
}

/// The settings and strategy as a run keeps them: exported without keys, then scrubbed.
pub fn snapshot(settings: &Settings, strategy: &Strategy) -> (Value, Value) {
    let mut s = settings.to_value(KeyExport::Omit);
    let mut t = strategy.to_value();
    scrub_secrets(&mut s);
    scrub_secrets(&mut t);
    (s, t)
}

const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";

fn base36(mut n: u64, min_width: usize) -> String {
    let mut out = Vec::new();
    while n > 0 || out.len() < min_width.max(1) {
        out.push(DIGITS[(n % 36) as usize]);
        n /= 36;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// A new run id, `r-<time>-<random>`: sortable by creation time, short enough for a URL.
/// `random` comes from the caller (`crypto.getRandomValues` in the browser) so this stays
/// pure; `taken` says whether an id is already in the store. Two runs in the same
/// millisecond with the same random draw would collide, so the id is bumped until free.
pub fn new_id(now_ms: f64, random: u64, taken: &dyn Fn(&str) -> bool) -> String {
    let time = if now_ms.is_finite() && now_ms > 0.0 {
        now_ms as u64
    } else {
        0
    };
    // 36^6 ≈ 2.2e9 suffixes per millisecond.
    let mut suffix = random % 2_176_782_336;
    loop {
        let id = format!("r-{}-{}", base36(time, 8), base36(suffix, 6));
        if !taken(&id) {
            return id;
        }
        suffix = (suffix + 1) % 2_176_782_336;
    }
}

impl Run {
    /// Everything but the results: what the store lists and the export's first line.
    /// Its count is the results' own, whatever the header said; its outcome is kept (an
    /// imported run is the run that was exported, outcome included).
    pub fn meta(&self) -> RunMeta {
        RunMeta {
            result_count: self.results.len() as u64,
            ..self.meta.clone()
        }
    }

    fn header(&self) -> Value {
        self.meta().to_header()
    }

    /// The results as JSONL text (one compact object per line), as the store keeps them.
    pub fn results_text(&self) -> String {
        let mut out = String::new();
        for r in &self.results {
            out.push_str(&crate::jsonl::compact(r));
            out.push('\n');
        }
        out
    }

    /// The run as JSONL: the header object on the first line, then one result per line.
    pub fn to_jsonl(&self) -> String {
        let mut out = crate::jsonl::compact(&self.header());
        out.push('\n');
        out.push_str(&self.results_text());
        out
    }

    /// Read an exported run. The header must say what it is; a file with fewer result
    /// lines than its header announces is refused (a cut-off download is not a run).
    pub fn from_jsonl(text: &str) -> Result<Run, RunError> {
        let mut lines = crate::jsonl::lines_of(text).into_iter();
        let first = lines.next().ok_or(RunError::Empty)?;
        let header_text = first
            .text
            .map_err(|e| RunError::NotAHeader(e.to_string()))?;
        let (meta, announced) = RunMeta::parse_header(&header_text)?;
        let mut results = Vec::new();
        for line in lines {
            let t = line.text.map_err(|e| RunError::BadResult {
                line: line.number,
                why: e.to_string(),
            })?;
            let v: Value = serde_json::from_str(&t).map_err(|e| RunError::BadResult {
                line: line.number,
                why: format!("not JSON: {e}"),
            })?;
            if !v.is_object() {
                return Err(RunError::BadResult {
                    line: line.number,
                    why: "a result must be a JSON object".into(),
                });
            }
            results.push(v);
        }
        let found = results.len() as u64;
        if let Some(announced) = announced {
            if found < announced {
                return Err(RunError::Truncated { announced, found });
            }
        }
        Ok(meta.with_results(results))
    }

    /// Bytes this run takes in the store, estimated from its JSON text: browsers keep
    /// strings as UTF-16 in the worst case (2 bytes per unit) plus a per-record overhead,
    /// so the figure errs high — a warning too early beats a failed write.
    pub fn estimated_bytes(&self) -> u64 {
        let text = self.to_jsonl();
        let utf16_units = text.encode_utf16().count() as u64;
        utf16_units * 2 + PER_RECORD_OVERHEAD * (1 + self.results.len() as u64)
    }
}

/// Bytes of bookkeeping per stored record (keys, index entries), a deliberately high guess.
pub const PER_RECORD_OVERHEAD: u64 = 64;

/// What to tell the user about storage before saving a run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum QuotaAdvice {
    /// Fits, with room to spare.
    Fits { used_after: f64 },
    /// Fits, but the store will be more than 80 % full: suggest exporting and deleting old runs.
    NearlyFull { used_after: f64 },
    /// Does not fit: the run is not saved silently; the user exports it (download) or frees space.
    WontFit { short_by: u64 },
}

/// Advice for saving `next_bytes` more, given `usage` and `quota` from
/// `navigator.storage.estimate()` (`quota` 0 = unknown: assume it fits).
pub fn quota_advice(usage: u64, quota: u64, next_bytes: u64) -> QuotaAdvice {
    if quota == 0 {
        return QuotaAdvice::Fits { used_after: 0.0 };
    }
    let after = usage.saturating_add(next_bytes);
    if after > quota {
        return QuotaAdvice::WontFit {
            short_by: after - quota,
        };
    }
    let used_after = after as f64 / quota as f64;
    if used_after > 0.8 {
        QuotaAdvice::NearlyFull { used_after }
    } else {
        QuotaAdvice::Fits { used_after }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Format;

    const SECRET: &str = "sk-SECRET-0123456789";

    #[test]
    fn a_runs_inputs_are_read_by_name_and_only_as_text() {
        let (mut meta, _) = RunMeta::parse_header(
            r#"{"verifyfast_run":1,"id":"r-1","name":"n","kind":"grade","created_ms":1,"finished_ms":2,"profiles":[],"inputs":{"file":"g.jsonl","lines":3,"digest":"ab"},"result_count":0}"#,
        )
        .expect("a header");
        assert_eq!(
            meta.read_inputs(),
            RunInputs {
                file: Some("g.jsonl".into()),
                digest: Some("ab".into()),
                lines: Some(3),
                ..RunInputs::default()
            }
        );
        meta.inputs = serde_json::json!({"context_input": "c", "model_output": 7});
        let audit = meta.read_inputs();
        assert_eq!(audit.context_input.as_deref(), Some("c"));
        assert_eq!(audit.model_output, None, "a number is not a text");
        meta.inputs = Value::Null;
        assert_eq!(meta.read_inputs(), RunInputs::default());
        // What a page writes reads back the same.
        let written = RunInputs {
            file: Some("cases.jsonl".into()),
            cases: Some(8),
            bytes: Some(1024.0),
            ..RunInputs::default()
        };
        let meta = RunMeta {
            inputs: written.to_value(),
            ..meta
        };
        assert_eq!(meta.read_inputs(), written);
        assert_eq!(
            meta.inputs,
            serde_json::json!({"file": "cases.jsonl", "cases": 8, "bytes": 1024.0})
        );
    }

    fn settings() -> Settings {
        let yaml = format!(
            "llms:\n  a:\n    base_url: http://127.0.0.1:9/v1\n    model: m\n    api_key: {SECRET}\n    api_key_env: A_KEY\n    extra_auth:\n      Authorization: Bearer {SECRET}\n      vendor_api_key: {SECRET}\nprofiles:\n  p:\n    run: a\n    verify: a\n"
        );
        Settings::from_text(&yaml, Format::Yaml).unwrap()
    }

    fn run() -> Run {
        let (settings, strategy) = snapshot(&settings(), &Strategy::default());
        RunMeta {
            id: "r-1".into(),
            name: "Batch of 2 \"cases\"\n营收".into(),
            kind: RunKind::Batch,
            created_ms: 1_764_000_000_000.0,
            finished_ms: Some(1_764_000_005_000.0),
            profiles: vec!["p".into()],
            settings,
            strategy,
            inputs: serde_json::json!({"file": "cases.jsonl", "cases": 2}),
            result_count: 0,
            outcome: None,
        }
        .with_results(vec![
            serde_json::json!({"id": 1, "profile": "p", "credit_score": 4, "tokens": 120}),
            serde_json::json!({"id": 2, "profile": "p", "credit_score": null, "error": "could not audit"}),
        ])
    }

    #[test]
    fn the_api_key_never_appears_in_an_exported_run() {
        assert!(settings()
            .to_text(Format::Json, KeyExport::Include)
            .unwrap()
            .contains(SECRET));
        let r = run();
        let text = r.to_jsonl();
        assert!(!text.contains(SECRET), "{text}");
        assert!(!text.contains("sk-"), "{text}");
        assert!(
            text.contains("\"api_key_env\":\"A_KEY\""),
            "the variable's name is kept"
        );
        assert!(
            text.contains("max_tokens"),
            "token counts and limits are not secrets"
        );
        // Even a run built by hand with a key in it is scrubbed on export.
        let mut leaky = r.clone();
        leaky.meta.settings = settings().to_value(KeyExport::Include);
        assert!(!leaky.to_jsonl().contains(SECRET));
        // And an imported file carrying a key does not bring it into the store.
        let planted = text.replacen(
            "\"settings\":{",
            &format!("\"settings\":{{\"api_key\":\"{SECRET}\","),
            1,
        );
        assert!(planted.contains(SECRET));
        let back = Run::from_jsonl(&planted).unwrap();
        assert!(!back.to_jsonl().contains(SECRET));
        assert!(!back.meta.settings.to_string().contains(SECRET));
        // A key in a base URL's userinfo, query or fragment is not kept either.
        let in_url = text.replacen(
            "http://127.0.0.1:9/v1",
            &format!("http://u:{SECRET}@127.0.0.1:9/v1?api-key={SECRET}#t={SECRET}"),
            1,
        );
        assert!(in_url.contains(SECRET));
        let back = Run::from_jsonl(&in_url).unwrap();
        let out = back.to_jsonl();
        assert!(!out.contains(SECRET), "{out}");
        assert!(
            out.contains("http://127.0.0.1:9/v1?api-key=[api key]#[api key]"),
            "{out}"
        );
    }

    #[test]
    fn jsonl_round_trip() {
        let r = run();
        let text = r.to_jsonl();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(
            lines[0].starts_with("{\"verifyfast_run\":1,"),
            "{}",
            lines[0]
        );
        assert!(lines[0].contains("\"result_count\":2"));
        assert_eq!(Run::from_jsonl(&text).unwrap(), r);
        // CRLF and a BOM (a file saved by another tool) read the same.
        let crlf = format!("\u{feff}{}", text.replace('\n', "\r\n"));
        assert_eq!(Run::from_jsonl(&crlf).unwrap(), r);
        let unfinished = RunMeta {
            finished_ms: None,
            profiles: vec![],
            ..r.meta
        }
        .with_results(vec![]);
        assert_eq!(Run::from_jsonl(&unfinished.to_jsonl()).unwrap(), unfinished);
    }

    #[test]
    fn an_exported_run_imports_with_its_outcome() {
        let mut meta = RunMeta::parse_header(
            r#"{"verifyfast_run":1,"id":"r-1","name":"n","kind":"batch","created_ms":1}"#,
        )
        .unwrap()
        .0;
        meta.outcome = Some(RunOutcome {
            text: "1 scored".into(),
            failed: false,
        });
        let run = Run {
            meta,
            results: vec![serde_json::json!({"id": 1, "profile": "a", "credit_score": 4})],
        };
        let back = Run::from_jsonl(&run.to_jsonl()).unwrap();
        assert_eq!(
            back.meta().outcome,
            run.meta.outcome,
            "the stored header keeps it"
        );
        assert_eq!(back.meta().name, "n");
    }

    #[test]
    fn import_errors_say_what_is_wrong() {
        let text = run().to_jsonl();
        assert_eq!(Run::from_jsonl(""), Err(RunError::Empty));
        assert!(matches!(
            Run::from_jsonl("{\"id\":1,\"credit_score\":4}\n"),
            Err(RunError::NotAHeader(_))
        ));
        assert!(matches!(
            Run::from_jsonl("[1]\n"),
            Err(RunError::NotAHeader(_))
        ));
        assert_eq!(
            Run::from_jsonl(&text.replacen("\"verifyfast_run\":1", "\"verifyfast_run\":9", 1)),
            Err(RunError::UnsupportedVersion(9))
        );
        assert_eq!(
            Run::from_jsonl(&text.replacen("\"kind\":\"batch\"", "\"kind\":\"dance\"", 1)),
            Err(RunError::Header(FieldError {
                path: "kind".into(),
                expected: "one of audit, batch, grade, report".into(),
                found: Some("the string \"dance\"".into()),
            }))
        );
        let header = text.lines().next().unwrap_or_default();
        let profiles = header
            .find("\"profiles\":[")
            .map(|at| at + "\"profiles\":[".len());
        let bad = profiles.map(|at| format!("{}7,{}", &header[..at], &header[at..]));
        assert_eq!(
            bad.map(|h| Run::from_jsonl(&format!("{h}\n"))
                .map(|_| ())
                .unwrap_err()
                .to_string()),
            Some("line 1 (the header): profiles[0]: expected a string, found the number 7".into())
        );
        let no_name = text.replacen("\"name\":", "\"label\":", 1);
        assert_eq!(
            Run::from_jsonl(&no_name).unwrap_err().to_string(),
            "line 1 (the header): missing field `name`"
        );
        let cut: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
        assert_eq!(
            Run::from_jsonl(&cut),
            Err(RunError::Truncated {
                announced: 2,
                found: 1
            })
        );
        let torn = format!("{}{{\"id\":3,", text);
        assert!(matches!(
            Run::from_jsonl(&torn),
            Err(RunError::BadResult { line: 4, .. })
        ));
        assert!(matches!(
            Run::from_jsonl(&format!("{text}7\n")),
            Err(RunError::BadResult { line: 4, .. })
        ));
    }

    #[test]
    fn ids_do_not_collide() {
        let mut taken: Vec<String> = Vec::new();
        for _ in 0..100 {
            // The same millisecond and the same random draw every time.
            let id = new_id(1_764_000_000_000.0, 42, &|id| taken.iter().any(|t| t == id));
            assert!(!taken.contains(&id));
            taken.push(id);
        }
        assert_eq!(taken.len(), 100);
        assert!(taken[0].starts_with("r-"));
        let a = new_id(1.0, 0, &|_| false);
        let b = new_id(2.0, 0, &|_| false);
        assert!(a < b, "ids sort by time: {a} {b}");
        // Nonsense clocks do not panic.
        assert!(new_id(f64::NAN, u64::MAX, &|_| false).starts_with("r-00000000-"));
        // Ids are URL-safe as they are.
        assert!(taken
            .iter()
            .all(|id| crate::route::state::percent_encode(id) == *id));
    }

    #[test]
    fn quota() {
        let r = run();
        let bytes = r.estimated_bytes();
        assert!(bytes > r.to_jsonl().len() as u64);
        assert_eq!(
            quota_advice(0, 0, 1 << 40),
            QuotaAdvice::Fits { used_after: 0.0 }
        );
        assert_eq!(
            quota_advice(10, 100, 20),
            QuotaAdvice::Fits { used_after: 0.3 }
        );
        assert_eq!(
            quota_advice(70, 100, 20),
            QuotaAdvice::NearlyFull { used_after: 0.9 }
        );
        assert_eq!(
            quota_advice(90, 100, 20),
            QuotaAdvice::WontFit { short_by: 10 }
        );
        assert_eq!(
            quota_advice(u64::MAX, 100, 20),
            QuotaAdvice::WontFit {
                short_by: u64::MAX - 100
            }
        );
    }
    fn meta(id: &str, kind: RunKind, created: f64) -> RunMeta {
        RunMeta {
            created_ms: created,
            kind,
            ..run().meta()
        }
        .renamed(id)
    }

    impl RunMeta {
        fn renamed(mut self, id: &str) -> RunMeta {
            self.id = id.into();
            self
        }
    }

    #[test]
    fn meta_is_the_header_and_round_trips() {
        let r = run();
        let m = r.meta();
        assert_eq!(m.result_count, 2);
        let (back, announced) = RunMeta::parse_header(&m.to_header_text()).unwrap();
        assert_eq!(back, m);
        assert_eq!(announced, Some(2));
        assert_eq!(
            r.to_jsonl(),
            format!("{}\n{}", m.to_header_text(), r.results_text())
        );
        assert_eq!(back.with_results(r.results.clone()), r);
    }

    #[test]
    fn listing_filters_by_kind_newest_first() {
        let runs = vec![
            meta("a", RunKind::Audit, 1.0),
            meta("b", RunKind::Batch, 3.0),
            meta("c", RunKind::Batch, 2.0),
            meta("d", RunKind::Batch, 3.0),
        ];
        let ids = |v: Vec<RunMeta>| v.into_iter().map(|m| m.id).collect::<Vec<_>>();
        assert_eq!(ids(list_view(&runs, None)), ["d", "b", "c", "a"]);
        assert_eq!(ids(list_view(&runs, Some(RunKind::Batch))), ["d", "b", "c"]);
        assert!(list_view(&runs, Some(RunKind::Grade)).is_empty());
        assert_eq!(
            latest(&runs, RunKind::Batch).map(|m| m.id.as_str()),
            Some("d")
        );
        assert_eq!(latest(&runs, RunKind::Report), None);
    }

    #[test]
    fn names_durations_sizes() {
        assert_eq!(clean_name("   "), None);
        assert_eq!(clean_name("  my run \n").as_deref(), Some("my run"));
        assert_eq!(
            clean_name(&"营".repeat(500)).unwrap().chars().count(),
            MAX_NAME_CHARS
        );
        assert_eq!(
            default_name(
                RunKind::Batch,
                "cases.jsonl · 12 cases",
                &["a".into(), "b".into()]
            ),
            "Batch · cases.jsonl · 12 cases · a, b"
        );
        let four: Vec<String> = ["a", "b", "c", "d"].iter().map(|s| s.to_string()).collect();
        assert_eq!(
            default_name(RunKind::Batch, "c.jsonl", &four),
            "Batch · c.jsonl · 4 profiles"
        );
        assert_eq!(
            default_name(RunKind::Audit, "  the\\n  context ", &["p".into()]),
            "Audit · the\\n context · p"
        );
        assert!(default_name(RunKind::Audit, &"x".repeat(100), &[]).ends_with("x…"));
        assert_eq!(default_name(RunKind::Report, "", &[]), "Report");
        assert_eq!(format_duration(1234.0), "1.2 s");
        assert_eq!(format_duration(184_000.0), "3 min 4 s");
        assert_eq!(format_duration(7_500_000.0), "2 h 5 min");
        assert_eq!(format_duration(-1.0), "unknown");
        assert_eq!(format_bytes(512), "512 B");
        assert_eq!(format_bytes(12_300_000), "12.3 MB");
        assert!(storage_summary(90, 100).contains("Nearly full"));
        assert!(!storage_summary(10, 100).contains("Nearly full"));
        assert!(storage_summary(10, 0).contains("does not say"));
        let full = StoreError::QuotaExceeded {
            usage: 2_000_000_000,
            quota: 2_000_000_000,
        }
        .to_string();
        assert!(
            full.contains("2.0 GB of 2.0 GB used") && full.contains("export old runs"),
            "{full}"
        );
        let mut m = run().meta();
        assert_eq!(m.duration(), "5.0 s");
        m.finished_ms = None;
        assert_eq!(m.duration(), "not finished");
    }

    #[test]
    fn open_links_and_import_ids() {
        let mut m = run().meta();
        assert_eq!(m.open_href(), "report?run=r-1");
        assert_eq!(m.compare_href().as_deref(), Some("compare?ra=r-1"));
        m.kind = RunKind::Audit;
        assert_eq!(m.open_href(), "audit?run=r-1");
        assert_eq!(m.compare_href(), None, "an audit is one case");
        m.kind = RunKind::Grade;
        assert_eq!(m.open_href(), "extract?run=r-1");
        assert_eq!(
            m.compare_href(),
            None,
            "a grade run has no result lines to compare"
        );
        let r = run();
        assert_eq!(import_id(&r, 5.0, 1, &|_| false), None, "a free id is kept");
        let fresh = import_id(&r, 5.0, 1, &|id| id == "r-1").unwrap();
        assert_ne!(fresh, "r-1");
        assert!(fresh.starts_with("r-"));
    }

    #[test]
    fn outcomes_say_how_a_run_ended_and_read_back() {
        let a = RunOutcome::of_audit(
            &crate::audit::report::KeptReport::read(
                &serde_json::json!({"credit_score": 4, "band": "GOOD"}),
            )
            .report,
        );
        assert_eq!((a.text.as_str(), a.failed), ("score 4 · GOOD", false));
        let f = RunOutcome::of_audit(
            &crate::audit::report::KeptReport::read(
                &serde_json::json!({"credit_score": null, "band": null,
            "could_not_audit": {"phase": "decompose", "reason": "Failed to fetch"}}),
            )
            .report,
        );
        assert_eq!(
            (f.text.as_str(), f.failed),
            ("failed: Failed to fetch", true)
        );
        let lines: Vec<String> = [
            r#"{"id":1,"profile":"a","credit_score":4,"error":null}"#,
            r#"{"id":2,"profile":"a","credit_score":null,"error":"HTTP 400"}"#,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let b = RunOutcome::of_batch(&lines);
        assert_eq!((b.text.as_str(), b.failed), ("1 scored · 1 failed", false));
        assert!(
            RunOutcome::of_batch(&lines[1..]).failed,
            "nothing scored: failed"
        );
        let r = RunOutcome::of_report(12, Some(2.0 / 12.0), 0);
        assert_eq!(
            (r.text.as_str(), r.failed),
            ("cross-band 16.7 % of 12 cases", false)
        );
        let r = RunOutcome::of_report(0, None, 3);
        assert_eq!(
            (r.text.as_str(), r.failed),
            ("no scored case · 3 bad lines", true)
        );
        let g = RunOutcome::of_grade(137, 142, 1);
        assert_eq!(g.text, "accuracy 96.48 % (137 of 142) · 1 bad line");
        let mut m = RunMeta::parse_header(
            r#"{"verifyfast_run":1,"id":"r-1","name":"n","kind":"audit","created_ms":1}"#,
        )
        .unwrap()
        .0;
        assert_eq!(m.outcome, None, "runs kept before outcomes have none");
        m.outcome = Some(f.clone());
        let back = RunMeta::parse_header(&m.to_header_text()).unwrap().0;
        assert_eq!(back.outcome, Some(f));
    }

    #[test]
    fn an_import_of_a_kept_run_is_recognised_by_content() {
        let text = concat!(
            r#"{"verifyfast_run":1,"id":"r-1","name":"n","kind":"batch","created_ms":1,"finished_ms":2,"profiles":["a"],"inputs":{"file":"c.jsonl"},"result_count":1}"#,
            "\n",
            r#"{"id":1,"profile":"a","credit_score":4}"#,
            "\n"
        );
        let kept = Run::from_jsonl(text).unwrap();
        let mut copy = kept.clone();
        copy.meta.id = "r-2".into();
        copy.meta.name = "renamed".into();
        assert!(
            same_content(&kept, &copy),
            "id and name aside, the same run"
        );
        copy.results[0]["credit_score"] = serde_json::json!(3);
        assert!(may_be_same(&kept.meta, &copy.meta));
        assert!(!same_content(&kept, &copy), "another result: not the same");
    }
}
