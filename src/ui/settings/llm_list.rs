//! The Settings page's LLM entries, one card each, and "Add LLM".

use super::feedback::Feedback;
use super::names_list::names_list;
use super::test_connection::TestConnection;
use crate::config::LlmField;
use crate::llm::JsonMode;
use crate::ui::boxed::{on_change, on_click};
use crate::ui::options::options;
use crate::ui::settings_store::settings_store;
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn LlmList(feedback: Feedback) -> impl IntoView {
    let store = settings_store();
    let llm_names = {
        let store = store.clone();
        move || store.llm_names()
    };
    let add_llm = move |_| {
        store.update_settings(|s| {
            s.add_llm();
        })
    };
    view! {
        <h2>"LLMs"</h2>
        {names_list(
            Arc::new(llm_names),
            Arc::new(move |name| view! { <LlmCard name=name feedback=feedback/> }.into_any()),
        )}
        <div class="row">
            <button data-testid="settings-add-llm" on:click=on_click(add_llm)>"Add LLM"</button>
        </div>
    }
}

// One LLM entry on the Settings page: its name (renamed in place), its fields, its JSON
// mode, Remove and Test connection.

#[component]
pub fn LlmCard(name: String, feedback: Feedback) -> impl IntoView {
    let store = settings_store();
    let rename = {
        let (store, name) = (store.clone(), name.clone());
        move |ev| {
            let new = event_target_value(&ev);
            let mut result = Ok(());
            store.update_settings(|s| result = s.rename_llm(&name, &new));
            feedback.result(
                result
                    .map(|_| format!("LLM renamed to {new}."))
                    .map_err(|e| e.to_string()),
            );
        }
    };
    let remove = {
        let (store, name) = (store, name.clone());
        move |_| {
            let mut result = Ok(());
            store.update_settings(|s| result = s.remove_llm(&name));
            feedback.result(
                result
                    .map(|_| "LLM removed.".to_string())
                    .map_err(|e| e.to_string()),
            );
        }
    };
    view! {
        <section class="card stack" data-testid="settings-llm">
            <div class="row">
                <label class="stack">"Name" <input type="text" prop:value=name.clone() on:change=on_change(rename)/></label>
                <button on:click=on_click(remove)>"Remove"</button>
            </div>
            {LlmField::ALL
                .into_iter()
                .map(|field| view! { <LlmTextField name=name.clone() field=field feedback=feedback/> }.into_any())
                .collect_view()}
            <JsonModeSelect name=name.clone()/>
            <TestConnection llm=name.clone()/>
        </section>
    }
}

// An LLM entry's JSON mode picker: every `JsonMode`, by its name in settings files.

#[component]
pub fn JsonModeSelect(name: String) -> impl IntoView {
    let store = settings_store();
    let (s1, s2) = (store.clone(), store);
    let (n1, n2) = (name.clone(), name);
    view! {
        <label>
            "JSON mode "
            <select
                prop:value=move || {
                    s1.settings
                        .with(|s| s.llms.get(&n1).map(|l| l.json_mode).unwrap_or_default())
                        .as_str()
                        .to_string()
                }
                on:change=on_change(move |ev| {
                    let v = JsonMode::from_name(&event_target_value(&ev)).unwrap_or_default();
                    s2.update_llm(&n2, |l| l.json_mode = v)
                })
            >
                {options(JsonMode::ALL.iter().map(|m| m.as_str().to_string()).collect())}
            </select>
        </label>
    }
}

// One text field of an LLM entry (see `config::LlmField`). A base URL is checked (and
// corrected, with a notice) and a key with control or non-ASCII characters refused as
// they are entered.

#[component]
pub fn LlmTextField(name: String, field: LlmField, feedback: Feedback) -> impl IntoView {
    let store = settings_store();
    let (kind, testid) = match field {
        LlmField::BaseUrl => ("url", "settings-base-url"),
        LlmField::Model => ("text", "settings-model"),
        LlmField::ApiKey => ("password", "settings-api-key"),
    };
    let read = {
        let (store, name) = (store.clone(), name.clone());
        move || {
            store
                .settings
                .with(|s| s.llms.get(&name).map(|l| field.text(l)).unwrap_or_default())
        }
    };
    view! {
        <label class="stack">
            <span>{field.label()}</span>
            <input
                type=kind
                autocomplete="off"
                data-testid=testid
                prop:value=read
                on:change=on_change(move |ev| {
                    let v = event_target_value(&ev);
                    let mut outcome = Ok(None);
                    store.update_llm(&name, |l| outcome = field.set(l, &v));
                    match outcome {
                        Ok(Some(note)) => feedback.result(Ok(format!("{name}: {note}"))),
                        // A valid entry clears the error an earlier one left.
                        Ok(None) => feedback.error.set(None),
                        Err(e) => feedback.result(Err(format!(
                            "llms.{name}.{e} (not saved)"
                        ))),
                    }
                })
            />
        </label>
    }
}
