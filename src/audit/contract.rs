//! The JSON the models are asked to return, and how a reply is read into it. Unknown fields
//! are ignored; ids may come as numbers; severities and types are read case-insensitively
//! (and in Chinese) because models are inconsistent about that, but anything outside the
//! contract's vocabulary is a parse error, which triggers the one re-ask.
//!
//! Replies are read by the [`FromJson`] impls below (the reply has to be parsed as a `Value`
//! anyway, to find, repair and check the object; a reply of the wrong shape is reported with
//! the path of the field at fault, which is what the re-ask quotes back to the model).
//! `Claim`, `Deduction`, `Exempted`, `Severity` and `ErrorType` also implement serde's
//! `Deserialize`, for reading a saved [`AuditReport`](super::AuditReport) back.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::json::{word, FieldError, Fields, FromJson, Path, Text};

/// One atomic statement of fact taken from the model output (Phase 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    pub id: String,
    pub text: String,
}

impl FromJson for Claim {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        Ok(Claim {
            id: f.required::<Text>("id")?.0,
            text: f.required::<Text>("text")?.0,
        })
    }
}

/// One step of reasoning in the model output: premises leading to a conclusion (Phase 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Deduction {
    pub id: String,
    #[serde(default)]
    pub premises: Vec<String>,
    pub conclusion: String,
}

impl FromJson for Deduction {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        Ok(Deduction {
            id: f.required::<Text>("id")?.0,
            // One premise is often written as a bare string.
            premises: f.get("premises").map(texts).unwrap_or_default(),
            conclusion: f.required::<Text>("conclusion")?.0,
        })
    }
}

/// A list of texts, as leniently as models write one: a single text is a list of one and
/// `null` is an empty list.
fn texts(value: &Value) -> Vec<String> {
    match value {
        Value::Array(items) => items.iter().map(crate::jsonl::text_of).collect(),
        Value::Null => Vec::new(),
        other => vec![crate::jsonl::text_of(other)],
    }
}

/// Phase 1 reply: `{"claims":[...],"deductions":[...]}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DecomposeReply {
    pub claims: Vec<Claim>,
    pub deductions: Vec<Deduction>,
}

impl FromJson for DecomposeReply {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        Ok(DecomposeReply {
            claims: f.required("claims")?,
            deductions: f.or_default("deductions")?,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Severity {
    High,
    Low,
}

impl Severity {
    fn from_word(word: &str) -> Option<Self> {
        match word.trim().to_ascii_lowercase().as_str() {
            "high" | "高" => Some(Severity::High),
            "low" | "低" => Some(Severity::Low),
            _ => None,
        }
    }

    fn unknown(word: &str) -> String {
        format!("severity `{word}` is neither High nor Low")
    }

    const EXPECTED: &'static str = "High or Low";
}

impl FromJson for Severity {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let w = word(value, path)?;
        Severity::from_word(w).ok_or_else(|| FieldError::wrong(path, Severity::EXPECTED, value))
    }
}

impl<'de> Deserialize<'de> for Severity {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Severity::from_word(&s).ok_or_else(|| serde::de::Error::custom(Severity::unknown(&s)))
    }
}

/// The two levels of the rubric that are errors (the third, reasonable inference, is not).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorType {
    Contradiction,
    Unsupported,
}

impl ErrorType {
    fn from_word(word: &str) -> Option<Self> {
        match word.trim().to_ascii_lowercase().as_str() {
            "contradiction" | "contradicted" | "矛盾" => Some(ErrorType::Contradiction),
            "unsupported" | "无支撑" => Some(ErrorType::Unsupported),
            _ => None,
        }
    }

    fn unknown(word: &str) -> String {
        format!(
            "error type `{word}` is neither contradiction nor unsupported \
             (a reasonable inference belongs in reasonable_inferences)"
        )
    }

    const EXPECTED: &'static str =
        "contradiction or unsupported (a reasonable inference belongs in reasonable_inferences)";
}

impl FromJson for ErrorType {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let w = word(value, path)?;
        ErrorType::from_word(w).ok_or_else(|| FieldError::wrong(path, ErrorType::EXPECTED, value))
    }
}

impl<'de> Deserialize<'de> for ErrorType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        ErrorType::from_word(&s).ok_or_else(|| serde::de::Error::custom(ErrorType::unknown(&s)))
    }
}

/// One error as reported by Phase 2 or 3.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReportedError {
    pub target: String,
    #[serde(rename = "type")]
    pub error_type: ErrorType,
    pub severity: Severity,
    pub evidence: String,
    pub explanation: String,
}

impl FromJson for ReportedError {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        Ok(ReportedError {
            target: f.or_default::<Text>("target")?.0,
            error_type: f.required("type")?,
            severity: f.required("severity")?,
            evidence: f.or_default::<Text>("evidence")?.0,
            explanation: f.or_default::<Text>("explanation")?.0,
        })
    }
}

/// A statement the verifier judged a reasonable inference: exempt, shown to the user.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Exempted {
    pub target: String,
    pub text: String,
}

impl Exempted {
    /// Models write these as bare strings or as objects with various field names.
    fn from_value(v: &Value) -> Self {
        let text_of = |v: &Value| match v {
            Value::Null => String::new(),
            other => crate::jsonl::text_of(other),
        };
        match v {
            Value::Object(m) => {
                let target = m.get("target").map(text_of).unwrap_or_default();
                let text = ["explanation", "text", "reason", "evidence", "claim"]
                    .iter()
                    .find_map(|k| m.get(*k).map(text_of).filter(|t| !t.is_empty()))
                    .unwrap_or_default();
                Exempted { target, text }
            }
            other => Exempted {
                target: String::new(),
                text: text_of(other),
            },
        }
    }
}

impl FromJson for Exempted {
    fn from_json(value: &Value, _: Path) -> Result<Self, FieldError> {
        Ok(Exempted::from_value(value))
    }
}

impl<'de> Deserialize<'de> for Exempted {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Value::deserialize(d).map(|v| Exempted::from_value(&v))
    }
}

/// A number the fact check derives from context numbers (it then is not an unsupported
/// number; docs/audit.md, "Deterministic findings").
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Derivation {
    pub number: String,
    pub explanation: String,
}

impl FromJson for Derivation {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        Ok(Derivation {
            number: f.required::<Text>("number")?.0,
            explanation: f.or_default::<Text>("explanation")?.0,
        })
    }
}

/// Phase 2 reply.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FactCheckReply {
    pub factual_errors: Vec<ReportedError>,
    pub reasonable_inferences: Vec<Exempted>,
    pub number_derivations: Vec<Derivation>,
}

impl FromJson for FactCheckReply {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        Ok(FactCheckReply {
            factual_errors: f.required("factual_errors")?,
            reasonable_inferences: f.or_default("reasonable_inferences")?,
            number_derivations: f.or_default("number_derivations")?,
        })
    }
}

/// Phase 3 reply.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogicCheckReply {
    pub logic_errors: Vec<ReportedError>,
    pub reasonable_inferences: Vec<Exempted>,
}

impl FromJson for LogicCheckReply {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        Ok(LogicCheckReply {
            logic_errors: f.required("logic_errors")?,
            reasonable_inferences: f.or_default("reasonable_inferences")?,
        })
    }
}

/// Reverse check reply: one decision per numbered error.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReverseReply {
    pub decisions: Vec<ReverseDecision>,
}

impl FromJson for ReverseReply {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        Ok(ReverseReply {
            decisions: f.required("decisions")?,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReverseDecision {
    pub index: usize,
    pub severity: Severity,
    pub reason: String,
}

impl FromJson for ReverseDecision {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        Ok(ReverseDecision {
            index: f.required("index")?,
            severity: f.required("severity")?,
            reason: f.or_default::<Text>("reason")?.0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    fn read<T: FromJson>(json: &str) -> Result<T, FieldError> {
        crate::json::read(&serde_json::from_str(json).unwrap(), "the reply")
    }

    fn error<T: FromJson + std::fmt::Debug>(json: &str) -> String {
        read::<T>(json).unwrap_err().to_string()
    }

    #[test]
    fn lenient_fields_and_unknown_keys() {
        let r: DecomposeReply = read(
            r#"{"claims":[{"id":1,"text":"A","confidence":0.9}, {"id":null,"text":"B"}],
                "deductions":[{"id":"D1","premises":"C1","conclusion":"B"},
                              {"id":"D2","conclusion":"C","premises":null}],"extra":true}"#,
        )
        .unwrap();
        assert_eq!(r.claims[0].id, "1");
        assert_eq!(r.claims[1].id, "");
        assert_eq!(r.deductions[0].premises, vec!["C1"]);
        assert!(r.deductions[1].premises.is_empty());
        let r: DecomposeReply = read(r#"{"claims":[]}"#).unwrap();
        assert!(r.deductions.is_empty());
        let e: FactCheckReply = read(
            r#"{"factual_errors":[{"target":"C1","type":"Contradiction","severity":"HIGH"}],
                "reasonable_inferences":["x", {"target":"C2","reason":"y"}]}"#,
        )
        .unwrap();
        assert_eq!(e.factual_errors[0].severity, Severity::High);
        assert_eq!(e.factual_errors[0].error_type, ErrorType::Contradiction);
        assert_eq!(e.factual_errors[0].evidence, "");
        assert_eq!(e.reasonable_inferences[1].text, "y");
        assert_eq!(e.reasonable_inferences[1].target, "C2");
        let e: LogicCheckReply =
            read(r#"{"logic_errors":[{"type":"无支撑","severity":" low "}]}"#).unwrap();
        assert_eq!(e.logic_errors[0].error_type, ErrorType::Unsupported);
        assert_eq!(e.logic_errors[0].severity, Severity::Low);
        let r: ReverseReply =
            read(r#"{"decisions":[{"index":2,"severity":"高","reason":"x"}]}"#).unwrap();
        assert_eq!(r.decisions[0].index, 2);
        assert_eq!(r.decisions[0].severity, Severity::High);
    }

    #[test]
    fn out_of_vocabulary_values_are_errors() {
        let bad =
            r#"{"factual_errors":[{"target":"C1","type":"contradiction","severity":"Medium"}]}"#;
        assert_eq!(
            error::<FactCheckReply>(bad),
            "factual_errors[0].severity: expected High or Low, found the string \"Medium\""
        );
        let bad = r#"{"logic_errors":[{"type":"reasonable","severity":"Low"}]}"#;
        assert!(error::<LogicCheckReply>(bad)
            .starts_with("logic_errors[0].type: expected contradiction or unsupported"));
    }

    #[test]
    fn missing_and_ill_typed_fields_name_their_path() {
        let cases: [(&str, &str); 7] = [
            (r#"{"errors":[]}"#, "missing field `factual_errors`"),
            (
                r#"{"factual_errors":[{"type":"unsupported"}]}"#,
                "missing field `factual_errors[0].severity`",
            ),
            (
                r#"{"factual_errors":null}"#,
                "factual_errors: expected a list, found null",
            ),
            (
                r#"{"factual_errors":[], "reasonable_inferences": {}}"#,
                "reasonable_inferences: expected a list, found an object",
            ),
            (
                r#"{"factual_errors":["C1 is wrong"]}"#,
                "factual_errors[0]: expected an object, found the string \"C1 is wrong\"",
            ),
            (
                r#"{"factual_errors":[{"type":1,"severity":"High"}]}"#,
                "factual_errors[0].type: expected a string, found the number 1",
            ),
            (r#"[]"#, "the reply: expected an object, found a list"),
        ];
        for (json, want) in cases {
            assert_eq!(error::<FactCheckReply>(json), want, "{json}");
        }
        assert_eq!(
            error::<DecomposeReply>(r#"{"claims":[{"id":"C1"}]}"#),
            "missing field `claims[0].text`"
        );
        assert_eq!(
            error::<DecomposeReply>(r#"{"claims":[], "deductions": null}"#),
            "deductions: expected a list, found null"
        );
        assert_eq!(
            error::<ReverseReply>(r#"{"decisions":[{"index":"1","severity":"Low"}]}"#),
            "decisions[0].index: expected a whole number >= 0, found the string \"1\""
        );
    }

    #[test]
    fn replies_read_back_what_they_write() {
        let fact = FactCheckReply {
            factual_errors: vec![ReportedError {
                target: "C1".into(),
                error_type: ErrorType::Contradiction,
                severity: Severity::High,
                evidence: "营收下降5%".into(),
                explanation: "x".into(),
            }],
            reasonable_inferences: vec![Exempted {
                target: "C2".into(),
                text: "y".into(),
            }],
            number_derivations: vec![Derivation {
                number: "35%".into(),
                explanation: "1470 / 4200".into(),
            }],
        };
        let json = serde_json::to_string(&fact).unwrap();
        assert_eq!(read::<FactCheckReply>(&json).unwrap(), fact);
        let decomposed = DecomposeReply {
            claims: vec![Claim {
                id: "C1".into(),
                text: "A".into(),
            }],
            deductions: vec![Deduction {
                id: "D1".into(),
                premises: vec!["C1".into(), "C2".into()],
                conclusion: "B".into(),
            }],
        };
        let json = serde_json::to_string(&decomposed).unwrap();
        assert_eq!(read::<DecomposeReply>(&json).unwrap(), decomposed);
        let reverse = ReverseReply {
            decisions: vec![ReverseDecision {
                index: 0,
                severity: Severity::Low,
                reason: "r".into(),
            }],
        };
        let json = serde_json::to_string(&reverse).unwrap();
        assert_eq!(read::<ReverseReply>(&json).unwrap(), reverse);
    }

    #[test]
    fn report_types_read_back_through_serde() {
        let json = r#"{"id":"C1","text":"A"}"#;
        let claim: Claim = serde_json::from_str(json).unwrap();
        assert_eq!(serde_json::to_string(&claim).unwrap(), json);
        let severity: Severity = serde_json::from_str(r#""Low""#).unwrap();
        assert_eq!(severity, Severity::Low);
        let err = serde_json::from_str::<ErrorType>(r#""opinion""#).unwrap_err();
        assert!(err.to_string().contains("`opinion`"), "{err}");
        let exempt: Exempted = serde_json::from_str(r#"{"target":"C2","text":"y"}"#).unwrap();
        assert_eq!(exempt.text, "y");
    }
}
