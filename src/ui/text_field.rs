//! A labelled text box bound to a signal: a textarea when `rows` is given, else a one-line input.

use leptos::prelude::*;

#[component]
pub fn TextField(
    label: &'static str,
    testid: &'static str,
    value: RwSignal<String>,
    #[prop(optional)] rows: Option<u32>,
) -> impl IntoView {
    let field = match rows {
        Some(rows) => view! {
            <textarea
                data-testid=testid
                rows=rows.to_string()
                prop:value=move || value.get()
                on:input=crate::ui::boxed::on_change(move |ev| value.set(event_target_value(&ev)))
            ></textarea>
        }
        .into_any(),
        None => view! {
            <input
                type="text"
                data-testid=testid
                prop:value=move || value.get()
                on:input=crate::ui::boxed::on_change(move |ev| value.set(event_target_value(&ev)))
            />
        }
        .into_any(),
    };
    view! {
        <label class="stack">
            <span>{label}</span>
            {field}
        </label>
    }
}
