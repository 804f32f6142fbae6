//! `verifyfast._native`: the Python binding of VerifyFast's grader (README, "Python";
//! python/README.md). It wraps the library's public functions (`extract::extract_with`,
//! `extract::grade_with`) and its record builders (`extract::records`), so a Python verdict
//! is the line `verifyfast grade` writes: no grading logic lives here. Results are typed
//! (frozen classes read by attribute name: `GradeResult`, `ExtractResult`, `CandidateResult`);
//! the Python package (python/verifyfast/) copies them, by name, into its public dataclasses.
//!
//! Safe wherever trainers call it: no signals, no global state, bounded work (the extractor
//! cuts texts to their last 1 MiB; values past the exact size bound are "could not decide");
//! the GIL is released while `grade_many` computes; a panic is caught and raised as
//! `verifyfast.InternalError` instead of aborting the process.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple, PyType};
use serde_json::Value;
use verifyfast::audit::check::check as check_case;
use verifyfast::audit::limits;
use verifyfast::config::AuditParams;
use verifyfast::extract::records::{
    extract_record, grade_line, ExtractInput, ExtractRecord, GradeInput, GradeRecord,
};
use verifyfast::extract::{
    AnswerPatternSpec, AnswerPatterns, Candidate, Doubt, Method, Outcome, Path, Preset,
};
use verifyfast::json::FromJson;

create_exception!(
    _native,
    InternalError,
    PyRuntimeError,
    "A bug in VerifyFast (a Rust panic), raised instead of aborting the process; please report it with the input."
);

/// Items a thread of `grade_many` takes at a time: small enough to balance long and short
/// texts between threads, large enough that the shared counter is not contended.
const CHUNK: usize = 64;
/// `grade_many` starts no more threads than this, whatever `threads` asks (bounded resources).
const MAX_THREADS: usize = 256;
/// Without `threads`, a thread is started per this many items at least (a short batch, as a
/// trainer's reward call often is, does not pay for threads it cannot use).
const ITEMS_PER_THREAD: usize = 32;
/// The built-in rules only (no answer patterns given).
static NO_PATTERNS: AnswerPatterns = AnswerPatterns::NONE;

/// Compiled answer patterns (the CLI's `--answer-pattern NAME=REGEX`, in order).
#[pyclass(frozen, module = "verifyfast._native", name = "Patterns")]
struct Patterns {
    compiled: AnswerPatterns,
}

#[pymethods]
impl Patterns {
    /// The pattern names, in the order they are tried.
    fn names(&self) -> Vec<String> {
        self.compiled.names().map(str::to_string).collect()
    }

    fn __len__(&self) -> usize {
        self.compiled.len()
    }
}

/// Compiles patterns given as `"NAME=REGEX"` strings (the CLI's flag, split at the first `=`)
/// or `(name, regex)` pairs; the error is the CLI's message for the first bad one.
#[pyfunction]
fn compile_patterns(items: &Bound<'_, PyAny>) -> PyResult<Patterns> {
    let mut specs = Vec::new();
    for item in items.try_iter()? {
        let item = item?;
        let spec = if let Ok(flag) = item.extract::<String>() {
            AnswerPatternSpec::from_flag(&flag).map_err(|e| PyValueError::new_err(e.to_string()))?
        } else if let Ok((name, regex)) = item.extract::<(String, String)>() {
            AnswerPatternSpec { name, regex }
        } else {
            return Err(PyValueError::new_err(format!(
                "answer pattern #{}: expected a \"NAME=REGEX\" string or a (name, regex) pair",
                specs.len() + 1
            )));
        };
        specs.push(spec);
    }
    let compiled =
        AnswerPatterns::compile(&specs).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(Patterns { compiled })
}

fn preset_of(name: &str) -> PyResult<Preset> {
    Preset::from_flag(name).map_err(PyValueError::new_err)
}

/// A panic's message, for the exception raised in its place.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string())
}

fn internal(what: &str, payload: &(dyn std::any::Any + Send)) -> PyErr {
    bug(what, &panic_message(payload))
}

/// `InternalError` for a bug met while doing `what` (one wording for every entry).
fn bug(what: &str, why: &str) -> PyErr {
    InternalError::new_err(format!(
        "internal error while {what}: {why} (a bug in VerifyFast; please report it with the input)"
    ))
}

/// Byte offsets to character offsets (Python indexes `str` by code point), one pass for all.
fn char_offsets(text: &str, bytes: &[usize]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..bytes.len()).collect();
    order.sort_by_key(|&i| bytes[i]);
    let mut out = vec![0; bytes.len()];
    let (mut at, mut chars) = (0usize, 0usize);
    for i in order {
        let b = bytes[i].min(text.len());
        if b > at {
            // Bytes that start a character (not 0b10xx_xxxx continuation bytes).
            chars += text.as_bytes()[at..b]
                .iter()
                .filter(|&&c| (c as i8) >= -0x40)
                .count();
            at = b;
        }
        out[i] = chars;
    }
    out
}

/// The CLI's JSON of a value (a doubt: `{"kind": …, …}`) as Python objects.
fn to_py(py: Python<'_>, v: &Value) -> PyResult<Py<PyAny>> {
    Ok(match v {
        Value::Null => py.None(),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any().unbind(),
            (None, Some(f)) => f.into_pyobject(py)?.into_any().unbind(),
            _ => n.to_string().into_pyobject(py)?.into_any().unbind(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any().unbind(),
        Value::Array(a) => {
            let items = a
                .iter()
                .map(|x| to_py(py, x))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any().unbind()
        }
        Value::Object(m) => {
            let d = PyDict::new(py);
            for (k, x) in m {
                d.set_item(k, to_py(py, x)?)?;
            }
            d.into_any().unbind()
        }
    })
}

/// The doubts as the CLI writes them (`{"kind": "rules_disagree", …}`), a tuple of dicts.
fn doubts_to_py(py: Python<'_>, doubts: &[Doubt]) -> PyResult<Py<PyTuple>> {
    let items = doubts
        .iter()
        .map(|d| to_py(py, &serde_json::to_value(d).unwrap_or(Value::Null)))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyTuple::new(py, items)?.unbind())
}

/// What `grade` computes without the GIL: the CLI's record and the predicted side's doubts
/// (the record does not carry them).
struct Graded {
    record: GradeRecord,
    doubts: Vec<Doubt>,
}

/// The one composition of a grade line (`records::grade_line`, as `verifyfast grade`).
fn grade_one(
    output: &str,
    ground_truth: &str,
    question: Option<&str>,
    preset: Preset,
    patterns: &AnswerPatterns,
) -> Graded {
    let input = GradeInput {
        id: Value::Null,
        output: output.to_string(),
        ground_truth: ground_truth.to_string(),
        question: question.map(str::to_string),
        choices: false,
    };
    let line = grade_line(&input, preset, patterns);
    Graded {
        record: line.record,
        doubts: line.verdict.predicted.map(|p| p.doubts).unwrap_or_default(),
    }
}

/// One grading verdict, by name: the attributes of `verifyfast.Verdict` (python/verifyfast/),
/// read from the CLI's grade record.
#[pyclass(frozen, get_all, module = "verifyfast._native", name = "GradeResult")]
struct GradeResult {
    /// `None` when the grader could not decide (the record's `equivalent` is then `false`).
    equivalent: Option<bool>,
    verdict: String,
    predicted: Option<String>,
    gold: Option<String>,
    method: String,
    reason: String,
    low_confidence: bool,
    doubts: Py<PyTuple>,
    predicted_method: String,
    gold_method: String,
}

impl GradeResult {
    fn new(py: Python<'_>, g: Graded) -> PyResult<GradeResult> {
        let r = g.record;
        Ok(GradeResult {
            equivalent: (r.verdict != Outcome::Undecided).then_some(r.equivalent),
            verdict: r.verdict.as_str().to_string(),
            predicted: r.predicted_answer,
            gold: r.ground_truth_answer,
            method: r.method.to_string(),
            reason: r.reason,
            low_confidence: r.low_confidence,
            doubts: doubts_to_py(py, &g.doubts)?,
            predicted_method: r.predicted_method,
            gold_method: r.ground_truth_method,
        })
    }
}

impl GradeResult {
    /// An instance of `cls` (`verifyfast.Verdict`, a frozen dataclass without `__post_init__`)
    /// with this result's fields set in its `__dict__`, in `GradeResult`'s field order, as
    /// `verifyfast._copy` fills one (copy and pickle do the same): reading ten attributes back
    /// through Python and copying them was a third of a `grade()` call's time outside the
    /// grader. The names are `GradeResult`'s own (python/tests/test_stubs.py checks them
    /// against the dataclass's fields).
    fn into_instance<'py>(
        self,
        py: Python<'py>,
        cls: &Bound<'py, PyType>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let made = cls.call_method1(pyo3::intern!(py, "__new__"), (cls,))?;
        let fields = made.getattr(pyo3::intern!(py, "__dict__"))?;
        let fields = fields.cast::<PyDict>()?;
        fields.set_item(pyo3::intern!(py, "equivalent"), self.equivalent)?;
        fields.set_item(pyo3::intern!(py, "verdict"), self.verdict)?;
        fields.set_item(pyo3::intern!(py, "predicted"), self.predicted)?;
        fields.set_item(pyo3::intern!(py, "gold"), self.gold)?;
        fields.set_item(pyo3::intern!(py, "method"), self.method)?;
        fields.set_item(pyo3::intern!(py, "reason"), self.reason)?;
        fields.set_item(pyo3::intern!(py, "low_confidence"), self.low_confidence)?;
        fields.set_item(pyo3::intern!(py, "doubts"), self.doubts)?;
        fields.set_item(pyo3::intern!(py, "predicted_method"), self.predicted_method)?;
        fields.set_item(pyo3::intern!(py, "gold_method"), self.gold_method)?;
        Ok(made)
    }

    /// The result as Python returns it: this class, or an instance of `into` (see
    /// [`GradeResult::into_instance`]).
    fn returned(self, py: Python<'_>, into: Option<&Bound<'_, PyType>>) -> PyResult<Py<PyAny>> {
        match into {
            Some(cls) => Ok(self.into_instance(py, cls)?.unbind()),
            None => Ok(Bound::new(py, self)?.into_any().unbind()),
        }
    }
}

/// A record field read from a Python object's attribute of that name.
fn attr<'py, T: pyo3::conversion::FromPyObjectOwned<'py>>(
    v: &Bound<'py, PyAny>,
    name: &str,
) -> PyResult<T> {
    v.getattr(name)?.extract::<T>().map_err(|e| {
        let e: PyErr = e.into();
        pyo3::exceptions::PyTypeError::new_err(format!("{name}: {e}"))
    })
}

/// The line `verifyfast grade` writes for a verdict (anything with `verifyfast.Verdict`'s
/// attributes), as JSON text, its `id` null: the CLI's own record type, serialised by the CLI's
/// code, so the Python record cannot drift from the CLI's (its keys in the CLI's order, which
/// `json.loads` keeps and a `serde_json::Value` would sort). A verdict or method name the
/// grader does not have is a `ValueError`.
#[pyfunction]
fn grade_record_json(verdict: &Bound<'_, PyAny>) -> PyResult<String> {
    let outcome: String = attr(verdict, "verdict")?;
    let outcome = Outcome::from_name(&outcome)
        .ok_or_else(|| PyValueError::new_err(format!("verdict: no verdict named `{outcome}`")))?;
    let method: String = attr(verdict, "method")?;
    let method = Path::from_name(&method)
        .ok_or_else(|| PyValueError::new_err(format!("method: no comparison named `{method}`")))?;
    let equivalent: Option<bool> = attr(verdict, "equivalent")?;
    let record = GradeRecord {
        id: Value::Null,
        predicted_answer: attr(verdict, "predicted")?,
        ground_truth_answer: attr(verdict, "gold")?,
        // The CLI's `equivalent` is true only for an equal verdict: undecided writes false.
        equivalent: equivalent == Some(true),
        verdict: outcome,
        method: method.as_str(),
        reason: attr(verdict, "reason")?,
        predicted_method: attr(verdict, "predicted_method")?,
        ground_truth_method: attr(verdict, "gold_method")?,
        low_confidence: attr(verdict, "low_confidence")?,
        llm_fallback: None,
    };
    serde_json::to_string(&record)
        .map_err(|e| PyValueError::new_err(format!("the grade record: {e}")))
}

/// The line `verifyfast extract` writes for an extraction (anything with
/// `verifyfast.Extraction`'s attributes, its candidates with `verifyfast.Candidate`'s), as JSON
/// text, its `id` null: the CLI's own record type (`ExtractRecord`), serialised by the CLI's
/// code, keys in the CLI's order. Each doubt must be one the CLI writes (`Doubt`'s reader), so
/// the record holds exactly what the CLI's would; another is a `ValueError` naming it.
#[pyfunction]
fn extract_record_json(py: Python<'_>, extraction: &Bound<'_, PyAny>) -> PyResult<String> {
    // The doubts are dicts as the CLI writes them: read back through JSON text, by `Doubt`'s
    // reader (its errors name the doubt: `doubts[1]: expected …`).
    let doubts: String = py
        .import("json")?
        .call_method1("dumps", (extraction.getattr("doubts")?,))?
        .extract()?;
    let doubts: Value =
        serde_json::from_str(&doubts).map_err(|e| PyValueError::new_err(format!("doubts: {e}")))?;
    let root = verifyfast::json::Path::Root("the extraction");
    let doubts = Vec::<Doubt>::from_json(&doubts, root.key("doubts"))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let mut candidates = Vec::new();
    for c in extraction.getattr("candidates")?.try_iter()? {
        let c = c?;
        candidates.push(Candidate {
            method: Method::named(&attr::<String>(&c, "method")?),
            answer: attr(&c, "answer")?,
            raw: attr(&c, "raw")?,
            span: attr(&c, "byte_span")?,
            several: attr(&c, "several")?,
        });
    }
    let record = ExtractRecord {
        id: Value::Null,
        answer: attr(extraction, "answer")?,
        raw: attr(extraction, "raw")?,
        span: attr(extraction, "byte_span")?,
        method: attr(extraction, "method")?,
        confidence: attr(extraction, "confidence")?,
        low_confidence: attr(extraction, "low_confidence")?,
        confidence_reason: attr(extraction, "confidence_reason")?,
        doubts,
        candidates,
        several: attr(extraction, "several")?,
    };
    serde_json::to_string(&record)
        .map_err(|e| PyValueError::new_err(format!("the extract record: {e}")))
}

/// Grades one output against its ground truth; see `verifyfast.grade`.
#[pyfunction]
#[pyo3(signature = (output, ground_truth, question=None, preset="lenient", patterns=None, into=None))]
fn grade(
    py: Python<'_>,
    output: String,
    ground_truth: String,
    question: Option<String>,
    preset: &str,
    patterns: Option<&Bound<'_, Patterns>>,
    into: Option<&Bound<'_, PyType>>,
) -> PyResult<Py<PyAny>> {
    let preset = preset_of(preset)?;
    let patterns = patterns.map(|p| p.get());
    let g = py
        .detach(|| {
            let patterns = patterns.map_or(&NO_PATTERNS, |p| &p.compiled);
            catch_unwind(AssertUnwindSafe(|| {
                grade_one(
                    &output,
                    &ground_truth,
                    question.as_deref(),
                    preset,
                    patterns,
                )
            }))
        })
        .map_err(|p| internal("grading", &*p))?;
    GradeResult::new(py, g)?.returned(py, into)
}

/// An answer another rule found: the attributes of `verifyfast.Candidate`.
#[pyclass(
    frozen,
    get_all,
    module = "verifyfast._native",
    name = "CandidateResult"
)]
struct CandidateResult {
    method: String,
    answer: String,
    raw: String,
    /// Characters (Python's `str` indexes), and the CLI's UTF-8 bytes.
    span: (usize, usize),
    byte_span: (usize, usize),
    /// The distinct answers when the rule found several (`\boxed{2}` and `\boxed{3}`).
    several: Py<PyTuple>,
}

impl CandidateResult {
    fn new(py: Python<'_>, c: &Candidate, chars: (usize, usize)) -> PyResult<CandidateResult> {
        Ok(CandidateResult {
            method: c.method.as_str().to_string(),
            answer: c.answer.clone(),
            raw: c.raw.clone(),
            span: chars,
            byte_span: c.span,
            several: PyTuple::new(py, &c.several)?.unbind(),
        })
    }
}

/// The final answer of a text, by name: the attributes of `verifyfast.Extraction`, read from
/// the CLI's extract record (spans also in characters). The answer, raw and spans are `None`
/// when no rule found an answer.
#[pyclass(frozen, get_all, module = "verifyfast._native", name = "ExtractResult")]
struct ExtractResult {
    answer: Option<String>,
    raw: Option<String>,
    span: Option<(usize, usize)>,
    byte_span: Option<(usize, usize)>,
    method: String,
    confidence: f64,
    low_confidence: bool,
    confidence_reason: String,
    doubts: Py<PyTuple>,
    candidates: Py<PyTuple>,
    several: Py<PyTuple>,
}

#[pyfunction]
#[pyo3(signature = (text, question=None, patterns=None))]
fn extract(
    py: Python<'_>,
    text: String,
    question: Option<String>,
    patterns: Option<&Bound<'_, Patterns>>,
) -> PyResult<ExtractResult> {
    let patterns = patterns.map(|p| p.get());
    let input = ExtractInput {
        id: Value::Null,
        text,
        question,
    };
    let r = py
        .detach(|| {
            let patterns = patterns.map_or(&NO_PATTERNS, |p| &p.compiled);
            // `verifyfast extract`'s own composition of a line, so the two cannot differ.
            catch_unwind(AssertUnwindSafe(|| extract_record(&input, patterns)))
        })
        .map_err(|p| internal("extracting", &*p))?;
    let text = input.text.as_str();
    let mut bytes = Vec::with_capacity(2 + 2 * r.candidates.len());
    if let Some((s, e)) = r.span {
        bytes.extend([s, e]);
    }
    for c in &r.candidates {
        bytes.extend([c.span.0, c.span.1]);
    }
    let chars = char_offsets(text, &bytes);
    let skip = usize::from(r.span.is_some()) * 2;
    let span_chars = r.span.map(|_| (chars[0], chars[1]));
    let candidates = r
        .candidates
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let at = skip + 2 * i;
            Py::new(py, CandidateResult::new(py, c, (chars[at], chars[at + 1]))?)
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(ExtractResult {
        answer: r.answer,
        raw: r.raw,
        byte_span: r.span,
        span: span_chars,
        method: r.method,
        confidence: r.confidence,
        low_confidence: r.low_confidence,
        confidence_reason: r.confidence_reason,
        doubts: doubts_to_py(py, &r.doubts)?,
        candidates: PyTuple::new(py, candidates)?.unbind(),
        several: PyTuple::new(py, r.several)?.unbind(),
    })
}

/// Two arguments of a batch that must have one entry per item (`(name, length)` each).
fn same_length(a: (&str, usize), b: (&str, usize)) -> PyResult<()> {
    if a.1 == b.1 {
        return Ok(());
    }
    Err(PyValueError::new_err(format!(
        "{} and {} differ in length: {} vs {}",
        a.0, b.0, a.1, b.1
    )))
}

/// How many threads `grade_many` and `check_many` start for `n` items.
fn thread_count(n: usize, asked: Option<usize>) -> PyResult<usize> {
    let wanted = match asked {
        Some(0) => return Err(PyValueError::new_err("threads must be at least 1")),
        Some(t) => t,
        None => std::thread::available_parallelism()
            .map_or(1, usize::from)
            .min(n.div_ceil(ITEMS_PER_THREAD)),
    };
    Ok(wanted.clamp(1, MAX_THREADS).min(n.div_ceil(CHUNK).max(1)))
}

/// Computes `item(i)` for every `i < n` on `threads` threads (std's scoped threads, no pool
/// kept), each taking `CHUNK` items at a time from a shared counter: the one engine of
/// `grade_many` and `check_many`. Every item runs under `catch_unwind`; the first panic is
/// returned with its item's index.
fn in_parallel<T: Send>(
    n: usize,
    threads: usize,
    item: impl Fn(usize) -> T + Sync,
) -> Result<Vec<T>, (usize, String)> {
    let next = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<T>>> = Mutex::new((0..n).map(|_| None).collect());
    let failure: Mutex<Option<(usize, String)>> = Mutex::new(None);
    let work = || loop {
        let start = next.fetch_add(CHUNK, Ordering::Relaxed);
        if start >= n {
            return;
        }
        let end = (start + CHUNK).min(n);
        let mut done = Vec::with_capacity(end - start);
        for i in start..end {
            match catch_unwind(AssertUnwindSafe(|| item(i))) {
                Ok(g) => done.push(g),
                Err(p) => {
                    let mut f = failure.lock().unwrap_or_else(|e| e.into_inner());
                    if f.as_ref().is_none_or(|(at, _)| i < *at) {
                        *f = Some((i, panic_message(&*p)));
                    }
                    // Stop handing out work: the call fails anyway.
                    next.store(n, Ordering::Relaxed);
                    return;
                }
            }
        }
        let mut s = slots.lock().unwrap_or_else(|e| e.into_inner());
        for (slot, g) in s[start..end].iter_mut().zip(done) {
            *slot = Some(g);
        }
    };
    if threads <= 1 {
        work();
    } else {
        std::thread::scope(|scope| {
            for _ in 1..threads {
                scope.spawn(work);
            }
            work();
        });
    }
    if let Some(f) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(f);
    }
    let slots = slots.into_inner().unwrap_or_else(|e| e.into_inner());
    slots
        .into_iter()
        .enumerate()
        .map(|(i, s)| s.ok_or((i, "item was not computed".to_string())))
        .collect()
}

/// Grades many items in parallel with the GIL released; see `verifyfast.grade_many`.
#[pyfunction]
#[pyo3(signature = (outputs, ground_truths, questions=None, preset="lenient", patterns=None, threads=None, into=None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments, one each
fn grade_many(
    py: Python<'_>,
    outputs: Vec<String>,
    ground_truths: Vec<String>,
    questions: Option<Vec<Option<String>>>,
    preset: &str,
    patterns: Option<&Bound<'_, Patterns>>,
    threads: Option<usize>,
    into: Option<&Bound<'_, PyType>>,
) -> PyResult<Vec<Py<PyAny>>> {
    let preset = preset_of(preset)?;
    same_length(
        ("outputs", outputs.len()),
        ("ground_truths", ground_truths.len()),
    )?;
    if let Some(q) = &questions {
        same_length(("questions", q.len()), ("outputs", outputs.len()))?;
    }
    let threads = thread_count(outputs.len(), threads)?;
    let patterns = patterns.map(|p| p.get());
    let graded = py.detach(|| {
        let patterns = patterns.map_or(&NO_PATTERNS, |p| &p.compiled);
        in_parallel(outputs.len(), threads, |i| {
            let question = questions
                .as_deref()
                .and_then(|q| q.get(i))
                .and_then(|q| q.as_deref());
            grade_one(&outputs[i], &ground_truths[i], question, preset, patterns)
        })
    });
    let graded = graded.map_err(|(i, msg)| bug(&format!("grading item {i}"), &msg))?;
    graded
        .into_iter()
        .map(|g| GradeResult::new(py, g)?.returned(py, into))
        .collect()
}

/// The parameters of a check: the default strategy's, with the deviation threshold given
/// (checked as a strategy file's value is, `AuditParams::validate`).
fn check_params(threshold: Option<f64>) -> PyResult<AuditParams> {
    let mut params = AuditParams::default();
    if let Some(t) = threshold {
        params.numeric_deviation_threshold = t;
    }
    params
        .validate("check")
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(params)
}

/// A text over the audit's size limits (`audit::limits`, as `verifyfast check --batch` and the
/// page refuse it), named; `at` is the item's index in a batch.
fn check_sizes(context: &str, output: &str, at: Option<usize>) -> PyResult<()> {
    let sizes = limits::check_field("context_input", context.len())
        .and_then(|()| limits::check_field("model_output", output.len()));
    sizes.map_err(|e| {
        PyValueError::new_err(match at {
            Some(i) => format!("item {i}: {e}"),
            None => e.to_string(),
        })
    })
}

/// The report `verifyfast check` prints for one case, as JSON (its one wire type,
/// `audit::check::CheckReport`).
fn check_one(context: &str, output: &str, params: &AuditParams) -> Result<String, String> {
    serde_json::to_string(&check_case(context, output, params)).map_err(|e| e.to_string())
}

/// A check that could not be written (a bug: a report is strings, numbers and names).
fn unwritten(at: Option<usize>, why: &str) -> PyErr {
    let item = at.map(|i| format!(" item {i}")).unwrap_or_default();
    bug(&format!("writing the check of{item}"), why)
}

/// The model-free check of one case, as the JSON of `verifyfast check`; see `verifyfast.check`.
#[pyfunction]
#[pyo3(signature = (context, output, numeric_deviation_threshold=None))]
fn check_json(
    py: Python<'_>,
    context: String,
    output: String,
    numeric_deviation_threshold: Option<f64>,
) -> PyResult<String> {
    let params = check_params(numeric_deviation_threshold)?;
    check_sizes(&context, &output, None)?;
    py.detach(|| catch_unwind(AssertUnwindSafe(|| check_one(&context, &output, &params))))
        .map_err(|p| internal("checking", &*p))?
        .map_err(|e| unwritten(None, &e))
}

/// The model-free check of many cases in parallel with the GIL released; see
/// `verifyfast.check_many`. Every size is checked before any work starts.
#[pyfunction]
#[pyo3(signature = (contexts, outputs, numeric_deviation_threshold=None, threads=None))]
fn check_many_json(
    py: Python<'_>,
    contexts: Vec<String>,
    outputs: Vec<String>,
    numeric_deviation_threshold: Option<f64>,
    threads: Option<usize>,
) -> PyResult<Vec<String>> {
    let params = check_params(numeric_deviation_threshold)?;
    same_length(("contexts", contexts.len()), ("outputs", outputs.len()))?;
    for (i, (c, o)) in contexts.iter().zip(&outputs).enumerate() {
        check_sizes(c, o, Some(i))?;
    }
    let threads = thread_count(outputs.len(), threads)?;
    let checked = py
        .detach(|| {
            in_parallel(outputs.len(), threads, |i| {
                check_one(&contexts[i], &outputs[i], &params)
            })
        })
        .map_err(|(i, msg)| bug(&format!("checking item {i}"), &msg))?;
    checked
        .into_iter()
        .enumerate()
        .map(|(i, c)| c.map_err(|e| unwritten(Some(i), &e)))
        .collect()
}

/// The preset names, in the CLI's order.
#[pyfunction]
fn presets() -> Vec<&'static str> {
    Preset::ALL.iter().map(|p| p.as_str()).collect()
}

/// Panics on purpose, inside the same `catch_unwind` guard as `grade` (tests only: proves a
/// panic becomes `InternalError` and the interpreter lives on). Built only with the
/// `test-hooks` feature, which the wheels leave out (python/README.md, "Tests").
#[cfg(feature = "test-hooks")]
#[pyfunction]
fn _panic_for_tests() -> PyResult<()> {
    catch_unwind(|| -> () { panic!("deliberate test panic") })
        .map_err(|p| internal("testing the panic guard", &*p))
}

/// `_panic_for_tests` on `grade_many`'s worker threads, with the GIL released.
#[cfg(feature = "test-hooks")]
#[pyfunction]
fn _panic_in_threads_for_tests(py: Python<'_>) -> PyResult<()> {
    let r = py.detach(|| {
        std::thread::scope(|s| {
            let h = s.spawn(|| catch_unwind(|| -> () { panic!("deliberate thread panic") }));
            h.join().unwrap_or(Ok(()))
        })
    });
    r.map_err(|p| internal("testing the panic guard on a thread", &*p))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("InternalError", m.py().get_type::<InternalError>())?;
    m.add("VERSION", verifyfast::VERSION)?;
    m.add_class::<Patterns>()?;
    m.add_class::<GradeResult>()?;
    m.add_class::<ExtractResult>()?;
    m.add_class::<CandidateResult>()?;
    m.add_function(wrap_pyfunction!(compile_patterns, m)?)?;
    m.add_function(wrap_pyfunction!(grade_record_json, m)?)?;
    m.add_function(wrap_pyfunction!(extract_record_json, m)?)?;
    m.add_function(wrap_pyfunction!(grade, m)?)?;
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    m.add_function(wrap_pyfunction!(grade_many, m)?)?;
    m.add_function(wrap_pyfunction!(presets, m)?)?;
    m.add_function(wrap_pyfunction!(check_json, m)?)?;
    m.add_function(wrap_pyfunction!(check_many_json, m)?)?;
    #[cfg(feature = "test-hooks")]
    {
        m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
        m.add_function(wrap_pyfunction!(_panic_in_threads_for_tests, m)?)?;
    }
    Ok(())
}
