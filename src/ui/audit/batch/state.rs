//! The batch panel's state: signals for what the page shows, and plain `Rc` cells for what
//! only the handlers share (each `StoredValue` type costs its own copy of the reactive code
//! in the wasm). One `Clone` struct, so each part of the panel takes what it needs.

use std::cell::RefCell;
use std::rc::Rc;

use futures::future::AbortHandle;
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::run;
use crate::audit::batch::CaseSet;
use crate::runs::RunMeta;

#[derive(Clone)]
pub struct BatchState {
    pub cases: Rc<RefCell<Option<Rc<CaseSet>>>>,
    /// The cases file's name, for the run's name and inputs.
    pub case_file: Rc<RefCell<String>>,
    /// The batch run the results belong to (`None` until the first run, or after Clear).
    pub run_meta: Rc<RefCell<Option<RunMeta>>>,
    pub cases_summary: RwSignal<Option<String>>,
    pub chosen: RwSignal<Vec<String>>,
    pub concurrency: RwSignal<usize>,
    pub results: RwSignal<Vec<String>>,
    pub run_id: RwSignal<Option<String>>,
    // The progress line, and the bar's done and total: signal types other components use
    // too (each signal type costs its own copy of the reactive code in the wasm).
    pub progress: RwSignal<Option<String>>,
    pub done_count: RwSignal<usize>,
    pub total_count: RwSignal<usize>,
    pub running: RwSignal<bool>,
    pub error: RwSignal<Option<String>>,
    pub notice: RwSignal<Option<String>>,
    pub abort: StoredValue<Option<AbortHandle>>,
}

impl BatchState {
    /// A fresh panel that resumes the latest batch run, if one is kept.
    pub fn resume() -> Self {
        let s = BatchState {
            cases: Rc::default(),
            case_file: Rc::default(),
            run_meta: Rc::default(),
            cases_summary: RwSignal::new(None),
            chosen: RwSignal::new(Vec::new()),
            concurrency: RwSignal::new(4),
            results: RwSignal::new(Vec::new()),
            run_id: RwSignal::new(None),
            progress: RwSignal::new(None),
            done_count: RwSignal::new(0),
            total_count: RwSignal::new(0),
            running: RwSignal::new(false),
            error: RwSignal::new(None),
            notice: RwSignal::new(None),
            abort: StoredValue::new(None),
        };
        s.restore_cases();
        let (resumed, run_id, results, error) = (s.run_meta.clone(), s.run_id, s.results, s.error);
        let (chosen, notice) = (s.chosen, s.notice);
        spawn_local(async move {
            match run::resume().await {
                Ok(Some((meta, lines))) => {
                    // The run keeps its ticks: the profiles it ran with that Settings still has.
                    let known = crate::ui::settings_store::settings_store().profile_names();
                    chosen.set(
                        meta.profiles
                            .iter()
                            .filter(|p| known.contains(p))
                            .cloned()
                            .collect(),
                    );
                    notice.set(crate::view::audit::batch_panel::stopped_note(&meta));
                    run_id.set(Some(meta.id.clone()));
                    *resumed.borrow_mut() = Some(meta);
                    results.set(lines);
                }
                Ok(None) => {}
                Err(e) => error.set(Some(e.to_string())),
            }
        });
        s
    }
}

/// Stop the batch's LLM calls; what arrived is kept, Run resumes. Takes only the handle's
/// cell, so it can run on cleanup (which needs `Send`; the panel's `Rc` cells are not).
pub fn cancel(abort: StoredValue<Option<AbortHandle>>) {
    if let Some(Some(h)) = abort.try_get_value() {
        h.abort();
    }
}

/// The message when a run could not be saved.
pub fn not_kept(e: &crate::runs::StoreError) -> String {
    format!("This run could not be kept: {e}. Its results stay on this page: download them before leaving.")
}
