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
use crate::llm::answer_fallback::{plain_endpoint, request};
use crate::llm::{ChatTransport, Endpoint};
use crate::ui::extract::verify_model::transport;
use crate::ui::extract::verify_model::verify_endpoint;

use super::BatchFallback;

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
