//! Resource vectors in the units the scheduler compares: millicores for cpu, whole units
//! (bytes, counts) for everything else.
//!
//! Follows `pkg/scheduler/framework/types.go` (`Resource`): cpu, memory and
//! ephemeral-storage are fields, every other resource is a "scalar" resource.

use alloc::string::String;
use alloc::vec::Vec;

use crate::model::ResourceList;

/// The resource name of the pod-count limit in `allocatable`.
pub const PODS: &str = "pods";

/// A pod's request or a node's allocatable or requested total.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    /// Millicores.
    pub milli_cpu: i64,
    /// Bytes.
    pub memory: i64,
    /// Bytes.
    pub ephemeral_storage: i64,
    /// Every other resource (extended resources, hugepages, attachable volumes), by name,
    /// sorted by name. Zero entries are kept: upstream keeps them too.
    pub scalars: Vec<(String, i64)>,
}

impl Resources {
    /// The vector of a resource list; `pods` is left out (it is a count limit, not a
    /// request).
    #[must_use]
    pub fn from_list(list: &ResourceList) -> Self {
        let mut resources = Self::default();
        for (name, quantity) in list {
            match name.as_str() {
                "cpu" => resources.milli_cpu = quantity.milli_value(),
                "memory" => resources.memory = quantity.value(),
                "ephemeral-storage" => resources.ephemeral_storage = quantity.value(),
                PODS => {}
                _ => resources.scalars.push((name.clone(), quantity.value())),
            }
        }
        resources
    }

    /// The amount of one resource (0 when absent).
    #[must_use]
    pub fn get(&self, name: &str) -> i64 {
        match name {
            "cpu" => self.milli_cpu,
            "memory" => self.memory,
            "ephemeral-storage" => self.ephemeral_storage,
            _ => self
                .scalars
                .binary_search_by(|(scalar, _)| scalar.as_str().cmp(name))
                .ok()
                .and_then(|index| self.scalars.get(index))
                .map_or(0, |(_, amount)| *amount),
        }
    }

    /// True when nothing at all is requested (upstream's zero-request fast path).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.milli_cpu == 0
            && self.memory == 0
            && self.ephemeral_storage == 0
            && self.scalars.is_empty()
    }

    /// Adds `other` (saturating).
    pub fn add(&mut self, other: &Self) {
        self.milli_cpu = self.milli_cpu.saturating_add(other.milli_cpu);
        self.memory = self.memory.saturating_add(other.memory);
        self.ephemeral_storage = self
            .ephemeral_storage
            .saturating_add(other.ephemeral_storage);
        for (name, amount) in &other.scalars {
            match self
                .scalars
                .binary_search_by(|(scalar, _)| scalar.as_str().cmp(name))
            {
                Ok(index) => {
                    if let Some((_, total)) = self.scalars.get_mut(index) {
                        *total = total.saturating_add(*amount);
                    }
                }
                Err(index) => self.scalars.insert(index, (name.clone(), *amount)),
            }
        }
    }

    /// Subtracts `other` (saturating); entries stay, possibly at zero.
    pub fn subtract(&mut self, other: &Self) {
        self.milli_cpu = self.milli_cpu.saturating_sub(other.milli_cpu);
        self.memory = self.memory.saturating_sub(other.memory);
        self.ephemeral_storage = self
            .ephemeral_storage
            .saturating_sub(other.ephemeral_storage);
        for (name, amount) in &other.scalars {
            if let Ok(index) = self
                .scalars
                .binary_search_by(|(scalar, _)| scalar.as_str().cmp(name))
            {
                if let Some((_, total)) = self.scalars.get_mut(index) {
                    *total = total.saturating_sub(*amount);
                }
            }
        }
    }
}

/// Whether upstream treats a resource as "scalar" for fitting: every name except cpu,
/// memory, ephemeral-storage and pods.
#[must_use]
pub fn is_scalar(name: &str) -> bool {
    !matches!(name, "cpu" | "memory" | "ephemeral-storage" | PODS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantity::Quantity;

    fn list(pairs: &[(&str, &str)]) -> ResourceList {
        pairs
            .iter()
            .map(|(name, value)| ((*name).into(), Quantity::parse(value).unwrap()))
            .collect()
    }

    #[test]
    fn units_are_millicores_and_whole_units_rounded_up() {
        let resources = Resources::from_list(&list(&[
            ("cpu", "1500m"),
            ("memory", "1Ki"),
            ("ephemeral-storage", "1.5"),
            ("nvidia.com/gpu", "2"),
            ("pods", "110"),
        ]));
        assert_eq!(resources.milli_cpu, 1500);
        assert_eq!(resources.memory, 1024);
        assert_eq!(resources.ephemeral_storage, 2);
        assert_eq!(resources.get("nvidia.com/gpu"), 2);
        assert_eq!(resources.get("pods"), 0);
    }

    #[test]
    fn add_and_subtract_keep_scalars_sorted() {
        let mut total = Resources::from_list(&list(&[("b/x", "1")]));
        total.add(&Resources::from_list(&list(&[("a/y", "2"), ("b/x", "3")])));
        assert_eq!(total.scalars, [("a/y".into(), 2), ("b/x".into(), 4)]);
        total.subtract(&Resources::from_list(&list(&[("b/x", "4")])));
        assert_eq!(total.get("b/x"), 0);
    }
}
