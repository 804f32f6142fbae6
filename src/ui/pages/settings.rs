use std::sync::Arc;

use leptos::prelude::*;

use crate::ui::options::options;

use crate::ui::boxed::{on_change, on_click};
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

use crate::config::{
    document_kind, DocumentKind, EditableParam, Format, KeyExport, LlmConfig, LlmField, Settings,
    Strategy,
};
use crate::llm::JsonMode;
use crate::ui::download::download_text;
use crate::ui::drafts_store::draft_signal;
use crate::ui::keyed::{keyed_rows, Row};
use crate::ui::settings_store::{settings_store, SettingsStore};
use crate::ui::test_connection::TestConnection;

/// Messages shown at the top of the page: what went wrong, and what went right.
#[derive(Clone, Copy)]
struct Feedback {
    error: RwSignal<Option<String>>,
    notice: RwSignal<Option<String>>,
}

impl Feedback {
    fn result(&self, r: Result<String, String>) {
        match r {
            Ok(msg) => {
                self.error.set(None);
                self.notice.set(Some(msg));
            }
            Err(msg) => {
                self.notice.set(None);
                self.error.set(Some(msg));
            }
        }
    }
}

fn set_llm(store: &SettingsStore, name: &str, set: impl FnOnce(&mut LlmConfig)) {
    store.update_settings(|s| {
        if let Some(l) = s.llms.get_mut(name) {
            set(l);
        }
    });
}

type Names = Arc<dyn Fn() -> Vec<String> + Send + Sync>;
type NamedRow = Arc<dyn Fn(String) -> AnyView + Send + Sync>;

/// A keyed list over names (the LLM and the profile lists), through the app's one keyed list.
#[inline(never)]
fn names_list(each: Names, row: NamedRow) -> AnyView {
    keyed_rows(
        Arc::new(move || each().into_iter().map(Row::Name).collect()),
        |r| match r {
            Row::Name(n) => n.clone(),
            _ => String::new(),
        },
        Arc::new(move |r| match r {
            Row::Name(n) => row(n),
            _ => ().into_any(),
        }),
    )
}

fn json_mode_of(text: &str) -> JsonMode {
    match text {
        "json_object" => JsonMode::JsonObject,
        "json_schema" => JsonMode::JsonSchema,
        _ => JsonMode::None,
    }
}

fn json_mode_name(m: JsonMode) -> &'static str {
    match m {
        JsonMode::None => "none",
        JsonMode::JsonObject => "json_object",
        JsonMode::JsonSchema => "json_schema",
    }
}

#[component]
fn LlmCard(name: String, feedback: Feedback) -> impl IntoView {
    let store = settings_store();
    let rename = {
        let (store, name) = (store.clone(), name.clone());
        move |ev| {
            let new = event_target_value(&ev);
            let mut result = Ok(());
            store.update_settings(|s| result = s.rename_llm(&name, &new));
            feedback.result(
                result
                    .map(|_| format!("LLM renamed to {new}."))
                    .map_err(|e| e.to_string()),
            );
        }
    };
    let remove = {
        let (store, name) = (store, name.clone());
        move |_| {
            let mut result = Ok(());
            store.update_settings(|s| result = s.remove_llm(&name));
            feedback.result(
                result
                    .map(|_| "LLM removed.".to_string())
                    .map_err(|e| e.to_string()),
            );
        }
    };
    view! {
        <section class="card stack" data-testid="settings-llm">
            <div class="row">
                <label class="stack">"Name" <input type="text" prop:value=name.clone() on:change=on_change(rename)/></label>
                <button on:click=on_click(remove)>"Remove"</button>
            </div>
            {LlmField::ALL
                .into_iter()
                .map(|field| view! { <LlmTextField name=name.clone() field=field feedback=feedback/> }.into_any())
                .collect_view()}
            <JsonModeSelect name=name.clone()/>
            <TestConnection llm=name.clone()/>
        </section>
    }
}

/// One text field of an LLM entry (see `config::LlmField`). A base URL is checked (and
/// corrected, with a notice) and a key with control or non-ASCII characters refused as
/// they are entered.
#[component]
fn LlmTextField(name: String, field: LlmField, feedback: Feedback) -> impl IntoView {
    let store = settings_store();
    let (kind, testid) = match field {
        LlmField::BaseUrl => ("url", "settings-base-url"),
        LlmField::Model => ("text", "settings-model"),
        LlmField::ApiKey => ("password", "settings-api-key"),
    };
    let read = {
        let (store, name) = (store.clone(), name.clone());
        move || {
            store
                .settings
                .with(|s| s.llms.get(&name).map(|l| field.text(l)).unwrap_or_default())
        }
    };
    view! {
        <label class="stack">
            <span>{field.label()}</span>
            <input
                type=kind
                autocomplete="off"
                data-testid=testid
                prop:value=read
                on:change=on_change(move |ev| {
                    let v = event_target_value(&ev);
                    let mut outcome = Ok(None);
                    set_llm(&store, &name, |l| outcome = field.set(l, &v));
                    match outcome {
                        Ok(Some(note)) => feedback.result(Ok(format!("{name}: {note}"))),
                        Ok(None) => {}
                        Err(e) => feedback.result(Err(format!(
                            "llms.{name}.{e} (not saved)"
                        ))),
                    }
                })
            />
        </label>
    }
}

#[component]
fn JsonModeSelect(name: String) -> impl IntoView {
    let store = settings_store();
    let (s1, s2) = (store.clone(), store);
    let (n1, n2) = (name.clone(), name);
    view! {
        <label>
            "JSON mode "
            <select
                prop:value=move || {
                    s1.settings
                        .with(|s| s.llms.get(&n1).map(|l| json_mode_name(l.json_mode)).unwrap_or("none"))
                        .to_string()
                }
                on:change=on_change(move |ev| {
                    let v = json_mode_of(&event_target_value(&ev));
                    set_llm(&s2, &n2, |l| l.json_mode = v)
                })
            >
                <option value="none">"none"</option>
                <option value="json_object">"json_object"</option>
                <option value="json_schema">"json_schema"</option>
            </select>
        </label>
    }
}

#[component]
fn ProfileRow(name: String, feedback: Feedback) -> impl IntoView {
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

/// One editable number of the strategy's defaults.
#[component]
fn ParamField(param: EditableParam, feedback: Feedback) -> impl IntoView {
    let label = param.label();
    let store = settings_store();
    let s2 = store.clone();
    view! {
        <label class="stack">
            <span>{label}</span>
            <input
                type="text"
                prop:value=move || store.strategy.with(|s| param.text(&s.params_for("")))
                on:change=on_change(move |ev| {
                    let text = event_target_value(&ev);
                    let mut strategy = s2.strategy.get_untracked();
                    let applied = param
                        .set(&mut strategy.defaults, &text)
                        .and_then(|_| {
                            Strategy::from_value(&strategy.to_value()).map_err(|e| e.to_string())
                        });
                    match applied {
                        Ok(checked) => {
                            s2.set_strategy(checked);
                            feedback.result(Ok(format!("{label} updated.")));
                        }
                        Err(e) => feedback.result(Err(e)),
                    }
                })
            />
        </label>
    }
}

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

fn import_text(store: &SettingsStore, name: &str, text: &str) -> Result<String, String> {
    let format = if name.to_ascii_lowercase().ends_with(".json") {
        Format::Json
    } else {
        Format::sniff(text)
    };
    let err = |e: crate::config::ConfigError| format!("{name}: {e}");
    match document_kind(text, format).map_err(err)? {
        DocumentKind::Settings => {
            let (mut imported, notes) =
                Settings::from_text_with_notes(text, format).map_err(err)?;
            // Keys typed in this session survive an import of a keyless file.
            imported.apply_api_keys(&store.settings.get_untracked().api_keys());
            let mut summary = format!(
                "Imported settings from {name}: {} LLMs, {} profiles, {} answer patterns.",
                imported.llms.len(),
                imported.profiles.len(),
                imported.answer_patterns.len()
            );
            for note in notes {
                summary.push_str(&format!(" Corrected {note}."));
            }
            store.update_settings(|s| *s = imported);
            Ok(summary)
        }
        DocumentKind::Strategy => {
            let imported = Strategy::from_text(text, format).map_err(err)?;
            store.set_strategy(imported);
            Ok(format!("Imported strategy from {name}."))
        }
    }
}

/// Configure the OpenAI-compatible endpoints, the run/verify profiles and the audit strategy.
#[component]
pub fn SettingsPage() -> impl IntoView {
    let store = settings_store();
    let feedback = Feedback {
        error: RwSignal::new(None),
        notice: RwSignal::new(None),
    };
    let include_keys = RwSignal::new(false);
    // The YAML being edited is a draft: text not yet applied survives navigation and reload
    // ("Reload from current" brings back the strategy in force).
    let strategy_text = {
        let store = store.clone();
        draft_signal("settings", "strategy_yaml", move || {
            store
                .strategy
                .with_untracked(|s| s.to_text(Format::Yaml).unwrap_or_default())
        })
    };

    let llm_names = {
        let store = store.clone();
        move || store.llm_names()
    };
    let profile_names = {
        let store = store.clone();
        move || store.profile_names()
    };
    let settings_problem = {
        let store = store.clone();
        move || {
            store
                .settings
                .with(|s| s.validate().err().map(|e| e.to_string()))
        }
    };
    let storage_error = {
        let store = store.clone();
        move || store.storage_error.get()
    };
    let add_llm = {
        let store = store.clone();
        move |_| {
            store.update_settings(|s| {
                s.add_llm();
            })
        }
    };
    let add_profile = {
        let store = store.clone();
        move |_| {
            store.update_settings(|s| {
                s.add_profile();
            })
        }
    };
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
                let result = match read_file(&input).await {
                    Ok((name, text)) => import_text(&store, &name, &text),
                    Err(e) => Err(e),
                };
                if result.is_ok() {
                    strategy_text.set(
                        store
                            .strategy
                            .with_untracked(|s| s.to_text(Format::Yaml).unwrap_or_default()),
                    );
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
    let export_strategy = {
        let store = store.clone();
        move |_| {
            let result = store
                .strategy
                .get_untracked()
                .to_text(Format::Yaml)
                .map_err(|e| e.to_string())
                .and_then(|text| download_text("strategy.yaml", "application/yaml", &text));
            feedback.result(result.map(|_| "Exported strategy.yaml.".to_string()));
        }
    };
    let apply_strategy = {
        let store = store.clone();
        move |_| {
            let text = strategy_text.get_untracked();
            match Strategy::from_text(&text, Format::sniff(&text)) {
                Ok(s) => {
                    store.set_strategy(s);
                    feedback.result(Ok("Strategy applied.".into()));
                }
                Err(e) => feedback.result(Err(format!("strategy: {e}"))),
            }
        }
    };
    let refresh_strategy_text = {
        let store = store.clone();
        move || {
            strategy_text.set(
                store
                    .strategy
                    .with_untracked(|s| s.to_text(Format::Yaml).unwrap_or_default()),
            )
        }
    };

    view! {
        <section data-testid="page-settings" class="stack">
            <h1>"Settings"</h1>
            <p class="lead">
                "Configure the OpenAI-compatible endpoints, the run/verify profiles and the audit strategy."
            </p>
            <p class="muted">
                "A profile's run model does Phase 1 (claims and deductions); its verify model does Phases 2 and 3 (fact and logic checks) and the optional reverse check. Settings are saved in this browser; API keys only for this session."
            </p>
            {move || feedback.error.get().map(|e| view! {
                <div class="error row" role="alert" data-testid="settings-error">
                    <span>{e}</span>
                    <button on:click=on_click(move |_| feedback.error.set(None))>"Dismiss"</button>
                </div>
            }.into_any())}
            {move || feedback.notice.get().map(|n| view! {
                <div class="notice" data-testid="settings-notice">{n}</div>
            }.into_any())}
            {move || settings_problem().map(|e| view! { <div class="error">{e}</div> }.into_any())}
            {move || storage_error().map(|e| view! { <div class="notice">{e}</div> }.into_any())}

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

            <h2>"LLMs"</h2>
            {names_list(
                Arc::new(llm_names),
                Arc::new(move |name| view! { <LlmCard name=name feedback=feedback/> }.into_any()),
            )}
            <div class="row">
                <button data-testid="settings-add-llm" on:click=on_click(add_llm)>"Add LLM"</button>
            </div>

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

            <h2>"Strategy"</h2>
            <section class="card grid">
                {EditableParam::ALL
                    .into_iter()
                    .map(|param| view! { <ParamField param=param feedback=feedback/> }.into_any())
                    .collect_view()}
            </section>
            <details class="card">
                <summary>"Strategy as YAML (per-profile overrides)"</summary>
                <textarea
                    rows="14"
                    data-testid="settings-strategy-yaml"
                    prop:value=move || strategy_text.get()
                    on:input=on_change(move |ev| strategy_text.set(event_target_value(&ev)))
                ></textarea>
                <div class="row">
                    <button on:click=on_click(apply_strategy)>"Apply strategy"</button>
                    <button on:click=on_click(move |_| refresh_strategy_text())>"Reload from current"</button>
                </div>
            </details>
        </section>
    }
}
