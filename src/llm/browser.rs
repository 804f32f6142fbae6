//! The browser's transport: `fetch` through gloo-net, an AbortController for cancel and
//! for the per-call timeout. A refused CORS preflight and a dead server look the same to
//! a page (the browser hides the difference), so the error names both, with the fixes.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use gloo_net::http::Request;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::AbortController;

use super::wire;
use super::{ChatRequest, ChatResponse, ChatTransport, Endpoint, LlmError};

/// What to check when the browser cannot reach an endpoint.
pub const CORS_HINT: &str = "If the server is running, it must allow this page's origin (CORS): \
Ollama — start it with OLLAMA_ORIGINS=* (or this page's origin); LM Studio — turn on \"Enable CORS\" in the \
server settings; vLLM — start it with --allowed-origins '[\"*\"]'; other servers — send \
Access-Control-Allow-Origin and answer the OPTIONS preflight. Otherwise check that the server is up and \
the base URL (usually ending in /v1) is right.";

pub struct BrowserTransport {
    timeout_ms: u32,
    controller: RefCell<Option<AbortController>>,
}

impl BrowserTransport {
    pub fn new(timeout_ms: u32) -> Self {
        BrowserTransport {
            timeout_ms,
            controller: RefCell::new(AbortController::new().ok()),
        }
    }

    /// Abort every call in flight; later calls start afresh.
    pub fn cancel(&self) {
        if let Some(c) = self.controller.replace(AbortController::new().ok()) {
            c.abort();
        }
    }

    fn signal(&self) -> Option<web_sys::AbortSignal> {
        self.controller
            .borrow()
            .as_ref()
            .map(AbortController::signal)
    }

    /// `GET {base_url}/models`: the model ids the endpoint serves ("Test connection").
    pub async fn list_models(
        &self,
        base_url: &str,
        api_key: Option<&str>,
    ) -> Result<Vec<String>, LlmError> {
        let url = wire::models_url(base_url);
        let mut req = Request::get(&url);
        for (k, v) in wire::headers(api_key) {
            if k != "Content-Type" {
                req = req.header(k, &v); // a GET with a JSON content type would force a preflight
            }
        }
        let resp = req.send().await.map_err(|_| network_error(&url))?;
        let body = resp.text().await.unwrap_or_default();
        let ep = Endpoint {
            base_url: base_url.into(),
            model: String::new(),
            api_key: None,
            json_mode: Default::default(),
        };
        wire::read_models(&url, &ep, resp.status(), &body)
    }
}

/// Aborts the fetch when the call's future is dropped (a cancelled audit, a page left),
/// so the request does not go on in the background.
struct AbortOnDrop(Option<AbortController>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if let Some(c) = self.0.take() {
            c.abort();
        }
    }
}

fn network_error(url: &str) -> LlmError {
    LlmError::Network {
        url: url.to_string(),
        hint: CORS_HINT.to_string(),
    }
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Run `f` after `ms` milliseconds; returns the timer id (0 when there is no window).
fn set_timeout(ms: u32, f: impl FnOnce() + 'static) -> i32 {
    let cb = Closure::once_into_js(f);
    web_sys::window()
        .and_then(|w| {
            w.set_timeout_with_callback_and_timeout_and_arguments_0(cb.unchecked_ref(), ms as i32)
                .ok()
        })
        .unwrap_or(0)
}

impl ChatTransport for BrowserTransport {
    fn chat<'a>(
        &'a self,
        endpoint: &'a Endpoint,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, LlmError>> {
        Box::pin(async move {
            let url = wire::chat_url(endpoint);
            // Each call gets its own controller so its timeout aborts only itself; the
            // transport-wide controller (cancel) is chained onto it.
            let call = AbortController::new().map_err(|_| network_error(&url))?;
            let timed_out = Rc::new(Cell::new(false));
            let timer = {
                let (call, timed_out) = (call.clone(), timed_out.clone());
                set_timeout(self.timeout_ms, move || {
                    timed_out.set(true);
                    call.abort();
                })
            };
            let cancelled = self.signal();
            if let Some(sig) = &cancelled {
                let call = call.clone();
                let on_abort = Closure::once_into_js(move || call.abort());
                let _ = sig.add_event_listener_with_callback("abort", on_abort.unchecked_ref());
            }
            let mut builder = Request::post(&url).abort_signal(Some(&call.signal()));
            for (k, v) in wire::headers(endpoint.api_key.as_deref()) {
                builder = builder.header(k, &v);
            }
            let started = now();
            let mut guard = AbortOnDrop(Some(call.clone()));
            let outcome = async {
                let req = builder
                    .body(wire::request_body(endpoint, request))
                    .map_err(|_| network_error(&url))?;
                let resp = req.send().await.map_err(|_| network_error(&url))?;
                let retry_after = resp.headers().get("retry-after");
                let body = resp.text().await.map_err(|_| network_error(&url))?;
                wire::read_response(&url, endpoint, resp.status(), retry_after.as_deref(), &body)
            }
            .await;
            guard.0 = None; // finished: nothing to abort
            if let Some(w) = web_sys::window() {
                w.clear_timeout_with_handle(timer);
            }
            match outcome {
                Ok((content, usage)) => {
                    Ok(wire::response(content, usage, (now() - started) as u64, 1))
                }
                Err(_) if timed_out.get() => Err(LlmError::Timeout {
                    seconds: u64::from(self.timeout_ms / 1000),
                }),
                Err(_) if cancelled.as_ref().is_some_and(|s| s.aborted()) => {
                    Err(LlmError::Cancelled)
                }
                Err(e) => Err(e),
            }
        })
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        let ms = u32::try_from(ms).unwrap_or(u32::MAX);
        Box::pin(async move {
            let promise = js_sys::Promise::new(&mut |resolve, _| {
                set_timeout(ms, move || {
                    let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
                });
            });
            let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
        })
    }

    fn now_ms(&self) -> u64 {
        now() as u64 + 1
    }
}
