//! Keys no field reads, in a Scenario and in a KubeSchedulerConfiguration: a misspelt key
//! would otherwise be dropped in silence.
//!
//! Kubernetes objects keep the fields kubefit does not model (a `kubectl get -o yaml`
//! dump carries many), but every field of kubefit's own `Scenario` is known: a key none
//! reads is a warning at the key (`scenario/unknown-field`), with the nearest known name
//! as help. The step still runs, without it. Example: `drain: {node: n1, forse: true}`
//! warns `unknown field `forse`, ignored` with help `did you mean `force`?`.
//!
//! kube-scheduler decodes its configuration strictly (`apis/config/scheme/scheme.go`
//! builds its codecs with `EnableStrict`), the arguments of its in-tree plugins too
//! (`decodeNestedObjects` in `apis/config/v1`): an unknown or miscased key stops it from
//! starting (`strict decoding error: unknown field "…"`). Such a key is an error
//! (`scheduler-config/unknown-field`), and the configuration is then invalid. The keys
//! known are upstream's (`k8s.io/kube-scheduler/config/v1`), including the ones kubefit
//! does not read; the Kubernetes API types inside (a spread constraint, a node selector)
//! are not looked into.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::de::{self, DeserializeOwned, Deserializer, Visitor};

use super::path::FieldPath;
use super::tree::{NodeId, Tree};
use crate::diagnostic::Diagnostic;
use crate::model::{
    DrainFields, NodeConditionStep, RemoveHookStep, ScaleMachineSetStep, ScenarioSpec, Step,
    TaintFields,
};

/// A warning for each unknown key of the Scenario at `root` (at its top, in its `spec`, in
/// each step and in each step's action written as fields), at the key.
pub(crate) fn scenario(tree: &Tree<'_>, root: NodeId) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let top = FieldPath::root();
    check(
        tree,
        root,
        &top,
        &["apiVersion", "kind", "metadata", "spec"],
        false,
        &mut found,
    );
    let Some(spec) = tree.get(root, "spec") else {
        return found;
    };
    let spec_path = top.field("spec");
    check(
        tree,
        spec,
        &spec_path,
        fields_of::<ScenarioSpec>(),
        false,
        &mut found,
    );
    let Some(steps) = tree.get(spec, "steps") else {
        return found;
    };
    let steps_path = spec_path.field("steps");
    for (index, &step) in tree.elements(steps).iter().enumerate() {
        let step_path = steps_path.index(index);
        check(
            tree,
            step,
            &step_path,
            fields_of::<Step>(),
            false,
            &mut found,
        );
        for (key, value) in tree.entries(step) {
            let Some(name) = tree.text(key) else {
                continue;
            };
            // Only the map forms: `drain: node1` and `cordon: node1` have no keys.
            if tree.entries(value).next().is_none() {
                continue;
            }
            if let Some(fields) = action_fields(name) {
                check(
                    tree,
                    value,
                    &step_path.field(name),
                    fields,
                    false,
                    &mut found,
                );
            }
        }
    }
    found
}

/// The fields an action written as a map reads.
fn action_fields(action: &str) -> Option<&'static [&'static str]> {
    Some(match action {
        "taint" | "untaint" => fields_of::<TaintFields>(),
        "drain" => fields_of::<DrainFields>(),
        "nodeCondition" => fields_of::<NodeConditionStep>(),
        "removeHook" => fields_of::<RemoveHookStep>(),
        "scaleMachineSet" => fields_of::<ScaleMachineSetStep>(),
        // `deschedule: {}` reads nothing.
        "deschedule" => &[],
        _ => return None,
    })
}

/// What a key of a strictly decoded configuration holds.
#[derive(Clone, Copy)]
enum Shape {
    /// Not looked into: a scalar, or a type kubefit does not check.
    Any,
    /// A map with these keys.
    Map(Keys),
    /// A list of maps with these keys.
    List(Keys),
    /// A `pluginConfig` entry's `args`: the keys of the arguments type of the plugin the
    /// entry names, when it is an in-tree one kubefit knows.
    Args,
}

/// The keys of a map, each with what its value holds.
type Keys = &'static [(&'static str, Shape)];

/// `KubeSchedulerConfiguration` (with `TypeMeta` and the inlined
/// `DebuggingConfiguration`; no `metadata`).
const CONFIGURATION: Keys = &[
    ("apiVersion", Shape::Any),
    ("kind", Shape::Any),
    ("parallelism", Shape::Any),
    ("leaderElection", Shape::Any),
    ("clientConnection", Shape::Any),
    ("enableProfiling", Shape::Any),
    ("enableContentionProfiling", Shape::Any),
    ("percentageOfNodesToScore", Shape::Any),
    ("podInitialBackoffSeconds", Shape::Any),
    ("podMaxBackoffSeconds", Shape::Any),
    ("profiles", Shape::List(PROFILE)),
    ("extenders", Shape::Any),
    ("delayCacheUntilActive", Shape::Any),
];
const PROFILE: Keys = &[
    ("schedulerName", Shape::Any),
    ("percentageOfNodesToScore", Shape::Any),
    ("plugins", Shape::Map(PLUGINS)),
    ("pluginConfig", Shape::List(PLUGIN_CONFIG)),
];
const PLUGINS: Keys = &[
    ("preEnqueue", Shape::Map(PLUGIN_SET)),
    ("queueSort", Shape::Map(PLUGIN_SET)),
    ("preFilter", Shape::Map(PLUGIN_SET)),
    ("filter", Shape::Map(PLUGIN_SET)),
    ("postFilter", Shape::Map(PLUGIN_SET)),
    ("preScore", Shape::Map(PLUGIN_SET)),
    ("score", Shape::Map(PLUGIN_SET)),
    ("reserve", Shape::Map(PLUGIN_SET)),
    ("permit", Shape::Map(PLUGIN_SET)),
    ("preBind", Shape::Map(PLUGIN_SET)),
    ("bind", Shape::Map(PLUGIN_SET)),
    ("postBind", Shape::Map(PLUGIN_SET)),
    ("multiPoint", Shape::Map(PLUGIN_SET)),
];
const PLUGIN_SET: Keys = &[
    ("enabled", Shape::List(NAME_WEIGHT)),
    ("disabled", Shape::List(NAME_WEIGHT)),
];
/// `Plugin` and `ResourceSpec` alike.
const NAME_WEIGHT: Keys = &[("name", Shape::Any), ("weight", Shape::Any)];
const PLUGIN_CONFIG: Keys = &[("name", Shape::Any), ("args", Shape::Args)];
const SHAPE_POINT: Keys = &[("utilization", Shape::Any), ("score", Shape::Any)];
const SCORING_STRATEGY: Keys = &[
    ("type", Shape::Any),
    ("resources", Shape::List(NAME_WEIGHT)),
    (
        "requestedToCapacityRatio",
        Shape::Map(&[("shape", Shape::List(SHAPE_POINT))]),
    ),
];

/// The keys of the arguments of the in-tree plugin `plugin` (`types_pluginargs.go`),
/// each type's `apiVersion` and `kind` included; `None` for the plugins whose arguments
/// kubefit does not know.
fn plugin_args(plugin: &str) -> Option<Keys> {
    Some(match plugin {
        "NodeResourcesFit" => &[
            ("apiVersion", Shape::Any),
            ("kind", Shape::Any),
            ("ignoredResources", Shape::Any),
            ("ignoredResourceGroups", Shape::Any),
            ("scoringStrategy", Shape::Map(SCORING_STRATEGY)),
        ],
        "NodeResourcesBalancedAllocation" => &[
            ("apiVersion", Shape::Any),
            ("kind", Shape::Any),
            ("resources", Shape::List(NAME_WEIGHT)),
        ],
        "PodTopologySpread" => &[
            ("apiVersion", Shape::Any),
            ("kind", Shape::Any),
            ("defaultConstraints", Shape::Any),
            ("defaultingType", Shape::Any),
        ],
        "InterPodAffinity" => &[
            ("apiVersion", Shape::Any),
            ("kind", Shape::Any),
            ("hardPodAffinityWeight", Shape::Any),
            ("ignorePreferredTermsOfExistingPods", Shape::Any),
        ],
        "NodeAffinity" => &[
            ("apiVersion", Shape::Any),
            ("kind", Shape::Any),
            ("addedAffinity", Shape::Any),
        ],
        "DefaultPreemption" => &[
            ("apiVersion", Shape::Any),
            ("kind", Shape::Any),
            ("minCandidateNodesPercentage", Shape::Any),
            ("minCandidateNodesAbsolute", Shape::Any),
        ],
        "VolumeBinding" => &[
            ("apiVersion", Shape::Any),
            ("kind", Shape::Any),
            ("bindTimeoutSeconds", Shape::Any),
            ("shape", Shape::List(SHAPE_POINT)),
        ],
        _ => return None,
    })
}

/// An error for each key of the KubeSchedulerConfiguration at `root` that upstream's
/// strict decoding refuses, at the key.
pub(crate) fn scheduler_configuration(tree: &Tree<'_>, root: NodeId) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    strict(tree, root, &FieldPath::root(), CONFIGURATION, &mut found);
    found
}

/// Checks the map `map` (at `path`) against `keys`, then what its known keys hold.
fn strict(tree: &Tree<'_>, map: NodeId, path: &FieldPath, keys: Keys, found: &mut Vec<Diagnostic>) {
    let known: Vec<&str> = keys.iter().map(|(name, _)| *name).collect();
    check(tree, map, path, &known, true, found);
    for (key, value) in tree.entries(map) {
        let Some(name) = tree.text(key) else {
            continue;
        };
        let Some(&(_, shape)) = keys.iter().find(|(known, _)| *known == name) else {
            continue;
        };
        let path = path.field(name);
        match shape {
            Shape::Any => {}
            Shape::Map(keys) => strict(tree, value, &path, keys, found),
            Shape::List(keys) => {
                for (index, &element) in tree.elements(value).iter().enumerate() {
                    strict(tree, element, &path.index(index), keys, found);
                }
            }
            Shape::Args => {
                if let Some(keys) = tree.str_at(map, &["name"]).and_then(plugin_args) {
                    strict(tree, value, &path, keys, found);
                }
            }
        }
    }
}

/// Adds the keys of the map `map` (at `path`) that are not among `known`: errors where
/// the configuration is decoded `strict`ly, warnings otherwise. YAML merge keys (`<<`)
/// bring other maps' entries and are passed over.
fn check(
    tree: &Tree<'_>,
    map: NodeId,
    path: &FieldPath,
    known: &[&str],
    strict: bool,
    found: &mut Vec<Diagnostic>,
) {
    for (key, _) in tree.entries(map) {
        let Some(name) = tree.text(key) else {
            continue;
        };
        if name == "<<" || known.contains(&name) {
            continue;
        }
        let mut diagnostic = if strict {
            Diagnostic::error(
                "scheduler-config/unknown-field",
                alloc::format!("unknown field `{name}`: the scheduler does not start"),
            )
        } else {
            Diagnostic::warning(
                "scenario/unknown-field",
                alloc::format!("unknown field `{name}`, ignored"),
            )
        };
        if let Some(near) = nearest(name, known) {
            diagnostic = diagnostic.with_help(alloc::format!("did you mean `{near}`?"));
        }
        found.push(
            diagnostic
                .with_path(path.key(name).to_string())
                .with_span(tree.span(key)),
        );
    }
}

/// The known name closest to `name` (case aside), if within two edits.
fn nearest<'k>(name: &str, known: &[&'k str]) -> Option<&'k str> {
    known
        .iter()
        .map(|candidate| (distance(name, candidate), *candidate))
        .filter(|(edits, _)| *edits <= 2)
        .min_by_key(|(edits, _)| *edits)
        .map(|(_, candidate)| candidate)
}

/// Levenshtein distance between two names, ASCII case ignored.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<u8> = a.bytes().map(|byte| byte.to_ascii_lowercase()).collect();
    let b: Vec<u8> = b.bytes().map(|byte| byte.to_ascii_lowercase()).collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, &left) in a.iter().enumerate() {
        let mut current = Vec::with_capacity(previous.len());
        current.push(i.saturating_add(1));
        for (j, &right) in b.iter().enumerate() {
            let substitute = previous.get(j).map_or(usize::MAX, |&d| {
                d.saturating_add(usize::from(left != right))
            });
            let delete = previous
                .get(j.saturating_add(1))
                .map_or(usize::MAX, |&d| d.saturating_add(1));
            let insert = current.last().map_or(usize::MAX, |&d| d.saturating_add(1));
            current.push(substitute.min(delete).min(insert));
        }
        previous = current;
    }
    previous.last().copied().unwrap_or(0)
}

/// The names a struct's derived `Deserialize` reads, aliases included: serde hands them
/// to `deserialize_struct`, which this deserializer catches before refusing to go on.
fn fields_of<T: DeserializeOwned>() -> &'static [&'static str] {
    let mut fields: &'static [&'static str] = &[];
    // The refusal is the point: only the names were wanted.
    let _ = T::deserialize(FieldNames(&mut fields));
    fields
}

struct FieldNames<'a>(&'a mut &'static [&'static str]);

impl<'de> Deserializer<'de> for FieldNames<'_> {
    type Error = de::value::Error;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = fields;
        Err(de::Error::custom(String::from(
            "only the field names are read",
        )))
    }

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom(String::from("not a struct")))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_names_come_from_serde_aliases_included() {
        let drain = fields_of::<DrainFields>();
        for name in [
            "node",
            "ignoreDaemonSets",
            "deleteEmptydirData",
            "deleteLocalData",
            "force",
        ] {
            assert!(drain.contains(&name), "{name} in {drain:?}");
        }
        assert!(fields_of::<Step>().contains(&"nodeCondition"));
    }

    /// Upstream decodes the configuration and its in-tree plugins' args strictly: every
    /// unknown or miscased key is an error and the configuration is not kept; the args
    /// of a plugin kubefit does not know are not looked into.
    #[test]
    fn a_scheduler_configuration_is_decoded_strictly() {
        let yaml = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nleaderElection: {leaderElect: false}\nprofiles:\n- schedulerName: default-scheduler\n  plugins:\n    Filter: {}\n    score: {enabled: [{name: ImageLocality, wieght: 2}]}\n  pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: RequestedToCapacityRatio\n        requestedToCapacityRatio: {shape: [{utilization: 0, Score: 0}]}\n      resources: []\n  - name: Custom\n    args: {anything: 1}\n";
        let sources = [crate::Source::new("config.yaml", yaml)];
        let loaded = crate::input::load(&sources, &crate::Limits::default());
        assert!(loaded.objects.is_empty());
        let found: Vec<(&str, Option<&str>)> = loaded
            .diagnostics
            .iter()
            .map(|d| (d.code, d.path.as_deref()))
            .collect();
        assert_eq!(
            found,
            [
                ("scheduler-config/unknown-field", Some("profiles[0].plugins.Filter")),
                (
                    "scheduler-config/unknown-field",
                    Some("profiles[0].plugins.score.enabled[0].wieght")
                ),
                (
                    "scheduler-config/unknown-field",
                    Some("profiles[0].pluginConfig[0].args.resources")
                ),
                (
                    "scheduler-config/unknown-field",
                    Some("profiles[0].pluginConfig[0].args.scoringStrategy.requestedToCapacityRatio.shape[0].Score")
                ),
            ]
        );
        assert!(loaded.diagnostics.iter().all(Diagnostic::is_error));
    }

    #[test]
    fn the_nearest_name_is_suggested() {
        let known = fields_of::<DrainFields>();
        assert_eq!(nearest("forse", known), Some("force"));
        assert_eq!(nearest("IgnoreDaemonsets", known), Some("ignoreDaemonSets"));
        assert_eq!(nearest("colour", known), None);
        assert_eq!(distance("kitten", "sitting"), 3);
    }
}
