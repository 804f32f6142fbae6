//! The Settings page's "Test connection" button for one LLM: lists the endpoint's models
//! and says whether the configured model is there, or why the server could not be reached.
//!
//! Usage on the Settings page, with the LLM's name in the settings (keys come from the store):
//! ```ignore
//! view! { <TestConnection llm=name/> }
//! ```

use leptos::prelude::*;

use crate::ui::boxed::on_click;
use leptos::task::spawn_local;

use crate::llm::browser::BrowserTransport;
use crate::llm::connection::{precheck, report, ConnectionReport, ConnectionStatus};
use crate::llm::{ChatTransport, Endpoint, RetryPolicy, RetryingClient};

/// A test should answer quickly: one attempt, 15 s at most.
const TEST_TIMEOUT_MS: u32 = 15_000;

#[component]
pub fn TestConnection(llm: String) -> impl IntoView {
    // Resolved when clicked (not a `Signal`: it is only read then, and each signal type
    // costs its own copy of the reactive code in the wasm).
    let store = crate::ui::settings_store::settings_store();
    // The endpoint, or why the page cannot call it yet (naming the missing field).
    let endpoint = move || -> Result<Endpoint, String> {
        store.settings.with_untracked(|s| {
            if let Some(why) = crate::view::settings::llm_problem(s, &llm) {
                return Err(why);
            }
            s.endpoint(&llm, &|_| None)
                .map_err(|e| crate::view::settings::page_message(&e))
        })
    };
    // The outcome's message and its CSS class, as signal types other components use too
    // (each signal type costs its own copy of the reactive code in the wasm).
    let result = RwSignal::new(None::<String>);
    let class = RwSignal::new(String::new());
    let show = move |r: ConnectionReport| {
        class.set(r.css_class().to_string());
        result.set(Some(r.message));
    };
    let busy = RwSignal::new(false);
    let run = move |_| {
        let ep = match endpoint() {
            Ok(ep) => ep,
            Err(message) => {
                show(ConnectionReport {
                    status: ConnectionStatus::Failed,
                    message,
                });
                return;
            }
        };
        if let Some(problem) = precheck(&ep) {
            show(problem);
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
            match &listed {
                // Down, or refused by CORS? A `no-cors` request succeeds whenever anything
                // answers (the page just may not read the answer).
                Err(crate::llm::LlmError::Network { .. }) => {
                    let url = format!("{}/models", ep.base_url.trim_end_matches('/'));
                    let answered = gloo_net::http::Request::get(&url)
                        .mode(web_sys::RequestMode::NoCors)
                        .send()
                        .await
                        .is_ok();
                    let shown = crate::llm::Secrets::of_endpoint(&ep)
                        .redact(&crate::llm::redact::redact_url(&ep.base_url));
                    show(ConnectionReport {
                        status: ConnectionStatus::Failed,
                        message: crate::view::settings::unreachable_message(&shown, answered),
                    });
                }
                _ => show(report(&ep, &listed)),
            }
            busy.set(false);
        });
    };
    view! {
        <div class="stack">
            <div class="row">
                <button data-testid="settings-test-connection" on:click=on_click(run) disabled=move || busy.get()>
                    {move || String::from(if busy.get() { "Testing…" } else { "Test connection" })}
                </button>
            </div>
            {move || {
                result
                    .get()
                    .map(|message| {
                        view! {
                            <p class=class.get_untracked() data-testid="settings-test-connection-result" role="status">
                                {message}
                            </p>
                        }
                        .into_any()
                    })
            }}
        </div>
    }
}
