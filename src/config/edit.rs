//! Small edits the Settings page makes, kept here so they are tested natively: adding,
//! renaming and removing LLMs and profiles without leaving dangling references, and
//! moving API keys between the settings and session storage.

use serde_json::Value;

use crate::sorted_map::SortedMap;

use super::{parse_document, ConfigError, Format, LlmConfig, Profile, Settings};

fn unused_name<V>(map: &SortedMap<String, V>, stem: &str) -> String {
    (1..)
        .map(|n| format!("{stem}-{n}"))
        .find(|name| !map.contains_key(name))
        .unwrap_or_else(|| stem.to_string())
}

fn check_name(name: &str, path: &str) -> Result<String, ConfigError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(ConfigError::Invalid {
            path: path.into(),
            message: "a name cannot be empty".into(),
        });
    }
    Ok(name.to_string())
}

impl Settings {
    /// Add an LLM with a fresh name and a local default endpoint; returns its name.
    pub fn add_llm(&mut self) -> String {
        let name = unused_name(&self.llms, "llm");
        self.llms.insert(
            name.clone(),
            LlmConfig {
                base_url: "http://127.0.0.1:11434/v1".into(),
                model: "model-name".into(),
                ..LlmConfig::default()
            },
        );
        name
    }

    /// Rename an LLM and every profile's reference to it.
    pub fn rename_llm(&mut self, old: &str, new: &str) -> Result<(), ConfigError> {
        let new = check_name(new, "llms")?;
        if new == old {
            return Ok(());
        }
        if self.llms.contains_key(&new) {
            return Err(ConfigError::Invalid {
                path: format!("llms.{new}"),
                message: "an LLM with this name already exists".into(),
            });
        }
        let Some(cfg) = self.llms.remove(old) else {
            return Ok(());
        };
        self.llms.insert(new.clone(), cfg);
        for p in self.profiles.values_mut() {
            for role in [&mut p.run, &mut p.verify] {
                if role == old {
                    *role = new.clone();
                }
            }
        }
        Ok(())
    }

    /// Remove an LLM unless a profile still uses it.
    pub fn remove_llm(&mut self, name: &str) -> Result<(), ConfigError> {
        if let Some((profile, _)) = self
            .profiles
            .iter()
            .find(|(_, p)| p.run == name || p.verify == name)
        {
            return Err(ConfigError::Invalid {
                path: format!("llms.{name}"),
                message: format!(
                    "profile `{profile}` uses it; change or remove that profile first"
                ),
            });
        }
        self.llms.remove(name);
        Ok(())
    }

    /// Add a profile using the first LLM for both roles; returns its name.
    pub fn add_profile(&mut self) -> String {
        let name = unused_name(&self.profiles, "profile");
        let first = self.llms.keys().next().cloned().unwrap_or_default();
        self.profiles.insert(
            name.clone(),
            Profile {
                run: first.clone(),
                verify: first,
                ..Profile::default()
            },
        );
        name
    }

    pub fn rename_profile(&mut self, old: &str, new: &str) -> Result<(), ConfigError> {
        let new = check_name(new, "profiles")?;
        if new == old {
            return Ok(());
        }
        if self.profiles.contains_key(&new) {
            return Err(ConfigError::Invalid {
                path: format!("profiles.{new}"),
                message: "a profile with this name already exists".into(),
            });
        }
        if let Some(p) = self.profiles.remove(old) {
            self.profiles.insert(new, p);
        }
        Ok(())
    }

    /// The API keys by LLM name (for session-only storage).
    pub fn api_keys(&self) -> SortedMap<String, String> {
        self.llms
            .iter()
            .filter_map(|(n, l)| l.api_key.clone().map(|k| (n.clone(), k)))
            .collect()
    }

    /// Put keys back (after loading keyless settings); keys of unknown LLMs are ignored.
    pub fn apply_api_keys(&mut self, keys: &SortedMap<String, String>) {
        for (name, key) in keys {
            if let Some(l) = self.llms.get_mut(name) {
                if l.api_key.is_none() && !key.is_empty() {
                    l.api_key = Some(key.clone());
                }
            }
        }
    }
}

/// Which file an imported document is, judged by its top-level keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentKind {
    Settings,
    Strategy,
}

/// Tell settings from strategy: settings have `llms`; a strategy has `params` under
/// `defaults` or its profiles.
pub fn document_kind(text: &str, format: Format) -> Result<DocumentKind, ConfigError> {
    let value = parse_document(text, format)?;
    let has = |key: &str| value.get(key).is_some();
    let has_params = |v: Option<&Value>| {
        v.and_then(Value::as_object).is_some_and(|m| {
            m.values().any(|p| p.get("params").is_some()) || m.contains_key("params")
        })
    };
    if has("llms") {
        Ok(DocumentKind::Settings)
    } else if has_params(value.get("defaults")) || has_params(value.get("profiles")) {
        Ok(DocumentKind::Strategy)
    } else {
        Err(ConfigError::Invalid {
            path: "(top level)".into(),
            message: "neither settings (no `llms`) nor a strategy (no `params`)".into(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rename_llm_follows_into_profiles() {
        let mut s = Settings::example();
        s.rename_llm("local-small", "tiny").unwrap();
        assert!(s.llms.contains_key("tiny"));
        assert_eq!(s.profiles["local-full"].run, "tiny");
        assert_eq!(s.profiles["cross-verify"].verify, "local-large");
        assert!(s.validate().is_ok());
        assert!(s.rename_llm("tiny", "local-large").is_err());
        assert!(s.rename_llm("tiny", "  ").is_err());
    }

    #[test]
    fn removing_a_used_llm_is_refused() {
        let mut s = Settings::example();
        let err = s.remove_llm("local-large").unwrap_err();
        assert!(err.to_string().contains("cross-verify"));
        let added = s.add_llm();
        assert_eq!(added, "llm-1");
        s.remove_llm(&added).unwrap();
        assert!(!s.llms.contains_key("llm-1"));
    }

    #[test]
    fn profiles_add_and_rename() {
        let mut s = Settings::example();
        let p = s.add_profile();
        assert_eq!(s.profiles[&p].run, "local-large");
        s.rename_profile(&p, "mine").unwrap();
        assert!(s.profiles.contains_key("mine"));
        assert!(s.rename_profile("mine", "local-full").is_err());
    }

    #[test]
    fn keys_move_to_session_and_back() {
        let mut s = Settings::example();
        s.llms.get_mut("local-small").unwrap().api_key = Some("k1".into());
        let keys = s.api_keys();
        let text = s
            .to_text(Format::Yaml, super::super::KeyExport::Omit)
            .unwrap();
        let mut back = Settings::from_text(&text, Format::Yaml).unwrap();
        assert!(back.api_keys().is_empty());
        back.apply_api_keys(&keys);
        assert_eq!(back, s);
    }

    #[test]
    fn imported_documents_are_told_apart() {
        let k = |t: &str| document_kind(t, Format::sniff(t));
        assert_eq!(
            k(super::super::EXAMPLE_SETTINGS_YAML).unwrap(),
            DocumentKind::Settings
        );
        assert_eq!(
            k("defaults:\n  params:\n    max_claims: 4\n").unwrap(),
            DocumentKind::Strategy
        );
        assert_eq!(
            k("{\"profiles\": {\"p\": {\"params\": {}}}}").unwrap(),
            DocumentKind::Strategy
        );
        assert!(k("hello: 1\n").is_err());
    }
}
