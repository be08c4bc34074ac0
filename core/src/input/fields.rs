//! Keys in a Scenario that no field reads: a misspelt step flag would otherwise be dropped
//! in silence.
//!
//! Kubernetes objects keep the fields kubefit does not model (a `kubectl get -o yaml`
//! dump carries many), but every field of kubefit's own `Scenario` is known: a key none
//! reads is a warning at the key (`scenario/unknown-field`), with the nearest known name
//! as help. The step still runs, without it. Example: `drain: {node: n1, forse: true}`
//! warns `unknown field `forse`, ignored` with help `did you mean `force`?`.

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
        &mut found,
    );
    let Some(steps) = tree.get(spec, "steps") else {
        return found;
    };
    let steps_path = spec_path.field("steps");
    for (index, &step) in tree.elements(steps).iter().enumerate() {
        let step_path = steps_path.index(index);
        check(tree, step, &step_path, fields_of::<Step>(), &mut found);
        for (key, value) in tree.entries(step) {
            let Some(name) = tree.text(key) else {
                continue;
            };
            // Only the map forms: `drain: node1` and `cordon: node1` have no keys.
            if tree.entries(value).next().is_none() {
                continue;
            }
            if let Some(fields) = action_fields(name) {
                check(tree, value, &step_path.field(name), fields, &mut found);
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

/// Adds the keys of the map `map` (at `path`) that are not among `known`. YAML merge keys
/// (`<<`) bring other maps' entries and are passed over.
fn check(
    tree: &Tree<'_>,
    map: NodeId,
    path: &FieldPath,
    known: &[&str],
    found: &mut Vec<Diagnostic>,
) {
    for (key, _) in tree.entries(map) {
        let Some(name) = tree.text(key) else {
            continue;
        };
        if name == "<<" || known.contains(&name) {
            continue;
        }
        let mut diagnostic = Diagnostic::warning(
            "scenario/unknown-field",
            alloc::format!("unknown field `{name}`, ignored"),
        );
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

    #[test]
    fn the_nearest_name_is_suggested() {
        let known = fields_of::<DrainFields>();
        assert_eq!(nearest("forse", known), Some("force"));
        assert_eq!(nearest("IgnoreDaemonsets", known), Some("ignoreDaemonSets"));
        assert_eq!(nearest("colour", known), None);
        assert_eq!(distance("kitten", "sitting"), 3);
    }
}
