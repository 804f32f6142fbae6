//! The Settings page's profiles table (a row each) and "Add profile".

use std::sync::Arc;

use leptos::prelude::*;

use crate::ui::boxed::on_click;
use crate::ui::settings_store::settings_store;

use super::feedback::Feedback;
use super::names_list::names_list;
use super::profile_row::ProfileRow;

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
