//! Typed decoding of tree nodes into model structs, with the API server's typing rules.
//!
//! A `serde::Deserializer` over one [`Tree`] node. It applies what kubectl and the API
//! server do to YAML/JSON values: unquoted scalars resolve by YAML 1.1 rules
//! ([`super::scalar`]), a string field rejects numbers and booleans, an integer field rejects
//! strings, `null` leaves a field at its zero value, and quantities accept strings and
//! numbers alike. Errors carry the field path and the span of the offending node.

use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::de::{
    self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor,
};

use super::path::{FieldPath, Segment};
use super::scalar::{self, Plain};
use super::tree::{NodeId, Style, Tree, Value};

/// The newtype name through which [`crate::quantity::Quantity`] asks for the raw scalar text.
pub(crate) const QUANTITY: &str = "$kubefit::Quantity";

/// A decoding error at a place in the object.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Error {
    pub code: &'static str,
    pub message: String,
    pub help: Option<String>,
    /// Segments from the failing node up to the object root (reversed).
    reversed_path: Vec<Segment>,
    pub node: Option<NodeId>,
}

impl Error {
    pub fn new(code: &'static str, message: String) -> Self {
        Self {
            code,
            message,
            help: None,
            reversed_path: Vec::new(),
            node: None,
        }
    }

    fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    fn at(mut self, node: NodeId) -> Self {
        self.node.get_or_insert(node);
        self
    }

    fn within(mut self, segment: Segment, node: NodeId) -> Self {
        self.reversed_path.push(segment);
        self.at(node)
    }

    /// The same error seen from a parent node reached by `fields`.
    pub fn prefixed(mut self, fields: &[&str]) -> Self {
        for field in fields.iter().rev() {
            self.reversed_path.push(Segment::Field((*field).into()));
        }
        self
    }

    /// The field path from the object root.
    pub fn path(&self) -> FieldPath {
        FieldPath(self.reversed_path.iter().rev().cloned().collect())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl de::StdError for Error {}

impl de::Error for Error {
    fn custom<T: fmt::Display>(message: T) -> Self {
        let text = message.to_string();
        if let Some((code, message)) = text
            .strip_prefix(CODE_MARK)
            .and_then(|rest| rest.split_once(CODE_MARK))
        {
            if let Some(code) = known_code(code) {
                return Self::new(code, message.into());
            }
        }
        Self::new("input/invalid-value", text)
    }

    fn invalid_type(unexpected: de::Unexpected<'_>, expected: &dyn de::Expected) -> Self {
        Self::new(
            "input/wrong-type",
            alloc::format!("expected {expected}, found {}", describe(&unexpected)),
        )
    }

    fn missing_field(field: &'static str) -> Self {
        Self::new("input/required", alloc::format!("`{field}` is required"))
    }
}

/// Codes that may travel through `de::Error::custom` (see [`CODE_MARK`]).
fn known_code(code: &str) -> Option<&'static str> {
    [
        "quantity/syntax",
        "quantity/suffix",
        "quantity/exponent-range",
        "quantity/overflow",
    ]
    .into_iter()
    .find(|known| *known == code)
}

fn describe(unexpected: &de::Unexpected<'_>) -> String {
    match unexpected {
        de::Unexpected::Str(text) => alloc::format!("the string `{text}`"),
        de::Unexpected::Map => "a mapping".into(),
        de::Unexpected::Seq => "a list".into(),
        de::Unexpected::Unit => "null".into(),
        other => other.to_string(),
    }
}

/// Decodes the node `id` of `tree` as a `T`.
pub(crate) fn decode<'de, T: de::Deserialize<'de>>(
    tree: &'de Tree<'de>,
    id: NodeId,
) -> Result<T, Error> {
    T::deserialize(NodeDeserializer { tree, id }).map_err(|error| error.at(id))
}

/// A deserializer for one node.
#[derive(Clone, Copy)]
pub(crate) struct NodeDeserializer<'t, 's> {
    tree: &'t Tree<'s>,
    id: NodeId,
}

impl<'t, 's> NodeDeserializer<'t, 's> {
    fn value(&self) -> Option<&'t Value<'s>> {
        self.tree.node(self.id).map(|node| &node.value)
    }

    fn scalar(&self) -> Option<(&'t Cow<'s, str>, Style)> {
        match self.value() {
            Some(Value::Scalar(text, style)) => Some((text, *style)),
            _ => None,
        }
    }

    fn is_null(&self) -> bool {
        matches!(self.scalar(), Some((text, Style::Plain)) if scalar::resolve(text) == Plain::Null)
    }

    fn visit_text<V: Visitor<'t>>(&self, text: &str, visitor: V) -> Result<V::Value, Error> {
        visitor
            .visit_str(text)
            .map_err(|error: Error| error.at(self.id))
    }

    /// The error for a value of the wrong type. Not generic over the caller's result, so
    /// that the many visitors share one copy of the wording code.
    #[inline(never)]
    fn wrong_type(&self, expected: &str) -> Error {
        let found = match self.value() {
            Some(Value::Map { .. }) => "a mapping".to_string(),
            Some(Value::Seq { .. }) => "a list".to_string(),
            Some(Value::Scalar(text, Style::Quoted)) => alloc::format!("the string `{text}`"),
            Some(Value::Scalar(text, Style::Plain)) => match scalar::resolve(text) {
                Plain::Bool(value) => {
                    alloc::format!("`{text}`, which YAML reads as the boolean {value}")
                }
                Plain::Int(_) | Plain::Float(_) => alloc::format!("the number `{text}`"),
                Plain::Null => "null".to_string(),
                Plain::Str => alloc::format!("`{text}`"),
            },
            None => "nothing".to_string(),
        };
        Error::new(
            "input/wrong-type",
            alloc::format!("expected {expected}, found {found}"),
        )
        .at(self.id)
    }

    fn integer(&self) -> Result<i128, Error> {
        match self.scalar() {
            Some((text, Style::Plain)) => match scalar::resolve(text) {
                Plain::Int(value) => Ok(value),
                // kubectl's JSON carries `5.0` as `5` ([`scalar::integral`]).
                Plain::Float(value) => {
                    scalar::integral(value).ok_or_else(|| self.wrong_type("an integer"))
                }
                // Go's JSON decoding leaves a (non-pointer) integer at zero for null.
                Plain::Null => Ok(0),
                _ => Err(self.wrong_type("an integer")),
            },
            _ => Err(self.wrong_type("an integer")),
        }
    }
}

macro_rules! integer_method {
    ($method:ident, $ty:ty, $visit:ident) => {
        fn $method<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
            let value = self.integer()?;
            match <$ty>::try_from(value) {
                Ok(value) => visitor
                    .$visit(value)
                    .map_err(|error: Error| error.at(self.id)),
                Err(_) => Err(Error::new(
                    "input/out-of-range",
                    alloc::format!("`{value}` is out of range for {}", stringify!($ty)),
                )
                .at(self.id)),
            }
        }
    };
}

impl<'t, 's> Deserializer<'t> for NodeDeserializer<'t, 's> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value() {
            Some(Value::Map { .. }) => self.deserialize_map(visitor),
            Some(Value::Seq { .. }) => self.deserialize_seq(visitor),
            Some(Value::Scalar(text, Style::Quoted)) => self.visit_text(text, visitor),
            Some(Value::Scalar(text, Style::Plain)) => match scalar::resolve(text) {
                Plain::Null => visitor.visit_unit(),
                Plain::Bool(value) => visitor.visit_bool(value),
                Plain::Int(value) => match i64::try_from(value) {
                    Ok(value) => visitor.visit_i64(value),
                    Err(_) => visitor.visit_u64(u64::try_from(value).unwrap_or(u64::MAX)),
                },
                // An integral float is an integer in kubectl's JSON (`IntOrString`).
                Plain::Float(value) => match scalar::integral(value).map(i64::try_from) {
                    Some(Ok(value)) => visitor.visit_i64(value),
                    _ => visitor.visit_f64(value),
                },
                Plain::Str => self.visit_text(text, visitor),
            }
            .map_err(|error: Error| error.at(self.id)),
            None => visitor.visit_unit(),
        }
    }

    fn deserialize_bool<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.scalar() {
            Some((text, Style::Plain)) => match scalar::resolve(text) {
                Plain::Bool(value) => visitor.visit_bool(value),
                Plain::Null => visitor.visit_bool(false),
                _ => Err(self.wrong_type("a boolean")),
            },
            _ => Err(self.wrong_type("a boolean")),
        }
    }

    integer_method!(deserialize_i8, i8, visit_i8);
    integer_method!(deserialize_i16, i16, visit_i16);
    integer_method!(deserialize_i32, i32, visit_i32);
    integer_method!(deserialize_i64, i64, visit_i64);
    integer_method!(deserialize_u8, u8, visit_u8);
    integer_method!(deserialize_u16, u16, visit_u16);
    integer_method!(deserialize_u32, u32, visit_u32);
    integer_method!(deserialize_u64, u64, visit_u64);

    fn deserialize_f32<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_f64<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.scalar() {
            Some((text, Style::Plain)) => match scalar::resolve(text) {
                Plain::Float(value) if value.is_finite() => visitor.visit_f64(value),
                #[allow(clippy::cast_precision_loss)]
                Plain::Int(value) => visitor.visit_f64(value as f64),
                _ => Err(self.wrong_type("a number")),
            },
            _ => Err(self.wrong_type("a number")),
        }
    }

    fn deserialize_char<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_str<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.scalar() {
            Some((text, Style::Quoted)) => self.visit_text(text, visitor),
            Some((text, Style::Plain)) => match scalar::resolve(text) {
                Plain::Str => self.visit_text(text, visitor),
                // Go's JSON decoding leaves a string field empty for null.
                Plain::Null => visitor.visit_str(""),
                _ => Err(self
                    .wrong_type("a string")
                    .with_help(alloc::format!("quote it: \"{text}\""))),
            },
            None => Err(self.wrong_type("a string")),
        }
    }

    fn deserialize_string<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_option<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        if self.is_null() {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'t>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    fn deserialize_newtype_struct<V: Visitor<'t>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        if name == QUANTITY {
            // Quantities take the scalar's own text, whether it was quoted or a number;
            // an unquoted number is the value YAML 1.1 reads, as `sigs.k8s.io/yaml` hands
            // kubectl's JSON the value, not the text: `010` is octal 8, and a float is
            // the float64 (`0.1000000000000000001` is 0.1, `1_0.5` is 10.5). Rust
            // writes a float64 with the shortest digits that read back as it, as Go's
            // encoder does; where Go uses an exponent (below 1e-6, from 1e21) both texts
            // are the same quantity.
            return match self.scalar() {
                Some((text, Style::Plain)) => match scalar::resolve(text) {
                    Plain::Null => visitor.visit_unit(),
                    Plain::Bool(_) => Err(self.wrong_type("a quantity")),
                    Plain::Int(value) => visitor.visit_string(value.to_string()),
                    Plain::Float(value) if value.is_finite() => {
                        visitor.visit_string(value.to_string())
                    }
                    _ => self.visit_text(text, visitor),
                },
                Some((text, Style::Quoted)) => self.visit_text(text, visitor),
                None => Err(self.wrong_type("a quantity")),
            }
            .map_err(|error: Error| error.at(self.id));
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value() {
            Some(Value::Seq { .. }) => visitor.visit_seq(Elements {
                tree: self.tree,
                elements: self.tree.elements(self.id),
                index: 0,
            }),
            _ if self.is_null() => visitor.visit_seq(Elements {
                tree: self.tree,
                elements: &[],
                index: 0,
            }),
            _ => Err(self.wrong_type("a list")),
        }
    }

    fn deserialize_tuple<V: Visitor<'t>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'t>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value() {
            Some(Value::Map { .. }) => visitor.visit_map(Entries {
                tree: self.tree,
                entries: merged_entries(self.tree, self.id)?,
                index: 0,
            }),
            _ if self.is_null() => visitor.visit_map(Entries {
                tree: self.tree,
                entries: EntryList::Written(&[]),
                index: 0,
            }),
            _ => Err(self.wrong_type("a mapping")),
        }
    }

    fn deserialize_struct<V: Visitor<'t>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'t>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.scalar() {
            Some((text, _)) => visitor
                .visit_enum(text.as_ref().into_deserializer())
                .map_err(|error: de::value::Error| {
                    Error::new("input/unsupported-value", error.to_string()).at(self.id)
                }),
            None => Err(self.wrong_type("a string")),
        }
    }

    fn deserialize_identifier<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }
}

/// A mapping's entries with YAML merge keys (`<<: *base`) expanded as go-yaml v2 does
/// (`decode.go`, `mapping` and `merge`): the entries are set in the order written, a merge
/// setting the merged mapping's entries where its `<<` stands, so a key written before it
/// is overwritten and one written after it wins; a list of mappings is merged last to
/// first, so the earlier wins. A merge value that is not a mapping or a list of mappings
/// is an error.
fn merged_entries<'t>(tree: &'t Tree<'_>, id: NodeId) -> Result<EntryList<'t>, Error> {
    let written = tree.map_children(id);
    if !written.iter().step_by(2).any(|&key| tree.is_merge_key(key)) {
        return Ok(EntryList::Written(written));
    }
    let mut entries: Vec<(NodeId, NodeId)> = Vec::new();
    // Mappings still to set, each with the index of its next entry; without recursion, as
    // merged mappings may merge others in turn (bounded by the alias budget).
    let mut pending: Vec<(NodeId, usize)> = alloc::vec![(id, 0)];
    while let Some((map, index)) = pending.pop() {
        let Some(&[key, value]) = tree.map_children(map).get(2 * index..2 * index + 2) else {
            continue;
        };
        pending.push((map, index + 1));
        if !tree.is_merge_key(key) {
            let name = tree.text(key);
            match entries
                .iter_mut()
                .find(|(existing, _)| tree.text(*existing) == name)
            {
                Some(entry) => *entry = (key, value),
                None => entries.push((key, value)),
            }
            continue;
        }
        let is_map = |node: &NodeId| {
            matches!(
                tree.node(*node).map(|node| &node.value),
                Some(Value::Map { .. })
            )
        };
        let sources = match tree.node(value).map(|node| &node.value) {
            Some(Value::Map { .. }) => core::slice::from_ref(&value),
            Some(Value::Seq { .. }) if tree.elements(value).iter().all(is_map) => {
                tree.elements(value)
            }
            _ => {
                return Err(Error::new(
                    "input/wrong-type",
                    "map merge requires map or sequence of maps as the value".into(),
                )
                .at(value))
            }
        };
        // Last in, first set: the first source is set last and wins.
        pending.extend(sources.iter().map(|&source| (source, 0)));
    }
    Ok(EntryList::Merged(entries))
}

/// The entries of a mapping: as written (keys and values alternating), or with merge
/// keys expanded.
enum EntryList<'t> {
    Written(&'t [NodeId]),
    Merged(Vec<(NodeId, NodeId)>),
}

impl EntryList<'_> {
    fn get(&self, index: usize) -> Option<(NodeId, NodeId)> {
        match self {
            Self::Written(children) => {
                Some((*children.get(2 * index)?, *children.get(2 * index + 1)?))
            }
            Self::Merged(entries) => entries.get(index).copied(),
        }
    }

    fn len(&self) -> usize {
        match self {
            Self::Written(children) => children.len() / 2,
            Self::Merged(entries) => entries.len(),
        }
    }
}

/// The elements of a sequence node.
struct Elements<'t, 's> {
    tree: &'t Tree<'s>,
    elements: &'t [NodeId],
    index: usize,
}

impl<'t, 's> SeqAccess<'t> for Elements<'t, 's> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'t>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        let Some(&id) = self.elements.get(self.index) else {
            return Ok(None);
        };
        let index = self.index;
        self.index += 1;
        seed.deserialize(NodeDeserializer {
            tree: self.tree,
            id,
        })
        .map(Some)
        .map_err(|error| error.within(Segment::Index(index), id))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.elements.len().saturating_sub(self.index))
    }
}

/// The entries of a mapping node.
struct Entries<'t, 's> {
    tree: &'t Tree<'s>,
    entries: EntryList<'t>,
    index: usize,
}

impl<'t> Entries<'t, '_> {
    /// The value of the entry whose key was read last.
    #[inline(never)]
    fn value_node(&self) -> Result<NodeId, Error> {
        match self.entries.get(self.index.saturating_sub(1)) {
            Some((_, value)) => Ok(value),
            None => Err(Error::new(
                "input/invalid-value",
                "a mapping value is missing".into(),
            )),
        }
    }

    /// An error inside the current entry, seen from the mapping.
    #[inline(never)]
    fn within_entry(&self, error: Error, node: NodeId) -> Error {
        error.within(Segment::key(self.current_key()), node)
    }

    /// The key of the entry read last, for error paths.
    fn current_key(&self) -> &'t str {
        let tree: &'t Tree<'_> = self.tree;
        self.entries
            .get(self.index.saturating_sub(1))
            .and_then(|(key, _)| tree.text(key))
            .unwrap_or_default()
    }
}

impl<'t, 's> MapAccess<'t> for Entries<'t, 's> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'t>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some((key, _)) = self.entries.get(self.index) else {
            return Ok(None);
        };
        self.index += 1;
        let deserializer = KeyDeserializer {
            tree: self.tree,
            id: key,
        };
        seed.deserialize(deserializer)
            .map(Some)
            .map_err(|error| self.within_entry(error, key))
    }

    fn next_value_seed<V: DeserializeSeed<'t>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let value = self.value_node()?;
        seed.deserialize(NodeDeserializer {
            tree: self.tree,
            id: value,
        })
        .map_err(|error| self.within_entry(error, value))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len().saturating_sub(self.index))
    }
}

/// A mapping key: kubectl turns unquoted `y`, `on`, `4` or `1.0` keys into the JSON
/// strings `"true"`, `"true"`, `"4"` and `"1"`, so they are read that way here too, and
/// refuses null keys ([`scalar::key_text`]).
struct KeyDeserializer<'t, 's> {
    tree: &'t Tree<'s>,
    id: NodeId,
}

impl<'de> Deserializer<'de> for KeyDeserializer<'de, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let Some(Value::Scalar(text, style)) = self.tree.node(self.id).map(|node| &node.value)
        else {
            return Err(
                Error::new("input/wrong-type", "mapping keys must be strings".into()).at(self.id),
            );
        };
        let key = match style {
            Style::Plain => scalar::key_text(text),
            Style::Quoted => scalar::Key::Text,
        };
        match key {
            scalar::Key::Text => visitor.visit_str(text),
            scalar::Key::Converted(converted) => visitor.visit_string(converted),
            scalar::Key::Unsupported(kind) => Err(unsupported_key(kind, text)),
        }
        .map_err(|error: Error| error.at(self.id))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// The error for a key that `sigs.k8s.io/yaml` cannot turn into a JSON key, which makes
/// kubectl refuse the document ("unsupported map key of type").
#[inline(never)]
fn unsupported_key(kind: &str, text: &str) -> Error {
    let key = if text.is_empty() {
        "an empty mapping key".to_string()
    } else {
        alloc::format!("mapping key `{text}`")
    };
    Error::new(
        "yaml/unsupported-key",
        alloc::format!("{key} is {kind}, which cannot become a JSON key"),
    )
    .with_help(alloc::format!(
        "kubectl refuses the document; quote the key to make it a string: \"{text}\""
    ))
}

/// Separates an error code from its message in `de::Error::custom` text, so that types
/// decoded through serde (such as quantities) keep their own stable codes.
const CODE_MARK: char = '\u{1f}';

impl<'de> de::Deserialize<'de> for crate::quantity::Quantity {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_newtype_struct(QUANTITY, QuantityVisitor)
    }
}

struct QuantityVisitor;

impl QuantityVisitor {
    fn parse<E: de::Error>(text: &str) -> Result<crate::quantity::Quantity, E> {
        crate::quantity::Quantity::parse_field(text).map_err(|error| {
            E::custom(alloc::format!(
                "{CODE_MARK}{}{CODE_MARK}{error}",
                error.code()
            ))
        })
    }
}

impl<'de> Visitor<'de> for QuantityVisitor {
    type Value = crate::quantity::Quantity;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a quantity such as `500m` or `2Gi`")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
        Self::parse(text)
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Self::Value, E> {
        Self::parse(&value.to_string())
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Self::Value, E> {
        Self::parse(&value.to_string())
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Self::Value, E> {
        Self::parse(&value.to_string())
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(crate::quantity::Quantity::zero())
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}
