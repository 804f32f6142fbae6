//! What the Audit page shows of a report, read from the report's JSON. One reader for both a
//! fresh audit (its report, serialized as the run store keeps it) and a kept one (the stored
//! line), so a reopened audit is shown exactly as it was when it ran.
//!
//! The reader is lenient and honest: a part that is missing or unreadable in the stored JSON
//! is left empty and named in [`ReportShown::not_stored`], never filled with a made-up value.
//! It reads through the [`FromJson`] readers (as model replies are): a derived `Deserialize`
//! for the whole report tree cost ~28 KB of the gzipped wasm.

use serde_json::{Map, Value};

use crate::audit::contract::Claim;
use crate::audit::contract::Deduction;
use crate::audit::contract::ErrorType;
use crate::audit::contract::Exempted;
use crate::audit::contract::Severity;
use crate::audit::grounding::CheckedNumber;
use crate::audit::grounding::NumberGrounding;
use crate::audit::grounding::NumberKind;
use crate::audit::grounding::Operation;
use crate::audit::grounding::Status;
use crate::audit::report::Band;
use crate::audit::report::CouldNotAudit;
use crate::audit::report::FailureKind;
use crate::audit::report::Phase;
use crate::json::FieldError;
use crate::json::Fields;
use crate::json::FromJson;
use crate::json::Named;
use crate::json::Path;
use crate::json::Text;
use crate::llm::reply::Repair;

/// One error of Phase 2 or 3, as the page lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct FindingShown {
    pub phase: Phase,
    pub severity: Severity,
    /// `contradiction` or `unsupported`.
    pub kind: &'static str,
    pub target: String,
    /// The claim's text or the deduction's conclusion the error is about (empty if neither).
    pub target_text: String,
    /// Why it does not count toward the score (empty when it counts).
    pub note: &'static str,
    pub explanation: String,
    pub evidence: String,
    /// The evidence is in neither the context nor the output (`audit::evidence`): shown as
    /// such, never highlighted as a quote.
    pub evidence_not_found: bool,
}

/// One row of the phase table.
#[derive(Debug, Clone, PartialEq)]
pub struct PhaseRow {
    pub phase: Phase,
    pub llm: String,
    pub calls: usize,
    pub latency_ms: usize,
    pub tokens: usize,
    /// Generated tokens per second of wall time, empty when unknown.
    pub tokens_per_s: String,
    pub reasked: bool,
    /// "2 (max_tokens 700)" when replies were cut off, else empty.
    pub cut: String,
    /// What the parser repaired in the accepted reply, in words.
    pub repairs: String,
    pub error: Option<String>,
    /// Each call's messages and the reply it got, for the Transcript section (empty for a
    /// report kept before prompts were stored).
    pub transcript: Vec<Exchange>,
}

/// One call of a phase: the messages sent (role, text) and the reply (`None`: the call
/// failed). Keys were redacted when the report was written; model text stays text.
#[derive(Debug, Clone, PartialEq)]
pub struct Exchange {
    pub messages: Vec<(String, String)>,
    pub reply: Option<String>,
}

/// A phase record's transcript: `prompts[i]` with `raw_responses[i]`; replies beyond the
/// prompts (a report kept before prompts were stored) are listed with no messages.
fn transcript(record: &Value) -> Vec<Exchange> {
    let texts = |v: Option<&Value>| -> Vec<Value> {
        v.and_then(Value::as_array).cloned().unwrap_or_default()
    };
    let prompts = texts(record.get("prompts"));
    let replies = texts(record.get("raw_responses"));
    (0..prompts.len().max(replies.len()))
        .map(|i| Exchange {
            messages: prompts
                .get(i)
                .and_then(Value::as_array)
                .map(|ms| {
                    ms.iter()
                        .map(|m| {
                            let field = |k: &str| {
                                m.get(k).and_then(Value::as_str).unwrap_or("").to_string()
                            };
                            (field("role"), field("content"))
                        })
                        .collect()
                })
                .unwrap_or_default(),
            reply: replies.get(i).and_then(Value::as_str).map(str::to_string),
        })
        .collect()
}

/// The report as the page shows it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ReportShown {
    pub credit_score: Option<u8>,
    pub band: Option<Band>,
    pub could_not_audit: Option<CouldNotAudit>,
    /// "1 High · 0 Low · 812 ms · 950 tokens · run m · verify m" (parts not stored left out).
    pub totals: String,
    pub claims: Vec<Claim>,
    pub deductions: Vec<Deduction>,
    pub findings: Vec<FindingShown>,
    pub exempted: Vec<Exempted>,
    /// The reverse check's severity changes ("C1: High → Low", reason), if it ran.
    pub changes: Option<Vec<(String, String)>>,
    pub phases: Vec<PhaseRow>,
    /// The number check; `None` when the report does not have one.
    pub numbers: Option<NumberGrounding>,
    /// The deterministic findings, each in words (docs/audit.md, "Deterministic findings"),
    /// apart from the models' findings. A report written before them has none.
    pub rules: Vec<String>,
    /// Claims dropped and contradictions (docs/audit.md, "Checks of the model's bookkeeping").
    pub warnings: Vec<String>,
    /// What the stored JSON lacks or could not be read, in words ("phases: not stored").
    pub not_stored: Vec<String>,
}

impl ReportShown {
    /// Read a report's JSON (an `AuditReport` as serialized).
    pub fn read(value: &Value) -> ReportShown {
        let map = match value {
            Value::Object(m) => m,
            _ => {
                return ReportShown {
                    not_stored: vec!["the report: not a JSON object".into()],
                    ..ReportShown::default()
                }
            }
        };
        let mut r = Reader {
            map,
            gaps: Vec::new(),
        };
        let credit_score = match map.get("credit_score") {
            None => r.gap("credit_score", "not stored"),
            Some(Value::Null) => None,
            Some(v) => match v.as_u64().and_then(|n| u8::try_from(n).ok()) {
                Some(n @ 1..=5) => Some(n),
                _ => r.gap("credit_score", "not a score from 1 to 5"),
            },
        };
        let band = match map.get("band") {
            Some(Value::Null) => None,
            _ => r.field::<Named<Band>>("band").map(|b| b.0),
        };
        let could_not_audit = map.get("could_not_audit").and_then(|v| {
            CouldNotAudit::from_json(v, Path::Key(&ROOT, "could_not_audit"))
                .map_err(|e| r.gaps.push(e.to_string()))
                .ok()
        });
        let high = r.field::<usize>("high_count");
        let low = r.field::<usize>("low_count");
        let claims: Vec<Claim> = r.field("claims").unwrap_or_default();
        let deductions: Vec<Deduction> = r.field("deductions").unwrap_or_default();
        let errors: Vec<FindingRead> = r.field("errors").unwrap_or_default();
        let exempted = r.field("reasonable_inferences").unwrap_or_default();
        let numbers = r.field("number_grounding");
        let changes = map.get("reverse_check").map(|_| {
            let read: Vec<ChangeRead> = r
                .field::<ReverseRead>("reverse_check")
                .map(|c| c.0)
                .unwrap_or_default();
            read.into_iter()
                .map(|c| {
                    let target = errors.get(c.error).map(|f| f.target.as_str());
                    let line = format!("{}: {:?} → {:?}", target.unwrap_or_default(), c.from, c.to);
                    (line, c.reason)
                })
                .collect()
        });
        let phases: Vec<PhaseRow> = r.field("phases").unwrap_or_default();
        let latency = r.field::<usize>("latency_ms");
        let tokens = map
            .get("tokens")
            .and_then(|t| t.get("total_tokens"))
            .and_then(Value::as_u64);
        let model = |role: &str| {
            map.get("models")
                .and_then(|m| m.get(role))
                .and_then(|m| m.get("model"))
                .and_then(Value::as_str)
        };
        let mut totals: Vec<String> = Vec::new();
        // An audit that never got an answer has nothing to count: "0 High · 0 ms · 0 tokens"
        // would read like a clean, instant audit.
        let failed = could_not_audit.is_some();
        let answered = tokens.is_some_and(|n| n > 0);
        if !failed {
            totals.extend(high.map(|n| format!("{n} High")));
            totals.extend(low.map(|n| format!("{n} Low")));
        }
        if !failed || answered {
            totals.extend(latency.map(|n| format!("{n} ms")));
        }
        match tokens {
            Some(n) if !failed || n > 0 => totals.push(format!("{n} tokens")),
            Some(_) => {}
            None => r.gaps.push("tokens: not stored".into()),
        }
        for role in ["run", "verify"] {
            match model(role) {
                Some(m) => totals.push(format!("{role} {m}")),
                None => r.gaps.push(format!("models.{role}: not stored")),
            }
        }
        let findings = errors
            .into_iter()
            .map(|f| f.shown(&claims, &deductions))
            .collect();
        // Parts a report written before them lacks: none to show then.
        fn part<T: serde::de::DeserializeOwned>(
            map: &serde_json::Map<String, Value>,
            key: &str,
            gaps: &mut Vec<String>,
        ) -> Vec<T> {
            match map.get(key).map(|v| serde_json::from_value(v.clone())) {
                None => Vec::new(),
                Some(Ok(v)) => v,
                Some(Err(e)) => {
                    gaps.push(format!("{key}: {e}"));
                    Vec::new()
                }
            }
        }
        let rules: Vec<crate::audit::report::DeterministicFinding> =
            part(map, "deterministic_findings", &mut r.gaps);
        let dropped: Vec<crate::audit::report::Dropped> = part(map, "dropped", &mut r.gaps);
        let contradictions: Vec<crate::audit::report::Contradiction> =
            part(map, "contradictions", &mut r.gaps);
        let rules = rules.iter().map(|d| d.describe()).collect();
        let warnings = dropped
            .iter()
            .map(|d| d.describe())
            .chain(contradictions.iter().map(|c| c.describe()))
            .collect();
        ReportShown {
            credit_score,
            band,
            could_not_audit,
            totals: totals.join(" · "),
            claims,
            deductions,
            findings,
            exempted,
            changes,
            phases,
            numbers,
            rules,
            warnings,
            not_stored: r.gaps,
        }
    }

    /// Band name for the badge and its CSS class ("none" when unscored).
    pub fn band_name(&self) -> &'static str {
        self.band.map(Band::as_str).unwrap_or("none")
    }

    /// What the badge says when there is no score: the audit could not score, or the stored
    /// report has no score at all.
    pub fn unscored(&self) -> &'static str {
        if self
            .not_stored
            .iter()
            .any(|g| g.starts_with("credit_score"))
        {
            "no credit score in the stored report"
        } else {
            "not scored: could not audit"
        }
    }

    /// The errors of one phase, in report order.
    pub fn findings_of(&self, phase: Phase) -> impl Iterator<Item = &FindingShown> {
        self.findings.iter().filter(move |f| f.phase == phase)
    }

    /// Why a phase has no answer: not run, or failed ("No errors reported" only for a phase
    /// that ran and answered, so `None` means it answered).
    pub fn phase_status(&self, phase: Phase) -> Option<String> {
        if self.not_stored.iter().any(|g| g.starts_with("phases")) {
            return Some(
                "Whether this phase ran is not known: the stored run has no phase records.".into(),
            );
        }
        match self.phases.iter().find(|p| p.phase == phase) {
            None => Some("Not run: the audit stopped before this phase.".into()),
            Some(p) => p.error.as_ref().map(|e| format!("Failed: {e}")),
        }
    }

    /// The quoted evidence of every error, to mark in the context and the output.
    pub fn evidence(&self) -> Vec<&str> {
        self.findings
            .iter()
            .filter(|f| !f.evidence_not_found)
            .map(|f| f.evidence.as_str())
            .collect()
    }

    /// The cause and the fix of a could-not-audit, unless it was cancelled.
    pub fn failure(&self) -> Option<(String, &'static str)> {
        self.could_not_audit
            .as_ref()
            .filter(|c| c.kind != FailureKind::Cancelled)
            .map(|c| (c.to_string(), c.kind.fix()))
    }
}

/// The report as a whole, for the paths of its fields.
const ROOT: Path<'static> = Path::Root("the report");

/// A report's fields, read one by one; what is missing or unreadable is written down.
struct Reader<'a> {
    map: &'a Map<String, Value>,
    gaps: Vec<String>,
}

impl Reader<'_> {
    fn gap<T>(&mut self, key: &str, why: &str) -> Option<T> {
        self.gaps.push(format!("{key}: {why}"));
        None
    }

    fn field<T: FromJson>(&mut self, key: &'static str) -> Option<T> {
        let Some(value) = self.map.get(key) else {
            return self.gap(key, "not stored");
        };
        T::from_json(value, Path::Key(&ROOT, key))
            .map_err(|e| self.gaps.push(e.to_string()))
            .ok()
    }
}

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

/// One stored error, before its target's text is looked up.
struct FindingRead {
    phase: Phase,
    severity: Severity,
    kind: ErrorType,
    target: String,
    note: &'static str,
    explanation: String,
    evidence: String,
    evidence_not_found: bool,
}

impl FromJson for FindingRead {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        let status = f.or_default::<Text>("status")?.0;
        Ok(FindingRead {
            phase: f.required::<Named<Phase>>("phase")?.0,
            severity: f.required("severity")?,
            kind: f.required("type")?,
            target: f.or_default::<Text>("target")?.0,
            note: match status.as_str() {
                "duplicate" => " (same target as another error: counted once)",
                "over_cap" => " (over the per-phase cap: not counted)",
                "unknown_target" => {
                    " (aimed at a claim or deduction not in the audit: not counted)"
                }
                "evidence_not_found" => {
                    " (its evidence is not in the context or the output: not counted)"
                }
                _ => "",
            },
            explanation: f.or_default::<Text>("explanation")?.0,
            evidence: f.or_default::<Text>("evidence")?.0,
            evidence_not_found: f.or_default("evidence_not_found")?,
        })
    }
}

impl FindingRead {
    fn shown(self, claims: &[Claim], deductions: &[Deduction]) -> FindingShown {
        let target_text = claims
            .iter()
            .find(|c| c.id == self.target)
            .map(|c| c.text.clone())
            .or_else(|| {
                deductions
                    .iter()
                    .find(|d| d.id == self.target)
                    .map(|d| d.conclusion.clone())
            })
            .unwrap_or_default();
        FindingShown {
            phase: self.phase,
            severity: self.severity,
            kind: match self.kind {
                ErrorType::Contradiction => "contradiction",
                ErrorType::Unsupported => "unsupported",
            },
            target: self.target,
            target_text,
            note: self.note,
            explanation: self.explanation,
            evidence: self.evidence,
            evidence_not_found: self.evidence_not_found,
        }
    }
}

struct ChangeRead {
    error: usize,
    from: Severity,
    to: Severity,
    reason: String,
}

impl FromJson for ChangeRead {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        Ok(ChangeRead {
            error: f.required("error")?,
            from: f.required("from")?,
            to: f.required("to")?,
            reason: f.or_default::<Text>("reason")?.0,
        })
    }
}

struct ReverseRead(Vec<ChangeRead>);

impl FromJson for ReverseRead {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        Ok(ReverseRead(Fields::of(value, path)?.required("changes")?))
    }
}

/// Generated tokens per second of wall time, or empty when unknown.
pub fn tokens_per_s(tokens: usize, ms: usize) -> String {
    if tokens == 0 || ms == 0 {
        return String::new();
    }
    format!("{:.1}", tokens as f64 * 1000.0 / ms as f64)
}

impl FromJson for PhaseRow {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        let tokens = Fields::of(f.get("tokens").unwrap_or(&Value::Null), path.key("tokens"))?;
        let latency_ms = f.required("latency_ms")?;
        let repairs: Vec<Named<Repair>> = f.or_default("repairs")?;
        let cut = match f.or_default::<usize>("truncated_replies")? {
            0 => String::new(),
            n => format!("{n} (max_tokens {})", f.or_default::<usize>("max_tokens")?),
        };
        let error = match f.get("error") {
            None | Some(Value::Null) => None,
            Some(_) => Some(f.required::<Text>("error")?.0),
        };
        Ok(PhaseRow {
            phase: f.required::<Named<Phase>>("phase")?.0,
            llm: f.or_default::<Text>("llm")?.0,
            calls: f.or_default("calls")?,
            latency_ms,
            tokens: tokens.required("total_tokens")?,
            tokens_per_s: tokens_per_s(tokens.or_default("completion_tokens")?, latency_ms),
            reasked: f.or_default("reasked")?,
            cut,
            repairs: repairs
                .iter()
                .map(|r| r.0.label())
                .collect::<Vec<_>>()
                .join("; "),
            error,
            transcript: transcript(value),
        })
    }
}

impl FromJson for CheckedNumber {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        let optional_text = |key: &'static str| match f.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(_) => f.required::<Text>(key).map(|t| Some(t.0)),
        };
        Ok(CheckedNumber {
            text: f.required::<Text>("text")?.0,
            kind: f.required::<Named<NumberKind>>("kind")?.0,
            value: f.required("value")?,
            status: f.required::<Named<Status>>("status")?.0,
            source: optional_text("source")?,
            operation: match f.get("operation") {
                None | Some(Value::Null) => None,
                Some(_) => Some(f.required::<Named<Operation>>("operation")?.0),
            },
        })
    }
}

impl FromJson for NumberGrounding {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        Ok(NumberGrounding {
            numbers: f.required("numbers")?,
            context_numbers: f.required("context_numbers")?,
            unchecked: f.or_default("unchecked")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sample() -> Value {
        json!({
            "profile": "p", "credit_score": 2, "band": "BAD", "high_count": 1, "low_count": 1,
            "claims": [{"id": "C1", "text": "rate 35%"}],
            "deductions": [{"id": "D1", "premises": ["C1"], "conclusion": "so high"}],
            "errors": [
                {"phase": "fact_check", "target": "C1", "type": "unsupported", "severity": "High",
                 "evidence": "35%", "explanation": "not in source", "status": "counted"},
                {"phase": "logic_check", "target": "D1", "type": "contradiction", "severity": "Low",
                 "evidence": "", "explanation": "does not follow", "status": "duplicate", "of": 0}
            ],
            "reasonable_inferences": [{"target": "C2", "text": "fair"}],
            "number_grounding": {"numbers": [{"text": "35%", "kind": "percent", "value": 0.35,
                "status": "not_found"}], "context_numbers": 2},
            "reverse_check": {"changes": [{"error": 0, "from": "High", "to": "Low", "reason": "r"}]},
            "phases": [
                {"phase": "decompose", "llm": "m", "calls": 1, "latency_ms": 1000,
                 "tokens": {"prompt_tokens": 10, "completion_tokens": 50, "total_tokens": 60},
                 "reasked": false, "repairs": ["removed_code_fence"], "truncated_replies": 1,
                 "max_tokens": 700, "raw_responses": []},
                {"phase": "fact_check", "llm": "m", "calls": 1, "latency_ms": 10,
                 "tokens": {"prompt_tokens": 1, "completion_tokens": 0, "total_tokens": 1},
                 "reasked": true, "repairs": [], "raw_responses": []},
                {"phase": "logic_check", "llm": "m", "calls": 2, "latency_ms": 5,
                 "tokens": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                 "reasked": false, "repairs": [], "raw_responses": [], "error": "HTTP 500"}
            ],
            "latency_ms": 1010, "tokens": {"prompt_tokens": 12, "completion_tokens": 51, "total_tokens": 63},
            "models": {"run": {"llm": "m", "model": "run-model", "base_url": "u"},
                       "verify": {"llm": "m", "model": "verify-model", "base_url": "u"}},
            "params": {}
        })
    }

    #[test]
    fn an_audit_that_got_no_answer_counts_nothing() {
        let mut v = sample();
        v["credit_score"] = Value::Null;
        v["band"] = Value::Null;
        v["high_count"] = Value::from(0);
        v["low_count"] = Value::from(0);
        v["latency_ms"] = Value::from(0);
        v["tokens"]["total_tokens"] = Value::from(0);
        v["could_not_audit"] = serde_json::json!({
            "phase": "decompose", "kind": "endpoint", "reason": "Failed to fetch"
        });
        let r = ReportShown::read(&v);
        assert_eq!(r.totals, "run run-model · verify verify-model");
        assert!(!r.totals.contains("0 ms"), "{}", r.totals);
    }

    #[test]
    fn a_whole_report_reads_with_nothing_missing() {
        let r = ReportShown::read(&sample());
        assert_eq!(r.not_stored, Vec::<String>::new());
        assert_eq!((r.credit_score, r.band_name()), (Some(2), "BAD"));
        assert_eq!(
            r.totals,
            "1 High · 1 Low · 1010 ms · 63 tokens · run run-model · verify verify-model"
        );
        let f = &r.findings[0];
        assert_eq!(
            (f.phase, f.severity, f.kind, f.target_text.as_str(), f.note),
            (
                Phase::FactCheck,
                Severity::High,
                "unsupported",
                "rate 35%",
                ""
            )
        );
        assert_eq!(r.findings[1].target_text, "so high");
        assert!(r.findings[1].note.contains("counted once"));
        assert_eq!(r.findings_of(Phase::LogicCheck).count(), 1);
        assert_eq!(r.evidence(), vec!["35%", ""]);
        assert_eq!(
            r.changes,
            Some(vec![("C1: High → Low".to_string(), "r".to_string())])
        );
        assert_eq!(r.exempted[0].text, "fair");
        let n = r.numbers.as_ref().unwrap();
        assert_eq!(
            (n.numbers[0].status, n.context_numbers),
            (Status::NotFound, 2)
        );
        let p = &r.phases[0];
        assert_eq!(
            (p.tokens_per_s.as_str(), p.cut.as_str(), p.repairs.as_str()),
            ("50.0", "1 (max_tokens 700)", "removed a code fence")
        );
        assert_eq!(r.phases[1].tokens_per_s, "");
        assert!(r.phases[1].reasked);
        assert_eq!(r.phase_status(Phase::FactCheck), None);
        assert_eq!(
            r.phase_status(Phase::LogicCheck).as_deref(),
            Some("Failed: HTTP 500")
        );
        assert!(r.failure().is_none());
    }

    #[test]
    fn the_transcript_pairs_each_prompt_with_its_reply() {
        let mut v = sample();
        v["phases"][0]["prompts"] = serde_json::json!([
            [{"role": "system", "content": "sys"}, {"role": "user", "content": "u1"}],
            [{"role": "user", "content": "u2"}]
        ]);
        v["phases"][0]["raw_responses"] = serde_json::json!(["{\"claims\": []}"]);
        let r = ReportShown::read(&v);
        let t = &r.phases[0].transcript;
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].messages[1], ("user".to_string(), "u1".to_string()));
        assert_eq!(t[0].reply.as_deref(), Some("{\"claims\": []}"));
        assert_eq!(t[1].reply, None, "a call that failed has no reply");
        assert!(
            r.phases[1].transcript.is_empty(),
            "nothing stored, nothing made up"
        );
    }

    #[test]
    fn missing_parts_are_named_never_made_up() {
        let mut v = sample();
        let m = v.as_object_mut().unwrap();
        m.remove("credit_score");
        m.remove("number_grounding");
        m.remove("phases");
        m.remove("models");
        m.insert("claims".into(), json!("not a list"));
        let r = ReportShown::read(&v);
        assert_eq!(r.credit_score, None);
        assert_eq!(r.unscored(), "no credit score in the stored report");
        assert!(r.numbers.is_none());
        assert!(r.phases.is_empty());
        assert!(r.claims.is_empty());
        for part in [
            "credit_score: not stored",
            "number_grounding: not stored",
            "phases: not stored",
            "models.run: not stored",
            "claims: expected a list, found the string \"not a list\"",
        ] {
            assert!(
                r.not_stored.iter().any(|g| g == part),
                "{part} in {:?}",
                r.not_stored
            );
        }
        assert_eq!(r.totals, "1 High · 1 Low · 1010 ms · 63 tokens");
        // Without phase records nobody knows whether a phase ran: said, not guessed.
        assert!(r
            .phase_status(Phase::FactCheck)
            .unwrap()
            .starts_with("Whether this phase ran is not known"));
        assert_eq!(
            ReportShown::read(&json!([1])).not_stored,
            vec!["the report: not a JSON object"]
        );
        let bad_score = json!({"credit_score": 9});
        assert!(ReportShown::read(&bad_score)
            .not_stored
            .contains(&"credit_score: not a score from 1 to 5".to_string()));
    }

    #[test]
    fn could_not_audit_gives_its_cause_and_fix() {
        let mut v = sample();
        let m = v.as_object_mut().unwrap();
        m.insert("credit_score".into(), Value::Null);
        m.insert("band".into(), Value::Null);
        m.insert(
            "could_not_audit".into(),
            json!({"phase": "fact_check", "kind": "truncated", "reason": "cut"}),
        );
        let r = ReportShown::read(&v);
        assert_eq!((r.credit_score, r.band_name()), (None, "none"));
        assert_eq!(r.unscored(), "not scored: could not audit");
        let (cause, fix) = r.failure().unwrap();
        assert_eq!(
            cause,
            "could not audit (Phase 2 · fact check, truncated): cut"
        );
        assert!(fix.contains("max_tokens"));
        assert!(!r.not_stored.iter().any(|g| g.starts_with("band")));
    }
}
