//! A small map kept as one sorted vector: the model's labels, annotations and resource lists.
//!
//! A cluster dump holds a few hundred thousand of these maps, nearly all with one to four
//! entries. A `BTreeMap` allocates a whole leaf (eleven slots) for each: for a resource list
//! that is 496 bytes in wasm where two entries need 96, and those leaves were over a third of
//! the decoded model (BENCHMARKS.md, decode memory). A sorted `Vec` stores just the entries
//! and looks keys up by binary search, which for a handful of entries is as fast.
//!
//! Hand-written rather than taken from a crate (such as `litemap`) because kubefit-core's
//! only required dependency is serde; the type covers only what the model needs, with
//! `BTreeMap`'s meaning for each method it mirrors (sorted iteration, the last of duplicate
//! keys wins).

use alloc::vec::Vec;
use core::borrow::Borrow;
use core::fmt;
use core::marker::PhantomData;

/// A map ordered by key, stored as a sorted vector of entries.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SortedMap<K, V> {
    /// Sorted by key, keys unique.
    entries: Vec<(K, V)>,
}

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        Self {
            entries: Vec::new(),
        }
    }
}

impl<K, V> SortedMap<K, V> {
    /// An empty map (allocates nothing).
    #[must_use]
    pub const fn new() -> Self {
        Self {
            entries: Vec::new(),
        }
    }

    /// How many entries.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True if there are no entries.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in key order.
    pub fn iter(&self) -> Iter<'_, K, V> {
        Iter {
            entries: self.entries.iter(),
        }
    }

    /// The keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(key, _)| key)
    }

    /// The values in key order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(_, value)| value)
    }

    /// The values in key order, mutable (keys, and so the order, stay).
    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> + ExactSizeIterator {
        self.entries.iter_mut().map(|(_, value)| value)
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
    }
}

impl<K: Ord, V> SortedMap<K, V> {
    /// Where `key` is (`Ok`) or would go (`Err`).
    fn position<Q>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.entries
            .binary_search_by(|(candidate, _)| candidate.borrow().cmp(key))
    }

    /// The value for `key`.
    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let index = self.position(key).ok()?;
        self.entries.get(index).map(|(_, value)| value)
    }

    /// The stored key and the value for `key`.
    pub fn get_key_value<Q>(&self, key: &Q) -> Option<(&K, &V)>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let index = self.position(key).ok()?;
        self.entries.get(index).map(|(key, value)| (key, value))
    }

    /// The value for `key`, mutable.
    pub fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let index = self.position(key).ok()?;
        self.entries.get_mut(index).map(|(_, value)| value)
    }

    /// True if `key` has a value.
    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.position(key).is_ok()
    }

    /// Sets `key` to `value`, returning the value it replaces.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.position(&key) {
            Ok(index) => self
                .entries
                .get_mut(index)
                .map(|(_, old)| core::mem::replace(old, value)),
            Err(index) => {
                self.entries.insert(index, (key, value));
                None
            }
        }
    }

    /// Sets `key` to `value` unless it has a value already (`entry(key).or_insert(value)`).
    pub fn insert_if_missing(&mut self, key: K, value: V) {
        if let Err(index) = self.position(&key) {
            self.entries.insert(index, (key, value));
        }
    }

    /// Removes `key`, returning its value.
    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let index = self.position(key).ok()?;
        Some(self.entries.remove(index).1)
    }

    /// Builds the map from entries in any order, keeping the last value of a repeated key.
    fn from_entries(mut entries: Vec<(K, V)>) -> Self {
        let sorted = entries
            .windows(2)
            .all(|pair| matches!(pair, [a, b] if a.0 < b.0));
        if !sorted {
            // Stable, so repeated keys stay in input order and the last one can win.
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            let mut unique: Vec<(K, V)> = Vec::with_capacity(entries.len());
            for entry in entries {
                match unique.last_mut() {
                    Some(last) if last.0 == entry.0 => *last = entry,
                    _ => unique.push(entry),
                }
            }
            entries = unique;
        }
        Self { entries }
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for SortedMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for SortedMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        Self::from_entries(iter.into_iter().collect())
    }
}

impl<K: Ord, V> Extend<(K, V)> for SortedMap<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        for (key, value) in iter {
            self.insert(key, value);
        }
    }
}

/// Borrowed entries of a [`SortedMap`], in key order.
#[derive(Clone, Debug)]
pub struct Iter<'a, K, V> {
    entries: core::slice::Iter<'a, (K, V)>,
}

impl<'a, K, V> Iterator for Iter<'a, K, V> {
    type Item = (&'a K, &'a V);

    fn next(&mut self) -> Option<Self::Item> {
        self.entries.next().map(|(key, value)| (key, value))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.entries.size_hint()
    }
}

impl<K, V> DoubleEndedIterator for Iter<'_, K, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.entries.next_back().map(|(key, value)| (key, value))
    }
}

impl<K, V> ExactSizeIterator for Iter<'_, K, V> {}

impl<'a, K, V> IntoIterator for &'a SortedMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<K, V> IntoIterator for SortedMap<K, V> {
    type Item = (K, V);
    type IntoIter = alloc::vec::IntoIter<(K, V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<K: serde::Serialize, V: serde::Serialize> serde::Serialize for SortedMap<K, V> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de, K, V> serde::Deserialize<'de> for SortedMap<K, V>
where
    K: serde::Deserialize<'de> + Ord,
    V: serde::Deserialize<'de>,
{
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MapVisitor<K, V>(PhantomData<(K, V)>);

        impl<'de, K, V> serde::de::Visitor<'de> for MapVisitor<K, V>
        where
            K: serde::Deserialize<'de> + Ord,
            V: serde::Deserialize<'de>,
        {
            type Value = SortedMap<K, V>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut access: A,
            ) -> Result<Self::Value, A::Error> {
                // A size hint from the input is capped: it is not to be trusted.
                let mut entries = Vec::with_capacity(access.size_hint().unwrap_or(0).min(64));
                while let Some(entry) = access.next_entry()? {
                    entries.push(entry);
                }
                entries.shrink_to_fit();
                Ok(SortedMap::from_entries(entries))
            }
        }

        deserializer.deserialize_map(MapVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::{String, ToString};
    use alloc::vec;

    fn map(entries: &[(&str, u32)]) -> SortedMap<String, u32> {
        entries
            .iter()
            .map(|(key, value)| (key.to_string(), *value))
            .collect()
    }

    #[test]
    fn iterates_in_key_order_whatever_the_input_order() {
        let map = map(&[("zone", 1), ("app", 2), ("tier", 3)]);
        let keys: Vec<&str> = map.keys().map(String::as_str).collect();
        assert_eq!(keys, ["app", "tier", "zone"]);
    }

    #[test]
    fn the_last_of_repeated_keys_wins_as_in_a_btree_map() {
        let map = map(&[("b", 1), ("a", 2), ("b", 3), ("a", 4)]);
        assert_eq!(map.len(), 2);
        assert_eq!(map.get("a"), Some(&4));
        assert_eq!(map.get("b"), Some(&3));
    }

    #[test]
    fn insert_replaces_and_remove_takes_out() {
        let mut map = map(&[("a", 1)]);
        assert_eq!(map.insert("c".to_string(), 3), None);
        assert_eq!(map.insert("b".to_string(), 2), None);
        assert_eq!(map.insert("a".to_string(), 9), Some(1));
        assert_eq!(map.values().copied().collect::<Vec<_>>(), vec![9, 2, 3]);
        assert_eq!(map.remove("b"), Some(2));
        assert_eq!(map.remove("b"), None);
        assert!(map.contains_key("c"));
        map.insert_if_missing("c".to_string(), 7);
        map.insert_if_missing("d".to_string(), 4);
        assert_eq!(map.get("c"), Some(&3));
        assert_eq!(map.get("d"), Some(&4));
    }

    #[test]
    fn serde_round_trips_as_a_map() {
        let map = map(&[("b", 1), ("a", 2)]);
        let json = serde_json::to_string(&map).unwrap_or_default();
        assert_eq!(json, r#"{"a":2,"b":1}"#);
        let back: SortedMap<String, u32> =
            serde_json::from_str(r#"{"b":1,"a":2,"b":5}"#).unwrap_or_default();
        assert_eq!(back, self::map(&[("a", 2), ("b", 5)]));
    }
}
