//! Field paths inside an object, such as `spec.tolerations[1].key`.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// One step of a [`FieldPath`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    /// A field or a plain map key, written `.name`.
    Field(String),
    /// A map key that is not a plain word, written `[example.com/key]`.
    Key(String),
    /// A list position, written `[3]`.
    Index(usize),
}

impl Segment {
    /// The segment for a map key: `.key` when it is a plain word, `[key]` otherwise.
    #[must_use]
    pub fn key(key: &str) -> Self {
        let plain = !key.is_empty()
            && key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if plain {
            Self::Field(key.into())
        } else {
            Self::Key(key.into())
        }
    }
}

/// A path from an object's root to one of its fields.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldPath(pub Vec<Segment>);

impl FieldPath {
    /// The path of the object itself.
    #[must_use]
    pub const fn root() -> Self {
        Self(Vec::new())
    }

    /// A path of plain field names, such as `["spec", "nodeName"]`.
    #[must_use]
    pub fn fields(names: &[&str]) -> Self {
        Self(
            names
                .iter()
                .map(|name| Segment::Field((*name).into()))
                .collect(),
        )
    }

    /// This path extended by a field.
    #[must_use]
    pub fn field(&self, name: &str) -> Self {
        self.with(Segment::Field(name.into()))
    }

    /// This path extended by a map key.
    #[must_use]
    pub fn key(&self, key: &str) -> Self {
        self.with(Segment::key(key))
    }

    /// This path extended by a list index.
    #[must_use]
    pub fn index(&self, index: usize) -> Self {
        self.with(Segment::Index(index))
    }

    fn with(&self, segment: Segment) -> Self {
        let mut segments = self.0.clone();
        segments.push(segment);
        Self(segments)
    }

    /// True for the object's own path.
    #[must_use]
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (position, segment) in self.0.iter().enumerate() {
            match segment {
                Segment::Field(name) if position == 0 => f.write_str(name)?,
                Segment::Field(name) => write!(f, ".{name}")?,
                Segment::Key(key) => write!(f, "[{key}]")?,
                Segment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn displays_like_kubernetes_field_paths() {
        let path = FieldPath::fields(&["spec", "tolerations"])
            .index(1)
            .field("key");
        assert_eq!(path.to_string(), "spec.tolerations[1].key");
        let labels = FieldPath::fields(&["metadata", "labels"]).key("app.kubernetes.io/name");
        assert_eq!(
            labels.to_string(),
            "metadata.labels[app.kubernetes.io/name]"
        );
        assert_eq!(
            FieldPath::fields(&["metadata", "labels"])
                .key("app")
                .to_string(),
            "metadata.labels.app"
        );
    }
}
