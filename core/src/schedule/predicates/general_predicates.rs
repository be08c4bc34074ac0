//! GeneralPredicates: PodFitsResources, then HostName, PodFitsHostPorts and
//! MatchNodeSelector, every reason of each collected (no short-circuit inside).
//!
//! Follows 1.11 `GeneralPredicates`, `noncriticalPredicates` and `EssentialPredicates`
//! in `predicates.go`; the scheduler always runs the full set.

use super::{
    host_name, match_node_selector, pod_fits_host_ports, pod_fits_resources, verdict, Pod,
};
use crate::schedule::snapshot::NodeInfo;
use crate::schedule::status::Status;

/// The predicate.
#[must_use]
pub fn predicate(pod: &Pod<'_>, node: &NodeInfo<'_>) -> Status {
    let object = pod.pod();
    let mut reasons = pod_fits_resources::insufficient(&pod.request.requested, node);
    if !host_name::fits(object, node.node) {
        reasons.push(host_name::REASON.into());
    }
    if !pod_fits_host_ports::fits(object, node) {
        reasons.push(pod_fits_host_ports::REASON.into());
    }
    if !match_node_selector::predicate(object, node.node).passed() {
        reasons.push(match_node_selector::REASON.into());
    }
    verdict(reasons)
}
