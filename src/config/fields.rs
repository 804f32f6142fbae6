//! Reading a generic JSON/YAML tree into typed settings while remembering where we are,
//! so a wrong type is reported as `llms.kimi-k2.model: expected a string, found 42`
//! instead of a bare serde message. Keys we do not know are handed back untouched so a
//! round trip keeps them.

use serde_json::{Map, Value};

use super::ConfigError;

/// A JSON object together with its dotted key path from the document root.
pub(crate) struct Obj<'a> {
    pub map: &'a Map<String, Value>,
    pub path: String,
}

pub(crate) fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => {
            let short: String = s.chars().take(40).collect();
            format!("the string \"{short}\"")
        }
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "a mapping".into(),
    }
}

pub(crate) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn wrong(path: String, expected: &'static str, found: &Value) -> ConfigError {
    ConfigError::WrongType {
        path,
        expected,
        found: describe(found),
    }
}

impl<'a> Obj<'a> {
    pub fn root(value: &'a Value, what: &'static str) -> Result<Self, ConfigError> {
        match value {
            Value::Object(map) => Ok(Self {
                map,
                path: String::new(),
            }),
            other => Err(ConfigError::WrongType {
                path: format!("(top level of the {what})"),
                expected: "a mapping",
                found: describe(other),
            }),
        }
    }

    fn present(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    pub fn obj(&self, key: &str) -> Result<Option<Obj<'a>>, ConfigError> {
        match self.present(key) {
            None => Ok(None),
            Some(Value::Object(map)) => Ok(Some(Obj {
                map,
                path: join(&self.path, key),
            })),
            Some(other) => Err(wrong(join(&self.path, key), "a mapping", other)),
        }
    }

    pub fn string(&self, key: &str) -> Result<Option<String>, ConfigError> {
        match self.present(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(wrong(join(&self.path, key), "a string", other)),
        }
    }

    pub fn required_string(&self, key: &str) -> Result<String, ConfigError> {
        self.string(key)?.ok_or_else(|| ConfigError::Missing {
            path: join(&self.path, key),
        })
    }

    pub fn f64(&self, key: &str) -> Result<Option<f64>, ConfigError> {
        match self.present(key) {
            None => Ok(None),
            Some(v @ Value::Number(n)) => match n.as_f64() {
                Some(x) if x.is_finite() => Ok(Some(x)),
                _ => Err(wrong(join(&self.path, key), "a finite number", v)),
            },
            Some(other) => Err(wrong(join(&self.path, key), "a number", other)),
        }
    }

    pub fn u32(&self, key: &str) -> Result<Option<u32>, ConfigError> {
        match self.present(key) {
            None => Ok(None),
            Some(v @ Value::Number(n)) => match n.as_u64().and_then(|x| u32::try_from(x).ok()) {
                Some(x) => Ok(Some(x)),
                None => Err(wrong(join(&self.path, key), "a whole number >= 0", v)),
            },
            Some(other) => Err(wrong(join(&self.path, key), "a whole number", other)),
        }
    }

    pub fn bool(&self, key: &str) -> Result<Option<bool>, ConfigError> {
        match self.present(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(wrong(join(&self.path, key), "true or false", other)),
        }
    }

    /// Every entry whose key is not in `known`, kept verbatim for the round trip.
    pub fn extra(&self, known: &[&str]) -> Map<String, Value> {
        self.map
            .iter()
            .filter(|(k, _)| !known.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    /// The entries of a mapping whose values must themselves be mappings.
    pub fn entries(&self) -> Result<Vec<(String, Obj<'a>)>, ConfigError> {
        self.map
            .iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| match v {
                Value::Object(map) => Ok((
                    k.clone(),
                    Obj {
                        map,
                        path: join(&self.path, k),
                    },
                )),
                other => Err(wrong(join(&self.path, k), "a mapping", other)),
            })
            .collect()
    }
}
