//! The one client pipeline both platforms share: a transport makes single attempts, this
//! wrapper adds retries with backoff and jitter, `Retry-After`, and per-call accounting.

use std::cell::Cell;

use futures::future::LocalBoxFuture;

use super::wire::{is_retryable, RetryPolicy};
use super::{ChatRequest, ChatResponse, ChatTransport, Endpoint, LlmError};

/// Wraps a single-attempt transport; is itself a `ChatTransport`, so callers never care.
pub struct RetryingClient<T> {
    inner: T,
    policy: RetryPolicy,
    /// xorshift state for jitter (deterministic per client; spreads retries apart).
    seed: Cell<u64>,
}

impl<T: ChatTransport> RetryingClient<T> {
    pub fn new(inner: T, policy: RetryPolicy) -> Self {
        RetryingClient {
            inner,
            policy,
            seed: Cell::new(0x9e37_79b9_7f4a_7c15),
        }
    }

    pub fn transport(&self) -> &T {
        &self.inner
    }

    fn jitter(&self) -> f64 {
        let mut x = self.seed.get();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.seed.set(x);
        (x >> 11) as f64 / (1u64 << 53) as f64
    }
}

impl<T: ChatTransport> ChatTransport for RetryingClient<T> {
    fn chat<'a>(
        &'a self,
        endpoint: &'a Endpoint,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, LlmError>> {
        Box::pin(async move {
            let started = self.inner.now_ms();
            let mut attempt = 1;
            loop {
                match self.inner.chat(endpoint, request).await {
                    Ok(mut r) => {
                        r.attempts = attempt;
                        let now = self.inner.now_ms();
                        if now > 0 {
                            // Wall time including retries and backoff, when the transport has a clock.
                            r.latency_ms = now.saturating_sub(started);
                        }
                        return Ok(r);
                    }
                    Err(e) if attempt < self.policy.max_attempts && is_retryable(&e) => {
                        let wait = self.policy.delay_ms(attempt, &e, self.jitter());
                        self.inner.sleep(wait).await;
                        attempt += 1;
                    }
                    Err(e) => return Err(e),
                }
            }
        })
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        self.inner.sleep(ms)
    }

    fn now_ms(&self) -> u64 {
        self.inner.now_ms()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::{ChatMessage, JsonMode, Usage};
    use std::cell::RefCell;

    /// Replays a list of outcomes and records the sleeps asked for.
    struct Script {
        outcomes: RefCell<Vec<Result<String, LlmError>>>,
        sleeps: RefCell<Vec<u64>>,
        calls: Cell<u32>,
    }

    impl ChatTransport for Script {
        fn chat<'a>(
            &'a self,
            _: &'a Endpoint,
            _: &'a ChatRequest,
        ) -> LocalBoxFuture<'a, Result<ChatResponse, LlmError>> {
            self.calls.set(self.calls.get() + 1);
            let next = self.outcomes.borrow_mut().remove(0);
            Box::pin(async move {
                next.map(|content| ChatResponse {
                    content,
                    usage: Usage::default(),
                    latency_ms: 0,
                    attempts: 1,
                })
            })
        }
        fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
            self.sleeps.borrow_mut().push(ms);
            Box::pin(async {})
        }
    }

    fn run(
        outcomes: Vec<Result<String, LlmError>>,
    ) -> (Result<ChatResponse, LlmError>, Vec<u64>, u32) {
        let client = RetryingClient::new(
            Script {
                outcomes: RefCell::new(outcomes),
                sleeps: RefCell::new(vec![]),
                calls: Cell::new(0),
            },
            RetryPolicy {
                max_attempts: 3,
                base_ms: 100,
                max_ms: 1000,
            },
        );
        let ep = Endpoint {
            base_url: "u".into(),
            model: "m".into(),
            api_key: None,
            json_mode: JsonMode::None,
        };
        let req = ChatRequest {
            messages: vec![ChatMessage::user("x")],
            temperature: 0.0,
            max_tokens: 1,
        };
        let r = futures::executor::block_on(client.chat(&ep, &req));
        let sleeps = client.transport().sleeps.borrow().clone();
        (r, sleeps, client.transport().calls.get())
    }

    #[test]
    fn retries_transient_failures_honouring_retry_after() {
        let (r, sleeps, calls) = run(vec![
            Err(LlmError::RateLimited {
                retry_after_s: Some(2),
            }),
            Err(LlmError::Server {
                status: 503,
                body: String::new(),
            }),
            Ok("done".into()),
        ]);
        assert_eq!(
            r.map(|r| (r.content, r.attempts)),
            Ok(("done".to_string(), 3))
        );
        assert_eq!(calls, 3);
        assert!(sleeps[0] >= 2000, "Retry-After honoured: {sleeps:?}");
        assert!(
            (200..300).contains(&sleeps[1]),
            "second backoff doubles with jitter: {sleeps:?}"
        );
    }

    #[test]
    fn gives_up_after_max_attempts() {
        let net = || {
            Err(LlmError::Network {
                url: "u".into(),
                hint: String::new(),
            })
        };
        let (r, _, calls) = run(vec![net(), net(), net(), Ok("never".into())]);
        assert!(matches!(r, Err(LlmError::Network { .. })));
        assert_eq!(calls, 3);
    }

    #[test]
    fn never_retries_client_errors_or_cancel() {
        for e in [
            LlmError::Unauthorized { status: 401 },
            LlmError::Http {
                status: 400,
                body: String::new(),
            },
            LlmError::Cancelled,
        ] {
            let (r, sleeps, calls) = run(vec![Err(e.clone()), Ok("x".into())]);
            assert_eq!(r.err(), Some(e));
            assert_eq!((calls, sleeps.len()), (1, 0));
        }
    }
}
