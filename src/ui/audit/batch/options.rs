//! The batch panel's choices: which profiles to audit each case with, and how many audits
//! run at once.

use leptos::prelude::*;

use crate::ui::boxed::on_change;
use crate::ui::settings_store::settings_store;

#[component]
pub fn BatchOptions(chosen: RwSignal<Vec<String>>, concurrency: RwSignal<usize>) -> impl IntoView {
    let store = settings_store();
    let profile_names = move || store.profile_names();
    view! {
        <div class="row">
            {move || {
                profile_names()
                    .into_iter()
                    .map(|p| {
                        let name = p.clone();
                        let name2 = p.clone();
                        view! {
                            <label>
                                <input
                                    type="checkbox"
                                    data-testid="batch-profile"
                                    value=p.clone()
                                    prop:checked=move || chosen.with(|c| c.contains(&name))
                                    on:change=on_change(move |ev| {
                                        let on = event_target_checked(&ev);
                                        chosen.update(|c| {
                                            c.retain(|x| x != &name2);
                                            if on {
                                                c.push(name2.clone());
                                            }
                                        })
                                    })
                                />
                                " "
                                {p}
                            </label>
                        }
                        .into_any()
                    })
                    .collect_view()
            }}
            <label>
                "Concurrency "
                <input
                    type="number"
                    min="1"
                    max="32"
                    data-testid="batch-concurrency"
                    prop:value=move || concurrency.get().to_string()
                    on:change=on_change(move |ev| {
                        let v = event_target_value(&ev).parse::<usize>().unwrap_or(4).clamp(1, 32);
                        concurrency.set(v)
                    })
                />
            </label>
        </div>
    }
}
