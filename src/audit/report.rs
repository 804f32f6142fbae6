//! What one audit produced. Serialisable to JSON for download and batch results; it
//! names models and endpoints but never carries an API key.

use serde::{Deserialize, Serialize};

use crate::config::AuditParams;
use crate::llm::{Secrets, Usage};

use super::contract::{Claim, Deduction, ErrorType, Exempted, Severity};
use super::grounding::NumberGrounding;
use crate::llm::reply::Repair;

crate::names::named_enum! {
    /// The LLM phases of the protocol (Phase 4, the score, calls no model).
    #[derive(PartialOrd, Ord)]
    pub enum Phase {
        /// Phase 1, run model: claims and deductions.
        Decompose = "decompose",
        /// Phase 2, verify model: claims against the context.
        FactCheck = "fact_check",
        /// Phase 3, verify model: deductions.
        LogicCheck = "logic_check",
        /// Optional second verify pass over the severities.
        ReverseCheck = "reverse_check",
    }
}

impl Phase {
    pub fn label(self) -> &'static str {
        match self {
            Phase::Decompose => "Phase 1 · decomposition",
            Phase::FactCheck => "Phase 2 · fact check",
            Phase::LogicCheck => "Phase 3 · logic check",
            Phase::ReverseCheck => "Reverse check",
        }
    }
}

crate::names::named_enum! {
    /// The user's three-way reading of the score.
    pub enum Band {
        Bad = "BAD",
        Mid = "MID",
        Good = "GOOD",
    }
}

/// Whether an error counts toward the score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum Counting {
    Counted,
    /// Same phase and target as an earlier error (index into `errors`): counted once.
    Duplicate {
        of: usize,
    },
    /// Beyond the strategy's `max_errors_per_phase`.
    OverCap,
    /// Aimed at a claim or deduction that is not in the audit (never extracted, or dropped):
    /// listed, never counted (docs/audit.md, "Checks of the model's bookkeeping").
    UnknownTarget,
    /// Its evidence is in neither the context nor the output (`evidence::mark_unquoted`):
    /// listed, not counted unless the strategy's `count_unquoted_evidence` says so.
    EvidenceNotFound,
}

/// One error found by Phase 2 or 3.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    pub phase: Phase,
    pub target: String,
    #[serde(rename = "type")]
    pub error_type: ErrorType,
    /// The severity used for the score (after the reverse check, if any).
    pub severity: Severity,
    pub evidence: String,
    pub explanation: String,
    #[serde(flatten)]
    pub counting: Counting,
    /// The evidence is not a quote of the context or the output (docs/audit.md, "Evidence that
    /// is not a quote"); set whether or not the strategy counts such a finding.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub evidence_not_found: bool,
}

/// A severity the reverse check changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeverityChange {
    /// Index into `errors`.
    pub error: usize,
    pub from: Severity,
    pub to: Severity,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct ReverseCheck {
    pub changes: Vec<SeverityChange>,
    /// Set when the reverse pass itself failed; the first-pass severities then stand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
}

/// Which rule made a deterministic finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeterministicCheck {
    /// `unsupported_number_is_high`: a number of the output the number check found nowhere in
    /// the context (not near a context number within the threshold either).
    UnsupportedNumber,
    /// `direction_check`: a context quantity stated with the opposite direction.
    Direction,
}

impl DeterministicCheck {
    pub fn label(self) -> &'static str {
        match self {
            DeterministicCheck::UnsupportedNumber => "unsupported number",
            DeterministicCheck::Direction => "opposite direction",
        }
    }
}

/// Whether a deterministic finding counts toward the score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeterministicStatus {
    /// Counted as one High error.
    Counted,
    /// The fact check stated a derivation from context numbers (kept in `derivation`).
    Explained,
    /// The fact check reported it as a High error itself (`errors[also_reported_by]`): counted
    /// once, there.
    AlsoReported,
}

/// A High finding made by a fixed rule, not by a model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeterministicFinding {
    pub check: DeterministicCheck,
    pub severity: Severity,
    /// The output's words: the number, or the direction word and the number.
    pub output_text: String,
    /// The context's words it conflicts with (empty for an unsupported number).
    #[serde(default)]
    pub context_text: String,
    pub explanation: String,
    pub status: DeterministicStatus,
    /// The fact check's derivation, when it explained the number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub derivation: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub also_reported_by: Option<usize>,
}

impl DeterministicFinding {
    /// "unsupported number 41% (High, counted): 41% appears nowhere in the context …".
    pub fn describe(&self) -> String {
        let status = match self.status {
            DeterministicStatus::Counted => "counted".to_string(),
            DeterministicStatus::Explained => format!(
                "not counted: the fact check derives it: {}",
                self.derivation.as_deref().unwrap_or("")
            ),
            DeterministicStatus::AlsoReported => format!(
                "counted once, as the fact check's error #{}",
                self.also_reported_by.map_or(0, |i| i + 1)
            ),
        };
        format!(
            "{} {} (High, {status}): {}",
            self.check.label(),
            self.output_text,
            self.explanation
        )
    }
}

impl Contradiction {
    pub fn describe(&self) -> String {
        format!(
            "{} is listed both as an error (#{}) and as a reasonable inference (\"{}\"): a contradiction, counted as the error",
            self.target,
            self.error + 1,
            self.inference
        )
    }
}

/// Why a claim or deduction of Phase 1 is not in the audit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DropReason {
    /// Beyond `max_claims` / `max_deductions`.
    OverCap,
    /// Its numbers or words are not in model_output (also after asking Phase 1 again).
    NotInOutput,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dropped {
    /// `claim` or `deduction`.
    pub item: String,
    pub id: String,
    pub text: String,
    pub reason: DropReason,
}

impl Dropped {
    pub fn describe(&self) -> String {
        let why = match self.reason {
            DropReason::OverCap => "over the strategy's cap",
            DropReason::NotInOutput => {
                "not a statement of model_output (its numbers or words are not in it)"
            }
        };
        format!("{} {} dropped, {why}: {}", self.item, self.id, self.text)
    }
}

/// A target listed both as an error and as a reasonable inference: counted as the error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Contradiction {
    pub target: String,
    /// Index into `errors`.
    pub error: usize,
    /// The exemption's text.
    pub inference: String,
}

/// Calls, time and tokens of one phase, and what the model said.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PhaseRecord {
    pub phase: Phase,
    /// `llms` name of the model used.
    pub llm: String,
    pub calls: u32,
    /// Sum of the calls' latencies (retries included).
    pub latency_ms: u64,
    pub tokens: Usage,
    pub reasked: bool,
    /// What the parser had to do to the accepted reply (fences, prose, trailing commas, …).
    /// A reply that needed closing is never accepted: it is re-asked, see `truncated_replies`.
    pub repairs: Vec<Repair>,
    /// Replies cut off by `max_tokens` (finish_reason `length`, or JSON that needed closing).
    #[serde(default)]
    pub truncated_replies: u32,
    /// `max_tokens` of the last call (doubled once after a cut-off reply).
    #[serde(default)]
    pub max_tokens: u32,
    /// Generated (completion) tokens per second of the phase's wall time, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens_per_s: Option<f64>,
    /// Every reply as received (API keys redacted).
    pub raw_responses: Vec<String>,
    /// Every call's messages as sent (API keys redacted), in call order: with
    /// `raw_responses`, the audit's transcript (docs/audit.md). A failed call has a prompt and
    /// no reply. Absent in reports written before it existed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prompts: Vec<Vec<crate::llm::ChatMessage>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl PhaseRecord {
    pub fn new(phase: Phase, llm: &str) -> Self {
        Self {
            phase,
            llm: llm.to_string(),
            calls: 0,
            latency_ms: 0,
            tokens: Usage::default(),
            reasked: false,
            repairs: Vec::new(),
            truncated_replies: 0,
            max_tokens: 0,
            tokens_per_s: None,
            raw_responses: Vec::new(),
            prompts: Vec::new(),
            error: None,
        }
    }
}

/// What stopped a phase: the reader's failure kinds (one name table).
pub use crate::llm::ask::FailureKind;

/// Why an audit gave no score: it is reported as such, never as a default score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CouldNotAudit {
    pub phase: Phase,
    #[serde(default)]
    pub kind: FailureKind,
    pub reason: String,
}

impl std::fmt::Display for CouldNotAudit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.kind {
            FailureKind::Truncated | FailureKind::Cancelled | FailureKind::Ambiguous => {
                format!(", {}", self.kind.label())
            }
            FailureKind::Endpoint | FailureKind::Unreadable => String::new(),
        };
        write!(
            f,
            "could not audit ({}{kind}): {}",
            self.phase.label(),
            self.reason
        )
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelRef {
    pub llm: String,
    pub model: String,
    pub base_url: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelsUsed {
    /// Phase 1.
    pub run: ModelRef,
    /// Phases 2, 3 and the reverse check.
    pub verify: ModelRef,
}

/// The full result of one audit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditReport {
    pub profile: String,
    /// 1–5, absent when the case could not be audited.
    pub credit_score: Option<u8>,
    pub band: Option<Band>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub could_not_audit: Option<CouldNotAudit>,
    pub high_count: u32,
    pub low_count: u32,
    pub claims: Vec<Claim>,
    pub deductions: Vec<Deduction>,
    pub errors: Vec<Finding>,
    pub reasonable_inferences: Vec<Exempted>,
    /// The deterministic number check of model_output against context_input (no model): run
    /// before Phase 2, whose prompt gets the numbers not found as evidence. Reports written
    /// before it existed read as an empty check.
    #[serde(default)]
    pub number_grounding: NumberGrounding,
    /// Findings no model made: the number and direction rules (docs/audit.md, "Deterministic
    /// findings"). Counted ones are in `high_count`.
    #[serde(default)]
    pub deterministic_findings: Vec<DeterministicFinding>,
    /// Claims and deductions of Phase 1 left out of the audit, and why.
    #[serde(default)]
    pub dropped: Vec<Dropped>,
    /// Targets the verify model listed both as an error and as a reasonable inference.
    #[serde(default)]
    pub contradictions: Vec<Contradiction>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reverse_check: Option<ReverseCheck>,
    pub phases: Vec<PhaseRecord>,
    /// Phase 1 + max(Phase 2, Phase 3) + reverse check, from the calls' latencies.
    pub latency_ms: u64,
    pub tokens: Usage,
    pub models: ModelsUsed,
    pub params: AuditParams,
}

impl AuditReport {
    pub fn phase(&self, phase: Phase) -> Option<&PhaseRecord> {
        self.phases.iter().find(|p| p.phase == phase)
    }

    pub fn counted_errors(&self) -> impl Iterator<Item = &Finding> {
        self.errors
            .iter()
            .filter(|f| f.counting == Counting::Counted)
    }

    /// Every text of the report with the secrets redacted and base URLs without userinfo:
    /// what a model echoed (claims, evidence, raw replies) and what a server echoed
    /// (errors) alike. Run on every report before anyone sees it.
    pub fn redact(&mut self, secrets: &Secrets) {
        let r = |t: &mut String| {
            let clean = secrets.redact(t);
            if clean != *t {
                *t = clean;
            }
        };
        r(&mut self.profile);
        if let Some(c) = &mut self.could_not_audit {
            r(&mut c.reason);
        }
        for c in &mut self.claims {
            r(&mut c.id);
            r(&mut c.text);
        }
        for d in &mut self.deductions {
            r(&mut d.id);
            d.premises.iter_mut().for_each(r);
            r(&mut d.conclusion);
        }
        for e in &mut self.errors {
            r(&mut e.target);
            r(&mut e.evidence);
            r(&mut e.explanation);
        }
        for e in &mut self.reasonable_inferences {
            r(&mut e.target);
            r(&mut e.text);
        }
        for d in &mut self.deterministic_findings {
            r(&mut d.output_text);
            r(&mut d.context_text);
            r(&mut d.explanation);
            if let Some(x) = &mut d.derivation {
                r(x);
            }
        }
        for d in &mut self.dropped {
            r(&mut d.id);
            r(&mut d.text);
        }
        for c in &mut self.contradictions {
            r(&mut c.target);
            r(&mut c.inference);
        }
        if let Some(check) = &mut self.reverse_check {
            check.changes.iter_mut().for_each(|c| r(&mut c.reason));
            if let Some(f) = &mut check.failed {
                r(f);
            }
        }
        for p in &mut self.phases {
            r(&mut p.llm);
            p.raw_responses.iter_mut().for_each(r);
            for m in p.prompts.iter_mut().flatten() {
                r(&mut m.content);
            }
            if let Some(e) = &mut p.error {
                r(e);
            }
        }
        for m in [&mut self.models.run, &mut self.models.verify] {
            m.base_url = crate::llm::redact::redact_url(&m.base_url);
            r(&mut m.base_url);
            r(&mut m.llm);
            r(&mut m.model);
        }
    }
}

// Reading a report back: the one reader of the format the serializers above write, used by
// the Audit page (a kept or a demo report), the run store, Report's case panel and the batch
// results. Through the [`FromJson`] readers rather than a derived `Deserialize`: that one
// cost ~28 KB of the gzipped wasm for the whole tree.

use serde_json::Value;

use crate::json::{FieldError, Fields, FromJson, Named, Path, Text};

impl FromJson for CouldNotAudit {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        Ok(CouldNotAudit {
            phase: f.required::<Named<Phase>>("phase")?.0,
            kind: match f.get("kind") {
                Some(_) => f.required::<Named<FailureKind>>("kind")?.0,
                None => FailureKind::default(),
            },
            reason: f.required::<Text>("reason")?.0,
        })
    }
}

/// `status` (and `of`) as written by [`Counting`]'s tagged serializer; a finding stored
/// without one counts, as every finding did before it was written.
fn counting(f: &Fields) -> Result<Counting, FieldError> {
    Ok(match f.or_default::<Text>("status")?.0.as_str() {
        "duplicate" => Counting::Duplicate {
            of: f.or_default("of")?,
        },
        "over_cap" => Counting::OverCap,
        "unknown_target" => Counting::UnknownTarget,
        "evidence_not_found" => Counting::EvidenceNotFound,
        _ => Counting::Counted,
    })
}

impl FromJson for Finding {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        Ok(Finding {
            phase: f.required::<Named<Phase>>("phase")?.0,
            target: f.or_default::<Text>("target")?.0,
            error_type: f.required("type")?,
            severity: f.required("severity")?,
            evidence: f.or_default::<Text>("evidence")?.0,
            explanation: f.or_default::<Text>("explanation")?.0,
            counting: counting(&f)?,
            evidence_not_found: f.or_default("evidence_not_found")?,
        })
    }
}

impl FromJson for SeverityChange {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        Ok(SeverityChange {
            error: f.required("error")?,
            from: f.required("from")?,
            to: f.required("to")?,
            reason: f.or_default::<Text>("reason")?.0,
        })
    }
}

impl FromJson for ReverseCheck {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        Ok(ReverseCheck {
            changes: f.required("changes")?,
            failed: f.optional::<Text>("failed")?.map(|t| t.0),
        })
    }
}

impl FromJson for Usage {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        Ok(Usage {
            prompt_tokens: f.or_default("prompt_tokens")?,
            completion_tokens: f.or_default("completion_tokens")?,
            total_tokens: f.required("total_tokens")?,
        })
    }
}

impl FromJson for crate::llm::ChatMessage {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        Ok(crate::llm::ChatMessage {
            role: f.or_default::<Text>("role")?.0,
            content: f.or_default::<Text>("content")?.0,
        })
    }
}

/// A reply kept as text; anything else (never written so) is no reply.
struct Reply(Option<String>);

impl FromJson for Reply {
    fn from_json(value: &Value, _: Path) -> Result<Self, FieldError> {
        Ok(Reply(value.as_str().map(str::to_string)))
    }
}

impl FromJson for PhaseRecord {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        let repairs: Vec<Named<Repair>> = f.or_default("repairs")?;
        let replies: Vec<Reply> = f.or_default("raw_responses")?;
        let tokens = match f.get("tokens") {
            Some(t) => Usage::from_json(t, path.key("tokens"))?,
            None => {
                return Err(FieldError::missing(
                    path.key("tokens").key("total_tokens"),
                    "a value",
                ))
            }
        };
        Ok(PhaseRecord {
            phase: f.required::<Named<Phase>>("phase")?.0,
            llm: f.or_default::<Text>("llm")?.0,
            calls: f.or_default("calls")?,
            latency_ms: f.required("latency_ms")?,
            tokens,
            reasked: f.or_default("reasked")?,
            repairs: repairs.into_iter().map(|r| r.0).collect(),
            truncated_replies: f.or_default("truncated_replies")?,
            max_tokens: f.or_default("max_tokens")?,
            tokens_per_s: f.optional("tokens_per_s")?,
            // A reply that is not text (never written so) keeps its place as an empty one.
            raw_responses: replies
                .into_iter()
                .map(|r| r.0.unwrap_or_default())
                .collect(),
            prompts: f.or_default("prompts")?,
            error: f.optional::<Text>("error")?.map(|t| t.0),
        })
    }
}

impl FromJson for ModelRef {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        Ok(ModelRef {
            llm: f.or_default::<Text>("llm")?.0,
            model: f.required::<Text>("model")?.0,
            base_url: f.or_default::<Text>("base_url")?.0,
        })
    }
}

/// A part read through its derived `Deserialize` (small parts whose deserializer the wasm
/// has anyway).
struct Serde<T>(T);

impl<T: serde::de::DeserializeOwned> FromJson for Serde<T> {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        T::deserialize(value).map(Serde).map_err(|e| FieldError {
            path: path.to_string(),
            expected: e.to_string().into(),
            found: Some(crate::json::describe(value)),
        })
    }
}

/// A report read back, with what it lacks: a part that is missing or unreadable is left
/// empty (its default) and named in `gaps` (`credit_score: not stored`, `claims: expected a
/// list, found …`), never filled with a made-up value.
#[derive(Debug, Clone, PartialEq)]
pub struct KeptReport {
    pub report: AuditReport,
    pub gaps: Vec<String>,
}

impl KeptReport {
    /// Whether `key` (a top-level field, or `models.run`) was missing or unreadable.
    pub fn lacks(&self, key: &str) -> bool {
        self.gaps.iter().any(|g| {
            g.strip_prefix(key)
                .is_some_and(|rest| rest.starts_with(':') || rest.starts_with('.'))
        })
    }

    /// Read a report's JSON (an [`AuditReport`] as serialized).
    pub fn read(value: &Value) -> KeptReport {
        const ROOT: Path<'static> = Path::Root("the report");
        let mut gaps = Vec::new();
        let empty = serde_json::Map::new();
        let map = value.as_object().unwrap_or(&empty);
        let mut field = |key: &'static str, required: bool| -> Option<&Value> {
            match map.get(key) {
                None if required => {
                    gaps.push(format!("{key}: not stored"));
                    None
                }
                v => v,
            }
        };
        // Every read below goes through one closure so a part that does not read becomes a
        // gap and its default, the same way for every field.
        fn part<T: FromJson + Default>(
            v: Option<&Value>,
            key: &'static str,
            gaps: &mut Vec<String>,
        ) -> T {
            match v.map(|v| T::from_json(v, Path::Key(&ROOT, key))) {
                None => T::default(),
                Some(Ok(t)) => t,
                Some(Err(e)) => {
                    gaps.push(e.to_string());
                    T::default()
                }
            }
        }
        let profile = field("profile", false).cloned();
        let credit = field("credit_score", true).cloned();
        let band = field("band", true).cloned();
        let cna = field("could_not_audit", false).cloned();
        let high = field("high_count", true).cloned();
        let low = field("low_count", true).cloned();
        let claims = field("claims", true).cloned();
        let deductions = field("deductions", true).cloned();
        let errors = field("errors", true).cloned();
        let exempted = field("reasonable_inferences", true).cloned();
        let numbers = field("number_grounding", true).cloned();
        let rules = field("deterministic_findings", false).cloned();
        let dropped = field("dropped", false).cloned();
        let contradictions = field("contradictions", false).cloned();
        let reverse = field("reverse_check", false).cloned();
        let phases = field("phases", true).cloned();
        let latency = field("latency_ms", true).cloned();
        let tokens = field("tokens", false).cloned();
        let models = field("models", false).cloned();
        let params = field("params", false).cloned();
        let g = &mut gaps;
        let credit_score = match credit {
            None | Some(Value::Null) => None,
            Some(v) => match v.as_u64().and_then(|n| u8::try_from(n).ok()) {
                Some(n @ 1..=5) => Some(n),
                _ => {
                    g.push("credit_score: not a score from 1 to 5".into());
                    None
                }
            },
        };
        let band = match band {
            None | Some(Value::Null) => None,
            Some(v) => Some(part::<Option<Named<Band>>>(Some(&v), "band", g))
                .flatten()
                .map(|b| b.0),
        };
        let tokens: Usage = match tokens.as_ref() {
            Some(v) => match Usage::from_json(v, Path::Key(&ROOT, "tokens")) {
                Ok(u) => u,
                Err(_) => {
                    g.push("tokens: not stored".into());
                    Usage::default()
                }
            },
            None => {
                g.push("tokens: not stored".into());
                Usage::default()
            }
        };
        let models = models.as_ref();
        let mut model = |role: &'static str| -> ModelRef {
            let read = models
                .and_then(|m| m.get(role))
                .map(|v| ModelRef::from_json(v, Path::Key(&ROOT, "models")));
            match read {
                Some(Ok(m)) => m,
                _ => {
                    g.push(format!("models.{role}: not stored"));
                    ModelRef {
                        llm: String::new(),
                        model: String::new(),
                        base_url: String::new(),
                    }
                }
            }
        };
        let models = ModelsUsed {
            run: model("run"),
            verify: model("verify"),
        };
        let could_not_audit = match cna {
            None | Some(Value::Null) => None,
            Some(v) => part::<Option<CouldNotAudit>>(Some(&v), "could_not_audit", g),
        };
        let reverse_check = match reverse {
            None | Some(Value::Null) => None,
            Some(v) => {
                Some(part::<Option<ReverseCheck>>(Some(&v), "reverse_check", g).unwrap_or_default())
            }
        };
        let report = AuditReport {
            profile: part::<Text>(profile.as_ref(), "profile", g).0,
            credit_score,
            band,
            could_not_audit,
            high_count: part(high.as_ref(), "high_count", g),
            low_count: part(low.as_ref(), "low_count", g),
            claims: part(claims.as_ref(), "claims", g),
            deductions: part(deductions.as_ref(), "deductions", g),
            errors: part(errors.as_ref(), "errors", g),
            reasonable_inferences: part(exempted.as_ref(), "reasonable_inferences", g),
            number_grounding: part(numbers.as_ref(), "number_grounding", g),
            deterministic_findings: part::<Option<Serde<_>>>(
                rules.as_ref(),
                "deterministic_findings",
                g,
            )
            .map(|s| s.0)
            .unwrap_or_default(),
            dropped: part::<Option<Serde<_>>>(dropped.as_ref(), "dropped", g)
                .map(|s| s.0)
                .unwrap_or_default(),
            contradictions: part::<Option<Serde<_>>>(contradictions.as_ref(), "contradictions", g)
                .map(|s| s.0)
                .unwrap_or_default(),
            reverse_check,
            phases: part(phases.as_ref(), "phases", g),
            latency_ms: part(latency.as_ref(), "latency_ms", g),
            tokens,
            models,
            params: part::<Option<Serde<_>>>(params.as_ref(), "params", g)
                .map(|s| s.0)
                .unwrap_or_default(),
        };
        if !value.is_object() {
            gaps = vec!["the report: not a JSON object".to_string()];
        }
        KeptReport { report, gaps }
    }
}

/// A whole report, every part there and readable (the first gap is the error).
impl FromJson for AuditReport {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let kept = KeptReport::read(value);
        match kept.gaps.into_iter().next() {
            None => Ok(kept.report),
            Some(gap) => Err(FieldError {
                path: path.to_string(),
                expected: "a whole audit report".into(),
                found: Some(gap),
            }),
        }
    }
}
