//! `<option>`s whose value is their text: one compiled copy for every picker of the app
//! (profiles, tags, agents, rules, run kinds), and the labelled profile `<select>`.

use leptos::prelude::*;

use crate::ui::boxed::{on_change, part, text};

#[inline(never)]
pub fn options(values: Vec<String>) -> Vec<AnyView> {
    values
        .into_iter()
        .map(|v| {
            let text = v.clone();
            view! { <option value=v>{text}</option> }.into_any()
        })
        .collect()
}

/// A labelled `<select>` bound to `value`: the one profile picker of the app (Audit, the
/// Extract fallback, Report's baseline and "Open in Audit", Compare's sides). `first`, when
/// given, is a leading choice whose value is "" (Compare's "all"). `choices` is read in a
/// reactive part, so choices taken from Settings follow its edits; the chosen option is also
/// marked `selected`, so a re-drawn list keeps showing the choice. An empty list shows one
/// disabled "none yet (Settings)" rather than a blank box.
#[inline(never)]
pub fn bound_select(
    label: &'static str,
    testid: String,
    value: RwSignal<String>,
    first: Option<&'static str>,
    choices: Box<dyn Fn() -> Vec<String> + Send>,
) -> AnyView {
    let listed = part(move || {
        let chosen = value.get_untracked();
        let choices = choices();
        // An empty picker (no profile in Settings yet) says so rather than showing blank.
        if choices.is_empty() && first.is_none() {
            return Some(
                view! { <option value="" disabled=true selected=true>"none yet (Settings)"</option> }
                    .into_any(),
            );
        }
        let items: Vec<AnyView> = choices
            .into_iter()
            .map(|c| {
                let selected = c == chosen;
                let text = c.clone();
                view! { <option value=c selected=selected>{text}</option> }.into_any()
            })
            .collect();
        Some(items.into_any())
    });
    view! {
        <label>
            {label}
            <select
                data-testid=testid
                prop:value=text(move || value.get())
                on:change=on_change(move |ev| value.set(event_target_value(&ev)))
            >
                {first.map(|f| view! { <option value="">{f}</option> }.into_any())}
                {listed}
            </select>
        </label>
    }
    .into_any()
}
