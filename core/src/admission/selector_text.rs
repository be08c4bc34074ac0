//! Node selectors written as text (`region=west,env=test`), as namespace annotations and
//! admission configuration hold them.
//!
//! Follows `labels.ConvertSelectorToLabelsMap` in apimachinery 1.11 (what PodNodeSelector
//! reads) and OpenShift's `pkg/util/labelselector.Parse` (what OriginPodNodeEnvironment
//! reads). The two accept the same selectors: comma-separated `key=value` pairs, spaces
//! around keys and values ignored, a valid label key and value on each side, an empty
//! text meaning no selector. Written by hand because the grammar is this small.

use alloc::string::{String, ToString};

use crate::model::StringMap;
use crate::validation::names;

/// Parses a selector; on error, says which part is wrong.
///
/// # Errors
/// A pair without exactly one `=`, or an invalid label key or value.
pub fn parse(text: &str) -> Result<StringMap, String> {
    let mut selector = StringMap::new();
    if text.trim().is_empty() {
        return Ok(selector);
    }
    for pair in text.split(',') {
        let mut sides = pair.split('=');
        let (Some(key), Some(value), None) = (sides.next(), sides.next(), sides.next()) else {
            return Err(alloc::format!(
                "`{}` is not a `key=value` pair",
                pair.trim()
            ));
        };
        let (key, value) = (key.trim(), value.trim());
        if let Some(problem) = names::qualified_name(key).first() {
            return Err(alloc::format!("label key `{key}`: {problem}"));
        }
        if let Some(problem) = names::label_value(value).first() {
            return Err(alloc::format!("label value `{value}`: {problem}"));
        }
        selector.insert(key.to_string(), value.to_string());
    }
    Ok(selector)
}

/// `labels.Conflicts`: some key is in both with different values.
#[must_use]
pub fn conflicts(a: &StringMap, b: &StringMap) -> bool {
    a.iter()
        .any(|(key, value)| b.get(key).is_some_and(|other| other != value))
}

/// `labels.Merge`: the union, where `pod`'s values win.
#[must_use]
pub fn merge(base: &StringMap, pod: &StringMap) -> StringMap {
    let mut merged = base.clone();
    merged.extend(pod.iter().map(|(key, value)| (key.clone(), value.clone())));
    merged
}

/// A selector from pairs, for tests.
#[cfg(test)]
pub(crate) fn map(pairs: &[(&str, &str)]) -> StringMap {
    pairs
        .iter()
        .map(|(key, value)| ((*key).to_string(), (*value).to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_chapter_selectors() {
        assert_eq!(
            parse("env=test,infra=fedora"),
            Ok(map(&[("env", "test"), ("infra", "fedora")]))
        );
        assert_eq!(
            parse("region=west, env = test"),
            Ok(map(&[("region", "west"), ("env", "test")]))
        );
        assert_eq!(parse(""), Ok(StringMap::new()));
        assert_eq!(parse("k3="), Ok(map(&[("k3", "")])));
    }

    #[test]
    fn rejects_what_upstream_rejects() {
        for text in ["a", "a==b", "a=b,", "a b=c", "a=b c", "-a=b", "a=b=c"] {
            assert!(parse(text).is_err(), "{text}");
        }
    }

    /// `TestConflicts` / `TestMerge` cases from origin's `labelselector_test.go`.
    #[test]
    fn conflicts_and_merge() {
        let project = map(&[("env", "test"), ("infra", "fedora")]);
        assert!(!conflicts(
            &project,
            &map(&[("env", "test"), ("os", "fedora")])
        ));
        assert!(conflicts(&project, &map(&[("env", "production")])));
        assert!(!conflicts(&StringMap::new(), &project));
        assert_eq!(
            merge(&project, &map(&[("env", "test"), ("os", "fedora")])),
            map(&[("env", "test"), ("infra", "fedora"), ("os", "fedora")])
        );
    }
}
