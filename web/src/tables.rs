//! How the nodes and pods tables are sorted, filtered and paged.
//!
//! Functions return row indices into the [`View`], so the rows themselves are never
//! copied; only one page of them is rendered.

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

use crate::view::{NodeRow, PodRow, Usage, View};

/// Rows per page: enough to scan, few enough to render within a frame.
pub const PAGE_SIZE: usize = 100;

/// A sortable column of the nodes table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum NodeColumn {
    /// Input order.
    #[default]
    Input,
    /// The node name.
    Name,
    /// Ready and schedulable first.
    Status,
    /// Share of CPU requested.
    Cpu,
    /// Share of memory requested.
    Memory,
    /// Bound pods.
    Pods,
}

/// A sortable column of the pods table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PodColumn {
    /// Input order.
    #[default]
    Input,
    /// `namespace/name`.
    Pod,
    /// The node name (unbound pods last).
    Node,
    /// The pod state.
    State,
    /// The priority.
    Priority,
    /// The QoS class.
    Qos,
    /// The CPU request.
    Cpu,
    /// The memory request.
    Memory,
}

/// A column and a direction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sort<C> {
    /// The column sorted by.
    pub column: C,
    /// Largest first.
    #[serde(default)]
    pub descending: bool,
}

impl<C: Copy + PartialEq> Sort<C> {
    /// The sort after a click on `column`'s header: the same column turns around, another
    /// column starts ascending.
    #[must_use]
    pub fn toggled(self, column: C) -> Self {
        Self {
            column,
            descending: self.column == column && !self.descending,
        }
    }

    /// `aria-sort` for `column`'s header.
    #[must_use]
    pub fn aria(self, column: C) -> &'static str {
        match (self.column == column, self.descending) {
            (false, _) => "none",
            (true, false) => "ascending",
            (true, true) => "descending",
        }
    }
}

/// Which pods the pods table shows.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PodFilter {
    /// Only this namespace.
    #[serde(default)]
    pub namespace: Option<String>,
    /// Only pods whose name, namespace, node, state or QoS class contains this text,
    /// ignoring ASCII case (Kubernetes names are ASCII).
    #[serde(default)]
    pub text: String,
}

impl PodFilter {
    fn admits(&self, pod: &PodRow, needle: &str) -> bool {
        if self
            .namespace
            .as_ref()
            .is_some_and(|namespace| *namespace != pod.namespace)
        {
            return false;
        }
        needle.is_empty()
            || [
                pod.name.as_str(),
                pod.namespace.as_str(),
                pod.node.as_deref().unwrap_or_default(),
                pod.state.as_str(),
                pod.qos.as_str(),
            ]
            .iter()
            .any(|field| field.to_ascii_lowercase().contains(needle))
    }
}

/// The node rows in display order.
#[must_use]
pub fn node_order(view: &View, sort: Sort<NodeColumn>) -> Vec<usize> {
    let nodes = &view.nodes;
    order(nodes.len(), sort.descending, &|a, b| {
        compare_nodes(&nodes[a], &nodes[b], sort.column)
    })
}

/// The pod rows the filter admits, in display order.
#[must_use]
pub fn pod_order(view: &View, sort: Sort<PodColumn>, filter: &PodFilter) -> Vec<usize> {
    let needle = filter.text.trim().to_ascii_lowercase();
    let pods = &view.pods;
    let mut rows = order(pods.len(), sort.descending, &|a, b| {
        compare_pods(&pods[a], &pods[b], sort.column)
    });
    rows.retain(|&index| filter.admits(&pods[index], &needle));
    rows
}

/// The indices `0..len` sorted stably by `compare`, reversed when descending; input order
/// breaks ties. Every table sorts through this one function, with a `dyn` comparator: each
/// instance of the standard library's generic sort adds kilobytes to the download.
#[must_use]
pub fn order(
    len: usize,
    descending: bool,
    compare: &dyn Fn(usize, usize) -> Ordering,
) -> Vec<usize> {
    let mut indices: Vec<usize> = (0..len).collect();
    indices.sort_by(|&a, &b| {
        let by_column = compare(a, b);
        let by_column = if descending {
            by_column.reverse()
        } else {
            by_column
        };
        by_column.then(a.cmp(&b))
    });
    indices
}

fn share(usage: &Usage) -> f64 {
    usage.share.unwrap_or(-1.0)
}

fn compare_nodes(a: &NodeRow, b: &NodeRow, column: NodeColumn) -> Ordering {
    let status = |node: &NodeRow| (!node.ready, node.unschedulable);
    match column {
        NodeColumn::Input => Ordering::Equal,
        NodeColumn::Name => a.name.cmp(&b.name),
        NodeColumn::Status => status(a).cmp(&status(b)),
        NodeColumn::Cpu => share(&a.cpu).total_cmp(&share(&b.cpu)),
        NodeColumn::Memory => share(&a.memory).total_cmp(&share(&b.memory)),
        NodeColumn::Pods => a.pod_count.cmp(&b.pod_count),
    }
}

fn compare_pods(a: &PodRow, b: &PodRow, column: PodColumn) -> Ordering {
    match column {
        PodColumn::Input => Ordering::Equal,
        PodColumn::Pod => (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)),
        // `None` sorts first in Rust; unbound pods read better last.
        PodColumn::Node => (a.node.is_none(), &a.node).cmp(&(b.node.is_none(), &b.node)),
        PodColumn::State => a.state.cmp(&b.state),
        PodColumn::Priority => a.priority.cmp(&b.priority),
        PodColumn::Qos => a.qos.cmp(&b.qos),
        PodColumn::Cpu => a.cpu_milli.cmp(&b.cpu_milli),
        PodColumn::Memory => a.memory_milli.cmp(&b.memory_milli),
    }
}

/// The number of pages `rows` rows fill (at least one, so an empty table has a page).
#[must_use]
pub fn page_count(rows: usize) -> usize {
    rows.div_ceil(PAGE_SIZE).max(1)
}

/// The rows of page `page` (clamped to the last page).
#[must_use]
pub fn page(rows: &[usize], page: usize) -> &[usize] {
    let page = page.min(page_count(rows.len()) - 1);
    let start = page * PAGE_SIZE;
    &rows[start.min(rows.len())..(start + PAGE_SIZE).min(rows.len())]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::Outcome;

    fn view() -> View {
        Outcome::evaluate(&[(
            "input.yaml",
            crate::examples::Example::first().text().as_bytes(),
        )])
        .view
    }

    fn names(view: &View, order: &[usize]) -> Vec<String> {
        order
            .iter()
            .map(|&index| view.nodes[index].name.clone())
            .collect()
    }

    #[test]
    fn a_header_click_sorts_ascending_then_descending() {
        let sort = Sort::default().toggled(NodeColumn::Cpu);
        assert_eq!(
            sort,
            Sort {
                column: NodeColumn::Cpu,
                descending: false
            }
        );
        assert_eq!(sort.aria(NodeColumn::Cpu), "ascending");
        assert_eq!(sort.aria(NodeColumn::Name), "none");
        let sort = sort.toggled(NodeColumn::Cpu);
        assert!(sort.descending);
        assert_eq!(sort.aria(NodeColumn::Cpu), "descending");
        assert!(!sort.toggled(NodeColumn::Name).descending);
    }

    #[test]
    fn nodes_sort_by_each_column() {
        let view = view();
        let by = |column, descending| names(&view, &node_order(&view, Sort { column, descending }));
        assert_eq!(
            by(NodeColumn::Input, false),
            ["worker-1", "worker-2", "gpu-1"]
        );
        assert_eq!(
            by(NodeColumn::Name, false),
            ["gpu-1", "worker-1", "worker-2"]
        );
        assert_eq!(by(NodeColumn::Cpu, true), ["gpu-1", "worker-1", "worker-2"]);
        assert_eq!(
            by(NodeColumn::Memory, false),
            ["worker-2", "worker-1", "gpu-1"]
        );
        assert_eq!(by(NodeColumn::Status, true)[0], "worker-2");
        assert_eq!(by(NodeColumn::Pods, true)[0], "worker-1");
    }

    #[test]
    fn pods_filter_by_namespace_and_text() {
        let view = view();
        let pods = |filter: &PodFilter| {
            pod_order(&view, Sort::default(), filter)
                .into_iter()
                .map(|index| view.pods[index].name.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(pods(&PodFilter::default()).len(), view.pods.len());
        let ml = PodFilter {
            namespace: Some("ml".into()),
            text: String::new(),
        };
        assert_eq!(pods(&ml), ["trainer", "report"]);
        let text = PodFilter {
            namespace: None,
            text: " WEB ".into(),
        };
        assert_eq!(pods(&text), ["web-1", "web-2"]);
        let both = PodFilter {
            namespace: Some("ml".into()),
            text: "gpu-1".into(),
        };
        assert_eq!(pods(&both), ["trainer"]);
        let none = PodFilter {
            namespace: Some("nowhere".into()),
            text: String::new(),
        };
        assert!(pods(&none).is_empty());
    }

    #[test]
    fn unbound_pods_sort_after_bound_ones_by_node() {
        let view = view();
        let order = pod_order(
            &view,
            Sort {
                column: PodColumn::Node,
                descending: false,
            },
            &PodFilter::default(),
        );
        let nodes: Vec<_> = order
            .iter()
            .map(|&index| view.pods[index].node.clone())
            .collect();
        assert_eq!(nodes.first(), Some(&Some("gpu-1".to_string())));
        assert_eq!(nodes.last(), Some(&None));
    }

    #[test]
    fn pages_hold_page_size_rows_and_clamp() {
        let rows: Vec<usize> = (0..250).collect();
        assert_eq!(page_count(rows.len()), 3);
        assert_eq!(page_count(0), 1);
        assert_eq!(page(&rows, 0).len(), PAGE_SIZE);
        assert_eq!(page(&rows, 2), &rows[200..]);
        assert_eq!(
            page(&rows, 9),
            &rows[200..],
            "past the end shows the last page"
        );
        assert!(page(&[], 0).is_empty());
    }
}
