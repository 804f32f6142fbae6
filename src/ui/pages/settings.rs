//! The Settings page: the OpenAI-compatible endpoints, the run/verify profiles and the audit
//! strategy, with import and export. Each part is its own component (`src/ui/settings/`).

use leptos::prelude::*;

use crate::ui::boxed::on_click;
use crate::ui::drafts_store::draft_signal;
use crate::ui::settings_store::settings_store;

#[path = "../settings/feedback.rs"]
mod feedback;
#[path = "../settings/import_export.rs"]
mod import_export;
#[path = "../settings/json_mode_select.rs"]
mod json_mode_select;
#[path = "../settings/llm_card.rs"]
mod llm_card;
#[path = "../settings/llm_list.rs"]
mod llm_list;
#[path = "../settings/llm_text_field.rs"]
mod llm_text_field;
#[path = "../settings/names_list.rs"]
mod names_list;
#[path = "../settings/param_field.rs"]
mod param_field;
#[path = "../settings/profile_row.rs"]
mod profile_row;
#[path = "../settings/profiles_table.rs"]
mod profiles_table;
#[path = "../settings/strategy_editor.rs"]
mod strategy_editor;

use feedback::Feedback;
use import_export::ImportExport;
use llm_list::LlmList;
use profiles_table::ProfilesTable;
use strategy_editor::{current_yaml, StrategyEditor};

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
            <ImportExport strategy_text=strategy_text feedback=feedback/>
            <LlmList feedback=feedback/>
            <ProfilesTable feedback=feedback/>
            <StrategyEditor text=strategy_text feedback=feedback/>
        </section>
    }
}
