//! What the Settings page (and every page that needs a model) decides about the LLM settings,
//! without the browser: the one-click presets for the servers of docs/llm.md, which field of an
//! LLM is still missing, and the page's words for a settings problem (the command line's words
//! name environment variables; a page says where to click).

use crate::audit::AuditPlan;
use crate::config::{ConfigError, LlmConfig, Profile, Settings, Strategy};
use crate::llm::JsonMode;

/// A model server the Settings page can fill in with one click (docs/llm.md, "Other servers").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preset {
    /// The LLM's name in the settings, and the test id's suffix.
    pub id: &'static str,
    pub label: &'static str,
    pub base_url: &'static str,
    /// A placeholder the user replaces with the model the server serves.
    pub model: &'static str,
    pub json_mode: JsonMode,
    /// Hosted APIs need a key; local servers need none unless started with one.
    pub needs_key: bool,
    /// What to do on the server so the page may call it (CORS), or where the model name comes from.
    pub hint: &'static str,
}

/// The presets, in the order docs/llm.md lists the servers.
pub const PRESETS: [Preset; 5] = [
    Preset {
        id: "llama-cpp",
        label: "llama.cpp",
        base_url: "http://127.0.0.1:8080/v1",
        model: "local-model",
        json_mode: JsonMode::JsonObject,
        needs_key: false,
        hint: "Model: the alias given with `llama-server -a`. CORS: nothing to do.",
    },
    Preset {
        id: "ollama",
        label: "Ollama",
        base_url: "http://127.0.0.1:11434/v1",
        model: "qwen2.5:7b-instruct",
        json_mode: JsonMode::JsonObject,
        needs_key: false,
        hint: "Model: a name from `ollama list`. CORS: start Ollama with OLLAMA_ORIGINS=\"*\".",
    },
    Preset {
        id: "lm-studio",
        label: "LM Studio",
        base_url: "http://127.0.0.1:1234/v1",
        model: "local-model",
        json_mode: JsonMode::JsonSchema,
        needs_key: false,
        hint: "Model: the identifier LM Studio shows. CORS: Developer → server settings → enable CORS.",
    },
    Preset {
        id: "vllm",
        label: "vLLM",
        base_url: "http://127.0.0.1:8000/v1",
        model: "served-model-name",
        json_mode: JsonMode::JsonObject,
        needs_key: false,
        hint: "Model: the served model name. CORS: vllm serve … --allowed-origins '[\"*\"]'.",
    },
    Preset {
        id: "openai-compatible",
        label: "OpenAI-compatible (hosted)",
        base_url: "https://api.openai.com/v1",
        model: "gpt-4o-mini",
        json_mode: JsonMode::JsonObject,
        needs_key: true,
        hint: "Any hosted OpenAI-compatible API: change the base URL and model, paste the key.",
    },
];

/// Add `preset` as a new LLM (named after it, `-2`… when taken) and, when the settings have
/// no profile yet, a profile that uses it for both roles. Returns the LLM's and the profile's
/// names (the profile is `None` when one existed already).
pub fn apply_preset(settings: &mut Settings, preset: &Preset) -> (String, Option<String>) {
    let name = free_name(|n| settings.llms.contains_key(n), preset.id);
    settings.llms.insert(
        name.clone(),
        LlmConfig {
            base_url: preset.base_url.into(),
            model: preset.model.into(),
            json_mode: preset.json_mode,
            ..LlmConfig::default()
        },
    );
    let profile = settings.profiles.is_empty().then(|| {
        let p = free_name(|n| settings.profiles.contains_key(n), preset.id);
        settings.profiles.insert(
            p.clone(),
            Profile {
                run: name.clone(),
                verify: name.clone(),
                ..Profile::default()
            },
        );
        p
    });
    (name, profile)
}

fn free_name(taken: impl Fn(&str) -> bool, stem: &str) -> String {
    if !taken(stem) {
        return stem.to_string();
    }
    (2..)
        .map(|n| format!("{stem}-{n}"))
        .find(|n| !taken(n))
        .unwrap_or_else(|| stem.to_string())
}

/// The fields of an LLM the browser still needs, in the card's order: `base URL`, `model`,
/// `key` (a key is missing only when the settings say one is used, through the command line's
/// `api_key_env`, and none was pasted).
pub fn missing_fields(cfg: &LlmConfig) -> Vec<&'static str> {
    let mut missing = Vec::new();
    if cfg.base_url.trim().is_empty() {
        missing.push("base URL");
    }
    if cfg.model.trim().is_empty() {
        missing.push("model");
    }
    if cfg.api_key.is_none() && cfg.api_key_env.is_some() {
        missing.push("key");
    }
    missing
}

/// "base URL", "base URL and model", "base URL, model and key".
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [head @ .., last] => format!("{} and {last}", head.join(", ")),
    }
}

/// Why LLM `name` cannot be called from the page yet, naming the missing fields, or `None`.
pub fn llm_problem(settings: &Settings, name: &str) -> Option<String> {
    let Some(cfg) = settings.llms.get(name) else {
        return Some(page_message(&ConfigError::UnknownLlm {
            path: "llms".into(),
            name: name.to_string(),
        }));
    };
    let missing = missing_fields(cfg);
    if missing.is_empty() {
        return None;
    }
    let mut text = format!(
        "The LLM `{name}` has no {}: fill it in on the Settings page (LLMs → {name}).",
        and_list(&missing)
    );
    if missing.contains(&"key") {
        text.push_str(
            " Paste the key in its API key field: the page cannot read environment variables.",
        );
    }
    Some(text)
}

/// The audit plan for `profile` as the page makes it (keys from the settings only, never from
/// an environment), or why it cannot run, in the page's words. The one place the page decides
/// this: `AuditPlan::from_settings` plans, `page_message` words its errors, and an LLM the plan
/// uses with fields still empty is named with them (`llm_problem`), before anything is sent.
pub fn page_plan(
    settings: &Settings,
    strategy: &Strategy,
    profile: &str,
) -> Result<AuditPlan, String> {
    let plan = AuditPlan::from_settings(settings, strategy, profile, &|_| None).map_err(|e| {
        match &e {
            // A key the page cannot read: name it with the LLM's other empty fields.
            ConfigError::MissingKeyEnv { llm, .. } => {
                llm_problem(settings, llm).unwrap_or_else(|| page_message(&e))
            }
            _ => page_message(&e),
        }
    })?;
    let problem = [&plan.run.llm, &plan.verify.llm]
        .into_iter()
        .find_map(|llm| llm_problem(settings, llm));
    match problem {
        Some(why) => Err(why),
        None => Ok(plan),
    }
}

/// Why `profile` cannot run an audit from the page, in the page's words, or `None`
/// (`page_plan`'s answer).
pub fn profile_problem(settings: &Settings, profile: &str) -> Option<String> {
    page_plan(settings, &Strategy::default(), profile).err()
}

/// What "Test connection" says when the browser could not read the server's answer to the
/// models list. A browser reports a CORS refusal exactly like a server that is down; a second,
/// `no-cors` request to the same URL (whose answer the page may not read, but which succeeds
/// whenever anything answers) tells them apart: `answered` is its outcome. `url` is redacted.
pub fn unreachable_message(url: &str, answered: bool) -> String {
    if answered {
        format!(
            "Connection failed: the server at {url} answered, but it does not let this page read its replies (CORS: this page's origin is not allowed). Fixes: Ollama: set OLLAMA_ORIGINS (e.g. OLLAMA_ORIGINS=\"*\") and restart it; LM Studio: enable \"CORS\" in the server settings; vLLM: start it with --allowed-origins '[\"*\"]'; llama.cpp answers every origin."
        )
    } else {
        format!(
            "Connection failed: nothing answered at {url}. The server is not running, or the address or port is wrong: start it (docs/llm.md) or check the base URL."
        )
    }
}

/// What a page says when no model server is configured.
pub const NO_SERVER: &str = "No model server is configured yet: open Settings and pick your server (llama.cpp, Ollama, LM Studio, vLLM or a hosted OpenAI-compatible API), or look at the demo first.";

/// A settings error in the page's words: where to click rather than which variable to set.
pub fn page_message(e: &ConfigError) -> String {
    match e {
        ConfigError::MissingKeyEnv { llm, .. } => format!(
            "The LLM `{llm}` needs an API key: paste the key in Settings (LLMs → {llm} → API key). The page cannot read environment variables."
        ),
        ConfigError::UnknownProfile { known, .. } if known.is_empty() => NO_SERVER.to_string(),
        ConfigError::UnknownProfile { name, known } => {
            format!("Pick a profile: there is no profile named `{name}` (known: {known}).")
        }
        ConfigError::UnknownLlm { name, .. } => {
            format!("There is no LLM named `{name}`: add it in Settings (LLMs).")
        }
        other => format!("{other}. Check the profile on the Settings page."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preset_adds_an_llm_and_a_first_profile() {
        let mut s = Settings::default();
        let (llm, profile) = apply_preset(&mut s, &PRESETS[1]);
        assert_eq!(llm, "ollama");
        assert_eq!(profile.as_deref(), Some("ollama"));
        assert_eq!(s.llms["ollama"].base_url, "http://127.0.0.1:11434/v1");
        assert_eq!(s.profiles["ollama"].run, "ollama");
        assert!(s.validate().is_ok());
        // A second click adds another LLM and leaves the profiles alone.
        let (llm, profile) = apply_preset(&mut s, &PRESETS[1]);
        assert_eq!(llm, "ollama-2");
        assert_eq!(profile, None);
        assert_eq!(s.profiles.len(), 1);
    }

    #[test]
    fn every_preset_has_a_base_url_the_settings_accept() {
        for p in PRESETS {
            let checked = crate::config::check_base_url(p.base_url).expect(p.label);
            assert_eq!(checked.url, p.base_url, "{}", p.label);
            assert!(checked.notes.is_empty(), "{}", p.label);
        }
    }

    #[test]
    fn names_the_missing_fields() {
        let mut s = Settings::default();
        apply_preset(&mut s, &PRESETS[0]);
        assert_eq!(profile_problem(&s, "llama-cpp"), None);
        let l = s.llms.get_mut("llama-cpp").unwrap();
        l.model.clear();
        l.base_url.clear();
        l.api_key_env = Some("VLLM_API_KEY".into());
        let why = profile_problem(&s, "llama-cpp").unwrap();
        assert!(
            why.starts_with("The LLM `llama-cpp` has no base URL, model and key"),
            "{why}"
        );
        assert!(why.contains("Paste the key"), "{why}");
        assert!(!why.contains("VLLM_API_KEY"), "{why}");
        s.llms.get_mut("llama-cpp").unwrap().api_key = Some("k".into());
        let why = llm_problem(&s, "llama-cpp").unwrap();
        assert!(why.contains("has no base URL and model:"), "{why}");
    }

    #[test]
    fn no_profile_points_at_settings_and_the_demo() {
        let s = Settings::default();
        assert_eq!(profile_problem(&s, "").as_deref(), Some(NO_SERVER));
        let e = s.profile("x").unwrap_err();
        assert_eq!(page_message(&e), NO_SERVER);
    }

    #[test]
    fn down_and_cors_refused_are_told_apart() {
        let cors = unreachable_message("http://127.0.0.1:11434/v1", true);
        assert!(
            cors.contains("CORS") && cors.contains("OLLAMA_ORIGINS"),
            "{cors}"
        );
        assert!(!cors.contains("not running"), "{cors}");
        let down = unreachable_message("http://127.0.0.1:11434/v1", false);
        assert!(
            down.contains("nothing answered at http://127.0.0.1:11434/v1"),
            "{down}"
        );
        assert!(
            down.contains("not running") && !down.contains("CORS"),
            "{down}"
        );
    }

    #[test]
    fn the_page_plan_and_profile_problem_agree() {
        let mut s = Settings::default();
        apply_preset(&mut s, &PRESETS[0]);
        assert!(page_plan(&s, &Strategy::default(), "llama-cpp").is_ok());
        s.llms.get_mut("llama-cpp").unwrap().model.clear();
        let why = page_plan(&s, &Strategy::default(), "llama-cpp").unwrap_err();
        assert_eq!(Some(why), profile_problem(&s, "llama-cpp"));
        let why = profile_problem(&s, "nope").unwrap();
        assert!(
            why.starts_with("Pick a profile: there is no profile named `nope` (known: llama-cpp)"),
            "{why}"
        );
        s.profiles.get_mut("llama-cpp").unwrap().verify = "gone".into();
        s.llms.get_mut("llama-cpp").unwrap().model = "m".into();
        let why = profile_problem(&s, "llama-cpp").unwrap();
        assert_eq!(
            why,
            "There is no LLM named `gone`: add it in Settings (LLMs)."
        );
    }

    #[test]
    fn a_missing_key_variable_reads_as_paste_the_key() {
        let e = ConfigError::MissingKeyEnv {
            llm: "big".into(),
            var: "VLLM_API_KEY".into(),
        };
        let m = page_message(&e);
        assert!(m.contains("paste the key in Settings"), "{m}");
        assert!(!m.contains("VLLM_API_KEY"), "{m}");
    }
}
