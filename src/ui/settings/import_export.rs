//! The Settings page's "Import and export" card: import a settings or strategy file (YAML
//! or JSON; which it is, is `config::import_document`'s call), export the settings (API
//! keys only when ticked) or the strategy.

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

use crate::config::{import_document, Format, Imported, KeyExport};
use crate::ui::boxed::{on_change, on_click};
use crate::ui::download::download_text;
use crate::ui::settings_store::settings_store;

use super::feedback::Feedback;
use super::strategy_editor::current_yaml;

async fn read_file(input: &web_sys::HtmlInputElement) -> Result<(String, String), String> {
    let file = input
        .files()
        .and_then(|f| f.get(0))
        .ok_or("no file chosen")?;
    let name = file.name();
    let text = wasm_bindgen_futures::JsFuture::from(file.text())
        .await
        .map_err(|_| format!("could not read {name}"))?;
    Ok((name, text.as_string().unwrap_or_default()))
}

/// `strategy_text`: the strategy YAML being edited, replaced by an imported strategy.
#[component]
pub fn ImportExport(strategy_text: RwSignal<String>, feedback: Feedback) -> impl IntoView {
    let store = settings_store();
    let include_keys = RwSignal::new(false);
    let import = {
        let store = store.clone();
        move |ev: web_sys::Event| {
            let Some(input) = ev
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            else {
                return;
            };
            let store = store.clone();
            spawn_local(async move {
                let result = read_file(&input).await.and_then(|(name, text)| {
                    let keys = store.settings.with_untracked(|s| s.api_keys());
                    let (imported, summary) = import_document(&name, &text, &keys)?;
                    match imported {
                        Imported::Settings(s) => store.update_settings(|now| *now = *s),
                        Imported::Strategy(s) => store.set_strategy(*s),
                    }
                    Ok(summary)
                });
                if result.is_ok() {
                    strategy_text.set(current_yaml());
                }
                feedback.result(result);
                input.set_value("");
            });
        }
    };
    let export_settings = {
        let store = store.clone();
        move |format: Format| {
            let keys = if include_keys.get_untracked() {
                KeyExport::Include
            } else {
                KeyExport::Omit
            };
            let (name, mime) = match format {
                Format::Yaml => ("settings.yaml", "application/yaml"),
                Format::Json => ("settings.json", "application/json"),
            };
            let result = store
                .settings
                .get_untracked()
                .to_text(format, keys)
                .map_err(|e| e.to_string())
                .and_then(|text| download_text(name, mime, &text));
            feedback.result(result.map(|_| format!("Exported {name}.")));
        }
    };
    let export_yaml = {
        let f = export_settings.clone();
        move |_| f(Format::Yaml)
    };
    let export_json = move |_| export_settings(Format::Json);
    let export_strategy = move |_| {
        let result = store
            .strategy
            .get_untracked()
            .to_text(Format::Yaml)
            .map_err(|e| e.to_string())
            .and_then(|text| download_text("strategy.yaml", "application/yaml", &text));
        feedback.result(result.map(|_| "Exported strategy.yaml.".to_string()));
    };
    view! {
        <section class="card stack">
            <h2>"Import and export"</h2>
            <label class="stack">
                <span>"Import settings.yaml or strategy.yaml (YAML or JSON)"</span>
                <input
                    type="file"
                    accept=".yaml,.yml,.json"
                    data-testid="settings-import"
                    on:change=on_change(import)
                />
            </label>
            <div class="row">
                <button data-testid="settings-export-yaml" on:click=on_click(export_yaml)>
                    "Export settings (YAML)"
                </button>
                <button on:click=on_click(export_json)>"Export settings (JSON)"</button>
                <label>
                    <input
                        type="checkbox"
                        data-testid="settings-include-keys"
                        prop:checked=move || include_keys.get()
                        on:change=on_change(move |ev| include_keys.set(event_target_checked(&ev)))
                    />
                    " Include API keys in the export"
                </label>
                <button on:click=on_click(export_strategy)>"Export strategy (YAML)"</button>
            </div>
        </section>
    }
}
