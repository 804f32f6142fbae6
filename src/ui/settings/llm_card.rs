//! One LLM entry on the Settings page: its name (renamed in place), its fields, its JSON
//! mode, Remove and Test connection.

use leptos::prelude::*;

use super::test_connection::TestConnection;
use crate::config::LlmField;
use crate::ui::boxed::{on_change, on_click};
use crate::ui::settings_store::settings_store;

use super::feedback::Feedback;
use super::json_mode_select::JsonModeSelect;
use super::llm_text_field::LlmTextField;

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
