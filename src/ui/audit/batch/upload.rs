//! The batch panel's cases upload and the line that says what was read.

use std::rc::Rc;

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::audit::batch::CaseSet;
use crate::ui::boxed::on_change;
use crate::ui::browser_file::picked_file;
use crate::view::audit::batch_panel::cases_summary;

use super::state::BatchState;

#[component]
pub fn BatchUpload(state: BatchState) -> impl IntoView {
    let summary = state.cases_summary;
    let upload = move |ev: web_sys::Event| {
        let Some(file) = picked_file(&ev) else {
            return;
        };
        let s = state.clone();
        spawn_local(async move {
            match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                Ok(text) => {
                    let set = CaseSet::from_text(&text.as_string().unwrap_or_default());
                    s.cases_summary.set(Some(cases_summary(&file.name(), &set)));
                    *s.case_file.borrow_mut() = file.name();
                    *s.cases.borrow_mut() = Some(Rc::new(set));
                }
                Err(_) => s.error.set(Some(format!("could not read {}", file.name()))),
            }
        });
    };
    view! {
        <input type="file" accept=".jsonl,.json,.txt" aria-label="Cases JSONL" data-testid="batch-upload" on:change=on_change(upload)/>
        {move || summary.get().map(|s| view! { <p data-testid="batch-cases">{s}</p> }.into_any())}
    }
}
