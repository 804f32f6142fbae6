//! One results line → a scored record, or the reason it cannot be counted.

use serde::Deserialize;
use serde_json::Value;

/// Why a line was skipped. Each carries enough to tell the user what to fix.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BadLineReason {
    #[error("not valid UTF-8 (byte {byte} of the line)")]
    NotUtf8 { byte: usize },
    #[error("longer than {limit} bytes")]
    TooLong { limit: usize },
    #[error("not JSON: {detail}")]
    NotJson { detail: String },
    #[error("not a JSON object with the results fields: {detail}")]
    NotAnObject { detail: String },
    #[error("missing expected_credit_score")]
    MissingExpected,
    #[error("missing credit_score")]
    MissingCreditScore,
    #[error("not audited (credit_score is null; error: {error})")]
    NotAudited { error: String },
    #[error("{field} is not an integer: {value}")]
    NotInteger { field: &'static str, value: String },
    #[error("{field} is {value}, outside 1–5")]
    OutOfRange { field: &'static str, value: i64 },
}

impl BadLineReason {
    /// Stable short name, used for the per-kind counts.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::NotUtf8 { .. } => "not_utf8",
            Self::TooLong { .. } => "too_long",
            Self::NotJson { .. } => "not_json",
            Self::NotAnObject { .. } => "not_an_object",
            Self::MissingExpected => "missing_expected",
            Self::MissingCreditScore => "missing_credit_score",
            Self::NotAudited { .. } => "not_audited",
            Self::NotInteger { .. } => "not_integer",
            Self::OutOfRange { .. } => "out_of_range",
        }
    }
}

/// The few fields the report needs; everything else on the line (long contexts, model
/// output, errors) is skipped by the parser without being kept.
#[derive(Deserialize)]
struct Row {
    #[serde(default)]
    id: Option<Value>,
    #[serde(default)]
    profile: Option<Value>,
    #[serde(default)]
    tag: Option<Value>,
    #[serde(default)]
    difficulty: Option<Value>,
    #[serde(default)]
    expected_credit_score: Option<Value>,
    #[serde(default)]
    credit_score: Option<Value>,
    #[serde(default)]
    error: Option<Value>,
}

/// A line that can be counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub id: Option<String>,
    pub profile: Option<String>,
    pub tag: Option<String>,
    pub difficulty: Option<String>,
    /// 1..=5
    pub expected: u8,
    /// 1..=5
    pub actual: u8,
}

/// What one parsed line tells the evaluator besides its record: whether it looks like a
/// results line (a score, an audit error or a profile) rather than a case, to recognise a
/// cases-only file.
#[derive(Debug)]
pub struct Parsed {
    pub result: Result<Record, BadLineReason>,
    pub looks_like_result: bool,
}

const MAX_DETAIL_CHARS: usize = 160;

pub fn parse_line(text: &str) -> Parsed {
    // serde would also read a JSON array positionally into `Row`; only objects are records.
    if !text.trim_start().starts_with('{') {
        let reason = match serde_json::from_str::<serde::de::IgnoredAny>(text) {
            Ok(_) => BadLineReason::NotAnObject {
                detail: "a JSON value that is not an object".into(),
            },
            Err(e) => BadLineReason::NotJson {
                detail: shorten(&e.to_string()),
            },
        };
        return Parsed {
            result: Err(reason),
            looks_like_result: false,
        };
    }
    let row: Row = match serde_json::from_str(text) {
        Ok(row) => row,
        Err(e) => {
            let detail = shorten(&e.to_string());
            let reason = if e.is_data() {
                BadLineReason::NotAnObject { detail }
            } else {
                BadLineReason::NotJson { detail }
            };
            return Parsed {
                result: Err(reason),
                looks_like_result: false,
            };
        }
    };
    let present = |v: &Option<Value>| v.as_ref().is_some_and(|v| !v.is_null());
    let looks_like_result =
        present(&row.credit_score) || present(&row.error) || present(&row.profile);
    Parsed {
        result: record_of(row),
        looks_like_result,
    }
}

fn record_of(row: Row) -> Result<Record, BadLineReason> {
    let expected = match row.expected_credit_score {
        None | Some(Value::Null) => return Err(BadLineReason::MissingExpected),
        Some(v) => score("expected_credit_score", &v)?,
    };
    let actual = match row.credit_score {
        None | Some(Value::Null) => {
            return Err(match row.error.as_ref().and_then(label) {
                Some(error) => BadLineReason::NotAudited {
                    error: shorten(&error),
                },
                None => BadLineReason::MissingCreditScore,
            })
        }
        Some(v) => score("credit_score", &v)?,
    };
    Ok(Record {
        id: row.id.as_ref().and_then(label),
        profile: row.profile.as_ref().and_then(label),
        tag: row.tag.as_ref().and_then(label),
        difficulty: row.difficulty.as_ref().and_then(label),
        expected,
        actual,
    })
}

/// A score must be a JSON integer 1..=5. `4.0` is accepted (some writers emit floats),
/// `4.5` and `"4"` are not: a string score means the file came from somewhere we don't
/// understand, and guessing would hide it.
fn score(field: &'static str, v: &Value) -> Result<u8, BadLineReason> {
    let not_integer = || BadLineReason::NotInteger {
        field,
        value: shorten(&v.to_string()),
    };
    let n = match v {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i
            } else if let Some(f) = n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 1e15) {
                f as i64
            } else if n.is_u64() {
                return Err(BadLineReason::OutOfRange {
                    field,
                    value: i64::MAX,
                });
            } else {
                return Err(not_integer());
            }
        }
        _ => return Err(not_integer()),
    };
    match u8::try_from(n) {
        Ok(s @ 1..=5) => Ok(s),
        _ => Err(BadLineReason::OutOfRange { field, value: n }),
    }
}

/// Group labels may be strings or numbers (`"difficulty": 2`); other shapes are ignored.
fn label(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn shorten(s: &str) -> String {
    if s.chars().count() <= MAX_DETAIL_CHARS {
        return s.to_string();
    }
    let mut out: String = s.chars().take(MAX_DETAIL_CHARS).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(line: &str) -> BadLineReason {
        match parse_line(line).result {
            Err(r) => r,
            Ok(r) => panic!("expected a bad line, got {r:?}"),
        }
    }

    #[test]
    fn good_line_keeps_only_the_needed_fields() {
        let p = parse_line(
            r#"{"id":13,"tag":"major_factual","difficulty":"hard","context_input":"长文本","profile":"kimi-full","expected_credit_score":2,"credit_score":4.0}"#,
        );
        assert!(p.looks_like_result);
        assert_eq!(
            p.result,
            Ok(Record {
                id: Some("13".into()),
                profile: Some("kimi-full".into()),
                tag: Some("major_factual".into()),
                difficulty: Some("hard".into()),
                expected: 2,
                actual: 4,
            })
        );
    }

    #[test]
    fn every_bad_line_kind() {
        assert_eq!(reason("{not json").kind(), "not_json");
        assert_eq!(reason("[1,2]").kind(), "not_an_object");
        assert_eq!(
            reason(r#"{"expected_credit_score":"x","credit_score":3}"#),
            BadLineReason::NotInteger {
                field: "expected_credit_score",
                value: "\"x\"".into()
            }
        );
        assert_eq!(
            reason(r#"{"credit_score":3}"#),
            BadLineReason::MissingExpected
        );
        assert_eq!(
            reason(r#"{"expected_credit_score":3}"#),
            BadLineReason::MissingCreditScore
        );
        assert_eq!(
            reason(r#"{"expected_credit_score":3,"credit_score":null,"error":"timeout"}"#),
            BadLineReason::NotAudited {
                error: "timeout".into()
            }
        );
        assert_eq!(
            reason(r#"{"expected_credit_score":3,"credit_score":3.5}"#),
            BadLineReason::NotInteger {
                field: "credit_score",
                value: "3.5".into()
            }
        );
        assert_eq!(
            reason(r#"{"expected_credit_score":3,"credit_score":"4"}"#).kind(),
            "not_integer"
        );
        assert_eq!(
            reason(r#"{"expected_credit_score":0,"credit_score":4}"#),
            BadLineReason::OutOfRange {
                field: "expected_credit_score",
                value: 0
            }
        );
        assert_eq!(
            reason(r#"{"expected_credit_score":3,"credit_score":6}"#),
            BadLineReason::OutOfRange {
                field: "credit_score",
                value: 6
            }
        );
        assert_eq!(
            reason(r#"{"expected_credit_score":3,"credit_score":-1}"#).kind(),
            "out_of_range"
        );
        assert_eq!(
            reason(r#"{"expected_credit_score":3,"credit_score":18446744073709551615}"#).kind(),
            "out_of_range"
        );
    }

    #[test]
    fn a_cases_line_has_no_credit_score_key() {
        let p = parse_line(r#"{"id":1,"tag":"clean","expected_credit_score":5}"#);
        assert!(!p.looks_like_result);
        assert_eq!(p.result, Err(BadLineReason::MissingCreditScore));
    }
}
