//! The Settings page: the OpenAI-compatible endpoints, the run/verify profiles and the audit
//! strategy, with import and export. Each part is its own component (`src/ui/settings/`).

mod feedback;
mod import_export;
mod llm_list;
mod names_list;
mod presets;
mod profiles_table;
mod strategy_editor;
pub mod test_connection;

use leptos::prelude::*;

use crate::ui::boxed::on_click;
use crate::ui::drafts_store::draft_signal;
use crate::ui::settings_store::settings_store;

use feedback::Feedback;
use import_export::ImportExport;
use llm_list::LlmList;
use profiles_table::ProfilesTable;
use strategy_editor::current_yaml;
use strategy_editor::StrategyEditor;

/// Configure the OpenAI-compatible endpoints, the run/verify profiles and the audit strategy.
#[component]
pub fn SettingsPage() -> impl IntoView {
    let store = settings_store();
    let feedback = Feedback::new();
    // The YAML being edited is a draft: text not yet applied survives navigation and reload
    // ("Reload from current" brings back the strategy in force).
    let strategy_text = draft_signal("settings", "strategy_yaml", current_yaml);
    let settings_problem = {
        let store = store.clone();
        move || {
            store
                .settings
                .with(|s| s.validate().err().map(|e| e.to_string()))
        }
    };
    let storage_error = move || store.storage_error.get();

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
            // What a first visit needs most comes first: what to configure, the presets, the demo.
            {presets::presets(feedback)}
            <ImportExport strategy_text=strategy_text feedback=feedback/>
            <LlmList feedback=feedback/>
            <ProfilesTable feedback=feedback/>
            <StrategyEditor text=strategy_text feedback=feedback/>
        </section>
    }
}
