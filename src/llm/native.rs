//! The CLI's transport: blocking `ureq` on one thread per call, bridged to a future with a
//! oneshot channel. Calls therefore overlap even on a single-threaded executor
//! (`futures::join!` of two calls takes the longer one's time, not the sum).

use std::sync::OnceLock;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use futures::channel::oneshot;
use futures::future::{select, Either, LocalBoxFuture};

use super::cancel::CancelToken;
use super::client::RetryingClient;
use super::retry::RetryPolicy;
use super::wire::{self, HttpReply};
use super::{ChatRequest, ChatResponse, ChatTransport, Endpoint, LlmError};

/// Default per-call timeout of the CLI: generous because local models can be slow.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_millis(super::CALL_TIMEOUT_MS as u64);

/// One attempt's outcome, produced on the worker thread.
type Raw = Result<HttpReply, LlmError>;

pub struct NativeTransport {
    agent: ureq::Agent,
    timeout_ms: u64,
    cancel: Option<CancelToken>,
}

impl NativeTransport {
    pub fn new(timeout: Duration) -> Self {
        let timeout_ms = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX);
        // Starts the clock that `now_ms` reads.
        process_start();
        let agent = ureq::AgentBuilder::new()
            .timeout(Duration::from_millis(timeout_ms.max(1)))
            .build();
        Self {
            agent,
            timeout_ms,
            cancel: None,
        }
    }

    pub fn with_cancel(mut self, token: CancelToken) -> Self {
        self.cancel = Some(token);
        self
    }

    fn timeout_error(&self) -> LlmError {
        LlmError::Timeout {
            seconds: self.timeout_ms.div_ceil(1000),
        }
    }

    /// Runs `job` on its own thread and awaits its result without blocking the executor.
    fn on_thread<'a>(
        &'a self,
        job: impl FnOnce() -> Raw + Send + 'static,
    ) -> LocalBoxFuture<'a, Raw> {
        let (tx, rx) = oneshot::channel();
        let spawned = std::thread::Builder::new()
            .name("verifyfast-llm".into())
            .spawn(move || {
                // The receiver may be gone (cancelled call): nothing to do then.
                let _ = tx.send(job());
            });
        Box::pin(async move {
            if let Err(e) = spawned {
                return Err(LlmError::Network {
                    url: String::new(),
                    hint: format!("could not start a worker thread: {e}"),
                });
            }
            let received = match &self.cancel {
                None => rx.await,
                Some(token) => match select(rx, token.cancelled()).await {
                    Either::Left((r, _)) => r,
                    Either::Right(_) => return Err(LlmError::Cancelled),
                },
            };
            received.unwrap_or_else(|_| {
                Err(LlmError::BadResponse {
                    detail: "the worker thread ended without an answer".into(),
                })
            })
        })
    }

    fn send(
        &self,
        request: ureq::Request,
        body: Option<String>,
        url: String,
    ) -> LocalBoxFuture<'_, Raw> {
        let timeout = self.timeout_error();
        self.on_thread(move || {
            let result = match body {
                Some(b) => request.send_string(&b),
                None => request.call(),
            };
            raw_outcome(result, &url, timeout)
        })
    }

    fn build(
        &self,
        method: &str,
        url: &str,
        endpoint: &Endpoint,
        with_body: bool,
    ) -> ureq::Request {
        let mut req = self.agent.request(method, url);
        for (name, value) in wire::headers(endpoint, with_body) {
            req = req.set(name, &value);
        }
        req
    }
}

/// At most `MAX_REPLY_BYTES + 1` bytes of the body (decompressed: ureq inflates gzip in
/// its reader, so a gzip bomb stops here too, as does an endless chunked body). Not
/// `into_string`: it decodes lossily and reports its own 10 MB cap as an I/O error, which
/// read as a network failure and was retried.
fn read_capped(resp: ureq::Response) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    resp.into_reader()
        .take(wire::MAX_REPLY_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

fn raw_outcome(result: Result<ureq::Response, ureq::Error>, url: &str, timeout: LlmError) -> Raw {
    match result {
        Ok(resp) => match read_capped(resp) {
            Ok(bytes) => wire::body_text(bytes).map(HttpReply::Ok),
            Err(e) => Err(read_error(&e, url, timeout)),
        },
        Err(ureq::Error::Status(status, resp)) => {
            let retry_after = resp.header("retry-after").map(str::to_string);
            let body = read_capped(resp)
                .map(|b| wire::error_body_text(&b))
                .unwrap_or_default();
            Ok(HttpReply::Status {
                status,
                body,
                retry_after,
            })
        }
        Err(ureq::Error::Transport(t)) => {
            let text = t.to_string();
            if is_timeout_text(&text) {
                Err(timeout)
            } else {
                Err(LlmError::Network {
                    url: url.to_string(),
                    hint: wire::native_network_hint(&text),
                })
            }
        }
    }
}

fn read_error(e: &std::io::Error, url: &str, timeout: LlmError) -> LlmError {
    use std::io::ErrorKind;
    match e.kind() {
        ErrorKind::TimedOut | ErrorKind::WouldBlock => timeout,
        ErrorKind::InvalidData => LlmError::BadResponse {
            detail: format!(
                "the body could not be decoded (a broken gzip or chunked stream?): {e}"
            ),
        },
        _ if is_timeout_text(&e.to_string()) => timeout,
        _ => LlmError::Network {
            url: url.to_string(),
            hint: wire::native_network_hint(&format!(
                "the connection broke while reading the answer: {e}"
            )),
        },
    }
}

fn is_timeout_text(text: &str) -> bool {
    let t = text.to_ascii_lowercase();
    t.contains("timed out") || t.contains("timeout") || t.contains("would block")
}

fn unix_now_s() -> Option<u64> {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .ok()
        .map(|d| d.as_secs())
}

fn process_start() -> Instant {
    static START: OnceLock<Instant> = OnceLock::new();
    *START.get_or_init(Instant::now)
}

impl ChatTransport for NativeTransport {
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
            let req = self.build("POST", &url, endpoint, true);
            let reply = self
                .send(req, Some(body), url.clone())
                .await
                .map_err(|e| wire::scrub(e, endpoint))?;
            let latency_ms = self.now_ms().saturating_sub(start);
            wire::read_chat_reply(reply, &url, endpoint, latency_ms, unix_now_s())
        })
    }

    fn list_models<'a>(
        &'a self,
        endpoint: &'a Endpoint,
    ) -> LocalBoxFuture<'a, Result<Vec<String>, LlmError>> {
        Box::pin(async move {
            wire::check_endpoint(endpoint)?;
            let url = wire::models_url(endpoint);
            let req = self.build("GET", &url, endpoint, false);
            let reply = self
                .send(req, None, url.clone())
                .await
                .map_err(|e| wire::scrub(e, endpoint))?;
            wire::read_models_reply(reply, &url, endpoint, unix_now_s())
        })
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        let (tx, rx) = oneshot::channel::<()>();
        let spawned = std::thread::Builder::new().spawn(move || {
            std::thread::sleep(Duration::from_millis(ms));
            let _ = tx.send(());
        });
        Box::pin(async move {
            if spawned.is_ok() {
                let _ = rx.await;
            }
        })
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(process_start().elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

/// The CLI's client: the native transport behind the retry pipeline.
pub fn client(timeout_ms: u64, cancel: Option<CancelToken>) -> RetryingClient<NativeTransport> {
    let mut transport = NativeTransport::new(Duration::from_millis(timeout_ms));
    let mut client_cancel = None;
    if let Some(token) = cancel {
        transport = transport.with_cancel(token.clone());
        client_cancel = Some(token);
    }
    let client = RetryingClient::new(transport, RetryPolicy::default());
    match client_cancel {
        Some(t) => client.with_cancel(t),
        None => client,
    }
}
