//! OpenShift Machine API deletion: lifecycle hooks, conditions and the Deleting phase.
