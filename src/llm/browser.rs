//! The browser's transport: `fetch` through gloo-net, with an AbortController per attempt
//! that serves three ends: the per-call timeout, the Cancel button, and dropping the future
//! (e.g. an `Abortable` audit run) — the request is aborted instead of left running.

use std::cell::Cell;
use std::rc::Rc;

use futures::future::{select, Either, LocalBoxFuture};
use gloo_net::http::{Request, RequestBuilder, Response};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::AbortController;

use super::cancel::CancelToken;
use super::client::RetryingClient;
use super::retry::RetryPolicy;
use super::wire::{self, HttpReply};
use super::{ChatRequest, ChatResponse, ChatTransport, Endpoint, LlmError};

/// Default per-call timeout in the browser.
pub const DEFAULT_TIMEOUT_MS: u32 = super::CALL_TIMEOUT_MS;

pub struct BrowserTransport {
    timeout_ms: u64,
    cancel: Option<CancelToken>,
}

/// Aborts the fetch and clears the timer when the attempt ends or is dropped.
struct Attempt {
    controller: Option<AbortController>,
    timer: Option<i32>,
    timed_out: Rc<Cell<bool>>,
    _on_timeout: Option<Closure<dyn FnMut()>>,
}

impl Attempt {
    fn start(timeout_ms: u64) -> Self {
        let controller = AbortController::new().ok();
        let timed_out = Rc::new(Cell::new(false));
        let mut timer = None;
        let mut on_timeout = None;
        if let (Some(window), Some(ctrl)) = (web_sys::window(), controller.clone()) {
            let flag = timed_out.clone();
            let cb = Closure::<dyn FnMut()>::new(move || {
                flag.set(true);
                ctrl.abort();
            });
            let ms = i32::try_from(timeout_ms).unwrap_or(i32::MAX);
            timer = window
                .set_timeout_with_callback_and_timeout_and_arguments_0(
                    cb.as_ref().unchecked_ref(),
                    ms,
                )
                .ok();
            on_timeout = Some(cb);
        }
        Self {
            controller,
            timer,
            timed_out,
            _on_timeout: on_timeout,
        }
    }

    fn request(&self, builder: RequestBuilder) -> RequestBuilder {
        let signal = self.controller.as_ref().map(AbortController::signal);
        builder.abort_signal(signal.as_ref())
    }
}

impl Drop for Attempt {
    fn drop(&mut self) {
        if let (Some(window), Some(t)) = (web_sys::window(), self.timer) {
            window.clear_timeout_with_handle(t);
        }
        if let Some(c) = &self.controller {
            // Harmless once the body has been read; stops a request whose caller gave up.
            c.abort();
        }
    }
}

impl BrowserTransport {
    pub fn new(timeout_ms: u32) -> Self {
        Self {
            timeout_ms: u64::from(timeout_ms),
            cancel: None,
        }
    }

    pub fn with_cancel(mut self, token: CancelToken) -> Self {
        self.cancel = Some(token);
        self
    }

    fn fail(&self, attempt: &Attempt, url: &str, e: &gloo_net::Error) -> LlmError {
        if attempt.timed_out.get() {
            return LlmError::Timeout {
                seconds: self.timeout_ms.div_ceil(1000),
            };
        }
        if self.cancel.as_ref().is_some_and(CancelToken::is_cancelled) {
            return LlmError::Cancelled;
        }
        LlmError::Network {
            url: url.to_string(),
            hint: wire::network_hint(&e.to_string()),
        }
    }

    async fn fetch(
        &self,
        attempt: &Attempt,
        builder: RequestBuilder,
        body: Option<String>,
        url: &str,
    ) -> Result<HttpReply, LlmError> {
        let builder = attempt.request(builder);
        let sent = match body {
            Some(b) => match builder.body(b) {
                Ok(req) => Box::pin(async move { Request::send(req).await })
                    as LocalBoxFuture<'_, Result<Response, gloo_net::Error>>,
                Err(e) => return Err(self.fail(attempt, url, &e)),
            },
            None => Box::pin(builder.send()),
        };
        let resp = self
            .or_cancel(sent)
            .await?
            .map_err(|e| self.fail(attempt, url, &e))?;
        let status = resp.status();
        let retry_after = resp.headers().get("retry-after");
        // A declared length (of the body as sent, maybe compressed) over the limit is refused
        // before the body is read; the body read is measured again after the browser inflated
        // it (`wire::body_text`). A body that never ends stops at the per-call timeout: the
        // fetch API gives no bounded read without a stream reader (docs/llm.md, "Size limits").
        let declared = resp
            .headers()
            .get("content-length")
            .and_then(|v| v.trim().parse::<u64>().ok());
        if declared.is_some_and(|n| n > wire::MAX_REPLY_BYTES as u64) {
            return Err(wire::too_large());
        }
        // Bytes, not `text()`: the browser's text decoding replaces invalid UTF-8 silently.
        let bytes = self
            .or_cancel(Box::pin(resp.binary()))
            .await?
            .map_err(|e| self.fail(attempt, url, &e))?;
        if (200..300).contains(&status) {
            Ok(HttpReply::Ok(wire::body_text(bytes)?))
        } else {
            let text = wire::error_body_text(&bytes);
            Ok(HttpReply::Status {
                status,
                body: text,
                retry_after,
            })
        }
    }

    async fn or_cancel<R>(&self, fut: LocalBoxFuture<'_, R>) -> Result<R, LlmError> {
        match &self.cancel {
            None => Ok(fut.await),
            Some(token) => match select(fut, token.cancelled()).await {
                Either::Left((r, _)) => Ok(r),
                Either::Right(_) => Err(LlmError::Cancelled),
            },
        }
    }
}

fn unix_now_s() -> u64 {
    (js_sys::Date::now() / 1000.0) as u64
}

fn with_headers(
    mut builder: RequestBuilder,
    endpoint: &Endpoint,
    with_body: bool,
) -> RequestBuilder {
    for (name, value) in wire::headers(endpoint, with_body) {
        builder = builder.header(name, &value);
    }
    builder
}

impl ChatTransport for BrowserTransport {
    fn chat<'a>(
        &'a self,
        endpoint: &'a Endpoint,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, LlmError>> {
        Box::pin(async move {
            wire::check_endpoint(endpoint)?;
            let url = wire::chat_url(endpoint);
            let body = crate::jsonl::compact(&wire::chat_body(endpoint, request));
            let start = self.now_ms();
            let attempt = Attempt::start(self.timeout_ms);
            let builder = with_headers(Request::post(&url), endpoint, true);
            let reply = self
                .fetch(&attempt, builder, Some(body), &url)
                .await
                .map_err(|e| wire::scrub(e, endpoint))?;
            let latency_ms = self.now_ms().saturating_sub(start);
            wire::read_chat_reply(reply, &url, endpoint, latency_ms, Some(unix_now_s()))
        })
    }

    fn list_models<'a>(
        &'a self,
        endpoint: &'a Endpoint,
    ) -> LocalBoxFuture<'a, Result<Vec<String>, LlmError>> {
        Box::pin(async move {
            wire::check_endpoint(endpoint)?;
            let url = wire::models_url(endpoint);
            let attempt = Attempt::start(self.timeout_ms);
            let builder = with_headers(Request::get(&url), endpoint, false);
            let reply = self
                .fetch(&attempt, builder, None, &url)
                .await
                .map_err(|e| wire::scrub(e, endpoint))?;
            wire::read_models_reply(reply, &url, endpoint, Some(unix_now_s()))
        })
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        let ms = i32::try_from(ms).unwrap_or(i32::MAX);
        let promise = js_sys::Promise::new(&mut |resolve, _reject| {
            if let Some(window) = web_sys::window() {
                let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
            }
        });
        Box::pin(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
        })
    }

    fn now_ms(&self) -> u64 {
        web_sys::window()
            .and_then(|w| w.performance())
            .map(|p| p.now().max(0.0) as u64)
            .unwrap_or(0)
    }
}

/// The browser's client: the fetch transport behind the retry pipeline. Pass the Cancel
/// button's token to abort calls in flight and stop retries.
pub fn client(timeout_ms: u32, cancel: Option<CancelToken>) -> RetryingClient<BrowserTransport> {
    let mut transport = BrowserTransport::new(timeout_ms);
    if let Some(token) = &cancel {
        transport = transport.with_cancel(token.clone());
    }
    let client = RetryingClient::new(transport, RetryPolicy::default());
    match cancel {
        Some(t) => client.with_cancel(t),
        None => client,
    }
}
