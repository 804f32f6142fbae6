use std::rc::Rc;
use std::time::Duration;

use futures::future::{AbortHandle, Abortable};
use leptos::prelude::*;

use crate::ui::options::options;

use crate::ui::boxed::{on_change, on_click};
use leptos::task::spawn_local;

use crate::audit::batch::CaseSet;
use crate::audit::contract::Severity;
use crate::audit::highlight::highlight;
use crate::audit::report::Counting;
use crate::audit::{
    run_audit, AuditInput, AuditPlan, AuditReport, FailureKind, Finding, Phase, PhaseStatus,
    PhaseUpdate,
};
use crate::llm::ChatTransport;
use crate::ui::audit_run::{self, KeptNote, KeptReport};
use crate::ui::batch_runner::BatchRunner;
use crate::ui::browser_file::fetch_example;
use crate::ui::download::download_text;
use crate::ui::drafts_store::draft_signal;
use crate::ui::number_check::NumberCheck;
use crate::ui::settings_store::settings_store;
use crate::ui::text_field::TextField;

/// The example cases (Chinese and English) in `public/examples/`, for "Load an example".
const EXAMPLE_CASES: &str = "cases.jsonl";

/// The browser transport of the LLM client (retries, timeouts, CORS explanations).
fn transport() -> Result<Rc<dyn ChatTransport>, String> {
    Ok(Rc::new(crate::llm::RetryingClient::new(
        crate::llm::browser::BrowserTransport::new(crate::llm::CALL_TIMEOUT_MS),
        crate::llm::RetryPolicy::default(),
    )))
}

#[derive(Debug, Clone, PartialEq)]
enum PhaseView {
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

/// After the audit ended: phases still waiting did not run; a phase still running (or
/// re-asking) was cancelled.
fn settle(phases: &mut [(Phase, PhaseView)], cancelled: bool) {
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

/// What the page shows of the current audit: its phases, then its report.
#[derive(Clone, Default)]
struct Shown {
    phases: Vec<(Phase, PhaseView)>,
    report: Option<AuditReport>,
}

fn initial_phases(reverse: bool) -> Vec<(Phase, PhaseView)> {
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

/// Whole milliseconds since the page loaded (the browser's monotonic clock).
fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now().floor())
        .unwrap_or(0.0)
}

fn apply_update(phases: &mut [(Phase, PhaseView)], u: &PhaseUpdate) {
    if let Some((_, view)) = phases.iter_mut().find(|(p, _)| *p == u.phase) {
        let since = match view {
            PhaseView::Running(t) | PhaseView::Reasking(_, t) => *t,
            _ => now_ms(),
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

fn phase_chip(view: &PhaseView, now: f64) -> (String, &'static str) {
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

/// Paste a context and a model output, pick a profile, and get a VerifyFast audit.
#[component]
pub fn AuditPage() -> impl IntoView {
    let store = settings_store();
    let context = draft_signal("audit", "context", String::new);
    let output = draft_signal("audit", "output", String::new);
    let first_profile = store
        .settings
        .with_untracked(|s| s.profiles.keys().next().cloned().unwrap_or_default());
    let profile = draft_signal("audit", "profile", || first_profile.clone());
    // A kept profile that Settings no longer has falls back to the first one.
    if !store.profile_names().contains(&profile.get_untracked()) {
        profile.set(first_profile);
    }
    let running = RwSignal::new(false);
    // The phases and the report in one signal: each signal type costs its own copy of the
    // reactive code in the wasm.
    let shown = RwSignal::new(Shown::default());
    let error = RwSignal::new(None::<String>);
    // A could-not-audit: its cause and what to do, shown first.
    // (Its cause and its fix in two signals of types other pages use too: each signal type
    // costs its own copy of the reactive code in the wasm.)
    let failure = RwSignal::new(None::<String>);
    let failure_fix = RwSignal::new(String::new());
    let notice = RwSignal::new(None::<String>);
    let abort = StoredValue::new(None::<AbortHandle>);
    // Signal types other components use too (each type costs its own reactive code):
    // (kept, run id or why not), and an opened kept run's summary and report JSON.
    let kept = RwSignal::new(None::<(bool, String)>);
    let shown_run = RwSignal::new(None::<String>);
    let shown_json = RwSignal::new(String::new());
    // The live elapsed timer: `now` ticks while an audit runs.
    // Whole milliseconds in a `usize` (a signal type other pages use too).
    let now = RwSignal::new(0usize);
    let ticker = StoredValue::new_local(None::<IntervalHandle>);
    let stop_ticker = move || {
        if let Some(h) = ticker.get_value() {
            h.clear();
        }
        ticker.set_value(None);
    };
    on_cleanup(stop_ticker);

    let profile_names = {
        let store = store.clone();
        move || store.profile_names()
    };

    let start = {
        let store = store.clone();
        move |_: ()| {
            error.set(None);
            failure.set(None);
            notice.set(None);
            shown.update(|s| s.report = None);
            kept.set(None);
            shown_run.set(None);
            // A new audit is no longer the kept run the URL names.
            crate::ui::query::set(&Default::default(), false);
            let input = AuditInput {
                context_input: context.get_untracked(),
                model_output: output.get_untracked(),
            };
            if input.context_input.trim().is_empty() || input.model_output.trim().is_empty() {
                error.set(Some(
                    "Paste both the context (source material) and the model output to audit."
                        .into(),
                ));
                return;
            }
            let plan = match AuditPlan::from_settings(
                &store.settings.get_untracked(),
                &store.strategy.get_untracked(),
                &profile.get_untracked(),
                &|_| None,
            ) {
                Ok(plan) => plan,
                Err(e) => {
                    error.set(Some(format!(
                        "{e}. Check the profile on the Settings page."
                    )));
                    return;
                }
            };
            let transport = match transport() {
                Ok(t) => t,
                Err(e) => {
                    error.set(Some(e));
                    return;
                }
            };
            shown.update(|s| s.phases = initial_phases(plan.params.reverse_verify));
            let (handle, registration) = AbortHandle::new_pair();
            abort.set_value(Some(handle));
            running.set(true);
            stop_ticker();
            now.set(now_ms() as usize);
            let tick = set_interval_with_handle(
                move || now.set(now_ms() as usize),
                Duration::from_millis(100),
            );
            ticker.set_value(tick.ok());
            let (settings, strategy) = (
                store.settings.get_untracked(),
                store.strategy.get_untracked(),
            );
            let (started, chosen) = (js_sys::Date::now(), profile.get_untracked());
            spawn_local(async move {
                let progress = |u: PhaseUpdate| shown.update(|s| apply_update(&mut s.phases, &u));
                let audit = run_audit(&*transport, &plan, &input, &progress);
                match Abortable::new(audit, registration).await {
                    Ok(r) => {
                        let cancelled = r
                            .could_not_audit
                            .as_ref()
                            .is_some_and(|c| c.kind == FailureKind::Cancelled);
                        shown.update(|s| settle(&mut s.phases, cancelled));
                        match &r.could_not_audit {
                            Some(_) if cancelled => notice.set(Some("Audit cancelled.".into())),
                            Some(cna) => {
                                failure_fix.set(cna.kind.fix().to_string());
                                failure.set(Some(cna.to_string()));
                            }
                            None => {}
                        }
                        if !cancelled {
                            let (c, o) = (input.context_input.clone(), input.model_output.clone());
                            audit_run::keep(c, o, chosen, &settings, &strategy, &r, started, kept);
                        }
                        shown.update(|s| s.report = Some(r));
                    }
                    Err(_) => {
                        shown.update(|s| settle(&mut s.phases, true));
                        notice.set(Some("Audit cancelled.".into()));
                    }
                }
                abort.set_value(None);
                stop_ticker();
                running.set(false);
            });
        }
    };
    // Report's "Open in Audit" filled the drafts and asked for one run (in session storage,
    // set by that click only: a URL alone never starts LLM calls).
    if crate::ui::report::open_in_audit::take_run_once() {
        let start = start.clone();
        request_animation_frame(move || start(()));
    }
    let cancel = move |_| {
        if let Some(h) = abort.get_value() {
            h.abort();
        }
    };
    // Leaving the page stops its LLM calls (dropping the future aborts their fetches).
    on_cleanup(move || {
        if let Some(Some(h)) = abort.try_get_value() {
            h.abort();
        }
    });
    // `audit?run=<id>` (Open on the Runs page) shows a kept audit.
    if let Some(id) = crate::ui::query::current().run {
        spawn_local(async move {
            match audit_run::open(&id).await {
                Ok(k) => {
                    context.set(k.context.clone());
                    output.set(k.output.clone());
                    let (summary, json) = k.shown();
                    shown_json.set(json);
                    shown_run.set(Some(summary));
                }
                Err(e) => error.set(Some(e)),
            }
        });
    }
    // A plain cell (each `StoredValue` type costs its own copy of the reactive code).
    let example = Rc::new(std::cell::Cell::new(0usize));
    let load_example = move |_| {
        let example = example.clone();
        spawn_local(async move {
            let text = match fetch_example(EXAMPLE_CASES).await {
                Ok(text) => text,
                Err(e) => return error.set(Some(e)),
            };
            let set = CaseSet::from_text(&text);
            let i = example.get();
            if let Some(case) = set.cases.get(i % set.cases.len().max(1)) {
                context.set(case.input.context_input.clone());
                output.set(case.input.model_output.clone());
            }
            example.set(i + 1);
        });
    };

    view! {
        <section data-testid="page-audit">
            <h1>"Quick audit"</h1>
            <p class="lead">
                "Paste a context and a model output, pick a profile, and get a VerifyFast audit: claims, factual and logic errors with evidence, and a deterministic 1-5 credit score."
            </p>
            <div class="grid">
                <TextField label="Context (source material)" testid="audit-context" value=context rows=8/>
                <TextField label="Model output (text under audit)" testid="audit-output" value=output rows=8/>
            </div>
            <div class="row">
                <label>
                    "Profile "
                    <select
                        data-testid="audit-profile"
                        prop:value=move || profile.get()
                        on:change=on_change(move |ev| profile.set(event_target_value(&ev)))
                    >
                        {move || options(profile_names())}
                    </select>
                </label>
                <button
                    class="primary"
                    data-testid="audit-run"
                    disabled=move || running.get()
                    on:click={
                        let start = start.clone();
                        move |_| start(())
                    }
                >
                    "Run audit"
                </button>
                <button data-testid="audit-cancel" disabled=move || !running.get() on:click=on_click(cancel)>
                    "Cancel"
                </button>
                <button data-testid="audit-example" on:click=on_click(load_example)>"Load an example"</button>
            </div>
            {move || error.get().map(|e| view! {
                <div class="error row" role="alert" data-testid="audit-error">
                    <span>{e}</span>
                    <button on:click=on_click(move |_| error.set(None))>"Dismiss"</button>
                </div>
            }.into_any())}
            {move || failure.get().map(|cause| view! {
                <div class="error stack" role="alert" data-testid="audit-error">
                    <strong data-testid="audit-failure-cause">{cause}</strong>
                    <span data-testid="audit-failure-fix">{format!("What to do: {}", failure_fix.get_untracked())}</span>
                    <div><button on:click=on_click(move |_| failure.set(None))>"Dismiss"</button></div>
                </div>
            }.into_any())}
            {move || notice.get().map(|n| view! {
                <div class="notice row" role="status" data-testid="audit-notice">
                    <span>{n}</span>
                    <button on:click=on_click(move |_| notice.set(None))>"Dismiss"</button>
                </div>
            }.into_any())}
            {move || (!shown.with(|s| s.phases.is_empty())).then(|| view! {
                <ol class="stack" data-testid="audit-phases">
                    {move || {
                        shown
                            .with(|s| s.phases.clone())
                            .into_iter()
                            .map(|(phase, view)| {
                                let (text, class) = phase_chip(&view, now.get() as f64);
                                view! {
                                    <li>
                                        <strong>{phase.label()}</strong>
                                        " "
                                        <span class=class>{text}</span>
                                    </li>
                                }
                                .into_any()
                            })
                            .collect_view()
                    }}
                </ol>
            }.into_any())}
            {move || {
                shown
                    .with(|s| s.report.clone())
                    .map(|r| view! { <ReportView report=r context=context.get_untracked() output=output.get_untracked()/> }.into_any())
            }}
            <KeptNote kept=kept/>
            {move || {
                shown_run
                    .get()
                    .map(|s| view! { <KeptReport summary=s json=shown_json.get_untracked()/> }.into_any())
            }}
            <BatchRunner transport=transport/>
        </section>
    }
}

/// Generated tokens per second of wall time, or empty when unknown.
fn tokens_per_s(tokens: u64, ms: u64) -> String {
    if tokens == 0 || ms == 0 {
        return String::new();
    }
    format!("{:.1}", tokens as f64 * 1000.0 / ms as f64)
}

fn finding_view(f: &Finding, claims: &AuditReport) -> AnyView {
    let severity = match f.severity {
        Severity::High => "High",
        Severity::Low => "Low",
    };
    let target_text = claims
        .claims
        .iter()
        .find(|c| c.id == f.target)
        .map(|c| c.text.clone())
        .or_else(|| {
            claims
                .deductions
                .iter()
                .find(|d| d.id == f.target)
                .map(|d| d.conclusion.clone())
        })
        .unwrap_or_default();
    let note = match f.counting {
        Counting::Counted => String::new(),
        Counting::Duplicate { .. } => " (same target as another error: counted once)".into(),
        Counting::OverCap => " (over the per-phase cap: not counted)".into(),
    };
    let kind = format!("{:?}", f.error_type).to_ascii_lowercase();
    let evidence = (!f.evidence.is_empty()).then(|| f.evidence.clone());
    view! {
        <li class="stack" data-testid="audit-finding">
            <div class="row">
                <span class=format!("chip sev-{severity}")>{severity}</span>
                <span class="chip">{kind}</span>
                <strong>{f.target.clone()}</strong>
                <span class="muted">{target_text}</span>
                <span class="muted">{note}</span>
            </div>
            <div>{f.explanation.clone()}</div>
            {evidence.map(|e| view! { <blockquote><mark>{e}</mark></blockquote> }.into_any())}
        </li>
    }
    .into_any()
}

fn marked_text(text: &str, needles: &[&str]) -> impl IntoView {
    highlight(text, needles)
        .into_iter()
        .map(|s| {
            if s.marked {
                view! { <mark>{s.text}</mark> }.into_any()
            } else {
                view! { <span>{s.text}</span> }.into_any()
            }
        })
        .collect_view()
}

#[component]
fn ReportView(report: AuditReport, context: String, output: String) -> impl IntoView {
    let json = serde_json::to_string_pretty(&report).unwrap_or_default();
    let show_raw = RwSignal::new(false);
    let copied = RwSignal::new(None::<String>);
    let band = report.band.map(|b| b.as_str()).unwrap_or("none");
    let score = report.credit_score.map(|s| s.to_string());
    let evidence: Vec<&str> = report.errors.iter().map(|f| f.evidence.as_str()).collect();
    let context_view = marked_text(&context, &evidence);
    let output_view = marked_text(&output, &evidence);
    let group = |phase: Phase| {
        let items: Vec<_> = report
            .errors
            .iter()
            .filter(|f| f.phase == phase)
            .map(|f| finding_view(f, &report))
            .collect();
        // "No errors reported" only for a phase that ran and answered.
        let status = match report.phase(phase) {
            None => Some("Not run: the audit stopped before this phase.".to_string()),
            Some(p) => p.error.as_ref().map(|e| format!("Failed: {e}")),
        };
        let body = match (status, items.is_empty()) {
            (Some(s), true) => {
                view! { <p class="muted" data-testid="audit-phase-status">{s}</p> }.into_any()
            }
            (Some(s), false) => view! {
                <p class="muted" data-testid="audit-phase-status">{s}</p>
                <ul class="stack">{items}</ul>
            }
            .into_any(),
            (None, true) => view! { <p class="muted">"No errors reported."</p> }.into_any(),
            (None, false) => view! { <ul class="stack">{items}</ul> }.into_any(),
        };
        view! {
            <section class="card">
                <h3>{phase.label()}</h3>
                {body}
            </section>
        }
    };
    let facts = group(Phase::FactCheck);
    let logic = group(Phase::LogicCheck);
    let exempted = report
        .reasonable_inferences
        .iter()
        .map(|e| {
            view! { <li><strong>{e.target.clone()}</strong>" "{e.text.clone()}</li> }.into_any()
        })
        .collect_view();
    let changes = report
        .reverse_check
        .as_ref()
        .map(|c| {
            c.changes
                .iter()
                .map(|ch| {
                    let target = report
                        .errors
                        .get(ch.error)
                        .map(|f| f.target.clone())
                        .unwrap_or_default();
                    view! {
                        <li>{format!("{target}: {:?} → {:?}", ch.from, ch.to)}" "<span class="muted">{ch.reason.clone()}</span></li>
                    }
                    .into_any()
                })
                .collect_view()
        });
    let phase_rows = report
        .phases
        .iter()
        .map(|p| {
            let repairs = p
                .repairs
                .iter()
                .map(|r| r.label())
                .collect::<Vec<_>>()
                .join("; ");
            let cut = match p.truncated_replies {
                0 => String::new(),
                n => format!("{n} (max_tokens {})", p.max_tokens),
            };
            view! {
                <tr>
                    <td>{p.phase.label()}</td>
                    <td>{p.llm.clone()}</td>
                    <td class="num">{p.calls.to_string()}</td>
                    <td class="num">{p.latency_ms.to_string()}</td>
                    <td class="num">{p.tokens.total_tokens.to_string()}</td>
                    <td class="num">{tokens_per_s(p.tokens.completion_tokens, p.latency_ms)}</td>
                    <td>{if p.reasked { "yes" } else { "" }}</td>
                    <td data-testid="audit-phase-cut">{cut}</td>
                    <td data-testid="audit-phase-repairs">{repairs}</td>
                </tr>
            }
            .into_any()
        })
        .collect_view();
    let claims = report
        .claims
        .iter()
        .map(|c| view! { <li><strong>{c.id.clone()}</strong>" "{c.text.clone()}</li> }.into_any())
        .collect_view();
    let deductions = report
        .deductions
        .iter()
        .map(|d| {
            view! {
                <li>
                    <strong>{d.id.clone()}</strong>
                    " "
                    {d.premises.join(" · ")}
                    " ⇒ "
                    {d.conclusion.clone()}
                </li>
            }
            .into_any()
        })
        .collect_view();
    let json_for_copy = json.clone();
    let json_for_download = json.clone();
    let copy = move |_| {
        let Some(clipboard) = web_sys::window().map(|w| w.navigator().clipboard()) else {
            return;
        };
        let _ = clipboard.write_text(&json_for_copy);
        copied.set(Some("Copied.".into()));
    };
    let download = move |_| {
        if let Err(e) = download_text("audit-report.json", "application/json", &json_for_download) {
            copied.set(Some(e));
        }
    };
    view! {
        <section class="stack" data-testid="audit-report">
            <div class="row">
                {match score {
                    Some(score) => view! {
                        <div class=format!("badge band-{band}") data-testid="audit-score">{score}</div>
                        <span class=format!("chip band-{band}") data-testid="audit-band">{band}</span>
                    }
                    .into_any(),
                    None => view! {
                        <span class="chip band-BAD" data-testid="audit-unscored">"not scored: could not audit"</span>
                    }
                    .into_any(),
                }}
                <span class="muted">
                    {format!(
                        "{} High · {} Low · {} ms · {} tokens · run {} · verify {}",
                        report.high_count,
                        report.low_count,
                        report.latency_ms,
                        report.tokens.total_tokens,
                        report.models.run.model,
                        report.models.verify.model,
                    )}
                </span>
            </div>
            <div class="grid">
                <section class="card">
                    <h3>"Context"</h3>
                    <p class="prewrap">{context_view}</p>
                </section>
                <section class="card">
                    <h3>"Model output"</h3>
                    <p class="prewrap">{output_view}</p>
                </section>
            </div>
            {facts}
            <NumberCheck grounding=report.number_grounding.clone()/>
            {logic}
            <section class="card">
                <h3>"Reasonable inferences (not errors)"</h3>
                <ul>{exempted}</ul>
            </section>
            {changes.map(|c| view! { <section class="card"><h3>"Reverse check: severity changes"</h3><ul>{c}</ul></section> }.into_any())}
            <section class="card">
                <h3>"Claims and deductions (Phase 1)"</h3>
                <ul>{claims}</ul>
                <ul>{deductions}</ul>
            </section>
            <div class="table-wrap">
                <table>
                    <thead>
                        <tr><th>"Phase"</th><th>"LLM"</th><th>"Calls"</th><th>"ms"</th><th>"Tokens"</th><th>"Tokens/s"</th><th>"Re-asked"</th><th>"Cut off"</th><th>"Repairs of the reply"</th></tr>
                    </thead>
                    <tbody>{phase_rows}</tbody>
                </table>
            </div>
            <div class="row">
                <button on:click=on_click(move |_| show_raw.update(|v| *v = !*v))>
                    {move || String::from(if show_raw.get() { "Hide raw JSON" } else { "Show raw JSON" })}
                </button>
                <button on:click=on_click(copy)>"Copy JSON"</button>
                <button data-testid="audit-download" on:click=on_click(download)>"Download JSON"</button>
                <span class="muted">{move || copied.get().unwrap_or_default()}</span>
            </div>
            {move || show_raw.get().then(|| view! { <pre data-testid="audit-raw">{json.clone()}</pre> }.into_any())}
        </section>
    }
}
