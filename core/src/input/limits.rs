//! Budgets that bound the work kubefit does on untrusted input.

/// Budgets for reading input. The defaults load the largest real clusters (5 000 nodes and
/// 150 000 pods, about 300 MB of YAML or JSON) while an alias bomb or a 10 000-deep nesting
/// still stops at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted source, in bytes.
    pub max_input_bytes: usize,
    /// Deepest accepted nesting of mappings and sequences.
    pub max_depth: usize,
    /// How many nodes alias expansion may add to one document beyond its own nodes.
    pub max_alias_expansion: u64,
    /// Most documents accepted in one source.
    pub max_documents: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_input_bytes: 1 << 30,
            max_depth: 64,
            max_alias_expansion: 100_000,
            max_documents: 1_000_000,
        }
    }
}
