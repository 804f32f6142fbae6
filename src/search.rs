//! The search box of the app's tables (the Extract page's grade table, the Report page's
//! cases): plain text or, with the "Regex" toggle on, a regular expression; both ignore case.
//! Pure, so both tables share one tested rule for what a search matches.

use regex_lite::{Regex, RegexBuilder};

/// Compiled-program limit for a typed regex: a search like `\w{5000}{5000}` is refused with a
/// message instead of taking seconds and megabytes to build in the browser. Matching itself
/// is linear in the text (regex-lite guarantees O(pattern × text) time), so nothing can freeze there.
pub const SEARCH_SIZE_LIMIT: usize = 256 * 1024;
/// Deepest nesting of groups and repetitions a typed regex may have.
const NEST_LIMIT: u32 = 64;

/// Why the search text could not be used as a regex.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    #[error("not a valid regex: {0}")]
    Invalid(String),
}

/// What a table's search box asks for.
#[derive(Debug, Clone)]
pub enum SearchQuery {
    /// An empty box: every row.
    Everything,
    /// Rows whose text contains this (already lower-cased) text.
    Plain(String),
    /// Rows in which this case-insensitive regex finds a match.
    Regex(Regex),
}

impl SearchQuery {
    /// Reads the box. Plain text is trimmed (a stray space should not hide every row); a
    /// regex is taken as typed, since spaces can be part of it.
    pub fn parse(text: &str, regex: bool) -> Result<SearchQuery, SearchError> {
        if text.trim().is_empty() {
            return Ok(SearchQuery::Everything);
        }
        if !regex {
            // std's full Unicode lower-casing, so "É" finds "é" as users expect.
            return Ok(SearchQuery::Plain(text.trim().to_lowercase()));
        }
        RegexBuilder::new(text)
            .case_insensitive(true)
            // A row's searchable text is its columns one per line: `^` and `$` anchor at each
            // column, so `^gsm-1\d\d$` finds the rows whose id is gsm-100…199 (docs/runs.md).
            .multi_line(true)
            .size_limit(SEARCH_SIZE_LIMIT)
            .nest_limit(NEST_LIMIT)
            .build()
            .map(SearchQuery::Regex)
            // regex-lite's message says why, the size limit included.
            .map_err(|e| SearchError::Invalid(e.to_string()))
    }

    /// [`parse`](Self::parse), with an unusable regex ignored: the table then shows every
    /// row its other filters keep (the box shows the error), rather than none while the user
    /// is still typing `(`.
    pub fn parse_or_everything(text: &str, regex: bool) -> SearchQuery {
        SearchQuery::parse(text, regex).unwrap_or(SearchQuery::Everything)
    }

    /// Whether a row whose searchable text is `haystack` is kept.
    pub fn matches(&self, haystack: &str) -> bool {
        match self {
            SearchQuery::Everything => true,
            SearchQuery::Plain(needle) => haystack.to_lowercase().contains(needle.as_str()),
            SearchQuery::Regex(re) => re.is_match(haystack),
        }
    }

    pub fn is_everything(&self) -> bool {
        matches!(self, SearchQuery::Everything)
    }
}

/// Equal when they ask for the same thing (a regex by its text), so a page can keep the
/// compiled query in a memo that only changes when the box does.
impl PartialEq for SearchQuery {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (SearchQuery::Everything, SearchQuery::Everything) => true,
            (SearchQuery::Plain(a), SearchQuery::Plain(b)) => a == b,
            (SearchQuery::Regex(a), SearchQuery::Regex(b)) => a.as_str() == b.as_str(),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keeps(text: &str, regex: bool, hay: &str) -> bool {
        SearchQuery::parse(text, regex)
            .map(|q| q.matches(hay))
            .unwrap_or(false)
    }

    #[test]
    fn anchors_work_per_column() {
        // Columns are one per line: `^`/`$` anchor to a whole column without `(?m)`.
        assert!(keeps("^gsm-1\\d\\d$", true, "3\ngsm-150\nfloat"));
        assert!(!keeps("^gsm-1\\d\\d$", true, "3\ngsm-1500\nfloat"));
        assert!(keeps("^float$", true, "3\ngsm-150\nfloat"));
    }

    #[test]
    fn empty_box_keeps_everything() {
        for regex in [false, true] {
            assert!(SearchQuery::parse("  ", regex).is_ok_and(|q| q.is_everything()));
            assert!(keeps("", regex, "anything"));
        }
    }

    #[test]
    fn plain_is_trimmed_and_ignores_case_beyond_ascii() {
        assert!(keeps(" Apples ", false, "22 APPLES left"));
        assert!(keeps("ÉTÉ", false, "un été chaud"));
        assert!(keeps("ΣΟΦΊΑ", false, "σοφία"));
        assert!(!keeps("pears", false, "22 apples"));
        // Plain text is literal: regex syntax means nothing there.
        assert!(!keeps("a.c", false, "abc"));
        assert!(keeps("a.c", false, "a.c"));
    }

    #[test]
    fn regex_ignores_ascii_case_and_matches_any_text() {
        assert!(keeps("^id-\\d+$", true, "ID-42"));
        assert!(!keeps("^id-\\d+$", true, "id-42x"));
        assert!(keeps("\\bwort\\b", true, "ein Wort hier"));
        assert!(keeps("a.c", true, "abc"));
        // Non-ASCII text matches as written; `.` is one character, not one byte.
        assert!(keeps("答案.5", true, "答案是5"));
        assert!(keeps("été", true, "un été"));
        // regex-lite's documented limits (README): classes and case folding are ASCII-only.
        assert!(!keeps("été", true, "ÉTÉ"));
        assert!(!keeps("^\\d$", true, "٣"));
    }

    #[test]
    fn bad_and_huge_regexes_are_errors_not_panics() {
        let e = SearchQuery::parse("(unclosed", true).unwrap_err();
        assert!(matches!(e, SearchError::Invalid(_)), "{e}");
        assert!(e.to_string().starts_with("not a valid regex"), "{e}");
        let e = SearchQuery::parse("\\w{5000}{5000}", true).unwrap_err();
        assert!(matches!(e, SearchError::Invalid(_)), "{e}");
        assert!(e.to_string().contains("size"), "{e}");
        let deep = format!("{}a{}", "(".repeat(100), ")".repeat(100));
        assert!(SearchQuery::parse(&deep, true).is_err());
        // The same text is fine as plain text.
        assert!(SearchQuery::parse("(unclosed", false).is_ok());
        assert!(SearchQuery::parse_or_everything("(unclosed", true).is_everything());
    }
}
