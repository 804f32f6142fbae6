//! Reading a model reply, once it is a JSON value, into the contract types.
//!
//! The readers are written by hand instead of derived with serde: the reply has to be
//! parsed as a [`Value`] anyway (to find, repair and check the object), and a derived
//! `Deserialize` would compile a second reader per contract type against serde_json's text
//! parser, larger in the browser build than these few functions. A reply of the wrong shape
//! is reported with the path of the field at fault (`factual_errors[1].severity`), which is
//! what the re-ask quotes back to the model.

use std::fmt;

use serde_json::{Map, Value};

use crate::jsonl::text_of;

/// Where a value sits in the reply. Built on the stack while descending and written out
/// only for an error: `factual_errors[1].severity`.
#[derive(Debug, Clone, Copy)]
pub enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'static str),
    Index(&'a Path<'a>, usize),
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root => f.write_str("the reply"),
            Path::Key(Path::Root, key) => f.write_str(key),
            Path::Key(parent, key) => write!(f, "{parent}.{key}"),
            Path::Index(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

/// Why a reply does not have the contract's shape. The message is quoted to the model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    #[error("missing field `{path}`")]
    Missing { path: String },
    #[error("{path} must be {expected}, found {found}")]
    WrongType {
        path: String,
        expected: &'static str,
        found: &'static str,
    },
    #[error("{path}: {message}")]
    Invalid { path: String, message: String },
}

impl ShapeError {
    pub fn wrong_type(path: &Path, expected: &'static str, found: &Value) -> Self {
        ShapeError::WrongType {
            path: path.to_string(),
            expected,
            found: kind(found),
        }
    }

    pub fn invalid(path: &Path, message: String) -> Self {
        ShapeError::Invalid {
            path: path.to_string(),
            message,
        }
    }
}

/// What kind of JSON value was found where another was expected.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// A type read from (a part of) a model's reply.
pub trait FromReply: Sized {
    /// Read `value`, found at `path` in the reply.
    fn read(value: &Value, path: &Path) -> Result<Self, ShapeError>;
}

/// The reply as parsed (a copy), for callers that read it themselves.
impl FromReply for Value {
    fn read(value: &Value, _: &Path) -> Result<Self, ShapeError> {
        Ok(value.clone())
    }
}

/// Text is lenient: models write ids as `1` or `"C1"` and leave fields `null`, so any value
/// is taken as text (`null` as empty, others as their JSON).
impl FromReply for String {
    fn read(value: &Value, _: &Path) -> Result<Self, ShapeError> {
        Ok(match value {
            Value::Null => String::new(),
            other => text_of(other),
        })
    }
}

impl FromReply for usize {
    fn read(value: &Value, path: &Path) -> Result<Self, ShapeError> {
        value
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| ShapeError::wrong_type(path, "a whole number >= 0", value))
    }
}

impl<T: FromReply> FromReply for Vec<T> {
    fn read(value: &Value, path: &Path) -> Result<Self, ShapeError> {
        let items = list(value, path)?;
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            out.push(T::read(item, &Path::Index(path, i))?);
        }
        Ok(out)
    }
}

/// The items of a JSON list. Kept out of the generic `Vec` reader so that only the loop is
/// compiled once per item type.
fn list<'v>(value: &'v Value, path: &Path) -> Result<&'v [Value], ShapeError> {
    match value {
        Value::Array(items) => Ok(items),
        other => Err(ShapeError::wrong_type(path, "a list", other)),
    }
}

/// A list of texts, as leniently as models write one: a single text is a list of one and
/// `null` is an empty list.
pub fn texts(value: &Value) -> Vec<String> {
    match value {
        Value::Array(items) => items.iter().map(text_of).collect(),
        Value::Null => Vec::new(),
        Value::String(s) => vec![s.clone()],
        other => vec![text_of(other)],
    }
}

/// A JSON string, for the closed vocabularies (severity, error type).
pub fn word<'v>(value: &'v Value, path: &Path) -> Result<&'v str, ShapeError> {
    match value {
        Value::String(s) => Ok(s),
        other => Err(ShapeError::wrong_type(path, "a string", other)),
    }
}

/// The fields of one object of the reply, looked up by name. Keys the contract does not
/// know are ignored. (Reading from a borrowed value and copying the strings compiles to
/// less code than moving them out of an owned one.)
pub struct Fields<'a> {
    map: &'a Map<String, Value>,
    path: &'a Path<'a>,
}

impl<'a> Fields<'a> {
    pub fn of(value: &'a Value, path: &'a Path<'a>) -> Result<Self, ShapeError> {
        match value {
            Value::Object(map) => Ok(Fields { map, path }),
            other => Err(ShapeError::wrong_type(path, "an object", other)),
        }
    }

    /// The value of `key`, if the object has it (`null` included).
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key)
    }

    /// A field the contract requires: absent is an error, any value is read as `T`.
    pub fn required<T: FromReply>(&self, key: &'static str) -> Result<T, ShapeError> {
        let value = self.present(key)?;
        T::read(value, &Path::Key(self.path, key))
    }

    /// The value of a required field (not generic, unlike the readers that use it).
    fn present(&self, key: &'static str) -> Result<&'a Value, ShapeError> {
        self.get(key).ok_or_else(|| ShapeError::Missing {
            path: Path::Key(self.path, key).to_string(),
        })
    }

    /// A field the contract lets the model leave out (then `T`'s default); a value that is
    /// there must still read as `T`.
    pub fn optional<T: FromReply + Default>(&self, key: &'static str) -> Result<T, ShapeError> {
        match self.get(key) {
            Some(value) => T::read(value, &Path::Key(self.path, key)),
            None => Ok(T::default()),
        }
    }
}

/// Read a whole reply (an already parsed JSON text) as `T`.
pub fn read_reply<T: FromReply>(value: Value) -> Result<T, ShapeError> {
    T::read(&value, &Path::Root)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_name_keys_and_indexes() {
        let root = Path::Root;
        let list = Path::Key(&root, "factual_errors");
        let item = Path::Index(&list, 1);
        assert_eq!(root.to_string(), "the reply");
        assert_eq!(list.to_string(), "factual_errors");
        assert_eq!(
            Path::Key(&item, "severity").to_string(),
            "factual_errors[1].severity"
        );
    }

    #[test]
    fn text_is_lenient_and_numbers_are_whole() {
        let read_text = |v: Value| String::read(&v, &Path::Root).unwrap();
        assert_eq!(read_text(json!("C1")), "C1");
        assert_eq!(read_text(json!(1)), "1");
        assert_eq!(read_text(json!(null)), "");
        assert_eq!(read_text(json!(true)), "true");
        assert_eq!(read_text(json!({"a": 1})), r#"{"a":1}"#);
        assert_eq!(texts(&json!(["a", 2, null])), vec!["a", "2", "null"]);
        assert_eq!(texts(&json!("C1")), vec!["C1"]);
        assert!(texts(&json!(null)).is_empty());
        assert_eq!(usize::read(&json!(3), &Path::Root).unwrap(), 3);
        for bad in [json!(-1), json!(1.5), json!("1"), json!(null)] {
            assert!(usize::read(&bad, &Path::Root).is_err());
        }
    }

    #[test]
    fn missing_and_ill_typed_fields_say_where() {
        let value = json!({"items": [{"n": 1}, {"n": "x"}], "other": 1});
        let root = Path::Root;
        let fields = Fields::of(&value, &root).unwrap();
        let err = fields.required::<usize>("absent").unwrap_err();
        assert_eq!(err.to_string(), "missing field `absent`");
        assert_eq!(fields.optional::<usize>("also_absent").unwrap(), 0);
        let err = fields.required::<String>("other").map(|_| ());
        assert!(err.is_ok());
        let items = fields.get("items").unwrap();
        let err = Vec::<Counted>::read(items, &Path::Key(&root, "items")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "items[1].n must be a whole number >= 0, found a string"
        );
        let err = Vec::<Counted>::read(&json!({}), &root).unwrap_err();
        assert_eq!(err.to_string(), "the reply must be a list, found an object");
        assert!(Fields::of(&json!([1]), &root).is_err());
    }

    /// A one-field object for the tests above.
    #[derive(Debug)]
    struct Counted;

    impl FromReply for Counted {
        fn read(value: &Value, path: &Path) -> Result<Self, ShapeError> {
            Fields::of(value, path)?
                .required::<usize>("n")
                .map(|_| Counted)
        }
    }
}
