//! The Settings page's profiles table (a row each) and "Add profile".

use super::feedback::Feedback;
use super::names_list::names_list;
use crate::ui::boxed::{on_change, on_click};
use crate::ui::options::options;
use crate::ui::settings_store::settings_store;
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn ProfilesTable(feedback: Feedback) -> impl IntoView {
    let store = settings_store();
    let profile_names = {
        let store = store.clone();
        move || store.profile_names()
    };
    let add_profile = move |_| {
        store.update_settings(|s| {
            s.add_profile();
        })
    };
    view! {
        <h2>"Profiles"</h2>
        <div class="table-wrap">
            <table>
                <thead>
                    <tr>
                        <th>"Profile"</th>
                        <th>"Run (Phase 1)"</th>
                        <th>"Verify (Phases 2, 3)"</th>
                        <th></th>
                    </tr>
                </thead>
                <tbody>
                    {names_list(
                        Arc::new(profile_names),
                        Arc::new(move |name| view! { <ProfileRow name=name feedback=feedback/> }.into_any()),
                    )}
                </tbody>
            </table>
        </div>
        <div class="row">
            <button on:click=on_click(add_profile)>"Add profile"</button>
        </div>
    }
}

// One run/verify profile on the Settings page: its name (renamed in place), the LLM for
// each role, and Remove.

#[component]
pub fn ProfileRow(name: String, feedback: Feedback) -> impl IntoView {
    let store = settings_store();
    let llm_names = {
        let store = store.clone();
        move || store.llm_names()
    };
    let row_name = name.clone();
    let role_select = move |role: &'static str| {
        let (s1, s2) = (store.clone(), store.clone());
        let (n1, n2) = (row_name.clone(), row_name.clone());
        let names = llm_names.clone();
        view! {
            <select
                prop:value=move || {
                    s1.settings.with(|s| {
                        s.profiles
                            .get(&n1)
                            .map(|p| if role == "run" { p.run.clone() } else { p.verify.clone() })
                            .unwrap_or_default()
                    })
                }
                on:change=on_change(move |ev| {
                    let v = event_target_value(&ev);
                    s2.update_settings(|s| {
                        if let Some(p) = s.profiles.get_mut(&n2) {
                            if role == "run" { p.run = v } else { p.verify = v }
                        }
                    })
                })
            >
                {move || options(names())}
            </select>
        }
    };
    let run = role_select("run");
    let verify = role_select("verify");
    let (s3, s4) = (settings_store(), settings_store());
    let (n3, n4) = (name.clone(), name.clone());
    view! {
        <tr>
            <td>
                <input
                    type="text"
                    prop:value=name.clone()
                    on:change=on_change(move |ev| {
                        let new = event_target_value(&ev);
                        let mut result = Ok(());
                        s3.update_settings(|s| result = s.rename_profile(&n3, &new));
                        feedback.result(result.map(|_| format!("Profile renamed to {new}.")).map_err(|e| e.to_string()));
                    })
                />
            </td>
            <td>{run}</td>
            <td>{verify}</td>
            <td>
                <button on:click=on_click(move |_| {
                    s4.update_settings(|s| {
                        s.profiles.remove(&n4);
                    })
                })>"Remove"</button>
            </td>
        </tr>
    }
}
