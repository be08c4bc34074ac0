//! The options of `evaluate`, as JavaScript passes them.

use serde::Deserialize;
use tsify::Tsify;

/// Options for `evaluate` and `evaluateText`. Every field is optional.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct EvaluateOptions {
    /// Budgets that bound the work done on untrusted input.
    #[serde(default)]
    #[tsify(optional)]
    pub limits: Option<LimitsOptions>,
    /// What `evaluate` returns: the report as an object (`json`, the default) or its text
    /// rendering, like `kubectl get` (`text`). `evaluateText` always renders text.
    #[serde(default)]
    #[tsify(optional)]
    pub format: Option<Format>,
    /// How pending pods are placed: the profile, preemption, the tie-break seed.
    #[serde(default)]
    #[tsify(optional)]
    pub schedule: Option<ScheduleOptions>,
    /// Where to stop the Scenario's timeline, as a Go duration (`90s`, `1h30m`): the
    /// node and pod tables then show the cluster at that point. Default: the horizon,
    /// with the tables showing the cluster before the first step.
    #[serde(default)]
    #[tsify(optional)]
    pub at: Option<String>,
    /// Whether the replacements of evicted pods are placed by the scheduler (default
    /// `true`); `false` when only the evictions and their timing matter.
    #[serde(default)]
    #[tsify(optional)]
    pub reschedule: Option<bool>,
}

/// Scheduling options; each one left out keeps kubefit's default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ScheduleOptions {
    /// The scheduler to reproduce. Without it the input decides: a `Policy` or
    /// `MasterConfig` selects `openshift-3.11`, anything else `kubernetes-1.34`.
    #[serde(default)]
    #[tsify(optional)]
    pub profile: Option<Profile>,
    /// Whether pods that fit nowhere may preempt lower-priority pods (default `true`;
    /// `false` is the scheduler's `disablePreemption`).
    #[serde(default)]
    #[tsify(optional)]
    pub preemption: Option<bool>,
    /// Seed of the `kubernetes-1.34` draw between equally scored nodes (default 0); the
    /// same seed gives the same placements.
    #[serde(default)]
    #[tsify(optional)]
    pub seed: Option<u64>,
    /// How many per-node verdicts the report keeps in all (default 100 000); later pods
    /// keep only their chosen node's.
    #[serde(default)]
    #[tsify(optional)]
    pub max_node_verdicts: Option<usize>,
}

/// A scheduler kubefit reproduces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Tsify)]
pub enum Profile {
    /// Kubernetes 1.11 with the scheduler Policy, as OpenShift 3.11 runs it (scores 0-10).
    #[serde(rename = "openshift-3.11")]
    OpenShift311,
    /// The Kubernetes 1.34 scheduling framework (scores 0-100).
    #[serde(rename = "kubernetes-1.34")]
    Kubernetes134,
}

/// Budgets for reading input; each one left out keeps kubefit's default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct LimitsOptions {
    /// Largest accepted source, in bytes (default 512 MiB).
    #[serde(default)]
    #[tsify(optional)]
    pub max_input_bytes: Option<usize>,
    /// Deepest accepted nesting of mappings and sequences (default 64).
    #[serde(default)]
    #[tsify(optional)]
    pub max_depth: Option<usize>,
    /// How many nodes YAML alias expansion may add to one document (default 100 000).
    #[serde(default)]
    #[tsify(optional)]
    pub max_alias_expansion: Option<u64>,
    /// Most documents accepted in one source (default 100 000).
    #[serde(default)]
    #[tsify(optional)]
    pub max_documents: Option<usize>,
}

/// What `evaluate` returns beside `ok`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Tsify)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// `{ ok, report }`, the report as an object.
    #[default]
    Json,
    /// `{ ok, text }`, the report rendered as `kubectl`-like tables.
    Text,
}

// Unknown names are not errors (an older kubefit should still read options meant for a
// newer one), but they are usually typos: `crate::js` warns about them with these lists,
// since serde-wasm-bindgen only looks up the names a struct declares.

/// The names `options` accepts.
pub(crate) const OPTION_NAMES: &[&str] = &["limits", "format", "schedule", "at", "reschedule"];
/// The names `options.schedule` accepts.
pub(crate) const SCHEDULE_NAMES: &[&str] = &["profile", "preemption", "seed", "maxNodeVerdicts"];
/// The names `options.limits` accepts.
pub(crate) const LIMIT_NAMES: &[&str] = &[
    "maxInputBytes",
    "maxDepth",
    "maxAliasExpansion",
    "maxDocuments",
];

impl EvaluateOptions {
    /// The core options these stand for: kubefit's defaults, overridden field by field.
    #[must_use]
    pub fn to_core(&self) -> kubefit_core::Options {
        let mut limits = kubefit_core::Limits::default();
        if let Some(given) = self.limits {
            if let Some(value) = given.max_input_bytes {
                limits.max_input_bytes = value;
            }
            if let Some(value) = given.max_depth {
                limits.max_depth = value;
            }
            if let Some(value) = given.max_alias_expansion {
                limits.max_alias_expansion = value;
            }
            if let Some(value) = given.max_documents {
                limits.max_documents = value;
            }
        }
        let mut schedule = kubefit_core::schedule::ScheduleOptions::default();
        let mut profile = None;
        if let Some(given) = self.schedule {
            profile = given.profile.map(|profile| match profile {
                Profile::OpenShift311 => kubefit_core::schedule::Version::Legacy,
                Profile::Kubernetes134 => kubefit_core::schedule::Version::Current,
            });
            schedule.disable_preemption = given.preemption == Some(false);
            schedule.seed = given.seed.unwrap_or(0);
            schedule.max_node_verdicts = given.max_node_verdicts;
        }
        let timeline = kubefit_core::eviction::Options {
            at: self
                .at
                .as_deref()
                .and_then(|text| kubefit_core::duration::parse(text).ok()),
            skip_rescheduling: self.reschedule == Some(false),
        };
        kubefit_core::Options {
            limits,
            profile,
            schedule,
            timeline,
        }
    }

    /// The output format, `json` unless asked otherwise.
    #[must_use]
    pub fn format(&self) -> Format {
        self.format.unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_kubefit_defaults() {
        let options: EvaluateOptions = serde_json::from_str("{}").unwrap();
        assert_eq!(options.to_core().limits, kubefit_core::Limits::default());
        assert_eq!(options.format(), Format::Json);
    }

    #[test]
    fn limits_override_one_by_one() {
        let options: EvaluateOptions = serde_json::from_str(
            r#"{"limits": {"maxDepth": 3, "maxDocuments": 7}, "format": "text"}"#,
        )
        .unwrap();
        let limits = options.to_core().limits;
        assert_eq!(limits.max_depth, 3);
        assert_eq!(limits.max_documents, 7);
        assert_eq!(
            limits.max_input_bytes,
            kubefit_core::Limits::default().max_input_bytes
        );
        assert_eq!(options.format(), Format::Text);
    }

    #[test]
    fn schedule_options_reach_the_core() {
        let options: EvaluateOptions = serde_json::from_str(
            r#"{"schedule": {"profile": "openshift-3.11", "preemption": false, "seed": 9, "maxNodeVerdicts": 5}}"#,
        )
        .unwrap();
        let core = options.to_core();
        let schedule = core.schedule;
        assert_eq!(core.profile, Some(kubefit_core::schedule::Version::Legacy));
        assert!(schedule.disable_preemption);
        assert_eq!(schedule.seed, 9);
        assert_eq!(schedule.max_node_verdicts, Some(5));
        let defaults = EvaluateOptions::default().to_core();
        assert_eq!(defaults.profile, None);
        let defaults = defaults.schedule;
        assert!(!defaults.disable_preemption);
        assert!(serde_json::from_str::<EvaluateOptions>(
            r#"{"schedule": {"profile": "kubernetes-1.99"}}"#
        )
        .is_err());
    }

    #[test]
    fn wrong_types_are_errors() {
        assert!(
            serde_json::from_str::<EvaluateOptions>(r#"{"limits": {"maxDepth": "3"}}"#).is_err()
        );
        assert!(
            serde_json::from_str::<EvaluateOptions>(r#"{"limits": {"maxDepth": -1}}"#).is_err()
        );
        assert!(serde_json::from_str::<EvaluateOptions>(r#"{"limits": 5}"#).is_err());
        assert!(serde_json::from_str::<EvaluateOptions>(r#"{"format": "yaml"}"#).is_err());
    }

    #[test]
    fn known_names_match_the_serde_names() {
        for name in OPTION_NAMES {
            let json = alloc_json(name);
            assert!(
                serde_json::from_str::<EvaluateOptions>(&json).is_ok(),
                "{json}"
            );
        }
        for name in SCHEDULE_NAMES {
            let value = if *name == "profile" {
                r#""kubernetes-1.34""#
            } else if *name == "preemption" {
                "true"
            } else {
                "1"
            };
            let json = format!(r#"{{"schedule": {{"{name}": {value}}}}}"#);
            assert!(
                serde_json::from_str::<EvaluateOptions>(&json).is_ok(),
                "{json}"
            );
        }
        for name in LIMIT_NAMES {
            let json = format!(r#"{{"limits": {{"{name}": 1}}}}"#);
            assert!(
                serde_json::from_str::<EvaluateOptions>(&json).is_ok(),
                "{json}"
            );
        }
    }

    fn alloc_json(name: &str) -> String {
        format!(r#"{{"{name}": null}}"#)
    }
}
