//! The descheduler as OpenShift 3.11 ships it (`openshift/descheduler` `v3.11.0`).

use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;

use crate::cluster::PodEntry;
use crate::model::{DeschedulerPolicy, Node};

/// What one descheduler run did.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    /// Evicted pods (indexes into the pods given), in eviction order, with the strategy.
    #[serde(skip)]
    pub evicted: Vec<(usize, String)>,
}

/// Runs every enabled strategy once, in upstream's order.
///
/// `pods` are the cluster's pods (only bound, running ones are considered); `evict` asks
/// the eviction API to evict the pod at an index and says why it refused.
pub fn run(
    _policy: &DeschedulerPolicy,
    _nodes: &[Node],
    _pods: &[PodEntry],
    _evict: &mut dyn FnMut(usize) -> Result<(), String>,
) -> Outcome {
    Outcome::default()
}
