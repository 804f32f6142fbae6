//! The JSON the models are asked to return, as serde types. Unknown fields are ignored;
//! ids may come as numbers; severities and types are read case-insensitively (and in
//! Chinese) because models are inconsistent about that, but anything outside the
//! contract's vocabulary is a parse error, which triggers the one re-ask.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// Accept `"C1"`, `1` or `null` where the contract says string.
fn lenient_text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::String(s) => s,
        Value::Null => String::new(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        other => other.to_string(),
    })
}

fn lenient_texts<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Array(items) => items
            .into_iter()
            .map(|v| match v {
                Value::String(s) => s,
                other => other.to_string(),
            })
            .collect(),
        Value::Null => Vec::new(),
        Value::String(s) => vec![s],
        other => vec![other.to_string()],
    })
}

/// One atomic statement of fact taken from the model output (Phase 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    #[serde(deserialize_with = "lenient_text")]
    pub id: String,
    #[serde(deserialize_with = "lenient_text")]
    pub text: String,
}

/// One step of reasoning in the model output: premises leading to a conclusion (Phase 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Deduction {
    #[serde(deserialize_with = "lenient_text")]
    pub id: String,
    #[serde(default, deserialize_with = "lenient_texts")]
    pub premises: Vec<String>,
    #[serde(deserialize_with = "lenient_text")]
    pub conclusion: String,
}

/// Phase 1 reply: `{"claims":[...],"deductions":[...]}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DecomposeReply {
    pub claims: Vec<Claim>,
    #[serde(default)]
    pub deductions: Vec<Deduction>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Severity {
    High,
    Low,
}

impl<'de> Deserialize<'de> for Severity {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        match s.trim().to_ascii_lowercase().as_str() {
            "high" | "高" => Ok(Severity::High),
            "low" | "低" => Ok(Severity::Low),
            _ => Err(serde::de::Error::custom(format!(
                "severity `{s}` is neither High nor Low"
            ))),
        }
    }
}

/// The two levels of the rubric that are errors (the third, reasonable inference, is not).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorType {
    Contradiction,
    Unsupported,
}

impl<'de> Deserialize<'de> for ErrorType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        match s.trim().to_ascii_lowercase().as_str() {
            "contradiction" | "contradicted" | "矛盾" => Ok(ErrorType::Contradiction),
            "unsupported" | "无支撑" => Ok(ErrorType::Unsupported),
            _ => Err(serde::de::Error::custom(format!(
                "error type `{s}` is neither contradiction nor unsupported \
                 (a reasonable inference belongs in reasonable_inferences)"
            ))),
        }
    }
}

/// One error as reported by Phase 2 or 3.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportedError {
    #[serde(default, deserialize_with = "lenient_text")]
    pub target: String,
    #[serde(rename = "type")]
    pub error_type: ErrorType,
    pub severity: Severity,
    #[serde(default, deserialize_with = "lenient_text")]
    pub evidence: String,
    #[serde(default, deserialize_with = "lenient_text")]
    pub explanation: String,
}

/// A statement the verifier judged a reasonable inference: exempt, shown to the user.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Exempted {
    pub target: String,
    pub text: String,
}

impl<'de> Deserialize<'de> for Exempted {
    /// Models write these as bare strings or as objects with various field names.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        let text_of = |v: &Value| match v {
            Value::String(s) => s.clone(),
            Value::Null => String::new(),
            other => other.to_string(),
        };
        Ok(match &v {
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
        })
    }
}

/// Phase 2 reply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FactCheckReply {
    pub factual_errors: Vec<ReportedError>,
    #[serde(default)]
    pub reasonable_inferences: Vec<Exempted>,
}

/// Phase 3 reply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogicCheckReply {
    pub logic_errors: Vec<ReportedError>,
    #[serde(default)]
    pub reasonable_inferences: Vec<Exempted>,
}

/// Reverse check reply: one decision per numbered error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReverseReply {
    pub decisions: Vec<ReverseDecision>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReverseDecision {
    pub index: usize,
    pub severity: Severity,
    #[serde(default, deserialize_with = "lenient_text")]
    pub reason: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lenient_fields_and_unknown_keys() {
        let r: DecomposeReply = serde_json::from_str(
            r#"{"claims":[{"id":1,"text":"A","confidence":0.9}],
                "deductions":[{"id":"D1","premises":"C1","conclusion":"B"}],"extra":true}"#,
        )
        .unwrap();
        assert_eq!(r.claims[0].id, "1");
        assert_eq!(r.deductions[0].premises, vec!["C1"]);
        let e: FactCheckReply = serde_json::from_str(
            r#"{"factual_errors":[{"target":"C1","type":"Contradiction","severity":"HIGH"}],
                "reasonable_inferences":["x", {"target":"C2","reason":"y"}]}"#,
        )
        .unwrap();
        assert_eq!(e.factual_errors[0].severity, Severity::High);
        assert_eq!(e.factual_errors[0].error_type, ErrorType::Contradiction);
        assert_eq!(e.reasonable_inferences[1].text, "y");
        assert_eq!(e.reasonable_inferences[1].target, "C2");
    }

    #[test]
    fn out_of_vocabulary_values_are_errors() {
        let bad =
            r#"{"factual_errors":[{"target":"C1","type":"contradiction","severity":"Medium"}]}"#;
        let err = serde_json::from_str::<FactCheckReply>(bad).unwrap_err();
        assert!(err.to_string().contains("Medium"));
        let missing = r#"{"errors":[]}"#;
        assert!(serde_json::from_str::<FactCheckReply>(missing).is_err());
    }
}
