//! One text field of an LLM entry (see `config::LlmField`). A base URL is checked (and
//! corrected, with a notice) and a key with control or non-ASCII characters refused as
//! they are entered.

use leptos::prelude::*;

use crate::config::LlmField;
use crate::ui::boxed::on_change;
use crate::ui::settings_store::settings_store;

use super::feedback::Feedback;

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
