//! Settings (which LLMs exist, which profile pairs them) and strategy (the audit's
//! tunable parameters), in the shapes docs/audit.md documents for `settings.yaml`
//! and `strategy.yaml`.
//!
//! A profile names two LLMs: the **run** model does Phase 1 (breaking the output into
//! claims and deductions); the **verify** model does Phase 2 (fact check), Phase 3
//! (logic check) and the optional reverse check of severities.
//!
//! Both files import and export as YAML or JSON. Keys we do not know are kept and written
//! back, so a file written by a newer version or by hand survives a round trip. API keys
//! are left out of exports unless the caller explicitly asks for them.

mod edit;
mod endpoint;
mod import;
mod strategy;
pub mod yaml;

use serde_json::{Map, Value};

use crate::extract::{AnswerPatternSpec, AnswerPatterns, PatternError};
use crate::json::{FieldError, Fields, Path};
use crate::llm::{Endpoint, JsonMode};
use crate::sorted_map::SortedMap;

pub use edit::{document_kind, DocumentKind};
pub use endpoint::{check_base_url, CheckedUrl};
pub use import::{import_document, Imported};

/// The largest settings or strategy file read, by the CLI (`--settings`, `--strategy`) and
/// the Settings page's import (docs/audit.md, "Size limits"): real ones are a few KB.
pub const MAX_FILE_BYTES: usize = 1024 * 1024;
pub use strategy::{
    AuditParams, EditableParam, ParamOverrides, ScoreThresholds, Strategy, StrategyProfile,
};

/// Why a settings or strategy document could not be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ConfigError {
    #[error("not valid {format}: {message}")]
    Syntax {
        format: &'static str,
        message: String,
    },
    /// A value of the wrong kind, or a required one missing.
    #[error(transparent)]
    Field(#[from] FieldError),
    #[error("{path}: {message}")]
    Invalid { path: String, message: String },
    #[error("{path}: no LLM named `{name}` under `llms`")]
    UnknownLlm { path: String, name: String },
    #[error("no profile named `{name}` (known: {known})")]
    UnknownProfile { name: String, known: String },
    #[error("llms.{llm}.api_key_env names the environment variable `{var}`, which is not set")]
    MissingKeyEnv { llm: String, var: String },
    #[error("answer_patterns: {0}")]
    Pattern(#[from] PatternError),
    #[error("could not write {format}: {message}")]
    Export {
        format: &'static str,
        message: String,
    },
}

/// The two text formats settings and strategy can be read from and written to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Yaml,
    Json,
}

impl Format {
    /// JSON if the file name says so, else YAML (which also reads most JSON).
    pub fn from_file_name(name: &str) -> Self {
        if name.to_ascii_lowercase().ends_with(".json") {
            Format::Json
        } else {
            Format::Yaml
        }
    }

    /// For pasted text without a name: a document starting with `{` is JSON.
    pub fn sniff(text: &str) -> Self {
        if text
            .trim_start_matches('\u{feff}')
            .trim_start()
            .starts_with('{')
        {
            Format::Json
        } else {
            Format::Yaml
        }
    }
}

/// Parse YAML or JSON into a generic tree (the typed readers take it from there).
pub fn parse_document(text: &str, format: Format) -> Result<Value, ConfigError> {
    let text = text.trim_start_matches('\u{feff}');
    let value = match format {
        Format::Json => serde_json::from_str(text).map_err(|e| ConfigError::Syntax {
            format: "JSON",
            message: e.to_string(),
        })?,
        Format::Yaml => {
            if text.trim().is_empty() {
                Value::Object(Map::new())
            } else {
                yaml::parse(text).map_err(|e| ConfigError::Syntax {
                    format: "YAML",
                    message: e.to_string(),
                })?
            }
        }
    };
    Ok(value)
}

/// Write a generic tree as YAML or pretty JSON.
pub fn write_document(value: &Value, format: Format) -> Result<String, ConfigError> {
    match format {
        Format::Json => serde_json::to_string_pretty(value)
            .map(|s| s + "\n")
            .map_err(|e| ConfigError::Export {
                format: "JSON",
                message: e.to_string(),
            }),
        Format::Yaml => yaml::write(value).map_err(|e| ConfigError::Export {
            format: "YAML",
            message: e.to_string(),
        }),
    }
}

/// Whether an export may contain API keys. Keys leave the app only when the user ticked
/// the box that says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyExport {
    Omit,
    Include,
}

/// Request defaults applied to every call unless a later layer overrides them.
#[derive(Debug, Clone, PartialEq)]
pub struct Defaults {
    pub max_tokens: u32,
    pub temperature: f64,
    pub extra: Map<String, Value>,
}

impl Default for Defaults {
    fn default() -> Self {
        Self {
            max_tokens: 4000,
            temperature: 0.1,
            extra: Map::new(),
        }
    }
}

/// One OpenAI-compatible model endpoint under `llms`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LlmConfig {
    pub base_url: String,
    pub model: String,
    /// Sent only to `base_url`; never exported unless asked.
    pub api_key: Option<String>,
    /// CLI only: the environment variable that holds the key.
    pub api_key_env: Option<String>,
    pub json_mode: JsonMode,
    /// Keys such as `inference_engine` that we do not interpret but keep.
    pub extra: Map<String, Value>,
}

/// A text field of an LLM entry that the Settings page edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LlmField {
    BaseUrl,
    Model,
    ApiKey,
}

impl LlmField {
    pub const ALL: [LlmField; 3] = [LlmField::BaseUrl, LlmField::Model, LlmField::ApiKey];

    pub fn label(self) -> &'static str {
        match self {
            Self::BaseUrl => "Base URL (API root, usually ending in /v1)",
            Self::Model => "Model",
            Self::ApiKey => "API key (kept for this browser session only; local servers need none)",
        }
    }

    pub fn text(self, l: &LlmConfig) -> String {
        match self {
            Self::BaseUrl => l.base_url.clone(),
            Self::Model => l.model.clone(),
            Self::ApiKey => l.api_key.clone().unwrap_or_default(),
        }
    }

    /// Set from what was typed: surrounding spaces (a pasted key's newline) never count, and
    /// an empty key is no key. A base URL is checked and corrected where the intent is clear
    /// (the returned note says what changed); an unusable base URL or a key with control or
    /// non-ASCII characters is refused and the entry keeps its old value.
    pub fn set(self, l: &mut LlmConfig, text: &str) -> Result<Option<String>, ConfigError> {
        let text = text.trim().to_string();
        match self {
            Self::BaseUrl => {
                let checked = check_base_url(&text).map_err(|message| ConfigError::Invalid {
                    path: "base_url".into(),
                    message,
                })?;
                l.base_url = checked.url;
                let said: Vec<String> = checked.notes.into_iter().chain(checked.hint).collect();
                return Ok((!said.is_empty()).then(|| said.join("; ")));
            }
            Self::Model => l.model = text,
            Self::ApiKey => {
                if let Some(message) = crate::llm::redact::key_problem(&text) {
                    return Err(ConfigError::Invalid {
                        path: "api_key".into(),
                        message,
                    });
                }
                l.api_key = (!text.is_empty()).then_some(text)
            }
        }
        Ok(None)
    }
}

/// A pairing of a run model (Phase 1) with a verify model (Phases 2, 3, reverse check).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Profile {
    pub run: String,
    pub verify: String,
    pub extra: Map<String, Value>,
}

/// The whole `settings.yaml`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Settings {
    pub defaults: Defaults,
    pub llms: SortedMap<String, LlmConfig>,
    pub profiles: SortedMap<String, Profile>,
    /// Named answer regexes the extractor tries, in this order, before its built-in rules.
    pub answer_patterns: Vec<AnswerPatternSpec>,
    pub extra: Map<String, Value>,
}

const DEFAULTS_KEYS: &[&str] = &["max_tokens", "temperature"];
const LLM_KEYS: &[&str] = &["base_url", "model", "api_key", "api_key_env", "json_mode"];
const PROFILE_KEYS: &[&str] = &["run", "verify"];
const SETTINGS_KEYS: &[&str] = &["defaults", "llms", "profiles", "answer_patterns"];
const PATTERN_KEYS: &[&str] = &["name", "regex"];

/// `answer_patterns: [{name, regex}, …]`. An entry's unknown key is refused rather than kept:
/// a misspelt option (`flags:`) silently ignored would change what a pattern matches.
fn read_answer_patterns(root: &Fields<'_>) -> Result<Vec<AnswerPatternSpec>, ConfigError> {
    let Some(value) = root.present("answer_patterns") else {
        return Ok(Vec::new());
    };
    let path = root.path.key("answer_patterns");
    let items = match value {
        Value::Array(items) => items,
        other => return Err(FieldError::wrong(path, "a list of {name, regex}", other).into()),
    };
    let mut specs = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let obj = Fields::of(item, path.index(i))?;
        if let Some(key) = obj.others(PATTERN_KEYS).keys().next() {
            return Err(ConfigError::Invalid {
                path: obj.path.key(key).to_string(),
                message: "unknown key (an answer pattern has only name and regex)".into(),
            });
        }
        specs.push(AnswerPatternSpec {
            name: obj.not_null("name")?,
            regex: obj.not_null("regex")?,
        });
    }
    Ok(specs)
}

fn json_mode_from(obj: &Fields<'_>) -> Result<JsonMode, ConfigError> {
    match obj.optional::<String>("json_mode")?.as_deref() {
        None => Ok(JsonMode::None),
        Some(name) => name
            .parse()
            .map_err(|e: crate::names::UnknownName| ConfigError::Invalid {
                path: obj.path.key("json_mode").to_string(),
                message: e.to_string(),
            }),
    }
}

impl LlmConfig {
    /// Reads one entry; corrections made to its base URL are added to `notes`.
    fn read(obj: &Fields<'_>, notes: &mut Vec<String>) -> Result<Self, ConfigError> {
        let url_path = obj.path.key("base_url").to_string();
        let checked = check_base_url(&obj.not_null::<String>("base_url")?).map_err(|message| {
            ConfigError::Invalid {
                path: url_path.clone(),
                message,
            }
        })?;
        notes.extend(checked.notes.iter().map(|n| format!("{url_path}: {n}")));
        // A key of the wrong type (say, a number) is not quoted back in the message.
        let api_key = obj
            .optional::<String>("api_key")
            .map_err(|e| FieldError {
                found: Some("another type (not shown: it may be a key)".into()),
                ..e
            })?
            .filter(|k| !k.is_empty());
        if let Some(message) = api_key.as_deref().and_then(crate::llm::redact::key_problem) {
            return Err(ConfigError::Invalid {
                path: obj.path.key("api_key").to_string(),
                message,
            });
        }
        Ok(Self {
            base_url: checked.url,
            model: obj.not_null("model")?,
            api_key,
            api_key_env: obj
                .optional::<String>("api_key_env")?
                .filter(|k| !k.is_empty()),
            json_mode: json_mode_from(obj)?,
            extra: obj.others(LLM_KEYS),
        })
    }

    fn write(&self, keys: KeyExport) -> Value {
        let mut m = self.extra.clone();
        m.insert("base_url".into(), Value::String(self.base_url.clone()));
        m.insert("model".into(), Value::String(self.model.clone()));
        if let (Some(key), KeyExport::Include) = (&self.api_key, keys) {
            m.insert("api_key".into(), Value::String(key.clone()));
        }
        if let Some(var) = &self.api_key_env {
            m.insert("api_key_env".into(), Value::String(var.clone()));
        }
        if self.json_mode != JsonMode::None {
            m.insert(
                "json_mode".into(),
                Value::String(self.json_mode.as_str().into()),
            );
        }
        Value::Object(m)
    }
}

impl Settings {
    /// Read settings from YAML or JSON text, checking types and cross references.
    pub fn from_text(text: &str, format: Format) -> Result<Self, ConfigError> {
        Self::from_value(&parse_document(text, format)?)
    }

    /// As [`from_text`](Self::from_text), with the corrections made on the way (a base
    /// URL given its scheme, `/chat/completions` removed, …), one message each.
    pub fn from_text_with_notes(
        text: &str,
        format: Format,
    ) -> Result<(Self, Vec<String>), ConfigError> {
        Self::from_value_with_notes(&parse_document(text, format)?)
    }

    pub fn from_value(value: &Value) -> Result<Self, ConfigError> {
        Self::from_value_with_notes(value).map(|(s, _)| s)
    }

    pub fn from_value_with_notes(value: &Value) -> Result<(Self, Vec<String>), ConfigError> {
        let mut notes = Vec::new();
        let root = Fields::of(value, Path::Root("the settings"))?;
        let mut settings = Settings {
            extra: root.others(SETTINGS_KEYS),
            ..Settings::default()
        };
        if let Some(d) = root.object("defaults")? {
            settings.defaults = Defaults {
                max_tokens: d.optional("max_tokens")?.unwrap_or(4000),
                temperature: d.optional("temperature")?.unwrap_or(0.1),
                extra: d.others(DEFAULTS_KEYS),
            };
        }
        if let Some(llms) = root.object("llms")? {
            for (name, obj) in llms.objects()? {
                settings
                    .llms
                    .insert(name.to_string(), LlmConfig::read(&obj, &mut notes)?);
            }
        }
        if let Some(profiles) = root.object("profiles")? {
            for (name, obj) in profiles.objects()? {
                let profile = Profile {
                    run: obj.not_null("run")?,
                    verify: obj.not_null("verify")?,
                    extra: obj.others(PROFILE_KEYS),
                };
                settings.profiles.insert(name.to_string(), profile);
            }
        }
        settings.answer_patterns = read_answer_patterns(&root)?;
        settings.validate()?;
        Ok((settings, notes))
    }

    /// The answer patterns compiled for the extractor.
    pub fn compiled_answer_patterns(&self) -> Result<AnswerPatterns, ConfigError> {
        Ok(AnswerPatterns::compile(&self.answer_patterns)?)
    }

    /// Every profile must name LLMs that exist; every answer pattern must compile.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.compiled_answer_patterns()?;
        for (name, p) in &self.profiles {
            for (role, llm) in [("run", &p.run), ("verify", &p.verify)] {
                if !self.llms.contains_key(llm) {
                    return Err(ConfigError::UnknownLlm {
                        path: format!("profiles.{name}.{role}"),
                        name: llm.clone(),
                    });
                }
            }
        }
        Ok(())
    }

    pub fn to_value(&self, keys: KeyExport) -> Value {
        let mut root = self.extra.clone();
        let mut d = self.defaults.extra.clone();
        d.insert("max_tokens".into(), Value::from(self.defaults.max_tokens));
        d.insert("temperature".into(), Value::from(self.defaults.temperature));
        root.insert("defaults".into(), Value::Object(d));
        let llms = self
            .llms
            .iter()
            .map(|(k, l)| (k.clone(), l.write(keys)))
            .collect();
        root.insert("llms".into(), Value::Object(llms));
        let profiles = self
            .profiles
            .iter()
            .map(|(k, p)| {
                let mut m = p.extra.clone();
                m.insert("run".into(), Value::String(p.run.clone()));
                m.insert("verify".into(), Value::String(p.verify.clone()));
                (k.clone(), Value::Object(m))
            })
            .collect();
        root.insert("profiles".into(), Value::Object(profiles));
        // Written only when there are some, so settings without patterns keep their shape.
        if !self.answer_patterns.is_empty() {
            let list = self
                .answer_patterns
                .iter()
                .map(|p| {
                    let mut m = Map::new();
                    m.insert("name".into(), Value::String(p.name.clone()));
                    m.insert("regex".into(), Value::String(p.regex.clone()));
                    Value::Object(m)
                })
                .collect();
            root.insert("answer_patterns".into(), Value::Array(list));
        }
        Value::Object(root)
    }

    pub fn to_text(&self, format: Format, keys: KeyExport) -> Result<String, ConfigError> {
        write_document(&self.to_value(keys), format)
    }

    pub fn profile(&self, name: &str) -> Result<&Profile, ConfigError> {
        self.profiles
            .get(name)
            .ok_or_else(|| ConfigError::UnknownProfile {
                name: name.to_string(),
                known: self.profiles.keys().cloned().collect::<Vec<_>>().join(", "),
            })
    }

    /// The endpoint of one LLM. An `api_key` in the settings wins; otherwise the CLI passes
    /// an environment lookup for `api_key_env` (the browser passes one that finds nothing).
    pub fn endpoint(
        &self,
        llm: &str,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Endpoint, ConfigError> {
        let cfg = self.llms.get(llm).ok_or_else(|| ConfigError::UnknownLlm {
            path: "llms".into(),
            name: llm.to_string(),
        })?;
        let api_key = match (&cfg.api_key, &cfg.api_key_env) {
            (Some(key), _) => Some(key.clone()),
            (None, Some(var)) => match env(var).filter(|k| !k.trim().is_empty()) {
                Some(key) => {
                    let key = key.trim().to_string();
                    if let Some(message) = crate::llm::redact::key_problem(&key) {
                        return Err(ConfigError::Invalid {
                            path: format!("llms.{llm}.api_key_env ({var})"),
                            message,
                        });
                    }
                    Some(key)
                }
                None => {
                    return Err(ConfigError::MissingKeyEnv {
                        llm: llm.to_string(),
                        var: var.clone(),
                    })
                }
            },
            (None, None) => None,
        };
        Ok(Endpoint {
            base_url: cfg.base_url.clone(),
            model: cfg.model.clone(),
            api_key,
            json_mode: cfg.json_mode,
        })
    }

    /// Every secret these settings hold: each LLM's `api_key` (or the value of its
    /// `api_key_env`, when `env` has it) and the userinfo of each base URL. Audits redact
    /// them all from everything they report, show or store.
    pub fn secrets(&self, env: &dyn Fn(&str) -> Option<String>) -> crate::llm::Secrets {
        let mut s = crate::llm::Secrets::new();
        for cfg in self.llms.values() {
            if let Some(key) = &cfg.api_key {
                s.add(key);
            }
            if let Some(key) = cfg.api_key_env.as_deref().and_then(env) {
                s.add(&key);
            }
            s.add_url(&cfg.base_url);
        }
        s
    }

    /// The example settings of docs/audit.md ("Settings"), for tests and the CLI's examples.
    pub fn example() -> Self {
        // The example text is ours and known to parse; fall back to empty settings rather
        // than panic should that ever change.
        Self::from_text(EXAMPLE_SETTINGS_YAML, Format::Yaml).unwrap_or_default()
    }
}

/// A starter `settings.yaml`: a local OpenAI-compatible server, two profiles.
pub const EXAMPLE_SETTINGS_YAML: &str = "\
defaults:
  max_tokens: 4000
  temperature: 0.1
llms:
  local-small:
    base_url: \"http://127.0.0.1:11434/v1\"
    model: \"qwen2.5:7b-instruct\"
    json_mode: json_object
  local-large:
    base_url: \"http://127.0.0.1:8000/v1\"
    model: \"Qwen3-235B-A22B\"
    inference_engine: \"vllm\"
profiles:
  local-full:
    run: local-small
    verify: local-small
  cross-verify:
    run: local-small
    verify: local-large
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llm_fields_read_and_set_their_own_value() {
        let mut l = LlmConfig::default();
        assert_eq!(
            LlmField::BaseUrl.set(&mut l, " http://127.0.0.1:8000/v1 "),
            Ok(None)
        );
        assert_eq!(LlmField::Model.set(&mut l, "qwen"), Ok(None));
        assert_eq!(LlmField::ApiKey.set(&mut l, "sk-abc\n"), Ok(None));
        assert_eq!(LlmField::BaseUrl.text(&l), "http://127.0.0.1:8000/v1");
        assert_eq!(LlmField::Model.text(&l), "qwen");
        assert_eq!(l.api_key.as_deref(), Some("sk-abc"));
        LlmField::ApiKey.set(&mut l, "  ").unwrap();
        assert_eq!(l.api_key, None);
        assert_eq!(LlmField::ApiKey.text(&l), "");
    }

    #[test]
    fn base_urls_are_checked_when_edited() {
        let mut l = LlmConfig::default();
        let note = LlmField::BaseUrl
            .set(&mut l, "127.0.0.1:8080/v1/chat/completions")
            .unwrap()
            .unwrap();
        assert_eq!(l.base_url, "http://127.0.0.1:8080/v1");
        assert!(
            note.contains("http://") && note.contains("/chat/completions"),
            "{note}"
        );
        let e = LlmField::BaseUrl
            .set(&mut l, "htps://api.example.com/v1")
            .unwrap_err();
        assert!(
            e.to_string()
                .contains("did you mean `https://api.example.com/v1`"),
            "{e}"
        );
        assert_eq!(
            l.base_url, "http://127.0.0.1:8080/v1",
            "a refused value changes nothing"
        );
        LlmField::BaseUrl.set(&mut l, "http:/h.example/v1").unwrap();
        assert_eq!(l.base_url, "http://h.example/v1");
    }

    #[test]
    fn keys_with_control_or_non_ascii_characters_are_refused_when_edited() {
        let mut l = LlmConfig::default();
        LlmField::ApiKey.set(&mut l, "sk-good").unwrap();
        for bad in ["sk-a\r\nX-Evil: 1", "sk-a\tb", "sk-ключ"] {
            let e = LlmField::ApiKey.set(&mut l, bad).unwrap_err().to_string();
            assert!(e.starts_with("api_key:"), "{e}");
            assert!(
                !e.contains("sk-a") && !e.contains("ключ"),
                "the key is not echoed: {e}"
            );
            assert_eq!(l.api_key.as_deref(), Some("sk-good"));
        }
    }

    #[test]
    fn base_urls_and_keys_are_checked_at_import() {
        let doc = |url: &str, key: &str| {
            format!("llms:\n  a:\n    base_url: \"{url}\"\n    model: m\n    api_key: \"{key}\"\n")
        };
        let (s, notes) = Settings::from_text_with_notes(
            &doc("localhost:11434/v1/chat/completions", "sk-1"),
            Format::Yaml,
        )
        .unwrap();
        assert_eq!(s.llms["a"].base_url, "http://localhost:11434/v1");
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].starts_with("llms.a.base_url: "), "{notes:?}");
        let e = Settings::from_text(&doc("htps://h/v1", "sk-1"), Format::Yaml).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("llms.a.base_url: `htps://` is not a scheme"),
            "{e}"
        );
        let e = Settings::from_text(&doc("https://h/v1", "sk-1\\r\\nX: y"), Format::Yaml)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("llms.a.api_key: the API key contains a control character"),
            "{e}"
        );
        assert!(!e.contains("sk-1"), "{e}");
        let e = Settings::from_text(&doc("https://h/v1", "sk-é"), Format::Yaml).unwrap_err();
        assert!(e.to_string().contains("non-ASCII"), "{e}");
        let e = Settings::from_text(
            "llms:\n  a:\n    base_url: \"https://h/v1\"\n    model: m\n    api_key: 1234567890\n",
            Format::Yaml,
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with("llms.a.api_key: expected a string") && !e.contains("1234567890"),
            "{e}"
        );
    }

    #[test]
    fn keys_from_the_environment_are_checked_and_every_key_is_a_secret() {
        let s = Settings::from_text(
            "llms:\n  a:\n    base_url: \"https://h/v1\"\n    model: m\n    api_key_env: K\n  b:\n    base_url: \"http://h/v1\"\n    model: m\n    api_key: sk-bbbb\n",
            Format::Yaml,
        )
        .unwrap();
        let e = s
            .endpoint("a", &|_| Some("sk-a\r\nX: 1".into()))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("control character") && !e.contains("sk-a"),
            "{e}"
        );
        let secrets = s.secrets(&|_| Some("sk-from-env".into()));
        let out = secrets.redact("sk-from-env sk-bbbb");
        assert_eq!(out, "[api key] [api key]");
    }

    #[test]
    fn userinfo_in_a_base_url_is_refused_at_import_and_when_edited() {
        let e = Settings::from_text(
            "llms:\n  a:\n    base_url: \"https://u:pw-1234@h/v1\"\n    model: m\n    api_key_env: K\n",
            Format::Yaml,
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with("llms.a.base_url: ") && e.contains("api_key / api_key_env"),
            "{e}"
        );
        assert!(!e.contains("pw-1234") && !e.contains("u:"), "{e}");
        let mut l = LlmConfig::default();
        let e = LlmField::BaseUrl
            .set(&mut l, "http://admin:pw-1234@127.0.0.1:8080/v1")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("api_key / api_key_env") && !e.contains("pw-1234"),
            "{e}"
        );
        assert!(!l.base_url.contains("pw-1234"));
    }

    const SEED: &str = r#"
defaults:
  max_tokens: 4000
  temperature: 0.1

llms:
  kimi-k2:
    base_url: "https://example.invalid/v1"
    model: "Kimi-K2-Instruct-0905"
    inference_engine: "aistudio-vllm"
  qwen3-235b:
    base_url: "https://example.invalid/v1"
    model: "Qwen3-235B-A22B"
    api_key: "sk-secret"
    json_mode: json_object

profiles:
  kimi-full:          # same model runs and verifies
    run: kimi-k2
    verify: kimi-k2
  cross-verify:
    run: kimi-k2
    verify: qwen3-235b
"#;

    #[test]
    fn reads_the_design_note_shape() {
        let s = Settings::from_text(SEED, Format::Yaml).unwrap();
        assert_eq!(s.defaults.max_tokens, 4000);
        assert_eq!(s.defaults.temperature, 0.1);
        let kimi = &s.llms["kimi-k2"];
        assert_eq!(kimi.model, "Kimi-K2-Instruct-0905");
        assert_eq!(kimi.extra["inference_engine"], "aistudio-vllm");
        assert_eq!(kimi.json_mode, JsonMode::None);
        assert_eq!(s.llms["qwen3-235b"].json_mode, JsonMode::JsonObject);
        assert_eq!(s.profiles["cross-verify"].verify, "qwen3-235b");
    }

    #[test]
    fn export_omits_keys_unless_asked_and_keeps_unknown_keys() {
        let mut text = SEED.to_string();
        text.push_str("ui_theme: dark\n");
        let s = Settings::from_text(&text, Format::Yaml).unwrap();
        let out = s.to_text(Format::Yaml, KeyExport::Omit).unwrap();
        assert!(!out.contains("sk-secret"), "{out}");
        assert!(out.contains("inference_engine"));
        assert!(out.contains("ui_theme"));
        let back = Settings::from_text(&out, Format::Yaml).unwrap();
        assert_eq!(back.llms["qwen3-235b"].api_key, None);
        assert_eq!(back.extra["ui_theme"], "dark");
        let with_keys = s.to_text(Format::Json, KeyExport::Include).unwrap();
        assert!(with_keys.contains("sk-secret"));
        let back = Settings::from_text(&with_keys, Format::Json).unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn wrong_types_name_the_key_path() {
        let bad = "llms:\n  a:\n    base_url: http://x\n    model: 42\n";
        let err = Settings::from_text(bad, Format::Yaml).unwrap_err();
        assert_eq!(
            err.to_string(),
            "llms.a.model: expected a string, found the number 42"
        );
        let bad = "defaults:\n  max_tokens: lots\n";
        let err = Settings::from_text(bad, Format::Yaml).unwrap_err();
        assert!(err.to_string().starts_with("defaults.max_tokens: expected"));
        let bad = "llms:\n  a:\n    base_url: u\n    model: m\n    json_mode: xml\n";
        let err = Settings::from_text(bad, Format::Yaml).unwrap_err();
        assert!(err.to_string().starts_with("llms.a.json_mode:"), "{err}");
        let err = Settings::from_text("- 1\n- 2\n", Format::Yaml).unwrap_err();
        assert!(matches!(err, ConfigError::Field(_)));
    }

    #[test]
    fn profiles_must_name_existing_llms() {
        let bad = "llms:\n  a: {base_url: u, model: m}\nprofiles:\n  p: {run: a, verify: b}\n";
        let err = Settings::from_text(bad, Format::Yaml).unwrap_err();
        assert_eq!(
            err,
            ConfigError::UnknownLlm {
                path: "profiles.p.verify".into(),
                name: "b".into()
            }
        );
    }

    #[test]
    fn syntax_errors_are_reported_not_panicked() {
        assert!(matches!(
            Settings::from_text("llms: [unclosed", Format::Yaml),
            Err(ConfigError::Syntax { .. })
        ));
        assert!(matches!(
            Settings::from_text("{\"llms\": ", Format::Json),
            Err(ConfigError::Syntax { .. })
        ));
    }

    #[test]
    fn api_key_comes_from_settings_or_the_named_env_var() {
        let text = "llms:\n  a: {base_url: u, model: m, api_key_env: MY_KEY}\n  b: {base_url: u, model: m}\n";
        let s = Settings::from_text(text, Format::Yaml).unwrap();
        let env = |v: &str| (v == "MY_KEY").then(|| "k-123".to_string());
        assert_eq!(
            s.endpoint("a", &env).unwrap().api_key.as_deref(),
            Some("k-123")
        );
        assert_eq!(s.endpoint("b", &env).unwrap().api_key, None);
        let none = |_: &str| None;
        assert!(matches!(
            s.endpoint("a", &none),
            Err(ConfigError::MissingKeyEnv { .. })
        ));
        // api_key_env is not a secret: it survives a keyless export.
        let out = s.to_text(Format::Yaml, KeyExport::Omit).unwrap();
        assert!(out.contains("MY_KEY"));
    }

    #[test]
    fn answer_patterns_read_in_order_round_trip_and_refuse_bad_ones() {
        let text = "answer_patterns:\n  - name: gsm8k\n    regex: \"#### (\\\\-?[0-9.,]+)\"\n  - {name: tagged, regex: \"ANS<(.+?)>\"}\n";
        let s = Settings::from_text(text, Format::Yaml).unwrap();
        let names: Vec<&str> = s.answer_patterns.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["gsm8k", "tagged"]);
        assert_eq!(s.answer_patterns[0].regex, "#### (\\-?[0-9.,]+)");
        let compiled = s.compiled_answer_patterns().unwrap();
        assert_eq!(compiled.names().collect::<Vec<_>>(), ["gsm8k", "tagged"]);
        for format in [Format::Yaml, Format::Json] {
            let out = s.to_text(format, KeyExport::Omit).unwrap();
            assert_eq!(Settings::from_text(&out, format).unwrap(), s, "{out}");
        }
        // No patterns, no key written.
        let out = Settings::example()
            .to_text(Format::Yaml, KeyExport::Omit)
            .unwrap();
        assert!(!out.contains("answer_patterns"));

        let err = |t: &str| {
            Settings::from_text(t, Format::Yaml)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err("answer_patterns:\n  - {name: two, regex: \"(a)(b)\"}\n"),
            "answer_patterns: answer pattern `two`: needs exactly one capture group (the answer), found 2; use (?:…) for groups that are not the answer"
        );
        assert!(err("answer_patterns:\n  - {name: p, regex: \"(\"}\n")
            .starts_with("answer_patterns: answer pattern `p`: not a valid regex"));
        assert_eq!(
            err("answer_patterns:\n  - {name: p}\n"),
            "missing field `answer_patterns[0].regex`"
        );
        assert!(
            err("answer_patterns:\n  - {name: p, regex: \"(x)\", flags: i}\n")
                .starts_with("answer_patterns[0].flags: unknown key")
        );
        assert!(err("answer_patterns: gsm8k\n").starts_with("answer_patterns: expected a list"));
    }

    #[test]
    fn example_settings_parse() {
        let s = Settings::example();
        assert_eq!(s.profiles.len(), 2);
        assert!(s.profile("cross-verify").is_ok());
        assert!(matches!(
            s.profile("nope"),
            Err(ConfigError::UnknownProfile { .. })
        ));
    }
}

#[cfg(test)]
mod example_files {
    use super::*;

    #[test]
    fn shipped_examples_parse_and_agree() {
        let settings = Settings::from_text(
            include_str!("../../public/examples/settings.yaml"),
            Format::Yaml,
        )
        .unwrap();
        let strategy = Strategy::from_text(
            include_str!("../../public/examples/strategy.yaml"),
            Format::Yaml,
        )
        .unwrap();
        for name in strategy.profiles.keys() {
            assert!(settings.profile(name).is_ok(), "strategy profile {name}");
        }
        assert_eq!(
            strategy
                .params_for("local-full")
                .numeric_deviation_threshold,
            0.08
        );
        assert!(strategy.params_for("cross-verify").reverse_verify);
        assert_eq!(
            settings.llms["vllm-large"].api_key_env.as_deref(),
            Some("VLLM_API_KEY")
        );
    }
}
