//! binder_test.go's `TestFindPodVolumesWithoutProvisioning` and
//! `TestFindPodVolumesWithProvisioning`, row by row, on `node1`.

use alloc::string::String;
use alloc::vec::Vec;

use super::{pre_filter, UNBOUND_IMMEDIATE};
use crate::cluster::Cluster;
use crate::schedule::snapshot::{Accounting, Snapshot};
use crate::schedule::status::Code;
use crate::schedule::testing::{claims, pod_with_volumes};
use crate::schedule::volumes::{BINDING_NO_MATCH, NODE_AFFINITY_CONFLICT, VOLUME_NOT_EXIST};
use crate::schedule::Version;
use crate::{input, Limits, Source};

const NODES: &str = "\
---
kind: Node
metadata: {name: node1, labels: {nodeKey: node1}}
status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}
---
kind: Node
metadata: {name: node2, labels: {nodeKey: node2}}
status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}
---
kind: StorageClass
metadata: {name: wait}
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: WaitForFirstConsumer
---
kind: StorageClass
metadata: {name: immediate}
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: Immediate
---
kind: StorageClass
metadata: {name: wait-provisioner}
provisioner: test-provisioner
volumeBindingMode: WaitForFirstConsumer
allowedTopologies: [{matchLabelExpressions: [{key: nodeKey, values: [node1]}]}]
---
kind: StorageClass
metadata: {name: topo-mismatch}
provisioner: test-provisioner
volumeBindingMode: WaitForFirstConsumer
allowedTopologies: [{matchLabelExpressions: [{key: nodeKey, values: [node2]}]}]
";

/// A PersistentVolume: name, size, class, node, and the claim it is bound to.
fn volume(name: &str, size: &str, class: &str, node: &str, claim: &str) -> String {
    let claim_ref = if claim.is_empty() {
        String::new()
    } else {
        alloc::format!(", claimRef: {{namespace: default, name: {claim}}}")
    };
    alloc::format!(
        "---\nkind: PersistentVolume\nmetadata: {{name: {name}}}\nspec: {{capacity: {{storage: {size}}}, accessModes: [ReadWriteOnce], storageClassName: {class}, local: {{path: /d}}{claim_ref}, nodeAffinity: {{required: {{nodeSelectorTerms: [{{matchExpressions: [{{key: nodeKey, operator: In, values: [{node}]}}]}}]}}}}}}\n"
    )
}

/// A claim: name, request, class, the volume it names, and whether binding completed.
fn claim(name: &str, size: &str, class: &str, volume: &str, complete: bool) -> String {
    let annotations = if complete {
        ", annotations: {pv.kubernetes.io/bind-completed: 'yes'}"
    } else {
        ""
    };
    alloc::format!(
        "---\nkind: PersistentVolumeClaim\nmetadata: {{name: {name}, namespace: default{annotations}}}\nspec: {{accessModes: [ReadWriteOnce], resources: {{requests: {{storage: {size}}}}}, storageClassName: {class}, volumeName: '{volume}'}}\n"
    )
}

fn pv_node1a() -> String {
    volume("pv-node1a", "5G", "wait", "node1", "")
}
fn pv_node1b() -> String {
    volume("pv-node1b", "10G", "wait", "node1", "")
}
fn pv_node2() -> String {
    volume("pv-node2", "1G", "wait", "node2", "")
}
fn pv_bound() -> String {
    volume("pv-bound", "10G", "wait", "node1", "bound-pvc")
}
fn unbound_pvc() -> String {
    claim("unbound-pvc", "1G", "wait", "", false)
}
fn unbound_pvc2() -> String {
    claim("unbound-pvc2", "5G", "wait", "", false)
}
fn bound_pvc() -> String {
    claim("bound-pvc", "1G", "wait", "pv-bound", true)
}

fn pod(names: &[&str]) -> String {
    if names.is_empty() {
        pod_with_volumes("test-pod", "", &["emptyDir: {}"])
    } else {
        pod_with_volumes("test-pod", "", &claims(names))
    }
}

/// What the plugin says on node1: the PreFilter rejection, or the Filter's reasons and
/// the chosen volume names.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    Skipped,
    Rejected(String),
    Filtered(Vec<String>, Vec<String>),
}

fn run(objects: &[String], claims: &[&str]) -> Outcome {
    let yaml = String::from(NODES) + &objects.concat() + &pod(claims);
    let sources = [Source::new("t", &yaml)];
    let cluster = Cluster::build(input::load(&sources, &Limits::default()), &sources, None);
    assert!(
        cluster.diagnostics.iter().all(|d| !d.is_error()),
        "{:?}",
        cluster.diagnostics
    );
    let snapshot = Snapshot::new(&cluster, Accounting::Current);
    let entry = cluster
        .pods
        .iter()
        .find(|entry| entry.pod.metadata.name == "test-pod")
        .unwrap();
    let state = match pre_filter(&cluster.storage, &entry.pod) {
        Ok(None) => return Outcome::Skipped,
        Ok(Some(state)) => state,
        Err(status) => {
            assert_eq!(status.code, Code::UnschedulableAndUnresolvable);
            return Outcome::Rejected(status.reasons.join(", "));
        }
    };
    let node = &cluster.nodes[0];
    let status = state.filter(&snapshot, node);
    let found = state
        .claims
        .find(&cluster.storage, &snapshot.volumes, node)
        .unwrap();
    let chosen = found
        .bindings
        .iter()
        .map(|&(volume, claim)| {
            alloc::format!(
                "{}={}",
                cluster.storage.claims[claim].metadata.name,
                cluster.storage.volumes[volume].metadata.name
            )
        })
        .chain(found.provisions.iter().map(|&claim| {
            alloc::format!("{}=provision", cluster.storage.claims[claim].metadata.name)
        }))
        .collect();
    Outcome::Filtered(status.reasons, chosen)
}

fn fits(chosen: &[&str]) -> Outcome {
    Outcome::Filtered(
        Vec::new(),
        chosen.iter().map(|c| String::from(*c)).collect(),
    )
}

fn fails(reason: &str) -> Outcome {
    Outcome::Filtered(alloc::vec![String::from(reason)], Vec::new())
}

#[test]
fn pods_without_claims_are_skipped() {
    assert_eq!(run(&[], &[]), Outcome::Skipped);
}

#[test]
fn bound_claims_check_their_volume() {
    assert_eq!(run(&[bound_pvc(), pv_bound()], &["bound-pvc"]), fits(&[]));
    assert_eq!(run(&[bound_pvc()], &["bound-pvc"]), fails(VOLUME_NOT_EXIST));
    let elsewhere = volume("pv-bound", "10G", "wait", "node2", "bound-pvc");
    assert_eq!(
        run(&[bound_pvc(), elsewhere], &["bound-pvc"]),
        fails(NODE_AFFINITY_CONFLICT)
    );
}

#[test]
fn prebound_and_immediate_claims_are_rejected() {
    let prebound = claim("prebound-pvc", "1G", "wait", "pv-node1a", false);
    assert_eq!(
        run(&[prebound, pv_node1a()], &["prebound-pvc"]),
        Outcome::Rejected(String::from(UNBOUND_IMMEDIATE))
    );
    let immediate = claim("immediate-unbound-pvc", "1G", "immediate", "", false);
    assert_eq!(
        run(
            &[immediate, bound_pvc(), pv_bound()],
            &["immediate-unbound-pvc", "bound-pvc"]
        ),
        Outcome::Rejected(String::from(UNBOUND_IMMEDIATE))
    );
}

#[test]
fn unbound_claims_take_the_smallest_matching_volume_on_the_node() {
    let all = [pv_node2(), pv_node1a(), pv_node1b()];
    let with = |claims: &[String]| {
        let mut objects: Vec<String> = all.to_vec();
        objects.extend(claims.iter().cloned());
        objects
    };
    assert_eq!(
        run(&with(&[unbound_pvc()]), &["unbound-pvc"]),
        fits(&["unbound-pvc=pv-node1a"])
    );
    assert_eq!(
        run(&[pv_node2(), unbound_pvc()], &["unbound-pvc"]),
        fails(BINDING_NO_MATCH)
    );
    let two = with(&[unbound_pvc(), unbound_pvc2()]);
    assert_eq!(
        run(&two, &["unbound-pvc", "unbound-pvc2"]),
        fits(&["unbound-pvc=pv-node1a", "unbound-pvc2=pv-node1b"])
    );
    // order-by-size: the larger claim listed first still gets the larger volume.
    assert_eq!(
        run(&two, &["unbound-pvc2", "unbound-pvc"]),
        fits(&["unbound-pvc=pv-node1a", "unbound-pvc2=pv-node1b"])
    );
    assert_eq!(
        run(
            &[pv_node1a(), unbound_pvc(), unbound_pvc2()],
            &["unbound-pvc", "unbound-pvc2"]
        ),
        Outcome::Filtered(
            alloc::vec![String::from(BINDING_NO_MATCH)],
            alloc::vec![String::from("unbound-pvc=pv-node1a")]
        )
    );
    assert_eq!(
        run(
            &[pv_bound(), pv_node1a(), bound_pvc(), unbound_pvc()],
            &["bound-pvc", "unbound-pvc"]
        ),
        fits(&["unbound-pvc=pv-node1a"])
    );
    assert_eq!(
        run(
            &[pv_bound(), pv_node2(), bound_pvc(), unbound_pvc()],
            &["bound-pvc", "unbound-pvc"]
        ),
        fails(BINDING_NO_MATCH)
    );
}

#[test]
fn delayed_claims_can_be_provisioned_where_the_class_allows() {
    let provisioned = claim("provisioned-pvc", "1G", "wait-provisioner", "", false);
    assert_eq!(
        run(core::slice::from_ref(&provisioned), &["provisioned-pvc"]),
        fits(&["provisioned-pvc=provision"])
    );
    assert_eq!(
        run(
            &[pv_node1a(), unbound_pvc(), provisioned],
            &["unbound-pvc", "provisioned-pvc"]
        ),
        fits(&["unbound-pvc=pv-node1a", "provisioned-pvc=provision"])
    );
    let mismatch = claim("topo-pvc", "1G", "topo-mismatch", "", false);
    assert_eq!(run(&[mismatch], &["topo-pvc"]), fails(BINDING_NO_MATCH));
    // The no-provisioner class cannot provision.
    assert_eq!(
        run(&[unbound_pvc()], &["unbound-pvc"]),
        fails(BINDING_NO_MATCH)
    );
}

#[test]
fn a_claim_selected_for_another_node_fails_fast() {
    let selected = "---\nkind: PersistentVolumeClaim\nmetadata: {name: selected, namespace: default, annotations: {volume.kubernetes.io/selected-node: node2}}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1G}}, storageClassName: wait-provisioner}\n";
    assert_eq!(
        run(&[String::from(selected)], &["selected"]),
        fails(BINDING_NO_MATCH)
    );
}

#[test]
fn generic_ephemeral_volumes_read_their_generated_claim() {
    let yaml_pod = "---\nkind: Pod\nmetadata: {name: eph, namespace: default, uid: pod-uid}\nspec:\n  containers: [{name: c, image: x}]\n  volumes: [{name: scratch, ephemeral: {volumeClaimTemplate: {spec: {accessModes: [ReadWriteOnce]}}}}]\n";
    let rejection = |yaml: &str| {
        let sources = [Source::new("t", yaml)];
        let cluster = Cluster::build(input::load(&sources, &Limits::default()), &sources, None);
        pre_filter(&cluster.storage, &cluster.pods[0].pod)
            .err()
            .map(|status| status.reasons)
    };
    assert_eq!(
        rejection(&(String::from(NODES) + yaml_pod)),
        Some(alloc::vec![String::from(
            "waiting for ephemeral volume controller to create the persistentvolumeclaim \"eph-scratch\""
        )])
    );
    let owned = "---\nkind: PersistentVolumeClaim\nmetadata: {name: eph-scratch, namespace: default, ownerReferences: [{apiVersion: v1, kind: Pod, name: eph, uid: other-uid, controller: true}]}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1G}}, storageClassName: wait-provisioner}\n";
    assert_eq!(
        rejection(&(String::from(NODES) + owned + yaml_pod)),
        Some(alloc::vec![String::from(
            "PVC default/eph-scratch was not created for pod default/eph (pod is not owner)"
        )])
    );
}

/// Without DynamicResources the PreFilter rejection goes to preemption, which no node can
/// help (every node has the rejection's `UnschedulableAndUnresolvable`).
#[test]
fn without_dynamic_resources_preemption_reports_the_rejection() {
    let configuration = "---\napiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n  plugins:\n    postFilter:\n      disabled: [{name: DynamicResources}]\n";
    let immediate = claim("immediate-unbound-pvc", "1G", "immediate", "", false);
    let yaml = String::from(NODES) + configuration + &immediate + &pod(&["immediate-unbound-pvc"]);
    let result = crate::schedule::testing::schedule(&yaml, Version::Current);
    assert_eq!(
        result.pods[0].message.as_deref(),
        Some("0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.")
    );
}

/// `capacitySufficient` compares whole bytes, each side rounded up: a capacity of 500m
/// (1 byte) holds a claim of 700m (1 byte), and not one of 1500m (2 bytes).
#[test]
fn storage_capacity_compares_whole_bytes() {
    let objects = |size: &str| {
        [
            String::from("---\nkind: CSIDriver\napiVersion: storage.k8s.io/v1\nmetadata: {name: test-provisioner}\nspec: {storageCapacity: true}\n---\nkind: CSIStorageCapacity\napiVersion: storage.k8s.io/v1\nmetadata: {name: c1, namespace: kube-system}\nstorageClassName: wait-provisioner\nnodeTopology: {}\ncapacity: 500m\n"),
            claim("small-pvc", size, "wait-provisioner", "", false),
        ]
    };
    assert_eq!(
        run(&objects("700m"), &["small-pvc"]),
        fits(&["small-pvc=provision"])
    );
    assert_eq!(
        run(&objects("1500m"), &["small-pvc"]),
        fails(crate::schedule::volumes::NOT_ENOUGH_SPACE)
    );
}

/// Claims a node was selected for are provisioned in volume order; only the claims left to
/// match are sorted by size (`byPVCSize` in `findMatchingVolumes`), and
/// `checkVolumeProvisions` stops at the first that fails. `big` (first, 10G, a class
/// whose driver has no CSIStorageCapacity) finds no room before `small` (1G, a class
/// that cannot provision) is looked at.
#[test]
fn selected_claims_are_provisioned_in_volume_order() {
    let selected = |name: &str, size: &str, class: &str| {
        alloc::format!("---\nkind: PersistentVolumeClaim\nmetadata: {{name: {name}, namespace: default, annotations: {{volume.kubernetes.io/selected-node: node1}}}}\nspec: {{accessModes: [ReadWriteOnce], resources: {{requests: {{storage: {size}}}}}, storageClassName: {class}}}\n")
    };
    let objects = [
        String::from("---\nkind: CSIDriver\napiVersion: storage.k8s.io/v1\nmetadata: {name: test-provisioner}\nspec: {storageCapacity: true}\n"),
        selected("big", "10G", "wait-provisioner"),
        selected("small", "1G", "wait"),
    ];
    assert_eq!(
        run(&objects, &["big", "small"]),
        fails(crate::schedule::volumes::NOT_ENOUGH_SPACE)
    );
    assert_eq!(run(&objects, &["small", "big"]), fails(BINDING_NO_MATCH));
}
