//! A fallback run: the unsure lines go to the verify model through a few callers at once, each
//! answer merged into its row as it lands; the last caller to end closes the run.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

use futures::future::{AbortHandle, Abortable};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::extract::fallback_batch::{
    apply, concurrency, to_send, Applied, FallbackRun, ModelReply, Pending,
};
use crate::llm::answer_fallback::ask_final_answer;
use crate::llm::{ChatTransport, Endpoint};
use crate::ui::extract::verify_model::transport;
use crate::ui::extract::verify_model::verify_endpoint;

use super::BatchFallback;
use crate::extract::batch::GradeBatch;
use crate::runs::RunMeta;

/// The batch after the last answer, and when it was last written to the run.
type Latest = Rc<RefCell<(Option<Arc<GradeBatch>>, f64)>>;

/// Writes the batch into its kept run (same id: the run is replaced, never duplicated) when 2 s
/// have passed since the last write, or always at the end. A failed write is not retried: the
/// table keeps the answers and its downloads have them.
fn persist(latest: &Latest, kept: Option<&RunMeta>, end: bool) {
    let Some(mut meta) = kept.cloned() else {
        return;
    };
    let now = js_sys::Date::now();
    let batch = {
        let mut l = latest.borrow_mut();
        if !end && now - l.1 < 2000.0 {
            return;
        }
        l.1 = now;
        if end {
            l.0.take()
        } else {
            l.0.clone()
        }
    };
    let Some(b) = batch else {
        return;
    };
    let results = crate::view::extract::kept::to_kept_jsonl(&b);
    meta.outcome = Some(crate::ui::extract::grade_run::outcome_of(&b));
    spawn_local(async move {
        let _ = crate::ui::run_store::save(&meta, &results).await;
    });
}

impl BatchFallback {
    pub fn start(self) {
        if self.running.get_untracked() {
            return;
        }
        self.error.set(None);
        let Some(b) = self.batch.get_untracked() else {
            return;
        };
        let pending = self.pending.get_untracked();
        let run = Rc::new(RefCell::new(FallbackRun::new(to_send(&b, &pending))));
        drop(b);
        self.counts.set(Some(run.borrow().counts));
        if run.borrow().counts.to_send == 0 {
            return;
        }
        let endpoint = match verify_endpoint(&self.profile.get_untracked()) {
            Ok(e) => Rc::new(e),
            Err(e) => return self.error.set(Some(e)),
        };
        let client = transport();
        let n = concurrency(&self.concurrency.get_untracked());
        self.generation.update_value(|g| *g += 1);
        let mine = self.generation.get_value();
        self.running.set(true);
        // One task per caller (no join combinator: it costs wasm size); the last one to end
        // closes the run.
        let live = Rc::new(Cell::new(n));
        // The batch as the last answer left it, and when the run was last written: the
        // answers are kept in the grade run at most every 2 s and at the end, even when the
        // page is left meanwhile (its signals are gone then).
        let latest: Latest = Rc::new(RefCell::new((None, js_sys::Date::now())));
        let kept = self.run.get_value();
        let mut handles = Vec::with_capacity(n);
        for _ in 0..n {
            let (handle, registration) = AbortHandle::new_pair();
            handles.push(handle);
            let caller = self.caller(
                run.clone(),
                pending.clone(),
                client.clone(),
                endpoint.clone(),
                (latest.clone(), kept.clone()),
            );
            let (run, live, latest, kept) =
                (run.clone(), live.clone(), latest.clone(), kept.clone());
            spawn_local(async move {
                if Abortable::new(caller, registration).await.is_err() {
                    run.borrow_mut().cancel();
                }
                live.set(live.get().saturating_sub(1));
                if live.get() == 0 {
                    persist(&latest, kept.as_ref(), true);
                }
                // Gone (page left) or superseded (a new file): leave the state alone.
                if live.get() > 0 || self.generation.try_get_value() != Some(mine) {
                    return;
                }
                self.counts.set(Some(run.borrow().counts));
                self.running.set(false);
                self.abort.set_value(Vec::new());
            });
        }
        self.abort.set_value(handles);
    }

    /// Takes pending lines off the queue until it is empty or cancelled; merges each answer
    /// into its row as it arrives.
    async fn caller(
        self,
        run: Rc<RefCell<FallbackRun>>,
        pending: Arc<Vec<Pending>>,
        client: Rc<dyn ChatTransport>,
        endpoint: Rc<Endpoint>,
        (latest, kept): (Latest, Option<RunMeta>),
    ) {
        loop {
            let next = run.borrow_mut().take_next();
            let Some(p) = next.and_then(|i| pending.get(i)) else {
                break;
            };
            let _ = self.counts.try_set(Some(run.borrow().counts));
            let got = ask_final_answer(client.as_ref(), &endpoint, &p.input.output)
                .await
                .map(|r| ModelReply {
                    content: r.answer,
                    latency_ms: r.latency_ms,
                    total_tokens: r.usage.total_tokens,
                });
            let mut applied = Applied::Stale;
            let _ = self.batch.try_update(|b| {
                if let Some(b) = b {
                    applied = apply(Arc::make_mut(b), p, got);
                }
            });
            run.borrow_mut().finish(applied);
            if let Some(Some(b)) = self.batch.try_get_untracked() {
                latest.borrow_mut().0 = Some(b);
            }
            persist(&latest, kept.as_ref(), false);
            let _ = self.counts.try_set(Some(run.borrow().counts));
        }
    }
}
