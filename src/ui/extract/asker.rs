//! The single-solution LLM fallback's asks: which text was asked about, the call in flight,
//! its cancel and its result. The view is `ui::extract::fallback_single`.

use futures::future::{AbortHandle, Abortable};
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::verify_model::transport;
use super::verify_model::verify_endpoint;
use crate::extract::{AnswerPatterns, Extraction, Verdict};
use crate::llm::answer_fallback::extract_with_llm_using;
use crate::llm::answer_fallback::FallbackOutcome;
use crate::view::extract::single_mode::ChoiceFound;

/// The extraction memo of the page ([`Evaluated`]).
pub type SingleResult = Memo<Evaluated>;

/// What the view shows of one solution: its text, the extraction, the verdict (with a ground
/// truth) and, in multiple-choice grading, the option letters found.
pub type Evaluated = (
    String,
    Option<Extraction>,
    Option<Verdict>,
    Option<ChoiceFound>,
);

/// One ask: for which text and question, and its state.
#[derive(Debug, Clone, PartialEq)]
pub enum Asked {
    Running,
    Failed(String),
    Done(FallbackOutcome),
}

/// The asks of one page, in one `Copy` value: the handlers call its methods, each compiled once
/// (wasm size).
#[derive(Clone, Copy)]
pub struct Asker {
    pub result: SingleResult,
    pub question: RwSignal<String>,
    pub patterns: Memo<AnswerPatterns>,
    pub profile: RwSignal<String>,
    pub asked: RwSignal<Option<((String, String), Asked)>>,
    pub abort: StoredValue<Option<AbortHandle>>,
    /// Only the latest ask may write its result (an aborted older one would say "cancelled").
    pub generation: StoredValue<u64>,
    pub timer: StoredValue<Option<TimeoutHandle>>,
}

impl Asker {
    pub fn stop(self) {
        if let Some(Some(h)) = self.abort.try_get_value() {
            h.abort();
        }
        if let Some(Some(t)) = self.timer.try_get_value() {
            t.clear();
        }
    }

    #[inline(never)]
    pub fn ask(self) {
        self.stop();
        let k = (
            self.result.with(|r| r.0.clone()),
            self.question.get_untracked(),
        );
        let endpoint = match verify_endpoint(&self.profile.get_untracked()) {
            Ok(e) => e,
            Err(e) => return self.asked.set(Some((k, Asked::Failed(e)))),
        };
        let (text, q) = k.clone();
        let pats = self.patterns.get_untracked();
        self.asked.set(Some((k.clone(), Asked::Running)));
        let mine = self.generation.get_value() + 1;
        self.generation.set_value(mine);
        let (handle, registration) = AbortHandle::new_pair();
        self.abort.set_value(Some(handle));
        spawn_local(async move {
            let client = transport();
            let q = (!q.trim().is_empty()).then_some(q.as_str());
            let call = extract_with_llm_using(&*client, &endpoint, &text, q, &pats);
            let state = match Abortable::new(call, registration).await {
                Ok(out) => Asked::Done(out),
                Err(_) => Asked::Failed("cancelled".into()),
            };
            // A page left meanwhile has disposed the signals: nothing to show.
            if self.generation.try_get_value() == Some(mine) {
                let _ = self.asked.try_set(Some((k, state)));
            }
        });
    }

    /// The state of the ask about the current text and question, if any (tracked).
    #[inline(never)]
    pub fn current(self) -> Option<Asked> {
        let q = self.question.get();
        self.result.with(|r| {
            self.asked.with(|a| {
                a.as_ref()
                    .filter(|((t, aq), _)| *t == r.0 && *aq == q)
                    .map(|(_, s)| s.clone())
            })
        })
    }

    pub fn running(self) -> bool {
        matches!(self.current(), Some(Asked::Running))
    }
}
