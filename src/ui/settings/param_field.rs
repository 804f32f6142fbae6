//! One editable number of the strategy's defaults (Settings page).

use leptos::prelude::*;

use crate::config::{EditableParam, Strategy};
use crate::ui::boxed::on_change;
use crate::ui::settings_store::settings_store;

use super::feedback::Feedback;

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
