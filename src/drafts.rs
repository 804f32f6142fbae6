//! Drafts: what a user typed or loaded on a page (Audit's context and output, Extract's
//! solution, Proof's pasted problem…), kept so navigation and reload do not lose it.
//!
//! Pure: a key naming rule, the size cap, and the refusal to keep anything that looks like a
//! secret. The browser adapter (`ui::drafts_store`) writes through local storage, debounced.

/// Every draft lives under this local-storage prefix: `verifyfast.draft.<page>.<field>`.
pub const PREFIX: &str = "verifyfast.draft.";

/// A draft longer than this is not kept (local storage is ~5 MB for the whole origin, and
/// the batch results live there too). The page keeps it; a reload loses it.
pub const MAX_BYTES: usize = 512 * 1024;

/// Why a draft was not kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DraftError {
    /// Field names that could hold credentials are never stored.
    Secret(String),
    TooLarge {
        field: String,
        bytes: usize,
    },
}

impl std::fmt::Display for DraftError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DraftError::Secret(k) => write!(f, "{k} is never kept as a draft"),
            DraftError::TooLarge { field, bytes } => write!(
                f,
                "{field} is {} KB, more than the {} KB kept as a draft: it stays on this page only",
                bytes / 1024,
                MAX_BYTES / 1024
            ),
        }
    }
}

/// The storage key of one page's field.
pub fn key(page: &str, field: &str) -> String {
    format!("{PREFIX}{page}.{field}")
}

fn secret_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    ["key", "token", "secret", "password", "authorization"]
        .iter()
        .any(|w| n.contains(w))
}

/// The (key, value) to write for a draft, or why it is not kept. An empty value is kept too,
/// so a field the user cleared stays clear rather than showing its example again.
pub fn to_store(page: &str, field: &str, value: &str) -> Result<(String, String), DraftError> {
    if secret_name(page) || secret_name(field) {
        return Err(DraftError::Secret(format!("{page}.{field}")));
    }
    if value.len() > MAX_BYTES {
        return Err(DraftError::TooLarge {
            field: field.to_string(),
            bytes: value.len(),
        });
    }
    Ok((key(page, field), value.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_values_and_refusals() {
        assert_eq!(key("audit", "context"), "verifyfast.draft.audit.context");
        assert_eq!(
            to_store("audit", "context", "x"),
            Ok(("verifyfast.draft.audit.context".into(), "x".into()))
        );
        assert_eq!(
            to_store("extract", "text", ""),
            Ok(("verifyfast.draft.extract.text".into(), String::new()))
        );
        assert!(matches!(
            to_store("settings", "api_key", "sk"),
            Err(DraftError::Secret(_))
        ));
        assert!(matches!(
            to_store("x", "Bearer_TOKEN", "sk"),
            Err(DraftError::Secret(_))
        ));
        let big = "a".repeat(MAX_BYTES + 1);
        let e = to_store("audit", "output", &big).unwrap_err();
        assert!(e.to_string().contains("stays on this page only"));
    }
}
