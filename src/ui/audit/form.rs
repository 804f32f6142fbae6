//! The Audit page's form: context and output (kept as drafts), the profile, Run, Cancel and
//! "Load an example" (the bundled cases, one after another).

use std::cell::Cell;
use std::rc::Rc;

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::audit::batch::CaseSet;
use crate::ui::browser_file::fetch_example;
use crate::ui::options::bound_select;
use crate::ui::settings_store::settings_store;
use crate::ui::text_field::TextField;

use super::start::start;
use super::state::AuditState;

/// The example cases (Chinese and English) in `public/examples/`, for "Load an example".
const EXAMPLE_CASES: &str = "cases.jsonl";

/// A plain function rather than a component (each component has its own props code).
pub fn audit_form(page: AuditState, checked: super::model_free::Checked) -> AnyView {
    let store = settings_store();
    let AuditState {
        context,
        output,
        profile,
        running,
        error,
        ..
    } = page;
    let profile_names = {
        let store = store.clone();
        move || store.profile_names()
    };
    // A plain cell (each `StoredValue` type costs its own copy of the reactive code).
    let example = Rc::new(Cell::new(0usize));
    let load_example = move |_| {
        let example = example.clone();
        spawn_local(async move {
            let text = match fetch_example(EXAMPLE_CASES).await {
                Ok(text) => text,
                Err(e) => return error.set(Some(e)),
            };
            let set = CaseSet::from_text(&text);
            let i = example.get();
            if let Some(case) = set.cases.get(i % set.cases.len().max(1)) {
                context.set(case.input.context_input.clone());
                output.set(case.input.model_output.clone());
            }
            example.set(i + 1);
        });
    };
    view! {
        <div class="grid">
            <TextField label="Context (source material)" testid="audit-context" value=context rows=8/>
            <TextField label="Model output (text under audit)" testid="audit-output" value=output rows=8/>
        </div>
        <div class="row">
            {bound_select("Profile ", String::from("audit-profile"), profile, None, Box::new(profile_names))}
            <button
                class="primary"
                data-testid="audit-run"
                disabled=move || running.get()
                on:click=move |_| start(page, &store)
            >
                "Run audit"
            </button>
            <button data-testid="audit-check-button" title="Numbers and directions only, at once: no server needed"
                on:click=move |_| super::model_free::run_check(page, checked)>
                "Check without a model"
            </button>
            <button data-testid="audit-cancel" disabled=move || !running.get() on:click=move |_| page.abort()>
                "Cancel"
            </button>
            <button data-testid="audit-example" on:click=load_example>"Load an example"</button>
            <button data-testid="audit-demo-button" title="A recorded audit: no server needed" on:click=move |_| {
                page.clear();
                super::open_kept::open_demo(page)
            }>"Demo audit"</button>
        </div>
    }
    .into_any()
}
