//! `metadata`: name, namespace, labels, annotations and owner references.
//!
//! Upstream: `ValidateObjectMetaAccessor` in
//! `k8s.io/apimachinery/pkg/api/validation/objectmeta.go`, with the name function of
//! each kind (`ValidateNodeName`, `ValidatePodName`, `ValidateNamespaceName`, …).
//!
//! Differences from upstream, on purpose:
//! - a missing `namespace` is not an error: manifests leave it to the request (kubefit
//!   reads it as `default`), and a namespace on a cluster-scoped kind is ignored, as
//!   the API server clears it before validating;
//! - an owner reference without `uid` is accepted, because hand-written manifests link
//!   pods to their owners by kind and name and kubefit matches them that way.

use alloc::vec::Vec;

use crate::model::{ObjectMeta, StringMap};

use super::names;
use super::path::{At, Sink};

/// The largest total size of the annotation keys and values (`TotalAnnotationSizeLimitB`).
pub(super) const TOTAL_ANNOTATION_SIZE_LIMIT: usize = 256 * 1024;

/// How a kind's names are checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NameRule {
    /// `NameIsDNSSubdomain`: nodes, pods, priority classes, workloads.
    Subdomain,
    /// `NameIsDNSLabel`: namespaces.
    Label,
    /// `NameIsDNS1035Label`: services.
    Dns1035,
    /// `IsPathSegmentName`, for kinds with no rule of their own (PodDisruptionBudget).
    PathSegment,
}

impl NameRule {
    fn check(self, name: &str) -> Vec<&'static str> {
        match self {
            Self::Subdomain => names::dns1123_subdomain(name),
            Self::Label => names::dns1123_label(name),
            Self::Dns1035 => names::dns1035_label(name),
            Self::PathSegment => names::path_segment_name(name),
        }
    }

    /// The check of a `generateName` prefix, where a trailing `-` is allowed.
    fn check_prefix(self, prefix: &str) -> Vec<&'static str> {
        let bytes = prefix.as_bytes();
        let check: fn(&[u8]) -> Vec<&'static str> = match self {
            // `IsPathSegmentPrefix`: only the `/` and `%` rule applies to a prefix.
            Self::PathSegment => {
                return match prefix {
                    "." | ".." => Vec::new(),
                    other => names::path_segment_name(other),
                }
            }
            Self::Subdomain => names::dns1123_subdomain_bytes,
            Self::Label => names::dns1123_label_bytes,
            Self::Dns1035 => names::dns1035_label_bytes,
        };
        if bytes.last() != Some(&b'-') {
            return check(bytes);
        }
        // Upstream's `maskTrailingDash` replaces the last *two* bytes with `a`
        // (`name[:len(name)-2] + "a"`), so `ab-` is checked as `aa`. Pods made by
        // ReplicaSets all have such a prefix, so the masked name is built on the stack.
        let keep = bytes.len().saturating_sub(2);
        let mut buffer = [0_u8; 256];
        match buffer.get_mut(..=keep) {
            Some(masked) => {
                for (slot, byte) in masked.iter_mut().zip(bytes) {
                    *slot = *byte;
                }
                if let Some(last) = masked.last_mut() {
                    *last = b'a';
                }
                check(masked)
            }
            None => {
                let mut masked = Vec::with_capacity(keep + 1);
                masked.extend_from_slice(bytes.get(..keep).unwrap_or_default());
                masked.push(b'a');
                check(&masked)
            }
        }
    }
}

/// Checks `metadata` with the kind's name rule.
pub(super) fn validate(meta: &ObjectMeta, rule: NameRule, sink: &mut Sink) {
    let metadata = At::root("metadata");
    if !meta.generate_name.is_empty() {
        let at = metadata.field("generateName");
        sink.errors(
            &at,
            "metadata/invalid-name",
            &rule.check_prefix(&meta.generate_name),
        );
    }
    let name = metadata.field("name");
    if meta.name.is_empty() {
        if meta.generate_name.is_empty() {
            sink.error(
                &name,
                "metadata/required",
                "name or generateName is required",
            );
        }
    } else {
        sink.errors(&name, "metadata/invalid-name", &rule.check(&meta.name));
    }
    if !meta.namespace.is_empty() {
        let at = metadata.field("namespace");
        sink.errors(
            &at,
            "metadata/invalid-namespace",
            &names::dns1123_label(&meta.namespace),
        );
    }
    labels(&meta.labels, &metadata.field("labels"), sink);
    annotations(&meta.annotations, &metadata.field("annotations"), sink);
    owner_references(meta, &metadata.field("ownerReferences"), sink);
}

/// `ValidateLabels`: every key a qualified name, every value a label value.
///
/// Used for `metadata.labels`, `spec.nodeSelector`, `matchLabels` and service selectors.
pub(super) fn labels(labels: &StringMap, at: &At<'_>, sink: &mut Sink) {
    for (key, value) in labels {
        let key_errors = names::qualified_name(key);
        let value_errors = names::label_value(value);
        if key_errors.is_empty() && value_errors.is_empty() {
            continue;
        }
        let entry = at.key(key);
        sink.errors_at_key(&entry, "labels/invalid-key", &key_errors);
        sink.errors(&entry, "labels/invalid-value", &value_errors);
    }
}

/// `ValidateAnnotations`: keys are qualified names (ignoring case) and the whole map is
/// at most 256 KiB.
pub(super) fn annotations(annotations: &StringMap, at: &At<'_>, sink: &mut Sink) {
    let mut total = 0_usize;
    for (key, value) in annotations {
        total = total.saturating_add(key.len()).saturating_add(value.len());
        let errors = names::annotation_key(key);
        if !errors.is_empty() {
            sink.errors_at_key(&at.key(key), "annotations/invalid-key", &errors);
        }
    }
    if total > TOTAL_ANNOTATION_SIZE_LIMIT {
        sink.error(
            at,
            "annotations/too-long",
            alloc::format!("must have at most {TOTAL_ANNOTATION_SIZE_LIMIT} bytes"),
        );
    }
}

/// `ValidateOwnerReferences`, without the `uid` rule (see the module doc).
fn owner_references(meta: &ObjectMeta, at: &At<'_>, sink: &mut Sink) {
    let mut first_controller: Option<(&str, &str)> = None;
    for (index, reference) in meta.owner_references.iter().enumerate() {
        let entry = at.index(index);
        if api_version_has_no_version(&reference.api_version) {
            sink.error(
                &entry.field("apiVersion"),
                "owner/invalid",
                "version must not be empty",
            );
        }
        if reference.kind.is_empty() {
            sink.error(&entry.field("kind"), "owner/invalid", "must not be empty");
        }
        if reference.name.is_empty() {
            sink.error(&entry.field("name"), "owner/invalid", "must not be empty");
        }
        if reference.controller == Some(true) {
            match first_controller {
                Some((kind, name)) => sink.error(
                    at,
                    "owner/multiple-controllers",
                    alloc::format!(
                        "Only one reference can have Controller set to true. Found \"true\" in references for {kind}/{name} and {}/{}",
                        reference.kind,
                        reference.name
                    ),
                ),
                None => first_controller = Some((&reference.kind, &reference.name)),
            }
        }
    }
}

/// Whether `schema.ParseGroupVersion` finds no version in an `apiVersion`: empty, a
/// trailing `/`, or more than one `/` (a parse error upstream).
fn api_version_has_no_version(api_version: &str) -> bool {
    let mut parts = api_version.split('/');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(version), None, _) => version.is_empty(),
        (Some(_), Some(version), None) => version.is_empty(),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::OwnerReference;
    use alloc::string::{String, ToString};

    fn run(meta: &ObjectMeta, rule: NameRule) -> Vec<(String, &'static str, String, bool)> {
        let mut sink = Sink::default();
        validate(meta, rule, &mut sink);
        sink.finish()
            .into_iter()
            .map(|v| {
                (
                    v.path.to_string(),
                    v.diagnostic.code,
                    v.diagnostic.message,
                    v.at_key,
                )
            })
            .collect()
    }

    fn named(name: &str) -> ObjectMeta {
        ObjectMeta {
            name: name.into(),
            ..ObjectMeta::default()
        }
    }

    #[test]
    fn names_follow_the_kind_rule() {
        assert!(run(&named("worker-1.example.com"), NameRule::Subdomain).is_empty());
        let found = run(&named("tier&1"), NameRule::Subdomain);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "metadata.name");
        assert_eq!(found[0].1, "metadata/invalid-name");
        assert_eq!(found[0].2, names::DNS1123_SUBDOMAIN_FORMAT);
        let found = run(&named("web.shop"), NameRule::Dns1035);
        assert_eq!(found[0].2, names::DNS1035_LABEL_FORMAT);
        assert!(run(&named("Web_PDB"), NameRule::PathSegment).is_empty());
    }

    #[test]
    fn generate_name_may_end_with_a_dash() {
        let meta = ObjectMeta {
            generate_name: "web-".into(),
            ..ObjectMeta::default()
        };
        assert!(run(&meta, NameRule::Subdomain).is_empty());
        let meta = ObjectMeta {
            generate_name: "Web-".into(),
            ..ObjectMeta::default()
        };
        assert_eq!(
            run(&meta, NameRule::Subdomain)[0].0,
            "metadata.generateName"
        );
    }

    #[test]
    fn label_key_errors_point_at_the_key() {
        let mut meta = named("p");
        meta.labels
            .insert("app.kubernetes.io/name".into(), "web".into());
        meta.labels.insert("Example.com/x".into(), "-bad".into());
        let found = run(&meta, NameRule::Subdomain);
        assert_eq!(
            found,
            [
                (
                    "metadata.labels[Example.com/x]".into(),
                    "labels/invalid-key",
                    names::LABEL_KEY_PREFIX_FORMAT.into(),
                    true
                ),
                (
                    "metadata.labels[Example.com/x]".into(),
                    "labels/invalid-value",
                    names::LABEL_VALUE_FORMAT.into(),
                    false
                ),
            ]
        );
    }

    #[test]
    fn namespaces_are_dns_labels() {
        let mut meta = named("p");
        meta.namespace = ".ns".into();
        let found = run(&meta, NameRule::Subdomain);
        assert_eq!(found[0].0, "metadata.namespace");
        assert_eq!(found[0].2, names::DNS1123_LABEL_FORMAT);
        meta.namespace = "n".repeat(64);
        assert_eq!(
            run(&meta, NameRule::Subdomain)[0].2,
            names::DNS1123_LABEL_TOO_LONG
        );
    }

    #[test]
    fn annotations_are_limited_to_256_kib() {
        let mut meta = named("p");
        meta.annotations
            .insert("a".into(), "x".repeat(TOTAL_ANNOTATION_SIZE_LIMIT - 1));
        assert!(run(&meta, NameRule::Subdomain).is_empty());
        meta.annotations.insert("b".into(), String::new());
        let found = run(&meta, NameRule::Subdomain);
        assert_eq!(
            found,
            [(
                "metadata.annotations".into(),
                "annotations/too-long",
                "must have at most 262144 bytes".into(),
                false
            )]
        );
    }

    #[test]
    fn annotation_keys_are_qualified_names_in_any_case() {
        let mut meta = named("p");
        meta.annotations
            .insert("Kubernetes.IO/Change-Cause".into(), "x".into());
        assert!(run(&meta, NameRule::Subdomain).is_empty());
        meta.annotations.insert("a/b/c".into(), "x".into());
        let found = run(&meta, NameRule::Subdomain);
        assert_eq!(found[0].0, "metadata.annotations[a/b/c]");
        assert!(found[0].3);
    }

    #[test]
    fn one_controller_per_object() {
        let mut meta = named("p");
        let owner = |kind: &str, name: &str| OwnerReference {
            api_version: "apps/v1".into(),
            kind: kind.into(),
            name: name.into(),
            uid: String::new(),
            controller: Some(true),
        };
        meta.owner_references = alloc::vec![owner("ReplicaSet", "a"), owner("StatefulSet", "b")];
        let found = run(&meta, NameRule::Subdomain);
        assert_eq!(
            found,
            [(
                "metadata.ownerReferences".into(),
                "owner/multiple-controllers",
                "Only one reference can have Controller set to true. Found \"true\" in references for ReplicaSet/a and StatefulSet/b".into(),
                false
            )]
        );
        meta.owner_references = alloc::vec![OwnerReference {
            api_version: "apps/".into(),
            ..owner("", "")
        }];
        let messages: Vec<String> = run(&meta, NameRule::Subdomain)
            .into_iter()
            .map(|f| f.0)
            .collect();
        assert_eq!(
            messages,
            [
                "metadata.ownerReferences[0].apiVersion",
                "metadata.ownerReferences[0].kind",
                "metadata.ownerReferences[0].name"
            ]
        );
    }
}
