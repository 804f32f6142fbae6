//! The OpenAI chat-completions wire format and the error taxonomy, shared by both
//! transports: what we send, how a reply (or a failure) is read, and when to retry.

use serde_json::{json, Value};

use super::{ChatRequest, ChatResponse, Endpoint, JsonMode, LlmError, Usage};

/// `{base_url}/chat/completions`, tolerant of a trailing slash.
pub fn chat_url(endpoint: &Endpoint) -> String {
    format!(
        "{}/chat/completions",
        endpoint.base_url.trim_end_matches('/')
    )
}

/// `{base_url}/models`, for "Test connection".
pub fn models_url(base_url: &str) -> String {
    format!("{}/models", base_url.trim_end_matches('/'))
}

/// The request body. Only the fields every OpenAI-compatible server understands, plus the
/// profile's JSON mode.
pub fn request_body(endpoint: &Endpoint, request: &ChatRequest) -> String {
    let mut body = json!({
        "model": endpoint.model,
        "messages": request.messages,
        "temperature": request.temperature,
        "max_tokens": request.max_tokens,
    });
    let format = match endpoint.json_mode {
        JsonMode::None => None,
        JsonMode::JsonObject => Some(json!({"type": "json_object"})),
        // A permissive schema: servers that support structured output then emit JSON;
        // the contract itself is enforced by our own tolerant parser.
        JsonMode::JsonSchema => Some(json!({
            "type": "json_schema",
            "json_schema": {"name": "verifyfast", "schema": {"type": "object"}}
        })),
    };
    if let (Some(f), Some(obj)) = (format, body.as_object_mut()) {
        obj.insert("response_format".into(), f);
    }
    body.to_string()
}

/// The headers we send. Nothing else: any other header forces a CORS preflight that
/// local servers (Ollama, LM Studio) often reject. The key goes only to its own endpoint.
pub fn headers(api_key: Option<&str>) -> Vec<(&'static str, String)> {
    let mut h = vec![("Content-Type", "application/json".to_string())];
    if let Some(key) = api_key.map(str::trim).filter(|k| !k.is_empty()) {
        h.push(("Authorization", format!("Bearer {key}")));
    }
    h
}

/// Turn an HTTP status and body into the reply's text or a typed error.
pub fn read_response(
    url: &str,
    endpoint: &Endpoint,
    status: u16,
    retry_after: Option<&str>,
    body: &str,
) -> Result<(String, Usage), LlmError> {
    if !(200..300).contains(&status) {
        return Err(classify_status(url, endpoint, status, retry_after, body));
    }
    if looks_like_html(body) {
        return Err(LlmError::HtmlInsteadOfJson);
    }
    let v: Value = serde_json::from_str(body).map_err(|e| LlmError::BadResponse {
        detail: format!("not JSON ({e}): {}", snippet(body)),
    })?;
    let choices =
        v.get("choices")
            .and_then(Value::as_array)
            .ok_or_else(|| LlmError::BadResponse {
                detail: format!("no `choices` array: {}", snippet(body)),
            })?;
    let first = choices.first().ok_or(LlmError::EmptyChoices)?;
    let content = first
        .pointer("/message/content")
        .and_then(Value::as_str)
        .or_else(|| first.get("text").and_then(Value::as_str))
        .ok_or_else(|| LlmError::BadResponse {
            detail: "the first choice has no message content".into(),
        })?;
    Ok((content.to_string(), usage(&v)))
}

fn usage(v: &Value) -> Usage {
    let n = |k: &str| {
        v.pointer(&format!("/usage/{k}"))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    let (p, c) = (n("prompt_tokens"), n("completion_tokens"));
    let t = n("total_tokens");
    Usage {
        prompt_tokens: p,
        completion_tokens: c,
        total_tokens: if t > 0 { t } else { p + c },
    }
}

fn classify_status(
    url: &str,
    endpoint: &Endpoint,
    status: u16,
    retry_after: Option<&str>,
    body: &str,
) -> LlmError {
    let body = if looks_like_html(body) {
        "(an HTML error page)".to_string()
    } else {
        snippet(body)
    };
    match status {
        401 | 403 => LlmError::Unauthorized { status },
        404 => LlmError::NotFound {
            url: url.to_string(),
            model: endpoint.model.clone(),
        },
        413 => LlmError::TooLarge,
        429 => LlmError::RateLimited {
            retry_after_s: retry_after.and_then(parse_retry_after),
        },
        500..=599 => LlmError::Server { status, body },
        _ => LlmError::Http { status, body },
    }
}

/// Read a `GET /models` reply into model ids.
pub fn read_models(
    url: &str,
    endpoint: &Endpoint,
    status: u16,
    body: &str,
) -> Result<Vec<String>, LlmError> {
    if !(200..300).contains(&status) {
        return Err(classify_status(url, endpoint, status, None, body));
    }
    if looks_like_html(body) {
        return Err(LlmError::HtmlInsteadOfJson);
    }
    let v: Value = serde_json::from_str(body).map_err(|e| LlmError::BadResponse {
        detail: format!("not JSON ({e}): {}", snippet(body)),
    })?;
    let data = v
        .get("data")
        .or_else(|| v.get("models"))
        .and_then(Value::as_array)
        .ok_or_else(|| LlmError::BadResponse {
            detail: format!("no `data` list of models: {}", snippet(body)),
        })?;
    Ok(data
        .iter()
        .filter_map(|m| {
            m.get("id")
                .or_else(|| m.get("name"))
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .collect())
}

/// `Retry-After` in seconds (the HTTP-date form is rare for LLM servers; we ignore it).
pub fn parse_retry_after(v: &str) -> Option<u64> {
    let s = v.trim().parse::<f64>().ok()?;
    (s.is_finite() && s >= 0.0).then(|| s.ceil() as u64)
}

fn looks_like_html(body: &str) -> bool {
    let head = body
        .trim_start()
        .get(..15)
        .unwrap_or(body.trim_start())
        .to_ascii_lowercase();
    head.starts_with("<!doctype") || head.starts_with("<html")
}

/// A short, single-line excerpt of a body for error messages.
pub fn snippet(body: &str) -> String {
    let one_line: String = body.split_whitespace().collect::<Vec<_>>().join(" ");
    match one_line.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &one_line[..i]),
        None => one_line,
    }
}

/// Should this failure be tried again? Rate limits, gateway/availability errors and
/// network failures are transient; other 4xx and 500, bad replies, timeouts (the per-call
/// budget is spent) and cancel are not.
pub fn is_retryable(e: &LlmError) -> bool {
    matches!(e, LlmError::RateLimited { .. } | LlmError::Network { .. })
        || matches!(e, LlmError::Server { status, .. } if matches!(status, 502..=504))
}

/// Retry schedule: exponential from `base_ms`, capped, with up to 50 % jitter, but never
/// sooner than the server's `Retry-After`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    pub max_attempts: u32,
    pub base_ms: u64,
    pub max_ms: u64,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 4,
            base_ms: 500,
            max_ms: 20_000,
        }
    }
}

impl RetryPolicy {
    /// Delay before attempt `attempt + 1` (attempt counts from 1). `jitter` in [0, 1).
    pub fn delay_ms(&self, attempt: u32, error: &LlmError, jitter: f64) -> u64 {
        let exp = self
            .base_ms
            .saturating_mul(1u64 << attempt.saturating_sub(1).min(20))
            .min(self.max_ms);
        let jittered = exp + (exp as f64 * 0.5 * jitter.clamp(0.0, 1.0)) as u64;
        match error {
            LlmError::RateLimited {
                retry_after_s: Some(s),
            } => jittered.max(s.saturating_mul(1000)),
            _ => jittered,
        }
    }
}

/// Build the successful response record.
pub fn response(content: String, usage: Usage, latency_ms: u64, attempts: u32) -> ChatResponse {
    ChatResponse {
        content,
        usage,
        latency_ms,
        attempts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::ChatMessage;

    fn ep(mode: JsonMode) -> Endpoint {
        Endpoint {
            base_url: "http://h/v1/".into(),
            model: "m".into(),
            api_key: None,
            json_mode: mode,
        }
    }

    #[test]
    fn body_carries_model_messages_and_json_mode() {
        let req = ChatRequest {
            messages: vec![ChatMessage::user("hi")],
            temperature: 0.0,
            max_tokens: 30,
        };
        let v: Value = serde_json::from_str(&request_body(&ep(JsonMode::JsonObject), &req))
            .unwrap_or(Value::Null);
        assert_eq!(v["model"], "m");
        assert_eq!(v["messages"][0]["content"], "hi");
        assert_eq!(v["max_tokens"], 30);
        assert_eq!(v["response_format"]["type"], "json_object");
        let v: Value =
            serde_json::from_str(&request_body(&ep(JsonMode::None), &req)).unwrap_or(Value::Null);
        assert!(v.get("response_format").is_none());
        assert_eq!(
            chat_url(&ep(JsonMode::None)),
            "http://h/v1/chat/completions"
        );
    }

    #[test]
    fn only_two_headers_and_the_key_only_when_set() {
        assert_eq!(headers(None).len(), 1);
        assert_eq!(headers(Some("  ")).len(), 1);
        assert_eq!(
            headers(Some("sk")),
            vec![
                ("Content-Type", "application/json".into()),
                ("Authorization", "Bearer sk".into())
            ]
        );
    }

    #[test]
    fn reply_text_and_usage() {
        let body = r#"{"choices":[{"message":{"content":"42"}}],"usage":{"prompt_tokens":3,"completion_tokens":1}}"#;
        let (text, usage) =
            read_response("u", &ep(JsonMode::None), 200, None, body).unwrap_or_default();
        assert_eq!(text, "42");
        assert_eq!(usage.total_tokens, 4);
    }

    #[test]
    fn each_failure_is_typed() {
        let e = ep(JsonMode::None);
        let r = |status, ra, body| read_response("u", &e, status, ra, body).err();
        assert_eq!(
            r(401, None, ""),
            Some(LlmError::Unauthorized { status: 401 })
        );
        assert!(matches!(r(404, None, ""), Some(LlmError::NotFound { .. })));
        assert_eq!(r(413, None, ""), Some(LlmError::TooLarge));
        assert_eq!(
            r(429, Some("7"), ""),
            Some(LlmError::RateLimited {
                retry_after_s: Some(7)
            })
        );
        assert!(matches!(
            r(503, None, "busy"),
            Some(LlmError::Server { status: 503, .. })
        ));
        assert!(matches!(
            r(400, None, "bad"),
            Some(LlmError::Http { status: 400, .. })
        ));
        assert_eq!(
            r(200, None, "<!DOCTYPE html><p>login"),
            Some(LlmError::HtmlInsteadOfJson)
        );
        assert_eq!(
            r(200, None, r#"{"choices":[]}"#),
            Some(LlmError::EmptyChoices)
        );
        assert!(matches!(
            r(200, None, r#"{"choices":[{"mess"#),
            Some(LlmError::BadResponse { .. })
        ));
        assert!(matches!(
            r(200, None, r#"{"object":"list"}"#),
            Some(LlmError::BadResponse { .. })
        ));
    }

    #[test]
    fn retry_policy() {
        let p = RetryPolicy::default();
        assert!(is_retryable(&LlmError::RateLimited {
            retry_after_s: None
        }));
        assert!(is_retryable(&LlmError::Server {
            status: 502,
            body: String::new()
        }));
        assert!(!is_retryable(&LlmError::Server {
            status: 500,
            body: String::new()
        }));
        assert!(!is_retryable(&LlmError::Unauthorized { status: 401 }));
        assert!(!is_retryable(&LlmError::Cancelled));
        let net = LlmError::Network {
            url: String::new(),
            hint: String::new(),
        };
        assert_eq!(p.delay_ms(1, &net, 0.0), 500);
        assert_eq!(p.delay_ms(3, &net, 0.0), 2000);
        assert_eq!(p.delay_ms(3, &net, 0.999), 2999);
        assert_eq!(p.delay_ms(30, &net, 0.0), 20_000);
        assert_eq!(
            p.delay_ms(
                1,
                &LlmError::RateLimited {
                    retry_after_s: Some(3)
                },
                0.0
            ),
            3000
        );
    }
}
