//! The shared pipeline: retries with backoff and jitter, `Retry-After`, cancel, and the
//! per-call record (attempts, wall time, tokens). It wraps a single-attempt transport and is
//! itself a [`ChatTransport`], so callers only ever take `&dyn ChatTransport`.

use std::cell::RefCell;

use futures::future::{select, Either, LocalBoxFuture};

use super::cancel::CancelToken;
use super::retry::{Jitter, RetryPolicy};
use super::{ChatRequest, ChatResponse, ChatTransport, Endpoint, LlmError, Usage};

/// Running totals over every call made through one client, for status lines and reports.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClientStats {
    pub calls: u64,
    pub succeeded: u64,
    pub failed: u64,
    /// Attempts over all calls; `attempts - calls` were retries.
    pub attempts: u64,
    pub usage: Usage,
    pub latency_ms: u64,
}

pub struct RetryingClient<T: ChatTransport> {
    inner: T,
    policy: RetryPolicy,
    cancel: Option<CancelToken>,
    jitter: RefCell<Jitter>,
    stats: RefCell<ClientStats>,
}

impl<T: ChatTransport> RetryingClient<T> {
    pub fn new(inner: T, policy: RetryPolicy) -> Self {
        let seed = inner.now_ms() ^ 0x9E37_79B9_7F4A_7C15;
        Self {
            inner,
            policy,
            cancel: None,
            jitter: RefCell::new(Jitter::new(seed)),
            stats: RefCell::new(ClientStats::default()),
        }
    }

    /// Calls made through this client stop (with [`LlmError::Cancelled`]) once `token` is
    /// cancelled, including while waiting between attempts. Give the same token to the
    /// transport so it can abort the request in flight.
    pub fn with_cancel(mut self, token: CancelToken) -> Self {
        self.cancel = Some(token);
        self
    }

    /// A fixed jitter seed, for reproducible schedules in tests.
    pub fn with_jitter_seed(self, seed: u64) -> Self {
        *self.jitter.borrow_mut() = Jitter::new(seed);
        self
    }

    pub fn policy(&self) -> &RetryPolicy {
        &self.policy
    }

    pub fn stats(&self) -> ClientStats {
        *self.stats.borrow()
    }

    pub fn inner(&self) -> &T {
        &self.inner
    }

    /// The wrapped transport (same as [`inner`](Self::inner)).
    pub fn transport(&self) -> &T {
        &self.inner
    }

    fn is_cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(CancelToken::is_cancelled)
    }

    /// Runs `fut` unless cancel comes first.
    async fn or_cancel<R>(
        &self,
        fut: LocalBoxFuture<'_, Result<R, LlmError>>,
    ) -> Result<R, LlmError> {
        match &self.cancel {
            None => fut.await,
            Some(token) => match select(fut, token.cancelled()).await {
                Either::Left((r, _)) => r,
                Either::Right(((), _)) => Err(LlmError::Cancelled),
            },
        }
    }

    /// Attempts `op` until it succeeds, fails for good, or the policy says stop.
    /// Returns the result and the number of attempts made.
    async fn run<'a, R>(
        &'a self,
        mut op: impl FnMut() -> LocalBoxFuture<'a, Result<R, LlmError>>,
    ) -> (Result<R, LlmError>, u32) {
        let mut attempt = 0u32;
        // A 2xx body that is not a chat completion (a proxy's or an overloaded server's
        // stray answer) is worth one more attempt, as a 5xx is; a second one is final.
        let mut bad_body_retried = false;
        loop {
            attempt += 1;
            if self.is_cancelled() {
                return (Err(LlmError::Cancelled), attempt - 1);
            }
            let error = match self.or_cancel(op()).await {
                Ok(r) => return (Ok(r), attempt),
                Err(e) => e,
            };
            let jitter = self.jitter.borrow_mut().next_unit();
            let wait = match error {
                LlmError::BadResponse { .. } if !bad_body_retried => {
                    bad_body_retried = true;
                    (attempt < self.policy.max_attempts)
                        .then(|| self.policy.backoff(attempt, jitter))
                }
                _ => self.policy.delay_after(attempt, &error, jitter),
            };
            let Some(wait) = wait else {
                return (Err(error), attempt);
            };
            let sleep = Box::pin(async move {
                self.inner.sleep(wait).await;
                Ok::<(), LlmError>(())
            });
            if let Err(cancelled) = self.or_cancel(sleep).await {
                return (Err(cancelled), attempt);
            }
        }
    }

    fn record(&self, ok: Option<&Usage>, attempts: u32, latency_ms: u64) {
        let mut s = self.stats.borrow_mut();
        s.calls += 1;
        s.attempts += u64::from(attempts);
        s.latency_ms += latency_ms;
        match ok {
            Some(u) => {
                s.succeeded += 1;
                s.usage.prompt_tokens += u.prompt_tokens;
                s.usage.completion_tokens += u.completion_tokens;
                s.usage.total_tokens += u.total_tokens;
            }
            None => s.failed += 1,
        }
    }
}

impl<T: ChatTransport> ChatTransport for RetryingClient<T> {
    fn chat<'a>(
        &'a self,
        endpoint: &'a Endpoint,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, LlmError>> {
        Box::pin(async move {
            let start = self.inner.now_ms();
            let (result, attempts) = self.run(|| self.inner.chat(endpoint, request)).await;
            let wall = self.inner.now_ms().saturating_sub(start);
            match result {
                Ok(mut response) => {
                    response.attempts = attempts.max(1);
                    // A fake transport has no clock: keep the latency it reported.
                    response.latency_ms = response.latency_ms.max(wall);
                    self.record(Some(&response.usage), attempts, response.latency_ms);
                    Ok(response)
                }
                Err(e) => {
                    self.record(None, attempts, wall);
                    Err(e)
                }
            }
        })
    }

    fn list_models<'a>(
        &'a self,
        endpoint: &'a Endpoint,
    ) -> LocalBoxFuture<'a, Result<Vec<String>, LlmError>> {
        Box::pin(async move { self.run(|| self.inner.list_models(endpoint)).await.0 })
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
    use std::cell::{Cell, RefCell};

    use futures::executor::block_on;
    use futures::future::ready;

    use super::*;
    use crate::llm::{ChatMessage, JsonMode};

    /// Replies from a fixed list, records the sleeps asked for, and advances a fake clock
    /// by each sleep so wall time is checkable.
    struct Scripted {
        replies: RefCell<Vec<Result<ChatResponse, LlmError>>>,
        calls: Cell<u32>,
        sleeps: RefCell<Vec<u64>>,
        clock: Cell<u64>,
        on_call: Option<CancelToken>,
    }

    fn ok(text: &str) -> Result<ChatResponse, LlmError> {
        Ok(ChatResponse {
            content: text.into(),
            usage: Usage {
                prompt_tokens: 5,
                completion_tokens: 1,
                total_tokens: 6,
            },
            latency_ms: 7,
            attempts: 1,
            finish_reason: None,
        })
    }

    fn scripted(mut replies: Vec<Result<ChatResponse, LlmError>>) -> Scripted {
        replies.reverse();
        Scripted {
            replies: RefCell::new(replies),
            calls: Cell::new(0),
            sleeps: RefCell::new(Vec::new()),
            clock: Cell::new(1000),
            on_call: None,
        }
    }

    impl ChatTransport for Scripted {
        fn chat<'a>(
            &'a self,
            _: &'a Endpoint,
            _: &'a ChatRequest,
        ) -> LocalBoxFuture<'a, Result<ChatResponse, LlmError>> {
            self.calls.set(self.calls.get() + 1);
            if let Some(t) = &self.on_call {
                t.cancel();
            }
            let next = self
                .replies
                .borrow_mut()
                .pop()
                .unwrap_or(Err(LlmError::EmptyChoices));
            Box::pin(ready(next))
        }
        fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
            self.sleeps.borrow_mut().push(ms);
            self.clock.set(self.clock.get() + ms);
            Box::pin(ready(()))
        }
        fn now_ms(&self) -> u64 {
            self.clock.get()
        }
    }

    fn endpoint() -> Endpoint {
        Endpoint {
            base_url: "http://x/v1".into(),
            model: "m".into(),
            api_key: None,
            json_mode: JsonMode::None,
        }
    }

    fn request() -> ChatRequest {
        ChatRequest {
            messages: vec![ChatMessage::user("q")],
            temperature: 0.0,
            max_tokens: 5,
        }
    }

    fn server(status: u16) -> LlmError {
        LlmError::Server {
            status,
            body: "x".into(),
        }
    }

    #[test]
    fn success_first_time_is_one_attempt() {
        let client = RetryingClient::new(scripted(vec![ok("a")]), RetryPolicy::default());
        let r = block_on(client.chat(&endpoint(), &request())).unwrap();
        assert_eq!((r.content.as_str(), r.attempts, r.latency_ms), ("a", 1, 7));
        assert_eq!(client.stats().usage.total_tokens, 6);
        assert!(client.inner().sleeps.borrow().is_empty());
    }

    #[test]
    fn retries_gateway_errors_with_growing_backoff() {
        let t = scripted(vec![
            Err(server(502)),
            Err(server(503)),
            Err(server(504)),
            ok("b"),
        ]);
        let client = RetryingClient::new(t, RetryPolicy::default()).with_jitter_seed(1);
        let r = block_on(client.chat(&endpoint(), &request())).unwrap();
        assert_eq!(r.attempts, 4);
        let sleeps = client.inner().sleeps.borrow().clone();
        assert_eq!(sleeps.len(), 3);
        assert!((250..500).contains(&sleeps[0]), "{sleeps:?}");
        assert!((500..1000).contains(&sleeps[1]), "{sleeps:?}");
        assert!((1000..2000).contains(&sleeps[2]), "{sleeps:?}");
        assert_eq!(r.latency_ms, sleeps.iter().sum::<u64>());
        let s = client.stats();
        assert_eq!((s.calls, s.attempts, s.succeeded), (1, 4, 1));
    }

    #[test]
    fn retries_500_408_409_and_a_cut_off_body_like_the_openai_clients() {
        let t = scripted(vec![
            Err(server(500)),
            Err(LlmError::Http {
                status: 408,
                body: String::new(),
            }),
            Err(LlmError::CutOff {
                detail: String::new(),
            }),
            ok("e"),
        ]);
        let client = RetryingClient::new(t, RetryPolicy::default());
        let r = block_on(client.chat(&endpoint(), &request())).unwrap();
        assert_eq!((r.content.as_str(), r.attempts), ("e", 4));
        let t = scripted(vec![
            Err(LlmError::Http {
                status: 409,
                body: String::new(),
            }),
            ok("f"),
        ]);
        let client = RetryingClient::new(t, RetryPolicy::default());
        assert_eq!(
            block_on(client.chat(&endpoint(), &request()))
                .unwrap()
                .attempts,
            2
        );
    }

    #[test]
    fn a_malformed_2xx_body_is_retried_once() {
        let bad = || {
            Err(LlmError::BadResponse {
                detail: "not JSON".into(),
            })
        };
        let t = scripted(vec![bad(), ok("g")]);
        let client = RetryingClient::new(t, RetryPolicy::default());
        let r = block_on(client.chat(&endpoint(), &request())).unwrap();
        assert_eq!((r.content.as_str(), r.attempts), ("g", 2));
        let t = scripted(vec![bad(), bad(), ok("h")]);
        let client = RetryingClient::new(t, RetryPolicy::default());
        let e = block_on(client.chat(&endpoint(), &request())).unwrap_err();
        assert!(matches!(e, LlmError::BadResponse { .. }), "{e}");
        assert_eq!(client.stats().attempts, 2, "once, not six times");
    }

    #[test]
    fn honours_retry_after() {
        let t = scripted(vec![
            Err(LlmError::RateLimited {
                retry_after_s: Some(3),
            }),
            ok("c"),
        ]);
        let client = RetryingClient::new(t, RetryPolicy::default());
        let r = block_on(client.chat(&endpoint(), &request())).unwrap();
        assert_eq!(r.attempts, 2);
        assert_eq!(*client.inner().sleeps.borrow(), vec![3000]);
    }

    #[test]
    fn gives_up_after_max_attempts_with_the_last_error() {
        let t = scripted(vec![Err(server(503)); 8]);
        let client = RetryingClient::new(t, RetryPolicy::default());
        let e = block_on(client.chat(&endpoint(), &request())).unwrap_err();
        assert_eq!(e, server(503));
        assert_eq!(client.inner().calls.get(), 6);
        assert_eq!(client.stats().failed, 1);
    }

    #[test]
    fn never_retries_other_4xx_or_bad_bodies() {
        for e in [
            LlmError::Unauthorized { status: 401 },
            LlmError::Http {
                status: 400,
                body: String::new(),
            },
            LlmError::Http {
                status: 422,
                body: String::new(),
            },
            LlmError::TooLarge,
            LlmError::HtmlInsteadOfJson,
        ] {
            let client = RetryingClient::new(
                scripted(vec![Err(e.clone()), ok("no")]),
                RetryPolicy::default(),
            );
            assert_eq!(
                block_on(client.chat(&endpoint(), &request())).unwrap_err(),
                e
            );
            assert_eq!(client.inner().calls.get(), 1, "{e}");
        }
    }

    #[test]
    fn cancel_stops_before_and_between_attempts() {
        let token = CancelToken::new();
        token.cancel();
        let client =
            RetryingClient::new(scripted(vec![ok("x")]), RetryPolicy::default()).with_cancel(token);
        assert_eq!(
            block_on(client.chat(&endpoint(), &request())).unwrap_err(),
            LlmError::Cancelled
        );
        assert_eq!(client.inner().calls.get(), 0);

        // Cancelled during the first attempt: the 503 is not retried.
        let token = CancelToken::new();
        let mut t = scripted(vec![Err(server(503)), ok("x")]);
        t.on_call = Some(token.clone());
        let client = RetryingClient::new(t, RetryPolicy::default()).with_cancel(token);
        assert_eq!(
            block_on(client.chat(&endpoint(), &request())).unwrap_err(),
            LlmError::Cancelled
        );
        assert_eq!(client.inner().calls.get(), 1);
    }

    #[test]
    fn usable_as_dyn_transport() {
        let client = RetryingClient::new(scripted(vec![ok("d")]), RetryPolicy::default());
        let dyn_client: &dyn ChatTransport = &client;
        assert_eq!(
            block_on(dyn_client.chat(&endpoint(), &request()))
                .unwrap()
                .content,
            "d"
        );
        assert!(block_on(dyn_client.list_models(&endpoint())).is_err());
    }
}
