//! A map kept as a key-sorted `Vec`: the small maps of this crate (LLMs and profiles in the
//! settings, groups of a band report, coefficients in the logic engine's arithmetic).
//!
//! It behaves like `BTreeMap` for what the crate uses (lookups by borrowed key, iteration in
//! key order, a repeated key keeps its last value) but is a binary search over one vector.
//! Each `BTreeMap<K, V>` type compiles to 3–4 KB of node-balancing code in the wasm; these
//! maps hold tens of entries, where a sorted vector is as fast and its code is a few hundred
//! bytes.

use std::borrow::Borrow;
use std::fmt;

use serde::ser::{Serialize, SerializeMap, Serializer};

/// Equality and ordering compare the pairs in key order, as `BTreeMap`'s do.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SortedMap<K, V>(Vec<(K, V)>);

impl<K, V> SortedMap<K, V> {
    pub const fn new() -> Self {
        SortedMap(Vec::new())
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// The entries in key order.
    pub fn iter(&self) -> Iter<'_, K, V> {
        Iter(self.0.iter())
    }
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator {
        self.0.iter().map(|(k, _)| k)
    }
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.0.iter().map(|(_, v)| v)
    }
    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> + ExactSizeIterator {
        self.0.iter_mut().map(|(_, v)| v)
    }
    /// The entries as a slice, in key order.
    pub fn as_slice(&self) -> &[(K, V)] {
        &self.0
    }
}

impl<K: Ord, V> SortedMap<K, V> {
    /// `Ok(index)` of `key`, or `Err(index)` where it would be inserted.
    pub fn slot<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.0.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }
    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.slot(key).ok().map(|i| &self.0[i].1)
    }
    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.slot(key).ok().map(|i| &mut self.0[i].1)
    }
    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.slot(key).is_ok()
    }
    /// Sets the value of `key`; returns the value it replaces.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.slot(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, value)),
            Err(i) => {
                self.0.insert(i, (key, value));
                None
            }
        }
    }
    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.slot(key).ok().map(|i| self.0.remove(i).1)
    }
    /// The value of `key`, inserted as `V::default()` when missing (`entry(key).or_default()`).
    /// The key is cloned only when it is inserted.
    pub fn get_or_default(&mut self, key: &K) -> &mut V
    where
        K: Clone,
        V: Default,
    {
        let i = match self.slot(key) {
            Ok(i) => i,
            Err(i) => {
                self.0.insert(i, (key.clone(), V::default()));
                i
            }
        };
        &mut self.0[i].1
    }
    /// The pairs themselves, for in-place editors such as `logic::arith` that insert and
    /// remove by position after a `slot` lookup; they must keep the pairs sorted by key
    /// without repeats, which is why this is crate-private.
    pub(crate) fn entries_mut(&mut self) -> &mut Vec<(K, V)> {
        &mut self.0
    }
}

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        SortedMap(Vec::new())
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for SortedMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// Collecting sorts by key; of repeated keys the last one wins, as with `BTreeMap`.
impl<K: Ord, V> FromIterator<(K, V)> for SortedMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut map = SortedMap::new();
        for (k, v) in iter {
            map.insert(k, v);
        }
        map
    }
}

/// `map[key]`, like `BTreeMap`'s: panics when the key is missing, so only for keys known to
/// be there (tests, mostly); use `get` for anything a user or a file controls.
impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> std::ops::Index<&Q> for SortedMap<K, V> {
    type Output = V;
    fn index(&self, key: &Q) -> &V {
        match self.get(key) {
            Some(v) => v,
            None => panic!("no such key in the map"),
        }
    }
}

/// Iterator over `(&key, &value)` in key order.
pub struct Iter<'a, K, V>(std::slice::Iter<'a, (K, V)>);

impl<'a, K, V> Iterator for Iter<'a, K, V> {
    type Item = (&'a K, &'a V);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<K, V> DoubleEndedIterator for Iter<'_, K, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}

impl<K, V> ExactSizeIterator for Iter<'_, K, V> {}

impl<'a, K, V> IntoIterator for &'a SortedMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;
    fn into_iter(self) -> Iter<'a, K, V> {
        self.iter()
    }
}

impl<K, V> IntoIterator for SortedMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    /// The entries in key order.
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

/// Written as a map (a JSON object in key order), like `BTreeMap`.
impl<K: Serialize, V: Serialize> Serialize for SortedMap<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.len()))?;
        for (k, v) in self {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::SortedMap;

    #[test]
    fn behaves_like_a_btree_map() {
        let mut m: SortedMap<String, u32> = [("b", 2), ("a", 1), ("b", 3)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        assert_eq!(m.keys().map(String::as_str).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(m.get("b"), Some(&3), "a repeated key keeps its last value");
        assert_eq!(m.insert("c".into(), 4), None);
        assert_eq!(m.insert("a".into(), 5), Some(1));
        assert_eq!(m.remove("b"), Some(3));
        assert_eq!(m.remove("b"), None);
        *m.get_or_default(&"d".into()) += 7;
        *m.get_or_default(&"d".into()) += 1;
        assert!(m.contains_key("d") && !m.contains_key("b"));
        let pairs: Vec<(&String, &u32)> = m.iter().collect();
        assert_eq!(format!("{pairs:?}"), r#"[("a", 5), ("c", 4), ("d", 8)]"#);
        assert_eq!(format!("{m:?}"), r#"{"a": 5, "c": 4, "d": 8}"#);
        assert_eq!(
            serde_json::to_string(&m).ok().as_deref(),
            Some(r#"{"a":5,"c":4,"d":8}"#)
        );
    }
}
