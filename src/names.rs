//! Unit enums written as their names (`"derive"`, `"missing_premise"`): one place for the
//! `Serialize`/`Deserialize` that reads a name back to its variant and says "one of …" when it
//! is not one. Used by the event log's enums (`logic::events`, `logic::rules`).

use std::fmt;

use serde::de::{self, Visitor};
use serde::Deserializer;

/// Reads a unit enum written as its name: the value of `all` whose `name` it is.
///
/// `Serialize`/`Deserialize` for an enum with `ALL` and `as_str`: written as its name, read by
/// `deserialize_name`.
macro_rules! serde_by_name {
    ($enum:ty) => {
        impl serde::Serialize for $enum {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $enum {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                $crate::names::deserialize_name(deserializer, &<$enum>::ALL, <$enum>::as_str)
            }
        }
    };
}
pub(crate) use serde_by_name;

/// The log's enums are written and read by hand with this rather than derived: a derived
/// `Deserialize` carries a visitor per enum and per deserializer, and accepts forms (variant
/// indexes, `{"derive": null}`) that no log contains.
pub(crate) fn deserialize_name<'de, D: Deserializer<'de>, T: Copy>(
    deserializer: D,
    all: &'static [T],
    name: fn(T) -> &'static str,
) -> Result<T, D::Error> {
    deserializer.deserialize_str(NameVisitor { all, name })
}

struct NameVisitor<T: 'static> {
    all: &'static [T],
    name: fn(T) -> &'static str,
}

impl<T: Copy> Visitor<'_> for NameVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let names: Vec<&str> = self.all.iter().map(|v| (self.name)(*v)).collect();
        write!(f, "one of {}", names.join(", "))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<T, E> {
        match self.all.iter().find(|v| (self.name)(**v) == text) {
            Some(value) => Ok(*value),
            None => Err(E::invalid_value(de::Unexpected::Str(text), &self)),
        }
    }
}
