//! `<option>`s whose value is their text: one compiled copy for every picker of the app
//! (profiles, tags, agents, rules, run kinds).

use leptos::prelude::*;

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
