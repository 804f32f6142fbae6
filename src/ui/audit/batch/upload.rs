//! The batch panel's cases upload and the line that says what was read.

use std::rc::Rc;

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::audit::batch::CaseSet;
use crate::ui::browser_file::picked_file;
use crate::view::audit::batch_panel::cases_summary;

use super::state::BatchState;
use crate::ui::drafts_store;

/// Drafts of the picked cases file (its text and name), read back by `BatchState::resume`.
pub const CASES_DRAFT: &str = "batch_cases";
pub const CASES_NAME_DRAFT: &str = "batch_cases_name";

impl BatchState {
    /// Read a cases file into the panel.
    pub fn set_cases(&self, name: &str, text: &str) {
        let set = CaseSet::from_text(text);
        self.cases_summary.set(Some(cases_summary(name, &set)));
        *self.case_file.borrow_mut() = name.to_string();
        *self.cases.borrow_mut() = Some(Rc::new(set));
    }

    /// The cases file picked before leaving the page, if it was kept as a draft.
    pub fn restore_cases(&self) {
        if let (Some(text), Some(name)) = (
            drafts_store::read("audit", CASES_DRAFT),
            drafts_store::read("audit", CASES_NAME_DRAFT),
        ) {
            if text.trim().is_empty() {
                return;
            }
            self.set_cases(&name, &text);
        }
    }
}

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
                    let text = text.as_string().unwrap_or_default();
                    s.set_cases(&file.name(), &text);
                    // Kept as a draft so visiting another page does not lose the pick.
                    let kept = crate::drafts::to_store("audit", CASES_DRAFT, &text).is_ok();
                    let (draft, name) = if kept {
                        (text.as_str(), file.name())
                    } else {
                        s.cases_summary.update(|c| {
                            if let Some(c) = c {
                                c.push_str(" (too large to keep when you leave the page: pick it again then)");
                            }
                        });
                        ("", String::new())
                    };
                    drafts_store::write("audit", CASES_DRAFT, draft);
                    drafts_store::write("audit", CASES_NAME_DRAFT, &name);
                }
                Err(_) => s.error.set(Some(format!("could not read {}", file.name()))),
            }
        });
    };
    view! {
        <input type="file" accept=".jsonl,.json,.txt" aria-label="Cases JSONL" data-testid="batch-upload" on:change=upload/>
        {move || summary.get().map(|s| view! { <p data-testid="batch-cases">{s}</p> }.into_any())}
    }
}
