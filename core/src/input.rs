//! Reading untrusted text into Kubernetes objects: parse, locate, decode and validate.
//!
//! Each source is read as JSON or YAML (both with a fast path; YAML outside the block style
//! kubectl prints goes through granit-parser) into a compact tree, one object at a time:
//! the items of a `List` are decoded, validated and released as soon as they are complete,
//! so memory stays close to the size of the input and of the model. Every tree node keeps
//! its byte span, so every diagnostic points at the offending line and column.

mod decode;
mod fields;
mod json;
mod limits;
pub mod locate;
mod objects;
mod path;
mod scalar;
mod tree;
#[cfg(feature = "yaml")]
mod yaml;

use alloc::string::String;
use alloc::vec::Vec;

use crate::diagnostic::Diagnostic;

pub(crate) use json::{events as json_events, Event as JsonEvent};
pub use limits::Limits;
pub use objects::{Object, Resource};
pub use path::{FieldPath, Segment};
pub(crate) use tree::Style;
#[cfg(feature = "yaml")]
#[doc(hidden)]
pub use yaml::compare_readers as compare_yaml_readers;

/// One input text, as bytes (it must be UTF-8) with a name for diagnostics.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    /// A file name, or `input` for pasted text.
    pub name: &'a str,
    /// The text itself.
    pub bytes: &'a [u8],
}

impl<'a> Source<'a> {
    /// A source from anything that can be viewed as bytes (`&str`, `&[u8]`, `&Vec<u8>`).
    #[must_use]
    pub fn new(name: &'a str, bytes: &'a (impl AsRef<[u8]> + ?Sized)) -> Self {
        Self {
            name,
            bytes: bytes.as_ref(),
        }
    }
}

/// A place in a source: which source, and a range of byte offsets in it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    /// Index of the source in the slice given to [`crate::evaluate`].
    pub source: u32,
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset just past the last byte.
    pub end: u32,
}

/// What [`load`] read: the objects that decoded and validated, and every diagnostic.
#[derive(Debug, Default)]
pub struct Loaded {
    /// Valid objects, in input order.
    pub objects: Vec<Object>,
    /// Problems found, not yet located (see [`locate::resolve`]).
    pub diagnostics: Vec<Diagnostic>,
    /// Kinds that kubefit does not model, with how many objects of each were seen.
    pub ignored: Vec<(String, usize)>,
}

/// Reads every source into objects.
#[must_use]
pub fn load(sources: &[Source<'_>], limits: &Limits) -> Loaded {
    let mut sink = objects::Sink::default();
    for (index, source) in sources.iter().enumerate() {
        let index = u32::try_from(index).unwrap_or(u32::MAX);
        read_source(index, source, limits, &mut sink);
    }
    sink.finish()
}

/// Checks size and encoding, then hands the text to the JSON or YAML reader.
fn read_source(index: u32, source: &Source<'_>, limits: &Limits, sink: &mut objects::Sink) {
    let at = |start: usize| Span {
        source: index,
        start: u32::try_from(start).unwrap_or(u32::MAX),
        end: u32::try_from(start).unwrap_or(u32::MAX),
    };
    if source.bytes.len() > limits.max_input_bytes {
        sink.diagnostic(
            Diagnostic::error(
                "input/too-large",
                alloc::format!(
                    "input `{}` is {} bytes, more than the limit of {} bytes",
                    source.name,
                    source.bytes.len(),
                    limits.max_input_bytes
                ),
            )
            .with_help("raise `limits.maxInputBytes` to read it")
            .with_span(at(0)),
        );
        return;
    }
    let text = match core::str::from_utf8(source.bytes) {
        Ok(text) => text,
        Err(error) => {
            let utf16 =
                source.bytes.starts_with(&[0xFF, 0xFE]) || source.bytes.starts_with(&[0xFE, 0xFF]);
            let mut diagnostic = Diagnostic::error(
                "input/not-utf8",
                alloc::format!(
                    "input is not valid UTF-8 at byte offset {}",
                    error.valid_up_to()
                ),
            )
            .with_span(at(error.valid_up_to()));
            if utf16 {
                diagnostic = diagnostic.with_help("the file looks like UTF-16; save it as UTF-8");
            }
            sink.diagnostic(diagnostic);
            return;
        }
    };
    // A byte order mark is allowed at the very start, as kubectl allows it.
    let offset = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let body = text.get(offset..).unwrap_or("");
    if looks_like_json(body) {
        // Like kubectl, text that starts like JSON is read as JSON only.
        let mut reader = tree::Reader::new(index, offset, limits, sink);
        if let Err(error) = json::read(body, &mut reader) {
            sink.diagnostic(
                Diagnostic::error("json/syntax", error.message).with_span(at(offset + error.at)),
            );
        }
        return;
    }
    #[cfg(feature = "yaml")]
    yaml::read(index, offset, body, limits, sink);
    #[cfg(not(feature = "yaml"))]
    if !body.trim().is_empty() {
        sink.diagnostic(
            Diagnostic::error(
                "input/yaml-disabled",
                "YAML input needs the `yaml` feature of kubefit-core",
            )
            .with_span(at(offset)),
        );
    }
}

/// Like kubectl: a text whose first non-blank character is `{` or `[` is JSON.
fn looks_like_json(text: &str) -> bool {
    matches!(text.trim_start().as_bytes().first(), Some(b'{' | b'['))
}

/// Decodes a text that holds one JSON value, such as an annotation's, as a `T` with the
/// input's reading and typing rules; the error says what is wrong (and at which field).
pub(crate) fn decode_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    let limits = Limits::default();
    let mut sink = objects::Sink::default();
    {
        let mut reader = tree::Reader::new(0, 0, &limits, &mut sink);
        if reader.begin_document(0).is_ok() {
            json::read_value(text, &mut reader).map_err(|error| error.message)?;
            if let Some((tree, root)) = reader.finished() {
                return decode::decode(tree, root).map_err(|error| {
                    let path = error.path();
                    if path.is_root() {
                        error.message
                    } else {
                        alloc::format!("`{path}`: {}", error.message)
                    }
                });
            }
        }
    }
    // The reader refused the value, and its diagnostic says why.
    let refusal = sink.finish().diagnostics.into_iter().next();
    Err(refusal.map_or_else(
        || String::from("not a JSON value"),
        |refusal| refusal.message,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Pod;

    fn pods(text: &str) -> (Vec<Object>, Vec<Diagnostic>) {
        let loaded = load(&[Source::new("t", text)], &Limits::default());
        (loaded.objects, loaded.diagnostics)
    }

    /// A pod's labels as pairs of text, in order.
    fn labels_of(pod: &Pod) -> Vec<(&str, &str)> {
        pod.metadata
            .labels
            .iter()
            .map(|(key, value)| (key.as_str(), value.as_str()))
            .collect()
    }

    fn first_pod(text: &str) -> Pod {
        match pods(text)
            .0
            .into_iter()
            .next()
            .map(|object| object.resource)
        {
            Some(Resource::Pod(pod)) => *pod,
            other => panic!("no pod: {other:?}"),
        }
    }

    /// One JSON value, such as an annotation's, decodes with the input's rules; a problem
    /// names the field it is at.
    #[test]
    fn a_json_value_decodes_on_its_own() {
        use crate::model::Toleration;
        let decoded: Result<Vec<Toleration>, String> =
            decode_json(" [{\"key\": \"k\", \"tolerationSeconds\": 5}]\n");
        let expected = Toleration {
            key: "k".into(),
            toleration_seconds: Some(5),
            ..Toleration::default()
        };
        assert_eq!(decoded, Ok(alloc::vec![expected]));
        let problem = |text: &str| decode_json::<Vec<Toleration>>(text).err();
        assert_eq!(
            problem("{}").as_deref(),
            Some("expected a list, found a mapping")
        );
        assert_eq!(
            problem(r#"[{"effect": ["x"]}]"#).as_deref(),
            Some("`[0].effect`: expected a string, found a list")
        );
        assert_eq!(
            problem("").as_deref(),
            Some("expected a JSON value, found the end of the input")
        );
    }

    #[test]
    fn json_strings_unescape_like_go() {
        let pod = first_pod(
            r#"{"kind":"Pod","metadata":{"name":"p","annotations":{"a":"x\"\\\/\n\u00e9\ud83d\ude00\ud800"}},"spec":{"containers":[{"name":"c"}]}}"#,
        );
        assert_eq!(
            pod.metadata.annotations.get("a").map(String::as_str),
            Some("x\"\\/\né\u{1F600}\u{FFFD}")
        );
    }

    #[test]
    fn yaml_merge_keys_expand_like_go_yaml() {
        let pod = first_pod(
            "kind: Pod\nmetadata:\n  name: p\n  labels:\n    <<: [{a: '1', b: '1'}, {b: '2', c: '2'}]\n    a: '0'\nspec: {containers: [{name: c}]}\n",
        );
        let labels = labels_of(&pod);
        assert_eq!(labels, [("a", "0"), ("b", "1"), ("c", "2")]);
    }

    /// The kind is read only from a group that serves it; an object of another group is a
    /// kind kubefit does not read, named with its group.
    #[test]
    fn kinds_are_read_only_from_their_api_groups() {
        let text = "apiVersion: example.com/v1\nkind: Node\nmetadata: {name: n1}\n---\n\
                    apiVersion: cluster.x-k8s.io/v1beta1\nkind: Machine\nmetadata: {name: m1}\n---\n\
                    apiVersion: cluster.x-k8s.io/v1beta1\nkind: MachineSet\nmetadata: {name: s1}\n---\n\
                    apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: Metadata}]\n---\n\
                    apiVersion: apps/v1\nkind: Pod\nmetadata: {name: p0}\nspec: {containers: [{name: c}]}\n---\n\
                    apiVersion: v1\nkind: Node\nmetadata: {name: n2}\n---\n\
                    kind: Node\nmetadata: {name: n3}\n---\n\
                    apiVersion: machine.openshift.io/v1beta1\nkind: Machine\nmetadata: {name: m2, namespace: openshift-machine-api}\n---\n\
                    apiVersion: extensions/v1beta1\nkind: DaemonSet\nmetadata: {name: d}\nspec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c}]}}}\n";
        let loaded = load(&[Source::new("t", text)], &Limits::default());
        let read: Vec<String> = loaded
            .objects
            .iter()
            .map(|object| object.resource.id())
            .collect();
        assert_eq!(
            read,
            [
                "Node/n2",
                "Node/n3",
                "Machine/openshift-machine-api/m2",
                "DaemonSet/default/d"
            ]
        );
        assert_eq!(
            loaded.ignored,
            [
                ("Node.example.com".into(), 1),
                ("Machine.cluster.x-k8s.io".into(), 1),
                ("MachineSet.cluster.x-k8s.io".into(), 1),
                ("Policy.audit.k8s.io".into(), 1),
                ("Pod.apps".into(), 1)
            ]
        );
        assert_eq!(loaded.diagnostics, []);
    }

    /// A tag decides what a scalar is, as go-yaml v2 resolves it: `!!str` and unknown tags
    /// make a string, `!!int` and the like read the text as that type or refuse it.
    #[test]
    fn yaml_tags_resolve_like_go_yaml() {
        let pod = first_pod("kind: Pod\nmetadata:\n  name: p\n  labels: {a: !!str 4, b: !!str yes, c: !foo 4, d: ! 1.5, !!str 5: e}\nspec:\n  priority: !!int \"7\"\n  containers: [{name: c, resources: {requests: {cpu: !!float '2'}}}]\n");
        let labels = labels_of(&pod);
        assert_eq!(
            labels,
            [
                ("5", "e"),
                ("a", "4"),
                ("b", "yes"),
                ("c", "4"),
                ("d", "1.5")
            ]
        );
        assert_eq!(pod.spec.priority, Some(7));
        let cpu = pod.spec.containers[0].resources.requests.get("cpu");
        assert_eq!(cpu.map(|q| q.milli_value()), Some(2000));
        for (value, message) in [
            ("!!int abc", "cannot decode !!str `abc` as a !!int"),
            ("!!int 1.5", "cannot decode !!float `1.5` as a !!int"),
            ("!!bool '1'", "cannot decode !!int `1` as a !!bool"),
            ("!!null x", "cannot decode !!str `x` as a !!null"),
            (
                "!!float 9223372036854775808",
                "cannot decode !!int `9223372036854775808` as a !!float",
            ),
        ] {
            let (objects, diagnostics) = pods(&alloc::format!(
                "kind: Pod\nmetadata: {{name: p, labels: {{a: {value}}}}}\nspec: {{containers: [{{name: c}}]}}\n---\nkind: Pod\nmetadata: {{name: q}}\nspec: {{containers: [{{name: c}}]}}\n"
            ));
            assert_eq!(objects.len(), 1, "{value}");
            let found = diagnostics.first().map(|d| (d.code, d.message.as_str()));
            assert_eq!(found, Some(("yaml/tag-mismatch", message)), "{value}");
        }
    }

    /// A merge key sets the merged entries where it stands: keys written before it are
    /// overwritten, keys after it win, and it may repeat; a scalar cannot be merged.
    #[test]
    fn yaml_merge_keys_apply_where_they_stand() {
        let labels = |labels: &str| {
            let pod = first_pod(&alloc::format!(
                "kind: Pod\nmetadata:\n  name: p\n  labels:\n{labels}spec: {{containers: [{{name: c}}]}}\n"
            ));
            pod.metadata
                .labels
                .iter()
                .map(|(k, v)| alloc::format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(",")
        };
        assert_eq!(labels("    zone: a\n    <<: {zone: b}\n"), "zone=b");
        assert_eq!(
            labels("    <<: {zone: b, x: '1'}\n    zone: a\n    <<: {x: '2', w: '2'}\n"),
            "w=2,x=2,zone=a"
        );
        assert_eq!(
            labels(
                "    <<: [{a: '1'}, {a: '2', b: '2'}]\n    <<: {c: '3', <<: {c: '4', d: '4'}}\n"
            ),
            "a=1,b=2,c=4,d=4"
        );
        for value in ["x", "[{a: '1'}, x]", "~"] {
            let (objects, diagnostics) = pods(&alloc::format!(
                "kind: Pod\nmetadata:\n  name: p\n  labels: {{<<: {value}}}\nspec: {{containers: [{{name: c}}]}}\n"
            ));
            assert!(objects.is_empty(), "{value}");
            let message = diagnostics.first().map(|d| (d.code, d.message.as_str()));
            assert_eq!(
                message,
                Some((
                    "input/wrong-type",
                    "map merge requires map or sequence of maps as the value"
                )),
                "{value}"
            );
        }
        // A quoted `<<` is an ordinary key, so twice is a duplicate.
        let (_, diagnostics) = pods("kind: Pod\nmetadata:\n  name: p\n  labels: {'<<': a, '<<': b}\nspec: {containers: [{name: c}]}\n");
        assert_eq!(
            diagnostics.first().map(|d| d.code),
            Some("input/duplicate-key")
        );
    }

    /// A pod's container statuses are decoded only when they may change what it
    /// requests; then both lists are kept whole, `initContainerStatuses` last, with
    /// whether the resize is infeasible.
    #[test]
    fn container_statuses_are_kept_when_they_may_resize_the_pod() {
        let pod = |status: &str| {
            first_pod(&alloc::format!(
                "kind: Pod\nmetadata: {{name: p}}\nspec:\n  initContainers: [{{name: i}}, {{name: s, restartPolicy: Always, resources: {{requests: {{cpu: '1'}}}}}}]\n  containers: [{{name: c, resources: {{requests: {{cpu: 500m, memory: 1Gi}}}}}}]\nstatus:\n{status}"
            ))
        };
        let kept = |pod: &Pod| -> Vec<(String, bool)> {
            pod.status
                .container_statuses
                .as_slice()
                .iter()
                .map(|status| (status.name.clone(), status.resources.is_some()))
                .collect()
        };
        // What a 1.33+ kubelet reports of a pod as specified: nothing to keep. So for a
        // status without `resources`, for a plain init container's and for an unknown
        // container's.
        for status in [
            "  containerStatuses: [{name: c, image: x, ready: true, resources: {requests: {cpu: 500m, memory: 1Gi}, limits: {memory: 2Gi}}, allocatedResources: {cpu: 500m}}]\n",
            "  containerStatuses: [{name: c, allocatedResources: {cpu: '2'}}, {name: x, resources: {requests: {cpu: '2'}}}]\n  initContainerStatuses: [{name: i, resources: {requests: {cpu: '2'}}}, {name: s, resources: null}]\n",
            "  containerStatuses: [{name: c, resources: {}}]\n",
        ] {
            assert_eq!(kept(&pod(status)), [], "{status}");
        }
        let resized = pod("  containerStatuses: [{name: c, resources: {requests: {cpu: '2'}}}]\n  initContainerStatuses: [{name: i}, {name: s, state: {running: {}}}]\n");
        assert_eq!(
            kept(&resized),
            [("c".into(), true), ("i".into(), false), ("s".into(), false)]
        );
        for status in [
            // A sidecar's status reporting a resource its spec leaves out.
            "  initContainerStatuses: [{name: s, resources: {requests: {memory: 1Gi}}}]\n",
            "  containerStatuses: [{name: c, resources: {requests: {cpu: 500m}}, allocatedResources: {cpu: 600m}}]\n",
            "  conditions: [{type: PodResizePending, status: 'True', reason: Infeasible}]\n  containerStatuses: [{name: c, resources: {requests: {cpu: 100m}}}]\n",
            "  containerStatuses: [{name: c, resources: {<<: {requests: {cpu: 100m}}}}]\n",
        ] {
            assert_eq!(kept(&pod(status)).len(), 1, "{status}");
        }
        let infeasible =
            pod("  conditions: [{type: PodResizePending, status: 'True', reason: Infeasible}]\n");
        assert!(infeasible.status.conditions.resize_infeasible);
        // A value the quick look cannot read is decoded, and reported if wrong.
        let (objects, diagnostics) = pods("kind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}]}\nstatus:\n  containerStatuses: [{name: c, resources: {requests: {cpu: lots}}}]\n");
        assert!(objects.is_empty());
        assert_eq!(
            diagnostics.first().and_then(|d| d.path.as_deref()),
            Some("status.containerStatuses[0].resources.requests.cpu")
        );
    }

    #[test]
    fn a_syntax_error_stops_only_its_own_document() {
        let (objects, diagnostics) = pods("kind: Pod\nmetadata: {name: a\n---\nkind: Pod\nmetadata: {name: b}\nspec: {containers: [{name: c}]}\n");
        assert_eq!(objects.len(), 1);
        assert_eq!(diagnostics.len(), 1);
    }

    /// A document the reader refuses (here for a duplicate key) leaves the others of a
    /// JSON stream or YAML file in, as a stream decoder reads past it.
    #[test]
    fn a_refused_document_stops_only_itself() {
        let node = |name: &str, labels: &str| {
            alloc::format!(
                r#"{{"kind":"Node","metadata":{{"name":"{name}","labels":{{{labels}}}}},"status":{{"allocatable":{{"cpu":"4","pods":"110"}}}}}}"#
            )
        };
        let json = [
            node("n1", ""),
            node("n2", r#""a":"1","a":"2""#),
            node("n3", ""),
        ]
        .join("\n");
        let yaml = alloc::format!(
            "---\n{}",
            [
                node("n1", ""),
                node("n2", r#""a":"1","a":"2""#),
                node("n3", "")
            ]
            .join("\n---\n")
        );
        for text in [json, yaml] {
            let loaded = load(&[Source::new("t", &text)], &Limits::default());
            let names: Vec<&str> = loaded
                .objects
                .iter()
                .map(|object| object.resource.meta().name.as_str())
                .collect();
            assert_eq!(names, ["n1", "n3"], "{text}");
            let codes: Vec<&str> = loaded.diagnostics.iter().map(|d| d.code).collect();
            assert_eq!(codes, ["input/duplicate-key"], "{text}");
        }
        // A refused document that is not JSON after all is still a syntax error.
        let text = alloc::format!(
            "{}\n{{\"a\": {{\"b\": 1, \"b\": 2}} \"c\": 3}}\n{}",
            node("n1", ""),
            node("n3", "")
        );
        let loaded = load(&[Source::new("t", &text)], &Limits::default());
        let codes: Vec<&str> = loaded.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["input/duplicate-key", "json/syntax"]);
        assert_eq!(loaded.objects.len(), 1);
    }

    #[test]
    fn a_text_the_yaml_fast_path_gives_up_on_is_read_once() {
        // The first documents go through the fast path; the anchor in the last one sends
        // the whole text to granit-parser, which must not add them a second time.
        let text = "kind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c}]}\n---\n\
                    kind: Pod\nmetadata: {name: b, labels: {v: 4}}\n---\n\
                    kind: ConfigMap\nmetadata: {name: m}\n---\n\
                    kind: Pod\nmetadata: {name: &n c}\nspec: {containers: [{name: *n}]}\n";
        let loaded = load(&[Source::new("t", text)], &Limits::default());
        let names: Vec<&str> = loaded
            .objects
            .iter()
            .map(|object| object.resource.meta().name.as_str())
            .collect();
        assert_eq!(names, ["a", "c"]);
        assert_eq!(loaded.diagnostics.len(), 1, "{:?}", loaded.diagnostics);
        assert_eq!(loaded.ignored, [("ConfigMap".into(), 1)]);
    }

    #[test]
    fn quoted_and_numeric_quantities_are_the_same() {
        let pod = first_pod("kind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    resources: {requests: {cpu: 0.5, memory: '1e3'}}\n");
        let requests = &pod.spec.containers[0].resources.requests;
        assert_eq!(requests.get("cpu").map(|q| q.milli_value()), Some(500));
        assert_eq!(requests.get("memory").map(|q| q.value()), Some(1000));
    }

    fn only(text: &str) -> Result<Resource, Vec<Diagnostic>> {
        let (objects, diagnostics) = pods(text);
        match objects.into_iter().next() {
            Some(object) if diagnostics.is_empty() => Ok(object.resource),
            _ => Err(diagnostics),
        }
    }

    /// kubectl's JSON carries an integral float as an integer (`5.0` as `5`), and a null
    /// leaves an integer at zero; a fraction or a value out of range is still refused.
    #[test]
    fn integer_fields_take_integral_floats_and_null() {
        let class = |value: &str| match only(&alloc::format!(
            "kind: PriorityClass\nmetadata: {{name: pc}}\nvalue: {value}\n"
        )) {
            Ok(Resource::PriorityClass(class)) => Ok(class.value),
            other => Err(alloc::format!("{other:?}")),
        };
        assert_eq!(class("1e3"), Ok(1000));
        assert_eq!(class("3.0"), Ok(3));
        assert_eq!(class("-2.0e2"), Ok(-200));
        assert_eq!(class("~"), Ok(0));
        assert!(class("5.5").is_err_and(|e| e.contains("input/wrong-type")));
        assert!(class("1e20").is_err_and(|e| e.contains("input/out-of-range")));
        assert!(class(".inf").is_err_and(|e| e.contains("input/wrong-type")));
        let json = only(r#"{"kind":"PriorityClass","metadata":{"name":"pc"},"value":null}"#);
        assert!(matches!(json, Ok(Resource::PriorityClass(class)) if class.value == 0));
        let pod = first_pod("kind: Pod\nmetadata: {name: p}\nspec:\n  affinity:\n    nodeAffinity:\n      preferredDuringSchedulingIgnoredDuringExecution:\n      - weight: 5.0\n        preference: {matchExpressions: [{key: a, operator: Exists}]}\n  containers: [{name: c}]\n");
        let weight = pod
            .spec
            .affinity
            .and_then(|affinity| affinity.node_affinity)
            .and_then(|node| {
                node.preferred_during_scheduling_ignored_during_execution
                    .first()
                    .map(|term| term.weight)
            });
        assert_eq!(weight, Some(5));
        let budget = |value: &str| {
            match only(&alloc::format!(
            "kind: PodDisruptionBudget\nmetadata: {{name: b}}\nspec: {{minAvailable: {value}, selector: {{matchLabels: {{a: b}}}}}}\n"
        )) {
            Ok(Resource::PodDisruptionBudget(budget)) => Ok(budget.spec.min_available),
            other => Err(alloc::format!("{other:?}")),
        }
        };
        assert_eq!(budget("1.0"), Ok(Some(crate::model::IntOrString::Int(1))));
        assert!(budget("1.5").is_err_and(|e| e.contains("input/wrong-type")));
    }

    /// An unquoted float quantity is the float64 go-yaml reads, written back as Go does.
    #[test]
    fn unquoted_float_quantities_are_yaml_numbers() {
        let pod = first_pod("kind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    resources: {requests: {cpu: 0.1000000000000000001, memory: 1e3, ephemeral-storage: 1_0.5}}\n");
        let requests = &pod.spec.containers[0].resources.requests;
        assert_eq!(requests.get("cpu").map(|q| q.milli_value()), Some(100));
        let memory = requests
            .get("memory")
            .map(alloc::string::ToString::to_string);
        assert_eq!(memory.as_deref(), Some("1k"));
        assert_eq!(
            requests.get("ephemeral-storage").map(|q| q.milli_value()),
            Some(10_500)
        );
    }

    /// An unquoted integer quantity is the number YAML 1.1 reads, as kubectl's JSON
    /// carries it: a leading zero makes it octal (`0755` is 493); quoted, it is text.
    #[test]
    fn unquoted_integer_quantities_are_yaml_numbers() {
        let pod = first_pod("kind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    resources: {requests: {cpu: 010, memory: 0755, ephemeral-storage: '010'}}\n");
        let requests = &pod.spec.containers[0].resources.requests;
        assert_eq!(requests.get("cpu").map(|q| q.value()), Some(8));
        assert_eq!(requests.get("memory").map(|q| q.value()), Some(493));
        assert_eq!(
            requests.get("ephemeral-storage").map(|q| q.value()),
            Some(10)
        );
    }

    #[test]
    fn yaml_1_1_keys_become_strings_like_kubectl() {
        let pod = first_pod("kind: Pod\nmetadata:\n  name: p\n  annotations: {y: 'x', 4: 'z'}\nspec: {containers: [{name: c}]}\n");
        let keys: Vec<&str> = pod
            .metadata
            .annotations
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["4", "true"]);
    }

    fn names_and_codes(text: &str) -> (Vec<String>, Vec<(&'static str, u32)>) {
        let loaded = load(&[Source::new("t", text)], &Limits::default());
        let names = loaded
            .objects
            .iter()
            .map(|object| object.resource.meta().name.clone())
            .collect();
        let codes = loaded
            .diagnostics
            .iter()
            .map(|d| (d.code, d.span.map_or(0, |span| span.start)))
            .collect();
        (names, codes)
    }

    const NODE: &str =
        "kind: Node\nmetadata: {name: NAME}\nstatus: {allocatable: {cpu: '4', pods: '110'}}\n";

    fn node(name: &str) -> String {
        NODE.replace("NAME", name)
    }

    /// kubectl cuts a file at `---` lines only, and go-yaml decodes the first document of
    /// each part: what follows a `...` before the next `---` is ignored, with a warning.
    #[test]
    fn a_document_after_an_end_marker_without_a_separator_is_ignored() {
        let text = alloc::format!("{}...\n{}---\n{}", node("a"), node("b"), node("c"));
        let (names, codes) = names_and_codes(&text);
        assert_eq!(names, ["a", "c"]);
        let at = u32::try_from(node("a").len() + 4).unwrap_or_default();
        assert_eq!(codes, [("yaml/ignored-document", at)]);
        // So is every document after the first in a text with only `\r` breaks, which
        // Go's line reader sees as one line.
        let text = alloc::format!("{}---\n{}", node("a"), node("b")).replace('\n', "\r");
        let (names, codes) = names_and_codes(&text);
        assert_eq!(names, ["a"]);
        assert_eq!(
            codes.first().map(|code| code.0),
            Some("yaml/ignored-document")
        );
        // A `...` before a `---` changes nothing, nor does a directive after it (go-yaml
        // does not read past the first document).
        for between in ["# c\n", "%YAML 1.1\n"] {
            let text = alloc::format!("{}...\n{between}---\n{}", node("a"), node("b"));
            assert_eq!(
                names_and_codes(&text),
                (alloc::vec!["a".into(), "b".into()], alloc::vec![]),
                "{text}"
            );
        }
    }

    /// go-yaml skips a byte order mark at the start of each part kubectl gives it.
    #[test]
    fn a_byte_order_mark_may_start_every_document() {
        let text = alloc::format!("\u{feff}{}---\n\u{feff}{}", node("a"), node("b"));
        assert_eq!(
            names_and_codes(&text),
            (alloc::vec!["a".into(), "b".into()], alloc::vec![])
        );
    }

    /// A `---` line with more than a comment after it makes kubectl fail ("invalid Yaml
    /// document separator"), even inside a quoted scalar, and so does a directive (the
    /// part it is in has no `---`): an error at the place, and the part is not read.
    #[test]
    fn separator_lines_with_content_and_directives_are_errors() {
        let flow = "{kind: Node, metadata: {name: b}, status: {allocatable: {pods: '1'}}}";
        for (text, names, code, at) in [
            (
                alloc::format!("{}--- {flow}\n---\n{}", node("a"), node("c")),
                &["a", "c"][..],
                "yaml/invalid-separator",
                node("a").len() + 4,
            ),
            (
                alloc::format!("{}--- !!map\n{}---\n{}", node("a"), node("b"), node("c")),
                &["a", "c"],
                "yaml/invalid-separator",
                node("a").len() + 4,
            ),
            (
                alloc::format!("{}---text\n{}", node("a"), node("b")),
                &["a"],
                "yaml/invalid-separator",
                node("a").len() + 3,
            ),
            (
                alloc::format!("%YAML 1.1\n---\n{}", node("a")),
                &["a"],
                "yaml/directive",
                0,
            ),
        ] {
            let (read, codes) = names_and_codes(&text);
            assert_eq!(read, names, "{text}");
            assert_eq!(
                codes,
                [(code, u32::try_from(at).unwrap_or_default())],
                "{text}"
            );
        }
        // A comment after `---` is fine.
        let text = alloc::format!("{}--- # c\n{}", node("a"), node("b"));
        assert_eq!(names_and_codes(&text).1, []);
    }

    /// sigs.k8s.io/yaml writes a float key as Go formats a float32 (`1.0` is "1").
    #[test]
    fn yaml_float_keys_become_strings_like_kubectl() {
        let pod = first_pod("kind: Pod\nmetadata:\n  name: p\n  labels: {1.0: a, .5: b, 1e3: c, 3.14159265: d}\nspec: {containers: [{name: c}]}\n");
        assert_eq!(
            labels_of(&pod),
            [("0.5", "b"), ("1", "a"), ("1000", "c"), ("3.1415927", "d")]
        );
    }

    /// A null key has no JSON spelling: kubectl refuses the document.
    #[test]
    fn yaml_null_keys_refuse_the_document() {
        for key in ["~", "null", "''"] {
            let key = if key == "''" { "" } else { key };
            let (objects, diagnostics) = pods(&alloc::format!(
                "kind: Pod\nmetadata: {{name: p}}\nspec:\n  nodeSelector:\n    {key}: x\n  containers: [{{name: c}}]\n"
            ));
            assert!(objects.is_empty(), "{key}");
            let codes: Vec<&str> = diagnostics.iter().map(|d| d.code).collect();
            assert_eq!(codes, ["yaml/unsupported-key"], "{key}");
        }
        // Quoted, it is the string "null".
        let pod = first_pod("kind: Pod\nmetadata: {name: p, labels: {'null': x}}\nspec: {containers: [{name: c}]}\n");
        assert_eq!(labels_of(&pod), [("null", "x")]);
    }

    /// go-yaml merges at a `<<` tagged `!!merge` as at a plain one.
    #[test]
    fn a_tagged_merge_key_merges() {
        let pod = first_pod("kind: Pod\nmetadata:\n  name: p\n  labels:\n    !!merge <<: {a: '1'}\n    b: '2'\nspec: {containers: [{name: c}]}\n");
        assert_eq!(labels_of(&pod), [("a", "1"), ("b", "2")]);
    }

    /// `._5` is a string to go-yaml (strconv rejects the underscore), so no quantity.
    #[test]
    fn a_dot_scalar_with_a_stray_underscore_is_no_quantity() {
        let text = "kind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    resources: {requests: {cpu: ._5}}\n";
        let (objects, diagnostics) = pods(text);
        assert!(objects.is_empty());
        assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
        let pod = first_pod(&text.replace("._5", ".5_0"));
        let cpu = pod
            .spec
            .containers
            .first()
            .map(|c| c.resources.requests.len());
        assert_eq!(cpu, Some(1));
    }
}
