//! `strategy.yaml`: the audit parameters, with per-profile overrides merged over the
//! defaults so a model whose severity judgements run lenient can get a stricter threshold.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::sorted_map::SortedMap;

use super::{parse_document, write_document, ConfigError, Format};
use crate::json::{Fields, Path};

/// How many errors of each severity move the credit score down (docs/audit.md, "Score (Phase 4)").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreThresholds {
    /// High errors at or above this give score 1.
    pub high_for_1: u32,
    /// High errors at or above this (and below `high_for_1`) give score 2.
    pub high_for_2: u32,
    /// With no High error, Low errors at or above this give score 3.
    pub low_for_3: u32,
    /// With no High error, Low errors at or above this (below `low_for_3`) give score 4.
    pub low_for_4: u32,
}

impl Default for ScoreThresholds {
    fn default() -> Self {
        Self {
            high_for_1: 3,
            high_for_2: 1,
            low_for_3: 2,
            low_for_4: 1,
        }
    }
}

/// The effective parameters of one audit (defaults with the profile's overrides applied).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AuditParams {
    /// Relative numeric deviation above which a number that also flips direction is High.
    pub numeric_deviation_threshold: f64,
    /// The most errors one phase may report.
    pub max_errors_per_phase: u32,
    /// The most claims Phase 1 may extract.
    pub max_claims: u32,
    /// The most deductions Phase 1 may extract (docs/audit.md, "Protocol").
    #[serde(default = "default_max_deductions")]
    pub max_deductions: u32,
    pub score_thresholds: ScoreThresholds,
    /// Ask the verify model to re-judge each severity once more.
    pub reverse_verify: bool,
    /// A number the number check finds nowhere in the context is a High factual error unless
    /// the fact check states a derivation for it (docs/audit.md, "Deterministic findings").
    #[serde(default = "on")]
    pub unsupported_number_is_high: bool,
    /// A context quantity stated with the opposite direction (rose/fell, 增长/下降) is a High
    /// contradiction, found without a model.
    #[serde(default = "on")]
    pub direction_check: bool,
    /// Count an error whose evidence is in neither the context nor the output. Off: such an
    /// error is listed, marked "evidence not found", and not counted (docs/audit.md, "Evidence
    /// that is not a quote").
    #[serde(default)]
    pub count_unquoted_evidence: bool,
}

fn default_max_deductions() -> u32 {
    5
}

fn on() -> bool {
    true
}

impl Default for AuditParams {
    fn default() -> Self {
        Self {
            numeric_deviation_threshold: 0.10,
            max_errors_per_phase: 3,
            max_claims: 5,
            max_deductions: default_max_deductions(),
            score_thresholds: ScoreThresholds::default(),
            reverse_verify: false,
            unsupported_number_is_high: true,
            direction_check: true,
            count_unquoted_evidence: false,
        }
    }
}

/// A partial set of parameters as written in one `params:` block.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ParamOverrides {
    pub numeric_deviation_threshold: Option<f64>,
    pub max_errors_per_phase: Option<u32>,
    pub max_claims: Option<u32>,
    pub max_deductions: Option<u32>,
    pub high_for_1: Option<u32>,
    pub high_for_2: Option<u32>,
    pub low_for_3: Option<u32>,
    pub low_for_4: Option<u32>,
    pub reverse_verify: Option<bool>,
    pub unsupported_number_is_high: Option<bool>,
    pub direction_check: Option<bool>,
    pub count_unquoted_evidence: Option<bool>,
    /// Unknown parameters (e.g. from a newer version), kept for the round trip.
    pub extra: Map<String, Value>,
    pub thresholds_extra: Map<String, Value>,
}

/// A strategy parameter the Settings page edits as one text field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditableParam {
    NumericDeviationThreshold,
    MaxErrorsPerPhase,
    MaxClaims,
    MaxDeductions,
    HighFor1,
    HighFor2,
    LowFor3,
    LowFor4,
    ReverseVerify,
    UnsupportedNumberIsHigh,
    DirectionCheck,
    CountUnquotedEvidence,
}

impl EditableParam {
    pub const ALL: [EditableParam; 12] = [
        EditableParam::NumericDeviationThreshold,
        EditableParam::MaxErrorsPerPhase,
        EditableParam::MaxClaims,
        EditableParam::MaxDeductions,
        EditableParam::HighFor1,
        EditableParam::HighFor2,
        EditableParam::LowFor3,
        EditableParam::LowFor4,
        EditableParam::ReverseVerify,
        EditableParam::UnsupportedNumberIsHigh,
        EditableParam::DirectionCheck,
        EditableParam::CountUnquotedEvidence,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Self::NumericDeviationThreshold => "Numeric deviation threshold (0.10 = 10 %)",
            Self::MaxErrorsPerPhase => "Max errors per phase",
            Self::MaxClaims => "Max claims",
            Self::MaxDeductions => "Max deductions",
            Self::HighFor1 => "High errors for score 1",
            Self::HighFor2 => "High errors for score 2",
            Self::LowFor3 => "Low errors for score 3",
            Self::LowFor4 => "Low errors for score 4",
            Self::ReverseVerify => "Reverse verify (true/false)",
            Self::UnsupportedNumberIsHigh => "Unsupported number is High (true/false)",
            Self::DirectionCheck => "Direction check (true/false)",
            Self::CountUnquotedEvidence => {
                "Count errors whose evidence is not a quote (true/false)"
            }
        }
    }

    /// The parameter's current value, as the field shows it.
    pub fn text(self, p: &AuditParams) -> String {
        let t = &p.score_thresholds;
        match self {
            Self::NumericDeviationThreshold => {
                format!("{}", p.numeric_deviation_threshold)
            }
            Self::MaxErrorsPerPhase => p.max_errors_per_phase.to_string(),
            Self::MaxClaims => p.max_claims.to_string(),
            Self::MaxDeductions => p.max_deductions.to_string(),
            Self::HighFor1 => t.high_for_1.to_string(),
            Self::HighFor2 => t.high_for_2.to_string(),
            Self::LowFor3 => t.low_for_3.to_string(),
            Self::LowFor4 => t.low_for_4.to_string(),
            Self::ReverseVerify => p.reverse_verify.to_string(),
            Self::UnsupportedNumberIsHigh => p.unsupported_number_is_high.to_string(),
            Self::DirectionCheck => p.direction_check.to_string(),
            Self::CountUnquotedEvidence => p.count_unquoted_evidence.to_string(),
        }
    }

    /// Set the parameter from what the user typed; the message says which field and why.
    pub fn set(self, o: &mut ParamOverrides, text: &str) -> Result<(), String> {
        let text = text.trim();
        fn count(text: &str, label: &str) -> Result<Option<u32>, String> {
            text.parse()
                .map(Some)
                .map_err(|_| format!("{label}: `{text}` is not a whole number"))
        }
        let label = self.label();
        let flag = |text: &str| -> Result<Option<bool>, String> {
            text.parse()
                .map(Some)
                .map_err(|_| format!("{label}: `{text}` is not true or false"))
        };
        match self {
            Self::NumericDeviationThreshold => {
                let v = text
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| format!("{label}: `{text}` is not a number"))?;
                o.numeric_deviation_threshold = Some(v);
            }
            Self::MaxErrorsPerPhase => o.max_errors_per_phase = count(text, label)?,
            Self::MaxClaims => o.max_claims = count(text, label)?,
            Self::MaxDeductions => o.max_deductions = count(text, label)?,
            Self::HighFor1 => o.high_for_1 = count(text, label)?,
            Self::HighFor2 => o.high_for_2 = count(text, label)?,
            Self::LowFor3 => o.low_for_3 = count(text, label)?,
            Self::LowFor4 => o.low_for_4 = count(text, label)?,
            Self::ReverseVerify => o.reverse_verify = flag(text)?,
            Self::UnsupportedNumberIsHigh => o.unsupported_number_is_high = flag(text)?,
            Self::DirectionCheck => o.direction_check = flag(text)?,
            Self::CountUnquotedEvidence => o.count_unquoted_evidence = flag(text)?,
        }
        Ok(())
    }
}

const PARAM_KEYS: &[&str] = &[
    "numeric_deviation_threshold",
    "max_errors_per_phase",
    "max_claims",
    "max_deductions",
    "score_thresholds",
    "reverse_verify",
    "unsupported_number_is_high",
    "direction_check",
    "count_unquoted_evidence",
];
const THRESHOLD_KEYS: &[&str] = &["high_for_1", "high_for_2", "low_for_3", "low_for_4"];

impl ParamOverrides {
    fn read(obj: &Fields<'_>) -> Result<Self, ConfigError> {
        let mut p = ParamOverrides {
            numeric_deviation_threshold: obj.optional("numeric_deviation_threshold")?,
            max_errors_per_phase: obj.optional("max_errors_per_phase")?,
            max_claims: obj.optional("max_claims")?,
            max_deductions: obj.optional("max_deductions")?,
            reverse_verify: obj.optional("reverse_verify")?,
            unsupported_number_is_high: obj.optional("unsupported_number_is_high")?,
            direction_check: obj.optional("direction_check")?,
            count_unquoted_evidence: obj.optional("count_unquoted_evidence")?,
            extra: obj.others(PARAM_KEYS),
            ..Default::default()
        };
        if let Some(t) = obj.object("score_thresholds")? {
            p.high_for_1 = t.optional("high_for_1")?;
            p.high_for_2 = t.optional("high_for_2")?;
            p.low_for_3 = t.optional("low_for_3")?;
            p.low_for_4 = t.optional("low_for_4")?;
            p.thresholds_extra = t.others(THRESHOLD_KEYS);
        }
        Ok(p)
    }

    fn write(&self) -> Value {
        let mut m = self.extra.clone();
        let mut put = |k: &str, v: Option<Value>| {
            if let Some(v) = v {
                m.insert(k.into(), v);
            }
        };
        put(
            "numeric_deviation_threshold",
            self.numeric_deviation_threshold.map(Value::from),
        );
        put(
            "max_errors_per_phase",
            self.max_errors_per_phase.map(Value::from),
        );
        put("max_claims", self.max_claims.map(Value::from));
        put("max_deductions", self.max_deductions.map(Value::from));
        put("reverse_verify", self.reverse_verify.map(Value::from));
        put(
            "unsupported_number_is_high",
            self.unsupported_number_is_high.map(Value::from),
        );
        put("direction_check", self.direction_check.map(Value::from));
        put(
            "count_unquoted_evidence",
            self.count_unquoted_evidence.map(Value::from),
        );
        let mut t = self.thresholds_extra.clone();
        for (k, v) in [
            ("high_for_1", self.high_for_1),
            ("high_for_2", self.high_for_2),
            ("low_for_3", self.low_for_3),
            ("low_for_4", self.low_for_4),
        ] {
            if let Some(v) = v {
                t.insert(k.into(), Value::from(v));
            }
        }
        if !t.is_empty() {
            m.insert("score_thresholds".into(), Value::Object(t));
        }
        Value::Object(m)
    }

    fn apply(&self, p: &mut AuditParams) {
        let t = &mut p.score_thresholds;
        p.numeric_deviation_threshold = self
            .numeric_deviation_threshold
            .unwrap_or(p.numeric_deviation_threshold);
        p.max_errors_per_phase = self.max_errors_per_phase.unwrap_or(p.max_errors_per_phase);
        p.max_claims = self.max_claims.unwrap_or(p.max_claims);
        p.max_deductions = self.max_deductions.unwrap_or(p.max_deductions);
        p.reverse_verify = self.reverse_verify.unwrap_or(p.reverse_verify);
        p.unsupported_number_is_high = self
            .unsupported_number_is_high
            .unwrap_or(p.unsupported_number_is_high);
        p.direction_check = self.direction_check.unwrap_or(p.direction_check);
        p.count_unquoted_evidence = self
            .count_unquoted_evidence
            .unwrap_or(p.count_unquoted_evidence);
        t.high_for_1 = self.high_for_1.unwrap_or(t.high_for_1);
        t.high_for_2 = self.high_for_2.unwrap_or(t.high_for_2);
        t.low_for_3 = self.low_for_3.unwrap_or(t.low_for_3);
        t.low_for_4 = self.low_for_4.unwrap_or(t.low_for_4);
    }

    /// Every parameter written out, so an exported strategy shows all knobs.
    pub fn overrides_from(params: &AuditParams) -> Self {
        let t = params.score_thresholds;
        Self {
            numeric_deviation_threshold: Some(params.numeric_deviation_threshold),
            max_errors_per_phase: Some(params.max_errors_per_phase),
            max_claims: Some(params.max_claims),
            max_deductions: Some(params.max_deductions),
            high_for_1: Some(t.high_for_1),
            high_for_2: Some(t.high_for_2),
            low_for_3: Some(t.low_for_3),
            low_for_4: Some(t.low_for_4),
            reverse_verify: Some(params.reverse_verify),
            unsupported_number_is_high: Some(params.unsupported_number_is_high),
            direction_check: Some(params.direction_check),
            count_unquoted_evidence: Some(params.count_unquoted_evidence),
            ..Default::default()
        }
    }
}

impl AuditParams {
    /// Whether these parameters make sense (the deviation threshold a fraction, the limits at
    /// least 1, the score thresholds in order); `path` names them in the error ("profiles.x.params",
    /// or an argument's name). The one check of a strategy file's values and of the Python
    /// package's arguments.
    pub fn validate(&self, path: &str) -> Result<(), ConfigError> {
        let bad = |key: &str, message: &str| {
            Err(ConfigError::Invalid {
                path: format!("{path}.{key}"),
                message: message.into(),
            })
        };
        let t = self.score_thresholds;
        if !(0.0..=1.0).contains(&self.numeric_deviation_threshold) {
            return bad(
                "numeric_deviation_threshold",
                "must be a fraction between 0 and 1 (0.10 = 10 %)",
            );
        }
        if self.max_errors_per_phase == 0 {
            return bad("max_errors_per_phase", "must be at least 1");
        }
        if self.max_claims == 0 {
            return bad("max_claims", "must be at least 1");
        }
        if self.max_deductions == 0 {
            return bad("max_deductions", "must be at least 1");
        }
        if t.high_for_2 == 0 || t.high_for_1 < t.high_for_2 {
            return bad(
                "score_thresholds",
                "need 1 <= high_for_2 <= high_for_1 (High errors lower the score as they grow)",
            );
        }
        if t.low_for_4 == 0 || t.low_for_3 < t.low_for_4 {
            return bad(
                "score_thresholds",
                "need 1 <= low_for_4 <= low_for_3 (Low errors lower the score as they grow)",
            );
        }
        Ok(())
    }
}

/// One profile's section of the strategy.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StrategyProfile {
    pub params: ParamOverrides,
    pub extra: Map<String, Value>,
}

/// The whole `strategy.yaml`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Strategy {
    pub defaults: ParamOverrides,
    pub defaults_extra: Map<String, Value>,
    pub profiles: SortedMap<String, StrategyProfile>,
    pub extra: Map<String, Value>,
}

impl Strategy {
    pub fn from_text(text: &str, format: Format) -> Result<Self, ConfigError> {
        Self::from_value(&parse_document(text, format)?)
    }

    pub fn from_value(value: &Value) -> Result<Self, ConfigError> {
        let root = Fields::of(value, Path::Root("the strategy"))?;
        let mut s = Strategy {
            extra: root.others(&["defaults", "profiles"]),
            ..Default::default()
        };
        if let Some(d) = root.object("defaults")? {
            s.defaults_extra = d.others(&["params"]);
            if let Some(p) = d.object("params")? {
                s.defaults = ParamOverrides::read(&p)?;
            }
        }
        if let Some(profiles) = root.object("profiles")? {
            for (name, obj) in profiles.objects()? {
                let params = match obj.object("params")? {
                    Some(p) => ParamOverrides::read(&p)?,
                    None => ParamOverrides::default(),
                };
                let extra = obj.others(&["params"]);
                s.profiles
                    .insert(name.to_string(), StrategyProfile { params, extra });
            }
        }
        s.params_for("").validate("defaults.params")?;
        for name in s.profiles.keys() {
            s.params_for(name)
                .validate(&format!("profiles.{name}.params"))?;
        }
        Ok(s)
    }

    /// Built-in defaults, then `defaults.params`, then `profiles.<name>.params`.
    pub fn params_for(&self, profile: &str) -> AuditParams {
        let mut p = AuditParams::default();
        self.defaults.apply(&mut p);
        if let Some(over) = self.profiles.get(profile) {
            over.params.apply(&mut p);
        }
        p
    }

    pub fn to_value(&self) -> Value {
        let mut root = self.extra.clone();
        let mut d = self.defaults_extra.clone();
        d.insert("params".into(), self.defaults.write());
        root.insert("defaults".into(), Value::Object(d));
        if !self.profiles.is_empty() {
            let profiles = self
                .profiles
                .iter()
                .map(|(k, p)| {
                    let mut m = p.extra.clone();
                    m.insert("params".into(), p.params.write());
                    (k.clone(), Value::Object(m))
                })
                .collect();
            root.insert("profiles".into(), Value::Object(profiles));
        }
        Value::Object(root)
    }

    pub fn to_text(&self, format: Format) -> Result<String, ConfigError> {
        write_document(&self.to_value(), format)
    }

    /// The documented defaults (docs/audit.md, "Strategy") written out in full, so users see every knob.
    pub fn example() -> Self {
        Self {
            defaults: ParamOverrides::overrides_from(&AuditParams::default()),
            ..Default::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &str = r#"
defaults:
  params:
    numeric_deviation_threshold: 0.10
    max_errors_per_phase: 3

profiles:
  kimi-full:
    params:
      numeric_deviation_threshold: 0.08
  cross-verify:
    params:
      max_errors_per_phase: 5
      score_thresholds: {low_for_3: 3}
    note: kept
"#;

    #[test]
    fn profile_overrides_merge_over_defaults() {
        let s = Strategy::from_text(SEED, Format::Yaml).unwrap();
        let kimi = s.params_for("kimi-full");
        assert_eq!(kimi.numeric_deviation_threshold, 0.08);
        assert_eq!(kimi.max_errors_per_phase, 3);
        assert_eq!(kimi.max_claims, 5);
        let cross = s.params_for("cross-verify");
        assert_eq!(cross.numeric_deviation_threshold, 0.10);
        assert_eq!(cross.max_errors_per_phase, 5);
        assert_eq!(cross.score_thresholds.low_for_3, 3);
        assert_eq!(cross.score_thresholds.high_for_1, 3);
        assert_eq!(s.params_for("unknown"), s.params_for(""));
        assert!(!cross.reverse_verify);
    }

    #[test]
    fn round_trip_keeps_overrides_and_unknown_keys() {
        let s = Strategy::from_text(SEED, Format::Yaml).unwrap();
        let yaml = s.to_text(Format::Yaml).unwrap();
        assert!(yaml.contains("note: kept"), "{yaml}");
        assert_eq!(Strategy::from_text(&yaml, Format::Yaml).unwrap(), s);
        let json = s.to_text(Format::Json).unwrap();
        assert_eq!(Strategy::from_text(&json, Format::Json).unwrap(), s);
    }

    #[test]
    fn bad_values_name_their_path() {
        let err = Strategy::from_text(
            "profiles:\n  p:\n    params:\n      max_claims: many\n",
            Format::Yaml,
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("profiles.p.params.max_claims: expected"),
            "{err}"
        );
        let err = Strategy::from_text(
            "defaults:\n  params:\n    numeric_deviation_threshold: 10\n",
            Format::Yaml,
        )
        .unwrap_err();
        assert!(err
            .to_string()
            .starts_with("defaults.params.numeric_deviation_threshold:"));
        let err = Strategy::from_text(
            "profiles:\n  p:\n    params:\n      score_thresholds: {high_for_1: 1, high_for_2: 2}\n",
            Format::Yaml,
        )
        .unwrap_err();
        assert!(err
            .to_string()
            .starts_with("profiles.p.params.score_thresholds"));
    }

    #[test]
    fn example_is_the_design_note_defaults() {
        let s = Strategy::example();
        let text = s.to_text(Format::Yaml).unwrap();
        let back = Strategy::from_text(&text, Format::Yaml).unwrap();
        assert_eq!(back.params_for("x"), AuditParams::default());
        assert!(text.contains("numeric_deviation_threshold: 0.1"));
    }

    #[test]
    fn every_editable_param_reads_and_sets_its_own_field() {
        let mut s = Strategy::from_text("defaults: {}", Format::Yaml).unwrap();
        for param in EditableParam::ALL {
            // Values that keep the thresholds' order (1 <= high_for_2 <= high_for_1, …).
            let value = match param {
                EditableParam::NumericDeviationThreshold => "0.25",
                EditableParam::MaxErrorsPerPhase => "7",
                EditableParam::MaxClaims => "9",
                EditableParam::MaxDeductions => "4",
                EditableParam::HighFor1 => "20",
                EditableParam::HighFor2 => "10",
                EditableParam::LowFor3 => "30",
                EditableParam::LowFor4 => "15",
                EditableParam::ReverseVerify => "true",
                EditableParam::UnsupportedNumberIsHigh => "false",
                EditableParam::DirectionCheck => "false",
                EditableParam::CountUnquotedEvidence => "true",
            };
            param.set(&mut s.defaults, &format!(" {value} ")).unwrap();
            let back = Strategy::from_value(&s.to_value()).unwrap();
            assert_eq!(param.text(&back.params_for("")), value, "{param:?}");
        }
        let err = EditableParam::MaxClaims
            .set(&mut s.defaults, "many")
            .unwrap_err();
        assert!(err.contains("Max claims") && err.contains("many"), "{err}");
        let err = EditableParam::ReverseVerify
            .set(&mut s.defaults, "maybe")
            .unwrap_err();
        assert!(err.contains("true or false"), "{err}");
        assert!(EditableParam::MaxClaims.set(&mut s.defaults, "-1").is_err());
    }
}
