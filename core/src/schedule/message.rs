//! The `FailedScheduling` event text: `0/N nodes are available: <counted reasons>.`
//!
//! Follows `pkg/scheduler/core/generic_scheduler.go` (1.11, `FitError.Error`) and
//! `pkg/scheduler/framework/types.go` (1.34, `FitError.Error`): every reason of every
//! node is counted, each entry is rendered `"<count> <reason>"`, and the entries are
//! sorted as plain strings (so `"10 …"` sorts before `"2 …"`), joined with `", "`.
//!
//! 1.34 records the event with at most 1024 bytes of that text ([`event_note`]); 1.11's
//! event recorder takes it whole.

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

/// The longest event note the API server accepts, in bytes (`NoteLengthLimit`).
const NOTE_LENGTH_LIMIT: usize = 1024;

/// What 1.34 cuts a longer note to before it adds ` ...`.
const NOTE_KEPT: usize = NOTE_LENGTH_LIMIT - " ...".len();

/// 1.34 `truncateMessage` (`schedule_one.go`): the `FailedScheduling` event keeps at most
/// 1024 bytes of the text, its first 1020 and ` ...` when it is longer (the pod's
/// `PodScheduled` condition keeps it whole). Upstream counts bytes and may cut inside a
/// character; each byte of it that is left reads as U+FFFD, as the event shows in JSON.
#[must_use]
pub fn event_note(mut text: String) -> String {
    if text.len() <= NOTE_LENGTH_LIMIT {
        return text;
    }
    let boundary = (0..=NOTE_KEPT)
        .rev()
        .find(|&at| text.is_char_boundary(at))
        .unwrap_or(0);
    text.truncate(boundary);
    for _ in boundary..NOTE_KEPT {
        text.push(char::REPLACEMENT_CHARACTER);
    }
    text.push_str(" ...");
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

    /// Up to 1024 bytes the note is the text; beyond, its first 1020 bytes and ` ...`.
    #[test]
    fn event_notes_keep_1024_bytes() {
        let exact = "x".repeat(1024);
        assert_eq!(event_note(exact.clone()), exact);
        let long = "y".repeat(1025);
        let note = event_note(long);
        assert_eq!(note.len(), 1024);
        assert!(note.starts_with(&"y".repeat(1020)) && note.ends_with("y ..."));
        // A cut inside `é` (two bytes) leaves its first byte, read as U+FFFD.
        let accented = "a".repeat(1019) + "é" + &"b".repeat(10);
        assert_eq!(event_note(accented), "a".repeat(1019) + "\u{fffd} ...");
    }
}
