//! "Test connection": turning the answer of `GET {base_url}/models` into one message a user
//! can act on. Pure; the Settings page's button only shows it.

use super::{Endpoint, LlmError};

/// How many listed model ids a message quotes before "…".
const LISTED: usize = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConnectionStatus {
    /// Reached, and the configured model is listed.
    Ok,
    /// Reached, but something needs a look (model not listed, empty list).
    Warning,
    Failed,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectionReport {
    pub status: ConnectionStatus,
    pub message: String,
}

impl ConnectionReport {
    fn new(status: ConnectionStatus, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
        }
    }

    /// The app's CSS class for the message (`.ok`, `.notice`, `.error`).
    pub fn css_class(&self) -> &'static str {
        match self.status {
            ConnectionStatus::Ok => "ok",
            ConnectionStatus::Warning => "notice",
            ConnectionStatus::Failed => "error",
        }
    }
}

/// Problems visible before any request: no URL, or not an http(s) URL.
pub fn precheck(endpoint: &Endpoint) -> Option<ConnectionReport> {
    let url = endpoint.base_url.trim();
    if url.is_empty() {
        return Some(ConnectionReport::new(
            ConnectionStatus::Failed,
            "Set the base URL first (the API root, e.g. http://localhost:11434/v1).",
        ));
    }
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Some(ConnectionReport::new(
            ConnectionStatus::Failed,
            format!(
                "The base URL must start with http:// or https:// (got `{}`).",
                super::Secrets::of_endpoint(endpoint).redact(&super::redact::redact_url(url))
            ),
        ));
    }
    None
}

fn quoted_list(ids: &[String]) -> String {
    let mut shown: Vec<String> = ids.iter().take(LISTED).map(|i| format!("`{i}`")).collect();
    if ids.len() > LISTED {
        shown.push("…".into());
    }
    shown.join(", ")
}

/// The message for the result of listing the endpoint's models.
pub fn report(endpoint: &Endpoint, result: &Result<Vec<String>, LlmError>) -> ConnectionReport {
    let model = endpoint.model.trim();
    match result {
        Err(e) => ConnectionReport::new(ConnectionStatus::Failed, format!("Connection failed: {e}")),
        Ok(ids) if ids.is_empty() => ConnectionReport::new(
            ConnectionStatus::Warning,
            "Connected, but the server lists no models; chat calls may still work.",
        ),
        Ok(ids) if model.is_empty() => ConnectionReport::new(
            ConnectionStatus::Warning,
            format!(
                "Connected ({} models: {}), but no model name is set.",
                ids.len(),
                quoted_list(ids)
            ),
        ),
        Ok(ids) if ids.iter().any(|i| i == model) => ConnectionReport::new(
            ConnectionStatus::Ok,
            format!("Connected: model `{model}` is available ({} models listed).", ids.len()),
        ),
        Ok(ids) => ConnectionReport::new(
            ConnectionStatus::Warning,
            format!(
                "Connected, but model `{model}` is not among the {} listed: {}. Check the model name.",
                ids.len(),
                quoted_list(ids)
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::JsonMode;

    fn endpoint(url: &str, model: &str) -> Endpoint {
        Endpoint {
            base_url: url.into(),
            model: model.into(),
            api_key: None,
            json_mode: JsonMode::None,
        }
    }

    fn ids(list: &[&str]) -> Result<Vec<String>, LlmError> {
        Ok(list.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn a_schemeless_url_is_quoted_without_its_keys() {
        let r = precheck(&endpoint(
            "user:sk-pass-0123@gw.example/v1?api-key=sk-q-0123",
            "m",
        ))
        .unwrap();
        assert!(!r.message.contains("sk-"), "{}", r.message);
        assert!(
            r.message.contains("gw.example/v1?api-key=[api key]"),
            "{}",
            r.message
        );
    }

    #[test]
    fn listed_model_is_ok() {
        let r = report(&endpoint("http://x/v1", "m"), &ids(&["a", "m"]));
        assert_eq!(r.status, ConnectionStatus::Ok);
        assert!(
            r.message.contains("`m` is available (2 models"),
            "{}",
            r.message
        );
        assert_eq!(r.css_class(), "ok");
    }

    #[test]
    fn unlisted_model_is_a_warning_quoting_a_few_ids() {
        let r = report(
            &endpoint("http://x/v1", "gpt"),
            &ids(&["a", "b", "c", "d", "e", "f", "g"]),
        );
        assert_eq!(r.status, ConnectionStatus::Warning);
        assert!(
            r.message
                .contains("not among the 7 listed: `a`, `b`, `c`, `d`, `e`, …"),
            "{}",
            r.message
        );
        let empty = report(&endpoint("http://x/v1", "gpt"), &ids(&[]));
        assert_eq!(empty.status, ConnectionStatus::Warning);
        let unnamed = report(&endpoint("http://x/v1", " "), &ids(&["a"]));
        assert!(unnamed.message.contains("no model name"));
    }

    #[test]
    fn failures_carry_the_typed_explanation() {
        let r = report(
            &endpoint("http://x/v1", "m"),
            &Err(LlmError::Network {
                url: "http://x/v1/models".into(),
                hint: crate::llm::wire::network_hint("Failed to fetch"),
            }),
        );
        assert_eq!(r.status, ConnectionStatus::Failed);
        assert!(r.message.contains("CORS") && r.message.contains("OLLAMA_ORIGINS"));
        assert_eq!(r.css_class(), "error");
    }

    #[test]
    fn precheck_catches_missing_or_odd_urls() {
        assert!(precheck(&endpoint("", "m")).is_some());
        assert!(precheck(&endpoint("localhost:1234/v1", "m"))
            .is_some_and(|r| r.message.contains("http://")));
        assert!(precheck(&endpoint("https://api.example.com/v1", "m")).is_none());
    }
}
