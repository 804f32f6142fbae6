//! The CLI's transport: blocking `ureq` on a thread per call, bridged to a future with a
//! oneshot channel, so `futures::join!` of two calls on one executor thread really overlaps
//! them (Phases 2 and 3, batch concurrency) without an async runtime.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::channel::oneshot;
use futures::future::LocalBoxFuture;

use super::wire;
use super::{ChatRequest, ChatResponse, ChatTransport, Endpoint, LlmError};

/// Cancels every call of a transport that has not finished yet.
#[derive(Debug, Clone, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

pub struct NativeTransport {
    agent: ureq::Agent,
    timeout: Duration,
    cancel: CancelToken,
    epoch: Instant,
}

impl NativeTransport {
    /// `timeout` is the per-call budget (connect + send + read).
    pub fn new(timeout: Duration) -> Self {
        let agent = ureq::AgentBuilder::new().timeout(timeout).build();
        NativeTransport {
            agent,
            timeout,
            cancel: CancelToken::default(),
            epoch: Instant::now(),
        }
    }

    pub fn cancel_token(&self) -> CancelToken {
        self.cancel.clone()
    }

    /// `GET {base_url}/models`: the model ids the endpoint serves ("Test connection").
    pub fn list_models(
        &self,
        base_url: &str,
        api_key: Option<&str>,
    ) -> Result<Vec<String>, LlmError> {
        let url = wire::models_url(base_url);
        let mut req = self.agent.get(&url);
        for (k, v) in wire::headers(api_key) {
            req = req.set(k, &v);
        }
        let (status, _, body) = self.finish(&url, req.call())?;
        let ep = Endpoint {
            base_url: base_url.into(),
            model: String::new(),
            api_key: None,
            json_mode: Default::default(),
        };
        wire::read_models(&url, &ep, status, &body)
    }

    fn finish(
        &self,
        url: &str,
        result: Result<ureq::Response, ureq::Error>,
    ) -> Result<(u16, Option<String>, String), LlmError> {
        let resp = match result {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(ureq::Error::Transport(t)) => return Err(self.transport_error(url, &t)),
        };
        let status = resp.status();
        let retry_after = resp.header("retry-after").map(str::to_string);
        let body = resp.into_string().map_err(|e| {
            if e.kind() == std::io::ErrorKind::TimedOut
                || e.kind() == std::io::ErrorKind::WouldBlock
            {
                LlmError::Timeout {
                    seconds: self.timeout.as_secs(),
                }
            } else {
                LlmError::BadResponse {
                    detail: format!("reading the body failed: {e}"),
                }
            }
        })?;
        Ok((status, retry_after, body))
    }

    fn transport_error(&self, url: &str, t: &ureq::Transport) -> LlmError {
        let text = t.to_string();
        if text.contains("timed out") || text.contains("Timeout") {
            LlmError::Timeout {
                seconds: self.timeout.as_secs(),
            }
        } else {
            LlmError::Network {
                url: url.to_string(),
                hint: format!("{text}. Is the server running and the base URL right?"),
            }
        }
    }
}

impl ChatTransport for NativeTransport {
    fn chat<'a>(
        &'a self,
        endpoint: &'a Endpoint,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, LlmError>> {
        let url = wire::chat_url(endpoint);
        let body = wire::request_body(endpoint, request);
        let headers = wire::headers(endpoint.api_key.as_deref());
        let agent = self.agent.clone();
        let (tx, rx) = oneshot::channel();
        let started = Instant::now();
        std::thread::spawn(move || {
            let mut req = agent.post(&url);
            for (k, v) in &headers {
                req = req.set(k, v);
            }
            let _ = tx.send(req.send_string(&body));
        });
        Box::pin(async move {
            if self.cancel.is_cancelled() {
                return Err(LlmError::Cancelled);
            }
            let url = wire::chat_url(endpoint);
            let result = rx.await.map_err(|_| LlmError::Cancelled)?;
            if self.cancel.is_cancelled() {
                return Err(LlmError::Cancelled);
            }
            let (status, retry_after, body) = self.finish(&url, result)?;
            let (content, usage) =
                wire::read_response(&url, endpoint, status, retry_after.as_deref(), &body)?;
            Ok(wire::response(
                content,
                usage,
                started.elapsed().as_millis() as u64,
                1,
            ))
        })
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        let (tx, rx) = oneshot::channel::<()>();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(ms));
            let _ = tx.send(());
        });
        Box::pin(async move {
            let _ = rx.await;
        })
    }

    fn now_ms(&self) -> u64 {
        // +1 so that "0" keeps meaning "no clock" for the retry wrapper.
        self.epoch.elapsed().as_millis() as u64 + 1
    }
}
