//! kubefit's `Scenario`: every step must read as one timed action.

use crate::eviction::scenario::{self, Problem};
use crate::model::Scenario;

use super::path::{At, Sink};

/// Every rule a Scenario breaks.
pub(super) fn validate(scenario: &Scenario, sink: &mut Sink) {
    let spec = At::root("spec");
    if let Err(problem) = scenario::horizon(scenario) {
        report(&problem, &spec.field("horizon"), sink);
    }
    let steps = spec.field("steps");
    for (index, step) in scenario.spec.steps.iter().enumerate() {
        if let Err(problem) = scenario::read(step) {
            let entry = steps.index(index);
            if problem.field.is_empty() {
                report(&problem, &entry, sink);
            } else {
                report(&problem, &entry.field(problem.field), sink);
            }
        }
    }
}

fn report(problem: &Problem, at: &At<'_>, sink: &mut Sink) {
    sink.error(at, problem.code, problem.message.clone());
}
