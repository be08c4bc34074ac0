//! The example gallery: one file per example in `web/examples/`, built into the app.
//!
//! A file opens with a comment: its first line is the title, the following comment lines
//! the description. The file name, without its numeric ordering prefix, names the
//! document the example opens as. `build.rs` lists the files.

/// One example cluster.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Example {
    file: &'static str,
    text: &'static str,
}

/// Every example, in file-name order; the first is the one the playground opens with.
pub const EXAMPLES: &[Example] = include!(concat!(env!("OUT_DIR"), "/examples.rs"));

impl Example {
    const fn new(file: &'static str, text: &'static str) -> Self {
        Self { file, text }
    }

    /// The example the playground opens with.
    #[must_use]
    pub fn first() -> Self {
        EXAMPLES[0]
    }

    /// The example with this [`Example::name`].
    #[must_use]
    pub fn named(name: &str) -> Option<Self> {
        EXAMPLES
            .iter()
            .copied()
            .find(|example| example.name() == name)
    }

    /// The document name: the file name without its ordering prefix (`01-`).
    #[must_use]
    pub fn name(&self) -> &'static str {
        let unprefixed = self.file.trim_start_matches(|c: char| c.is_ascii_digit());
        unprefixed.strip_prefix('-').unwrap_or(unprefixed)
    }

    /// The cluster, with its header comment.
    #[must_use]
    pub fn text(&self) -> &'static str {
        self.text
    }

    /// The first line of the header comment.
    #[must_use]
    pub fn title(&self) -> &'static str {
        self.header().next().unwrap_or(self.name())
    }

    /// The rest of the header comment, as one paragraph.
    #[must_use]
    pub fn description(&self) -> String {
        self.header().skip(1).collect::<Vec<_>>().join(" ")
    }

    fn header(&self) -> impl Iterator<Item = &'static str> {
        self.text
            .lines()
            .map_while(|line| line.strip_prefix('#'))
            .map(str::trim)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kubefit_core::{evaluate, Options, Source};

    #[test]
    fn every_example_has_a_title_a_description_and_a_unique_name() {
        assert!(EXAMPLES.len() >= 9, "{}", EXAMPLES.len());
        let mut names = std::collections::BTreeSet::new();
        for example in EXAMPLES {
            assert!(!example.title().is_empty(), "{}", example.file);
            assert!(!example.description().is_empty(), "{}", example.file);
            assert!(names.insert(example.name()), "{}", example.name());
            assert_eq!(Example::named(example.name()), Some(*example));
        }
        assert_eq!(Example::first().name(), "mixed-cluster.yaml");
        assert_eq!(Example::first().title(), "Small mixed cluster");
    }

    #[test]
    fn every_example_evaluates_without_errors() {
        for example in EXAMPLES {
            let report = evaluate(
                &[Source::new(example.name(), example.text())],
                &Options::default(),
            );
            assert!(
                !report.has_errors(),
                "{}: {:?}",
                example.name(),
                report.diagnostics
            );
            assert!(!report.nodes.is_empty(), "{}", example.name());
            assert!(!report.pods.is_empty(), "{}", example.name());
        }
    }

    #[test]
    fn the_gallery_holds_the_documented_scenarios() {
        for name in [
            "mixed-cluster.yaml",
            "kubectl-list-dump.yaml",
            "taints-three.yaml",
            "node-affinity-matching.yaml",
            "node-affinity-no-match.yaml",
            "pod-affinity.yaml",
            "pod-anti-affinity.yaml",
            "pod-affinity-no-match.yaml",
            "autoscaler-core-limit.yaml",
        ] {
            assert!(Example::named(name).is_some(), "{name}");
        }
        let dump = Example::named("kubectl-list-dump.yaml").expect("the dump");
        assert!(dump.text().contains("\nkind: List\n"));
    }
}
