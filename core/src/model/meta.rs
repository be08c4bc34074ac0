//! Object metadata shared by every kind.

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use super::StringMap;

/// `metadata`: identity, labels, annotations and owners.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ObjectMeta {
    pub name: String,
    pub generate_name: String,
    pub namespace: String,
    pub uid: String,
    pub labels: StringMap,
    pub annotations: StringMap,
    pub owner_references: Vec<OwnerReference>,
    pub creation_timestamp: Option<String>,
    pub deletion_timestamp: Option<String>,
    /// The grace period of the deletion under way, set with `deletion_timestamp`.
    pub deletion_grace_period_seconds: Option<i64>,
    /// `metadata.finalizers`: what the Job controller reads for its tracking finalizer.
    /// Left out of the JSON when empty, as almost every object has none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub finalizers: Vec<String>,
}

/// An entry of `metadata.ownerReferences`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct OwnerReference {
    pub api_version: String,
    pub kind: String,
    pub name: String,
    pub uid: String,
    pub controller: Option<bool>,
}

impl ObjectMeta {
    /// The pieces of `namespace/name`, for joining without the formatting machinery.
    #[must_use]
    pub fn name_parts(&self) -> [&str; 3] {
        [&self.namespace, "/", &self.name]
    }

    /// The owner reference marked as the managing controller, if any.
    #[must_use]
    pub fn controller(&self) -> Option<&OwnerReference> {
        self.owner_references
            .iter()
            .find(|owner| owner.controller == Some(true))
    }
}
