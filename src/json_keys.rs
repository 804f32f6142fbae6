//! Object keys read against a fixed table, for the hand-written serde readers (band results
//! lines, logic event logs). A derived `Deserialize` inlines its reading code once per field
//! and, in the browser build, once more per deserializer; these readers look a key up in a
//! table and read each value type in one place instead.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, Visitor};

/// Reads an object key as its index in the table (`None` for a key not in it), without
/// allocating the key. Use with `MapAccess::next_key_seed`.
pub struct KeyIndex<T: 'static>(pub &'static [(&'static str, T)]);

impl<'de, T> DeserializeSeed<'de> for KeyIndex<T> {
    type Value = Option<usize>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<usize>, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<T> Visitor<'_> for KeyIndex<T> {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Option<usize>, E> {
        Ok(self.0.iter().position(|(name, _)| *name == key))
    }
}
