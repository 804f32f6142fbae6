//! A scripted in-memory [`ChatTransport`] for tests and benchmarks of the pipeline: it
//! recognises the phase from the prompt, answers from a per-phase script, and logs when
//! each call starts and ends so tests can see that Phases 2 and 3 overlap.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures::future::LocalBoxFuture;

use crate::llm::{
    ChatMessage, ChatRequest, ChatResponse, ChatTransport, Endpoint, LlmError, Usage,
};

use super::report::Phase;

/// Which phase a request belongs to, from the system prompt our prompts write.
pub fn phase_of(messages: &[ChatMessage]) -> Option<Phase> {
    let system = &messages.first()?.content;
    if system.contains("Do not judge correctness") {
        Some(Phase::Decompose)
    } else if system.contains("strict fact checker") {
        Some(Phase::FactCheck)
    } else if system.contains("strict logic checker") {
        Some(Phase::LogicCheck)
    } else if system.contains("double-check the severity") {
        Some(Phase::ReverseCheck)
    } else {
        None
    }
}

/// Returns `Pending` a few times before completing, so concurrent calls interleave on a
/// single-threaded executor the way real network calls do.
struct YieldTimes(u32);

impl Future for YieldTimes {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 == 0 {
            return Poll::Ready(());
        }
        self.0 -= 1;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

#[derive(Default)]
pub struct ScriptedTransport {
    script: RefCell<HashMap<Phase, VecDeque<Result<String, LlmError>>>>,
    /// Answer when a phase's script is used up.
    fallback: HashMap<Phase, String>,
    /// `start:<phase>` / `end:<phase>` in the order they happened.
    pub log: RefCell<Vec<String>>,
    pub requests: RefCell<Vec<(Option<Phase>, ChatRequest)>>,
    pub latency_ms: u64,
    /// How many more replies of a phase say `finish_reason: "length"`.
    cut_off: RefCell<HashMap<Phase, u32>>,
    /// How replies are wrapped: as scripted, or as a chatty model that quotes the request.
    pub quoting: Quoting,
    /// Replies not cut off say `finish_reason: "stop"`; otherwise they say none (as some
    /// servers do), so JSON left open may be a cut.
    pub says_stop: bool,
}

/// A "naive quoting" verify model (docs/audit.md, "Reading replies"): it quotes the texts it
/// was given (the audited output with whatever it planted) before its own answer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Quoting {
    /// The reply as scripted.
    #[default]
    Off,
    /// The request's last user message quoted, then the reply between this call's answer lines.
    ThenMarked,
    /// The request's last user message quoted, then the reply with no markers.
    ThenBare,
}

/// `reply` as a quoting model writes it for `request`.
pub fn quoted_reply(quoting: Quoting, request: &ChatRequest, reply: &str) -> String {
    let prompt: String = request
        .messages
        .iter()
        .map(|m| m.content.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let user = request
        .messages
        .iter()
        .rev()
        .find(|m| m.role == "user")
        .map_or("", |m| m.content.as_str());
    match quoting {
        Quoting::Off => reply.to_string(),
        Quoting::ThenMarked => {
            let token = crate::llm::boundary::token_in(&prompt).unwrap_or("");
            format!(
                "Let me restate what I was given:\n{user}\n\nMy answer:\n<answer-{token}>\n{reply}\n</answer-{token}>"
            )
        }
        Quoting::ThenBare => {
            format!("Let me restate what I was given:\n{user}\n\nMy answer:\n{reply}")
        }
    }
}

impl ScriptedTransport {
    /// Every phase answers `reply` forever unless scripted otherwise.
    pub fn answering(replies: &[(Phase, &str)]) -> Self {
        Self {
            fallback: replies
                .iter()
                .map(|(p, r)| (*p, (*r).to_string()))
                .collect(),
            latency_ms: 10,
            ..Self::default()
        }
    }

    /// Queue replies (or errors) for one phase, used before the fallback.
    pub fn script(self, phase: Phase, replies: Vec<Result<String, LlmError>>) -> Self {
        self.script
            .borrow_mut()
            .entry(phase)
            .or_default()
            .extend(replies);
        self
    }

    /// Every reply quotes the request first (see [`Quoting`]).
    pub fn quoting(mut self, quoting: Quoting) -> Self {
        self.quoting = quoting;
        self
    }

    /// Replies not cut off report `finish_reason: "stop"` (the model ended its answer).
    pub fn says_stop(mut self) -> Self {
        self.says_stop = true;
        self
    }

    /// The next `n` replies of `phase` report `finish_reason: "length"` (cut off by
    /// `max_tokens`), whatever their text.
    pub fn cut_off(self, phase: Phase, n: u32) -> Self {
        self.cut_off.borrow_mut().insert(phase, n);
        self
    }

    pub fn calls_of(&self, phase: Phase) -> usize {
        self.requests
            .borrow()
            .iter()
            .filter(|(p, _)| *p == Some(phase))
            .count()
    }

    fn next_reply(&self, phase: Option<Phase>) -> Result<String, LlmError> {
        let Some(phase) = phase else {
            return Err(LlmError::BadResponse {
                detail: "scripted transport: unknown prompt".into(),
            });
        };
        if let Some(r) = self
            .script
            .borrow_mut()
            .get_mut(&phase)
            .and_then(VecDeque::pop_front)
        {
            return r;
        }
        self.fallback
            .get(&phase)
            .cloned()
            .ok_or(LlmError::EmptyChoices)
    }
}

impl ChatTransport for ScriptedTransport {
    fn chat<'a>(
        &'a self,
        _endpoint: &'a Endpoint,
        request: &'a ChatRequest,
    ) -> LocalBoxFuture<'a, Result<ChatResponse, LlmError>> {
        Box::pin(async move {
            let phase = phase_of(&request.messages);
            let name = phase.map(|p| format!("{p:?}")).unwrap_or_default();
            self.requests.borrow_mut().push((phase, request.clone()));
            self.log.borrow_mut().push(format!("start:{name}"));
            YieldTimes(3).await;
            self.log.borrow_mut().push(format!("end:{name}"));
            let content = quoted_reply(self.quoting, request, &self.next_reply(phase)?);
            let cut = phase
                .and_then(|p| {
                    self.cut_off.borrow_mut().get_mut(&p).map(|n| {
                        let cut = *n > 0;
                        *n = n.saturating_sub(1);
                        cut
                    })
                })
                .unwrap_or(false);
            Ok(ChatResponse {
                usage: Usage {
                    prompt_tokens: 100,
                    completion_tokens: 20,
                    total_tokens: 120,
                },
                content,
                latency_ms: self.latency_ms,
                attempts: 1,
                finish_reason: if cut {
                    Some("length".to_string())
                } else {
                    self.says_stop.then(|| "stop".to_string())
                },
            })
        })
    }
}
