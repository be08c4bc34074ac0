//! `Machine` and `MachineSet` (`machine.openshift.io/v1beta1`): names, lifecycle hooks and
//! a MachineSet's selector.
//!
//! Upstream: the CRD schema of `openshift/api` `machine/v1beta1/types_machine.go`
//! (`LifecycleHook`: both required, `name` 3–256 characters matching a pattern, `owner`
//! 3–512 characters, each list a map keyed by `name`), with apiextensions' messages, and
//! machine-api-operator's MachineSet webhook (`pkg/webhooks/machineset_webhook.go`: the
//! selector must match the template's labels, or the API server refuses the set).

use crate::model::{LifecycleHook, Machine, MachineSet};

use super::metadata::{self, NameRule};
use super::path::{unsupported, At, Sink};

/// The CRD's enum for `spec.deletePolicy`.
const DELETE_POLICIES: [&str; 3] = ["Random", "Newest", "Oldest"];

/// The CRD pattern for a hook name: an optional DNS subdomain and `/`, then a qualified
/// name part.
const HOOK_NAME_PATTERN: &str = r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$";

/// Every rule a Machine breaks.
pub(super) fn machine(machine: &Machine, sink: &mut Sink) {
    metadata::validate(&machine.metadata, NameRule::Subdomain, sink);
    let hooks = At::root("spec");
    let hooks = hooks.field("lifecycleHooks");
    lifecycle_hooks(
        &machine.spec.lifecycle_hooks.pre_drain,
        &hooks.field("preDrain"),
        sink,
    );
    lifecycle_hooks(
        &machine.spec.lifecycle_hooks.pre_terminate,
        &hooks.field("preTerminate"),
        sink,
    );
}

/// Every rule a MachineSet breaks.
pub(super) fn machine_set(set: &MachineSet, sink: &mut Sink) {
    metadata::validate(&set.metadata, NameRule::Subdomain, sink);
    let policy = &set.spec.delete_policy;
    if !policy.is_empty() && !DELETE_POLICIES.contains(&policy.as_str()) {
        sink.error(
            &At::root("spec").field("deletePolicy"),
            "machine/invalid-delete-policy",
            unsupported(policy, &DELETE_POLICIES),
        );
    }
    if set.spec.replicas.is_some_and(|replicas| replicas < 0) {
        sink.error(
            &At::root("spec").field("replicas"),
            "workload/negative-count",
            "should be greater than or equal to 0",
        );
    }
    let spec = At::root("spec");
    super::workload::selector_matches_template(
        &set.spec.selector,
        &set.spec.template.metadata.labels,
        &spec.field("template"),
        "machine/selector-mismatch",
        sink,
    );
}

fn lifecycle_hooks(hooks: &[LifecycleHook], at: &At<'_>, sink: &mut Sink) {
    for (index, hook) in hooks.iter().enumerate() {
        let entry = at.index(index);
        let name = entry.field("name");
        let given = required(hook.name.as_deref(), 3, 256, &name, sink);
        if given.is_some_and(|(given, fits)| fits && !is_hook_name(given)) {
            sink.error(
                &name,
                "machine/invalid-hook-name",
                alloc::format!("should match '{HOOK_NAME_PATTERN}'"),
            );
        }
        required(hook.owner.as_deref(), 3, 512, &entry.field("owner"), sink);
        let earlier = hooks.get(..index).unwrap_or_default();
        let duplicate = earlier.iter().any(|other| other.name == hook.name);
        if let Some((given, _)) = given.filter(|_| duplicate) {
            sink.error(
                &entry,
                "machine/duplicate-hook",
                alloc::format!(
                    "Duplicate value: map[string]interface {{}}{{\"name\":\"{given}\"}}"
                ),
            );
        }
    }
}

/// A field the CRD requires (`Required value` when missing, as apiextensions says it)
/// with its length bounds in characters; the value when given, and whether its length
/// fits. kube-openapi's string validator (`stringValidator.Validate` in
/// `pkg/validation/validate/validator.go`) checks the most, then the least, then the
/// pattern, and stops at the first that fails: a pattern is checked only on a length
/// that fits.
fn required<'v>(
    value: Option<&'v str>,
    min: usize,
    max: usize,
    at: &At<'_>,
    sink: &mut Sink,
) -> Option<(&'v str, bool)> {
    let Some(value) = value else {
        sink.error(at, "machine/missing-hook-field", "Required value");
        return None;
    };
    let count = value.chars().count();
    let broken = if count > max {
        Some(alloc::format!("should be at most {max} chars long"))
    } else if count < min {
        Some(alloc::format!("should be at least {min} chars long"))
    } else {
        None
    };
    let fits = broken.is_none();
    if let Some(message) = broken {
        sink.error(at, "machine/invalid-hook-length", message);
    }
    Some((value, fits))
}

/// [`HOOK_NAME_PATTERN`], checked by hand (no regex engine in a no_std core).
fn is_hook_name(name: &str) -> bool {
    let (prefix, rest) = match name.rsplit_once('/') {
        Some((prefix, rest)) => (Some(prefix), rest),
        None => (None, name),
    };
    let prefix_ok = prefix.is_none_or(|prefix| {
        prefix.split('.').all(|label| {
            let bytes = label.as_bytes();
            !bytes.is_empty()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
                && bytes.first() != Some(&b'-')
                && bytes.last() != Some(&b'-')
        })
    });
    let bytes = rest.as_bytes();
    let part_ok = !bytes.is_empty()
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        && bytes.first().is_some_and(u8::is_ascii_alphanumeric)
        && bytes.last().is_some_and(u8::is_ascii_alphanumeric);
    prefix_ok && part_ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    fn violations(resource: &crate::input::Resource) -> Vec<(String, &'static str, String)> {
        crate::validation::validate(resource)
            .into_iter()
            .map(|v| (v.path.to_string(), v.diagnostic.code, v.diagnostic.message))
            .collect()
    }

    /// machineset_webhook.go refuses a set whose selector does not match its template's
    /// labels; an empty selector matches any.
    #[test]
    fn a_machine_set_selects_its_template() {
        let set = |selector: serde_json::Value| {
            let set: MachineSet = serde_json::from_value(serde_json::json!({
                "metadata": {"name": "ws"},
                "spec": {"selector": selector, "template": {"metadata": {"labels": {"set": "ws"}}}}
            }))
            .unwrap();
            violations(&crate::input::Resource::MachineSet(set.into()))
        };
        assert_eq!(set(serde_json::json!({"matchLabels": {"set": "ws"}})), []);
        assert_eq!(set(serde_json::json!({})), []);
        assert_eq!(
            set(serde_json::json!({"matchLabels": {"set": "other"}})),
            [(
                "spec.template.metadata.labels".into(),
                "machine/selector-mismatch",
                "`selector` does not match template `labels`".into()
            )]
        );
    }

    /// The audit's hooks.yaml: a missing `name` or `owner` is a `Required value` (the CRD
    /// requires both); an empty or short one breaks the length.
    #[test]
    fn hooks_need_a_name_and_an_owner() {
        let machine: Machine = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "m1"},
            "spec": {"lifecycleHooks": {
                "preDrain": [{"name": "Good"}, {"name": "", "owner": "me"}],
                "preTerminate": [{"owner": "someone"}]
            }}
        }))
        .unwrap();
        let short = "should be at least 3 chars long";
        assert_eq!(
            violations(&crate::input::Resource::Machine(machine.into())),
            [
                (
                    "spec.lifecycleHooks.preDrain[0].owner".into(),
                    "machine/missing-hook-field",
                    "Required value".into()
                ),
                (
                    "spec.lifecycleHooks.preDrain[1].name".into(),
                    "machine/invalid-hook-length",
                    short.into()
                ),
                (
                    "spec.lifecycleHooks.preDrain[1].owner".into(),
                    "machine/invalid-hook-length",
                    short.into()
                ),
                (
                    "spec.lifecycleHooks.preTerminate[0].name".into(),
                    "machine/missing-hook-field",
                    "Required value".into()
                ),
            ]
        );
    }

    /// One error per name, lengths in characters: `é1` (two characters, three bytes) is
    /// only too short, a 257-character name that also breaks the pattern only too long,
    /// and `éab` only breaks the pattern (the audit's hook_short and hook_long).
    #[test]
    fn a_hook_name_gets_its_first_error_only() {
        let long = ["-", &"a".repeat(256)].concat();
        let machine: Machine = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "m1"},
            "spec": {"lifecycleHooks": {"preDrain": [
                {"name": "é1", "owner": "me1"},
                {"name": long, "owner": "me1"},
                {"name": "éab", "owner": "me1"}
            ]}}
        }))
        .unwrap();
        let found: Vec<(String, &'static str)> =
            violations(&crate::input::Resource::Machine(machine.into()))
                .into_iter()
                .map(|(path, code, _)| (path, code))
                .collect();
        let expected: Vec<(String, &'static str)> = [
            (
                "spec.lifecycleHooks.preDrain[0].name",
                "machine/invalid-hook-length",
            ),
            (
                "spec.lifecycleHooks.preDrain[1].name",
                "machine/invalid-hook-length",
            ),
            (
                "spec.lifecycleHooks.preDrain[2].name",
                "machine/invalid-hook-name",
            ),
        ]
        .into_iter()
        .map(|(path, code)| (String::from(path), code))
        .collect();
        assert_eq!(found, expected);
    }

    #[test]
    fn hook_names_follow_the_crd_pattern() {
        for good in [
            "EtcdQuorumOperator",
            "MigrateImportantApp",
            "example.com/my-hook",
            "a_b.c",
        ] {
            assert!(is_hook_name(good), "{good}");
        }
        for bad in ["-x-", "x/", "Example.com/x", "a b", "x.", "/x"] {
            assert!(!is_hook_name(bad), "{bad}");
        }
    }
}
