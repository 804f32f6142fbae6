//! The LLM fallback of the Extract page's JSONL grading: after the rules have graded every
//! line, the low-confidence ones (only those) go to the profile's verify model, a few at a
//! time; each answer is merged into its row as it arrives, so Cancel, a failure or leaving the
//! page never loses a computed result. The decisions live in `crate::extract::fallback_batch`.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

use futures::future::{AbortHandle, Abortable};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::extract::batch::GradeBatch;
use crate::extract::fallback_batch::{
    apply, concurrency, to_send, Applied, FallbackCounts, FallbackQueue, FallbackRun, ModelReply,
    Pending,
};
use crate::llm::answer_fallback::{plain_endpoint, request};
use crate::llm::{ChatTransport, Endpoint};
use crate::ui::drafts_store::draft_signal;
use crate::ui::verify_model::{profile_signal, transport, verify_endpoint};

/// The fallback's settings and run state, shared by the page's grading and the panel.
#[derive(Clone, Copy)]
pub struct BatchFallback {
    pub batch: RwSignal<Option<Arc<GradeBatch>>>,
    /// "on" / "off", kept as a draft like the page's other settings.
    pub enabled: RwSignal<String>,
    pub concurrency: RwSignal<String>,
    pub profile: RwSignal<String>,
    pub pending: RwSignal<Arc<Vec<Pending>>>,
    pub counts: RwSignal<Option<FallbackCounts>>,
    pub running: RwSignal<bool>,
    pub error: RwSignal<Option<String>>,
    /// One per caller task.
    abort: StoredValue<Vec<AbortHandle>>,
    /// Bumped by every start and reset: an aborted run's ending must not touch a newer one.
    generation: StoredValue<u64>,
}

impl BatchFallback {
    /// Leaving the page aborts a run (dropping its calls aborts their fetches).
    pub fn new(batch: RwSignal<Option<Arc<GradeBatch>>>) -> Self {
        let fb = BatchFallback {
            batch,
            enabled: draft_signal("extract", "llm_batch", || String::from("off")),
            concurrency: draft_signal("extract", "llm_concurrency", || String::from("2")),
            profile: profile_signal("extract"),
            pending: RwSignal::new(Arc::new(Vec::new())),
            counts: RwSignal::new(None),
            running: RwSignal::new(false),
            error: RwSignal::new(None),
            abort: StoredValue::new(Vec::new()),
            generation: StoredValue::new(0),
        };
        on_cleanup(move || fb.cancel());
        fb
    }

    pub fn cancel(self) {
        self.abort
            .try_with_value(|hs| hs.iter().for_each(AbortHandle::abort));
    }

    /// A new file: stop the run of the old one and forget its state.
    pub fn reset(self) {
        self.cancel();
        self.generation.update_value(|g| *g += 1);
        self.running.set(false);
        self.counts.set(None);
        self.error.set(None);
        self.pending.set(Arc::new(Vec::new()));
    }

    /// The rules have graded a file: show it, and send its unsure lines if the toggle is on.
    pub fn graded(self, b: GradeBatch, queue: FallbackQueue) {
        self.pending.set(Arc::new(queue.pending));
        self.batch.set(Some(Arc::new(b)));
        if self.enabled.get_untracked() == "on" {
            self.start();
        }
    }

    /// Lines a run would send now (never asked, or failed before).
    pub fn sendable(self) -> usize {
        self.batch.with(|b| {
            b.as_ref()
                .map_or(0, |b| self.pending.with(|p| to_send(b, p).len()))
        })
    }

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
            Ok(e) => Rc::new(plain_endpoint(&e)),
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
        let mut handles = Vec::with_capacity(n);
        for _ in 0..n {
            let (handle, registration) = AbortHandle::new_pair();
            handles.push(handle);
            let caller = self.caller(
                run.clone(),
                pending.clone(),
                client.clone(),
                endpoint.clone(),
            );
            let (run, live) = (run.clone(), live.clone());
            spawn_local(async move {
                if Abortable::new(caller, registration).await.is_err() {
                    run.borrow_mut().cancel();
                }
                live.set(live.get().saturating_sub(1));
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
    ) {
        loop {
            let next = run.borrow_mut().take_next();
            let Some(p) = next.and_then(|i| pending.get(i)) else {
                break;
            };
            let _ = self.counts.try_set(Some(run.borrow().counts));
            let got = client
                .chat(&endpoint, &request(&p.input.output))
                .await
                .map(|r| ModelReply {
                    content: r.content.trim().to_string(),
                    latency_ms: r.latency_ms,
                    total_tokens: r.usage.total_tokens,
                })
                .map_err(|e| e.to_string());
            let mut applied = Applied::Stale;
            let _ = self.batch.try_update(|b| {
                if let Some(b) = b {
                    applied = apply(Arc::make_mut(b), p, got);
                }
            });
            run.borrow_mut().finish(applied);
            let _ = self.counts.try_set(Some(run.borrow().counts));
        }
    }
}
