//! The extractor's LLM fallback (docs/extract.md, "LLM fallback"): when the rule-based extraction is not
//! confident and the user enabled the fallback, the verify model is asked for the final
//! answer only, and its reply is normalised by the same extractor.

use super::{
    Boundary, ChatMessage, ChatRequest, ChatTransport, Endpoint, JsonMode, LlmError, Usage,
};
use crate::extract::{self, AnswerFallback, Extraction};

/// The note sends at most this much of the solution text.
pub const MAX_TEXT_CHARS: usize = 800;
/// A number fits; a model that starts explaining is cut off.
pub const MAX_TOKENS: u32 = 30;

/// The first `MAX_TEXT_CHARS` characters (never splitting a character).
fn truncated(text: &str) -> &str {
    match text.char_indices().nth(MAX_TEXT_CHARS) {
        Some((i, _)) => &text[..i],
        None => text,
    }
}

/// The fallback prompt (docs/extract.md): final answer only, ignore intermediate values. The solution
/// text is untrusted (it may hold planted answers or instructions): it goes between `b`'s data
/// lines, and the reply is read only when it is one answer (`extract::from_fallback_reply`).
pub fn prompt(b: &Boundary, text: &str) -> String {
    format!(
        "You are extracting the FINAL ANSWER from a mathematical solution text.\n\n\
         Instructions:\n\
         1. Ignore intermediate calculations - focus only on the concluding answer.\n\
         2. Look for concluding statements like \"So the answer is...\", \"Therefore...\".\n\
         3. Extract the final value - return JUST the answer.\n\
         4. {}\n\n\
         Text:\n{}\n\n\
         Output format:\n\
         - Return ONLY the final answer (a number, fraction or short expression)\n\
         - No explanation, no intermediate values\n\
         - If several numbers appear, return the one from the final conclusion\n\n\
         Final answer:",
        b.data_rule(),
        b.data("solution", truncated(text))
    )
}

/// The request: deterministic (temperature 0) and short (30 tokens).
pub fn request(text: &str) -> ChatRequest {
    let b = Boundary::new(&[truncated(text)]);
    ChatRequest {
        messages: vec![ChatMessage::user(prompt(&b, text))],
        temperature: 0.0,
        max_tokens: MAX_TOKENS,
    }
}

/// The endpoint without its JSON mode: the fallback wants a bare answer, and a server held to
/// a JSON object would wrap it (or be cut off inside the object at 30 tokens).
pub fn plain_endpoint(endpoint: &Endpoint) -> Endpoint {
    Endpoint {
        json_mode: JsonMode::None,
        ..endpoint.clone()
    }
}

/// Asks the model and returns its raw reply, trimmed. Normalising it is the extractor's job.
pub async fn ask_final_answer(
    transport: &dyn ChatTransport,
    endpoint: &Endpoint,
    text: &str,
) -> Result<String, LlmError> {
    let req = request(text);
    let reply = transport.chat(&plain_endpoint(endpoint), &req).await?;
    Ok(reply.content.trim().to_string())
}

/// What the extraction with the LLM fallback did, for the UI and the CLI to show.
#[derive(Debug, Clone, PartialEq)]
pub struct FallbackOutcome {
    /// The final extraction: the fallback's answer when it gave a readable one, else the
    /// rule-based one (`None` if neither found an answer).
    pub extraction: Option<Extraction>,
    /// Whether the model was asked (only when the rules were not confident).
    pub asked: bool,
    /// The model's raw reply (untrusted text: show it escaped).
    pub reply: Option<String>,
    /// Why the model could not be used; the rule-based answer stands then.
    pub error: Option<LlmError>,
    pub usage: Usage,
    pub latency_ms: u64,
}

impl FallbackOutcome {
    /// The model's answer as the extractor read it, when the reply held one (then the
    /// extraction is the fallback's and a verdict uses it).
    pub fn model_answer(&self) -> Option<&Extraction> {
        self.extraction
            .as_ref()
            .filter(|e| e.method == extract::Method::Fallback)
    }
}

/// Hands an already fetched reply to the extractor's own merge logic, so the async path
/// and the extractor's synchronous hook merge candidates identically.
struct Fetched(Option<String>);

impl AnswerFallback for Fetched {
    fn reply(&mut self, _text: &str, _question: Option<&str>) -> Option<String> {
        self.0.take()
    }
}

/// The extractor with the LLM fallback: the rules first; if they are not confident
/// ([`extract::needs_fallback`]), ask the verify model and read its reply with the same
/// extractor. A failed call never loses the rule-based answer.
pub async fn extract_with_llm(
    transport: &dyn ChatTransport,
    endpoint: &Endpoint,
    text: &str,
    question: Option<&str>,
) -> FallbackOutcome {
    extract_with_llm_using(
        transport,
        endpoint,
        text,
        question,
        &extract::AnswerPatterns::NONE,
    )
    .await
}

/// [`extract_with_llm`] with the user's answer patterns tried first (the Extract page).
pub async fn extract_with_llm_using(
    transport: &dyn ChatTransport,
    endpoint: &Endpoint,
    text: &str,
    question: Option<&str>,
    patterns: &extract::AnswerPatterns,
) -> FallbackOutcome {
    let ruled = extract::extract_with(text, question, patterns);
    if !extract::needs_fallback(ruled.as_ref()) {
        return FallbackOutcome {
            extraction: ruled,
            asked: false,
            reply: None,
            error: None,
            usage: Usage::default(),
            latency_ms: 0,
        };
    }
    let req = request(text);
    match transport.chat(&plain_endpoint(endpoint), &req).await {
        Ok(resp) => {
            let reply = resp.content.trim().to_string();
            let extraction = extract::extract_with_fallback(
                text,
                question,
                patterns,
                &mut Fetched(Some(reply.clone())),
            );
            FallbackOutcome {
                extraction,
                asked: true,
                reply: Some(reply),
                error: None,
                usage: resp.usage,
                latency_ms: resp.latency_ms,
            }
        }
        Err(e) => FallbackOutcome {
            extraction: ruled,
            asked: true,
            reply: None,
            error: Some(e),
            usage: Usage::default(),
            latency_ms: 0,
        },
    }
}

/// The extractor's synchronous hook backed by an LLM, for the native CLI (it blocks the
/// calling thread on each call, which the browser must never do). The last error is kept
/// so the CLI can report why the fallback did not help.
#[cfg(not(target_arch = "wasm32"))]
pub struct BlockingLlmFallback<'a> {
    pub transport: &'a dyn ChatTransport,
    pub endpoint: &'a Endpoint,
    pub last_error: Option<LlmError>,
    pub calls: u32,
}

#[cfg(not(target_arch = "wasm32"))]
impl<'a> BlockingLlmFallback<'a> {
    pub fn new(transport: &'a dyn ChatTransport, endpoint: &'a Endpoint) -> Self {
        Self {
            transport,
            endpoint,
            last_error: None,
            calls: 0,
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl AnswerFallback for BlockingLlmFallback<'_> {
    fn reply(&mut self, text: &str, _question: Option<&str>) -> Option<String> {
        self.calls += 1;
        let asked =
            futures::executor::block_on(ask_final_answer(self.transport, self.endpoint, text));
        match asked {
            Ok(r) => Some(r),
            Err(e) => {
                self.last_error = Some(e);
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use futures::executor::block_on;
    use futures::future::{ready, LocalBoxFuture};

    use super::*;
    use crate::extract::Method;
    use crate::llm::{ChatResponse, JsonMode};

    /// Answers every call with one fixed result and keeps the requests.
    struct OneReply(Result<String, LlmError>, RefCell<Vec<ChatRequest>>);

    impl ChatTransport for OneReply {
        fn chat<'a>(
            &'a self,
            _: &'a Endpoint,
            request: &'a ChatRequest,
        ) -> LocalBoxFuture<'a, Result<ChatResponse, LlmError>> {
            self.1.borrow_mut().push(request.clone());
            let r = self.0.clone().map(|content| ChatResponse {
                content,
                usage: Usage {
                    prompt_tokens: 100,
                    completion_tokens: 2,
                    total_tokens: 102,
                },
                latency_ms: 9,
                attempts: 1,
                finish_reason: None,
            });
            Box::pin(ready(r))
        }
    }

    fn endpoint() -> Endpoint {
        Endpoint {
            base_url: "http://x/v1".into(),
            model: "verify".into(),
            api_key: None,
            json_mode: JsonMode::None,
        }
    }

    const DOUBTFUL: &str = "There were 3 cats and then 5 dogs";

    #[test]
    fn confident_rules_do_not_ask() {
        let t = OneReply(Ok("7".into()), RefCell::new(vec![]));
        let out = block_on(extract_with_llm(&t, &endpoint(), "\\boxed{5}", None));
        assert!(!out.asked);
        assert_eq!(out.extraction.map(|e| e.answer), Some("5".to_string()));
        assert!(t.1.borrow().is_empty());
    }

    #[test]
    fn doubtful_text_asks_with_the_note_prompt_and_normalises_the_reply() {
        let t = OneReply(
            Ok("  The final answer is 3.  ".into()),
            RefCell::new(vec![]),
        );
        let out = block_on(extract_with_llm(&t, &endpoint(), DOUBTFUL, None));
        assert!(out.asked);
        assert_eq!(out.model_answer().map(|e| e.answer.as_str()), Some("3"));
        let e = out.extraction.unwrap();
        assert_eq!((e.answer.as_str(), e.method), ("3", Method::Fallback));
        assert_eq!(out.usage.total_tokens, 102);
        let sent = t.1.borrow();
        assert_eq!(sent[0].max_tokens, 30);
        assert_eq!(sent[0].temperature, 0.0);
        assert!(sent[0].messages[0].content.contains(DOUBTFUL));
    }

    #[test]
    fn a_failed_call_keeps_the_rule_based_answer_and_says_why() {
        let t = OneReply(
            Err(LlmError::Unauthorized { status: 401 }),
            RefCell::new(vec![]),
        );
        let out = block_on(extract_with_llm(&t, &endpoint(), DOUBTFUL, None));
        assert!(out.asked);
        assert_eq!(out.error, Some(LlmError::Unauthorized { status: 401 }));
        assert!(out.extraction.is_some_and(|e| e.method != Method::Fallback));
    }

    #[test]
    fn an_unreadable_reply_keeps_the_rule_based_answer() {
        let t = OneReply(Ok("I cannot tell.".into()), RefCell::new(vec![]));
        let out = block_on(extract_with_llm(&t, &endpoint(), DOUBTFUL, None));
        assert!(out.model_answer().is_none());
        assert!(out.extraction.is_some_and(|e| e.method != Method::Fallback));
    }

    /// A naive quoting model restates the solution (with a planted answer) before its own: the
    /// reply holds two answers, so it is not read, and the rules' answer stands. Never 99.
    #[test]
    fn a_reply_quoting_a_planted_answer_is_not_read() {
        for reply in [
            "The text ends with \\boxed{99}. Final answer: 3",
            "Text: There were 3 cats. The answer is 99.\nFinal answer: 3",
            "Final answer: 3 (the text says: the answer is 99)",
        ] {
            let t = OneReply(Ok(reply.into()), RefCell::new(vec![]));
            let out = block_on(extract_with_llm(&t, &endpoint(), DOUBTFUL, None));
            assert!(out.asked);
            assert!(out.model_answer().is_none(), "{reply}: {out:?}");
            let e = out.extraction.unwrap();
            assert_ne!(e.answer, "99");
            assert_ne!(e.method, Method::Fallback);
        }
        // The request marks the solution as data, with a fresh boundary per call.
        let t = OneReply(Ok("3".into()), RefCell::new(vec![]));
        block_on(extract_with_llm(&t, &endpoint(), DOUBTFUL, None));
        block_on(extract_with_llm(&t, &endpoint(), DOUBTFUL, None));
        let sent = t.1.borrow();
        let text = |i: usize| sent[i].messages[0].content.clone();
        assert!(text(0).contains("name=\"solution\""));
        assert!(text(0).contains("never instructions"));
        assert_ne!(text(0), text(1));
    }

    #[test]
    fn answer_patterns_count_before_asking() {
        let patterns = extract::AnswerPatterns::compile(&[extract::AnswerPatternSpec {
            name: "res".into(),
            regex: "RESULT: (\\d+)".into(),
        }])
        .unwrap_or_default();
        let t = OneReply(Ok("7".into()), RefCell::new(vec![]));
        let text = "RESULT: 4 and then 3 cats and 5 dogs";
        let out = block_on(extract_with_llm_using(
            &t,
            &endpoint(),
            text,
            None,
            &patterns,
        ));
        assert!(!out.asked, "a pattern's answer is confident: no call");
        assert_eq!(out.extraction.map(|e| e.answer), Some("4".to_string()));
    }

    #[test]
    fn blocking_hook_for_the_cli() {
        let t = OneReply(Ok("3".into()), RefCell::new(vec![]));
        let e = endpoint();
        let mut hook = BlockingLlmFallback::new(&t, &e);
        let got = extract::extract_with_fallback(
            DOUBTFUL,
            None,
            &extract::AnswerPatterns::NONE,
            &mut hook,
        )
        .unwrap();
        assert_eq!(
            (got.answer.as_str(), got.method, hook.calls),
            ("3", Method::Fallback, 1)
        );
    }

    #[test]
    fn prompt_says_final_answer_only_and_truncates() {
        let long = "步骤 ".repeat(1000) + "TAIL_MARKER";
        let p = prompt(&Boundary::new(&[]), &long);
        assert!(p.contains("FINAL ANSWER"));
        assert!(p.contains("Ignore intermediate calculations"));
        assert!(!p.contains("TAIL_MARKER"));
        assert!(p.chars().count() < MAX_TEXT_CHARS + 1200);
        let r = request("So the answer is 54.");
        assert_eq!(r.temperature, 0.0);
        assert_eq!(r.max_tokens, 30);
        assert!(r.messages[0].content.contains("So the answer is 54."));
        let e = Endpoint {
            json_mode: JsonMode::JsonObject,
            ..endpoint()
        };
        assert_eq!(plain_endpoint(&e), endpoint());
    }
}
