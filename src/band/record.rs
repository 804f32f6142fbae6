//! One results line → the few fields a band report needs. Everything else in the line
//! (long contexts, outputs, errors) is skipped without being copied.

use serde::Deserialize;
use serde_json::Value;

use crate::jsonl::compact;

/// What the report needs from one results line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultRecord {
    pub id: Option<String>,
    pub expected: u8,
    pub actual: u8,
    pub profile: Option<String>,
    pub tag: Option<String>,
    pub difficulty: Option<String>,
}

/// A line is a scored record, a case without a score yet, or bad (with the reason).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParsedLine {
    Scored(ResultRecord),
    /// Has `expected_credit_score` but no `credit_score` and no audit error: an input case.
    Unscored,
    Bad(String),
}

/// The fields of a results line the report reads. A derive reads this shape as it is, and
/// reads the line straight from its text: the line's other keys (long contexts and outputs)
/// are skipped without being copied, which reading it into a `Value` first would not do.
#[derive(Default, Deserialize)]
struct Raw {
    /// A string or a number; read as a generic value and checked in [`id_text`] rather than
    /// through an untagged enum, which serde decodes by buffering the value in a private
    /// tree (a few KB of wasm for one field).
    #[serde(default)]
    id: Option<Value>,
    #[serde(default)]
    expected_credit_score: Option<Value>,
    #[serde(default)]
    credit_score: Option<Value>,
    #[serde(default)]
    profile: Option<String>,
    #[serde(default)]
    tag: Option<String>,
    #[serde(default)]
    difficulty: Option<String>,
    #[serde(default)]
    error: Option<Value>,
}

/// Most characters of a line's `error` quoted in its bad-line reason.
const ERROR_SHOWN: usize = 300;

/// A results line's `error` as text for a reason: a string as it is, anything else as JSON,
/// cut at [`ERROR_SHOWN`] characters.
fn error_text(e: &Value) -> String {
    let full = match e {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    match full.char_indices().nth(ERROR_SHOWN) {
        Some((at, _)) => format!("{}…", &full[..at]),
        None => full,
    }
}

/// Parse one JSONL line. Never panics; a bad line says why.
pub fn parse_record(line: &str) -> ParsedLine {
    if !line.trim_start().starts_with('{') {
        return ParsedLine::Bad("not a JSON object (a results line is {\"expected_credit_score\": …, \"credit_score\": …})".into());
    }
    let raw: Raw = match serde_json::from_str(line) {
        Ok(r) => r,
        Err(e) => return ParsedLine::Bad(format!("not a JSON object: {e}")),
    };
    let id = match raw.id.as_ref().map(id_text).transpose() {
        Ok(id) => id,
        Err(why) => return ParsedLine::Bad(why),
    };
    let Some(expected) = raw.expected_credit_score.filter(|v| !v.is_null()) else {
        return ParsedLine::Bad("missing expected_credit_score".into());
    };
    let expected = match score(&expected) {
        Ok(s) => s,
        Err(why) => return ParsedLine::Bad(format!("expected_credit_score {why}")),
    };
    let actual = match raw.credit_score.filter(|v| !v.is_null()) {
        Some(n) => match score(&n) {
            Ok(s) => s,
            Err(why) => return ParsedLine::Bad(format!("credit_score {why}")),
        },
        None if raw.error.as_ref().is_some_and(|e| !e.is_null()) => {
            // The line's own reason, so Report's bad-lines list says why.
            let why = raw.error.as_ref().map(error_text).unwrap_or_default();
            return ParsedLine::Bad(format!(
                "not audited: {why} (the line has an `error` and no credit_score)"
            ));
        }
        None => return ParsedLine::Unscored,
    };
    ParsedLine::Scored(ResultRecord {
        id,
        expected,
        actual,
        profile: raw.profile,
        tag: raw.tag,
        difficulty: raw.difficulty,
    })
}

/// The text of an `id` (`"id": null` never gets here: serde reads it as no id): a string as
/// it is, a number as written (`13`, `1.5`). Anything else makes the line bad.
fn id_text(v: &Value) -> Result<String, String> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        other => Err(format!(
            "id {} is neither a string nor a number",
            compact(other)
        )),
    }
}

/// A score must be an integer 1–5 (`4.0` is accepted as 4; `4.5` and `"4"` are not).
fn score(v: &Value) -> Result<u8, String> {
    let Some(n) = v.as_number() else {
        return Err(format!("{} is not an integer", compact(v)));
    };
    let as_int = n
        .as_i64()
        .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64));
    match as_int {
        Some(v @ 1..=5) => Ok(v as u8),
        Some(v) => Err(format!("{v} is outside 1–5")),
        None => Err(format!("{n} is not an integer")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scored_line_with_extra_fields() {
        let l = r#"{"id": 13, "tag": "major_factual", "difficulty": "hard", "context_input": "很长的上下文", "expected_credit_score": 2, "credit_score": 4, "profile": "kimi-full", "errors": []}"#;
        assert_eq!(
            parse_record(l),
            ParsedLine::Scored(ResultRecord {
                id: Some("13".into()),
                expected: 2,
                actual: 4,
                profile: Some("kimi-full".into()),
                tag: Some("major_factual".into()),
                difficulty: Some("hard".into()),
            })
        );
    }

    #[test]
    fn escaped_strings_are_unescaped() {
        let l = r#"{"expected_credit_score": 5, "credit_score": 5, "tag": "cl\u0065an"}"#;
        match parse_record(l) {
            ParsedLine::Scored(r) => assert_eq!(r.tag.as_deref(), Some("clean")),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_bad_line_kind_has_a_reason() {
        let cases = [
            ("not json", "not a JSON object"),
            ("[1,2]", "not a JSON object"),
            (r#"{"credit_score": 3}"#, "missing expected_credit_score"),
            (
                r#"{"expected_credit_score": 6, "credit_score": 3}"#,
                "6 is outside 1–5",
            ),
            (
                r#"{"expected_credit_score": 3, "credit_score": 0}"#,
                "credit_score 0 is outside",
            ),
            (
                r#"{"expected_credit_score": 3, "credit_score": 2.5}"#,
                "2.5 is not an integer",
            ),
            (
                r#"{"expected_credit_score": "3", "credit_score": 2}"#,
                "\"3\" is not an integer",
            ),
            (
                r#"{"expected_credit_score": 3, "error": "timeout"}"#,
                "not audited: timeout (the line",
            ),
            (
                r#"{"id": [1], "expected_credit_score": 3, "credit_score": 2}"#,
                "id [1] is neither a string nor a number",
            ),
            (
                r#"{"expected_credit_score": 3, "credit_score": 2, "tag": 7}"#,
                "invalid type: integer `7`, expected a string at line 1 column 56",
            ),
            (
                r#"{"expected_credit_score": 3, "credit_score": 2, "credit_score": 4}"#,
                "duplicate field `credit_score` at line 1",
            ),
            (
                r#"{"expected_credit_score": 3, "credit_score": 2"#,
                "EOF while parsing an object",
            ),
        ];
        for (line, want) in cases {
            match parse_record(line) {
                ParsedLine::Bad(why) => assert!(why.contains(want), "{line}: {why}"),
                other => panic!("{line} should be bad, got {other:?}"),
            }
        }
    }

    #[test]
    fn ids_are_strings_numbers_or_absent() {
        let id_of = |line: &str| match parse_record(line) {
            ParsedLine::Scored(r) => r.id,
            other => panic!("{line}: {other:?}"),
        };
        let scores = r#""expected_credit_score": 3, "credit_score": 3"#;
        assert_eq!(
            id_of(&format!(r#"{{"id": "c-7", {scores}}}"#)),
            Some("c-7".into())
        );
        assert_eq!(
            id_of(&format!(r#"{{"id": -2, {scores}}}"#)),
            Some("-2".into())
        );
        assert_eq!(
            id_of(&format!(r#"{{"id": 1.5, {scores}}}"#)),
            Some("1.5".into())
        );
        assert_eq!(id_of(&format!(r#"{{"id": null, {scores}}}"#)), None);
        assert_eq!(id_of(&format!("{{{scores}}}")), None);
    }

    #[test]
    fn float_integers_are_scores_and_cases_are_unscored() {
        assert!(matches!(
            parse_record(r#"{"expected_credit_score": 4.0, "credit_score": 5}"#),
            ParsedLine::Scored(ResultRecord {
                expected: 4,
                actual: 5,
                ..
            })
        ));
        assert_eq!(
            parse_record(r#"{"expected_credit_score": 4}"#),
            ParsedLine::Unscored
        );
    }
}
