//! Batch audits in the browser: upload a cases JSONL, pick profiles and concurrency, run
//! with a progress bar, cancel, and download the results JSONL. Results are kept in local
//! storage as they arrive, so a reload (or a cancel) resumes where the run stopped.

use std::rc::Rc;

use futures::future::{AbortHandle, Abortable};
use leptos::prelude::*;

use crate::ui::browser_file::now_ms;
use leptos::task::spawn_local;

use crate::audit::batch::{self, CaseSet, Progress};
use crate::audit::AuditPlan;
use crate::llm::ChatTransport;
use crate::sorted_map::SortedMap;
use crate::ui::download::download_text;
use crate::ui::settings_store::settings_store;

/// Local-storage key of the browser batch's results (JSONL text). The Report page can read
/// them with [`stored_results`] to show the band report of the last batch without a download.
pub const RESULTS_KEY: &str = "verifyfast.batch.results";

/// The Report page's run id for these results (`report?run=batch`).
pub const BATCH_RUN: &str = "batch";
const REPORT_LINK: &str = "report?run=batch";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The results lines of the browser batch kept in this browser (may be empty).
pub fn stored_results() -> Vec<String> {
    load_results()
}

fn load_results() -> Vec<String> {
    storage()
        .and_then(|s| s.get_item(RESULTS_KEY).ok().flatten())
        .map(|t| t.lines().map(str::to_string).collect())
        .unwrap_or_default()
}

/// Returns false when storage refused (quota): the results stay on the page only.
fn save_results(lines: &[String]) -> bool {
    storage()
        .map(|s| s.set_item(RESULTS_KEY, &lines.join("\n")).is_ok())
        .unwrap_or(false)
}

#[component]
pub fn BatchRunner(transport: fn() -> Result<Rc<dyn ChatTransport>, String>) -> impl IntoView {
    let store = settings_store();
    let cases = StoredValue::new_local(None::<Rc<CaseSet>>);
    let cases_summary = RwSignal::new(None::<String>);
    let chosen = RwSignal::new(Vec::<String>::new());
    let concurrency = RwSignal::new(4usize);
    let results = RwSignal::new(load_results());
    let progress = RwSignal::new(None::<Progress>);
    let running = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let notice = RwSignal::new(None::<String>);
    let abort = StoredValue::new(None::<AbortHandle>);

    let profile_names = {
        let store = store.clone();
        move || store.profile_names()
    };

    let upload = move |ev: web_sys::Event| {
        let Some(file) = crate::ui::browser_file::picked_file(&ev) else {
            return;
        };
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
                    cases.set_value(Some(Rc::new(set)));
                }
                Err(_) => error.set(Some(format!("could not read {}", file.name()))),
            }
        });
    };

    // `retry`: re-run only the pairs whose line says they could not be audited (the CLI's
    // `--retry-failed` selection, `batch::settled_pairs`), replacing those lines in place.
    let start = {
        let store = store.clone();
        move |retry: bool| {
            error.set(None);
            notice.set(None);
            let Some(set) = cases.get_value() else {
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
            let (handle, registration) = AbortHandle::new_pair();
            abort.set_value(Some(handle));
            running.set(true);
            let n = concurrency.get_untracked();
            spawn_local(async move {
                let mut kept = true;
                let mut on_result = |line: serde_json::Map<String, serde_json::Value>,
                                     p: &Progress| {
                    let text = crate::jsonl::compact(&serde_json::Value::Object(line));
                    results.update(|r| {
                        merge.add(r, text);
                    });
                    kept = results.with_untracked(|r| save_results(r)) && kept;
                    progress.set(Some(p.clone()));
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
                match Abortable::new(work, registration).await {
                    Ok(Ok(p)) => notice.set(Some(format!(
                        "Done: {} audited, {} could not be audited, {} already done.",
                        p.done, p.failures, p.skipped
                    ))),
                    Ok(Err(e)) => error.set(Some(e.to_string())),
                    Err(_) => notice.set(Some(
                        "Cancelled. Results so far are kept; Run again to resume.".into(),
                    )),
                }
                if !kept {
                    error.set(Some(
                        "The results are too large for this browser's storage: download them before leaving the page.".into(),
                    ));
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
    let failed = Memo::new(move |_| results.with(|r| batch::failed_count(r)));
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
    let download = move |_| {
        let mut parsed: Vec<serde_json::Value> = results
            .get_untracked()
            .iter()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        if let Some(set) = cases.get_value() {
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
                "Delete all {n} stored results, the good ones too? Retry failed redoes only the failed ones."
            ))
            .unwrap_or(false);
        if !sure {
            return;
        }
        results.set(Vec::new());
        save_results(&[]);
        progress.set(None);
        notice.set(Some("Results cleared.".into()));
    };

    view! {
        <section class="card stack" data-testid="batch">
            <h2>"Batch audit"</h2>
            <p class="muted">
                "Upload cases (JSONL: id, context_input, model_output, and optionally tag, difficulty, description, expected_credit_score). Each case is audited once per ticked profile. Results are kept in this browser as they arrive; running again resumes."
            </p>
            <input type="file" accept=".jsonl,.json,.txt" aria-label="Cases JSONL" data-testid="batch-upload" on:change=upload/>
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
                                        on:change=move |ev| {
                                            let on = event_target_checked(&ev);
                                            chosen.update(|c| {
                                                c.retain(|x| x != &name2);
                                                if on {
                                                    c.push(name2.clone());
                                                }
                                            })
                                        }
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
                        on:change=move |ev| {
                            let v = event_target_value(&ev).parse::<usize>().unwrap_or(4).clamp(1, 32);
                            concurrency.set(v)
                        }
                    />
                </label>
            </div>
            <div class="row">
                <button class="primary" data-testid="batch-run" disabled=move || running.get() on:click=run>
                    "Run batch"
                </button>
                <button data-testid="batch-cancel" disabled=move || !running.get() on:click=cancel>
                    "Cancel"
                </button>
                <button data-testid="batch-download" on:click=download>"Download results JSONL"</button>
                <button
                    data-testid="batch-retry"
                    disabled=move || running.get() || failed.get() == 0
                    on:click=retry
                >
                    {move || format!("Retry failed ({})", failed.get())}
                </button>
                <button data-testid="batch-clear" on:click=clear disabled=move || running.get()>"Clear results"</button>
                <a href=REPORT_LINK data-testid="batch-open-report">"Open the band report"</a>
                <span class="muted" data-testid="batch-count">
                    {move || format!("{} results stored", results.with(Vec::len))}
                </span>
            </div>
            {move || {
                progress
                    .get()
                    .map(|p| {
                        view! {
                            <div class="stack">
                                <progress
                                    data-testid="batch-progress"
                                    max=p.total.to_string()
                                    value=p.done.to_string()
                                ></progress>
                                <span data-testid="batch-progress-text">{p.summary()}</span>
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
