//! The app's settings and strategy as one reactive store every page can read:
//! `settings_store().settings.get()` tracks, so a page re-renders when the user edits
//! Settings. Persisted in local storage without API keys; the keys live in session
//! storage only, so they are gone when the browser session ends.

use std::cell::OnceCell;

use leptos::prelude::*;

use crate::config::{Format, KeyExport, LlmConfig, Settings, Strategy};

const SETTINGS_KEY: &str = "verifyfast.settings";
const STRATEGY_KEY: &str = "verifyfast.strategy";
const API_KEYS_KEY: &str = "verifyfast.api_keys";

/// Shared handles (reference-counted signals, so no page's owner can dispose them).
#[derive(Clone)]
pub struct SettingsStore {
    pub settings: ArcRwSignal<Settings>,
    pub strategy: ArcRwSignal<Strategy>,
    /// Why the stored settings could not be read or written, if they could not.
    pub storage_error: ArcRwSignal<Option<String>>,
}

thread_local! {
    static STORE: OnceCell<SettingsStore> = const { OnceCell::new() };
}

/// The one store of the app, loaded from storage on first use.
pub fn settings_store() -> SettingsStore {
    STORE.with(|cell| cell.get_or_init(SettingsStore::load).clone())
}

fn local() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn session() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

fn read(storage: Option<web_sys::Storage>, key: &str) -> Option<String> {
    storage?.get_item(key).ok().flatten()
}

impl SettingsStore {
    /// The profile names, tracked (pickers re-render when Settings change).
    pub fn profile_names(&self) -> Vec<String> {
        self.settings.with(|s| s.profiles.keys().cloned().collect())
    }

    /// The LLM names, tracked.
    pub fn llm_names(&self) -> Vec<String> {
        self.settings.with(|s| s.llms.keys().cloned().collect())
    }

    fn load() -> Self {
        let mut problems = Vec::new();
        let mut settings = match read(local(), SETTINGS_KEY) {
            Some(text) => Settings::from_text(&text, Format::Yaml).unwrap_or_else(|e| {
                problems.push(format!("stored settings ignored: {e}"));
                Settings::default()
            }),
            // A first visit starts with no LLM: the Settings page says what to configure
            // and offers presets, rather than endpoints that may not exist.
            None => Settings::default(),
        };
        let strategy = match read(local(), STRATEGY_KEY) {
            Some(text) => Strategy::from_text(&text, Format::Yaml).unwrap_or_else(|e| {
                problems.push(format!("stored strategy ignored: {e}"));
                Strategy::example()
            }),
            None => Strategy::example(),
        };
        // Read through `Value` (whose decoder the app has anyway) rather than a map type.
        if let Some(serde_json::Value::Object(stored)) =
            read(session(), API_KEYS_KEY).and_then(|t| serde_json::from_str(&t).ok())
        {
            let keys = stored
                .into_iter()
                .filter_map(|(llm, key)| Some((llm, key.as_str()?.to_string())))
                .collect();
            settings.apply_api_keys(&keys);
        }
        Self {
            settings: ArcRwSignal::new(settings),
            strategy: ArcRwSignal::new(strategy),
            storage_error: ArcRwSignal::new((!problems.is_empty()).then(|| problems.join("; "))),
        }
    }

    /// Read the stored settings again. The Proof page runs in its own wasm bundle
    /// (`ui::proof::bundle`) with its own copy of this store, which would otherwise keep what
    /// storage held on its first visit and miss later edits made on the Settings page.
    pub fn reload(&self) {
        let fresh = Self::load();
        self.settings.set(fresh.settings.get_untracked());
        self.strategy.set(fresh.strategy.get_untracked());
        self.storage_error.set(fresh.storage_error.get_untracked());
    }

    /// Change the settings and persist them (keys to session storage only).
    pub fn update_settings(&self, f: impl FnOnce(&mut Settings)) {
        self.settings.update(f);
        self.save();
    }

    /// Change the LLM `name`, if it is still there.
    pub fn update_llm(&self, name: &str, set: impl FnOnce(&mut LlmConfig)) {
        self.update_settings(|s| {
            if let Some(l) = s.llms.get_mut(name) {
                set(l);
            }
        });
    }

    pub fn set_strategy(&self, strategy: Strategy) {
        self.strategy.set(strategy);
        self.save();
    }

    fn save(&self) {
        let settings = self.settings.get_untracked();
        let strategy = self.strategy.get_untracked();
        let result = (|| -> Result<(), String> {
            let text = settings
                .to_text(Format::Yaml, KeyExport::Omit)
                .map_err(|e| e.to_string())?;
            let store = local().ok_or("local storage is not available")?;
            store
                .set_item(SETTINGS_KEY, &text)
                .map_err(|_| "local storage refused the settings (full or disabled)")?;
            let text = strategy.to_text(Format::Yaml).map_err(|e| e.to_string())?;
            store
                .set_item(STRATEGY_KEY, &text)
                .map_err(|_| "local storage refused the strategy (full or disabled)")?;
            let keys = serde_json::to_string(&settings.api_keys()).map_err(|e| e.to_string())?;
            if let Some(s) = session() {
                let _ = s.set_item(API_KEYS_KEY, &keys);
            }
            Ok(())
        })();
        let error = result
            .err()
            .map(|e| format!("settings are not saved for the next visit: {e}"));
        if self.storage_error.get_untracked() != error {
            self.storage_error.set(error);
        }
    }
}
