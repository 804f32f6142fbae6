//! The Settings page's "Test connection" button for one LLM: lists the endpoint's models
//! and says whether the configured model is there, or why the server could not be reached.
//!
//! Usage on the Settings page (the page resolves the endpoint; keys come from the store):
//! ```ignore
//! let endpoint = Signal::derive(move || store.settings.with(|s| s.endpoint(&name, &|_| None).ok()));
//! view! { <TestConnection endpoint=endpoint/> }
//! ```

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::llm::browser::BrowserTransport;
use crate::llm::connection::{precheck, report, ConnectionReport, ConnectionStatus};
use crate::llm::{ChatTransport, Endpoint, RetryPolicy, RetryingClient};

/// A test should answer quickly: one attempt, 15 s at most.
const TEST_TIMEOUT_MS: u32 = 15_000;

#[component]
pub fn TestConnection(#[prop(into)] endpoint: Signal<Option<Endpoint>>) -> impl IntoView {
    let result = RwSignal::new(None::<ConnectionReport>);
    let busy = RwSignal::new(false);
    let run = move |_| {
        let Some(ep) = endpoint.get_untracked() else {
            result.set(Some(ConnectionReport {
                status: ConnectionStatus::Failed,
                message: "This LLM is not configured completely (base URL, model, key).".into(),
            }));
            return;
        };
        if let Some(problem) = precheck(&ep) {
            result.set(Some(problem));
            return;
        }
        busy.set(true);
        result.set(None);
        spawn_local(async move {
            let policy = RetryPolicy {
                max_attempts: 1,
                ..RetryPolicy::default()
            };
            let client = RetryingClient::new(BrowserTransport::new(TEST_TIMEOUT_MS), policy);
            let listed = client.list_models(&ep).await;
            result.set(Some(report(&ep, &listed)));
            busy.set(false);
        });
    };
    view! {
        <div class="stack">
            <div class="row">
                <button data-testid="settings-test-connection" on:click=run disabled=move || busy.get()>
                    {move || String::from(if busy.get() { "Testing…" } else { "Test connection" })}
                </button>
            </div>
            {move || {
                result
                    .get()
                    .map(|r| {
                        let class = r.css_class();
                        view! {
                            <p class=class data-testid="settings-test-connection-result" role="status">
                                {r.message}
                            </p>
                        }
                        .into_any()
                    })
            }}
        </div>
    }
}
