//! User-defined answer patterns: named regexes, each with exactly one capture group (the
//! answer), tried in order before the built-in rules, the way an lm-evaluation-harness task
//! declares its answer regex. Compiled once ([`AnswerPatterns::compile`]) and passed into
//! [`extract_with`](super::extract_with) / [`grade_with`](super::grade_with).

use std::sync::Arc;

use regex_lite::{Regex, RegexBuilder};

use super::candidates::trim_span;
use super::normalize::normalize;
use super::{Candidate, Method};

/// Compiled-program limit per pattern: a pattern like `\w{1000}{1000}` is refused at load time
/// with its name instead of taking seconds and megabytes to build. Matching is linear in the
/// text whatever the pattern (the `regex` crate never backtracks).
pub const PATTERN_SIZE_LIMIT: usize = 1024 * 1024;
/// Deepest nesting of groups and repetitions a pattern may have.
const NEST_LIMIT: u32 = 64;

/// A pattern as the user wrote it (settings' `answer_patterns`, or `--answer-pattern`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AnswerPatternSpec {
    pub name: String,
    pub regex: String,
}

/// Why a pattern was refused; every message names the pattern.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    #[error("answer pattern `{flag}`: expected NAME=REGEX")]
    NotNameEqualsRegex { flag: String },
    #[error("answer pattern #{position}: the name is empty")]
    EmptyName { position: usize },
    #[error("answer pattern `{name}`: the name is used twice")]
    DuplicateName { name: String },
    #[error("answer pattern `{name}`: the name is a built-in rule's; pick another")]
    BuiltInName { name: String },
    #[error("answer pattern `{name}`: not a valid regex: {message}")]
    Invalid { name: String, message: String },
    #[error(
        "answer pattern `{name}`: needs exactly one capture group (the answer), found {found}; \
         use (?:…) for groups that are not the answer"
    )]
    CaptureGroups { name: String, found: usize },
}

impl AnswerPatternSpec {
    /// Reads the CLI's `NAME=REGEX` (split at the first `=`, so the regex may contain `=`).
    pub fn from_flag(flag: &str) -> Result<AnswerPatternSpec, PatternError> {
        match flag.split_once('=') {
            Some((name, regex)) if !regex.is_empty() => Ok(AnswerPatternSpec {
                name: name.trim().to_string(),
                regex: regex.to_string(),
            }),
            _ => Err(PatternError::NotNameEqualsRegex {
                flag: flag.to_string(),
            }),
        }
    }
}

/// The compiled patterns, in the order they are tried. Empty by default.
#[derive(Debug, Clone, Default)]
pub struct AnswerPatterns {
    list: Vec<(Arc<str>, Regex)>,
}

impl PartialEq for AnswerPatterns {
    fn eq(&self, other: &Self) -> bool {
        self.list.len() == other.list.len()
            && self
                .list
                .iter()
                .zip(&other.list)
                .all(|((a, ra), (b, rb))| a == b && ra.as_str() == rb.as_str())
    }
}

impl AnswerPatterns {
    /// No patterns: extraction uses the built-in rules only.
    pub const NONE: AnswerPatterns = AnswerPatterns { list: Vec::new() };

    /// Compiles every pattern, refusing the first bad one with its name.
    pub fn compile(specs: &[AnswerPatternSpec]) -> Result<AnswerPatterns, PatternError> {
        let mut list: Vec<(Arc<str>, Regex)> = Vec::with_capacity(specs.len());
        for (i, spec) in specs.iter().enumerate() {
            let name = spec.name.trim();
            if name.is_empty() {
                return Err(PatternError::EmptyName { position: i + 1 });
            }
            if Method::is_reserved(name) {
                return Err(PatternError::BuiltInName { name: name.into() });
            }
            if list.iter().any(|(n, _)| &**n == name) {
                return Err(PatternError::DuplicateName { name: name.into() });
            }
            let re = RegexBuilder::new(&spec.regex)
                .size_limit(PATTERN_SIZE_LIMIT)
                .nest_limit(NEST_LIMIT)
                .build()
                // regex-lite's message says why, the size limit included.
                .map_err(|e| PatternError::Invalid {
                    name: name.into(),
                    message: e.to_string(),
                })?;
            // `captures_len` counts the implicit whole-match group too.
            let found = re.captures_len() - 1;
            if found != 1 {
                return Err(PatternError::CaptureGroups {
                    name: name.into(),
                    found,
                });
            }
            list.push((Arc::from(name), re));
        }
        Ok(AnswerPatterns { list })
    }

    /// The CLI's `--answer-pattern NAME=REGEX` flags in their order, then `more` (the
    /// settings' `answer_patterns`), compiled; the first bad one is refused with its name. The
    /// CLI and the Python package both build their patterns here, so they refuse alike.
    pub fn from_flags<S: AsRef<str>>(
        flags: &[S],
        more: Vec<AnswerPatternSpec>,
    ) -> Result<AnswerPatterns, PatternError> {
        let mut specs = flags
            .iter()
            .map(|f| AnswerPatternSpec::from_flag(f.as_ref()))
            .collect::<Result<Vec<_>, _>>()?;
        specs.extend(more);
        AnswerPatterns::compile(&specs)
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// The names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.list.iter().map(|(n, _)| &**n)
    }

    /// The first pattern (in order) that matches, read at its **last** match in `text`
    /// (final answers come last, as with the built-in rules). A match whose group is
    /// missing or blank does not count; a pattern with no usable match lets the next one try.
    pub(super) fn find(&self, text: &str) -> Option<Candidate> {
        self.list.iter().find_map(|(name, re)| {
            let group = re
                .captures_iter(text)
                .filter_map(|c| c.get(1))
                .filter(|m| !m.as_str().trim().is_empty())
                .last()?;
            let span = trim_span(text, group.start(), group.end())?;
            let raw = text.get(span.0..span.1)?;
            let answer = normalize(raw);
            (!answer.is_empty()).then(|| Candidate {
                method: Method::Pattern(name.clone()),
                answer,
                raw: raw.to_string(),
                span,
                several: Vec::new(),
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str, regex: &str) -> AnswerPatternSpec {
        AnswerPatternSpec {
            name: name.into(),
            regex: regex.into(),
        }
    }

    #[test]
    fn flag_splits_at_the_first_equals() {
        assert_eq!(
            AnswerPatternSpec::from_flag("eq=x = (\\d+)"),
            Ok(spec("eq", "x = (\\d+)"))
        );
        assert!(AnswerPatternSpec::from_flag("no-regex").is_err());
        assert!(AnswerPatternSpec::from_flag("empty=").is_err());
    }

    #[test]
    fn bad_patterns_are_refused_by_name() {
        let err = |name: &str, re: &str| {
            AnswerPatterns::compile(&[spec("ok", "A: (\\d+)"), spec(name, re)])
                .unwrap_err()
                .to_string()
        };
        assert!(err("p", "(unclosed").starts_with("answer pattern `p`: not a valid regex"));
        assert!(err("p", "\\d+").contains("exactly one capture group (the answer), found 0"));
        assert!(err("p", "(a)(b)").contains("found 2"));
        let huge = err("p", "\\w{1000}{1000}(x)");
        assert!(
            huge.starts_with("answer pattern `p`: not a valid regex"),
            "{huge}"
        );
        assert!(err("ok", "(x)").contains("used twice"));
        // Every built-in rule's name is taken (the list is the rules' own), and `none`.
        for name in [
            "boxed",
            "answer_heading",
            "json_field",
            "concluding_display",
            "none",
        ] {
            assert!(err(name, "(x)").contains("built-in rule"), "{name}");
        }
        assert_eq!(err(" ", "(x)"), "answer pattern #2: the name is empty");
        // A non-capturing group next to the answer's group is fine.
        assert!(AnswerPatterns::compile(&[spec("p", "(?:A|B): (\\d+)")]).is_ok());
    }

    // The CLI and the Python package build their patterns (and read preset names) here, so a
    // bad one is refused with the same message in both.
    #[test]
    fn flags_then_settings_in_order_with_the_clis_messages() {
        let p = AnswerPatterns::from_flags(&["a=A: (\\d+)"], vec![spec("b", "B: (\\d+)")]).unwrap();
        assert_eq!(p.names().collect::<Vec<_>>(), ["a", "b"]);
        let e = AnswerPatterns::from_flags(&["no-regex"], Vec::new()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "answer pattern `no-regex`: expected NAME=REGEX"
        );
        let e = AnswerPatterns::from_flags(&["a=(x)"], vec![spec("a", "(y)")]).unwrap_err();
        assert_eq!(e.to_string(), "answer pattern `a`: the name is used twice");
        assert_eq!(
            crate::extract::Preset::from_flag("strict"),
            Ok(crate::extract::Preset::Strict)
        );
        assert_eq!(
            crate::extract::Preset::from_flag("loose").unwrap_err(),
            "invalid value 'loose' for '--preset <PRESET>' [possible values: strict, lenient, reward]"
        );
    }

    #[test]
    fn first_pattern_in_order_wins_at_its_last_match() {
        let p = AnswerPatterns::compile(&[
            spec("gsm8k", "#### (\\-?[0-9.,]+)"),
            spec("answer", "(?i)answer: (\\S+)"),
        ])
        .unwrap();
        let text = "Answer: 3\n#### 1,000\n#### 42\n";
        let c = p.find(text).unwrap();
        assert_eq!((c.answer.as_str(), c.method.as_str()), ("42", "gsm8k"));
        assert_eq!(&text[c.span.0..c.span.1], "42");
        let c = p.find("answer: 7 then ANSWER: 8").unwrap();
        assert_eq!((c.answer.as_str(), c.method.as_str()), ("8", "answer"));
        assert_eq!(p.find("nothing here"), None);
        // A blank group does not count.
        let p = AnswerPatterns::compile(&[spec("opt", "x=(\\d*)")]).unwrap();
        assert_eq!(p.find("x=5 and x="), p.find("x=5"));
        assert_eq!(p.find("x= "), None);
    }
}
