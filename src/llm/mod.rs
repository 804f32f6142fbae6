//! OpenAI-compatible chat client: one async pipeline, two transports.
//!
//! This file fixes the interface the rest of the app codes against. The audit, the
//! extractor's LLM fallback and the logic researchers only see [`ChatTransport`]; the
//! browser transport (gloo-net) and the native one (CLI) implement it, and tests use a
//! scripted fake. Futures are `LocalBoxFuture` because browser futures are not `Send`.

use futures::future::LocalBoxFuture;
use serde::{Deserialize, Serialize};

/// Where a model lives. `api_key` is sent only as `Authorization: Bearer` to `base_url`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Endpoint {
    pub base_url: String,
    pub model: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key: Option<String>,
    #[serde(default)]
    pub json_mode: JsonMode,
}

crate::names::named_enum! {
    /// How the endpoint is asked for JSON output.
    #[derive(Default)]
    pub enum JsonMode {
        #[default]
        None = "none",
        JsonObject = "json_object",
        JsonSchema = "json_schema",
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatMessage {
    pub role: String,
    pub content: String,
}

impl ChatMessage {
    pub fn system(content: impl Into<String>) -> Self {
        Self {
            role: "system".into(),
            content: content.into(),
        }
    }
    pub fn user(content: impl Into<String>) -> Self {
        Self {
            role: "user".into(),
            content: content.into(),
        }
    }
    pub fn assistant(content: impl Into<String>) -> Self {
        Self {
            role: "assistant".into(),
            content: content.into(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatRequest {
    pub messages: Vec<ChatMessage>,
    pub temperature: f64,
    pub max_tokens: u32,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub total_tokens: u64,
}

/// One successful call: the first choice's text, usage, and wall time including retries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatResponse {
    pub content: String,
    pub usage: Usage,
    pub latency_ms: u64,
    /// How many attempts the call took (1 = no retry).
    pub attempts: u32,
    /// The first choice's `finish_reason` (`stop`, `length`, …) when the server sent one.
    /// `length` means the reply was cut off by `max_tokens`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish_reason: Option<String>,
}

impl ChatResponse {
    /// The server says the reply stopped at `max_tokens` (OpenAI `length`; some servers
    /// say `max_tokens`).
    pub fn hit_token_limit(&self) -> bool {
        matches!(self.finish_reason.as_deref(), Some("length" | "max_tokens"))
    }
}

/// Every way a call can fail, each with an explanation a user can act on.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LlmError {
    #[error("could not reach {url}: network error or CORS refusal (the browser cannot tell them apart). {hint}")]
    Network { url: String, hint: String },
    #[error(
        "the endpoint refused the API key (HTTP {status}): check the key for this LLM in Settings"
    )]
    Unauthorized { status: u16 },
    #[error("HTTP 404 from {url}: the base URL or the model name `{model}` is wrong")]
    NotFound { url: String, model: String },
    #[error(
        "HTTP 413: the request is too large for this endpoint (shorten the context or output)"
    )]
    TooLarge,
    /// The prompt does not fit the model's context window (llama.cpp's
    /// `exceed_context_size_error`, OpenAI's `context_length_exceeded`, vLLM's "maximum context
    /// length"): final, a retry would fail the same way.
    #[error("HTTP {status}: the prompt is longer than the model's context window{}: shorten the context or the output, or give the server a larger context (llama.cpp `-c`, Ollama `num_ctx`, vLLM `--max-model-len`). Server said: {body}", tokens.map(|(p, n)| format!(" ({p} prompt tokens, {n} available)")).unwrap_or_default())]
    ContextTooLong {
        status: u16,
        /// (prompt tokens, context size) when the server says.
        tokens: Option<(u64, u64)>,
        body: String,
    },
    #[error("HTTP 429: rate limited{}", retry_after_s.map(|s| format!(" (retry after {s} s)")).unwrap_or_default())]
    RateLimited { retry_after_s: Option<u64> },
    #[error("HTTP {status} from the server: {body}")]
    Server { status: u16, body: String },
    #[error("HTTP {status}: {body}")]
    Http { status: u16, body: String },
    #[error("no answer within {seconds} s (per-call timeout)")]
    Timeout { seconds: u64 },
    #[error("the endpoint answered with HTML, not JSON: is the base URL the API root (usually ending in /v1)?")]
    HtmlInsteadOfJson,
    #[error("the endpoint's answer is not an OpenAI chat completion: {detail}")]
    BadResponse { detail: String },
    /// A 2xx body whose JSON ends early: the transfer was cut (a dropped connection or a
    /// proxy), so another attempt can succeed. Retried like a network error.
    #[error("the answer was cut off in transit: {detail}")]
    CutOff { detail: String },
    /// Refused before sending: the base URL or the key cannot be used as they are.
    #[error("this LLM's settings cannot be used: {detail}")]
    InvalidEndpoint { detail: String },
    #[error("the endpoint returned no choices")]
    EmptyChoices,
    /// The body passed the size limit of a reply (`wire::MAX_REPLY_BYTES`, counted after
    /// decompression): a runaway or hostile server. Final: the same server would send it again.
    #[error("the endpoint's answer is larger than {limit_bytes} bytes (the limit of one reply, counted after decompression), so it was refused and not retried: check the server (a runaway generation, a wrong URL, or a gzip bomb)")]
    ReplyTooLarge { limit_bytes: u64 },
    /// A 2xx body that is not UTF-8 text: never decoded lossily (a replaced character could
    /// change what is read as the verdict).
    #[error("the endpoint's answer is not UTF-8 text (invalid byte at offset {offset}); it is not read or scored")]
    NotUtf8 { offset: usize },
    /// The reply ended for a reason that is neither a complete answer (`stop`) nor a cut at
    /// `max_tokens` (`length`): e.g. `content_filter`, `tool_calls`, or a server's own word.
    /// Never counted as `stop`.
    #[error("the model's reply ended with finish_reason `{reason}`, which is not a complete answer (`stop`) or a cut at max_tokens (`length`); it is not scored")]
    UnexpectedFinish { reason: String },
    #[error("cancelled")]
    Cancelled,
}

/// A way to send one chat completion request. Implementations do a single attempt;
/// retries, backoff and timing live in the shared client pipeline.
pub trait ChatTransport {
    fn chat<'a>(
        &'a self,
        endpoint: &'a Endpoint,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, LlmError>>;

    /// `GET {base_url}/models`, for "Test connection". Fakes that do not override it answer
    /// with a typed error instead of pretending to succeed.
    fn list_models<'a>(
        &'a self,
        endpoint: &'a Endpoint,
    ) -> LocalBoxFuture<'a, Result<Vec<String>, LlmError>> {
        let _ = endpoint;
        Box::pin(futures::future::ready(Err(LlmError::BadResponse {
            detail: "this transport cannot list models".into(),
        })))
    }

    /// Waits `ms` milliseconds; the retry pipeline uses it for backoff. Real transports
    /// override it with the platform's timer; the default returns at once so fakes and
    /// unit tests run without waiting.
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        let _ = ms;
        Box::pin(futures::future::ready(()))
    }

    /// A monotonic clock in milliseconds for wall-time measurement; fakes stand at zero.
    fn now_ms(&self) -> u64 {
        0
    }
}

// --- Client pipeline (additive to the interface above) ---

pub mod answer_fallback;
pub mod ask;
pub mod boundary;
pub mod cancel;
pub mod client;
pub mod connection;
pub mod redact;
pub mod reply;
pub mod retry;
pub mod wire;

#[cfg(target_arch = "wasm32")]
pub mod browser;
#[cfg(all(not(target_arch = "wasm32"), feature = "cli"))]
pub mod native;

pub use boundary::Boundary;
pub use cancel::CancelToken;
pub use client::{ClientStats, RetryingClient};
pub use redact::Secrets;
pub use retry::RetryPolicy;

/// Per-call timeout of both transports (the CLI reads `VERIFYFAST_TIMEOUT_MS` to change it).
pub const CALL_TIMEOUT_MS: u32 = 120_000;

#[cfg(test)]
mod json_mode_tests {
    use super::JsonMode;

    #[test]
    fn names_are_the_settings_file_names() {
        for m in JsonMode::ALL {
            let serde_name = serde_json::to_value(m).unwrap();
            assert_eq!(serde_name.as_str(), Some(m.as_str()));
            assert_eq!(JsonMode::from_name(m.as_str()), Some(m));
        }
        assert_eq!(JsonMode::from_name("JSON_OBJECT"), None);
    }
}
