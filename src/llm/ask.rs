//! One question to a model, read through the one reply reader ([`super::reply`]) with the
//! re-asks every caller gets (the audit's phases, the Extract fallback, the Proof
//! researchers; docs/llm.md, "Reading replies"):
//! - a reply cut off by `max_tokens` (finish_reason `length`, or JSON that needed closing) is
//!   asked again once with twice the budget, and never becomes an answer;
//! - an unreadable reply is asked again once, quoting the reader's error;
//! - a reply whose answer cannot be located unambiguously (it may quote planted text) is
//!   asked again once with a fresh boundary and without the reply.
//!
//! Each call gets a fresh [`Boundary`]; everything recorded is redacted by the caller's
//! `redact`.

use futures::future::LocalBoxFuture;

use super::reply::{Finish, ParseError, ReadRules, Repair};
use super::{Boundary, ChatMessage, ChatRequest, ChatTransport, Endpoint, JsonMode, LlmError};
use super::{ChatResponse, Usage};
use crate::json::FromJson;

crate::names::named_enum! {
    /// Why a question got no usable answer.
    #[derive(Default)]
    pub enum FailureKind {
        /// The call failed after the client's retries (network, HTTP status, bad body).
        #[default]
        Endpoint = "endpoint",
        /// The model's reply could not be read, twice.
        Unreadable = "unreadable",
        /// The reply was cut off by `max_tokens`, also after asking with a larger budget.
        Truncated = "truncated",
        /// The user cancelled.
        Cancelled = "cancelled",
        /// The reply's answer could not be told apart from text it quotes, also after asking
        /// again (docs/llm.md, "Reading replies").
        Ambiguous = "ambiguous",
    }
}

impl FailureKind {
    pub fn label(self) -> &'static str {
        match self {
            FailureKind::Endpoint => "endpoint error",
            FailureKind::Unreadable => "unreadable reply",
            FailureKind::Truncated => "truncated",
            FailureKind::Cancelled => "cancelled",
            FailureKind::Ambiguous => "ambiguous reply",
        }
    }

    /// What the user can do about it, shown first on the page.
    pub fn fix(self) -> &'static str {
        match self {
            FailureKind::Endpoint => "Check the LLM in Settings (base URL, model, API key) and use Test connection; the reason above says what the server answered.",
            FailureKind::Unreadable => "The model did not answer in the required JSON shape: set its JSON mode to json_object in Settings, or use a stronger model.",
            FailureKind::Truncated => "The reply did not fit in max_tokens: raise defaults.max_tokens in Settings, shorten the context or output, or lower max_claims in the strategy.",
            FailureKind::Cancelled => "Run it again when ready.",
            FailureKind::Ambiguous => "The model did not give its answer once between the answer markers (it may have quoted the texts, or repeated them as JSON without JSON mode): set its JSON mode to json_object in Settings, or use a model that follows the format.",
        }
    }
}

/// What one question sends and how its reply is read.
pub struct Question<'a> {
    /// The model's name in the settings (`llms`), for error messages.
    pub name: &'a str,
    pub endpoint: &'a Endpoint,
    /// The messages for one call's boundary (a fresh one for every call).
    pub build: &'a dyn Fn(&Boundary) -> Vec<ChatMessage>,
    /// The untrusted texts `build` quotes: the boundary never occurs in them, and an answer
    /// that repeats them is refused.
    pub quoted: &'a [&'a str],
    pub temperature: f64,
    pub max_tokens: u32,
    /// The largest budget a cut-off reply is asked again with.
    pub max_tokens_ceiling: u32,
    /// See [`ReadRules::close_cut_off`].
    pub close_cut_off: bool,
    /// Applied to everything recorded or reported (API keys).
    pub redact: &'a dyn Fn(&str) -> String,
}

/// Everything the calls of one question did, for a transcript (keys redacted).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Exchange {
    pub calls: u32,
    /// `max_tokens` of the last call.
    pub max_tokens: u32,
    pub latency_ms: u64,
    pub tokens: Usage,
    /// Every call's messages as sent.
    pub prompts: Vec<Vec<ChatMessage>>,
    /// Every reply as received.
    pub raw_responses: Vec<String>,
    pub truncated_replies: u32,
    pub reasked: bool,
    /// What the reader had to do to the accepted reply.
    pub repairs: Vec<Repair>,
}

/// Why a question failed, and the sentence that says so (redacted).
pub type Failure = (FailureKind, String);

/// Reads one reply (redacted) under its call's rules into the caller's value; returns the
/// repairs.
pub type ReadReply<'a> = dyn FnMut(&str, &ReadRules) -> Result<Vec<Repair>, ParseError> + 'a;

fn add_usage(total: &mut Usage, u: &Usage) {
    total.prompt_tokens += u.prompt_tokens;
    total.completion_tokens += u.completion_tokens;
    total.total_tokens += u.total_tokens;
}

/// The re-ask after an unreadable reply: the request again (with this call's boundary), the
/// reply, and what was wrong with it.
pub fn reask(fresh: Vec<ChatMessage>, reply: &str, parse_error: &str) -> Vec<ChatMessage> {
    let mut messages = fresh;
    messages.push(ChatMessage::assistant(reply));
    messages.push(ChatMessage::user(format!(
        "Your reply could not be used: {parse_error}. Reply again: the JSON object in the \
required shape, every field present, nothing cut off, once, between the answer lines the \
instructions name."
    )));
    messages
}

/// The re-ask after a reply whose answer could not be located unambiguously: the request again
/// with a fresh boundary and a note, without the reply (it may quote planted text).
pub fn reask_ambiguous(fresh: Vec<ChatMessage>, why: &str) -> Vec<ChatMessage> {
    with_note(
        fresh,
        &format!(
            "Note: your previous reply could not be used ({why}). Do not quote the data. Write \
your answer once, between the answer lines the instructions name."
        ),
    )
}

/// `messages` with `note` appended to the last user message.
pub fn with_note(mut messages: Vec<ChatMessage>, note: &str) -> Vec<ChatMessage> {
    if let Some(user) = messages.iter_mut().rev().find(|m| m.role == "user") {
        user.content.push_str("\n\n");
        user.content.push_str(note);
    }
    messages
}

/// Ask `q` and read the reply as `T`, with the re-asks of this module. `reasking` hears each
/// re-ask's reason as it happens (the page's phase indicator).
pub async fn ask<T: FromJson>(
    transport: &dyn ChatTransport,
    q: &Question<'_>,
    exchange: &mut Exchange,
    reasking: &dyn Fn(&str),
) -> Result<T, Failure> {
    // The reply read last; `ask_any` accepts a reply only right after reading it.
    let mut value: Option<T> = None;
    let mut read = |raw: &str, rules: &ReadRules| {
        super::reply::parse_reply::<T>(raw, rules).map(|p| {
            value = Some(p.value);
            p.repairs
        })
    };
    ask_any(transport, q, exchange, reasking, &mut read).await?;
    value.ok_or_else(|| (FailureKind::Unreadable, "no reply was read".to_string()))
}

/// `ask` without its type parameter (the reply's type stays with `read`, which keeps what it
/// reads); boxed so its state machine is one copy, not one per reply type.
pub fn ask_any<'a>(
    transport: &'a dyn ChatTransport,
    q: &'a Question<'a>,
    exchange: &'a mut Exchange,
    reasking: &'a dyn Fn(&str),
    read: &'a mut ReadReply<'a>,
) -> LocalBoxFuture<'a, Result<(), Failure>> {
    Box::pin(async move {
        let redact = q.redact;
        let mut max_tokens = q.max_tokens;
        let mut first_error: Option<String> = None;
        // How the next call differs from the first request: after an unreadable reply, the
        // reply and the error; after an ambiguous one, a note.
        let mut again: Option<(Option<String>, String)> = None;
        // `max_tokens` of a cut-off reply, once it has been re-asked with more.
        let mut cut_at: Option<u32> = None;
        loop {
            let boundary = Boundary::new(q.quoted);
            let mut messages = (q.build)(&boundary);
            match &again {
                Some((Some(reply), error)) => messages = reask(messages, reply, error),
                Some((None, why)) => messages = reask_ambiguous(messages, why),
                None => {}
            }
            let request = ChatRequest {
                messages,
                temperature: q.temperature,
                max_tokens,
            };
            exchange.calls += 1;
            exchange.max_tokens = max_tokens;
            exchange.prompts.push(
                request
                    .messages
                    .iter()
                    .map(|m| ChatMessage {
                        role: m.role.clone(),
                        content: redact(&m.content),
                    })
                    .collect(),
            );
            let reply: ChatResponse = match transport.chat(q.endpoint, &request).await {
                Ok(reply) => reply,
                Err(e) => {
                    let said = redact(&format!("{} ({}): {e}", q.name, q.endpoint.model));
                    return Err(match (&e, cut_at) {
                        (LlmError::Cancelled, _) => (FailureKind::Cancelled, said),
                        (_, Some(first)) => (
                            FailureKind::Truncated,
                            format!("the reply was cut off at max_tokens {first}, and asking again with {max_tokens} failed: {said}"),
                        ),
                        _ => (FailureKind::Endpoint, said),
                    });
                }
            };
            exchange.latency_ms += reply.latency_ms;
            add_usage(&mut exchange.tokens, &reply.usage);
            let content = redact(&reply.content);
            exchange.raw_responses.push(content.clone());
            let rules = ReadRules {
                boundary: &boundary,
                json_mode: q.endpoint.json_mode != JsonMode::None,
                quoted: q.quoted,
                finish: Finish::of(&reply),
                close_cut_off: q.close_cut_off,
            };
            let parsed = read(&content, &rules);
            let cut_off = reply.hit_token_limit()
                || matches!(&parsed, Err(ParseError::CutOff(_)))
                || matches!(&parsed, Ok(repairs) if repairs.contains(&Repair::ClosedTruncatedJson));
            if cut_off {
                exchange.truncated_replies += 1;
                let next = max_tokens.saturating_mul(2).min(q.max_tokens_ceiling);
                if cut_at.is_none() && next > max_tokens {
                    cut_at = Some(max_tokens);
                    exchange.reasked = true;
                    reasking(&format!(
                        "the reply was cut off at max_tokens {max_tokens}; asking again with {next}"
                    ));
                    max_tokens = next;
                    continue;
                }
                let first = cut_at.unwrap_or(max_tokens);
                let budgets = if first == max_tokens {
                    format!("max_tokens {max_tokens}")
                } else {
                    format!("max_tokens {first}, then {max_tokens}")
                };
                return Err((
                    FailureKind::Truncated,
                    format!(
                        "the model's reply was cut off ({budgets}); a cut-off reply is never used"
                    ),
                ));
            }
            match parsed {
                Ok(repairs) => {
                    exchange.repairs = repairs;
                    return Ok(());
                }
                Err(e) => {
                    let ambiguous = matches!(e, ParseError::Ambiguous(_));
                    let error = redact(&e.to_string());
                    if let Some(first) = first_error {
                        let (kind, what) = if ambiguous {
                            (FailureKind::Ambiguous, "could not be located unambiguously")
                        } else {
                            (FailureKind::Unreadable, "could not be read")
                        };
                        return Err((
                            kind,
                            format!(
                                "the model's answer {what}, twice (first: {first}; after the re-ask: {error})"
                            ),
                        ));
                    }
                    exchange.reasked = true;
                    reasking(&error);
                    again = Some(if ambiguous {
                        (None, error.clone())
                    } else {
                        (Some(content), error.clone())
                    });
                    first_error = Some(error);
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reask_quotes_the_parse_error() {
        let original = vec![ChatMessage::system("s"), ChatMessage::user("u")];
        let m = reask(
            original.clone(),
            "oops",
            "the reply contains no JSON object",
        );
        assert_eq!(m.len(), original.len() + 2);
        assert_eq!(m[m.len() - 2].role, "assistant");
        assert!(m[m.len() - 1]
            .content
            .contains("the reply contains no JSON object"));
        let m = reask_ambiguous(original, "two answers");
        assert!(m[1].content.contains("two answers"));
    }
}
