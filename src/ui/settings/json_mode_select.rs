//! An LLM entry's JSON mode picker: every `JsonMode`, by its name in settings files.

use leptos::prelude::*;

use crate::llm::JsonMode;
use crate::ui::boxed::on_change;
use crate::ui::options::options;
use crate::ui::settings_store::settings_store;

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
