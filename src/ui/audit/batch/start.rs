//! Run (or retry) the batch: plan the (case, profile) pairs still to do, audit them with the
//! chosen concurrency, merge each result into the page's lines as it arrives, and keep the
//! run in the run store (`run`) as it goes and at the end.

use std::cell::Cell;
use std::rc::Rc;

use futures::future::{AbortHandle, Abortable};
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::run;
use crate::audit::batch::{self, Progress};
use crate::llm::ChatTransport;
use crate::ui::browser_file::now_ms;
use crate::ui::settings_store::settings_store;
use crate::view::audit::batch_panel::done_summary;
use crate::view::audit::batch_panel::failed_profiles;
use crate::view::audit::batch_panel::nothing_to_run;
use crate::view::audit::batch_panel::plans_for;
use crate::view::audit::batch_panel::reports_not_kept;

use super::state::not_kept;
use super::state::BatchState;

impl BatchState {
    /// `retry`: re-run only the pairs whose line says they could not be audited (the CLI's
    /// `--retry-failed` selection, `batch::settled_pairs`), replacing those lines in place.
    pub fn start(&self, retry: bool, transport: fn() -> Result<Rc<dyn ChatTransport>, String>) {
        let s = self.clone();
        let (error, notice, results) = (s.error, s.notice, s.results);
        error.set(None);
        notice.set(None);
        let Some(set) = s.cases.borrow().clone() else {
            error.set(Some("Upload a cases JSONL first.".into()));
            return;
        };
        // Retry redoes the failed pairs with the profiles they were run with, whatever is
        // ticked now (the ticks may have changed since, or been lost to a reload).
        let profiles = if retry {
            results.with_untracked(|r| failed_profiles(r))
        } else {
            s.chosen.get_untracked()
        };
        if profiles.is_empty() {
            error.set(Some("Tick at least one profile.".into()));
            return;
        }
        let store = settings_store();
        let settings = store.settings.get_untracked();
        let strategy = store.strategy.get_untracked();
        let plans = match plans_for(&settings, &strategy, &profiles) {
            Ok(p) => p,
            Err(e) => return error.set(Some(e)),
        };
        let transport = match transport() {
            Ok(t) => t,
            Err(e) => return error.set(Some(e)),
        };
        let (done, failed_pairs) = results.with_untracked(|r| {
            let lines: Vec<batch::StoredLine> =
                r.iter().map(|l| batch::StoredLine::read(l)).collect();
            let done = batch::settled_pairs(&lines, retry);
            let scored = batch::settled_pairs(&lines, true);
            let failed: std::collections::HashSet<(String, String)> =
                done.difference(&scored).cloned().collect();
            (done, failed)
        });
        let (jobs, skipped) = batch::plan_jobs(&set.cases, &profiles, &done);
        // Pairs skipped only because an earlier line says they failed: not "already done".
        let failed_before = set
            .cases
            .iter()
            .flat_map(|c| profiles.iter().map(move |p| (c.key.clone(), p.clone())))
            .filter(|pair| failed_pairs.contains(pair))
            .count();
        if jobs.is_empty() {
            let failed = results.with_untracked(|r| batch::failed_count(r));
            notice.set(Some(nothing_to_run(retry, skipped, failed)));
            return;
        }
        let mut merge = results.with_untracked(|r| batch::LiveMerge::new(r));
        let case_count = set.cases.len();
        let (handle, registration) = AbortHandle::new_pair();
        s.abort.set_value(Some(handle));
        s.running.set(true);
        let n = s.concurrency.get_untracked();
        // Read before any await: no `RefCell` borrow is held across one.
        let (previous, file) = (s.run_meta.borrow().clone(), s.case_file.borrow().clone());
        spawn_local(async move {
            let mut meta =
                run::begin(previous, &file, case_count, &profiles, &settings, &strategy).await;
            s.run_id.set(Some(meta.id.clone()));
            *s.run_meta.borrow_mut() = Some(meta.clone());
            // Saves go out as results arrive, at most every SAVE_EVERY_MS; a failure is
            // shown at once (the results stay on the page either way).
            let save_failed = Rc::new(Cell::new(false));
            let mut last_save = now_ms();
            // Kept with the run, so a case opens like a single audit without new calls, up to
            // a budget that keeps the run savable (`batch::kept_line`).
            let mut kept_bytes: usize = results.with_untracked(|r| r.iter().map(String::len).sum());
            let reports_dropped = Rc::new(Cell::new(0usize));
            let mut on_result = |line: serde_json::Map<String, serde_json::Value>,
                                 report: &crate::audit::AuditReport,
                                 p: &Progress| {
                let (text, with_report) = batch::kept_line(line, report, &mut kept_bytes);
                if !with_report {
                    reports_dropped.set(reports_dropped.get() + 1);
                }
                results.update(|r| {
                    merge.add(r, text);
                });
                if now_ms() - last_save > run::SAVE_EVERY_MS {
                    last_save = now_ms();
                    let lines = results.get_untracked();
                    let mut m = meta.clone();
                    let save_failed = save_failed.clone();
                    spawn_local(async move {
                        if let Err(e) = run::persist(&mut m, &lines, false, false).await {
                            save_failed.set(true);
                            error.set(Some(not_kept(&e)));
                        }
                    });
                }
                s.done_count.set(p.done);
                s.total_count.set(p.total);
                s.progress.set(Some(p.summary()));
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
            let saved = run::persist(&mut meta, &lines, true, ended).await;
            *s.run_meta.borrow_mut() = Some(meta);
            match outcome {
                Ok(Ok(p)) => notice.set(Some(
                    done_summary(&p, retry, failed_before)
                        + &reports_not_kept(reports_dropped.get()),
                )),
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
            s.abort.set_value(None);
            s.running.set(false);
        });
    }
}
