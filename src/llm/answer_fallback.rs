//! The extractor's LLM fallback (design note 001): when the rule-based extraction is not
//! confident and the user enabled the fallback, the verify model is asked for the final
//! answer only, and its reply is normalised by the same extractor.

use super::{ChatMessage, ChatRequest, ChatTransport, Endpoint, LlmError};

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

/// The prompt of the design note: final answer only, ignore intermediate values.
pub fn prompt(text: &str) -> String {
    format!(
        "You are extracting the FINAL ANSWER from a mathematical solution text.\n\n\
         Instructions:\n\
         1. Ignore intermediate calculations - focus only on the concluding answer.\n\
         2. Look for concluding statements like \"So the answer is...\", \"Therefore...\".\n\
         3. Extract the final value - return JUST the answer.\n\n\
         Text:\n{}\n\n\
         Output format:\n\
         - Return ONLY the final answer (a number, fraction or short expression)\n\
         - No explanation, no intermediate values\n\
         - If several numbers appear, return the one from the final conclusion\n\n\
         Final answer:",
        truncated(text)
    )
}

/// The request: deterministic (temperature 0) and short (30 tokens).
pub fn request(text: &str) -> ChatRequest {
    ChatRequest {
        messages: vec![ChatMessage::user(prompt(text))],
        temperature: 0.0,
        max_tokens: MAX_TOKENS,
    }
}

/// Asks the model and returns its raw reply, trimmed. Normalising it is the extractor's job.
pub async fn ask_final_answer(
    transport: &dyn ChatTransport,
    endpoint: &Endpoint,
    text: &str,
) -> Result<String, LlmError> {
    let req = request(text);
    let reply = transport.chat(endpoint, &req).await?;
    Ok(reply.content.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompt_says_final_answer_only_and_truncates() {
        let long = "步骤 ".repeat(1000) + "TAIL_MARKER";
        let p = prompt(&long);
        assert!(p.contains("FINAL ANSWER"));
        assert!(p.contains("Ignore intermediate calculations"));
        assert!(!p.contains("TAIL_MARKER"));
        assert!(p.chars().count() < MAX_TEXT_CHARS + 800);
        let r = request("So the answer is 54.");
        assert_eq!(r.temperature, 0.0);
        assert_eq!(r.max_tokens, 30);
        assert!(r.messages[0].content.contains("So the answer is 54."));
    }
}
