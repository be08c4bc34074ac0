//! The `FailedScheduling` event text: `0/N nodes are available: <counted reasons>.`
//!
//! Follows `pkg/scheduler/core/generic_scheduler.go` (1.11, `FitError.Error`) and
//! `pkg/scheduler/framework/types.go` (1.34, `FitError.Error`): every reason of every
//! node is counted, each entry is rendered `"<count> <reason>"`, and the entries are
//! sorted as plain strings (so `"10 …"` sorts before `"2 …"`), joined with `", "`.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

/// A reason as the histogram counts it: once (`&str`), or already counted
/// (`(&str, count)`, as the equivalence cache keeps them).
pub trait Counted<'r> {
    /// The reason and how many times it counts.
    fn counted(self) -> (&'r str, usize);
}

impl<'r> Counted<'r> for &'r str {
    fn counted(self) -> (&'r str, usize) {
        (self, 1)
    }
}

impl<'r> Counted<'r> for (&'r str, usize) {
    fn counted(self) -> (&'r str, usize) {
        self
    }
}

/// The sorted histogram `"<count> <reason>"` of the reasons of every failed node.
#[must_use]
pub fn histogram<'r, R: Counted<'r>>(reasons: impl IntoIterator<Item = R>) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for reason in reasons {
        let (reason, count) = reason.counted();
        let slot = counts.entry(reason).or_insert(0);
        *slot = slot.saturating_add(count);
    }
    let mut entries: Vec<String> = counts
        .into_iter()
        .map(|(reason, count)| alloc::format!("{count} {reason}"))
        .collect();
    entries.sort_unstable();
    entries.join(", ")
}

/// Kubernetes 1.11: `0/N nodes are available: <histogram>.`
#[must_use]
pub fn legacy<'r, R: Counted<'r>>(
    all_nodes: usize,
    reasons: impl IntoIterator<Item = R>,
) -> String {
    alloc::format!("0/{all_nodes} nodes are available: {}.", histogram(reasons))
}

/// Kubernetes 1.34: `0/N nodes are available:` followed by ` <pre-filter message>.` or
/// ` <histogram>.`, then ` <post-filter message>` as it is (a nested preemption message
/// brings its own final dot).
#[must_use]
pub fn framework<'r, R: Counted<'r>>(
    all_nodes: usize,
    pre_filter: Option<&str>,
    reasons: impl IntoIterator<Item = R>,
    post_filter: Option<&str>,
) -> String {
    let mut text = alloc::format!("0/{all_nodes} nodes are available:");
    match pre_filter {
        Some(message) => {
            text.push(' ');
            text.push_str(message);
            text.push('.');
        }
        None => {
            text.push(' ');
            text.push_str(&histogram(reasons));
            text.push('.');
        }
    }
    if let Some(message) = post_filter.filter(|message| !message.is_empty()) {
        text.push(' ');
        text.push_str(message);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_sort_as_strings_with_their_counts() {
        // The worked example of the 1.11 notes: n1, n2 lack cpu and memory, n3 is
        // cordoned, n4 has an untolerated taint, n5 lacks cpu.
        let reasons = [
            "Insufficient cpu",
            "Insufficient memory",
            "Insufficient cpu",
            "Insufficient memory",
            "node(s) were unschedulable",
            "node(s) had taints that the pod didn't tolerate",
            "Insufficient cpu",
        ];
        assert_eq!(
            legacy(5, reasons),
            "0/5 nodes are available: 1 node(s) had taints that the pod didn't tolerate, 1 node(s) were unschedulable, 2 Insufficient memory, 3 Insufficient cpu."
        );
        let many = core::iter::repeat_n("Insufficient cpu", 10).chain(["Insufficient memory"; 2]);
        assert_eq!(
            histogram(many),
            "10 Insufficient cpu, 2 Insufficient memory"
        );
        // Counted reasons add up like repeated ones.
        assert_eq!(
            histogram([("Insufficient cpu", 7), ("Insufficient cpu", 3)]),
            "10 Insufficient cpu"
        );
    }

    #[test]
    fn framework_message_appends_the_preemption_text() {
        let text = framework(
            3,
            None,
            ["Insufficient cpu"; 3],
            Some("preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."),
        );
        assert_eq!(
            text,
            "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."
        );
        assert_eq!(
            framework(
                2,
                Some("pod has unbound immediate PersistentVolumeClaims"),
                [] as [&str; 0],
                None
            ),
            "0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims."
        );
    }
}
