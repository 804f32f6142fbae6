//! The Settings page's strategy: its editable numbers, and the whole strategy as YAML (with
//! per-profile overrides) to edit, apply, or reload from the strategy in force.

use super::feedback::Feedback;
use crate::config::{EditableParam, Format, Strategy};
use crate::ui::boxed::{on_change, on_click};
use crate::ui::settings_store::settings_store;
use leptos::prelude::*;

/// The YAML of the strategy in force.
pub fn current_yaml() -> String {
    settings_store()
        .strategy
        .with_untracked(|s| s.to_text(Format::Yaml).unwrap_or_default())
}

/// `text`: the YAML being edited (a draft the page keeps).
#[component]
pub fn StrategyEditor(text: RwSignal<String>, feedback: Feedback) -> impl IntoView {
    let store = settings_store();
    let apply = move |_| {
        let t = text.get_untracked();
        match Strategy::from_text(&t, Format::sniff(&t)) {
            Ok(s) => {
                store.set_strategy(s);
                feedback.result(Ok("Strategy applied.".into()));
            }
            Err(e) => feedback.result(Err(format!("strategy: {e}"))),
        }
    };
    view! {
        <h2>"Strategy"</h2>
        <section class="card grid">
            {EditableParam::ALL
                .into_iter()
                .map(|param| view! { <ParamField param=param feedback=feedback/> }.into_any())
                .collect_view()}
        </section>
        <details class="card">
            <summary>"Strategy as YAML (per-profile overrides)"</summary>
            <textarea
                rows="14"
                data-testid="settings-strategy-yaml"
                prop:value=move || text.get()
                on:input=on_change(move |ev| text.set(event_target_value(&ev)))
            ></textarea>
            <div class="row">
                <button on:click=on_click(apply)>"Apply strategy"</button>
                <button on:click=on_click(move |_| text.set(current_yaml()))>"Reload from current"</button>
            </div>
        </details>
    }
}

// One editable number of the strategy's defaults (Settings page).

#[component]
pub fn ParamField(param: EditableParam, feedback: Feedback) -> impl IntoView {
    let label = param.label();
    let store = settings_store();
    let s2 = store.clone();
    view! {
        <label class="stack">
            <span>{label}</span>
            <input
                type="text"
                prop:value=move || store.strategy.with(|s| param.text(&s.params_for("")))
                on:change=on_change(move |ev| {
                    let text = event_target_value(&ev);
                    let mut strategy = s2.strategy.get_untracked();
                    let applied = param
                        .set(&mut strategy.defaults, &text)
                        .and_then(|_| {
                            Strategy::from_value(&strategy.to_value()).map_err(|e| e.to_string())
                        });
                    match applied {
                        Ok(checked) => {
                            s2.set_strategy(checked);
                            feedback.result(Ok(format!("{label} updated.")));
                        }
                        Err(e) => feedback.result(Err(e)),
                    }
                })
            />
        </label>
    }
}
