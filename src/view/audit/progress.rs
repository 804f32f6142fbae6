//! The Audit page's decisions, kept out of its components: whether an audit can start, how it
//! ended (cancelled, could not audit, scored), which profile to pick, and the phase list: what
//! each phase is doing while an audit runs, what it ended as, and the same list for a kept
//! audit read from its stored phase records.

use crate::audit::report::AuditReport;
use crate::audit::report::FailureKind;
use crate::audit::report::Phase;
use crate::audit::run::AuditInput;
use crate::audit::run::PhaseStatus;
use crate::audit::run::PhaseUpdate;
use crate::view::audit::shown::ReportShown;

/// Why an audit cannot start yet, if it cannot: a text missing, or over its size limit
/// (`audit::limits`, the same check as the CLI's and the batch's).
pub fn not_ready(input: &AuditInput) -> Option<String> {
    if input.context_input.trim().is_empty() || input.model_output.trim().is_empty() {
        return Some(
            "Paste both the context (source material) and the model output to audit.".into(),
        );
    }
    crate::audit::limits::check_input(input)
        .err()
        .map(|e| format!("Cannot audit: {e}."))
}

/// How a finished audit ended, for the page's messages.
#[derive(Debug, Clone, PartialEq)]
pub enum Ended {
    /// The user cancelled: nothing is kept.
    Cancelled,
    /// No score: the cause, and what to do about it.
    CouldNotAudit {
        cause: String,
        fix: &'static str,
    },
    Scored,
}

pub fn ended(report: &AuditReport) -> Ended {
    match &report.could_not_audit {
        Some(c) if c.kind == FailureKind::Cancelled => Ended::Cancelled,
        Some(c) => Ended::CouldNotAudit {
            cause: c.to_string(),
            fix: c.kind.fix(),
        },
        None => Ended::Scored,
    }
}

/// The profile to pick: the one kept as a draft while Settings has it, else the first one.
pub fn profile_to_pick(kept: &str, known: &[String]) -> String {
    if known.iter().any(|p| p == kept) {
        kept.to_string()
    } else {
        known.first().cloned().unwrap_or_default()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum PhaseView {
    Waiting,
    /// Started at this `performance.now()` (ms), for the live elapsed timer.
    Running(f64),
    Reasking(String, f64),
    Done {
        latency_ms: u64,
        tokens: u64,
    },
    Failed(String),
    /// Cancelled while it was running.
    Cancelled,
    /// Never started: the audit stopped (failed or cancelled) before this phase.
    NotRun,
}

/// The phases an audit will go through, all waiting.
pub fn initial_phases(reverse: bool) -> Vec<(Phase, PhaseView)> {
    let mut v = vec![
        (Phase::Decompose, PhaseView::Waiting),
        (Phase::FactCheck, PhaseView::Waiting),
        (Phase::LogicCheck, PhaseView::Waiting),
    ];
    if reverse {
        v.push((Phase::ReverseCheck, PhaseView::Waiting));
    }
    v
}

/// After the audit ended: phases still waiting did not run; a phase still running (or
/// re-asking) was cancelled.
pub fn settle(phases: &mut [(Phase, PhaseView)], cancelled: bool) {
    for (_, view) in phases.iter_mut() {
        match view {
            PhaseView::Waiting => *view = PhaseView::NotRun,
            PhaseView::Running(_) | PhaseView::Reasking(..) if cancelled => {
                *view = PhaseView::Cancelled
            }
            _ => {}
        }
    }
}

/// One progress report of the audit; `now` is the page's clock (ms), the start of a phase
/// that was not already running.
pub fn apply_update(phases: &mut [(Phase, PhaseView)], u: &PhaseUpdate, now: f64) {
    if let Some((_, view)) = phases.iter_mut().find(|(p, _)| *p == u.phase) {
        let since = match view {
            PhaseView::Running(t) | PhaseView::Reasking(_, t) => *t,
            _ => now,
        };
        *view = match &u.status {
            PhaseStatus::Started => PhaseView::Running(since),
            PhaseStatus::Reasking { parse_error } => {
                PhaseView::Reasking(parse_error.clone(), since)
            }
            PhaseStatus::Done { latency_ms, tokens } => PhaseView::Done {
                latency_ms: *latency_ms,
                tokens: *tokens,
            },
            PhaseStatus::Failed { reason } => PhaseView::Failed(reason.clone()),
        };
    }
}

/// The chip's text and CSS class; `now` (ms) for the elapsed time of a running phase.
pub fn phase_chip(view: &PhaseView, now: f64) -> (String, &'static str) {
    let elapsed = |since: &f64| (now - since).max(0.0) / 1000.0;
    match view {
        PhaseView::Waiting => ("waiting".into(), "chip"),
        PhaseView::Running(t) => (format!("running… {:.1} s", elapsed(t)), "chip band-MID"),
        PhaseView::Reasking(e, t) => (
            format!("asking again ({:.1} s): {e}", elapsed(t)),
            "chip band-MID",
        ),
        PhaseView::Done { latency_ms, tokens } => (
            format!("done · {latency_ms} ms · {tokens} tokens"),
            "chip band-GOOD",
        ),
        PhaseView::Failed(e) => (format!("failed: {e}"), "chip band-BAD"),
        PhaseView::Cancelled => ("cancelled".into(), "chip"),
        PhaseView::NotRun => ("not run".into(), "chip"),
    }
}

/// A kept audit's phase list, from its stored phase records: what the live list ended as
/// (a cancelled audit is never kept). The reverse check is listed only when it has a record.
/// Without stored records (an older or edited run) there is no list: nothing is guessed.
pub fn from_stored(report: &ReportShown) -> Vec<(Phase, PhaseView)> {
    if report.phases.is_empty() {
        return Vec::new();
    }
    let mut phases = initial_phases(report.phases.iter().any(|p| p.phase == Phase::ReverseCheck));
    for (phase, view) in phases.iter_mut() {
        if let Some(p) = report.phases.iter().find(|p| p.phase == *phase) {
            *view = match &p.error {
                Some(e) => PhaseView::Failed(e.clone()),
                None => PhaseView::Done {
                    latency_ms: p.latency_ms as u64,
                    tokens: p.tokens as u64,
                },
            };
        }
    }
    settle(&mut phases, false);
    phases
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::audit::shown::PhaseRow;

    #[test]
    fn an_audit_needs_both_texts() {
        let input = |c: &str, o: &str| AuditInput {
            context_input: c.into(),
            model_output: o.into(),
        };
        assert!(not_ready(&input(" ", "out")).is_some());
        assert!(not_ready(&input("ctx", "\n")).is_some());
        assert_eq!(not_ready(&input("ctx", "out")), None);
        let big = "x".repeat(crate::audit::limits::MAX_CONTEXT_BYTES + 1);
        let why = not_ready(&input(&big, "out")).unwrap();
        assert!(
            why.contains("context_input is 1048577 bytes, over the limit of 1048576 bytes"),
            "{why}"
        );
    }

    #[test]
    fn a_profile_settings_no_longer_has_falls_back_to_the_first() {
        let known = vec!["a".to_string(), "b".to_string()];
        assert_eq!(profile_to_pick("b", &known), "b");
        assert_eq!(profile_to_pick("gone", &known), "a");
        assert_eq!(profile_to_pick("gone", &[]), "");
    }

    fn update(phase: Phase, status: PhaseStatus) -> PhaseUpdate {
        PhaseUpdate { phase, status }
    }

    #[test]
    fn live_updates_keep_the_start_and_settle_at_the_end() {
        let mut p = initial_phases(false);
        apply_update(
            &mut p,
            &update(Phase::Decompose, PhaseStatus::Started),
            100.0,
        );
        let reask = PhaseStatus::Reasking {
            parse_error: "bad".into(),
        };
        apply_update(&mut p, &update(Phase::Decompose, reask), 900.0);
        assert_eq!(p[0].1, PhaseView::Reasking("bad".into(), 100.0));
        assert_eq!(phase_chip(&p[0].1, 1600.0).0, "asking again (1.5 s): bad");
        apply_update(
            &mut p,
            &update(Phase::FactCheck, PhaseStatus::Started),
            2000.0,
        );
        let mut cancelled = p.clone();
        settle(&mut cancelled, true);
        assert_eq!(cancelled[1].1, PhaseView::Cancelled);
        assert_eq!(cancelled[2].1, PhaseView::NotRun);
        let failed = PhaseStatus::Failed {
            reason: "HTTP 500".into(),
        };
        apply_update(&mut p, &update(Phase::FactCheck, failed), 2100.0);
        settle(&mut p, false);
        assert_eq!(
            phase_chip(&p[1].1, 0.0),
            ("failed: HTTP 500".into(), "chip band-BAD")
        );
        assert_eq!(phase_chip(&p[2].1, 0.0).0, "not run");
        assert_eq!(initial_phases(true).len(), 4);
    }

    fn row(phase: Phase, error: Option<&str>) -> PhaseRow {
        PhaseRow {
            phase,
            llm: "m".into(),
            calls: 1,
            latency_ms: 12,
            tokens: 34,
            tokens_per_s: String::new(),
            reasked: false,
            cut: String::new(),
            repairs: String::new(),
            error: error.map(str::to_string),
        }
    }

    #[test]
    fn a_kept_audit_lists_its_stored_phases_as_they_ended() {
        let report = ReportShown {
            phases: vec![
                row(Phase::Decompose, None),
                row(Phase::FactCheck, Some("HTTP 500")),
            ],
            ..ReportShown::default()
        };
        let p = from_stored(&report);
        assert_eq!(p.len(), 3);
        assert_eq!(phase_chip(&p[0].1, 0.0).0, "done · 12 ms · 34 tokens");
        assert_eq!(p[1].1, PhaseView::Failed("HTTP 500".into()));
        assert_eq!(p[2].1, PhaseView::NotRun);
        let mut with_reverse = report.clone();
        with_reverse.phases.push(row(Phase::ReverseCheck, None));
        assert_eq!(from_stored(&with_reverse)[3].0, Phase::ReverseCheck);
        assert!(from_stored(&ReportShown::default()).is_empty());
    }
}
