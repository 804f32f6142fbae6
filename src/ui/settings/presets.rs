//! The Settings page's first-run help and one-click presets: with no LLM yet it says what to
//! configure and offers the demo; each preset adds the server's usual address (docs/llm.md).
//! What a preset fills in is `view::settings`.

use leptos::prelude::*;

use crate::ui::boxed::{on_click, part};
use crate::ui::settings_store::settings_store;
use crate::view::settings::{apply_preset, PRESETS};

use super::feedback::Feedback;

pub fn presets(feedback: Feedback) -> AnyView {
    let store = settings_store();
    let empty = {
        let store = store.clone();
        move || store.settings.with(|s| s.llms.is_empty())
    };
    let buttons = PRESETS
        .iter()
        .map(|p| {
            let store = store.clone();
            let add = move |_| {
                let mut added = (String::new(), None);
                store.update_settings(|s| added = apply_preset(s, p));
                let (llm, profile) = added;
                let profile = profile
                    .map(|n| format!(" and the profile `{n}`"))
                    .unwrap_or_default();
                let key = if p.needs_key {
                    " Paste its API key,"
                } else {
                    ""
                };
                feedback.result(Ok(format!(
                    "Added the LLM `{llm}`{profile} for {}.{key} Set the model name the server serves, then Test connection. {}",
                    p.label, p.hint
                )));
            };
            view! {
                <button data-testid=format!("settings-preset-{}", p.id) title=p.hint on:click=on_click(add)>
                    {p.label}
                </button>
            }
            .into_any()
        })
        .collect_view();
    view! {
        {part(move || empty().then(|| view! {
            <div class="card stack first-run" data-testid="settings-first-run">
                <h2>"No model server yet"</h2>
                <p>
                    "Audits, the extractor's fallback and the Proof page's researchers call an OpenAI-compatible server you run or use: its base URL (the API root, ending in /v1), the model name it serves, and a key if it needs one. Pick your server below to fill in its usual address, then set the model and press Test connection."
                </p>
                <p>
                    "No server? Look at the demo, which needs none: a sample "
                    <a href="report?example=demo" data-testid="settings-demo-report">"band report"</a>", a "
                    <a href="compare?example=demo" data-testid="settings-demo-compare">"comparison of two profiles"</a>" and a recorded "
                    <a href="audit?example=demo" data-testid="settings-demo-audit">"audit"</a>"."
                </p>
            </div>
        }.into_any()))}
        <div class="stack" data-testid="settings-presets">
            <span class="muted">"Add a server (one click fills in its usual address; see docs/llm.md):"</span>
            <div class="row">{buttons}</div>
        </div>
    }
    .into_any()
}
