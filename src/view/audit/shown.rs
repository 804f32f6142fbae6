//! What the Audit page shows of a report: a fresh audit's typed report as it is, a kept one
//! read back by the report's own reader (`audit::report::KeptReport`), so a reopened audit is
//! shown exactly as it was when it ran.
//!
//! The reading is lenient and honest: a part that is missing or unreadable in the stored JSON
//! is left empty and named in [`ReportShown::not_stored`], never filled with a made-up value.

use serde_json::Value;

use crate::audit::contract::Claim;
use crate::audit::contract::Deduction;
use crate::audit::contract::ErrorType;
use crate::audit::contract::Exempted;
use crate::audit::contract::Severity;
use crate::audit::grounding::NumberGrounding;
use crate::audit::report::AuditReport;
use crate::audit::report::Band;
use crate::audit::report::CouldNotAudit;
use crate::audit::report::Counting;
use crate::audit::report::FailureKind;
use crate::audit::report::Finding;
use crate::audit::report::KeptReport;
use crate::audit::report::Phase;
use crate::audit::report::PhaseRecord;

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
fn transcript(record: &PhaseRecord) -> Vec<Exchange> {
    let (prompts, replies) = (&record.prompts, &record.raw_responses);
    (0..prompts.len().max(replies.len()))
        .map(|i| Exchange {
            messages: prompts
                .get(i)
                .map(|ms| {
                    ms.iter()
                        .map(|m| (m.role.clone(), m.content.clone()))
                        .collect()
                })
                .unwrap_or_default(),
            reply: replies.get(i).cloned(),
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
    /// Read a report's JSON (an `AuditReport` as serialized): a kept or a demo one.
    pub fn read(value: &Value) -> ReportShown {
        ReportShown::of(&KeptReport::read(value))
    }

    /// A fresh audit's report, as it is (nothing to read back).
    pub fn fresh(report: &AuditReport) -> ReportShown {
        ReportShown::of(&KeptReport {
            report: report.clone(),
            gaps: Vec::new(),
        })
    }

    /// The page's view of a report read back, its gaps named.
    pub fn of(kept: &KeptReport) -> ReportShown {
        let r = &kept.report;
        let lacks = |key: &str| kept.lacks(key);
        let claims = r.claims.clone();
        let deductions = r.deductions.clone();
        let changes = r.reverse_check.as_ref().map(|c| {
            c.changes
                .iter()
                .map(|c| {
                    let target = r.errors.get(c.error).map(|f| f.target.as_str());
                    let line = format!("{}: {:?} → {:?}", target.unwrap_or_default(), c.from, c.to);
                    (line, c.reason.clone())
                })
                .collect()
        });
        let mut totals: Vec<String> = Vec::new();
        // An audit that never got an answer has nothing to count: "0 High · 0 ms · 0 tokens"
        // would read like a clean, instant audit.
        let failed = r.could_not_audit.is_some();
        let tokens = (!lacks("tokens")).then_some(r.tokens.total_tokens);
        let answered = tokens.is_some_and(|n| n > 0);
        if !failed {
            if !lacks("high_count") {
                totals.push(format!("{} High", r.high_count));
            }
            if !lacks("low_count") {
                totals.push(format!("{} Low", r.low_count));
            }
        }
        if (!failed || answered) && !lacks("latency_ms") {
            totals.push(format!("{} ms", r.latency_ms));
        }
        match tokens {
            Some(n) if !failed || n > 0 => totals.push(format!("{n} tokens")),
            _ => {}
        }
        for (role, m) in [("run", &r.models.run), ("verify", &r.models.verify)] {
            if !lacks(&format!("models.{role}")) {
                totals.push(format!("{role} {}", m.model));
            }
        }
        let findings = r
            .errors
            .iter()
            .map(|f| shown_finding(f, &claims, &deductions))
            .collect();
        ReportShown {
            credit_score: r.credit_score,
            band: r.band,
            could_not_audit: r.could_not_audit.clone(),
            totals: totals.join(" · "),
            claims,
            deductions,
            findings,
            exempted: r.reasonable_inferences.clone(),
            changes,
            phases: r.phases.iter().map(phase_row).collect(),
            numbers: (!lacks("number_grounding")).then(|| r.number_grounding.clone()),
            rules: r
                .deterministic_findings
                .iter()
                .map(|d| d.describe())
                .collect(),
            warnings: r
                .dropped
                .iter()
                .map(|d| d.describe())
                .chain(r.contradictions.iter().map(|c| c.describe()))
                .collect(),
            not_stored: kept.gaps.clone(),
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

/// A finding as the page lists it, with the text of the claim or deduction it is about.
fn shown_finding(f: &Finding, claims: &[Claim], deductions: &[Deduction]) -> FindingShown {
    let target_text = claims
        .iter()
        .find(|c| c.id == f.target)
        .map(|c| c.text.clone())
        .or_else(|| {
            deductions
                .iter()
                .find(|d| d.id == f.target)
                .map(|d| d.conclusion.clone())
        })
        .unwrap_or_default();
    FindingShown {
        phase: f.phase,
        severity: f.severity,
        kind: match f.error_type {
            ErrorType::Contradiction => "contradiction",
            ErrorType::Unsupported => "unsupported",
        },
        target: f.target.clone(),
        target_text,
        note: match f.counting {
            Counting::Duplicate { .. } => " (same target as another error: counted once)",
            Counting::OverCap => " (over the per-phase cap: not counted)",
            Counting::UnknownTarget => {
                " (aimed at a claim or deduction not in the audit: not counted)"
            }
            Counting::EvidenceNotFound => {
                " (its evidence is not in the context or the output: not counted)"
            }
            Counting::Counted => "",
        },
        explanation: f.explanation.clone(),
        evidence: f.evidence.clone(),
        evidence_not_found: f.evidence_not_found,
    }
}

/// Generated tokens per second of wall time, or empty when unknown.
pub fn tokens_per_s(tokens: usize, ms: usize) -> String {
    if tokens == 0 || ms == 0 {
        return String::new();
    }
    format!("{:.1}", tokens as f64 * 1000.0 / ms as f64)
}

fn phase_row(p: &PhaseRecord) -> PhaseRow {
    let cut = match p.truncated_replies {
        0 => String::new(),
        n => format!("{n} (max_tokens {})", p.max_tokens),
    };
    let latency_ms = p.latency_ms as usize;
    PhaseRow {
        phase: p.phase,
        llm: p.llm.clone(),
        calls: p.calls as usize,
        latency_ms,
        tokens: p.tokens.total_tokens as usize,
        tokens_per_s: tokens_per_s(p.tokens.completion_tokens as usize, latency_ms),
        reasked: p.reasked,
        cut,
        repairs: p
            .repairs
            .iter()
            .map(|r| r.label())
            .collect::<Vec<_>>()
            .join("; "),
        error: p.error.clone(),
        transcript: transcript(p),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::grounding::Status;
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
            "params": serde_json::to_value(crate::config::AuditParams::default()).unwrap()
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
