//! An imported settings or strategy file (Settings page): which it is, read with the
//! corrections made on the way, and the sentence that says what was imported.

use super::edit::{document_kind, DocumentKind};
use super::{ConfigError, Format, Settings, Strategy};
use crate::sorted_map::SortedMap;

/// What a file held.
#[derive(Debug, Clone, PartialEq)]
pub enum Imported {
    Settings(Box<Settings>),
    Strategy(Box<Strategy>),
}

/// Read the file `name` with contents `text`: JSON when it is named `.json`, otherwise
/// whatever the text looks like. `keys_now` are the API keys typed in this session: they
/// survive an import of a keyless file. Errors name the file.
pub fn import_document(
    name: &str,
    text: &str,
    keys_now: &SortedMap<String, String>,
) -> Result<(Imported, String), String> {
    if text.len() > super::MAX_FILE_BYTES {
        return Err(format!(
            "{name}: the file is {} bytes, over the limit of {} bytes (1 MiB) for a settings or strategy file",
            text.len(),
            super::MAX_FILE_BYTES
        ));
    }
    let format = if name.to_ascii_lowercase().ends_with(".json") {
        Format::Json
    } else {
        Format::sniff(text)
    };
    let err = |e: ConfigError| format!("{name}: {e}");
    match document_kind(text, format).map_err(err)? {
        DocumentKind::Settings => {
            let (mut imported, notes) =
                Settings::from_text_with_notes(text, format).map_err(err)?;
            imported.apply_api_keys(keys_now);
            let mut summary = format!(
                "Imported settings from {name}: {} LLMs, {} profiles, {} answer patterns.",
                imported.llms.len(),
                imported.profiles.len(),
                imported.answer_patterns.len()
            );
            for note in notes {
                summary.push_str(&format!(" Corrected {note}."));
            }
            Ok((Imported::Settings(Box::new(imported)), summary))
        }
        DocumentKind::Strategy => {
            let imported = Strategy::from_text(text, format).map_err(err)?;
            Ok((
                Imported::Strategy(Box::new(imported)),
                format!("Imported strategy from {name}."),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_keep_the_session_keys_and_say_what_came_in() {
        let yaml = "llms:\n  a:\n    base_url: 127.0.0.1:9/v1\n    model: m\nprofiles:\n  p:\n    run: a\n    verify: a\n";
        let mut keys = SortedMap::new();
        keys.insert("a".to_string(), "sk-typed".to_string());
        let (imported, summary) = import_document("s.yaml", yaml, &keys).unwrap();
        let Imported::Settings(s) = imported else {
            panic!("settings expected")
        };
        assert_eq!(
            s.llms.get("a").unwrap().api_key.as_deref(),
            Some("sk-typed")
        );
        assert!(
            summary.starts_with("Imported settings from s.yaml: 1 LLMs, 1 profiles, "),
            "{summary}"
        );
        assert!(
            summary.contains(" Corrected "),
            "the base URL note: {summary}"
        );
    }

    #[test]
    fn a_strategy_and_errors_name_the_file() {
        let s = Strategy::default().to_text(Format::Json).unwrap();
        let (imported, summary) = import_document("STRAT.JSON", &s, &SortedMap::new()).unwrap();
        assert!(matches!(imported, Imported::Strategy(_)));
        assert_eq!(summary, "Imported strategy from STRAT.JSON.");
        let e = import_document("x.yaml", "hello: 1\n", &SortedMap::new()).unwrap_err();
        assert!(e.starts_with("x.yaml: "), "{e}");
        // Named .json: read as JSON even though YAML would accept it.
        let e = import_document("x.json", "llms: {}\n", &SortedMap::new()).unwrap_err();
        assert!(e.starts_with("x.json: not valid JSON"), "{e}");
    }
}
