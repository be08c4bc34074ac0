//! A Scenario's steps read into timed actions: durations, `oc adm taint` text, references.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::drain::Flags;
use crate::duration::{self, Duration};
use crate::model::{DrainStep, Scenario, Step, Taint, TaintStep, TextOr};

/// The namespace of Machine API objects when a step names none.
pub const MACHINE_NAMESPACE: &str = "openshift-machine-api";

/// How far a scenario runs when it does not say (`1h`).
pub const DEFAULT_HORIZON: Duration = Duration::from_seconds(3600);

/// The taint effects a taint step may name.
const EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

/// What a step does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Adds (or replaces, by key and effect) a taint on a node.
    Taint { node: String, taint: Taint },
    /// Removes a node's taints with this key (and effect, when given).
    Untaint {
        node: String,
        key: String,
        effect: Option<String>,
    },
    /// Marks a node unschedulable.
    Cordon(String),
    /// Marks a node schedulable again.
    Uncordon(String),
    /// `oc adm drain` with its flags.
    Drain { node: String, flags: Flags },
    /// Sets a node condition, as the kubelet reports it (or stops reporting: `Unknown`;
    /// Ready `Unknown` is the node lifecycle controller's marking, which sets the
    /// pressure conditions to `Unknown` too until the kubelet posts again).
    NodeCondition {
        node: String,
        condition: String,
        status: String,
    },
    /// `oc delete machine`.
    DeleteMachine { namespace: String, name: String },
    /// A hook's owner removes it.
    RemoveHook {
        namespace: String,
        machine: String,
        phase: HookPhase,
        name: String,
    },
    /// Runs the DeschedulerPolicy in the input once.
    Deschedule,
    /// `oc scale machineset --replicas`.
    ScaleMachineSet {
        namespace: String,
        name: String,
        replicas: i32,
    },
}

impl Action {
    /// The node the step names, if it names one.
    #[must_use]
    pub fn node(&self) -> Option<&str> {
        match self {
            Self::Taint { node, .. }
            | Self::Untaint { node, .. }
            | Self::Cordon(node)
            | Self::Uncordon(node)
            | Self::Drain { node, .. }
            | Self::NodeCondition { node, .. } => Some(node),
            Self::DeleteMachine { .. }
            | Self::RemoveHook { .. }
            | Self::Deschedule
            | Self::ScaleMachineSet { .. } => None,
        }
    }
}

/// Where a lifecycle hook pauses a machine's deletion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum HookPhase {
    /// Before the node is drained.
    PreDrain,
    /// Before the instance is deleted.
    PreTerminate,
}

impl HookPhase {
    /// The field name: `preDrain` or `preTerminate`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::PreDrain => "preDrain",
            Self::PreTerminate => "preTerminate",
        }
    }
}

/// A step read into its time and action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timed {
    /// When, from the start.
    pub at: Duration,
    /// What.
    pub action: Action,
    /// The step's index in `spec.steps`.
    pub step: usize,
}

/// Why a step cannot be read: the field under the step, a code and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The field of the step at fault (`""` for the step itself).
    pub field: &'static str,
    pub code: &'static str,
    pub message: String,
}

impl Problem {
    fn new(field: &'static str, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            field,
            code,
            message: message.into(),
        }
    }
}

/// The scenario's horizon.
///
/// # Errors
/// When `spec.horizon` is not a non-negative Go duration.
pub fn horizon(scenario: &Scenario) -> Result<Duration, Problem> {
    match &scenario.spec.horizon {
        None => Ok(DEFAULT_HORIZON),
        Some(text) => non_negative(text, "horizon"),
    }
}

/// Reads every step; the valid ones come back sorted by time (stable: input order).
#[must_use]
pub fn actions(scenario: &Scenario) -> Vec<Timed> {
    let mut timed: Vec<Timed> = scenario
        .spec
        .steps
        .iter()
        .enumerate()
        .filter_map(|(index, step)| {
            read(step).ok().map(|(at, action)| Timed {
                at,
                action,
                step: index,
            })
        })
        .collect();
    timed.sort_by_key(|timed| timed.at);
    timed
}

/// Reads one step. A step without `at` happens at the start.
///
/// # Errors
/// When the step names no action or several, or an action or `at` cannot be read.
pub fn read(step: &Step) -> Result<(Duration, Action), Problem> {
    let at = match &step.at {
        None => Duration(0),
        Some(text) => non_negative(text, "at")?,
    };
    let named = [
        ("taint", step.taint.is_some()),
        ("untaint", step.untaint.is_some()),
        ("cordon", step.cordon.is_some()),
        ("uncordon", step.uncordon.is_some()),
        ("drain", step.drain.is_some()),
        ("nodeCondition", step.node_condition.is_some()),
        ("deleteMachine", step.delete_machine.is_some()),
        ("removeHook", step.remove_hook.is_some()),
        ("deschedule", step.deschedule.is_some()),
        ("scaleMachineSet", step.scale_machine_set.is_some()),
    ];
    let present: Vec<&str> = named
        .iter()
        .filter(|(_, set)| *set)
        .map(|(name, _)| *name)
        .collect();
    if present.len() > 1 {
        return Err(Problem::new(
            "",
            "scenario/several-actions",
            alloc::format!(
                "a step does one thing; this one has {}",
                backticked(&present)
            ),
        ));
    }
    let action = if let Some(taint) = &step.taint {
        taint_action(taint)?
    } else if let Some(untaint) = &step.untaint {
        untaint_action(untaint)?
    } else if let Some(node) = &step.cordon {
        Action::Cordon(node_name(node, "cordon")?)
    } else if let Some(node) = &step.uncordon {
        Action::Uncordon(node_name(node, "uncordon")?)
    } else if let Some(drain) = &step.drain {
        drain_action(drain)?
    } else if let Some(condition) = &step.node_condition {
        if condition.type_.is_empty() {
            return Err(Problem::new(
                "nodeCondition",
                "scenario/required",
                "`type` is required",
            ));
        }
        if !matches!(condition.status.as_str(), "True" | "False" | "Unknown") {
            return Err(Problem::new(
                "nodeCondition",
                "scenario/invalid-condition-status",
                alloc::format!(
                    "status `{}` is not one of `True`, `False`, `Unknown`",
                    condition.status
                ),
            ));
        }
        Action::NodeCondition {
            node: node_name(&condition.node, "nodeCondition")?,
            condition: condition.type_.clone(),
            status: condition.status.clone(),
        }
    } else if let Some(machine) = &step.delete_machine {
        let (namespace, name) = machine_ref(machine, "deleteMachine")?;
        Action::DeleteMachine { namespace, name }
    } else if let Some(hook) = &step.remove_hook {
        let (namespace, machine) = machine_ref(&hook.machine, "removeHook")?;
        let phase = match hook.phase.as_str() {
            "preDrain" => HookPhase::PreDrain,
            "preTerminate" => HookPhase::PreTerminate,
            other => {
                return Err(Problem::new(
                    "removeHook",
                    "scenario/invalid-hook-phase",
                    alloc::format!("phase `{other}` is not one of `preDrain`, `preTerminate`"),
                ))
            }
        };
        if hook.name.is_empty() {
            return Err(Problem::new(
                "removeHook",
                "scenario/required",
                "`name` is required",
            ));
        }
        Action::RemoveHook {
            namespace,
            machine,
            phase,
            name: hook.name.clone(),
        }
    } else if step.deschedule.is_some() {
        Action::Deschedule
    } else if let Some(scale) = &step.scale_machine_set {
        let (namespace, name) = machine_ref(&scale.name, "scaleMachineSet")?;
        let Some(replicas) = scale.replicas.filter(|replicas| *replicas >= 0) else {
            return Err(Problem::new(
                "scaleMachineSet",
                "scenario/required",
                "`replicas` (0 or more) is required",
            ));
        };
        Action::ScaleMachineSet {
            namespace,
            name,
            replicas,
        }
    } else {
        return Err(Problem::new(
            "",
            "scenario/no-action",
            "a step needs one of `taint`, `untaint`, `cordon`, `uncordon`, `drain`, `nodeCondition`, `deleteMachine`, `removeHook`, `deschedule`, `scaleMachineSet`",
        ));
    };
    Ok((at, action))
}

/// `drain:` as a node name (the defaults) or as the node and flags.
fn drain_action(step: &DrainStep) -> Result<Action, Problem> {
    let fields = match step {
        TextOr::Text(node) => {
            return Ok(Action::Drain {
                node: node_name(node, "drain")?,
                flags: Flags::default(),
            })
        }
        TextOr::Fields(fields) => fields,
    };
    let timeout = match &fields.timeout {
        None => None,
        Some(text) => Some(non_negative(text, "drain")?).filter(|timeout| timeout.0 > 0),
    };
    Ok(Action::Drain {
        node: node_name(&fields.node, "drain")?,
        flags: Flags {
            ignore_daemon_sets: fields.ignore_daemon_sets,
            delete_emptydir_data: fields.delete_emptydir_data,
            force: fields.force,
            timeout,
            grace_period: fields
                .grace_period
                .filter(|seconds| *seconds >= 0)
                .map(Duration::from_seconds),
        },
    })
}

fn backticked(names: &[&str]) -> String {
    let quoted: Vec<String> = names
        .iter()
        .map(|name| alloc::format!("`{name}`"))
        .collect();
    quoted.join(", ")
}

fn non_negative(text: &str, field: &'static str) -> Result<Duration, Problem> {
    match duration::parse(text) {
        Ok(value) if value.0 >= 0 => Ok(value),
        Ok(_) => Err(Problem::new(
            field,
            "scenario/negative-duration",
            alloc::format!("`{text}` is before the start; use a duration of 0s or more"),
        )),
        Err(error) => Err(Problem::new(
            field,
            "scenario/invalid-duration",
            duration::message(text, error),
        )),
    }
}

fn node_name(name: &str, field: &'static str) -> Result<String, Problem> {
    if name.is_empty() {
        Err(Problem::new(
            field,
            "scenario/required",
            "a node name is required",
        ))
    } else {
        Ok(name.to_string())
    }
}

/// `name` or `namespace/name` of a Machine API object; the namespace defaults to
/// `openshift-machine-api`.
fn machine_ref(text: &str, field: &'static str) -> Result<(String, String), Problem> {
    let (namespace, name) = text.split_once('/').unwrap_or((MACHINE_NAMESPACE, text));
    if name.is_empty() || namespace.is_empty() {
        return Err(Problem::new(
            field,
            "scenario/required",
            "a name (`name` or `namespace/name`) is required",
        ));
    }
    Ok((namespace.to_string(), name.to_string()))
}

/// `taint:` as fields or as `NODE KEY[=VALUE]:EFFECT` (`oc adm taint`).
fn taint_action(step: &TaintStep) -> Result<Action, Problem> {
    let (node, key, value, effect) = match step {
        TextOr::Fields(fields) => (
            fields.node.clone(),
            fields.key.clone(),
            fields.value.clone(),
            fields.effect.clone(),
        ),
        TextOr::Text(text) => {
            let (node, spec) = split_node(text, "taint")?;
            if spec.ends_with('-') {
                return Err(Problem::new(
                    "taint",
                    "scenario/invalid-taint",
                    alloc::format!("`{text}` removes a taint; use an `untaint` step"),
                ));
            }
            let Some((key_value, effect)) = spec.rsplit_once(':') else {
                return Err(Problem::new(
                    "taint",
                    "scenario/invalid-taint",
                    alloc::format!("invalid taint spec: {spec}"),
                ));
            };
            let (key, value) = key_value.split_once('=').unwrap_or((key_value, ""));
            (node, key.to_string(), value.to_string(), effect.to_string())
        }
    };
    let node = node_name(&node, "taint")?;
    if !EFFECTS.contains(&effect.as_str()) {
        return Err(Problem::new(
            "taint",
            "taint/invalid-effect",
            alloc::format!(
                "Unsupported value: \"{effect}\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""
            ),
        ));
    }
    let key_errors = crate::validation::names::qualified_name(&key);
    if let Some(first) = key_errors.first() {
        return Err(Problem::new("taint", "taint/invalid-key", *first));
    }
    let value_errors = crate::validation::names::label_value(&value);
    if !value_errors.is_empty() {
        return Err(Problem::new(
            "taint",
            "taint/invalid-value",
            value_errors.join(";"),
        ));
    }
    Ok(Action::Taint {
        node,
        taint: Taint {
            key,
            value,
            effect,
            time_added: None,
        },
    })
}

/// `untaint:` as fields or as `NODE KEY[:EFFECT][-]`.
fn untaint_action(step: &TaintStep) -> Result<Action, Problem> {
    let (node, key, effect) = match step {
        TextOr::Fields(fields) => (
            fields.node.clone(),
            fields.key.clone(),
            fields.effect.clone(),
        ),
        TextOr::Text(text) => {
            let (node, spec) = split_node(text, "untaint")?;
            let spec = spec.strip_suffix('-').unwrap_or(spec);
            let (key, effect) = spec.split_once(':').unwrap_or((spec, ""));
            (node, key.to_string(), effect.to_string())
        }
    };
    let node = node_name(&node, "untaint")?;
    if key.is_empty() {
        return Err(Problem::new(
            "untaint",
            "scenario/required",
            "a taint key is required",
        ));
    }
    if !effect.is_empty() && !EFFECTS.contains(&effect.as_str()) {
        return Err(Problem::new(
            "untaint",
            "taint/invalid-effect",
            alloc::format!(
                "Unsupported value: \"{effect}\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""
            ),
        ));
    }
    Ok(Action::Untaint {
        node,
        key,
        effect: (!effect.is_empty()).then_some(effect),
    })
}

fn split_node<'t>(text: &'t str, field: &'static str) -> Result<(String, &'t str), Problem> {
    let mut words = text.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some(node), Some(spec), None) => Ok((node.to_string(), spec)),
        _ => Err(Problem::new(
            field,
            "scenario/invalid-taint",
            alloc::format!("`{text}` is not `NODE KEY=VALUE:EFFECT`"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TaintFields;

    fn text(value: &str) -> TaintStep {
        TextOr::Text(value.into())
    }

    #[test]
    fn taint_text_reads_as_oc_adm_taint() {
        assert_eq!(
            taint_action(&text("node2 dedicated=groupName:NoSchedule")),
            Ok(Action::Taint {
                node: "node2".into(),
                taint: Taint {
                    key: "dedicated".into(),
                    value: "groupName".into(),
                    effect: "NoSchedule".into(),
                    time_added: None
                }
            })
        );
        let Ok(Action::Taint { taint, .. }) = taint_action(&text("n key1:NoExecute")) else {
            panic!("expected a taint");
        };
        assert_eq!((taint.key.as_str(), taint.value.as_str()), ("key1", ""));
        assert_eq!(
            taint_action(&text("n key1=v")).map_err(|problem| problem.message),
            Err("invalid taint spec: key1=v".into())
        );
        assert!(taint_action(&text("n key1:NoExecute-")).is_err());
        assert!(taint_action(&text("n key1=v:Sometimes")).is_err());
    }

    #[test]
    fn untaint_takes_key_and_optional_effect() {
        assert_eq!(
            untaint_action(&text("node1 key1:NoExecute-")),
            Ok(Action::Untaint {
                node: "node1".into(),
                key: "key1".into(),
                effect: Some("NoExecute".into())
            })
        );
        assert_eq!(
            untaint_action(&TextOr::Fields(TaintFields {
                node: "node1".into(),
                key: "key1".into(),
                ..TaintFields::default()
            })),
            Ok(Action::Untaint {
                node: "node1".into(),
                key: "key1".into(),
                effect: None
            })
        );
    }

    #[test]
    fn a_step_does_exactly_one_thing() {
        let empty = Step::default();
        assert_eq!(read(&empty).map_err(|p| p.code), Err("scenario/no-action"));
        let both = Step {
            cordon: Some("a".into()),
            drain: Some(crate::model::TextOr::Text("a".into())),
            ..Step::default()
        };
        assert_eq!(
            read(&both).map_err(|p| p.message),
            Err("a step does one thing; this one has `cordon`, `drain`".into())
        );
    }

    #[test]
    fn machines_default_to_the_machine_api_namespace() {
        let step = Step {
            at: Some("5m".into()),
            delete_machine: Some("worker-a-1".into()),
            ..Step::default()
        };
        assert_eq!(
            read(&step),
            Ok((
                Duration::from_seconds(300),
                Action::DeleteMachine {
                    namespace: MACHINE_NAMESPACE.into(),
                    name: "worker-a-1".into()
                }
            ))
        );
    }
}
