//! The Proof page's loader card: a bundled example, a file, or pasted JSON; errors and the
//! loading notice.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::bind::live;
use super::bind::set_to;
use super::bind::text_of;
use super::page_state::ProofState;
use super::page_state::EXAMPLES;
use crate::ui::drafts_store::draft_signal;

/// "Discard the N actions you added?" — `false` when the user keeps them (or no dialog opens).
fn confirm_discard(n: usize) -> bool {
    let what = if n == 1 {
        "The action".to_string()
    } else {
        format!("The {n} actions")
    };
    web_sys::window()
        .and_then(|w| {
            w.confirm_with_message(&format!(
                "Open another example? {what} you added to this one will be discarded."
            ))
            .ok()
        })
        .unwrap_or(false)
}

#[component]
pub fn ProofLoader(page: ProofState) -> impl IntoView {
    let pasted = draft_signal("proof", "pasted", String::new);
    view! {
        <div class="card stack">
            <div class="row">
                <label>"Example "
                    <select data-testid="proof-example" prop:value=live(move || page.example_key.get())
                        on:change=move |ev| {
                            // Leave the picker, so ←/→ step the proof rather than pick the next example.
                            let picker = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok());
                            if let Some(el) = &picker {
                                let _ = el.blur();
                            }
                            // Actions typed into the shown example are lost by another pick: ask.
                            let typed = page.typed.with_untracked(Vec::len);
                            if typed > 0 && !page.example_key.get_untracked().is_empty() && !confirm_discard(typed) {
                                if let Some(el) = picker {
                                    el.set_value(&page.example_key.get_untracked());
                                }
                                return;
                            }
                            page.open_example(event_target_value(&ev), None, None)
                        }>
                        <option value="">"Choose an example…"</option>
                        {EXAMPLES.iter().map(|(key, title, _)| view! { <option value=*key>{*title}</option> }.into_any()).collect_view()}
                    </select>
                </label>
                <label>"or a file (problem or event log JSON) "
                    <input type="file" accept=".json,application/json" data-testid="proof-file" on:change=move |ev| page.upload(ev)/>
                </label>
            </div>
            <details>
                <summary>"Paste JSON"</summary>
                <textarea rows="6" aria-label="Problem or event log JSON" data-testid="proof-paste" prop:value=text_of(pasted)
                    on:input=set_to(pasted)></textarea>
                <button data-testid="proof-paste-load" on:click=move |_| {
                    if page.open(&pasted.get_untracked(), "pasted text") {
                        page.forget_example();
                    } else {
                        page.failed_load();
                    }
                }>"Load pasted"</button>
            </details>
            {live(move || page.error.get().map(|e| view! { <p class="error" data-testid="proof-error">{e}</p> }.into_any()))}
            {live(move || page.notice.get().map(|n| view! { <p class="muted" data-testid="proof-notice">{n}</p> }.into_any()))}
        </div>
    }
}
