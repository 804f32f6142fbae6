//! The OpenAI-compatible wire format, free of any I/O so both transports share it and it is
//! tested natively: URLs, headers, the request body, parsing of answers and turning an HTTP
//! status plus body into a typed [`LlmError`].

use serde_json::{json, Value};

use super::redact::{key_problem, redact_url, userinfo_problem, Secrets};
use super::retry::parse_retry_after;
use super::{ChatRequest, ChatResponse, Endpoint, JsonMode, LlmError, Usage};

/// Longest piece of a server's error body we keep in an error message.
const BODY_SNIPPET_CHARS: usize = 300;

/// The largest reply body read, counted after decompression (docs/llm.md, "Size limits"): a
/// chat completion of 32,768 tokens (the largest `max_tokens` the audit asks for) is well
/// under 1 MB. A body past it is refused as [`LlmError::ReplyTooLarge`] and not retried.
pub const MAX_REPLY_BYTES: usize = 4 * 1024 * 1024;

/// A 2xx body as text: over [`MAX_REPLY_BYTES`] is [`LlmError::ReplyTooLarge`], bytes that
/// are not UTF-8 are [`LlmError::NotUtf8`] (never decoded lossily). Both transports read
/// their bytes through it; `bytes` may hold one byte more than the limit (a reader that
/// stopped at limit + 1 to tell "exactly the limit" from "more").
pub fn body_text(bytes: Vec<u8>) -> Result<String, LlmError> {
    if bytes.len() > MAX_REPLY_BYTES {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|e| LlmError::NotUtf8 {
        offset: e.utf8_error().valid_up_to(),
    })
}

/// The refusal of a body over [`MAX_REPLY_BYTES`].
pub fn too_large() -> LlmError {
    LlmError::ReplyTooLarge {
        limit_bytes: MAX_REPLY_BYTES as u64,
    }
}

/// An error body (non-2xx) as text for a message: only its start is ever shown, so it is cut
/// at [`MAX_REPLY_BYTES`] and decoded leniently.
pub fn error_body_text(bytes: &[u8]) -> String {
    let cut = &bytes[..bytes.len().min(MAX_REPLY_BYTES)];
    String::from_utf8_lossy(cut).into_owned()
}

/// `finish_reason`s of a complete answer (OpenAI and llama.cpp `stop`; TGI `eos_token` and
/// `stop_sequence`; Anthropic-style `end_turn`), and of a reply cut at `max_tokens`. Any
/// other is [`LlmError::UnexpectedFinish`].
const FINISHED: [&str; 5] = ["stop", "eos", "eos_token", "stop_sequence", "end_turn"];
const CUT_AT_MAX_TOKENS: [&str; 2] = ["length", "max_tokens"];

/// `{base_url}/chat/completions`, tolerant of a trailing slash in the base URL.
pub fn chat_url(endpoint: &Endpoint) -> String {
    format!(
        "{}/chat/completions",
        endpoint.base_url.trim_end_matches('/')
    )
}

/// `{base_url}/models`.
pub fn models_url(endpoint: &Endpoint) -> String {
    format!("{}/models", endpoint.base_url.trim_end_matches('/'))
}

/// The key, if one is set and not blank.
fn api_key(endpoint: &Endpoint) -> Option<&str> {
    endpoint
        .api_key
        .as_deref()
        .map(str::trim)
        .filter(|k| !k.is_empty())
}

/// The only headers we send. Anything beyond `Authorization` and `Content-Type` makes the
/// browser's CORS preflight ask for more than local servers allow.
pub fn headers(endpoint: &Endpoint, with_body: bool) -> Vec<(&'static str, String)> {
    let mut out = Vec::with_capacity(2);
    if let Some(key) = api_key(endpoint) {
        out.push(("Authorization", format!("Bearer {key}")));
    }
    if with_body {
        out.push(("Content-Type", "application/json".to_string()));
    }
    out
}

/// The JSON body of `POST /chat/completions`.
pub fn chat_body(endpoint: &Endpoint, request: &ChatRequest) -> Value {
    let mut body = json!({
        "model": endpoint.model,
        "messages": request.messages,
        "temperature": request.temperature,
        "max_tokens": request.max_tokens,
    });
    let format = match endpoint.json_mode {
        JsonMode::None => None,
        JsonMode::JsonObject => Some(json!({ "type": "json_object" })),
        // The request carries no schema of its own, so we ask for "some JSON object": the
        // callers parse and validate the shape themselves and re-ask on mismatch.
        JsonMode::JsonSchema => Some(json!({
            "type": "json_schema",
            "json_schema": {
                "name": "verifyfast_reply",
                "strict": false,
                "schema": { "type": "object" }
            }
        })),
    };
    if let (Some(format), Some(map)) = (format, body.as_object_mut()) {
        map.insert("response_format".into(), format);
    }
    body
}

fn looks_like_html(body: &str) -> bool {
    let head = body.trim_start();
    let lower: String = head
        .chars()
        .take(15)
        .collect::<String>()
        .to_ascii_lowercase();
    lower.starts_with("<!doctype") || lower.starts_with("<html") || lower.starts_with('<')
}

fn parse_json(body: &str) -> Result<Value, LlmError> {
    if looks_like_html(body) {
        return Err(LlmError::HtmlInsteadOfJson);
    }
    if body.trim().is_empty() {
        return Err(LlmError::BadResponse {
            detail: "the body is empty".into(),
        });
    }
    serde_json::from_str(body).map_err(|e| {
        if e.is_eof() {
            return LlmError::CutOff {
                detail: format!(
                    "the JSON is truncated (ends at line {}, column {}): {}",
                    e.line(),
                    e.column(),
                    snippet(body)
                ),
            };
        }
        LlmError::BadResponse {
            detail: format!(
                "the body is not valid JSON (line {}, column {}): {}",
                e.line(),
                e.column(),
                snippet(body)
            ),
        }
    })
}

/// The message of an OpenAI-style `{"error": {"message": ...}}` or `{"error": "..."}`.
fn error_message(v: &Value) -> Option<String> {
    let err = v.get("error")?;
    err.get("message")
        .and_then(Value::as_str)
        .or_else(|| err.as_str())
        .map(str::to_string)
}

fn parse_usage(v: &Value) -> Usage {
    let field = |name: &str| {
        v.get("usage")
            .and_then(|u| u.get(name))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    let prompt_tokens = field("prompt_tokens");
    let completion_tokens = field("completion_tokens");
    let total = field("total_tokens");
    Usage {
        prompt_tokens,
        completion_tokens,
        total_tokens: if total > 0 {
            total
        } else {
            prompt_tokens + completion_tokens
        },
    }
}

/// A successful chat completion body, read.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatBody {
    pub content: String,
    pub usage: Usage,
    pub finish_reason: Option<String>,
}

/// The first choice's text and the usage of a successful (HTTP 2xx) chat completion body.
pub fn parse_chat_response(body: &str) -> Result<(String, Usage), LlmError> {
    parse_chat_body(body).map(|b| (b.content, b.usage))
}

/// The first choice's text, `finish_reason` and the usage of a 2xx chat completion body.
pub fn parse_chat_body(body: &str) -> Result<ChatBody, LlmError> {
    let v = parse_json(body)?;
    let Some(choices) = v.get("choices") else {
        let detail = if let Some(msg) = error_message(&v) {
            format!("the server reported an error: {}", truncate(&msg))
        } else if v.get("data").is_some() {
            "this is a model list, not a chat completion (wrong path?)".into()
        } else {
            format!("no `choices` field in {}", snippet(body))
        };
        return Err(LlmError::BadResponse { detail });
    };
    let Some(choices) = choices.as_array() else {
        return Err(LlmError::BadResponse {
            detail: "`choices` is not a list".into(),
        });
    };
    let Some(first) = choices.first() else {
        return Err(LlmError::EmptyChoices);
    };
    let content = match first.get("message").and_then(|m| m.get("content")) {
        Some(Value::String(s)) => s.clone(),
        // Some servers send `null` content with the text in a reasoning field only.
        Some(Value::Null) | None => {
            if first.get("text").is_some() {
                return Err(LlmError::BadResponse {
                    detail: "this is a text completion (`choices[0].text`), not a chat completion: use the /v1 base URL of a chat endpoint".into(),
                });
            }
            return Err(LlmError::BadResponse {
                detail: "the first choice has no message text".into(),
            });
        }
        Some(other) => {
            return Err(LlmError::BadResponse {
                detail: format!(
                    "`message.content` is not text: {}",
                    snippet(&crate::jsonl::compact(other))
                ),
            })
        }
    };
    let finish_reason = first
        .get("finish_reason")
        .and_then(Value::as_str)
        .map(str::to_string);
    Ok(ChatBody {
        content,
        usage: parse_usage(&v),
        finish_reason,
    })
}

/// Model ids from `GET /models` (`{"data":[{"id":..}]}`, or Ollama's `{"models":[{"name":..}]}`).
pub fn parse_models(body: &str) -> Result<Vec<String>, LlmError> {
    let v = parse_json(body)?;
    let list = v
        .get("data")
        .and_then(Value::as_array)
        .map(|a| (a, "id"))
        .or_else(|| {
            v.get("models")
                .and_then(Value::as_array)
                .map(|a| (a, "name"))
        });
    let Some((items, key)) = list else {
        let detail = match error_message(&v) {
            Some(msg) => format!("the server reported an error: {}", truncate(&msg)),
            None => format!("no model list (`data`) in {}", snippet(body)),
        };
        return Err(LlmError::BadResponse { detail });
    };
    Ok(items
        .iter()
        .filter_map(|m| m.get(key).and_then(Value::as_str).map(str::to_string))
        .collect())
}

/// What a transport got over HTTP, before it is read: both transports (gloo-net in the
/// browser, ureq natively) hand it to the same readers below.
#[derive(Debug, Clone, PartialEq)]
pub enum HttpReply {
    /// A 2xx answer's body.
    Ok(String),
    Status {
        status: u16,
        body: String,
        /// The raw `Retry-After` header.
        retry_after: Option<String>,
    },
}

/// A reply other than 2xx as a typed error; `now_s` (Unix seconds) dates a `Retry-After`.
fn reply_error(reply: HttpReply, url: &str, endpoint: &Endpoint, now_s: Option<u64>) -> LlmError {
    match reply {
        HttpReply::Status {
            status,
            body,
            retry_after,
        } => {
            let retry_after_s = retry_after.and_then(|v| parse_retry_after(&v, now_s));
            scrub(
                classify_status(status, &body, url, endpoint, retry_after_s),
                endpoint,
            )
        }
        HttpReply::Ok(_) => LlmError::BadResponse {
            detail: "unexpected success".into(),
        },
    }
}

/// Reads a chat-completions reply that took `latency_ms`.
pub fn read_chat_reply(
    reply: HttpReply,
    url: &str,
    endpoint: &Endpoint,
    latency_ms: u64,
    now_s: Option<u64>,
) -> Result<ChatResponse, LlmError> {
    match reply {
        HttpReply::Ok(body) => {
            let read = parse_chat_body(&body).map_err(|e| scrub(e, endpoint))?;
            if let Some(reason) = read.finish_reason.as_deref() {
                if !FINISHED.contains(&reason) && !CUT_AT_MAX_TOKENS.contains(&reason) {
                    return Err(scrub(
                        LlmError::UnexpectedFinish {
                            reason: truncate(reason),
                        },
                        endpoint,
                    ));
                }
            }
            Ok(ChatResponse {
                // A model may repeat what it was sent; a key never goes further.
                content: Secrets::of_endpoint(endpoint).redact(&read.content),
                usage: read.usage,
                latency_ms,
                attempts: 1,
                finish_reason: read.finish_reason,
            })
        }
        other => Err(reply_error(other, url, endpoint, now_s)),
    }
}

/// Reads a `/models` reply.
pub fn read_models_reply(
    reply: HttpReply,
    url: &str,
    endpoint: &Endpoint,
    now_s: Option<u64>,
) -> Result<Vec<String>, LlmError> {
    match reply {
        HttpReply::Ok(body) => parse_models(&body).map_err(|e| scrub(e, endpoint)),
        other => Err(reply_error(other, url, endpoint, now_s)),
    }
}

/// A non-2xx answer as a typed error. `retry_after_s` is the parsed `Retry-After` header.
pub fn classify_status(
    status: u16,
    body: &str,
    url: &str,
    endpoint: &Endpoint,
    retry_after_s: Option<u64>,
) -> LlmError {
    let detail = redact(&body_detail(body), endpoint);
    if matches!(status, 400 | 413 | 422) {
        if let Some(tokens) = context_overflow(body) {
            return LlmError::ContextTooLong {
                status,
                tokens,
                body: detail,
            };
        }
    }
    match status {
        401 | 403 => LlmError::Unauthorized { status },
        404 => LlmError::NotFound {
            url: redact_url(url),
            model: endpoint.model.clone(),
        },
        413 => LlmError::TooLarge,
        429 => LlmError::RateLimited { retry_after_s },
        500..=599 => LlmError::Server {
            status,
            body: detail,
        },
        _ => LlmError::Http {
            status,
            body: detail,
        },
    }
}

/// `Some` when an error body says the prompt exceeds the context window; inside, the prompt
/// and context sizes when the server gives them (llama.cpp: `n_prompt_tokens`, `n_ctx`).
fn context_overflow(body: &str) -> Option<Option<(u64, u64)>> {
    let v: Value = serde_json::from_str(body).ok()?;
    let err = v.get("error")?;
    let field = |k: &str| err.get(k).and_then(Value::as_str).unwrap_or("");
    let message = field("message").to_ascii_lowercase();
    let typed = field("type") == "exceed_context_size_error"
        || field("code") == "context_length_exceeded"
        || message.contains("maximum context length")
        || message.contains("exceeds the available context size");
    if !typed {
        return None;
    }
    let num = |k: &str| err.get(k).and_then(Value::as_u64);
    Some(num("n_prompt_tokens").zip(num("n_ctx")))
}

/// What to show of an error body: the JSON error message if there is one, no HTML markup.
fn body_detail(body: &str) -> String {
    if looks_like_html(body) {
        return "(an HTML page)".into();
    }
    if let Ok(v) = serde_json::from_str::<Value>(body) {
        if let Some(msg) = error_message(&v) {
            return truncate(&msg);
        }
    }
    let trimmed = body.trim();
    if trimmed.is_empty() {
        "(empty body)".into()
    } else {
        truncate(trimmed)
    }
}

/// A server may echo the request; the key must never reach a message or a log. Runs after
/// any cut (a key split by the cut is caught too, see [`Secrets::redact`]).
pub fn redact(text: &str, endpoint: &Endpoint) -> String {
    Secrets::of_endpoint(endpoint).redact(text)
}

/// Every text of an error with the endpoint's secrets redacted and URLs without userinfo.
/// Both transports pass every error through it before it leaves the transport.
pub fn scrub(error: LlmError, endpoint: &Endpoint) -> LlmError {
    let secrets = Secrets::of_endpoint(endpoint);
    let r = |t: String| secrets.redact(&t);
    let u = |t: String| secrets.redact(&redact_url(&t));
    match error {
        LlmError::Network { url, hint } => LlmError::Network {
            url: u(url),
            hint: r(hint),
        },
        LlmError::NotFound { url, model } => LlmError::NotFound { url: u(url), model },
        LlmError::Server { status, body } => LlmError::Server {
            status,
            body: r(body),
        },
        LlmError::Http { status, body } => LlmError::Http {
            status,
            body: r(body),
        },
        LlmError::BadResponse { detail } => LlmError::BadResponse { detail: r(detail) },
        LlmError::CutOff { detail } => LlmError::CutOff { detail: r(detail) },
        LlmError::InvalidEndpoint { detail } => LlmError::InvalidEndpoint { detail: r(detail) },
        LlmError::UnexpectedFinish { reason } => LlmError::UnexpectedFinish { reason: r(reason) },
        other => other,
    }
}

/// Refuses, before anything is sent, a base URL the request would not go where the user
/// means (no `http://`/`https://`: a browser would resolve it against the page's own
/// origin), a base URL with userinfo (the client would send it as `Authorization: Basic`,
/// [`userinfo_problem`]) and a key the HTTP client would refuse (and echo) as a bad header.
pub fn check_endpoint(endpoint: &Endpoint) -> Result<(), LlmError> {
    let url = endpoint.base_url.trim();
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    if !(lower.starts_with("http://") || lower.starts_with("https://")) {
        return Err(LlmError::InvalidEndpoint {
            detail: format!(
                "the base URL `{}` does not start with http:// or https:// (fix it in Settings)",
                redact_url(url)
            ),
        });
    }
    if let Some(detail) = userinfo_problem(url) {
        return Err(LlmError::InvalidEndpoint { detail });
    }
    if let Some(problem) = api_key(endpoint).and_then(key_problem) {
        return Err(LlmError::InvalidEndpoint { detail: problem });
    }
    Ok(())
}

fn truncate(s: &str) -> String {
    if s.chars().count() <= BODY_SNIPPET_CHARS {
        return s.to_string();
    }
    let mut out: String = s.chars().take(BODY_SNIPPET_CHARS).collect();
    out.push('…');
    out
}

fn snippet(body: &str) -> String {
    format!("`{}`", truncate(body.trim()))
}

/// The explanation of a failed connection. A browser reports a CORS refusal exactly like
/// an unreachable server, so both causes are named together with each server's fix.
pub fn network_hint(detail: &str) -> String {
    let mut hint = String::from(
        "Either the server is not running / the URL is wrong, or the server refused this page's \
         origin (CORS). Fixes: Ollama: set OLLAMA_ORIGINS (e.g. OLLAMA_ORIGINS=\"*\") and restart \
         it; LM Studio: enable \"CORS\" in the server settings; vLLM: start it with \
         --allowed-origins '[\"*\"]'.",
    );
    let detail = detail.trim();
    if !detail.is_empty() {
        hint.push_str(" Detail: ");
        hint.push_str(&truncate(detail));
    }
    hint
}

/// The explanation of a failed connection from the CLI, where CORS does not apply.
pub fn native_network_hint(detail: &str) -> String {
    format!(
        "Is the server running and the base URL right (scheme, host, port, /v1)? Detail: {}",
        truncate(detail.trim())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::ChatMessage;

    fn endpoint(key: Option<&str>, mode: JsonMode) -> Endpoint {
        Endpoint {
            base_url: "http://127.0.0.1:1234/v1/".into(),
            model: "m1".into(),
            api_key: key.map(str::to_string),
            json_mode: mode,
        }
    }

    fn request() -> ChatRequest {
        ChatRequest {
            messages: vec![ChatMessage::system("s"), ChatMessage::user("u")],
            temperature: 0.1,
            max_tokens: 50,
        }
    }

    #[test]
    fn urls_drop_the_trailing_slash() {
        let e = endpoint(None, JsonMode::None);
        assert_eq!(chat_url(&e), "http://127.0.0.1:1234/v1/chat/completions");
        assert_eq!(models_url(&e), "http://127.0.0.1:1234/v1/models");
    }

    #[test]
    fn only_authorization_and_content_type_are_sent() {
        let with_key = headers(&endpoint(Some("sk-1"), JsonMode::None), true);
        assert_eq!(
            with_key,
            vec![
                ("Authorization", "Bearer sk-1".to_string()),
                ("Content-Type", "application/json".to_string())
            ]
        );
        assert_eq!(
            headers(&endpoint(None, JsonMode::None), true),
            vec![("Content-Type", "application/json".to_string())]
        );
        assert!(headers(&endpoint(Some("  "), JsonMode::None), false).is_empty());
    }

    #[test]
    fn body_carries_model_messages_and_sampling() {
        let b = chat_body(&endpoint(None, JsonMode::None), &request());
        assert_eq!(b["model"], "m1");
        assert_eq!(b["messages"][1]["role"], "user");
        assert_eq!(b["messages"][1]["content"], "u");
        assert_eq!(b["temperature"], 0.1);
        assert_eq!(b["max_tokens"], 50);
        assert!(b.get("response_format").is_none());
    }

    #[test]
    fn json_modes_set_response_format() {
        let o = chat_body(&endpoint(None, JsonMode::JsonObject), &request());
        assert_eq!(o["response_format"]["type"], "json_object");
        let s = chat_body(&endpoint(None, JsonMode::JsonSchema), &request());
        assert_eq!(s["response_format"]["type"], "json_schema");
        assert_eq!(
            s["response_format"]["json_schema"]["schema"]["type"],
            "object"
        );
    }

    #[test]
    fn parses_content_and_usage() {
        let body = r#"{"choices":[{"message":{"role":"assistant","content":"42"}}],
            "usage":{"prompt_tokens":10,"completion_tokens":2}}"#;
        let (text, usage) = parse_chat_response(body).unwrap();
        assert_eq!(text, "42");
        assert_eq!(usage.total_tokens, 12);
        assert_eq!(usage.prompt_tokens, 10);
    }

    #[test]
    fn missing_usage_is_zero() {
        let (_, usage) =
            parse_chat_response(r#"{"choices":[{"message":{"content":"x"}}]}"#).unwrap();
        assert_eq!(usage, Usage::default());
    }

    #[test]
    fn html_body_is_named() {
        let e = parse_chat_response("<!DOCTYPE html><html><body>hi</body></html>").unwrap_err();
        assert_eq!(e, LlmError::HtmlInsteadOfJson);
    }

    #[test]
    fn empty_choices_are_named() {
        assert_eq!(
            parse_chat_response(r#"{"choices":[]}"#).unwrap_err(),
            LlmError::EmptyChoices
        );
    }

    #[test]
    fn truncated_and_malformed_json_are_told_apart() {
        let LlmError::CutOff { detail } =
            parse_chat_response(r#"{"choices":[{"message":{"content":"4"#).unwrap_err()
        else {
            panic!("expected CutOff")
        };
        assert!(detail.contains("truncated"), "{detail}");
        let LlmError::BadResponse { detail } = parse_chat_response("{choices: nope}").unwrap_err()
        else {
            panic!("expected BadResponse")
        };
        assert!(detail.contains("not valid JSON"), "{detail}");
    }

    #[test]
    fn non_chat_json_is_explained() {
        let models = parse_chat_response(r#"{"object":"list","data":[{"id":"m"}]}"#).unwrap_err();
        assert!(models.to_string().contains("model list"), "{models}");
        let text = parse_chat_response(r#"{"choices":[{"text":"hi"}]}"#).unwrap_err();
        assert!(text.to_string().contains("text completion"), "{text}");
        let err = parse_chat_response(r#"{"error":{"message":"model overloaded"}}"#).unwrap_err();
        assert!(err.to_string().contains("model overloaded"), "{err}");
        let other = parse_chat_response(r#"[1,2]"#).unwrap_err();
        assert!(matches!(other, LlmError::BadResponse { .. }));
    }

    #[test]
    fn models_are_listed() {
        let ids = parse_models(r#"{"object":"list","data":[{"id":"a"},{"id":"b"}]}"#).unwrap();
        assert_eq!(ids, vec!["a", "b"]);
        let ollama = parse_models(r#"{"models":[{"name":"llama3"}]}"#).unwrap();
        assert_eq!(ollama, vec!["llama3"]);
        assert!(parse_models(r#"{"x":1}"#).is_err());
    }

    #[test]
    fn statuses_map_to_kinds() {
        let e = endpoint(Some("sk-secret"), JsonMode::None);
        let url = chat_url(&e);
        assert_eq!(
            classify_status(401, "", &url, &e, None),
            LlmError::Unauthorized { status: 401 }
        );
        assert_eq!(
            classify_status(403, "", &url, &e, None),
            LlmError::Unauthorized { status: 403 }
        );
        assert!(matches!(
            classify_status(404, "", &url, &e, None),
            LlmError::NotFound { model, .. } if model == "m1"
        ));
        assert_eq!(classify_status(413, "", &url, &e, None), LlmError::TooLarge);
        // llama.cpp's reply to a prompt over its -c (measured against llama-server).
        let llama = r#"{"error":{"code":400,"message":"request (9000 tokens) exceeds the available context size (8192 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":9000,"n_ctx":8192}}"#;
        let err = classify_status(400, llama, &url, &e, None);
        assert!(matches!(
            err,
            LlmError::ContextTooLong {
                status: 400,
                tokens: Some((9000, 8192)),
                ..
            }
        ));
        let text = err.to_string();
        assert!(
            text.contains(
                "longer than the model's context window (9000 prompt tokens, 8192 available)"
            ),
            "{text}"
        );
        // OpenAI's and vLLM's forms.
        let openai = r#"{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}"#;
        assert!(matches!(
            classify_status(400, openai, &url, &e, None),
            LlmError::ContextTooLong { tokens: None, .. }
        ));
        // Any other 400 stays a plain HTTP error.
        assert!(matches!(
            classify_status(
                400,
                r#"{"error":{"message":"bad temperature"}}"#,
                &url,
                &e,
                None
            ),
            LlmError::Http { status: 400, .. }
        ));
        assert_eq!(
            classify_status(429, "", &url, &e, Some(3)),
            LlmError::RateLimited {
                retry_after_s: Some(3)
            }
        );
        assert_eq!(
            classify_status(503, r#"{"error":{"message":"busy"}}"#, &url, &e, None),
            LlmError::Server {
                status: 503,
                body: "busy".into()
            }
        );
        assert_eq!(
            classify_status(400, "<html>bad</html>", &url, &e, None),
            LlmError::Http {
                status: 400,
                body: "(an HTML page)".into()
            }
        );
    }

    #[test]
    fn echoed_keys_are_redacted() {
        let e = endpoint(Some("sk-secret"), JsonMode::None);
        let err = classify_status(400, "bad key sk-secret here", "u", &e, None);
        assert!(!err.to_string().contains("sk-secret"), "{err}");
        assert!(err.to_string().contains("[api key]"));
    }

    #[test]
    fn long_bodies_are_cut() {
        let e = endpoint(None, JsonMode::None);
        let long = "x".repeat(5000);
        let LlmError::Server { body, .. } = classify_status(500, &long, "u", &e, None) else {
            panic!("expected Server")
        };
        assert!(body.chars().count() <= BODY_SNIPPET_CHARS + 1);
    }

    #[test]
    fn network_hint_names_both_causes_and_fixes() {
        let h = network_hint("TypeError: Failed to fetch");
        for needle in [
            "CORS",
            "not running",
            "OLLAMA_ORIGINS",
            "LM Studio",
            "--allowed-origins",
        ] {
            assert!(h.contains(needle), "missing {needle}: {h}");
        }
    }

    #[test]
    fn replies_read_the_same_for_both_transports() {
        let e = endpoint(Some("sk-secret"), JsonMode::None);
        let ok = HttpReply::Ok(
            r#"{"choices":[{"message":{"content":"hi"}}],"usage":{"prompt_tokens":3,"completion_tokens":1}}"#
                .into(),
        );
        let r = read_chat_reply(ok, "http://x/v1/chat/completions", &e, 12, None).unwrap();
        assert_eq!(
            (r.content.as_str(), r.latency_ms, r.attempts),
            ("hi", 12, 1)
        );
        let limited = HttpReply::Status {
            status: 429,
            body: "slow down".into(),
            retry_after: Some("2".into()),
        };
        assert_eq!(
            read_chat_reply(limited, "u", &e, 1, Some(0)),
            Err(LlmError::RateLimited {
                retry_after_s: Some(2)
            })
        );
        let denied = HttpReply::Status {
            status: 401,
            body: "bad key sk-secret".into(),
            retry_after: None,
        };
        assert_eq!(
            read_models_reply(denied, "u", &e, None),
            Err(LlmError::Unauthorized { status: 401 })
        );
        assert_eq!(
            read_models_reply(
                HttpReply::Ok(r#"{"data":[{"id":"m1"}]}"#.into()),
                "u",
                &e,
                None
            ),
            Ok(vec!["m1".to_string()])
        );
    }

    #[test]
    fn an_unknown_finish_reason_is_not_a_stop() {
        let e = endpoint(None, JsonMode::None);
        let body = |reason: &str| {
            HttpReply::Ok(format!(
                r#"{{"choices":[{{"message":{{"content":"{{}}"}},"finish_reason":"{reason}"}}]}}"#
            ))
        };
        for ok in ["stop", "eos", "end_turn", "length", "max_tokens"] {
            assert!(read_chat_reply(body(ok), "u", &e, 1, None).is_ok(), "{ok}");
        }
        for odd in ["content_filter", "tool_calls", "weird"] {
            let err = read_chat_reply(body(odd), "u", &e, 1, None).unwrap_err();
            assert_eq!(
                err,
                LlmError::UnexpectedFinish {
                    reason: odd.to_string()
                }
            );
            assert!(!crate::llm::retry::is_retryable(&err));
        }
        let none = HttpReply::Ok(r#"{"choices":[{"message":{"content":"{}"}}]}"#.into());
        assert!(read_chat_reply(none, "u", &e, 1, None).is_ok());
    }

    #[test]
    fn bodies_over_the_limit_or_not_utf8_are_typed_refusals() {
        assert_eq!(body_text(b"ok".to_vec()).unwrap(), "ok");
        let err = body_text(vec![b' '; MAX_REPLY_BYTES + 1]).unwrap_err();
        assert_eq!(err, too_large());
        assert!(err.to_string().contains("not retried"), "{err}");
        assert!(!crate::llm::retry::is_retryable(&err));
        let err = body_text(b"{\"a\":\"\xff\"}".to_vec()).unwrap_err();
        assert_eq!(err, LlmError::NotUtf8 { offset: 6 });
        assert!(!crate::llm::retry::is_retryable(&err));
        assert_eq!(error_body_text(b"bad \xff"), "bad \u{fffd}");
    }

    #[test]
    fn finish_reason_is_read() {
        let b = parse_chat_body(
            r#"{"choices":[{"message":{"content":"{\"a\":"},"finish_reason":"length"}]}"#,
        )
        .unwrap();
        assert_eq!(b.finish_reason.as_deref(), Some("length"));
    }

    const KEY: &str = "sk-leak-test-0123456789";

    fn keyed() -> Endpoint {
        Endpoint {
            base_url: "https://user:pa55word@127.0.0.1:1/v1".into(),
            model: "m1".into(),
            api_key: Some(KEY.into()),
            json_mode: JsonMode::None,
        }
    }

    fn assert_clean(text: &str) {
        assert!(!text.contains(KEY), "{text}");
        assert!(!text.contains(&KEY[..8]), "{text}");
        assert!(!text.contains("pa55word"), "{text}");
    }

    #[test]
    fn a_2xx_non_json_body_echoing_the_key_is_redacted() {
        let e = keyed();
        let body = format!("You sent Authorization: Bearer {KEY} -- not JSON");
        let err = read_chat_reply(HttpReply::Ok(body), "u", &e, 1, None).unwrap_err();
        assert_clean(&err.to_string());
        let body = format!("{{\"error\":{{\"message\":\"bad Bearer {KEY}\"}}}}");
        let err = read_chat_reply(HttpReply::Ok(body), "u", &e, 1, None).unwrap_err();
        assert_clean(&err.to_string());
        let err = read_models_reply(HttpReply::Ok(format!("{KEY} {{")), "u", &e, None).unwrap_err();
        assert_clean(&err.to_string());
    }

    #[test]
    fn a_key_split_by_the_300_character_cut_is_redacted() {
        let e = keyed();
        for pad in [280, 285, 290, 295, 296] {
            let body = format!("{}{KEY} trailing", "x".repeat(pad));
            let reply = HttpReply::Status {
                status: 500,
                body,
                retry_after: None,
            };
            let err = read_chat_reply(reply, "u", &e, 1, None).unwrap_err();
            let text = err.to_string();
            let cut = 300 - pad;
            assert!(!text.contains(&KEY[..cut.min(KEY.len())]), "{pad}: {text}");
        }
    }

    #[test]
    fn model_content_echoing_the_key_is_redacted() {
        let e = keyed();
        let body =
            format!("{{\"choices\":[{{\"message\":{{\"content\":\"your key is {KEY}\"}}}}]}}");
        let r = read_chat_reply(HttpReply::Ok(body), "u", &e, 1, None).unwrap();
        assert_clean(&r.content);
    }

    #[test]
    fn urls_in_errors_lose_their_userinfo() {
        let e = keyed();
        let url = chat_url(&e);
        let err = scrub(
            LlmError::Network {
                url: url.clone(),
                hint: format!("connect to {url} failed"),
            },
            &e,
        );
        assert_clean(&err.to_string());
        let reply = HttpReply::Status {
            status: 404,
            body: String::new(),
            retry_after: None,
        };
        assert_clean(
            &read_chat_reply(reply, &url, &e, 1, None)
                .unwrap_err()
                .to_string(),
        );
    }

    #[test]
    fn unusable_endpoints_are_refused_before_sending() {
        let mut e = keyed();
        // Userinfo would go out as `Authorization: Basic base64(user:pass)`.
        let err = check_endpoint(&e).unwrap_err().to_string();
        assert!(err.contains("api_key / api_key_env"), "{err}");
        assert!(err.contains("https://127.0.0.1:1/v1"), "{err}");
        assert_clean(&err);
        e.base_url = "https://127.0.0.1:1/v1".into();
        assert_eq!(check_endpoint(&e), Ok(()));
        e.base_url = "127.0.0.1:8080/v1".into();
        assert!(matches!(
            check_endpoint(&e),
            Err(LlmError::InvalidEndpoint { .. })
        ));
        e.base_url = "HTTP://host/v1".into();
        assert_eq!(check_endpoint(&e), Ok(()));
        e.api_key = Some(format!("{KEY}\r\nX: y"));
        let err = check_endpoint(&e).unwrap_err().to_string();
        assert!(err.contains("control character"), "{err}");
        assert_clean(&err);
    }
}
