//! Import a run file (an export of the Runs page) into this browser's run store. A run whose
//! id is already kept gets a new id: an import never overwrites.

use leptos::prelude::*;

use leptos::task::spawn_local;

use crate::runs::{self, Run, RunMeta};
use crate::ui::browser_file::picked_file;
use crate::ui::run_store;

#[component]
pub fn RunImport(taken: RwSignal<Vec<RunMeta>>, on_import: Callback<()>) -> impl IntoView {
    // (done, text): a tuple rather than a `Result`, a signal type another component uses
    // too (each signal type costs its own copy of the reactive code in the wasm).
    let message = RwSignal::new(None::<(bool, String)>);
    // A run deleted since: an "already kept" notice may be about it, and is no longer true.
    Effect::new(move |before: Option<usize>| {
        let now = taken.with(Vec::len);
        if before.is_some_and(|b| now < b) {
            message.set(None);
        }
        now
    });
    let pick = move |ev: web_sys::Event| {
        let Some(file) = picked_file(&ev) else {
            return;
        };
        // Emptied at once, so picking the same file again (say, after deleting the run it
        // holds) is a new pick.
        if let Some(input) = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t).ok())
        {
            input.set_value("");
        }
        message.set(None);
        spawn_local(async move {
            let name = file.name();
            let text = match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                Ok(t) => t.as_string().unwrap_or_default(),
                Err(_) => return message.set(Some((false, format!("could not read {name}")))),
            };
            let mut run = match Run::from_jsonl(&text) {
                Ok(r) => r,
                Err(e) => return message.set(Some((false, format!("{name}: {e}")))),
            };
            // The same run kept already (same content, whatever its id or name): no duplicate.
            let candidates: Vec<String> = taken.with_untracked(|t| {
                t.iter()
                    .filter(|m| runs::may_be_same(m, &run.meta))
                    .map(|m| m.id.clone())
                    .collect()
            });
            for id in candidates {
                if let Ok(kept) = run_store::load(&id).await {
                    if runs::same_content(&kept, &run) {
                        return message.set(Some((
                            true,
                            format!(
                                "{name} is already kept as \"{}\": nothing imported (no duplicate).",
                                kept.meta.name
                            ),
                        )));
                    }
                }
            }
            let ids: Vec<String> =
                taken.with_untracked(|t| t.iter().map(|m| m.id.clone()).collect());
            let random = (js_sys::Math::random() * 4_294_967_296.0) as u64;
            let renamed = runs::import_id(&run, js_sys::Date::now(), random, &|id| {
                ids.iter().any(|t| t == id)
            });
            if let Some(id) = renamed {
                run.meta.id = id;
            }
            match run_store::save_run(&run).await {
                Ok(()) => {
                    message.set(Some((
                        true,
                        format!(
                            "Imported \"{}\" ({} results).",
                            run.meta.name,
                            run.results.len()
                        ),
                    )));
                    on_import.run(());
                }
                Err(e) => message.set(Some((false, format!("{name}: {e}")))),
            }
        });
    };
    view! {
        <label>
            "Import a run "
            <input type="file" accept=".jsonl,.json,.txt" data-testid="runs-import" on:change=pick/>
        </label>
        // One view for both outcomes (each distinct view is its own render code in the wasm);
        // `role` is left out for a notice.
        {move || message.get().map(|(done, text)| {
            let (class, role, testid) = if done {
                ("notice", None, "runs-import-notice")
            } else {
                ("error", Some("alert"), "runs-import-error")
            };
            view! { <span class=class role=role data-testid=testid>{text}</span> }.into_any()
        })}
    }
}
