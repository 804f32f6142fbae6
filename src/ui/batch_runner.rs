//! Batch audits in the browser: upload a cases JSONL, pick profiles and concurrency, run
//! with a progress bar, cancel, and download the results JSONL. Results are kept as a run in
//! the run store (`batch_run`) as they arrive, so a reload (or a cancel) resumes where the
//! run stopped.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use futures::future::{AbortHandle, Abortable};
use leptos::prelude::*;

use crate::ui::boxed::{on_change, on_click};

use crate::ui::browser_file::now_ms;
use leptos::task::spawn_local;

use crate::audit::batch::{self, CaseSet, Progress};
use crate::audit::AuditPlan;
use crate::llm::ChatTransport;
use crate::sorted_map::SortedMap;
use crate::ui::batch_run;
use crate::ui::download::download_text;
use crate::ui::run_store;
use crate::ui::settings_store::settings_store;

/// The Report page's id for the latest batch run (`report?run=batch`, links from before
/// runs had ids).
pub const BATCH_RUN: &str = "batch";

fn not_kept(e: &crate::runs::StoreError) -> String {
    format!("This run could not be kept: {e}. Its results stay on this page: download them before leaving.")
}

/// Report's link to this batch's run (`report?run=<id>`); before any run, the latest batch.
fn report_link(id: Option<String>) -> String {
    crate::route::state::ViewState {
        run: Some(id.unwrap_or_else(|| BATCH_RUN.into())),
        ..Default::default()
    }
    .href("report")
}

#[component]
pub fn BatchRunner(transport: fn() -> Result<Rc<dyn ChatTransport>, String>) -> impl IntoView {
    let store = settings_store();
    // What only the handlers share lives in plain `Rc` cells rather than `StoredValue`s:
    // each `StoredValue` type costs its own copy of the reactive code in the wasm.
    let cases: Rc<RefCell<Option<Rc<CaseSet>>>> = Rc::default();
    let cases_summary = RwSignal::new(None::<String>);
    let chosen = RwSignal::new(Vec::<String>::new());
    let concurrency = RwSignal::new(4usize);
    let results = RwSignal::new(Vec::<String>::new());
    // The batch run the results belong to (`None` until the first run, or after Clear).
    let run_meta: Rc<RefCell<Option<crate::runs::RunMeta>>> = Rc::default();
    let run_id = RwSignal::new(None::<String>);
    let case_file: Rc<RefCell<String>> = Rc::default();
    // The progress line, and the bar's done and total: signal types other components use
    // too (each signal type costs its own copy of the reactive code in the wasm).
    let progress = RwSignal::new(None::<String>);
    let (done_count, total_count) = (RwSignal::new(0usize), RwSignal::new(0usize));
    let running = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let notice = RwSignal::new(None::<String>);
    let abort = StoredValue::new(None::<AbortHandle>);

    let profile_names = {
        let store = store.clone();
        move || store.profile_names()
    };
    let resumed = run_meta.clone();
    spawn_local(async move {
        match batch_run::resume().await {
            Ok(Some((meta, lines))) => {
                run_id.set(Some(meta.id.clone()));
                *resumed.borrow_mut() = Some(meta);
                results.set(lines);
            }
            Ok(None) => {}
            Err(e) => error.set(Some(e.to_string())),
        }
    });

    let upload = {
        let (cases, case_file) = (cases.clone(), case_file.clone());
        move |ev: web_sys::Event| {
            let Some(file) = crate::ui::browser_file::picked_file(&ev) else {
                return;
            };
            let (cases, case_file) = (cases.clone(), case_file.clone());
            spawn_local(async move {
                match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                    Ok(text) => {
                        let set = CaseSet::from_text(&text.as_string().unwrap_or_default());
                        let mut summary = format!("{}: {} cases", file.name(), set.cases.len());
                        if !set.bad_lines.is_empty() {
                            let listed: Vec<String> = set
                                .bad_lines
                                .iter()
                                .take(5)
                                .map(|(n, why)| format!("line {n}: {why}"))
                                .collect();
                            summary.push_str(&format!(
                                ", {} bad lines skipped ({})",
                                set.bad_lines.len(),
                                listed.join("; ")
                            ));
                        }
                        cases_summary.set(Some(summary));
                        *case_file.borrow_mut() = file.name();
                        *cases.borrow_mut() = Some(Rc::new(set));
                    }
                    Err(_) => error.set(Some(format!("could not read {}", file.name()))),
                }
            });
        }
    };

    // `retry`: re-run only the pairs whose line says they could not be audited (the CLI's
    // `--retry-failed` selection, `batch::settled_pairs`), replacing those lines in place.
    let start = {
        let store = store.clone();
        let (cases, run_meta, case_file) = (cases.clone(), run_meta.clone(), case_file.clone());
        move |retry: bool| {
            error.set(None);
            notice.set(None);
            let Some(set) = cases.borrow().clone() else {
                error.set(Some("Upload a cases JSONL first.".into()));
                return;
            };
            let profiles = chosen.get_untracked();
            if profiles.is_empty() {
                error.set(Some("Tick at least one profile.".into()));
                return;
            }
            let settings = store.settings.get_untracked();
            let strategy = store.strategy.get_untracked();
            let mut plans = SortedMap::new();
            for p in &profiles {
                match AuditPlan::from_settings(&settings, &strategy, p, &|_| None) {
                    Ok(plan) => {
                        plans.insert(p.clone(), plan);
                    }
                    Err(e) => {
                        error.set(Some(format!("{e}. Check Settings.")));
                        return;
                    }
                }
            }
            let transport = match transport() {
                Ok(t) => t,
                Err(e) => {
                    error.set(Some(e));
                    return;
                }
            };
            let done = results.with_untracked(|r| {
                let lines: Vec<batch::StoredLine> =
                    r.iter().map(|l| batch::StoredLine::read(l)).collect();
                batch::settled_pairs(&lines, retry)
            });
            let (jobs, skipped) = batch::plan_jobs(&set.cases, &profiles, &done);
            if jobs.is_empty() {
                let failed = results.with_untracked(|r| batch::failed_count(r));
                notice.set(Some(if retry {
                    "No (case, profile) pair of these cases and profiles failed.".into()
                } else if failed > 0 {
                    format!("All {skipped} (case, profile) pairs are already in the results; {failed} could not be audited: use Retry failed.")
                } else {
                    format!("All {skipped} (case, profile) pairs are already in the results.")
                }));
                return;
            }
            let mut merge = results.with_untracked(|r| batch::LiveMerge::new(r));
            let case_count = set.cases.len();
            let (handle, registration) = AbortHandle::new_pair();
            abort.set_value(Some(handle));
            running.set(true);
            let n = concurrency.get_untracked();
            // Read before any await: no `RefCell` borrow is held across one.
            let (previous, file) = (run_meta.borrow().clone(), case_file.borrow().clone());
            let run_meta = run_meta.clone();
            spawn_local(async move {
                let mut meta =
                    batch_run::begin(previous, &file, case_count, &profiles, &settings, &strategy)
                        .await;
                run_id.set(Some(meta.id.clone()));
                *run_meta.borrow_mut() = Some(meta.clone());
                // Saves go out as results arrive, at most every SAVE_EVERY_MS; a failure is
                // shown at once (the results stay on the page either way).
                let save_failed = Rc::new(Cell::new(false));
                let mut last_save = now_ms();
                let mut on_result = |line: serde_json::Map<String, serde_json::Value>,
                                     p: &Progress| {
                    let text = crate::jsonl::compact(&serde_json::Value::Object(line));
                    results.update(|r| {
                        merge.add(r, text);
                    });
                    if now_ms() - last_save > batch_run::SAVE_EVERY_MS {
                        last_save = now_ms();
                        let lines = results.get_untracked();
                        let mut m = meta.clone();
                        let save_failed = save_failed.clone();
                        spawn_local(async move {
                            if let Err(e) = batch_run::persist(&mut m, &lines, false, false).await {
                                save_failed.set(true);
                                error.set(Some(not_kept(&e)));
                            }
                        });
                    }
                    done_count.set(p.done);
                    total_count.set(p.total);
                    progress.set(Some(p.summary()));
                };
                let work = batch::run_batch(
                    &*transport,
                    &plans,
                    jobs,
                    skipped,
                    n,
                    &now_ms,
                    &mut on_result,
                );
                let outcome = Abortable::new(work, registration).await;
                let ended = matches!(outcome, Ok(Ok(_)));
                // Saved before the outcome is shown, so "Done" means kept (or says why not).
                let lines = results.get_untracked();
                let saved = batch_run::persist(&mut meta, &lines, true, ended).await;
                *run_meta.borrow_mut() = Some(meta);
                match outcome {
                    Ok(Ok(p)) => notice.set(Some(format!(
                        "Done: {} audited, {} could not be audited, {} already done.",
                        p.done, p.failures, p.skipped
                    ))),
                    Ok(Err(e)) => error.set(Some(e.to_string())),
                    Err(_) => notice.set(Some(
                        "Cancelled. Results so far are kept; Run again to resume.".into(),
                    )),
                }
                match saved {
                    Err(e) => error.set(Some(not_kept(&e))),
                    Ok(()) if save_failed.get() => error.set(None),
                    Ok(()) => {}
                }
                abort.set_value(None);
                running.set(false);
            });
        }
    };
    let run = {
        let start = start.clone();
        move |_| start(false)
    };
    let retry = move |_| start(true);
    // A plain derived value, not a `Memo`: each `Memo` costs its own copy of the memo code.
    let failed = move || results.with(|r| batch::failed_count(r));
    let cancel = move |_| {
        if let Some(h) = abort.get_value() {
            h.abort();
        }
    };
    // Leaving the page stops the batch's LLM calls; what arrived is kept, Run resumes.
    on_cleanup(move || {
        if let Some(Some(h)) = abort.try_get_value() {
            h.abort();
        }
    });
    // A fresh run: the current one stays kept (Runs page), the next Run batch starts empty.
    let new_run = {
        let run_meta = run_meta.clone();
        move |_| {
            results.set(Vec::new());
            progress.set(None);
            run_id.set(None);
            *run_meta.borrow_mut() = None;
            notice.set(Some(
                "New run: the previous one is kept on the Runs page.".into(),
            ));
        }
    };
    let download = move |_| {
        let cases = cases.borrow().clone();
        let mut parsed: Vec<serde_json::Value> = results
            .get_untracked()
            .iter()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        if let Some(set) = cases {
            batch::sort_results(&mut parsed, &set.cases, &chosen.get_untracked());
        }
        let text: String = parsed
            .iter()
            .map(|v| crate::jsonl::compact(v) + "\n")
            .collect();
        if let Err(e) = download_text("results.jsonl", "application/x-ndjson", &text) {
            error.set(Some(e));
        }
    };
    let clear = move |_| {
        let n = results.with_untracked(Vec::len);
        let sure = window()
            .confirm_with_message(&format!(
                "Delete this batch run and all {n} of its results, the good ones too? Retry failed redoes only the failed ones; New run keeps this one on the Runs page."
            ))
            .unwrap_or(false);
        if !sure {
            return;
        }
        results.set(Vec::new());
        progress.set(None);
        let id = run_id.get_untracked();
        run_id.set(None);
        *run_meta.borrow_mut() = None;
        spawn_local(async move {
            let deleted = match id {
                Some(id) => run_store::delete(&id).await,
                None => Ok(()),
            };
            match deleted {
                Ok(()) => notice.set(Some("Results cleared: the run is deleted.".into())),
                Err(e) => error.set(Some(format!("Could not delete the run: {e}"))),
            }
        });
    };

    view! {
        <section class="card stack" data-testid="batch">
            <h2>"Batch audit"</h2>
            <p class="muted">
                "Upload cases (JSONL: id, context_input, model_output, and optionally tag, difficulty, description, expected_credit_score). Each case is audited once per ticked profile. Results are kept in this browser as a run (see Runs) as they arrive; running again resumes."
            </p>
            <input type="file" accept=".jsonl,.json,.txt" aria-label="Cases JSONL" data-testid="batch-upload" on:change=on_change(upload)/>
            {move || cases_summary.get().map(|s| view! { <p data-testid="batch-cases">{s}</p> }.into_any())}
            <div class="row">
                {move || {
                    profile_names()
                        .into_iter()
                        .map(|p| {
                            let name = p.clone();
                            let name2 = p.clone();
                            view! {
                                <label>
                                    <input
                                        type="checkbox"
                                        data-testid="batch-profile"
                                        value=p.clone()
                                        prop:checked=move || chosen.with(|c| c.contains(&name))
                                        on:change=on_change(move |ev| {
                                            let on = event_target_checked(&ev);
                                            chosen.update(|c| {
                                                c.retain(|x| x != &name2);
                                                if on {
                                                    c.push(name2.clone());
                                                }
                                            })
                                        })
                                    />
                                    " "
                                    {p}
                                </label>
                            }
                            .into_any()
                        })
                        .collect_view()
                }}
                <label>
                    "Concurrency "
                    <input
                        type="number"
                        min="1"
                        max="32"
                        data-testid="batch-concurrency"
                        prop:value=move || concurrency.get().to_string()
                        on:change=on_change(move |ev| {
                            let v = event_target_value(&ev).parse::<usize>().unwrap_or(4).clamp(1, 32);
                            concurrency.set(v)
                        })
                    />
                </label>
            </div>
            <div class="row">
                <button class="primary" data-testid="batch-run" disabled=move || running.get() on:click=on_click(run)>
                    "Run batch"
                </button>
                <button data-testid="batch-cancel" disabled=move || !running.get() on:click=on_click(cancel)>
                    "Cancel"
                </button>
                <button data-testid="batch-download" on:click=on_click(download)>"Download results JSONL"</button>
                <button
                    data-testid="batch-retry"
                    disabled=move || running.get() || failed() == 0
                    on:click=on_click(retry)
                >
                    {move || format!("Retry failed ({})", failed())}
                </button>
                <button data-testid="batch-clear" on:click=on_click(clear) disabled=move || running.get()>"Clear results"</button>
                <button data-testid="batch-new-run" on:click=on_click(new_run) disabled=move || running.get()>"New run"</button>
                <a href=move || report_link(run_id.get()) data-testid="batch-open-report">"Open the band report"</a>
                <span class="muted" data-testid="batch-count">
                    {move || format!("{} results stored", results.with(Vec::len))}
                </span>
            </div>
            {move || {
                progress
                    .get()
                    .map(|summary| {
                        view! {
                            <div class="stack">
                                <progress
                                    data-testid="batch-progress"
                                    max=total_count.get().to_string()
                                    value=done_count.get().to_string()
                                ></progress>
                                <span data-testid="batch-progress-text">{summary}</span>
                            </div>
                        }
                        .into_any()
                    })
            }}
            {move || error.get().map(|e| view! { <div class="error" role="alert" data-testid="batch-error">{e}</div> }.into_any())}
            {move || notice.get().map(|n| view! { <div class="notice" data-testid="batch-notice">{n}</div> }.into_any())}
        </section>
    }
}
