//! Batch runs: many cases × profiles, N audits in flight, each result handed out the
//! moment it is done (the CLI appends it to the file, the browser stores it), pairs
//! already done skipped so an interrupted run resumes. Pure and async: the caller
//! supplies the transport and a clock.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::rc::Rc;

use futures::stream::{self, StreamExt};
use serde_json::{Map, Value};

use crate::json::{FieldError, Fields, FromJson, Named, Path, Text};
use crate::llm::ChatTransport;
use crate::sorted_map::SortedMap;

use super::report::{AuditReport, Band};
use super::run::{run_audit, AuditInput, AuditPlan};

/// One line of the cases format (docs/audit.md, "CLI"). All its fields are kept and echoed into
/// the result line, including ones we do not know.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// The `id` as text (`1` and `"1"` are the same case), for resume bookkeeping.
    pub key: String,
    pub input: AuditInput,
    /// The line's fields in their order; `context_input` and `model_output` are kept once,
    /// in `input` (here they are `null` placeholders that hold their place), so a case of
    /// 1.5 MB is held once, not twice (docs/audit.md, "Size limits").
    pub fields: Map<String, Value>,
}

/// The texts moved out of a case's fields into its `input`.
const TEXT_FIELDS: [&str; 2] = ["context_input", "model_output"];

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CaseError {
    #[error("not valid JSON: {0}")]
    NotJson(String),
    #[error("a case must be a JSON object")]
    NotObject,
    /// A field missing or of the wrong kind.
    #[error(transparent)]
    Field(#[from] FieldError),
    #[error("duplicate id {0}: an earlier line has it (resume needs unique ids)")]
    DuplicateId(String),
    #[error(transparent)]
    TooLarge(#[from] super::limits::TooLarge),
}

/// The text form of an `id` (string or number).
pub fn id_key(id: &Value) -> Option<String> {
    match id {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A case line as a whole, for the paths of its fields.
const CASE: Path<'static> = Path::Root("the case");

/// A text field, moved out of the line rather than copied (`json::Fields` borrows): a case
/// may hold 1.5 MB of text (docs/audit.md, "Size limits").
fn text_field(m: &mut Map<String, Value>, field: &'static str) -> Result<String, CaseError> {
    match m.get_mut(field) {
        Some(Value::String(s)) => Ok(std::mem::take(s)),
        None | Some(Value::Null) => Err(FieldError::missing(CASE.key(field), "a string").into()),
        Some(other) => Err(FieldError::wrong(CASE.key(field), "a string", other).into()),
    }
}

/// Read one case line.
pub fn parse_case(line: &str) -> Result<Case, CaseError> {
    let value: Value = serde_json::from_str(line).map_err(|e| CaseError::NotJson(e.to_string()))?;
    let Value::Object(mut fields) = value else {
        return Err(CaseError::NotObject);
    };
    let key = match fields.get("id") {
        None | Some(Value::Null) => return Err(FieldError::missing(CASE.key("id"), "an id").into()),
        Some(id) => id_key(id).ok_or_else(|| {
            FieldError::wrong(CASE.key("id"), "a number or a non-empty string", id)
        })?,
    };
    let input = AuditInput {
        context_input: text_field(&mut fields, "context_input")?,
        model_output: text_field(&mut fields, "model_output")?,
    };
    super::limits::check_input(&input)?;
    for f in TEXT_FIELDS {
        if let Some(v) = fields.get_mut(f) {
            *v = Value::Null;
        }
    }
    Ok(Case { key, input, fields })
}

/// Cases read from JSONL lines, with the bad lines (1-based line number, why) kept apart.
#[derive(Debug, Default)]
pub struct CaseSet {
    pub cases: Vec<Rc<Case>>,
    pub bad_lines: Vec<(usize, String)>,
}

impl CaseSet {
    pub fn push_line(&mut self, number: usize, text: &str) {
        match parse_case(text) {
            Ok(case) if self.cases.iter().any(|c| c.key == case.key) => self
                .bad_lines
                .push((number, CaseError::DuplicateId(case.key).to_string())),
            Ok(case) => self.cases.push(Rc::new(case)),
            Err(e) => self.bad_lines.push((number, e.to_string())),
        }
    }

    pub fn from_text(text: &str) -> Self {
        let mut set = CaseSet::default();
        for line in crate::jsonl::lines_of_capped(text, super::limits::MAX_CASE_LINE_BYTES) {
            match line.text {
                Ok(t) => set.push_line(line.number, &t),
                Err(e) => set.bad_lines.push((line.number, e.to_string())),
            }
        }
        set
    }
}

/// What batch bookkeeping (planning, resume, ordering) needs of a case: its `id` as text.
/// The browser's cases hold their texts; the CLI's hold only where their line is in the
/// cases file (docs/audit.md, "Size limits").
pub trait CaseKey {
    fn case_key(&self) -> &str;
}

impl CaseKey for Rc<Case> {
    fn case_key(&self) -> &str {
        &self.key
    }
}

/// One audit to do.
#[derive(Debug, Clone)]
pub struct Job {
    pub case: Rc<Case>,
    pub profile: String,
}

/// A results line as resume, retry, the run store, the batch panel and the CLI read it: the
/// reader of what [`result_line`] writes (the case's own fields are not read here).
#[derive(Debug, Clone, PartialEq)]
pub struct ResultLine {
    /// The case's `id` as text ([`id_key`]).
    pub id: String,
    pub profile: String,
    /// 1–5; `None` when the line has none (or one that is not a whole number).
    pub credit_score: Option<u8>,
    pub band: Option<Band>,
    /// Why the pair could not be audited, as written (`None`: no `error`, or `null`).
    pub error: Option<String>,
}

/// Why a line is not a results line ([`ResultLine::check`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotAResultLine {
    NotObject,
    NoId,
    /// It has an `id` but no `profile`: a cases line, most likely.
    NoProfile {
        id: String,
    },
    /// Neither a `credit_score` nor an `error`.
    NoOutcome {
        id: String,
    },
}

impl FromJson for ResultLine {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        let id = match f.present("id") {
            None => return Err(f.missing("id")),
            Some(v) => id_key(v).ok_or_else(|| {
                FieldError::wrong(path.key("id"), "a number or a non-empty string", v)
            })?,
        };
        Ok(ResultLine {
            id,
            profile: f.required("profile")?,
            // A score that is not a whole number from 0 to 255 is no score: the line failed.
            credit_score: f.optional::<u8>("credit_score").unwrap_or(None),
            band: f
                .optional::<Named<Band>>("band")
                .unwrap_or(None)
                .map(|b| b.0),
            error: f.optional::<Text>("error")?.map(|t| t.0),
        })
    }
}

impl ResultLine {
    /// Read one line of a results file; `None` for a line that is not JSON or names no
    /// (id, profile).
    pub fn parse(text: &str) -> Option<ResultLine> {
        let value = serde_json::from_str::<Value>(text).ok()?;
        crate::json::read(&value, "the results line").ok()
    }

    /// Whether the audit failed ("could not be audited"): its `error` is set or it has no
    /// `credit_score`. Both mean no score was produced, and `--retry-failed` re-runs exactly
    /// those pairs.
    pub fn failed(&self) -> bool {
        self.error.is_some() || self.credit_score.is_none()
    }

    /// Why it failed, in the words the results file, the panel and Report show.
    pub fn failure(&self) -> Option<String> {
        self.failed().then(|| {
            self.error
                .clone()
                .unwrap_or_else(|| "the line has no credit_score".into())
        })
    }

    pub fn pair(&self) -> (String, String) {
        (self.id.clone(), self.profile.clone())
    }

    /// Read a line of a file the CLI would write results over, saying what it lacks when it
    /// is not a results line: a results line is an object with an `id`, a `profile` and an
    /// outcome (a `credit_score` or an `error` key, `null` included).
    pub fn check(text: &str) -> Result<ResultLine, NotAResultLine> {
        let value = serde_json::from_str::<Value>(text).map_err(|_| NotAResultLine::NotObject)?;
        let path = Path::Root("the results line");
        let f = Fields::of(&value, path).map_err(|_| NotAResultLine::NotObject)?;
        let id = f
            .present("id")
            .and_then(id_key)
            .ok_or(NotAResultLine::NoId)?;
        if !matches!(f.get("profile"), Some(Value::String(_))) {
            return Err(NotAResultLine::NoProfile { id });
        }
        if f.get("credit_score").is_none() && f.get("error").is_none() {
            return Err(NotAResultLine::NoOutcome { id });
        }
        ResultLine::from_json(&value, path).map_err(|_| NotAResultLine::NoOutcome { id })
    }

    /// Only the `error` of a line (the CLI keeps only that much of a failed line in memory:
    /// `{"error": …}`).
    pub fn error_of(text: &str) -> Option<String> {
        let value = serde_json::from_str::<Value>(text).ok()?;
        let f = Fields::of(&value, Path::Root("the results line")).ok()?;
        f.optional::<Text>("error").ok().flatten().map(|t| t.0)
    }
}

/// The (id, profile) pairs present in an earlier results file. Unreadable lines (say, a
/// half-written last line after a crash) are ignored: their pair is simply redone.
pub fn done_pairs<'a>(lines: impl IntoIterator<Item = &'a str>) -> HashSet<(String, String)> {
    lines
        .into_iter()
        .filter_map(ResultLine::parse)
        .map(|l| l.pair())
        .collect()
}

/// One line of a results file, kept as the exact text it was read as (so a line that is
/// not replaced is written back byte for byte), with what resume and retry need to know.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredLine {
    pub text: String,
    /// `None` for a line that is not JSON or names no (id, profile): kept, never replaced.
    pub pair: Option<(String, String)>,
    pub failed: bool,
}

impl StoredLine {
    pub fn read(text: &str) -> Self {
        let line = ResultLine::parse(text);
        StoredLine {
            text: text.to_string(),
            pair: line.as_ref().map(ResultLine::pair),
            failed: line.as_ref().is_none_or(ResultLine::failed),
        }
    }
}

/// The pairs a new run must not audit again: every pair with a line when resuming, only
/// the pairs with a *scored* line when retrying failed ones.
pub fn settled_pairs(lines: &[StoredLine], retry_failed: bool) -> HashSet<(String, String)> {
    lines
        .iter()
        .filter(|l| !(retry_failed && l.failed))
        .filter_map(|l| l.pair.clone())
        .collect()
}

/// Fold newer lines (a retry's or a resumed run's results) into an earlier file's lines.
///
/// Per (id, profile) one line survives: a scored line is never replaced (a good result
/// stays exactly as it was, even if a later line for the same pair exists), a failed line
/// is replaced by any newer line for its pair, and among failed lines the newest wins (its
/// reason is the current one). A replacing line takes the place of the line it replaces;
/// lines for new pairs and lines without a pair go after, in their order.
pub fn merge_results(earlier: Vec<StoredLine>, newer: Vec<StoredLine>) -> Vec<StoredLine> {
    merge_by(earlier, newer, |l| l.pair.clone(), |l| l.failed)
}

/// [`merge_results`] for any line type that knows its pair and whether it failed: the CLI
/// merges where its lines are in the files rather than their texts (a results line holds
/// the case's texts, up to 1.5 MB), so a fold needs no memory per byte of results.
pub fn merge_by<T>(
    earlier: Vec<T>,
    newer: Vec<T>,
    pair_of: impl Fn(&T) -> Option<(String, String)>,
    failed: impl Fn(&T) -> bool,
) -> Vec<T> {
    let mut out: Vec<T> = Vec::with_capacity(earlier.len() + newer.len());
    let mut at: HashMap<(String, String), usize> = HashMap::new();
    for line in earlier.into_iter().chain(newer) {
        let Some(pair) = pair_of(&line) else {
            out.push(line);
            continue;
        };
        match at.get(&pair) {
            Some(&i) if !failed(&out[i]) => {} // a good result is never touched
            Some(&i) => out[i] = line,
            None => {
                at.insert(pair, out.len());
                out.push(line);
            }
        }
    }
    out
}

/// [`merge_results`] one line at a time, for a run whose results arrive while they are shown
/// (the browser batch): the same rules (a scored line is never replaced, a failed one is
/// replaced in place by a newer line for its pair, lines for new pairs go at the end), with
/// each pair's position indexed once, so a line costs O(1) however many are kept.
#[derive(Debug, Default)]
pub struct LiveMerge {
    /// (id, profile) → (index in the lines, whether that line failed).
    slots: HashMap<(String, String), (usize, bool)>,
}

impl LiveMerge {
    /// Index the lines already kept.
    pub fn new(lines: &[String]) -> Self {
        let mut slots = HashMap::new();
        for (i, text) in lines.iter().enumerate() {
            let l = StoredLine::read(text);
            if let Some(pair) = l.pair {
                match slots.get(&pair) {
                    // The first scored line of a pair is the one that stays.
                    Some(&(_, false)) => {}
                    _ => {
                        slots.insert(pair, (i, l.failed));
                    }
                }
            }
        }
        LiveMerge { slots }
    }

    /// Fold one newer line into `lines`. Returns false when it was dropped (its pair already
    /// has a scored line).
    pub fn add(&mut self, lines: &mut Vec<String>, text: String) -> bool {
        let l = StoredLine::read(&text);
        let Some(pair) = l.pair else {
            lines.push(text);
            return true;
        };
        match self.slots.get(&pair).copied() {
            Some((_, false)) => false,
            Some((i, true)) if i < lines.len() => {
                lines[i] = text;
                self.slots.insert(pair, (i, l.failed));
                true
            }
            _ => {
                self.slots.insert(pair, (lines.len(), l.failed));
                lines.push(text);
                true
            }
        }
    }
}

/// How many kept lines say their pair could not be audited (what "Retry failed" would redo).
pub fn failed_count(lines: &[String]) -> usize {
    lines
        .iter()
        .map(|l| StoredLine::read(l))
        .filter(|l| l.failed && l.pair.is_some())
        .count()
}

/// A (case, profile) pair whose line says it could not be audited, with the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailedPair {
    pub id: String,
    pub profile: String,
    pub reason: String,
}

/// The pairs of this run (`cases` × `profiles`) that have no scored line, case-major: the
/// failed ones with their reason, and any that have no line at all.
pub fn unscored_pairs(
    lines: &[StoredLine],
    cases: &[impl CaseKey],
    profiles: &[String],
) -> Vec<FailedPair> {
    let mut state: HashMap<(&str, &str), &StoredLine> = HashMap::new();
    for l in lines {
        if let Some((id, profile)) = &l.pair {
            state.insert((id.as_str(), profile.as_str()), l);
        }
    }
    let mut out = Vec::new();
    for case in cases {
        for profile in profiles {
            let reason = match state.get(&(case.case_key(), profile.as_str())) {
                Some(l) if !l.failed => continue,
                Some(l) => {
                    ResultLine::error_of(&l.text).unwrap_or_else(|| "no credit_score".into())
                }
                None => "no result line".into(),
            };
            out.push(FailedPair {
                id: case.case_key().to_string(),
                profile: profile.clone(),
                reason,
            });
        }
    }
    out
}

/// Every (case, profile) pair not yet done, case-major. Returns the jobs and how many
/// pairs were skipped as already done.
pub fn plan_jobs(
    cases: &[Rc<Case>],
    profiles: &[String],
    done: &HashSet<(String, String)>,
) -> (Vec<Job>, usize) {
    let (pairs, skipped) = plan_pairs(cases, profiles, done);
    let jobs = pairs
        .into_iter()
        .map(|(case, profile)| Job {
            case: case.clone(),
            profile,
        })
        .collect();
    (jobs, skipped)
}

/// [`plan_jobs`] for any kind of case: the (case, profile) pairs not yet done, case-major,
/// and how many were skipped as done.
pub fn plan_pairs<'a, C: CaseKey>(
    cases: &'a [C],
    profiles: &[String],
    done: &HashSet<(String, String)>,
) -> (Vec<(&'a C, String)>, usize) {
    let mut pairs = Vec::new();
    let mut skipped = 0;
    for case in cases {
        for profile in profiles {
            if done.contains(&(case.case_key().to_string(), profile.clone())) {
                skipped += 1;
            } else {
                pairs.push((case, profile.clone()));
            }
        }
    }
    (pairs, skipped)
}

/// The results line of one (case, profile): the case's own fields plus the outcome.
pub fn result_line(case: &Case, report: &AuditReport) -> Map<String, Value> {
    let mut m = case.fields.clone();
    let mut put = |k: &str, v: Value| {
        m.insert(k.to_string(), v);
    };
    // Back in their places (an existing key keeps its position).
    put(
        TEXT_FIELDS[0],
        Value::String(case.input.context_input.clone()),
    );
    put(
        TEXT_FIELDS[1],
        Value::String(case.input.model_output.clone()),
    );
    put("profile", Value::String(report.profile.clone()));
    put(
        "credit_score",
        report.credit_score.map(Value::from).unwrap_or(Value::Null),
    );
    put(
        "band",
        report
            .band
            .map(|b| Value::String(b.as_str().into()))
            .unwrap_or(Value::Null),
    );
    put("high_count", Value::from(report.high_count));
    put("low_count", Value::from(report.low_count));
    put(
        "errors",
        as_tree(&report.errors).unwrap_or(Value::Array(Vec::new())),
    );
    put("number_grounding", number_summary(report));
    // The rules' own findings (docs/audit.md, "Deterministic findings") and what the audit
    // left out of the model's bookkeeping.
    put(
        "deterministic_findings",
        as_tree(&report.deterministic_findings).unwrap_or(Value::Array(Vec::new())),
    );
    put(
        "dropped",
        as_tree(&report.dropped).unwrap_or(Value::Array(Vec::new())),
    );
    put(
        "contradictions",
        as_tree(&report.contradictions).unwrap_or(Value::Array(Vec::new())),
    );
    put("latency_ms", Value::from(report.latency_ms));
    put("tokens", Value::from(report.tokens.total_tokens));
    put("models", as_tree(&report.models).unwrap_or(Value::Null));
    put(
        "error",
        report
            .could_not_audit
            .as_ref()
            .map(|c| Value::String(c.to_string()))
            .unwrap_or(Value::Null),
    );
    m
}

/// The key under which a results line kept by the browser holds its whole report (claims,
/// findings, transcript), so any case of a batch can be opened like a single audit without
/// new calls. The results file written for the user leaves it out ([`without_report`]).
pub const KEPT_REPORT: &str = "audit_report";

/// A results line as one case of it is shown (the Report page's case panel, a side of the
/// Compare page): the case's own texts and fields as written (a string as it is, any other
/// value as JSON; `null` is none), the line's `errors` entries as written, its `error`, the
/// line's own findings and its kept report, each read by the report's reader.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResultCase {
    pub id: Option<String>,
    pub profile: Option<String>,
    pub description: Option<String>,
    pub context_input: Option<String>,
    pub model_output: Option<String>,
    pub errors: Vec<Value>,
    pub error: Option<String>,
    /// The line's `errors` and `deterministic_findings` read as a report with only those
    /// parts (a results file keeps them, not the claims, phases or transcript), so a finding
    /// reads as it does in a whole report; `None` when the line has no `errors` list.
    pub line_findings: Option<super::report::KeptReport>,
    /// The whole report kept with the line under [`KEPT_REPORT`] (a browser batch run), its
    /// gaps named; `None` when the line was written without it.
    pub kept: Option<super::report::KeptReport>,
}

impl FromJson for ResultCase {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        let text = |key: &str| f.present(key).map(crate::jsonl::text_of);
        let line_findings = match f.get("errors") {
            Some(errors @ Value::Array(_)) => {
                let mut part = Map::new();
                part.insert("errors".into(), errors.clone());
                if let Some(rules) = f.get("deterministic_findings") {
                    part.insert("deterministic_findings".into(), rules.clone());
                }
                Some(super::report::KeptReport::read(&Value::Object(part)))
            }
            _ => None,
        };
        Ok(ResultCase {
            id: text("id"),
            profile: text("profile"),
            description: text("description"),
            context_input: text(TEXT_FIELDS[0]),
            model_output: text(TEXT_FIELDS[1]),
            errors: match f.get("errors") {
                Some(Value::Array(items)) => items.clone(),
                _ => Vec::new(),
            },
            error: text("error"),
            line_findings,
            kept: f.get(KEPT_REPORT).map(super::report::KeptReport::read),
        })
    }
}

impl ResultCase {
    /// Read one results line's text: a line that is JSON but not an object reads as a line
    /// with nothing in it (no texts, no findings); only text that is not JSON is an error.
    pub fn parse(text: &str) -> Result<ResultCase, serde_json::Error> {
        let value = serde_json::from_str::<Value>(text)?;
        Ok(crate::json::read(&value, "the results line").unwrap_or_default())
    }
}

/// `line` with the whole report it was made from, under [`KEPT_REPORT`].
pub fn with_report(line: &mut Map<String, Value>, report: &AuditReport) {
    if let Some(tree) = as_tree(report) {
        line.insert(KEPT_REPORT.into(), tree);
    }
}

/// How many bytes of results text a browser run keeps with reports. A run's results are one
/// string, saved whole; the JavaScript engine's longest string is 2^29 characters (V8), which
/// kept reports reach at about 20,000 cases (docs/runs.md, "How big a kept batch is"). Past this
/// budget lines are kept without their report: scores are never lost, only the means to open
/// those cases without new calls.
pub const KEPT_REPORTS_MAX_BYTES: usize = 128 << 20;

/// A browser results line as text: with its whole report while the run's lines with reports
/// stay within [`KEPT_REPORTS_MAX_BYTES`] (`kept` counts their bytes so far), else without it.
/// Returns the text and whether the report was kept.
pub fn kept_line(
    mut line: Map<String, Value>,
    report: &AuditReport,
    kept: &mut usize,
) -> (String, bool) {
    with_report(&mut line, report);
    let mut line = Value::Object(line);
    let full = crate::jsonl::compact(&line);
    if kept.saturating_add(full.len()) <= KEPT_REPORTS_MAX_BYTES {
        *kept += full.len();
        return (full, true);
    }
    // Over the budget (rare): the line again, without its report.
    without_report(&mut line);
    (crate::jsonl::compact(&line), false)
}

/// A results line as the results file has it: without the kept report.
pub fn without_report(line: &mut Value) {
    if let Value::Object(m) = line {
        m.remove(KEPT_REPORT);
    }
}

/// The case's texts and its kept report, read back from a results line (`None`: the line is
/// not JSON, or was kept without its report).
pub fn kept_case(line: &str) -> Option<(AuditInput, super::report::KeptReport)> {
    let v: Value = serde_json::from_str(line).ok()?;
    let (input, report) = kept_case_of(&v)?;
    Some((input, super::report::KeptReport::read(report)))
}

/// [`kept_case`] of a line already read as JSON (a run's stored results), its report left as
/// stored: the texts (a text that is not a string is empty) and the report under
/// [`KEPT_REPORT`] (`None`: the line was kept without it).
pub fn kept_case_of(line: &Value) -> Option<(AuditInput, &Value)> {
    case_with_report(line, KEPT_REPORT)
}

/// A recorded audit as the app bundles its demo (`public/examples/demo-audit.json`): the
/// texts audited and the report as written under `report`, the same shape as a kept case
/// (`None`: the document has no report).
pub fn recorded_audit(doc: &Value) -> Option<(AuditInput, &Value)> {
    case_with_report(doc, "report")
}

/// The texts of a case and the report stored beside them under `key`.
fn case_with_report<'v>(doc: &'v Value, key: &str) -> Option<(AuditInput, &'v Value)> {
    let report = doc.get(key)?;
    let text = |k: &str| {
        doc.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    Some((
        AuditInput {
            context_input: text("context_input"),
            model_output: text("model_output"),
        },
        report,
    ))
}

/// The profiles named by results lines, in first-seen order (a line that is not a results
/// line names none).
pub fn profiles_of<'a>(lines: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in lines.into_iter().filter_map(ResultLine::parse) {
        if !out.contains(&line.profile) {
            out.push(line.profile);
        }
    }
    out
}

/// The number check in a results line: its one-line summary and the numbers not found (the
/// full per-number record stays in the report; a results line is one row of a table).
fn number_summary(report: &AuditReport) -> Value {
    let g = &report.number_grounding;
    let mut m = Map::new();
    m.insert("checked".into(), Value::from(g.numbers.len()));
    m.insert(
        "not_found".into(),
        Value::Array(
            g.not_found()
                .map(|n| Value::String(n.text.clone()))
                .collect(),
        ),
    );
    m.insert("summary".into(), Value::String(g.summary()));
    Value::Object(m)
}

/// A part of a report as a JSON tree, the same tree `serde_json::to_value` gives.
///
/// It is written as pretty JSON text and read back rather than built with `to_value`: the
/// report download writes the whole report with `to_string_pretty`, so this reuses those
/// serializers (and the `Value` parser), where `to_value` would compile a second copy of
/// the findings' and models' serializers for serde_json's tree serializer.
fn as_tree<T: serde::Serialize>(part: &T) -> Option<Value> {
    let text = serde_json::to_string_pretty(part).ok()?;
    serde_json::from_str(&text).ok()
}

/// What a batch hands out per finished pair: the results line, the report it was made from,
/// and where the run stands.
pub type OnResult<'a> = dyn FnMut(Map<String, Value>, &AuditReport, &Progress) + 'a;

/// Where the run stands, for the progress bar.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub done: usize,
    pub total: usize,
    /// Results with `error` set (could not audit).
    pub failures: usize,
    /// Pairs skipped because an earlier run did them.
    pub skipped: usize,
    pub elapsed_ms: f64,
    /// Audits per second so far.
    pub rate_per_s: f64,
    /// Seconds to go at the current rate, once there is a rate.
    pub eta_s: Option<f64>,
}

impl Progress {
    fn update(&mut self, now_ms: f64, started_ms: f64) {
        self.elapsed_ms = (now_ms - started_ms).max(0.0);
        self.rate_per_s = if self.elapsed_ms > 0.0 {
            self.done as f64 * 1000.0 / self.elapsed_ms
        } else {
            0.0
        };
        self.eta_s =
            (self.rate_per_s > 0.0).then(|| (self.total - self.done) as f64 / self.rate_per_s);
    }

    /// e.g. `12/200 · 1 failed · 3.2/s · ETA 59 s`.
    pub fn summary(&self) -> String {
        let eta = self
            .eta_s
            .map(|s| format!(" · ETA {:.0} s", s))
            .unwrap_or_default();
        format!(
            "{}/{} · {} failed · {:.1}/s{eta}",
            self.done, self.total, self.failures, self.rate_per_s
        )
    }

    /// The summary behind a text bar, e.g. `[#####-----] 12/200 · …`.
    pub fn bar(&self, width: usize) -> String {
        let filled = (width * self.done)
            .checked_div(self.total)
            .unwrap_or(width)
            .min(width);
        format!(
            "[{}{}] {}",
            "#".repeat(filled),
            "-".repeat(width.saturating_sub(filled)),
            self.summary()
        )
    }
}

/// Run jobs with at most `concurrency` audits in flight. `audit_one` does one job (`None`:
/// it could not even start, say its case could no longer be read; the caller says why, and
/// the pair is left without a line); `on_result` gets each results line, and the report it
/// was made from (claims, findings, transcript: for a caller that keeps them), as soon as its
/// audit is done.
pub async fn run_jobs<T, F, Fut>(
    jobs: Vec<T>,
    skipped: usize,
    concurrency: usize,
    audit_one: F,
    clock: &dyn Fn() -> f64,
    on_result: &mut OnResult<'_>,
) -> Progress
where
    F: Fn(T) -> Fut,
    Fut: Future<Output = Option<(Job, AuditReport)>>,
{
    let started = clock();
    let mut progress = Progress {
        done: 0,
        total: jobs.len(),
        failures: 0,
        skipped,
        elapsed_ms: 0.0,
        rate_per_s: 0.0,
        eta_s: None,
    };
    let mut results = stream::iter(jobs)
        .map(audit_one)
        .buffer_unordered(concurrency.max(1));
    while let Some(outcome) = results.next().await {
        progress.done += 1;
        let Some((job, report)) = outcome else {
            progress.failures += 1;
            progress.update(clock(), started);
            continue;
        };
        if report.could_not_audit.is_some() {
            progress.failures += 1;
        }
        progress.update(clock(), started);
        on_result(result_line(&job.case, &report), &report, &progress);
    }
    progress
}

/// A job names a profile for which no audit plan was given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no settings for profile `{0}`")]
pub struct MissingPlan(pub String);

/// The usual batch: every job audited through one transport with its profile's plan.
/// Checked before anything runs, so no job can go missing for want of a plan.
pub async fn run_batch(
    transport: &dyn ChatTransport,
    plans: &SortedMap<String, AuditPlan>,
    jobs: Vec<Job>,
    skipped: usize,
    concurrency: usize,
    clock: &dyn Fn() -> f64,
    on_result: &mut OnResult<'_>,
) -> Result<Progress, MissingPlan> {
    let planned = jobs
        .into_iter()
        .map(|job| match plans.get(&job.profile) {
            Some(plan) => Ok((job, plan)),
            None => Err(MissingPlan(job.profile.clone())),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let audit_one = |item| audit_planned(transport, item);
    Ok(run_jobs(planned, skipped, concurrency, audit_one, clock, on_result).await)
}

async fn audit_planned(
    transport: &dyn ChatTransport,
    (job, plan): (Job, &AuditPlan),
) -> Option<(Job, AuditReport)> {
    let report = run_audit(transport, plan, &job.case.input, &|_| {}).await;
    Some((job, report))
}

/// Order results lines as the cases and profiles were given, so a finished run's file
/// does not depend on which audit happened to finish first. Lines that do not belong to
/// a known (case, profile) keep their relative order at the end.
pub fn sort_results(lines: &mut [Value], cases: &[Rc<Case>], profiles: &[String]) {
    sort_by_pair(lines, cases, profiles, |v| {
        crate::json::read::<ResultLine>(v, "the results line")
            .ok()
            .map(|l| l.pair())
    });
}

/// [`sort_results`] for lines kept as text.
pub fn sort_stored(lines: &mut [StoredLine], cases: &[Rc<Case>], profiles: &[String]) {
    sort_by_pair(lines, cases, profiles, |l| l.pair.clone());
}

/// [`sort_stored`] for any line type that knows its pair.
pub fn sort_by_pair<T>(
    lines: &mut [T],
    cases: &[impl CaseKey],
    profiles: &[String],
    pair: impl Fn(&T) -> Option<(String, String)>,
) {
    let case_pos: HashMap<&str, usize> = cases
        .iter()
        .enumerate()
        .map(|(i, c)| (c.case_key(), i))
        .collect();
    let profile_pos: HashMap<&str, usize> = profiles
        .iter()
        .enumerate()
        .map(|(i, p)| (p.as_str(), i))
        .collect();
    let rank = |line: &T| {
        let ranked = pair(line).and_then(|(id, profile)| {
            Some((
                *case_pos.get(id.as_str())?,
                *profile_pos.get(profile.as_str())?,
            ))
        });
        match ranked {
            Some((c, p)) => (0, c, p),
            None => (1, 0, 0),
        }
    };
    // A stable sort: unknown lines keep their relative order.
    lines.sort_by_cached_key(|l| rank(l));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::report::Phase;
    use crate::audit::testing::ScriptedTransport;
    use crate::audit::PlannedModel;
    use crate::config::AuditParams;
    use crate::llm::{Endpoint, JsonMode, LlmError};
    use futures::executor::block_on;
    use std::cell::Cell;

    const CASES: &str = r#"{"id": 1, "tag": "clean", "difficulty": "easy", "description": "d", "context_input": "营收增长10%", "model_output": "营收增长10%", "expected_credit_score": 5}
{"id": "two", "tag": "major_factual", "context_input": "Sales rose 5%.", "model_output": "Sales fell 5%.", "expected_credit_score": 2}
not json
{"id": 3, "context_input": "x"}
{"id": 1, "context_input": "a", "model_output": "b"}
"#;

    #[test]
    fn a_case_over_a_size_limit_is_a_bad_line_and_the_rest_are_read() {
        use crate::audit::limits::{MAX_CASE_LINE_BYTES, MAX_CONTEXT_BYTES, MAX_OUTPUT_BYTES};
        let case = |id: u32, context: usize, output: usize| {
            format!(
                "{{\"id\":{id},\"context_input\":\"{}\",\"model_output\":\"{}\"}}\n",
                "c".repeat(context),
                "o".repeat(output)
            )
        };
        let text = [
            case(1, 10, 10),
            case(2, MAX_CONTEXT_BYTES + 1, 10),
            case(3, 10, MAX_OUTPUT_BYTES + 1),
            case(4, MAX_CASE_LINE_BYTES, 10),
            case(5, MAX_CONTEXT_BYTES, MAX_OUTPUT_BYTES),
        ]
        .concat();
        let set = CaseSet::from_text(&text);
        let ids: Vec<&str> = set.cases.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(ids, vec!["1", "5"]);
        let bad: Vec<usize> = set.bad_lines.iter().map(|(n, _)| *n).collect();
        assert_eq!(bad, vec![2, 3, 4]);
        assert!(
            set.bad_lines[0]
                .1
                .contains("context_input is 1048577 bytes, over the limit of 1048576 bytes"),
            "{:?}",
            set.bad_lines[0]
        );
        assert!(
            set.bad_lines[1].1.contains("model_output is 524289 bytes"),
            "{:?}",
            set.bad_lines[1]
        );
        assert!(
            set.bad_lines[2].1.contains("longer than 4194304 bytes"),
            "{:?}",
            set.bad_lines[2]
        );
    }

    #[test]
    fn live_merge_matches_merge_results() {
        let earlier: Vec<String> = [
            r#"{"id":1,"profile":"a","credit_score":4}"#,
            r#"{"id":2,"profile":"a","error":"503"}"#,
            r#"{"id":3,"profile":"a","credit_score":null}"#,
            "not json",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let newer: Vec<String> = [
            r#"{"id":1,"profile":"a","credit_score":1}"#,
            r#"{"id":2,"profile":"a","credit_score":5}"#,
            r#"{"id":3,"profile":"a","error":"again"}"#,
            r#"{"id":4,"profile":"a","credit_score":3}"#,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mut live = earlier.clone();
        let mut m = LiveMerge::new(&live);
        let kept: Vec<bool> = newer.iter().map(|t| m.add(&mut live, t.clone())).collect();
        assert_eq!(kept, [false, true, true, true]);
        let batch: Vec<String> = merge_results(
            earlier.iter().map(|t| StoredLine::read(t)).collect(),
            newer.iter().map(|t| StoredLine::read(t)).collect(),
        )
        .into_iter()
        .map(|l| l.text)
        .collect();
        assert_eq!(live, batch);
        // The good line for id 1 is untouched; the retried ones replaced in place.
        assert_eq!(live[0], earlier[0]);
        assert_eq!(live[1], newer[1]);
        assert_eq!(failed_count(&live), 1); // id 3 failed again; the non-JSON line names no pair
    }

    fn plans() -> SortedMap<String, AuditPlan> {
        let endpoint = Endpoint {
            base_url: "http://127.0.0.1:9/v1".into(),
            model: "m".into(),
            api_key: None,
            json_mode: JsonMode::JsonObject,
        };
        let plan = |name: &str| AuditPlan {
            profile: name.into(),
            run: PlannedModel {
                llm: "a".into(),
                endpoint: endpoint.clone(),
            },
            verify: PlannedModel {
                llm: "a".into(),
                endpoint: endpoint.clone(),
            },
            params: AuditParams::default(),
            max_tokens: 100,
            temperature: 0.0,
            secrets: Default::default(),
        };
        ["p1", "p2"]
            .iter()
            .map(|p| (p.to_string(), plan(p)))
            .collect()
    }

    fn transport() -> ScriptedTransport {
        ScriptedTransport::answering(&[
            (
                Phase::Decompose,
                r#"{"claims":[{"id":"C1","text":"t"}],"deductions":[]}"#,
            ),
            (
                Phase::FactCheck,
                r#"{"factual_errors":[{"target":"C1","type":"contradiction","severity":"High"}]}"#,
            ),
            (Phase::LogicCheck, r#"{"logic_errors":[]}"#),
        ])
    }

    #[test]
    fn cases_keep_all_fields_and_bad_lines_are_reported() {
        let set = CaseSet::from_text(CASES);
        assert_eq!(set.cases.len(), 2);
        assert_eq!(set.cases[0].key, "1");
        assert_eq!(set.cases[1].key, "two");
        assert_eq!(set.cases[0].fields["tag"], "clean");
        let bad: Vec<usize> = set.bad_lines.iter().map(|(n, _)| *n).collect();
        assert_eq!(bad, vec![3, 4, 5]);
        assert!(set.bad_lines[1].1.contains("model_output"));
        assert!(set.bad_lines[2].1.contains("duplicate id 1"));
    }

    #[test]
    fn report_parts_become_the_tree_to_value_gives() {
        use crate::audit::contract::{ErrorType, Severity};
        use crate::audit::report::{Counting, Finding, ModelRef, ModelsUsed};
        let finding = |counting| Finding {
            phase: Phase::FactCheck,
            target: "C1".into(),
            error_type: ErrorType::Unsupported,
            severity: Severity::Low,
            evidence: "营收 \"引号\"\n\t\u{1}".into(),
            explanation: String::new(),
            counting,
            evidence_not_found: false,
        };
        let errors = vec![
            finding(Counting::Counted),
            finding(Counting::Duplicate { of: 0 }),
            finding(Counting::OverCap),
        ];
        assert_eq!(as_tree(&errors), serde_json::to_value(&errors).ok());
        let model = ModelRef {
            llm: "a".into(),
            model: "m".into(),
            base_url: "http://127.0.0.1:9/v1".into(),
        };
        let models = ModelsUsed {
            run: model.clone(),
            verify: model,
        };
        assert_eq!(as_tree(&models), serde_json::to_value(&models).ok());
    }

    #[test]
    fn resume_skips_pairs_already_done() {
        let set = CaseSet::from_text(CASES);
        let done = done_pairs([
            r#"{"id":1,"profile":"p2","credit_score":5}"#,
            r#"{"id":"two","profile":"p1"#,
        ]);
        let profiles = vec!["p1".to_string(), "p2".to_string()];
        let (jobs, skipped) = plan_jobs(&set.cases, &profiles, &done);
        assert_eq!(skipped, 1);
        let pairs: Vec<(String, String)> = jobs
            .iter()
            .map(|j| (j.case.key.clone(), j.profile.clone()))
            .collect();
        assert_eq!(
            pairs,
            vec![
                ("1".into(), "p1".into()),
                ("two".into(), "p1".into()),
                ("two".into(), "p2".into())
            ]
        );
    }

    #[test]
    fn every_job_yields_one_line_with_case_fields_and_outcome() {
        let set = CaseSet::from_text(CASES);
        let profiles = vec!["p1".to_string(), "p2".to_string()];
        let (jobs, _) = plan_jobs(&set.cases, &profiles, &HashSet::new());
        // The second Phase 1 call fails: that pair is "could not audit", not missing.
        let t = transport().script(
            Phase::Decompose,
            vec![
                Ok(r#"{"claims":[{"id":"C1","text":"t"}]}"#.into()),
                Err(LlmError::Server {
                    status: 500,
                    body: "boom".into(),
                }),
            ],
        );
        let tick = Cell::new(0.0);
        let clock = || {
            tick.set(tick.get() + 500.0);
            tick.get()
        };
        let mut lines = Vec::new();
        let mut last = None;
        let progress = block_on(run_batch(
            &t,
            &plans(),
            jobs,
            0,
            2,
            &clock,
            &mut |line, _, p| {
                lines.push(line);
                last = Some(p.clone());
            },
        ))
        .unwrap();
        assert_eq!(lines.len(), 4);
        assert_eq!(progress.done, 4);
        assert_eq!(progress.failures, 1);
        assert_eq!(last.unwrap().done, 4);
        let failed: Vec<_> = lines.iter().filter(|l| !l["error"].is_null()).collect();
        assert_eq!(failed.len(), 1);
        assert!(failed[0]["credit_score"].is_null());
        assert!(failed[0]["error"]
            .as_str()
            .unwrap()
            .contains("could not audit"));
        for l in lines.iter().filter(|l| l["error"].is_null()) {
            assert_eq!(l["credit_score"], 2);
            assert_eq!(l["band"], "BAD");
            // Case "two" flips "rose 5%" to "fell 5%": the direction rule's High counts too.
            let rules = l["deterministic_findings"].as_array().unwrap();
            if l["id"] == "two" {
                assert_eq!(rules.len(), 1, "{l:?}");
                assert_eq!(rules[0]["check"], "direction");
                assert_eq!(rules[0]["status"], "counted");
                assert_eq!(l["high_count"], 2);
            } else {
                assert!(rules.is_empty());
                assert_eq!(l["high_count"], 1);
            }
            // The texts, kept once in the case, are back in their places in the line.
            let keys: Vec<&str> = l.keys().take(6).map(String::as_str).collect();
            assert_eq!(keys[..2], ["id", "tag"], "{keys:?}");
            assert!(keys.contains(&"context_input") && keys.contains(&"model_output"));
            assert!(l["context_input"]
                .as_str()
                .is_some_and(|c| c == "营收增长10%" || c == "Sales rose 5%."));
            assert!(l["tokens"].as_u64().unwrap() > 0);
            // Both cases' numbers (10%, 5%) are in their contexts.
            assert_eq!(l["number_grounding"]["checked"], 1);
            assert_eq!(l["number_grounding"]["not_found"], serde_json::json!([]));
        }
        // The number check needs no model: a case that failed in Phase 1 still has it.
        assert_eq!(failed[0]["number_grounding"]["checked"], 1);
        assert!(progress.rate_per_s > 0.0);
        assert_eq!(progress.eta_s, Some(0.0));
    }

    #[test]
    fn concurrency_bounds_audits_in_flight() {
        let set = CaseSet::from_text(CASES);
        let profiles = vec!["p1".to_string(), "p2".to_string()];
        let (jobs, _) = plan_jobs(&set.cases, &profiles, &HashSet::new());
        let t = transport();
        block_on(run_batch(
            &t,
            &plans(),
            jobs,
            0,
            2,
            &|| 0.0,
            &mut |_, _, _| {},
        ))
        .unwrap();
        // With 2 in flight, the first two Phase 1 calls start before either ends.
        let log = t.log.borrow();
        assert_eq!(log[0], "start:Decompose");
        assert_eq!(log[1], "start:Decompose");
        let max_in_flight = log
            .iter()
            .filter(|e| e.contains("Decompose"))
            .scan(0i32, |n, e| {
                *n += if e.starts_with("start") { 1 } else { -1 };
                Some(*n)
            })
            .max()
            .unwrap();
        assert_eq!(max_in_flight, 2);
    }

    #[test]
    fn a_profile_without_plan_is_refused_up_front() {
        let set = CaseSet::from_text(CASES);
        let (jobs, _) = plan_jobs(&set.cases, &["p9".to_string()], &HashSet::new());
        let t = transport();
        let r = block_on(run_batch(
            &t,
            &plans(),
            jobs,
            0,
            2,
            &|| 0.0,
            &mut |_, _, _| {},
        ));
        assert_eq!(r, Err(MissingPlan("p9".into())));
        assert!(t.requests.borrow().is_empty());
    }

    #[test]
    fn results_sort_into_case_and_profile_order() {
        let set = CaseSet::from_text(CASES);
        let profiles = vec!["p1".to_string(), "p2".to_string()];
        let mut lines: Vec<Value> = [
            r#"{"id":"two","profile":"p1"}"#,
            r#"{"id":"zzz","profile":"p1"}"#,
            r#"{"id":1,"profile":"p2"}"#,
            r#"{"id":1,"profile":"p1"}"#,
        ]
        .iter()
        .map(|s| serde_json::from_str(s).unwrap())
        .collect();
        sort_results(&mut lines, &set.cases, &profiles);
        let order: Vec<String> = lines
            .iter()
            .map(|v| format!("{}/{}", v["id"], v["profile"].as_str().unwrap()))
            .collect();
        assert_eq!(order, vec!["1/p1", "1/p2", "\"two\"/p1", "\"zzz\"/p1"]);
    }

    /// Case 7, scored 4 GOOD under profile p.
    fn scored_case() -> (Case, AuditReport) {
        let report = crate::audit::report::KeptReport::read(&serde_json::json!({
            "profile": "p", "credit_score": 4, "band": "GOOD"
        }))
        .report;
        let case = parse_case(r#"{"id": 7, "context_input": "c", "model_output": "o"}"#).unwrap();
        (case, report)
    }

    fn stored(lines: &[&str]) -> Vec<StoredLine> {
        lines.iter().map(|l| StoredLine::read(l)).collect()
    }

    #[test]
    fn a_results_line_reads_as_written() {
        let (case, report) = scored_case();
        let text = crate::jsonl::compact(&Value::Object(result_line(&case, &report)));
        let line = ResultLine::parse(&text).unwrap();
        assert_eq!(
            (line.pair(), line.credit_score, line.band, line.failed()),
            (("7".into(), "p".into()), Some(4), Some(Band::Good), false)
        );
        let failed = ResultLine::parse(r#"{"id":"x","profile":"p","credit_score":"4"}"#).unwrap();
        assert_eq!(
            failed.failure().as_deref(),
            Some("the line has no credit_score")
        );
        assert!(ResultLine::parse(r#"{"id":"","profile":"p"}"#).is_none());
        assert!(ResultLine::parse(r#"{"id":1}"#).is_none());
    }

    #[test]
    fn a_result_case_reads_its_own_findings_and_its_kept_report() {
        let read = |text: &str| ResultCase::parse(text).expect("JSON");
        let plain = read(r#"{"id":1,"profile":"p","credit_score":4}"#);
        assert_eq!(plain.profile.as_deref(), Some("p"));
        assert!(plain.line_findings.is_none() && plain.kept.is_none());
        // An empty `errors` list is the line's findings (none), not their absence.
        let empty = read(r#"{"id":1,"profile":"p","errors":[]}"#);
        let part = empty.line_findings.expect("an errors list");
        assert!(part.report.errors.is_empty());
        // `errors` that is not a list is no findings at all.
        assert!(read(r#"{"id":1,"errors":"x"}"#).line_findings.is_none());
        let rules = read(
            r#"{"id":1,"errors":[],"deterministic_findings":[{"check":"unsupported_number","severity":"High","output_text":"41%","explanation":"e","status":"counted"}]}"#,
        );
        let part = rules.line_findings.expect("an errors list");
        assert_eq!(part.report.deterministic_findings.len(), 1);
        // A kept report is read whatever it holds, its gaps named; `null` too.
        let kept = read(r#"{"id":1,"audit_report":null}"#).kept.expect("kept");
        assert!(kept.lacks("the report"), "{:?}", kept.gaps);
        let kept = read(r#"{"id":1,"audit_report":{"credit_score":3}}"#).kept;
        assert_eq!(kept.and_then(|k| k.report.credit_score), Some(3));
        // JSON that is not an object reads as an empty line; text that is not JSON does not.
        assert_eq!(read("[1]"), ResultCase::default());
        assert!(ResultCase::parse("{").is_err());
    }

    #[test]
    fn profiles_are_named_once_in_first_seen_order() {
        let lines = [
            r#"{"id":1,"profile":"b","credit_score":4}"#,
            "not json",
            r#"{"id":2,"profile":"a","error":"down"}"#,
            r#"{"id":3,"profile":"b","credit_score":2}"#,
            r#"{"id":4,"profile":7,"credit_score":2}"#,
        ];
        assert_eq!(profiles_of(lines), ["b", "a"]);
    }

    #[test]
    fn a_kept_case_is_read_from_text_or_from_json() {
        let v = serde_json::json!({"id":1,"profile":"p","context_input":"c","model_output":7,
            KEPT_REPORT: {"credit_score": 4}});
        let (input, report) = kept_case_of(&v).expect("kept");
        assert_eq!(
            (input.context_input.as_str(), input.model_output.as_str()),
            ("c", "")
        );
        assert_eq!(report, &serde_json::json!({"credit_score": 4}));
        let (_, kept) = kept_case(&v.to_string()).expect("kept");
        assert_eq!(kept.report.credit_score, Some(4));
        assert!(kept_case_of(&serde_json::json!({"id":1})).is_none());
        assert!(kept_case("{").is_none());
    }

    #[test]
    fn the_bundled_demo_reads_as_a_recorded_audit() {
        let doc: Value =
            serde_json::from_str(include_str!("../../public/examples/demo-audit.json"))
                .expect("the demo is JSON");
        let (input, report) = recorded_audit(&doc).expect("the demo has a report");
        assert!(!input.context_input.is_empty() && !input.model_output.is_empty());
        assert!(report.is_object());
        // A document without a report is none; one that is not an object too.
        assert!(recorded_audit(&serde_json::json!({"context_input": "c"})).is_none());
        assert!(recorded_audit(&serde_json::json!([1])).is_none());
    }

    #[test]
    fn reports_are_kept_with_lines_until_the_budget_is_spent() {
        let (case, report) = scored_case();
        let line = result_line(&case, &report);
        let mut kept = 0;
        let (text, with) = kept_line(line.clone(), &report, &mut kept);
        assert!(with && text.contains(KEPT_REPORT) && kept == text.len());
        assert!(
            kept_case(&text).is_some(),
            "the kept line opens like an audit"
        );
        // A run whose kept reports have nearly filled the budget keeps the line, not the report.
        let mut nearly = KEPT_REPORTS_MAX_BYTES - 10;
        let (bare, with) = kept_line(line, &report, &mut nearly);
        assert!(!with && !bare.contains(KEPT_REPORT));
        assert_eq!(nearly, KEPT_REPORTS_MAX_BYTES - 10);
        let read = ResultLine::parse(&bare).unwrap();
        assert_eq!(read.credit_score, Some(4), "the score is kept");
    }

    #[test]
    fn a_line_that_is_not_a_result_says_what_it_lacks() {
        use NotAResultLine::*;
        let id = || "7".to_string();
        for (text, want) in [
            ("[1]", Err(NotObject)),
            ("not json", Err(NotObject)),
            (r#"{"id":null,"profile":"p","error":"x"}"#, Err(NoId)),
            (
                r#"{"id":7,"context_input":"c"}"#,
                Err(NoProfile { id: id() }),
            ),
            (
                r#"{"id":7,"profile":3,"error":"x"}"#,
                Err(NoProfile { id: id() }),
            ),
            (r#"{"id":7,"profile":"p"}"#, Err(NoOutcome { id: id() })),
        ] {
            assert_eq!(ResultLine::check(text), want, "{text}");
        }
        // An outcome written as `null` is still an outcome (a failed line).
        let line = ResultLine::check(r#"{"id":7,"profile":"p","error":null,"credit_score":null}"#);
        assert!(line.is_ok_and(|l| l.failed() && l.id == "7"));
    }

    #[test]
    fn failed_lines_are_those_without_a_score() {
        let ls = stored(&[
            r#"{"id":1,"profile":"p1","credit_score":4,"error":null}"#,
            r#"{"id":1,"profile":"p2","credit_score":null,"error":"could not audit: x"}"#,
            r#"{"id":2,"profile":"p1"}"#,
            r#"{"id":"two","profile":"p1","credit_score":3,"error":"odd"}"#,
            r#"{"id":"two","profile":"p2","credit_score":"#,
        ]);
        let failed: Vec<bool> = ls.iter().map(|l| l.failed).collect();
        assert_eq!(failed, vec![false, true, true, true, true]);
        assert_eq!(ls[4].pair, None, "a torn line names no pair");
        let resume = settled_pairs(&ls, false);
        assert_eq!(resume.len(), 4);
        let retry = settled_pairs(&ls, true);
        assert_eq!(
            retry,
            HashSet::from([("1".to_string(), "p1".to_string())]),
            "only the scored pair is settled when retrying"
        );
    }

    #[test]
    fn retry_plans_only_the_failed_pairs() {
        let set = CaseSet::from_text(CASES);
        let profiles = vec!["p1".to_string(), "p2".to_string()];
        let ls = stored(&[
            r#"{"id":1,"profile":"p1","credit_score":4,"error":null}"#,
            r#"{"id":1,"profile":"p2","credit_score":null,"error":"could not audit: x"}"#,
            r#"{"id":"two","profile":"p1","credit_score":2,"error":null}"#,
            r#"{"id":"two","profile":"p2","credit_score":5,"error":null}"#,
        ]);
        let (jobs, skipped) = plan_jobs(&set.cases, &profiles, &settled_pairs(&ls, true));
        assert_eq!(skipped, 3);
        assert_eq!(jobs.len(), 1);
        assert_eq!(
            (jobs[0].case.key.as_str(), jobs[0].profile.as_str()),
            ("1", "p2")
        );
        let (jobs, _) = plan_jobs(&set.cases, &profiles, &settled_pairs(&ls, false));
        assert!(jobs.is_empty(), "a plain resume skips failed pairs too");
    }

    #[test]
    fn merge_replaces_failed_lines_and_never_good_ones() {
        let good = r#"{"id":1,"profile":"p1","credit_score":4, "error":null}"#;
        let earlier = stored(&[
            good,
            r#"{"id":1,"profile":"p2","credit_score":null,"error":"could not audit: a"}"#,
            "not json at all",
            r#"{"id":2,"profile":"p1","credit_score":null,"error":"could not audit: b"}"#,
        ]);
        let newer = stored(&[
            // A later line for a good pair (say, a stray duplicate) does not replace it.
            r#"{"id":1,"profile":"p1","credit_score":1,"error":null}"#,
            r#"{"id":1,"profile":"p2","credit_score":5,"error":null}"#,
            r#"{"id":2,"profile":"p1","credit_score":null,"error":"could not audit: c"}"#,
            r#"{"id":3,"profile":"p1","credit_score":2,"error":null}"#,
        ]);
        let merged = merge_results(earlier, newer);
        let texts: Vec<&str> = merged.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            texts,
            vec![
                good,
                r#"{"id":1,"profile":"p2","credit_score":5,"error":null}"#,
                "not json at all",
                r#"{"id":2,"profile":"p1","credit_score":null,"error":"could not audit: c"}"#,
                r#"{"id":3,"profile":"p1","credit_score":2,"error":null}"#,
            ]
        );
        // Merging is idempotent: folding the same retry twice changes nothing.
        let again = merge_results(merged.clone(), stored(&[texts[1], texts[3]]));
        assert_eq!(again, merged);
    }

    #[test]
    fn unscored_pairs_name_failed_and_missing_ones() {
        let set = CaseSet::from_text(CASES);
        let profiles = vec!["p1".to_string(), "p2".to_string()];
        let ls = stored(&[
            r#"{"id":1,"profile":"p1","credit_score":4,"error":null}"#,
            r#"{"id":1,"profile":"p2","credit_score":null,"error":"could not audit: Phase 2: HTTP 500"}"#,
            r#"{"id":"two","profile":"p1","credit_score":2,"error":null}"#,
        ]);
        let missing = unscored_pairs(&ls, &set.cases, &profiles);
        assert_eq!(
            missing,
            vec![
                FailedPair {
                    id: "1".into(),
                    profile: "p2".into(),
                    reason: "could not audit: Phase 2: HTTP 500".into()
                },
                FailedPair {
                    id: "two".into(),
                    profile: "p2".into(),
                    reason: "no result line".into()
                },
            ]
        );
    }

    #[test]
    fn stored_lines_sort_like_values() {
        let set = CaseSet::from_text(CASES);
        let profiles = vec!["p1".to_string(), "p2".to_string()];
        let mut ls = stored(&[
            r#"{"id":"two","profile":"p1"}"#,
            "junk",
            r#"{"id":1,"profile":"p2"}"#,
            r#"{"id":1,"profile":"p1"}"#,
        ]);
        sort_stored(&mut ls, &set.cases, &profiles);
        let texts: Vec<&str> = ls.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            texts,
            vec![
                r#"{"id":1,"profile":"p1"}"#,
                r#"{"id":1,"profile":"p2"}"#,
                r#"{"id":"two","profile":"p1"}"#,
                "junk"
            ]
        );
    }

    #[test]
    fn progress_bar_text() {
        let p = Progress {
            done: 5,
            total: 10,
            failures: 1,
            skipped: 0,
            elapsed_ms: 2000.0,
            rate_per_s: 2.5,
            eta_s: Some(2.0),
        };
        assert_eq!(p.bar(10), "[#####-----] 5/10 · 1 failed · 2.5/s · ETA 2 s");
    }
}

#[cfg(test)]
mod example_cases {
    use super::*;

    #[test]
    fn shipped_example_cases_parse() {
        let set = CaseSet::from_text(include_str!("../../public/examples/cases.jsonl"));
        assert!(set.bad_lines.is_empty(), "{:?}", set.bad_lines);
        assert_eq!(set.cases.len(), 12);
        assert!(set
            .cases
            .iter()
            .all(|c| c.fields.contains_key("expected_credit_score")));
    }
}
