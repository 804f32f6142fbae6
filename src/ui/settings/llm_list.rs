//! The Settings page's LLM entries, one card each, and "Add LLM".

use std::sync::Arc;

use leptos::prelude::*;

use crate::ui::boxed::on_click;
use crate::ui::settings_store::settings_store;

use super::feedback::Feedback;
use super::llm_card::LlmCard;
use super::names_list::names_list;

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
