//! The one way a parsed JSON value (or a YAML document read into one) becomes a typed value:
//! [`FromJson`] reads a [`Value`] found at a [`Path`], and anything of the wrong shape is one
//! [`FieldError`] naming the path, what was expected and what was found
//! (`llms.kimi-k2.model: expected a string, found the number 42`,
//! `claims[2].text: …`). Settings and strategies, grade records, kept runs, audit replies,
//! batch case lines and logic event logs are read through it; docs/architecture.md ("A JSON
//! field") says how to add a field.
//!
//! Readers walk the value they are given and never descend below it, so their depth is the
//! value's, which serde_json's recursion limit (128) already caps when the text is parsed.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Map, Value};

use crate::names::NamedEnum;

/// Where a value sits in a document. Built on the stack while descending and written out
/// only for an error: `factual_errors[1].severity`, `llms.kimi-k2.model`.
#[derive(Debug, Clone, Copy)]
pub enum Path<'a> {
    /// The document itself, named for an error about it as a whole ("the reply").
    Root(&'static str),
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl<'a> Path<'a> {
    /// The path of `key` in the object at this path.
    pub fn key(&'a self, key: &'a str) -> Path<'a> {
        Path::Key(self, key)
    }

    /// The path of item `i` in the list at this path.
    pub fn index(&'a self, i: usize) -> Path<'a> {
        Path::Index(self, i)
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root(name) => f.write_str(name),
            Path::Key(Path::Root(_), key) => f.write_str(key),
            Path::Key(parent, key) => write!(f, "{parent}.{key}"),
            Path::Index(Path::Root(_), i) => write!(f, "[{i}]"),
            Path::Index(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

/// A value that is not what its place in the document needs, or a required field that is
/// not there (`found` is `None`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", Shown(self))]
pub struct FieldError {
    /// Where, as written for users (`llms.kimi-k2.model`).
    pub path: String,
    /// What the place needs, in words (`a string`, `High or Low`).
    pub expected: Cow<'static, str>,
    /// What is there, briefly ([`describe`]); `None` when the field is missing.
    pub found: Option<String>,
}

/// The message of a [`FieldError`].
struct Shown<'a>(&'a FieldError);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = self.0;
        match &e.found {
            Some(found) => write!(f, "{}: expected {}, found {found}", e.path, e.expected),
            None => write!(f, "missing field `{}`", e.path),
        }
    }
}

impl FieldError {
    /// `value`, at `path`, is not `expected`.
    pub fn wrong(path: Path, expected: impl Into<Cow<'static, str>>, value: &Value) -> Self {
        FieldError {
            path: path.to_string(),
            expected: expected.into(),
            found: Some(describe(value)),
        }
    }

    /// Nothing at `path`, where `expected` is required.
    pub fn missing(path: Path, expected: impl Into<Cow<'static, str>>) -> Self {
        FieldError {
            path: path.to_string(),
            expected: expected.into(),
            found: None,
        }
    }

    /// Whether the field was missing (rather than of the wrong kind).
    pub fn is_missing(&self) -> bool {
        self.found.is_none()
    }
}

/// Most characters of a string quoted in an error.
const QUOTED: usize = 40;

/// A value described briefly for an error: `the number 42`, `the string "abc"` (its first
/// 40 characters), `a list`.
pub fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => match s.char_indices().nth(QUOTED) {
            Some((at, _)) => format!("the string \"{}…\"", &s[..at]),
            None => format!("the string \"{s}\""),
        },
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// A type read from (a part of) a JSON document.
pub trait FromJson: Sized {
    /// Read `value`, found at `path`.
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError>;
}

/// Read a whole document as `T`; `root` names it in an error about it as a whole.
pub fn read<T: FromJson>(value: &Value, root: &'static str) -> Result<T, FieldError> {
    T::from_json(value, Path::Root(root))
}

/// The value as it is (a copy), for fields kept verbatim.
impl FromJson for Value {
    fn from_json(value: &Value, _: Path) -> Result<Self, FieldError> {
        Ok(value.clone())
    }
}

impl FromJson for String {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        match value {
            Value::String(s) => Ok(s.clone()),
            other => Err(FieldError::wrong(path, "a string", other)),
        }
    }
}

/// Any value taken as text: a string as it is, `null` as empty, anything else as its JSON.
/// For model replies, which write ids as `1` or `"C1"` and leave fields `null`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Text(pub String);

impl FromJson for Text {
    fn from_json(value: &Value, _: Path) -> Result<Self, FieldError> {
        Ok(Text(match value {
            Value::Null => String::new(),
            other => crate::jsonl::text_of(other),
        }))
    }
}

impl FromJson for bool {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        value
            .as_bool()
            .ok_or_else(|| FieldError::wrong(path, "true or false", value))
    }
}

/// A finite number (JSON has no others, but a YAML document may).
impl FromJson for f64 {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        match value.as_f64() {
            Some(x) if x.is_finite() => Ok(x),
            Some(_) => Err(FieldError::wrong(path, "a finite number", value)),
            None => Err(FieldError::wrong(path, "a number", value)),
        }
    }
}

/// A whole number >= 0 that fits `u64` (`3.0` is not one).
fn whole(value: &Value, path: Path) -> Result<u64, FieldError> {
    value
        .as_u64()
        .ok_or_else(|| FieldError::wrong(path, "a whole number >= 0", value))
}

macro_rules! whole_numbers {
    ($($t:ty),*) => {$(
        impl FromJson for $t {
            fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
                let n = whole(value, path)?;
                <$t>::try_from(n).map_err(|_| {
                    FieldError::wrong(path, concat!("a whole number that fits ", stringify!($t)), value)
                })
            }
        }
    )*};
}

whole_numbers!(u8, u32, u64, usize);

impl FromJson for i64 {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        value
            .as_i64()
            .ok_or_else(|| FieldError::wrong(path, "a whole number", value))
    }
}

/// `null` is `None`; any other value must read as `T`.
impl<T: FromJson> FromJson for Option<T> {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        match value {
            Value::Null => Ok(None),
            other => T::from_json(other, path).map(Some),
        }
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let items = list(value, path)?;
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            out.push(T::from_json(item, path.index(i))?);
        }
        Ok(out)
    }
}

/// An object's entries, each value read as `T` at its key.
impl<T: FromJson> FromJson for BTreeMap<String, T> {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let f = Fields::of(value, path)?;
        let mut out = BTreeMap::new();
        for (key, item) in f.map {
            out.insert(key.clone(), T::from_json(item, path.key(key))?);
        }
        Ok(out)
    }
}

/// The items of a JSON list. Kept out of the generic `Vec` reader so that only the loop is
/// compiled once per item type.
pub fn list<'v>(value: &'v Value, path: Path) -> Result<&'v [Value], FieldError> {
    match value {
        Value::Array(items) => Ok(items),
        other => Err(FieldError::wrong(path, "a list", other)),
    }
}

/// A JSON string, borrowed (for closed vocabularies read by their words).
pub fn word<'v>(value: &'v Value, path: Path) -> Result<&'v str, FieldError> {
    match value {
        Value::String(s) => Ok(s),
        other => Err(FieldError::wrong(path, "a string", other)),
    }
}

/// A closed vocabulary written as its serialized name.
pub struct Named<T>(pub T);

impl<T: NamedEnum> FromJson for Named<T> {
    fn from_json(value: &Value, path: Path) -> Result<Self, FieldError> {
        let mut names = T::all().iter().map(|v| v.name());
        name_index(value, path, &mut names).map(|i| Named(T::all()[i]))
    }
}

/// Where the word `value` is among `names` (the one reading and error message for every
/// vocabulary, not one copy per type).
fn name_index(
    value: &Value,
    path: Path,
    names: &mut dyn Iterator<Item = &'static str>,
) -> Result<usize, FieldError> {
    let w = word(value, path)?;
    let mut known = Vec::new();
    for (i, n) in names.enumerate() {
        if n == w {
            return Ok(i);
        }
        known.push(n);
    }
    Err(FieldError::wrong(
        path,
        format!("one of {}", known.join(", ")),
        value,
    ))
}

/// The fields of one object, looked up by name, each read at its own path. Keys a reader does
/// not ask for are ignored (a caller that keeps them reads [`Fields::map`]).
#[derive(Clone, Copy)]
pub struct Fields<'a> {
    pub map: &'a Map<String, Value>,
    pub path: Path<'a>,
}

impl<'a> Fields<'a> {
    /// The object `value`, found at `path`.
    pub fn of(value: &'a Value, path: Path<'a>) -> Result<Self, FieldError> {
        match value {
            Value::Object(map) => Ok(Fields { map, path }),
            other => Err(FieldError::wrong(path, "an object", other)),
        }
    }

    /// The value of `key` as written, if the object has it (`null` included).
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key)
    }

    /// The value of `key` unless it is absent or `null`.
    pub fn present(&self, key: &str) -> Option<&'a Value> {
        self.get(key).filter(|v| !v.is_null())
    }

    /// A field that must be there; its value (`null` included) is read as `T`.
    pub fn required<T: FromJson>(&self, key: &str) -> Result<T, FieldError> {
        match self.get(key) {
            Some(value) => T::from_json(value, self.path.key(key)),
            None => Err(self.missing(key)),
        }
    }

    /// A field that may be absent or `null` (then `None`); any other value must read as `T`.
    pub fn optional<T: FromJson>(&self, key: &str) -> Result<Option<T>, FieldError> {
        match self.present(key) {
            Some(value) => T::from_json(value, self.path.key(key)).map(Some),
            None => Ok(None),
        }
    }

    /// A field that may be absent (then `T`'s default); a value that is there, `null`
    /// included, must read as `T`.
    pub fn or_default<T: FromJson + Default>(&self, key: &str) -> Result<T, FieldError> {
        match self.get(key) {
            Some(value) => T::from_json(value, self.path.key(key)),
            None => Ok(T::default()),
        }
    }

    /// A field that must be there and not `null`.
    pub fn not_null<T: FromJson>(&self, key: &str) -> Result<T, FieldError> {
        self.optional(key)?.ok_or_else(|| self.missing(key))
    }

    /// The error for `key` missing (or `null` where a value is required).
    pub fn missing(&self, key: &str) -> FieldError {
        FieldError::missing(self.path.key(key), "a value")
    }

    /// The object at `key`, unless it is absent or `null`.
    pub fn object<'s>(&'s self, key: &'s str) -> Result<Option<Fields<'s>>, FieldError> {
        self.present(key)
            .map(|value| Fields::of(value, self.path.key(key)))
            .transpose()
    }

    /// Every entry that is not `null`, each value an object at its key (a table of named
    /// things, such as settings' `llms`).
    pub fn objects(&self) -> Result<Vec<(&'a str, Fields<'_>)>, FieldError> {
        self.map
            .iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| Ok((k.as_str(), Fields::of(v, self.path.key(k))?)))
            .collect()
    }

    /// Every entry whose key is not in `known`, copied as written (kept for a round trip).
    pub fn others(&self, known: &[&str]) -> Map<String, Value> {
        self.map
            .iter()
            .filter(|(k, _)| !known.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }
}

/// The first key that occurs twice in one object of the JSON `text`, if any. serde_json's
/// [`Value`] keeps the last of two equal keys, so a text with a duplicate must be looked at
/// before it is parsed into one: a reply holding `"factual_errors"` twice says two different
/// things, and which one counts is not for a reader to guess. `None` also for a text that is
/// not JSON (its parse reports that).
pub fn first_duplicate_key(text: &str) -> Option<String> {
    use serde::de::Deserializer as _;
    let mut de = serde_json::Deserializer::from_str(text);
    match de.deserialize_any(NoDuplicateKeys) {
        Err(e) if e.is_data() => {
            let m = e.to_string();
            m.strip_prefix(DUPLICATE)
                .map(|rest| rest.split(DUPLICATE_END).next().unwrap_or(rest).to_string())
        }
        _ => None,
    }
}

const DUPLICATE: &str = "duplicate key `";
const DUPLICATE_END: &str = "` in one object";

/// A serde visitor that walks a JSON document and fails on the first duplicate key.
struct NoDuplicateKeys;

impl<'de> serde::de::DeserializeSeed<'de> for NoDuplicateKeys {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(NoDuplicateKeys)
    }
}

impl<'de> serde::de::Visitor<'de> for NoDuplicateKeys {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(NoDuplicateKeys)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = std::collections::BTreeSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(serde::de::Error::custom(format!(
                    "{DUPLICATE}{key}{DUPLICATE_END}"
                )));
            }
            map.next_value_seed(NoDuplicateKeys)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_name_keys_and_indexes() {
        let root = Path::Root("the reply");
        let list = root.key("factual_errors");
        let item = list.index(1);
        assert_eq!(root.to_string(), "the reply");
        assert_eq!(list.to_string(), "factual_errors");
        assert_eq!(
            item.key("severity").to_string(),
            "factual_errors[1].severity"
        );
        assert_eq!(root.index(2).to_string(), "[2]");
        let llms = root.key("llms");
        let one = llms.key("kimi-k2");
        assert_eq!(one.key("model").to_string(), "llms.kimi-k2.model");
    }

    #[test]
    fn scalars_read_their_kind_and_name_what_they_found() {
        let root = Path::Root("the settings");
        assert_eq!(String::from_json(&json!("a"), root), Ok("a".into()));
        assert_eq!(
            String::from_json(&json!(42), root.key("model").key("x"))
                .unwrap_err()
                .to_string(),
            "model.x: expected a string, found the number 42"
        );
        assert_eq!(bool::from_json(&json!(true), root), Ok(true));
        assert!(bool::from_json(&json!("yes"), root).is_err());
        assert_eq!(f64::from_json(&json!(0.5), root), Ok(0.5));
        assert_eq!(usize::from_json(&json!(3), root), Ok(3));
        for bad in [json!(-1), json!(1.5), json!("1"), json!(null)] {
            assert!(usize::from_json(&bad, root).is_err(), "{bad}");
        }
        let err = u8::from_json(&json!(300), root).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the settings: expected a whole number that fits u8, found the number 300"
        );
        assert_eq!(i64::from_json(&json!(-2), root), Ok(-2));
        assert_eq!(Option::<u32>::from_json(&json!(null), root), Ok(None));
        assert_eq!(Text::from_json(&json!(1), root), Ok(Text("1".into())));
        assert_eq!(Text::from_json(&json!(null), root), Ok(Text::default()));
        assert_eq!(
            Text::from_json(&json!({"a": 1}), root),
            Ok(Text(r#"{"a":1}"#.into()))
        );
    }

    #[test]
    fn long_strings_are_quoted_short() {
        let long = "x".repeat(100);
        let shown = describe(&json!(long));
        assert_eq!(shown, format!("the string \"{}…\"", "x".repeat(40)));
        assert_eq!(describe(&json!("é")), "the string \"é\"");
        assert_eq!(describe(&json!({})), "an object");
        assert_eq!(describe(&json!([])), "a list");
        assert_eq!(describe(&json!(null)), "null");
    }

    #[test]
    fn lists_and_maps_name_the_item_at_fault() {
        let root = Path::Root("the reply");
        let value = json!({"items": [1, 2, "x"]});
        let f = Fields::of(&value, root).unwrap();
        let err = f.required::<Vec<u32>>("items").unwrap_err();
        assert_eq!(
            err.to_string(),
            "items[2]: expected a whole number >= 0, found the string \"x\""
        );
        let value = json!({"a": 1, "b": "two"});
        let err = BTreeMap::<String, u32>::from_json(&value, root).unwrap_err();
        assert_eq!(err.path, "b");
        let ok = BTreeMap::<String, u32>::from_json(&json!({"a": 1}), root).unwrap();
        assert_eq!(ok.get("a"), Some(&1));
        let err = Vec::<u32>::from_json(&json!({}), root).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the reply: expected a list, found an object"
        );
    }

    #[test]
    fn required_optional_and_default_fields() {
        let value = json!({"n": 1, "gone": null});
        let f = Fields::of(&value, Path::Root("the line")).unwrap();
        let err = f.required::<u32>("absent").unwrap_err();
        assert!(err.is_missing());
        assert_eq!(err.to_string(), "missing field `absent`");
        assert_eq!(f.required::<u32>("n"), Ok(1));
        assert_eq!(f.optional::<u32>("gone"), Ok(None));
        assert_eq!(f.optional::<u32>("absent"), Ok(None));
        assert_eq!(f.optional::<u32>("n"), Ok(Some(1)));
        assert_eq!(f.or_default::<Vec<u32>>("absent"), Ok(Vec::new()));
        // A `null` where a list may be left out is still not a list.
        assert!(f.or_default::<Vec<u32>>("gone").is_err());
        assert!(Fields::of(&json!([1]), Path::Root("the line")).is_err());
    }

    #[test]
    fn reading_never_goes_deeper_than_the_value() {
        // As deep as serde_json lets a text be; the reader walks it without trouble.
        let mut text = String::new();
        for _ in 0..120 {
            text.push('[');
        }
        for _ in 0..120 {
            text.push(']');
        }
        let value: Value = serde_json::from_str(&text).unwrap();
        assert!(read::<Vec<Value>>(&value, "the list").is_ok());
        assert!(read::<Vec<u32>>(&value, "the list").is_err());
    }
}
