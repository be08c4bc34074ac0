//! `DeschedulerPolicy` (`descheduler/v1alpha1`): strategy names and parameters.

use crate::model::DeschedulerPolicy;

use super::path::Sink;

/// Every rule a DeschedulerPolicy breaks.
pub(super) fn validate(_policy: &DeschedulerPolicy, _sink: &mut Sink) {}
